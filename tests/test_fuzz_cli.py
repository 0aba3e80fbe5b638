"""Fuzzing the command line: random and mutated arguments for every command.

Each example builds an argument list for one command from the command's own options (read off
its parser) and from pools of values chosen to break things: numbers at zero, negative, beyond
every limit, with thousands of digits or in exponent form; empty and repeated separators;
unicode; games that exist, do not, or are malformed (OpenSpiel's too); positions of every kind;
players of every kind (trained networks and learned evaluations among them); files that are
empty, binary, directories, missing, unreadable, damaged or another game's; places to write
that are new, taken, under a file or nowhere writable; addresses and ports to serve on.
Whatever it gets, a command must end with exit code 0 or 2, never print a traceback, print an
error as one line, print a bounded amount, and end within a time budget (a hang past it fails
the example).

Every example runs in a folder of its own, a copy of the module's `kit`: the files above, a
run of `zerosum train` made once (in a process of its own: JAX never loads in this one, which
forks the tablebase builds' workers), a TD evaluation of Pig, strategy files of `zerosum cfr`,
work directories of partitioned builds, each also damaged. What a command writes there (a run
resumed, a work directory rebuilt) is gone before the next example. `zerosum train`, which
loads JAX, is fuzzed by a test of its own, run after the others (tests/conftest.py).

The values that are valid are kept small (a position near the end, a tiny tree, a game of a few
heaps): the point is the parsers and the checks, not long searches. Every job's limits are made
small here (`small_jobs`), so that a request that would still run long (`solve connect4` from
the start, a thousand CFR iterations of Liar's Dice, training for an hour) meets its limit, as
a user's does later. Run many more examples by hand with
`python -m pytest tests/test_fuzz_cli.py --hypothesis-profile=long`.
"""

from __future__ import annotations

import importlib
import io
import json
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from fuzzing import fuzzing
from hypothesis import event, given
from hypothesis import strategies as st

import zerosum.cli.cfr as cfr
import zerosum.cli.match as match_command
import zerosum.cli.play_hidden as play_hidden
import zerosum.cli.train as train
import zerosum.imperfect.tree as tree
import zerosum.learn.player as network_player
import zerosum.learn.training as training
import zerosum.match as match
import zerosum.solve.answer as answer
import zerosum.solve.connect4 as connect4
import zerosum.solve.parallel as parallel
from zerosum.cli import build_parser
from zerosum.imperfect.cfr import Solver
from zerosum.imperfect.strategy import Strategy
from zerosum.learn import td
from zerosum.limits import Limit
from zerosum.registry import setup
from zerosum.solve import partitioned

EXAMPLES = 300
"""Command lines in a run of the tests (every command but `train`)."""

TRAINING_EXAMPLES = 40
"""Command lines of `zerosum train` in a run of the tests."""

BUDGET = 60
"""Seconds an example may take: every valid request here is small, so only a hang reaches it."""

SEARCHED = 200_000
"""The most nodes of a search to the end here (a second or two): a valid request that would
search longer (`solve connect4` from the start) meets its limit, as a user's does later."""

HISTORIES = 100_000
"""The most histories of a game tree unrolled here (CFR, the sequence form): Leduc poker's
and Liar's Dice's fit, tic-tac-toe's 549,946 do not."""

ITERATIONS = 200
"""The most CFR iterations here (Liar's Dice's take about 30 ms each)."""

SECONDS = 1.0
"""The longest `--time` of CFR and of training here, and training's when none is given."""

GAMES_IN_A_MATCH = 20
"""The most games of a match here (a match of trained networks takes a second a game)."""

MOVES = 300
"""The most moves of a game of a match, and of an MCTS playout, here: Pig to a hundred thousand
points between MCTS players would otherwise take hours, as it does a user who asks for it."""

TRAINING_JOB = {"SIMULATIONS": 4, "GAMES_PER_ROUND": 4, "GAMES": 6, "ROUNDS": 2}
"""The most of each training limit here: a run of a few seconds."""

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

