"""Errors the engine raises. Every one says what was wrong and what is allowed."""

from __future__ import annotations


class TricktableError(Exception):
    """Base class of every error tricktable raises on bad input."""


class IllegalAction(TricktableError):
    """An action the rules do not allow now. The state is left exactly as it was.

    ``rule`` names the rule broken (short, e.g. "follow suit"); ``allowed`` says what the
    seat may do instead, in record notation where that is possible.
    """

    def __init__(self, rule: str, detail: str, allowed: str = "") -> None:
        self.rule = rule
        self.detail = detail
        self.allowed = allowed
        message = f"{detail} ({rule})"
        if allowed:
            message += f"; allowed: {allowed}"
        super().__init__(message)


class NotationError(TricktableError):
    """Text that is not an action, card or option in the record notation."""


class OptionError(TricktableError):
    """A table option that does not exist or has a value it cannot take."""


class RecordError(TricktableError):
    """A record that cannot be read or replayed; says where and why."""


SHOWN = 40
"""The most characters of a refused value that an error message shows."""


def shown(value: object, limit: int = SHOWN) -> str:
    """A refused value as an error message shows it: its repr, cut to ``limit`` characters
    (a 5,000-character value must not make a 5,000-character message)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        # a number this long is not worth showing (and past 4,300 digits cannot be)
        return "a number of more than 38 digits"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
