"""The rules protocol every game implements, the registry of games, and ``step``.

A game is a ``Game`` subclass bound to its options. It answers three questions about a
state: which actions are legal (``legal_actions``), whether one action is legal and if not
why (``check``), and what it does (``apply``). ``step`` runs ``check`` then ``apply``, so
an illegal action raises ``IllegalAction`` and leaves the state exactly as it was.

The trick play every game shares (follow suit, leading restrictions, resolving a trick)
is in ``tricks.py``; a game changes it through small hooks (``lead_mask``,
``follow_mask``, ``next_leader``) and scores a hand in ``score_hand``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import repeat
from operator import is_
from typing import Any, ClassVar

from .actions import CHANCE, PLAYS_BY_SEAT, Action, Bid, Deal, Play, check_fields
from .cards import (
    BIT_OF,
    SUIT_MASKS,
    SUITED,
    SUITS,
    CardSet,
    card_str,
    deal_piles,
    deck_cards,
    format_set,
)
from .errors import IllegalAction, OptionError
from .observation import Observation
from .options import Options
from .order import SPADES_TRUMP, CardOrder
from .state import HandLog, HandResult, Phase, State
from .tricks import TrickPlay
from .words import person, seat_words

_REGISTRY: dict[str, type[Game]] = {}

_BETWEEN_HANDS = (Phase.DEAL, Phase.SCORING)
# Phases the per-action paths test, as module constants: reading a member off an Enum
# class goes through EnumType's slow attribute look-up (~150 ns in Python 3.11).
_PLAY = Phase.PLAY
_SCORING = Phase.SCORING
_GAME_OVER = Phase.GAME_OVER
_ENDED = (Phase.DEAL, Phase.SCORING, Phase.GAME_OVER)


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game available by its ``name``."""
    if cls.name in _REGISTRY and _REGISTRY[cls.name] is not cls:
        raise ValueError(f"two games are named {cls.name!r}")
    _REGISTRY[cls.name] = cls
    return cls


def game_names() -> list[str]:
    _load_builtin_games()
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    _load_builtin_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise OptionError(f"unknown game {name!r}; the games are: {known}") from None


def make_game(name: str, options: Mapping[str, Any] | Options | None = None) -> Game:
    """A game by its registered name, with options given as an object or by name."""
    cls = game_class(name)
    if options is None or isinstance(options, Options):
        return cls(options)
    return cls(cls.options_type.from_mapping(options))


def _load_builtin_games() -> None:
    from .. import games  # noqa: F401  (importing registers them)


def step(state: State, action: Action) -> None:
    """Apply one action if the rules allow it; otherwise raise IllegalAction and change
    nothing. This is the one door through which every action enters a state."""
    game = state.game
    if type(action) is Play and game._plain_plays:
        # The hot path (most actions of a hand): a card the seat to act may play, by the
        # mask remembered for this state. Anything else takes the full check below,
        # which explains a refusal.
        card = action.card
        mask = state._legal_plays  # nonzero only during play: see State
        if not mask and state.phase is _PLAY:
            mask = game._remember_plays(state)
        if (
            action.seat == state.to_act
            and type(card) is int
            and card >= 0
            and mask >> card & 1
            and not action.ace_low
        ):
            state.actions.append(action)
            game.play_card(state, action.seat, card)
            return
    elif (listed := state._legal_other) is not None and any(map(is_, listed, repeat(action))):
        # The very object listed as legal now (bids are interned, and bots choose from
        # the list): ``check`` accepts every listed action and nothing else, so the
        # look-up by identity (in C) is the check.
        game.apply(state, action)
        return
    game.check(state, action)
    game.apply(state, action)