OPENSPIEL = [
    "openspiel:kuhn_poker", "openspiel:tic_tac_toe", "openspiel:nosuch",
    "openspiel:tic_tac_toe(x=1)", "openspiel:", "openspiel:tic_tac_toe(", "openspiel:(x=1)",
    "openspiel:kuhn_poker(players=3)", "openspiel:matrix_rps", "openspiel:go(board_size=0)",
    "openspiel:connect_four(rows=99999999999999999999)", "openspiel:openspiel:kuhn_poker",
    "openspiel:tic_tac_toe(x=[[[)", "openspiel:" + "x" * 5000, "OpenSpiel:tic_tac_toe",
]  # fmt: skip
"""OpenSpiel's games, valid (with and without hidden cards) and not."""

GAMES = [
    "tictactoe", "connect4", "nim", "pig", "backgammon", "chess", "tree", "nosuch",
    "connect4(width=5,height=4)", "connect4(width=0)", "connect4(width=99999999999999999999)",
    "nim(heaps=[1,2])", "nim(heaps=[])", "pig(target=5)", "pig(target=-1)", "tree(x=1)",
    "missing.py:Game", "json:loads", "collections:Counter", "connect4(", ":", "a:b:c", "",
    "nim(heaps=[3,,4])", "nim(heaps=[" + "9" * 5000 + "])", "nim(heaps=" + "[" * 5000 + ")",
    "x" * 5000, "pig(target=100000)", "connect4(width=\"" + "9" * 5000 + "\")",
    "kuhn", "leduc", "liars-dice", "liars-dice(numdice=1,faces=2)", "kuhn(cards=1)",
    "go(size=5)", "go(size=4)", "go(komi=7.3)", "go(size=5,komi=0)",
    *OPENSPIEL,
]  # fmt: skip

POSITIONS = [
    "XOX.O....", "XXXOO....", "XO..X....", "X", "52753311433677442422121", "4455667",
    "44444444", "1 2", "1,,2", "1 4 5", "18 18 0 0", "0 0 99 0", "[[3,12,8],[2,4,6],[14,5,2]]",
    "[" * 3000 + "1" + "]" * 3000, "[[1,2],[3]]", '[{"chance": [[0.5, 6], [0.5, 6]]}, 2]',
    "X 3-1: 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", "X: 1 / 6:15", "C3 D3 pass", "C3 C3",
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1", "startpos",
]  # fmt: skip
"""Positions of every game, valid and not; the valid ones are near the end of their game."""

PLAYERS = [
    "random", "perfect", "human", "mcts:iterations=20", "engine:depth=1", "engine:nodes=200",
    "alphabeta:depth=1", "expectiminimax:depth=1", "engine", "engine:time=-1",
    "engine:depth=0", "mcts:iterations=0", "engine:depth=99999999999999999999", "oracle",
    "mcts:c=nan", "random:seed=1", "engine:depth=", "",
    "az:trained,simulations=2", "az:trained", "az:trained,time=0.1,simulations=4",
    "az:trained,simulations=0", "az:trained,c=nan", "az:trained,nope=1", "az:trained,c=1,c=2",
    "az:", "az:simulations=2", "az:missing", "az:text.txt", "az:empty-dir", "az:pig-td",
    "az:trained-torn", "az:trained-hollow", "az:trained-other", "az:" + "x" * 5000,
    "engine:depth=1,eval=az:trained", "alphabeta:depth=1,eval=az:trained",
    "alphabeta:eval=az:trained", "engine:impl=compiled,eval=az:trained", "engine:eval=az:",
    "expectiminimax:depth=1,eval=td:pig-td", "expectiminimax:depth=1,eval=td:pig-td-torn",
    "expectiminimax:depth=1,eval=td:trained", "expectiminimax:depth=1,eval=td:missing",
    "expectiminimax:eval=td:pig-td", "expectiminimax:depth=1,eval=td:",
    "expectiminimax:depth=1,eval=nn:pig-td", "td:pig-td", "mcts:eval=az:trained",
]  # fmt: skip
"""Players of every kind, valid and not: `trained` is a run of `zerosum train` (tic-tac-toe),
`pig-td` Pig's evaluation learned by TD(lambda) (to 5), the others damaged or no run."""

MATRICES = [
    "3 -1; -2 4", "1/2 -1/3; -1/6 1", "1e-400 1; 2 3", "1e400 1; 2 3", "1,,2; 3 4", "1 2; 3",
    ";", "", "nan 1; 2 3", "1/0 1; 2 3", "1/" + "7" * 600 + " 1; 0 1", "9" * 5000,
]  # fmt: skip

