"""The `zerosum` command: the textbook's numbers from the command line, JSON, and bad input."""

import json
import subprocess
import sys

import pytest

TEXTBOOK_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"


@pytest.mark.parametrize(
    ("algorithm", "leaves"), [("minimax", 255_168), ("negamax", 255_168), ("alphabeta", 7_330)]
)
def test_solve_tictactoe_reports_the_textbook_counts(cli, algorithm, leaves):
    report = cli.json("solve", "tictactoe", "--algorithm", algorithm)
    assert report["value"] == 0
    assert report["leaves"] == leaves
    assert report["best_move"] == "0"
    assert report["pv"][0] == "0" and len(report["pv"]) == 9
    assert report["nodes"] > report["leaves"]


@pytest.mark.parametrize(
    ("order", "leaves"), [("4,0,2,6,8,1,3,5,7", 2_893), ("1,3,5,7,0,2,6,8,4", 17_002)]
)
def test_solve_tictactoe_with_a_move_order(cli, order, leaves):
    report = cli.json("solve", "tictactoe", "--order", order)
    assert (report["value"], report["leaves"]) == (0, leaves)


def test_solve_tictactoe_position_finds_the_only_drawing_square(cli):
    report = cli.json("solve", "tictactoe", "--position", "XOX.O....")
    assert (report["value"], report["best_move"]) == (0, "7")


def test_solve_tictactoe_with_distance_reports_plies(cli):
    report = cli.json("solve", "tictactoe", "--position", "XO..X....", "--distance")
    assert (report["value"], report["best_move"], report["plies"]) == (-1, "8", 4)


def test_solve_text_output_names_value_move_and_counts(cli):
    code, out, _ = cli("solve", "tictactoe")
    assert code == 0
    assert "X to move: value 0 (a draw with best play)" in out
    assert "best move: 0" in out
    assert "7,330 finished games reached" in out


def test_tree_reports_examined_and_pruned_leaves(cli):
    report = cli.json("tree", TEXTBOOK_TREE)
    assert (report["value"], report["best_move"], report["leaves"]) == (3, "0", 7)
    assert report["pruned"] == [[1, 1], [1, 2]]
    assert len(report["examined"]) == 7
    assert report["pv"] == ["0", "0"]


def test_tree_with_minimax_prunes_nothing(cli):
    report = cli.json("tree", TEXTBOOK_TREE, "--algorithm", "minimax")
    assert (report["value"], report["leaves"], report["pruned"]) == (3, 9, [])


def test_tree_text_output_marks_the_pruned_leaves(cli):
    code, out, _ = cli("tree", TEXTBOOK_TREE)
    assert code == 0
    assert "leaves examined: 7 of 9" in out
    assert [line.split()[0] for line in out.splitlines() if line.endswith("pruned")] == [
        "1.1",
        "1.2",
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tree", "[[3,12,8],[2,4,6],[14,5,2]"], "malformed tree"),
        (["tree", "[[3,12],[]]"], "empty list"),
        (["tree", '[[3,"x"]]'], "expected a number"),
        (["solve", "nosuch"], "unknown game 'nosuch'"),
        (["solve", "chess"], "chess has too many positions to solve by searching to the end"),
        (["solve", "tictactoe", "--position", "XOX"], "bad position"),
        (["solve", "tictactoe", "--order", "4,a"], "bad --order"),
        (["solve", "tictactoe", "--order", "4,4"], "it lists 4 twice"),
        (["solve", "tictactoe", "--algorithm", "magic"], "invalid choice"),
        (["play", "tictactoe", "--first", "ai", "--as", "X"], "contradicts"),
        (["play", "tictactoe", "--as", "Z"], "choose X or O"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(cli, argv, message):
    code, out, err = cli(*argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert message in err


def test_python_dash_m_zerosum_runs_the_command(cli):
    code, out, _ = cli.process("tree", TEXTBOOK_TREE, "--json")
    assert code == 0
    assert json.loads(out)["value"] == 3


def test_a_users_typo_gives_no_traceback_from_a_real_process(cli):
    code, _, err = cli.process("solve", "tictactoe", "--position", "XXXXXXXXX")
    assert code == 2
    assert "Traceback" not in err
    assert err.startswith("zerosum: error: bad position")


def test_solve_a_finished_position_says_the_game_is_over(cli):
    code, out, _ = cli("solve", "tictactoe", "--position", "XXXOO....")
    assert code == 0
    assert "the game is over: value -1 for O (a loss)" in out
    report = cli.json("solve", "tictactoe", "--position", "XXXOO....")
    assert (report["value"], report["best_move"], report["pv"]) == (-1, None, [])


def test_a_full_disk_is_one_line_and_exit_code_2():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "zerosum", "games"], stdout=full, stderr=subprocess.PIPE,
            text=True, timeout=600,
        )  # fmt: skip
    assert (done.returncode, done.stderr) == (2, "zerosum: error: No space left on device\n")


def test_a_reader_that_leaves_ends_the_command_quietly():
    done = subprocess.run(
        f"{sys.executable} -m zerosum grundy kayles --upto 100000 | head -c 10",
        shell=True, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.stdout == "octal game" and done.stderr == ""
