"""Issue 41, "Done when": a month of lunch-time 3B games played in a group, and the score
sheet the league keeps of it checked figure by figure against one written here by hand.

Four people (Ann, Bob, Cy and Di) join a group whose time zone is Pacific/Auckland and play
21 games of 3B Spades (4 players, ``hands: 1``: one hand, then sudden death while a place
is tied) at lunch on the weekdays of November 2026, at a real ``tricktable serve``: the group
and the people are made over HTTP, each game is played through the table's protocol by
four socket clients holding the people's keys, the server's clock (``TRICKTABLE_CLOCK_FILE``)
set to the game's lunch time first, and the marks are added over HTTP after the games.
Lunch in Auckland is the evening before in UTC: a server that took the UTC date would put
every game a day early, and the Monday games in the week before.

The games' outcomes were chosen, not hoped for: the seeds below were found once, offline,
by playing candidate seeds with the clients' own chooser (``lunch_choice``) and keeping
those whose winner, tray person, perfect and imperfect days make the month wanted; the
seats were then given to the people so that the right person wins. Each game still checks
its winner and tray person as it ends, so a change in the bots or the deal says so at once.

The expected sheet (``STANDINGS``, ``WEEK_46``, ``SESSIONS``, ``STREAKS``, ``TRAY_LOG``,
``EVENTS``) is written from docs/league.md's rules by hand, never computed by the league.
It is checked in the API's views, in ``tricktable league standings|streaks|trays --json``
and on the group's page in a browser. One game (Wed 11 Nov) is played with the server
killed (``kill -9``) right after its last card is sent and started again: the clients come
back by themselves, and the game is counted exactly once whatever the kill interrupted.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from browser import CHROMIUM, PageErrors, chromium_available
from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.game import Game
from tricktable.engine.records import loads_record
from tricktable.league.importer import record_key
from tricktable.web.league_link import CLOCK_FILE_ENV
from tricktable.web.protocol import observation_from_json
from web_process import Chooser, SeatClient, Server

GROUP = "Lunch"
ZONE = "Pacific/Auckland"  # NZDT, UTC+13 in November: lunch is the evening before in UTC
PEOPLE = {"A": "Ann", "B": "Bob", "C": "Cy", "D": "Di"}
OPTIONS = {"players": 4, "hands": 1}
PERSON_KEY = "tricktable.league.person"
"""Where the league's page keeps the person key (static/js/league/store.js)."""


# --- the clients' chooser ---------------------------------------------------------------------

_GAMES: dict[str, Game] = {}


