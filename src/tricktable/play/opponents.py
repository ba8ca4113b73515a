"""The bot a person plays against when they do not choose one.

It is the strongest bot measured for the game whose decisions stay quick enough to wait
for: ``montecarlo`` (thinking 0.5 s a decision, p95 under 0.5 s) wherever duplicate play
showed it beating ``rules`` with the 95% interval above zero (README, "Search bots"),
``rules`` everywhere else. ``--bots`` and the web lobby's seat choices still pick any bot.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_OPPONENTS: Mapping[str, str] = {
    # gains per hand against rules at --think 0.5, duplicate hands, playing for the
    # margin: own score (95% interval); margin over the others where the score's crosses 0
    "spades": "montecarlo",  # +36.5 (+17.4..+55.6), 60 hands
    "dummy-hand-spades": "montecarlo",  # +20.8 (+7.1..+34.6), 60 hands, flip-2 peeks
    "3b-spades": "montecarlo",  # 3 players margin +16.6 (+1.8..+31.4); 4 players +12.4
    "dummy-whist": "montecarlo",  # +1.0 (+0.5..+1.5), 60 hands (whist scores are small)
    "double-dummy-whist": "montecarlo",  # +3.1 (+1.6..+4.6), 40 hands
    "paperless-spades": "montecarlo",  # +0.9 (+0.3..+1.6), 40 hands
}

FALLBACK = "rules"


def default_opponent(game_name: str) -> str:
    """The bot name that fills the other seats of ``game_name`` by default."""
    return DEFAULT_OPPONENTS.get(game_name, FALLBACK)
