"""Table tests of dcg.shell.parse: every construct, input line -> the simple commands found."""

# ruff: noqa: E501 - table rows stay one per line

from __future__ import annotations

import pytest

from dcg.shell import Command, TooComplex, parse
from dcg.shell.limits import MAX_COMMANDS, MAX_DEPTH, MAX_SIZE


def argvs(line: str) -> list[tuple[str, ...]]:
    return [c.argv for c in parse(line)]


def find(line: str, name: str) -> Command:
    return next(c for c in parse(line) if c.argv[:1] == (name,))


# (line, every simple command's argv in order)
CONSTRUCTS = [
    pytest.param("ls -la", [("ls", "-la")], id="simple"),
    pytest.param("a; b && c || d | e |& f & g", [("a",), ("b",), ("c",), ("d",), ("e",), ("f",), ("g",)], id="operators"),
    pytest.param("a\nb\n\nc", [("a",), ("b",), ("c",)], id="newlines"),
    pytest.param("(cd x && rm -rf y)", [("cd", "x"), ("rm", "-rf", "y")], id="subshell"),
    pytest.param("{ git reset --hard; }", [("git", "reset", "--hard")], id="group"),
    pytest.param("ls $(rm -rf a)", [("rm", "-rf", "a"), ("ls", "$(…)")], id="command-substitution"),
    pytest.param("ls `git clean -fd`", [("git", "clean", "-fd"), ("ls", "`…`")], id="backticks"),
    pytest.param('echo "x $(rm -rf b) y"', [("rm", "-rf", "b"), ("echo", "x $(…) y")], id="substitution-in-double-quotes"),
    pytest.param("X=$(rm -rf /)", [("rm", "-rf", "/")], id="substitution-in-assignment"),
    pytest.param("echo $(ls $(rm -rf c))", [("rm", "-rf", "c"), ("ls", "$(…)"), ("echo", "$(…)")], id="nested-substitution"),
    pytest.param("cat <(rm -rf a) >(git clean -f)", [("rm", "-rf", "a"), ("git", "clean", "-f"), ("cat", "<(…)", ">(…)")], id="process-substitution"),
    pytest.param("echo $((1 + $(rm -rf z)))", [("rm", "-rf", "z"), ("echo", "$((1 + $(rm -rf z)))")], id="arithmetic-with-substitution"),
    pytest.param("echo 'a  b' \"c  d\" $'e\\tf'", [("echo", "a  b", "c  d", "e\tf")], id="quotes"),
    pytest.param("rm $'-\\x72f' x", [("rm", "-rf", "x")], id="ansi-c-hex"),
    pytest.param('"git" reset --hard', [("git", "reset", "--hard")], id="quoted-command-word"),
    pytest.param("\\rm -rf a", [("rm", "-rf", "a")], id="escaped-command-word"),
    pytest.param("g'i't reset --hard", [("git", "reset", "--hard")], id="split-quoted-command-word"),
    pytest.param("rm -rf \\\n  build", [("rm", "-rf", "build")], id="line-continuation"),
    pytest.param("ls # rm -rf /", [("ls",)], id="comment"),
    pytest.param("echo a#b", [("echo", "a#b")], id="hash-inside-word"),
    pytest.param("FOO=1 BAR=2 git status", [("git", "status")], id="assignment-prefix"),
    pytest.param("/usr/bin/RM.EXE -rf a", [("rm", "-rf", "a")], id="path-and-exe"),
    pytest.param("if ok; then rm -rf a; else git clean -f; fi", [("ok",), ("rm", "-rf", "a"), ("git", "clean", "-f")], id="if"),
    # bash never runs a branch whose condition is decided (dcg.shell.conds)
    pytest.param("if true; then rm -rf a; else git clean -f; fi", [("true",), ("rm", "-rf", "a")], id="if-decided"),
    pytest.param("while x; do y; done; until z; do w; done", [("x",), ("y",), ("z",), ("w",)], id="while-until"),
    pytest.param("for f in a b; do rm $f; done", [("rm", "a"), ("rm", "b")], id="for"),
    pytest.param("for ((i=0;i<3;i++)); do rm -rf $i; done", [("rm", "-rf", "$i")], id="arithmetic-for"),
    pytest.param("case $x in a|b) rm -rf a;; *) ls;; esac", [("rm", "-rf", "a"), ("ls",)], id="case"),
    pytest.param("x=$(case a in a) rm -rf /;; esac)", [("rm", "-rf", "/")], id="case-inside-substitution"),
    pytest.param("f() { rm -rf /; }; function g { git reset --hard; }", [("rm", "-rf", "/"), ("git", "reset", "--hard")], id="functions"),
    pytest.param("[[ -f x && $(git clean -f) ]]", [("git", "clean", "-f")], id="double-bracket"),
    pytest.param("! rm -rf a", [("rm", "-rf", "a")], id="negation"),
    pytest.param("rm -rf !(keep)", [("rm", "-rf", "!(keep)")], id="extglob"),
    pytest.param("echo if then fi", [("echo", "if", "then", "fi")], id="keywords-as-arguments"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "expected"), CONSTRUCTS)
