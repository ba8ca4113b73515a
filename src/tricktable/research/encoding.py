"""Fixed-size encodings of one game's actions and observations, for learning agents.

**Actions.** Every action a seat could ever take in a game, without its seat, gets a fixed
index (``ActionVocabulary``): the card plays of the game's deck (and the ace-low calls
where aces may be called low), the bids of its bidding (tricks, nil declarations on
hands, whist modes, blind nil), rebids, exchanges, discards, gives, peeks and flips by
position, trumps, directions, renege calls, keep, swap and pass. Index 0 is ``decline``:
an agent offered an action out of turn (a 3B rebid, a renege call) may let it go. The
vocabulary is built from the game's own action classes (``Game.phase_actions``) and
options; some entries are never legal at a given table (the mask says which are).

**Observations.** ``encode(observation)`` is a flat float32 vector built from one seat's
``Observation`` only (so it holds nothing that seat may not see). With ``D`` cards in the
deck, ``N`` seats and ``E`` scoring entities, in this order:

=========================  ======  ==============================================
part                       size    meaning
=========================  ======  ==============================================
hand                       D       1 for each card in this seat's hand
visible                    N x D   per seat, the cards this seat can see there
played                     D       cards played this hand
trick                      N x D   per seat, its card in the trick in progress
won                        N       tricks taken this hand, / 13
bids                       2 x N   per seat: has bid (1/0), its last bid or rebid / 13
nils                       N       1 for a hand declared nil (the nils that count)
totals                     E       running scores, / 100
phase                      P       one-hot of the hand's phase
to_act                     N       one-hot of the seat to act
me                         N       one-hot of this seat
=========================  ======  ==============================================
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..engine.actions import (
    Action,
    Bid,
    Direction,
    Discard,
    Exchange,
    Flip,
    Give,
    Keep,
    Pass,
    Peek,
    Play,
    Rebid,
    Renege,
    Swap,
    Trump,
)
from ..engine.cards import card_str, cards_of
from ..engine.game import Game
from ..engine.observation import Observation
from ..engine.state import Phase

DECLINE = "decline"
PHASES = tuple(Phase)
MODES = ("uptown", "downtown", "notrump")
"""The whist games' bid modes (record notation)."""


def words(action: Action) -> str:
    """An action without its seat: the key of the vocabulary."""
    return str(action).split(": ", 1)[-1]


def _candidates(game: Game) -> Iterator[Action]:
    """Every action of the game's kinds, over generous ranges (seat 0)."""
    classes = {c for kinds in game.phase_actions.values() for c in kinds}
    deck = list(cards_of(game.deck))
    tricks = int(getattr(game, "num_tricks", 13))
    aces = [c for c in deck if card_str(c)[0] == "A"]
    options = game.options
    if Play in classes:
        yield from (Play(0, c) for c in deck)
        if getattr(game, "ace_calls", False):
            yield from (Play(0, c, ace_low=True) for c in aces)
    if Bid in classes:
        max_nils = int(getattr(options, "max_nils", 0))
        if getattr(options, "variant", "") == "suicide":
            max_nils = max(max_nils, 3)
        nil_sets = [s for k in range(max_nils + 1)
                    for s in itertools.combinations(range(game.num_seats), k)]
        whist = "whist" in game.name
        for n in range(tricks + 1):
            if whist:
                yield from (Bid(0, n, mode=m) for m in MODES)
            else:
                yield from (Bid(0, n, nils) for nils in nil_sets)
        if getattr(options, "blind_nil", False):
            yield Bid(0, 0, blind=True)
    if Rebid in classes:
        yield from (Rebid(0, n) for n in range(tricks + 1))
    if Exchange in classes:
        yield from (Exchange(0, c) for c in deck)
    if Discard in classes:
        yield from (Discard(0, pair) for pair in itertools.combinations(deck, 2))
    if Give in classes:
        size = 3 if "paperless" in game.name else 2
        yield from (Give(0, cards) for cards in itertools.combinations(deck, size))
    count = int(getattr(game, "reveal_count", 0))
    if Peek in classes and count:
        yield from (Peek(0, p) for p in itertools.combinations(range(13), count))
    if Flip in classes and count:
        yield from (Flip(0, p) for p in itertools.combinations(range(13), count))
    if Trump in classes:
        yield from (Trump(0, s) for s in range(4))
    if Direction in classes:
        yield from (Direction(0, low) for low in (False, True))
    if getattr(options, "honour", False):
        yield from (Renege(0, t) for t in range(1, tricks + 1))
    for single in (Pass, Keep, Swap):
        if single in classes:
            yield single(0)


