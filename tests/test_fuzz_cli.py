"""Fuzzing the command line: random and mutated arguments for every command.

Each example builds an argument list for one command from the command's own options (read off
its parser) and from pools of values chosen to break things: numbers at zero, negative, beyond
every limit, with thousands of digits or in exponent form; empty and repeated separators;
unicode; games that exist, do not, or are malformed; positions of every kind; files that are
empty, binary, directories, missing or unreadable. Whatever it gets, a command must end with
exit code 0 or 2, never print a traceback, print an error as one line, print a bounded amount,
and end within a time budget (a hang past it fails the example).

The values that are valid are kept small (a position near the end, a tiny tree, a game of a few
heaps): the point is the parsers and the checks, not long searches; a search to the end that
would still run long (`solve connect4` from the start) meets its node limit, made small here.
Run many more examples by hand with
`python -m pytest tests/test_fuzz_cli.py --hypothesis-profile=long`.
"""

from __future__ import annotations

import io
import signal
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st

import zerosum.solve.answer as answer
import zerosum.solve.connect4 as connect4
from zerosum.cli import build_parser
from zerosum.limits import Limit

EXAMPLES = 300
"""Command lines in a run of the tests."""

BUDGET = 60
"""Seconds an example may take: every valid request here is small, so only a hang reaches it."""

SEARCHED = 200_000
"""The most nodes of a search to the end here (a second or two): a valid request that would
search longer (`solve connect4` from the start) meets its limit, as a user's does later."""

OUTPUT = 20_000_000
"""Characters an example may print (a Grundy sequence of a million heaps is about 7 MB)."""

NUMBERS = [
    "0", "1", "2", "3", "-1", "-5", "0.5", "1.5", "-0.0", "1e400", "1e-400", "nan", "inf",
    "-inf", "99999999999999999999", "9" * 5000, "", " ", "abc", "1,,2", ",", "1,2,,", "½",
    "\u22121", "1_000", "0x10", "+3", "٣",
]  # fmt: skip
"""Values for an option that expects a number or a list of numbers."""

WORDS = ["", " ", "x", "é", "\u0000", "🂡", "--", "-", "q", "a" * 2000, "[[", "{}", "null"]
"""Values that are no number, no move and no position."""

GAMES = [
    "tictactoe", "connect4", "nim", "pig", "backgammon", "chess", "tree", "nosuch",
    "connect4(width=5,height=4)", "connect4(width=0)", "connect4(width=99999999999999999999)",
    "nim(heaps=[1,2])", "nim(heaps=[])", "pig(target=5)", "pig(target=-1)", "tree(x=1)",
    "missing.py:Game", "json:loads", "collections:Counter", "connect4(", ":", "a:b:c", "",
    "nim(heaps=[3,,4])", "nim(heaps=[" + "9" * 5000 + "])", "nim(heaps=" + "[" * 5000 + ")",
    "x" * 5000, "pig(target=100000)", "connect4(width=\"" + "9" * 5000 + "\")",
]  # fmt: skip

POSITIONS = [
    "XOX.O....", "XXXOO....", "XO..X....", "X", "52753311433677442422121", "4455667",
    "44444444", "1 2", "1,,2", "1 4 5", "18 18 0 0", "0 0 99 0", "[[3,12,8],[2,4,6],[14,5,2]]",
    "[" * 3000 + "1" + "]" * 3000, "[[1,2],[3]]", '[{"chance": [[0.5, 6], [0.5, 6]]}, 2]',
    "X 3-1: 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", "X: 1 / 6:15",
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1", "startpos",
]  # fmt: skip
"""Positions of every game, valid and not; the valid ones are near the end of their game."""

PLAYERS = [
    "random", "perfect", "human", "mcts:iterations=20", "engine:depth=1", "engine:nodes=200",
    "alphabeta:depth=1", "expectiminimax:depth=1", "engine", "engine:time=-1",
    "engine:depth=0", "mcts:iterations=0", "engine:depth=99999999999999999999", "oracle",
    "mcts:c=nan", "random:seed=1", "engine:depth=", "",
]  # fmt: skip

MATRICES = [
    "3 -1; -2 4", "1/2 -1/3; -1/6 1", "1e-400 1; 2 3", "1e400 1; 2 3", "1,,2; 3 4", "1 2; 3",
    ";", "", "nan 1; 2 3", "1/0 1; 2 3", "1/" + "7" * 600 + " 1; 0 1", "9" * 5000,
]  # fmt: skip


def files(folder: Path) -> list[str]:
    """Paths of every kind a command may be given: empty, binary, text, a directory, missing,
    unreadable, in a missing folder."""
    (folder / "empty.txt").write_text("")
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 8)
    (folder / "text.txt").write_text("4453 2\n52753311433677442422121 1\n")
    (folder / "folder").mkdir(exist_ok=True)
    unreadable = folder / "unreadable.txt"
    unreadable.write_text("1 2; 3 4\n")
    unreadable.chmod(0)
    names = ["empty.txt", "binary.bin", "text.txt", "folder", "missing.txt", "unreadable.txt"]
    return [str(folder / name) for name in names] + [str(folder / "no" / "where.tb"), ""]


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    folder = tmp_path_factory.mktemp("fuzz")
    yield files(folder)
    (folder / "unreadable.txt").chmod(stat.S_IRUSR | stat.S_IWUSR)


