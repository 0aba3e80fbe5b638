"""Every field of every command's JSON is in docs/json.md, with its type (issue 39).

The guide's tables are read as data: a heading, then `| field | type | meaning |` rows. Every
command that takes `--json` is run here on a small game, and each key it prints, nested ones
too, must be a row of its heading's table and hold a value of that row's type; every row must
be printed by some run (so the guide lists nothing that is gone), every table must be run, and
every command that takes `--json` must be run (so a new one cannot escape). A word used in more
than one place must be in the guide's vocabulary, each table's type of it within the
vocabulary's: one word, one meaning, one type.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import build_parser
from zerosum.web.matrix import solved_matrix
from zerosum.web.ordering import chart_orders, chart_run
from zerosum.web.tree import searched_tree

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "json.md"
VOCABULARY = "The vocabulary"
HEADER = "| field | type | meaning |"

# -- the guide's tables, read as data --------------------------------------------------------

SCALARS = ("string", "integer", "number", "boolean", "null", "object", "any")
TOKEN = re.compile(r"\(|\)|list of|map of|\bor\b|[a-z]+")


def parse_type(text: str) -> tuple:
    """A type of the guide as a tuple: `("integer",)`, `("list", inner)`, `("map", inner)`,
    `("union", (a, b, ...))`; "or" binds loosest, parentheses group."""
    tokens = TOKEN.findall(text)
    written = "".join(token.replace(" ", "") for token in tokens)
    assert written == text.replace(" ", ""), f"unreadable type {text!r}"
    position = 0

    def union() -> tuple:
        nonlocal position
        alternatives = [alternative()]
        while position < len(tokens) and tokens[position] == "or":
            position += 1
            alternatives.append(alternative())
        return alternatives[0] if len(alternatives) == 1 else ("union", tuple(alternatives))

    def alternative() -> tuple:
        nonlocal position
        assert position < len(tokens), f"type {text!r} ends too soon"
        token = tokens[position]
        position += 1
        if token == "(":
            inner = union()
            assert tokens[position : position + 1] == [")"], f"unclosed ( in {text!r}"
            position += 1
            return inner
        if token in ("list of", "map of"):
            return (token.split()[0], alternative())
        assert token in SCALARS, f"unknown type {token!r} in {text!r}"
        return (token,)

    parsed = union()
    assert position == len(tokens), f"unreadable type {text!r}"
    return parsed


def read_guide(text: str) -> dict[str, dict[str, tuple]]:
    """Each table of the guide by its heading: every field's path to its parsed type."""
    tables: dict[str, dict[str, tuple]] = {}
    heading, in_table = None, False
    for line in text.splitlines():
        if line.startswith("#"):
            heading, in_table = line.lstrip("#").strip(), False
        elif line.strip() == HEADER:
            assert heading not in tables, f"two tables under {heading!r}"
            tables[heading], in_table = {}, True
        elif in_table and line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if set(cells[0]) <= {"-"}:
                continue
            assert len(cells) == 3, f"{heading}: a row of {len(cells)} cells: {line}"
            for name in cells[0].split(","):
                path = name.strip().strip("`")
                assert re.fullmatch(r"[a-z_]+(\[\]|\.[a-z_]+)*(\[\])?(\.[a-z_]+)*", path), line
                assert path not in tables[heading], f"{heading}: {path} twice"
                tables[heading][path] = parse_type(cells[1])
        else:
            in_table = False
    return tables


TABLES = read_guide(GUIDE.read_text())


def word(path: str) -> str:
    """The word a path ends with: `depths[].depth` is `depth`."""
    return re.split(r"[.\[\]]+", path.strip("[]"))[-1]


def narrower(a: tuple, b: tuple) -> bool:
    """Whether every value of type `a` is one of type `b`."""
    if b == ("any",):
        return True
    if a[0] == "union":
        return all(narrower(x, b) for x in a[1])
    if b[0] == "union":
        return any(narrower(a, y) for y in b[1])
    if a[0] in ("list", "map"):
        return a[0] == b[0] and narrower(a[1], b[1])
    return a == b or (a, b) == (("integer",), ("number",))


