"""What people see of the league, as JSON-ready dicts (docs/league.md).

One function per view: ``standings``, ``player_card``, ``week``, ``streaks``,
``tray_log``, ``stakes_view``, ``head_to_head_view``. Each takes the games (a group's
``GameEntry`` list, e.g. ``LeagueStore.entries(group)``) and returns plain dicts and lists
of str, int, float, bool and None, so the terminal (``tricktable league``), ``--json`` and
the web pages show the same numbers. ``what_changed`` says in sentences what one game
changed on the sheet (the game-over panel of a group's table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from datetime import date
from fractions import Fraction
from typing import Any

from .model import BONEHEAD, PAPERLESS, THREEB, ZERO_BUDDY, GameEntry, LeagueError, in_order
from .stats import game_debts, head_to_head, player_stats, stakes
from .threeb import (
    CHIT_EARNED,
    CHIT_LOST,
    CHIT_SPENT,
    DECK_OWED,
    DECKS_BROUGHT,
    GOLD_STAR,
    OUTSIDE_STAR,
    RED_STAR,
    TRAYS_CARRIED,
    TRAYS_FORGOT,
    TRAYS_HELD,
    WIN,
    Event,
    Standing,
    ThreeBHistory,
    threeb_history,
    week_of,
)


def _period(year: int | None) -> tuple[date | None, date | None]:
    if year is None:
        return None, None
    return date(year, 1, 1), date(year, 12, 31)


def _money(value: Fraction) -> float:
    return float(value)


def _stats_rows(entries: Sequence[GameEntry], by_game: bool = True) -> list[dict[str, Any]]:
    return [
        {
            **asdict(s),
            "average_score": round(s.average_score, 1),
            "win_rate": round(s.win_rate, 3),
            "declarer_rate": round(s.declarer_rate, 3),
            "declarer_success": round(s.declarer_success, 3),
        }
        for s in player_stats(entries, by_game=by_game)
    ]


def _standing_row(rank: int, s: Standing) -> dict[str, Any]:
    return {"rank": rank, **asdict(s)}


def _ranked(rows: list[Standing]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, s in enumerate(rows):
        same = out and out[-1]["stars"] == s.stars and out[-1]["trays"] == s.trays
        out.append(_standing_row(out[-1]["rank"] if same else i + 1, s))
    return out


def standings(entries: Sequence[GameEntry], year: int | None = None) -> dict[str, Any]:
    """The group's standings: the 3B score sheet and every game's per-player totals, for
    one calendar year or all time."""
    start, end = _period(year)
    games = [e for e in entries if (start is None or e.played >= start)
             and (end is None or e.played <= end)]
    history = threeb_history(entries)
    return {
        "year": year,
        "games": len(games),
        "sessions": len({(e.group, e.session_name) for e in games}),
        "threeb": _ranked(history.standings(start, end)),
        "players": _stats_rows(games),
        "head_to_head": head_to_head_view(games),
    }


def player_card(entries: Sequence[GameEntry], person: str) -> dict[str, Any]:
    """One person's card: totals per game, the 3B line of every year and all time, his
    winning streaks, marks, head-to-head records and every result in order (for a chart)."""
    mine = [e for e in in_order(list(entries)) if person in e.people]
    if not mine:
        known = sorted({p for e in entries for p in e.people})
        raise LeagueError(
            f"{person!r} has played no game here; players: {', '.join(known) or 'none'}"
        )
    history = threeb_history(entries)
    years = sorted({e.played.year for e in mine if e.game == THREEB})
    threeb_by_year = {}
    for y in years:
        line = next((s for s in history.standings(*_period(y)) if s.person == person), None)
        if line is not None:
            threeb_by_year[str(y)] = asdict(line)
    all_time = next((s for s in history.standings() if s.person == person), None)
    results = []
    for e in mine:
        r = e.result_of(person)
        assert r is not None
        results.append({"played": e.played.isoformat(), "game": e.game, "key": e.key,
                        "session": e.session_name, "score": r.score, "won": r.won})
    return {
        "person": person,
        "games": [row for row in _stats_rows(mine) if row["person"] == person],
        "threeb": None if all_time is None else asdict(all_time),
        "threeb_by_year": threeb_by_year,
        "streaks": [_streak(rank, s) for rank, s in history.ranked_streaks(1)
                    if s.person == person],
        "marks": [_event(e) for e in history.marks() if e.person == person],
        "head_to_head": [
            {"opponent": h.second if h.first == person else h.first, "games": h.games,
             "ahead": h.first_ahead if h.first == person else h.second_ahead,
             "behind": h.second_ahead if h.first == person else h.first_ahead}
            for h in head_to_head(mine) if person in (h.first, h.second)
        ],
        "results": results,
    }


def _streak(rank: int, s: Any) -> dict[str, Any]:
    return {"rank": rank, "person": s.person, "length": s.length,
            "start": s.start.isoformat(), "end": s.end.isoformat(), "ongoing": s.ongoing}


def _event(e: Any) -> dict[str, Any]:
    return {"played": e.played.isoformat(), "key": e.key, "session": e.session,
            "person": e.person, "kind": e.kind, "count": e.count, "detail": e.detail}


def week(entries: Sequence[GameEntry], day: date) -> dict[str, Any]:
    """The calendar week (Monday to Sunday) holding ``day``: its games, its 3B lines (stars,
    outside stars, trays...) and the stars and chits it gave."""
    monday, sunday = week_of(day)
    history = threeb_history(entries)
    games = [e for e in in_order(list(entries)) if monday <= e.played <= sunday]
    awards = ("outside-star", "gold-star", "red-star", "chit-earned", "chit-spent",
              "chit-lost", "trays-forgot", "trays-carried", "deck-owed", "decks-brought")
    return {
        "monday": monday.isoformat(),
        "sunday": sunday.isoformat(),
        "games": [
            {"played": e.played.isoformat(), "key": e.key, "game": e.game,
             "session": e.session_name, "winners": list(e.winners),
             "tray_person": e.threeb.tray_person if e.threeb else None}
            for e in games
        ],
        "threeb": _ranked([s for s in history.standings(monday, sunday) if s.games]),
        "events": [_event(e) for e in history.between(monday, sunday) if e.kind in awards],
    }


def streaks(entries: Sequence[GameEntry], minimum: int = 2) -> list[dict[str, Any]]:
    """The 3B winning streaks of ``minimum`` wins or more, ranked."""
    return [_streak(rank, s) for rank, s in threeb_history(entries).ranked_streaks(minimum)]


def tray_log(entries: Sequence[GameEntry]) -> dict[str, Any]:
    """Every 3B game's tray person, chit and carrier, the violator and what is owed."""
    h = threeb_history(entries)
    return {
        "games": [
            {**{k: v for k, v in asdict(t).items() if k != "played"},
             "played": t.played.isoformat()}
            for t in h.tray_log
        ],
        "violator": h.violator,
        "trays_owed": h.trays_owed,
        "decks_owed": dict(h.decks_owed),
        "chits_held": {p: [{"source": c.source, "earned": c.earned.isoformat()} for c in cs]
                       for p, cs in h.chits_held.items() if cs},
    }


