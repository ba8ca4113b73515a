"""The games. Importing this package registers every game by name."""

from . import (  # noqa: F401  (imported to register them)
    dummy_hand_spades,
    dummy_whist,
    paperless_spades,
    spades,
    threeb_spades,
)
