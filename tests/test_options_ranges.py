"""Every numeric table option has a range, stated once with the option and enforced
wherever options come from (a record, the CLI's --option, a web table request, Python):
a value outside it is refused in one short line naming the option and the range."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tricktable import cli as cli_module
from tricktable.engine.errors import OptionError
from tricktable.engine.game import game_class, game_names, make_game
from tricktable.engine.options import OptionInfo

SHORT = 200
"""Characters a refusal may take: one line, whatever the value's length."""


def base_options(name: str) -> dict[str, Any]:
    return {"players": 4} if name == "3b-spades" else {}


def numeric_options() -> list[tuple[str, OptionInfo]]:
    return [
        (name, info)
        for name in game_names()
        for info in game_class(name).options_type.describe()
        if info.type in ("int", "int | None", "Optional[int]") and not info.choices
    ]


def refusal(name: str, options: dict[str, Any]) -> str:
    with pytest.raises(OptionError) as refused:
        make_game(name, {**base_options(name), **options})
    message = str(refused.value)
    assert len(message) < SHORT and "\n" not in message, message
    return message


def test_every_numeric_option_states_a_range_that_holds_its_default() -> None:
    found = numeric_options()
    assert {name for name, _ in found} == set(game_names())  # every game has some
    for name, info in found:
        assert info.minimum is not None and info.maximum is not None, (name, info.name)
        assert info.minimum < info.maximum, (name, info.name)
        if info.default is not None:
            assert info.minimum <= info.default <= info.maximum, (name, info.name)


@pytest.mark.parametrize(("name", "info"), numeric_options(),
                         ids=[f"{n}-{i.name}" for n, i in numeric_options()])
def test_the_bounds_are_taken_and_one_past_them_is_refused(name: str, info: OptionInfo) -> None:
    assert info.minimum is not None and info.maximum is not None
    for value in (info.minimum, info.maximum):
        game = make_game(name, {**base_options(name), info.name: value})
        assert getattr(game.options, info.name) == value
    for value in (info.minimum - 1, info.maximum + 1, str(info.maximum + 1)):
        message = refusal(name, {info.name: value})
        assert f"option {info.name}" in message
        assert f"from {info.minimum} to {info.maximum}" in message


def test_the_issue_s_values_are_refused_in_a_short_line() -> None:
    huge = int("9" * 4000)
    assert "target" in refusal("spades", {"target": huge})
    assert "target" in refusal("spades", {"target": "9" * 4000})
    assert "from 1 to 100" in refusal("3b-spades", {"hands": 10**12})
    assert "from 0 to 100" in refusal("paperless-spades", {"limit": 10**12})
    # more digits than Python converts: still one short line naming the option
    assert "bag_limit" in refusal("spades", {"bag_limit": "9" * 5000})
    assert "variant" in refusal("spades", {"variant": "x" * 5000})
    assert "unknown option" in refusal("spades", {"x" * 5000: 1})


def test_numbers_are_digits_not_anything_int_reads() -> None:
    for text in ("1_000", " 300", "٣٠٠", "3e2", "0x10", ""):
        assert "takes a whole number from 1 to" in refusal("spades", {"target": text})
    assert make_game("spades", {"target": "+300"}).options.target == 300


def test_options_made_in_python_keep_to_the_ranges() -> None:
    options_type = game_class("spades").options_type
    with pytest.raises(OptionError, match="target"):
        options_type(target=10**12)  # type: ignore[call-arg]
    fields = {f.name for f in dataclasses.fields(options_type)}
    assert "target" in fields


def test_the_cli_refuses_an_option_out_of_range_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = cli_module.run(["simulate", "spades", "-o", "target=" + "9" * 5000])
    _, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1, err
    assert "option target takes a whole number from 1 to" in lines[0]
    assert len(lines[0]) < SHORT


def test_the_games_listing_and_the_lobby_can_show_the_ranges() -> None:
    info = {i.name: i for i in game_class("paperless-spades").options_type.describe()}
    assert (info["limit"].minimum, info["limit"].maximum) == (0, 100)
    assert info["limit"].default == 5


def test_a_new_game_starts_where_the_text_suggests_and_a_record_keeps_the_default() -> None:
    """Dummy Hand Spades' text suggests 300 to win, the ruling keeps 500 as the default:
    a new game (a web table, ``tricktable play``) starts at 300 unless told otherwise; a
    record that names no target still plays to 500."""
    from tricktable.cli import _make_game
    from tricktable.games.dummy_hand_spades import DummyHandSpadesOptions
    from tricktable.web.spec import table_spec

    assert make_game("dummy-hand-spades", {}).options.target == 500  # a record's default
    assert DummyHandSpadesOptions.for_new_game({}).target == 300
    assert DummyHandSpadesOptions.for_new_game({"target": 500}).target == 500
    assert DummyHandSpadesOptions.for_new_game({"target": "400"}).target == 400
    assert table_spec({"game": "dummy-hand-spades"}).options == {"target": 300}
    assert table_spec({"game": "dummy-hand-spades", "options": {"target": 500}}).options == {}
    assert _make_game("dummy-hand-spades", []).options.target == 300
    assert _make_game("dummy-hand-spades", ["target=500"]).options.target == 500
    # the games without a suggestion start at their defaults
    assert _make_game("spades", []).options == make_game("spades", {}).options
    info = {o.name: o for o in DummyHandSpadesOptions.describe()}["target"]
    assert (info.default, info.new_game_default) == (500, 300)