def stakes_view(entries: Sequence[GameEntry], session: str | None = None) -> dict[str, Any]:
    """Paperless stakes over a session (or all games): the debts, balances, settle-up."""
    report = stakes(entries, session)
    return {
        "session": session,
        "debts": [{"key": k, "debtor": d.debtor, "creditor": d.creditor,
                   "points": _money(d.points), "amount": _money(d.amount)}
                  for k, d in report.debts],
        "balance": {p: _money(v) for p, v in sorted(report.balance.items())},
        "points_balance": {p: _money(v) for p, v in sorted(report.points_balance.items())},
        "settle": [{"debtor": d.debtor, "creditor": d.creditor, "points": _money(d.points),
                    "amount": _money(d.amount)} for d in report.settle],
    }


def head_to_head_view(entries: Sequence[GameEntry], game: str | None = None
                      ) -> list[dict[str, Any]]:
    return [asdict(h) for h in head_to_head(entries, game)]


def session_stars(entries: Sequence[GameEntry]) -> list[dict[str, Any]]:
    """3B stars (games won) per session, in the order played: each session's date, its
    3B games and the stars of each player who won one."""
    games: dict[str, list[GameEntry]] = {}
    for e in in_order(list(entries)):
        if e.game == THREEB:
            games.setdefault(e.session_name, []).append(e)
    stars = threeb_history(entries).session_stars()
    return [
        {"session": name, "played": played[0].played.isoformat(), "games": len(played),
         "stars": dict(sorted(stars.get(name, {}).items(), key=lambda kv: (-kv[1], kv[0])))}
        for name, played in games.items()
    ]


# --- what a game changed ------------------------------------------------------------------


def what_changed(entries: Sequence[GameEntry], key: str) -> list[str]:
    """Sentences saying what game ``key`` changed on its group's sheet, for the game-over
    panel: the history up to that game compared with the same history without it (stars,
    outside stars, streaks, the tray person, chits, the violator, perfect and imperfect
    days, marks; in Paperless, who owes whom). Plain text: the names are the entries' own,
    so whoever shows them escapes them as any text."""
    ordered = in_order(list(entries))
    target = next((e for e in ordered if e.key == key), None)
    if target is None:
        raise LeagueError(f"no game of this group has the key {key[:12]!r}")
    if target.game == THREEB:
        upto = [e for e in ordered if e.order() <= target.order()]
        return _threeb_changes(
            threeb_history(upto), threeb_history([e for e in upto if e.key != key]), target)
    out = [f"{_names(target.winners)} {'wins' if len(target.winners) == 1 else 'win'}."
           ] if target.winners else []
    if target.game == PAPERLESS:
        out += _debts_said(target)
    return out


