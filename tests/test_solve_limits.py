"""`solve`: a stated limit on Pig's target, progress of the solvers, and orders of moves that
name the game's moves or are refused."""

import io
import sys

import pexpect
import pytest

import zerosum.solve.answer as answer
import zerosum.solve.connect4 as connect4
import zerosum.solve.pig as pig
from zerosum.games.connect4 import ConnectFour
from zerosum.games.pig import Pig
from zerosum.games.tictactoe import TicTacToe
from zerosum.limits import Limit
from zerosum.search.exact import REPORT_EVERY, minimax
from zerosum.solve.connect4 import ConnectFourExact
from zerosum.solve.pig import TARGET, PigExact, positions, solve_pig


class Terminal(io.StringIO):
    """Standard error as a terminal: progress is drawn on it."""

    def isatty(self) -> bool:
        return True


def test_the_pig_target_limit_is_300_and_named_in_help(cli):
    assert TARGET.most == 300
    assert "the target of an exact Pig solve at most 300" in " ".join(
        cli("solve", "--help")[1].split()
    )


@pytest.mark.parametrize("target", ["301", "3000", "9" * 40])
def test_a_pig_target_over_the_limit_is_refused_with_what_it_would_take(cli, target):
    err = cli.error("solve", "pig", "--target", target)
    assert "the target of an exact Pig solve" in err and "over the limit of 300" in err
    assert "this one would need" in err and "pass --no-limit to try anyway" in err


def test_the_perfect_pig_player_is_refused_past_the_limit_without_an_override(cli):
    err = cli.error("play", "pig", "--target", "3000")
    assert "over the limit of 300" in err and "--no-limit" not in err
    assert "about 19 hours" in err  # 3000^2 * 3001 / 2 positions at 5 us each


def test_no_limit_lifts_the_pig_target_limit(monkeypatch):
    with pytest.raises(ValueError, match="over the limit of 300"):
        solve_pig(301)  # refused before any work
    monkeypatch.setattr(pig, "TARGET", Limit(TARGET.what, 5, TARGET.cost))  # a small edge
    assert solve_pig(5).target == 5
    with pytest.raises(ValueError, match="over the limit of 5"):
        solve_pig(6)
    assert solve_pig(6, no_limit=True).target == 6


def test_an_exact_search_stops_at_its_node_limit_unless_lifted(cli, monkeypatch):
    monkeypatch.setattr(answer, "EXACT_NODES", Limit(answer.EXACT_NODES.what, 1_000, "a test"))
    message = cli.error("solve", "tictactoe", "--algorithm", "minimax")
    assert "the nodes of an exact search 1,001 is over the limit of 1,000: a test" in message
    assert "pass --no-limit to try anyway" in message
    report = cli.json("solve", "tictactoe", "--algorithm", "minimax", "--no-limit", "--json")
    assert report["nodes"] == 549_946
    assert cli.json("solve", "tictactoe", "XOX.O....", "--json")["nodes"] < 1_000


def test_an_exact_search_reports_its_progress():
    seen = []
    game = TicTacToe()
    result = minimax(game, game.initial_state(), progress=seen.append)
    assert seen == list(range(0, result.stats.nodes, REPORT_EVERY + 1))


def test_the_pig_solve_reports_every_position_valued():
    reports = []
    solve_pig(30, on_progress=reports.append)
    assert reports == sorted(reports) and len(reports) == 2 * 30 - 1
    assert reports[-1] == positions(30) == 30 * 30 * 31 // 2


def test_the_pig_solver_counts_its_work_for_a_progress_bar():
    solver = PigExact(Pig(target=25))
    assert solver.work_unit == "positions" and solver.work_total(None) == positions(25)
    solver.answer((0, 0, 0, 0, False))
    assert solver.work() == positions(25)


def test_the_connect4_solver_counts_its_nodes_for_a_progress_bar():
    solver = ConnectFourExact(ConnectFour())
    game = ConnectFour()
    state = game.parse_state("44455554221")
    answer = solver.answer(state)
    assert solver.work_unit == "nodes" and solver.work() >= answer.nodes > 0


