"""`zerosum tablebase`: build a game's table by retrograde analysis, describe it, probe it."""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from zerosum import notation, registry
from zerosum.cli.common import add_no_limit, game_setup, print_json
from zerosum.cli.progress import Bar, progress
from zerosum.game import Game, has_chance
from zerosum.games.chess import Chess
from zerosum.games.chess.endgame import Material
from zerosum.games.connect4 import ConnectFour
from zerosum.limits import counted
from zerosum.registry import GameEntry
from zerosum.solve import (
    Progress,
    Table,
    chess_builds,
    chess_tables,
    chess_work,
    compact,
    connect4,
    connect4_book,
    partitioned,
    solve,
)
from zerosum.solve.chess_tables import PIECES
from zerosum.solve.compact import CompactTable, read_header
from zerosum.solve.connect4 import describe_connect4
from zerosum.solve.partitioned import parse_bytes
from zerosum.solve.retrograde import MOVES, POSITIONS
from zerosum.solve.table import check_destination, identity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Build, describe and probe tables of solved positions (retrograde analysis)."
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    build = actions.add_parser(
        "build",
        help="solve every position and write the table",
        description=(
            "Solve every position reachable from the start of a game without dice and write"
            f" the table. Limits: {POSITIONS}, and {MOVES} (about what this machine builds in"
            " five minutes); a game that says how many positions it reaches (nim, connect4) is"
            " refused before the build, any other as soon as it passes them. The output is"
            " checked to be writable first, and written whole or not at all."
        ),
    )
    add_table_game_argument(build)
    build.add_argument(
        "materials",
        nargs="*",
        metavar="MATERIAL",
        help="chess only: the endgames to build, e.g. KRK, KQKR, KPvKP; all3 or all4 for every"
        f" one of 3 or 4 pieces ({PIECES}); -o then names the folder of the tables, and the"
        " smaller tables a capture or promotion reaches are built first unless it has them",
    )
    build.add_argument(
        "-o", "--output", required=True, help="the table file to write (chess: the folder)"
    )
    build.add_argument(
        "--plies",
        type=int,
        metavar="N",
        help=f"connect4-book only: build Connect Four's opening book, the exact score of every"
        f" position of at most N stones, by our own solver ({connect4_book.PLIES}); options"
        " may follow the name, connect4-book(width=5,height=4); --work-dir then keeps its"
        " checkpoints (default: OUTPUT.work), so that a build stopped goes on where it was",
    )
    add_no_limit(build, "the positions and moves of the table, the plies of a book")
    build.add_argument(
        "--workers",
        type=int,
        help="processes to use (default: every core; one for games whose rules work on whole"
        " arrays, as tic-tac-toe's and Connect Four's do, and for connect4-book, whose"
        " processes each take a table of 1 GB)",
    )
    build.add_argument("--scheduler", help="address of a Dask scheduler to build on")
    build.add_argument(
        "--work-dir",
        metavar="DIR",
        help="build partition by partition in this directory (made if missing; on a filesystem"
        " every worker shares, with --scheduler), resuming what a build there has finished,"
        " and write a compact table; --workers N then runs N processes on this machine. Chess:"
        " build the named tables out of core in DIR/MATERIAL, a checkpoint each level (5"
        " pieces without pawns, e.g. KRBvKR: 6 GB of disk)",
    )
    build.add_argument(
        "--memory-per-worker",
        metavar="SIZE",
        help="with --work-dir: the memory each worker may use, e.g. 8GB (default 2GB): the"
        " partitions and batches are sized to it",
    )
    build.add_argument("--json", action="store_true", help="print one JSON object")
    build.set_defaults(run=run_build)

    game_help = (
        "the game the table was built for, when it is not a built-in one (a table never loads"
        " code by itself): FILE.py:CLASS or MODULE:CLASS, with its options"
    )
    info = actions.add_parser("info", help="verify a table file and describe it")
    info.add_argument("file")
    info.add_argument("game", nargs="?", metavar="GAME", help=game_help)
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(run=run_info)

    probe = actions.add_parser("probe", help="a position's value, distance and best moves")
    probe.add_argument("file")
    probe.add_argument("game", nargs="?", metavar="GAME", help=game_help)
    probe.add_argument(
        "--position", default="", help='the position, e.g. "XOX.O...." or "4453" (default: start)'
    )
    probe.add_argument("--json", action="store_true", help="print one JSON object")
    probe.set_defaults(run=run_probe)


