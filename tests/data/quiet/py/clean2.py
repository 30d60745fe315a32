import shutil


def nuke():
    shutil.rmtree("src")


def main():
    nuke()


main()