def command_options() -> dict[str, list[tuple[str, Any]]]:
    """Each command's options, read off the parser: (option, its choices or None), with the
    tablebase actions as commands of their own."""
    parser = build_parser()
    commands = {}
    (subparsers,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    for name, command in subparsers.choices.items():
        nested = [a for a in command._actions if a.__class__.__name__ == "_SubParsersAction"]
        parsers = nested[0].choices.items() if nested else [(None, command)]
        for action_name, sub in parsers:
            key = f"{name} {action_name}" if action_name else name
            commands[key] = [
                (action.option_strings[-1], action.choices, action.nargs)
                for action in sub._actions
                if action.option_strings and action.option_strings[0] not in ("-h", "--help")
            ]
    return commands


COMMANDS = command_options()


@st.composite
def argv(draw: st.DrawFn, paths: list[str]) -> list[str]:
    """One command line: a command, its positional words, and some of its options."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    words = command.split()
    first = words[0]
    if first in ("play", "solve", "analyze", "explain", "match"):
        words.append(draw(st.sampled_from(GAMES)))
        if first != "match" and draw(st.booleans()):
            words.append(draw(st.sampled_from(POSITIONS + WORDS)))
    elif command == "tablebase build":
        words.append(draw(st.sampled_from(["tictactoe", "nim(heaps=[2,3])", *GAMES])))
    elif first == "tablebase":
        words.append(draw(st.sampled_from(paths)))
    elif first == "tree":
        words.append(draw(st.sampled_from(POSITIONS[11:16] + WORDS)))
    elif first == "nim":
        words += draw(st.lists(st.sampled_from(NUMBERS), max_size=3))
    elif first == "matrix" and draw(st.booleans()):
        words.append(draw(st.sampled_from(MATRICES)))
    elif first in ("chart", "grundy"):
        choices = ["ordering", "growth"] if first == "chart" else ["kayles", "dawson", "grundy"]
        if draw(st.booleans()):
            words.append(draw(st.sampled_from(choices + WORDS[:3])))
    options = draw(st.lists(st.sampled_from(COMMANDS[command] or [None]), max_size=4))
    for option in options:
        if option is None:
            continue
        flag, choices, nargs = option
        words.append(flag)
        if nargs == 0:
            continue
        if choices:
            words.append(draw(st.sampled_from([*map(str, choices), "nope"])))
        elif flag in ("--a", "--b", "--ai"):
            words.append(draw(st.sampled_from(PLAYERS)))
        elif flag in ("-o", "--output", "--file", "--csv", "--table", "--syzygy", "--openings"):
            words.append(draw(st.sampled_from(paths)))
        elif flag in ("--position", "--fen"):
            words.append(draw(st.sampled_from(POSITIONS + WORDS)))
        else:
            words.append(draw(st.sampled_from(NUMBERS + WORDS[:4])))
    return words


def _served_at_once(server: Any, sockets: list | None = None) -> None:
    """`zerosum serve` stops as soon as it listens: its address and options are what is tried."""
    for listening in sockets or []:
        listening.close()


def _end_of_input(prompt: str = "") -> str:
    raise EOFError  # a person who types nothing


class Hang(Exception):
    """An example ran past its budget."""


def _hang(signum: int, frame: Any) -> None:
    raise Hang


@fuzzing(EXAMPLES)
@given(data=st.data())
def test_every_command_answers_or_refuses_in_one_line(cli, paths, tmp_path, monkeypatch, data):
    arguments = data.draw(argv(paths), label="argv")
    monkeypatch.chdir(tmp_path)
    for module in (answer, connect4):  # a search to the end stops within seconds, by its limit
        for name, value in vars(module).items():
            if isinstance(value, Limit) and "nodes" in value.what:
                monkeypatch.setattr(module, name, replace(value, most=SEARCHED))
    monkeypatch.setattr("builtins.input", _end_of_input)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO()))  # `uci` reads nothing
    monkeypatch.setattr("uvicorn.Server.run", _served_at_once)
    monkeypatch.setattr("webbrowser.open", lambda address: True)  # `serve --open` opens nothing
    previous = signal.signal(signal.SIGALRM, _hang)
    signal.alarm(BUDGET)
    try:
        code, out, err = cli(*arguments)
    except Hang:
        pytest.fail(f"zerosum {arguments!r} ran past {BUDGET} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert code in (0, 2), (arguments, code, err[-2000:])
    assert "Traceback" not in err, (arguments, err[-2000:])
    assert len(out) + len(err) <= OUTPUT, arguments
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("zerosum"), (arguments, err[:2000])
        assert len(err) <= 500, (arguments, err[:600])
