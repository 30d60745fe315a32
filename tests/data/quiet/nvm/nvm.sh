# A hand-written extract in the shape of nvm's nvm.sh (Node Version Manager, MIT): not
# nvm's own text. What matters for dcg is kept: a library of functions sourced into the
# shell, a top-level block that finds NVM_DIR, the `nvm` dispatcher that switches on its
# first argument (use, install, uninstall, cache clear…), and the auto-use at the end.

{ # this ensures the entire script is downloaded #

NVM_SCRIPT_SOURCE="$_"

nvm_echo() {
  command printf %s\\n "$*" 2>/dev/null
}

nvm_err() {
  >&2 nvm_echo "$@"
}

nvm_has() {
  type "${1-}" >/dev/null 2>&1
}

nvm_cd() {
  \cd "$@"
}

if [ -z "${NVM_DIR-}" ]; then
  if [ -n "${BASH_SOURCE-}" ]; then
    NVM_SCRIPT_SOURCE="${BASH_SOURCE[0]}"
  fi
  NVM_DIR="$(nvm_cd ${NVM_CD_FLAGS} "$(dirname "${NVM_SCRIPT_SOURCE:-$0}")" >/dev/null && \pwd)"
  export NVM_DIR
fi
unset NVM_SCRIPT_SOURCE 2>/dev/null

nvm_version_dir() {
  local NVM_WHICH_DIR
  NVM_WHICH_DIR="${1-}"
  if [ -z "${NVM_WHICH_DIR}" ] || [ "${NVM_WHICH_DIR}" = "new" ]; then
    nvm_echo "${NVM_DIR}/versions/node"
  elif [ "_${NVM_WHICH_DIR}" = "_iojs" ]; then
    nvm_echo "${NVM_DIR}/versions/io.js"
  else
    nvm_err 'unknown version dir'
    return 3
  fi
}

nvm_version_path() {
  local VERSION
  VERSION="${1-}"
  if [ -z "${VERSION}" ]; then
    nvm_err 'version is required'
    return 3
  fi
  nvm_echo "$(nvm_version_dir new)/${VERSION}"
}

nvm_cache_dir() {
  nvm_echo "${NVM_DIR}/.cache"
}

nvm_alias_path() {
  nvm_echo "${NVM_DIR}/alias"
}

nvm_ls_current() {
  local NVM_LS_CURRENT_NODE_PATH
  if ! NVM_LS_CURRENT_NODE_PATH="$(command which node 2>/dev/null)"; then
    nvm_echo 'none'
  else
    nvm_echo "$(node --version 2>/dev/null)"
  fi
}

nvm_resolve_alias() {
  if [ -z "${1-}" ]; then
    return 1
  fi
  local ALIAS_PATH
  ALIAS_PATH="$(nvm_alias_path)/${1}"
  if [ -f "${ALIAS_PATH}" ]; then
    command head -n 1 "${ALIAS_PATH}"
  fi
}

nvm_ensure_version_installed() {
  local PROVIDED_VERSION
  PROVIDED_VERSION="${1-}"
  local NVM_VERSION_DIR
  NVM_VERSION_DIR="$(nvm_version_path "$(nvm_resolve_alias "${PROVIDED_VERSION}" || nvm_echo "${PROVIDED_VERSION}")")"
  if [ ! -d "${NVM_VERSION_DIR}" ]; then
    nvm_err "N/A: version \"${PROVIDED_VERSION}\" is not yet installed."
    return 1
  fi
}

nvm_strip_path() {
  nvm_echo "${1-}" | command awk -v NVM_DIR="${NVM_DIR}" -v RS=: '
  index($0, NVM_DIR) == 1 { next }
  { printf "%s%s", sep, $0; sep=RS }'
}

nvm_change_path() {
  if [ -z "${1-}" ]; then
    nvm_echo "${3-}${2-}"
  else
    nvm_echo "${3-}${2-}:$(nvm_strip_path "${1-}")"
  fi
}

nvm_download() {
  if nvm_has "curl"; then
    curl --fail --compressed -q "$@"
  elif nvm_has "wget"; then
    wget -q "$@"
  fi
}

nvm_install_binary() {
  local VERSION
  VERSION="${1-}"
  local NVM_TMP
  NVM_TMP="$(mktemp -d)"
  local TARBALL
  TARBALL="${NVM_TMP}/node-${VERSION}-linux-x64.tar.xz"
  if nvm_download -L -o "${TARBALL}" "https://nodejs.org/dist/${VERSION}/node-${VERSION}-linux-x64.tar.xz"; then
    command mkdir -p "$(nvm_version_path "${VERSION}")"
    command tar -xJf "${TARBALL}" -C "$(nvm_version_path "${VERSION}")" --strip-components 1
  fi
  command rm -rf "${NVM_TMP}"
}

# Branches the usual calls never take, on values the call itself sets: dcg must not judge
# them for `nvm use 20` (dcg.shell.conds), and must judge them when they are taken.
nvm_reset_npm() {
  local NVM_NPM_CMD
  NVM_NPM_CMD='npm'
  if [ "${NVM_DEBUG-}" = 1 ]; then
    NVM_NPM_CMD='nvm_echo npm'
  fi
  $NVM_NPM_CMD install -g npm@latest
}

nvm_purge_cache() {
  if [ "$#" -gt 0 ] && [ "${1-}" = '--purge' ]; then
    command rm -rf "$(nvm_cache_dir)"
  fi
}

nvm_fetch_installer() {
  nvm_download -L 'https://example.invalid/nvm/install.sh' | sh
}

nvm() {
  if [ "$#" -lt 1 ]; then
    nvm --help
    return
  fi

  # Run again, with the arguments it was given, under a plain IFS and without errexit
  # or allexport (the library calls itself like this; dcg cannot tell $- or IFS here).
  local PLAIN_IFS
  PLAIN_IFS=" $(nvm_echo t | command tr t \\t)
"
  case $- in
    *e*)
      set +e
      IFS="${PLAIN_IFS}" nvm "$@"
      local STATUS=$?
      set -e
      return "${STATUS}"
    ;;
    *a*)
      set +a
      IFS="${PLAIN_IFS}" nvm "$@"
      set -a
      return
    ;;
  esac
  if [ "${IFS}" != "${PLAIN_IFS}" ]; then
    IFS="${PLAIN_IFS}" nvm "$@"
    return $?
  fi

  local COMMAND
  COMMAND="${1-}"
  shift

  local i
  for i in "$@"; do
    case $i in
      --) break ;;
      '-h'|'help'|'--help')
        nvm_echo 'Usage: nvm use|install|uninstall|ls|current|alias|cache'
        return 0
      ;;
    esac
  done

  case $COMMAND in
    'help' | '--help')
      nvm_echo 'Node Version Manager'
    ;;
    'cache')
      case "${1-}" in
        dir) nvm_cache_dir ;;
        clear)
          local DIR
          DIR="$(nvm_cache_dir)"
          if command rm -rf "${DIR}" && command mkdir -p "${DIR}"; then
            nvm_echo 'nvm cache cleared.'
          else
            nvm_err "Unable to clear nvm cache: ${DIR}"
            return 1
          fi
        ;;
        *)
          >&2 nvm --help
          return 127
        ;;
      esac
    ;;
    'install' | 'i')
      local VERSION
      VERSION="${1-}"
      nvm_install_binary "${VERSION}"
      nvm use "${VERSION}"
    ;;
    'uninstall')
      local VERSION_PATH
      VERSION_PATH="$(nvm_version_path "${1-}")"
      nvm_echo "Uninstalling node ${1-}..."
      command rm -rf "${VERSION_PATH}"
    ;;
    'deactivate')
      PATH="$(nvm_strip_path "${PATH}")"
      export PATH
      hash -r
    ;;
    'use')
      local PROVIDED_VERSION
      local NVM_SILENT
      local NVM_USE_MODE
      NVM_USE_MODE='switch'
      local NVM_LATEST_NPM
      NVM_LATEST_NPM=0
      while [ $# -ne 0 ]; do
        case "$1" in
          --silent) NVM_SILENT=1 ;;
          --lts | --lts=*) PROVIDED_VERSION='lts/*' ;;
          --) ;;
          --*) ;;
          *)
            if [ -n "${1-}" ]; then
              PROVIDED_VERSION="$1"
            fi
          ;;
        esac
        shift
      done
      if [ "_${NVM_USE_MODE}" = '_reinstall' ]; then
        command rm -rf "$(nvm_version_path "${PROVIDED_VERSION}")"
        nvm_fetch_installer
      elif [ "_${NVM_USE_MODE}" != '_switch' ]; then
        nvm_err "Unknown mode: ${NVM_USE_MODE}"
        return 1
      elif ! nvm_ensure_version_installed "${PROVIDED_VERSION}"; then
        return 3
      fi
      [ "${NVM_LATEST_NPM}" -eq 1 ] && nvm_reset_npm
      [ "${NVM_LATEST_NPM}" -ne 1 ] || nvm_reset_npm
      test "_${NVM_USE_MODE}" = '_switch' || nvm_purge_cache --purge
      nvm_purge_cache
      PATH="$(nvm_change_path "${PATH}" "/bin" "$(nvm_version_path "${PROVIDED_VERSION}")")"
      export PATH
      hash -r
      export NVM_BIN="$(nvm_version_path "${PROVIDED_VERSION}")/bin"
      if [ "${NVM_SILENT:-0}" -ne 1 ]; then
        nvm_echo "Now using node ${PROVIDED_VERSION}"
      fi
    ;;
    'ls' | 'list')
      command ls -1 "$(nvm_version_dir new)"
    ;;
    'current')
      nvm_ls_current
    ;;
    'alias')
      command mkdir -p "$(nvm_alias_path)"
      if [ -n "${2-}" ]; then
        nvm_echo "${2}" | command tee "$(nvm_alias_path)/${1-}" >/dev/null
      fi
    ;;
    'unalias')
      command rm -f "$(nvm_alias_path)/${1-}"
    ;;
    'which')
      nvm_echo "$(nvm_version_path "${1-}")/bin/node"
    ;;
    '--version' | '-v')
      nvm_echo '0.39.7'
    ;;
    'unload')
      unset -f nvm nvm_echo nvm_err nvm_has nvm_cd nvm_version_dir nvm_version_path \
        nvm_cache_dir nvm_alias_path nvm_ls_current nvm_resolve_alias \
        nvm_ensure_version_installed nvm_strip_path nvm_change_path nvm_download \
        nvm_install_binary nvm_auto nvm_process_parameters >/dev/null 2>&1
      unset NVM_DIR NVM_BIN >/dev/null 2>&1
    ;;
    *)
      >&2 nvm --help
      return 127
    ;;
  esac
}

