"""A seeded table: draw the first dealer, deal each hand, ask each seat's agent for its
choice, and keep the record.

Agents (bots, or a person at the terminal) are asked only through ``choose(obs, legal)``
with the observation of the seat that makes the choice: a dummy's cards are chosen by
its declarer, who is asked with his own observation. Each hand's deal comes from its own
stream, ``deal_rng(seed, hand)``, so a game is reproducible from its seed, a saved game
resumed later deals the same cards it would have dealt, and the duplicate mode of
``simulate`` can replay the same deals with the bots in other seats.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from ..engine.actions import Action, Deal, parse_action
from ..engine.errors import IllegalAction, NotationError, RecordError
from ..engine.game import Game, step
from ..engine.observation import Observation
from ..engine.records import Record, record_from_state, replay
from ..engine.state import Phase, State

SESSION_KEY = "session"
"""The record field (beyond format v1, which readers ignore) that holds the table's seed
and who sat where, so that ``tricktable play --resume`` can carry on."""


class AgentError(RuntimeError):
    """A seat's agent chose an action the rules refuse now: a bug in a bot, not a player's
    mistake (a person's choices are checked as they are typed or clicked). Its text names
    the seat only; the engine's refusal, kept as ``__cause__``, names that seat's cards and
    is for whoever debugs the bot, not for the other players."""


class Agent(Protocol):
    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal``: the seat's choice when it is its turn."""
        ...

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """One of ``legal``, or None to let the chance pass: things the seat may do out of
        turn (3B's change of bid while the next player has not bid, a whist renege call)."""
        ...


DECLINED_KEY = "declined"
"""The session field listing the out-of-turn chances turned down in the current hand, so
that a resumed game does not offer them again."""
UNDOS_KEY = "undos"
"""The record's count of decisions taken back (a game with undos is marked as such)."""

# Phases read at every step, as module constants: a member read off the Enum class costs
# about 70 ns.
_GAME_OVER = Phase.GAME_OVER
_BETWEEN_HANDS = (Phase.DEAL, Phase.SCORING)


def deal_rng(seed: int | str, hand: int) -> random.Random:
    """The random stream of one hand's deal (hand 0 also draws the first dealer)."""
    return random.Random(f"{seed}/deal/{hand}")


class Table:
    """A game in progress: its state, the agent of every real player, and the seed.

    ``agents`` maps each seat in ``game.player_seats`` to whoever chooses for it (and for
    any dummy it controls). ``names`` are the players' names for the record.
    """

    def __init__(
        self,
        game: Game,
        agents: Mapping[int, Agent],
        seed: int | str,
        names: Mapping[int, str] | None = None,
        state: State | None = None,
        carried: Record | None = None,
    ) -> None:
        missing = [s for s in game.player_seats if s not in agents]
        if missing:
            raise ValueError(f"no agent for seat(s) {missing}")
        self.game = game
        self.agents = dict(agents)
        self.seed = seed
        self.names = dict(names) if names else {s: f"P{s}" for s in game.player_seats}
        self.state = state if state is not None else game.new_game()
        self.on_action: list[Callable[[Table, Action], None]] = []
        # Out-of-turn chances already turned down, by chooser and what was offered: the
        # same chance is not offered again at every step of the hand.
        self._declined: set[tuple[int, tuple[Action, ...]]] = set()
        # The record a resumed game came from: fields this version does not know, at the
        # top and in each hand, are written back when the game is saved.
        self.carried = carried
        # decisions taken back at the terminal; a record with undos says so
        self.undos = int(carried.extra.get(UNDOS_KEY, 0) or 0) if carried is not None else 0

    @property
    def over(self) -> bool:
        return self.state.phase is _GAME_OVER

    @property
    def between_hands(self) -> bool:
        return self.state.phase in _BETWEEN_HANDS

    def deal(self) -> Deal:
        """Deal the next hand from the seed."""
        state = self.state
        deal = self.game.random_deal(state, deal_rng(self.seed, state.hand_number + 1))
        step(state, deal)
        self._declined.clear()
        self._notify(deal)
        return deal

    def chooser(self) -> int:
        """The seat whose agent makes the next choice (a dummy's declarer for the dummy)."""
        return self.game.controller(self.state, self.state.to_act)

    def observe(self, seat: int) -> Observation:
        return self.game.observe(self.state, seat)

    def advance(self) -> Action | None:
        """Take the next step: a deal between hands, else the next agent's choice. Returns
        the action taken; None when the game is over."""
        if self.over:
            return None
        if self.between_hands:
            return self.deal()
        game, state = self.game, self.state
        chooser = self.chooser()
        if chooser not in self.agents:
            raise RuntimeError(
                f"no player chooses for seat {state.to_act} in the {state.phase.value} phase"
            )
        legal = game.legal_actions(state)
        # Actions of seats other than the one to act (calls out of turn) are offered to
        # their players first; each may take one or let it pass.
        mine: list[Action] = []
        others: dict[int, list[Action]] = {}
        if game.turns_only:
            mine = list(legal)  # all the seat to act's: no one else to offer anything
        else:
            to_act = state.to_act
            for a in legal:  # the seat to act's own actions (most of them) are the chooser's
                seat = chooser if a.seat == to_act else game.controller(state, a.seat)
                if seat == chooser:
                    mine.append(a)
                elif seat in self.agents:
                    others.setdefault(seat, []).append(a)
        for seat, offered in others.items():
            key = (seat, tuple(offered))
            if key in self._declined:
                continue
            obs = replace(game.observe(state, seat), legal=key[1])
            agent = self.agents[seat]
            self._reseed(agent, f"offer/{seat}")
            taken = agent.offer(obs, offered)
            if taken is None:
                self._declined.add(key)
                continue
            return self._take(taken, seat)
        obs = game.observe(state, chooser)
        if len(mine) != len(obs.legal):
            obs = replace(obs, legal=tuple(mine))
        agent = self.agents[chooser]
        self._reseed(agent, "choose")
        return self._take(agent.choose(obs, mine), chooser)

    def _reseed(self, agent: Agent, what: str) -> None:
        """Give a bot the stream of this decision (see ``Bot.reseed``)."""
        reseed = getattr(agent, "reseed", None)
        if reseed is not None:
            reseed(f"{self.state.hand_number}/{len(self.state.actions)}/{what}")

    def _take(self, action: Action, chooser: int) -> Action:
        try:
            step(self.state, action)
        except IllegalAction as e:
            raise AgentError(
                f"the player of seat {chooser} chose an action the rules refuse now (a bug "
                "in its bot); the game is as it was before that choice"
            ) from e
        self._notify(action)
        return action

    def play_hand(self) -> None:
        """Play until the current hand is scored (dealing it first if need be)."""
        if self.between_hands and not self.over:
            self.deal()
        while not self.over and not self.between_hands:
            self.advance()

    def run(self, max_hands: int | None = None) -> bool:
        """Play until the game is over, or ``max_hands`` hands are finished. Returns whether
        the game ended."""
        while not self.over:
            limit_reached = max_hands is not None and self.state.finished_hands >= max_hands
            if self.between_hands and limit_reached:
                return False
            self.advance()
        return True

    def _notify(self, action: Action) -> None:
        for listener in self.on_action:
            listener(self, action)

    # --- records ----------------------------------------------------------------------------

    def record(self, session: Mapping[str, Any] | None = None) -> Record:
        """Everything played so far, with the seed (and ``session``, e.g. who sat where) in
        the record's ``session`` field so that the game can be resumed."""
        record = record_from_state(self.state, self.names)
        if self.carried is not None:
            for key, value in self.carried.extra.items():
                record.extra.setdefault(key, value)
            for hand, old in zip(record.hands, self.carried.hands, strict=False):
                if hand.dealer == old.dealer and hand.deal == old.deal:
                    hand.extra.update(old.extra)
        info: dict[str, Any] = {"seed": self.seed}
        if session:
            info.update(session)
        declined = [
            [seat, [str(a) for a in offered]] for seat, offered in sorted(
                self._declined, key=lambda k: (k[0], [str(a) for a in k[1]])
            )
        ]
        if declined:
            info[DECLINED_KEY] = declined
        record.extra[SESSION_KEY] = info
        if self.undos:
            record.extra[UNDOS_KEY] = self.undos
        return record

    def take_back(self, seat: int) -> Action | None:
        """Undo: the hand goes back to just before the last decision ``seat`` made in it
        (for itself or a dummy it plays), and everything after; returns that decision, or
        None when it made none this hand. The bots choose again from the same positions,
        so they choose as before until the person chooses otherwise."""
        state, game = self.state, self.game
        if self.between_hands or self.over:
            return None
        actions = list(state.actions)
        mine = [i for i, a in enumerate(actions) if game.controller(state, a.seat) == seat]
        if not mine:
            return None
        at = mine[-1]
        record = self.record()
        record.hands[-1].actions = record.hands[-1].actions[:at]
        self.state = replay(record)
        self._declined.clear()
        self.undos += 1
        return actions[at]

    def restore_declined(self, info: Mapping[str, Any]) -> None:
        """Take back the chances turned down before the game was saved (from its session
        field); anything malformed is ignored, as it only makes a chance come again."""
        entries = info.get(DECLINED_KEY)
        if not isinstance(entries, list):
            return
        for entry in entries:
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)):
                continue
            seat, texts = entry
            if not isinstance(seat, int) or not all(isinstance(t, str) for t in texts):
                continue
            try:
                offered = tuple(parse_action(t) for t in texts)
            except NotationError:
                continue
            self._declined.add((seat, offered))


def session_info(record: Record) -> dict[str, Any]:
    """The ``session`` field of a record saved by a table, or {}."""
    info = record.extra.get(SESSION_KEY)
    return dict(info) if isinstance(info, dict) else {}


def resume(
    record: Record,
    make_agents: Callable[[Game, dict[str, Any]], Mapping[int, Agent]],
    seed: int | str | None = None,
) -> Table:
    """A table that carries on from a record: the record is replayed through the rules
    (raising RecordError if it is not legal), then play continues with the record's seed
    unless ``seed`` is given. ``make_agents(game, session)`` seats the agents."""
    state = replay(record)
    game = state.game
    info = session_info(record)
    if seed is None:
        seed = info.get("seed")
        if not isinstance(seed, int | str):
            raise RecordError("the record has no seed to continue from; give one with --seed")
    names = {int(k): v for k, v in record.players.items() if k.isdigit()}
    table = Table(game, make_agents(game, info), seed, names or None, state, carried=record)
    table.restore_declined(info)
    return table

