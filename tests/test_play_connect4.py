"""Playing Connect Four against the engine (input fed through `input`)."""

import re

import pytest


def test_engine_blocks_three_in_a_column(cli):
    code, out, _ = cli("play", "connect4", "--depth", "3", answers=["1", "1", "1", "q"])
    replies = re.findall(r"The program \(O\) plays (\d)\.", out)
    assert code == 0
    assert len(replies) == 3 and replies[-1] == "1"
    assert "Game left unfinished." in out


def test_a_column_that_does_not_exist_is_explained_and_asked_again(cli):
    code, out, _ = cli("play", "connect4", "--depth", "1", "--first", "ai", answers=["8", "q"])
    assert code == 0
    assert "The program (X) plays 4." in out
    assert "'8' is not a column: type a number from 1 to 7. Try again." in out


@pytest.mark.parametrize(
    ("options", "message"),
    [(["--time", "0"], "--time must be more than 0"), (["--depth", "0"], "--depth must be")],
)
def test_bad_engine_budgets_are_refused_before_the_game(cli, options, message):
    code, _, err = cli("play", "connect4", *options, answers=[])
    assert code == 2 and message in err
