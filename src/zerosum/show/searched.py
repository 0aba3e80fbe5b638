"""A searched tree: what a search looked at, rebuilt from its trace, ready to be drawn.

`searched_tree(game, state)` runs an exact search with a `Trace` and rebuilds from the events
the part of the game tree the search saw: every node it entered, with the window it entered
with and the score it returned, every leaf it reached, and the moves it never examined because
of a cut-off (the pruned branches). The pictures (`text`, `svg`, `html`) draw this one value.

Every score in it is from the point of view of the player to move at the root (MAX), whatever
the algorithm: negamax's scores, which are for the player to move at each node, are turned
round. The `steps` replay the search event by event for the animation, with the score MAX has
secured at the root after each one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import inf
from typing import Any

from zerosum.game import Game, MoveText, Rendering
from zerosum.search.exact import alphabeta, minimax, negamax
from zerosum.search.ordering import Order
from zerosum.search.result import SearchResult
from zerosum.search.trace import CUTOFF, ENTER, EXIT, HIT, LEAF, Event, Trace

SEARCHES: dict[str, Callable[..., SearchResult]] = {
    "alphabeta": alphabeta,
    "minimax": minimax,
    "negamax": negamax,
}
MOVER_VIEW = {"negamax"}
"""Algorithms whose scores are for the player to move at each node, not the root player."""

EXAMINED = "examined"
PRUNED = "pruned"
TABLE_HIT = "hit"


@dataclass(frozen=True)
class SearchedNode:
    """One node of a searched tree; scores are for the root player (MAX).

    `state` is the position and `move` the move that leads to it from its parent (None at the
    root). `status` is `"examined"` (the search entered it), `"pruned"` (a cut-off above made it
    irrelevant: never looked at) or `"hit"` (answered from a transposition table). `leaf` is
    true where the search stopped descending (a finished game, a depth-limit evaluation, a table
    hit) and, for pruned nodes, where the game ends. `value` is the score the search returned
    (for a pruned leaf: its payoff, which the search never read; otherwise None for pruned
    nodes). `alpha` and `beta` are the window the node was entered with (alpha-beta only).
    `cutoff` is `(score, bound)` when the node stopped early because `score` reached `bound`
    (beta at a MAX node, alpha at a MIN node). `truncated` marks a node the search went below
    but the picture does not (past `max_ply`, or a pruned subtree past the limit). `picture` is
    the position as the game draws it (`Rendering`), or empty.
    """

    index: int
    parent: int | None
    children: tuple[int, ...]
    state: Any
    move: Any
    move_text: str
    ply: int
    maximizing: bool
    status: str
    leaf: bool
    value: float | None
    alpha: float | None = None
    beta: float | None = None
    cutoff: tuple[float, float] | None = None
    truncated: bool = False
    principal: bool = False
    picture: str = ""


@dataclass(frozen=True)
class Step:
    """One event of the search, as the animation replays it.

    `node` is the index of the node the event happened at; `dark` the nodes a cut-off prunes
    (the unexamined branches and everything under them); `secured` the best score MAX has
    secured at the root once this step is done (None before the first move is valued).
    """

    kind: str
    node: int
    value: float | None
    alpha: float | None
    beta: float | None
    secured: float | None
    dark: tuple[int, ...] = ()


@dataclass(frozen=True)
class SearchedTree:
    """What a search looked at: its nodes (`nodes[0]` is the root), its steps and its result.

    `max_ply` is the depth the picture stops at (None: the whole search is drawn) and
    `left_out` the number of nodes the search entered below it, which the picture omits.
    """

    algorithm: str
    nodes: tuple[SearchedNode, ...]
    steps: tuple[Step, ...]
    result: SearchResult
    max_ply: int | None
    left_out: int

    @property
    def root(self) -> SearchedNode:
        return self.nodes[0]

    def count(self, status: str, leaf: bool | None = None) -> int:
        """How many nodes have `status` (and, if given, are or are not leaves)."""
        return sum(
            1
            for node in self.nodes
            if node.status == status and (leaf is None or node.leaf == leaf)
        )

    def summary(self) -> str:
        """One line: the value and what the search did and skipped."""
        examined = self.count(EXAMINED, leaf=True) + self.count(TABLE_HIT)
        pruned = self.count(PRUNED, leaf=True)
        stats = self.result.stats
        text = (
            f"value {format_score(self.result.value)} for MAX, the player to move;"
            f" {self.algorithm}: {_counted(stats.nodes, 'node')},"
            f" {_counted(stats.cutoffs, 'cut-off')}"
        )
        if self.max_ply is None:
            return text + f"; leaves examined {examined} of {examined + pruned}, pruned {pruned}"
        plies = {0: "the root only", 1: "the first ply"}.get(
            self.max_ply, f"the first {self.max_ply} plies"
        )
        return text + (
            f"; drawn: {plies} ({_counted(len(self.nodes), 'node')}), left out:"
            f" {_counted(self.left_out, 'node')} searched below ply {self.max_ply}"
        )


def _counted(number: int, noun: str) -> str:
    """`1 node`, `2 nodes`, `18,297 nodes`."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def format_score(score: float | None) -> str:
    """A score as a person writes it: 3, 2.5, ∞, -∞ (or ? when unknown)."""
    if score is None:
        return "?"
    if score in (inf, -inf):
        return "∞" if score > 0 else "-∞"
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def searched_tree(
    game: Game,
    state: Any,
    *,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    order: Order | None = None,
    max_ply: int | None = None,
    max_nodes: int = 2_000,
) -> SearchedTree:
    """The tree an exact search of `state` looked at, scores for the player to move (MAX).

    `algorithm` is `alphabeta`, `minimax` or `negamax`; `depth` and `order` are passed to it.
    With `max_ply` the picture keeps only the first plies (the search itself goes to the end or
    to `depth`). ValueError when the picture would have more than `max_nodes` nodes.
    """
    if algorithm not in SEARCHES:
        raise ValueError(f"unknown algorithm {algorithm!r}: choose one of {', '.join(SEARCHES)}")
    # Each node the search enters makes at most three events (enter, cutoff, exit).
    trace = Trace(limit=3 * max_nodes + 1, max_ply=max_ply)
    result = SEARCHES[algorithm](game, state, depth=depth, order=order, trace=trace)
    if not trace.complete:
        raise _too_big(max_nodes)
    return from_trace(
        game,
        state,
        trace,
        result,
        algorithm=algorithm,
        order=order,
        mover_view=algorithm in MOVER_VIEW,
        max_nodes=max_nodes,
    )


