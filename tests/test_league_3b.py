"""The 3B score sheet across games (docs/league.md), on a hand-built season checked
against standings computed by hand.

The season (4-handed, Ann, Bob, Cy and Di play every game; November 2026, weeks run
Monday to Sunday):

| game | day        | winner | tray | what else happens                                      |
|------|------------|--------|------|--------------------------------------------------------|
| G1   | Mon  2     | Ann    | Bob  |                                                        |
| G2   | Tue  3     | Ann    | Cy   | Cy forgets the trays (violator, owes 4); Di imperfect  |
| G3   | Wed  4     | Ann    | Bob  | Ann's 3rd win of the week: outside star = chit; Bob's  |
|      |            |        |      | trays go on Cy's pile (8); Bob claims a bonehead       |
| G4   | Thu  5     | Ann    | Di   | Ann 4 in a row: gold; Cy's pile 12, then he carries    |
| G5   | Fri  6     | Bob    | Ann  | Ann spends her chit naming Cy, who carries             |
| G6   | Mon  9     | Bob    | Di   | Di wire-to-wire; Cy perfect day (chit); Bob imperfect: |
|      |            |        |      | Di, who has not brought hers, owes his deck too (2); ZB|
| G7   | Mon  9 (2) | Bob    | Cy   | Cy names nobody: his chit is lost; Di brings 2 decks   |
| G8   | Sun 15     | Bob    | Ann  | Bob's 3rd win Mon 9-Sun 15: outside star; 4 in a row   |
| G9   | Mon 16     | Bob    | Ann  | Bob 5 in a row (across sessions): red; Cy imperfect    |
| G10  | Tue 17     | Cy     | none | an all-tricks win leaves last place tied; Bob's streak |
|      |            |        |      | ends at 5                                              |
"""

from __future__ import annotations

from datetime import date

import pytest

from tricktable.league.model import GameEntry, LeagueError, Mark, PlayerResult, ThreeBFacts
from tricktable.league.threeb import threeb_history, week_of

PEOPLE = ("Ann", "Bob", "Cy", "Di")


def game(
    key: str, day: int, winner: str, tray: str | None, *, sequence: int = 0,
    month: int = 11, year: int = 2026, wire: bool = False, perfect: tuple[str, ...] = (),
    imperfect: tuple[str, ...] = (), sheet: tuple[tuple[str, ...], ...] = (),
    marks: tuple[Mark, ...] = (), people: tuple[str, ...] = PEOPLE,
) -> GameEntry:
    players = tuple(
        PlayerResult(p, s, str(s), p == winner, 100 if p == winner else 0)
        for s, p in enumerate(people)
    )
    return GameEntry(
        key, "3b-spades", date(year, month, day), players, group="lunch", sequence=sequence,
        threeb=ThreeBFacts(winner, tray, wire, sheet, perfect, imperfect), marks=marks,
    )


def season() -> list[GameEntry]:
    return [
        game("G1", 2, "Ann", "Bob"),
        game("G2", 3, "Ann", "Cy", imperfect=("Di",), marks=(Mark("forgot-trays", "Cy"),)),
        game("G3", 4, "Ann", "Bob", marks=(Mark("bonehead", "Bob", "led the ace into a void"),)),
        game("G4", 5, "Ann", "Di", marks=(Mark("carried-trays", "Cy"),)),
        game("G5", 6, "Bob", "Ann", marks=(Mark("chit", "Ann", named="Cy"),)),
        game("G6", 9, "Bob", "Di", wire=True, perfect=("Cy",), imperfect=("Bob",),
             sheet=(("Di",), ("Di",)),
             marks=(Mark("zero-buddy", "Ann", "let the zero sneak by"),)),
        game("G7", 9, "Bob", "Cy", sequence=2, marks=(Mark("brought-decks", "Di"),)),
        game("G8", 15, "Bob", "Ann"),
        game("G9", 16, "Bob", "Ann", imperfect=("Cy",)),
        game("G10", 17, "Cy", None, sheet=(("Ann", "Di"), ("Bob",))),
    ]


def line(rows: list, person: str) -> dict[str, int]:  # type: ignore[type-arg]
    row = next(r for r in rows if r.person == person)
    return {k: v for k, v in vars(row).items() if k != "person"}


def test_the_season_all_time_matches_the_hand_computed_sheet() -> None:
    rows = threeb_history(season()).standings()
    assert [r.person for r in rows] == ["Bob", "Ann", "Cy", "Di"]
    blank = dict.fromkeys(line(rows, "Ann"), 0) | {"games": 10}
    assert line(rows, "Ann") == blank | {
        "stars": 4, "outside_stars": 1, "gold_stars": 1, "longest_streak": 4, "trays": 3,
        "tray_hands": 1, "chits_earned": 1, "chits_spent": 1, "zero_buddies": 1,
    }
    assert line(rows, "Bob") == blank | {
        "stars": 5, "outside_stars": 1, "gold_stars": 1, "red_stars": 1,
        "longest_streak": 5, "trays": 2, "tray_hands": 1, "imperfect_days": 1,
        "chits_earned": 1, "chits_held": 1, "boneheads": 1,
    }
    assert line(rows, "Cy") == blank | {
        "stars": 1, "longest_streak": 1, "current_streak": 1, "trays": 2,
        "perfect_days": 1, "imperfect_days": 1, "chits_earned": 1, "chits_lost": 1,
        "decks_owed": 1,
    }
    assert line(rows, "Di") == blank | {
        "trays": 2, "wire_to_wire": 1, "tray_hands": 3, "imperfect_days": 1,
    }


