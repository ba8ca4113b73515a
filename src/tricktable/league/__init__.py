"""The league: players, groups and sessions, and statistics across games (docs/league.md).

Plain Python over a sequence of finished games (``GameEntry``): ``threeb_history`` for the
3B score sheet, ``player_stats`` / ``head_to_head`` / ``stakes`` for every game;
``entry_from_record`` turns a v1 record into an entry.
"""

from .importer import entry_from_record, record_key
from .model import GameEntry, LeagueError, Mark, PlayerResult, StakeFacts, ThreeBFacts
from .stats import head_to_head, player_stats, stakes
from .threeb import threeb_history, week_of

__all__ = [
    "GameEntry",
    "LeagueError",
    "Mark",
    "PlayerResult",
    "StakeFacts",
    "ThreeBFacts",
    "entry_from_record",
    "head_to_head",
    "player_stats",
    "record_key",
    "stakes",
    "threeb_history",
    "week_of",
]
