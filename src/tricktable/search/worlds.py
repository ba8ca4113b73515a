"""The worlds a search bot plays in: the hidden cards dealt again (``sampler``), the hand
rebuilt around them (``determinize``), and each world kept in proportion to how likely
it makes what the other seats chose in this hand: their bids and the cards they played.

A uniform world ignores the auction: an opponent who bid nil is as likely to hold the
ace of spades as anyone. Here the other seats' bids are read with the rules bot's
bidding as the model of how a seat bids: while a candidate world is replayed, at each
bid (or auction pass) of a seat the bot does not control, the rules bot for that seat is
asked what it would have chosen from that seat's view of the world, and the world is
weighted by how close its choice is to the real one (``likelihood``). The cards they
played are read the same way (``play_likelihood``; ``weigh_plays``): at each card of
such a seat that was not forced, the rules bot is asked what it would have played there.
A world where it would have played that card, or one doing the same job (the same suit,
no card of it still out in another holding between the two: touching cards), keeps its
weight; one where it would have played another card of that suit is ``SAME_SUIT_OFF`` as
likely, another suit ``OTHER_SUIT``. What this reads is what the rules bot's play shows:
a nil bidder throws its highest card (one that throws a small club holds no honour it
could have thrown), a seat that needs tricks plays a sure winner when it has one and
throws its lowest card when it cannot win, and leads its sure winners first, else low
from its longest side suit. The play model is soft on purpose: the rules bot's play is
sharp (one card in each position), a seat that plays otherwise even once must not rule
out the world it really holds, and a card off the model costs a world a factor of 2 or
4, not a veto, so the evidence adds up over the cards. A candidate is then kept with
probability equal to its weight over the largest weight seen for this decision
(rejection sampling, so kept worlds are distributed as the weights say; the largest is
first learnt from ``PROBES`` candidates). After ``MAX_CANDIDATES`` rejected candidates
the one that looked likeliest when it was dropped is taken, so a choice the model hardly
ever makes (a human's odd bid) slows nothing down. Weights spread over orders of
magnitude (many cards weighed, bids far from the model's) are followed only part of the
way: the envelope is what the probes saw, so until one is drawn, a world likelier than
all of them is kept no more often than the likeliest of them. A decision that asks for more than
``POOL`` worlds is dealt the kept ones again. While a Paperless pass is under way
(before any bid), the cards given face down so far are split among their givers at
random (``determinize.mid_pass_state``), so a seat's own give can be weighed too.

What is not weighed: the bot's own choices (it knows its cards, and those of a dummy it
plays), blind bids (chosen before looking), and forced cards (one legal card: no choice,
no evidence). The model is the rules bot, not the player: a human or another bot bids
and plays otherwise, and the weights are a guide, not a proof (which is why a world is
never ruled out).

Everything read is the seat's observation and the random stream, so the worlds (and the
bot's choices) are the same in two states that look alike to the seat.
"""

from __future__ import annotations

import random

from ..bots.base import Bot, make_bot
from ..engine.actions import Action, Bid, Pass, Play
from ..engine.cards import NO_SUIT
from ..engine.game import Game
from ..engine.observation import Observation
from ..engine.state import State
from .determinize import Watcher, rebuilt_hand
from .sampler import WorldSampler

MAX_CANDIDATES = 24
"""Candidate worlds drawn at most for one kept world."""
PROBES = 8
"""Candidates weighed at the start of a decision to learn how large its weights are."""
REBUILD_TRIES = 8
"""Worlds tried at most for one rebuilt hand (see ``Worlds._rebuilt``)."""
POOL = 64
"""Worlds kept for one decision; a search that asks for more (ismcts deals a world per
iteration) is dealt these again, picked at random, rather than weighing new ones."""
PER_TRICK_OFF = 0.4
"""A bid's likelihood falls by this factor for each trick it is away from the model's."""
OTHER_CHOICE = 0.1
"""The likelihood of a different kind of choice than the model's (nil for a number of
tricks, another trump suit or mode, a pass for a bid)."""
SAME_SUIT_OFF = 0.5
"""The likelihood of a card of the suit of the model's card that does another job there
(a card of the suit still out in another holding ranks between the two)."""
OTHER_SUIT = 0.25
"""The likelihood of a card of another suit than the model's (a discard or a lead of a
suit the model would have kept with that world's cards)."""
_WEIGHED = (Bid, Pass)


