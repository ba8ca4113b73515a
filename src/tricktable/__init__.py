"""tricktable: play, host and study trick-taking card games.

The engine in a few names::

    from tricktable import make_game, step
    game = make_game("spades", {"target": 300})
    state = game.new_game()
    step(state, game.random_deal(state, random.Random(7)))
    step(state, game.legal_actions(state)[0])
"""

from .engine.actions import Action, Bid, Deal, Play, parse_action
from .engine.errors import IllegalAction, NotationError, OptionError, RecordError, TricktableError
from .engine.game import Game, game_names, make_game, register, step
from .engine.observation import Observation
from .engine.state import HandResult, Phase, State, Trick

__all__ = [
    "Action",
    "Bid",
    "Deal",
    "Game",
    "HandResult",
    "IllegalAction",
    "NotationError",
    "Observation",
    "OptionError",
    "Phase",
    "Play",
    "RecordError",
    "State",
    "Trick",
    "TricktableError",
    "game_names",
    "make_game",
    "parse_action",
    "register",
    "step",
]

__version__ = "0.1.0"
