"""Budgets and lengths a user gives `play`, `match` and `analyze`: checked at their edges,
refused in one line that says what is expected and the limit; a human leaving a match."""

import io
import sys

import pytest

from zerosum.games.tictactoe import TicTacToe
from zerosum.match import GAMES, play_match
from zerosum.players import DEPTH, ITERATIONS, MOST_SECONDS, NODES, parse_player, player_maker


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("engine:depth=100", {"depth": DEPTH.most}),
        ("engine:nodes=100000000", {"nodes": NODES.most}),
        ("mcts:iterations=10000000", {"iterations": ITERATIONS.most}),
        ("mcts:time=3600", {"time": MOST_SECONDS}),
        ("mcts:iterations=1,c=0", {"iterations": 1, "c": 0.0}),
        ("mcts:iterations=1,c=100", {"iterations": 1, "c": 100.0}),
        ("expectiminimax:depth=1", {"depth": 1}),
    ],
)
def test_budgets_at_their_limits_are_taken(text, options):
    assert parse_player(text).options == options


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "engine:depth=101",
            "engine option depth must be a whole number from 1 to 100 plies, got 101",
        ),
        ("engine:depth=0", "from 1 to 100 plies, got 0"),
        ("alphabeta:depth=-1", "alphabeta option depth must be a whole number from 1 to 100"),
        ("expectiminimax:depth=0", "expectiminimax option depth must be a whole number from 1"),
        ("engine:nodes=100000001", "from 1 to 100,000,000 nodes, got 100,000,001"),
        ("engine:nodes=-3", "engine option nodes must be a whole number from 1 to 100,000,000"),
        ("mcts:iterations=10000001", "from 1 to 10,000,000 iterations, got 10,000,001"),
        ("mcts:iterations=" + "9" * 5000, "expected an integer"),
        ("mcts:iterations=" + "9" * 30, "got a number of 30 digits"),
        ("mcts:time=3600.5", "mcts option time must be more than 0 and at most 3,600 seconds"),
        ("mcts:time=0", "more than 0 and at most 3,600 seconds, got 0.0"),
        ("mcts:time=-1", "got -1.0"),
        ("mcts:time=1e-400", "got 0.0"),
        ("mcts:time=inf", "bad value 'inf' for mcts option 'time': expected a number"),
        ("mcts:c=nan", "bad value 'nan' for mcts option 'c'"),
        ("mcts:iterations=5,c=-0.5", "mcts option c must be from 0 to 100, got -0.5"),
        ("mcts:iterations=5,c=101", "mcts option c must be from 0 to 100, got 101.0"),
        ("engine:nodes=1_000", "bad value '1_000' for engine option 'nodes': expected an integer"),
        ("engine:nodes=\u0661", "expected an integer"),  # an Arabic-Indic one
        ("engine:nodes=5,nodes=6", "player option 'nodes' is given twice"),
    ],
)
def test_budgets_out_of_range_are_refused_with_the_range(text, message):
    with pytest.raises(ValueError) as error:
        parse_player(text)
    assert message in str(error.value)
    assert len(str(error.value)) < 400


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "tictactoe", "--time", "-1", "--depth", "-1"], "--time must be more than 0 and"),
        (["play", "tictactoe", "--time", "inf"], "at most 3,600 seconds, got inf"),
        (["play", "chess", "--depth", "0"], "--depth must be a whole number from 1 to 100 plies"),
        (["play", "chess", "--depth", "101"], "from 1 to 100 plies, got 101"),
        (["play", "tictactoe", "--ai", "mcts:iterations=0"], "from 1 to 10,000,000 iterations"),
        (
            ["analyze", "chess", "--nodes", "0"],
            "--nodes must be a whole number from 1 to 100,000,000",
        ),
        (["analyze", "chess", "--nodes", "-1"], "got -1"),
        (["analyze", "chess", "--depth", "101"], "--depth must be a whole number from 1 to 100"),
        (["analyze", "chess", "--time", "3601"], "--time must be more than 0 and at most 3,600"),
        (["analyze", "tictactoe", "--top", "3"], "--top is for games with dice, and tictactoe"),
        (["analyze", "pig", "--table-mb", "8"], "--table-mb is the engine's table"),
        (["match", "tictactoe", "--a", "random", "--b", "random", "--games", "0"], "--games must"),
        (
            ["match", "tictactoe", "--a", "random", "--b", "random", "--games", "1000001"],
            "--games: games in a match 1,000,001 is over the limit of 1,000,000",
        ),
        (
            ["match", "tictactoe", "--a", "random", "--b", "random", "--games", "9" * 40],
            "games in a match of 40 digits is over the limit of 1,000,000",
        ),
        (["match", "chess", "--a", "engine:depth=500", "--b", "random"], "from 1 to 100 plies"),
    ],
)
def test_bad_budgets_on_the_command_line_are_one_line_errors(cli, argv, message):
    assert message in cli.error(*argv)


