"""The bot a person plays against when they do not choose one.

It is the strongest bot measured for the game whose decisions stay quick enough to wait
for: ``montecarlo`` where duplicate play showed it beating ``rules`` with the 95%
interval above zero (README, "Search bots"), ``rules`` everywhere else. ``--bots`` and
the web lobby's seat choices still pick any bot.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_OPPONENTS: Mapping[str, str] = {
    # +14.4 points a hand against rules (95% interval +5.7..+23.1, 120 duplicate hands)
    "dummy-hand-spades": "montecarlo",
    # +4.5 points a hand (+2.2..+6.8); decisions p95 under a second on 2 cores
    "double-dummy-whist": "montecarlo",
}

FALLBACK = "rules"


def default_opponent(game_name: str) -> str:
    """The bot name that fills the other seats of ``game_name`` by default."""
    return DEFAULT_OPPONENTS.get(game_name, FALLBACK)