def chit_due(entries: Sequence[GameEntry], key: str) -> str | None:
    """The person whose tray chit falls due in 3B game ``key`` and who has not yet spent
    it naming another player (a ``chit`` mark): the one to ask. None if nobody is."""
    line = next((t for t in threeb_history(entries).tray_log if t.key == key), None)
    return line.tray_person if line is not None and line.chit == "lost" else None


def _threeb_changes(h: ThreeBHistory, before: ThreeBHistory, g: GameEntry) -> list[str]:
    facts = g.threeb
    assert facts is not None
    events = [e for e in h.events if e.key == g.key]

    def of(kind: str) -> list[Event]:
        return [e for e in events if e.kind == kind]

    out: list[str] = []
    winner = facts.winner
    if winner is None:
        out.append("No star: a bot won.")
    else:
        stars = sum(1 for e in h.events if e.kind == WIN and e.person == winner
                    and e.session == g.session_name)
        out.append(f"{winner} wins a star ({_ordinal(stars)} this session).")
        if of(OUTSIDE_STAR):
            out.append(f"{winner} earns an outside star: three wins this week.")
        run = h.current_streak.get(winner, 0)
        if run >= 2:
            medal = (": a gold outside star" if of(GOLD_STAR) else
                     ": a red outside star" if of(RED_STAR) else "")
            out.append(f"{winner}'s streak is {run} in a row{medal}.")
    for person in g.people:
        run = before.current_streak.get(person, 0)
        if person != winner and run >= 2:
            out.append(f"{person}'s streak of {run} in a row ends.")
    if facts.tray_person is None:
        out.append("Nobody is the tray person.")
    else:
        wire = ", wire to wire" if facts.wire_to_wire else ""
        out.append(f"{facts.tray_person} is the tray person{wire}.")
    out += _chits_said(events)
    line = next(t for t in h.tray_log if t.key == g.key)
    for e in events:
        if e.kind == TRAYS_FORGOT:
            out.append(f"{e.person} forgot the trays and is the violator: {e.count} trays "
                       "owed.")
        elif e.kind == TRAYS_HELD and not line.carried:
            out.append(f"{e.person} (the violator) owes this game's trays too: "
                       f"{line.trays_owed} in all.")
        elif e.kind == TRAYS_CARRIED:
            out.append(f"{e.person} carried the {e.count} trays owed, this game's included.")
        elif e.kind == DECK_OWED:
            debtor, person = e.person, e.detail
            out.append(f"{person} has an imperfect day: {person} owes a new deck." if
                       debtor == person else f"{person} has an imperfect day: {debtor}, who "
                       "has not brought a deck owed yet, owes this one too.")
        elif e.kind == DECKS_BROUGHT:
            decks = "the new deck" if e.count == 1 else f"the {e.count} new decks"
            out.append(f"{e.person} brought {decks} owed.")
        elif e.kind in (BONEHEAD, ZERO_BUDDY):
            out.append(f"{e.person} gets a {e.kind} mark.")
    return out


def _chits_said(events: Sequence[Event]) -> list[str]:
    out: list[str] = []
    spent = [e for e in events if e.kind == CHIT_SPENT]
    for e in spent:
        out.append(f"{e.person} spends a tray chit: {e.detail} carries the trays.")
    lost = Counter(e.person for e in events if e.kind == CHIT_LOST)
    for person, n in lost.items():
        if any(e.person == person for e in spent):
            others = "another tray chit" if n == 1 else f"{n} other tray chits"
            out.append(f"{person} loses {others}: one chit names one tray person.")
        elif n == 1:
            out.append(f"{person}'s tray chit falls due: it names another player to carry "
                       "the trays, or it is lost.")
        else:
            out.append(f"{person}'s {n} tray chits fall due: one may name another player to "
                       "carry the trays; the others are lost.")
    for e in events:
        if e.kind == CHIT_EARNED:
            source = "a perfect day" if e.detail == "perfect day" else "an outside star"
            out.append(f"{e.person} earns a tray chit ({source}).")
    return out


def _debts_said(g: GameEntry) -> list[str]:
    """Who owes whom for a Paperless game: the amount at the table's stake, else points."""
    debts = game_debts(g)
    by_amount = any(d.amount for d in debts)
    owed: dict[str, list[str]] = {}
    for d in debts:
        value = _number(d.amount) if by_amount else f"{_number(d.points)} points"
        owed.setdefault(d.debtor, []).append(f"{d.creditor} {value}")
    return [f"{debtor} owes {_names(parts)}." for debtor, parts in owed.items()]


def _names(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
