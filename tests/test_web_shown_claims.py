"""Claims at a web table whose server has no solver (the ``search`` extra), settled as at a
real table: the claimer's cards face up for everyone, the play waits, the other side
agrees or says play on. The bots answer at once (yes only to a claim that is sure); all
agree and the hand is played out; a "play on" or the claimer's taking it back and the
cards are hidden again; every step is stored and survives a restart; a person away past
the grace is answered for by the stand-in. And a card that may not be played says the
game's reason to its player alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from test_web_outage import Ear, stored_events, until
from tricktable.bots import make_bot
from tricktable.search.agreed_claims import claim_is_sure
from tricktable.search.position import position_of
from tricktable.web import tables
from tricktable.web.spec import table_spec
from tricktable.web.store import Store
from tricktable.web.tables import Hub, Refused

ANN, BOB = 0, 1


@pytest.fixture(autouse=True)
def no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server as one without the search extra."""
    monkeypatch.setattr(tables, "search_installed", lambda: False)


async def two_people(tmp_path: Any, grace: float | None = None) -> tuple[Hub, Any, Ear, Ear]:
    """Ann (seat 0, with a casual bot partner) against Bob (seat 1, with a casual bot)."""
    hub = Hub(Store(f"sqlite:///{tmp_path / 'claims.db'}"), think=None)
    table, tokens = await hub.create(table_spec({
        "game": "spades", "bot_pace": 0, "seed": "shown-claims", "away_grace": grace,
        "seats": {"0": "person", "1": "person", "2": "rules", "3": "rules"}}))
    ann, bob = Ear(), Ear()
    await table.hello(ann, tokens["seats"]["0"], "Ann")
    await table.hello(bob, tokens["seats"]["1"], "Bob")
    return hub, table, ann, bob


def persons_turn(table: Any) -> int | None:
    state = table.runner.state
    if table.status != "playing" or state.to_act < 0:
        return None
    chooser = table.game.controller(state, state.to_act)
    return chooser if chooser in (ANN, BOB) else None


async def play_to_a_claim(table: Any, ears: dict[int, Ear]) -> tuple[int, int]:
    """Ann and Bob play as the rules bot would until it is Ann's turn in the play with a
    claim that is sure but not of every trick left (at most three left); (sure, left)."""
    advisers = {s: make_bot("rules", table.game, s, "claims") for s in ears}
    while True:
        await until(lambda: persons_turn(table) is not None, "a person's turn")
        async with table.lock:
            seat = persons_turn(table)
            if seat is None:
                continue
            state = table.runner.state
            seq = table.seq
            if seat == ANN and state.phase.name == "PLAY" and state.hand_size[ANN] <= 3:
                left = position_of(state).tricks_left
                sure = max((n for n in range(1, left + 1)
                            if claim_is_sure(state.copy(), ANN, n)), default=0)
                if 0 < sure < left:
                    return sure, left
            obs = table.game.observe(state, seat)
            choice = str(advisers[seat].choose(obs, list(obs.legal)))
        await table.act(ears[seat], seq, choice)


