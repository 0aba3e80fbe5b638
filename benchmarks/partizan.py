"""Partizan games: Domineering rectangles valued, a 10x10 board of small regions, and the value of
a sum against alpha-beta playing the whole sum out.

1. Every Domineering rectangle of `--rows` rows by `--columns` columns at most (or the boards
   `--boards` names), one fresh process each (no value remembered from another): the canonical
   value, its outcome, the components valued, the process's peak memory and the seconds (and
   the processor's seconds: this machine is shared, and the wall clock waits for others); beside
   it the outcome the engine finds by searching the board (its table, no values), which must
   be the same.
2. A 10x10 board cut by holes into small regions (rows 4 and 8 and columns 4 and 8 covered, and
   a few squares more): its value, its winning moves, in a fresh process.
3. Sums whose outcome alpha-beta can still find by playing them out: the time and nodes of the
   search against the time of the value (both in fresh processes).

    python benchmarks/partizan.py [--rows 5] [--columns 6] [--boards 6x6,5x7]
                                  [--only rectangles|regions|sums]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

REGIONS = "/".join(
    [
        "...#...#..",
        "..#....#..",
        "...#...#..",
        "##########",
        "....#..#..",
        "...#...#.#",
        "..#....#..",
        "##########",
        ".#.#..#...",
        "...#...#..",
    ]
)
"""10 rows of 10: holes cut the board into small regions, some with holes of their own."""

VALUE = """
import json, resource, sys, time
from zerosum.games.domineering import Domineering, read_board
from zerosum.theory.partizan_games import PartizanValues
from zerosum.theory.thermograph import thermograph
started, processor = time.perf_counter(), time.process_time()
game = Domineering()
values = PartizanValues(game, no_limit=True)
boards = [read_board(text) for text in sys.argv[1].split("+")]
parts = [part for board in boards for part in game.components(board)]
value = sum((values(board) for board in boards[1:]), values(boards[0]))
drawn = thermograph(value)
moves = sum(1 for part in parts for _ in game.left_options(part))
seconds = time.perf_counter() - started
print(json.dumps({"value": str(value), "outcome": value.outcome, "parts": len(parts),
                  "valued": len(values), "mean": str(drawn.mean),
                  "temperature": str(drawn.temperature), "seconds": seconds,
                  "processor": time.process_time() - processor,
                  "megabytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

SEARCH = """
import json, resource, sys, time
from zerosum.games.domineering import Domineering, read_board
from zerosum.search import alphabeta
from zerosum.theory.partizan_games import PartizanSum
started = time.perf_counter()
results = []
nodes = 0
for first in (0, 1):
    game = PartizanSum(Domineering(), [read_board(p) for p in sys.argv[1].split("+")], first)
    found = alphabeta(game, game.initial_state())
    results.append(found.value > 0)
    nodes += found.stats.nodes
outcome = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
print(json.dumps({"outcome": outcome[tuple(results)], "nodes": nodes,
                  "seconds": time.perf_counter() - started}))
"""


ENGINE = """
import json, sys, time
from zerosum.games.domineering import Domineering, read_board
from zerosum.search.engine import Engine
from zerosum.theory.partizan_games import PartizanSum
started = time.perf_counter()
wins, nodes = [], 0
for first in (0, 1):
    game = PartizanSum(Domineering(), [read_board(sys.argv[1])], first)
    found = Engine(game).search(game.initial_state())
    assert found.exact
    wins.append(found.value > 0)
    nodes += sum(iteration.nodes for iteration in found.iterations)
outcome = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
print(json.dumps({"outcome": outcome[tuple(wins)], "nodes": nodes,
                  "seconds": time.perf_counter() - started}))
"""
"""The outcome of one board found by the engine (its table, no values), Left first and Right
first."""


def run(script: str, argument: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", script, argument], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def rectangles(boards: list[str]) -> None:
    print(
        "| board | value | outcome | mean | temperature | positions valued | peak MB | seconds"
        " (processor) | engine: outcome | nodes | seconds |"
    )
    print("|---|---|:-:|---:|---:|---:|---:|---:|:-:|---:|---:|")
    for board in boards:
        found = run(VALUE, board)
        searched = run(ENGINE, board)
        assert searched["outcome"] == found["outcome"], (board, found, searched)
        value = found["value"].replace("|", "\\|")  # a bar of a value's text, not of the table
        if len(value) > 40:
            value = f"({len(found['value']):,} characters)"
        print(
            f"| {board} | {value} | {found['outcome']} | {found['mean']} |"
            f" {found['temperature']} | {found['valued']:,} | {found['megabytes']:,.0f} |"
            f" {found['seconds']:.2f} ({found['processor']:.2f}) | {searched['outcome']} |"
            f" {searched['nodes']:,} |"
            f" {searched['seconds']:.2f} |",
            flush=True,
        )


def regions() -> None:
    found = run(VALUE, REGIONS)
    print(
        f"10x10 in {found['parts']} regions: {found['value']}, {found['outcome']},"
        f" mean {found['mean']}, temperature {found['temperature']},"
        f" {found['valued']:,} positions valued, {found['seconds']:.2f} s"
    )


SUMS = ["2x3+3x2+2x2", "3x4+2x2", "4x4", "2x3+3x2", "3x4+4x3", "3x3+3x3+2x2+2x2"]


def sums() -> None:
    print("| sum | outcome (value) | value: seconds | alpha-beta: outcome | nodes | seconds |")
    print("|---|:-:|---:|:-:|---:|---:|")
    for text in SUMS:
        parts = text.split("+")
        value = run(VALUE, text)
        search = run(SEARCH, text)
        assert value["outcome"] == search["outcome"], (text, value, search)
        print(
            f"| {' + '.join(parts)} | {value['outcome']} | {value['seconds']:.3f} |"
            f" {search['outcome']} | {search['nodes']:,} | {search['seconds']:.2f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--columns", type=int, default=6)
    parser.add_argument("--boards", help="the rectangles to value, like 6x6,5x7 (instead of all)")
    parser.add_argument("--only", choices=("rectangles", "regions", "sums"))
    args = parser.parse_args()
    if args.only in (None, "regions"):
        regions()
    if args.only in (None, "sums"):
        sums()
    if args.only in (None, "rectangles"):
        every = [f"{m}x{n}" for m in range(1, args.rows + 1) for n in range(m, args.columns + 1)]
        rectangles(args.boards.split(",") if args.boards else every)


if __name__ == "__main__":
    main()
