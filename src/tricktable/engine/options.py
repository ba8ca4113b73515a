"""Table options: each game states its options once, as a frozen dataclass.

Every option is declared with ``option(default, doc, ...)`` so that its default, its help
text and the values it may take live in one place; the CLI's ``--option NAME=VALUE``, the
records' ``options`` object and ``tricktable games`` all read them from here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypeVar, get_type_hints

from .errors import OptionError

T = TypeVar("T")


def option(
    default: T,
    doc: str,
    *,
    choices: Sequence[Any] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> T:
    """Declare one table option: its default, one line of help, and what it may be."""
    meta: dict[str, Any] = {
        "doc": doc,
        "choices": tuple(choices) if choices else None,
        "minimum": minimum,
        "maximum": maximum,
    }
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    name: str
    type: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None


@dataclass(frozen=True)
class Options:
    """Base of every game's options. Subclasses are frozen dataclasses of ``option(...)``."""

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
                )
            )
        return out

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        """Options from a record's ``options`` object or parsed ``NAME=VALUE`` pairs."""
        hints = get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, Any] = {}
        for name, raw in values.items():
            key = name.replace("-", "_")
            if key not in fields:
                known = ", ".join(sorted(fields)) or "none"
                raise OptionError(f"unknown option {name!r} for this game; its options: {known}")
            kwargs[key] = _coerce(name, raw, hints[key], fields[key])
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise OptionError(str(e)) from None

    @classmethod
    def parse_pairs(cls, pairs: Sequence[str]) -> Self:
        """Options from ``NAME=VALUE`` strings (the CLI's ``--option``)."""
        values: dict[str, Any] = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep:
                raise OptionError(f"{pair!r} is not NAME=VALUE")
            values[name.strip()] = value.strip()
        return cls.from_mapping(values)

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


def _coerce(name: str, raw: Any, tp: Any, f: dataclasses.Field[Any]) -> Any:
    choices = f.metadata.get("choices")
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
            raise OptionError(f"option {name} takes true or false, not {raw!r}")
    elif base is int:
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise OptionError(f"option {name} takes a whole number, not {raw!r}")
        try:
            value = int(raw)
        except ValueError:
            raise OptionError(f"option {name} takes a whole number, not {raw!r}") from None
    elif base is str:
        if not isinstance(raw, str):
            raise OptionError(f"option {name} takes text, not {raw!r}")
        value = raw
    if choices and value not in choices:
        shown = ", ".join(str(c) for c in choices)
        raise OptionError(f"option {name} cannot be {raw!r}; it takes one of: {shown}")
    low, high = f.metadata.get("minimum"), f.metadata.get("maximum")
    if isinstance(value, int) and not isinstance(value, bool):
        if low is not None and value < low:
            raise OptionError(f"option {name} must be at least {low}, not {value}")
        if high is not None and value > high:
            raise OptionError(f"option {name} must be at most {high}, not {value}")
    return value