def add_table_game_argument(parser: argparse.ArgumentParser) -> None:
    """The game a table is built for, as `add_game_argument` takes it, but naming only the
    built-in games a table is built for, and offering only their options."""
    games = registry.table_games()
    names = ", ".join(entry.name for entry in games)
    parser.add_argument(
        "game",
        metavar="GAME",
        help=f"the game: {names} (built in); else FILE.py:CLASS or MODULE:CLASS, a game"
        " without dice whose positions have integer keys. Options may follow in parentheses,"
        " NAME(key=value,...)",
    )
    parser.set_defaults(takes_game=True)
    group = parser.add_argument_group("options of the built-in games")
    for option in registry.GAME_OPTIONS:
        owners = [entry.name for entry in games if entry.option(option.name)]
        if not owners:
            parser.set_defaults(**{option.name: None})  # a game no table is built for
        elif option.switch:
            group.add_argument(
                f"--{option.name}",
                action="store_const",
                const=True,
                help=f"{option.help} ({', '.join(owners)})",
            )
        else:
            group.add_argument(
                f"--{option.name}", metavar="VALUE", help=f"{option.help} ({', '.join(owners)})"
            )


def run_build(args: argparse.Namespace) -> int:
    if args.game == "chess":
        return run_chess_build(args)
    if is_book_name(args.game):
        return run_book_build(args)
    if args.plies is not None:
        raise ValueError(
            "--plies is the depth of Connect Four's opening book: zerosum tablebase build"
            " connect4-book --plies N -o FILE"
        )
    if args.materials:
        raise ValueError(
            f"materials ({' '.join(args.materials)}) name chess endgames: zerosum tablebase"
            " build chess KRK -o FOLDER"
        )
    setup = game_setup(args)
    if has_chance(setup.game):
        name = setup.entry.name
        other_way = (
            f"zerosum solve {name} solves it its own way"
            if setup.entry.solver is not None
            else f"zerosum analyze {name} ranks its moves by expectiminimax"
        )
        raise ValueError(
            f"{setup.entry.name} has dice: a table by retrograde analysis is for games without"
            f" chance ({other_way})"
        )
    if not setup.entry.solvable:
        tables = " (use endgame tables: --syzygy)" if setup.entry.tables else ""
        raise ValueError(
            f"{setup.entry.name} has too many positions to enumerate into a table{tables}"
        )
    output = check_destination(args.output)  # before hours of work, not after
    if args.work_dir is not None:
        return run_partitioned_build(args, setup.game, output)
    if args.memory_per_worker is not None:
        raise ValueError("--memory-per-worker bounds a build by partitions: give --work-dir too")
    began = time.perf_counter()
    with BuildProgress() as shown:
        table = solve(
            setup.game,
            workers=args.workers,
            scheduler=args.scheduler,
            progress=shown,
            no_limit=args.no_limit,
        )
    size = table.save(output)
    report = table_report(args.game, table, str(output), size)
    report["seconds"] = round(time.perf_counter() - began, 3)
    if args.json:
        print_json(report)
    else:
        print(describe(report))
        print(f"written {output} ({size:,} bytes) in {report['seconds']:.1f} s")
    return 0


def run_chess_build(args: argparse.Namespace) -> int:
    """`build chess MATERIAL...`: chess endgame tables by our own retrograde analysis."""
    if not args.materials:
        raise ValueError(
            "chess has too many positions to enumerate into a table: name endgames to build,"
            " e.g. zerosum tablebase build chess KRK -o FOLDER (or all3, all4)"
        )
    for option in ("memory_per_worker", "scheduler", "workers"):
        if getattr(args, option) is not None:
            raise ValueError(f"--{option.replace('_', '-')} is not for chess endgame tables")
    wanted = chess_tables.materials(args.materials)
    for material in wanted:
        if args.work_dir is None:
            PIECES.check(len(material.pieces), lifted=args.no_limit)
        else:
            chess_work.check(material)
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"-o {args.output}: chess tables go in a folder, and this is a file")
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    built: list[chess_tables.Built] = []
    with ChessProgress() as shown:
        for material in wanted:
            built += chess_builds.build(
                material, folder, progress=shown, work_dir=args.work_dir, note=_notice
            )
    tables = []
    for table in built:
        path = str(chess_tables.path_of(folder, table.material))
        tables.append({**chess_report(table, path), "seconds": round(table.seconds, 3)})
    report = {
        "folder": str(folder),
        "tables": tables,
        "seconds": round(time.perf_counter() - began, 3),
    }
    if args.work_dir is not None:
        report["work_dir"] = args.work_dir
    if args.json:
        print_json(report)
        return 0
    for entry in tables:
        print(describe_chess(entry))
    made = counted(len(tables), "table", "tables")
    already = "" if tables else f" (every one was in {folder} already)"
    print(f"written {made} in {folder}{already} in {report['seconds']:.1f} s")
    return 0


