"""Table options: each game states its options once, as a frozen dataclass.

Every option is declared with ``option(default, doc, ...)`` so that its default, its help
text and the values it may take live in one place; the CLI's ``--option NAME=VALUE``, the
records' ``options`` object, a web table's request and ``tricktable games`` all read them
from here. Every whole-number option states its range (``minimum``, ``maximum``): a value
outside it is refused wherever it comes from, in one line that names the option and the
range and shows at most 40 characters of the value (``errors.shown``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypeVar, get_type_hints

from .errors import OptionError, shown

T = TypeVar("T")


def option(
    default: T,
    doc: str,
    *,
    choices: Sequence[Any] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    suggested: T | None = None,
) -> T:
    """Declare one table option: its default, one line of help, and what it may be.
    ``suggested``: where the game's text suggests another value than the ruling's default,
    the value a new game starts with (``Options.for_new_game``); the default stays what a
    record that does not name the option means."""
    meta: dict[str, Any] = {
        "doc": doc,
        "choices": tuple(choices) if choices else None,
        "minimum": minimum,
        "maximum": maximum,
        "suggested": suggested,
    }
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    name: str
    type: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None
    minimum: int | None = None
    """The least value of a whole-number option (None: no bound, or not a number)."""
    maximum: int | None = None
    """The greatest value of a whole-number option."""
    suggested: Any = None
    """The value a new game starts with where the text suggests one (None: the default)."""

    @property
    def new_game_default(self) -> Any:
        """What a new game gets when the option is not given."""
        return self.default if self.suggested is None else self.suggested


@dataclass(frozen=True)
class Options:
    """Base of every game's options. Subclasses are frozen dataclasses of ``option(...)``."""

    def __post_init__(self) -> None:
        # Options made in Python rather than read (``SpadesOptions(target=...)``) keep to
        # the same choices and ranges.
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is not None and value != f.default:
                _check_value(f.name, value, value, f)

    @classmethod
    def describe(cls) -> list[OptionInfo]:
        hints = get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            out.append(
                OptionInfo(
                    f.name,
                    _type_name(hints[f.name]),
                    f.default,
                    f.metadata.get("doc", ""),
                    f.metadata.get("choices"),
                    f.metadata.get("minimum"),
                    f.metadata.get("maximum"),
                    f.metadata.get("suggested"),
                )
            )
        return out

    @classmethod
    def for_new_game(cls, values: Mapping[str, Any]) -> Self:
        """Options for a new game: ``values`` (as ``from_mapping`` reads them), and for each
        option not among them whose text suggests a value, that value (Dummy Hand Spades'
        target 300). A record read back keeps the plain defaults."""
        given = {str(name).replace("-", "_") for name in values}
        suggested = {
            f.name: f.metadata["suggested"] for f in dataclasses.fields(cls)
            if f.metadata.get("suggested") is not None and f.name not in given
        }
        return cls.from_mapping({**suggested, **values})

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        """Options from a record's ``options`` object or parsed ``NAME=VALUE`` pairs."""
        hints = get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for name, raw in values.items():
            if not isinstance(name, str):
                raise OptionError(f"an option's name is text, not {shown(name)}")
            key = name.replace("-", "_")
            if key not in fields:
                known = ", ".join(sorted(fields)) or "none"
                raise OptionError(
                    f"unknown option {shown(name)} for this game; its options: {known}"
                )
            kwargs[key] = _coerce(name, raw, hints[key], fields[key])
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise OptionError(str(e)) from None

    @classmethod
    def parse_pairs(cls, pairs: Sequence[str]) -> Self:
        """Options from ``NAME=VALUE`` strings (the CLI's ``--option``)."""
        return cls.from_mapping(cls.pairs(pairs))

    @staticmethod
    def pairs(pairs: Sequence[str]) -> dict[str, str]:
        """``NAME=VALUE`` strings as a mapping of the text given, for ``from_mapping``."""
        values: dict[str, str] = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep:
                raise OptionError(f"{shown(pair)} is not NAME=VALUE")
            values[name.strip()] = value.strip()
        return values

    def to_mapping(self, include_defaults: bool = False) -> dict[str, Any]:
        """The options as a record stores them: by default only those not at their default."""
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if include_defaults or value != f.default:
                out[f.name] = value
        return out


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"of at least {low}"
    if high is not None:
        return f"of at most {high}"
    return ""


def _coerce(name: str, raw: Any, tp: Any, f: dataclasses.Field[Any]) -> Any:
    low, high = f.metadata.get("minimum"), f.metadata.get("maximum")
    value: Any = raw
    allows_none = "None" in str(tp)
    if allows_none and (raw is None or (isinstance(raw, str) and raw.lower() in ("none", "null"))):
        return None
    base = tp
    if allows_none:
        args = [a for a in getattr(tp, "__args__", ()) if a is not type(None)]
        base = args[0] if args else tp
    if base is bool:
        if isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and raw.lower() in ("true", "yes", "on", "1"):
            value = True
        elif isinstance(raw, str) and raw.lower() in ("false", "no", "off", "0"):
            value = False
        else:
            raise OptionError(f"option {name} takes true or false, not {shown(raw)}")
    elif base is int:
        number = f"a whole number {_range_text(low, high)}".rstrip()
        value = _whole_number(raw)
        if value is None:
            raise OptionError(f"option {name} takes {number}, not {shown(raw)}")
    elif base is str:
        if not isinstance(raw, str):
            raise OptionError(f"option {name} takes text, not {shown(raw)}")
        value = raw
    _check_value(name, value, raw, f)
    return value


def _check_value(name: str, value: Any, raw: Any, f: dataclasses.Field[Any]) -> None:
    """Refuse a value outside the option's choices or range (``raw``: as it was given)."""
    choices = f.metadata.get("choices")
    if choices and value not in choices:
        listed = ", ".join(str(c) for c in choices)
        raise OptionError(f"option {name} cannot be {shown(raw)}; it takes one of: {listed}")
    low, high = f.metadata.get("minimum"), f.metadata.get("maximum")
    if not isinstance(value, int) or isinstance(value, bool):
        return
    if (low is not None and value < low) or (high is not None and value > high):
        raise OptionError(
            f"option {name} takes a whole number {_range_text(low, high)}, not {shown(raw)}"
        )


_DIGITS = frozenset("0123456789")


def _whole_number(raw: Any) -> int | None:
    """An int, or the text of one in ASCII digits with an optional sign (``int`` alone
    would also take "1_000", " 5" and other scripts' digits); None if it is neither."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if not isinstance(raw, str):
        return None
    digits = raw[1:] if raw[:1] in ("-", "+") else raw
    if not digits or not _DIGITS.issuperset(digits):
        return None
    try:
        return int(raw)
    except ValueError:  # more digits than Python converts (4,300)
        return None