# -- holding a command's output to its table ---------------------------------------------------


@dataclass
class Holding:
    """What holding outputs to one table found: the rows printed and what is wrong."""

    table: dict[str, tuple]
    seen: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def check(self, value: Any, kind: tuple, path: str) -> list[str]:
        """What is wrong with `value` as a `kind` at `path` (rows printed noted in `seen`)."""
        name = kind[0]
        if name == "union":
            found: list[str] = []
            for alternative in kind[1]:
                seen = set(self.seen)
                wrong = self.check(value, alternative, path)
                if not wrong:
                    return []
                self.seen = seen  # the rows an alternative that failed saw are not printed
                found += wrong
            return found or [f"{path}: {value!r} is none of its types"]
        fits = {
            "any": True,
            "null": value is None,
            "boolean": isinstance(value, bool),
            "string": isinstance(value, str),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool),
            "object": isinstance(value, dict),
            "list": isinstance(value, list),
            "map": isinstance(value, dict),
        }[name]
        if not fits:
            return [f"{path or 'the output'}: {json.dumps(value)[:60]} is not {name}"]
        wrong = []
        if name == "object":
            for key, item in value.items():
                child = f"{path}.{key}" if path else key
                if child not in self.table:
                    wrong.append(f"{child}: not in the guide")
                    continue
                self.seen.add(child)
                wrong += self.check(item, self.table[child], child)
        elif name == "list":
            for item in value:
                wrong += self.check(item, kind[1], f"{path}[]")
        elif name == "map":
            for item in value.values():
                wrong += self.check(item, kind[1], f"{path}{{}}")
        return wrong


# -- the walk: every command with --json, on small games ----------------------------------------


@dataclass(frozen=True)
class Run:
    """One command of the walk, under the heading of its table: `command` (shell words, with
    {data} for tests/data and {run} for a training run's directory) is run with `--json` in
    the walk's folder, after `files` are written there; in a process of its own with
    `process` (the commands that import JAX, which this process must not start). A run of
    the page calls `page` with `command` instead (the answer of the server's route), and is
    held to the tables of `also` too (the command whose answer it extends)."""

    heading: str
    command: str
    files: dict[str, str] = field(default_factory=dict)
    process: bool = False
    listed: bool = False  # the output is a list of objects, each held to the table
    page: Callable[..., Any] | None = None
    also: tuple[str, ...] = ()

    def argv(self, run: str = "") -> list[str]:
        return shlex.split(self.command.format(data=ROOT / "tests" / "data", run=run))


def alphabeta_tree(text: str) -> Any:
    """The tree page's answer for `text`, searched by alpha-beta."""
    return searched_tree(text, "alphabeta")


