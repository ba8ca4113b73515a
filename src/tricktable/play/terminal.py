"""Play at the terminal: a person in one seat against bots.

Everything shown to the person is drawn from the observation of their seat (their hand,
the dummy when it may be seen, the bids and calls, the trick, the tricks won, the
scores) and from results every player learns when a hand is scored. The person types an
action in the record notation without the seat (``play 4H``, ``bid 4``, ``give 2C 3D 4S``)
or a short form where it is unambiguous (``4H`` while playing, ``4`` while bidding,
``nil``, ``4 nt``); ``help`` lists the legal choices, ``save [FILE]`` writes a record that
``tricktable play --resume FILE`` carries on, and ``quit`` leaves. Wrong input is
explained, with the rule and what is allowed, and asked again.
"""

from __future__ import annotations

import json
import random
import re
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..bots import DEFAULT_THINK, Bot, make_bot
from ..engine.actions import Action, Bid, Discard, Flip, Give, Peek, Play, parse_action
from ..engine.cards import (
    JOKERS,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    Card,
    CardSet,
    card_str,
    parse_card,
    sorted_for_display,
)
from ..engine.errors import IllegalAction, NotationError, RecordError, TricktableError
from ..engine.game import Game, step, summarize_actions
from ..engine.observation import Observation
from ..engine.records import Record, load_record, replay
from ..engine.state import Phase
from ..games.dummy_hand_spades import MIRROR_RULE, SUICIDE_RULE
from ..games.spades import VARIANT_RULES
from ..search import search_installed
from .display import decision_rules, shown, table_facts
from .table import SESSION_KEY, Agent, Table, resume, session_info

HUMAN = "human"

_WORTH = {
    "margin": "margin of this hand for your side (its score less the others' average)",
    "score": "score of this hand for your side",
}
"""How the hint names what montecarlo's values are (``montecarlo.OBJECTIVES``)."""
_LIKELY = ", drawn as likely as the others' bids and cards make them"
"""What the hint says of its deals when they are weighted (``search.worlds``)."""


def _game_at_stake(searcher: Any) -> str:
    """What a hint adds when the game is late: its values count the game too."""
    if searcher.stake is None:
        return ""
    return (f" The game is near its end, so each also counts your side's chance of winning "
            f"it, a win worth {searcher.stake.model.game_worth:.0f} points.")


class QuitGame(Exception):
    """The person asked to leave (``quit``, end of input, Ctrl-C or SIGTERM); the text
    says how, ``interrupted`` whether by a signal."""

    def __init__(self, how: str = "quit", interrupted: bool = False) -> None:
        super().__init__(how)
        self.interrupted = interrupted


class UndoRequested(Exception):
    """The person typed 'undo': the table takes back his last decision of the hand."""


class ClaimAccepted(Exception):
    """The person's claim is proven: the rest of the hand is played out by the solver."""


# --- cards and holdings --------------------------------------------------------------------

_SUIT_STYLE = ("bold", "bold red", "bold red", "bold")


def card_markup(c: Card) -> str:
    """A card with its suit symbol, coloured: red hearts and diamonds."""
    if c >= 52:
        return "[bold magenta]" + card_str(c) + "[/]"
    suit = c // 13
    rank = card_str(c)[0]
    return f"[{_SUIT_STYLE[suit]}]{rank}{SUIT_SYMBOLS[suit]}[/]"


