"""Every number a user gives the exact-theory commands (nim, grundy, pn, the lists they read) is
answered or refused in one line: empty items between commas, heaps of thousands of digits,
octal games whose values pass 255, and the stated limits of grundy's and pn's work."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from zerosum.cli import pn
from zerosum.cli.common import INTEGER_DIGITS, parse_int_list
from zerosum.games.nim import HEAP_DIGITS, parse_heaps
from zerosum.limits import Limit
from zerosum.theory import heaps
from zerosum.theory.heaps import SECONDS
from zerosum.theory.octal import GrundysGame, OctalGame

# --- lists of integers: an empty item is refused, never skipped ----------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1,,2", "item 2 is empty"),
        ("1,", "item 2 is empty"),
        (",1", "item 1 is empty"),
        ("1, ,2", "item 2 is empty"),
        ("", "no integers given"),
        ("1,x", "'x' is not an integer"),
        ("1;2", "'1;2' is not an integer"),
        ("1," + "9" * (INTEGER_DIGITS + 1), f"item 2 has more than {INTEGER_DIGITS} digits"),
    ],
)
def test_a_malformed_integer_list_is_refused_with_the_item_at_fault(text, reason):
    with pytest.raises(ValueError, match="bad subtraction set") as refused:
        parse_int_list(text, "subtraction set")
    assert reason in str(refused.value)


def test_an_integer_list_takes_spaces_around_commas_and_signs():
    assert parse_int_list(" 4, 0 ,-2,+3", "move order") == [4, 0, -2, 3]
    assert parse_int_list("9" * INTEGER_DIGITS, "x") == [int("9" * INTEGER_DIGITS)]


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["grundy", "--subtract", "1,,2"], "bad subtraction set '1,,2': item 2 is empty"),
        (["grundy", "--subtract", "1,"], "bad subtraction set '1,': item 2 is empty"),
        (["pn", "--subtract", ",1", "--start", "5"], "bad subtraction set ',1': item 1 is empty"),
        (["nim", "1,,2"], "bad heaps '1,,2': nothing between two commas"),
        (["nim", "1,"], "bad heaps '1,': nothing between two commas"),
        (["nim", ",1"], "bad heaps ',1': nothing between two commas"),
        (["matrix", "1,,2 3,4"], "cell '1,,2' at row 1, column 1 is not a number or a pair"),
    ],
)
def test_an_empty_item_between_commas_is_one_line_on_every_command(cli, argv, reason):
    assert reason in cli.error(*argv)


def test_heaps_are_read_with_spaces_commas_or_both():
    assert parse_heaps("3 5 8") == parse_heaps("3,5,8") == parse_heaps("3, 5, 8") == (3, 5, 8)
    with pytest.raises(ValueError, match="nothing between two commas"):
        parse_heaps("3,,5")


# --- nim: any heap Bouton's theorem can judge --------------------------------------------


def test_nim_judges_a_heap_of_ten_to_the_eighteenth(cli):
    report = cli.json("nim", str(10**18), "3")
    assert report["winning_move"] == {"heap": 0, "remove": 10**18 - 3, "heaps": [3, 3]}
    code, out, _ = cli("nim", str(10**18), "3")
    assert code == 0
    assert f"xor  {10**18 ^ 3:060b}  = {10**18 ^ 3}" in out


def test_nim_judges_heaps_of_5000_digits_in_text_and_json(cli):
    digits = (
        "7" * 4999 + "6"
    )  # an even heap: Python's int() and str() stop at 4,300 digits: Decimal does not
    huge = int(Decimal(digits))
    report = cli.json("nim", digits, digits, "1")
    assert report["outcome"] == "N"
    assert report["heaps"] == [digits, digits, 1]  # a string of digits, as zerosum matrix does
    assert report["winning_move"] == {"heap": 2, "remove": 1, "heaps": [digits, digits, 0]}
    code, out, err = cli("nim", digits, "12")
    assert (code, err) == (0, "")
    assert f"the largest heap has {huge.bit_length():,} bits" in out
    assert f"taking {Decimal(huge - 12)} from heap 1" in out


def test_a_heap_of_more_digits_than_the_limit_is_one_line(cli):
    message = cli.error("nim", "1" * (HEAP_DIGITS + 1))
    assert f"at most {HEAP_DIGITS:,} digits, got one of {HEAP_DIGITS + 1:,}" in message
    assert parse_heaps("1" * HEAP_DIGITS) == (int(Decimal("1" * HEAP_DIGITS)),)


# --- octal games whose values pass 255 ----------------------------------------------------


def _naive_values(game: OctalGame, count: int) -> list[int]:
    """Grundy numbers by the definition: the mex of the XORs of every option's heaps."""
    values: list[int] = []
    for n in range(count):
        reached = set()
        for option in game.heap_options(n):
            total = 0
            for size in option:
                total ^= values[size]
            reached.add(total)
        values.append(next(v for v in range(len(reached) + 1) if v not in reached))
    return values


def test_an_octal_game_whose_values_pass_255_is_computed_as_the_definition_says():
    game = OctalGame("0.777777777")
    values = game.sequence(900, search=64).values
    assert max(values[:761]) <= 255 < values[761]
    assert list(values) == _naive_values(OctalGame("0.777777777"), 901)


def test_grundy_command_takes_the_octal_game_0_777777777(cli):
    report = cli.json("grundy", "--octal", "0.777777777", "--upto", "800", "--search", "64")
    assert len(report["values"]) == 801
    assert max(report["values"]) > 255


