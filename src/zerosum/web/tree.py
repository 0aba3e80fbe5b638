"""The tree page's answer: a game tree typed on the page, searched and traced as `zerosum tree
--show html` does, for the page to step through.

The tree is read by the command's own reader under its limits (`Tree.from_text`), searched by
the same traced search, and handed to the same stepper (`zerosum.show.html`), whose script the
page runs.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from zerosum.cli.explain import traced_search
from zerosum.games.tree import Tree
from zerosum.show.html import stepped_search
from zerosum.show.searched import MAX_DRAWN

TEXTBOOK_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"
"""The textbook's first example: value 3, and alpha-beta examines 7 of its 9 leaves."""


def searched_tree(text: str, algorithm: str) -> dict[str, Any]:
    """The page's JSON for the search of the tree `text` by `algorithm` (values for MAX, the
    first player): the drawing, the steps, the value and a one-line summary. ValueError, with
    the command's message, for a text that is not a tree, a tree with chance nodes (the stepper
    draws exact searches) or one too large to draw."""
    tree = Tree.from_text(text)
    if tree.has_chance:
        raise ValueError("the stepper draws exact searches: this tree has chance nodes")
    searched = traced_search(
        tree,
        tree.initial_state(),
        algorithm=algorithm,
        max_nodes=min(len(tree.nodes), MAX_DRAWN.most),
    )
    return asdict(stepped_search(searched))