FILES = [
    "empty.txt", "binary.bin", "text.txt", "folder", "missing.txt", "unreadable.txt",
    "no/where.tb", "",
]  # fmt: skip
"""Files a command may be given to read or write: empty, binary, text, a directory, missing,
unreadable, in a missing folder, no name."""

WRITTEN = [
    "out.json", "text.txt", "folder", "trained", ".", "no/such/out.json", "text.txt/out.json",
    "/proc/out.json", "/proc/nowhere/out.json", "",
]  # fmt: skip
"""Where a command may be told to write a file: new, over a file, a directory, in a missing
folder, under a file, nowhere writable (/proc takes no files, even from root)."""

STRATEGIES = [
    "kuhn.json", "leduc.json", "kuhn-torn.json", "kuhn-bent.json", "empty.txt", "binary.bin",
    "text.txt", "folder", "missing.txt", "",
]  # fmt: skip
"""Strategy files of `zerosum cfr --save`: Kuhn poker's, Leduc poker's, Kuhn's cut in half
or with a set's probabilities summing to more than 1, and files that are no strategy."""

RUNS = [
    "run", "trained", "trained-torn", "trained-hollow", "trained-other", "pig-td",
    "pig-td-torn", "folder", "text.txt", "missing", "", "no/such/run", "text.txt/run",
    "/proc/run", "work-ttt",
]  # fmt: skip
"""Run directories of `zerosum train`: new, a run (tic-tac-toe's, Pig's), a run whose
manifest or best weights are cut in half, one whose manifest names another game, an empty
directory, a file, under a file, nowhere writable, a partitioned build's."""

WORK_DIRS = [
    "work", "work-ttt", "work-torn", "work-c4", "folder", "text.txt", "text.txt/work",
    "/proc/work", "no/such/parent/work", "trained", "",
]  # fmt: skip
"""Work directories of `zerosum tablebase build --work-dir`: new, tic-tac-toe's finished
build, the same with a layer's keys cut in half, Connect Four 4x3's, an empty directory, a
file, under a file, nowhere writable, in missing folders, a training run."""

SIZES = [
    "2GB", "64MB", "1KB", "0", "-1GB", "1e400GB", "GB", "8 GB", "99999999999999999999TB",
    "nan", "2gb", "1.5GB", "",
]  # fmt: skip
"""Memory sizes (`--memory-per-worker`)."""

HOSTS = [
    "127.0.0.1", "localhost", "::1", "0.0.0.0", "8.8.8.8", "192.0.2.1", "256.1.1.1",
    "nosuch.invalid", "fe80::1", "", "x" * 300, "[::1]", "localhost:8000", "\u0000",
    "127.0.0.1 ",
]  # fmt: skip
"""Addresses to serve on: this computer's, every address, others' (a documentation address,
Google's DNS), malformed, a name that does not resolve."""

PORTS = ["0", "0", "-1", "70000", "65536", "", "x", "99999999999999999999", "1e3"]
"""Ports to serve on (any free one, out of range, no number); the test adds one in use."""

DURATIONS = [
    "1s", "0.5", "1", "2m", "0s", "-1s", "31d", "1e3", "", "1x", "9" * 20 + "s", "nan", "1.5h",
]  # fmt: skip
"""Durations of training (`zerosum train --time`)."""

LAYERS = ["8", "4,4", "0", "4097", "1,2,3,4,5,6,7,8,9", "", "8,", "a", "８", "-8"]
"""The hidden layers of a network to train (`--hidden`)."""

TRAINED = [
    "tictactoe", "tictactoe", "pig(target=5)", "connect4(width=4,height=4)",
    "openspiel:tic_tac_toe", "nim(heaps=[2,3])", "kuhn", "chess",
]  # fmt: skip
"""Games to train on: what `zerosum train` learns (tic-tac-toe, Pig, Connect Four, OpenSpiel's
tic-tac-toe) and what it cannot."""