def test_constructs(line: str, expected: list[tuple[str, ...]]) -> None:
    assert argvs(line) == expected


REDIRECTS = [
    pytest.param("ls > out", (("> ", "out"),), id="out"),
    pytest.param("ls >> log 2>&1", ((">>", "log"), ("2>&", "1")), id="append-dup"),
    pytest.param("ls &> all >| f 3>>x < in", (("&>", "all"), (">|", "f"), ("3>>", "x"), ("<", "in")), id="more"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "expected"), REDIRECTS)
def test_redirects(line: str, expected: tuple[tuple[str, str], ...]) -> None:
    want = tuple((op.strip(), target) for op, target in expected)
    assert parse(line)[0].redirects == want


def test_redirection_alone_is_a_command() -> None:
    (cmd,) = parse("> ~/.claude/settings.json")
    assert cmd.argv == ()
    assert cmd.text == " >~/.claude/settings.json"


HEREDOCS = [
    pytest.param("cat <<EOF > f\nrm -rf /\nEOF\nls", [("cat",), ("ls",)], "rm -rf /\n", id="heredoc"),
    pytest.param("cat <<'EOF'\n$(rm -rf /)\nEOF", [("cat",)], "$(rm -rf /)\n", id="quoted-heredoc"),
    pytest.param("cat <<-EOF\n\trm x\n\tEOF", [("cat",)], "rm x\n", id="heredoc-strip-tabs"),
    pytest.param("cat <<< 'rm -rf /'", [("cat",)], "rm -rf /\n", id="here-string"),
    pytest.param("cat <<EOF\n$(rm -rf /)\nEOF", [("rm", "-rf", "/"), ("cat",)], "$(rm -rf /)\n", id="unquoted-heredoc-runs-substitutions"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "expected", "stdin"), HEREDOCS)
def test_heredocs(line: str, expected: list[tuple[str, ...]], stdin: str) -> None:
    cmds = parse(line)
    assert [c.argv for c in cmds] == expected
    assert find(line, "cat").stdin == stdin


