"""No message the server sends names a card hidden from its receiver at that moment.

Whole games of every game and every option set that changes who sees what (peeks and
flips, blind nil's pass, 3B's extra card and exchanges with 3, 4 and 5 players, jokers,
honour mode, Paperless's gives) are played over the socket by clients in every seat and
a spectator; every message each of them received is kept. The table's stored log is then
replayed by the engine alone, and each message is compared with the engine's own
observation for that receiver at the view it answers: a card in the message must be in
that observation (for a spectator: in every seat's observation alike).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from web_helpers import card_tokens, client_for, create, moments, play_game, sqlite_url

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("spades", {"target": 150}),
    ("spades", {"target": 150, "blind_nil": True, "mercy": True, "mercy_score": -100}),
    ("spades", {"target": 150, "variant": "suicide"}),
    ("dummy-hand-spades", {"target": 120}),
    ("dummy-hand-spades", {"target": 120, "peek": "three-peeky"}),
    ("dummy-hand-spades", {"target": 120, "peek": "four-peeky"}),
    ("dummy-hand-spades", {"target": 120, "peek": "flip-2"}),
    ("dummy-hand-spades", {"target": 120, "peek": "flip-4"}),
    # Mirror: the dummy's spades (its nil, the declarer's contract) wait for it to be shown
    ("dummy-hand-spades", {"target": 120, "variant": "mirror", "peek": "three-peeky"}),
    ("3b-spades", {"players": 3, "hands": 2}),
    ("3b-spades", {"players": 4, "hands": 2}),
    ("3b-spades", {"players": 5, "hands": 2}),
    ("dummy-whist", {"target": 8}),
    ("dummy-whist", {"target": 8, "jokers": True}),
    ("dummy-whist", {"target": 8, "honour": True, "jokers": True}),
    ("double-dummy-whist", {"target": 8}),
    ("double-dummy-whist", {"target": 8, "honour": True}),
    ("paperless-spades", {"limit": 2}),
]


def _ids() -> list[str]:
    return [f"{g}-" + ",".join(f"{k}={v}" for k, v in o.items()) for g, o in OPTION_SETS]


def _cards(message: dict[str, Any]) -> set[str]:
    # the table's id is random text that may look like a card (a '-4H_' inside it)
    return card_tokens({k: v for k, v in message.items() if k != "table"})


@pytest.mark.parametrize(("game", "options"), OPTION_SETS, ids=_ids())
def test_no_message_names_a_hidden_card(tmp_path: Path, game: str, options: dict[str, Any]
                                        ) -> None:
    url = sqlite_url(tmp_path)
    with client_for(url) as client:
        from tricktable import make_game

        seats = make_game(game, options).player_seats
        # every seat a person (a client playing the rules bot's choices from its view), so
        # every seat's messages are kept; one seat left to a server-side bot where the
        # table is big enough, so bots' moves are broadcast too
        who = {str(s): "person" for s in seats}
        if len(seats) >= 4:
            who[str(seats[-1])] = "rules"
        created = create(client, game=game, options=options, seats=who, seed=f"leak/{game}")
        players = play_game(client, created, timeout=120)
        table = created["table"]
    assert players["spectator"].messages[-1]["status"] == "over"
    seen = moments(url, table)
    checked = sum(no_card_leaked(player.messages, receiver, seen, seats)
                  for receiver, player in players.items())
    assert checked > 50


def no_card_leaked(messages: list[dict[str, Any]], receiver: str, seen: Any,
                   seats: Any, table: str = "") -> int:
    """Check that no message of ``receiver``'s (a seat's number, or "spectator") names a
    card the engine says it could not see at that view (``seen``: ``moments``); how many
    messages were checked."""
    key: str | int = "spectator" if receiver == "spectator" else int(receiver)
    seq = checked = 0
    for message in list(messages):
        if message["type"] == "view":
            seq = message["seq"]
            if message["game_number"] != 0:
                break  # only the first game is replayed by ``moments``
        allowed = card_tokens(seen[seq][key])
        if key == "spectator":
            # what the spectator may see is what every seat sees alike
            for s in seats:
                allowed &= card_tokens(seen[seq][s])
        leaked = _cards(message) - allowed
        assert not leaked, (f"{'table ' + table + ': ' if table else ''}{receiver} at view "
                            f"{seq} was sent {sorted(leaked)} in a {message['type']} message")
        checked += 1
    return checked