BOOK = "connect4-book"
"""The name `tablebase build` knows Connect Four's opening book by."""


def is_book_name(name: str) -> bool:
    """Whether a game name given to `tablebase build` names Connect Four's opening book."""
    return name.strip() == BOOK or name.strip().startswith(BOOK + "(")


def run_book_build(args: argparse.Namespace) -> int:
    """`build connect4-book --plies N`: the opening book, solved by our own solver."""
    if args.plies is None:
        raise ValueError("connect4-book needs its depth: --plies N (e.g. --plies 4)")
    if args.materials:
        raise ValueError(f"connect4-book takes no materials ({' '.join(args.materials)})")
    for option in ("memory_per_worker", "scheduler"):
        if getattr(args, option) is not None:
            raise ValueError(f"--{option.replace('_', '-')} is not for an opening book")
    name = "connect4" + args.game.strip()[len(BOOK) :]
    flags = {option.name: getattr(args, option.name) for option in registry.GAME_OPTIONS}
    game = registry.setup(name, "", flags).game
    assert isinstance(game, ConnectFour)
    connect4_book.check_board(game)
    if args.plies < 0:
        raise ValueError(f"--plies {args.plies}: give 0 or more")
    connect4_book.PLIES.check(args.plies, lifted=args.no_limit)
    output = check_destination(args.output)  # before hours of work, not after
    work_dir = args.work_dir if args.work_dir is not None else f"{output}.work"
    began = time.perf_counter()
    with progress("positions", what="solving the frontier") as bar:

        def shown(report: connect4_book.BuildProgress) -> None:
            bar.note(f"of {report.frontier:,}")
            bar.to(report.solved)

        built = connect4.build_book(
            game,
            args.plies,
            work_dir,
            progress=shown,
            no_limit=args.no_limit,
            workers=1 if args.workers is None else args.workers,
        )
    size = built.book.save(output)
    report = book_report(name, built.book, str(output), size)
    report.update(
        work_dir=str(work_dir),
        frontier=built.frontier,
        resumed=built.resumed,
        nodes=built.nodes,
        solving_seconds=round(built.seconds, 3),
        seconds=round(time.perf_counter() - began, 3),
    )
    if args.json:
        print_json(report)
        return 0
    print(describe_book(report))
    resumed = f", {built.resumed:,} of them found solved in {work_dir}" if built.resumed else ""
    print(
        f"frontier: {counted(built.frontier, 'position', 'positions')} of {args.plies} stones"
        f"{resumed}; solving them took {built.nodes:,} nodes, {built.seconds:.1f} s in all"
    )
    print(f"written {output} ({size:,} bytes) in {report['seconds']:.1f} s")
    return 0


def book_report(name: str, book: connect4_book.OpeningBook, path: str, size: int) -> dict[str, Any]:
    """The JSON object of an opening book: its board, plies, counts and the empty board's score."""
    start = book.score(book.game.initial_state())
    return {
        "game": name,
        "parameters": identity(book.game)[1],
        "file": path,
        "bytes": size,
        "plies": book.plies,
        "positions": book.counts.positions,
        "wins": book.counts.wins,
        "draws": book.counts.draws,
        "losses": book.counts.losses,
        "score": start,
        "layers": [{"layer": ply, **vars(counts)} for ply, counts in enumerate(book.layers)],
    }


def describe_book(report: dict[str, Any]) -> str:
    """An opening book in words: its board, plies, counts and the empty board's score."""
    width, height = report["parameters"]["width"], report["parameters"]["height"]
    score = report["score"]
    return "\n".join(
        [
            f"connect4 opening book ({width}x{height}, to"
            f" {counted(report['plies'], 'ply', 'plies')}):"
            f" {counted(report['positions'], 'position', 'positions')} (mirror images once)",
            f"for the player to move: {outcomes(report)}",
            f"empty board: score {score} ({describe_connect4(score, False, width * height)})",
        ]
    )