def likelihood(real: Action, model: Action) -> float:
    """How likely a seat that would have chosen ``model`` is to have chosen ``real``."""
    if real == model:
        return 1.0
    if (
        isinstance(real, Bid)
        and isinstance(model, Bid)
        and (real.nils, real.mode) == (model.nils, model.mode)
        and (real.tricks == 0) == (model.tricks == 0)
    ):
        return float(PER_TRICK_OFF ** abs(real.tricks - model.tricks))
    return OTHER_CHOICE


def touching(a: int, b: int, state: State, seat: int) -> bool:
    """Whether cards ``a`` and ``b`` of ``seat``'s holding do the same job in ``state``:
    the same suit (in the hand's card order: a joker that is a trump is one), with no
    card of that suit ranking between them in any other holding (a card between them
    played already, or held by ``seat`` too, separates nothing). Two cards of no suit (a
    no-trump joker: it never wins) are alike too."""
    order = state.order
    suit = order.suit_of[a]
    if suit != order.suit_of[b]:
        return False
    if suit == NO_SUIT:
        return True
    out = 0
    for s, held in enumerate(state.hands):
        if s != seat:
            out |= held
    return not order.between(a, b) & out


def play_likelihood(real: Play, model: Action, state: State) -> float:
    """How likely a seat whose model would have played ``model`` is to have played
    ``real`` in ``state`` (before the card): 1 for that card or one touching it,
    ``SAME_SUIT_OFF`` for another card of its suit, ``OTHER_SUIT`` for another suit."""
    if real == model:
        return 1.0
    if not isinstance(model, Play):
        return OTHER_SUIT
    order = state.order
    if order.suit_of[real.card] != order.suit_of[model.card]:
        return OTHER_SUIT
    if real.card != model.card and real.ace_low == model.ace_low and touching(
            real.card, model.card, state, real.seat):
        return 1.0
    return SAME_SUIT_OFF  # another card of the suit, or the same ace called otherwise


