"""What several test files share: the `zerosum` command run in this process or as a process of its
own (`cli`), or in a pseudo-terminal (`terminal`); tic-tac-toe solved (`tictactoe_table`,
`tictactoe_table_file`); a tiny trained network (`tictactoe_network`); the charts module, where
matplotlib is installed (`charts`).

Plain helpers that a test module needs when it is collected live in modules beside this one,
imported by name: `oracles` (the facts in tests/data), `drawings` (reading SVG), `trees` (game
trees for the engine), `fuzzing` (the fuzzing suites' profiles, registered here so that
`--hypothesis-profile=long` finds them).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import pexpect
import pytest
from fuzzing import register_profiles

from zerosum.cli import main
from zerosum.games.tictactoe import TicTacToe
from zerosum.solve import Table, solve

register_profiles()

HANG = 600
"""Seconds a command run as a process may take: each takes well under a minute, so only a hang
reaches this."""


class Ran(NamedTuple):
    """What one `zerosum` command did: its exit code and what it printed."""

    code: int
    out: str
    err: str


class Command:
    """`zerosum ARGV` run in this process (`zerosum.cli.main`), what it prints captured."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
        self._capsys = capsys
        self._monkeypatch = monkeypatch

    def __call__(self, *argv: str, answers: Iterable[str] | None = None) -> Ran:
        """The exit code, stdout and stderr of `zerosum ARGV`; `answers`, when given, are what
        a person types, one line at each prompt."""
        if answers is not None:
            typed = iter(answers)
            self._monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
        try:
            code = main(list(argv))
        except SystemExit as stopped:  # argparse exits on arguments it refuses (and --help)
            code = int(stopped.code or 0)
        out, err = self._capsys.readouterr()
        return Ran(code, out, err)

    def json(self, *argv: str, progress: bool = False) -> Any:
        """What `zerosum ARGV --json` prints, read as JSON, once the command has exited with 0
        and printed nothing on stderr (but its progress, with `progress`: a table's build)."""
        code, out, err = self(*argv, "--json")
        assert code == 0, err
        assert progress or err == "", err
        return json.loads(out)

    def process(self, *argv: str) -> Ran:
        """The exit code, stdout and stderr of `python -m zerosum ARGV`, a process of its own."""
        done = subprocess.run(
            [sys.executable, "-m", "zerosum", *argv], capture_output=True, text=True, timeout=HANG
        )
        return Ran(done.returncode, done.stdout, done.stderr)

    def error(self, *argv: str) -> str:
        """The error `zerosum ARGV` stops with: exit code 2 and one line on stderr, which
        starts `zerosum: error: `."""
        code, _, err = self(*argv)
        assert code == 2, f"exit code {code}, stderr {err!r}"
        assert err.startswith("zerosum: error: ") and err.count("\n") == 1, err
        return err


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Command:
    """Runs `zerosum`: `cli(*argv)`, `cli.json(*argv)`, `cli.error(*argv)` in this process,
    `cli.process(*argv)` in a process of its own."""
    return Command(capsys, monkeypatch)


class Terminal:
    """`zerosum play` in pseudo-terminals, each one closed when the test ends."""

    def __init__(self) -> None:
        self._children: list[pexpect.spawn] = []

    def play(self, game: str, *args: str) -> pexpect.spawn:
        """`zerosum play GAME ARGS` in a pseudo-terminal, past its greeting."""
        child = pexpect.spawn(
            sys.executable, ["-m", "zerosum", "play", game, *args], encoding="utf-8", timeout=90
        )
        self._children.append(child)
        child.expect("Type q to leave.")
        return child

    @staticmethod
    def exit_status(child: pexpect.spawn) -> int:
        """The exit status of a spawned `zerosum play`, once its output has ended."""
        child.expect(pexpect.EOF)
        child.close()
        return child.exitstatus

    def close(self) -> None:
        for child in self._children:
            child.close(force=True)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    """Plays `zerosum play` in pseudo-terminals: `terminal.play(game, *args)`."""
    opened = Terminal()
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def tictactoe_table() -> Table:
    """Tic-tac-toe solved by retrograde analysis, in this process (not to be changed)."""
    return solve(TicTacToe(), workers=1)


@pytest.fixture(scope="session")
def tictactoe_table_file(tictactoe_table: Table, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`tictactoe_table` saved in a file (to be read, not changed)."""
    path = tmp_path_factory.mktemp("tables") / "ttt.tb"
    tictactoe_table.save(path)
    return path


@pytest.fixture(scope="session")
def tictactoe_network(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The directory of a run of `zerosum train` on tic-tac-toe, one round of two games with a
    network of 8 units (a few seconds): a network that plays legal moves, nothing more."""
    from zerosum.learn import training
    from zerosum.registry import setup

    directory = str(tmp_path_factory.mktemp("network") / "run")
    plan = training.Plan("tictactoe", hidden=(8,), simulations=2, games_per_round=2, gate_games=2)
    game = setup(plan.game).game
    training.train(training.start(directory, plan, game), game, rounds=1)
    return directory


@pytest.fixture
def charts() -> ModuleType:
    """`zerosum.show.charts`; the test is skipped where matplotlib, which it draws with, is not
    installed (it is an optional extra)."""
    pytest.importorskip("matplotlib", reason="charts need the optional matplotlib")
    from zerosum.show import charts

    return charts


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """`zerosum serve` without serving: each application it would have served, appended here
    (its sockets closed, and the command returns)."""
    applications: list[Any] = []

    def run(server: Any, sockets: list[Any]) -> None:
        applications.append(server.config.app)
        for listening in sockets:
            listening.close()

    monkeypatch.setattr("uvicorn.Server.run", run)
    return applications


JAX_TESTS = (
    "test_learning.py", "test_td_pig.py", "test_web_network.py", "learning.md",
    "test_fuzz_cli.py::test_train_",
)  # fmt: skip
"""Tests that import JAX (they train networks in this process): by module, by test (the
fuzzing of `zerosum train`), or the guides'."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests that import JAX last, in their order: JAX starts threads, and a process
    forked after them (the tablebase builds' worker pools, pexpect's terminals) may deadlock,
    as JAX warns. Every other test runs first, in its usual order. Run on several cores,
    pytest-xdist's default schedule (`load`) hands each process its tests in this order, so the
    ones importing JAX are the last of each."""

    def uses_jax(item: pytest.Item) -> bool:
        fixtures = getattr(item, "fixturenames", ())
        return "tictactoe_network" in fixtures or any(name in item.nodeid for name in JAX_TESTS)

    items.sort(key=uses_jax)