def from_trace(
    game: Game,
    state: Any,
    trace: Trace,
    result: SearchResult,
    *,
    algorithm: str,
    order: Order | None = None,
    mover_view: bool = False,
    max_nodes: int = 2_000,
) -> SearchedTree:
    """The tree a search of `state` looked at, rebuilt from its `trace` and its `result`.

    `order` must be the move order the search used; `mover_view` says the trace's scores are
    for the player to move at each node (negamax) rather than for the root player. ValueError
    when the trace is incomplete or is not the trace of one search of `state`.
    """
    if not trace.complete:
        raise ValueError(
            f"the trace dropped {trace.dropped:,} events past its limit of {trace.limit:,}:"
            " a picture needs the whole trace (record fewer plies with max_ply)"
        )
    builder = _Builder(game, state, order, mover_view, trace.max_ply, max_nodes)
    for event in trace.events:
        builder.replay(event)
    nodes = builder.freeze(result.pv)
    drawn = sum(1 for node in nodes if node.status != PRUNED)
    return SearchedTree(
        algorithm, nodes, tuple(builder.steps), result, trace.max_ply, result.stats.nodes - drawn
    )


def _too_big(max_nodes: int) -> ValueError:
    return ValueError(
        f"the search has more than {max_nodes:,} nodes to draw: show fewer plies"
        " (or a smaller tree)"
    )


@dataclass
class _Draft:
    """A node while the trace is being replayed."""

    index: int
    parent: int | None
    state: Any
    move: Any
    ply: int
    maximizing: bool
    status: str
    leaf: bool = False
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    cutoff: tuple[float, float] | None = None
    truncated: bool = False
    moves: list[Any] = field(default_factory=list)
    children: list[int] = field(default_factory=list)


