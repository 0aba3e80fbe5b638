"""The `zerosum` command: the textbook's numbers from the command line, JSON, and bad input."""

import json
import subprocess
import sys

import pytest

from zerosum.cli import main

SEED_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("algorithm", "leaves"), [("minimax", 255_168), ("negamax", 255_168), ("alphabeta", 7_330)]
)
def test_solve_tictactoe_reports_the_textbook_counts(capsys, algorithm, leaves):
    report = run_json(capsys, "solve", "tictactoe", "--algorithm", algorithm)
    assert report["value"] == 0
    assert report["leaves"] == leaves
    assert report["best_move"] == "0"
    assert report["pv"][0] == "0" and len(report["pv"]) == 9
    assert report["nodes"] > report["leaves"]


@pytest.mark.parametrize(
    ("order", "leaves"), [("4,0,2,6,8,1,3,5,7", 2_893), ("1,3,5,7,0,2,6,8,4", 17_002)]
)
def test_solve_tictactoe_with_a_move_order(capsys, order, leaves):
    report = run_json(capsys, "solve", "tictactoe", "--order", order)
    assert (report["value"], report["leaves"]) == (0, leaves)


def test_solve_tictactoe_position_finds_the_only_drawing_square(capsys):
    report = run_json(capsys, "solve", "tictactoe", "--position", "XOX.O....")
    assert (report["value"], report["best_move"]) == (0, "7")


def test_solve_tictactoe_with_distance_reports_plies(capsys):
    report = run_json(capsys, "solve", "tictactoe", "--position", "XO..X....", "--distance")
    assert (report["value"], report["best_move"], report["plies"]) == (-1, "8", 4)


def test_solve_text_output_names_value_move_and_counts(capsys):
    assert main(["solve", "tictactoe"]) == 0
    out = capsys.readouterr().out
    assert "X to move: value 0 (a draw with best play)" in out
    assert "best move: 0" in out
    assert "7,330 finished games reached" in out


def test_tree_reports_examined_and_pruned_leaves(capsys):
    report = run_json(capsys, "tree", SEED_TREE)
    assert (report["value"], report["best_move"], report["leaves"]) == (3, "0", 7)
    assert report["pruned"] == [[1, 1], [1, 2]]
    assert len(report["examined"]) == 7
    assert report["pv"] == ["0", "0"]


def test_tree_with_minimax_prunes_nothing(capsys):
    report = run_json(capsys, "tree", SEED_TREE, "--algorithm", "minimax")
    assert (report["value"], report["leaves"], report["pruned"]) == (3, 9, [])


def test_tree_text_output_marks_the_pruned_leaves(capsys):
    assert main(["tree", SEED_TREE]) == 0
    out = capsys.readouterr().out
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
        (["solve", "othello"], "unknown game 'othello'"),
        (["solve", "chess"], "chess has too many positions to solve by searching to the end"),
        (["solve", "tictactoe", "--position", "XOX"], "bad position"),
        (["solve", "tictactoe", "--order", "4,a"], "bad move order"),
        (["solve", "tictactoe", "--order", "4,4"], "lists a move twice"),
        (["solve", "tictactoe", "--algorithm", "magic"], "invalid choice"),
        (["play", "tictactoe", "--first", "ai", "--as", "X"], "contradicts"),
        (["play", "tictactoe", "--as", "Z"], "choose X or O"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_code_2(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        code = main(argv)
        raise SystemExit(code)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert message in captured.err


def test_python_dash_m_zerosum_runs_the_command():
    completed = subprocess.run(
        [sys.executable, "-m", "zerosum", "tree", SEED_TREE, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(completed.stdout)["value"] == 3


def test_a_users_typo_gives_no_traceback_from_a_real_process():
    completed = subprocess.run(
        [sys.executable, "-m", "zerosum", "solve", "tictactoe", "--position", "XXXXXXXXX"],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.startswith("zerosum: error: bad position")


def test_solve_a_finished_position_says_the_game_is_over(capsys):
    assert main(["solve", "tictactoe", "--position", "XXXOO...."]) == 0
    assert "the game is over: value -1 for O (a loss)" in capsys.readouterr().out
    report = run_json(capsys, "solve", "tictactoe", "--position", "XXXOO....")
    assert (report["value"], report["best_move"], report["pv"]) == (-1, None, [])
