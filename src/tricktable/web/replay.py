"""A record for the browser's replay viewer, a hand at a time: first the game's facts, its
hands and their results; then, for the hand the person moves to, that hand's frames (the
table after its deal and after each of its actions), with every hand open or as one seat
saw it then.

A record holds every deal, so whoever holds the record may see every hand; a seat's view is
the engine's observation for that seat at that moment, nothing more.

The work is bounded before it starts: the record's hands and actions are counted and a
record over the limits is refused unreplayed; an answer holds one hand's frames, whose
size does not grow with the hand's place in the game; and only a few replays run at once,
each in a worker process (parsing and writing the JSON too), never in the server's own.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..engine.errors import RecordError
from ..engine.game import Game
from ..engine.records import Record, game_for_record, loads_record, replay
from ..engine.state import State
from ..engine.words import naming
from ..search import search_installed
from . import protocol

MAX_REPLAY_HANDS = 1_000
"""Hands in a record the server replays. A long real game is a few dozen hands; this is
room for a marathon and still replays in well under a second."""
MAX_REPLAY_ACTIONS = 50_000
"""Actions in a whole record the server replays: every request replays the record up to
the hand asked for, at some 10 microseconds an action, so this bounds one request's work
to about half a second. (A real game is a few thousand actions.)"""
MAX_HAND_ACTIONS = 400
"""Actions in one hand. A hand of any game here is at most about a hundred (52 cards,
bids, passes, peeks); each of a hand's frames carries the hand so far, so one hand's
answer grows with the square of this and it must stay small."""
MAX_REPLAYS_AT_ONCE = 2
"""Replays running at once in the process. A replay is Python work that shares the
interpreter (its lock) with the event loop serving the tables, so each one running slows
their messages; two let one person's viewer not wait on another's. One more is refused as
busy at once, never queued (the viewer asks again a second later)."""

_replay_slots = threading.BoundedSemaphore(MAX_REPLAYS_AT_ONCE)
"""A slot is given back when its replay is done, even if the request that started it has
gone meanwhile."""


class ReplayTooLarge(RecordError):
    """A record over the replay limits (refused before it is replayed)."""


class ReplayBusy(Exception):
    """Every replay slot is taken."""


REPLAY_NICENESS = 10
"""How much lower the replay workers' scheduling priority is than the server's."""
REPLAY_TASKS_PER_WORKER = 50
"""Replays a worker process makes before it is replaced (whatever a replay left in its
memory goes with it)."""

_workers: ProcessPoolExecutor | None = None


def _pool() -> ProcessPoolExecutor:
    global _workers
    if _workers is None:
        # Processes, not threads: a replay is Python work, and in a thread it would hold the
        # interpreter's lock for hundreds of milliseconds at a time (measured: other tables'
        # p99 round trip 19 -> 559 ms under replays of 8 MiB records). "spawn": the server
        # has threads (the writer), which a forked child must not inherit.
        # Niced: on a machine with few cores the replays yield the processor to the
        # server's own process, whose tables are people waiting.
        _workers = ProcessPoolExecutor(
            max_workers=MAX_REPLAYS_AT_ONCE, mp_context=multiprocessing.get_context("spawn"),
            max_tasks_per_child=REPLAY_TASKS_PER_WORKER, initializer=os.nice,
            initargs=(REPLAY_NICENESS,),
        )
    return _workers


def close_replays() -> None:
    """Stop the replay workers (the server is stopping)."""
    global _workers
    if _workers is not None:
        _workers.shutdown(wait=False, cancel_futures=True)
        _workers = None


def replay_body(body: bytes, seat: int | None, hand: int | None) -> tuple[str, bytes]:
    """The whole of one replay request, as a worker process runs it: ("ok", the answer's
    JSON) or (an error code, its one sentence). Nothing but bytes and text cross back, so
    no exception (and no traceback holding the body) outlives the request."""
    return _answered(body, lambda record: ("ok", replay_json(record, seat, hand)))


def review_body(body: bytes, hand: int) -> tuple[str, bytes]:
    """The double-dummy review of hand ``hand`` (from 1) of the record ``body``, in
    sentences (``analysis.review_words``), as a worker process runs it: ("ok", JSON) or
    (an error code, its one sentence). Needs the solver (the ``search`` extra)."""

    def review(record: Record) -> tuple[str, bytes]:
        check_limits(record)
        replay(record)  # the whole record is legal, or it is refused naming what is not
        if not 1 <= hand <= len(record.hands):
            raise RecordError(
                f"the record has {len(record.hands)} hands; there is no hand {hand}")
        if not search_installed():
            return "no-solver", (b"a hand is reviewed by the double-dummy solver, which this "
                                 b"server does not have (the search extra)")
        from ..analysis import review_hand, review_words

        return "ok", json.dumps(review_words(review_hand(record, hand - 1), record)).encode()

    return _answered(body, review)


def _answered(body: bytes, work: Callable[[Record], tuple[str, bytes]]) -> tuple[str, bytes]:
    """``work`` on the record ``body``, its refusals as (an error code, one sentence)."""
    try:
        return work(loads_record(body.decode("utf-8"), "the record"))
    except UnicodeDecodeError:
        return "bad-record", b"a record is UTF-8 JSON text"
    except ReplayTooLarge as e:
        return "too-large", str(e).encode()
    except RecordError as e:
        return "bad-record", str(e).encode()


async def run_replay(body: bytes, seat: int | None, hand: int | None,
                     review: bool = False) -> tuple[str, bytes]:
    """``replay_body`` (or ``review_body``) in a worker process if fewer than
    MAX_REPLAYS_AT_ONCE replays are running; raises ReplayBusy otherwise, at once."""
    if not _replay_slots.acquire(blocking=False):
        raise ReplayBusy("the server is busy replaying; try again in a moment")
    try:
        work = (_pool().submit(review_body, body, hand or 0) if review
                else _pool().submit(replay_body, body, seat, hand))
        running = asyncio.wrap_future(work)
    except BaseException:
        _replay_slots.release()
        raise
    running.add_done_callback(lambda _: _replay_slots.release())
    return await running


def check_limits(record: Record) -> None:
    """Raises ReplayTooLarge, in one sentence, if ``record`` is over a replay limit; counts
    only, replays nothing."""
    hands = len(record.hands)
    if hands > MAX_REPLAY_HANDS:
        raise ReplayTooLarge(
            f"the record has {hands:,} hands; a replay takes at most {MAX_REPLAY_HANDS:,}")
    actions = sum(len(h.actions) for h in record.hands)
    if actions > MAX_REPLAY_ACTIONS:
        raise ReplayTooLarge(
            f"the record has {actions:,} actions; a replay takes at most {MAX_REPLAY_ACTIONS:,}")
    for number, hand in enumerate(record.hands, 1):
        if len(hand.actions) > MAX_HAND_ACTIONS:
            raise ReplayTooLarge(
                f"hand {number} of the record has {len(hand.actions):,} actions; "
                f"a hand has at most {MAX_HAND_ACTIONS}")


def replay_json(record: Record, seat: int | None = None, hand: int | None = None) -> bytes:
    """The viewer's answer as JSON text: the record's outline (``hand`` None) or hand
    ``hand``'s frames (from 1). Raises RecordError (ReplayTooLarge over a limit) in one
    sentence."""
    answer = replay_outline(record, seat) if hand is None else replay_hand(record, hand, seat)
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def replay_outline(record: Record, seat: int | None = None) -> dict[str, Any]:
    """The game's facts, its hands (dealer and number of actions) and each scored hand's
    result, once: what the viewer needs before it asks for a hand's frames. Replays the
    whole record, so that a bad action anywhere in it is refused now."""
    check_limits(record)
    game = _game(record, seat)
    state = replay(record)
    return {
        "protocol": protocol.PROTOCOL,
        "game": game.name,
        "title": game.title,
        "options": game.options.to_mapping(include_defaults=True),
        "players": dict(record.players),
        "seats": game.num_seats,
        "player_seats": list(game.player_seats),
        "sides": {game.entity_label(e): game.entity_name(e) for e in range(len(state.totals))},
        "view": "all" if seat is None else seat,
        "winner": state.winner,
        "hands": [
            {"hand": number, "dealer": h.dealer, "moments": 1 + len(h.actions)}
            for number, h in enumerate(record.hands, 1)
        ],
        "results": [
            {"scores": dict(r.scores), "totals": dict(r.totals), "lines": list(r.lines)}
            for r in state.results
        ],
    }


def replay_hand(record: Record, hand: int, seat: int | None = None) -> dict[str, Any]:
    """Hand ``hand`` (from 1) of ``record`` as frames: after its deal and after each of its
    actions. The hands before it are replayed without frames; the ones after it not at all.
    Raises RecordError naming the first bad deal or action, or a seat or hand the record
    does not have."""
    check_limits(record)
    game = _game(record, seat)
    if not 1 <= hand <= len(record.hands):
        raise RecordError(
            f"the record has {len(record.hands)} hands; there is no hand {hand}")
    frames: list[dict[str, Any]] = []
    tricks_before = 0

    def take(state: State, number: int, text: str | None) -> None:
        nonlocal tricks_before
        if number != hand:
            return
        if text is None:
            tricks_before = 0
        frames.append(_frame(game, state, hand, text, seat, tricks_before))
        tricks_before = len(state.tricks)

    # the hands up to this one, and no further; the words name the record's players
    with naming({int(s): name for s, name in record.players.items()
                 if str(s).isdigit() and isinstance(name, str)}):
        replay(Record(record.game, record.options, record.players, record.hands[:hand]), take)
    return {"protocol": protocol.PROTOCOL, "view": "all" if seat is None else seat,
            "hand": hand, "frames": frames}


def _game(record: Record, seat: int | None) -> Game:
    game = game_for_record(record)
    if seat is not None and seat not in game.player_seats:
        raise RecordError(
            f"{game.name} has no player seat {seat}; its player seats are "
            + ", ".join(str(s) for s in game.player_seats)
        )
    return game


def _frame(game: Game, state: State, hand: int, text: str | None, seat: int | None,
           tricks_before: int) -> dict[str, Any]:
    if seat is None:
        # whoever holds the record holds every deal: every hand open, every action as taken,
        # every seat's facts (a peek, a pass) together
        views = [protocol.observation_json(game.observe(state, s)) for s in game.player_seats]
        obs = dict(views[0])
        obs.update(seat=None, hand=[], legal=[],
                   visible=[protocol.cards_json(h) for h in state.hands],
                   history=[str(a) for a in state.actions])
        info: dict[str, Any] = {}
        for v in views:
            for key, value in v["info"].items():
                info.setdefault(key, value)
        obs["info"] = info
        said = text
    else:
        obs = protocol.observation_json(game.observe(state, seat))
        # the last action as this seat saw it (a pass it was not part of shows as '?')
        said = None if text is None else (
            obs["history"][-1] if obs["history"] else "the hand is scored")
    frame: dict[str, Any] = {
        "label": f"hand {hand}: {'the deal' if said is None else said}",
        "hand": hand,
        "tricks_done": len(state.tricks),
        "around": protocol.around_the_table(state),
        "trick_size": len(state.trick_cards),
        "scored": len(state.results),
        "observation": obs,
        # what the game says of this moment (the facts, each seat's line), as at the table
        "words": protocol.words_json(game, obs),
    }
    if not obs["trick"] and len(obs["tricks"]) > tricks_before:
        # this action's card ended a trick, and the engine has already cleared the table
        # for the next: show the trick it completed, with its winner
        frame["last_trick"] = obs["tricks"][-1]
    return frame
