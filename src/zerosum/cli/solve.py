"""`zerosum solve GAME [POSITION]`: the exact value of a position, its best move, its line, its
cost.

A game with a solver of its own (the registry says which: Connect Four's, in the published test
sets' scores; Pig's, by value iteration) is solved by it; every other game, or any game with
`--algorithm`, by an exact search of `zerosum.search` to the end. `--file` solves every
position of a file, one a line, checking the expected answers it gives.
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tqdm import tqdm

from zerosum import notation, registry
from zerosum.cli.common import (
    add_book,
    add_game_argument,
    add_no_limit,
    game_setup,
    print_json,
    use_book,
)
from zerosum.cli.progress import Bar, progress
from zerosum.cli.solve_hidden import run_hidden
from zerosum.game import Evaluating, InformationSets, StateText, has_chance, require
from zerosum.limits import counted
from zerosum.registry import Setup
from zerosum.show.words import number
from zerosum.solve.answer import (
    SEARCHES,
    ExactAnswer,
    ExactSolver,
    MoveValues,
    exact_move_values,
    exact_search,
)
from zerosum.solve.connect4 import DEFAULT_TABLE_MB
from zerosum.solve.pig import TARGET


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Search a position to the end of the game and report its exact value for the"
        " player to move. Games with a solver of their own (connect4, pig) use it;"
        " --algorithm, --order or --distance ask for an exact search instead. On a terminal"
        " a solver's progress is drawn (Connect Four: the nodes searched; Pig: the positions"
        f" valued). Limits: {TARGET} (about two minutes here; --no-limit to insist)."
    )
    add_game_argument(parser)
    parser.add_argument(
        "--algorithm",
        choices=sorted(SEARCHES),
        help=(
            "an exact search to the end (default: the game's solver, else alphabeta;"
            " expectiminimax for a tree with chance nodes)"
        ),
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
    parser.add_argument(
        "--all-moves",
        action="store_true",
        help="also the exact value every legal move secures for the player to move, best first"
        " (connect4: its score)",
    )
    parser.add_argument(
        "--table-mb",
        type=float,
        metavar="MB",
        help=f"the solver's table (connect4's; default {DEFAULT_TABLE_MB:g} MB, at most the"
        " machine's memory)",
    )
    add_no_limit(parser, "the target of an exact Pig solve, the nodes of an exact search")
    add_book(parser)
    parser.add_argument(
        "--exact",
        action="store_true",
        help="a game of imperfect information: its equilibrium in fractions, checked (else floats)",
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="a game of imperfect information: save the equilibrium strategy to FILE (JSON)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.file:
        return run_file(args)
    setup = game_setup(args, hidden=True)
    if isinstance(setup.game, InformationSets):
        return run_hidden(args, setup)
    for option in ("exact", "save"):
        if getattr(args, option):
            raise ValueError(
                f"--{option} is for games of imperfect information (their sequence form);"
                f" {setup.entry.name} is solved exactly by search"
            )
    solver = setup.entry.own_solver(setup.game, args.table_mb)
    values = None
    if args.all_moves:  # first: the position's own solve then finds the children in the table
        values = all_moves(
            setup, solver if not exact_search_options(args) else None, weak=args.weak,
            algorithm=args.algorithm, order=args.order, no_limit=args.no_limit,
            book=args.book,
            no_book=args.no_book,
        )  # fmt: skip
    answer = solve(setup, args, solver)
    report = solve_report(setup, answer)
    if values is not None:  # the counts are of the whole job: the position found its children's
        report["nodes"] += values.nodes  # results in the table, and cost little after them
        report["seconds"] = round(report["seconds"] + values.seconds, 6)
        report["all_moves"] = all_moves_report(setup, values)
    if args.json:
        print_json(report)
        return 0
    print(notation.render(setup.game, setup.state))
    print(describe(report, notation.player_names(setup.game), answer.note))
    if values is not None:
        print("\n".join(move_lines(setup, values)))
    return 0


def exact_search_options(args: argparse.Namespace) -> list[str]:
    """The options given that ask for an exact search instead of the game's solver."""
    return [
        option
        for option, given in (
            ("--algorithm", args.algorithm is not None),
            ("--order", args.order is not None),
            ("--distance", args.distance),
        )
        if given
    ]