@pytest.mark.parametrize(
    ("argv", "drawn"),
    [
        (["solve", "pig", "--target", "20"], "solving pig"),
        (["solve", "connect4", "44455554221"], "solving connect4"),
    ],
)
def test_a_solver_shows_progress_on_a_terminal(cli, monkeypatch, argv, drawn):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = cli(*argv)
    assert code == 0 and "best move" in out
    assert drawn in terminal.getvalue()


def test_a_file_of_positions_shows_progress_on_a_terminal(cli, monkeypatch, tmp_path):
    positions_file = tmp_path / "set.txt"
    positions_file.write_text("44455554221 1\n2252576253462244111563365343671351441 \n")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = cli("solve", "connect4", "--file", str(positions_file), "--weak")
    assert code == 0 and "positions: 2" in out
    assert "solving" in terminal.getvalue() and "positions" in terminal.getvalue()


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ("9", "bad --order '9': tic-tac-toe's moves are the squares 0 to 8, not 9"),
        ("-1", "tic-tac-toe's moves are the squares 0 to 8, not -1"),
        ("", "--order names no move"),
        (" ", "--order names no move"),
        ("1,,2", "bad --order '1,,2': '' is no move"),
        ("4,4", "it lists 4 twice"),
        ("4,x", "'x' is no move"),
        ("\u0664", "is no move"),
        ("9" * 5000, "is no move"),
    ],
)
def test_an_order_must_name_distinct_moves_of_the_game(cli, order, message):
    assert message in cli.error("solve", "tictactoe", "--order", order)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "connect4", "--order", "7"], "Connect Four's moves are the columns 0 to 6"),
        (["solve", "nim", "--order", "1"], "Nim's moves are not integers"),
        (["solve", "pig", "--distance"], "--distance asks for an exact search, which cannot"),
        (["solve", "pig", "--order", "1"], "--order asks for an exact search"),
        (
            ["solve", "connect4", "44", "--order", "3", "--weak"],
            "--weak is for the game's own solver, and --order asks for an exact search",
        ),
    ],
)
def test_options_a_game_does_not_take_are_refused(cli, argv, message):
    assert message in cli.error(*argv)


def test_an_order_of_some_moves_searches_them_first(cli):
    report = cli.json("solve", "tictactoe", "--order", "4,0,2")
    assert report["value"] == 0 and report["pv"][:3] == ["4", "0", "2"]


def test_one_cut_off_is_said_in_the_singular(cli):
    out = cli("solve", "tree", "[[1,2],[3,4]]", "--order", "1,0")[1]
    assert "6 nodes, 3 finished games reached, 1 cut-off," in out


@pytest.mark.parametrize(
    ("argv", "drawn"),
    [
        (["solve", "connect4", ""], "solving connect4"),  # the empty board: minutes
        (["solve", "pig", "--target", "250"], "solving pig"),
    ],
)
def test_ctrl_c_in_a_solve_on_a_terminal_exits_130_without_traceback(argv, drawn):
    child = pexpect.spawn(
        sys.executable, ["-m", "zerosum", *argv], encoding="utf-8", timeout=120,
        dimensions=(24, 200),
    )  # fmt: skip
    child.expect(drawn)  # the bar is drawn while the solver works
    child.expect(r"\d+(\.\d+)?k? (nodes|positions)")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in child.before


def test_a_connect4_solve_stops_at_its_node_limit_unless_lifted(cli, monkeypatch):
    monkeypatch.setattr(connect4, "NODES", Limit(connect4.NODES.what, 1_000, "a test"))
    message = cli.error("solve", "connect4", "32164625")  # 76,098 nodes
    assert "the nodes of a Connect Four solve 1,001 is over the limit of 1,000: a test" in message
    report = cli.json("solve", "connect4", "52753311433677442422121", "--json")
    assert (report["score"], report["nodes"] <= 1_000) == (8, True)  # the published score
    report = cli.json("solve", "connect4", "32164625", "--no-limit", "--json")
    assert (report["score"], report["nodes"]) == (11, 76_098)