@dataclass(frozen=True)
class ActionVocabulary:
    """Index <-> seat-free action text, fixed for one game and its options."""

    texts: tuple[str, ...]

    @classmethod
    def of(cls, game: Game) -> ActionVocabulary:
        seen: dict[str, None] = {DECLINE: None}
        for action in _candidates(game):
            seen.setdefault(words(action), None)
        return cls(tuple(seen))

    def __len__(self) -> int:
        return len(self.texts)

    def index(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.texts)}


class ObservationEncoder:
    """``encode(observation)`` for one game (the layout is in the module's docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.cards = list(cards_of(game.deck))
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        n, d = game.num_seats, len(self.cards)
        self.entities = len(game.totals_mapping(game.new_game()))
        self.size = d + n * d + d + n * d + n + 2 * n + n + self.entities + len(PHASES) + 2 * n

    def _mask(self, out: np.ndarray, at: int, cards: int) -> None:
        index = self.card_index
        while cards:
            low = cards & -cards
            out[at + index[low.bit_length() - 1]] = 1.0
            cards ^= low

    def encode(self, obs: Observation) -> np.ndarray:
        n, d = self.game.num_seats, len(self.cards)
        out = np.zeros(self.size, dtype=np.float32)
        at = 0
        self._mask(out, at, obs.hand)
        at += d
        for s in range(n):
            self._mask(out, at + s * d, obs.visible[s] if s < len(obs.visible) else 0)
        at += n * d
        self._mask(out, at, obs.played)
        at += d
        for seat, card in obs.trick:
            out[at + seat * d + self.card_index[card]] = 1.0
        at += n * d
        for s, won in enumerate(obs.won[:n]):
            out[at + s] = won / 13.0
        at += n
        for seat, tricks in _last_bids(obs.history).items():
            if 0 <= seat < n:
                out[at + 2 * seat] = 1.0
                out[at + 2 * seat + 1] = tricks / 13.0
        at += 2 * n
        for hand in _nil_hands(obs):
            if 0 <= hand < n:
                out[at + hand] = 1.0
        at += n
        for i, value in enumerate(list(obs.totals.values())[: self.entities]):
            out[at + i] = value / 100.0
        at += self.entities
        out[at + PHASES.index(obs.phase)] = 1.0
        at += len(PHASES)
        if 0 <= obs.to_act < n:
            out[at + obs.to_act] = 1.0
        at += n
        if 0 <= obs.seat < n:
            out[at + obs.seat] = 1.0
        return out


def _last_bids(history: Sequence[str]) -> dict[int, int]:
    """Each seat's last bid or rebid this hand, from the history it was shown."""
    out: dict[int, int] = {}
    for text in history:
        seat, _, rest = text.partition(": ")
        parts = rest.split()
        if len(parts) >= 2 and parts[0] in ("bid", "rebid") and parts[1].isdigit():
            out[int(seat)] = int(parts[1])
    return out


def _nil_hands(obs: Observation) -> list[int]:
    """Hands declared nil that count, where the game's public facts say so."""
    nils = obs.info.get("nils", ())
    hands: list[int] = []
    for entry in nils if isinstance(nils, list | tuple) else ():
        if isinstance(entry, tuple | list) and len(entry) == 2:
            hands.append(int(entry[1]))
    bids = obs.info.get("bids")
    if not hands and isinstance(bids, list | tuple):
        hands = [s for s, b in enumerate(bids) if b == 0]
    return hands
