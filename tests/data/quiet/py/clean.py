import shutil


def nuke():
    shutil.rmtree("src")


def main():
    print("hi")


if __name__ == "__main__":
    main()
