"""A searched tree as one self-contained SVG drawing.

MAX nodes (the root player to move) are blue squares, MIN nodes orange circles, chance nodes
green diamonds (each edge below one says its outcome's probability `p`), leaves white
boxes, each with the score it returned for MAX; beside each node alpha-beta entered, the window
`α`, `β` it was given. Pruned branches are greyed and dashed, and the edge into each pruned
branch is crossed out; the principal variation is drawn in red. A `⋯` under a node says the
search went on below where the picture stops.

Each node is a `<g class="node ...">` with id `n<index>` whose classes say what it is (`max`,
`min`, `chance` or `leaf`; `examined`, `pruned` or `hit`; `principal`; `truncated`; `cutoff`;
`researched`), and each edge a `<g class="edge ...">` with id `e<index of its lower node>`:
tests count them, and the HTML animation switches them on and off.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from zerosum.show.searched import PRUNED, SearchedNode, SearchedTree, format_score
from zerosum.show.text import describe

ROW = 84  # vertical distance between plies
HALF = 16  # half the size of a node
MARGIN = 24
LEAF_SLOT = 46  # width given to a node drawn with no children
WINDOW_SLOT = 104  # ... and to one that has a window written beside it
ACROSS_SLOT = 46  # the height of a row when the tree is drawn across the page
ACROSS_PLAIN_SLOT = 36  # ... and of a row with no window to write
COLUMN = 150  # the distance between plies when it is drawn across
WIDE = 1400  # a tree whose bottom row would be wider than this is drawn across
CROSS = 6  # half the size of the cross on a pruned edge
LINE = 18  # height of a line of the caption
CAPTION_SIZE = 12  # the caption's font size in pixels (STYLE's .caption)
CAPTION_LINE = 420  # the caption's lines are at least this long, however narrow the tree

STYLE = """
text { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 12px; fill: #222; }
.value { font-weight: bold; font-size: 13px; }
.window, .move, .more { font-size: 10px; fill: #555; }
.move { paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.caption { font-size: 12px; }
.edge line { stroke: #888; stroke-width: 1.5; }
.edge.principal line { stroke: #c0392b; stroke-width: 3.5; }
.edge.pruned line { stroke: #bbb; stroke-dasharray: 4 3; }
.edge line.cross { stroke: #c0392b; stroke-width: 2.5; stroke-dasharray: none; }
.max .shape { fill: #dbe8fb; stroke: #1f4e8c; stroke-width: 1.5; }
.min .shape { fill: #fde2cf; stroke: #9a4a12; stroke-width: 1.5; }
.chance .shape { fill: #e3f2df; stroke: #2e6b30; stroke-width: 1.5; }
.leaf .shape { fill: #fff; stroke: #333; stroke-width: 1.2; }
.hit .shape { stroke-dasharray: 2 2; }
.principal .shape { stroke: #c0392b; stroke-width: 3; }
.pruned .shape { fill: #eee; stroke: #aaa; stroke-dasharray: 3 2; }
.pruned text { fill: #aaa; }
.pruned .value { font-weight: normal; }
"""


def svg(tree: SearchedTree, caption: bool = True, titles: bool = True) -> str:
    """The tree drawn as a standalone SVG document (scores for MAX, the player to move).

    Under the tree, unless `caption` is false: the search's summary and a legend, wrapped
    to the tree's width (or to CAPTION_LINE pixels, beside a narrow tree). Unless `titles` is
    false, the drawing's title is the summary and each node's (shown when the pointer rests on
    it) says what the search did there and draws its position. Linear in the nodes.
    """
    places, across = layout(tree)
    paragraphs = [tree.summary(), LEGEND_TEXT] if caption else []
    right = max(x for x, _ in places.values()) + (COLUMN / 2 if across else WINDOW_SLOT / 2)
    width = right + MARGIN
    if paragraphs:  # as wide as the tree, wide enough for a readable line and its longest word
        words = [word for paragraph in paragraphs for word in paragraph.split()]
        longest = max(_text_width(word + " ") for word in words)
        width = max(width, 2 * MARGIN + max(CAPTION_LINE, longest))
    lines = [line for paragraph in paragraphs for line in _wrap(paragraph, width - 2 * MARGIN)]
    bottom = max(y for _, y in places.values()) + HALF + 2 * MARGIN
    height = bottom + ((len(lines) + 1) * LINE + MARGIN if lines else 0)
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}"'
            f' viewBox="0 0 {width:.0f} {height:.0f}" class="searched-tree">'
        ),
        f"<title>{escape(tree.summary())}</title>" if titles else "",
        f"<style>{STYLE}</style>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fff"/>',
    ]
    for node in tree.nodes:
        if node.parent is not None:  # every node but the root
            parent = tree.nodes[node.parent]
            parts.append(_edge(node, parent, places[parent.index], places[node.index], across))
    for node in tree.nodes:
        parts.append(_node(node, *places[node.index], across, titles))
    if lines:
        parts.append(_caption(lines, paragraphs[0], bottom))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def layout(tree: SearchedTree) -> tuple[dict[int, tuple[float, float]], bool]:
    """The centre of every node, and whether the tree is drawn across (root on the left).

    Childless nodes take one slot each in the order searched, parents sit in the middle of
    their children. The tree grows down the page like the textbooks' pictures while its bottom
    row fits in `WIDE` pixels, and across the page, one row per childless node, beyond.

    Linear in the nodes: the subtrees are placed depth first without recursion, and a narrow
    subtree widened to fit its root's window is moved by an offset that its nodes add up on
    the way down, once all are placed.
    """
    nodes = tree.nodes
    across = sum(_slot(node, False) for node in nodes if not node.children) > WIDE
    slots = [0.0] * len(nodes)  # the breadth-wise centre, less the offsets of the ancestors
    offsets = [0.0] * len(nodes)  # how far the nodes below each node are moved
    starts = [0.0] * len(nodes)  # where each subtree starts
    end: float = MARGIN + (LINE if across else 0)  # where the next subtree starts
    stack = [(tree.root, False)]
    while stack:
        node, placed_below = stack.pop()
        own = _slot(node, across)
        if not node.children:
            slots[node.index] = end + own / 2
            end += own
        elif not placed_below:  # its subtrees first, left to right
            starts[node.index] = end
            stack.append((node, True))
            stack.extend((nodes[index], False) for index in reversed(node.children))
        else:
            start = starts[node.index]
            if end - start < own:  # a narrow subtree: widen it so the window fits
                offsets[node.index] = (own - (end - start)) / 2
                end = start + own
            first, last = node.children[0], node.children[-1]
            slots[node.index] = (slots[first] + slots[last]) / 2 + offsets[node.index]
    moved = [0.0] * len(nodes)  # the offsets of a node's ancestors, added up
    places: dict[int, tuple[float, float]] = {}
    for node in nodes:  # a parent comes before its children
        if node.parent is not None:
            moved[node.index] = moved[node.parent] + offsets[node.parent]
        breadth = slots[node.index] + moved[node.index]
        if across:
            places[node.index] = (MARGIN + HALF + node.ply * COLUMN, breadth)
        else:
            places[node.index] = (breadth, MARGIN + HALF + node.ply * ROW)
    return places, across


def _slot(node: SearchedNode, across: bool) -> float:
    """The room a node needs across the tree's breadth."""
    if across:
        return ACROSS_SLOT if node.alpha is not None else ACROSS_PLAIN_SLOT
    return WINDOW_SLOT if node.alpha is not None else LEAF_SLOT


def node_classes(node: SearchedNode) -> str:
    """The class list of a node's group: what it is, what the search did with it."""
    kind = "leaf" if node.leaf else "chance" if node.chance else "max" if node.maximizing else "min"
    classes = ["node", kind, node.status]
    if node.principal:
        classes.append("principal")
    if node.truncated:
        classes.append("truncated")
    if node.cutoff is not None:
        classes.append("cutoff")
    if node.earlier:
        classes.append("researched")
    return " ".join(classes)


def _node(node: SearchedNode, x: float, y: float, across: bool, titles: bool) -> str:
    if node.leaf:
        shape = (
            f'<rect class="shape" x="{x - 15:.1f}" y="{y - 12:.1f}" width="30" height="24" rx="6"/>'
        )
    elif node.chance:  # a diamond
        r = HALF + 3
        shape = (
            f'<polygon class="shape" points="{x:.1f},{y - r:.1f} {x + r:.1f},{y:.1f}'
            f' {x:.1f},{y + r:.1f} {x - r:.1f},{y:.1f}"/>'
        )
    elif node.maximizing:
        shape = (
            f'<rect class="shape" x="{x - HALF:.1f}" y="{y - HALF:.1f}"'
            f' width="{2 * HALF}" height="{2 * HALF}" rx="3"/>'
        )
    else:
        shape = f'<circle class="shape" cx="{x:.1f}" cy="{y:.1f}" r="{HALF + 1}"/>'
    parts = [f'<g class="{node_classes(node)}" id="n{node.index}">']
    if titles:  # shown when the pointer rests on the node: what the search did, the position
        parts.append(f"<title>{escape(describe(node))}\n{escape(node.picture)}</title>")
    parts.append(shape)
    if node.value is not None:
        parts.append(
            f'<text class="value" x="{x:.1f}" y="{y + 4.5:.1f}" text-anchor="middle">'
            f"{escape(format_score(node.value))}</text>"
        )
    if node.alpha is not None:
        alpha, beta = escape(format_score(node.alpha)), escape(format_score(node.beta))
        if across:  # one line above the node: the edges leave it to the right
            parts.append(
                f'<text class="window" x="{x - HALF:.1f}" y="{y - HALF - 4:.1f}">'
                f"α={alpha} β={beta}</text>"
            )
        else:
            parts.append(
                f'<text class="window" x="{x + HALF + 5:.1f}" y="{y - 3:.1f}">α={alpha}</text>'
                f'<text class="window" x="{x + HALF + 5:.1f}" y="{y + 10:.1f}">β={beta}</text>'
            )
    if node.truncated and node.status != PRUNED:
        mx, my = (x + HALF + 10, y + 4) if across else (x, y + HALF + 13)
        parts.append(f'<text class="more" x="{mx:.1f}" y="{my:.1f}" text-anchor="middle">⋯</text>')
    parts.append("</g>")
    return "".join(parts)


def _edge(
    node: SearchedNode,
    parent: SearchedNode,
    start: tuple[float, float],
    end: tuple[float, float],
    across: bool,
) -> str:
    (x1, y1), (x2, y2) = start, end
    if across:
        x1, x2 = x1 + HALF, x2 - (15 if node.leaf else HALF)
    else:
        y1, y2 = y1 + HALF, y2 - (12 if node.leaf else HALF)
    classes = ["edge", node.status]
    if node.principal:
        classes.append("principal")
    parts = [
        f'<g class="{" ".join(classes)}" id="e{node.index}">',
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>',
    ]
    if node.status == PRUNED and parent.status != PRUNED:
        cx, cy = x1 + 0.6 * (x2 - x1), y1 + 0.6 * (y2 - y1)
        for dx in (CROSS, -CROSS):
            parts.append(
                f'<line class="cross" x1="{cx - dx:.1f}" y1="{cy - CROSS:.1f}"'
                f' x2="{cx + dx:.1f}" y2="{cy + CROSS:.1f}"/>'
            )
    label = node.move_text
    if node.probability is not None:  # an outcome of chance: its probability
        label = f"p={format_score(node.probability)}"
    if label:
        if across:  # the move written just before the child, above its edge
            mx, my, anchor = x2 - 8, y2 - 4, "end"
        elif node.probability is not None and x2 >= x1:  # right of an edge going right
            mx, my, anchor = (x1 + x2) / 2 + 5, (y1 + y2) / 2, "start"
        else:
            mx, my, anchor = (x1 + x2) / 2 - 5, (y1 + y2) / 2, "end"
        parts.append(
            f'<text class="move" x="{mx:.1f}" y="{my:.1f}" text-anchor="{anchor}">'
            f"{escape(label)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


LEGEND_TEXT = (
    "square: MAX to move · circle: MIN to move · diamond: chance, p its outcomes'"
    " probabilities · box: leaf · α, β: the window a node was"
    " entered with · grey, crossed out: pruned · red: principal variation · ⋯: searched further"
)


def _text_width(text: str) -> float:
    """At least the width in pixels of `text` in the caption's font (DejaVu Sans, 12 px).

    Each character counts for the widest advance of its kind in that font; the slack this
    leaves on most characters pays many times over for the few pairs kerned apart (by less
    than a pixel).
    """
    return CAPTION_SIZE * sum(_advance(char) for char in text)


def _advance(char: str) -> float:
    """A bound on the advance of `char`, in ems (DejaVu Sans: `m` 0.97, `O` 0.79, `n` 0.63)."""
    if char in " !'(),./:;I[\\]fijlrt|":
        return 0.42
    if char in "mwMW%@" or not char.isascii():  # the symbols, `⋯` and `∞` among them
        return 1.0
    if char.isupper() or char in "#&+<=>^~":
        return 0.84
    return 0.64


def _wrap(paragraph: str, room: float) -> list[str]:
    """`paragraph` broken between words into lines that `_text_width` finds no wider than `room`.

    Every line but the last keeps the space that ended it, so the caption's text read as one
    string (a screen reader, a search, `itertext`) is the paragraph itself.
    """
    lines: list[str] = []
    line = ""
    for word in paragraph.split(" "):
        if line and _text_width(line + word + " ") > room:
            lines.append(line)
            line = ""
        line += word + " "
    return [*lines, line[:-1]]


def _caption(lines: list[str], summary: str, top: float) -> str:
    texts = [
        f'<text class="caption" x="{MARGIN}" y="{top + LINE * (row + 0.5):.1f}">'
        f"{escape(line)}</text>"
        for row, line in enumerate(lines)
    ]
    return f'<g class="caption" {_data("summary", summary)}>' + "".join(texts) + "</g>"


def _data(name: str, value: str) -> str:
    return f"data-{name}={quoteattr(value)}"
