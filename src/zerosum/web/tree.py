"""The tree page's answer: a game tree typed on the page, searched and traced as `zerosum tree
--show html` does (with its `--order`), for the page to step through.

The tree is read by the command's own reader under its limits (`Tree.from_text`), searched by
the same traced search, and handed to the same stepper (`zerosum.show.html`), whose script the
page runs.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from zerosum.games.tree import Tree, over
from zerosum.limits import Limit
from zerosum.show.html import stepped_search
from zerosum.show.searched import EXAMINED, PRUNED
from zerosum.show.traced import traced_tree, tree_order
from zerosum.show.words import number

PAGE_NODES = Limit(
    "the nodes of a tree the page steps through",
    20_000,
    "the page is sent every step of the search and the drawing of every node: 20,000 nodes"
    " are about 13 MB and a second here, the command's million about 700 MB and a minute"
    " (zerosum tree --show html draws it to a file)",
    liftable=False,
)
"""The most nodes of a tree searched for the page (the command's `MAX_NODES` bounds what it
reads first): one request keeps the server busy a second at most."""

TEXTBOOK_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"
"""The textbook's first example: value 3, and alpha-beta examines 7 of its 9 leaves."""


def searched_tree(text: str, algorithm: str, order: str = "") -> dict[str, Any]:
    """The page's JSON for the search of the tree `text` by `algorithm` (values for MAX, the
    first player), its moves examined in `order` (`zerosum tree --order`: "" as written,
    "best", "worst" or moves such as "2,0,1"): the drawing, the steps, the value (a number, as
    `zerosum tree --json` gives it, and `value_text` as the page writes it), a one-line
    summary, the algorithm that searched, the leaves it examined (`leaves`, as the command
    counts them) and the tree's leaves (`tree_leaves`). A tree
    with chance nodes is searched by expectiminimax, as the command searches it. ValueError,
    with the command's message, for a text that is not a tree, an order the command refuses,
    or a tree larger than the page's `PAGE_NODES`."""
    tree = Tree.from_text(text)
    if len(tree.nodes) > PAGE_NODES.most:
        raise ValueError(over(PAGE_NODES, f"the tree has {len(tree.nodes):,} nodes"))
    searched = traced_tree(tree, algorithm, tree_order(tree, order))
    examined = searched.count(EXAMINED, leaf=True)
    stepped = asdict(stepped_search(searched))
    return stepped | {
        "value": number(searched.result.value),
        "value_text": stepped["value"],
        "algorithm": searched.algorithm,
        "leaves": examined,
        "tree_leaves": examined + searched.count(PRUNED, leaf=True),
    }
