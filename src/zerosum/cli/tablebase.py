"""`zerosum tablebase`: build a game's table by retrograde analysis, describe it, probe it."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from zerosum.cli.common import GAMES, print_json
from zerosum.game import Game
from zerosum.games.nim import Nim, parse_heaps
from zerosum.solve import Progress, Table, read_header, solve
from zerosum.solve.table import identity

TABLE_GAMES = {**GAMES, "nim": Nim}
"""The games a table can be built for: the built-in ones, and Nim with its heaps."""
SIZE_OPTIONS = {
    "width": "columns (connect4)",
    "height": "rows (connect4)",
    "connect": "stones in a line to win (connect4)",
}
GAME_OPTIONS = (*SIZE_OPTIONS, "heaps", "misere")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tablebase",
        help="solve every position of a game once and play from the table",
        description="Build, describe and probe tables of solved positions (retrograde analysis).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    build = actions.add_parser("build", help="solve every position and write the table")
    build.add_argument("game", help=", ".join(sorted(TABLE_GAMES)))
    for option, meaning in SIZE_OPTIONS.items():
        build.add_argument(f"--{option}", type=int, help=meaning)
    build.add_argument("--heaps", help='heap sizes (nim), e.g. "3,5,8"')
    build.add_argument(
        "--misere",
        action="store_const",
        const=True,
        help="whoever takes the last object loses (nim)",
    )
    build.add_argument("-o", "--output", required=True, help="the table file to write")
    build.add_argument(
        "--workers",
        type=int,
        help="processes to use (default: every core; one for tic-tac-toe and Connect Four,"
        " whose rules work on whole arrays)",
    )
    build.add_argument("--scheduler", help="address of a Dask scheduler to build on")
    build.add_argument("--json", action="store_true", help="print one JSON object")
    build.set_defaults(run=run_build)

    info = actions.add_parser("info", help="verify a table file and describe it")
    info.add_argument("file")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(run=run_info)

    probe = actions.add_parser("probe", help="a position's value, distance and best moves")
    probe.add_argument("file")
    probe.add_argument(
        "--position", default="", help='the position, e.g. "XOX.O...." or "4453" (default: start)'
    )
    probe.add_argument("--json", action="store_true", help="print one JSON object")
    probe.set_defaults(run=run_probe)


def run_build(args: argparse.Namespace) -> int:
    name = args.game
    options = {o: getattr(args, o) for o in GAME_OPTIONS if getattr(args, o) is not None}
    if "heaps" in options:
        options["heaps"] = parse_heaps(options["heaps"])
    game = build_game(name, options)
    output = Path(args.output)
    if not output.parent.is_dir():
        raise ValueError(f"cannot write {args.output!r}: no directory {str(output.parent)!r}")
    began = time.perf_counter()
    table = solve(game, workers=args.workers, scheduler=args.scheduler, progress=ProgressLine())
    size = table.save(output)
    report = table_report(name, table, str(output), size)
    report["seconds"] = round(time.perf_counter() - began, 3)
    if args.json:
        print_json(report)
    else:
        print(describe(report))
        print(f"written {output} ({size:,} bytes) in {report['seconds']:.1f} s")
    return 0


def run_info(args: argparse.Namespace) -> int:
    name, table = load(args.file)
    report = table_report(name, table, args.file, Path(args.file).stat().st_size)
    if args.json:
        print_json(report)
    else:
        print(describe(report))
        for layer in report["layers"]:
            if layer["layer"] is not None:
                print(
                    f"  layer {layer['layer']:>3}: {layer['positions']:>12,} positions,"
                    f" {layer['terminal']:,} terminal, {layer['wins']:,} wins,"
                    f" {layer['draws']:,} draws, {layer['losses']:,} losses"
                )
    return 0


def run_probe(args: argparse.Namespace) -> int:
    name, table = load(args.file)
    game = table.game
    state = game.parse_state(args.position) if args.position else game.initial_state()  # type: ignore[attr-defined]
    entry = table.probe(state)
    report = {
        "position": args.position,
        "to_move": game.to_move(state),
        "value": entry.value,
        "distance": entry.distance,
        "best_moves": [game.format_move(state, move) for move in entry.best_moves],  # type: ignore[attr-defined]
    }
    if args.json:
        print_json(report)
    else:
        print(game.render(state))  # type: ignore[attr-defined]
        print(f"player {report['to_move']} to move: {outcome_text(entry.value, entry.distance)}")
        if report["best_moves"]:
            print(f"best moves: {' '.join(report['best_moves'])}")
    return 0


def build_game(name: str, options: dict[str, Any]) -> Game:
    """The game `name` made with `options`; ValueError for an unknown game or option."""
    if name not in TABLE_GAMES:
        known = ", ".join(sorted(TABLE_GAMES))
        raise ValueError(f"unknown game {name!r}: choose one of {known}")
    try:
        return TABLE_GAMES[name](**options)  # type: ignore[call-arg]
    except TypeError:
        flags = " ".join(f"--{option}" for option in options)
        raise ValueError(f"{name} takes no {flags}") from None


def load(path: str) -> tuple[str, Table]:
    """The command-line name of the game a table file was built for, and the verified table."""
    header = read_header(path)
    for name, make in TABLE_GAMES.items():
        if identity(make())[0] == header["game"]:
            try:
                game = make(**header["parameters"])  # type: ignore[call-arg]
            except (TypeError, ValueError):
                raise ValueError(f"{path}: corrupted table (bad game parameters)") from None
            return name, Table.load(path, game)
    raise ValueError(f"{path}: a table of {header['game']}, a game this command does not know")


def table_report(name: str, table: Table, path: str, size: int) -> dict[str, Any]:
    """The JSON object of a table: its game, counts, initial value and layers."""
    start = table.initial()
    return {
        "game": name,
        "parameters": identity(table.game)[1],
        "file": path,
        "bytes": size,
        "positions": table.counts.positions,
        "terminal": table.counts.terminal,
        "wins": table.counts.wins,
        "draws": table.counts.draws,
        "losses": table.counts.losses,
        "value": None if start is None else start.value,
        "distance": None if start is None else start.distance,
        "layers": [{"layer": layer, **vars(counts)} for layer, counts in table.layers.items()],
    }


def describe(report: dict[str, Any]) -> str:
    parameters = " ".join(
        f"{key} {','.join(map(str, value)) if isinstance(value, list) else value}"
        for key, value in report["parameters"].items()
    )
    lines = [
        f"{report['game']}{' (' + parameters + ')' if parameters else ''}:"
        f" {report['positions']:,} positions, {report['terminal']:,} terminal",
        f"for the side to move: {report['wins']:,} wins, {report['draws']:,} draws,"
        f" {report['losses']:,} losses",
    ]
    if report["value"] is not None:
        lines.append(f"initial position: {outcome_text(report['value'], report['distance'])}")
    return "\n".join(lines)


def outcome_text(value: int, distance: int | None) -> str:
    """`a win in 5 plies`, `a draw` (with its plies when the game ends), `game over`..."""
    if distance == 0:
        return f"game over ({'won' if value > 0 else 'lost' if value < 0 else 'drawn'})"
    if value == 0:
        kind = "a draw"
    elif value > 0:
        kind = "a win" if value == 1 else f"a win by {value}"
    else:
        kind = "a loss" if value == -1 else f"a loss by {-value}"
    if distance is None:
        return f"{kind} by endless play"
    return f"{kind} in {distance} {'ply' if distance == 1 else 'plies'}"


class ProgressLine:
    """Prints the build's progress on stderr, at most about once a second per phase."""

    def __init__(self) -> None:
        self.phase, self.last = "", 0.0

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if progress.phase == self.phase and now - self.last < 1.0:
            return
        self.phase, self.last = progress.phase, now
        where = "" if progress.layer is None else f" layer {progress.layer}"
        print(
            f"{progress.phase}{where}: {progress.positions:,} positions,"
            f" {progress.rate:,.0f} a second, {progress.memory / 2**20:,.0f} MB",
            file=sys.stderr,
        )
