"""`zerosum solve GAME`: the exact value of a position, its best move, its line and its cost.

Connect Four goes to the dedicated solver (`zerosum.solve.connect4`), with the test
sets' score convention, and can solve a whole test-set file; the other games go to the exact
searches of `zerosum.search`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from zerosum.cli import solve_pig
from zerosum.cli.common import (
    game_and_position,
    make_game,
    number,
    parse_int_list,
    print_json,
)
from zerosum.search import alphabeta, by_priority, minimax, negamax
from zerosum.search.result import SearchResult
from zerosum.solve.connect4 import ConnectFourSolver

ALGORITHMS = {"minimax": minimax, "negamax": negamax, "alphabeta": alphabeta}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a position exactly",
        description="Search a position to the end of the game and report its exact value.",
    )
    parser.add_argument("game", help="tictactoe, connect4, pig or tree")
    parser.add_argument(
        "moves",
        nargs="?",
        help='connect4: the columns played from the empty board, e.g. "4453"; tree: the tree',
    )
    parser.add_argument("--algorithm", choices=sorted(ALGORITHMS), default="alphabeta")
    parser.add_argument(
        "--order", help="moves to examine first, comma-separated (e.g. 4,0,2,6,8,1,3,5,7)"
    )
    parser.add_argument(
        "--position", default="", help='the position, e.g. "XOX.O...." (default: the start)'
    )
    parser.add_argument(
        "--distance", action="store_true", help="prefer the quickest win and the slowest loss"
    )
    parser.add_argument(
        "--weak", action="store_true", help="connect4: only win (1), draw (0) or loss (-1)"
    )
    parser.add_argument(
        "--file", help="connect4: solve every line (MOVES [SCORE]) of a test-set file"
    )
    parser.add_argument(
        "--target",
        type=int,
        help="pig: the score that wins (default 100); solved over every position",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.game == "pig":
        return solve_pig.run(args)
    if args.target is not None:
        raise ValueError("--target is an option of pig only")
    if args.game == "connect4":
        return run_file(args) if args.file else run_connect4(args)
    if args.weak or args.file:
        raise ValueError("--weak and --file are for connect4")
    if args.game == "tree":
        game, state = game_and_position("tree", args.moves)
    else:
        game = make_game(args.game)
        text = args.position or args.moves
        state = game.parse_state(text) if text else game.initial_state()
    order = by_priority(parse_int_list(args.order, "move order")) if args.order else None
    search = ALGORITHMS[args.algorithm]
    result = search(game, state, order=order, distance=args.distance)
    report = solve_report(game, state, result, args.algorithm)
    if args.json:
        print_json(report)
    else:
        print(game.render(state))
        print(describe(report, getattr(game, "player_names", ("player 0", "player 1"))))
    return 0


def solve_report(game, state, result: SearchResult, algorithm: str) -> dict:
    """The JSON object of a solve: value, moves as text, and the counts."""
    line, position = [], state
    for move in result.pv:
        line.append(game.format_move(position, move))
        position = game.result(position, move)
    best = line[0] if line else None
    return {
        "algorithm": algorithm,
        "to_move": game.to_move(state),
        "value": number(result.value),
        "best_move": int(best) if best is not None and best.isdigit() else best,
        "pv": line,
        "plies": result.plies,
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
    }


def describe(report: dict, player_names: tuple[str, str]) -> str:
    """The text of a solve report; `player_names` name players 0 and 1."""
    value = report["value"]
    outcome = "a draw" if value == 0 else "a win" if value > 0 else "a loss"
    if report["plies"] is not None:
        outcome += f" in {report['plies']} plies"
    to_move = player_names[report["to_move"]]
    if report["best_move"] is None:
        return f"the game is over: value {value} for {to_move} ({outcome})"
    lines = [
        f"{to_move} to move: value {value} ({outcome} with best play)",
        f"best move: {report['best_move']}",
        f"principal variation: {' '.join(report['pv'])}",
        f"{report['algorithm']}: {report['nodes']:,} nodes, {report['leaves']:,} finished games"
        f" reached, {report['cutoffs']:,} cut-offs",
    ]
    return "\n".join(lines)


# -- Connect Four ------------------------------------------------------------------------------


def run_connect4(args: argparse.Namespace) -> int:
    game, state = game_and_position("connect4", args.moves or args.position)
    solver = ConnectFourSolver(game)
    solution = solver.solve(state, weak=args.weak, best_move=True)
    pv = solver.principal_variation(state, solution.score, weak=args.weak)
    report = {
        "moves": args.moves or args.position or "",
        "to_move": game.to_move(state),
        "score": solution.score,
        "weak": args.weak,
        "best_move": solution.best_move + 1,
        "pv": [move + 1 for move in pv],
        "nodes": solution.nodes,
        "us": round(solution.seconds * 1e6),
    }
    if args.json:
        print_json(report)
        return 0
    print(game.render(state))
    print(f"{game.player_names[report['to_move']]} to move: score {solution.score}"
          f" ({describe_connect4(solution.score, args.weak, game.cells)})")  # fmt: skip
    print(f"best move: {report['best_move']}")
    print(f"principal variation: {' '.join(map(str, report['pv']))}")
    print(f"{solution.nodes:,} nodes, {solution.seconds:.3f} s")
    return 0


def describe_connect4(score: int, weak: bool, cells: int) -> str:
    """A test-set score in words: who wins, and with which of their stones."""
    if score == 0:
        return "a draw with best play"
    who = "the player to move wins" if score > 0 else "the opponent wins"
    if weak:
        return who
    return f"{who} with their stone number {cells // 2 + 1 - abs(score)}"


def read_test_set(path: str) -> list[tuple[str, int | None]]:
    """The lines of a test-set file as (moves, expected score or None); ValueError if malformed."""
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    positions = []
    for number_, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        if len(words) > 2 or not words[0].isdigit():
            raise ValueError(f"{path}:{number_}: expected MOVES [SCORE], got {line.strip()!r}")
        try:
            expected = int(words[1]) if len(words) == 2 else None
        except ValueError:
            raise ValueError(
                f"{path}:{number_}: the score {words[1]!r} is not an integer"
            ) from None
        positions.append((words[0], expected))
    return positions


def run_file(args: argparse.Namespace) -> int:
    if args.moves:
        raise ValueError("give either MOVES or --file, not both")
    positions = read_test_set(args.file)
    game = make_game("connect4")
    states = []
    for number_, (moves, _) in enumerate(positions, 1):
        try:
            states.append(game_and_position("connect4", moves)[1])
        except ValueError as error:
            raise ValueError(f"{args.file}: position {number_}: {error}") from None
    solver = ConnectFourSolver(game)
    bar = Progress(len(states)) if sys.stderr.isatty() and not args.json else None
    rows = []
    for (moves, expected), state in zip(positions, states, strict=True):
        solver.reset()  # each position from an empty table, as the reference counts
        start = time.perf_counter()
        solution = solver.solve(state, weak=args.weak)
        micros = round((time.perf_counter() - start) * 1e6)
        if args.weak and expected is not None:
            expected = (expected > 0) - (expected < 0)
        row = {"moves": moves, "score": solution.score, "nodes": solution.nodes, "us": micros}
        if expected is not None:
            row["expected"] = expected
        rows.append(row)
        if not args.json:
            if bar is not None:
                bar.clear()
            mark = "" if expected is None or expected == solution.score else "  WRONG"
            print(f"{moves} {solution.score} {solution.nodes} {micros}{mark}", flush=True)
            if bar is not None:
                bar.draw(len(rows))
    if bar is not None:
        bar.clear()
    if args.json:
        print_json(rows)
        return 0
    print(summary(rows))
    return 0


def summary(rows: list[dict]) -> str:
    count = len(rows)
    checked = [row for row in rows if "expected" in row]
    correct = sum(row["score"] == row["expected"] for row in checked)
    mean_us = sum(row["us"] for row in rows) / count if count else 0
    mean_nodes = sum(row["nodes"] for row in rows) / count if count else 0
    agreement = f"{correct}/{len(checked)} correct" if checked else "no expected scores"
    return (
        f"positions: {count}  {agreement}  mean time: {mean_us:,.0f} us"
        f"  mean nodes: {mean_nodes:,.1f}"
    )


class Progress:
    """A one-line progress bar on the terminal's standard error."""

    WIDTH = 30

    def __init__(self, total: int) -> None:
        self.total = max(1, total)

    def draw(self, done: int) -> None:
        filled = self.WIDTH * done // self.total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{self.total}")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
