"""The hook's fast entry file: what ``dcg install`` registers, run as a script.

The registered command is ``<python> -I -S <this file> [hook flags]``: isolated mode (no
``PYTHON*`` variables, no script directory on ``sys.path``) and no ``site`` (which costs a
bare start a third again, and more with ``.pth`` files). What ``site`` would have added is
not needed: the hook imports only the standard library and this package, and the package
is found from this file's own location — the directory holding ``dcg/`` — whatever
installed it (a venv, pipx, ``uv tool``, ``pip --user``, an editable checkout's ``src/``).
Nothing but ``sys`` and ``gc`` is imported before the hook itself.
"""

import sys


def main() -> int:
    # One short-lived call allocates many objects and frees them by reference counting;
    # the cyclic collector's passes over the imported modules' tables cost it 5-10% (a
    # stopped command: 2.20 -> 2.08 CPU ratio, 60 interleaved rounds).
    import gc

    gc.disable()
    # .../<root>/dcg/_fast.py -> <root>, by string work: nothing is imported before the hook.
    here = __file__
    cut = max(here.rfind("/"), here.rfind("\\"))
    package = here[:cut]
    cut = max(package.rfind("/"), package.rfind("\\"))
    root = package[:cut] or package[: cut + 1]
    # Run without -I, Python puts this file's directory (the package itself) first.
    path = [p for p in sys.path if p != package]
    if root not in path:
        path.insert(0, root)
    sys.path[:] = path
    from dcg.hook import main as hook_main

    return hook_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
