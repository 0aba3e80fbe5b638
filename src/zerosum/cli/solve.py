"""`zerosum solve GAME [POSITION]`: the exact value of a position, its best move, its line, its
cost.

A game with a solver of its own (the registry says which: Connect Four's, in the published test
sets' scores; Pig's, by value iteration) is solved by it; every other game, or any game with
`--algorithm`, by an exact search of `zerosum.search` to the end. `--file` solves every
position of a file, one a line, checking the expected answers it gives.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from zerosum import registry
from zerosum.cli.common import (
    add_game_argument,
    game_setup,
    number,
    parse_int_list,
    plies,
    print_json,
)
from zerosum.game import StateText, require
from zerosum.registry import Setup
from zerosum.search import by_priority
from zerosum.solve.answer import SEARCHES, ExactAnswer, exact_search


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a position exactly",
        description=(
            "Search a position to the end of the game and report its exact value for the"
            " player to move. Games with a solver of their own (connect4, pig) use it;"
            " --algorithm asks for an exact search instead."
        ),
    )
    add_game_argument(parser)
    parser.add_argument(
        "--algorithm",
        choices=sorted(SEARCHES),
        help="an exact search to the end (default: the game's solver, else alphabeta)",
    )
    parser.add_argument(
        "--order", help="moves to examine first, comma-separated (e.g. 4,0,2,6,8,1,3,5,7)"
    )
    parser.add_argument(
        "--distance", action="store_true", help="prefer the quickest win and the slowest loss"
    )
    parser.add_argument(
        "--weak", action="store_true", help="only win, draw or loss (solvers that offer it)"
    )
    parser.add_argument(
        "--file",
        help="solve every line of FILE: a position of one word, then the expected score if"
        " known (the Connect Four test sets: MOVES SCORE)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.file:
        return run_file(args)
    setup = game_setup(args)
    answer = solve(setup, args)
    report = solve_report(setup, answer)
    if args.json:
        print_json(report)
        return 0
    print(registry.render(setup.game, setup.state))
    print(describe(report, registry.player_names(setup.game), answer.note))
    return 0


def solve(setup: Setup, args: argparse.Namespace, solver: Any = None) -> ExactAnswer:
    """The exact answer for `setup`'s position: by the game's solver (or `solver`, one made
    already), or by the exact search the arguments ask for."""
    if not setup.entry.solvable:
        raise ValueError(
            f"{setup.entry.name} has too many positions to solve by searching to the end:"
            f" analyse it with the engine (zerosum analyze {setup.entry.name})"
        )
    generic = args.algorithm is not None or args.order or args.distance
    over = setup.game.is_terminal(setup.state)
    if setup.entry.solver is not None and not generic and not over:
        solver = solver or setup.entry.solver(setup.game)
        if args.weak and not solver.weak:
            raise ValueError(f"{setup.entry.name}'s solver has no weak mode (--weak)")
        return solver.answer(setup.state, weak=args.weak)
    if args.weak:
        raise ValueError("--weak is for games whose solver has a weak mode (connect4)")
    order = by_priority(parse_int_list(args.order, "move order")) if args.order else None
    return exact_search(
        setup.game,
        setup.state,
        algorithm=args.algorithm or "alphabeta",
        order=order,
        distance=args.distance,
    )


def solve_report(setup: Setup, answer: ExactAnswer) -> dict[str, Any]:
    """The JSON object of a solve (docs/json.md): the value for the player to move, the moves
    as text, the counts, then the solver's own figures."""
    game, state = setup.game, setup.state
    pv = registry.line_text(game, state, answer.pv)
    return {
        "game": setup.name,
        "position": setup.position,
        "to_move": game.to_move(state),
        "algorithm": answer.algorithm,
        "value": number(answer.value),
        "exact": True,
        "plies": answer.plies,
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "nodes": answer.nodes,
        "seconds": round(answer.seconds, 6),
        **answer.details,
    }