# (line, argv, via) of the command a wrapper runs
WRAPPERS = [
    pytest.param("sudo rm -rf /", ("rm", "-rf", "/"), ("sudo",), id="sudo"),
    pytest.param("sudo -u root -E rm -rf /", ("rm", "-rf", "/"), ("sudo",), id="sudo-options"),
    pytest.param("doas -u root rm x", ("rm", "x"), ("doas",), id="doas"),
    pytest.param("env -i FOO=1 -u BAR -C /d rm -rf a", ("rm", "-rf", "a"), ("env",), id="env"),
    pytest.param("command rm x", ("rm", "x"), ("command",), id="command"),
    pytest.param("exec rm y", ("rm", "y"), ("exec",), id="exec"),
    pytest.param("nice -n 5 rm z", ("rm", "z"), ("nice",), id="nice"),
    pytest.param("ionice -c 3 -n 7 rm z", ("rm", "z"), ("ionice",), id="ionice"),
    pytest.param("timeout -s KILL --foreground 10 rm z", ("rm", "z"), ("timeout",), id="timeout"),
    pytest.param("nohup rm z", ("rm", "z"), ("nohup",), id="nohup"),
    pytest.param("time -p rm z", ("rm", "z"), ("time",), id="time"),
    pytest.param("stdbuf -oL -e 0 rm z", ("rm", "z"), ("stdbuf",), id="stdbuf"),
    pytest.param("builtin rm z", ("rm", "z"), ("builtin",), id="builtin"),
    pytest.param("ls | xargs -0 -I {} -n 1 -P 4 rm -rf {}", ("rm", "-rf", "{}"), ("xargs",), id="xargs"),
    pytest.param("sudo -u root env FOO=1 xargs -r rm -rf", ("rm", "-rf"), ("sudo", "env", "xargs"), id="chain"),
    pytest.param("sudo -s rm -rf a", ("rm", "-rf", "a"), ("sudo",), id="sudo-s"),
    pytest.param("git -C x -c a=b --git-dir=.git --work-tree w --no-pager -P reset --hard", ("git", "reset", "--hard"), ("git -C x", "git --git-dir .git", "git --work-tree w"), id="git-globals"),
    pytest.param("git --git-dir .git --namespace n --bare push -f", ("git", "push", "-f"), ("git --git-dir .git",), id="git-globals-separate-values"),
    pytest.param("busybox rm -rf src", ("rm", "-rf", "src"), ("busybox",), id="busybox"),
    pytest.param("flock -w 5 /tmp/l rm -rf build", ("rm", "-rf", "build"), ("flock",), id="flock"),
    pytest.param("chroot /mnt rm -rf /", ("rm", "-rf", "/"), ("chroot",), id="chroot"),
    pytest.param("git -c alias.nuke='reset --hard' nuke", ("git", "reset", "--hard"), (), id="git-c-alias"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "argv", "via"), WRAPPERS)
def test_wrappers(line: str, argv: tuple[str, ...], via: tuple[str, ...]) -> None:
    cmd = next(c for c in parse(line) if c.argv[:1] == argv[:1])
    assert (cmd.argv, cmd.via) == (argv, via)


def test_command_v_is_a_query() -> None:
    (cmd,) = parse("command -v rm")
    assert cmd.words == ("command",)
    assert cmd.data == (("-v", "command lookup"), ("rm", "command lookup"))


