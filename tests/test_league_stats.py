"""Statistics of every game across games (docs/league.md, "Every game"), against numbers
computed by hand, and the facts read from real records."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from tricktable.engine.game import make_game
from tricktable.engine.records import Record, replay, summary
from tricktable.league.facts import _dummy_hand, _Tally, _threeb, game_facts
from tricktable.league.importer import entry_from_record, people_of, record_key
from tricktable.league.model import GameEntry, LeagueError, PlayerResult, StakeFacts
from tricktable.league.stats import head_to_head, player_stats, settle_up, stakes
from tricktable.play.simulate import make_bot
from tricktable.play.table import Table


def played(game: str, seed: str, options: dict[str, Any], names: dict[int, str]) -> Record:
    """A finished game between rules bots, as a record."""
    g = make_game(game, options)
    table = Table(g, {s: make_bot("rules", g, s, seed) for s in g.player_seats}, seed, names)
    assert table.run(200)
    return table.record()


def result(person: str, seat: int, side: str, won: bool, score: int, **counts: int) -> PlayerResult:
    return PlayerResult(person, seat, side, won, score, **counts)


def paperless(key: str, winners: tuple[str, str], losers: tuple[str, str], points: int,
              stake: int, session: str = "") -> GameEntry:
    players = (
        result(winners[0], 0, "0", True, points), result(losers[0], 1, "1", False, 0),
        result(winners[1], 2, "0", True, points), result(losers[1], 3, "1", False, 0),
    )
    return GameEntry(key, "paperless-spades", date(2026, 11, 2), players, session=session,
                     stakes=StakeFacts(winners, losers, points, stake, points * stake))


def test_player_totals_and_rates() -> None:
    games = [
        GameEntry("D1", "dummy-hand-spades", date(2026, 11, 2), (
            result("Ann", 0, "0", True, 320, hands=6, declared=3, declared_made=2,
                   contracts=6, made=5, sets=1, bags=4, nils_bid=1, nils_made=1),
            result("Bob", 1, "1", False, 150, hands=6, declared=2, declared_made=0),
            result("Cy", 2, "2", False, 90, hands=6, declared=1, declared_made=1),
        )),
        GameEntry("D2", "dummy-hand-spades", date(2026, 11, 3), (
            result("Ann", 1, "1", False, 100, hands=4, declared=1, declared_made=1,
                   contracts=4, made=2, sets=2, bags=1),
            result("Bob", 0, "0", True, 310, hands=4, declared=3, declared_made=3),
            result("Cy", 2, "2", False, 200, hands=4),
        )),
    ]
    rows = {s.person: s for s in player_stats(games)}
    ann = rows["Ann"]
    assert (ann.games, ann.wins, ann.average_score) == (2, 1, 210.0)
    assert (ann.contracts, ann.made, ann.sets, ann.bags, ann.nils_bid, ann.nils_made) == (
        10, 7, 3, 5, 1, 1)
    assert (ann.declarer_rate, ann.declarer_success) == (0.4, 0.75)  # 4 of 10; 3 of 4
    assert rows["Bob"].declarer_success == 0.6  # 3 of 5
    assert rows["Cy"].declarer_rate == 0.1 and rows["Cy"].win_rate == 0.0
    assert [s.person for s in player_stats(games)] == ["Ann", "Bob", "Cy"]
    assert player_stats(games, game="spades") == []
    by_game = player_stats([*games, paperless("P1", ("Ann", "Bob"), ("Cy", "Di"), 3, 0)],
                           by_game=True)
    assert [(s.game, s.person, s.games) for s in by_game if s.person == "Ann"] == [
        ("dummy-hand-spades", "Ann", 2), ("paperless-spades", "Ann", 1)]


def test_head_to_head_counts_opponents_only() -> None:
    games = [
        paperless("P1", ("Ann", "Bob"), ("Cy", "Di"), 3, 0),
        paperless("P2", ("Ann", "Cy"), ("Bob", "Di"), 2, 0),
    ]
    table = {(h.first, h.second): (h.games, h.first_ahead, h.second_ahead)
             for h in head_to_head(games)}
    assert table == {
        ("Ann", "Bob"): (1, 1, 0),  # partners in P1: only P2 counts
        ("Ann", "Cy"): (1, 1, 0), ("Ann", "Di"): (2, 2, 0),
        ("Bob", "Cy"): (2, 1, 1), ("Bob", "Di"): (1, 1, 0), ("Cy", "Di"): (1, 1, 0),
    }


def test_paperless_stakes_over_a_session_settle_up() -> None:
    """Stake 2 a point. P1: Ann+Bob beat Cy+Di by 3 (6 owed, 1.50 from each loser to each
    winner). P2: Ann+Cy beat Bob+Di by 2 (4). P3 (another session): Di+Bob beat Ann+Cy by 5.
    Session: Ann +3 +2 = +5, Bob +3 -2 = +1, Cy -3 +2 = -1, Di -3 -2 = -5."""
    games = [
        paperless("P1", ("Ann", "Bob"), ("Cy", "Di"), 3, 2, session="mon"),
        paperless("P2", ("Ann", "Cy"), ("Bob", "Di"), 2, 2, session="mon"),
        paperless("P3", ("Di", "Bob"), ("Ann", "Cy"), 5, 2, session="tue"),
    ]
    report = stakes(games, session="mon")
    assert [(k, d.debtor, d.creditor, d.amount) for k, d in report.debts][:2] == [
        ("P1", "Cy", "Ann", Fraction(3, 2)), ("P1", "Cy", "Bob", Fraction(3, 2))]
    assert report.balance == {"Ann": 5, "Bob": 1, "Cy": -1, "Di": -5}
    assert [(d.debtor, d.creditor, d.amount) for d in report.settle] == [
        ("Di", "Ann", 5), ("Cy", "Bob", 1)]
    assert sum(stakes(games).balance.values()) == 0


def test_without_a_stake_the_points_are_settled() -> None:
    report = stakes([paperless("P1", ("Ann", "Bob"), ("Cy", "Di"), 3, 0)])
    assert report.balance == dict.fromkeys(("Ann", "Bob", "Cy", "Di"), 0)
    assert report.points_balance["Ann"] == Fraction(3, 2)
    # each owes 3/4 to each winner; netted, one payment per loser settles it
    assert [(d.debtor, d.creditor, d.points) for d in report.settle] == [
        ("Cy", "Ann", Fraction(3, 2)), ("Di", "Bob", Fraction(3, 2))]
    assert sum(d.points for d in report.settle) == 3


def test_settle_up_needs_at_most_one_payment_fewer_than_people() -> None:
    plan = settle_up({"a": Fraction(-7), "b": Fraction(4), "c": Fraction(-1), "d": Fraction(4)})
    assert [(d.debtor, d.creditor, d.amount) for d in plan] == [
        ("a", "b", 4), ("a", "d", 3), ("c", "d", 1)]


def test_3b_hand_facts_by_hand() -> None:
    """Zero made (pot 140 won), a made bid with 2 over, a set, a failed zero."""
    tallies = {s: _Tally() for s in range(4)}
    _threeb([{
        "bids": {"0": 0, "1": 3, "2": 4, "3": 0},
        "tricks": {"0": 0, "1": 5, "2": 3, "3": 5},
        "scores": {"0": 140, "1": 10, "2": 3, "3": -50},
    }], tallies)
    assert (tallies[0].nils_bid, tallies[0].nils_made, tallies[0].nil_points) == (1, 1, 140)
    assert (tallies[1].contracts, tallies[1].made, tallies[1].bags) == (1, 1, 2)
    assert (tallies[2].contracts, tallies[2].sets, tallies[2].bags) == (1, 1, 0)
    assert (tallies[3].nils_bid, tallies[3].nils_made, tallies[3].nil_points) == (1, 0, 0)


def test_dummy_hand_facts_by_hand() -> None:
    """Seat 1 declares 7 and the team takes 8; the defenders bid 3 and 2 and take 5; seat 0
    declared nil on his own hand and took a trick."""
    tallies = {s: _Tally() for s in range(3)}
    _dummy_hand([{
        "declarer": 1, "bids": {"0": 3, "1": 7, "2": 2},
        "team_tricks": {"declarer": 8, "defenders": 5},
        "nils": [{"bidder": 0, "hand": 0, "made": False}],
    }], tallies)
    assert (tallies[1].declared, tallies[1].declared_made, tallies[1].bags) == (1, 1, 1)
    assert (tallies[0].made, tallies[0].bags, tallies[0].nils_bid, tallies[0].nils_made) == (
        1, 2, 1, 0)
    assert (tallies[2].made, tallies[2].bags, tallies[2].declared) == (1, 3, 0)


@pytest.mark.parametrize(
    ("game", "options"),
    [("3b-spades", {"players": 4}), ("dummy-hand-spades", {"target": 200}),
     ("spades", {"target": 200}), ("paperless-spades", {"stake": 2}),
     ("dummy-whist", {})],
)
def test_facts_of_a_real_game_agree_with_its_replay(game: str, options: dict[str, Any]) -> None:
    names = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"}
    g = make_game(game, options)
    record = played(game, "league", options, {s: names[s] for s in g.player_seats})
    facts = game_facts(record, {s: names[s] for s in g.player_seats})
    out = summary(replay(record))
    assert sum(p.won for p in facts.players) == (2 if g.partnership else 1)
    for p in facts.players:
        assert p.score == out["totals"][p.side]
        assert p.made + p.sets == p.contracts
        assert p.hands == len(out["hands"]) or game == "3b-spades"
    if game == "3b-spades":
        assert facts.threeb is not None and facts.threeb.winner == names[out["winner"]]
        for p in facts.players:
            hands = sum(str(p.seat) in h["bids"] for h in out["hands"])
            zeros = sum(h["bids"].get(str(p.seat)) == 0 for h in out["hands"])
            assert p.hands == hands and p.contracts + p.nils_bid == hands and p.nils_bid == zeros
    if game == "paperless-spades":
        assert facts.stakes is not None and facts.stakes.amount == 2 * facts.stakes.points
    if game in ("dummy-hand-spades", "dummy-whist"):
        assert sum(p.declared for p in facts.players) == len(out["hands"])


def test_import_is_keyed_by_the_record_hash() -> None:
    record = played("3b-spades", "key", {"players": 3}, {0: "P0", 1: "P1", 2: "P2"})
    mapping = {"P0": "Ann", "P1": "Bob", "P2": "Cy"}
    one = entry_from_record(record, date(2026, 11, 2), mapping, group="lunch")
    again = entry_from_record(Record(**vars(record)), date(2026, 11, 2), mapping, group="lunch")
    assert one == again and one.key == record_key(record) and len(one.key) == 64
    assert one.people == ("Ann", "Bob", "Cy")


def test_a_player_mapping_must_name_everyone_once() -> None:
    record = played("3b-spades", "map", {"players": 3}, {0: "P0", 1: "P1", 2: "P2"})
    with pytest.raises(LeagueError, match=r"'P2' .* not in the player mapping"):
        people_of(record, {"P0": "Ann", "P1": "Bob"})
    with pytest.raises(LeagueError, match="two seats"):
        people_of(record, {"P0": "Ann", "P1": "Bob", "P2": "Ann"})
    assert people_of(record, None) == {0: "P0", 1: "P1", 2: "P2"}
