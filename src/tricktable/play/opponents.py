"""The bot a person plays against when they do not choose one.

It is the strongest bot measured for the game whose decisions stay quick enough to wait
for: ``montecarlo`` (thinking 0.5 s a decision, p95 under 0.5 s) wherever duplicate play
showed it beating ``rules`` with the 95% interval above zero (docs/bots.md),
``rules`` everywhere else. ``--bots`` and the web lobby's seat choices still pick any bot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_OPPONENTS: Mapping[str, str] = {
    # gains per hand against rules at --think 0.5, duplicate hands, playing for the
    # margin in worlds weighted by the bids: own score (95% interval)
    "spades": "montecarlo",  # +32.1 (+20.3..+43.9), 120 hands
    "dummy-hand-spades": "montecarlo",  # +24.2 (+7.5..+41.0), 60 hands, flip-2 peeks
    "3b-spades": "montecarlo",  # 3 players +15.6 (+2.0..+29.1); 4 players +27.3 (+17.8..+36.9)
    "dummy-whist": "montecarlo",  # +0.8 (+0.3..+1.2), 60 hands (whist scores are small)
    "double-dummy-whist": "montecarlo",  # +3.1 (+1.6..+4.6), 40 hands
    "paperless-spades": "montecarlo",  # +0.7 (+0.3..+1.1), 80 hands
}

FALLBACK = "rules"


def default_opponent(game_name: str) -> str:
    """The bot name that fills the other seats of ``game_name`` by default."""
    return DEFAULT_OPPONENTS.get(game_name, FALLBACK)


@dataclass(frozen=True)
class Level:
    """A bot as a person picks it: by how well it plays, in words; the bot behind it is
    the measured one (docs/bots.md)."""

    level: str
    label: str
    about: str
    bot: str


def bot_levels(game_name: str) -> list[Level]:
    """The strengths a person picks from for ``game_name``, weakest first."""
    strong = default_opponent(game_name)
    levels = [Level("casual", "Casual", "plays by simple rules of thumb and answers at once",
                    FALLBACK)]
    if strong != FALLBACK:
        levels.append(Level("strong", "Strong", "thinks about the cards it cannot see "
                            "(half a second a move) and beats the casual bot", strong))
    return levels


def level_of(game_name: str, bot: str) -> Level | None:
    """The level a bot name stands for at ``game_name`` (None: a bot picked by name)."""
    return next((level for level in bot_levels(game_name) if level.bot == bot), None)
