"""`zerosum explain tictactoe --position "XOX.O...." --depth 2 --show svg -o search.svg`, and
`zerosum explain connect4 --position 4453 --depth 3 --show svg -o search.svg`."""

from __future__ import annotations

import argparse

from zerosum.cli.common import (
    game_and_position,
    make_game,
    move_number,
    number,
    parse_int_list,
    print_json,
)
from zerosum.cli.output import add_show_options, show
from zerosum.cli.solve import ALGORITHMS
from zerosum.search.ordering import by_priority
from zerosum.show.searched import (
    EXAMINED,
    PRUNED,
    TABLE_HIT,
    SearchedTree,
    engine_tree,
    searched_tree,
)

EXACT_GAMES = ("tictactoe",)
"""Games whose exact search from any position is quick enough to draw."""
ENGINE_GAMES = ("connect4",)
"""Games explained by the first plies of the engine's search."""
ENGINE_MAX_NODES = 150
EXACT_MAX_NODES = 2_000


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="draw the first plies of a search of a position",
        description=(
            "Draw the first plies of what a search of a position did: the window each node was"
            " entered with, the score it returned, the branches a cut-off pruned, and a note of"
            " how many nodes the search entered that the picture leaves out. Tic-tac-toe is"
            " searched exactly, to the end. Connect Four is searched by the whole engine to"
            " --depth plies (iterative deepening, hash move, killer moves, history, principal"
            " variation search, quiescence, transposition table) and the picture is its last"
            " iteration: the moves in the order the engine tried them, so the best move first"
            " and the cut-offs it brings; a node tried with a null window and searched again"
            " drawn once, saying what the first try returned; a position answered from the"
            " table marked 'table hit' (--no-table: none is); scores in units"
            " of a win (1), estimates to three decimals."
        ),
    )
    parser.add_argument("game", choices=EXACT_GAMES + ENGINE_GAMES)
    parser.add_argument(
        "--position",
        default="",
        help='the position: "XOX.O...." for tictactoe, the columns played (e.g. 4453) for'
        " connect4 (default: the start)",
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=2,
        help="tictactoe: plies of the search to draw; connect4: plies the engine searches, all"
        " drawn if they fit in --max-nodes (default 2)",
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        help="at most this many nodes in the picture: for connect4 the deepest plies are left"
        f" out until it fits (default {ENGINE_MAX_NODES}); for tictactoe a larger picture is"
        f" an error (default {EXACT_MAX_NODES:,})",
    )
    parser.add_argument(
        "--algorithm", choices=sorted(ALGORITHMS), help="tictactoe only (default alphabeta)"
    )
    parser.add_argument(
        "--order",
        help="tictactoe only: moves to examine first, comma-separated (e.g. 4,0,2,6,8,1,3,5,7)",
    )
    parser.add_argument(
        "--no-table",
        dest="table",
        action="store_false",
        help="connect4 only: search without the transposition table",
    )
    add_show_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run, show="text")


def run(args: argparse.Namespace) -> int:
    if args.game in ENGINE_GAMES:
        searched, report = explain_engine(args)
    else:
        searched, report = explain_exact(args)
    report.update(
        nodes_drawn=searched.count(EXAMINED) + searched.count(TABLE_HIT),
        pruned_drawn=searched.count(PRUNED),
        left_out=searched.left_out,
    )
    show(searched, args, report)
    if args.json:
        print_json(report)
    return 0


def explain_exact(args: argparse.Namespace) -> tuple[SearchedTree, dict]:
    """The exact search's picture and the report's fields that say what was searched."""
    if args.depth < 0:
        raise ValueError(f"--depth must be at least 0, got {args.depth}")
    if not args.table:
        raise ValueError("--no-table is for connect4: the exact searches keep no table")
    game = make_game(args.game)
    state = game.parse_state(args.position) if args.position else game.initial_state()  # type: ignore[attr-defined]
    order = by_priority(parse_int_list(args.order, "move order")) if args.order else None
    algorithm = args.algorithm or "alphabeta"
    max_nodes = EXACT_MAX_NODES if args.max_nodes is None else args.max_nodes
    searched = searched_tree(
        game, state, algorithm=algorithm, order=order, max_ply=args.depth, max_nodes=max_nodes
    )
    result = searched.result
    return searched, {
        "algorithm": algorithm,
        "value": number(result.value),
        "best_move": result.best_move,
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
        "plies_drawn": args.depth,
    }


def explain_engine(args: argparse.Namespace) -> tuple[SearchedTree, dict]:
    """The engine's picture and the report's fields that say what its last iteration did."""
    if args.algorithm or args.order:
        raise ValueError(
            f"{args.game} is explained with the engine: --algorithm and --order are for tictactoe"
        )
    if args.depth < 1:
        raise ValueError(f"--depth must be at least 1, got {args.depth}")
    game, state = game_and_position(args.game, args.position)
    max_nodes = ENGINE_MAX_NODES if args.max_nodes is None else args.max_nodes
    searched = engine_tree(game, state, args.depth, table=args.table, max_nodes=max_nodes)
    result = searched.result
    moves, position = [], state
    for move in result.pv:
        moves.append(move_number(game.format_move(position, move)))  # type: ignore[attr-defined]
        position = game.result(position, move)
    return searched, {
        "algorithm": "engine",
        "table": args.table,
        "value": number(result.value),
        "best_move": moves[0] if moves else None,
        "pv": moves,
        "depth": args.depth,
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
        "table_hits_drawn": searched.count(TABLE_HIT),
        "searched_again_drawn": searched.searched_again,
        "plies_drawn": searched.max_ply,
    }
