"""An explicit game tree written as nested lists, the textbooks' first example.

`Tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])` is the textbook's tree: the first player chooses one
of three moves, the second player one of three replies, and the leaf is the payoff for the
first player. A list is a node whose moves are its indices 0, 1, ...; a number is a leaf.
Players alternate by depth; leaves may sit at any depth.

A node may also be a chance node, `{"chance": [[p, subtree], ...]}`: nobody chooses there, the
subtree with index i follows with probability p (positive, the p summing to 1). Chance nodes
do not count as turns: the player to move at a node is given by the number of player nodes
(lists) above it, so `[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]`
is the textbook's dice example, the first player choosing between two rolls of the dice.

A state is the path of move (or outcome) indices from the root (a tuple), so `()` is the root
and `(1, 0)` the leaf 2 above.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
import sys
from collections.abc import Iterator, Sequence
from numbers import Real
from typing import Any

from zerosum.game import Player
from zerosum.limits import Limit, clipped, shown

Path = tuple[int, ...]

MAX_DEPTH = Limit(
    "a tree's depth",
    200,
    "the searches go down a tree by calling themselves, up to three calls a level,"
    " and Python stops at 1,000 calls",
    liftable=False,
)
"""The deepest tree read: every leaf at most 200 moves (or chance outcomes) below the root.

