"""`zerosum explain GAME [POSITION] --depth N --show svg -o search.svg`: a picture of a search.

A game without an evaluation (tic-tac-toe, a tree, most games of your own) is searched exactly,
to the end, and the first `--depth` plies are drawn; a game with an evaluation (Connect Four,
chess) is searched by the whole engine to `--depth` plies, and its last iteration is drawn.
This face runs the search with a trace; `zerosum.show` rebuilds and draws what it saw.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum import registry
from zerosum.cli.common import add_game_argument, game_setup, number, print_json
from zerosum.cli.output import add_show_options, show
from zerosum.game import Evaluating, Game, has_chance
from zerosum.limits import Limit, shown
from zerosum.search.engine import Engine, Iteration
from zerosum.search.expectiminimax import expectiminimax
from zerosum.search.ordering import Order
from zerosum.search.result import SearchResult, SearchStats
from zerosum.search.trace import Trace
from zerosum.show.searched import (
    EXAMINED,
    MAX_DRAWN,
    PRUNED,
    TABLE_HIT,
    SearchedTree,
    engine_picture,
    from_trace,
)
from zerosum.solve.answer import SEARCHES

ENGINE_MAX_NODES = 150
EXACT_MAX_NODES = 2_000
SEARCHED = Limit(
    "the nodes of an exact search explain draws",
    2_000_000,
    "a search to the end visits about 400,000 nodes a second here, and a picture shows a few"
    " thousand of them: beyond, show a later position (zerosum solve searches further)",
    liftable=False,
)
TRACE_LIMIT = 200_000
"""Events an engine explanation keeps (a few tens of megabytes): a search to depth 9 of Connect
Four makes about a quarter of them. The search stops as soon as one iteration makes more."""

ENGINE_DEPTH = Limit(
    "the --depth of an engine's search to draw",
    100,
    "a deeper search would never end, and would call itself past Python's limit",
    liftable=False,
)
"""The deepest engine search explained, as `zerosum uci` searches at most: a search stops long
before (at `TRACE_LIMIT` events, depth 10 to 12 in Connect Four), this bounds the recursion."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="draw the first plies of a search of a position",
        description=(
            "Draw the first plies of what a search of a position did: the window each node was"
            " entered with, the score it returned, the branches a cut-off pruned, and a note of"
            " how many nodes the search entered that the picture leaves out. A game without an"
            " evaluation (tictactoe, your own) is searched exactly, to the end. A game with one"
            " (connect4) is searched by the whole engine to --depth plies (iterative deepening,"
            " hash move, killer moves, history, principal variation search, quiescence,"
            " transposition table) and the picture is its last iteration: the moves in the order"
            " the engine tried them, so the best move first and the cut-offs it brings; a node"
            " tried with a null window and searched again drawn once, saying what the first try"
            " returned; a position answered from the table marked 'table hit' (--no-table: none"
            " is); scores in units of a win (1), estimates to three decimals."
        ),
    )
    add_game_argument(parser)
    parser.add_argument(
        "--depth",
        type=int,
        default=2,
        help="exact searches: plies of the search to draw (any number: --max-nodes bounds the"
        " picture); the engine: plies it searches, 1 to"
        f" {ENGINE_DEPTH.most}, all drawn if they fit in --max-nodes (default 2); the engine's"
        f" search stops, refused, once it makes more than {TRACE_LIMIT:,} events to draw",
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        help="at most this many nodes in the picture, 1 to"
        f" {MAX_DRAWN.most:,} (a picture that large takes a minute or two): for the engine the"
        f" deepest plies are left out until it fits (default {ENGINE_MAX_NODES}); for an exact"
        f" search a larger picture is an error (default {EXACT_MAX_NODES:,})",
    )
    parser.add_argument(
        "--algorithm",
        choices=sorted(SEARCHES),
        help="exact searches only (default alphabeta)",
    )
    parser.add_argument(
        "--order",
        help="exact searches only: moves to examine first, comma-separated (e.g. 4,0,2,6,8)",
    )
    parser.add_argument(
        "--no-table",
        dest="table",
        action="store_false",
        help="the engine only: search without the transposition table",
    )
    add_show_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.max_nodes is not None:
        check_max_nodes(args.max_nodes)
    setup = registry.unfinished(game_setup(args))
    if has_chance(setup.game):
        raise ValueError(
            f"{setup.entry.name} has chance nodes: explain draws exact searches and the"
            " engine's, which have no dice (zerosum tree searches a tree with chance nodes)"
        )
    if isinstance(setup.game, Evaluating):
        searched, report = explain_engine(setup, args)
    else:
        searched, report = explain_exact(setup, args)
    report.update(
        nodes_drawn=searched.count(EXAMINED) + searched.count(TABLE_HIT),
        pruned_drawn=searched.count(PRUNED),
        left_out=searched.left_out,
    )
    if args.show is None and (args.output is not None or not args.json):
        args.show = "text"  # the picture is what explain draws, unless asked for JSON alone
    if args.show is not None:
        show(searched, args, report)
    if args.json:
        print_json(report)
    return 0


