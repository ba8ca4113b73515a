"""What the league remembers of a finished game, as plain data (docs/league.md).

A ``GameEntry`` is one finished game: when and where it was played (date, group, session),
who sat where (people, not seats), each person's facts in that game (``PlayerResult``,
read from the game's own replay details) and the marks the players added afterwards
(``Mark``). Everything the league shows is computed from a sequence of entries; the store
only keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from ..engine.records import MAX_PLAYER_NAME

THREEB = "3b-spades"
PAPERLESS = "paperless-spades"

# Marks the players add after a game (docs/league.md, "Marks").
BONEHEAD = "bonehead"
ZERO_BUDDY = "zero-buddy"
CHIT = "chit"
FORGOT_TRAYS = "forgot-trays"
CARRIED_TRAYS = "carried-trays"
BROUGHT_DECKS = "brought-decks"
MARK_KINDS = (BONEHEAD, ZERO_BUDDY, CHIT, FORGOT_TRAYS, CARRIED_TRAYS, BROUGHT_DECKS)
MARK_HELP = {
    BONEHEAD: "a bonehead play the player claims for himself",
    ZERO_BUDDY: "a zero-buddy (ZB) mark the others give a player for a bad play in a zero hunt",
    CHIT: "the tray person spends a tray chit naming another player of the game (--named)",
    FORGOT_TRAYS: "the player due to carry this game's trays forgot them: he is the violator",
    CARRIED_TRAYS: "the violator carried every tray owed, this game's included",
    BROUGHT_DECKS: "the player brought the new decks he owed for imperfect days",
}


class LeagueError(ValueError):
    """Bad league input (a mark that breaks a rule, an unknown player, a bad date). The
    message says which rule and what is allowed; nothing has been changed."""


MAX_NAME = MAX_PLAYER_NAME
"""The longest name of a person, group or session: as long as a record's player names."""
MAX_NOTE = 1000


def check_text(value: str, what: str, limit: int = MAX_NAME) -> str:
    """``value`` stripped, if it is text (no lone surrogates: bytes typed on a terminal
    that is not UTF-8) of 1 to ``limit`` characters; else LeagueError naming ``what``."""
    text = value.strip()
    if not text:
        raise LeagueError(f"{what} cannot be empty")
    if len(text) > limit:
        raise LeagueError(f"{what} is {len(text)} characters long; at most {limit} are "
                          "allowed")
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise LeagueError(f"{what} holds a byte that is not UTF-8 text")
    return text


@cache
def _time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def check_time_zone(name: str) -> str:
    """``name`` if it is an IANA time zone ("Europe/Paris", "UTC"); else LeagueError."""
    text = check_text(name, "the time zone")
    if text != "UTC" and text not in _time_zones():
        raise LeagueError(f"{text!r} is not a time zone: give an IANA name such as UTC, "
                          "Europe/Paris or America/New_York")
    return text


def zone_of(name: str) -> tzinfo:
    """The time zone of a checked name."""
    return UTC if name == "UTC" else ZoneInfo(name)


@dataclass(frozen=True)
class GroupInfo:
    """A group as its page shows it: ``open_session`` is the session it opened (None: a
    game's session is its date in ``time_zone``); ``members`` are names, sorted."""

    id: int
    name: str
    time_zone: str
    open_session: str | None
    members: tuple[str, ...]


@dataclass(frozen=True)
class PersonInfo:
    """A person: one name in every group he belongs to (``groups``: their names, sorted)."""

    id: int
    name: str
    groups: tuple[str, ...]


@dataclass(frozen=True)
class Mark:
    """A mark added to a game after it was played. ``named`` is the player a tray chit
    names as tray person (kind ``chit`` only)."""

    kind: str
    person: str
    note: str = ""
    named: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in MARK_KINDS:
            raise LeagueError(
                f"unknown mark {self.kind!r}: a mark is one of {', '.join(MARK_KINDS)}"
            )
        if (self.kind == CHIT) != (self.named is not None):
            raise LeagueError(
                "a tray chit names the player who carries the trays instead; only a chit "
                "names anyone"
            )


@dataclass(frozen=True)
class PlayerResult:
    """One person's facts in one game, counted from the game's replay details.

    ``side`` is the scoring entity (the seat, or the team "0"/"1" in partnership games) and
    ``score`` its final total. ``contracts`` are the bids of one trick or more the player was
    party to (his own in 3B, Dummy Hand Spades and whist declarations, his team's in the
    partnership games), ``made`` and ``sets`` how they ended and ``bags`` the tricks over
    them. ``nils_bid`` / ``nils_made``: nil bids (3B zeros; Dummy Hand Spades nil
    declarations that applied) and ``nil_points`` the zero pots a 3B zero won. ``declared``
    / ``declared_made``: hands as declarer and contracts made then (Dummy Hand Spades and the
    whist games)."""

    person: str
    seat: int
    side: str
    won: bool
    score: int
    hands: int = 0
    contracts: int = 0
    made: int = 0
    sets: int = 0
    bags: int = 0
    nils_bid: int = 0
    nils_made: int = 0
    nil_points: int = 0
    declared: int = 0
    declared_made: int = 0


@dataclass(frozen=True)
class ThreeBFacts:
    """A finished 3B game's own statistics (its ``game_summary``), seats turned into people.
    ``tray_sheet`` holds the people in the tray after each hand, tied names erased as the
    text says; ``tray_person`` is None when an all-tricks win left last place tied. At a
    table with bots, the bots are left out: ``winner`` is None when a bot won (no star),
    ``tray_person`` None when a bot was in the tray."""

    winner: str | None
    tray_person: str | None
    wire_to_wire: bool
    tray_sheet: tuple[tuple[str, ...], ...] = ()
    perfect_day: tuple[str, ...] = ()
    imperfect_day: tuple[str, ...] = ()


@dataclass(frozen=True)
class StakeFacts:
    """A finished Paperless game's stake: the losing team owes the winning team
    ``points`` x ``stake`` = ``amount``."""

    winners: tuple[str, ...]
    losers: tuple[str, ...]
    points: int
    stake: int
    amount: int


@dataclass(frozen=True)
class GameEntry:
    """One finished game in the league. ``key`` identifies it (the record's hash when it
    came from a record); games are ordered by ``played``, then ``sequence`` (the order of
    the day's games), then ``key``. ``session`` names the session (by default the date)."""

    key: str
    game: str
    played: date
    players: tuple[PlayerResult, ...]
    group: str = ""
    session: str = ""
    sequence: int = 0
    threeb: ThreeBFacts | None = None
    stakes: StakeFacts | None = None
    marks: tuple[Mark, ...] = field(default=())

    @property
    def session_name(self) -> str:
        return self.session or self.played.isoformat()

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(p.person for p in self.players)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.person for p in self.players if p.won)

    def result_of(self, person: str) -> PlayerResult | None:
        return next((p for p in self.players if p.person == person), None)

    def order(self) -> tuple[date, int, str]:
        return (self.played, self.sequence, self.key)


def in_order(entries: list[GameEntry] | tuple[GameEntry, ...]) -> list[GameEntry]:
    """Entries in the order they were played."""
    return sorted(entries, key=GameEntry.order)