def test_a_claim_shown_is_agreed_and_played_out_even_across_a_restart(tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, ann, bob = await two_people(tmp_path)
        watcher = Ear()
        table.listeners.add(watcher)
        sure, left = await play_to_a_claim(table, {ANN: ann, BOB: bob})
        hand = table.runner.state.finished_hands
        cards = sorted(table.view("seat", ANN)["observation"]["hand"])

        # a claim of every trick left is not sure: the casual bot across says play on at
        # once, and nobody is shown a card
        heard = len(bob.heard)
        with pytest.raises(Refused) as refused:
            await table.claim(ann, None)
        assert refused.value.code == "claim-refused" and "Casual bot" in refused.value.message
        assert all(m.get("claim") is None for m in bob.heard[heard:])

        # a sure claim: the bot agrees, Bob is asked; everyone sees Ann's cards
        await table.claim(ann, sure)
        shown = table.view("seat", BOB)["claim"]
        assert shown["you_answer"] and shown["waiting"] == ["Bob"]
        assert sorted(shown["cards"]) == cards and shown["tricks"] == sure
        assert shown["text"] == (f"Ann claims {sure} of the {left} tricks left, cards face "
                                 "up. Do you agree, or play on?")
        assert table.view("spectator", None)["claim"]["cards"] == shown["cards"]
        assert table.view("seat", ANN)["claim"]["yours"]
        assert table.view("seat", ANN)["claims_checked_by"] == "agreement"
        # the play waits: no action, no second claim, nobody else's answer
        with pytest.raises(Refused) as refused:
            await table.act(ann, table.seq, "0: play 2C")
        assert refused.value.code == "claim-pending"
        with pytest.raises(Refused) as refused:
            await table.answer_claim(ann, True)
        assert refused.value.code == "not-asked"
        with pytest.raises(Refused) as refused:
            await table.answer_claim(watcher, True)
        assert refused.value.code == "spectator"

        # the server stops and starts again: the claim is still shown, Bob still asked
        url, owner, table_id = hub.store.url, hub.owner, table.id
        await hub.close()
        hub = Hub(Store(url), think=None, owner=owner)
        table = await hub.get(table_id)
        assert table is not None and table.shown_claim is not None
        assert table.shown_claim.waiting == [BOB]
        bob = Ear()
        bob.role, bob.seat = "seat", BOB
        table.listeners.add(bob)
        await table.answer_claim(bob, True)
        await until(lambda: table.runner.state.finished_hands > hand, "the hand played out")
        assert table.shown_claim is None
        said = [m["message"] for m in bob.heard if m["type"] == "claim"]
        assert said[-1].startswith(f"Everyone agrees: Ann takes {sure} of the {left}")
        kinds = [kind for _, kind, _ in stored_events(hub.store, table.id)]
        assert kinds.count("claim") == 2  # the offer and Bob's answer (the bot's: in it)
        await hub.close()

    asyncio.run(run())


def test_play_on_or_taking_it_back_hides_the_cards_and_the_play_goes_on(
        tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, ann, bob = await two_people(tmp_path)
        sure, _left = await play_to_a_claim(table, {ANN: ann, BOB: bob})
        await table.claim(ann, sure)
        await table.answer_claim(bob, False)
        assert table.shown_claim is None and table.view("seat", BOB)["claim"] is None
        said = [m["message"] for m in ann.heard if m["type"] == "claim"]
        assert said[-1] == "Bob says play on: the claim is off."
        # the claimer may take a claim back too
        await table.claim(ann, sure)
        await table.answer_claim(ann, False)
        assert table.shown_claim is None
        assert [m["message"] for m in bob.heard if m["type"] == "claim"][-1] == \
            "Ann takes the claim back: play on."
        with pytest.raises(Refused) as refused:
            await table.answer_claim(bob, True)
        assert refused.value.code == "no-claim"
        # and the play goes on: Ann's card is taken
        obs = table.game.observe(table.runner.state, ANN)
        await table.act(ann, table.seq, str(obs.legal[0]))
        await hub.close()

    asyncio.run(run())


def test_a_person_away_past_the_grace_is_answered_for_by_the_stand_in(tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, ann, bob = await two_people(tmp_path, grace=0.0)
        sure, _left = await play_to_a_claim(table, {ANN: ann, BOB: bob})
        hand = table.runner.state.finished_hands
        async with table.lock:
            await table._show_claim(table.seats[ANN], sure)  # as Ann's claim does
            table.leave(bob)  # Bob's last device goes before he answers
        # the stand-in agrees (the claim is sure) and the hand is played out
        await until(lambda: table.runner.state.finished_hands > hand, "the hand played out")
        await hub.close()

    asyncio.run(run())


def test_a_card_that_may_not_be_played_says_the_game_s_reason_to_its_player_only(
        tmp_path: Any) -> None:
    """The view's words carry, at the reader's turn to play, each unplayable card of the
    hand with the engine's refusal in a sentence; nobody else's view names those cards."""
    async def run() -> None:
        hub, table, ann, bob = await two_people(tmp_path)
        advisers = {s: make_bot("rules", table.game, s, "why") for s in (ANN, BOB)}
        ears = {ANN: ann, BOB: bob}
        seen_reason = False
        while not seen_reason:
            await until(lambda: persons_turn(table) is not None, "a person's turn")
            async with table.lock:
                seat = persons_turn(table)
                if seat is None:
                    continue
                state, seq = table.runner.state, table.seq
                view = table.view("seat", seat)
                why = view["words"]["why_not"]
                other = BOB if seat == ANN else ANN
                assert table.view("seat", other)["words"]["why_not"] == {}
                assert table.view("spectator", None)["words"]["why_not"] == {}
                if state.phase.name == "PLAY":
                    legal = {a.split()[-1] for a in view["legal"]}
                    hand = set(view["observation"]["hand"])
                    assert set(why) == hand - legal
                    if why:
                        seen_reason = True
                        follow = "Follow suit: you hold a card of the suit led."
                        spades = ("Spades may not be led until one has been played on "
                                  "another suit, unless you hold only spades.")
                        assert set(why.values()) <= {follow, spades}
                        assert (follow in why.values()) == bool(state.trick_cards)
                obs = table.game.observe(state, seat)
                choice = str(advisers[seat].choose(obs, list(obs.legal)))
            await table.act(ears[seat], seq, choice)
        await hub.close()

    asyncio.run(run())


def test_the_others_are_told_who_left_and_came_back_and_she_what_was_played_for_her(
        tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, ann, bob = await two_people(tmp_path, grace=0.0)
        await until(lambda: persons_turn(table) is not None, "a person's turn")
        table.leave(bob)
        await until(lambda: any(m["type"] == "presence" for m in ann.heard), "told")
        left = [m["message"] for m in ann.heard if m["type"] == "presence"][-1]
        assert left == "Bob has left the table: Casual bot plays for Bob now, until Bob is back."
        # the stand-in plays for Bob a while (Ann plays as the rules bot would)
        adviser = make_bot("rules", table.game, ANN, "away")
        while len(table.seats[BOB].stood_in) < 3:
            await until(lambda: persons_turn(table) == ANN or
                        len(table.seats[BOB].stood_in) >= 3, "Ann's turn or Bob's cards")
            async with table.lock:
                if persons_turn(table) != ANN:
                    continue
                obs = table.game.observe(table.runner.state, ANN)
                seq, choice = table.seq, str(adviser.choose(obs, list(obs.legal)))
            await table.act(ann, seq, choice)
        async with table.lock:
            done = list(table.seats[BOB].stood_in)
            back = Ear()
            back.role, back.seat = "seat", BOB
            table._seat(back, table.seats[BOB])  # as his hello does
        told = [m["message"] for m in back.heard if m["type"] == "presence"]
        assert told[-1].startswith("While you were away, Casual bot played for you: ")
        assert all(phrase in told[-1] for phrase in done)
        assert table.seats[BOB].stood_in == []
        assert [m["message"] for m in ann.heard if m["type"] == "presence"][-1] == "Bob is back."
        await hub.close()

    asyncio.run(run())