def check_max_nodes(max_nodes: int) -> None:
    """ValueError unless `--max-nodes` is a number of nodes a picture may have."""
    if not 1 <= max_nodes <= MAX_DRAWN.most:
        raise ValueError(
            f"--max-nodes is the most nodes the picture may have: from 1 (the root alone) to"
            f" {MAX_DRAWN.most:,}, not {shown(max_nodes)}"
        )


def traced_search(
    game: Game,
    state: Any,
    *,
    algorithm: str = "alphabeta",
    order: Order | None = None,
    max_ply: int | None = None,
    max_nodes: int = EXACT_MAX_NODES,
) -> SearchedTree:
    """What an exact search of `state` to the end looked at, its first `max_ply` plies drawn
    (all by default); ValueError when the picture would have more than `max_nodes` nodes, or
    the search more than `SEARCHED` (a search to the end that would run for minutes)."""
    if algorithm not in TRACED:
        known = ", ".join(TRACED)
        raise ValueError(f"unknown algorithm {algorithm!r}: choose one of {known}")
    trace = Trace(limit=3 * max_nodes + 1, max_ply=max_ply)  # at most 3 events a node
    bound = {"max_nodes": SEARCHED} if algorithm in SEARCHES else {}
    result = TRACED[algorithm](game, state, order=order, trace=trace, **bound)
    if not trace.complete:
        raise ValueError(
            f"the search has more than {max_nodes:,} nodes to draw: show fewer plies"
            " (or a smaller tree)"
        )
    return from_trace(game, state, trace, result, algorithm=algorithm, order=order,
                      max_nodes=max_nodes)  # fmt: skip


def _traced_expectiminimax(
    game: Game, state: Any, *, order: Order | None, trace: Trace
) -> SearchResult:
    """Expectiminimax as a picture can replay it: alpha-beta at the players' nodes, every
    outcome of a chance node searched (no table: each node drawn where the search met it)."""
    return expectiminimax(
        game, state, pruning="alphabeta", order=order, trace=trace, transposition=False
    )


TRACED: dict[str, Callable[..., SearchResult]] = {
    **SEARCHES,
    "expectiminimax": _traced_expectiminimax,
}
"""The searches `traced_search` draws, by name: the exact ones, and expectiminimax for games
with chance nodes."""


