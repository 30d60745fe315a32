"""The file ``dcg install`` registers: ``<python> -I -S <this file>``; runs dcg._fast.main."""

import sys

# dcg/_fast.py beside this file, loaded by Python's own source loader from its cached
# bytecode: no sys.path entry or finder is set up for it (0.1-0.2 ms a call).
path = __file__[: max(__file__.rfind("/"), __file__.rfind("\\"))] + "/_fast.py"
fast = type(sys)("dcg._fast")
fast.__file__ = path
loader = sys.modules["_frozen_importlib_external"].SourceFileLoader(fast.__name__, path)
exec(loader.get_code(fast.__name__), fast.__dict__)
fast.finish(fast.main())
