import shutil


def helper():
    shutil.rmtree("src")


def unused():
    helper()


class Job:
    def run(self):
        shutil.rmtree("src")


print("ok")