def traced_engine(
    game: Game, state: Any, depth: int, *, table: bool = True, max_nodes: int = ENGINE_MAX_NODES
) -> SearchedTree:
    """The last iteration of the engine's search of `state` to `depth`, as many of its plies
    drawn as fit in `max_nodes` nodes."""
    if not 1 <= depth <= ENGINE_DEPTH.most:
        raise ValueError(
            f"--depth is the plies the engine searches: from 1 to {ENGINE_DEPTH.most}"
            f" ({ENGINE_DEPTH.cost}), not {shown(depth)}"
        )
    if game.is_terminal(state):
        raise ValueError("the game is over in this position: there is no search to draw")
    trace = _StoppingTrace(limit=TRACE_LIMIT, max_ply=depth)
    engine = Engine(game, table=table, trace=trace)
    trace.when_full = engine.stop
    totals = [SearchStats()]  # the engine's counts after each iteration
    finished = [0]  # the depth of the last iteration finished

    def add_totals(iteration: Iteration) -> None:
        if iteration.complete:
            finished.append(iteration.depth)
        totals.append(
            SearchStats(engine.nodes, engine.terminals, engine.evaluations, engine.cutoffs)
        )

    result = engine.search(state, depth=depth, on_iteration=add_totals)
    if not trace.complete or engine.stopped is not None:
        reached = finished[-1] + 1  # the iteration that was stopped
        raise ValueError(
            f"the search to depth {depth} makes more than {TRACE_LIMIT:,} events to draw"
            f" (stopped at depth {reached}): ask for fewer plies"
        )
    before, after = totals[-2], totals[-1]
    stats = SearchStats(
        after.nodes - before.nodes,
        after.terminals - before.terminals,
        after.evaluations - before.evaluations,
        after.cutoffs - before.cutoffs,
    )
    last = SearchResult(result.score, result.best_move, result.pv, stats)
    return engine_picture(
        game, state, trace, last, depth=depth, iteration=result.depth, max_nodes=max_nodes
    )


@dataclass
class _StoppingTrace(Trace):
    """A trace that calls `when_full` (the engine's `stop`) when it first drops an event:
    a picture needs the whole trace, so the search need not go on."""

    when_full: Callable[[], None] | None = None

    def record(
        self,
        kind: str,
        state: Any,
        ply: int,
        value: float | None = None,
        alpha: float | None = None,
        beta: float | None = None,
    ) -> None:
        super().record(kind, state, ply, value, alpha, beta)
        if self.dropped == 1 and self.when_full is not None:
            self.when_full()


def explain_exact(setup: registry.Setup, args: argparse.Namespace) -> tuple[SearchedTree, dict]:
    """The exact search's picture and the report's fields that say what was searched."""
    if args.depth < 0:
        raise ValueError(f"--depth is the plies to draw: at least 0, not {shown(args.depth)}")
    if not args.table:
        raise ValueError("--no-table is for the engine: the exact searches keep no table")
    order = (
        registry.move_order(setup.game, setup.state, args.order) if args.order is not None else None
    )
    algorithm = args.algorithm or "alphabeta"
    max_nodes = EXACT_MAX_NODES if args.max_nodes is None else args.max_nodes
    searched = traced_search(
        setup.game, setup.state, algorithm=algorithm, order=order, max_ply=args.depth,
        max_nodes=max_nodes,
    )  # fmt: skip
    return searched, report(setup, searched, algorithm) | {"plies_drawn": args.depth}


def explain_engine(setup: registry.Setup, args: argparse.Namespace) -> tuple[SearchedTree, dict]:
    """The engine's picture and the report's fields that say what its last iteration did."""
    if args.algorithm or args.order is not None:
        raise ValueError(
            f"{setup.entry.name} is explained with the engine (it has an evaluation):"
            " --algorithm and --order are for exact searches"
        )
    max_nodes = ENGINE_MAX_NODES if args.max_nodes is None else args.max_nodes
    searched = traced_engine(
        setup.game, setup.state, args.depth, table=args.table, max_nodes=max_nodes
    )
    return searched, report(setup, searched, "engine") | {
        "table": args.table,
        "depth": args.depth,
        "table_hits_drawn": searched.count(TABLE_HIT),
        "searched_again_drawn": searched.searched_again,
        "plies_drawn": searched.max_ply,
    }


def report(setup: registry.Setup, searched: SearchedTree, algorithm: str) -> dict[str, Any]:
    """The fields of an explanation every search has (docs/json.md)."""
    result = searched.result
    pv = registry.line_text(setup.game, setup.state, result.pv)
    return {
        "game": setup.name,
        "position": setup.position,
        "to_move": setup.game.to_move(setup.state),
        "algorithm": algorithm,
        "value": number(result.value),
        "best_move": pv[0] if pv else None,
        "pv": pv,
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
    }
