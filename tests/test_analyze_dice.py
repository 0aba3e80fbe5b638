"""`zerosum analyze` for games with dice: the moves ranked by expectiminimax, best first."""

import json

import pytest

from zerosum.games.backgammon import Backgammon
from zerosum.games.pig import Pig
from zerosum.search import expectiminimax, rank_moves

GAME = Backgammon()
START = "24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5"


@pytest.mark.parametrize("depth", [1, 2])
def test_ranking_agrees_with_expectiminimax_on_the_best_value(depth):
    state = GAME.parse_state(f"X 4-2: {START}")
    ranked = rank_moves(GAME, state, depth=depth)
    assert len(ranked) == len(GAME.legal_moves(state))
    assert [entry.value for entry in ranked] == sorted((e.value for e in ranked), reverse=True)
    assert ranked[0].value == pytest.approx(expectiminimax(GAME, state, depth=depth).value)


def test_ranking_pig_moves_takes_the_value_after_a_roll_from_the_same_players_side():
    game = Pig(10)
    state = game.parse_state("0 0 8 0")  # 8 on the turn, 2 to go: holding leaves 8 to 0
    ranked = rank_moves(game, state, depth=1)
    assert {entry.move: entry.value for entry in ranked}["hold"] == pytest.approx(0.8)


def test_ranking_refuses_a_position_waiting_for_the_dice_and_a_zero_depth():
    with pytest.raises(ValueError, match="waits for a roll of the dice"):
        rank_moves(GAME, GAME.initial_state(), depth=1)
    with pytest.raises(ValueError, match="depth must be at least 1"):
        rank_moves(GAME, GAME.parse_state(f"X 6-5: {START}"), depth=0)


@pytest.mark.parametrize("depth", ["1", "2"])
def test_bearing_off_the_last_two_checkers_wins_a_gammon(cli, depth):
    report = cli.json("analyze", "backgammon", "X 2-1: 2 1 / 1:15", "--depth", depth)
    assert report["best_move"] == "2/off 1/off"
    assert report["value"] == 2  # O has borne off none and is out of X's home board
    assert [move["move"] for move in report["moves"]] == ["2/off 1/off", "2/1 1/off"]


def test_pointing_on_a_blot_in_the_home_board_is_the_best_four_two(cli):
    position = "X 4-2: 24:2 13:5 8:3 6:5 / 24:2 21:1 13:4 8:3 6:5"  # O's blot on X's 4 point
    report = cli.json("analyze", "backgammon", position)
    assert report["best_move"] == "8/4* 6/4"
    assert report["depth"] == 2


@pytest.mark.parametrize("depth", ["1", "2"])
def test_the_opening_three_one_makes_the_five_point(cli, depth):
    report = cli.json("analyze", "backgammon", f"X: {START}", "--dice", "3-1", "--depth", depth)
    assert report["best_move"] == "8/5 6/5"
    assert report["legal_moves"] == 16


def test_a_gnubg_position_id_with_the_dice_is_analysed_like_the_notation(cli):
    by_id = cli.json("analyze", "backgammon", "sG/BgCGMM+YAIw", "--dice", "4-4", "--depth", "1")
    text = GAME.format_state(GAME.parse_state("X 4-4: sG/BgCGMM+YAIw"))
    by_text = cli.json("analyze", "backgammon", text, "--depth", "1")
    assert by_text["moves"] == by_id["moves"] and by_text["nodes"] == by_id["nodes"]
    assert by_id["legal_moves"] == 84
    assert by_id["moves"][0]["move"] == "21/17* 21/17 11/7 11/7"  # the play of the posted game
    assert by_id["moves"][1]["move"] == "21/17* 21/17 8/4 8/4"  # gnubg's choice


def test_a_closed_board_leaves_one_move_the_pass(cli):
    closed = "X 6-5: bar 6:14 / 1:2 2:2 3:2 4:2 5:2 6:2 13:3"
    report = cli.json("analyze", "backgammon", closed)
    assert report["legal_moves"] == 1
    assert report["best_move"] == "pass" and report["moves"][0]["move"] == "pass"