def test_three_wins_in_one_calendar_week_monday_to_sunday() -> None:
    h = threeb_history(season())
    stars = [(e.person, e.key, e.detail) for e in h.events if e.kind == "outside-star"]
    # Bob's G6, G7 (Monday 9) and G8 (Sunday 15) are one week; G9 (Monday 16) is the next
    assert stars == [("Ann", "G3", "2026-W45"), ("Bob", "G8", "2026-W46")]
    monday, sunday = week_of(date(2026, 11, 15))
    assert (monday, sunday) == (date(2026, 11, 9), date(2026, 11, 15))
    week = {r.person: r for r in h.standings(monday, sunday)}
    assert h.standings(date(2025, 1, 1), date(2025, 12, 31)) == []
    assert week["Bob"].stars == 3 and week["Bob"].outside_stars == 1
    assert [week[p].trays for p in PEOPLE] == [1, 0, 1, 1]
    assert week["Ann"].gold_stars == 0 and week["Bob"].gold_stars == 1


def test_a_sunday_win_is_not_in_the_next_week() -> None:
    """Two wins Sunday to Monday and a third on Tuesday: no outside star (two weeks)."""
    games = [game("S1", 15, "Ann", "Bob"), game("S2", 16, "Ann", "Bob"),
             game("S3", 17, "Ann", "Bob")]
    assert threeb_history(games).standings()[0].outside_stars == 0


def test_a_five_game_streak_across_sessions_earns_gold_then_red() -> None:
    h = threeb_history(season())
    assert [(e.kind, e.key) for e in h.events if e.person == "Bob" and
            e.kind in ("gold-star", "red-star")] == [("gold-star", "G8"), ("red-star", "G9")]
    assert [(rank, s.person, s.length, s.start, s.end, s.ongoing)
            for rank, s in h.ranked_streaks()] == [
        (1, "Bob", 5, date(2026, 11, 6), date(2026, 11, 16), False),
        (2, "Ann", 4, date(2026, 11, 2), date(2026, 11, 5), False),
    ]
    sessions = h.session_stars()
    assert sessions["2026-11-09"] == {"Bob": 2}
    assert len(sessions) == 9  # one session per day by default


def test_gold_and_red_stars_are_held_for_their_calendar_year() -> None:
    games = [*season(), game("Y1", 4, "Cy", "Bob", month=1, year=2027)]
    h = threeb_history(games)
    year_2026 = {r.person: r for r in h.standings(date(2026, 1, 1), date(2026, 12, 31))}
    year_2027 = {r.person: r for r in h.standings(date(2027, 1, 1), date(2027, 12, 31))}
    assert (year_2026["Ann"].gold_stars, year_2026["Bob"].red_stars) == (1, 1)
    assert (year_2027["Ann"].gold_stars, year_2027["Bob"].red_stars) == (0, 0)
    assert year_2027["Cy"].longest_streak == 2  # Cy's run spans New Year: counted when it ends


def test_a_chit_spent_names_the_carrier_and_one_unused_is_lost() -> None:
    h = threeb_history(season())
    log = {t.key: t for t in h.tray_log}
    assert (log["G5"].tray_person, log["G5"].chit, log["G5"].named, log["G5"].carrier) == (
        "Ann", "spent", "Cy", "Cy")
    assert (log["G7"].tray_person, log["G7"].chit, log["G7"].carrier) == ("Cy", "lost", "Cy")
    assert log["G1"].chit == "" and log["G8"].chit == ""  # Ann's chit was already spent
    assert [c.source for c in h.chits_held["Bob"]] == ["outside star"]


def test_every_chit_held_falls_due_at_the_next_tray_loss() -> None:
    """Two chits (a perfect day, then an outside star): the next loss spends one, loses one."""
    games = [
        game("C1", 2, "Ann", "Bob", perfect=("Ann",)),
        game("C2", 3, "Ann", "Bob"),
        game("C3", 4, "Ann", "Bob"),
        game("C4", 5, "Bob", "Ann", marks=(Mark("chit", "Ann", named="Di"),)),
        game("C5", 6, "Bob", "Ann"),
    ]
    h = threeb_history(games)
    ann = next(r for r in h.standings() if r.person == "Ann")
    assert (ann.chits_earned, ann.chits_spent, ann.chits_lost, ann.chits_held) == (2, 1, 1, 0)
    assert [t.chit for t in h.tray_log] == ["", "", "", "spent", ""]


def test_a_chit_earned_in_a_game_is_not_due_in_that_game() -> None:
    games = [game("P1", 2, "Ann", "Bob", perfect=("Bob",)), game("P2", 3, "Ann", "Bob")]
    assert [t.chit for t in threeb_history(games).tray_log] == ["", "lost"]