class _Builder:
    """Replays trace events into drafts and steps, one event at a time."""

    def __init__(
        self,
        game: Game,
        root: Any,
        order: Order | None,
        mover_view: bool,
        max_ply: int | None,
        max_nodes: int,
    ) -> None:
        self.game = game
        self.root = root
        self.root_player = game.to_move(root)
        self.order = order
        self.mover_view = mover_view
        self.max_ply = max_ply
        self.max_nodes = max_nodes
        self.drafts: list[_Draft] = []
        self.open: list[_Draft] = []
        self.steps: list[Step] = []
        self.secured: float | None = None

    def replay(self, event: Event) -> None:
        value = self.for_root(event.state, event.value)
        if event.kind in (ENTER, LEAF, HIT):
            node = self.add_child(event)
            if event.kind == ENTER:
                node.alpha, node.beta = event.alpha, event.beta
                self.open.append(node)
            else:
                node.leaf, node.value = True, value
                self.secure(node)
            self.step(event, node, value)
        elif event.kind == CUTOFF:
            node = self.open[-1]
            bound = event.beta if node.maximizing else event.alpha
            node.cutoff = (value, bound)  # type: ignore[assignment]
            dark = self.prune(node)
            self.step(event, node, value, dark)
        elif event.kind == EXIT:
            node = self.open.pop()
            node.value = value
            node.truncated = not node.children
            self.secure(node)
            self.step(event, node, value)
        else:
            raise ValueError(f"unknown trace event kind {event.kind!r}")

    def for_root(self, state: Any, score: float | None) -> float | None:
        """A score turned to the root player's point of view."""
        if score is None or not self.mover_view or self.game.to_move(state) == self.root_player:
            return score
        return -score

    def add_child(self, event: Event) -> _Draft:
        """The draft of the node `event` happens at: the root, or the next move of the open node."""
        if not self.open:
            if self.drafts:
                raise ValueError("the trace has two roots: it is not the trace of one search")
            if event.state != self.root:
                raise ValueError("the trace starts at another position than the search's root")
            return self.new(None, event.state, None, event.ply, EXAMINED)
        parent = self.open[-1]
        if not parent.moves:
            parent.moves = self.ordered_moves(parent.state)
        if len(parent.children) >= len(parent.moves):
            raise ValueError(f"the trace visits more moves than node {parent.index} has")
        move = parent.moves[len(parent.children)]
        if self.game.result(parent.state, move) != event.state:
            raise ValueError("the trace does not follow the game's moves in the search's order")
        status = TABLE_HIT if event.kind == HIT else EXAMINED
        return self.new(parent, event.state, move, event.ply, status)

    def ordered_moves(self, state: Any) -> list[Any]:
        moves = self.game.legal_moves(state)
        return list(moves if self.order is None else self.order(state, moves))

    def new(self, parent: _Draft | None, state: Any, move: Any, ply: int, status: str) -> _Draft:
        if len(self.drafts) >= self.max_nodes:
            raise _too_big(self.max_nodes)
        maximizing = self.game.to_move(state) == self.root_player
        node = _Draft(len(self.drafts), None, state, move, ply, maximizing, status)
        if parent is not None:
            node.parent = parent.index
            parent.children.append(node.index)
        self.drafts.append(node)
        return node

    def prune(self, node: _Draft) -> tuple[int, ...]:
        """Add the moves `node` never examined, and their subtrees, as pruned nodes."""
        first = len(self.drafts)
        for move in node.moves[len(node.children) :]:
            self.add_pruned(node, move)
        return tuple(range(first, len(self.drafts)))

    def add_pruned(self, parent: _Draft, move: Any) -> None:
        state = self.game.result(parent.state, move)
        node = self.new(parent, state, move, parent.ply + 1, PRUNED)
        if self.game.is_terminal(state):
            node.leaf = True
            node.value = self.game.utility(state, self.root_player)
        elif self.max_ply is not None and node.ply >= self.max_ply:
            node.truncated = True
        else:
            node.moves = self.ordered_moves(state)
            for child_move in node.moves:
                self.add_pruned(node, child_move)

    def secure(self, node: _Draft) -> None:
        """After a move of the root is valued, MAX is sure of at least the best of them."""
        if node.ply == 1 and node.value is not None:
            self.secured = node.value if self.secured is None else max(self.secured, node.value)

    def step(self, event: Event, node: _Draft, value: float | None, dark: tuple = ()) -> None:
        self.steps.append(
            Step(event.kind, node.index, value, event.alpha, event.beta, self.secured, dark)
        )

    def freeze(self, pv: tuple) -> tuple[SearchedNode, ...]:
        """The finished nodes, with the principal variation marked from the root down."""
        if self.open or not self.drafts:
            raise ValueError("the trace ends inside a node: it is not the trace of a whole search")
        principal = {0}
        node = self.drafts[0]
        for move in pv:
            child = next((c for c in node.children if self.drafts[c].move == move), None)
            if child is None:
                break
            principal.add(child)
            node = self.drafts[child]
        return tuple(self.frozen(draft, draft.index in principal) for draft in self.drafts)

    def frozen(self, draft: _Draft, principal: bool) -> SearchedNode:
        parent = None if draft.parent is None else self.drafts[draft.parent]
        return SearchedNode(
            index=draft.index,
            parent=draft.parent,
            children=tuple(draft.children),
            state=draft.state,
            move=draft.move,
            move_text="" if parent is None else self.move_text(parent.state, draft.move),
            ply=draft.ply,
            maximizing=draft.maximizing,
            status=draft.status,
            leaf=draft.leaf,
            value=draft.value,
            alpha=draft.alpha,
            beta=draft.beta,
            cutoff=draft.cutoff,
            truncated=draft.truncated,
            principal=principal,
            picture=self.game.render(draft.state) if isinstance(self.game, Rendering) else "",
        )

    def move_text(self, state: Any, move: Any) -> str:
        if isinstance(self.game, MoveText):
            return self.game.format_move(state, move)
        return str(move)
