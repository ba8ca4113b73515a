"""People's names at a table: any name a person types, in any script, with emoji, and
nothing that hides, misleads or breaks a line.

``check_name`` returns the name to store (NFC, white space trimmed and single) or raises
ProtocolError("bad-name", one sentence). Accepted: letters of every script, digits,
punctuation, symbols, emoji sequences (joined by U+200D, with variation selectors, skin
tones, flags, tag flags), spaces inside. Refused: control and format characters other than
the joiners (C0, C1, bidi overrides and isolates, invisible spaces), half surrogates, the
blank fillers that show nothing (U+3164, U+115F, U+1160, U+FFA0, U+2800), names that show
nothing, more than ``MAX_CLUSTERS`` characters as a reader counts them (grapheme clusters,
``graphemes``), and names that pass for a bot or a seat ("rules", "Ann (bot)", "Bot B", "seat 2").
"""

from __future__ import annotations

import re
import unicodedata

from ..bots import bot_names
from .protocol import ProtocolError

MAX_CLUSTERS = 40
"""The most characters in a name, as a reader counts them (an emoji is one)."""
MAX_CODE_POINTS = 400
"""The most code points in a name (the store's column holds 400)."""
MAX_MARKS = 8
"""The most combining marks on one character: enough for any script, not for text that
stacks marks over the lines around it."""
MAX_RAW = 4 * MAX_CODE_POINTS
"""Longer text is refused before it is looked at closely."""

ZWJ = "\u200d"
ZWNJ = "\u200c"
BLACK_FLAG = "\U0001f3f4"
"""The base of the tag flags (England, Scotland, Wales): its tags are format characters."""
_SPACES = re.compile(r"[^\S\n\r\t\v\f\x1c-\x1f\x85\u2028\u2029]+")
"""A run of space characters (U+0020, U+00A0, U+3000 ...): kept as one U+0020."""
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters that are letters or symbols to Unicode but show nothing."""


def _code(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" ({name})" if name else "")


def _is_extend(ch: str) -> bool:
    """Attaches to the character before it (UAX #29 Extend, roughly): combining marks,
    variation selectors, ZWNJ, skin tones, tags."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me")
        or cp == 0x200C
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or cp in (0xFF9E, 0xFF9F)
    )