def test_the_violator_holds_every_tray_until_he_carries_them() -> None:
    log = {t.key: t for t in threeb_history(season()).tray_log}
    assert [(k, log[k].violator, log[k].trays_owed, log[k].carried)
            for k in ("G1", "G2", "G3", "G4", "G5")] == [
        ("G1", None, 0, 0), ("G2", "Cy", 4, 0), ("G3", "Cy", 8, 0), ("G4", None, 0, 12),
        ("G5", None, 0, 0),
    ]
    h = threeb_history(season()[:3])
    assert (h.violator, h.trays_owed) == ("Cy", 8)
    assert next(r for r in h.standings() if r.person == "Cy").trays_owed == 8


def test_a_later_violator_carries_then_the_next_one_can_forget() -> None:
    games = [
        game("V1", 2, "Ann", "Bob", marks=(Mark("forgot-trays", "Bob"),)),
        game("V2", 3, "Ann", "Cy", people=("Ann", "Bob", "Cy")),
        game("V3", 4, "Ann", "Di", marks=(Mark("carried-trays", "Bob"),)),
        game("V4", 5, "Ann", "Di", marks=(Mark("forgot-trays", "Di"),)),
    ]
    log = threeb_history(games).tray_log
    assert [(t.violator, t.trays_owed, t.carried) for t in log] == [
        ("Bob", 4, 0), ("Bob", 7, 0), (None, 0, 11), ("Di", 4, 0)]


def test_ties_in_the_tray() -> None:
    """Every name left on the tray sheet counts a tray hand; an all-tricks win that leaves
    last place tied has no tray person, and so no chit falls due."""
    games = [
        game("T1", 2, "Ann", "Bob", perfect=("Cy",)),
        game("T2", 3, "Cy", None, sheet=(("Bob", "Cy"), ("Bob",), ("Cy", "Di"))),
    ]
    h = threeb_history(games)
    rows = {r.person: r for r in h.standings()}
    assert {p: rows[p].tray_hands for p in PEOPLE} == {"Ann": 0, "Bob": 2, "Cy": 2, "Di": 1}
    assert h.tray_log[1].tray_person is None and h.tray_log[1].chit == ""
    assert rows["Cy"].chits_held == 1


def test_decks_owed_for_imperfect_days_go_to_the_earliest_debtor() -> None:
    h = threeb_history(season())
    owed = [(e.key, e.person, e.detail) for e in h.events if e.kind == "deck-owed"]
    assert owed == [("G2", "Di", "Di"), ("G6", "Di", "Bob"), ("G9", "Cy", "Cy")]
    assert h.decks_owed == {"Cy": 1}
    assert [(e.key, e.count) for e in h.events if e.kind == "decks-brought"] == [("G7", 2)]


def test_marks_keep_their_notes() -> None:
    marks = threeb_history(season()).marks()
    assert [(m.key, m.person, m.kind, m.detail) for m in marks] == [
        ("G3", "Bob", "bonehead", "led the ace into a void"),
        ("G6", "Ann", "zero-buddy", "let the zero sneak by"),
    ]


def test_the_order_given_does_not_matter() -> None:
    forwards = threeb_history(season()).standings()
    backwards = threeb_history(list(reversed(season()))).standings()
    assert forwards == backwards


@pytest.mark.parametrize(
    ("marks", "tray", "message"),
    [
        ((Mark("chit", "Bob", named="Cy"),), "Ann", "not the tray person"),
        ((Mark("chit", "Ann", named="Ann"),), "Ann", "names another player"),
        ((Mark("chit", "Ann", named="Zed"),), "Ann", "names another player"),
        ((Mark("chit", "Bob", named="Cy"),), "Bob", "holds no tray chit"),
        ((Mark("forgot-trays", "Cy"),), "Bob", "due to carry"),
        ((Mark("carried-trays", "Cy"),), "Bob", "owes no trays"),
        ((Mark("brought-decks", "Cy"),), "Bob", "owes no deck"),
        ((Mark("bonehead", "Zed"),), "Bob", "did not play"),
    ],
)
def test_a_mark_that_breaks_a_rule_is_refused(
    marks: tuple[Mark, ...], tray: str, message: str
) -> None:
    games = [game("M1", 2, "Ann", "Cy", perfect=("Ann",)), game("M2", 3, "Cy", tray, marks=marks)]
    with pytest.raises(LeagueError, match=message):
        threeb_history(games)


def test_nobody_forgets_while_a_violator_owes() -> None:
    games = [
        game("F1", 2, "Ann", "Bob", marks=(Mark("forgot-trays", "Bob"),)),
        game("F2", 3, "Ann", "Cy", marks=(Mark("forgot-trays", "Cy"),)),
    ]
    with pytest.raises(LeagueError, match="violator"):
        threeb_history(games)


def test_a_mark_kind_is_checked() -> None:
    with pytest.raises(LeagueError, match="unknown mark"):
        Mark("boneheaded", "Ann")
    with pytest.raises(LeagueError, match="names"):
        Mark("chit", "Ann")
