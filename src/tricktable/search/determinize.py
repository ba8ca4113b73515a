"""A whole state of the current hand rebuilt from one seat's observation and a sampled
world: the seat cannot tell it from the real one.

The hand is dealt again (each holding's cards now, plus the cards it has played, with the
cards whose dealt position the seat knows put back at that position: a dummy's peeked and
flipped cards), then its history is replayed through ``step``. Actions the seat saw only
in part are filled in from the world: a 3B exchange thrown back face down, a whist
declarer's discards, both from the world's out-of-play pile; cards passed between two
hidden hands (a Paperless pass, a blind-nil exchange) from what the receiver holds in the
world, the passes then taken back to find the deal; an extra card that went from hand to
hand (3B's zeros and high bidder) is followed through each draw and throw. A Paperless
pass still under way is not: such a hand gives None (``mid_pass_state`` rebuilds it, given
a random stream to split the passed cards among the givers), and so does a world that
breaks a rule the sampler does not infer from (a whist joker that had to be thrown).

Only the current hand is rebuilt, on a new game that carries over from the earlier
hands what their scoring left and the seat was shown (``Game.carry_over``: bags, the zero
pot), so the rebuilt hand scores as the real one would, and the running totals (a blind
nil may be bid only by a side that trails; bots read the score).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.actions import CHANCE, Action, Deal, parse_action
from ..engine.cards import card_str, cards_of, parse_card
from ..engine.errors import IllegalAction, NotationError
from ..engine.game import Game, step
from ..engine.observation import Observation
from ..engine.state import State
from .sampler import OUT, own_out_of_play, pass_under_way

_FILLED = ("exchange", "discard")
"""Verbs whose hidden cards come from the world's out-of-play pile."""


def _positions_from_info(obs: Observation, cards: list[int]) -> list[int]:
    """A holding in an order that puts each card whose position the seat knows there."""
    placed: dict[int, int] = {}
    for key in ("flipped", "peeked"):
        seen = obs.info.get(key) or {}
        if isinstance(seen, dict):
            for pos, text in seen.items():
                for c in cards:
                    if card_str(c) == text:
                        placed[int(pos)] = c
    out: list[int | None] = [None] * len(cards)
    for pos, c in placed.items():
        if 0 <= pos < len(out):
            out[pos] = c
    rest = iter(c for c in cards if c not in out)
    return [c if c is not None else next(rest) for c in out]


def played_by_seat(obs: Observation) -> dict[int, list[int]]:
    """The cards each seat has played this hand, in order."""
    played: dict[int, list[int]] = {}
    for trick in obs.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            played.setdefault(seat, []).append(card)
    for seat, card in obs.trick:
        played.setdefault(seat, []).append(card)
    return played


Watcher = Callable[[State, Action], None]
"""Called during a replay with the state just before each action of the history."""