def lunch_choice(view: dict[str, Any]) -> str | None:
    """The rules bot's choice for the seat whose turn it is, from the view alone; nothing
    out of turn (a change of bid would race the next player's bid, and the game must go
    the same way every time)."""
    obs = view["observation"]
    if obs["to_act"] not in obs["controls"]:
        return None
    key = json.dumps([view["game"], view["options"]], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make_game(view["game"], view["options"])
    seen = observation_from_json(view["game"], obs)
    return str(make_bot("rules", game, seen.seat, "lunch").choose(seen, list(seen.legal)))


# --- the month ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MarkSpec:
    """A mark added over HTTP after a game; ``by`` is the member whose key sends it (the
    person himself unless others give it, as a zero-buddy mark)."""

    kind: str
    person: str
    note: str = ""
    named: str | None = None
    by: str | None = None


@dataclass(frozen=True)
class Lunch:
    """One game: the group's day and local time it ends at, the table's seed, who sits
    where (initials in seat order), who wins and who is the tray person (checked as the
    game ends), and the marks added afterwards."""

    day: str
    time: str
    seed: str
    seats: str
    winner: str
    tray: str
    marks: tuple[MarkSpec, ...] = field(default=())
    hands: int = 2
    """Hands the game lasts (the one hand and the sudden death): the last card is known by
    it in the game the server is killed in."""

    @property
    def people(self) -> list[str]:
        return [PEOPLE[i] for i in self.seats]

    def clock(self) -> str:
        """The game's lunch time in the group's zone, as the server's UTC clock says it."""
        local = datetime.fromisoformat(f"{self.day}T{self.time}").replace(tzinfo=ZoneInfo(ZONE))
        return local.astimezone(UTC).isoformat()


MONTH: tuple[Lunch, ...] = (
    # --- week 1: Mon 2 - Sun 8 November (ISO week 45) -----------------------------------
    # G1: Bob wins; Cy is in the tray after both hands (wire to wire).
    Lunch("2026-11-02", "12:10", "m323", "ADCB", "Bob", "Cy"),
    # G2: Ann wins (Bob's run of 1 ends); Ann was in the tray after hand 1, Di after the
    # sudden death: Di is the tray person, not wire to wire.
    Lunch("2026-11-02", "12:40", "m222", "ABDC", "Ann", "Di"),
    # G3: Ann wins (2 in a row); Bob tray, wire to wire.
    Lunch("2026-11-03", "12:10", "m427", "CABD", "Ann", "Bob"),
    # G4: Ann wins: 3 in a row, her third win this week: an outside star and a tray chit.
    # Tray sheet Bob then Cy: Cy tray, not wire to wire. Di has a perfect day: a chit.
    Lunch("2026-11-03", "12:40", "m642", "CDBA", "Ann", "Cy"),
    # G5: Ann wins: 4 in a row, a gold outside star. Bob tray, wire to wire; Bob claims a
    # bonehead mark.
    Lunch("2026-11-04", "12:10", "m617", "CDBA", "Ann", "Bob",
          (MarkSpec("bonehead", "Bob", "led the joker into Cy's zero"),)),
    # G6: Ann wins: 5 in a row, a red outside star. Di tray, wire to wire: her chit of G4
    # falls due and she spends it naming Cy, who carries the trays.
    Lunch("2026-11-05", "12:10", "m864", "BADC", "Ann", "Di",
          (MarkSpec("chit", "Di", named="Cy"),)),
    # G7: Cy wins; Ann's run of 5 ends. Ann tray, wire to wire: her chit of G4 falls due,
    # she names nobody: the chit is lost.
    Lunch("2026-11-06", "12:10", "m921", "BCAD", "Cy", "Ann"),
    # --- week 2: Mon 9 - Sun 15 November (ISO week 46) ----------------------------------
    # G8: Bob wins; Di tray, wire to wire.
    Lunch("2026-11-09", "12:10", "m1124", "ADCB", "Bob", "Di"),
    # G9: Bob wins (2 in a row); Ann tray, wire to wire. Cy has an imperfect day: he owes
    # a deck.
    Lunch("2026-11-09", "12:40", "m54", "ADCB", "Bob", "Ann"),
    # G10: Di wins; Bob's run of 2 ends. Ann and Di tie in the tray after hand 1 (both
    # written), Bob is there after the sudden death: Bob tray, not wire to wire.
    Lunch("2026-11-10", "12:10", "m600", "BADC", "Di", "Bob"),
    # G11 (the server is killed after its last card): Bob wins, his third win this week:
    # an outside star and a chit. Cy tray, wire to wire; he forgets the trays: the
    # violator, 4 trays owed.
    Lunch("2026-11-11", "12:10", "m1133", "ACDB", "Bob", "Cy",
          (MarkSpec("forgot-trays", "Cy", "left them on the window sill"),)),
    # G12: Cy wins. Di tray, wire to wire, but the violator owes these trays too: 8.
    # The others give Di a zero-buddy mark.
    Lunch("2026-11-12", "12:10", "m1412", "DACB", "Cy", "Di",
          (MarkSpec("zero-buddy", "Di", "let Bob's zero slip away", by="Ann"),)),
    # G13: Cy wins (2 in a row). Bob then Ann in the tray: Ann tray, not wire to wire.
    # The violator owes 12 and carries them all.
    Lunch("2026-11-13", "12:10", "m668", "ACBD", "Cy", "Ann",
          (MarkSpec("carried-trays", "Cy"),)),
    # --- week 3: Mon 16 - Sun 22 November (ISO week 47) ---------------------------------
    # G14: Di wins; Cy's run of 2 ends. Bob tray, wire to wire: his chit of G11 falls due
    # and he spends it naming Ann.
    Lunch("2026-11-16", "12:10", "m1458", "ADBC", "Di", "Bob",
          (MarkSpec("chit", "Bob", named="Ann"),)),
    # G15: Di wins (2 in a row). Ann then Cy in the tray: Cy tray, not wire to wire. Bob
    # has an imperfect day: Cy has not brought his deck yet, so he owes Bob's too (2).
    Lunch("2026-11-16", "12:40", "m66", "ADBC", "Di", "Cy"),
    # G16: Di wins: 3 in a row, her third win this week: an outside star and a chit.
    # Ann tray, wire to wire.
    Lunch("2026-11-17", "12:10", "m1473", "BDAC", "Di", "Ann"),
    # G17: Di wins: 4 in a row, a gold outside star. Bob tray, wire to wire.
    Lunch("2026-11-18", "12:10", "m1571", "DABC", "Di", "Bob"),
    # G18: Ann wins; Di's run of 4 ends. Di tray, wire to wire: her chit of G16 falls due
    # and is lost. Cy brings the 2 decks he owed.
    Lunch("2026-11-19", "12:10", "m1961", "ABDC", "Ann", "Di",
          (MarkSpec("brought-decks", "Cy"),)),
    # G19: Cy wins. Bob tray, wire to wire. Ann has a perfect day: a chit, still held at
    # the end of the month.
    Lunch("2026-11-20", "12:10", "m709", "ABDC", "Cy", "Bob"),
    # --- week 4: Mon 23 November (ISO week 48) -------------------------------------------
    # G20: Ann wins. Cy tray, wire to wire; Cy claims a bonehead mark, the others give Bob
    # a zero-buddy mark.
    Lunch("2026-11-23", "12:10", "m1989", "ABCD", "Ann", "Cy",
          (MarkSpec("bonehead", "Cy", "trumped his own ace"),
           MarkSpec("zero-buddy", "Bob", "fed Di a trick on her zero", by="Di"))),
    # G21: Ann wins (2 in a row, going on). Bob then Di in the tray: Di tray, not wire to
    # wire. Di has an imperfect day; nobody owes a deck now: she owes her own.
    Lunch("2026-11-24", "12:10", "m1", "BCAD", "Ann", "Di"),
)
KILLED = 10
"""The game the server is killed in (G11, Wed 11 November): right after its last card."""

# --- the sheet, by hand ---------------------------------------------------------------------------
#
# Stars: Ann G2-G6, G18, G20, G21 = 8; Bob G1, G8, G9, G11 = 4; Cy G7, G12, G13, G19 = 4;
# Di G10, G14-G17 = 5. Trays: Ann G7 G9 G13 G16 = 4; Bob G3 G5 G10 G14 G17 G19 = 6 (G14's
# chit names Ann, but the loss stays Bob's); Cy G1 G4 G11 G15 G20 = 5; Di G2 G6 G8 G12 G18
# G21 = 6. Tray hands (names on the tray sheets): Ann G2 1, G7 2, G9 2, G10 1, G13 1, G15 1,
# G16 2 = 10; Bob G3 2, G4 1, G5 2, G10 1, G13 1, G14 2, G17 2, G19 2, G21 1 = 14; Cy G1 2,
# G4 1, G11 2, G15 1, G20 2 = 8; Di G2 1, G6 2, G8 2, G10 1, G12 2, G18 2, G21 1 = 11.
# Ordered by stars, then fewest trays: Ann 8, Di 5, Cy 4 (5 trays), Bob 4 (6 trays).

ZERO_LINE = {
    "games": 0, "stars": 0, "outside_stars": 0, "gold_stars": 0, "red_stars": 0,
    "longest_streak": 0, "current_streak": 0, "trays": 0, "wire_to_wire": 0,
    "tray_hands": 0, "perfect_days": 0, "imperfect_days": 0, "chits_earned": 0,
    "chits_spent": 0, "chits_lost": 0, "chits_held": 0, "trays_owed": 0, "decks_owed": 0,
    "boneheads": 0, "zero_buddies": 0,
}


def line(**figures: int) -> dict[str, int]:
    return {**ZERO_LINE, **figures}


STANDINGS: dict[str, dict[str, int]] = {
    "Ann": line(rank=1, games=21, stars=8, outside_stars=1, gold_stars=1, red_stars=1,
                longest_streak=5, current_streak=2, trays=4, wire_to_wire=3, tray_hands=10,
                perfect_days=1, chits_earned=2, chits_lost=1, chits_held=1),
    "Di": line(rank=2, games=21, stars=5, outside_stars=1, gold_stars=1, longest_streak=4,
               trays=6, wire_to_wire=4, tray_hands=11, perfect_days=1, imperfect_days=1,
               chits_earned=2, chits_spent=1, chits_lost=1, decks_owed=1, zero_buddies=1),
    "Cy": line(rank=3, games=21, stars=4, longest_streak=2, trays=5, wire_to_wire=3,
               tray_hands=8, imperfect_days=1, boneheads=1),
    "Bob": line(rank=4, games=21, stars=4, outside_stars=1, longest_streak=2, trays=6,
                wire_to_wire=5, tray_hands=14, imperfect_days=1, chits_earned=1,
                chits_spent=1, boneheads=1, zero_buddies=1),
}
"""All time, best first. What is held (current streak, chits held, trays and decks owed)
is as after G21: the violator carried all he owed at G13, Di owes the deck of G21."""

WEEK_46: dict[str, dict[str, int]] = {
    # G8-G13. Bob: wins G8 G9 G11 (outside star, chit), runs 2 (G8-G9) and 1 (G11), tray
    # G10 (tie sheet: not wire to wire), tray hands G10 and G13. Cy: wins G12 G13, tray G11,
    # imperfect day G9. Di: win G10, trays G8 G12, tray hands 2 + 1 + 2, a zero-buddy mark.
    # Ann: trays G9 (wire to wire) and G13, tray hands 2 + 1 + 1; her runs ended in other
    # weeks. Held figures are the month's end's.
    "Bob": line(rank=1, games=6, stars=3, outside_stars=1, longest_streak=2, trays=1,
                tray_hands=2, chits_earned=1),
    "Cy": line(rank=2, games=6, stars=2, longest_streak=2, trays=1, wire_to_wire=1,
               tray_hands=2, imperfect_days=1),
    "Di": line(rank=3, games=6, stars=1, longest_streak=1, trays=2, wire_to_wire=2,
               tray_hands=5, zero_buddies=1, decks_owed=1),
    "Ann": line(rank=4, games=6, trays=2, wire_to_wire=1, tray_hands=4, current_streak=2,
                chits_held=1),
}
WEEK_46_EVENTS = sorted([
    ("2026-11-09", "Cy", "deck-owed", 1, "Cy"),
    ("2026-11-11", "Cy", "trays-forgot", 4, ""),
    ("2026-11-11", "Bob", "outside-star", 1, "2026-W46"),
    ("2026-11-11", "Bob", "chit-earned", 1, "outside star"),
    ("2026-11-13", "Cy", "trays-carried", 12, ""),
])

SESSIONS: list[tuple[str, int, dict[str, int]]] = [
    ("2026-11-02", 2, {"Ann": 1, "Bob": 1}),
    ("2026-11-03", 2, {"Ann": 2}),
    ("2026-11-04", 1, {"Ann": 1}),
    ("2026-11-05", 1, {"Ann": 1}),
    ("2026-11-06", 1, {"Cy": 1}),
    ("2026-11-09", 2, {"Bob": 2}),
    ("2026-11-10", 1, {"Di": 1}),
    ("2026-11-11", 1, {"Bob": 1}),
    ("2026-11-12", 1, {"Cy": 1}),
    ("2026-11-13", 1, {"Cy": 1}),
    ("2026-11-16", 2, {"Di": 2}),
    ("2026-11-17", 1, {"Di": 1}),
    ("2026-11-18", 1, {"Di": 1}),
    ("2026-11-19", 1, {"Ann": 1}),
    ("2026-11-20", 1, {"Cy": 1}),
    ("2026-11-23", 1, {"Ann": 1}),
    ("2026-11-24", 1, {"Ann": 1}),
]
"""Stars per session (a session is the group's day): session, games, stars."""

STREAKS: list[tuple[int, str, int, str, str, bool]] = [
    # runs of 2 or more, longest first; equal runs share a rank, the first ended first
    (1, "Ann", 5, "2026-11-02", "2026-11-05", False),  # G2-G6
    (2, "Di", 4, "2026-11-16", "2026-11-18", False),   # G14-G17
    (3, "Bob", 2, "2026-11-09", "2026-11-09", False),  # G8-G9
    (3, "Cy", 2, "2026-11-12", "2026-11-13", False),   # G12-G13
    (3, "Ann", 2, "2026-11-23", "2026-11-24", True),   # G20-G21, going on
]

TRAY_LOG: list[tuple[str, bool, str, str | None, str, str | None, int, int]] = [
    # tray person, wire to wire, chit ("", "spent", "lost"), named, who carries,
    # violator after the game, trays he owes, trays he carried at this game
    ("Cy", True, "", None, "Cy", None, 0, 0),          # G1
    ("Di", False, "", None, "Di", None, 0, 0),         # G2
    ("Bob", True, "", None, "Bob", None, 0, 0),        # G3
    ("Cy", False, "", None, "Cy", None, 0, 0),         # G4
    ("Bob", True, "", None, "Bob", None, 0, 0),        # G5
    ("Di", True, "spent", "Cy", "Cy", None, 0, 0),     # G6: Di's perfect-day chit
    ("Ann", True, "lost", None, "Ann", None, 0, 0),    # G7: Ann's outside-star chit
    ("Di", True, "", None, "Di", None, 0, 0),          # G8
    ("Ann", True, "", None, "Ann", None, 0, 0),        # G9
    ("Bob", False, "", None, "Bob", None, 0, 0),       # G10
    ("Cy", True, "", None, "Cy", "Cy", 4, 0),          # G11: Cy forgets
    ("Di", True, "", None, "Di", "Cy", 8, 0),          # G12: Cy owes these too
    ("Ann", False, "", None, "Ann", None, 0, 12),      # G13: Cy carries all 12
    ("Bob", True, "spent", "Ann", "Ann", None, 0, 0),  # G14: Bob's outside-star chit
    ("Cy", False, "", None, "Cy", None, 0, 0),         # G15
    ("Ann", True, "", None, "Ann", None, 0, 0),        # G16
    ("Bob", True, "", None, "Bob", None, 0, 0),        # G17
    ("Di", True, "lost", None, "Di", None, 0, 0),      # G18: Di's outside-star chit
    ("Bob", True, "", None, "Bob", None, 0, 0),        # G19
    ("Cy", True, "", None, "Cy", None, 0, 0),          # G20
    ("Di", False, "", None, "Di", None, 0, 0),         # G21
]

EVENTS = sorted([
    # everything the sheet writes besides stars and trays: day, person, kind, count, detail
    ("2026-11-02", "Cy", "wire-to-wire", 1, ""),                     # G1
    ("2026-11-03", "Bob", "wire-to-wire", 1, ""),                    # G3
    ("2026-11-03", "Ann", "outside-star", 1, "2026-W45"),            # G4
    ("2026-11-03", "Ann", "chit-earned", 1, "outside star"),
    ("2026-11-03", "Di", "perfect-day", 1, ""),
    ("2026-11-03", "Di", "chit-earned", 1, "perfect day"),
    ("2026-11-04", "Bob", "wire-to-wire", 1, ""),                    # G5
    ("2026-11-04", "Ann", "gold-star", 1, ""),
    ("2026-11-04", "Bob", "bonehead", 1, "led the joker into Cy's zero"),
    ("2026-11-05", "Di", "chit-spent", 1, "Cy"),                     # G6
    ("2026-11-05", "Di", "wire-to-wire", 1, ""),
    ("2026-11-05", "Ann", "red-star", 1, ""),
    ("2026-11-06", "Ann", "chit-lost", 1, ""),                       # G7
    ("2026-11-06", "Ann", "wire-to-wire", 1, ""),
    ("2026-11-09", "Di", "wire-to-wire", 1, ""),                     # G8
    ("2026-11-09", "Ann", "wire-to-wire", 1, ""),                    # G9
    ("2026-11-09", "Cy", "imperfect-day", 1, ""),
    ("2026-11-09", "Cy", "deck-owed", 1, "Cy"),
    ("2026-11-11", "Cy", "wire-to-wire", 1, ""),                     # G11
    ("2026-11-11", "Cy", "trays-forgot", 4, ""),
    ("2026-11-11", "Bob", "outside-star", 1, "2026-W46"),
    ("2026-11-11", "Bob", "chit-earned", 1, "outside star"),
    ("2026-11-12", "Di", "wire-to-wire", 1, ""),                     # G12
    ("2026-11-12", "Di", "zero-buddy", 1, "let Bob's zero slip away"),
    ("2026-11-13", "Cy", "trays-carried", 12, ""),                   # G13
    ("2026-11-16", "Bob", "chit-spent", 1, "Ann"),                   # G14
    ("2026-11-16", "Bob", "wire-to-wire", 1, ""),
    ("2026-11-16", "Bob", "imperfect-day", 1, ""),                   # G15
    ("2026-11-16", "Cy", "deck-owed", 1, "Bob"),
    ("2026-11-17", "Ann", "wire-to-wire", 1, ""),                    # G16
    ("2026-11-17", "Di", "outside-star", 1, "2026-W47"),
    ("2026-11-17", "Di", "chit-earned", 1, "outside star"),
    ("2026-11-18", "Bob", "wire-to-wire", 1, ""),                    # G17
    ("2026-11-18", "Di", "gold-star", 1, ""),
    ("2026-11-19", "Di", "chit-lost", 1, ""),                        # G18
    ("2026-11-19", "Di", "wire-to-wire", 1, ""),
    ("2026-11-19", "Cy", "decks-brought", 2, ""),
    ("2026-11-20", "Bob", "wire-to-wire", 1, ""),                    # G19
    ("2026-11-20", "Ann", "perfect-day", 1, ""),
    ("2026-11-20", "Ann", "chit-earned", 1, "perfect day"),
    ("2026-11-23", "Cy", "wire-to-wire", 1, ""),                     # G20
    ("2026-11-23", "Cy", "bonehead", 1, "trumped his own ace"),
    ("2026-11-23", "Bob", "zero-buddy", 1, "fed Di a trick on her zero"),
    ("2026-11-24", "Di", "imperfect-day", 1, ""),                    # G21
    ("2026-11-24", "Di", "deck-owed", 1, "Di"),
])

HELD = {
    # after G21: nobody owes trays; Di owes the deck of G21; Ann holds G19's chit
    "violator": None, "trays_owed": 0, "decks_owed": {"Di": 1},
    "chits_held": {"Ann": [{"source": "perfect day", "earned": "2026-11-20"}]},
}


# --- playing it -----------------------------------------------------------------------------------


class Killer:
    """Watches the killed game's clients for its last card: the client that plays it
    plays as ``lunch_choice`` does and, once that card has gone out on its socket, tells
    the test, which kills the server at once (the card may or may not be stored by then,
    the table's last event committed or not)."""

    def __init__(self, hands: int) -> None:
        self.hands = hands
        self.sent = threading.Event()
        self.armed = True

    def chooser_for(self, client: SeatClient) -> Chooser:
        def choose(view: dict[str, Any]) -> str | None:
            choice = lunch_choice(view)
            obs = view["observation"]
            last_card = (choice is not None and obs["phase"] == "play"
                         and obs["hand_number"] == self.hands - 1
                         and sum(obs["hand_sizes"]) == 1)
            if last_card and self.armed:
                self.armed = False  # once: after the restart the card may be played again
                ws = client._socket  # the connection this choice is about to go out on
                send = ws.send

                def send_then_tell(message: Any, *args: Any, **kwargs: Any) -> None:
                    send(message, *args, **kwargs)
                    self.sent.set()

                ws.send = send_then_tell
            return choice

        return choose


@dataclass
class PlayedMonth:
    server: Server
    token: str
    keys: dict[str, str]
    tables: list[dict[str, Any]]
    db_url: str


def api(server: Server, method: str, path: str, body: Any = None,
        key: str | None = None) -> tuple[int, Any]:
    return server.request(method, path, None if body is None else json.dumps(body).encode(),
                          headers={"x-person-key": key} if key else None)


def make_group(server: Server) -> tuple[str, dict[str, str]]:
    status, made = api(server, "POST", "/api/groups", {"name": GROUP, "time_zone": ZONE})
    assert status == 201, made
    keys = {}
    for name in PEOPLE.values():
        status, joined = api(server, "POST", f"/api/groups/{made['token']}/join",
                             {"name": name})
        assert status == 200 and joined["person"] == name, joined
        keys[name] = joined["key"]
    return made["token"], keys


def play_lunch(server: Server, token: str, keys: dict[str, str], lunch: Lunch,
               killer: Killer | None = None) -> dict[str, Any]:
    """One game of the month through the protocol; the server is killed and started
    again when ``killer`` says its last card has gone out."""
    created = server.post("/api/tables", {
        "game": "3b-spades", "options": OPTIONS, "seed": lunch.seed, "bot_pace": 0,
        "seats": {str(s): "person" for s in range(4)}, "group": token})
    clients = [SeatClient(server, created["table"], created["invites"][str(seat)]["token"],
                          name, lunch_choice, person=keys[name])
               for seat, name in enumerate(lunch.people)]
    if killer is not None:  # any seat may play the last card: each is watched
        for client in clients:
            client.chooser = killer.chooser_for(client)
    threads = [c.start() for c in clients]
    if killer is not None:
        assert killer.sent.wait(60), "the killed game's last card was never sent"
        server.kill()
        server.start()
    for thread in threads:
        thread.join(90)
    for client in clients:
        assert client.error is None, client.error
        assert client.views and client.views[-1]["status"] == "over", \
            f"{lunch.day}: the game did not end for {client.name}"
    last = clients[0].views[-1]
    seated = {s["seat"]: s["name"] for s in last["seats"]}
    assert [seated[s] for s in range(4)] == lunch.people  # the members' own names
    winner, tray = seated[last["winner"]], seated[last["facts"]["tray_person"]]
    assert (winner, tray) == (lunch.winner, lunch.tray), (
        f"seed {lunch.seed} ({lunch.day}) no longer gives {lunch.winner} the win and "
        f"{lunch.tray} the tray but {winner} and {tray}: the bots or the deal changed; "
        "find the month's seeds again")
    # Nobody may be told the game is over before its last card is stored (with the
    # game's count in the league): the view saying so comes after that commit, whose
    # number (seq) is past every view the seat saw before it.
    told_early = [c.name for c in clients
                  if c.views[-1]["seq"] <= max(v["seq"] for v in c.views[:-1])]
    return {"table": created["table"], "host": created["host_token"],
            "connections": sum(c.connections for c in clients), "told_early": told_early,
            "key": game_key(server, created["table"], created["host_token"])}


def game_key(server: Server, table: str, host: str) -> str:
    """The league's key of the table's first game: its record's hash (the record is
    given once the game's last action is stored)."""
    status, record = server.request("GET", f"/api/tables/{table}/records/0",
                                    headers={"authorization": f"Bearer {host}"})
    assert status == 200, record
    return record_key(loads_record(json.dumps(record)))


def add_marks(server: Server, token: str, keys: dict[str, str], key: str,
              lunch: Lunch) -> None:
    for mark in lunch.marks:
        body: dict[str, Any] = {"kind": mark.kind, "person": mark.person, "note": mark.note}
        if mark.named is not None:
            body["named"] = mark.named
        status, added = api(server, "POST", f"/api/groups/{token}/games/{key}/marks", body,
                            keys[mark.by or mark.person])
        assert status == 201, f"{lunch.day} {mark.kind} {mark.person}: {added}"


def play_month(server: Server, clock: Path, kill: bool = True) -> tuple[str, dict[str, str],
                                                                         list[dict[str, Any]]]:
    """The group, its people and the month's games and marks, on ``server`` (started with
    ``TRICKTABLE_CLOCK_FILE`` = ``clock``); kills the server in game KILLED if ``kill``."""
    token, keys = make_group(server)
    tables = []
    for number, lunch in enumerate(MONTH):
        clock.write_text(lunch.clock(), encoding="utf-8")
        killer = Killer(lunch.hands) if kill and number == KILLED else None
        tables.append(play_lunch(server, token, keys, lunch, killer))
        add_marks(server, token, keys, tables[-1]["key"], lunch)
    return token, keys, tables


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayedMonth]:
    folder = tmp_path_factory.mktemp("month")
    clock = folder / "clock"
    clock.write_text(MONTH[0].clock(), encoding="utf-8")
    url = f"sqlite:///{folder / 'lunch.db'}"
    server = Server(url, env={CLOCK_FILE_ENV: str(clock), "TRICKTABLE_CREATE_RATE": "600/100"},
                    log=folder / "server.log")
    server.start()
    try:
        token, keys, tables = play_month(server, clock)
        yield PlayedMonth(server, token, keys, tables, url)
    finally:
        server.stop()


