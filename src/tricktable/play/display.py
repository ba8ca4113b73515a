"""Untrusted text made safe to show: names, options and actions read from a record or
typed by someone else reach the screen as plain characters, never as terminal control
sequences (ESC and OSC codes that retitle a window, clear the screen or disguise a link),
bidirectional overrides that reorder what is shown, or lone surrogates that cannot be
written. Rich markup is a separate matter: escape the result with ``rich.markup.escape``
(``shown`` does both)."""

from __future__ import annotations

import unicodedata

from rich.markup import escape

from ..engine.game import Game
from ..engine.observation import Observation
from ..engine.words import table_words

_BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
)
_HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
_KEPT_FORMATS = frozenset("\u200d")  # the zero-width joiner holds emoji together
MAX_SHOWN = 200
"""Longer texts are cut: a name of a megabyte is nobody's name."""


def plain(text: object, limit: int = MAX_SHOWN) -> str:
    """``text`` with every control character, bidirectional override and lone surrogate
    replaced by a visible stand-in ('?' or, for a line break or tab, a space), and cut
    to ``limit`` characters."""
    out = [" " if ch in "\t\n\r" else "?" if _hidden(ch) else ch for ch in str(text)[: limit + 1]]
    result = "".join(out)
    return result if len(result) <= limit else result[: limit - 1] + "…"


def _hidden(ch: str) -> bool:
    if ch in _BIDI_CONTROLS or "\ud800" <= ch <= "\udfff":
        return True
    return ch not in _KEPT_FORMATS and unicodedata.category(ch) in _HIDDEN_CATEGORIES


def shown(text: object) -> str:
    """``plain(text)`` escaped for rich markup: for untrusted text inside a markup string."""
    return escape(plain(text))


def words(value: object) -> str:
    """A value as a person writes it, not as Python prints it: none, yes/no, lists with
    commas, mappings as "key:value" pairs."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return " ".join(f"{k}:{words(v)}" for k, v in value.items())
    if isinstance(value, tuple | list | set | frozenset):
        return ",".join(words(v) for v in value) or "none"
    return str(value)


# --- what a game says at its table, for the terminal ------------------------------------------
# The same texts as the browser's (the view's ``words``, web/protocol.py): the game says each
# thing once, in its ``TableWords`` (engine/words.py and the game's module).


def table_facts(game: Game, obs: Observation) -> list[str]:
    """The hand's facts as the game says them ("Ann declared 4 no trump", "bags: Ann & Cy
    2, Bob & Dee 0"): the line over the browser's table."""
    return table_words(game).facts(obs)


def decision_rules(game: Game, obs: Observation) -> list[str]:
    """The rule of each decision ``obs``'s seat has now, a line each, as the game says it:
    the lines over the browser's buttons."""
    said = table_words(game)
    out: list[str] = []
    for verb in dict.fromkeys(a.verb for a in obs.legal):
        rule = said.rule(verb, obs)
        if rule and rule not in out:
            out.append(rule)
    return out


def seat_lines(game: Game, obs: Observation) -> dict[int, str]:
    """Each seat's bid, contract or part ("bid nil", "contract 1 no trump"), by seat."""
    said = table_words(game)
    return {s: line for s in range(len(obs.hand_sizes)) if (line := said.seat_line(s, obs))}


def turn_line(game: Game, obs: Observation) -> str | None:
    """Who is to act and how, for the others: "Ann plays from the dummy."."""
    return table_words(game).turn_line(obs)
