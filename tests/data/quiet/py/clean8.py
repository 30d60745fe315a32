import shutil

import click


@click.command()
def nuke():
    shutil.rmtree("src")
