"""Playing Connect Four against the engine (input fed through `input`)."""

import re

import pytest
from terminal import play_typed


def play(monkeypatch, capsys, moves, *options):
    return play_typed(monkeypatch, capsys, "connect4", moves, *options)


def test_engine_blocks_three_in_a_column(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, ["1", "1", "1", "q"], "--depth", "3")
    replies = re.findall(r"The program \(O\) plays (\d)\.", out)
    assert code == 0
    assert len(replies) == 3 and replies[-1] == "1"
    assert "Game left unfinished." in out


def test_a_column_that_does_not_exist_is_explained_and_asked_again(monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, ["8", "q"], "--depth", "1", "--first", "ai")
    assert code == 0
    assert "The program (X) plays 4." in out
    assert "'8' is not a column: type a number from 1 to 7. Try again." in out


@pytest.mark.parametrize(
    ("options", "message"),
    [(["--time", "0"], "--time must be more than 0"), (["--depth", "0"], "--depth must be")],
)
def test_bad_engine_budgets_are_refused_before_the_game(monkeypatch, capsys, options, message):
    code, _, err = play(monkeypatch, capsys, [], *options)
    assert code == 2 and message in err