class Worlds:
    """Rebuilt hands for one seat's decisions, weighted when ``weighted`` by the other
    seats' bids, and by the cards they played too when ``weigh_plays``."""

    def __init__(self, game: Game, weighted: bool = True, weigh_plays: bool = True) -> None:
        self.game = game
        self.sampler = WorldSampler(game)
        self.weighted = weighted
        self.weigh_plays = weigh_plays
        self._models: dict[int, Bot] = {}
        self._replaying: State | None = None
        self._weight = 1.0
        self._observer: Observation | None = None
        self._weighs = False
        """Whether the observer's history holds a choice that is weighed."""
        self._threshold = 0.0
        self._scale = 1.0
        self._kept: list[dict[int, int]] = []
        self._candidate: dict[int, int] = {}

    def draw(self, obs: Observation, rng: random.Random) -> State | None:
        """A state of the current hand that looks to ``obs.seat`` exactly like the real
        one; None when the hand cannot be rebuilt from what the seat knows. Raises
        ``InconsistentObservation`` when no deal fits the observation."""
        if not self.weighted:
            return self._rebuilt(obs, rng, None)
        if obs is not self._observer:  # a new decision: learn the scale of its weights
            self._observer = obs
            self._kept = []
            self._weighs = self._has_weighed_choices(obs)
            if self._weighs:
                self._scale = self._probe(obs, rng)
        if not self._weighs:
            return self._rebuilt(obs, rng, None)
        if len(self._kept) >= POOL:
            return rebuilt_hand(self.game, obs, rng.choice(self._kept), rng)
        likeliest: dict[int, int] = {}
        likeliest_weight = -1.0
        for _ in range(MAX_CANDIDATES):
            # The acceptance draw is made first, so a candidate is dropped at the first
            # bid that takes its weight below it, before the rest is replayed.
            self._threshold = rng.random() * self._scale
            try:
                state = self._rebuilt(obs, rng, self._watch)
            except _Rejected:
                if self._weight > likeliest_weight:  # its weight so far: a bound
                    likeliest, likeliest_weight = self._candidate, self._weight
                continue
            if state is None:
                return None
            self._scale = max(self._scale, self._weight)
            self._kept.append(self._candidate)
            return state
        state = rebuilt_hand(self.game, obs, likeliest, rng) if likeliest else None
        kept = likeliest
        if state is None:
            state = self._rebuilt(obs, rng, None)
            kept = self._candidate
        if state is not None:
            self._kept.append(kept)
        return state

    def _rebuilt(self, obs: Observation, rng: random.Random, watch: Watcher | None
                 ) -> State | None:
        """The hand rebuilt in a uniform world (kept in ``_candidate``). A world the
        replay refuses (the sampler does not know every rule: a joker a seat would have
        had to throw, say) is replaced by another, up to ``REBUILD_TRIES`` times: the
        worlds the replay accepts stay equally likely."""
        state = None
        for _ in range(REBUILD_TRIES):
            self._candidate = self.sampler.sample(obs, rng)
            self._replaying = None
            self._weight = 1.0
            state = rebuilt_hand(self.game, obs, self._candidate, rng, watch)
            if state is not None:
                break
        return state

    def _probe(self, obs: Observation, rng: random.Random) -> float:
        """The largest weight among ``PROBES`` candidates: the envelope of the rejection
        (a hand whose bids fit the model less than usual, say a bid raised for a partner's
        nil, would otherwise have nearly every candidate rejected)."""
        self._threshold = 0.0
        largest = 0.0
        for _ in range(PROBES):
            if self._rebuilt(obs, rng, self._watch) is None:
                return 1.0
            largest = max(largest, self._weight)
        return largest or 1.0

    def _has_weighed_choices(self, obs: Observation) -> bool:
        """Whether the history holds a choice of another seat that is weighed (a card
        counts when ``weigh_plays``, forced or not: the replay tells)."""
        mine = {str(s) for s in obs.controls} | {str(obs.seat)}
        verbs = ("bid", "pass", "play") if self.weigh_plays else ("bid", "pass")
        for text in obs.history:
            who, _, rest = text.partition(": ")
            if who not in mine and rest.split(" ", 1)[0] in verbs:
                return True
        return False

    def _watch(self, state: State, action: Action) -> None:
        """Weigh one action of the replayed history (see the module's text)."""
        if state is not self._replaying:  # another attempt at rebuilding this world
            self._replaying = state
            self._weight = 1.0
        is_play = isinstance(action, Play)
        if not (isinstance(action, _WEIGHED) or (is_play and self.weigh_plays)):
            return
        game = self.game
        obs = self._observer
        assert obs is not None
        chooser = game.controller(state, action.seat)
        if chooser == obs.seat or chooser in obs.controls:
            return
        legal = [a for a in game.legal_actions(state) if game.controller(state, a.seat) == chooser]
        if is_play:  # its card (out-of-turn calls aside: a 3B change of bid)
            legal = [a for a in legal if isinstance(a, Play)]
        if len(legal) < 2 or any(isinstance(a, Bid) and a.blind for a in legal):
            return  # no choice, or one made before looking at the cards
        model = self._models.get(chooser)
        if model is None:
            model = self._models[chooser] = make_bot("rules", game, chooser, "worlds")
        model.reseed(str(len(state.actions)))
        chosen = model.choose(game.observe(state, chooser), legal)
        if isinstance(action, Play):
            self._weight *= play_likelihood(action, chosen, state)
        else:
            self._weight *= likelihood(action, chosen)
        if self._weight < self._threshold:
            raise _Rejected


class _Rejected(Exception):
    """A candidate world dropped halfway through its replay."""