def describe(report: dict, player_names: tuple[str, str], note: str = "") -> str:
    """The text of a solve report; `player_names` name players 0 and 1."""
    value = report["value"]
    if not float(value).is_integer():  # an expectation over the dice
        lines = [
            f"{player_names[report['to_move']]} to move: expected value {value:.4f} under best play"
        ]
        return "\n".join([*lines, note, f"best move: {report['best_move']}"])
    outcome = "a draw" if value == 0 else "a win" if value > 0 else "a loss"
    if report["plies"] is not None:
        outcome += f" in {plies(report['plies'])}"
    to_move = player_names[report["to_move"]]
    if report["best_move"] is None:
        return f"the game is over: value {value} for {to_move} ({outcome})"
    lines = [f"{to_move} to move: value {value} ({outcome} with best play)"]
    if note:
        lines.append(note)
    lines += [
        f"best move: {report['best_move']}",
        f"principal variation: {' '.join(report['pv'])}",
    ]
    counts = f"{report['algorithm']}: {report['nodes']:,} nodes"
    if "leaves" in report:
        counts += f", {report['leaves']:,} finished games reached, {report['cutoffs']:,} cut-offs"
    lines.append(f"{counts}, {report['seconds']:.3f} s")
    return "\n".join(lines)


# -- a file of positions -----------------------------------------------------------------------


def read_positions(path: str) -> list[tuple[str, int | None]]:
    """The lines of a file of positions as (position, expected score or None); ValueError when
    a line is malformed."""
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a text file") from None
    positions = []
    for number_, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words:
            continue
        if len(words) > 2:
            raise ValueError(f"{path}:{number_}: expected POSITION [SCORE], got {line.strip()!r}")
        try:
            expected = int(words[1]) if len(words) == 2 else None
        except ValueError:
            raise ValueError(
                f"{path}:{number_}: the score {words[1]!r} is not an integer"
            ) from None
        positions.append((words[0], expected))
    return positions


def run_file(args: argparse.Namespace) -> int:
    if args.position_words or args.position_option is not None:
        raise ValueError("give either a position or --file, not both")
    first = game_setup(args)
    require(first.game, StateText, "--file (positions as text)")
    lines = read_positions(args.file)
    setups = []
    for number_, (text, _) in enumerate(lines, 1):
        try:
            setups.append(registry.unfinished(_at(first, text)))
        except ValueError as error:
            raise ValueError(f"{args.file}: position {number_}: {error}") from None
    solver = first.entry.solver(first.game) if first.entry.solver is not None else None
    bar = Progress(len(setups)) if sys.stderr.isatty() and not args.json else None
    rows = []
    for (text, expected), setup in zip(lines, setups, strict=True):
        if solver is not None:
            solver.reset()  # each position from an empty table, as the reference counts
        answer = solve(setup, args, solver)
        score = answer.details.get("score", number(answer.value))
        row = {"position": text, "score": score, "nodes": answer.nodes}
        row["seconds"] = round(answer.seconds, 6)
        if expected is not None:
            if args.weak:
                expected = (expected > 0) - (expected < 0)
            row["expected"] = expected
        rows.append(row)
        if not args.json:
            if bar is not None:
                bar.clear()
            mark = "" if expected is None or expected == score else "  WRONG"
            print(f"{text} {score} {answer.nodes} {answer.seconds:.6f}{mark}", flush=True)
            if bar is not None:
                bar.draw(len(rows))
    if bar is not None:
        bar.clear()
    if args.json:
        print_json(rows)
        return 0
    print(summary(rows))
    return 0


def _at(setup: Setup, text: str) -> Setup:
    return Setup(setup.entry, setup.game, registry.state_of(setup.game, text), setup.name, text)


def summary(rows: list[dict]) -> str:
    count = len(rows)
    checked = [row for row in rows if "expected" in row]
    correct = sum(row["score"] == row["expected"] for row in checked)
    mean_ms = 1000 * sum(row["seconds"] for row in rows) / count if count else 0
    mean_nodes = sum(row["nodes"] for row in rows) / count if count else 0
    agreement = f"{correct}/{len(checked)} correct" if checked else "no expected scores"
    return (
        f"positions: {count}  {agreement}  mean time: {mean_ms:,.3f} ms"
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
