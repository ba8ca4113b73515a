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

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..bots import make_bot
from ..engine.actions import Action, Bid, Discard, Flip, Give, Peek, parse_action
from ..engine.cards import (
    JOKERS,
    SUIT_SYMBOLS,
    Card,
    CardSet,
    card_str,
    parse_card,
    sorted_for_display,
)
from ..engine.errors import IllegalAction, NotationError, TricktableError
from ..engine.game import Game, summarize_actions
from ..engine.observation import Observation
from ..engine.records import Record
from ..engine.state import Phase
from .table import Agent, Table, resume, session_info

HUMAN = "human"


class QuitGame(Exception):
    """The person asked to leave (``quit``, end of input or Ctrl-C)."""


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


def interpret(text: str, legal: Sequence[Action]) -> Reading:
    """Match typed text to one of the legal actions (see the module docstring)."""
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
                             f"'bid 4 nil={seats[0]}' (nil on your own hand)")
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
    ) -> None:
        self.game = game
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
        facts = info_facts(obs.info)
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
                f"{self.seat_label(s)} {w}" for s, w in enumerate(obs.won) if obs.hand_sizes[s] or w
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
        while True:
            try:
                text = self.read(f"{prompt} ({escape(_brief(legal))})> ")
            except (EOFError, KeyboardInterrupt):
                raise QuitGame from None
            word = text.strip().lower()
            if not word:
                if optional:
                    return None
                c.print("Type a choice, or [bold]help[/].")
                continue
            command = word.split()[0]
            if command in ("help", "?"):
                self.show_help(legal)
                continue
            if command in ("quit", "exit"):
                raise QuitGame
            if command == "save":
                self.do_save(text.strip().split(maxsplit=1)[1:])
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
            reading = interpret(text, legal)
            if reading.action is not None:
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

    def show_help(self, legal: Sequence[Action]) -> None:
        c = self.console
        choices = [short(a) for a in legal]
        if len(choices) > 40:
            c.print("Legal now: " + escape(summarize_actions(legal)))
        else:
            c.print("Legal now: " + escape(", ".join(choices)))
        c.print(
            "Type a choice as shown (the short forms work too: a card while playing, a "
            "number while bidding, 'nil'), or: help, show (the table again), save [FILE], quit;"
            " while playing, claim (every trick left) or claim N."
        )

    def pause(self, prompt: str) -> None:
        """Wait for Enter between hands; save and quit work here too."""
        while True:
            try:
                text = self.read(prompt)
            except (EOFError, KeyboardInterrupt):
                raise QuitGame from None
            word = text.strip().lower()
            if not word:
                return
            if word in ("quit", "exit"):
                raise QuitGame
            if word.split()[0] == "save":
                self.do_save(text.strip().split(maxsplit=1)[1:])
                continue
            self.console.print("Press Enter to go on, or type save [FILE] or quit.")


_FACT_KEYS = (
    "declarer", "contract", "trump", "direction", "need", "multiplier", "zero_value",
    "high_bidder", "sitting_out", "may_rebid", "bags", "spades_broken", "set", "limit",
    "low_ball", "gaccing", "gave", "received", "thrown_back", "discards", "peeked",
    "flipped", "nils", "blind_nil",
)


def info_facts(info: Mapping[str, Any]) -> list[str]:
    """The game's public facts worth a glance, as short "name: value" texts."""
    out = []
    for key in _FACT_KEYS:
        if key not in info:
            continue
        value = info[key]
        if value is None or value == () or value == {} or value is False or value == -1:
            continue
        if isinstance(value, Mapping):
            value = " ".join(f"{k}:{v}" for k, v in value.items())
        elif isinstance(value, tuple | list):
            value = ",".join(str(v) for v in value)
        text = f"{key.replace('_', ' ')}: {value}"
        if len(text) <= 60:
            out.append(text)
    return out


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


