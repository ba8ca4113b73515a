"""Statistics of every game across a league's games (docs/league.md, "Every game").

Per player (and per game): games, wins, average score, contracts made, nils bid and made,
bags, sets, and the Dummy Hand Spades (and whist) declarer rate and success; head-to-head
records; the Paperless stakes owed between players over a session, settled up.
All of it adds up the ``PlayerResult`` facts each entry carries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .model import PAPERLESS, GameEntry, in_order


@dataclass
class PlayerStats:
    """One person's totals over a set of games (``game`` "" for all games together)."""

    person: str
    game: str = ""
    games: int = 0
    wins: int = 0
    score_total: int = 0
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

    @property
    def average_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def declarer_rate(self) -> float:
        """Hands as declarer per hand played."""
        return self.declared / self.hands if self.hands else 0.0

    @property
    def declarer_success(self) -> float:
        """Contracts made per hand as declarer."""
        return self.declared_made / self.declared if self.declared else 0.0


_COUNTS = ("hands", "contracts", "made", "sets", "bags", "nils_bid", "nils_made",
           "nil_points", "declared", "declared_made")


def player_stats(
    entries: Iterable[GameEntry], game: str | None = None, by_game: bool = False
) -> list[PlayerStats]:
    """Every person's totals over ``entries`` (only games named ``game`` if given); one row
    per person and game with ``by_game``. Sorted by wins, then games, then name."""
    rows: dict[tuple[str, str], PlayerStats] = {}
    for g in entries:
        if game is not None and g.game != game:
            continue
        label = g.game if by_game else (game or "")
        for r in g.players:
            row = rows.setdefault((r.person, label), PlayerStats(r.person, label))
            row.games += 1
            row.wins += r.won
            row.score_total += r.score
            for name in _COUNTS:
                setattr(row, name, getattr(row, name) + getattr(r, name))
    return sorted(rows.values(), key=lambda s: (s.game, -s.wins, -s.games, s.person))


@dataclass
class HeadToHead:
    """Games two people played on opposite sides, and how often each finished ahead
    (individual games: the higher final total; partnership games: the winning team)."""

    first: str
    second: str
    games: int = 0
    first_ahead: int = 0
    second_ahead: int = 0


def head_to_head(entries: Iterable[GameEntry], game: str | None = None) -> list[HeadToHead]:
    """Every pair that met on opposite sides, names in alphabetical order."""
    pairs: dict[tuple[str, str], HeadToHead] = {}
    for g in entries:
        if game is not None and g.game != game:
            continue
        for i, a in enumerate(g.players):
            for b in g.players[i + 1:]:
                if a.side == b.side:
                    continue  # partners
                x, y = (a, b) if a.person < b.person else (b, a)
                row = pairs.setdefault((x.person, y.person), HeadToHead(x.person, y.person))
                row.games += 1
                if x.score > y.score:
                    row.first_ahead += 1
                elif y.score > x.score:
                    row.second_ahead += 1
    return sorted(pairs.values(), key=lambda h: (h.first, h.second))


@dataclass(frozen=True)
class Debt:
    """``debtor`` owes ``creditor`` this many points and this amount (points x stake)."""

    debtor: str
    creditor: str
    points: Fraction
    amount: Fraction


@dataclass
class StakesReport:
    """Stakes over a run of Paperless games: each game's debts between people, everyone's
    net balance (positive: is owed) and the fewest payments that settle up."""

    debts: list[tuple[str, Debt]]  # (game key, debt)
    balance: dict[str, Fraction]
    points_balance: dict[str, Fraction]
    settle: list[Debt]


def game_debts(g: GameEntry) -> list[Debt]:
    """The losing team owes the winning team the difference (x the stake); between people
    each loser owes each winner an equal share ([tricktable decision], docs/league.md)."""
    s = g.stakes
    if s is None or not s.winners or not s.losers:
        return []
    shares = len(s.winners) * len(s.losers)
    return [
        Debt(debtor, creditor, Fraction(s.points, shares), Fraction(s.amount, shares))
        for debtor in s.losers
        for creditor in s.winners
    ]


def settle_up(balance: dict[str, Fraction]) -> list[Debt]:
    """The payments that bring every balance to zero: the biggest debtor pays the biggest
    creditor first (names break ties), so n people need at most n - 1 payments."""
    debtors = sorted((p for p in balance if balance[p] < 0), key=lambda p: (balance[p], p))
    creditors = sorted((p for p in balance if balance[p] > 0), key=lambda p: (-balance[p], p))
    left = dict(balance)
    out: list[Debt] = []
    i = j = 0
    while i < len(debtors) and j < len(creditors):
        debtor, creditor = debtors[i], creditors[j]
        pay = min(-left[debtor], left[creditor])
        out.append(Debt(debtor, creditor, Fraction(0), pay))
        left[debtor] += pay
        left[creditor] -= pay
        if left[debtor] == 0:
            i += 1
        if left[creditor] == 0:
            j += 1
    return out


def stakes(entries: Sequence[GameEntry], session: str | None = None) -> StakesReport:
    """Who owes whom over the Paperless games of ``entries`` (of one session if named).
    Settling up is on the amounts when any game had a stake, else on the points."""
    games = [
        g for g in in_order(list(entries))
        if g.game == PAPERLESS and (session is None or g.session_name == session)
    ]
    debts = [(g.key, d) for g in games for d in game_debts(g)]
    balance: dict[str, Fraction] = {}
    points: dict[str, Fraction] = {}
    for g in games:
        for p in g.people:
            balance.setdefault(p, Fraction(0))
            points.setdefault(p, Fraction(0))
    for _, d in debts:
        balance[d.debtor] -= d.amount
        balance[d.creditor] += d.amount
        points[d.debtor] -= d.points
        points[d.creditor] += d.points
    by_amount = any(d.amount for _, d in debts)
    plan = settle_up(balance if by_amount else points)
    if not by_amount:
        plan = [Debt(d.debtor, d.creditor, d.amount, Fraction(0)) for d in plan]
    return StakesReport(debts, balance, points, plan)
