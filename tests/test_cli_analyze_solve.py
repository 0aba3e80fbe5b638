"""`zerosum analyze` and `zerosum solve` for Connect Four, tic-tac-toe and trees."""

from __future__ import annotations

import json

import pytest

L3_FIRST = "2252576253462244111563365343671351441"  # published score -1
TEST_SET = """5554224333234511764415115 4
52753311433677442422121 8
271713432331713132 -11
"""


def test_analyze_connect4_reports_each_depth_and_the_best_column(cli):
    report = cli.json("analyze", "connect4", "4453", "--depth", "3")
    assert [it["depth"] for it in report["depths"]] == [1, 2, 3]
    assert report["best_move"] in list("1234567")
    assert report["pv"][0] == report["best_move"] == report["depths"][-1]["pv"][0]
    assert report["nodes"] == sum(it["nodes"] for it in report["depths"])
    assert report["depth"] == 3


def test_analyze_connect4_streams_iteration_lines_then_the_answer(cli):
    code, out, _ = cli("analyze", "connect4", "445566", "--depth", "2")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("depth  1  score win in 1 ply")
    assert lines[1].startswith("depth  2")
    assert lines[-1] in ("best move: 3  score: win in 1 ply (+1)",
                         "best move: 7  score: win in 1 ply (+1)")  # fmt: skip


def test_analyze_with_a_node_budget_says_it_stopped(cli):
    report = cli.json("analyze", "connect4", "", "--depth", "20", "--nodes", "500")
    assert report["stopped"] == "nodes"
    assert report["depth"] < 20


def test_analyze_answers_from_an_iteration_the_budget_cut_short_and_marks_it(cli):
    cut_short = 0
    for nodes in range(300, 2100, 100):
        report = cli.json("analyze", "connect4", "", "--depth", "20", "--nodes", str(nodes))
        last = report["depths"][-1]
        assert report["stopped"] == "nodes" and report["depth"] == last["depth"]
        assert (report["best_move"], report["value"]) == (last["pv"][0], last["value"])
        if not last["complete"]:
            cut_short += 1
            assert not last["exact"] and all(it["complete"] for it in report["depths"][:-1])
            code, out, _ = cli("analyze", "connect4", "", "--depth", "20", "--nodes", str(nodes))
            assert out.splitlines()[-3].endswith("(cut short: the best root move searched so far)")
            assert out.splitlines()[-1] == f"stopped by nodes during depth {last['depth']}"
    assert cut_short


def test_analyze_tictactoe_finds_the_loss_in_four_plies(cli):
    report = cli.json("analyze", "tictactoe", "XO..X....")
    assert (report["value"], report["plies"], report["exact"]) == (-1, 4, True)
    assert report["best_move"] == "8"


def test_analyze_tree_gives_the_textbook_value_3(cli):
    report = cli.json("analyze", "tree", "[[3,12,8],[2,4,6],[14,5,2]]")
    assert (report["value"], report["best_move"], report["pv"]) == (3, "0", ["0", "0"])


def test_solve_connect4_gives_the_published_score_and_a_best_column(cli):
    report = cli.json("solve", "connect4", L3_FIRST)
    assert (report["score"], report["best_move"]) == (-1, "6")
    assert report["pv"] == ["6", "7", "7", "7"]
    assert (report["value"], report["plies"], report["exact"]) == (-1, 4, True)
    assert report["nodes"] > 0 and report["seconds"] >= 0


def test_solve_connect4_plies_agree_with_the_line_of_best_play(cli):
    for position in ("445566", "5554224333234511764415115", "271713432331713132", L3_FIRST):
        report = cli.json("solve", "connect4", position)
        assert report["plies"] == len(report["pv"]) and report["value"] in (1, -1)


def test_solve_connect4_weak_gives_only_the_sign(cli):
    report = cli.json("solve", "connect4", "52753311433677442422121", "--weak")
    assert (report["score"], report["weak"]) == (1, True)


def test_solve_connect4_text_says_who_wins_with_which_stone(cli):
    code, out, _ = cli("solve", "connect4", "445566")
    assert code == 0
    assert "X to move: value 1 (a win in 1 ply with best play)" in out
    assert "score 18: the player to move wins with their stone number 4" in out
    assert "best move: 3" in out


