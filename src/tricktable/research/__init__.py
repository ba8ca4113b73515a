"""Research adapters: every game as a PettingZoo environment (``research.pettingzoo``),
with fixed-size encodings of actions and observations (``research.encoding``).

Needs the ``research`` extra (pettingzoo, gymnasium, numpy); the engine never imports
this package.
"""
