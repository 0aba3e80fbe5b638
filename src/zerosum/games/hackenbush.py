"""Hackenbush: Blue, Red and Green edges of a graph rooted on the ground, cut in turn.

Left (Blue) cuts a blue or a green edge, Right (Red) a red or a green edge; whatever is no
longer joined to the ground falls away; who cannot cut loses. Blue-Red Hackenbush has only
blue and red edges, Green Hackenbush only green ones (an impartial game: its values are
nimbers), Red-Blue-Green Hackenbush all three.

A position is written as edges `U-V:C`, separated by spaces: `U` and `V` name nodes (any word;
`0` or `g` is the ground) and `C` is the colour, `b`, `r` or `g` (`0-1:b 1-2:r 1-3:g`).
Stalks, strings of edges from the ground up, are shorter: `brr bg` is two stalks, the first a
blue edge with two red ones on top. A move is the edge cut, written as the position writes it.
A position is a frozenset of edges `(u, v, colour)` with u <= v, nodes numbered, 0 the ground.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zerosum.limits import Limit, clipped

EDGES = Limit(
    "the edges of a Hackenbush position", 1_000, "its text is read edge by edge", liftable=False
)
"""The most edges a position may have."""

Edge = tuple[int, int, str]
Position = frozenset[Edge]

COLOURS = {"b": "blue", "r": "red", "g": "green"}
GROUND = 0


def read_position(text: str) -> Position:
    """The edges `text` writes: stalks (`brr bg`) or edges (`0-1:b 1-2:r`)."""
    words = text.split()
    if not words:
        return frozenset()
    EDGES.check(sum(len(word) for word in words) if ":" not in text else len(words))
    edges: list[Edge] = []
    if all(re.fullmatch(r"[brg]+", word) for word in words):
        node = 0
        for word in words:
            below = GROUND
            for colour in word:
                node += 1
                edges.append((below, node, colour))
                below = node
        return _grounded(frozenset(edges))
    names: dict[str, int] = {"0": GROUND, "g": GROUND}
    for word in words:
        found = re.fullmatch(r"(\w+)-(\w+):([brg])", word)
        if found is None:
            raise ValueError(
                f"a Hackenbush edge is U-V:C with C one of b, r, g (0 or g the ground), or a"
                f" stalk of b, r and g from the ground up; got {clipped(word)}"
            )
        u, v = (names.setdefault(name, len(names) - 1) for name in found.groups()[:2])
        if u == v:
            raise ValueError(f"an edge joins two nodes, not {clipped(word)}")
        edges.append((min(u, v), max(u, v), found[3]))
    if len(set(edges)) < len(edges):
        raise ValueError(f"an edge is written twice in {clipped(text)}")
    return _grounded(frozenset(edges))


def write_position(position: Position) -> str:
    """The position as edges `U-V:C`, the ground 0."""
    return " ".join(f"{u}-{v}:{c}" for u, v, c in sorted(position))


def _grounded(edges: Position) -> Position:
    """The edges still joined to the ground."""
    touching: dict[int, list[Edge]] = {}
    for edge in edges:
        touching.setdefault(edge[0], []).append(edge)
        touching.setdefault(edge[1], []).append(edge)
    reached, frontier = {GROUND}, [GROUND]
    while frontier:
        node = frontier.pop()
        for u, v, _ in touching.get(node, ()):
            other = v if u == node else u
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    return frozenset(edge for edge in edges if edge[0] in reached)


class Hackenbush:
    """Hackenbush's rules for the partizan protocol: Left Blue, Right Red, green for both."""

    name = "hackenbush"
    left_name, right_name = "Blue", "Red"

    def read(self, text: str) -> Position:
        return read_position(text)

    def write(self, position: Position) -> str:
        return write_position(position)

    def left_options(self, position: Position) -> Iterator[Position]:
        return (option for _, option in self.moves(position, True))

    def right_options(self, position: Position) -> Iterator[Position]:
        return (option for _, option in self.moves(position, False))

    def moves(self, position: Position, left: bool) -> Iterator[tuple[str, Position]]:
        """Each edge Left (`left`) or Right may cut, with what is left joined to the ground."""
        mine = "b" if left else "r"
        for edge in sorted(position):
            if edge[2] in (mine, "g"):
                yield f"{edge[0]}-{edge[1]}:{edge[2]}", _grounded(position - {edge})

    def components(self, position: Position) -> list[Position]:
        """The parts joined to each other above the ground, each a position of its own."""
        touching: dict[int, list[Edge]] = {}
        for edge in position:
            touching.setdefault(edge[0], []).append(edge)
            touching.setdefault(edge[1], []).append(edge)
        parts, seen = [], set()
        for edge in sorted(position):
            if edge in seen:
                continue
            part, frontier = {edge}, [edge]
            while frontier:
                u, v, _ = frontier.pop()
                for node in (u, v):
                    if node == GROUND:
                        continue
                    for other in touching[node]:
                        if other not in part:
                            part.add(other)
                            frontier.append(other)
            seen |= part
            parts.append(frozenset(part))
        return parts

    def key(self, position: Position) -> tuple[Edge, ...]:
        """The component with its nodes renumbered in the order met from the ground."""
        numbers = {GROUND: 0}
        for u, v, _ in sorted(position):
            for node in (u, v):
                numbers.setdefault(node, len(numbers))
        return tuple(
            sorted((*sorted((numbers[u], numbers[v])), c) for u, v, c in position)  # type: ignore[misc]
        )