TWO_CONNECT4 = "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n"
WALK = [
    Run("solve", "solve tictactoe XOX.O...."),
    Run("solve", "solve tictactoe XOX.O.... --all-moves"),
    Run("solve", "solve connect4 52753311433677442422121 --table-mb 1"),
    Run("solve", "solve pig --target 20 --position '12 15 4 0'"),
    Run("solve --file", "solve connect4 --file two", {"two": TWO_CONNECT4}, listed=True),
    Run("solve --file", "solve tictactoe --file ttt", {"ttt": "XOX.O.... 0\n"}, listed=True),
    Run("solve, a game of imperfect information", "solve kuhn"),
    Run("solve, a game of imperfect information", "solve kuhn --exact --save kuhn.json"),
    Run("analyze", "analyze connect4 4453 --depth 2 --engine python"),
    Run(
        "analyze",
        "analyze chess --fen '8/8/8/4k3/8/8/2r5/K2Q4 w - - 0 1' --depth 1"
        " --syzygy {data}/chess/syzygy",
    ),
    Run("analyze, a game with dice", "analyze pig '12 15 4 0' --target 20"),
    Run(
        "analyze, by MCTS",
        "analyze go 'C3 D3 C2 D2 C4 D4 D5 E4 E5 E3 B1 pass D1 pass' --size 5 --iterations 50",
    ),
    Run("analyze --exact", "analyze tictactoe XOX.O.... --exact"),
    Run("analyze --exact", "analyze connect4 2737772244262123677516643354 --exact --table-mb 1"),
    Run("explain", "explain tictactoe XOX.O.... --depth 1 --show svg -o search.svg"),
    Run("explain", "explain connect4 4453 --depth 1"),
    Run("tree", "tree [[3,12],[2,4]]"),
    Run("tree", "tree [[3,12],[2,4]] --show svg -o tree.svg"),
    Run("match", "match nim --heaps 2,3 --a solver --b random --games 4"),
    Run("tablebase build, tablebase info", "tablebase build nim --heaps 2,3 -o nim.tb"),
    Run(
        "tablebase build, tablebase info",
        "tablebase build tictactoe -o ttt.zt --work-dir work --workers 1",
    ),
    Run("tablebase build, tablebase info", "tablebase info nim.tb"),
    Run("tablebase probe", "tablebase probe nim.tb --position '1 2'"),
    Run(
        "tablebase build chess, tablebase info of a chess table",
        "tablebase build chess KRK -o tables",
    ),
    Run(
        "tablebase build chess, tablebase info of a chess table",
        "tablebase build chess KQK -o tables --work-dir chess-work",
    ),
    Run("tablebase build chess, tablebase info of a chess table", "tablebase info tables/KRvK.ztb"),
    Run("tablebase probe", "tablebase probe tables/KRvK.ztb --position '8/8/8/4k3/8/8/8/4K2R w'"),
    Run("games", "games"),
    Run("matrix", "matrix '1/2 -1/3; -1/6 1'"),
    Run("matrix", "matrix '1 2; 3 4'"),
    Run("matrix, a bimatrix game", "matrix '3,1 0,0; 0,0 1,3'"),
    Run("matrix, a bimatrix game", "matrix '1,-1 -1,1; -1,1 1,-1' --all --lemke-howson"),
    Run("matrix, a bimatrix game", "matrix '3,3 0,5; 5,0 1,1' --all"),
    Run("nim", "nim 1 2 3"),
    Run("nim", "nim 1 2"),
    Run("grundy", "grundy kayles --upto 10"),
    Run("pn", "pn --subtract 1,2 --start 5"),
    Run("cgt", "cgt '{{2 | -1}} + ^' --compare '*' --show svg -o thermograph.svg"),
    Run("cgt", "cgt domineering '2x3 + 2x2'"),
    Run("cfr", "cfr kuhn --iterations 10 --seed 1 --save cfr.json"),
    Run("perft", "perft tictactoe --depth 2"),
    Run("chart ordering", "chart ordering -o ordering.svg"),
    Run("chart growth", "chart growth --max-depth 2 --samples 1 -o growth.svg"),
    Run("chart ablation", "chart ablation --max-depth 1 -o ablation.svg"),
    Run(
        "chart cfr",
        "chart cfr kuhn --iterations 4 --sampled-iterations 10 --algorithms cfr,mccfr-es"
        " -o cfr.svg",
    ),
    Run("train", "train tictactoe --out {run} --resume --rounds 1 --workers 1", process=True),
    Run("chart learning", "chart learning {run} -o learning.svg"),
    Run("train, Pig", "train pig --target 10 --games 20 --out pig-run", process=True),
    Run("the page: a matrix", "4 2 3; 1 0 5; 3 1 2", page=solved_matrix, also=("matrix",)),
    Run("the page: a matrix", "1/2 -1/3; -1/6 1", page=solved_matrix, also=("matrix",)),
    Run(
        "the page: a matrix",
        "3,1 0,0; 0,0 1,3",
        page=solved_matrix,
        also=("matrix, a bimatrix game",),
    ),
    Run("the page: a tree", "[[3,12,8],[2,4,6],[14,5,2]]", page=alphabeta_tree),
    Run(
        "the page: a tree",
        '[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]',
        page=alphabeta_tree,
    ),
    Run("the page: the ordering chart's orders", "", page=lambda _: chart_orders()),
    Run("the page: a run of the ordering chart", "0", page=lambda run: chart_run(int(run))),
]