def run_book_info(args: argparse.Namespace) -> int:
    book = load_book(args)
    report = book_report(BOOK, book, args.file, Path(args.file).stat().st_size)
    if args.json:
        print_json(report)
    else:
        print(describe_book(report))
        for layer in report["layers"]:
            count = layer["positions"]
            print(
                f"  ply {layer['layer']:>3}: {count:>12,}"
                f" {'position' if count == 1 else 'positions'}, {outcomes(layer)}"
            )
    return 0


def run_book_probe(args: argparse.Namespace) -> int:
    book = load_book(args)
    game = book.game
    state = notation.state_of(game, args.position)
    score = book.score(state)
    if score is None:
        over = "the game is over" if game.is_terminal(state) else f"past its {book.plies} plies"
        raise ValueError(f"{args.file} does not hold the position ({over})")
    note = describe_connect4(score, False, game.cells)
    report = {"game": BOOK, "position": args.position, "to_move": game.to_move(state),
              "score": score, "note": note}  # fmt: skip
    if args.json:
        print_json(report)
    else:
        print(notation.render(game, state))
        names = notation.player_names(game)
        print(f"{names[report['to_move']]} to move: score {score}, {note}")
    return 0


def load_book(args: argparse.Namespace) -> connect4_book.OpeningBook:
    """The verified book in `args.file`, for the board its header names."""
    if args.game is not None:
        raise ValueError(
            f"{args.file} is a Connect Four opening book: it takes no game ({args.game})"
        )
    header = connect4_book.read_header(args.file)
    try:
        game = ConnectFour(**header["parameters"])
    except (TypeError, ValueError):
        raise ValueError(f"{args.file}: corrupted book (bad game parameters)") from None
    return connect4_book.OpeningBook.load(args.file, game)


class ChessProgress:
    """A chess build's progress on a terminal: the level settled, per material."""

    def __init__(self) -> None:
        self._stack = ExitStack()
        self._material = ""
        self._bar: Bar | None = None

    def __enter__(self) -> ChessProgress:
        return self

    def __exit__(self, *exception: object) -> None:
        self._stack.close()

    def __call__(self, report: chess_tables.Progress) -> None:
        if report.material != self._material:
            self._stack.close()
            self._bar = self._stack.enter_context(
                progress("positions", total=report.positions or None, what=report.material)
            )
            self._material = report.material
            self._settled = 0
        assert self._bar is not None
        self._settled += report.settled
        self._bar.note(f"level {report.level}")
        self._bar.to(self._settled)


def _notice(text: str) -> None:
    print(f"zerosum: note: {text}", file=sys.stderr)


def run_partitioned_build(args: argparse.Namespace, game: Game, output: Path) -> int:
    """`build --work-dir`: the partitioned build, written as a compact table."""
    if args.workers is not None and args.scheduler is not None:
        raise ValueError("give --workers (processes on this machine) or --scheduler, not both")
    memory = None if args.memory_per_worker is None else parse_bytes(args.memory_per_worker)
    began = time.perf_counter()
    with BuildProgress() as shown:
        built = partitioned.build(
            game,
            args.work_dir,
            memory_per_worker=memory,
            workers=args.workers,
            scheduler=args.scheduler,
            progress=shown,
            notice=_notice,
            no_limit=args.no_limit,
        )
    size = compact.write(built, output)
    table = compact.load(output, game)
    report = table_report(args.game, table, str(output), size)
    report["seconds"] = round(time.perf_counter() - began, 3)
    report["work_dir"] = str(built.work_dir)
    report["partitions"] = built.partitions
    report["peak_mb_per_worker"] = round(built.peak_memory / 2**20)
    report["passes_resumed"] = built.resumed
    report["keys_sent"] = sum(sent for _, sent in built.traffic.values())
    if args.json:
        print_json(report)
    else:
        print(describe(report))
        print(
            f"{counted(built.partitions, 'partition', 'partitions')} a layer, at most"
            f" {report['peak_mb_per_worker']:,} MB a worker,"
            f" {report['keys_sent']:,} keys sent to their owners"
        )
        if built.resumed:
            print(
                f"resumed: {built.resumed} of the {2 * len(built.layers)} passes over the layers"
                f" (enumerating, solving) were found finished in {built.work_dir}"
            )
        print(f"written {output} ({size:,} bytes) in {report['seconds']:.1f} s")
    return 0