Reading, indexing and drawing a tree need no recursion at any depth; the searches do.
Expectiminimax takes three nested calls a chance level: a chain of 200 chance nodes needs
about 615 frames (measured), leaving the rest of Python's 1,000 for the callers' own frames (a
command, a test runner, a notebook). A tree is refused when it is read, never halfway through
a search."""

MAX_NODES = Limit(
    "a tree's number of nodes",
    1_000_000,
    "each node is indexed by its path, some hundreds of bytes, and a picture of a million"
    " nodes takes one to two minutes and 2 to 4 GB",
    liftable=False,
)
"""The largest tree read: a million nodes is read in 3 seconds and solved in 2 (measured on
a flat tree); drawing it takes a minute or two (`zerosum.show.searched.MAX_DRAWN`). `zerosum
tree` never comes near it from the command line: one argument holds at most 128 KB of text,
some 65,000 leaves."""

_LARGEST = sys.float_info.max

RENDERED = 300
"""The most characters `Tree.render` shows of a subtree: a position is drawn in constant time."""


class Tree:
    """A game given by its whole tree; leaf values are payoffs for the first player (player 0).

    ValueError (with the node at fault) for a tree that is not one: an empty list, a leaf that
    is not a finite number, a malformed chance node, more than `MAX_NODES` nodes or more than
    `MAX_DEPTH` levels.
    """

    def __init__(self, nested: Any) -> None:
        self.nodes: dict[Path, Any] = {}
        self.players: dict[Path, Player] = {}
        self.chances: dict[Path, list[tuple[int, float]]] = {}
        self.leaf_paths: list[Path] = []
        self._index(nested)
        self.nested = nested

    @classmethod
    def from_text(cls, text: str) -> Tree:
        """A tree from JSON text such as `[[3,12,8],[2,4,6],[14,5,2]]`, read without recursion
        at any depth; ValueError saying what is wrong and where."""
        return cls(read_json(text))

    def _index(self, root: Any) -> None:
        """Index every node by its path, depth first and left to right, without recursion."""
        stack: list[tuple[Path, Player, Iterator[tuple[int, Any]]]] = []
        self._enter(root, (), 0, stack)
        while stack:
            path, player, children = stack[-1]
            for index, child in children:
                if self._enter(child, (*path, index), player, stack):
                    break  # its children come first
            else:
                stack.pop()

    def _enter(
        self,
        node: Any,
        path: Path,
        player: Player,
        stack: list[tuple[Path, Player, Iterator[tuple[int, Any]]]],
    ) -> bool:
        """Index `node`, and put its children on `stack` when it has some (then True)."""
        if len(self.nodes) == MAX_NODES.most:
            found = f"the tree has more than {MAX_NODES.most:,} nodes"
            raise ValueError(over(MAX_NODES, found))
        self.players[path] = player
        kind = type(node)
        if kind is int or kind is float:  # most nodes: a leaf, checked at once
            if not -_LARGEST <= node <= _LARGEST:  # NaN fails too
                _leaf_value(node, path)  # says what is wrong
            self.nodes[path] = node
            self.leaf_paths.append(path)
            return False
        if isinstance(node, list):
            if not node:
                raise ValueError(f"{_where(path)} is an empty list: a node needs moves or a value")
            _check_depth(path)
            self.nodes[path] = node
            stack.append((path, 1 - player, enumerate(node)))
            return True
        if isinstance(node, dict):
            subtrees = _chance_subtrees(node, path)
            _check_depth(path)
            self.nodes[path] = node
            self.chances[path] = [(index, p) for index, (p, _) in enumerate(subtrees)]
            stack.append((path, player, enumerate(child for _, child in subtrees)))
            return True
        self.nodes[path] = _leaf_value(node, path)
        self.leaf_paths.append(path)
        return False

    def initial_state(self) -> Path:
        return ()

    def to_move(self, state: Path) -> Player:
        return self.players[state]

    def legal_moves(self, state: Path) -> Sequence[int]:
        if state in self.chances:
            raise ValueError(
                f"{_where(state)} is a chance node: nobody moves there"
                " (search a tree with chance nodes with expectiminimax)"
            )
        return range(len(self.nodes[state]))

    def is_chance(self, state: Path) -> bool:
        return state in self.chances

    def chance_outcomes(self, state: Path) -> list[tuple[int, float]]:
        return self.chances[state]

    @property
    def has_chance(self) -> bool:
        """True when the tree has at least one chance node."""
        return bool(self.chances)

    def value_bounds(self) -> tuple[float, float]:
        """The smallest and largest leaf: bounds on every payoff for the first player."""
        values = [self.nodes[path] for path in self.leaf_paths]
        return min(values), max(values)

    def result(self, state: Path, move: int) -> Path:
        return (*state, move)

    def is_terminal(self, state: Path) -> bool:
        return not isinstance(self.nodes[state], (list, dict))

    def utility(self, state: Path, player: Player) -> float:
        value = self.nodes[state]
        return value if player == 0 else -value

    def key(self, state: Path) -> Path:
        return state

    def values(self) -> dict[Path, float]:
        """Every node's exact value for the first player: a leaf's payoff, the best of a player
        node's children for the player to move there, a chance node's expectation. Found from
        the leaves up, without recursion (children are indexed after their parents)."""
        values: dict[Path, float] = {}
        for path in reversed(self.nodes):
            node = self.nodes[path]
            if path in self.chances:
                values[path] = math.fsum(
                    p * values[(*path, index)] for index, p in self.chances[path]
                )
            elif isinstance(node, list):
                children = [values[(*path, index)] for index in range(len(node))]
                values[path] = max(children) if self.players[path] == 0 else min(children)
            else:
                values[path] = node
        return values

    def leaves(self) -> list[Path]:
        """Every leaf's path, left to right."""
        return list(self.leaf_paths)

    def format_move(self, state: Path, move: int) -> str:
        return str(move)

    def parse_move(self, state: Path, text: str) -> int:
        moves = self.legal_moves(state)
        word = text.strip()
        if not (word.isascii() and word.isdigit() and len(word) <= 18 and int(word) in moves):
            raise ValueError(f"{clipped(text)} is not a move here: choose 0 to {len(moves) - 1}")
        return int(word)

    def render(self, state: Path) -> str:
        """The subtree at `state` as JSON, cut after `RENDERED` characters."""
        return brief_json(self.nodes[state], RENDERED)


def over(limit: Limit, found: str) -> str:
    """The message for a tree past `limit`: what was `found`, the limit and why it is there."""
    return f"{found}: {limit.what} is at most {limit.most:,}, because {limit.cost}"


def _check_depth(path: Path) -> None:
    """ValueError when the children of the node at `path` would lie deeper than MAX_DEPTH."""
    if len(path) >= MAX_DEPTH.most:
        raise ValueError(
            over(
                MAX_DEPTH,
                f"the tree goes deeper than {MAX_DEPTH.most:,} levels below {_where(path)}",
            )
        )


