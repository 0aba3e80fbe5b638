"""`zerosum tree "[[3,12,8],[2,4,6],[14,5,2]]"`: search an explicit tree, show what was pruned."""

from __future__ import annotations

import argparse
from typing import Any

from zerosum.cli.common import print_json
from zerosum.cli.output import add_show_options, show
from zerosum.games.tree import MAX_DEPTH, MAX_NODES, Tree
from zerosum.search.expectiminimax import expectiminimax
from zerosum.show.searched import EXAMINED, MAX_DRAWN
from zerosum.show.traced import traced_tree, tree_order
from zerosum.show.words import number
from zerosum.solve.answer import SEARCHES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Search a game tree written as nested lists (a list is a node, a number a leaf: the"
        " payoff for the first player) and show which leaves were examined and which pruned."
        ' A chance node is written {"chance": [[p, subtree], ...]}; a tree with chance'
        " nodes is searched by expectiminimax with Star2 pruning (with --show, averaging"
        " every outcome: a picture cannot replay Star2's probes). --order changes which"
        " leaves a search examines, never the value. Limits: a tree is at most"
        f" {MAX_DEPTH.most} levels deep (the searches call themselves at every level) and"
        f" has at most {MAX_NODES.most:,} nodes; a picture at most {MAX_DRAWN.most:,}."
    )
    parser.add_argument("tree", help='the tree, e.g. "[[3,12,8],[2,4,6],[14,5,2]]"')
    parser.add_argument("--algorithm", choices=sorted(SEARCHES), default="alphabeta")
    parser.add_argument(
        "--order",
        help="the order to examine each node's moves in: best (best first for the player to"
        " move, the perfect order), worst (worst first), or moves to examine first,"
        " comma-separated, at every node (e.g. 2,1,0); default: as written",
    )
    add_show_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.output is not None and args.show is None:
        raise ValueError("-o writes the picture: say which with --show text, svg or html")
    tree = Tree.from_text(args.tree)
    order = tree_order(tree, args.order)
    if args.show:
        searched = traced_tree(tree, args.algorithm, order)
        result = searched.result
        algorithm = searched.algorithm
        examined = {n.state for n in searched.nodes if n.leaf and n.status == EXAMINED}
    else:  # no picture: the search alone, which notes the leaves it reads
        recording = _LeafRecording(tree)
        if tree.has_chance:
            result = expectiminimax(recording, recording.initial_state(), order=order)
            algorithm = "expectiminimax"
        else:
            result = SEARCHES[args.algorithm](recording, recording.initial_state(), order=order)
            algorithm = args.algorithm
        examined = recording.examined
    leaves = tree.leaves()
    report: dict[str, Any] = {
        "algorithm": algorithm,
        "to_move": 0,
        "value": number(result.value),
        "exact": True,
        "best_move": None if result.best_move is None else str(result.best_move),
        "pv": [str(move) for move in result.pv],
        "nodes": result.stats.nodes,
        "leaves": result.stats.leaves,
        "cutoffs": result.stats.cutoffs,
        "examined": [list(path) for path in leaves if path in examined],
        "pruned": [list(path) for path in leaves if path not in examined],
    }
    if args.show:
        show(searched, args, report)
    if args.json:
        print_json(report)
    if args.show or args.json:
        return 0
    print(f"value: {report['value']} (for the first player)")
    if result.best_move is not None:
        print(f"best move: {result.best_move}")
        print(f"principal variation: {' '.join(map(str, result.pv))}")
    elif tree.is_terminal(()):
        print("best move: none, the game is over at the root (a leaf)")
    else:
        print("best move: none, nobody moves at the root (a chance node)")
    print(f"leaves examined: {len(report['examined'])} of {len(leaves)}")
    for path in leaves:
        mark = "examined" if path in examined else "pruned"
        where = ".".join(map(str, path)) or "the root"
        print(f"  {where:<12} {number(tree.nodes[path])!s:>8}  {mark}")
    return 0


class _LeafRecording(Tree):
    """`tree` (its index shared, not built again) noting the leaves a search reads."""

    def __init__(self, tree: Tree) -> None:
        self.__dict__.update(tree.__dict__)
        self.examined: set = set()

    def utility(self, state, player):
        self.examined.add(state)
        return super().utility(state, player)
