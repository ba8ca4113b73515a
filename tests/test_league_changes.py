"""What a game changed on its group's sheet (``views.what_changed``, issue 41): the
sentences the game-over panel of a group's table shows, over the hand-built 3B season of
``test_league_3b`` (its docstring tells the season), written out here by hand."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from test_league_3b import PEOPLE, game, season
from tricktable.league.model import (
    GameEntry,
    LeagueError,
    Mark,
    PlayerResult,
    StakeFacts,
    ThreeBFacts,
)
from tricktable.league.threeb import threeb_history
from tricktable.league.views import chit_due, what_changed

SEASON = {
    "G1": ["Ann wins a star (1st this session).",
           "Bob is the tray person."],
    "G2": ["Ann wins a star (1st this session).",
           "Ann's streak is 2 in a row.",
           "Cy is the tray person.",
           "Cy forgot the trays and is the violator: 4 trays owed.",
           "Di has an imperfect day: Di owes a new deck."],
    "G3": ["Ann wins a star (1st this session).",
           "Ann earns an outside star: three wins this week.",
           "Ann's streak is 3 in a row.",
           "Bob is the tray person.",
           "Ann earns a tray chit (an outside star).",
           "Cy (the violator) owes this game's trays too: 8 in all.",
           "Bob gets a bonehead mark."],
    "G4": ["Ann wins a star (1st this session).",
           "Ann's streak is 4 in a row: a gold outside star.",
           "Di is the tray person.",
           "Cy carried the 12 trays owed, this game's included."],
    "G5": ["Bob wins a star (1st this session).",
           "Ann's streak of 4 in a row ends.",
           "Ann is the tray person.",
           "Ann spends a tray chit: Cy carries the trays."],
    "G6": ["Bob wins a star (1st this session).",
           "Bob's streak is 2 in a row.",
           "Di is the tray person, wire to wire.",
           "Cy earns a tray chit (a perfect day).",
           "Bob has an imperfect day: Di, who has not brought a deck owed yet, owes this one "
           "too.",
           "Ann gets a zero-buddy mark."],
    "G7": ["Bob wins a star (2nd this session).",
           "Bob's streak is 3 in a row.",
           "Cy is the tray person.",
           "Cy's tray chit falls due: it names another player to carry the trays, or it is "
           "lost.",
           "Di brought the 2 new decks owed."],
    "G8": ["Bob wins a star (1st this session).",
           "Bob earns an outside star: three wins this week.",
           "Bob's streak is 4 in a row: a gold outside star.",
           "Ann is the tray person.",
           "Bob earns a tray chit (an outside star)."],
    "G9": ["Bob wins a star (1st this session).",
           "Bob's streak is 5 in a row: a red outside star.",
           "Ann is the tray person.",
           "Cy has an imperfect day: Cy owes a new deck."],
    "G10": ["Cy wins a star (1st this session).",
            "Bob's streak of 5 in a row ends.",
            "Nobody is the tray person."],
}


@pytest.mark.parametrize("key", list(SEASON))
def test_what_each_game_of_the_season_changed(key: str) -> None:
    assert what_changed(season(), key) == SEASON[key]


def test_the_games_after_it_and_the_order_given_change_nothing() -> None:
    games = season()
    upto_g6 = games[:6]
    assert what_changed(upto_g6, "G6") == SEASON["G6"]
    assert what_changed(list(reversed(games)), "G6") == SEASON["G6"]


def test_stars_are_counted_in_the_named_session() -> None:
    friday = [replace(game(k, d, w, t), session="Friday night")
              for k, d, w, t in (("F1", 6, "Ann", "Bob"), ("F2", 7, "Ann", "Cy"),
                                 ("F3", 7, "Bob", "Ann"))]
    friday[2] = replace(friday[2], sequence=1)
    assert what_changed(friday, "F2")[0] == "Ann wins a star (2nd this session)."
    assert what_changed(friday, "F3")[:2] == ["Bob wins a star (1st this session).",
                                              "Ann's streak of 2 in a row ends."]


def two_chits(marks: tuple[Mark, ...] = ()) -> list[GameEntry]:
    """Ann earns a chit by a perfect day, another by three wins in the week, then loses."""
    return [
        game("C1", 2, "Ann", "Bob", perfect=("Ann",)),
        game("C2", 3, "Ann", "Bob"),
        game("C3", 4, "Ann", "Bob"),
        game("C4", 5, "Bob", "Ann", marks=marks),
    ]


def test_a_chit_spent_and_another_lost() -> None:
    games = two_chits((Mark("chit", "Ann", named="Di"),))
    assert what_changed(games, "C1") == [
        "Ann wins a star (1st this session).", "Bob is the tray person.",
        "Ann earns a tray chit (a perfect day)."]
    assert what_changed(games, "C4") == [
        "Bob wins a star (1st this session).",
        "Ann's streak of 3 in a row ends.",
        "Ann is the tray person.",
        "Ann spends a tray chit: Di carries the trays.",
        "Ann loses another tray chit: one chit names one tray person."]
    assert chit_due(games, "C4") is None


def test_chits_due_and_not_spent_yet() -> None:
    games = two_chits()
    assert what_changed(games, "C4")[3:] == [
        "Ann's 2 tray chits fall due: one may name another player to carry the trays; the "
        "others are lost."]
    assert chit_due(games, "C4") == "Ann"
    assert chit_due(games, "C3") is None and chit_due(games, "nope") is None


def test_a_game_a_bot_won_gives_no_star_and_ends_the_streaks() -> None:
    """At a table with a bot the bot is not in the entry: no winner, no tray person when the
    bot was in the tray; the people's streaks end."""
    people = ("Ann", "Bob", "Cy")
    games = [game("B1", 2, "Ann", "Bob", people=people),
             game("B2", 3, "Ann", "Bob", people=people),
             replace(game("B3", 4, "Ann", "Cy", people=people),
                     players=tuple(replace(p, won=False) for p in game(
                         "B3", 4, "Ann", "Cy", people=people).players),
                     threeb=ThreeBFacts(None, None, False))]
    assert what_changed(games, "B3") == [
        "No star: a bot won.", "Ann's streak of 2 in a row ends.",
        "Nobody is the tray person."]
    ann = threeb_history(games).standings()[0]
    assert (ann.person, ann.games, ann.stars, ann.current_streak, ann.outside_stars) == (
        "Ann", 3, 2, 0, 0)