def world_state(game: Game, obs: Observation, world: dict[int, int],
                watch: Watcher | None = None) -> State | None:
    """The current hand, dealt from ``world`` and replayed to where ``obs`` stands; None
    when the hand cannot be rebuilt from what the seat knows (see the module's text).
    ``watch`` sees each action of the history with the state before it (the worlds'
    weighting asks there what a seat would have chosen with that world's cards)."""
    verbs = [text.split(": ", 1)[-1].split(" ", 1)[0] for text in obs.history]
    if any("?" in text and verb not in (*_FILLED, "give")
           for text, verb in zip(obs.history, verbs, strict=True)):
        return None
    if pass_under_way(obs):
        return None  # a Paperless pass under way: its cards are in nobody's hand yet
    played = played_by_seat(obs)
    # the pile's cards the seat put there itself are named in its history already; the
    # others fill the actions it saw face down
    own = own_out_of_play(obs)
    out_pile = list(cards_of(world.get(OUT, 0)))
    hidden_out = [c for c in out_pile if not own >> c & 1]
    holdings = [list(cards_of(world.get(s, 0))) + played.get(s, [])
                for s in range(game.num_seats)]
    # a swap (Double Dummy) took the other player's dummy's hand for one's own before any
    # card was played: each of the two was dealt what the other holds and played since
    partners = {int(k): int(v) for k, v in (obs.info.get("partners") or {}).items()}
    for text in reversed(obs.history):
        who, _, rest = text.partition(": ")
        others = [d for p, d in partners.items() if str(p) != who]
        if rest == "swap" and who.isdigit() and len(others) == 1:
            a, b = int(who), others[0]
            holdings[a], holdings[b] = holdings[b], holdings[a]
    history = _with_passes(list(obs.history), holdings)
    if history is None:
        return None
    drawer = obs.info.get("extra_drawn_by")
    pending = drawer if isinstance(drawer, int) and 0 <= drawer < len(holdings) else -1
    if "exchange" in verbs or pending >= 0:
        return _exchanged(game, obs, holdings, hidden_out, history, pending, watch)
    history = _filled_history(history, hidden_out)
    if history is None:
        return None
    # the out-of-play pile was dealt as the extra card(s), or into the holding that
    # discarded from it: try each in turn
    for owner in [None, *range(game.num_seats)]:
        hands = [list(h) for h in holdings]
        extra: list[int] = out_pile if owner is None else []
        if owner is not None:
            if not out_pile:
                break
            hands[owner] += out_pile
        state = _replay(game, obs, hands, extra, history, watch)
        if state is not None:
            return state
    return None


def rebuilt_hand(game: Game, obs: Observation, world: dict[int, int], rng: random.Random,
                 watch: Watcher | None = None) -> State | None:
    """The current hand dealt from ``world`` however far it is: ``mid_pass_state`` while a
    Paperless pass is under way (no bid is made before it is over: nothing to watch),
    else ``world_state``."""
    if pass_under_way(obs):
        return mid_pass_state(game, obs, world, rng)
    return world_state(game, obs, world, watch)


def mid_pass_state(game: Game, obs: Observation, world: dict[int, int],
                   rng: random.Random) -> State | None:
    """The hand rebuilt while a Paperless pass is under way (before any bid or card):
    the cards given face down so far are in nobody's hand, so the world holds them in
    its out-of-play pile; they are shuffled and split among the seats that gave them
    (which three a seat gave, it alone knows: every split is as likely), each giver dealt
    its holding now and what it gave. None when the world does not fit."""
    pile = list(cards_of(world.get(OUT, 0)))
    rng.shuffle(pile)
    holdings = [list(cards_of(world.get(s, 0))) for s in range(game.num_seats)]
    history = []
    for text in obs.history:
        who, _, rest = text.partition(": ")
        words = rest.split(" ")
        if words[0] == "give" and who.isdigit():
            if "?" in words:
                cards, pile = pile[:len(words) - 1], pile[len(words) - 1:]
                if len(cards) < len(words) - 1:
                    return None
                text = f"{who}: give " + " ".join(card_str(c) for c in cards)
            else:
                cards = [parse_card(w) for w in words[1:]]
                pile = [c for c in pile if c not in cards]
            holdings[int(who)] += cards
        history.append(text)
    return _replay(game, obs, holdings, [], history, None)


def _exchanged(game: Game, obs: Observation, holdings: list[list[int]], hidden_out: list[int],
               history: list[str], pending: int, watch: Watcher | None) -> State | None:
    """A hand whose extra card went from hand to hand (3B: each zero bidder draws it and
    throws one back, which the next drawer draws, and the high bidder last). Each throw
    the seat saw face down is taken to be the card the next thrower threw (a drawer who
    threw back what he drew), the last one the card out of play, or, while a drawer
    holds it, a card of his; the deal's extra card is then the first throw, and a seat
    that threw another card than it drew was dealt that card instead of the drawn one.
    Nothing of this shows to the seat: its view of the rebuilt hand is the real one.
    ``pending``: the seat holding the drawn card now, or -1."""
    out = list(history)
    throws = [i for i, text in enumerate(out) if text.partition(": ")[2].startswith("exchange ")]
    if pending >= 0:  # he holds the last card thrown (or the deal's extra card)
        if not holdings[pending]:
            return None
        later = card_str(holdings[pending][0])
    elif hidden_out:
        later = card_str(hidden_out[0])
    else:
        later = ""
    for i in reversed(throws):
        who, _, rest = out[i].partition(": ")
        card = rest.split(" ")[1]
        if card == "?":
            if not later:
                return None
            out[i] = f"{who}: exchange {later}"
        else:
            later = card
    cards = [parse_card(out[i].split(" ")[-1]) for i in throws]
    seats = [int(out[i].partition(": ")[0]) for i in throws]
    hands = [list(h) for h in holdings]
    for k in range(1, len(cards)):
        drawn, thrown = cards[k - 1], cards[k]
        if drawn != thrown:
            if drawn not in hands[seats[k]]:
                return None
            hands[seats[k]].remove(drawn)
            hands[seats[k]].append(thrown)
    first = cards[0] if cards else parse_card(later)
    if pending >= 0:
        drawn = cards[-1] if cards else first
        if drawn not in hands[pending]:
            return None
        hands[pending].remove(drawn)
    return _replay(game, obs, hands, [first], out, watch)


