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