POOLS: dict[str, list[str]] = {
    "--a": PLAYERS, "--b": PLAYERS, "--ai": PLAYERS, "--opponent": PLAYERS,
    "-o": FILES, "--output": FILES, "--file": FILES, "--csv": FILES, "--table": FILES,
    "--syzygy": FILES, "--openings": FILES, "--save": WRITTEN, "--strategy": STRATEGIES,
    "--out": RUNS, "--network": RUNS, "--work-dir": WORK_DIRS,
    "--memory-per-worker": SIZES, "--host": HOSTS, "--game": GAMES, "--hidden": LAYERS,
    "--position": POSITIONS + WORDS, "--fen": POSITIONS + WORDS,
}  # fmt: skip
"""The values an option draws from, by its flag; any other takes `NUMBERS` or a word."""


Option = tuple[str, Any, Any]
"""An option of a command: its flag, its choices (or None) and its `nargs` (0 for a switch)."""


def command_options() -> dict[str, list[Option]]:
    """Each command's options, read off the parser, with the tablebase actions as commands of
    their own."""
    parser = build_parser()
    commands: dict[str, list[Option]] = {}
    (subparsers,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    subcommands: Any = subparsers.choices  # a dict of parsers, typed as any action's choices
    for name, command in subcommands.items():
        nested = [a for a in command._actions if a.__class__.__name__ == "_SubParsersAction"]
        parsers = list(nested[0].choices.items()) if nested else [(None, command)]
        for action_name, sub in parsers:
            key = f"{name} {action_name}" if action_name else name
            commands[key] = [
                (action.option_strings[-1], action.choices, action.nargs)
                for action in sub._actions
                if action.option_strings and action.option_strings[0] not in ("-h", "--help")
            ]
    return commands


COMMANDS = command_options()


def either(valid: list[str], pool: list[str]) -> st.SearchStrategy[str]:
    """One of `valid` three times in four, else anything of `pool`: a template's slot."""
    return st.sampled_from([valid, valid, valid, pool]).flatmap(st.sampled_from)


Template = tuple[str | st.SearchStrategy[str], ...]
"""A command line whose slots (strategies) are filled by each example."""


def templates(busy: int) -> list[Template]:
    """Command lines of the newer surfaces that are valid when each slot draws its valid
    values, so that an example reaches past the parser (a trained network playing, a strategy
    read, a build resumed from its work directory, a server listening) as often as not; `busy`
    is a port in use."""
    ports = either(["0"], [*PORTS, str(busy)])
    learners = ["az:trained,simulations=2", "engine:depth=1,eval=az:trained"]
    return [
        ("cfr", either(["kuhn", "leduc", "openspiel:kuhn_poker"], GAMES),
         "--iterations", either(["10"], NUMBERS), "--save", either(["out.json"], WRITTEN)),
        ("cfr", either(["kuhn", "liars-dice(numdice=1,faces=2)"], GAMES),
         "--algorithm", st.sampled_from(["cfr", "cfr+", "dcfr", "mccfr-es", "mccfr-os"]),
         "--time", either(["0.1"], NUMBERS)),
        ("solve", either(["kuhn", "openspiel:kuhn_poker"], GAMES),
         "--save", either(["out.json"], WRITTEN)),
        ("play", either(["kuhn"], GAMES), "--strategy", either(["kuhn.json"], STRATEGIES)),
        ("play", either(["tictactoe", "openspiel:tic_tac_toe"], GAMES), "--first", "ai",
         "--ai", either(learners, PLAYERS)),
        ("match", either(["tictactoe", "openspiel:tic_tac_toe"], GAMES),
         "--a", either(learners, PLAYERS), "--b", either(["random"], PLAYERS),
         "--games", either(["2"], NUMBERS)),
        ("match", either(["pig(target=5)"], GAMES),
         "--a", either(["expectiminimax:depth=1,eval=td:pig-td"], PLAYERS),
         "--b", "random", "--games", either(["2"], NUMBERS)),
        ("serve", "--port", ports, "--network", either(["trained"], RUNS)),
        ("serve", "--port", ports, "--host", either(["127.0.0.1", "::1", "localhost"], HOSTS)),
        ("serve", "--port", ports,
         "--game", either(["connect4(width=5,height=4)", "openspiel:tic_tac_toe"], GAMES)),
        ("tablebase", "build", either(["tictactoe", "connect4(width=4,height=3)"], GAMES),
         "-o", either(["out.tb"], WRITTEN),
         "--work-dir", either(["work", "work-ttt", "work-torn"], WORK_DIRS)),
        ("tablebase", "build", "tictactoe", "-o", "out.tb", "--work-dir",
         either(["work"], WORK_DIRS), "--memory-per-worker", either(["64MB"], SIZES)),
    ]  # fmt: skip


TRAINING_TEMPLATES: list[Template] = [
    ("train", either(["tictactoe", "openspiel:tic_tac_toe"], TRAINED + GAMES),
     "--rounds", either(["1"], NUMBERS), "--out", either(["run"], RUNS)),
    ("train", "tictactoe", "--resume", "--out", either(["trained"], RUNS),
     "--rounds", either(["1"], NUMBERS)),
    ("train", either(["pig(target=5)"], TRAINED), "--games", either(["3"], NUMBERS),
     "--out", either(["run", "pig-td"], RUNS)),
    ("train", "tictactoe", "--time", either(["0.5", "1s"], DURATIONS),
     "--hidden", either(["4,4"], LAYERS),
     "--opponent", either(["random", "az:trained,simulations=2"], PLAYERS)),
    ("train", "tictactoe", "--rounds", "1", "--simulations", either(["1", "3"], NUMBERS),
     "--games-per-round", either(["1"], NUMBERS), "--gate-every", either(["2"], NUMBERS)),
]  # fmt: skip
"""`templates` of `zerosum train`: a new run, a run resumed, Pig's TD(lambda), a run for a
time, a run of other settings."""


def option_value(draw: st.DrawFn, command: str, option: Option, busy: int) -> str:
    """A value for `option` (flag, choices, nargs) of `command`, from its pool."""
    flag, choices, _ = option
    if choices:
        pool = [*map(str, choices), "nope"]
    elif flag == "--port":
        pool = [*PORTS, str(busy)]
    elif flag == "--time" and command == "train":
        pool = DURATIONS
    else:
        pool = POOLS.get(flag, NUMBERS + WORDS[:4])
    return draw(st.sampled_from(pool))


def positionals(draw: st.DrawFn, command: str) -> list[str]:
    """`command`'s words and its positional arguments: a game, a position, a file..."""
    words = command.split()
    first = words[0]
    if first in ("play", "solve", "analyze", "explain", "match", "cfr"):
        words.append(draw(st.sampled_from(GAMES)))
        if first != "match" and draw(st.booleans()):
            words.append(draw(st.sampled_from(POSITIONS + WORDS)))
    elif first == "train":
        words.append(draw(st.sampled_from(TRAINED + GAMES)))
    elif command == "tablebase build":
        words.append(draw(st.sampled_from(["tictactoe", "nim(heaps=[2,3])", *GAMES])))
    elif first == "tablebase":
        words.append(draw(st.sampled_from(FILES)))
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
    return words


@st.composite
def argv(draw: st.DrawFn, commands: list[str], busy: int, filled: list[Template]) -> list[str]:
    """One command line: one of `commands`, its positional words and some of its options, or
    one of the templates `filled`, maybe with an option more; `busy` is a port in use."""
    template = draw(st.none() | st.sampled_from(filled)) if filled else None
    if template is not None:
        words = [part if isinstance(part, str) else draw(part) for part in template]
        command = " ".join(words[:2]) if words[0] == "tablebase" else words[0]
        most = 1
    else:
        command = draw(st.sampled_from(commands))
        words = positionals(draw, command)
        most = 4
    offered: list[Option | None] = [*COMMANDS[command]] or [None]
    for option in draw(st.lists(st.sampled_from(offered), max_size=most)):
        if option is None:  # a command without options
            continue
        words.append(option[0])
        if option[2] != 0:
            words.append(option_value(draw, command, option, busy))
    return words


# -- what every example works in ---------------------------------------------------------


def files(folder: Path) -> None:
    """`FILES` made in `folder` (but the unreadable one, which `workplace` makes)."""
    (folder / "empty.txt").write_text("")
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 8)
    (folder / "text.txt").write_text("4453 2\n52753311433677442422121 1\n")
    (folder / "folder").mkdir(exist_ok=True)


