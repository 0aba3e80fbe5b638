"""The command's choice of engine: compiled by default for a game with compiled rules, the same
analysis either way; `impl=` in player specs; `zerosum perft`."""

from __future__ import annotations

import time

import pytest

from zerosum import players
from zerosum.cli.progress import announce_compiling
from zerosum.compiled import choice, compiling
from zerosum.compiled.engine import Engine as CompiledEngine
from zerosum.compiled.mcts import MCTS as CompiledMCTS
from zerosum.games.connect4 import ConnectFour
from zerosum.games.nim import Nim
from zerosum.search.engine import Engine
from zerosum.search.mcts import MCTS


def test_analyze_gives_the_same_analysis_with_either_engine(cli):
    compiled = cli.json("analyze", "connect4", "4453", "--depth", "5")
    python = cli.json("analyze", "connect4", "4453", "--depth", "5", "--engine", "python")
    for report in (compiled, python):
        for timed in ("seconds", "depths"):
            report.pop(timed)
    assert compiled == python


def test_analyze_with_the_compiled_engine_of_a_game_without_it_is_refused(cli):
    err = cli.error("analyze", "nim", "3", "5", "--engine", "compiled")
    assert "Nim has no compiled rules: use the Python search (impl=python)" in err


class Searches:
    """The engines `analyze` made and the budgets their searches were given."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[str] = []
        self.times: list[float | None] = []
        for kind, engine in (("compiled", CompiledEngine), ("python", Engine)):
            monkeypatch.setattr(engine, "search", self.recording(kind, engine.search))

    def recording(self, kind, search):
        def recorded(engine, state, **budget):
            self.made.append(kind)
            self.times.append(budget.get("time"))
            return search(engine, state, **budget)

        return recorded


def test_analyze_counts_the_loading_of_the_compiled_engine_in_its_time(monkeypatch):
    """`--time` is the time to the answer: the search gets what is left once the command has
    loaded the compiled engine (here the command "began" 0.4 s before it was run)."""
    from zerosum.cli import analyze, build_parser

    searches = Searches(monkeypatch)
    args = build_parser(["analyze"]).parse_args(["analyze", "connect4", "4453", "--time", "1"])
    args.started = time.perf_counter() - 0.4
    assert analyze.run(args) == 0
    assert searches.made == ["compiled"]
    assert 0 < searches.times[0] <= 0.6


@pytest.mark.parametrize(
    ("budget", "engine"),
    [
        (["--time", "0.3"], "python"),  # under LOAD_SECONDS: no time left to search compiled
        (["--time", "0.3", "--engine", "compiled"], "compiled"),  # asked for: given
        (["--nodes", "10000"], "python"),  # under LOAD_NODES: done before it would load
        (["--nodes", "100000"], "compiled"),
        (["--depth", "4"], "compiled"),  # a depth says nothing of the size: compiled
    ],
)
def test_analyze_leaves_out_the_compiled_engine_for_a_search_too_small_to_pay_its_loading(
    monkeypatch, capsys, budget, engine
):
    from zerosum.cli import analyze, main

    assert analyze.LOAD_SECONDS == 0.5 and analyze.LOAD_NODES == 20_000
    searches = Searches(monkeypatch)
    assert main(["analyze", "connect4", "4453", *budget]) == 0
    assert searches.made == [engine]
    assert "best move:" in capsys.readouterr().out


def test_the_compiled_implementation_is_the_default_where_a_game_has_it():
    assert choice.implementation(ConnectFour()) == "compiled"
    assert choice.implementation(ConnectFour(), "python") == "python"
    assert choice.implementation(Nim()) == "python"
    assert choice.implementation(ConnectFour(9, 7)) == "python"  # wider than 64 bits
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        choice.implementation(ConnectFour(9, 7), "compiled")
    assert isinstance(choice.engine(ConnectFour()), CompiledEngine)
    assert isinstance(choice.engine(ConnectFour(), "python"), Engine)
    assert isinstance(choice.mcts(ConnectFour(), iterations=5), CompiledMCTS)
    assert isinstance(choice.mcts(ConnectFour(), "python", iterations=5), MCTS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "engine:time=1,impl=fast",
            "bad value 'fast' for engine option 'impl': compiled or python",
        ),
        ("mcts:impl=", "player option 'impl' needs a value"),
    ],
)
def test_a_bad_impl_is_refused(text, message):
    with pytest.raises(ValueError, match=message):
        players.parse_player(text)


def test_a_match_sets_compiled_mcts_against_python_mcts(cli):
    report = cli.json(
        "match", "tictactoe", "--a", "mcts:iterations=3000,impl=compiled",
        "--b", "mcts:iterations=300,impl=python", "--games", "2",
    )  # fmt: skip
    assert report["wins"] + report["draws"] + report["losses"] == 2
    assert report["losses"] == 0  # tic-tac-toe solved by the stronger side is never lost


def test_play_takes_the_engine_to_use(cli):
    code, out, _ = cli("play", "connect4", "--depth", "2", "--engine", "python", answers=["4", "q"])
    assert code == 0 and "The program (O) plays" in out
    code, _, err = cli("play", "nim", "3", "5", "--engine", "compiled", answers=[])
    assert code == 2 and "--engine chooses the engine or MCTS, not the solver player" in err


@pytest.mark.parametrize(
    ("game", "position", "depth", "positions"),
    [
        ("tictactoe", "", 9, 127_872),  # the games that last all nine moves
        ("tictactoe", "", 5, 15_120),
        ("connect4", "", 4, 2_401),
        ("connect4", "", 7, 823_536),  # 7**7 less the seven-move wins of the first player
        ("connect4(width=5,height=4)", "33", 3, 124),  # 5**3 less 3-3-3: a fifth stone in 3
    ],
)
def test_perft_counts_the_positions_n_moves_away(cli, game, position, depth, positions):
    where = [position] if position else []
    report = cli.json("perft", game, *where, "--depth", str(depth))
    assert (report["depth"], report["positions"]) == (depth, positions)


def test_perft_of_a_game_without_compiled_rules_is_one_line(cli):
    err = cli.error("perft", "nim", "--depth", "2")
    assert "Nim has no compiled rules: perft needs them" in err


def test_compiling_is_announced_on_a_terminal_only(capsys):
    class Terminal:
        def __init__(self):
            self.written = []

        def isatty(self):
            return True

        def write(self, text):
            self.written.append(text)

        def flush(self):
            pass

    terminal = Terminal()
    saved = list(compiling.listeners)
    try:
        announce_compiling(terminal)
        compiling.announce("compiling the engine for a game")
        assert "".join(terminal.written) == "compiling the engine for a game...\n"
    finally:
        compiling.listeners[:] = saved