def test_solve_file_prints_a_line_per_position_and_a_summary(cli, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text(TEST_SET)
    code, out, _ = cli("solve", "connect4", "--file", str(path))
    lines = out.splitlines()
    assert code == 0
    assert [line.split()[:2] for line in lines[:3]] == [
        ["5554224333234511764415115", "4"],
        ["52753311433677442422121", "8"],
        ["271713432331713132", "-11"],
    ]
    assert lines[3].startswith("positions: 3  3/3 correct  mean time:")
    assert "mean nodes:" in lines[3]


def test_solve_file_json_is_a_list_with_expected_scores(cli, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("5554224333234511764415115 4\n271713432331713132\n")
    rows = cli.json("solve", "connect4", "--file", str(path))
    assert [(row["position"], row["score"], row.get("expected")) for row in rows] == [
        ("5554224333234511764415115", 4, 4),
        ("271713432331713132", -11, None),
    ]
    assert [row["value"] for row in rows] == [1, -1]  # the value, beside the solver's score
    assert all(row["nodes"] > 0 and row["seconds"] >= 0 for row in rows)


def test_solve_file_of_a_game_without_scores_gives_the_value_and_holds_it_to_the_file(
    cli, tmp_path
):
    path = tmp_path / "set.txt"
    path.write_text("XOX.O.... 0\nXX.OO.... 1\n")
    rows = cli.json("solve", "tictactoe", "--file", str(path))
    assert [(row["value"], row["expected"]) for row in rows] == [(0, 0), (1, 1)]
    assert not any("score" in row for row in rows)
    code, out, _ = cli("solve", "tictactoe", "--file", str(path))
    assert code == 0 and "2/2 correct" in out


def test_solve_file_weak_compares_signs(cli, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text(TEST_SET)
    rows = cli.json("solve", "connect4", "--file", str(path), "--weak")
    assert [(row["score"], row["expected"]) for row in rows] == [(1, 1), (1, 1), (-1, -1)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "connect4", "4444444"], "column 4 is full"),
        (["solve", "connect4", "48"], "'8' is not a column"),
        (["analyze", "connect4", "4455667"], "the game is already over"),
        (["analyze", "connect4", "4444444"], "column 4 is full"),
        (["analyze", "connect4", "44", "--time", "0"], "time must be more than 0"),
        (
            ["analyze", "connect4", "44", "--depth", "-2"],
            "--depth must be a whole number from 1 to 100",
        ),
        (["analyze", "tictactoe", "--depth", "2"], "does not provide Evaluating"),
        (["solve", "connect4", "--file", "/nonexistent/set.txt"], "cannot read"),
        (["solve", "tictactoe", "--weak"], "--weak is for games whose solver has a weak mode"),
        (["analyze", "shogi"], "unknown game 'shogi'"),
        (["analyze", "chess", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "bad FEN"),
        (["analyze", "chess", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"], "already over"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(cli, argv, message):
    assert message in cli.error(*argv)


def test_solve_file_with_a_malformed_line_names_it(cli, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("4453 2\n44x 1\n")
    code, _, err = cli("solve", "connect4", "--file", str(path))
    assert code == 2
    assert f"{path}: position 2: bad moves '44x'" in err


def test_solve_tictactoe_keeps_its_alphabeta_report(cli):
    report = cli.json("solve", "tictactoe")
    assert (report["value"], report["algorithm"], report["leaves"]) == (0, "alphabeta", 7_330)


def test_solve_tree_with_alphabeta(cli):
    report = cli.json("solve", "tree", "[[3,12,8],[2,4,6],[14,5,2]]")
    assert (report["value"], report["best_move"]) == (3, "0")


def test_solve_a_finished_connect4_game_gives_its_result(cli):
    report = cli.json("solve", "connect4", "4455667")
    assert (report["to_move"], report["value"], report["best_move"]) == (1, -1, None)


def test_commands_run_as_a_module(cli):
    code, out, _ = cli.process("solve", "connect4", "445566", "--json")
    assert code == 0 and json.loads(out)["score"] == 18
    code, _, err = cli.process("analyze", "connect4", "4444444")
    assert code == 2
    assert err == "zerosum: error: bad moves '4444444' at move 7: column 4 is full\n"


CHANCE_TREE = '[{"chance": [[0.5, [3, 1]], [0.5, [2, 6]]]}, 2]'
"""Two moves: a coin between two choices of the opponent's (worth 0.5 * 1 + 0.5 * 2 = 1.5 to the
player at the root), or 2."""


def test_solve_searches_a_tree_with_chance_nodes_by_expectiminimax(cli):
    report = cli.json("solve", "tree", CHANCE_TREE)
    assert (report["algorithm"], report["value"], report["best_move"]) == (
        "expectiminimax", 2, "1"
    )  # fmt: skip
    assert "minimax takes no chance nodes" in cli.error(
        "solve", "tree", CHANCE_TREE, "--algorithm", "minimax"
    )
    assert "for games without dice" in cli.error("solve", "tree", CHANCE_TREE, "--distance")


def test_solve_at_a_chance_node_says_nobody_moves(cli):
    code, out, _ = cli("solve", "tree", '{"chance": [[0.5, [3, 1]], [0.5, [2, 6]]]}')
    assert code == 0
    assert out.splitlines()[-2:] == [
        "expected value 4.5000 for player 0",
        "best move: none, nobody moves here (chance decides)",
    ]


def test_solve_refuses_backgammon_as_too_large_to_search_to_the_end(cli):
    assert "backgammon has too many positions" in cli.error("solve", "backgammon")
