"""The nim, grundy and pn commands: JSON fields, text, and one-line errors with exit code 2."""

import json

import pytest


@pytest.mark.parametrize(
    ("heaps", "outcome", "nim_sum", "winning_move"),
    [
        (["3", "5", "8"], "N", 14, {"heap": 2, "remove": 2, "heaps": [3, 5, 6]}),
        (["9", "19", "26"], "P", 0, None),
    ],
    ids=["3 5 8: N, the move on heap 2", "9 19 26: P, no move"],
)
def test_nim_json_gives_the_outcome_the_nim_sum_and_the_move(
    cli, heaps, outcome, nim_sum, winning_move
):
    report = cli.json("nim", *heaps)
    assert (report["outcome"], report["nim_sum"]) == (outcome, nim_sum)
    assert report["winning_move"] == winning_move


def test_nim_misere_json_on_single_objects(cli):
    report = cli.json("nim", "1", "1", "1", "--misere")
    assert report["outcome"] == "P" and report["misere"] is True
    report = cli.json("nim", "1", "1", "--misere")
    assert report["winning_move"] == {"heap": 0, "remove": 1, "heaps": [0, 1]}


def test_nim_text_shows_binary_columns_and_the_move(cli):
    code, out, _ = cli("nim", "3", "5", "8")
    assert code == 0
    assert "     8 4 2 1\n  3  0 0 1 1\n  5  0 1 0 1\n  8  1 0 0 0\nxor  1 1 1 0  = 14" in out
    assert "taking 2 from heap 3 (8 -> 6), leaving 3 5 6" in out


def test_grundy_subtract_134_json(cli):
    report = cli.json("grundy", "--subtract", "1,3,4", "--upto", "30")
    assert report["values"][:8] == [0, 1, 0, 1, 2, 3, 2, 0]
    assert len(report["values"]) == 31
    assert report["p_positions"] == [0, 2, 7, 9, 14, 16, 21, 23, 28, 30]
    assert (report["preperiod"], report["period"]) == (0, 7)


def test_grundy_kayles_json_has_period_12_from_71(cli):
    report = cli.json("grundy", "--octal", "0.77", "--upto", "200")
    assert (report["preperiod"], report["period"]) == (71, 12)
    assert report["values"][:12] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    assert cli.json("grundy", "kayles", "--upto", "200")["values"] == report["values"]


def test_grundys_game_json_has_no_period(cli):
    report = cli.json("grundy", "grundy", "--upto", "100")
    assert report["period"] is None and report["preperiod"] is None
    assert report["p_positions"][:6] == [0, 1, 2, 4, 7, 10]
    code, out, _ = cli("grundy", "grundy", "--upto", "20")
    assert code == 0
    assert "no period found up to heap 20" in out


def test_grundy_text_reports_the_proved_period(cli):
    code, out, _ = cli("grundy", "--subtract", "1,2,3", "--upto", "12")
    assert code == 0
    assert "P positions: 0, 4, 8, 12" in out
    assert "period 4 from heap 0" in out


def test_pn_decimal_game_steps_table(cli):
    argv = ["pn", "--subtract", "1,2", "--start", "0", "--target", "10", "--steps", "--unit", "0.1"]
    code, out, _ = cli(*argv)
    assert code == 0
    out = out.splitlines()
    assert out[1].split() == ["0", "{1}", "{}"]
    assert out[8].split(None, 1) == ["7", "{1, 0.7, 0.4, 0.1}  {0.9, 0.8, 0.6, 0.5, 0.3, 0.2, 0}"]
    assert "P = {1, 0.7, 0.4, 0.1}" in out


def test_pn_decimal_game_json(cli):
    report = cli.json("pn", "--subtract", "1,2", "--start", "0", "--target", "10", "--unit", "0.1")
    assert report["p_positions"] == [1, 0.7, 0.4, 0.1]
    assert report["outcome"] == "N"
    assert len(report["construction"]) == 8
    assert report["construction"][1] == {"step": 1, "p_positions": [1], "n_positions": [0.9, 0.8]}


def test_pn_decimal_game_to_12_is_lost_by_the_teacher(cli):
    report = cli.json("pn", "--subtract", "1,2", "--start", "0", "--target", "12", "--unit", "0.1")
    assert report["p_positions"] == [1.2, 0.9, 0.6, 0.3, 0]
    assert report["outcome"] == "P"


def test_pn_subtract_134_from_100_is_p(cli):
    report = cli.json("pn", "--subtract", "1,3,4", "--start", "100")
    assert report["outcome"] == "P"
    assert report["p_positions"][:5] == [0, 2, 7, 9, 14]


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["nim", "3", "-2"], "a heap size must be a non-negative integer, got '-2'"),
        (["nim", "2.5"], "a heap size must be a non-negative integer, got '2.5'"),
        (["nim", "3", "²"], "a heap size must be a non-negative integer, got '²'"),
        (["grundy", "--subtract", ""], "bad subtraction set '': no integers given"),
        (["grundy", "--subtract", "0,1"], "the subtraction set must hold positive numbers, got 0"),
        (["grundy", "--subtract", "1,x"], "bad subtraction set '1,x'"),
        (["grundy", "--octal", "0.8"], "bad octal code '0.8'"),
        (["grundy", "--octal", "0.77", "--upto", "-1"], "the largest heap must be at least 0"),
        (["grundy", "grundy", "--upto", "1000001"], "--upto is at most 1,000,000"),
        (["pn", "--subtract", "", "--start", "5"], "bad subtraction set '': no integers given"),
        (["pn", "--subtract", "1,2", "--start", "-3"], "must be non-negative"),
        (["pn", "--subtract", "1,2", "--start", "3", "--unit", "x"], "bad --unit 'x'"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(cli, argv, reason):
    assert reason in cli.error(*argv)  # one line on stderr, exit code 2


def test_nim_command_runs_as_a_module(cli):
    code, out, _ = cli.process("nim", "18", "45", "53", "--json")
    assert code == 0
    assert json.loads(out)["winning_move"] == {
        "heap": 1,
        "remove": 6,
        "heaps": [18, 39, 53],
    }


def test_grundy_malformed_code_exits_2_from_a_subprocess(cli):
    code, _, err = cli.process("grundy", "--octal", "0.9")
    assert code == 2
    assert err.startswith("zerosum: error: bad octal code") and err.count("\n") == 1