def holding_markup(mask: CardSet) -> str:
    """A hand sorted by suit (jokers first, then spades, hearts, diamonds, clubs)."""
    groups: list[str] = []
    jokers = sorted_for_display(mask & JOKERS)
    if jokers:
        groups.append(" ".join(card_markup(c) for c in jokers))
    for suit in range(4):
        cards = [c for c in sorted_for_display(mask) if c < 52 and c // 13 == suit]
        if cards:
            ranks = " ".join(card_str(c)[0] for c in cards)
            groups.append(f"[{_SUIT_STYLE[suit]}]{SUIT_SYMBOLS[suit]}[/] {ranks}")
    return "   ".join(groups) if groups else "(no cards)"


# --- reading what the person types ---------------------------------------------------------

_WORDS = {
    "nt": "notrump", "no-trump": "notrump", "notrumps": "notrump", "no": "notrump",
    "up": "uptown", "down": "downtown",
    "spades": "S", "spade": "S", "hearts": "H", "heart": "H",
    "diamonds": "D", "diamond": "D", "clubs": "C", "club": "C",
}
_VERBS = frozenset((
    "bid", "rebid", "pass", "play", "exchange", "discard", "give", "trump", "direction", "peek",
    "flip", "keep", "swap", "renege",
))
_PHRASES = {"nil": "bid 0", "zero": "bid 0", "blind nil": "bid 0 blind", "blind": "bid 0 blind"}


def canonical(action: Action) -> tuple[Any, ...]:
    """A key under which two spellings of one choice are equal: the cards of a give or a
    discard, the positions of a peek or a flip and the seats of nil declarations may be
    written in any order."""
    if isinstance(action, Give | Discard):
        return (type(action), action.seat, frozenset(action.cards))
    if isinstance(action, Peek | Flip):
        return (type(action), action.seat, frozenset(action.positions))
    if isinstance(action, Bid):
        return (Bid, action.seat, action.tricks, frozenset(action.nils), action.mode, action.blind)
    return (action,)


@dataclass
class Reading:
    """What a line of input meant: one legal action, or why not."""

    action: Action | None
    problem: str = ""
    candidates: tuple[Action, ...] = ()  # parsed but not legal: for the rules' explanation


_NIL_SELF = ("me", "mine", "self", "own")
_NIL_DUMMY = ("dummy",)


def nil_short_forms(text: str, me: int, dummy: int | None) -> str:
    """``nil=me,dummy`` written with seat numbers: ``me`` is the person's own hand,
    ``dummy`` the dummy's (Dummy Hand Spades' nil declarations)."""
    def seats(match: re.Match[str]) -> str:
        out = []
        for word in match.group(1).split(","):
            w = word.strip().lower()
            if w in _NIL_SELF:
                out.append(str(me))
            elif w in _NIL_DUMMY and dummy is not None:
                out.append(str(dummy))
            else:
                out.append(word)
        return "nil=" + ",".join(out)

    return re.sub(r"nil=([^\s]*)", seats, text, flags=re.IGNORECASE)


def interpret(text: str, legal: Sequence[Action], me: int | None = None,
              dummy: int | None = None) -> Reading:
    """Match typed text to one of the legal actions (see the module docstring). ``me``
    and ``dummy`` are the seats meant by ``nil=me,dummy``."""
    if me is not None and "nil=" in text.lower():
        text = nil_short_forms(text, me, dummy)
    words = text.strip().split()
    if not words:
        return Reading(None, "type a choice, or 'help'")
    line = " ".join(words).lower()
    seats = sorted({a.seat for a in legal})
    verbs = []
    for a in legal:
        if a.verb not in verbs:
            verbs.append(a.verb)
    if line in _PHRASES and any(isinstance(a, Bid) and a.nils for a in legal):
        # Dummy Hand Spades: a bid is a team bid, and nil is declared on hands with it
        return Reading(None, "here a bid is a team bid and nil is declared with it, e.g. "
                             f"'bid 4 nil=me' or 'bid 4 nil={seats[0]}' (nil on your own hand),"
                             " 'bid 7 nil=me,dummy'")
    line = _PHRASES.get(line, line)
    words = [_WORDS.get(w, w) for w in line.split()]
    line = " ".join(words)
    if words[0] in _VERBS and words[0] not in verbs:
        return Reading(None, f"'{words[0]}' is not a choice now; the choices are: "
                             + _brief(legal))
    if ":" not in line and words[0] not in _VERBS and not _argument_like(words[0]):
        return Reading(None, f"{text.strip()!r} is not a choice here; the choices are: "
                             + _brief(legal))
    texts: list[str] = []
    if ":" in line:
        texts.append(line)
    else:
        for seat in seats:
            texts.append(f"{seat}: {line}")
            texts += [f"{seat}: {verb} {line}" for verb in verbs if words[0] != verb]
    keys = {canonical(a): a for a in legal}
    matches: list[Action] = []
    parsed: list[Action] = []
    errors: list[str] = []
    for candidate in texts:
        try:
            action = parse_action(candidate)
        except NotationError as e:
            errors.append(str(e))
            continue
        found = keys.get(canonical(action))
        if found is not None:
            if found not in matches:
                matches.append(found)
        else:
            parsed.append(action)
    if len(matches) == 1:
        return Reading(matches[0])
    if matches:
        options = ", ".join(short(a) for a in matches)
        return Reading(None, f"{text.strip()!r} could mean {options}: type it in full")
    # a prefix of legal choices ("bid 4" in whist): say which were meant
    starts = [line + " "] + [f"{verb} {line} " for verb in verbs]
    prefix = [a for a in legal if short(a).startswith(tuple(starts))]
    if prefix:
        shown = ", ".join(short(a) for a in prefix[:8])
        more = f" ... ({len(prefix)} choices)" if len(prefix) > 8 else ""
        return Reading(None, f"say which: {shown}{more}")
    if parsed:
        return Reading(None, "", tuple(parsed))
    # The most telling complaint: about the words typed after the verb they must go with
    # ("'xyz' is not a card") rather than "unknown verb".
    telling = [e for e in errors if not e.startswith("unknown verb")]
    if telling:
        return Reading(None, telling[-1])
    return Reading(None, f"{text.strip()!r} is not a choice here")


def _argument_like(word: str) -> bool:
    """Whether a word could start a short form: a card, a number, a suit or a direction."""
    if word.isdigit() or word.upper() in ("S", "H", "D", "C") or word in ("high", "low"):
        return True
    try:
        parse_card(word)
    except ValueError:
        return False
    return True


def _low_aces(history: Sequence[str]) -> set[Card]:
    """Aces called low in this hand (3B), from the record notation 'play AH low'."""
    return {parse_card(t.split()[-2]) for t in history if t.endswith(" low") and ": play " in t}


def _brief(legal: Sequence[Action]) -> str:
    text = summarize_actions(legal)
    return text if len(text) <= 60 else text[:57] + "..."


def short(action: Action) -> str:
    """An action as the person types it: its notation without the seat."""
    return str(action).split(": ", 1)[1]


# --- the person at the terminal ------------------------------------------------------------


class TerminalPlayer:
    """The agent for the person's seat: shows the table and asks for each choice."""

    def __init__(
        self,
        game: Game,
        seat: int,
        console: Console,
        read: Callable[[str], str],
        save: Callable[[str | None], Path],
        explain: Callable[[Action, Sequence[Action]], str],
        claim: Callable[[list[str]], tuple[bool, str]] | None = None,
        checkpoint: Callable[[], None] | None = None,
        think: float | None = DEFAULT_THINK,
    ) -> None:
        self.game = game
        self.think = think  # the hint's search bot thinks this long (see Bot.think)
        # called before every question: the game is saved before the person is asked
        self.checkpoint: Callable[[], None] = checkpoint or (lambda: None)
        self.seat = seat
        self.console = console
        self.read = read
        self.save = save
        self.explain = explain
        self.claim = claim
        self.hand_seen = -1
        self.history_seen = 0
        self.tricks_seen = 0

    # --- labels ---------------------------------------------------------------------------

    def seat_label(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        if seat not in self.game.player_seats:
            return f"dummy {seat}"
        return f"seat {seat}"

    def entity_label(self, label: str) -> str:
        game = self.game
        if game.partnership:
            team = int(label)
            mine = " (you)" if self.seat % 2 == team else ""
            return f"team {label} (seats {team}+{team + 2}){mine}"
        return "you" if label == str(self.seat) else f"seat {label}"

    # --- what happened since the person last looked ---------------------------------------

    def show_news(self, obs: Observation) -> None:
        c = self.console
        if obs.hand_number != self.hand_seen:
            self.hand_seen = obs.hand_number
            self.history_seen = 0
            self.tricks_seen = 0
            c.rule(f"Hand {obs.hand_number + 1} — seat {obs.dealer} deals")
        for text in obs.history[self.history_seen :]:
            seat_text, _, rest = text.partition(": ")
            if rest.startswith("play "):
                continue  # plays are shown trick by trick
            who = self.seat_label(int(seat_text)) if seat_text.lstrip("-").isdigit() else seat_text
            c.print(f"  {escape(who)}: {escape(rest)}")
        self.history_seen = len(obs.history)
        for number, trick in enumerate(obs.tricks[self.tricks_seen :], self.tricks_seen + 1):
            seated = enumerate(zip(trick.seats, trick.cards, strict=True))
            plays = " · ".join(
                f"{self.seat_label(s)} {card_markup(x)}{' low' if trick.low_aces >> i & 1 else ''}"
                for i, (s, x) in seated
            )
            winner = self.seat_label(trick.winner)
            verb = "win" if trick.winner == self.seat else "wins"
            c.print(f"  Trick {number}: {plays} → [bold]{winner}[/] {verb}")
        self.tricks_seen = len(obs.tricks)

    # --- the table ------------------------------------------------------------------------

    def show_table(self, obs: Observation) -> None:
        c = self.console
        scores = " · ".join(
            f"{self.entity_label(k)} {v}" for k, v in obs.totals.items()
        )
        c.print(f"[bold]Scores[/]: {scores}")
        bids = [
            f"{self.seat_label(int(t.split(':')[0]))}: {escape(t.split(': ', 1)[1])}"
            for t in obs.history
            if t.split(": ", 1)[-1].split()[0] not in ("play",)
        ]
        if bids:
            c.print("[bold]Bids and calls[/]: " + " · ".join(bids))
        facts = table_facts(self.game, obs)  # the game's words, as the browser shows them
        if facts:
            c.print("[dim]" + escape(" · ".join(facts)) + "[/]")
        for s, cards in enumerate(obs.visible):
            if s == self.seat or not cards:
                continue
            name = self.game.seat_name(s)
            if cards.bit_count() < obs.hand_sizes[s]:
                name += f", {cards.bit_count()} of {obs.hand_sizes[s]} cards seen"
            c.print(f"[bold]{escape(name)}[/]: {holding_markup(cards)}")
        if obs.phase is Phase.PLAY:
            won = " · ".join(
                f"{self.seat_label(s)} {obs.won[s]}" for s in self.playing_seats(obs)
            )
            c.print(f"[bold]Tricks won[/]: {won}")
            if obs.trick:
                low = _low_aces(obs.history)
                plays = " · ".join(
                    f"{self.seat_label(s)} {card_markup(x)}" + (" low" if x in low else "")
                    for s, x in obs.trick
                )
                c.print(f"[bold]Trick {len(obs.tricks) + 1}[/]: {plays}")
        c.print(f"[bold]Your hand[/]: {holding_markup(obs.hand)}")

    def playing_seats(self, obs: Observation) -> list[int]:
        """The seats that take part in this hand's play, whether or not they won a trick
        (a 3B player sitting out holds no cards and takes none)."""
        return [s for s in range(len(obs.won)) if obs.hand_sizes[s] or obs.won[s]
                or any(s in t.seats for t in obs.tricks) or any(s == p for p, _ in obs.trick)]

    # --- asking ---------------------------------------------------------------------------

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        self.show_news(obs)
        self.show_table(obs)
        actor = legal[0].seat
        who = "" if actor == self.seat else f" for {self.game.seat_name(actor)}"
        what = {"play": "Your card", "bid": "Your bid"}.get(legal[0].verb, "Your choice")
        action = self.ask(f"{what}{who}", obs, legal, optional=False)
        assert action is not None
        return action

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        self.show_news(obs)
        self.console.print(
            f"You may now, out of turn: {escape(summarize_actions(legal))}"
        )
        return self.ask("Your choice (Enter to let it pass)", obs, legal, optional=True)

    def ask(
        self, prompt: str, obs: Observation, legal: Sequence[Action], optional: bool
    ) -> Action | None:
        c = self.console
        warned: Action | None = None
        while True:
            self.checkpoint()
            try:
                text = self.read(f"{prompt} ({escape(_brief(legal))})> ")
            except EOFError:
                raise QuitGame("end of input") from None
            except KeyboardInterrupt:
                raise QuitGame("interrupted", interrupted=True) from None
            word = text.strip().lower()
            if not word:
                if optional:
                    return None
                c.print("Type a choice, or [bold]help[/].")
                continue
            command = word.split()[0]
            if command in ("help", "?"):
                self.show_help(obs, legal)
                continue
            if command in ("quit", "exit"):
                raise QuitGame
            if command == "save":
                self.do_save(text.strip().split(maxsplit=1)[1:])
                continue
            if command == "undo":
                raise UndoRequested
            if command == "hint":
                self.show_hint(obs, legal, optional)
                continue
            if command in ("show", "table", "look"):
                self.show_table(obs)
                continue
            if command == "claim" and self.claim is not None and legal[0].verb == "play":
                accepted, message = self.claim(word.split()[1:])
                c.print(escape(message))
                if accepted:
                    raise ClaimAccepted
                continue
            reading = interpret(text, legal, self.seat, self.dummy_seat())
            if reading.action is not None:
                if self.is_renege(obs, reading.action) and warned != reading.action:
                    warned = reading.action
                    c.print("[yellow]Careful[/]: you hold the suit led, so that card is a "
                            "renege, and the other side may call it (3 books). Type it again "
                            "to play it anyway.")
                    continue
                return reading.action
            if reading.candidates:
                why = self.explain(reading.candidates[0], legal)
                c.print(f"[red]No[/]: {escape(why)}")
            else:
                c.print(f"[red]No[/]: {escape(reading.problem)}")
            c.print("Type [bold]help[/] for the legal choices.")

    def do_save(self, args: list[str]) -> None:
        try:
            path = self.save(args[0] if args else None)
        except (OSError, TricktableError) as e:
            self.console.print(f"[red]Could not save[/]: {escape(str(e))}")
            return
        self.console.print(f"Saved to {escape(str(path))}; continue it with "
                           f"'tricktable play --resume {escape(str(path))}'.")

    def is_renege(self, obs: Observation, action: Action) -> bool:
        """In honour mode: a card off the suit led while its player holds that suit."""
        if not (isinstance(action, Play) and getattr(self.game.options, "honour", False)):
            return False
        if not obs.trick or obs.trick[0][1] >= 52 or action.card >= 52:
            return False
        suit = obs.trick[0][1] // 13
        holding = obs.hand if action.seat == self.seat else obs.visible[action.seat]
        return action.card // 13 != suit and bool(holding & SUIT_MASKS[suit])

    def dummy_seat(self) -> int | None:
        """The dummy the person's nil declarations can name (Dummy Hand Spades)."""
        dummies = [s for s in range(self.game.num_seats) if s not in self.game.player_seats]
        return dummies[0] if len(dummies) == 1 else None

    def show_help(self, obs: Observation, legal: Sequence[Action]) -> None:
        c = self.console
        choices = [short(a) for a in legal]
        if len(choices) > 40:
            c.print("Legal now: " + escape(summarize_actions(legal)))
        else:
            c.print("Legal now: " + escape(", ".join(choices)))
        for line in decision_rules(self.game, obs):
            c.print("  " + escape(line))  # the game's rule of each decision, as in the browser
        for line in move_explanations(self.game, legal, self.seat, self.dummy_seat()):
            c.print("  " + escape(line))  # how to type the special moves
        c.print(
            "Type a choice as shown (the short forms work too: a card while playing, a "
            "number while bidding, 'nil'), or: help, hint, show (the table again), undo (take back "
            "your last decision of this hand), save [FILE], quit; while playing, claim (every "
            "trick left) or claim N."
        )

    def show_hint(self, obs: Observation, legal: Sequence[Action], optional: bool) -> None:
        """What a bot would do in the person's place, from the person's own observation (a
        bot made for the hint: it sees nothing the person does not): for a card, the
        montecarlo bot with each card's mean worth; otherwise the rules bot."""
        seed = f"hint/{obs.hand_number}/{len(obs.history)}"
        if not optional and len(legal) > 1 and all(a.verb == "play" for a in legal):
            # a card to play: the search bot, with what each card is worth on average
            from ..search.montecarlo import MonteCarloBot

            searcher = MonteCarloBot(self.game, self.seat, seed)
            searcher.think = self.think
            choice = searcher.choose(obs, list(legal))
            if searcher.last_values:
                best = sorted(searcher.last_values.items(), key=lambda kv: -kv[1])[:6]
                values = ", ".join(f"{text.split(' ', 2)[-1]} {v:+.1f}" for text, v in best)
                self.console.print(
                    f"Hint: the montecarlo bot would {escape(_words(choice))} here. Mean "
                    f"{_WORTH[searcher.objective]} after each card, over "
                    f"{searcher.last_worlds} deals of the cards you cannot see"
                    f"{_LIKELY if searcher.weigh_bids else ''}: {escape(values)}."
                    + _game_at_stake(searcher))
                return
        adviser = make_bot("rules", self.game, self.seat, seed)
        if optional:
            advice = adviser.offer(obs, list(legal))
            text = "let it pass" if advice is None else _words(advice)
        else:
            text = _words(adviser.choose(obs, list(legal)))
        self.console.print(f"Hint: the rules bot would {escape(text)} here.")

    def pause(self, prompt: str) -> None:
        """Wait for Enter between hands; save and quit work here too."""
        self.checkpoint()
        while True:
            try:
                text = self.read(prompt)
            except EOFError:
                raise QuitGame("end of input") from None
            except KeyboardInterrupt:
                raise QuitGame("interrupted", interrupted=True) from None
            word = text.strip().lower()
            if not word:
                return
            if word in ("quit", "exit"):
                raise QuitGame
            if word.split()[0] == "save":
                self.do_save(text.strip().split(maxsplit=1)[1:])
                continue
            self.console.print("Press Enter to go on, or type save [FILE] or quit.")


def move_explanations(game: Game, legal: Sequence[Action], me: int, dummy: int | None
                      ) -> list[str]:
    """What the special moves among ``legal`` mean, in a line each."""
    verbs = {a.verb for a in legal}
    lines = []
    if any(isinstance(a, Bid) and a.nils for a in legal) or (
        "bid" in verbs and dummy is not None and game.name == "dummy-hand-spades"
    ):
        lines.append(
            "A bid is your team's bid (13 tricks in all). Declare nil on hands with it: "
            "'bid 7 nil=me' (your own hand), 'nil=dummy' (the dummy's hand, seat "
            f"{dummy}), 'bid 7 nil=me,dummy'; a nil counts for whichever team that hand "
            "ends up in, +100 if it takes no trick, -100 if it does."
        )
    if "peek" in verbs:
        lines.append("peek P P P: look privately at the dummy's cards at those positions "
                     "(0 to 12, in the order dealt); everyone sees which positions you chose.")
    if "flip" in verbs:
        lines.append("flip P ...: turn the dummy's cards at those positions (0 to 12) face "
                     "up for everyone.")
    if "keep" in verbs or "swap" in verbs:
        lines.append("keep: play the hand you were dealt (each keeper doubles the hand's "
                     "score); swap: throw it in and take the other player's dummy's hand.")
    if "exchange" in verbs:
        lines.append("exchange C: the extra card has joined your hand; throw one card back "
                     "face down (it becomes the extra card).")
    if "discard" in verbs:
        lines.append("discard C C: with jokers the dummy has 15 cards; put 2 of them out of "
                     "play, face down (only you see which).")
    if "rebid" in verbs:
        lines.append("rebid N: change your bid, allowed until the next player has bid.")
    if "renege" in verbs:
        lines.append("renege T: call a renege on trick T; a right call moves 3 books to "
                     "your side, a wrong one 3 books to the other side (settled at scoring).")
    if "play" in verbs and getattr(game.options, "honour", False):
        lines.append("Honour mode: any card may be played, but an off-suit card while you "
                     "hold the suit led is a renege, and the other side may call it.")
    variant = getattr(game.options, "variant", "standard")
    rule = None
    if "bid" in verbs and game.name == "spades":
        rule = VARIANT_RULES.get(variant)
    elif "bid" in verbs and game.name == "dummy-hand-spades" and variant != "standard":
        rule = MIRROR_RULE if variant == "mirror" else SUICIDE_RULE
    if rule:
        lines.append(f"{rule[0].upper()}{rule[1:]}.")
    if any(isinstance(a, Bid) and a.blind for a in legal):
        lines.append("bid 0 blind: nil before looking at your cards (+200 or -200); "
                     "pass: look at your cards and bid as usual.")
    return lines


# --- a game at the terminal ---------------------------------------------------------------


@dataclass
class PlaySetup:
    """Who sits where: the person's seat and a bot name for every other real player."""

    seat: int
    bots: dict[int, str]


def seat_bots(game: Game, seat: int, bots: str) -> PlaySetup:
    """Parse ``--seat`` and ``--bots``: one bot name for everyone, or one per other real
    player in seat order (or per real player, the person's entry being 'human')."""
    seats = game.player_seats
    if seat not in seats:
        raise ValueError(
            f"seat {seat} has no player in {game.name}; the players' seats are "
            + ", ".join(map(str, seats))
        )
    names = [n.strip() for n in bots.split(",") if n.strip()] or ["rules"]
    others = [s for s in seats if s != seat]
    if len(names) == 1:
        chosen = {s: names[0] for s in others}
    elif len(names) == len(others):
        chosen = dict(zip(others, names, strict=True))
    elif len(names) == len(seats):
        chosen = {s: n for s, n in zip(seats, names, strict=True) if s != seat}
    else:
        raise ValueError(
            f"--bots takes one name, or one per other player ({len(others)}), "
            f"or one per player ({len(seats)}); got {len(names)}"
        )
    for s, name in chosen.items():
        if name == HUMAN:
            raise ValueError(f"only seat {seat} is played by a person; seat {s} needs a bot")
    return PlaySetup(seat, chosen)


def _is_bot_name(name: str) -> bool:
    """Whether a seat's name in a record is one tricktable gave it (a bot's "rules (seat
    1)", "you", "P2"), not a person's own name."""
    return name in ("", "you") or bool(
        re.fullmatch(r"P\d+|[a-z0-9_-]+(-\d+| \(seat \d+\))", name)
    )


class TerminalGame:
    """A game played at the terminal: the table, the person and the bots.

    With ``autosave`` the game is written to that file before the person is asked
    anything, after every hand and when the person leaves (quit, Ctrl-C, Ctrl-D, SIGTERM),
    so a killed terminal loses nothing that was shown: the bots' moves after the last
    save (never shown: the table is shown when the person is asked) are made again when
    the game is resumed, the same ones unless a search bot thinks against the clock
    (their streams depend on the position, see ``Bot.reseed``)."""

    def __init__(
        self,
        table: Table,
        setup: PlaySetup,
        console: Console,
        read: Callable[[str], str],
        save_path: Path | None = None,
        autosave: Path | None = None,
        think: float | None = DEFAULT_THINK,
    ) -> None:
        self.table = table
        self.setup = setup
        self.console = console
        self.save_path = save_path
        self.autosave = autosave
        self._saved_at: tuple[int, int] | None = None
        self.agreed: int | None = None
        """Without the solver: the tricks of a claim the bots agreed to (played out next)."""
        game = table.game
        self.person = TerminalPlayer(
            game, setup.seat, console, read, self.save, self.explain, self.judge_claim,
            checkpoint=self.checkpoint, think=think,
        )
        table.agents[setup.seat] = self.person
        # The person's seat is "you" unless it carries a person's own name (a resumed
        # game keeps the names it was saved with); a seat a bot takes over is the bot's.
        if _is_bot_name(table.names.get(setup.seat, "")):
            table.names[setup.seat] = "you"
        for s, bot in setup.bots.items():
            if _is_bot_name(table.names.get(s, "")):
                table.names[s] = f"{bot} (seat {s})"

    def session(self) -> dict[str, Any]:
        return {
            "human": self.setup.seat,
            "bots": {str(s): n for s, n in sorted(self.setup.bots.items())},
        }

    def record(self) -> Record:
        return self.table.record(self.session())

    def save(self, name: str | None) -> Path:
        if name:
            path = Path(name)
        elif self.save_path is not None:
            path = self.save_path
        elif self.autosave is not None:
            path = self.autosave
        else:
            path = Path(f"tricktable-{self.table.game.name}-{self.table.seed}.json")
        self.record().save(path)
        self.save_path = path
        return path

    def checkpoint(self) -> None:
        """Save to the autosave file if anything happened since the last save. A failed
        save is reported once and play goes on (the person can 'save FILE' elsewhere)."""
        if self.autosave is None:
            return
        state = self.table.state
        position = (state.hand_number, len(state.actions) + len(state.results) * 1000)
        if position == self._saved_at:
            return
        try:
            self.record().save(self.autosave)
        except TricktableError as e:
            self.console.print(f"[red]Could not save the game[/]: {shown(str(e))}; "
                               "autosave is off for this game.")
            self.autosave = None
            return
        self._saved_at = position

    def leave(self, how: str) -> None:
        """The person left (``how``: quit, end of input, interrupted, terminated): save
        and say where the game is."""
        c = self.console
        path = self.autosave or self.save_path
        if path is None or self.table.over:
            c.print("\nLeft the table." + ("" if self.table.over else
                    " (The game was not saved: --no-save.)"))
            return
        try:
            self.record().save(path)
        except TricktableError as e:
            c.print(f"\nLeft the table; the game could not be saved: {shown(str(e))}")
            return
        resume = "tricktable play --resume" + ("" if path == self.autosave else f" {path}")
        c.print(f"\nLeft the table ({how}); the game is saved in {shown(str(path))}. "
                f"Carry on with '{shown(resume)}'.")

    def explain(self, action: Action, legal: Sequence[Action]) -> str:
        """Why the rules refuse an action: the rule and its reason from the engine (checked
        on the table, which it leaves as it was), then what this player may do. The
        engine's own list of what is allowed is not shown: it is the list of the seat to
        act, which out of turn is somebody else's, cards and all."""
        try:
            self.table.game.check(self.table.state, action)
        except IllegalAction as e:
            return f"{e.detail} ({e.rule}); allowed: {summarize_actions(legal)}"
        return f"{short(action)} is not yours to choose now; allowed: {summarize_actions(legal)}"

    def judge_claim(self, args: list[str]) -> tuple[bool, str]:
        """Ask the solver whether the person's side takes the tricks claimed; without the
        solver (the search extra), the bots answer as at a table, agreeing only to a claim
        they see is sure (``search.agreed_claims``)."""
        if len(args) > 1 or (args and not args[0].isdigit()):
            return False, "claim takes a number of tricks: 'claim' (all that are left) or 'claim N'"
        tricks = int(args[0]) if args else None
        self.agreed = None
        if not search_installed():
            return self._bots_answer(tricks)
        from ..search.claims import judge_claim  # the solver loads only when claiming

        verdict = judge_claim(self.table.state, self.person.seat, tricks)
        return verdict.proven, verdict.message

    def _bots_answer(self, tricks: int | None) -> tuple[bool, str]:
        """The bots' answer to a claim where there is no solver: yes to a sure claim (a
        plain search of the tricks left), "play on" to any other."""
        from ..search.agreed_claims import claim_is_sure, claim_size

        state = self.table.state
        try:
            claimed, left = claim_size(state, tricks)
        except ValueError as e:
            return False, str(e)
        sure = claim_is_sure(state.copy(), self.person.seat, claimed)
        if sure:
            self.agreed = claimed
            return True, (f"claim accepted: the bots agree that your side takes {claimed} of "
                          f"the {left} tricks left whatever they play")
        if sure is None:
            return False, ("claim refused: the bots cannot see that it is sure this early "
                           "(without the solver they judge only the last few tricks); play on")
        return False, "claim refused: the others can still stop it; play on"

    def play_out_claim(self) -> None:
        """Play the rest of the hand along the solver's line, or without the solver along
        a line giving the tricks the bots agreed to (recorded as ordinary plays)."""
        if self.agreed is not None:
            from ..search.agreed_claims import line_giving

            state = self.table.state
            plays = line_giving(state, self.person.seat, self.agreed)
            for action in plays:
                step(state, action)
        else:
            from ..search.claims import play_out

            plays = play_out(self.table.state, self.person.seat)
        self.console.print("Played out: " + escape(", ".join(str(p) for p in plays)))

    def play(self) -> None:
        """Play to the end of the game, or until the person quits (QuitGame). SIGTERM
        leaves like Ctrl-C, so a terminal closed under the game still saves it."""
        previous = _on_sigterm()
        try:
            self._play()
        finally:
            _restore_sigterm(previous)

    def _play(self) -> None:
        table, person, c = self.table, self.person, self.console
        game = table.game
        if self.autosave is not None:
            c.print(f"Saving as you play to {shown(str(self.autosave))} (--no-save turns "
                    "this off).")
        while not table.over:
            if table.between_hands:
                if table.state.finished_hands:
                    self.hand_summary()
                    person.pause("Press Enter for the next hand (or save / quit)> ")
                elif table.state.hand_number < 0:
                    c.print(f"[bold]{escape(game.title)}[/]: you are seat {person.seat}; "
                            f"seed {shown(table.seed)}.")
                table.deal()
                continue
            try:
                table.advance()
            except ClaimAccepted:
                self.play_out_claim()
            except UndoRequested:
                taken = table.take_back(person.seat)
                if taken is None:
                    c.print("Nothing of yours to take back in this hand (undo works within "
                            "a hand, against bots).")
                else:
                    c.print(f"Took back {escape(str(taken))} and everything after it; the "
                            "game's record counts the undo.")
        self.checkpoint()
        self.hand_summary()
        self.game_over()

    def hand_summary(self) -> None:
        table, person, c = self.table, self.person, self.console
        state = table.state
        if not state.results:
            return
        person.show_news(table.observe(person.seat))
        result = state.results[-1]
        c.rule(f"Hand {state.finished_hands} is over")
        for line in result.lines:
            c.print("  " + escape(line))
        for label, score in result.scores.items():
            c.print(f"  [bold]{escape(person.entity_label(label))}[/]: {score:+d} → "
                    f"{result.totals[label]}")
        for line in table.game.score_lines(state):
            c.print("  " + escape(line))

    def game_over(self) -> None:
        table, person, c = self.table, self.person, self.console
        state = table.state
        game = table.game
        winner = state.winner
        c.rule("Game over")
        if winner is not None:
            label = game.entity_label(winner)
            c.print(f"[bold]{escape(person.entity_label(label))} won[/] "
                    f"({escape(person.entity_label(label))}: {state.totals[winner]}).")
        standings = sorted(range(len(state.totals)), key=lambda e: -state.totals[e])
        c.print("Final standings:")
        for place, entity in enumerate(standings, 1):
            label = game.entity_label(entity)
            name = "" if game.partnership else table.names.get(entity, "")
            who = person.entity_label(label) + (
                f" ({shown(name)})" if name and name != "you" else "")
            c.print(f"  {place}. {escape(who)}: {state.totals[entity]}")
        summary = game.game_summary(state)
        if "tray_person" in summary:
            tray = summary["tray_person"]
            if tray is None:
                c.print("No tray person: last place is shared.")
            else:
                c.print(f"Tray person: {escape(person.seat_label(int(tray)))}"
                        + (" (wire to wire: in the tray after every hand)."
                           if summary.get("wire_to_wire") else "."))
        owed = summary.get("owed")
        if isinstance(owed, Mapping):
            c.print(
                f"{escape(person.entity_label(str(owed['by'])))} owe "
                f"{owed['points']} points x stake = {owed['amount']}."
            )


def _on_sigterm() -> Any:
    """Make SIGTERM leave the table like Ctrl-C (in the main thread only)."""
    def leave(signum: int, frame: object) -> None:
        raise QuitGame("terminated", interrupted=True)

    try:
        return signal.signal(signal.SIGTERM, leave)
    except ValueError:  # not the main thread: leave the handler alone
        return None


def _restore_sigterm(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def autosave_path(directory: Path, game: Game, seed: int | str) -> Path:
    """A new file for a game's autosave: the game, the date and time, and the seed."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    safe_seed = re.sub(r"[^A-Za-z0-9_-]", "_", str(seed))[:40]
    return directory / f"{game.name}-{stamp}-{safe_seed}.json"


def new_game(
    game: Game,
    seat: int,
    bots: str,
    seed: int | str | None,
    console: Console,
    read: Callable[[str], str],
    autosave_dir: Path | None = None,
    think: float | None = DEFAULT_THINK,
) -> TerminalGame:
    setup = seat_bots(game, seat, bots)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    agents: dict[int, Agent] = {
        s: _shown_thinking(make_bot(n, game, s, seed, think), console)
        for s, n in setup.bots.items()
    }
    agents[seat] = _Placeholder()
    names = {s: f"{n} (seat {s})" for s, n in setup.bots.items()}
    table = Table(game, agents, seed, names)
    autosave = None
    if autosave_dir is not None:
        try:
            autosave_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise RecordError(f"cannot make {autosave_dir} to save the game in "
                              f"({e.strerror or e}); use --no-save to play without saving"
                              ) from None
        autosave = autosave_path(autosave_dir, game, seed)
    return TerminalGame(table, setup, console, read, autosave=autosave, think=think)


def session_from_record(record: Record) -> dict[str, Any]:
    """The record's session field, checked: ``human`` a seat number, ``bots`` a mapping
    of seat numbers to bot names, ``seed`` a number or a text. Raises RecordError naming
    the field and what it must be."""
    info = session_info(record)
    if SESSION_KEY in record.extra and not isinstance(record.extra[SESSION_KEY], dict):
        raise RecordError("the record's 'session' field must be an object")
    human = info.get("human")
    if "human" in info and (not isinstance(human, int) or isinstance(human, bool)):
        raise RecordError(f"session field 'human' must be a seat number, not {_json(human)}")
    bots = info.get("bots")
    if "bots" in info and not (
        isinstance(bots, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in bots.items())
    ):
        raise RecordError("session field 'bots' must map seat numbers to bot names, not "
                          + _json(bots))
    seed = info.get("seed")
    if "seed" in info and (not isinstance(seed, int | str) or isinstance(seed, bool)):
        raise RecordError(f"session field 'seed' must be a number or a text, not {_json(seed)}")
    return info


def _json(value: object) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def last_saved_game(directory: Path) -> Path | None:
    """The most recently saved game in ``directory`` that is not finished, if any."""
    try:
        files = sorted(directory.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for path in files[:50]:
        try:
            if not replay(load_record(path)).is_over:
                return path
        except (RecordError, OSError):
            continue
    return None


def describe_saved_game(path: Path) -> str:
    """One line on a saved game: which, how far, when."""
    try:
        state = replay(load_record(path))
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    except (RecordError, OSError) as e:
        return f"{path} ({e})"
    return (f"{state.game.title}, hand {state.hand_number + 1} "
            f"({state.finished_hands} finished), saved {when} in {path}")


def resumed_game(
    record: Record,
    path: Path,
    seat: int | None,
    bots: str | None,
    seed: int | str | None,
    console: Console,
    read: Callable[[str], str],
    autosave: bool = True,
    think: float | None = DEFAULT_THINK,
) -> TerminalGame:
    """Carry on a saved game: replay it, then play on with its seed (or ``seed``), saving
    back to the same file as it goes (unless not ``autosave``)."""
    info = session_from_record(record)
    chosen: dict[str, PlaySetup] = {}

    def make_agents(game: Game, info: dict[str, Any]) -> dict[int, Agent]:
        human = seat if seat is not None else info.get("human", game.player_seats[0])
        saved = info.get("bots", {})
        if bots is not None:
            setup = seat_bots(game, human, bots)
        else:
            names = ",".join(
                str(saved.get(str(s), "rules")) for s in game.player_seats if s != human
            )
            setup = seat_bots(game, human, names or "rules")
        chosen["setup"] = setup
        bot_seed = seed if seed is not None else info.get("seed", "")
        agents: dict[int, Agent] = {
            s: _shown_thinking(make_bot(n, game, s, bot_seed, think), console)
            for s, n in setup.bots.items()
        }
        agents[human] = _Placeholder()
        return agents

    if seed is None and not isinstance(info.get("seed"), int | str):
        seed = random.SystemRandom().randrange(10**9)
    table = resume(record, make_agents, seed)
    tg = TerminalGame(table, chosen["setup"], console, read, save_path=path,
                      autosave=path if autosave else None, think=think)
    console.print(
        f"Resumed {shown(str(path))}: hand {table.state.hand_number + 1}, "
        f"{table.state.finished_hands} hand(s) finished."
    )
    return tg


class _Thinking:
    """A search bot at the terminal: while it thinks (half a second a card by default,
    long enough to look like a hang) a passing line says who is thinking."""

    def __init__(self, bot: Bot, console: Console) -> None:
        self.bot = bot
        self.console = console

    def reseed(self, position: str) -> None:
        self.bot.reseed(position)

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        with self.console.status(f"seat {self.bot.seat} ({self.bot.name}) is thinking...",
                                 spinner="dots"):
            return self.bot.choose(obs, legal)

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        return self.bot.offer(obs, legal)


def _shown_thinking(bot: Bot, console: Console) -> Agent:
    """The bot as the terminal seats it: a search bot says when it is thinking."""
    return _Thinking(bot, console) if bot.searches else bot


class _Placeholder:
    """Stands in for the person until the TerminalGame seats them."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the person's seat has no agent")

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        return None



def _words(action: Action) -> str:
    """An action as the person types it, without the seat: 'play QS', 'bid 4'."""
    return str(action).split(": ", 1)[-1]
