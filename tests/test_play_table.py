"""`zerosum play tictactoe --table FILE`: the program plays from the table and never searches."""

from zerosum.games.connect4 import ConnectFour
from zerosum.search import exact
from zerosum.solve import solve


def test_play_from_a_table_blocks_and_never_searches(tictactoe_table_file, monkeypatch, cli):
    def no_search(*args, **kwargs):
        raise AssertionError("a position in the table was searched")

    monkeypatch.setattr(exact, "alphabeta", no_search)  # the perfect player's search
    argv = ["play", "tictactoe", "--table", str(tictactoe_table_file)]
    code, out, _ = cli(*argv, answers=["0", "1", "q"])
    assert code == 0
    assert "The program (O) plays 4." in out  # the only reply to a corner that holds the draw
    assert "The program (O) plays 2." in out  # blocks 0-1-2


def test_play_with_a_table_of_another_game_is_one_line_exit_2(tmp_path, cli):
    path = tmp_path / "c4.tb"
    solve(ConnectFour(3, 3), workers=1).save(path)
    err = cli.error("play", "tictactoe", "--table", str(path))  # one line, exit code 2
    assert "built for ConnectFour(width=3, height=3, connect=4)" in err
