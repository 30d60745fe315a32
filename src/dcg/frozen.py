"""The base of dcg's immutable value objects (rules, commands, matches, replies).

A leaf: it imports nothing, so every layer (model, shell, embedded, hookio, engine) can
build on it without importing another layer. Plain slotted classes rather than
NamedTuples or dataclasses, as ``typing`` and ``dataclasses`` cost the hook more start-up
time than a whole evaluation.
"""


class Frozen:
    """Base for immutable value objects: attributes are set once in __init__."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
