"""The registry: one list of games, what each offers, its default player; players by spec."""

from __future__ import annotations

import json

import pytest

from zerosum import naming, players, registry
from zerosum.cli import main
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe

BUILT_IN = ["tictactoe", "connect4", "nim", "pig", "backgammon", "chess", "tree"]


def test_the_built_in_games_are_listed_once_with_what_they_offer(capsys):
    assert main(["games", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)["entries"]}
    assert list(rows)[: len(BUILT_IN)] == BUILT_IN
    assert rows["connect4"]["offers"] == [
        "engine", "evaluation", "solver", "tablebase", "text", "training"
    ]  # fmt: skip
    assert "training" in rows["pig"]["offers"]  # by TD(lambda)
    assert "training" not in rows["chess"]["offers"] + rows["backgammon"]["offers"]
    assert rows["connect4"]["options"] == ["width", "height", "connect"]
    assert rows["pig"]["offers"][0] == "dice" and "tablebase" not in rows["pig"]["offers"]
    assert (
        "tablebase" not in rows["chess"]["offers"] and "endgame tables" in rows["chess"]["offers"]
    )
    assert {name: rows[name]["player"] for name in ("tictactoe", "connect4", "backgammon")} == {
        "tictactoe": "solver",
        "connect4": "engine:time=2",
        "backgammon": "expectiminimax:depth=1",
    }


@pytest.mark.parametrize(
    ("text", "flags", "made"),
    [
        ("connect4(width=5,height=4)", {}, (5, 4)),
        ("connect4", {"width": "6", "height": "5"}, (6, 5)),
        ("connect4 ( width = 8 )", {}, (8, 6)),
    ],
)
def test_options_come_in_parentheses_or_as_flags(text, flags, made):
    setup = registry.setup(text, "", flags)
    assert isinstance(setup.game, ConnectFour)
    assert (setup.game.width, setup.game.height) == made


def test_an_option_given_twice_is_refused():
    with pytest.raises(ValueError, match="option 'width' given twice"):
        registry.setup("connect4(width=5)", "", {"width": "6"})


def test_option_values_are_json_literals_or_else_text():
    assert naming.parse_options('a=5,b=[3,5,8],c=true,d="x, y",e=word') == {
        "a": 5,
        "b": [3, 5, 8],
        "c": True,
        "d": "x, y",
        "e": "word",
    }
    assert registry.setup("nim(heaps=[1,2],misere=true)").state == ((1, 2), 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nim(heaps=[3,,4])", r"heaps='\[3,,4\]' is not a JSON list or object: Expecting value"),
        ("nim(heaps=[3,4)", "is not a JSON list or object: Expecting ',' delimiter at character 5"),
        ("nim(heaps=[" + "9" * 5000 + "])", "a number of more than 4,300 digits, or brackets"),
        ("nim(heaps=" + "[" * 5000 + ")", r"\(5,000 characters\) cannot be read"),
        ('connect4(width="' + "9" * 5000 + '")', "width must be an integer of at most 100 digits"),
        ("x" * 5000, r"unknown game 'x{79}\.\.\. \(5,000 characters\): choose one of"),
        ("tictactoe(" + "y" * 500 + "=1)", r"no option 'y{79}\.\.\. \(500 characters\)"),
    ],
    ids=["empty item", "unclosed", "long number", "deep", "long text", "long name", "long key"],
)
def test_a_malformed_or_huge_option_is_refused_in_a_short_line(text, message):
    with pytest.raises(ValueError, match=message) as refused:
        registry.setup(text)
    assert len(str(refused.value)) < 400


def test_a_game_object_finds_its_entry():
    assert registry.entry_of(TicTacToe()).name == "tictactoe"
    assert registry.entry_of(object()).source == "builtins.object"


def test_the_engine_needs_no_budget_where_it_can_search_to_the_end(capsys):
    argv = ["match", "tictactoe", "--a", "random", "--b", "engine", "--games", "4", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["wins"] == 0 and report["games"] == 4  # the engine never loses at the end
    with pytest.raises(ValueError, match="the engine needs a budget on connect4"):
        players.player_maker("engine", ConnectFour())


def test_a_game_is_named_in_python_as_on_the_command_line():
    made = registry.named_game("connect4(width=5,height=4)")
    assert (type(made), made.width, made.height) == (ConnectFour, 5, 4)
    game = TicTacToe()
    assert registry.named_game(game) is game
    with pytest.raises(ValueError, match="unknown game 'tictac'"):
        registry.named_game("tictac")
    from zerosum.match import play_match

    a, b = (players.player_maker(spec, "tictactoe") for spec in ("solver", "random"))
    result = play_match(game, a, b, 4)
    assert result.losses == 0  # the solver never loses


def test_play_and_match_share_the_game_loop():
    from zerosum import match
    from zerosum.cli import play

    assert play.play_game is match.play_game


def test_a_position_may_follow_the_flags(cli):
    report = cli.json("solve", "connect4", "--weak", "52753311433677442422121")
    assert (report["position"], report["score"]) == ("52753311433677442422121", 1)
    assert cli.json("analyze", "tictactoe", "--nodes", "100000", "XO..X....")["plies"] == 4
    assert "unrecognized arguments: --frobnicate" in cli("solve", "tictactoe", "--frobnicate").err


def test_explain_json_alone_prints_only_the_json(cli):
    report = cli.json("explain", "tictactoe", "XOX.O....")
    assert (report["best_move"], report["value"]) == ("7", 0) and "output" not in report