def _with_passes(history: list[str], holdings: list[list[int]]) -> list[str] | None:
    """Passes to a partner (a Paperless pass, a blind-nil exchange) taken back: the cards
    each pass gave go back from the receiver's ``holdings`` (its cards now and played) to
    the giver's, last pass first, so that the holdings become the deal. A pass the seat
    saw face down is filled with cards the receiver ends up with (which ones makes no
    difference to what anyone holds now); returns the history with those cards named,
    or None when the receiver cannot have had them."""
    n = len(holdings)
    passes = [i for i, text in enumerate(history) if text.partition(": ")[2].startswith("give ")]
    if not passes:
        return history
    out = list(history)
    # the face-down passes first, from what each receiver holds at the end and did not
    # give itself
    gave_away: dict[int, set[int]] = {}
    for i in passes:
        who, _, rest = out[i].partition(": ")
        words = rest.split(" ")[1:]
        if "?" not in words:
            gave_away.setdefault(int(who), set()).update(parse_card(w) for w in words)
    for i in passes:
        who, _, rest = out[i].partition(": ")
        words = rest.split(" ")[1:]
        if "?" not in words:
            continue
        receiver = (int(who) + 2) % n
        pool = [c for c in sorted(holdings[receiver]) if c not in gave_away.get(receiver, ())]
        if len(pool) < len(words):
            return None
        out[i] = f"{who}: give " + " ".join(card_str(c) for c in pool[:len(words)])
    for i in reversed(passes):
        who, _, rest = out[i].partition(": ")
        giver, cards = int(who), [parse_card(w) for w in rest.split(" ")[1:]]
        receiver = (giver + 2) % n
        for c in cards:
            if c not in holdings[receiver]:
                return None
            holdings[receiver].remove(c)
            holdings[giver].append(c)
    return out


def _filled_history(history: list[str], out_pile: list[int]) -> list[str] | None:
    pile = list(out_pile)
    out = []
    for text in history:
        if "?" in text:
            words = text.split(" ")
            if words.count("?") > len(pile):
                return None
            text = " ".join(card_str(pile.pop(0)) if w == "?" else w for w in words)
        out.append(text)
    return out


def _replay(game: Game, obs: Observation, hands: list[list[int]], extra: list[int],
            history: list[str], watch: Watcher | None) -> State | None:
    state = game.new_game()
    game.carry_over(state, obs.info)  # bags, a zero pot: the hand scores as the real one
    # the running totals too: some choices depend on them (a blind nil needs the side to
    # trail), and so do the rules bots that finish a rollout
    for entity in range(len(state.totals)):
        state.totals[entity] = obs.totals.get(game.entity_label(entity), 0)
    dealt = tuple(tuple(_positions_from_info(obs, h)) if s != obs.seat else tuple(h)
                  for s, h in enumerate(hands))
    try:
        step(state, Deal(CHANCE, obs.dealer, dealt, tuple(extra)))
        for text in history:
            action = parse_action(text)
            if watch is not None:
                watch(state, action)
            step(state, action)
    except (IllegalAction, NotationError, ValueError):
        return None
    return state
