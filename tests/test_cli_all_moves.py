"""Every move's exact value (`solve --all-moves`, `analyze --exact`), the solver player, the
Connect Four solver's table size, and the bad input they refuse."""

from __future__ import annotations

import contextlib

import pytest

from zerosum import notation, registry
from zerosum.compiled import cache
from zerosum.games.connect4 import ConnectFour
from zerosum.players import Seat, parse_player, player_maker
from zerosum.solve import connect4
from zerosum.solve.answer import exact_move_values
from zerosum.solve.connect4 import ConnectFourExact

DRAWN = "2737772244262123677516643354"  # Test_L2_R1: 0, only column 4 keeps the draw
LATE_DRAW = "641154574541323641152467137655232232366"  # Test_L3_R1: 0, three plies left


def test_all_moves_gives_every_columns_score_best_first_in_json(cli):
    report = cli.json("solve", "connect4", DRAWN, "--all-moves")
    assert list(report["all_moves"].items()) == [("4", 0), ("3", -7), ("5", -7), ("6", -7),
                                                 ("1", -7)]  # fmt: skip
    assert (report["score"], report["best_move"]) == (0, "4")


def test_all_moves_prints_one_line_a_move_best_first(cli):
    code, out, _ = cli("solve", "connect4", DRAWN, "--all-moves")
    lines = out.splitlines()
    start = lines.index("every move, best first (score for X):")
    assert code == 0 and [line.split()[:2] for line in lines[start + 1 :]] == [
        ["4", "0"], ["3", "-7"], ["5", "-7"], ["6", "-7"], ["1", "-7"]
    ]  # fmt: skip
    assert lines[start + 2].endswith("the opponent wins with their stone number 15")


def test_the_scores_of_the_moves_agree_with_the_solve_of_each_child():
    game = ConnectFour(width=5, height=4)
    exact = ConnectFourExact(game)
    state = game.initial_state()
    values = exact.move_values(state).values
    assert values == {2: 0, 1: 0, 3: 0, 0: -1, 4: -1}
    for column, score in values.items():
        assert -exact.answer(game.result(state, column)).details["score"] == score


def test_a_game_without_a_solver_has_each_move_searched_to_the_end(cli):
    report = cli.json("solve", "tictactoe", "XOX.O....", "--all-moves")
    assert report["all_moves"] == {"7": 0, "3": -1, "5": -1, "6": -1, "8": -1}
    tree = cli.json("solve", "tree", "[[3,12,8],[2,4,6],[14,5,2]]", "--all-moves")
    assert tree["all_moves"] == {"0": 3, "1": 2, "2": 2}


def test_analyze_exact_gives_the_same_scores(cli):
    report = cli.json("analyze", "connect4", DRAWN, "--exact")
    solved = cli.json("solve", "connect4", DRAWN, "--all-moves")
    assert report["all_moves"] == solved["all_moves"]
    assert (report["best_move"], report["score"], report["value"]) == ("4", 0, 0)
    code, out, _ = cli("analyze", "connect4", DRAWN, "--exact")
    assert code == 0 and out.splitlines()[-1] == "best move: 4  score: 0"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "connect4", "4444444", "--all-moves"], "column 4 is full"),
        (["analyze", "connect4", "48", "--exact"], "'8' is not a column"),
        (["solve", "connect4", "4455667", "--all-moves"], "the game is already over"),
        (["analyze", "connect4", "4455667", "--exact"], "the game is already over"),
        (["solve", "connect4", DRAWN, "--table-mb", "0"], "--table-mb must be a positive number"),
        (["solve", "connect4", DRAWN, "--table-mb", "-2"], "got -2"),
        (["solve", "connect4", DRAWN, "--table-mb", "nan"], "--table-mb must be"),
        (["analyze", "connect4", DRAWN, "--exact", "--table-mb", "1e12"], "this machine's memory"),
        (["play", "connect4", "--perfect", "--table-mb", "1e12"], "this machine's memory"),
        (["solve", "tictactoe", "--table-mb", "8"], "tictactoe is solved by an exact search"),
        (["solve", "pig", "--all-moves"], "pig's solver does not score every move"),
        (["solve", "chess", "--all-moves"], "too many positions"),
        (["solve", "connect4", "--file", "x", "--all-moves"], "not a --file"),
        (["analyze", "connect4", DRAWN, "--exact", "--depth", "3"], "takes no --depth"),
        (["match", "chess", "--a", "solver", "--b", "random"], "chess has no exact solver"),
        (["play", "connect4", "--perfect", "--ai", "random"], "give it or --ai"),
        (
            ["match", "connect4", "--a", "random", "--b", "random", "--table-mb", "8"],
            "not the random's",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, argv, message):
    assert message in cli.error(*argv)


def test_bad_input_is_a_value_error_from_the_api():
    game = ConnectFour()
    for position in ("4444444", "48"):
        with pytest.raises(ValueError):
            notation.state_of(game, position)
    with pytest.raises(ValueError, match="already over"):
        ConnectFourExact(game).move_values(game.parse_state("4455667"))
    with pytest.raises(ValueError, match="already over"):
        exact_move_values(game, game.parse_state("4455667"))
    for megabytes in (0, -1, float("inf"), 1e12):
        with pytest.raises(ValueError, match="table_mb must be a positive number"):
            ConnectFourExact(game, table_mb=megabytes)


def test_perfect_is_the_solver_player():
    assert parse_player("perfect").kind == parse_player("solver").kind == "solver"
    assert parse_player("perfect").text == "perfect"


def test_the_solver_player_never_loses_a_drawn_connect4_ending(cli):
    report = cli.json("match", "connect4", LATE_DRAW, "--a", "solver", "--b", "engine:depth=2",
                      "--games", "2")  # fmt: skip
    assert (report["losses"], report["draws"]) == (0, 2)


def test_the_solver_player_plays_the_solvers_best_move_and_shows_it_thinking():
    game = ConnectFour()
    state = game.parse_state(DRAWN)
    shown = []

    @contextlib.contextmanager
    def thinking(solver, state):
        shown.append(state)
        yield

    seat = Seat(registry.entry_of(game), thinking=thinking, table_mb=8)
    choose = player_maker("solver", game, seat)(0)
    assert choose(state) == 3  # column 4, the only one keeping the draw
    assert choose(game.result(game.result(state, 3), 3)) in range(7) and len(shown) == 2


def test_the_solver_note_while_it_compiles_goes_through_the_compiled_listeners(monkeypatch):
    """`zerosum.compiled.cache.told` tells the listeners (the command line's "compiling...")
    only when numba really compiles, which a test process cannot count on: its call is checked."""
    assert connect4.told is cache.told
    told = []

    @contextlib.contextmanager
    def recording(what):
        told.append(what)
        yield

    monkeypatch.setattr(connect4, "told", recording)
    ConnectFourExact(ConnectFour(width=5, height=4))
    assert told == ["compiling the Connect Four solver (once; later runs read the cache)"]