def all_moves(
    setup: Setup,
    solver: ExactSolver | None,
    *,
    weak: bool = False,
    algorithm: str | None = None,
    order: str | None = None,
    no_limit: bool = False,
    book: str | None = None,
    no_book: bool = False,
) -> MoveValues:
    """The exact value of every legal move of `setup`'s position for its player to move: by
    `solver` (the game's own, when it scores moves), else by an exact search of each child
    (`algorithm`, `order`); the solver with its opening book (the file `book`, or the package's)
    unless `no_book`; progress on a
    terminal. ValueError when the game is over, or has dice, or the solver scores no moves one
    by one."""
    registry.unfinished(setup)
    name = setup.entry.name
    if solver is not None:
        if not solver.scores_moves:
            raise ValueError(f"{name}'s solver does not score every move (--all-moves, --exact)")
        solver.no_limit = no_limit
        use_book(solver, book, no_book)
        with watched(solver, setup.state, f"scoring every move of {name}"):
            return solver.move_values(setup.state, weak=weak)
    if weak:
        raise ValueError("--weak is for games whose solver has a weak mode (connect4)")
    if book is not None:
        raise _unread_book(f"{name} has none")
    if not setup.entry.solvable:
        raise ValueError(
            f"{name} has too many positions to value its moves by searching to the end:"
            f" analyse it with the engine (zerosum analyze {name})"
        )
    if setup.entry.solver is not None and has_chance(setup.game):
        raise ValueError(f"{name}'s solver does not score every move (--all-moves, --exact)")
    moves = None if order is None else notation.move_order(setup.game, setup.state, order)
    with progress("nodes", what=f"searching every move of {name} to the end") as bar:
        return exact_move_values(
            setup.game, setup.state, algorithm=algorithm, order=moves, no_limit=no_limit,
            progress=bar.to,
        )  # fmt: skip


def all_moves_report(setup: Setup, values: MoveValues) -> dict[str, int | float]:
    """The `all_moves` field of the JSON (docs/json.md): each move's text to its value, the
    best first."""
    return {
        notation.format_move(setup.game, setup.state, move): number(value)
        for move, value in values.best_first()
    }


def move_lines(setup: Setup, values: MoveValues) -> list[str]:
    """The text of every move's value: a heading, then one line a move, the best first."""
    to_move = notation.player_names(setup.game)[setup.game.to_move(setup.state)]
    texts = all_moves_report(setup, values)
    width = max(len(text) for text in texts)
    lines = [f"every move, best first ({values.scale} for {to_move}):"]
    for (move, _), (text, value) in zip(values.best_first(), texts.items(), strict=True):
        note = values.notes.get(move)
        lines.append(f"  {text:<{width}}  {value:>3}" + (f"  {note}" if note else ""))
    return lines


def solve(
    setup: Setup, args: argparse.Namespace, solver: Any = None, shown: Bar | None = None
) -> ExactAnswer:
    """The exact answer for `setup`'s position: by the game's solver (or `solver`, one made
    already), or by the exact search the arguments ask for. A solver's progress is drawn on a
    terminal, unless `shown`, the bar of a whole file, is already drawn."""
    if not setup.entry.solvable:
        other_way = f"analyse it with the engine (zerosum analyze {setup.entry.name})"
        if not isinstance(setup.game, Evaluating):  # no depth to stop at: MCTS plays it
            other_way = f"MCTS plays it (zerosum play {setup.entry.name})"
        raise ValueError(
            f"{setup.entry.name} has too many positions to solve by searching to the end:"
            f" {other_way}"
        )
    generic_order = args.order is not None
    asked = exact_search_options(args)
    over = setup.game.is_terminal(setup.state)
    options = f"{' and '.join(asked)} {'asks' if len(asked) == 1 else 'ask'}"
    if asked and has_chance(setup.game) and setup.entry.solver is not None:
        raise ValueError(
            f"{options} for an exact search, which cannot solve a game with dice:"
            f" {setup.entry.name}'s own solver takes none of them"
        )
    if setup.entry.solver is not None and not asked and not over:
        solver = solver or setup.entry.own_solver(setup.game)
        assert solver is not None
        if args.weak and not solver.weak:
            raise ValueError(f"{setup.entry.name}'s solver has no weak mode (--weak)")
        solver.no_limit = args.no_limit
        use_book(solver, getattr(args, "book", None), getattr(args, "no_book", False))
        if shown is not None:  # one bar for a whole file of positions: no bar of its own
            return solver.answer(setup.state, weak=args.weak)
        with watched(solver, setup.state, f"solving {setup.entry.name}"):
            return solver.answer(setup.state, weak=args.weak)
    if args.weak:
        if asked:
            raise ValueError(
                f"--weak is for the game's own solver, and {options} for an exact search instead"
            )
        raise ValueError("--weak is for games whose solver has a weak mode (connect4)")
    if getattr(args, "book", None) is not None and not over:
        raise _unread_book(
            f"{options} for an exact search instead" if asked else f"{setup.entry.name} has none"
        )
    order = notation.move_order(setup.game, setup.state, args.order) if generic_order else None
    if shown is not None:  # one bar for a whole file of positions
        return exact_search(
            setup.game, setup.state, algorithm=args.algorithm, order=order,
            distance=args.distance, no_limit=args.no_limit,
        )  # fmt: skip
    with progress("nodes", what=f"searching {setup.entry.name} to the end") as bar:
        return exact_search(
            setup.game, setup.state, algorithm=args.algorithm, order=order,
            distance=args.distance, no_limit=args.no_limit, progress=bar.to,
        )  # fmt: skip


