"""Bad input to the web server gets one clear line, never a 500: table requests
(``spec.table_spec``), request bodies (``spec.parse_json_body``), the host's seat requests
(``spec.parse_seat_request``) and people's names (``names.check_name``, which the hello
message's name goes through)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tricktable.bots import bot_names
from tricktable.web.names import MAX_CLUSTERS, check_name, graphemes
from tricktable.web.protocol import ProtocolError, parse_client_message
from tricktable.web.spec import MAX_DEPTH, parse_json_body, parse_seat_request, table_spec

SHORT = 200


def refused(call: Any, *args: Any) -> ProtocolError:
    """The ProtocolError ``call(*args)`` raises, checked to be one short line."""
    with pytest.raises(ProtocolError) as caught:
        call(*args)
    message = caught.value.message
    assert message and "\n" not in message and len(message) < SHORT, message
    return caught.value


# --- table requests --------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "says"), [
    ({"game": "spades", "options": []}, "options is an object"),
    ({"game": "spades", "options": "target=300"}, "options is an object"),
    ({"game": "spades", "seed": "\ud800"}, "printable"),
    ({"game": "spades", "seed": "a\x00b"}, "printable"),
    ({"game": "spades", "seed": "a\nb"}, "printable"),
    ({"game": "spades", "seed": "a\u202eb"}, "printable"),
    ({"game": "spades", "seed": ""}, "printable"),
    ({"game": "spades", "seed": "x" * 65}, "64"),
    ({"game": "spades", "seed": 10**70}, "64"),
    ({"game": "spades", "seed": True}, "printable"),
    ({"game": "spades", "seed": [1]}, "printable"),
    ({"game": "spades", "options": {"target": int("9" * 4000)}}, "target"),
    ({"game": "3b-spades", "options": {"players": 4, "hands": 10**12}}, "hands"),
    ({"game": "paperless-spades", "options": {"limit": 10**12}}, "limit"),
    ({"game": "spades", "options": {"bag_limit": "9" * 5000}}, "bag_limit"),
    ({"game": "spades", "options": {"x" * 5000: 1}}, "unknown option"),
])
def test_a_bad_table_request_is_refused_in_one_line(body: dict[str, Any], says: str) -> None:
    assert says in refused(table_spec, body).message


def test_a_chosen_seed_is_kept_and_marked_chosen() -> None:
    chosen = table_spec({"game": "spades", "seed": "Friday night 🂡"})
    assert chosen.seed == "Friday night 🂡" and chosen.seed_chosen
    assert table_spec({"game": "spades", "seed": 42}).seed_chosen
    drawn = table_spec({"game": "spades"})
    assert not drawn.seed_chosen and len(drawn.seed) == 32
    assert table_spec({"game": "spades", "options": None}).options == {}


# --- request bodies ----------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "says"), [
    (b"[" * 10_000, "nests at most"),
    (b"[" * 100_000, "nests at most"),
    (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "nests at most"),
    (b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1), "nests at most"),
    (b"\xff\xfe{}", "UTF-8"),
    (b'{"game": "spades", "seed": "a\\u0000b"}', "NUL"),
    (b'{"game\\u0000": "spades"}', "NUL"),
    (b'{"game": "spades", "seed": "\\ud800"}', "surrogate"),
    (b'{"game": "spades",', "not JSON"),
    (b"{'game': 'spades'}", "not JSON"),
    (b'{"options": {"target": ' + b"9" * 5000 + b"}}", "too long"),
])
def test_a_bad_body_is_refused_in_one_line(body: bytes, says: str) -> None:
    error = refused(parse_json_body, body, "a table request")
    assert error.code == "bad-json" and says in error.message
    assert error.message.startswith("a table request")


def test_a_good_body_is_read() -> None:
    deep: Any = 1
    for _ in range(MAX_DEPTH - 1):
        deep = [deep]
    assert parse_json_body(json.dumps(deep).encode(), "a request") == deep
    assert parse_json_body(b"", "a request") is None
    assert parse_json_body('{"seed": "ça 🂡"}'.encode(), "a request") == {"seed": "ça 🂡"}


@pytest.mark.parametrize(("obj", "says"), [
    ({"bot": ["rules"]}, "do is one of"),
    ({"do": "bot", "bot": ["rules"]}, "bot is a bot's name"),
    ({"do": "bot", "bot": {"name": "rules"}}, "bot is a bot's name"),
    ({"do": "bot", "bot": 5}, "bot is a bot's name"),
    ({"do": "bot", "bot": "\ud800"}, "bot is a bot's name"),
    ({"do": "bot", "bot": "chess-master"}, "bot is a bot's name"),
    ({"do": ["open"]}, "do is one of"),
    ({"do": "sell"}, "do is one of"),
    ({}, "do is one of"),
    ({"do": "open", "bot": "rules"}, 'only with "do": "bot"'),
    ({"do": "open", "seat": 3}, "no field 'seat'"),
    (["do", "open"], "a JSON object"),
    (None, "a JSON object"),
])
def test_a_bad_seat_request_is_refused_in_one_line(obj: Any, says: str) -> None:
    error = refused(parse_seat_request, obj)
    assert error.code == "bad-request" and says in error.message


def test_a_good_seat_request_is_read() -> None:
    assert parse_seat_request({"do": "bot"}) == ("bot", None)
    assert parse_seat_request({"do": "bot", "bot": "random"}) == ("bot", "random")
    assert parse_seat_request({"do": "open"}) == ("open", None)
    assert parse_seat_request({"do": "return", "bot": None}) == ("return", None)


# --- names -------------------------------------------------------------------------------------


ACCEPTED = {
    "Ann": "Ann", "  Ann  Lee ": "Ann Lee", "\tAnn\n": "Ann", "P0": "P0",
    "山田\u3000太郎": "山田 太郎", "Jose\u0301": "Jos\u00e9",  # NFC
    "👩\u200d💻": None, "👨\u200d👩\u200d👧": None, "🏳\ufe0f\u200d🌈": None,
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f": None,  # Scotland
    "🇫🇷🇩🇪": None, "👍🏽": None, "1\ufe0f\u20e3": None, "🧑🏿\u200d🤝\u200d🧑🏻": None,
    "👁\ufe0f\u200d🗨\ufe0f": None, "\U0001fae8": None,  # an emoji newer than this Python
    "محمد": None, "עִבְרִית": None, "क्षत्रिय": None, "ภาษาไทย": None, "Ἀθηνᾶ": None,
    "한국어": None, "Zoë": None, "O'Brien": None, "X Æ A-12": None, "n\u200cn": None,
    "Talbot": None, "Abbot": None, "Robot Wars": None, "Rulesy": None,
    "randomly": None, "seat": None, "Seats for all": None, "a" * MAX_CLUSTERS: None,
    "👩\u200d💻" * MAX_CLUSTERS: None,
}


@pytest.mark.parametrize("text", list(ACCEPTED))
def test_a_name_a_person_types_is_taken(text: str) -> None:
    assert check_name(text) == (ACCEPTED[text] or text)


REFUSED = {
    None: "is text", 5: "is text", "": "empty", "   ": "empty",
    "B" * (MAX_CLUSTERS + 1): f"at most {MAX_CLUSTERS} characters",
    "👩\u200d💻" * (MAX_CLUSTERS + 1): f"at most {MAX_CLUSTERS} characters",
    "👨🏻\u200d👩🏻\u200d👧🏻\u200d👦🏻" * MAX_CLUSTERS: "code points",
    "A\u0007nn": "control character U+0007", "Ann\x00": "control character U+0000",
    "A\u0085B": "control character U+0085", "A\tB": "control character U+0009",
    "x\u202ey": "format character U+202E", "x\u2066y": "format character U+2066",
    "A\u200bB": "format character U+200B", "\ufeffAnn": "format character U+FEFF",
    "A\u2028B": "one line", "\ud800": "surrogate", "Ann\udfff": "surrogate",
    "\u3164": "shows nothing", "\u2800": "shows nothing", "\u115f\u1160": "shows nothing",
    "\uffa0": "shows nothing", "Ann\u3164": "shows nothing",
    "\u0301\u0301": "cannot start with", "\u200d": "cannot start with",
    "\u0301Ann": "cannot start with", "Z" + "\u0301" * 10: "at most 8 marks",
    "a\ufffe": "no character", "x\U000e0041": "tag characters",
    "rules": "bot's name", "RULES": "bot's name", "\uff32\uff55\uff4c\uff45\uff53": "bot's name",
    "Random": "bot's name", "r\u0430ndom": "bot's name", "R\u00fcles": "bot's name",
    "Ann (bot)": "word 'bot'", "Ann bot": "word 'bot'", "AnnBot": "word 'bot'",
    "b0t": "word 'bot'", "BOT": "word 'bot'", "Strong bot": "word 'bot'",
    "b\u043et": "word 'bot'", "\u1d47\u1d52\u1d57": "word 'bot'",
    "Ann-B\u00f6t": "word 'bot'", "Casual bot B": "word 'bot'", "Bot Ann": "word 'bot'",
    "ann.b0t.2": "word 'bot'",
    "seat 2": "seat's label", "Seat 3 (open)": "seat's label", "SEAT\uff12": "seat's label",
    "the dummy": "seat's label", "team 0": "seat's label",
}


@pytest.mark.parametrize("text", list(REFUSED), ids=[repr(t)[:30] for t in REFUSED])
def test_a_name_that_hides_breaks_or_impersonates_is_refused(text: Any) -> None:
    error = refused(check_name, text)
    assert error.code == "bad-name"
    assert REFUSED[text] in error.message


def test_every_bot_s_name_is_refused() -> None:
    for name in bot_names():
        refused(check_name, name.upper())


@pytest.mark.parametrize(("text", "count"), [
    ("Ann", 3), ("Jose\u0301", 4), ("👩\u200d💻", 1), ("👨\u200d👩\u200d👧\u200d👦", 1),
    ("🏳\ufe0f\u200d🌈", 1), ("🇫🇷🇩🇪🇮", 3), ("👍🏽👍", 2), ("1\ufe0f\u20e3", 1),
    ("\u1100\u1161\u11a8", 1), ("क्षि", 2), ("a\u0301\u0302b", 2), ("\r\n", 1),
])
def test_graphemes_are_counted_as_a_reader_counts_them(text: str, count: int) -> None:
    assert len(graphemes(text)) == count
    assert "".join(graphemes(text)) == text


def test_hello_names_go_through_the_name_check() -> None:
    def hello(name: str) -> dict[str, Any]:
        return parse_client_message(json.dumps({"type": "hello", "token": "t", "name": name}))

    assert hello("  👩\u200d💻 Ann ")["name"] == "👩\u200d💻 Ann"
    for bad in ("Ann (bot)", "rules", "seat 1", "\u3164"):
        with pytest.raises(ProtocolError) as caught:
            hello(bad)
        assert caught.value.code == "bad-name"