def test_json_has_the_ranked_moves_and_the_search_counts(cli):
    report = cli.json("analyze", "backgammon", f"X 6-5: {START}", "--top", "3", "--depth", "1")
    assert set(report) == {
        "game", "position", "to_move", "depth", "value", "exact", "best_move", "moves",
        "legal_moves", "nodes", "seconds",
    }  # fmt: skip
    assert report["to_move"] == 0 and report["depth"] == 1
    assert report["legal_moves"] == 7 and len(report["moves"]) == 3
    assert report["moves"][0] == {"move": report["best_move"], "value": report["value"]}
    assert report["nodes"] == 1 + 7  # the root and the seven positions judged


def test_text_shows_the_board_the_ranked_plays_and_the_best(cli):
    code, out, _ = cli("analyze", "backgammon", f"X 3-1: {START}", "--depth", "1", "--top", "2")
    assert code == 0
    assert "position: X 3-1: " + START in out
    assert "expectiminimax, 1 ply; scores for the player to move:" in out
    assert "  1. 8/5 6/5" in out and "  2. " in out and "  3. " not in out
    assert "16 legal moves" in out
    assert out.rstrip().splitlines()[-1].startswith("best move: 8/5 6/5  score: +")


def test_a_pig_position_and_a_chance_tree_are_ranked_the_same_way(cli):
    assert cli.json("analyze", "pig", "0 0 8 0", "--depth", "1")["moves"][0]["move"] in (
        "roll",
        "hold",
    )
    tree = '[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]'
    report = cli.json("analyze", "tree", tree)
    assert (report["best_move"], report["value"], report["depth"]) == ("0", 6, None)
    assert report["exact"] is True
    assert report["moves"][1] == {"move": "1", "value": 5.5}


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["X 6-5: 6:16 / 1"], "X has 16 checkers on the board and the bar"),
        (["X 6-5: 6 / 19"], "X's 6 point is O's 19 point"),
        (["X 9-5: 6 / 1"], "bad dice '9-5'"),
        (["X: 6 / 1", "--dice", "0-3"], "bad dice '0-3'"),
        (
            ["X: 6 / 1"],
            "the position waits for chance (a roll): nobody moves there; give the roll with",
        ),
        (["X 6-5: 6 / 1", "--dice", "6-5"], "has its roll already: give the dice once"),
        (["O 6-5: 6 / 19:14 bar"], "O's 6 point is X's 19 point"),
        (["X 6-5: 6 / 1", "--time", "1"], "searched to --depth, not by --time or --nodes"),
        (["X 6-5: 6 / 1", "--top", "0"], "--top must be at least 1"),
        (
            ["X 6-5: 6 / 1", "--depth", "0"],
            "--depth must be a whole number from 1 to 100 plies, got 0",
        ),
        (["X 6-5: 6 /"], "the game is already over"),  # O has borne off all 15
    ],
)
def test_bad_backgammon_analyses_are_one_line_and_exit_2(cli, argv, reason):
    code, out, err = cli("analyze", "backgammon", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("zerosum: error: ") and reason in err
    assert err.count("\n") == 1


def test_dice_are_only_for_backgammon(cli):
    assert "--dice: connect4 has no dice" in cli.error("analyze", "connect4", "44", "--dice", "6-5")


def test_analyze_backgammon_through_a_subprocess(cli):
    code, out, err = cli.process("analyze", "backgammon", "X 2-1: 2 1 / 1:15", "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["best_move"] == "2/off 1/off"
    code, out, err = cli.process("analyze", "backgammon", "X 2-1: 2 1 / 24:15")
    assert code == 2 and out == ""
    assert err == (
        "zerosum: error: bad position 'X 2-1: 2 1 / 24:15':"
        " X's 1 point is O's 24 point: it cannot hold checkers of both sides\n"
    )