nvm_auto() {
  local NVM_MODE
  NVM_MODE="${1-}"
  local VERSION
  if [ "_${NVM_MODE}" = '_install' ]; then
    VERSION="$(nvm_resolve_alias default 2>/dev/null || nvm_echo)"
    if [ -n "${VERSION}" ]; then
      nvm install "${VERSION}" >/dev/null
    fi
  elif [ "_${NVM_MODE}" = '_use' ]; then
    VERSION="$(nvm_resolve_alias default 2>/dev/null || nvm_echo)"
    if [ -n "${VERSION}" ] && [ "_${VERSION}" != '_N/A' ]; then
      nvm use --silent "${VERSION}" >/dev/null
    fi
  elif [ "_${NVM_MODE}" != '_none' ]; then
    nvm_err 'Invalid auto mode supplied.'
    return 1
  fi
}

nvm_process_parameters() {
  local NVM_AUTO_MODE
  NVM_AUTO_MODE='use'
  while [ "$#" -ne 0 ]; do
    case "$1" in
      --install) NVM_AUTO_MODE='install' ;;
      --no-use) NVM_AUTO_MODE='none' ;;
    esac
    shift
  done
  nvm_auto "${NVM_AUTO_MODE}"
}

nvm_process_parameters "$@"

} # this ensures the entire script is downloaded #
