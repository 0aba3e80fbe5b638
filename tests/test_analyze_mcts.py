"""`zerosum analyze go`: the position searched by MCTS, each move with its visits, value, win
rate and principal line (issue 37).

The compiled MCTS is compiled for Go once a process (a few seconds).
"""

from __future__ import annotations

import pytest

from zerosum.compiled.mcts import MCTS
from zerosum.games.go import Go
from zerosum.games.tictactoe import TicTacToe
from zerosum.search.mcts import MCTS as PythonMCTS

SMALL = Go(size=5)
# White's five stones D4 E4 D3 E3 D2 have one liberty left, E2, and Black is to move: taking
# them is the move. Black's area is 18 to White's 5: with a komi of 15.5 a pass loses
ATARI = "C3 D3 C2 D2 C4 D4 D5 E4 E5 E3 B1 pass D1 pass"


def played(game: Go, position: str, line: list[str]) -> None:
    """Plays `line` from `position`, each move legal in turn."""
    state = game.parse_state(position)
    for text in line:
        move = game.parse_move(state, text)
        assert move in game.legal_moves(state), text
        state = game.result(state, move)


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_every_legal_move_is_listed_and_the_visits_are_the_iterations(cli, engine):
    argv = ["analyze", "go", "C3 D3", "--size", "5", "--iterations", "400", "--top", "99"]
    report = cli.json(*argv, "--engine", engine)
    state = SMALL.parse_state("C3 D3")
    legal = {SMALL.format_move(state, move) for move in SMALL.legal_moves(state)}
    assert (report["algorithm"], report["impl"], report["iterations"]) == ("mcts", engine, 400)
    assert report["to_move"] == 0 and report["legal_moves"] == len(legal) == 24
    assert {move["move"] for move in report["moves"]} == legal
    assert sum(move["visits"] for move in report["moves"]) == 400 - 1  # the root's own playout
    visits = [move["visits"] for move in report["moves"]]
    assert visits == sorted(visits, reverse=True)
    assert report["best_move"] in legal and report["pv"][0] == report["best_move"]
    for move in report["moves"]:
        assert move["pv"][0] == move["move"]
        played(SMALL, "C3 D3", move["pv"])
        assert move["win_rate"] == pytest.approx((move["value"] + 1) / 2, abs=1e-6)
    assert report["win_rate"] == pytest.approx((report["value"] + 1) / 2, abs=1e-6)


def test_the_capture_of_a_group_in_atari_is_the_best_move(cli):
    argv = ("analyze", "go", ATARI, "--size", "5", "--komi", "15.5", "--iterations", "3000")
    report = cli.json(*argv)
    assert report["to_move"] == 0 and report["best_move"] == "E2"
    assert report["moves"][0]["move"] == "E2" and report["moves"][0]["win_rate"] > 0.5


def test_the_same_seed_gives_the_same_analysis(cli):
    argv = ("analyze", "go", "--size", "5", "--iterations", "300", "--seed", "7")
    first, second = cli.json(*argv), cli.json(*argv)
    del first["seconds"], second["seconds"]
    assert first == second


def test_the_text_lists_the_moves_and_the_best(cli):
    code, out, err = cli("analyze", "go", "C3", "--size", "5", "--iterations", "200", "--top", "3")
    lines = out.splitlines()
    assert (code, err) == (0, "")
    assert lines[8].startswith("MCTS (compiled), 200 iterations,")
    assert lines[8].endswith("values and win rates for White, to move:")
    assert [line[:5] for line in lines[9:12]] == ["  1. ", "  2. ", "  3. "]
    assert lines[12] == "25 legal moves, 3 listed"  # 24 points and the pass
    assert lines[13].startswith("best move: ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["Z9"], "'Z9' is not a point"),
        (["C3 C3"], "C3 is taken"),
        (["pass pass"], "the game is already over"),
        (["--depth", "3"], "go is analysed by MCTS: MCTS has no depth to stop at (--depth)"),
        (["--nodes", "100"], "MCTS counts iterations, not nodes"),
        (["--table-mb", "8"], "--table-mb"),
        (["--iterations", "0"], "--iterations must be"),
        (["--time", "-1"], "--time must be"),
        (["--top", "0"], "--top must be at least 1"),
        (["--engine", "python", "--playouts", "random"], "the Python MCTS's are random"),
        (["--rave", "-3"], "--rave must be from 0 to"),
    ],
)
def test_a_bad_position_or_option_is_one_line_and_exit_code_2(cli, argv, message):
    assert message in cli.error("analyze", "go", "--size", "5", *argv)


def test_rave_changes_the_analysis_and_keeps_its_counts(cli):
    argv = ("analyze", "go", "--size", "5", "--iterations", "600", "--top", "99")
    plain, rave = cli.json(*argv), cli.json(*argv, "--rave", "300")
    assert sum(move["visits"] for move in rave["moves"]) == 600 - 1
    assert [m["visits"] for m in rave["moves"]] != [m["visits"] for m in plain["moves"]]


@pytest.mark.parametrize(
    "option", [["--iterations", "10"], ["--playouts", "random"], ["--rave", "100"]]
)
def test_the_options_of_mcts_are_refused_where_the_engine_analyses(cli, option):
    message = cli.error("analyze", "connect4", *option)
    assert "is MCTS's, and connect4 is analysed by the engine" in message


@pytest.mark.parametrize("search", [MCTS, PythonMCTS])
def test_principal_lines_follow_the_most_visited_children(search):
    game = TicTacToe()
    state = game.parse_state("X...O....")
    mcts = search(game, iterations=2_000, seed=3)
    result = mcts.search(state)
    lines = mcts.principal_lines()
    assert set(lines) == {stats.move for stats in result.moves}
    for move, line in lines.items():
        assert line[0] == move
        position = state
        for step in line:
            assert step in game.legal_moves(position)
            position = game.result(position, step)
    assert len(max(lines.values(), key=len)) > 2  # 2,000 iterations reach below the replies