class TerminalGame:
    """A game played at the terminal: the table, the person and the bots."""

    def __init__(
        self,
        table: Table,
        setup: PlaySetup,
        console: Console,
        read: Callable[[str], str],
        save_path: Path | None = None,
    ) -> None:
        self.table = table
        self.setup = setup
        self.console = console
        self.save_path = save_path
        game = table.game
        self.person = TerminalPlayer(
            game, setup.seat, console, read, self.save, self.explain, self.judge_claim
        )
        table.agents[setup.seat] = self.person
        table.names[setup.seat] = "you"

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
        else:
            path = Path(f"tricktable-{self.table.game.name}-{self.table.seed}.json")
        self.record().save(path)
        self.save_path = path
        return path

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
        """Ask the solver whether the person's side takes the tricks claimed."""
        from ..search.claims import judge_claim  # the solver loads only when claiming

        if len(args) > 1 or (args and not args[0].isdigit()):
            return False, "claim takes a number of tricks: 'claim' (all that are left) or 'claim N'"
        verdict = judge_claim(self.table.state, self.person.seat, int(args[0]) if args else None)
        return verdict.proven, verdict.message

    def play_out_claim(self) -> None:
        """Play the rest of the hand along the solver's line (recorded as ordinary plays)."""
        from ..search.claims import play_out

        plays = play_out(self.table.state, self.person.seat)
        self.console.print("Played out: " + escape(", ".join(str(p) for p in plays)))

    def play(self) -> None:
        """Play to the end of the game, or until the person quits."""
        table, person, c = self.table, self.person, self.console
        game = table.game
        while not table.over:
            if table.between_hands:
                if table.state.finished_hands:
                    self.hand_summary()
                    person.pause("Press Enter for the next hand (or save / quit)> ")
                elif table.state.hand_number < 0:
                    c.print(f"[bold]{escape(game.title)}[/]: you are seat {person.seat}; "
                            f"seed {table.seed}.")
                table.deal()
                continue
            try:
                table.advance()
            except ClaimAccepted:
                self.play_out_claim()
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
        for label, score in result.scores.items():
            c.print(f"  {escape(person.entity_label(label))}: {score:+d} → {result.totals[label]}")
        facts = []
        shown = table.game.replay_notes  # the details the game names as worth showing
        for key, value in result.details.items():
            if (shown is not None and key not in shown) or value in (None, [], {}):
                continue
            if isinstance(value, Mapping):
                value = " ".join(f"{k}:{v}" for k, v in value.items())
            elif isinstance(value, list | tuple):
                value = ", ".join(str(v) for v in value)
            facts.append(f"{key.replace('_', ' ')}: {value}")
        if facts:
            c.print("  [dim]" + escape(" · ".join(facts)) + "[/]")
        for line in table.game.score_lines(state):
            c.print("  " + escape(line))

    def game_over(self) -> None:
        table, person, c = self.table, self.person, self.console
        state = table.state
        winner = state.winner
        c.rule("Game over")
        if winner is not None:
            label = table.game.entity_label(winner)
            c.print(f"[bold]{escape(person.entity_label(label))} won[/] "
                    f"({escape(person.entity_label(label))}: {state.totals[winner]}).")
        summary = table.game.game_summary(state)
        for key in ("tray_person", "owed", "wire_to_wire"):
            value = summary.get(key)
            if value in (None, False, {}):
                continue
            if key == "tray_person":
                c.print(f"Tray person: {escape(person.seat_label(int(value)))}.")
            elif key == "owed" and isinstance(value, Mapping):
                c.print(
                    f"{escape(person.entity_label(str(value['by'])))} owe "
                    f"{value['points']} points x stake = {value['amount']}."
                )
            elif key == "wire_to_wire":
                c.print("A wire-to-wire tray person.")


def new_game(
    game: Game,
    seat: int,
    bots: str,
    seed: int | str | None,
    console: Console,
    read: Callable[[str], str],
) -> TerminalGame:
    setup = seat_bots(game, seat, bots)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    agents: dict[int, Agent] = {s: make_bot(n, game, s, seed) for s, n in setup.bots.items()}
    agents[seat] = _Placeholder()
    names = {s: f"{n} (seat {s})" for s, n in setup.bots.items()}
    table = Table(game, agents, seed, names)
    return TerminalGame(table, setup, console, read)


def resumed_game(
    record: Record,
    path: Path,
    seat: int | None,
    bots: str | None,
    seed: int | str | None,
    console: Console,
    read: Callable[[str], str],
) -> TerminalGame:
    """Carry on a saved game: replay it, then play on with its seed (or ``seed``)."""
    info = session_info(record)
    chosen: dict[str, PlaySetup] = {}

    def make_agents(game: Game, info: dict[str, Any]) -> dict[int, Agent]:
        human = seat if seat is not None else int(info.get("human", game.player_seats[0]))
        saved = info.get("bots", {})
        if bots is not None:
            setup = seat_bots(game, human, bots)
        else:
            names = ",".join(
                str(saved.get(str(s), "rules")) for s in game.player_seats if s != human
            )
            setup = seat_bots(game, human, names or "rules")
        chosen["setup"] = setup
        seed_text = seed if seed is not None else info.get("seed", "")
        agents: dict[int, Agent] = {
            s: make_bot(n, game, s, f"{seed_text}/resumed") for s, n in setup.bots.items()
        }
        agents[human] = _Placeholder()
        return agents

    if seed is None and not isinstance(info.get("seed"), int | str):
        seed = random.SystemRandom().randrange(10**9)
    table = resume(record, make_agents, seed)
    tg = TerminalGame(table, chosen["setup"], console, read, save_path=path)
    console.print(
        f"Resumed {escape(str(path))}: hand {table.state.hand_number + 1}, "
        f"{table.state.finished_hands} hand(s) finished."
    )
    return tg


class _Placeholder:
    """Stands in for the person until the TerminalGame seats them."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the person's seat has no agent")

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        return None