# (line, argv of the payload command, its via): payloads parsed as commands of their own
PAYLOADS = [
    pytest.param("bash -c 'rm -rf /'", ("rm", "-rf", "/"), ("bash -c",), id="bash-c"),
    pytest.param("sh -ec \"git reset --hard\"", ("git", "reset", "--hard"), ("sh -c",), id="sh-ec"),
    pytest.param("bash -lc 'rm -rf a'", ("rm", "-rf", "a"), ("bash -c",), id="bash-lc"),
    pytest.param("zsh -x -c 'rm a'", ("rm", "a"), ("zsh -c",), id="zsh-x-c"),
    pytest.param("sudo bash -c 'rm -rf /'", ("rm", "-rf", "/"), ("sudo", "bash -c"), id="sudo-bash-c"),
    pytest.param("eval 'rm -rf b'", ("rm", "-rf", "b"), ("eval",), id="eval"),
    pytest.param("eval rm -rf b", ("rm", "-rf", "b"), ("eval",), id="eval-words"),
    pytest.param("env -S 'rm -rf b'", ("rm", "-rf", "b"), ("env -S",), id="env-S"),
    pytest.param("ssh -p 22 host 'rm -rf /'", ("rm", "-rf", "/"), ("ssh",), id="ssh"),
    pytest.param("ssh host rm -rf /srv", ("rm", "-rf", "/srv"), ("ssh",), id="ssh-words"),
    pytest.param("docker exec -it c rm -rf /data", ("rm", "-rf", "/data"), ("docker exec",), id="docker-exec"),
    pytest.param("docker exec c sh -c 'rm -rf /data'", ("rm", "-rf", "/data"), ("docker exec", "sh -c"), id="docker-exec-sh-c"),
    pytest.param("podman exec -u root c rm x", ("rm", "x"), ("podman exec",), id="podman-exec"),
    pytest.param("kubectl exec -n ns pod -- rm -rf /x", ("rm", "-rf", "/x"), ("kubectl exec",), id="kubectl-exec"),
    pytest.param("su - root -c 'rm -rf b'", ("rm", "-rf", "b"), ("su",), id="su"),
    pytest.param("watch -n 1 'rm -rf c'", ("rm", "-rf", "c"), ("watch",), id="watch"),
    pytest.param("parallel rm -rf ::: a b", ("rm", "-rf", "a"), ("parallel",), id="parallel"),
    pytest.param("find . -exec rm -rf {} +", ("rm", "-rf", "{}"), ("find -exec",), id="find-exec"),
    pytest.param("find . -name x -execdir rm {} \\;", ("rm", "{}"), ("find -execdir",), id="find-execdir"),
    pytest.param("find . -ok rm {} ';'", ("rm", "{}"), ("find -ok",), id="find-ok"),
    pytest.param("find . -exec sh -c 'rm -rf \"$1\"' _ {} \\;", ("rm", "-rf", "{}"), ("find -exec", "sh -c"), id="find-exec-sh-c"),
    pytest.param("ls | xargs sh -c 'rm -rf a'", ("rm", "-rf", "a"), ("xargs", "sh -c"), id="xargs-sh-c"),
    pytest.param("bash <<EOF\nrm -rf /\nEOF", ("rm", "-rf", "/"), ("stdin of bash",), id="shell-heredoc"),
    pytest.param("sh <<< 'rm -rf /'", ("rm", "-rf", "/"), ("stdin of sh",), id="shell-here-string"),
    pytest.param("echo 'git reset --hard' | bash", ("git", "reset", "--hard"), ("stdin of bash",), id="echo-pipe-bash"),
    pytest.param("printf 'rm -rf a\\n' | sh", ("rm", "-rf", "a"), ("stdin of sh",), id="printf-pipe-sh"),
    pytest.param("cat <<EOF | sh\nrm -rf /\nEOF", ("rm", "-rf", "/"), ("stdin of sh",), id="cat-heredoc-pipe-sh"),
    pytest.param("trap 'rm -rf /tmp/x' EXIT", ("rm", "-rf", "/tmp/x"), ("trap",), id="trap"),
    pytest.param("ssh host -- rm -rf /data", ("rm", "-rf", "/data"), ("ssh",), id="ssh-double-dash"),
    pytest.param("flock /tmp/l -c 'git reset --hard'", ("git", "reset", "--hard"), ("flock -c",), id="flock-c"),
    pytest.param("script -qc 'git clean -fdx' /dev/null", ("git", "clean", "-fdx"), ("script -c",), id="script-c"),
    pytest.param("awk 'BEGIN { system(\"rm -rf src\") }'", ("rm", "-rf", "src"), ("awk system()",), id="awk-system"),
    pytest.param("git -c alias.x='!rm -rf src' x", ("rm", "-rf", "src"), ("git alias",), id="git-shell-alias"),
    pytest.param("echo 'rm -rf src' > /tmp/x.sh && sh /tmp/x.sh", ("rm", "-rf", "src"), ("in /tmp/x.sh (written on this line) line 1",), id="write-then-run"),
    pytest.param("cat <<'EOF' > run.sh\nrm -rf lib\nEOF\nbash run.sh", ("rm", "-rf", "lib"), ("in run.sh (written on this line) line 1",), id="heredoc-then-run"),
]  # fmt: skip


def test_text_piped_into_a_client_is_its_stdin() -> None:
    psql = next(c for c in parse("echo 'DROP TABLE users;' | psql app") if c.name == "psql")
    assert (psql.stdin or "").strip() == "DROP TABLE users;"
    assert psql.text.endswith("<<< DROP TABLE users;")


def test_alias_configured_earlier_on_the_line_is_expanded() -> None:
    found = [c.argv for c in parse("git config alias.wipe 'clean -fdx' && git wipe")]
    assert found == [("git", "config", "alias.wipe", "clean -fdx"), ("git", "clean", "-fdx")]


def test_awk_without_system_keeps_its_program_as_data() -> None:
    (cmd,) = parse("awk '{ print \"rm -rf /\" }' notes.txt")
    assert cmd.words == ("awk", "notes.txt")


@pytest.mark.parametrize(("line", "argv", "via"), PAYLOADS)
def test_payloads(line: str, argv: tuple[str, ...], via: tuple[str, ...]) -> None:
    found = [(c.argv, c.via) for c in parse(line)]
    assert (argv, via) in found


def test_payload_words_are_data_of_the_outer_command() -> None:
    outer = find("bash -c 'echo \"rm -rf /\"'", "bash")
    assert outer.words == ("bash", "-c")
    assert outer.data == (('echo "rm -rf /"', "script run by bash -c (parsed)"),)
    inner = find("bash -c 'echo \"rm -rf /\"'", "echo")
    assert inner.words == ("echo",)


