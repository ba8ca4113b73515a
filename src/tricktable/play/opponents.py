"""The bot a person plays against when they do not choose one.

It is the strongest bot measured for the game whose decisions stay quick enough to wait
for: ``montecarlo`` (thinking 0.5 s a decision, p95 under 0.5 s) wherever duplicate play
showed it beating ``rules`` with the 95% interval above zero (README, "Search bots"),
``rules`` everywhere else. ``--bots`` and the web lobby's seat choices still pick any bot.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_OPPONENTS: Mapping[str, str] = {
    # gains per hand against rules at --think 0.5, duplicate hands (95% interval)
    "spades": "montecarlo",  # +31.0 (+12.4..+49.6), 60 hands
    "dummy-hand-spades": "montecarlo",  # +21.9 (+8.3..+35.5), 60 hands, flip-2 peeks
    "3b-spades": "montecarlo",  # 3 players +19.1 (+5.2..+33.0); 4 players +11.6 (+2.5..+20.6)
    "dummy-whist": "montecarlo",  # +0.7 (+0.3..+1.0), 60 hands (whist scores are small)
    "double-dummy-whist": "montecarlo",  # +2.5 (+1.0..+4.1), 40 hands
    "paperless-spades": "montecarlo",  # +0.7 (+0.1..+1.3), 40 hands
}

FALLBACK = "rules"


def default_opponent(game_name: str) -> str:
    """The bot name that fills the other seats of ``game_name`` by default."""
    return DEFAULT_OPPONENTS.get(game_name, FALLBACK)
