"""The rules engine: cards, card orders, actions, the game state, the rules protocol and
``step``, observations, options, records.

It imports nothing above it (no game, bot, screen, socket or database); the registry
loads the built-in games lazily, by name, the first time one is asked for.
"""
