import shutil


def nuke():
    shutil.rmtree("src")


def main():
    print("building")


main()
shutil.rmtree("build")