TRAINING = (
    "train", "tictactoe", "--rounds", "1", "--simulations", "2", "--games-per-round", "2",
    "--hidden", "8", "--workers", "1", "--opponent", "random",
)  # fmt: skip
"""The run of `zerosum train` the players and the server read: one round of two games of
tic-tac-toe with a network of 8 units (a few seconds)."""


def halved(path: Path) -> None:
    """`path` cut to the first half of its bytes, as a write stopped halfway leaves it."""
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def training_runs(folder: Path) -> None:
    """`trained` (a run of `TRAINING`, in a process of its own), `trained-torn` (its manifest
    cut in half), `trained-hollow` (its best weights cut in half), `trained-other` (its
    manifest naming Connect Four 5x4)."""
    trained = folder / "trained"
    done = subprocess.run(
        [sys.executable, "-m", "zerosum", *TRAINING, "--out", str(trained)],
        capture_output=True,
        text=True,
        timeout=10 * BUDGET,
    )
    assert done.returncode == 0, done.stderr
    for name in ("trained-torn", "trained-hollow", "trained-other"):
        shutil.copytree(trained, folder / name)
    halved(folder / "trained-torn" / training.MANIFEST)
    halved(next((folder / "trained-hollow").glob("best-*")))
    manifest = json.loads((trained / training.MANIFEST).read_text())
    manifest["game"] = "connect4(width=5,height=4)"
    (folder / "trained-other" / training.MANIFEST).write_text(json.dumps(manifest))


