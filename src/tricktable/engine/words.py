"""Who a game's words name: while a table's people are known (the web table, the terminal,
a replay of a record with its players), every line a game writes names them ("Ann took
4 of her 5"), everywhere else the seats ("seat 2").

A game writes a seat only through ``Game.seat_name`` and a scoring side only through
``Game.entity_name``, which read the names set here; so the words come from the game,
once, for the terminal and the browser alike, and nobody parses labels back. The names are
a context variable, set around the code that scores and shows a table's hands: lines a
hand's result writes later (``HandResult.lines_later``) are written the first time they
are shown, in that code too.

What a game says at its table besides its score lines (the rule of each decision, the words
on its buttons, the line under each seat, the hand's facts, who is to act) is its
``TableWords``, defined in the game's module: the browser (the view's ``words``) and the
terminal (``play.display``) show the same texts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action, Bid, Direction, Play, Rebid, Renege, Trump
from .cards import Card, card_str
from .observation import Observation

if TYPE_CHECKING:
    from .game import Game

_PEOPLE: ContextVar[Mapping[int, str] | None] = ContextVar("tricktable_people", default=None)


@contextlib.contextmanager
def naming(people: Mapping[int, str] | None) -> Iterator[None]:
    """Within the block, a seat in ``people`` is written as its person's name."""
    token = _PEOPLE.set(dict(people) if people else None)
    try:
        yield
    finally:
        _PEOPLE.reset(token)


def person(seat: int) -> str | None:
    """The name of the person at ``seat`` while naming is on, else None."""
    people = _PEOPLE.get()
    if people is None:
        return None
    return people.get(seat)


def seat_words(seat: int) -> str:
    """A seat as people read it: its person's name, or "seat N"."""
    return person(seat) or f"seat {seat}"


def team_words(team: int, start: bool = False) -> str:
    """A partnership (seats ``team`` and ``team + 2``) in short words: "Ann & Cy" while its
    people are named, else "team 0" ("Team 0" at the ``start`` of a sentence)."""
    first, second = person(team), person(team + 2)
    if first and second:
        return f"{first} & {second}"
    return f"{'Team' if start else 'team'} {team}"


# --- what a game says at its table -----------------------------------------------------------

SUIT_WORDS = {"S": ("♠", "spades"), "H": ("♥", "hearts"), "D": ("♦", "diamonds"),
              "C": ("♣", "clubs")}
_RANK_WORDS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_JOKER_WORDS = {"BJ": "the big joker", "LJ": "the little joker"}


def card_words(card: Card) -> str:
    """A card as people say it: "the ace of spades", "the 10 of hearts", "the big joker"."""
    text = card_str(card)
    if text in _JOKER_WORDS:
        return _JOKER_WORDS[text]
    return f"the {_RANK_WORDS.get(text[0], text[0])} of {SUIT_WORDS[text[1]][1]}"


def cards_short(text: str) -> str:
    """Cards in notation ("TD AC") as a hand shows them: "10♦ A♣"; jokers by name."""
    out = []
    for word in text.split():
        if word in _JOKER_WORDS:
            out.append(_JOKER_WORDS[word].removeprefix("the "))
        elif len(word) == 2 and word[1] in SUIT_WORDS:
            out.append(("10" if word[0] == "T" else word[0]) + SUIT_WORDS[word[1]][0])
        else:
            out.append(word)
    return " ".join(out)


def suit_words(letter: str) -> str:
    """A suit letter as a button or a fact says it: "♠ spades"."""
    symbol, name = SUIT_WORDS[letter]
    return f"{symbol} {name}"


def by_seat(value: object) -> dict[int, Any]:
    """A mapping keyed by seat, as an observation's ``info`` holds it (int keys) or its JSON
    (string keys): keyed by int either way; anything else is empty."""
    if not isinstance(value, Mapping):
        return {}
    out: dict[int, Any] = {}
    for key, item in value.items():
        try:
            out[int(key)] = item
        except (TypeError, ValueError):
            continue
    return out