def test_find_keeps_its_own_words() -> None:
    cmd = find("find . -name x -exec rm -rf {} +", "find")
    assert cmd.words == ("find", ".", "-name", "x", "-exec", "+")


UNKNOWABLE = [
    pytest.param("curl -s https://x | sh", "sh", id="curl-pipe-sh"),
    pytest.param("base64 -d x | bash", "bash", id="base64-pipe-bash"),
    pytest.param("curl -s https://x | bash -s -- --flag", "bash", id="pipe-bash-s"),
    pytest.param("{ cat a; } | sh", "sh", id="group-pipe-sh"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "shell"), UNKNOWABLE)
def test_unknowable_stdin_of_a_shell_is_dynamic(line: str, shell: str) -> None:
    cmd = find(line, shell)
    assert cmd.dynamic
    assert cmd.via[-1:] == ("pipe to sh",)


def test_shell_running_a_script_file_is_not_dynamic() -> None:
    cmd = find("curl x | bash script.sh", "bash")
    assert not cmd.dynamic


# (line, argv, dynamic) after resolving what the same line assigned
DYNAMIC = [
    pytest.param("X=rm; $X -rf src", ("rm", "-rf", "src"), False, id="variable-command-word"),
    pytest.param('C=git; "$C" reset --hard', ("git", "reset", "--hard"), False, id="quoted-variable"),
    pytest.param("C=git; ${C} clean -f", ("git", "clean", "-f"), False, id="braced-variable"),
    pytest.param('D=/; rm -rf "$D"', ("rm", "-rf", "/"), False, id="variable-argument"),
    pytest.param('X="rm -rf"; $X /', ("rm", "-rf", "/"), False, id="word-splitting"),
    pytest.param("export T=/srv; rm -rf $T", ("rm", "-rf", "/srv"), False, id="export"),
    pytest.param("$(echo rm) -rf src", ("rm", "-rf", "src"), False, id="echo-substitution"),
    pytest.param("$(printf %s rm) -rf src", ("rm", "-rf", "src"), False, id="printf-substitution"),
    pytest.param("`echo git` reset --hard", ("git", "reset", "--hard"), False, id="echo-backticks"),
    pytest.param("$CMD --hard", ("$CMD", "--hard"), True, id="unknown-variable"),
    pytest.param("${CMD} --hard", ("${CMD}", "--hard"), True, id="unknown-braced"),
    pytest.param("$(cat f) -rf src", ("$(…)", "-rf", "src"), True, id="unknown-substitution"),
    pytest.param("X=$(cat f); $X -rf src", ("$X", "-rf", "src"), True, id="dynamically-assigned"),
    pytest.param('rm -rf "$HOME/x"', ("rm", "-rf", "$HOME/x"), True, id="home-kept"),
    pytest.param("rm -rf ~ ~/x", ("rm", "-rf", "~", "~/x"), False, id="tilde-kept"),
    pytest.param('rm -rf "$BUILD_DIR/"', ("rm", "-rf", "$BUILD_DIR/"), True, id="unset-kept"),
    pytest.param("X=rm $X -rf a", ("$X", "-rf", "a"), True, id="prefix-assignment-does-not-apply"),
    pytest.param("for d in $Y; do rm -rf $d; done", ("rm", "-rf", "$(…)"), True, id="loop-variable"),
    pytest.param("for d in a b; do rm -rf $d; done", ("rm", "-rf", "b"), False, id="loop-words"),
    pytest.param("echo $X", ("echo", "$X"), False, id="dynamic-data-is-not-dynamic"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "argv", "dynamic"), DYNAMIC)
def test_dynamic_words(line: str, argv: tuple[str, ...], dynamic: bool) -> None:
    cmd = [c for c in parse(line) if c.name != "<opaque>"][-1]
    assert (cmd.argv, cmd.dynamic) == (argv, dynamic)


