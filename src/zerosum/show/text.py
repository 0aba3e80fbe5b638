"""A searched tree as indented text for the terminal.

One line per node: the move that leads to it, MAX or MIN (or the leaf), the window alpha-beta
entered it with, the score it returned, a `*` on the principal variation, and what a cut-off
did; a chance node (CHANCE) returns the expectation of its outcomes, each written with its
probability `p`. Pruned branches are marked `pruned`; a pruned leaf's payoff, which the search
never read, is shown in brackets. A node searched again after a first, cheaper search (the engine's
null-window try) says what that first search returned.
"""

from __future__ import annotations

from zerosum.show.searched import PRUNED, TABLE_HIT, SearchedNode, SearchedTree, format_score


def text(tree: SearchedTree) -> str:
    """The tree drawn with box-drawing characters, a summary line first; scores are MAX's.

    Drawn depth first without recursion, each node once: linear in the lines written.
    """
    lines = [tree.summary()]
    stack: list[tuple[SearchedNode, str, str]] = [(tree.root, "", "")]
    while stack:
        node, lead, rest = stack.pop()
        lines.append(lead + describe(node))
        last = len(node.children) - 1
        for position in range(last, -1, -1):  # the first child on top
            child = tree.nodes[node.children[position]]
            if position == last:
                stack.append((child, rest + "└── ", rest + "    "))
            else:
                stack.append((child, rest + "├── ", rest + "│   "))
    return "\n".join(lines) + "\n"


def describe(node: SearchedNode) -> str:
    """One node's line, without the tree's indentation."""
    parts = [node.move_text] if node.move_text else []
    if node.probability is not None:
        parts.append(f"(p={format_score(node.probability)})")
    if node.leaf:
        parts.append("leaf")
        if node.status != PRUNED:
            parts.append(format_score(node.value))
        elif node.value is not None:
            parts.append(f"({format_score(node.value)})")
    else:
        parts.append("CHANCE" if node.chance else "MAX" if node.maximizing else "MIN")
        if node.alpha is not None:
            parts.append(f"α={format_score(node.alpha)} β={format_score(node.beta)}")
        if node.status != PRUNED:
            parts.append(f"→ {format_score(node.value)}")
    if node.principal:
        parts.append("*")
    if node.cutoff is not None:
        score, bound = node.cutoff
        relation = "≥ β" if node.maximizing else "≤ α"
        parts.append(f"cut-off: {format_score(score)} {relation}={format_score(bound)}")
    if node.status == PRUNED:
        parts.append("pruned")
    elif node.status == TABLE_HIT:
        parts.append("table hit")
    if node.earlier:
        earlier = ", ".join(format_score(score) for score in node.earlier)
        parts.append(f"(searched again after {earlier})")
    if node.truncated:
        parts.append("(search went on below)" if node.status != PRUNED else "(not drawn below)")
    return " ".join(parts)
