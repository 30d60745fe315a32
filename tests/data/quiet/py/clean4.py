import shutil
import sys


def nuke():
    shutil.rmtree("src")


def build():
    print("build")


COMMANDS = {"build": build, "clean": nuke}
COMMANDS[sys.argv[1]]()