def _where(path: Path) -> str:
    """A node named by its path (`the root`, `node 1.0`), shortened when it is long."""
    if not path:
        return "the root"
    if len(path) <= 12:
        return "node " + ".".join(map(str, path))
    return (
        f"node {'.'.join(map(str, path[:6]))}...{'.'.join(map(str, path[-3:]))}"
        f" ({len(path)} levels down)"
    )


def _leaf_value(value: Any, path: Path) -> Real:
    """`value` when it is a leaf's value: a number, finite and within a float's range."""
    if not isinstance(value, Real) or isinstance(value, bool):
        raise ValueError(
            f"{_where(path)} is {_shown(value)}: expected a number, a list"
            ' or {"chance": [[p, subtree], ...]}'
        )
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an integer (or a fraction) no float can hold
        raise ValueError(
            f"{_where(path)} is {_shown(value)}: leaf values must be within a float's range"
            f" (at most about {sys.float_info.max:.1e} in size)"
        ) from None
    if not finite:
        raise ValueError(f"{_where(path)} is {value}: leaf values must be finite numbers")
    return value


class _Brief(reprlib.Repr):
    """A short repr of what a user wrote: a few levels, a few items, huge integers by size."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxlist, self.maxdict, self.maxstring = 3, 4, 3, 40

    def repr_int(self, x: int, level: int) -> str:
        return repr(x) if x.bit_length() <= 64 else f"an integer {shown(x)}"


def _shown(value: Any) -> str:
    """`value` as an error message shows it: short, whatever its size or depth."""
    text = _Brief().repr(value)
    return text if len(text) <= 80 else text[:80] + "..."


def _chance_subtrees(node: dict, path: Path) -> list[tuple[float, Any]]:
    """The `(probability, subtree)` pairs of a chance node, checked; ValueError otherwise."""
    where = _where(path)
    if set(node) != {"chance"} or not isinstance(node["chance"], list) or not node["chance"]:
        raise ValueError(
            f'{where} is {_shown(node)}: a chance node is {{"chance": [[p, subtree], ...]}}'
        )
    subtrees: list[tuple[float, Any]] = []
    for index, entry in enumerate(node["chance"]):
        if not isinstance(entry, list) or len(entry) != 2:
            raise ValueError(f"{where}: outcome {index} is {_shown(entry)}, expected [p, subtree]")
        p: float = entry[0]
        if not _positive(p):
            raise ValueError(
                f"{where}: outcome {index} has probability {_shown(p)}, expected a positive number"
            )
        subtrees.append((p, entry[1]))
    total = math.fsum(p for p, _ in subtrees)
    if abs(total - 1) > 1e-9:
        raise ValueError(f"{where}: the probabilities sum to {total!r}, not 1")
    return subtrees


def _positive(p: Any) -> bool:
    """True when `p` is a positive, finite number (a probability may be)."""
    if not isinstance(p, Real) or isinstance(p, bool):
        return False
    try:
        return math.isfinite(p) and float(p) > 0
    except OverflowError:
        return False


# -- reading a tree's text -----------------------------------------------------------------

_MARKS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
"""The brackets of a JSON text, and its strings (skipped: a bracket in a string is text)."""

# Where a list or an object sits in a tree's text: whether it is a node (a level of the depth).
_NODE = "node"  # a list of moves: the root, a move's subtree or an outcome's subtree
_CHANCE = "chance"  # {"chance": ...}, where a node may be
_OUTCOMES = "outcomes"  # the list of a chance node's outcomes
_PAIR = "pair"  # one outcome, [p, subtree]
_OTHER = "other"  # what the tree's checks will refuse; counted as a level, to bound it
_LEVELS = frozenset((_NODE, _CHANCE, _OTHER))
_INSIDE = {  # the role of a list and of an object opened inside a container of each role
    None: (_NODE, _CHANCE),
    _NODE: (_NODE, _CHANCE),
    _CHANCE: (_OUTCOMES, _OTHER),
    _OUTCOMES: (_PAIR, _OTHER),
    _PAIR: (_NODE, _CHANCE),
    _OTHER: (_OTHER, _OTHER),
}


def read_json(text: str) -> Any:
    """The nested lists, chance nodes and numbers that `text` writes as JSON.

    The brackets are counted first, without recursion, so a tree deeper than `MAX_DEPTH` is
    refused before the JSON reader (which recurses) sees it. ValueError saying where the text
    is malformed, or which number no float holds (`1e400`; `1e-400`, which a float reads as 0).
    """
    _check_nesting(text)
    try:
        return json.loads(text, parse_int=_integer, parse_float=_real)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"malformed tree {clipped(text)}: {error.msg} at character {error.pos:,}"
        ) from None


def _check_nesting(text: str) -> None:
    """ValueError when the lists and objects of `text` would make a tree deeper than MAX_DEPTH.

    Every list of moves and every chance node is a level (a list inside a chance node's
    outcome is its subtree, whatever else is wrong there), as in the tree read from it.
    """
    roles: list[str] = []
    levels = 0
    for mark in _MARKS.finditer(text):
        bracket = mark.group()
        if bracket in ("]", "}"):
            if roles:
                levels -= roles.pop() in _LEVELS
        elif bracket in ("[", "{"):
            role = _INSIDE[roles[-1] if roles else None][bracket == "{"]
            roles.append(role)
            levels += role in _LEVELS
            if levels > MAX_DEPTH.most:
                found = (
                    f"the tree goes deeper than {MAX_DEPTH.most:,} levels"
                    f" (at character {mark.start():,})"
                )
                raise ValueError(over(MAX_DEPTH, found))


def _integer(word: str) -> int:
    """An integer of a tree's text, unless no float holds it (nor Python's text conversion)."""
    if len(word.lstrip("-")) <= 309 and abs(integer := int(word)) <= sys.float_info.max:
        return integer
    raise ValueError(_no_float(word, "too large"))


def _real(word: str) -> float:
    """A number with a fraction or an exponent, unless a float would read it as ±inf or 0."""
    real = float(word)
    if math.isinf(real):
        raise ValueError(_no_float(word, "too large"))
    if real == 0 and any(digit in word.lower().partition("e")[0] for digit in "123456789"):
        raise ValueError(_no_float(word, "too small (a float would read it as 0)"))
    return real


def _no_float(word: str, too: str) -> str:
    return (
        f"the number {clipped(word, 40)} in the tree is {too}: a tree's numbers are floats,"
        " 0 or from about 5e-324 to 1.8e308 in size"
    )


class _Piece(str):
    """Punctuation written by `brief_json` (told apart from a string value)."""


def brief_json(node: Any, most: int) -> str:
    """`node` as `json.dumps` writes it, without recursion, cut after `most` characters."""
    pieces: list[str] = []
    size = 0
    todo = [iter((node,))]
    while todo and size <= most:
        item = next(todo[-1], _DONE)
        if item is _DONE:
            todo.pop()
            continue
        if isinstance(item, _Piece):
            piece: str = item
        elif isinstance(item, list):
            todo.append(_items(item))
            continue
        elif isinstance(item, dict):
            todo.append(_members(item))
            continue
        elif type(item) is int or type(item) is float and math.isfinite(item):
            piece = repr(item)  # as JSON writes it, and faster
        else:
            piece = json.dumps(item)
        pieces.append(piece)
        size += len(piece)
    text = "".join(pieces)
    return text if len(text) <= most else text[:most] + "..."


_DONE = object()


def _items(values: list) -> Iterator[Any]:
    yield _Piece("[")
    for index, value in enumerate(values):
        if index:
            yield _Piece(", ")
        yield value
    yield _Piece("]")


def _members(values: dict) -> Iterator[Any]:
    yield _Piece("{")
    for index, (key, value) in enumerate(values.items()):
        yield _Piece((", " if index else "") + json.dumps(str(key)) + ": ")
        yield value
    yield _Piece("}")