def run_info(args: argparse.Namespace) -> int:
    if chess_tables.is_table(args.file):
        return run_chess_info(args)
    if connect4_book.is_book(args.file):
        return run_book_info(args)
    name, table = load(args.file, args.game)
    report = table_report(name, table, args.file, Path(args.file).stat().st_size)
    if args.json:
        print_json(report)
    else:
        print(describe(report))
        for layer in report["layers"]:
            if layer["layer"] is not None:
                count = layer["positions"]
                print(
                    f"  layer {layer['layer']:>3}: {count:>12,}"
                    f" {'position' if count == 1 else 'positions'},"
                    f" {layer['terminal']:,} terminal, {outcomes(layer)}"
                )
    return 0


def run_probe(args: argparse.Namespace) -> int:
    if chess_tables.is_table(args.file):
        return run_chess_probe(args)
    if connect4_book.is_book(args.file):
        return run_book_probe(args)
    name, table = load(args.file, args.game)
    game = table.game
    state = notation.state_of(game, args.position)
    entry = table.probe(state)
    report = {
        "game": name,
        "position": args.position,
        "to_move": game.to_move(state),
        "value": entry.value,
        "plies": entry.distance,
        "best_moves": [notation.format_move(game, state, move) for move in entry.best_moves],
    }
    if args.json:
        print_json(report)
    else:
        print(notation.render(game, state))
        names = notation.player_names(game)
        print(f"{names[report['to_move']]} to move: {outcome_text(entry.value, entry.distance)}")
        if report["best_moves"]:
            print(f"best moves: {' '.join(report['best_moves'])}")
    return 0


def chess_report(table: chess_tables.Built, path: str) -> dict[str, Any]:
    """The JSON object of a chess endgame table: its material and counts."""
    return {
        "material": table.material.name,
        "file": path,
        "bytes": Path(path).stat().st_size,
        "positions": table.positions,
        "wins": table.wins,
        "draws": table.draws,
        "losses": table.losses,
        "checkmates": table.checkmates,
        "stalemates": table.stalemates,
        "longest_plies": table.longest,
    }


def _no_game(args: argparse.Namespace) -> None:
    if args.game is not None:
        raise ValueError(f"{args.file} is a chess endgame table: it takes no game ({args.game})")


def run_chess_info(args: argparse.Namespace) -> int:
    _no_game(args)
    table = chess_tables.load(args.file)
    report = chess_report(table, args.file)
    if args.json:
        print_json(report)
    else:
        print(describe_chess(report))
    return 0


def describe_chess(entry: dict[str, Any]) -> str:
    """`KRvK: 50,015 positions, ... the longest mate 32 plies`."""
    return (
        f"{entry['material']}: {entry['positions']:,} positions, {outcomes(entry)} for the"
        f" side to move; the longest mate {counted(entry['longest_plies'], 'ply', 'plies')}"
    )


def run_chess_probe(args: argparse.Namespace) -> int:
    """A chess position's entry, read from the table file's folder (a capture or a promotion
    reads the smaller tables beside it)."""
    _no_game(args)
    chess_tables.load(args.file)  # verified, and named in any error about it
    tables = chess_tables.ChessTables.open(str(Path(args.file).parent))
    game = Chess()
    state = notation.state_of(game, args.position)
    code = tables.code(state.board)
    if code is None:
        material = Material.of_board(state.board)[0].name
        raise ValueError(f"no table of {material} beside {args.file}")
    best = tables.best_moves(state)
    plies = None if code == 0 else code if code > 0 else -code - 1
    report = {
        "game": "chess",
        "position": args.position,
        "to_move": game.to_move(state),
        "value": 0 if code == 0 else 1 if code > 0 else -1,
        "plies": plies,
        "best_moves": [notation.format_move(game, state, move) for move in best],
    }
    if args.json:
        print_json(report)
    else:
        print(notation.render(game, state))
        side = "White" if report["to_move"] == 0 else "Black"
        print(f"{side} to move: {chess_tables.describe(code)}")
        if report["best_moves"]:
            print(f"best moves: {' '.join(report['best_moves'])}")
    return 0