def _is_pictographic(ch: str) -> bool:
    """An emoji or other pictograph (UAX #29 Extended_Pictographic, roughly): symbols,
    and the emoji planes' code points, assigned or newer than this Python's Unicode."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) == "So"
        or 0x1F000 <= cp <= 0x1FFFD
        or cp in (0x00A9, 0x00AE, 0x203C, 0x2049, 0x2122, 0x2139, 0x3030, 0x303D)
    )


def _is_regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _hangul(ch: str) -> str:
    """The Hangul syllable type of a character: L, V, T, LV, LVT or ""."""
    cp = ord(ch)
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    if 0xAC00 <= cp <= 0xD7A3:
        return "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
    return ""


_HANGUL_JOINS = {
    "L": ("L", "V", "LV", "LVT"), "LV": ("V", "T"), "V": ("V", "T"), "LVT": ("T",), "T": ("T",),
}


def _joins(cluster: str, ch: str) -> bool:
    """Whether ``ch`` belongs to the grapheme cluster ``cluster`` (UAX #29's rules GB3,
    GB6-GB9a, GB11-GB13; no table of properties: categories and ranges stand in)."""
    prev = cluster[-1]
    if ch == ZWJ or _is_extend(ch) or unicodedata.category(ch) == "Mc":
        return True  # GB9, GB9a
    if prev == "\r" and ch == "\n":
        return True  # GB3
    if prev == ZWJ and _is_pictographic(ch) and any(map(_is_pictographic, cluster)):
        return True  # GB11: an emoji ZWJ sequence
    if _is_regional(ch) and _is_regional(prev):
        return sum(map(_is_regional, cluster)) % 2 == 1  # GB12/13: flags are pairs
    kind = _hangul(prev)
    return bool(kind) and _hangul(ch) in _HANGUL_JOINS[kind]  # GB6-8


def graphemes(text: str) -> list[str]:
    """The text's characters as a reader counts them: user-perceived characters (extended
    grapheme clusters, close enough for names: combining marks, emoji ZWJ sequences, skin
    tones, variation selectors, flags, tag flags, Hangul)."""
    clusters: list[str] = []
    for ch in text:
        if clusters and _joins(clusters[-1], ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    return clusters


def _refuse(sentence: str) -> ProtocolError:
    return ProtocolError("bad-name", sentence)


def check_name(text: object) -> str:
    """The name to store for ``text`` (NFC, white space trimmed and single); raises
    ProtocolError("bad-name", one sentence saying what is wrong) if it is not a name."""
    if not isinstance(text, str):
        raise _refuse("a name is text")
    if len(text) > MAX_RAW:
        raise _refuse(f"a name is at most {MAX_CLUSTERS} characters")
    for ch in text:
        if unicodedata.category(ch) == "Cs":
            raise _refuse(f"a name cannot hold U+{ord(ch):04X}, half of a surrogate pair "
                          "and no character")
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise _refuse("a name cannot be empty")
    _check_characters(name)  # inside the name, tabs and line breaks too
    name = _SPACES.sub(" ", name)
    if _is_extend(name[0]) or name[0] == ZWJ or unicodedata.category(name[0]) == "Mc":
        raise _refuse(f"a name cannot start with the combining character {_code(name[0])}")
    clusters = graphemes(name)
    if len(clusters) > MAX_CLUSTERS:
        raise _refuse(f"a name is at most {MAX_CLUSTERS} characters; this one has "
                      f"{len(clusters)}")
    if len(name) > MAX_CODE_POINTS:
        raise _refuse(f"a name is at most {MAX_CODE_POINTS} code points (an emoji may be "
                      f"several); this one has {len(name)}")
    for cluster in clusters:
        marks = sum(unicodedata.category(ch) in ("Mn", "Me") for ch in cluster)
        if marks > MAX_MARKS:
            raise _refuse(f"a character of a name carries at most {MAX_MARKS} marks; one "
                          f"here carries {marks}")
        if any(0xE0020 <= ord(ch) <= 0xE007F for ch in cluster) and cluster[0] != BLACK_FLAG:
            raise _refuse("a name holds tag characters only in a flag (after U+1F3F4)")
    if all(_shows_nothing(ch) for ch in name):
        raise _refuse("a name must show something: this one is invisible")
    _check_impersonation(name)
    return name


def _check_characters(name: str) -> None:
    for ch in name:
        category = unicodedata.category(ch)
        cp = ord(ch)
        if category == "Cc":
            raise _refuse(f"a name cannot hold the control character U+{cp:04X}")
        if category == "Cf" and ch not in (ZWJ, ZWNJ) and not 0xE0020 <= cp <= 0xE007F:
            raise _refuse(f"a name cannot hold the format character {_code(ch)}")
        if category in ("Zl", "Zp"):
            raise _refuse(f"a name is one line: it cannot hold {_code(ch)}")
        if ch in BLANKS:
            raise _refuse(f"a name cannot hold {_code(ch)}, which shows nothing")
        if 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE:
            raise _refuse(f"a name cannot hold U+{cp:04X}, which is no character")


def _shows_nothing(ch: str) -> bool:
    return ch.isspace() or ch in (ZWJ, ZWNJ) or _is_extend(ch) or ch in BLANKS


# --- names that pass for a bot or a seat -------------------------------------------------

# Cyrillic, Greek and small-capital letters (after casefold) that print like Latin ones,
# written as escapes (they would look like the Latin letters here), and those letters
_LOOK_ALIKES = str.maketrans(
    "\u0430\u0432\u0435\u0451\u043a\u043c\u043d\u043e\u0440\u0441"
    "\u0442\u0443\u0445\u0455\u0456\u0457\u0458\u0501\u04bb\u04cf"
    "\u051b\u051d\u03b1\u03b2\u03b5\u03b7\u03b9\u03ba\u03bd\u03bf"
    "\u03c1\u03c4\u03c5\u03c7\u0131\u0299\u1d0f\u1d1b",
    "abeekmhopc"
    "tyxsiijdhl"
    "qwabenikvo"
    "ptuxibot",
)
_DIGIT_LOOK_ALIKES = str.maketrans({"0": "o", "1": "l", "3": "e", "5": "s", "8": "b"})


def _split_camel(text: str) -> str:
    """A space where a capital follows a lower-case letter: "RulesBot" is two words."""
    out = []
    for prev, ch in zip(" " + text, text, strict=False):
        if prev.islower() and ch.isupper():
            out.append(" ")
        out.append(ch)
    return "".join(out)


def _words(name: str) -> list[str]:
    """The name's words as compared: NFKC (width, superscripts, ligatures), split at every
    character that is no letter or digit and where a capital follows a lower-case letter,
    accents dropped, case folded, Cyrillic and Greek look-alikes read as Latin."""
    text = _split_camel(unicodedata.normalize("NFKC", name))
    text = "".join(
        c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"
    )
    text = text.casefold().translate(_LOOK_ALIKES)
    return [w for w in re.split(r"[\W_]+", text) if w]


def _check_impersonation(name: str) -> None:
    words = _words(name)
    if not words:
        return  # symbols only: nothing to pass for
    joined = "".join(words)
    bots = {b.casefold() for b in bot_names()}
    # any word "bot": "Ann (bot)", "RulesBot", "b0t", and "Casual bot B", which is how a
    # table tells two bots of one strength apart
    if any(w.translate(_DIGIT_LOOK_ALIKES) == "bot" for w in words):
        raise _refuse("a name cannot have the word 'bot' in it: the table marks its bots "
                      "itself")
    if joined in bots or joined.translate(_DIGIT_LOOK_ALIKES) in bots:
        raise _refuse(f"a name cannot be a bot's name ({', '.join(sorted(bot_names()))})")
    if re.match(r"(seat|team)\d", joined) or joined in ("dummy", "thedummy"):
        raise _refuse("a name cannot read as a seat's label (seat 2, the dummy, team 0)")