# --- grundy: each game's cost is its limit ------------------------------------------------


def test_grundys_game_to_a_million_is_refused_before_any_work_with_the_override(cli):
    message = cli.error("grundy", "grundy", "--upto", "1000000")
    assert "the time of these Grundy values (estimated, in seconds) 1,259" in message
    assert f"the limit of {SECONDS.most}" in message
    assert "heaps 0 to 1,000,000" in message
    assert "--no-limit" in message


def test_the_estimates_put_each_game_s_edge_where_its_help_says():
    assert GrundysGame().seconds(300_000) <= SECONDS.most < GrundysGame().seconds(310_000)
    kayles, nine_splits = OctalGame("0.77"), OctalGame("0.777777777")
    assert kayles.seconds(160_000) <= SECONDS.most < kayles.seconds(165_000)
    assert nine_splits.seconds(76_000) <= SECONDS.most < nine_splits.seconds(77_000)


def test_kayles_to_a_million_is_answered_from_its_proved_period(cli):
    report = cli.json("grundy", "kayles", "--upto", "1000000")
    assert (report["preperiod"], report["period"]) == (71, 12)
    assert len(report["values"]) == 1_000_001


def test_the_period_search_stops_where_the_time_limit_does_and_says_how_far(cli, monkeypatch):
    monkeypatch.setattr(heaps, "SECONDS", Limit(SECONDS.what, 1, SECONDS.cost))
    code, out, _ = cli("grundy", "--octal", "0." + "7" * 1000, "--upto", "30")
    assert code == 0
    assert "octal game 0.7777777777777777777777777777777777777777... (1,000 in all)" in out
    assert "no period proved from heaps 0 to 511" in out  # 1000 * 1024**2 / 4 pairs: over 1 s


def test_a_subtraction_game_of_many_amounts_is_limited_by_its_cost(cli):
    amounts = ",".join(map(str, range(1, 10_001)))
    message = cli.error("grundy", "--subtract", amounts, "--upto", "1000000", "--search", "1")
    assert "heaps 0 to 1,000,000" in message


def test_progress_hears_the_heaps_computed():
    heard: list[int] = []
    GrundysGame().sequence(1000, on_progress=heard.append)
    assert heard == sorted(heard) and heard[-1] > 768


# --- pn: linear memory, stated limits -----------------------------------------------------


def test_pn_steps_are_printed_as_before_and_agree_with_the_final_sets(cli):
    report = cli.json("pn", "--subtract", "1,3,4", "--start", "2000")
    last = report["construction"][-1]
    assert last["p_positions"] == report["p_positions"]
    assert last["n_positions"] == report["n_positions"]
    assert len(report["p_positions"]) + len(report["n_positions"]) == 2001
    code, out, _ = cli("pn", "--subtract", "1,3,4", "--start", "2000", "--steps")
    rows = out.splitlines()
    assert rows[0].split() == ["step", "P", "N"]
    assert len(rows) == 1 + len(report["construction"]) + 3


@pytest.mark.parametrize("output", ["--steps", "--json"])
def test_pn_step_by_step_is_limited_at_its_edge(cli, monkeypatch, output):
    monkeypatch.setattr(pn, "STEPS", Limit(pn.STEPS.what, 10, pn.STEPS.cost))
    code, _, _ = cli("pn", "--subtract", "1,2", "--start", "9", output)
    assert code == 0
    message = cli.error("pn", "--subtract", "1,2", "--start", "10", output)
    assert "printed step by step (--steps, --json) 11 is over the limit of 10" in message
    assert "--no-limit" in message
    assert cli("pn", "--subtract", "1,2", "--start", "10", output, "--no-limit").code == 0


def test_pn_moves_are_limited_and_the_limit_is_stated(cli):
    message = cli.error("pn", "--subtract", "1,2,3,4,5", "--start", "4999999")
    assert f"{pn.MOVES.what} 24,999,985" in message
    assert f"the limit of {pn.MOVES.most:,}" in message
    assert "--no-limit" in message
    code, out, _ = cli("pn", "--help")
    assert "the moves of the construction" in " ".join(out.split())


def test_pn_positions_are_limited_at_their_edge(cli):
    message = cli.error("pn", "--subtract", "1", "--start", "5000000")
    assert "the positions from --start to --target 5,000,001 is over the limit of 5,000,000" in (
        message
    )
    # an amount larger than the distance is no move, however large
    assert cli.json("pn", "--subtract", f"1,{10**99}", "--start", "3")["outcome"] == "N"


@pytest.mark.parametrize("unit", ["1e999999999", "1e-100", "0." + "1" * 101])
def test_pn_refuses_a_unit_too_long_to_print(cli, unit):
    assert "it is written out in at most 100 digits" in cli.error(
        "pn", "--subtract", "1", "--start", "1", "--unit", unit
    )


def test_pn_takes_a_unit_of_99_decimals(cli):
    report = cli.json("pn", "--subtract", "1", "--start", "1", "--unit", "1e-99")
    assert report["p_positions"] == [0] and report["n_positions"] == [1e-99]


def test_nim_json_of_heaps_up_to_4300_digits_has_numbers(cli):
    code, out, _ = cli("nim", "9" * 4200, "--json")
    assert code == 0
    assert json.loads(out)["heaps"] == [int("9" * 4200)]
