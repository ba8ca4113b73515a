"""A record as frames for the browser's replay viewer: the table after the deal and after
every action, as everyone would see it with all hands open, or as one seat saw it then.

A record holds every deal, so whoever holds the record may see every hand; a seat's view is
the engine's observation for that seat at that moment, nothing more.
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import RecordError
from ..engine.game import Game
from ..engine.records import Record, game_for_record, replay
from ..engine.state import State
from . import protocol

MAX_FRAMES = 20_000
"""A replay longer than this is refused (a real game has a few thousand actions at most)."""


def _frame(game: Game, state: State, label: str, seat: int | None) -> dict[str, Any]:
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
    else:
        obs = protocol.observation_json(game.observe(state, seat))
    return {
        "label": label,
        "hand": state.hand_number,
        "tricks_done": len(state.tricks),
        "around": protocol.around_the_table(state),
        "trick_size": len(state.trick_cards),
        "results": [
            {"scores": dict(r.scores), "totals": dict(r.totals), "lines": list(r.lines)}
            for r in state.results
        ],
        "observation": obs,
    }


def replay_frames(record: Record, seat: int | None = None) -> dict[str, Any]:
    """Every moment of ``record`` as frames; ``seat`` None shows every hand. Raises
    RecordError naming the first bad deal or action, or a seat the game does not have."""
    game = game_for_record(record)
    if seat is not None and seat not in game.player_seats:
        raise RecordError(
            f"{game.name} has no player seat {seat}; its player seats are "
            + ", ".join(str(s) for s in game.player_seats)
        )
    frames: list[dict[str, Any]] = []

    def take(state: State, hand: int, text: str | None) -> None:
        if len(frames) >= MAX_FRAMES:
            raise RecordError(f"the record has more than {MAX_FRAMES} moments")
        if text is None:
            label = f"hand {hand}: the deal"
        else:
            label = f"hand {hand}: {text if seat is None else _as_seen(state, seat)}"
        frames.append(_frame(game, state, label, seat))

    state = replay(record, take)
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
        "frames": frames,
    }


def _as_seen(state: State, seat: int) -> str:
    """The last action as ``seat`` saw it (a pass it was not part of shows as '?')."""
    history = state.game.observe(state, seat).history
    return history[-1] if history else "the hand is scored"
