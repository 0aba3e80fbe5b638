"""`zerosum play tictactoe --table FILE`: the program plays from the table and never searches."""

import pytest

from zerosum import registry
from zerosum.cli import main
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.solve import solve


@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "ttt.tb"
    solve(TicTacToe(), workers=1).save(path)
    return path


def test_play_from_a_table_blocks_and_never_searches(table_file, monkeypatch, capsys):
    def no_search(*args, **kwargs):
        raise AssertionError("a position in the table was searched")

    monkeypatch.setattr(registry, "alphabeta", no_search)  # the perfect player's search
    moves = iter(["0", "1", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(moves))
    assert main(["play", "tictactoe", "--table", str(table_file)]) == 0
    out = capsys.readouterr().out
    assert "The program (O) plays 4." in out  # the only reply to a corner that holds the draw
    assert "The program (O) plays 2." in out  # blocks 0-1-2


def test_play_with_a_table_of_another_game_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "c4.tb"
    solve(ConnectFour(3, 3), workers=1).save(path)
    assert main(["play", "tictactoe", "--table", str(path)]) == 2
    err = capsys.readouterr().err
    assert "built for ConnectFour(width=3, height=3, connect=4)" in err
    assert err.count("\n") == 1
