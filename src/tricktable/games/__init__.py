"""The games. Importing this package registers every game by name."""

from . import spades  # noqa: F401
