"""Places to play, on top of the engine and the bots: the table runner (seats, deals,
agents, records, resume), the terminal game and bot-vs-bot simulation. The web server
and the terminal are two faces on the same ``table``."""

# The search bots register themselves by name beside the rule bots: every place to play
# (the terminal, simulations, the web tables) can seat them.
from ..search import ismcts, montecarlo, pimc, strong  # noqa: F401