def test_the_limits_are_named_in_help(cli):
    def shown(command):
        return " ".join(cli(command, "--help")[1].split())

    assert "games in a match at most 1,000,000" in shown("match")
    assert "a search depth at most 100" in shown("analyze")
    assert "a node budget at most 100,000,000" in shown("analyze")
    assert "at most 3,600" in shown("play")


def test_a_match_of_more_games_than_the_limit_is_refused_before_any_game():
    game = TicTacToe()
    random_ = player_maker("random", game)
    with pytest.raises(ValueError, match="over the limit of 1,000,000"):
        play_match(game, random_, random_, GAMES.most + 1)


def test_a_finished_opening_is_refused_not_played(tmp_path, cli):
    openings = tmp_path / "openings.txt"
    openings.write_text("X........\nXXXOO....\n")
    argv = ["match", "tictactoe", "--a", "random", "--b", "random", "--openings", str(openings)]
    err = cli.error(*argv)
    assert "line 2: the game is already over in this position" in err
    game = TicTacToe()
    random_ = player_maker("random", game)
    with pytest.raises(ValueError, match="opening 1 is a finished game"):
        play_match(game, random_, random_, 10, openings=[game.parse_state("XXXOO....")])


def typed_then_closed(words):
    """What a person types, then the end of input (Ctrl-D)."""
    yield from words
    raise EOFError


@pytest.mark.parametrize("words", [[], ["q"], ["quit"], ["4", "q"], ["4"]])
def test_a_human_leaves_a_match_at_the_end_of_input_or_with_q(cli, words):
    argv = ["match", "tictactoe", "--a", "human", "--b", "random", "--games", "2"]
    code, out, err = cli(*argv, answers=typed_then_closed(words))
    assert (code, err) == (0, "")
    assert "\nYou left the match (q or the end of input).\n" in out
    assert "the match was left unfinished: only the games finished are counted" in out
    assert "A: 0 wins, 0 draws, 0 losses" in out


def test_a_human_leaving_a_real_process_is_no_traceback(cli):
    argv = ["match", "tictactoe", "--a", "random", "--b", "human", "--games", "3"]
    code, out, err = cli.process(*argv)  # standard input is empty
    assert code == 0 and "Traceback" not in err
    assert "You left the match" in out


def test_one_of_each_is_said_in_the_singular(cli):
    # perfect play against random tic-tac-toe, seed 0: three wins and one draw
    out = cli("match", "tictactoe", "--a", "perfect", "--b", "random", "--games", "4")[1]
    assert "A: 3 wins, 1 draw, 0 losses" in out
    assert "score 0.875 (95% Wilson interval 0.396 to 0.987)" in out
    out = cli("match", "tictactoe", "--a", "perfect", "--b", "random", "--games", "1")[1]
    assert "at tictactoe, 1 game\n" in out


def test_a_match_shows_its_progress_on_a_terminal(cli, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    argv = ["match", "tictactoe", "--a", "random", "--b", "random", "--games", "30"]
    code, out, _ = cli(*argv)
    assert code == 0 and "30 games" in out
    assert "match" in terminal.getvalue() and "games" in terminal.getvalue()
