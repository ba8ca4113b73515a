"""Every tricktable game as an OpenSpiel Python game (needs ``open_spiel``).

Importing this module registers each game under ``tricktable_<name>`` (dashes become
underscores), with its table options as game parameters::

    import pyspiel
    import tricktable.research.openspiel  # registers the games
    game = pyspiel.load_game("tricktable_dummy_hand_spades", {"peek": "flip-2"})

- Players are the games' real player seats; a dummy is played by its declarer's player.
- Chance deals the first dealer, then the cards one at a time (uniform over the cards
  left), as OpenSpiel's own card games do; the engine gets the whole deal at once.
- Actions are indices into the game's action vocabulary (``research.encoding``); index
  0, ``decline``, lets a player pass up an action offered out of turn (3B rebids, renege
  calls), each of which gets a turn of its own.
- A game is played for at most ``max_hands`` hands (a parameter, default 4), or to its
  end; the returns are each player's side's total score then.
- Information-state and observation strings and tensors come from the player's own
  engine observation (tensor layout: ``research.encoding``); the information state is
  perfect recall within the hand (the observation holds the hand's whole history as the
  seat saw it) and keeps only the scores of earlier hands.
- ``resample_from_infostate`` deals the cards hidden from the player again with the world
  sampler (uniform over the deals that player cannot tell apart) and replays the hand,
  so OpenSpiel's IS-MCTS can play these games. Cards that changed hands within the hand
  (Paperless gives, blind nil's pass, 3B's exchange, a whist declarer's discards, Double
  Dummy's swap) are followed as the search bots follow them (``search.determinize``):
  what the player saw face down is filled from the new world, never from the real one
  (a Paperless pass under way: the cards given so far split among the givers at random).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..engine.actions import CHANCE, Deal
from ..engine.cards import card_str, cards_of
from ..engine.errors import OptionError, RecordError
from ..engine.game import Game, game_class, game_names, make_game, step
from ..engine.observation import Observation
from ..engine.records import HandRecord, Record, deal_to_record, record_from_state, replay
from ..engine.state import Phase, State
from ..search.determinize import rebuilt_hand
from ..search.sampler import WorldSampler
from .encoding import DECLINE, ActionVocabulary, ObservationEncoder, words
from .turns import next_turn

MAX_HANDS = 4
RESAMPLE_TRIES = 50


def short_name(game: str) -> str:
    return "tricktable_" + game.replace("-", "_")


def _parameters(name: str) -> dict[str, Any]:
    """The game's options with their defaults, as OpenSpiel parameters (an option with no
    default takes a working one: 3B is 4-handed unless told)."""
    params: dict[str, Any] = {"max_hands": MAX_HANDS}
    for option in game_class(name).options_type.describe():
        value = option.default
        if value is None:
            value = 4 if option.name == "players" else 0
        params[option.name] = value
    return params


def _options(name: str, params: dict[str, Any]) -> dict[str, Any]:
    options = {k: v for k, v in params.items() if k != "max_hands"}
    if name == "3b-spades" and not options.get("hands"):
        options.pop("hands", None)
    return options


def _register(name: str) -> None:
    defaults = _parameters(name)
    probe = make_game(name, _options(name, defaults))
    game_type = pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"tricktable {probe.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(probe.player_seats),
        min_num_players=len(probe.player_seats),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )

    class _Game(TricktableGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(name, game_type, params)

    _Game.__name__ = _Game.__qualname__ = f"Tricktable_{name.replace('-', '_')}"
    pyspiel.register_game(game_type, _Game)


class TricktableGame(pyspiel.Game):  # type: ignore[misc]
    """One tricktable game with its options, as OpenSpiel sees it."""

    def __init__(self, name: str, game_type: Any, params: dict[str, Any] | None) -> None:
        merged = {**_parameters(name), **(params or {})}
        max_hands = int(merged["max_hands"])
        if max_hands < 1:
            raise pyspiel.SpielError("max_hands is at least 1")
        try:
            engine = make_game(name, _options(name, merged))
        except OptionError as e:
            raise pyspiel.SpielError(str(e)) from None
        vocabulary = ActionVocabulary.of(engine)
        players = len(engine.player_seats)
        cards = list(cards_of(engine.deck))
        deck = len(cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(vocabulary),
            max_chance_outcomes=max(max(cards) + 1, engine.num_seats),  # outcomes are cards
            num_players=players,
            min_utility=-2000.0 * max_hands,
            max_utility=2000.0 * max_hands,
            utility_sum=None,
            max_game_length=max_hands * (deck + 1 + 60 * (players + 1)),
        )
        # the base class first: attributes set before it would not stick to the object
        super().__init__(game_type, info, merged)
        self.max_hands = max_hands
        self.engine: Game = engine
        self.vocabulary = vocabulary
        self.index = vocabulary.index()
        self.encoder = ObservationEncoder(engine)
        self.sampler = WorldSampler(engine)

    def __deepcopy__(self, memo: dict[int, Any]) -> TricktableGame:
        return self  # a game never changes: a cloned state shares it (and its vocabulary)

    def new_initial_state(self) -> TricktableState:
        return TricktableState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(self, perfect_recall)


class TricktableState(pyspiel.State):  # type: ignore[misc]
    """A table in progress: the engine's state, the deal being dealt, declined offers."""

    def __init__(self, game: TricktableGame) -> None:
        super().__init__(game)
        self.spiel_game = game  # the Python object, with the engine's game in it
        self.engine = game.engine
        self.table: State = self.engine.new_game()
        self.declined: set[int] = set()
        self.dealer = -1
        self.dealt: list[int] = []
        self._turn = None

    # --- whose move -----------------------------------------------------------------------

    def _dealing(self) -> bool:
        return self.table.phase is not Phase.GAME_OVER and not self.engine.legal_actions(
            self.table)

    def is_terminal(self) -> bool:
        table = self.table
        if table.phase is Phase.GAME_OVER:
            return True
        return self._dealing() and table.finished_hands >= self.spiel_game.max_hands

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        turn = next_turn(self.engine, self.table, self.declined)
        assert turn is not None
        return turn.seat

    def _legal_actions(self, player: int) -> list[int]:
        turn = next_turn(self.engine, self.table, self.declined)
        if turn is None or turn.seat != player:
            return []
        index = self.spiel_game.index
        out = sorted(index[words(a)] for a in turn.legal)
        return [0, *out] if turn.offered else out

    def _awaiting_dealer(self) -> bool:
        """The first hand's dealer is drawn by chance; later ones follow the rotation."""
        return self.dealer < 0 and self.table.hand_number < 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._awaiting_dealer():
            seats = self.engine.player_seats
            return [(s, 1.0 / len(seats)) for s in seats]
        left = [c for c in cards_of(self.engine.deck) if c not in self.dealt]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self._dealing():
            self._deal(int(action))
            return
        turn = next_turn(self.engine, self.table, self.declined)
        assert turn is not None
        text = self.spiel_game.vocabulary.texts[action]
        if text == DECLINE:
            self.declined.add(turn.seat)
            return
        chosen = next(a for a in turn.legal if words(a) == text)
        step(self.table, chosen)
        self.declined = set()

    def _deal(self, outcome: int) -> None:
        if self._awaiting_dealer():
            self.dealer = outcome
            return
        if self.dealer < 0:
            self.dealer = self.engine.next_dealer(self.table)
        self.dealt.append(outcome)
        sizes, extra = self.engine.deal_sizes(self.dealer)
        if len(self.dealt) < sum(sizes) + extra:
            return
        hands, at = [], 0
        for size in sizes:
            hands.append(tuple(self.dealt[at:at + size]))
            at += size
        step(self.table, Deal(CHANCE, self.dealer, tuple(hands), tuple(self.dealt[at:])))
        self.dealer, self.dealt = -1, []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._awaiting_dealer():
                return f"dealer {action}"
            return f"deal {card_str(action)}"
        return str(self.spiel_game.vocabulary.texts[action])

    def returns(self) -> list[float]:
        players = self.engine.player_seats
        if not self.is_terminal():
            return [0.0] * len(players)
        totals = self.table.totals
        return [float(totals[self.engine.entity_of_seat(s)]) for s in players]

    def __str__(self) -> str:
        table = self.table
        return (f"{self.engine.name} hand {table.hand_number} {table.phase.value} "
                f"to_act={table.to_act} totals={list(table.totals)}")

    # --- worlds the player cannot tell apart ------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one: the hidden cards dealt again by
        the world sampler, and the hand replayed with them."""
        if self._dealing() or self.table.hand_number < 0:
            return self.clone()
        obs = self.engine.observe(self.table, player_id)
        seed = int(probability_sampler() * 2**31)
        rng = random.Random(seed)
        for _ in range(RESAMPLE_TRIES):
            world = self.spiel_game.sampler.sample(obs, rng)
            table = _replayed(self.engine, self.table, obs, world, rng)
            if table is not None:
                new = self.clone()
                new.table = table
                return new
        raise pyspiel.SpielError("no world fitted this information state")


def _replayed(engine: Game, table: State, obs: Observation, world: dict[int, int],
              rng: random.Random) -> State | None:
    """The whole table with its current hand dealt from ``world`` and replayed: the hand
    is rebuilt by ``search.determinize`` (cards that changed hands followed, what the
    player saw face down filled from the world; a pass under way split at random), then
    put after the earlier hands and the record replayed; None if the world does not fit
    the hand's actions."""
    rebuilt = rebuilt_hand(engine, obs, world, rng)
    if rebuilt is None or rebuilt.deal is None or table.deal is None:
        return None
    hands = list(rebuilt.deal.hands)
    own = table.deal.hands[obs.seat]
    if sorted(hands[obs.seat]) == sorted(own):
        hands[obs.seat] = own  # the player's own cards in the order they were dealt
    deal = Deal(CHANCE, table.deal.dealer, tuple(hands), rebuilt.deal.extra)
    dealer, piles = deal_to_record(deal)
    hand = HandRecord(dealer, piles, [str(a) for a in rebuilt.actions])
    record = record_from_state(table)
    try:
        return replay(Record(record.game, record.options, record.players,
                             [*record.hands[:-1], hand]))
    except RecordError:
        return None


class Observer:
    """OpenSpiel's observer for one game: the tensor (``research.encoding``) and a string
    of the player's own engine observation."""

    def __init__(self, game: TricktableGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TricktableState, player: int) -> None:
        if state.table.hand_number < 0:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.game.encoder.encode(state.engine.observe(state.table, player))

    def string_from(self, state: TricktableState, player: int) -> str:
        table = state.table
        if table.hand_number < 0:
            return f"p{player} before the first deal"
        obs = state.engine.observe(table, player)
        parts = [
            f"p{player} hand {obs.hand_number} dealer {obs.dealer} {obs.phase.value}",
            "cards " + " ".join(card_str(c) for c in cards_of(obs.hand)),
            "seen " + " | ".join(" ".join(card_str(c) for c in cards_of(v)) for v in obs.visible),
            "totals " + " ".join(f"{k}:{v}" for k, v in obs.totals.items()),
        ]
        if self.perfect_recall:
            parts.append("history " + "; ".join(obs.history))
        else:
            parts.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in obs.trick))
            parts.append("won " + " ".join(map(str, obs.won)))
        if state.declined:
            parts.append("declined " + " ".join(map(str, sorted(state.declined))))
        return " / ".join(parts)


for _name in game_names():
    _register(_name)