def load(path: str, name: str | None) -> tuple[str, Table | CompactTable]:
    """The name of the game a table file was built for and the verified table: a built-in game
    is found from the file's header; any other is the one `name` names (checked against it)."""
    header = read_header(path)
    if name is None:
        name = registry.openspiel_spec(header["game"], header["parameters"])
    if name is not None and name.startswith(registry.OPENSPIEL):
        return name, compact.load(path, registry.setup(name).game)  # its parameters OpenSpiel's
    if name is not None:
        game = registry.setup(name).game if "(" in name else _named_game(name, header)
        return name, compact.load(path, game)
    for entry in registry.BUILT_IN:
        if _class_name(entry) == header["game"]:
            try:
                game = registry.make_game(entry, header["parameters"])
            except ValueError:
                raise ValueError(f"{path}: corrupted table (bad game parameters)") from None
            return entry.name, compact.load(path, game)
    module, _, cls = header["game"].rpartition(".")
    raise ValueError(
        f"{path} is a table of {header['game']}, which is not built in: name the game after the"
        f" file (a table loads no code by itself), e.g. {module}.py:{cls} or {module}:{cls}"
    )


def _named_game(name: str, header: dict[str, Any]) -> Game:
    """The game `name` names, made with the table's parameters when `name` gives none."""
    return registry.setup(name, flags=header["parameters"]).game


def _class_name(entry: GameEntry) -> str:
    make = registry.loaded(entry.make)
    return f"{make.__module__}.{make.__qualname__}"


def table_report(name: str, table: Table | CompactTable, path: str, size: int) -> dict[str, Any]:
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
        "plies": None if start is None else start.distance,
        "layers": [{"layer": layer, **vars(counts)} for layer, counts in table.layers.items()],
    }


def _parameter(key: str, value: Any) -> str:
    """A game's parameter as words: `heaps 3,5,8`, `misere` (a switch that is on), or nothing
    (one that is off)."""
    if isinstance(value, bool):
        return key if value else ""
    return f"{key} {','.join(map(str, value)) if isinstance(value, list) else value}"


def outcomes(counts: dict[str, Any]) -> str:
    """`3 wins, 1 draw, 0 losses` from a report's counts."""
    return (
        f"{counted(counts['wins'], 'win', 'wins')}, {counted(counts['draws'], 'draw', 'draws')},"
        f" {counted(counts['losses'], 'loss', 'losses')}"
    )


def describe(report: dict[str, Any]) -> str:
    shown = report["parameters"]
    if report["game"].startswith(registry.OPENSPIEL):
        shown = {}  # the name, openspiel:NAME(k=v,...), already says OpenSpiel's parameters
    words = (_parameter(key, value) for key, value in shown.items())
    parameters = " ".join(word for word in words if word)
    lines = [
        f"{report['game']}{' (' + parameters + ')' if parameters else ''}:"
        f" {counted(report['positions'], 'position', 'positions')},"
        f" {report['terminal']:,} terminal",
        f"for the side to move: {outcomes(report)}",
    ]
    if report["value"] is not None:
        lines.append(f"initial position: {outcome_text(report['value'], report['plies'])}")
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
    return f"{kind} in {counted(distance, 'ply', 'plies')}"


class BuildProgress:
    """The build's progress on a terminal: a bar for each phase (the positions enumerated, then
    those propagated out of all of them), noting the layer and the memory in use."""

    def __init__(self) -> None:
        self._stack = ExitStack()
        self._phase = ""
        self._bar: Bar | None = None
        self._enumerated = 0

    def __enter__(self) -> BuildProgress:
        return self

    def __exit__(self, *exception: object) -> None:
        self._stack.close()

    def __call__(self, report: Progress) -> None:
        if report.phase != self._phase:
            self._stack.close()
            total = self._enumerated if report.phase == "propagate" else None
            self._bar = self._stack.enter_context(
                progress("positions", total=total or None, what=report.phase)
            )
            self._phase = report.phase
        if report.phase == "enumerate":
            self._enumerated = report.positions
        assert self._bar is not None
        where = "" if report.layer is None else f"layer {report.layer}, "
        self._bar.note(f"{where}{report.memory / 2**20:,.0f} MB")
        self._bar.to(report.positions)
