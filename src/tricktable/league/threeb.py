"""The 3B/RTR score sheet across games, sessions and years (docs/league.md).

``threeb_history`` walks a group's finished 3B games in the order they were played and
writes down everything the 3B text keeps about the people, as dated events: stars, outside
stars (three wins in a calendar week, a tray chit), gold and red outside stars (four and
five wins in a row), tray persons, tray chits earned, spent and lost, trays owed by a
violator, perfect and imperfect days and the decks owed, bonehead and zero-buddy marks.
Standings for any period (a week, a year, all time) add the period's events up; what is
held now (chits, trays and decks owed, the current streak) is the state after the last game.

Each game's own facts (winner, tray person, wire-to-wire, the tray sheet, perfect and
imperfect days) come from the game's ``game_summary``; nothing here re-reads a hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from .model import (
    BONEHEAD,
    BROUGHT_DECKS,
    CARRIED_TRAYS,
    CHIT,
    FORGOT_TRAYS,
    THREEB,
    ZERO_BUDDY,
    GameEntry,
    LeagueError,
    Mark,
    in_order,
)

# Event kinds (one person, one game each).
GAME = "game"
WIN = "star"
OUTSIDE_STAR = "outside-star"
GOLD_STAR = "gold-star"
RED_STAR = "red-star"
TRAY = "tray"
WIRE_TO_WIRE = "wire-to-wire"
TRAY_HANDS = "tray-hands"
PERFECT_DAY = "perfect-day"
IMPERFECT_DAY = "imperfect-day"
CHIT_EARNED = "chit-earned"
CHIT_SPENT = "chit-spent"
CHIT_LOST = "chit-lost"
DECK_OWED = "deck-owed"
DECKS_BROUGHT = "decks-brought"
TRAYS_FORGOT = "trays-forgot"
TRAYS_HELD = "trays-held"
TRAYS_CARRIED = "trays-carried"

WINS_FOR_OUTSIDE_STAR = 3
WINS_FOR_GOLD = 4
WINS_FOR_RED = 5


@dataclass(frozen=True)
class Event:
    """Something the score sheet writes next to a person's name after a game. ``count`` is
    how many (tray hands, trays, decks); ``detail`` says more (a chit's source or the
    player it named, a mark's note)."""

    played: date
    key: str
    session: str
    person: str
    kind: str
    count: int = 1
    detail: str = ""


@dataclass(frozen=True)
class Chit:
    """A tray chit held: earned by a perfect day or an outside star, in game ``key``."""

    source: str
    earned: date
    key: str


@dataclass(frozen=True)
class Streak:
    """A run of wins in a row among the games one person played (across sessions)."""

    person: str
    length: int
    start: date
    end: date
    ongoing: bool


@dataclass(frozen=True)
class TrayLine:
    """One game in the tray log: who lost, how the chit went, who was due to carry the
    game's trays and what the violator owes afterwards."""

    played: date
    key: str
    session: str
    tray_person: str | None
    wire_to_wire: bool
    trays: int
    chit: str  # "" (none held), "spent" or "lost"
    named: str | None
    carrier: str | None
    violator: str | None
    trays_owed: int
    carried: int  # trays the violator carried after this game


@dataclass
class Standing:
    """One person's line of the 3B score sheet over a period."""

    person: str
    games: int = 0
    stars: int = 0
    outside_stars: int = 0
    gold_stars: int = 0
    red_stars: int = 0
    longest_streak: int = 0
    current_streak: int = 0
    trays: int = 0
    wire_to_wire: int = 0
    tray_hands: int = 0
    perfect_days: int = 0
    imperfect_days: int = 0
    chits_earned: int = 0
    chits_spent: int = 0
    chits_lost: int = 0
    chits_held: int = 0
    trays_owed: int = 0
    decks_owed: int = 0
    boneheads: int = 0
    zero_buddies: int = 0


@dataclass
class ThreeBHistory:
    """The events of a run of 3B games and the state after the last of them."""

    events: list[Event] = field(default_factory=list)
    tray_log: list[TrayLine] = field(default_factory=list)
    streaks: list[Streak] = field(default_factory=list)
    people: list[str] = field(default_factory=list)
    chits_held: dict[str, list[Chit]] = field(default_factory=dict)
    current_streak: dict[str, int] = field(default_factory=dict)
    violator: str | None = None
    trays_owed: int = 0
    decks_owed: dict[str, int] = field(default_factory=dict)

    def between(self, start: date | None, end: date | None) -> list[Event]:
        return [
            e for e in self.events
            if (start is None or e.played >= start) and (end is None or e.played <= end)
        ]

    def standings(self, start: date | None = None, end: date | None = None) -> list[Standing]:
        """The line of everyone who played in the period (inclusive; None: open), best
        first: most stars, then fewest trays, then name. What is held (chits, trays and
        decks owed, the current streak) is as after the last game."""
        rows = {p: Standing(p) for p in self.people}
        counted = {
            GAME: "games", WIN: "stars", OUTSIDE_STAR: "outside_stars",
            GOLD_STAR: "gold_stars", RED_STAR: "red_stars", TRAY: "trays",
            WIRE_TO_WIRE: "wire_to_wire", TRAY_HANDS: "tray_hands",
            PERFECT_DAY: "perfect_days", IMPERFECT_DAY: "imperfect_days",
            CHIT_EARNED: "chits_earned", CHIT_SPENT: "chits_spent", CHIT_LOST: "chits_lost",
            BONEHEAD: "boneheads", ZERO_BUDDY: "zero_buddies",
        }
        for e in self.between(start, end):
            name = counted.get(e.kind)
            if name is not None:
                row = rows[e.person]
                setattr(row, name, getattr(row, name) + e.count)
        for s in self.streaks:
            if (start is None or s.end >= start) and (end is None or s.end <= end):
                row = rows[s.person]
                row.longest_streak = max(row.longest_streak, s.length)
        for p, row in rows.items():
            row.current_streak = self.current_streak.get(p, 0)
            row.chits_held = len(self.chits_held.get(p, ()))
            row.trays_owed = self.trays_owed if p == self.violator else 0
            row.decks_owed = self.decks_owed.get(p, 0)
        everyone = start is None and end is None  # all time: also those who only owe
        active = [r for r in rows.values() if r.games or (everyone and (
            r.chits_held or r.trays_owed or r.decks_owed))]
        return sorted(active, key=lambda r: (-r.stars, r.trays, r.person))

    def session_stars(self) -> dict[str, dict[str, int]]:
        """Stars (games won) per session, in the order the sessions were played."""
        out: dict[str, dict[str, int]] = {}
        for e in self.events:
            if e.kind == GAME:
                out.setdefault(e.session, {})
            if e.kind == WIN:
                stars = out.setdefault(e.session, {})
                stars[e.person] = stars.get(e.person, 0) + 1
        return out

    def ranked_streaks(self, minimum: int = 2) -> list[tuple[int, Streak]]:
        """Winning streaks of ``minimum`` wins or more, longest first; equal lengths share a
        rank and the one that ended first is listed first ("the longest winning streak,
        second longest, etc.")."""
        runs = sorted(
            (s for s in self.streaks if s.length >= minimum),
            key=lambda s: (-s.length, s.end, s.start, s.person),
        )
        ranked: list[tuple[int, Streak]] = []
        for i, s in enumerate(runs):
            rank = ranked[-1][0] if ranked and ranked[-1][1].length == s.length else i + 1
            ranked.append((rank, s))
        return ranked

    def marks(self, kinds: Iterable[str] = (BONEHEAD, ZERO_BUDDY)) -> list[Event]:
        wanted = set(kinds)
        return [e for e in self.events if e.kind in wanted]


def week_of(day: date) -> tuple[date, date]:
    """The calendar week (Monday to Sunday) holding ``day``."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


class _Sheet:
    """The running score sheet while the games are walked through in order."""

    def __init__(self) -> None:
        self.h = ThreeBHistory()
        self.week_wins: Counter[tuple[str, int, int]] = Counter()
        self.run_start: dict[str, date] = {}
        self.run_end: dict[str, date] = {}

    def add(self, g: GameEntry, person: str, kind: str, count: int = 1, detail: str = "") -> None:
        if person not in self.h.people:
            self.h.people.append(person)
        self.h.events.append(Event(g.played, g.key, g.session_name, person, kind, count, detail))

    def earn_chit(self, g: GameEntry, person: str, source: str) -> None:
        self.h.chits_held.setdefault(person, []).append(Chit(source, g.played, g.key))
        self.add(g, person, CHIT_EARNED, detail=source)

    def close_run(self, person: str, ongoing: bool) -> None:
        length = self.h.current_streak.get(person, 0)
        if length:
            self.h.streaks.append(Streak(
                person, length, self.run_start[person], self.run_end[person], ongoing
            ))

    # --- one game ----------------------------------------------------------------------

    def game(self, g: GameEntry) -> None:
        facts = g.threeb
        if facts is None:
            raise LeagueError(f"game {g.key} has no 3B facts")
        marks = {kind: [m for m in g.marks if m.kind == kind] for kind in {m.kind for m in g.marks}}
        for m in g.marks:
            if m.kind in (BONEHEAD, ZERO_BUDDY, CHIT, FORGOT_TRAYS) and m.person not in g.people:
                raise LeagueError(
                    f"{m.person} did not play game {g.key}: a {m.kind} mark goes to one of "
                    f"its players ({', '.join(g.people)})"
                )
        for person in g.people:
            self.add(g, person, GAME)
        carrier, chit, named = self.tray_chit(g, facts.tray_person, marks.get(CHIT, []))
        if facts.tray_person is not None:
            self.add(g, facts.tray_person, TRAY)
            if facts.wire_to_wire:
                self.add(g, facts.tray_person, WIRE_TO_WIRE)
        for person, hands in Counter(p for row in facts.tray_sheet for p in row).items():
            self.add(g, person, TRAY_HANDS, hands)
        carried = self.trays(g, carrier, marks.get(FORGOT_TRAYS, []),
                             marks.get(CARRIED_TRAYS, []))
        self.h.tray_log.append(TrayLine(
            g.played, g.key, g.session_name, facts.tray_person, facts.wire_to_wire,
            len(g.players), chit, named, carrier, self.h.violator, self.h.trays_owed, carried,
        ))
        self.stars(g, facts.winner)
        for person in facts.perfect_day:  # a chit earned here is due from the next game on
            self.add(g, person, PERFECT_DAY)
            self.earn_chit(g, person, "perfect day")
        self.decks(g, facts.imperfect_day, marks.get(BROUGHT_DECKS, []))
        for m in (*marks.get(BONEHEAD, []), *marks.get(ZERO_BUDDY, [])):
            self.add(g, m.person, m.kind, detail=m.note)

    def tray_chit(
        self, g: GameEntry, loser: str | None, chit_marks: Sequence[Mark]
    ) -> tuple[str | None, str, str | None]:
        """Spend or lose the tray person's chits: (who carries the trays, "spent" / "lost"
        / "", the player named)."""
        held = self.h.chits_held.get(loser, []) if loser is not None else []
        for m in chit_marks:
            if m.person != loser:
                raise LeagueError(
                    f"{m.person} is not the tray person of game {g.key}: only the tray "
                    f"person ({loser or 'nobody'}) may spend a tray chit on it"
                )
        if len(chit_marks) > 1:
            raise LeagueError(f"game {g.key}: one tray chit at most names a tray person")
        if chit_marks and not held:
            raise LeagueError(
                f"{loser} holds no tray chit earned before game {g.key}: a chit is earned "
                "by a perfect day or an outside star (three wins in a calendar week)"
            )
        if loser is None or not held:
            return loser, "", None
        self.h.chits_held[loser] = []
        if chit_marks:
            named = chit_marks[0].named
            assert named is not None
            if named == loser or named not in g.people:
                others = ", ".join(p for p in g.people if p != loser)
                raise LeagueError(
                    f"a tray chit names another player of game {g.key} ({others}), "
                    f"not {named}"
                )
            self.add(g, loser, CHIT_SPENT, detail=named)
            lost = held[1:]  # one chit names one tray person: the others fall due unused
            for _ in lost:
                self.add(g, loser, CHIT_LOST)
            return named, "spent", named
        for _ in held:
            self.add(g, loser, CHIT_LOST)
        return loser, "lost", None

    def trays(
        self, g: GameEntry, carrier: str | None, forgot: Sequence[Mark],
        carried: Sequence[Mark],
    ) -> int:
        """The violator rule; returns the trays the violator carried after this game."""
        h = self.h
        trays = len(g.players)
        if forgot:
            if h.violator is not None:
                raise LeagueError(
                    f"{h.violator} (the violator) still owes the trays: nobody else carries "
                    f"any until he has, so nobody can forget those of game {g.key}"
                )
            if forgot[0].person != carrier or len(forgot) > 1:
                raise LeagueError(
                    f"{carrier or 'nobody'} was due to carry the trays of game {g.key}: only "
                    "he can forget them"
                )
        if h.violator is not None:
            h.trays_owed += trays
            self.add(g, h.violator, TRAYS_HELD, trays, detail=carrier or "")
        elif forgot:
            h.violator, h.trays_owed = forgot[0].person, trays
            self.add(g, forgot[0].person, TRAYS_FORGOT, trays)
        for m in carried:
            if m.person != h.violator:
                raise LeagueError(
                    f"{m.person} owes no trays: only the violator "
                    f"({h.violator or 'nobody now'}) carries the trays owed"
                )
            self.add(g, m.person, TRAYS_CARRIED, h.trays_owed)
            done = h.trays_owed
            h.violator, h.trays_owed = None, 0
            return done
        return 0

    def stars(self, g: GameEntry, winner: str | None) -> None:
        """A star for the winner (none when a bot won: the people at the table lost)."""
        h = self.h
        if winner is not None:
            self.add(g, winner, WIN)
        for person in g.people:
            if person != winner:
                self.close_run(person, ongoing=False)
                h.current_streak[person] = 0
                continue
            run = h.current_streak.get(person, 0) + 1
            h.current_streak[person] = run
            if run == 1:
                self.run_start[person] = g.played
            self.run_end[person] = g.played
            if run == WINS_FOR_GOLD:
                self.add(g, person, GOLD_STAR)
            if run == WINS_FOR_RED:
                self.add(g, person, RED_STAR)
        if winner is None:
            return
        year, week, _ = g.played.isocalendar()
        self.week_wins[(winner, year, week)] += 1
        if self.week_wins[(winner, year, week)] == WINS_FOR_OUTSIDE_STAR:
            self.add(g, winner, OUTSIDE_STAR, detail=f"{year}-W{week:02d}")
            self.earn_chit(g, winner, "outside star")

    def decks(self, g: GameEntry, imperfect: Sequence[str], brought: Sequence[Mark]) -> None:
        owed = self.h.decks_owed
        earlier = next(iter(owed), None)  # the earliest imperfect day still owing a deck
        for person in imperfect:
            self.add(g, person, IMPERFECT_DAY)
            debtor = earlier or person
            owed[debtor] = owed.get(debtor, 0) + 1
            self.add(g, debtor, DECK_OWED, detail=person)
        for m in brought:
            if not owed.get(m.person):
                raise LeagueError(
                    f"{m.person} owes no deck: "
                    + (f"decks are owed by {', '.join(owed)}" if owed else "nobody owes one")
                )
            self.add(g, m.person, DECKS_BROUGHT, owed.pop(m.person))


def threeb_history(entries: Sequence[GameEntry]) -> ThreeBHistory:
    """The score sheet of a run of 3B games (other games are skipped), in playing order."""
    sheet = _Sheet()
    for g in in_order([e for e in entries if e.game == THREEB]):
        sheet.game(g)
    for person, run in sheet.h.current_streak.items():
        if run:
            sheet.close_run(person, ongoing=True)
    return sheet.h