def _seat_or_none(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None


class TableWords:
    """What a game says to the people at its table, besides its score lines: the rule of
    each decision in a line, the words on its buttons, the line under each seat's name, the
    hand's facts, and who is to act and how. The terminal and the browser both show these
    texts (``play/display.py``; the view's ``words``, ``web/protocol.py``), so a game says
    each thing once, naming people through ``seat_name``.

    Each game's module subclasses it with ``games = (its name, ...)``; ``table_words``
    finds the subclass for a game. Every method reads only an observation (its ``info`` as
    the engine keeps it or as JSON: seat keys may be strings) and the game's options, so a
    spectator's words are made from what every seat sees alike."""

    games: ClassVar[tuple[str, ...]] = ()
    _by_game: ClassVar[dict[str, type[TableWords]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in cls.games:
            TableWords._by_game[name] = cls

    def __init__(self, game: Game) -> None:
        self.game = game

    # --- seats ------------------------------------------------------------------------------

    def seat(self, seat: int) -> str:
        """A seat in words: its person's name while the table's people are named."""
        return self.game.seat_name(seat)

    def side(self, label: str) -> str:
        """A scoring side, by its key in the totals ("0"), in words: "Ann & Cy", "Bob"."""
        try:
            return self.game.entity_name(int(label))
        except ValueError:
            return label

    def player_of(self, seat: int, obs: Observation) -> int:
        """The seat whose person chooses for ``seat``: a dummy's declarer (or owner), else
        the seat itself."""
        if seat in self.game.player_seats:
            return seat
        info = obs.info
        owners = {dummy: owner for owner, dummy in by_seat(info.get("partners")).items()}
        if seat in owners:
            return int(owners[seat])
        declarer = _seat_or_none(info.get("declarer"))
        return seat if declarer is None else declarer

    def holding(self, seat: int, obs: Observation) -> str:
        """A dummy's cards as the sentence about its player names them: "the dummy"."""
        return "the dummy"

    # --- bids -------------------------------------------------------------------------------

    def bid(self, tricks: int) -> str:
        """A bid of ``tricks`` in the game's own word: "4", "nil", "zero"."""
        return str(tricks)

    def bid_label(self, tricks: int) -> str:
        """The same on a button: "4", "Nil"."""
        word = self.bid(tricks)
        return word[:1].upper() + word[1:]

    # --- decisions --------------------------------------------------------------------------

    RULES: ClassVar[dict[str, str]] = {
        "rebid": "You may change your bid until the next player has bid.",
        "renege": "Call a renege on a trick: a right call moves 3 books to your side, a wrong "
                  "one 3 to the other side.",
    }
    """The rule of each decision, in a line, by verb; games add and change them."""

    def rule(self, verb: str, obs: Observation) -> str | None:
        """The rule of a decision in a line: what the choice means and what it is worth."""
        return self.RULES.get(verb)

    VERBS: ClassVar[dict[str, str]] = {
        "give": "Pass", "discard": "Put out of play", "exchange": "Throw back",
        "peek": "Peek at", "flip": "Flip",
    }
    """The button that makes a choice of cards or positions, by verb."""

    def label(self, action: Action, obs: Observation) -> str | None:
        """The words on the button of ``action``; None where the action needs none (a card
        played by tapping it) or is put together from parts (a bid with nils)."""
        if isinstance(action, Bid):
            if action.nils:
                return None
            if action.blind:
                return f"Blind {self.bid(0)}"
            if action.mode:
                return f"{action.tricks} {self.mode(action.mode)}"
            return self.bid_label(action.tricks)
        if isinstance(action, Rebid):
            return f"Change to {self.bid(action.tricks)}"
        if isinstance(action, Trump):
            return suit_words("SHDC"[action.suit])
        if isinstance(action, Direction):
            return "Low cards win" if action.low else "High cards win"
        if isinstance(action, Renege):
            return f"trick {action.trick}"
        if isinstance(action, Play):
            return self.play_label(action, obs)
        return self.PLAIN_LABELS.get(action.verb)

    PLAIN_LABELS: ClassVar[dict[str, str]] = {
        "pass": "Pass", "keep": "Keep my hand", "swap": "Swap it",
    }
    """The words on the button of an action without arguments, by verb."""

    def play_label(self, action: Play, obs: Observation) -> str | None:
        """A card that may be played more than one way (an ace called high or low): the
        words of each way; None for a card played the one way."""
        ways = [a for a in obs.legal if isinstance(a, Play) and a.card == action.card]
        if len(ways) < 2:
            return None
        return "ace low (below the 2)" if action.ace_low else "ace high"

    def question(self, card: Card) -> str:
        """The question over the ways a card may be played."""
        return f"Play {card_words(card)} as:"

    def mode(self, mode: str) -> str:
        """A way a hand is played, named in a bid or contract ("notrump" -> "no trump")."""
        return mode

    DOING: ClassVar[tuple[tuple[str, str], ...]] = (
        ("play", "to play"), ("bid", "to bid"), ("give", "to pass cards"),
        ("discard", "to put cards out of play"), ("exchange", "to throw back a card"),
        ("peek", "to peek"), ("flip", "to flip"), ("trump", "to name trumps"),
        ("direction", "to choose high or low"), ("keep", "to keep or swap"),
        ("swap", "to keep or swap"), ("pass", "to bid"),
    )
    """What a seat is to do, by the verbs of its choices, first match first."""

    PHASE_DOING: ClassVar[dict[str, str]] = {
        "reveal": "to decide", "bidding": "to bid", "exchange": "to pass cards",
        "declare": "to name trumps", "play": "to play", "deal": "to deal",
    }

    def doing(self, obs: Observation) -> str:
        """What the seat to act is to do ("to bid"): from its choices where the observer
        makes them, else from the phase."""
        verbs = {a.verb for a in obs.legal if a.seat == obs.to_act}
        for verb, words in self.DOING:
            if verb in verbs:
                return words
        return self.phase_doing(obs)

    def phase_doing(self, obs: Observation) -> str:
        return self.PHASE_DOING.get(obs.phase.value, "to play")

    def turn_line(self, obs: Observation) -> str | None:
        """Who is to act and how, as a sentence for the others: "Ann plays from the
        dummy.", "Waiting for Bob to bid."; None when nobody is."""
        seat = obs.to_act
        if seat < 0:
            return None
        player = self.player_of(seat, obs)
        if player != seat:
            if obs.phase.value == "play":
                return f"{self.seat(player)} plays from {self.holding(seat, obs)}."
            holding = self.holding(seat, obs)
            return f"Waiting for {self.seat(player)} {self.doing(obs)} for {holding}."
        return f"Waiting for {self.seat(seat)} {self.doing(obs)}."

    # --- the table --------------------------------------------------------------------------

    def seat_line(self, seat: int, obs: Observation) -> str:
        """The line under a seat's name, before its tricks: its bid, contract or part."""
        bids = obs.info.get("bids")
        if isinstance(bids, Sequence) and not isinstance(bids, str) and seat < len(bids):
            bid = bids[seat]
            if type(bid) is int:
                return f"bid {self.bid(bid)}"
        return ""

    def facts(self, obs: Observation) -> list[str]:
        """The hand's facts worth a glance, each a few words: trumps, who declared, bags."""
        return []

    def middle(self, obs: Observation) -> str | None:
        """Words for the middle of the table while no card lies there (3B's extra card)."""
        return None

    def trumps(self, obs: Observation) -> str | None:
        """The trump suit's letter, for laying out a hand (None: no trumps)."""
        return "S"

    def low_cards_win(self, obs: Observation) -> bool:
        return False

    def bags(self, obs: Observation) -> str | None:
        """The bags of each side: "bags: Ann & Cy 2, Bob & Dee 0"."""
        bags = obs.info.get("bags")
        if not isinstance(bags, Mapping) or not bags:
            return None
        return "bags: " + ", ".join(f"{self.side(str(k))} {n}" for k, n in bags.items())

    # --- why a card may not be played ------------------------------------------------------

    WHY_NOT: ClassVar[dict[str, str]] = {
        "follow suit": "Follow suit: you hold a card of the suit led.",
        "spades not broken": "Spades may not be led until one has been played on another "
                             "suit, unless you hold only spades.",
        "joker lead": "A joker is led, or played after a joker lead, only when you hold "
                      "nothing else.",
        "joker must be thrown": "Void in the suit led for the first time while holding a "
                                "joker: the joker must be thrown.",
    }
    """A card's refusal in a sentence, by the engine's rule (``IllegalAction.rule``)."""

    def why_not(self, rule: str) -> str:
        """Why a card of the hand to play may not be played now, in a sentence."""
        return self.WHY_NOT.get(rule, "Not a card you may play now.")

    def not_this_hand(self, playing: int) -> str:
        """Why the reader's own cards are not played now: they play from ``playing``'s."""
        return f"You play from {self.seat(playing)}'s hand now."

    # --- what a stand-in did ----------------------------------------------------------------

    def done(self, action: Action, obs: Observation) -> str:
        """A choice made from ``obs``, as a phrase after "played for you:": "bid 4", "bid
        blind nil", "7♠", "chose Pass"."""
        if isinstance(action, Play):
            return cards_short(card_str(action.card))
        if isinstance(action, Bid) and not action.nils:
            mode = f" {self.mode(action.mode)}" if action.mode else ""
            return f"bid {'blind ' if action.blind else ''}{self.bid(action.tricks)}{mode}"
        label = self.label(action, obs)
        return f"chose {label}" if label else f"chose {action.verb} {action.args()}".strip()

    @staticmethod
    def stood_in(bot: str, done: Sequence[str]) -> str:
        """What a stand-in did for a person away (``done``: its phrases), told when they
        come back: "While you were away, Casual bot played for you: bid 3, 7♠, Q♥." """
        return f"While you were away, {bot} played for you: {', '.join(done)}."

    # --- all of it, for a view --------------------------------------------------------------

    def for_view(self, obs: Observation) -> dict[str, Any]:
        """Everything above that the observer's screen shows now, as JSON: the rules and
        button words of its own choices, every seat's line, the facts, the turn."""
        mine = [a for a in obs.legal if a.verb != "deal"]
        rules: dict[str, str] = {}
        for a in mine:
            if a.verb not in rules and (text := self.rule(a.verb, obs)):
                rules[a.verb] = text
        labels: dict[str, str] = {}
        questions: dict[str, str] = {}
        bids: dict[str, str] = {}
        for a in mine:
            if (text := self.label(a, obs)) is not None:
                labels[str(a)] = text
            if isinstance(a, Play) and str(a) in labels:
                questions[card_str(a.card)] = self.question(a.card)
            if isinstance(a, Bid | Rebid):
                bids[str(a.tricks)] = self.bid_label(a.tricks)
        seats = {str(s): self.seat_line(s, obs) for s in range(len(obs.hand_sizes))}
        seat = obs.to_act
        turn = None
        if seat >= 0:
            turn = {"seat": seat, "player": self.player_of(seat, obs),
                    "doing": self.doing(obs), "line": self.turn_line(obs)}
        return {
            "rules": rules, "labels": labels, "questions": questions, "bids": bids,
            "verbs": {verb: text for verb, text in self.VERBS.items()
                      if any(a.verb == verb for a in mine)},
            "seats": seats, "facts": self.facts(obs), "middle": self.middle(obs),
            "turn": turn, "trumps": self.trumps(obs), "low": self.low_cards_win(obs),
        }


def table_words(game: Game) -> TableWords:
    """The words of ``game``'s table: its module's ``TableWords``, or the plain ones."""
    return TableWords._by_game.get(game.name, TableWords)(game)