# Stopped style: the destructive argv is found however it is dressed up.
STOPPED = [
    pytest.param("echo ok && rm -rf /", id="after-echo"),
    pytest.param("ls; sudo -n rm -rf /", id="sudo"),
    pytest.param("bash -c \"sh -c 'rm -rf /'\"", id="nested-shells"),
    pytest.param("eval \"$(echo rm) -rf /\"", id="eval-substitution"),
    pytest.param("ssh host \"bash -c 'rm -rf /'\"", id="ssh-bash"),
    pytest.param("true | xargs -I{} rm -rf /", id="xargs"),
    pytest.param("R=rm; F=-rf; $R $F /", id="variables"),
    pytest.param("find / -exec rm -rf / \\;", id="find-exec"),
]  # fmt: skip


@pytest.mark.parametrize("line", STOPPED)
def test_destructive_argv_is_found(line: str) -> None:
    assert any(c.words == ("rm", "-rf", "/") for c in parse(line))


# Passing style: the dangerous phrase is only data, no command's words carry it.
PASSING = [
    pytest.param("echo 'rm -rf /'", id="echo"),
    pytest.param("git commit -m 'rm -rf / was a bad idea'", id="commit-message"),
    pytest.param("grep -r 'rm -rf /' .", id="grep"),
    pytest.param("cat <<'EOF' > notes.md\nrm -rf /\nEOF", id="heredoc-to-cat"),
    pytest.param("ls # rm -rf /", id="comment"),
    pytest.param("bash -c 'echo \"rm -rf /\"'", id="echo-in-bash-c"),
    pytest.param("ls \"$(grep 'rm -rf /' f)\"", id="grep-in-substitution"),
    pytest.param("gh pr create --title 'rm -rf /' --body 'rm -rf /'", id="gh"),
]  # fmt: skip


@pytest.mark.parametrize("line", PASSING)
def test_dangerous_text_stays_data(line: str) -> None:
    assert all("rm -rf /" not in " ".join(c.words) for c in parse(line))


def test_embedded_code_is_analyzed() -> None:
    cmds = parse("python3 -c \"import shutil; shutil.rmtree('/')\"")
    assert cmds[0].words == ("python3", "-c")
    assert any(c.argv[:1] == ("rm",) and c.argv[-1] == "/" for c in cmds[1:])


def test_embedded_heredoc_is_analyzed() -> None:
    cmds = parse("python3 - <<EOF\nimport os\nos.system('git reset --hard')\nEOF")
    assert any(c.argv == ("git", "reset", "--hard") for c in cmds)


BOUNDS = [
    pytest.param("$(" * (MAX_DEPTH + 2) + "ls" + ")" * (MAX_DEPTH + 2), id="substitution-depth"),
    pytest.param("( " * (MAX_DEPTH + 2) + "ls" + " )" * (MAX_DEPTH + 2), id="subshell-depth"),
    pytest.param("eval " * 40 + "ls", id="eval-depth"),
    pytest.param("x" * (MAX_SIZE + 1), id="size"),
    pytest.param("a;" * (MAX_COMMANDS + 1), id="commands"),
    pytest.param("a " * 60_000, id="tokens"),
]  # fmt: skip


@pytest.mark.parametrize("line", BOUNDS)
def test_bounds(line: str) -> None:
    with pytest.raises(TooComplex):
        parse(line)


def test_deadline() -> None:
    with pytest.raises(TooComplex):
        parse("a;" * 500, deadline=0.0)


def test_nested_bash_c_below_the_bound_is_parsed() -> None:
    line = "bash -c 'rm -rf /'"
    for _ in range(5):
        line = "bash -c " + "'" + line.replace("'", "'\\''") + "'"
    assert any(c.argv == ("rm", "-rf", "/") and len(c.via) == 6 for c in parse(line))


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        pytest.param("bash -c \"$(printf 'rm -rf %s' src)\"", ("rm", "-rf", "src"), id="printf-s"),
        pytest.param("$(printf '%s%s' r m) -rf src", ("rm", "-rf", "src"), id="printf-two-args"),
        pytest.param("X=$(printf 'git %s' reset); $X --hard", ("git", "reset", "--hard"), id="var"),
    ],
)
def test_printf_formats_are_resolved(line: str, argv: tuple[str, ...]) -> None:
    assert argv in [c.argv for c in parse(line)]


def test_printf_with_other_conversions_stays_unresolved() -> None:
    found = parse("$(printf '%x' 255) -rf src")
    (cmd,) = [c for c in found if c.via == () and c.name != "<opaque>"]
    assert cmd.dynamic