def view(month: PlayedMonth, name: str, query: str = "") -> dict[str, Any]:
    status, out = api(month.server, "GET", f"/api/groups/{month.token}/{name}{query}")
    assert status == 200, out
    return dict(out)


def cli(month: PlayedMonth, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tricktable", "league", *args, "--group", GROUP, "--json",
         "--db", month.db_url], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


# --- what is checked ----------------------------------------------------------------------


def lines_of(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Standings rows by person, in their order, the figures of ``ZERO_LINE`` and rank."""
    return {r["person"]: {k: r[k] for k in ("rank", *ZERO_LINE)} for r in rows}


def tray_log_of(trays: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(g["tray_person"], g["wire_to_wire"], g["chit"], g["named"], g["carrier"],
             g["violator"], g["trays_owed"], g["carried"]) for g in trays["games"]]


def streaks_of(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(s["rank"], s["person"], s["length"], s["start"], s["end"], s["ongoing"])
            for s in rows]


def events_of(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted((e["played"], e["person"], e["kind"], e["count"], e["detail"]) for e in rows)


def test_the_month_is_counted_day_by_day_in_the_groups_zone(month: PlayedMonth) -> None:
    games = view(month, "games")["games"]
    assert len(games) == len(MONTH)
    assert [(g["played"], g["session"], g["winners"]) for g in games] == [
        (lunch.day, lunch.day, [lunch.winner]) for lunch in MONTH]
    assert all(sorted(g["players"]) == sorted(PEOPLE.values()) for g in games)
    marks = [[(m["kind"], m["person"], m["named"]) for m in g["marks"]] for g in games]
    assert marks == [[(m.kind, m.person, m.named) for m in lunch.marks] for lunch in MONTH]


def test_the_api_holds_the_hand_written_sheet(month: PlayedMonth) -> None:
    standings = view(month, "standings")
    assert standings["games"] == len(MONTH) and standings["sessions"] == len(SESSIONS)
    assert lines_of(standings["threeb"]) == STANDINGS
    assert list(lines_of(standings["threeb"])) == list(STANDINGS)  # the order too

    sheet = view(month, "sheet")
    assert lines_of(sheet["threeb"]) == STANDINGS
    assert [(s["session"], s["games"], s["stars"]) for s in sheet["sessions"]] == SESSIONS
    assert streaks_of(sheet["streaks"]) == STREAKS
    assert tray_log_of(sheet["trays"]) == TRAY_LOG
    assert {k: sheet["trays"][k] for k in HELD} == HELD
    assert events_of(sheet["events"]) == EVENTS

    assert streaks_of(view(month, "streaks")["streaks"]) == STREAKS
    trays = view(month, "trays")
    assert tray_log_of(trays) == TRAY_LOG and {k: trays[k] for k in HELD} == HELD
    assert [(s["session"], s["games"], s["stars"]) for s in view(month, "sessions")["sessions"]
            ] == SESSIONS

    week = view(month, "week", "?day=2026-11-11")
    assert (week["monday"], week["sunday"]) == ("2026-11-09", "2026-11-15")
    assert [g["played"] for g in week["games"]] == [lunch.day for lunch in MONTH[7:13]]
    assert lines_of(week["threeb"]) == WEEK_46
    assert list(lines_of(week["threeb"])) == list(WEEK_46)
    assert events_of(week["events"]) == WEEK_46_EVENTS

    card = view(month, "card", "?person=Ann")
    assert {k: card["threeb"][k] for k in ZERO_LINE} == {
        k: v for k, v in STANDINGS["Ann"].items() if k != "rank"}
    assert len(card["results"]) == len(MONTH)
    assert sum(r["won"] for r in card["results"]) == STANDINGS["Ann"]["stars"]
    assert [s["length"] for s in card["streaks"]] == [5, 2, 1]


def test_the_terminal_prints_the_same_sheet(month: PlayedMonth) -> None:
    standings = cli(month, "standings")
    assert lines_of(standings["threeb"]) == STANDINGS
    assert list(lines_of(standings["threeb"])) == list(STANDINGS)
    assert standings == view(month, "standings")  # every figure, not only the 3B sheet's
    assert streaks_of(cli(month, "streaks")["streaks"]) == STREAKS
    trays = cli(month, "trays")
    assert tray_log_of(trays) == TRAY_LOG and {k: trays[k] for k in HELD} == HELD


def test_the_game_the_server_died_in_is_counted_once(month: PlayedMonth) -> None:
    killed = month.tables[KILLED]
    assert killed["connections"] > 4  # the clients did come back after the kill
    games = view(month, "games")["games"]
    assert [g["key"] for g in games].count(killed["key"]) == 1
    assert [g["key"] for g in games] == [t["key"] for t in month.tables]  # each once
    counted = next(g for g in games if g["key"] == killed["key"])
    assert (counted["played"], counted["winners"]) == (MONTH[KILLED].day, ["Bob"])


def test_nobody_is_told_a_game_is_over_before_it_is_stored(month: PlayedMonth) -> None:
    # EXPECTED TO FAIL until tables.py is fixed (see the report of issue 41's month test):
    # a table loaded again after the restart runs ``settle_league``, which broadcasts the
    # table's view without the table's lock; when that lands while the last card's commit
    # is under way (the lock held by ``act``), every seat gets a view saying "over", from
    # memory, before the card and the game's count are stored (its seq is still the old
    # one). A server dying then would have told the players of a game end it never kept.
    early = {f"G{n + 1}": t["told_early"] for n, t in enumerate(month.tables)
             if t["told_early"]}
    assert not early, f"seats told the game was over before it was stored: {early}"


# --- the group's page in a browser ------------------------------------------------------------

ROWS = """(selector) => [...document.querySelectorAll(selector + ' tbody tr')].map((r) =>
  [r.querySelector('a.person') ? r.querySelector('a.person').textContent : r.cells[0].textContent,
   ...[...r.cells].slice(1).map((c) => c.textContent.trim())])"""
ITEMS = """(selector) => [...document.querySelectorAll(selector)]
  .map((e) => e.textContent.trim())"""


def page_lines(expected: dict[str, dict[str, int]]) -> tuple[list[list[Any]], list[list[Any]]]:
    """The two tables of the page's 3B lines, as their cells should read."""
    stars = [[p, *(str(r[k]) for k in ("games", "stars", "outside_stars", "gold_stars",
                                       "red_stars", "longest_streak", "current_streak"))]
             for p, r in expected.items()]

    def owes(r: dict[str, int]) -> str:
        parts = []
        if r["trays_owed"]:
            parts.append(f"{r['trays_owed']} tray" + ("s" if r["trays_owed"] > 1 else ""))
        if r["decks_owed"]:
            parts.append(f"{r['decks_owed']} deck" + ("s" if r["decks_owed"] > 1 else ""))
        return ", ".join(parts)

    tray = [[p, str(r["trays"]), str(r["wire_to_wire"]), str(r["tray_hands"]),
             str(r["perfect_days"]), str(r["imperfect_days"]),
             (r["chits_earned"], r["chits_spent"], r["chits_lost"], r["chits_held"]),
             owes(r), str(r["boneheads"]), str(r["zero_buddies"])] for p, r in expected.items()]
    return stars, tray


def chits_read(text: str) -> tuple[int, int, int, int]:
    """The page's words for a person's tray chits ("none", "1 held", "2 earned, 1 spent,
    1 lost; 0 held") as (earned, spent, lost, held)."""
    if text == "none":
        return 0, 0, 0, 0
    said = {word: int(n) for n, word in re.findall(r"(\d+) (held|earned|spent|lost)", text)}
    return said.get("earned", 0), said.get("spent", 0), said.get("lost", 0), said["held"]


def tray_lines(page: Any) -> list[list[Any]]:
    """The page's table of the tray, its chits cell read as figures."""
    rows = page.evaluate(ROWS, "table.threeb-tray")
    return [[*row[:6], chits_read(row[6]), *row[7:]] for row in rows]


needs_browser = pytest.mark.skipif(not chromium_available(),
                                   reason=f"needs Playwright and chromium at {CHROMIUM}")


@pytest.fixture
def page(month: PlayedMonth, browser: Any) -> Iterator[Any]:
    """A page of this browser where Ann's person key is kept (she is a member), dates in
    British English; fails on any script error."""
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    context.add_init_script(
        f"localStorage.setItem({json.dumps(PERSON_KEY)}, "
        f"{json.dumps(json.dumps({'key': month.keys['Ann']}))});")
    p = context.new_page()
    errors = PageErrors(p)
    yield p
    assert not errors.errors, errors.errors
    context.close()


def group_page(month: PlayedMonth) -> str:
    return f"{month.server.base}/league/{month.token}"


@needs_browser
def test_the_groups_page_shows_the_sheet(month: PlayedMonth, page: Any) -> None:
    base = group_page(month)

    # the standings: every figure of the 3B lines, in order
    page.goto(base)
    page.wait_for_selector("table.threeb-stars tbody tr")
    assert page.locator("#summary").inner_text() == "4 members · 21 games"
    stars, tray = page_lines(STANDINGS)
    assert page.evaluate(ROWS, "table.threeb-stars") == stars
    assert tray_lines(page) == tray
    assert "21 games in 17 sessions." in page.locator("#standings-summary").inner_text()

    # the 3B sheet: stars per session, outside stars, streaks, the tray, chits, days, marks
    page.goto(f"{base}?view=sheet")
    page.wait_for_selector("#session-stars tbody tr")
    assert page.evaluate(ROWS, "table.threeb-stars") == stars
    assert tray_lines(page) == tray
    sessions = page.evaluate(
        """() => [...document.querySelectorAll('#session-stars tbody tr')].map((r) =>
          [r.cells[1].textContent, [...r.querySelectorAll('.star-line')].map((s) =>
            [s.querySelector('a.person').textContent,
             s.querySelector('.star-marks').textContent])])""")
    assert sessions == [[str(games), [[p, "★" * n] for p, n in won.items()]]
                        for _, games, won in reversed(SESSIONS)]
    outside = page.evaluate(ITEMS, "#outside-stars li")
    assert [text.split(" ", 4)[-1] for text in outside] == [
        "Ann earns an outside star: three wins in one week.",
        "Ann earns a gold outside star: four wins in a row.",
        "Ann earns a red outside star: five wins in a row.",
        "Bob earns an outside star: three wins in one week.",
        "Di earns an outside star: three wins in one week.",
        "Di earns a gold outside star: four wins in a row.",
    ]
    streaks = page.evaluate(ITEMS, "#streaks li")
    assert [s.split(",")[0] for s in streaks] == [
        "Ann: 5 wins in a row", "Di: 4 wins in a row", "Bob: 2 wins in a row",
        "Cy: 2 wins in a row", "Ann: 2 wins in a row"]
    assert [s.endswith("(going on)") for s in streaks] == [False] * 4 + [True]
    owing = page.evaluate(ITEMS, "#trays > p")
    assert len(owing) == 2 and "violator" not in " ".join(owing)
    assert owing[0] == "Di owes 1 new deck of cards."
    assert owing[1].startswith("Ann holds 1 tray chit: perfect day, ")
    log = page.evaluate(ROWS, "#trays table")
    assert [row[1:] for row in log] == [
        [person, "yes" if wire else "",
         f"spent, names {named}" if chit == "spent" else chit, carrier,
         f"{violator}: {owed}" if violator else "", str(carried) if carried else ""]
        for person, wire, chit, named, carrier, violator, owed, carried in reversed(TRAY_LOG)]

    def said(selector: str) -> list[str]:
        # each item: the day (three words), then the sentence
        return sorted(text.split(" ", 4)[-1] for text in page.evaluate(ITEMS, selector))

    assert said("#chits li") == sorted([
        "Ann earns a tray chit (outside star).", "Di earns a tray chit (perfect day).",
        "Di spends a tray chit: Cy carries the trays.",
        "Ann loses a tray chit (not spent at the tray loss).",
        "Bob earns a tray chit (outside star).",
        "Bob spends a tray chit: Ann carries the trays.",
        "Di earns a tray chit (outside star).",
        "Di loses a tray chit (not spent at the tray loss).",
        "Ann earns a tray chit (perfect day).",
    ])
    assert said("#days li") == sorted([
        "Di has a perfect day.", "Cy has an imperfect day.", "Cy owes a new deck of cards.",
        "Bob has an imperfect day.", "Cy owes a new deck for Bob's imperfect day.",
        "Cy brings the 2 decks owed.", "Ann has a perfect day.", "Di has an imperfect day.",
        "Di owes a new deck of cards.",
    ])
    assert said("#marks ul.marks li") == sorted([
        "Bob gets a bonehead mark: “led the joker into Cy's zero”",
        "Di gets a zero-buddy mark: “let Bob's zero slip away”",
        "Cy gets a bonehead mark: “trumped his own ace”",
        "Bob gets a zero-buddy mark: “fed Di a trick on her zero”",
    ])
    assert said("#marks ul.trays-marks li") == sorted([
        "Cy forgets the trays and is the violator: 4 trays owed.",
        "Cy carries the 12 trays owed.",
    ])


@needs_browser
def test_the_groups_page_shows_a_weeks_sheet(month: PlayedMonth, page: Any) -> None:
    # the week of the forgotten trays: its own figures (what is held is the month's end's).
    # EXPECTED TO FAIL while the page words a line's chits as "N held (E earned, ...)" and
    # leaves "earned" out when nothing was spent or lost in the period: that holds all
    # time (earned = spent + lost + held) but not for a week, where "held" is the month's
    # end's. Bob earned a chit this week (he spent it the week after): the line says "0
    # held", and the week's line no longer shows the chit he earned.
    page.goto(f"{group_page(month)}?view=week&day=2026-11-11")
    page.wait_for_selector("table.threeb-stars tbody tr")
    week_stars, week_tray = page_lines(WEEK_46)
    assert page.evaluate(ROWS, "table.threeb-stars") == week_stars
    assert tray_lines(page) == week_tray


@needs_browser
def test_a_persons_card_shows_her_line_and_her_results(month: PlayedMonth, page: Any) -> None:
    page.goto(f"{group_page(month)}?view=card&person=Ann")
    page.wait_for_selector("#view svg")
    assert "21 games played, 8 won, since " in page.locator("#view").inner_text()
    assert page.locator("#view svg .win").count() == STANDINGS["Ann"]["stars"]
    stars, _ = page_lines(STANDINGS)
    all_time = page.evaluate(ROWS, "table.threeb-stars")[-1]
    assert all_time == ["All time", *stars[0][1:]]
