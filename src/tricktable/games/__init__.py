"""The games. Importing this package registers every game by name."""

from . import spades  # noqa: F401
from . import paperless_spades  # noqa: F401
from . import dummy_hand_spades  # noqa: F401
from . import threeb_spades  # noqa: F401
from . import dummy_whist  # noqa: F401
