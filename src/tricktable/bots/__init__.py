"""Bots: players the table runner asks for a choice, given only their seat's observation.

``make_bot(name, game, seat, seed)`` builds one by name; the names are ``random`` and
``rules`` (see ``bot_names()``). Importing this package registers the bots and the rules
bot's strategy for every game.
"""

# Importing registers the bots, and the rules bot's strategies by game name.
from . import dummy_hand, paperless, random_bot, rules, spades, threeb, whist  # noqa: F401
from .base import DEFAULT_THINK, Bot, bot_class, bot_names, make_bot, register_bot

__all__ = ["DEFAULT_THINK", "Bot", "bot_class", "bot_names", "make_bot", "register_bot"]
