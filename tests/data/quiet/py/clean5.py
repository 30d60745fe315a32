import shutil
import sys


def nuke():
    shutil.rmtree("src")


getattr(sys.modules[__name__], sys.argv[1])()
