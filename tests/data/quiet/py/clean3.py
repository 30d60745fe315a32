import atexit
import shutil


def nuke():
    shutil.rmtree("src")


atexit.register(nuke)