def paperless(key: str, stake: int, points: int) -> GameEntry:
    sides = {"Ann": "0", "Bob": "1", "Cy": "0", "Di": "1"}
    players = tuple(PlayerResult(p, seat, sides[p], sides[p] == "0", 0)
                    for seat, p in enumerate(PEOPLE))
    return GameEntry(key, "paperless-spades", date(2026, 11, 6), players, group="lunch",
                     stakes=StakeFacts(("Ann", "Cy"), ("Bob", "Di"), points, stake,
                                       points * stake))


def test_paperless_says_who_owes_whom() -> None:
    assert what_changed([paperless("P1", 1, 6)], "P1") == [
        "Ann and Cy win.",
        "Bob owes Ann 1.50 and Cy 1.50.",
        "Di owes Ann 1.50 and Cy 1.50."]
    assert what_changed([paperless("P2", 2, 12)], "P2")[1] == "Bob owes Ann 6 and Cy 6."
    assert what_changed([paperless("P3", 0, 10)], "P3")[1] == (
        "Bob owes Ann 2.50 points and Cy 2.50 points.")


def test_other_games_say_who_won() -> None:
    players = tuple(PlayerResult(p, s, str(s), p == "Cy", 0) for s, p in enumerate(PEOPLE))
    whist = GameEntry("W1", "dummy-whist", date(2026, 11, 6), players, group="lunch")
    assert what_changed([whist, *season()], "W1") == ["Cy wins."]


def test_names_are_the_entries_own_and_nothing_else_is_markup() -> None:
    """The page shows the sentences as text: a name such as <b>x</b> comes out as written,
    and no sentence carries markup of its own."""
    name = "<b>Ann</b>"
    games = [replace(g, players=tuple(replace(p, person=name if p.person == "Ann" else
                                              p.person) for p in g.players),
                     threeb=ThreeBFacts(name, "Bob", False))
             for g in (game("H1", 2, "Ann", "Bob"), game("H2", 3, "Ann", "Bob"))]
    said = what_changed(games, "H2")
    assert said[:2] == ["<b>Ann</b> wins a star (1st this session).",
                        "<b>Ann</b>'s streak is 2 in a row."]
    assert all("<" not in s.replace(name, "") for s in said)


def test_an_unknown_key_is_refused() -> None:
    with pytest.raises(LeagueError, match="no game of this group has the key 'G99'"):
        what_changed(season(), "G99")