def solve_report(setup: Setup, answer: ExactAnswer) -> dict[str, Any]:
    """The JSON object of a solve (docs/json.md): the value for the player to move, the moves
    as text, the counts, then the solver's own figures."""
    game, state = setup.game, setup.state
    pv = notation.line_text(game, state, answer.pv)
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
        if report["best_move"] is None:  # a chance node: the value is over its outcomes
            lines = [f"expected value {value:.4f} for {player_names[report['to_move']]}"]
            best = "best move: none, nobody moves here (chance decides)"
        else:
            lines = [
                f"{player_names[report['to_move']]} to move:"
                f" expected value {value:.4f} under best play"
            ]
            best = f"best move: {report['best_move']}"
        return "\n".join([*lines, *([note] if note else []), best])
    outcome = "a draw" if value == 0 else "a win" if value > 0 else "a loss"
    if report["plies"] is not None:
        outcome += f" in {counted(report['plies'], 'ply', 'plies')}"
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
    counts = f"{report['algorithm']}: {counted(report['nodes'], 'node', 'nodes')}"
    if "leaves" in report:
        leaves = counted(report["leaves"], "finished game", "finished games")
        counts += f", {leaves} reached, {counted(report['cutoffs'], 'cut-off', 'cut-offs')}"
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
    if args.all_moves:
        raise ValueError("--all-moves is for one position, not a --file of them")
    first = game_setup(args)
    require(first.game, StateText, "--file (positions as text)")
    lines = read_positions(args.file)
    setups = []
    for number_, (text, _) in enumerate(lines, 1):
        try:
            setups.append(registry.unfinished(_at(first, text)))
        except ValueError as error:
            raise ValueError(f"{args.file}: position {number_}: {error}") from None
    solver = first.entry.own_solver(first.game, args.table_mb)
    rows = []
    with progress("positions", total=len(setups), what=f"solving {args.file}") as bar:
        for (text, expected), setup in zip(lines, setups, strict=True):
            if solver is not None:
                solver.reset()  # each position from an empty table, as the reference counts
            answer = solve(setup, args, solver, shown=bar)
            row: dict[str, Any] = {"position": text, "value": number(answer.value)}
            if "score" in answer.details:  # Connect Four's solver: the test sets' own figure
                row["score"] = answer.details["score"]
            row |= {"nodes": answer.nodes, "seconds": round(answer.seconds, 6)}
            score = answer_figure(row)
            if expected is not None:
                if args.weak:
                    expected = (expected > 0) - (expected < 0)
                row["expected"] = expected
            rows.append(row)
            if not args.json:
                mark = "" if expected is None or expected == score else "  WRONG"
                line = f"{text} {score} {answer.nodes} {answer.seconds:.6f}{mark}"
                with tqdm.external_write_mode():  # the bar on stderr steps aside for the line
                    print(line, flush=True)
            bar.advance()
    if args.json:
        print_json(rows)
        return 0
    print(summary(rows))
    return 0


def answer_figure(row: dict[str, Any]) -> int | float:
    """The figure of a row of `--file` that the file's expected answer is held to: Connect
    Four's score where the solver gives one, else the value."""
    return row["score"] if "score" in row else row["value"]


def _at(setup: Setup, text: str) -> Setup:
    return Setup(setup.entry, setup.game, notation.state_of(setup.game, text), setup.name, text)


def summary(rows: list[dict]) -> str:
    count = len(rows)
    checked = [row for row in rows if "expected" in row]
    correct = sum(answer_figure(row) == row["expected"] for row in checked)
    mean_ms = 1000 * sum(row["seconds"] for row in rows) / count if count else 0
    mean_nodes = sum(row["nodes"] for row in rows) / count if count else 0
    agreement = f"{correct}/{len(checked)} correct" if checked else "no expected scores"
    return (
        f"positions: {count}  {agreement}  mean time: {mean_ms:,.3f} ms"
        f"  mean nodes: {mean_nodes:,.1f}"
    )


@contextmanager
def watched(solver: ExactSolver, state: Any, what: str) -> Iterator[None]:
    """While the block runs `solver.answer(state)`, a bar on a terminal showing the solver's
    `work()` four times a second (read by a thread of its own: the solver's inner loop is not
    slowed by reports); nothing when standard error is no terminal."""
    with progress(solver.work_unit, total=solver.work_total(state), what=what) as bar:
        if not bar.drawn:
            yield
            return
        stop = threading.Event()

        def poll() -> None:
            while not stop.wait(0.25):
                bar.to(solver.work())

        reader = threading.Thread(target=poll, name="solve progress", daemon=True)
        reader.start()
        try:
            yield
        finally:  # also on Ctrl-C: the reader stops before the bar is closed
            stop.set()
            reader.join()


def _unread_book(reason: str) -> ValueError:
    """The refusal of a `--book` that no solver of the request reads, and why."""
    return ValueError(
        f"--book is read by a game's own solver with an opening book (connect4's): {reason}"
    )
