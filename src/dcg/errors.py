"""The one expected error type: a message for the user, printed as one line."""


class DcgError(Exception):
    """An expected failure (bad argument, missing file…): one clean line, non-zero exit."""

    exit_code = 2