def td_evaluations(folder: Path) -> None:
    """`pig-td`, Pig's evaluation to 5 as `zerosum train pig(target=5)` keeps it (untrained:
    training it needs JAX), and `pig-td-torn`, its weights cut in half."""
    settings = td.TDSettings(target=5, hidden=4)
    td.save(td.TDEvaluation(settings, td.initial_parameters(4, 0)), folder / "pig-td")
    shutil.copytree(folder / "pig-td", folder / "pig-td-torn")
    halved(folder / "pig-td-torn" / td.PARAMETERS)


def strategies(folder: Path) -> None:
    """`STRATEGIES`: Kuhn's and Leduc's after ten iterations of CFR+, and Kuhn's damaged."""
    for name in ("kuhn", "leduc"):
        built = setup(name, hidden=True)
        unrolled = cfr.unrolled(built.game, built.state, no_limit=False)
        solver = Solver(unrolled, "cfr+")
        solver.run(10)
        Strategy.of(unrolled, solver.average(), built.name).save(folder / f"{name}.json")
    text = (folder / "kuhn.json").read_text()
    (folder / "kuhn-torn.json").write_text(text[: len(text) // 2])
    bent = json.loads(text)
    first = next(iter(bent["strategy"].values()))
    for move in first:
        first[move] = 0.9
    (folder / "kuhn-bent.json").write_text(json.dumps(bent))


def work_dirs(folder: Path) -> None:
    """`WORK_DIRS`: tic-tac-toe's finished build, the same with a layer's keys cut in half,
    Connect Four 4x3's."""
    partitioned.build(setup("tictactoe").game, folder / "work-ttt", workers=1)
    partitioned.build(setup("connect4(width=4,height=3)").game, folder / "work-c4", workers=1)
    shutil.copytree(folder / "work-ttt", folder / "work-torn")
    halved(sorted((folder / "work-torn").glob("layer-*/keys-*.npy"))[2])


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of everything the command lines name, made once; each example works in a
    copy of it (`workplace`)."""
    folder = tmp_path_factory.mktemp("kit")
    files(folder)
    training_runs(folder)
    td_evaluations(folder)
    strategies(folder)
    work_dirs(folder)
    return folder


@contextmanager
def workplace(kit: Path, parent: Path) -> Iterator[Path]:
    """A copy of `kit` in a new folder under `parent`, with `unreadable.txt` (which no copy
    could read, but root's), removed on leaving."""
    place = Path(tempfile.mkdtemp(dir=parent))
    try:
        shutil.copytree(kit, place, dirs_exist_ok=True)
        unreadable = place / "unreadable.txt"
        unreadable.write_text("1 2; 3 4\n")
        unreadable.chmod(0)
        yield place
    finally:
        shutil.rmtree(place, ignore_errors=True)


@pytest.fixture(scope="module")
def busy() -> Iterator[int]:
    """A port of this computer something listens on."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        yield listening.getsockname()[1]


@dataclass(frozen=True)
class SmallPlan(training.Plan):
    """A training run's plan whose defaults make a round of a second: two games of two
    simulations a move with a network of 8 units, a gate and evaluations of two games."""

    hidden: tuple[int, ...] = (8,)
    simulations: int = 2
    games_per_round: int = 2
    batch: int = 16
    gate_games: int = 2
    evaluation_games: int = 2


def small_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every job a valid command line asks for ends within seconds: its limits made small and
    never lifted (a request past them is refused, as a user's past the real ones is) and the
    defaults of jobs without one (CFR's iterations, a training run's length and plan, the `az`
    player's simulations, self-play's processes) made small too."""
    for module in (answer, connect4):  # a search to the end stops within seconds, by its limit
        for name, value in vars(module).items():
            if isinstance(value, Limit) and "nodes" in value.what:
                monkeypatch.setattr(module, name, replace(value, most=SEARCHED))
    monkeypatch.setattr(tree, "HISTORIES", replace(tree.HISTORIES, most=HISTORIES))
    monkeypatch.setattr(cfr, "ITERATIONS", replace(cfr.ITERATIONS, most=ITERATIONS))
    monkeypatch.setattr(match, "GAMES", replace(match.GAMES, most=GAMES_IN_A_MATCH))
    monkeypatch.setattr(match_command, "MOST_MOVES", MOVES)
    monkeypatch.setattr(importlib.import_module("zerosum.search.mcts"), "PLAYOUT_MOVES", MOVES)
    for module in (cfr, play_hidden):
        monkeypatch.setattr(module, "DEFAULT_ITERATIONS", 20)
    for module in (cfr, train):
        monkeypatch.setattr(module, "MOST_SECONDS", SECONDS)
    monkeypatch.setattr(train, "DEFAULT_SECONDS", SECONDS)
    monkeypatch.setattr(train, "TD_GAMES", 20)
    monkeypatch.setattr(train, "Plan", SmallPlan)
    for name, most in TRAINING_JOB.items():
        monkeypatch.setattr(training, name, replace(getattr(training, name), most=most))
    monkeypatch.setattr(parallel, "default_workers", lambda: 1)
    monkeypatch.setattr(network_player, "SIMULATIONS", 8)
    monkeypatch.setattr(Limit, "check", _held)


_check = Limit.check


def _held(limit: Limit, value: int, *, lifted: bool = False, needs: str = "") -> None:
    """`Limit.check` with no limit lifted: `--no-limit` is tried, but a request past a limit
    would then run as long as it asks (`cfr connect4 --no-limit` unrolls a tree of billions of
    histories), which a user may choose and a test may not."""
    _check(limit, value, needs=needs)


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


def answers_or_refuses(cli: Any, arguments: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`zerosum ARGUMENTS` ends within `BUDGET` seconds with exit code 0, or 2 and one line
    of error, no traceback, at most `OUTPUT` characters."""
    small_jobs(monkeypatch)
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
    event(f"{' '.join(arguments[: 2 if arguments[0] == 'tablebase' else 1])}: exit {code}")
    assert code in (0, 2), (arguments, code, err[-2000:])
    assert "Traceback" not in err, (arguments, err[-2000:])
    assert len(out) + len(err) <= OUTPUT, arguments
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("zerosum"), (arguments, err[:2000])
        assert len(err) <= 500, (arguments, err[:600])


@fuzzing(EXAMPLES)
@given(data=st.data())
def test_every_command_answers_or_refuses_in_one_line(cli, kit, busy, tmp_path, monkeypatch, data):
    commands = sorted(set(COMMANDS) - {"train"})
    arguments = data.draw(argv(commands, busy, templates(busy)), label="argv")
    with workplace(kit, tmp_path) as place, monkeypatch.context() as patched:
        patched.chdir(place)
        answers_or_refuses(cli, arguments, patched)


@fuzzing(TRAINING_EXAMPLES)
@given(data=st.data())
def test_train_answers_or_refuses_in_one_line(cli, kit, busy, tmp_path, monkeypatch, data):
    """`zerosum train`, which loads JAX: run after the tests that fork (tests/conftest.py)."""
    arguments = data.draw(argv(["train"], busy, TRAINING_TEMPLATES), label="argv")
    with workplace(kit, tmp_path) as place, monkeypatch.context() as patched:
        patched.chdir(place)
        answers_or_refuses(cli, arguments, patched)
