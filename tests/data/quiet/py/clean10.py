import shutil


def outer():
    def inner():
        shutil.rmtree("src")

    return inner


outer()()
