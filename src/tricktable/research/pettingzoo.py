"""Every tricktable game as a PettingZoo AEC environment (needs the ``research`` extra).

    >>> from tricktable.research.pettingzoo import env
    >>> table = env(game="dummy-hand-spades", peek="flip-2", target=200)
    >>> table.reset(seed=7)
    >>> for agent in table.agent_iter():
    ...     observation, reward, terminated, truncated, info = table.last()
    ...     mask = observation["action_mask"]
    ...     action = None if terminated or truncated else int(mask.nonzero()[0][0])
    ...     table.step(action)

The conventions are those of PettingZoo's classic environments:

- agents ``player_0`` ... one per real player seat; a dummy is not an agent: its cards are
  played by the agent of the seat that controls it (its declarer), as at the table;
- ``observation_space(agent)`` is a dict: ``observation``, the seat's observation as a
  fixed-size vector (layout in ``tricktable.research.encoding``), and ``action_mask``
  (int8) over the game's fixed action vocabulary (``env.unwrapped.vocabulary``);
- actions are indices into the vocabulary. Out-of-turn actions (a 3B rebid in its
  window, a renege call in honour mode) are offered: the agent gets a turn of its own in
  which index 0, ``decline``, is also legal;
- rewards are each hand's score for the agent's side when the hand is scored
  (``reward="hand"``, the default), or +1/-1/0 for the game's winner, losers or a game
  cut short (``reward="game"``);
- the episode ends when the game does (``terminated``), or after ``max_hands`` hands
  (``truncated``);
- ``env.unwrapped.bot_action(agent)`` is what the ``rules`` bot (or another, by name)
  would choose for an agent from that agent's own observation: opponents to train
  against;
- ``render()`` prints the table as a spectator sees it (``render_mode="human"``) or
  returns it as text (``"ansi"``).

An agent is given only its own seat's observation: hidden cards never reach it (tested
as the engine's observations are). Deals come from ``reset(seed=...)``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..bots import make_bot
from ..engine.actions import Action
from ..engine.cards import card_str
from ..engine.game import Game, make_game, step
from ..engine.state import Phase, State
from .encoding import DECLINE, ActionVocabulary, ObservationEncoder, words
from .turns import next_turn

REWARDS = ("hand", "game")


def env(game: str = "spades", render_mode: str | None = None, max_hands: int | None = None,
        reward: str = "hand", **options: Any) -> TricktableEnv:
    """The AEC environment of ``game`` with its table ``options`` (``target=200``...)."""
    return TricktableEnv(game, options, render_mode=render_mode, max_hands=max_hands,
                         reward=reward)


class TricktableEnv(AECEnv[str, dict[str, np.ndarray], int | None]):  # type: ignore[misc]
    """One table of one game; see the module's docstring."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "tricktable_v0",
                                "is_parallelizable": False}

    def __init__(self, game: str, options: dict[str, Any] | None = None,
                 render_mode: str | None = None, max_hands: int | None = None,
                 reward: str = "hand") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of: human, ansi (not {render_mode!r})")
        if reward not in REWARDS:
            raise ValueError(f"reward is one of: {', '.join(REWARDS)} (not {reward!r})")
        if max_hands is not None and max_hands < 1:
            raise ValueError("max_hands is at least 1")
        self.game: Game = make_game(game, options or {})
        self.render_mode = render_mode
        self.max_hands = max_hands
        self.reward_kind = reward
        self.metadata = {**self.metadata, "name": f"tricktable_{self.game.name}_v0"}
        self.vocabulary = ActionVocabulary.of(self.game)
        self._index = self.vocabulary.index()
        self.encoder = ObservationEncoder(self.game)
        self.seat_of = {f"player_{s}": s for s in self.game.player_seats}
        self.possible_agents = list(self.seat_of)
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.vocabulary),), np.int8),
            })
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(len(self.vocabulary)) for agent in self.possible_agents
        }
        self.state: State = self.game.new_game()
        self._rng = random.Random()
        self._declined: set[int] = set()
        self._legal: dict[int, Action] = {}
        self._offer = False
        self._seed: int | None = None

    # --- spaces -----------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- the episode ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self._seed = seed
        self.state = self.game.new_game()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._declined = set()
        self._totals = list(self.state.totals)
        self._select()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self.vocabulary):
            raise ValueError(f"{agent}: an action is an index 0..{len(self.vocabulary) - 1}")
        text = self.vocabulary.texts[int(action)]
        seat = self.seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        if text == DECLINE:
            if not self._offer:
                raise ValueError(f"{agent}: 'decline' is for actions offered out of turn")
            self._declined.add(seat)
        else:
            chosen = self._legal.get(int(action))
            if chosen is None:
                allowed = ", ".join(words(a) for a in self._legal.values())
                raise ValueError(f"{agent}: {text!r} is not legal now; legal: {allowed}")
            step(self.state, chosen)
            self._declined = set()
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        """Deal where the game needs a deal, score, and pick the agent to act next."""
        state, game = self.state, self.game
        while True:
            if state.phase is Phase.GAME_OVER:
                self._rewards_since()
                self.terminations = {a: True for a in self.agents}
                return
            if self.max_hands is not None and state.finished_hands >= self.max_hands:
                self._rewards_since()
                self.truncations = {a: True for a in self.agents}
                return
            turn = next_turn(game, state, self._declined)
            if turn is not None:
                break
            step(state, game.random_deal(state, self._rng))
        self._rewards_since()
        self.agent_selection = f"player_{turn.seat}"
        self._offer = turn.offered
        self._legal = {self._index[words(a)]: a for a in turn.legal}

    def _rewards_since(self) -> None:
        """Each agent's reward for the step just taken: its side's new points."""
        totals = list(self.state.totals)
        game = self.game
        for agent, seat in self.seat_of.items():
            if agent not in self.agents:
                continue
            entity = game.entity_of_seat(seat)
            if self.reward_kind == "hand":
                self.rewards[agent] = float(totals[entity] - self._totals[entity])
            elif self.state.phase is Phase.GAME_OVER:
                winner = self.state.winner
                self.rewards[agent] = 1.0 if winner == entity else -1.0
            else:
                self.rewards[agent] = 0.0
        self._totals = totals

    # --- what an agent sees ---------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        obs = self.game.observe(self.state, seat)
        mask = np.zeros(len(self.vocabulary), dtype=np.int8)
        if agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        ):
            for index in self._legal:
                mask[index] = 1
            if self._offer:
                mask[0] = 1
        return {"observation": self.encoder.encode(obs), "action_mask": mask}

    def bot_action(self, agent: str, bot: str = "rules") -> int:
        """The index a tricktable bot would choose for ``agent`` now, from that agent's
        own observation (opponents for training: ``env.unwrapped.bot_action(agent)``)."""
        seat = self.seat_of[agent]
        obs = self.game.observe(self.state, seat)
        legal = list(self._legal.values())
        # seeded by the moment, not drawn from the deals' stream (which it would change)
        moment = f"{self._seed}/{self.state.hand_number}/{len(obs.history)}/{seat}"
        player = make_bot(bot, self.game, seat, moment)
        if self.game.controller(self.state, self.state.to_act) == seat:
            return self._index[words(player.choose(obs, legal))]
        offer = player.offer(obs, legal)
        return 0 if offer is None else self._index[words(offer)]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table_text(self) -> str:
        """The table as a spectator sees it: hand, phase, trick, tricks won, totals."""
        state, game = self.state, self.game
        trick = " ".join(
            f"{s}:{card_str(c)}" for s, c in zip(state.trick_seats, state.trick_cards, strict=True)
        ) or "-"
        won = " ".join(f"{s}:{w}" for s, w in enumerate(state.won))
        totals = " ".join(f"{k}:{v}" for k, v in game.totals_mapping(state).items())
        return (f"{game.title} | hand {state.hand_number + 1} | {state.phase.value} | "
                f"to act: seat {state.to_act} | trick {trick} | won {won} | totals {totals}")

    def close(self) -> None:
        pass