NETWORK_RUN = """
import sys
from zerosum.cli import main
from zerosum.learn import training
from zerosum.registry import setup

# A run whose gate keeps any network (gate_score 0), so its first round is evaluated against
# its fixed opponent: its report and its log then hold every record.
plan = training.Plan(
    "tictactoe", hidden=(8,), simulations=2, games_per_round=2, gate_games=2, gate_score=0.0,
    opponents=("random",), evaluation_games=2,
)
training.start(sys.argv[1], plan, setup(plan.game).game)
sys.exit(main(sys.argv[2:]))
"""


def run_json(run: Run, folder: Path, cli: Any, directory: str) -> Any:
    """What `run` prints with --json in `folder`, read as JSON."""
    if run.page is not None:
        return json.loads(json.dumps(run.page(run.command)))  # as the route sends it
    for name, text in run.files.items():
        (folder / name).write_text(text)
    argv = [*run.argv(directory), "--json"]
    if run.process:
        script = ["-c", NETWORK_RUN, directory] if "{run}" in run.command else ["-m", "zerosum"]
        done = subprocess.run(
            [sys.executable, *script, *argv], cwd=folder, capture_output=True, text=True,
            timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, f"{run.command}: {done.stderr}"
        return json.loads(done.stdout)
    code, out, err = cli(*argv)
    assert code == 0, f"{run.command}: {err}"
    return json.loads(out)


# -- the tests ---------------------------------------------------------------------------------


def test_every_command_prints_the_fields_of_its_table_and_every_field_is_printed(
    cli, tmp_path, monkeypatch
):
    pytest.importorskip("matplotlib", reason="the charts need the optional matplotlib")
    monkeypatch.chdir(tmp_path)
    holdings = {heading: Holding(table) for heading, table in TABLES.items()}
    directory = str(tmp_path / "network-run")
    for run in WALK:
        assert run.heading in TABLES, f"{run.command}: no table {run.heading!r} in the guide"
        headings = (run.heading, *run.also)
        holding = Holding({path: kind for h in headings for path, kind in TABLES[h].items()})
        printed = run_json(run, tmp_path, cli, directory)
        items = printed if run.listed else [printed]
        assert run.listed == isinstance(printed, list), f"{run.command}: a list or not?"
        for item in items:
            wrong = holding.check(item, ("object",), "")
            holdings[run.heading].problems += [f"{run.command}: {problem}" for problem in wrong]
        for heading in headings:  # each table's rows this run printed
            holdings[heading].seen |= holding.seen & set(TABLES[heading])
    problems = [problem for holding in holdings.values() for problem in holding.problems]
    for heading, holding in holdings.items():
        if heading != VOCABULARY:
            problems += [
                f"{heading}: {path} is in the guide but no command of the walk printed it"
                for path in holding.table
                if path not in holding.seen
            ]
    assert not problems, "\n".join(problems)


def test_every_table_of_the_guide_is_walked():
    walked = {run.heading for run in WALK}
    assert set(TABLES) - {VOCABULARY} == walked


def json_commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> list[tuple]:
    """The commands (as their words) whose parser takes `--json`, sub-commands included."""
    found = [words] if "--json" in parser._option_string_actions else []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += json_commands(sub, (*words, name))
    return found


def test_every_command_that_takes_json_is_walked():
    commands = json_commands(build_parser())
    assert ("solve",) in commands and ("tablebase", "probe") in commands
    walked = [run.argv("DIR") for run in WALK if run.page is None]
    for command in commands:
        assert any(tuple(argv[: len(command)]) == command for argv in walked), (
            f"zerosum {' '.join(command)} takes --json and is not walked"
        )


def test_a_word_has_one_type_the_vocabularys_wherever_it_is_used():
    vocabulary = TABLES[VOCABULARY]
    uses: dict[str, list[tuple[str, str, tuple]]] = {}
    for heading, table in TABLES.items():
        if heading != VOCABULARY:
            for path, kind in table.items():
                uses.setdefault(word(path), []).append((heading, path, kind))
    problems = [
        f"{name} is used {len(places)} times and is not in the vocabulary"
        for name, places in uses.items()
        if len(places) > 1 and name not in vocabulary
    ]
    problems += [
        f"{name} is in the vocabulary and used nowhere" for name in vocabulary if name not in uses
    ]
    problems += [
        f"{heading}: {path} is not within the vocabulary's type of {word(path)}"
        for name, places in uses.items()
        if name in vocabulary
        for heading, path, kind in places
        if not narrower(kind, vocabulary[name])
    ]
    assert not problems, "\n".join(problems)


def test_the_guide_s_types_are_read_as_written():
    assert parse_type("list of integer or null") == ("union", (("list", ("integer",)), ("null",)))
    assert parse_type("list of (integer or string)") == (
        "list",
        ("union", (("integer",), ("string",))),
    )
    assert parse_type("map of map of number") == ("map", ("map", ("number",)))
    assert narrower(parse_type("list of integer"), parse_type("list of number or null"))
    assert not narrower(parse_type("number or null"), parse_type("number"))
    assert word("depths[].depth") == "depth" and word("table.hits") == "hits"


def fits(value: Any, kind: tuple) -> bool:
    """Whether `value` is of type `kind`, an object's fields left to their own words."""
    name = kind[0]
    if name == "union":
        return any(fits(value, alternative) for alternative in kind[1])
    if name == "list":
        return isinstance(value, list) and all(fits(item, kind[1]) for item in value)
    if name == "map":
        return isinstance(value, dict) and all(fits(item, kind[1]) for item in value.values())
    return {
        "any": True,
        "null": value is None,
        "boolean": isinstance(value, bool),
        "string": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "object": isinstance(value, dict),
    }[name]


def test_the_play_pages_messages_use_the_vocabularys_words_with_its_types():
    """The websocket's messages (docs/web.md) as the engine, MCTS and Connect Four's solver
    think: every field named by a word of the vocabulary holds a value of its type."""
    from starlette.testclient import TestClient

    from zerosum.cli.serve import own_hosts
    from zerosum.web.app import create_app

    client = TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url="http://127.0.0.1:8000")
    games = [  # (strength, position, the person's seat): the program moves first
        ({"kind": "depth", "plies": 2}, None, 1),
        ({"kind": "mcts", "seconds": 0.2}, None, 1),
        ({"kind": "perfect"}, "123456712345671234567", 0),  # few nodes; O wins at once
    ]
    messages = []
    with client.websocket_connect("ws://127.0.0.1:8000/ws/play") as websocket:
        messages.append(websocket.receive_json())
        for strength, position, human in games:
            websocket.send_json(
                {"type": "new", "game": "connect4", "human": human, "position": position,
                 "strength": strength}
            )  # fmt: skip
            while True:  # until the program has moved: the person's turn, or the game's end
                message = websocket.receive_json()
                messages.append(message)
                assert message["type"] != "error", message
                if message["type"] == "position" and (message["moves"] or message["result"]):
                    break
    kinds = {message["type"] for message in messages}
    assert kinds == {"games", "position", "thinking", "iteration", "mcts", "columns"}
    vocabulary = TABLES[VOCABULARY]
    problems = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in vocabulary and not fits(item, vocabulary[key]):
                    problems.append(f"{where}.{key}: {json.dumps(item)[:60]}")
                walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for item in value:
                walk(item, f"{where}[]")

    for message in messages:
        walk(message, message["type"])
    assert not problems, "\n".join(problems)