class Game(TrickPlay):
    """Base of every game. Subclasses set the class attributes and override the hooks."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    options_type: ClassVar[type[Options]] = Options
    state_type: ClassVar[type[State]] = State
    partnership: ClassVar[bool] = False
    """True when scores are kept per team (seats 0+2 and 1+3)."""

    replay_notes: ClassVar[tuple[str, ...] | None] = None
    """The per-hand details shown in the replay's text table (None: all of them); the JSON
    output always has every detail."""

    # Which action types each phase accepts (besides Deal between hands).
    phase_actions: ClassVar[Mapping[Phase, tuple[type[Action], ...]]] = {}

    def __init__(self, options: Options | None = None) -> None:
        if options is None:
            options = self.options_type()
        if not isinstance(options, self.options_type):
            raise OptionError(f"{self.name} takes {self.options_type.__name__}")
        self.options = options
        self.num_seats = 4
        self.player_seats: tuple[int, ...] = (0, 1, 2, 3)
        self.num_entities = 4
        self.default_order: CardOrder = SPADES_TRUMP
        self.deck: CardSet = 0
        self.configure()
        # The last deal known to hold the right cards (made by ``random_deal``, or passed
        # by ``check_deal``) and its hands as sets: ``check_deal`` then tests only its
        # dealer, and ``apply_deal`` takes the sets rather than working them out again.
        # Only a cache: a Deal is immutable and is matched by identity.
        self._checked_deal: tuple[Deal | None, list[CardSet]] = (None, [])
        # Who plays after each seat at the start of a hand (games with a seat out or a
        # dummy change the state's own copy).
        self._clockwise = tuple((s + 1) % self.num_seats for s in range(self.num_seats))
        # The keys of the totals, one per scoring entity: every observation maps them.
        self._entity_labels = tuple(self.entity_label(e) for e in range(self.num_entities))
        # Bound check_<verb>/apply_<verb> methods by verb, looked up once per action.
        verbs = {t.verb for types in self.phase_actions.values() for t in types}
        self._checkers: dict[str, Callable[[State, Action], None]] = {
            v: getattr(self, "check_" + v) for v in verbs
        }
        self._appliers: dict[str, Callable[[State, Action], None]] = {
            v: getattr(self, "apply_" + v) for v in verbs
        }
        # The checker of each action type each phase accepts: one look-up in ``check``.
        self._phase_checkers: dict[Phase, dict[type[Action], Callable[[State, Action], None]]]
        self._phase_checkers = {
            phase: {t: self._checkers[t.verb] for t in types}
            for phase, types in self.phase_actions.items()
        }
        # With options that leave the play plain (``plain_card_play``), the overrides
        # below do nothing more than the base rules, and the fast paths apply.
        plain = self.plain_card_play()
        # set on the instance either way: ``legal_actions`` reads it at every play, and
        # CPython 3.11 does not specialise reading a class attribute through an instance
        self.has_extra_play_actions = self.has_extra_play_actions and not plain
        # True when only the seat to act (or whoever plays for it) ever has a choice:
        # the observations of the other seats then need no legal list at all.
        self._turns_only = plain or type(self).check_turn is Game.check_turn
        self.fixed_trick_size = (
            self.num_seats if type(self).trick_size is TrickPlay.trick_size else 0
        )
        self._winner_leads = type(self).next_leader is TrickPlay.next_leader
        # Every seat makes its own choices (no dummy): ``controlled_by`` needs no search.
        self._self_controlled = type(self).controller is Game.controller
        # True when a card play does nothing beyond ``play_card`` (no renege bookkeeping,
        # no ace-low calls) and nothing but plays is legal during play: ``step`` then
        # takes its hot path for plays, and ``random_playout`` draws from the mask.
        self._plain_plays = (plain or (
            type(self).apply_play is TrickPlay.apply_play
            and type(self).check_play is TrickPlay.check_play
        )) and not self.has_extra_play_actions
        # True when the seat after a card follows by the base rule (``follow_mask`` and
        # ``legal_plays`` not overridden): ``play_card`` then remembers its legal plays;
        # ``finish_trick`` the next leader's when ``legal_plays`` is not overridden.
        self._eager_lead = type(self).legal_plays is TrickPlay.legal_plays
        self._eager_follow = self._eager_lead and type(self).follow_mask is TrickPlay.follow_mask

    def plain_card_play(self) -> bool:
        """True when this table's options make the game's play of the cards plain, though
        it overrides the rules that could make it more: a card play does no more than
        ``play_card``, there are no actions beside the plays, and no seat ever acts out of
        turn (Dummy Whist without honour mode: no renege to call). ``step``, the legal
        lists, the observations and the tables then take their fast paths. Default:
        False (the fast paths are chosen by which rules the game overrides)."""
        return False

    @property
    def turns_only(self) -> bool:
        """True when only the seat to act (or whoever plays for it) ever has a choice: no
        action out of turn, so every legal action is the seat to act's."""
        return self._turns_only

    def configure(self) -> None:
        """Set seats, entities, deck and card order from the options."""

    def __repr__(self) -> str:
        opts = self.options.to_mapping()
        return f"{type(self).__name__}({opts})" if opts else f"{type(self).__name__}()"

    # --- tables and scores -----------------------------------------------------------------

    def new_game(self) -> State:
        """A fresh table waiting for its first deal."""
        return self.state_type(self)

    def entity_label(self, entity: int) -> str:
        """The key of a scoring entity (seat or team) in scores and totals."""
        return str(entity)

    def entity_of_seat(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def totals_mapping(self, state: State) -> dict[str, int]:
        return dict(zip(self._entity_labels, state.totals, strict=True))

    def seat_name(self, seat: int) -> str:
        """A seat in words: its person's name while a table names its people (see
        ``engine.words``), else "seat N". Every line a game writes names seats so."""
        return seat_words(seat)

    @classmethod
    def infer_options(cls, options: dict[str, Any], players: Mapping[str, str]) -> dict[str, Any]:
        """Fill in options a record may leave implicit (3B infers its player count)."""
        return options

    def game_summary(self, state: State) -> dict[str, Any]:
        """Game-level facts for the replay output beyond totals and winner (tray person,
        stake owed, statistics). Documented per game."""
        return {}

    def summary_lines(self, state: State) -> list[str]:
        """The end of the game in sentences for people (what ``game_summary`` holds as
        facts: the tray person, the stake owed, ...), naming seats through ``seat_name``
        and sides through ``entity_name``. Default: who won."""
        if state.winner is None:
            return []
        return [f"{self.entity_name(state.winner)} won, {state.totals[state.winner]} to "
                + ", ".join(str(t) for e, t in enumerate(state.totals) if e != state.winner)
                + "."]

    def hand_lines(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                   ) -> list[str]:
        """The hand just scored, explained in words: what each side bid and took, bonuses
        and penalties and who earned them. Called once per hand, after ``score_hand``,
        while the state still holds the hand. Default: each side's score."""
        return [
            f"{self.entity_name(e)}: {score:+d}" for e, score in enumerate(scores)
        ]

    def hand_lines_later(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                         ) -> Callable[[], Iterable[str]] | None:
        """A function that writes ``hand_lines`` when the hand's result is first read,
        from what it keeps of the state now (the state moves on to the next hand), or
        None to have them written at once. It must give exactly ``hand_lines``. Default:
        None."""
        return None

    def entity_name(self, entity: int) -> str:
        """A scoring side in words: "Ann & Cy" or "Bob" while the table's people are
        named, else "team 0 (seats 0+2)" or "seat 1"."""
        label = self.entity_label(entity)
        if self.partnership:
            first, second = person(entity), person(entity + 2)
            if first and second:
                return f"{first} & {second}"
            return f"team {label} (seats {entity}+{entity + 2})"
        return self.seat_name(entity)

    def score_lines(self, state: State) -> list[str]:
        """Extra lines showing the score the way the game's players would (Paperless's
        counting cards); empty for most games."""
        return []

    # --- dealing ---------------------------------------------------------------------------

    def draw_first_dealer(self, rng: random.Random) -> int:
        """Draw for the first deal: high card among the real players (ace high, suits equal),
        drawing again among those tied."""
        candidates = self.player_seats
        suited = deck_cards(self.deck & SUITED)
        while len(candidates) > 1:
            ranks = [c % 13 for c in rng.sample(suited, len(candidates))]  # rank_of, inlined
            best = max(ranks)
            if ranks.count(best) == 1:  # the usual draw: one high card
                return candidates[ranks.index(best)]
            candidates = tuple(s for s, r in zip(candidates, ranks, strict=True) if r == best)
        return candidates[0]

    def next_dealer(self, state: State) -> int:
        """The dealer of the hand after the current one: next real player clockwise."""
        seat = state.dealer
        for _ in range(self.num_seats):
            seat = (seat + 1) % self.num_seats
            if seat in self.player_seats:
                return seat
        return state.dealer

    def deal_sizes(self, dealer: int) -> tuple[list[int], int]:
        """Cards dealt to each seat and how many are left in the middle."""
        raise NotImplementedError

    def random_deal(self, state: State, rng: random.Random) -> Deal:
        """A shuffled deal for the next hand (the dealer from the rotation, or drawn)."""
        dealer = self.next_dealer(state) if state.hand_number >= 0 else self.draw_first_dealer(rng)
        sizes, extra = self.deal_sizes(dealer)
        piles = deal_piles(self.deck, [*sizes, extra], rng)
        deal = Deal(CHANCE, dealer, tuple(piles[:-1]), piles[-1])
        # its cards are right by construction (the deck cut into the piles of
        # ``deal_sizes``): kept as checked (see ``_checked_deal``)
        bit_of = BIT_OF.__getitem__
        self._checked_deal = (deal, [sum(map(bit_of, pile)) for pile in deal.hands])
        return deal

    def check_deal(self, state: State, deal: Deal) -> None:
        if state.phase not in _BETWEEN_HANDS:
            raise IllegalAction("deal", "a hand is in progress; it must be finished first")
        if state.hand_number >= 0:
            expected = self.next_dealer(state)
            if deal.dealer != expected:
                raise IllegalAction(
                    "dealer rotation",
                    f"seat {deal.dealer} cannot deal this hand; the deal passes to seat {expected}",
                    f"dealer {expected}",
                )
        elif deal.dealer not in self.player_seats:
            raise IllegalAction(
                "dealer", f"seat {deal.dealer} has no player and cannot deal",
                f"a dealer among seats {', '.join(map(str, self.player_seats))}",
            )
        if deal is self._checked_deal[0]:
            return  # its cards known right: see ``_checked_deal``
        sizes, extra = self.deal_sizes(deal.dealer)
        if len(deal.hands) != self.num_seats:
            raise IllegalAction("deal", f"a deal gives cards to {self.num_seats} seats")
        masks = self._hand_sets(deal, sizes, extra)
        if masks is not None:
            self._checked_deal = (deal, masks)
            return
        # Something is wrong: find the first fault and name it.
        seen = 0
        for seat, (cards, size) in enumerate(zip(deal.hands, sizes, strict=True)):
            if len(cards) != size:
                raise IllegalAction(
                    "deal", f"seat {seat} is dealt {len(cards)} cards; this hand deals it {size}"
                )
            for c in cards:
                if not self.deck >> c & 1:
                    raise IllegalAction("deal", f"{card_str(c)} is not in this game's deck")
                if seen >> c & 1:
                    raise IllegalAction("deal", f"{card_str(c)} is dealt twice")
                seen |= 1 << c
        if len(deal.extra) != extra:
            raise IllegalAction(
                "deal", f"the deal leaves {len(deal.extra)} extra cards; this game leaves {extra}"
            )
        for c in deal.extra:
            if seen >> c & 1:
                raise IllegalAction("deal", f"{card_str(c)} is dealt twice")
            seen |= 1 << c
        if seen != self.deck:
            raise IllegalAction("deal", f"the deal leaves out {format_set(self.deck & ~seen)}")

    def _hand_sets(self, deal: Deal, sizes: list[int], extra: int) -> list[CardSet] | None:
        """The usual case, tested quickly: every pile has its size and the piles hold each
        card of the deck once. Then each seat's cards as a set; None means check_deal must
        look card by card."""
        if list(map(len, deal.hands)) != sizes or len(deal.extra) != extra:
            return None
        bit_of = BIT_OF.__getitem__
        try:
            masks = [sum(map(bit_of, cards)) for cards in deal.hands]
            total = sum(masks) + sum(map(bit_of, deal.extra))
        except (TypeError, KeyError):  # not a card number: the slow path says so
            return None
        # n powers of two add up to a number with n bits set only if they are all different
        if total != self.deck or sum(sizes) + extra != self.deck.bit_count():
            return None
        return masks

    def apply_deal(self, state: State, deal: Deal) -> None:
        """Start a hand: hold the dealt cards and reset everything kept per hand."""
        n = self.num_seats
        state.hand_number += 1
        state.dealer = deal.dealer
        state.deal = deal
        checked, masks = self._checked_deal
        if checked is not deal:  # not the deal check_deal saw last (or applied unchecked)
            bit_of = BIT_OF.__getitem__  # the cards are distinct: check_deal made sure
            masks = [sum(map(bit_of, cards)) for cards in deal.hands]
        state.hands = list(masks)  # the state's own: its hands change as cards are played
        state.next_seat = list(self._clockwise)
        state.trick_seats = []
        state.trick_cards = []
        state.low_aces = 0
        state.led_suit = -1
        state.order = self.default_order
        state.tricks = []
        state.won = [0] * n
        state.played = 0
        state.trump_broken = False
        state.actions = []
        state.tricks_per_hand = max(map(len, deal.hands))
        self.begin_hand(state)

    def out_of_play(self, state: State) -> CardSet:
        """Cards of this hand that are in no hand and were not played to a trick (the
        extra card, a dead thrown-back card, a declarer's discards). Used to check that
        cards are conserved."""
        return 0

    def begin_hand(self, state: State) -> None:
        """Game hook after the cards are held: set the phase, who acts, per-hand fields."""
        raise NotImplementedError

    # --- the rules protocol ----------------------------------------------------------------

    def legal_actions(self, state: State) -> list[Action]:
        """Every action the seat to act may take now (empty between hands and at the end)."""
        mask = state._legal_plays  # nonzero only during play: see State
        if not mask:
            phase = state.phase
            if phase is not _PLAY:
                if phase in _ENDED:
                    return []
                # outside the play of the cards: the list worked out once per state
                # (``step`` finds a listed bid in it by identity)
                others = state._legal_other
                if others is None:
                    others = state._legal_other = tuple(self.phase_legal_actions(state))
                return list(others)
            mask = state._legal_plays = self.legal_plays(state)
        led = state.led_suit
        out: list[Action]
        if led >= 0 and not mask & _OUTSIDE_SUIT[led]:
            # following suit (most plays): the set lies in the led suit's 13 cards,
            # listed by two look-ups (see ``_plays_by_suit``)
            low, high = _PLAYS_BY_SUIT[state.to_act][led]
            ranks = mask >> _SUIT_SHIFT[led]
            out = [*low[ranks & 255], *high[ranks >> 8]]
        else:
            # the plays listed a byte of the set at a time (see ``_plays_by_byte``)
            b0, b1, b2, b3, b4, b5, b6 = mask.to_bytes(7, "little")
            p0, p1, p2, p3, p4, p5, p6 = _PLAYS_BY_BYTE[state.to_act]
            out = [*p0[b0], *p1[b1], *p2[b2], *p3[b3], *p4[b4], *p5[b5], *p6[b6]]
        if self.has_extra_play_actions:
            # worked out once per state, as the plays are: the table and the
            # observation of one decision both ask
            extra = state._legal_other
            if extra is None:
                extra = state._legal_other = tuple(self.extra_play_actions(state))
            out.extend(extra)
        return out

    def _listed_actions(self, state: State) -> Sequence[Action]:
        """``legal_actions``, outside the play of the cards without the copy for the
        caller to keep (the tuple kept on the state)."""
        listed = state._legal_other
        if listed is None or state.phase is _PLAY or state.phase in _ENDED:
            return self.legal_actions(state)  # (which keeps the tuple, outside play)
        return listed

    def legal_mask(self, state: State) -> CardSet:
        """The cards the seat to act may play now, as a bitmask (0 outside the play of the
        cards): what ``legal_actions`` lists as plain plays, without making the list."""
        if state.phase is not _PLAY:
            return 0
        mask = state._legal_plays
        if not mask:
            mask = state._legal_plays = self.legal_plays(state)
        return mask

    def random_playout(self, state: State, rng: random.Random) -> None:
        """Finish the hand in progress with uniformly random legal actions: the choice
        ``rng.choice(legal_actions(state))`` would make at every step, for a search's
        playouts. Card plays are drawn from the legal mask and applied without making a
        list or checking them again (they are legal by construction); anything else
        (bids, calls, a game with choices beside plain plays) goes through ``step``."""
        hand = state.hand_number
        plain = self._plain_plays
        while state.hand_number == hand and state.phase not in _ENDED:
            if plain and state.phase is _PLAY:
                seat = state.to_act
                mask = state._legal_plays or self.legal_plays(state)
                for _ in range(rng.randrange(mask.bit_count())):
                    mask &= mask - 1  # drop the lowest card: the k-th card is drawn
                card = (mask & -mask).bit_length() - 1
                state.actions.append(PLAYS_BY_SEAT[seat][card])
                self.play_card(state, seat, card)
            else:
                step(state, rng.choice(self.legal_actions(state)))

    def phase_legal_actions(self, state: State) -> Sequence[Action]:
        """Legal actions outside the play of the cards (bids, passes, exchanges, ...); a
        tuple is kept on the state as it is (``legal_actions``), a list copied."""
        raise NotImplementedError

    has_extra_play_actions: bool = False
    """Set by games that offer more than plain card plays during play (False with the
    options of a ``plain_card_play`` table)."""

    def extra_play_actions(self, state: State) -> list[Action]:
        """Actions besides plain card plays during play (ace-low calls, renege calls)."""
        return []

    def check(self, state: State, action: Action) -> None:
        """Raise IllegalAction, naming the rule and what is allowed, unless ``action`` is
        legal now. Never changes the state."""
        phase = state.phase
        if phase is _GAME_OVER:
            raise IllegalAction("game over", "the game is over; no more actions are taken")
        check_fields(action)  # a field no action can hold: refused before the rules look
        if type(action) is Deal:
            self.check_deal(state, action)
            return
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self.num_seats:
            raise IllegalAction(
                "seats",
                f"this table has no seat {seat}",
                f"an action for one of the seats 0 to {self.num_seats - 1}",
            )
        if phase in _BETWEEN_HANDS:
            raise IllegalAction(
                "deal first", f"{action} comes before the cards of the hand are dealt", "a deal"
            )
        if seat != state.to_act:
            self.check_turn(state, action)
        checkers = self._phase_checkers.get(phase)
        checker = checkers.get(type(action)) if checkers else None
        if checker is None:
            raise IllegalAction(
                f"{phase.value} phase",
                f"'{action.verb}' is not an action of the {phase.value} phase",
                self.describe_allowed(state, seat),
            )
        checker(state, action)
        if type(action) is not Play and not self.is_listed(state, action):
            # The game's own checker gives the precise reason; this net makes sure nothing
            # outside legal_actions is ever accepted (plays are checked against the mask).
            raise IllegalAction(
                f"{phase.value} phase",
                f"'{action}' is not one of the choices now",
                self.describe_allowed(state, seat),
            )

    def is_listed(self, state: State, action: Action) -> bool:
        """True if ``action`` is among ``legal_actions`` (card lists and seat lists compared
        as sets: "give 3C 2C" is the same choice as "give 2C 3C")."""
        legal = self._listed_actions(state)
        for listed in legal:  # interned actions (bids, plays) are the very objects listed:
            if listed is action:  # found without comparing fields (``in`` compares every
                return True  # action before the match, a Python-level __eq__ each)
        if action in legal:  # equal fields
            return True
        if not any(type(getattr(action, f)) is tuple for f in action.__dataclass_fields__):
            return False  # no card or seat list whose order could differ
        key = choice_key(action)
        kind = type(action)
        return any(type(a) is kind and choice_key(a) == key for a in legal)

    def check_turn(self, state: State, action: Action) -> None:
        """Called when an action is not for the seat to act; games with calls out of turn
        (reneges) override it."""
        raise IllegalAction(
            "turn order",
            f"it is not seat {action.seat}'s turn; seat {state.to_act} is to act",
            self.describe_allowed(state, action.seat),
        )

    def apply(self, state: State, action: Action) -> None:
        """Apply an action that ``check`` has passed."""
        # Forget the remembered legal plays before (an applier may ask for legal actions
        # halfway) and after (the state has changed).
        state._legal_plays = 0
        state._legal_other = None
        if type(action) is Deal:
            self.apply_deal(state, action)
        else:
            state.actions.append(action)
            self._appliers[action.verb](state, action)
        state._legal_plays = 0
        state._legal_other = None

    def describe_allowed(self, state: State, seat: int | None = None) -> str:
        """What ``seat`` (by default the seat to act) may do now, for an error message.
        Only that seat's own choices are described: an error goes to whoever sent the
        action, and another seat's legal cards are hidden from it."""
        to_act = self.controller(state, state.to_act)
        chooser = to_act if seat is None else self.controller(state, seat)
        if chooser == to_act:
            return self.describe_choices(state)
        return self.summarize_own(state, chooser) or f"nothing now; seat {state.to_act} is to act"

    def describe_choices(self, state: State) -> str:
        """The choices of the seat to act, summarised; games override it to say more."""
        return self.summarize_own(state, self.controller(state, state.to_act)) or "nothing"

    def summarize_own(self, state: State, chooser: int) -> str:
        """The legal actions ``chooser`` makes itself (out-of-turn ones included)."""
        mine = [a for a in self.legal_actions(state) if self.controller(state, a.seat) == chooser]
        return summarize_actions(mine) if mine else ""

    # --- the end of a hand -----------------------------------------------------------------

    def finish_hand(self, state: State) -> None:
        scores, details = self.score_hand(state)
        # the lines are written (or what they need kept) while the state holds the hand
        write_lines = self.hand_lines_later(state, scores, details)
        lines = () if write_lines else tuple(self.hand_lines(state, scores, details))
        labels = self._entity_labels
        # the lengths tested once here, not by two strict zips (the keyword argument costs
        # a zip about 0.15 us); the totals have one entry per label by construction
        if len(scores) != len(labels):
            raise ValueError(f"{self.name} scored {len(scores)} sides, not {len(labels)}")
        totals = state.totals
        for e, s in enumerate(scores):
            totals[e] += s
        scores_by_label = dict(zip(labels, scores))  # noqa: B905 (tested above)
        totals_by_label = dict(zip(labels, totals))  # noqa: B905
        state.results.append(
            HandResult.lines_later(scores_by_label, totals_by_label, details, write_lines)
            if write_lines
            else HandResult(scores_by_label, totals_by_label, details, lines)
        )
        state.past_hands += (HandLog(state.deal, tuple(state.actions)),)  # type: ignore[arg-type]
        state.to_act = -1
        winner = self.game_winner(state)
        if winner is None:
            state.phase = _SCORING
        else:
            state.phase = _GAME_OVER
            state.winner = winner

    def score_hand(self, state: State) -> tuple[list[int], dict[str, Any]]:
        """Scores of the finished hand per entity, and running details for the replay."""
        raise NotImplementedError

    def game_winner(self, state: State) -> int | None:
        """The winning entity if the game is over after this hand, else None."""
        raise NotImplementedError

    def winner_by_totals(self, totals: Sequence[int], finished_hands: int,
                         info: Mapping[str, Any]) -> int | None:
        """The winning entity when the running ``totals`` after ``finished_hands`` hands
        end the game, else None: the game's end rule as far as the totals decide it (what
        else ends a game, 3B's hand of every trick, is a fact of the hand, not of the
        totals). ``info`` is the hand's public information (``Observation.info``), for a
        rule that changes during a game (Paperless's overtime limit). Search bots weigh
        the chance of winning the game with it (``search.winchance``)."""
        raise NotImplementedError

    def totals_reset_after(self, state: State, hand: int) -> bool:
        """True when every total went back to zero after finished hand ``hand`` (0-based,
        an index into ``state.results``), as Paperless does before an overtime set.
        Totals are otherwise the sum of the hand scores."""
        return False

    # --- observations ----------------------------------------------------------------------

    def controller(self, state: State, seat: int) -> int:
        """The seat that makes choices for ``seat`` (a dummy's declarer)."""
        return seat

    def controlled_by(self, state: State, seat: int) -> tuple[int, ...]:
        if self._self_controlled:
            return (seat,)
        return tuple(s for s in range(self.num_seats) if self.controller(state, s) == seat)

    def visible_holdings(self, state: State, viewer: int) -> list[CardSet]:
        """Per seat, the cards of its current holding ``viewer`` may see."""
        out = [0] * self.num_seats
        out[viewer] = state.hands[viewer]
        return out

    def redact(self, state: State, action: Action, viewer: int) -> str:
        """An action as ``viewer`` saw it (hidden parts as '?')."""
        return str(action)

    def carry_over(self, state: State, info: Mapping[str, Any]) -> None:
        """Set on a new game's ``state`` what earlier hands carried into the current one
        and its scoring reads (bags, a zero pot), from a seat's ``public_info``: a hand
        rebuilt from an observation then scores as the real one would. Default: nothing
        carries over."""

    def public_info(self, state: State, viewer: int) -> dict[str, Any]:
        """Game facts for the observation: bids, contract, trumps, running scores..."""
        return {}

    def play_facts(
        self, state: State, viewer: int, facts: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        """``facts()``, worked out once per viewer and hand and then kept: for the part of
        ``public_info`` that the caller knows stays fixed from now to the end of the
        hand's play (the auction's facts once the cards are being played), which was
        otherwise rebuilt for every observation. Each call hands out a dict of its own;
        the caller copies any value in it that could be changed in place (a dict)."""
        kept = state._hand_facts.get(viewer)
        if kept is not None and kept[0] is state.actions:  # a new hand has a new list
            return dict(kept[1])
        info = facts()
        state._hand_facts[viewer] = (state.actions, info)
        return dict(info)

    def redaction_epoch(self, state: State, viewer: int) -> object:
        """Changes whenever ``redact`` would now write an earlier action differently for
        ``viewer`` (Paperless shows a pass to its receiver once both passes are made).
        Default: never; the redacted history then only grows."""
        return None

    def history_for(self, state: State, viewer: int) -> tuple[str, ...]:
        """This hand's actions as ``viewer`` saw them, extended from the last time it was
        asked rather than rewritten: observations are built at every step, and writing
        the whole history each time was a third of a bot game's time."""
        actions = state.actions
        epoch = self.redaction_epoch(state, viewer)
        cached = state._histories.get(viewer)
        if cached is not None and cached[0] is actions and cached[1] == epoch:
            done = cached[2]
            if len(done) == len(actions):
                return done
            if len(done) < len(actions):
                history = done + self._seen_texts(state, actions[len(done):], viewer)
                state._histories[viewer] = (actions, epoch, history)
                return history
        history = self._seen_texts(state, actions, viewer)
        state._histories[viewer] = (actions, epoch, history)
        return history

    def _seen_texts(self, state: State, actions: Sequence[Action], viewer: int
                    ) -> tuple[str, ...]:
        """``actions`` as ``viewer`` saw them. A card play is written as it is without
        asking ``redact``: every seat sees it (its card is in the observation's trick and
        tricks), and plays are most of a history."""
        redact = self.redact
        return tuple(str(a) if type(a) is Play else redact(state, a, viewer) for a in actions)

    def observe(self, state: State, seat: int) -> Observation:
        """What ``seat`` may see now. Contains nothing it may not know."""
        controls = self.controlled_by(state, seat)
        legal: tuple[Action, ...]
        if self._turns_only:
            # no action out of turn: every legal action is the seat to act's
            legal = tuple(self.legal_actions(state)) if state.to_act in controls else ()
        else:
            # only this seat's own choices: the seat to act's list may hold other seats'
            # out-of-turn actions (3B changes of bid, whist renege calls)
            legal = tuple(a for a in self.legal_actions(state) if a.seat in controls)
        visible = self.visible_holdings(state, seat)
        return Observation.build({
            "game": self.name,
            "seat": seat,
            "phase": state.phase,
            "hand_number": state.hand_number,
            "dealer": state.dealer,
            "to_act": state.to_act,
            "controls": controls,
            "hand": visible[seat],  # a seat may not have looked at its cards yet (blind nil)
            "visible": tuple(visible),
            "hand_sizes": tuple(state.hand_size),
            "trick": tuple(zip(state.trick_seats, state.trick_cards, strict=True)),
            "led_suit": state.led_suit,
            "tricks": tuple(state.tricks),
            "won": tuple(state.won),
            "played": state.played,
            "totals": self.totals_mapping(state),
            "history": self.history_for(state, seat),
            "info": self.public_info(state, seat),
            "legal": legal,
        })


PlaysOfSets = tuple[tuple[Play, ...], ...]
"""``[b]``: the plays of the cards of the set ``b`` of a few cards (see ``_plays_of_sets``)."""


def _plays_of_sets(plays: Sequence[Play]) -> PlaysOfSets:
    """``[b]`` lists ``plays[k]`` for every bit ``k`` set in ``b``, in order: the plays of
    every subset of a few cards."""
    listed: list[tuple[Play, ...]] = [()]
    for play in plays:  # the sets with this card as their highest
        listed += [(*lower, play) for lower in listed]
    return tuple(listed)


def _plays_by_byte(plays: Sequence[Play]) -> tuple[PlaysOfSets, ...]:
    """A seat's plays by the bytes of a card set: ``[i][b]`` lists the plays of the cards
    ``8 * i + k`` for every bit ``k`` set in ``b``, in card order. A legal set is listed
    by seven look-ups (``legal_actions``), not bit by bit."""
    return tuple(_plays_of_sets(plays[i : i + 8]) for i in range(0, len(plays), 8))


def _plays_by_suit(plays: Sequence[Play]) -> tuple[tuple[PlaysOfSets, PlaysOfSets], ...]:
    """A seat's plays of the cards of each suit: ``[suit]`` is a pair of the lists by the
    suit's lowest eight ranks and by its highest five. A set within one suit is listed by
    two look-ups, not seven."""
    return tuple(
        (_plays_of_sets(plays[base : base + 8]), _plays_of_sets(plays[base + 8 : base + 13]))
        for base in _SUIT_SHIFT
    )


_SUIT_SHIFT = tuple(13 * s for s in SUITS)
"""Per suit, the bit of its lowest card."""
_PLAYS_BY_BYTE = tuple(_plays_by_byte(plays) for plays in PLAYS_BY_SEAT)
_PLAYS_BY_SUIT = tuple(_plays_by_suit(plays) for plays in PLAYS_BY_SEAT)
_OUTSIDE_SUIT = tuple(~mask for mask in SUIT_MASKS)
"""Per suit, the cards of a 54-card set not of that suit (a negative int: every bit
above the suit's is set)."""


def choice_key(action: Action) -> tuple[object, ...]:
    """An action's fields with the order of card and seat lists ignored."""
    return tuple(
        tuple(sorted(v)) if isinstance(v, tuple) else v
        for v in (getattr(action, f) for f in action.__dataclass_fields__)
    )


def summarize_actions(actions: Iterable[Action]) -> str:
    """A short description of a list of actions: "play AS KS 3H", "bid 0..13", ..."""
    by_verb: dict[str, list[Action]] = {}
    for a in actions:
        by_verb.setdefault(a.verb, []).append(a)
    parts = []
    for verb, acts in by_verb.items():
        if verb == "play":
            parts.append(
                "play " + " ".join(
                    card_str(a.card) + (" low" if a.ace_low else "")  # type: ignore[attr-defined]
                    for a in acts
                )
            )
        elif verb == "bid" and all(
            isinstance(a, Bid) and not a.nils and not a.mode and not a.blind for a in acts
        ):
            nums = sorted({a.tricks for a in acts if isinstance(a, Bid)})
            parts.append("bid " + _ranges(nums))
        else:
            texts = [str(a).split(": ", 1)[1] for a in acts]
            if len(texts) > 12:
                parts.append(", ".join(texts[:10]) + f", ... ({len(texts)} choices)")
            else:
                parts.append(", ".join(texts))
    return "; ".join(parts) if parts else "nothing"


def _ranges(nums: list[int]) -> str:
    if not nums:
        return ""
    if nums == list(range(nums[0], nums[-1] + 1)) and len(nums) > 2:
        return f"{nums[0]}..{nums[-1]}"
    return ", ".join(map(str, nums))
