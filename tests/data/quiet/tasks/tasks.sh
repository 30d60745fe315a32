run() {
  op=$1
  shift
  case "$op" in
    build|compile) echo building "$@" ;;
    clean) rm -rf apps ;;
    *) echo "unknown $op" ;;
  esac
}
run "$@"
