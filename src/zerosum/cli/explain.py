"""`zerosum explain GAME [POSITION] --depth N --show svg -o search.svg`: a picture of a search.

A game without an evaluation (tic-tac-toe, a tree, most games of your own) is searched exactly,
to the end, and the first `--depth` plies are drawn; a game with an evaluation (Connect Four,
chess) is searched by the whole engine to `--depth` plies, and its last iteration is drawn.
This face runs the search with a trace; `zerosum.show` rebuilds and draws what it saw.
"""

from __future__ import annotations

import argparse
from typing import Any

from zerosum import notation, registry
from zerosum.cli.common import add_game_argument, game_setup, print_json
from zerosum.cli.output import add_show_options, show
from zerosum.game import Evaluating, has_chance
from zerosum.limits import shown
from zerosum.show.searched import (
    EXAMINED,
    MAX_DRAWN,
    PRUNED,
    TABLE_HIT,
    SearchedTree,
)
from zerosum.show.traced import (
    ENGINE_DEPTH,
    ENGINE_MAX_NODES,
    EXACT_MAX_NODES,
    TRACE_LIMIT,
    traced_engine,
    traced_search,
)
from zerosum.show.words import number
from zerosum.solve.answer import SEARCHES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
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
    registry.require_an_end_in_reach(
        setup.entry,
        setup.game,
        "explain draws searches that would not end; MCTS plays it"
        f" (zerosum play {setup.entry.name})",
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


def explain_exact(setup: registry.Setup, args: argparse.Namespace) -> tuple[SearchedTree, dict]:
    """The exact search's picture and the report's fields that say what was searched."""
    if args.depth < 0:
        raise ValueError(f"--depth is the plies to draw: at least 0, not {shown(args.depth)}")
    if not args.table:
        raise ValueError("--no-table is for the engine: the exact searches keep no table")
    order = (
        notation.move_order(setup.game, setup.state, args.order) if args.order is not None else None
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
        "table_used": args.table,
        "depth": args.depth,
        "table_hits_drawn": searched.count(TABLE_HIT),
        "searched_again_drawn": searched.searched_again,
        "plies_drawn": searched.max_ply,
    }


def report(setup: registry.Setup, searched: SearchedTree, algorithm: str) -> dict[str, Any]:
    """The fields of an explanation every search has (docs/json.md)."""
    result = searched.result
    pv = notation.line_text(setup.game, setup.state, result.pv)
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
