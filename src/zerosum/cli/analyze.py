"""`zerosum analyze GAME [POSITION]`: the engine's iterations as they finish, then its best move.

Games with dice (backgammon, Pig, trees with chance nodes) are not the engine's: their
position's moves are ranked by expectiminimax to `--depth` plies and the best few listed with
their values, as a backgammon analysis lists the plays of a roll.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from typing import Any

from zerosum import notation, registry
from zerosum.cli.analyze_mcts import run_mcts
from zerosum.cli.common import (
    add_book,
    add_game_argument,
    add_no_limit,
    game_setup,
    print_json,
)
from zerosum.cli.play import endgame_tables, waits_for_dice
from zerosum.cli.solve import all_moves, all_moves_report, move_lines
from zerosum.compiled import choice
from zerosum.compiled.choice import IMPLEMENTATIONS
from zerosum.compiled.protocol import PLAYOUTS
from zerosum.game import Chance, Evaluating, Game, has_chance
from zerosum.limits import counted
from zerosum.notation import format_move
from zerosum.players import DEPTH, MOST_SECONDS, NODES, check_budget
from zerosum.registry import Setup
from zerosum.search import rank_moves
from zerosum.search.deepening import EngineResult, Iteration
from zerosum.search.engine import Engine
from zerosum.search.table import DEFAULT_MEGABYTES
from zerosum.show.words import describe_score, number

DEFAULT_TIME = 2.0
"""Seconds an analysis of a game with an evaluation takes when given no depth and no time."""

LOAD_SECONDS = 0.5
"""About what loading the compiled engine takes when numba has it cached (numba itself, its
check of SciPy's BLAS, the game's rules and the engine's kernel: benchmarks/startup.py).
`--time` counts it, so a shorter budget is searched by the Python engine, which loads nothing
and would otherwise search longer."""

LOAD_NODES = 20_000
"""About the nodes the Python engine searches in `LOAD_SECONDS`: a smaller `--nodes` budget is
searched by it too, done before the compiled engine would be loaded."""

DEFAULT_TOP = 5
"""How many moves of a game with dice are listed when `--top` does not say."""

DEFAULT_CHANCE_DEPTH = 2
"""Plies a game with dice and an evaluation is searched to when given no depth: the move, the
opponent's roll and reply (backgammon's usual depth for checker play)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Search a position by iterative deepening and print each iteration (depth,"
        " score, nodes, speed, time, principal variation), then the best move. Games without"
        " an evaluation (tictactoe, tree, most of your own) are searched to the end, unless"
        " --time or --nodes stops them (then the best root move solved so far answers)."
        " Games with dice (backgammon, pig) list their moves ranked by expectiminimax to"
        " --depth plies. Games without an evaluation whose end is out of reach (go, hex) are"
        " searched by MCTS for --iterations or --time, each move listed with its visits, win"
        " rate and principal line."
    )
    add_game_argument(parser)
    parser.add_argument(
        "--syzygy", metavar="PATH", help="endgame tables to score positions from (chess: Syzygy)"
    )
    parser.add_argument(
        "--dice", help="games with dice: the roll to play in a position waiting for it, e.g. 6-5"
    )
    parser.add_argument(
        "--top", type=int, help=f"games with dice: how many moves to list (default {DEFAULT_TOP})"
    )
    parser.add_argument(
        "--time",
        type=float,
        help=f"seconds until the answer (default {DEFAULT_TIME}; at most {MOST_SECONDS:,g}):"
        " loading the compiled engine counts, and a budget under"
        f" {LOAD_SECONDS:g} s is searched by the Python engine",
    )
    parser.add_argument("--depth", type=int, help=f"plies to search at most ({DEPTH})")
    parser.add_argument("--nodes", type=int, help=f"nodes to search at most ({NODES})")
    parser.add_argument(
        "--table-mb",
        type=float,
        help=f"the engine's transposition table size (default {DEFAULT_MEGABYTES:g} MB)",
    )
    parser.add_argument(
        "--engine",
        choices=IMPLEMENTATIONS,
        help="the compiled engine (the default for a game with compiled rules) or the Python one",
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="instead, every legal move's exact value for the player to move, best first, by"
        " the game's solver (connect4: each column's score; --table-mb sizes its table) or a"
        " search of each move to the end",
    )
    add_no_limit(parser, "with --exact: the nodes of a Connect Four solve or an exact search")
    add_book(parser, "with --exact: the solver")
    parser.add_argument(
        "--iterations",
        type=int,
        help="games analysed by MCTS (go, hex): iterations to search at most",
    )
    parser.add_argument(
        "--playouts",
        choices=PLAYOUTS,
        help="games analysed by the compiled MCTS: the game's playout policy (the default) or"
        " uniformly random moves",
    )
    parser.add_argument(
        "--rave",
        type=float,
        metavar="K",
        help="games analysed by MCTS: RAVE, K its equivalence parameter (default none)",
    )
    parser.add_argument(
        "--seed", type=int, help="games analysed by MCTS: its random draws (default 0)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.exact:
        return run_exact(args)
    for name in ("time", "depth", "nodes"):
        if getattr(args, name) is not None:
            check_budget(name, getattr(args, name), f"--{name}")
    setup = analysed_position(args)
    game, state = setup.game, setup.state
    if not registry.end_in_reach(setup.entry, game) and not has_chance(game):
        return run_mcts(setup, args)
    for option in ("iterations", "playouts", "rave", "seed"):
        if getattr(args, option) is not None:
            raise ValueError(
                f"--{option} is MCTS's, and {setup.entry.name} is analysed by"
                f" {'expectiminimax' if has_chance(game) else 'the engine'}"
            )
    tablebase = endgame_tables(setup, args.syzygy) if args.syzygy else None
    registry.require_an_end_in_reach(
        setup.entry, game, f"MCTS plays it (zerosum play {setup.entry.name})"
    )
    if has_chance(game):
        return run_ranking(setup, args)
    if args.top is not None:
        raise ValueError(f"--top is for games with dice, and {setup.entry.name} has none")
    table_mb = DEFAULT_MEGABYTES if args.table_mb is None else args.table_mb
    budget = args.time
    if budget is None and args.depth is None and args.nodes is None:
        budget = DEFAULT_TIME if isinstance(game, Evaluating) else None
    impl = choice.implementation(game, args.engine)
    if tablebase is not None and impl == "compiled":
        if args.engine == "compiled":
            raise ValueError("--engine compiled reads no endgame tables: use --engine python")
        impl = "python"
    if impl == "compiled" and args.engine is None and _sooner_in_python(budget, args.nodes):
        impl = "python"
    if impl == "compiled":
        engine: Any = choice.engine(game, "compiled", table_mb=table_mb)  # loaded here
    else:
        engine = Engine(game, table_mb=table_mb, tablebase=tablebase)
    if budget is not None:  # what is left of it once the engine is loaded (at least a moment)
        started = getattr(args, "started", None)  # when the command began, if it says
        spent = 0.0 if started is None else time.perf_counter() - started
        budget = max(budget - spent, MOMENT)

    def show(iteration: Iteration) -> None:
        print(iteration_line(game, state, iteration), flush=True)

    result = engine.search(
        state,
        depth=args.depth,
        time=budget,
        nodes=args.nodes,
        on_iteration=None if args.json else show,
    )
    report = analysis_report(setup, result)
    if tablebase is not None:
        report["tbhits"] = engine.tablebase_hits
        tablebase.close()
    if args.json:
        print_json(report)
    else:
        print(f"best move: {report['best_move']}  score: {describe_score(result)}")
        if result.stopped:
            last = result.iterations[-1] if result.iterations else None
            when = "during" if last is not None and not last.complete else "after"
            print(f"stopped by {result.stopped} {when} depth {result.depth}")
    return 0


MOMENT = 1e-3
"""The least time a search is given: its first iteration is never stopped by the clock."""


def _sooner_in_python(seconds: float | None, nodes: int | None) -> bool:
    """Whether a search of at most `seconds` (the budget, loading included) or `nodes` is done
    sooner by the Python engine than by loading the compiled one first."""
    if seconds is not None:
        return seconds < LOAD_SECONDS
    return nodes is not None and nodes < LOAD_NODES


def run_exact(args: argparse.Namespace) -> int:
    """`analyze --exact`: every move's exact value, best first (`zerosum.cli.solve.all_moves`)."""
    for option in ("time", "depth", "nodes", "syzygy", "dice", "top", "engine"):
        if getattr(args, option) is not None:
            raise ValueError(f"--exact searches to the end: it takes no --{option}")
    setup = registry.unfinished(game_setup(args))
    solver = setup.entry.own_solver(setup.game, args.table_mb)
    values = all_moves(setup, solver, no_limit=args.no_limit, book=args.book, no_book=args.no_book)
    best, value = values.best_first()[0]
    report: dict[str, Any] = {
        "game": setup.name,
        "position": setup.position,
        "to_move": setup.game.to_move(setup.state),
        "algorithm": values.algorithm,
        "exact": True,
        "best_move": format_move(setup.game, setup.state, best),
        "value": number((value > 0) - (value < 0) if values.scale == "score" else value),
    }
    if values.scale == "score":
        report["score"] = number(value)
    report |= {
        "all_moves": all_moves_report(setup, values),
        "nodes": values.nodes,
        "seconds": round(values.seconds, 6),
    }
    if args.json:
        print_json(report)
        return 0
    print(notation.render(setup.game, setup.state))
    print("\n".join(move_lines(setup, values)))
    print(f"best move: {report['best_move']}  {values.scale}: {number(value)}")
    return 0


def analysed_position(args: argparse.Namespace) -> Setup:
    """The game and the unfinished position to analyse; for a game with dice, the position
    once `--dice` are rolled when it waits for them."""
    setup = game_setup(args)
    if args.dice is not None:
        if not has_chance(setup.game):
            raise ValueError(f"--dice: {setup.entry.name} has no dice")
        setup = rolled(setup, args.dice)
    return registry.unfinished(setup)


def rolled(setup: Setup, dice: str) -> Setup:
    """`setup` once `dice` are rolled; ValueError if its position is not waiting for them."""
    game, state = setup.game, setup.state
    if not (isinstance(game, Chance) and game.is_chance(state)):
        raise ValueError("the position has its roll already: give the dice once")
    outcome = notation.parse_move(game, state, dice)
    if outcome not in [outcome for outcome, _ in game.chance_outcomes(state)]:
        raise ValueError(f"the roll {dice!r} cannot happen in this position")
    return replace(setup, state=game.result(state, outcome))


def run_ranking(setup: Setup, args: argparse.Namespace) -> int:
    """Rank the moves of a game with dice by expectiminimax; print the best `--top` of them."""
    game, state = setup.game, setup.state
    if args.time is not None or args.nodes is not None:
        raise ValueError("a game with dice is searched to --depth, not by --time or --nodes")
    if args.table_mb is not None:
        raise ValueError("--table-mb is the engine's table: a game with dice is searched without")
    count = DEFAULT_TOP if args.top is None else args.top
    if count < 1:
        raise ValueError(f"--top must be at least 1, got {count:,}")
    depth = args.depth
    if depth is None and isinstance(game, Evaluating):
        depth = DEFAULT_CHANCE_DEPTH
    if waits_for_dice(game, state):
        raise ValueError(
            "the position waits for chance (a roll): nobody moves there; give the roll with"
            " --dice (backgammon: --dice 6-5), or analyse a position where a player moves"
        )
    start = time.perf_counter()
    ranked = rank_moves(game, state, depth=depth)
    seconds = time.perf_counter() - start
    listed = [(format_move(game, state, entry.move), entry.value) for entry in ranked]
    top = listed[:count]
    nodes = 1 + sum(entry.nodes for entry in ranked)
    if args.json:
        print_json(
            {
                "game": setup.name,
                "position": setup.position,
                "to_move": game.to_move(state),
                "depth": depth,
                "value": listed[0][1],
                "exact": depth is None,
                "best_move": listed[0][0],
                "moves": [{"move": text, "value": value} for text, value in top],
                "legal_moves": len(ranked),
                "nodes": nodes,
                "seconds": round(seconds, 6),
            }
        )
        return 0
    print(notation.render(game, state))
    searched = "to the end" if depth is None else counted(depth, "ply", "plies")
    print(f"expectiminimax, {searched}; scores for the player to move:")
    width = max(len(text) for text, _ in top)
    for rank, (text, value) in enumerate(top, start=1):
        print(f"{rank:>3}. {text:<{width}}  {value:+.4f}")
    moves = "move" if len(ranked) == 1 else "moves"
    print(f"{len(ranked)} legal {moves}, {counted(nodes, 'node', 'nodes')}, {seconds:.2f}s")
    print(f"best move: {listed[0][0]}  score: {listed[0][1]:+.4f}")
    return 0


def iteration_line(game: Game, state: Any, iteration: Iteration) -> str:
    pv = " ".join(notation.line_text(game, state, iteration.pv))
    return (
        f"depth {iteration.depth:>2}  score {describe_score(iteration):<22}"
        f"  nodes {iteration.nodes:>10,}  nps {iteration.nps:>8,}"
        f"  time {iteration.seconds:7.3f}s  pv {pv}"
        + ("" if iteration.complete else "  (cut short: the best root move searched so far)")
    )


def analysis_report(setup: Setup, result: EngineResult) -> dict:
    """The JSON object of an analysis (docs/json.md): the answer, then every iteration of the
    deepening (`depths`)."""
    game, state = setup.game, setup.state
    pv = notation.line_text(game, state, result.pv)
    table = result.table
    return {
        "game": setup.name,
        "position": setup.position,
        "to_move": game.to_move(state),
        "value": number(result.value),
        "exact": result.exact,
        "plies": result.plies,
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "depth": result.depth,
        "nodes": result.stats.nodes,
        "seconds": round(result.seconds, 6),
        "stopped": result.stopped,
        "table": None
        if table is None
        else {"probes": table.probes, "hits": table.hits, "cutoffs": table.cutoffs},
        "depths": [
            {
                "depth": it.depth,
                "value": number(it.value),
                "exact": it.exact,
                "complete": it.complete,
                "plies": it.plies,
                "pv": notation.line_text(game, state, it.pv),
                "nodes": it.nodes,
                "nps": it.nps,
                "seconds": round(it.seconds, 6),
            }
            for it in result.iterations
        ],
    }
