"""A searched tree: what a search looked at, rebuilt from its trace, ready to be drawn.

The caller runs the search with a `Trace`; `from_trace(game, state, trace, result)` rebuilds
from the events the part of the game tree the search saw: every node it entered, with the
window it entered with and the score it returned, every leaf it reached, and the moves it
never examined because of a cut-off (the pruned branches). `engine_picture` does the same for
the last iteration of the engine's search, whose moves come in the order its heuristics chose,
whose null-window tries are searched again, and whose table answers some nodes at once. The
pictures (`text`, `svg`, `html`) draw this one value.

Every score in it is from the point of view of the player to move at the root (MAX), whatever
the algorithm: negamax's scores, which are for the player to move at each node, are turned
round. The `steps` replay the search event by event for the animation, with the score MAX has
secured at the root after each one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from math import inf
from typing import Any

from zerosum.game import Chance, Game, Keyed, MoveText, Rendering
from zerosum.limits import Limit, counted, shown
from zerosum.search.engine import INFINITY
from zerosum.search.ordering import Order
from zerosum.search.result import SearchResult
from zerosum.search.scores import decode
from zerosum.search.trace import CUTOFF, ENTER, EXIT, HIT, LEAF, Event, Trace

MOVER_VIEW = {"negamax"}
"""Algorithms whose scores are for the player to move at each node, not the root player."""

MAX_DRAWN = Limit(
    "the nodes of a picture",
    1_000_000,
    "a picture of a million nodes takes one to two minutes and 2 to 4 GB to draw, 400 MB as SVG",
    liftable=False,
)
"""The most nodes a picture may have (measured on a flat tree of a million leaves: rebuilt from
the trace in about a minute, its text drawn in 4 seconds, its SVG in 25 (407 MB), its HTML in
50 (484 MB), 2 to 4 GB at the most). The whole tree of tic-tac-toe, 549,946 nodes, fits."""

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
    but the picture does not (past `max_ply`, or a pruned subtree past the limit). `earlier` are
    the scores of the searches of this node that the search then repeated (the engine's
    null-window tries that might have been better): the node shows its last search. `picture`
    is the position as the game draws it (`Rendering`), or empty. `chance` marks a chance node
    (nobody moves there: its score is the expectation of its children's, expectiminimax), and
    `probability` is the chance of the outcome that leads to a chance node's child.
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
    earlier: tuple[float | None, ...] = ()
    picture: str = ""
    chance: bool = False
    probability: float | None = None


@dataclass(frozen=True)
class Step:
    """One event of the search, as the animation replays it.

    `node` is the index of the node the event happened at; `dark` the nodes a cut-off prunes
    (the unexamined branches and everything under them); `secured` the best score MAX has
    secured at the root once this step is done (None before the first move is valued). `again`
    marks the start of a second search of a node already searched. `expected` is, when the
    step values a chance node's child, that chance node's expectation so far: the sum of
    `p * score` over the children valued until now.
    """

    kind: str
    node: int
    value: float | None
    alpha: float | None
    beta: float | None
    secured: float | None
    dark: tuple[int, ...] = ()
    again: bool = False
    expected: float | None = None


@dataclass(frozen=True)
class SearchedTree:
    """What a search looked at: its nodes (`nodes[0]` is the root), its steps and its result.

    `max_ply` is the depth the picture stops at (None: the whole search is drawn) and
    `left_out` the number of nodes the search entered that the picture omits: below `max_ply`,
    or (`repeated` of them) in first searches of a node that were then repeated.
    """

    algorithm: str
    nodes: tuple[SearchedNode, ...]
    steps: tuple[Step, ...]
    result: SearchResult
    max_ply: int | None
    left_out: int
    repeated: int = 0

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
            f" {self.algorithm}: {counted(stats.nodes, 'node')},"
            f" {counted(stats.cutoffs, 'cut-off')}"
        )
        if self.max_ply is None:
            return text + f"; leaves examined {examined} of {examined + pruned}, pruned {pruned}"
        plies = {0: "the root only", 1: "the first ply"}.get(
            self.max_ply, f"the first {self.max_ply} plies"
        )
        repeated = " or in first searches that were repeated" if self.repeated else ""
        return text + (
            f"; drawn: {plies} ({counted(len(self.nodes), 'node')}), left out:"
            f" {counted(self.left_out, 'node')} searched below ply {self.max_ply}{repeated}"
        )

    @property
    def searched_again(self) -> int:
        """How many drawn nodes were searched more than once (the picture shows the last)."""
        return sum(1 for node in self.nodes if node.earlier)


def format_score(score: float | None) -> str:
    """A score as a person writes it: 3, 2.5, ∞, -∞ (or ? when unknown)."""
    if score is None:
        return "?"
    if score in (inf, -inf):
        return "∞" if score > 0 else "-∞"
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def engine_picture(
    game: Game,
    state: Any,
    trace: Trace,
    result: SearchResult,
    *,
    depth: int,
    iteration: int,
    max_nodes: int = 150,
) -> SearchedTree:
    """The last iteration of an engine's search of `state`, scores for MAX.

    `trace` is the engine's (it keeps its last iteration, to depth `iteration`, recorded to
    `depth` plies) and `result` that iteration's answer and counts, scores as the engine's
    integers. The picture keeps as many of the first `depth` plies as fit in `max_nodes` nodes
    (the deepest go first), and counts in `left_out` what it leaves out. Scores are drawn on
    the game's utility scale: an estimate to three decimals, a proven result as the game's
    utility. ValueError when `max_nodes` is not from 1 to `MAX_DRAWN`, or the trace is
    incomplete.
    """
    check_drawn(max_nodes)
    last = replace(result, value=engine_value(result.value))
    label = f"engine, depth {iteration} (its last iteration)"

    def draw(plies: int) -> SearchedTree:
        kept = Trace(trace.limit, plies, [event for event in trace.events if event.ply <= plies])
        return from_trace(
            game,
            state,
            kept,
            last,
            algorithm=label,
            mover_view=True,
            scale=engine_value,
            expand_pruned=False,
            max_nodes=max_nodes,
        )

    for plies in range(depth, 0, -1):  # the deepest plies go first when it does not fit
        try:
            return draw(plies)
        except _TooBig:
            continue
    return draw(0)  # the root alone


def engine_value(score: float) -> float:
    """An engine score on the utility scale: ±∞ beyond every score, a proven result's utility,
    an estimate rounded to three decimals."""
    if abs(score) >= INFINITY:
        return inf if score > 0 else -inf
    decoded = decode(int(score))
    return decoded.value if decoded.proven else round(decoded.value, 3)


def from_trace(
    game: Game,
    state: Any,
    trace: Trace,
    result: SearchResult,
    *,
    algorithm: str,
    order: Order | None = None,
    mover_view: bool | None = None,
    scale: Callable[[float], float] | None = None,
    expand_pruned: bool = True,
    max_nodes: int = 2_000,
) -> SearchedTree:
    """The tree a search of `state` looked at, rebuilt from its `trace` and its `result`.

    A node's children are found by their positions, so moves may come in any order (as the
    engine's ordering heuristics choose them); a child entered again at once is a repeated
    search, and the picture keeps the last one. Pruned moves are listed in `order`, the game's
    order by default, and their subtrees drawn too unless `expand_pruned` is false.
    `mover_view` says the trace's scores and windows are for the player to move at each node
    (negamax, the engine) rather than for the root player (by default, as `algorithm` records
    them); `scale` turns the trace's scores into the values drawn. ValueError when the trace is
    incomplete or holds more than `max_nodes` nodes to draw (itself from 1 to `MAX_DRAWN`), or
    is not the trace of one search of `state`.
    """
    check_drawn(max_nodes)
    if mover_view is None:
        mover_view = algorithm in MOVER_VIEW
    if not trace.complete:
        raise ValueError(
            f"the trace dropped {trace.dropped:,} events past its limit of {trace.limit:,}:"
            " a picture needs the whole trace (record fewer plies with max_ply)"
        )
    builder = _Builder(
        game, state, order, mover_view, scale, expand_pruned, trace.max_ply, max_nodes
    )
    for event in trace.events:
        builder.replay(event)
    nodes, steps = builder.freeze(result.pv)
    drawn = sum(1 for node in nodes if node.status != PRUNED)
    left_out = result.stats.nodes - drawn
    return SearchedTree(algorithm, nodes, steps, result, trace.max_ply, left_out, builder.repeated)


def check_drawn(max_nodes: int) -> None:
    """ValueError unless `max_nodes` is a number of nodes a picture may have (from the root
    alone to `MAX_DRAWN`)."""
    if max_nodes < 1:
        raise ValueError(
            f"a picture has at least its root: at least 1 node, not {shown(max_nodes)}"
        )
    MAX_DRAWN.check(max_nodes)


class _TooBig(ValueError):
    """The picture would have more nodes than it may."""


def _too_big(max_nodes: int) -> ValueError:
    return _TooBig(
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
    first_step: int
    leaf: bool = False
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    cutoff: tuple[float, float] | None = None
    truncated: bool = False
    discarded: bool = False
    moves: list[Any] | None = None  # in the order searched, once a child is met
    probabilities: list[float] | None = None  # a chance node's, one for each of `moves`
    chance: bool = False
    probability: float | None = None
    expected: float = 0.0  # a chance node's: the sum of p * score over its children valued
    tried: list[bool] = field(default_factory=list)  # which of `moves` have a child drawn
    untried: int = 0  # no move before this one is untried: where the next child is sought
    results: dict[int, Any] = field(default_factory=dict)  # the positions of moves, by index
    children: list[int] = field(default_factory=list)
    earlier: list[float | None] = field(default_factory=list)


def _position_of(game: Game, root: Any) -> Callable[[Any], Any]:
    """What the replay compares a state by to find it among the moves' results: the state
    itself, or its key where the game's states have no equality of their own (OpenSpiel's: two
    objects of one position differ)."""
    if type(root).__eq__ is object.__eq__ and isinstance(game, Keyed):
        return game.key
    return lambda state: state


class _Builder:
    """Replays trace events into drafts and steps, one event at a time.

    Its work is linear in the events and the nodes drawn when the search examines moves in
    the order the builder lists them (the exact searches, and every pruned branch): each
    child is found by trying the next untried move first. A search that reorders its moves
    (the engine) costs a scan of the untried moves per child.
    """

    def __init__(
        self,
        game: Game,
        root: Any,
        order: Order | None,
        mover_view: bool,
        scale: Callable[[float], float] | None,
        expand_pruned: bool,
        max_ply: int | None,
        max_nodes: int,
    ) -> None:
        self.game = game
        self.root = root
        self.root_player = game.to_move(root)
        self.order = order
        self.mover_view = mover_view
        self.scale = scale
        self.expand_pruned = expand_pruned
        self.max_ply = max_ply
        self.max_nodes = max_nodes
        self.drafts: list[_Draft] = []
        self.live = 0  # drafts not discarded by a repeated search
        self.repeated = 0  # nodes entered in searches that were repeated
        self.open: list[_Draft] = []
        self.steps: list[Step] = []
        self.secured: float | None = None
        # asked once, not at every node: a check against a protocol is slow
        self.chance = game if isinstance(game, Chance) else None
        self.render = game.render if isinstance(game, Rendering) else None
        self.format_move = game.format_move if isinstance(game, MoveText) else None
        self.position = _position_of(game, root)

    def replay(self, event: Event) -> None:
        value, alpha, beta = self.for_root(event)
        if event.kind in (ENTER, LEAF, HIT):
            node, again = self.add_child(event)
            if event.kind == ENTER:
                node.alpha, node.beta = alpha, beta
                self.open.append(node)
            else:
                node.leaf, node.value = True, value
                self.secure(node)
            self.step(event.kind, node, value, alpha, beta, again=again)
            if event.kind != ENTER:
                self.expect(node)
        elif event.kind == CUTOFF:
            node = self.open[-1]
            bound = beta if node.maximizing else alpha
            if value is None or bound is None:
                raise ValueError("a cut-off without its score and window: not a search's trace")
            node.cutoff = (value, bound)
            dark = self.prune(node)
            self.step(event.kind, node, value, alpha, beta, dark)
        elif event.kind == EXIT:
            node = self.open.pop()
            node.value = value
            node.truncated = not node.children
            self.secure(node)
            self.step(event.kind, node, value, alpha, beta)
            self.expect(node)
        else:
            raise ValueError(f"unknown trace event kind {event.kind!r}")

    def for_root(self, event: Event) -> tuple[float | None, float | None, float | None]:
        """The event's score and window, scaled and turned to the root player's point of view."""
        value, alpha, beta = event.value, event.alpha, event.beta
        if self.scale is not None:
            value, alpha, beta = (
                None if x is None else self.scale(x) for x in (value, alpha, beta)
            )
        if self.mover_view and self.game.to_move(event.state) != self.root_player:
            value = None if value is None else -value
            if alpha is not None and beta is not None:  # MIN's window is MAX's turned round
                alpha, beta = -beta, -alpha
        return value, alpha, beta

    def add_child(self, event: Event) -> tuple[_Draft, bool]:
        """The draft of the node `event` happens at (the root, or a child of the open node), and
        whether it is a repeated search of the child searched just before."""
        status = TABLE_HIT if event.kind == HIT else EXAMINED
        if not self.open:
            if self.drafts:
                raise ValueError("the trace has two roots: it is not the trace of one search")
            if self.position(event.state) != self.position(self.root):
                raise ValueError("the trace starts at another position than the search's root")
            return self.new(None, event.state, None, event.ply, status), False
        parent = self.open[-1]
        moves = self.moves_of(parent)
        index = self.untried_move_to(parent, event.state)
        if index is not None:
            parent.tried[index] = True
            child = self.new(parent, event.state, moves[index], event.ply, status)
            return self.with_probability(child, parent, index), False
        last = self.drafts[parent.children[-1]] if parent.children else None
        if last is not None and self.position(last.state) == self.position(event.state):
            return self.again(self.drafts[parent.children[-1]], status), True
        raise ValueError(
            f"the trace enters a position that is not an unsearched child of node {parent.index}"
        )

    def moves_of(self, node: _Draft) -> list[Any]:
        """`node`'s moves in the order listed (found once), with none tried yet: a chance
        node's outcomes in the game's order, with their probabilities."""
        if node.moves is None:
            if node.chance:
                assert self.chance is not None
                outcomes = self.chance.chance_outcomes(node.state)
                node.moves = [outcome for outcome, _ in outcomes]
                node.probabilities = [p for _, p in outcomes]
            else:
                node.moves = self.ordered_moves(node.state)
            node.tried = [False] * len(node.moves)
        return node.moves

    def untried_move_to(self, node: _Draft, state: Any) -> int | None:
        """The index of the first untried move of `node` that leads to `state`, or None.

        The next untried move is tried first: a search that follows the listed order finds
        each child at once, so the replay stays linear.
        """
        moves, tried = self.moves_of(node), node.tried
        while node.untried < len(moves) and tried[node.untried]:
            node.untried += 1
        position = self.position(state)
        for index in range(node.untried, len(moves)):
            if not tried[index] and self.position(self.position_after(node, index)) == position:
                return index
        return None

    def position_after(self, node: _Draft, index: int) -> Any:
        """The position `node`'s move `index` leads to (computed once)."""
        if index not in node.results:
            assert node.moves is not None
            node.results[index] = self.game.result(node.state, node.moves[index])
        return node.results[index]

    def again(self, node: _Draft, status: str) -> _Draft:
        """`node` searched once more: its earlier search (score, subtree, steps) is replaced."""
        node.earlier.append(node.value)
        self.repeated += 1
        for index in node.children:
            self.discard(self.drafts[index])
        del self.steps[node.first_step :]
        self.secured = self.steps[-1].secured if self.steps else None
        node.children, node.status, node.leaf, node.value = [], status, False, None
        node.alpha = node.beta = node.cutoff = None
        node.truncated = False
        node.tried, node.untried = [False] * len(node.tried), 0
        node.expected = 0.0
        return node

    def discard(self, node: _Draft) -> None:
        """Forget `node` and everything below it (a first search that was repeated)."""
        below = [node]
        while below:
            draft = below.pop()
            draft.discarded = True
            self.live -= 1
            if draft.status != PRUNED:
                self.repeated += 1
            below.extend(self.drafts[index] for index in draft.children)

    def ordered_moves(self, state: Any) -> list[Any]:
        moves = self.game.legal_moves(state)
        return list(moves if self.order is None else self.order(state, moves))

    def new(self, parent: _Draft | None, state: Any, move: Any, ply: int, status: str) -> _Draft:
        if self.live >= self.max_nodes:
            raise _too_big(self.max_nodes)
        maximizing = self.game.to_move(state) == self.root_player
        node = _Draft(len(self.drafts), None, state, move, ply, maximizing, status, len(self.steps))
        node.chance = self.chance is not None and self.chance.is_chance(state)
        if parent is not None:
            node.parent = parent.index
            parent.children.append(node.index)
        self.drafts.append(node)
        self.live += 1
        return node

    def prune(self, node: _Draft) -> tuple[int, ...]:
        """Add the moves `node` never examined, and their subtrees, as pruned nodes."""
        first = len(self.drafts)
        if node.moves is not None:
            for index, tried in enumerate(node.tried):
                if not tried:
                    self.add_pruned(node, index)
        return tuple(range(first, len(self.drafts)))

    def add_pruned(self, parent: _Draft, index: int) -> None:
        """Add `parent`'s move `index` as a pruned node, and its subtree below it when drawn:
        depth first, each node before its children, without recursion."""
        stack = [(parent, index)]
        while stack:
            above, move_index = stack.pop()
            assert above.moves is not None
            state = self.position_after(above, move_index)
            node = self.new(above, state, above.moves[move_index], above.ply + 1, PRUNED)
            self.with_probability(node, above, move_index)
            if self.game.is_terminal(state):
                node.leaf = True
                node.value = self.game.utility(state, self.root_player)
            elif not self.expand_pruned or (self.max_ply is not None and node.ply >= self.max_ply):
                node.truncated = True
            else:
                moves = self.moves_of(node)
                stack.extend((node, below) for below in range(len(moves) - 1, -1, -1))

    def with_probability(self, node: _Draft, parent: _Draft, index: int) -> _Draft:
        """`node`, given the probability of its outcome when `parent` is a chance node."""
        if parent.probabilities is not None:
            node.probability = parent.probabilities[index]
        return node

    def expect(self, node: _Draft) -> None:
        """Once a chance node's child is valued, the chance node's expectation so far grows by
        the child's share, and the step that valued the child says what it has become."""
        if node.probability is None or node.value is None or node.parent is None:
            return
        parent = self.drafts[node.parent]
        parent.expected += node.probability * node.value
        self.steps[-1] = replace(self.steps[-1], expected=parent.expected)

    def secure(self, node: _Draft) -> None:
        """After a move of the root is valued, MAX is sure of at least the best of them (at a
        chance root nobody moves: nothing is secured)."""
        if node.ply == 1 and node.value is not None and not self.drafts[0].chance:
            self.secured = node.value if self.secured is None else max(self.secured, node.value)

    def step(
        self,
        kind: str,
        node: _Draft,
        value: float | None,
        alpha: float | None,
        beta: float | None,
        dark: tuple = (),
        again: bool = False,
    ) -> None:
        self.steps.append(Step(kind, node.index, value, alpha, beta, self.secured, dark, again))

    def freeze(self, pv: tuple) -> tuple[tuple[SearchedNode, ...], tuple[Step, ...]]:
        """The finished nodes, numbered afresh without the discarded ones, with the principal
        variation marked from the root down; and the steps, numbered the same way."""
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
        kept = [draft for draft in self.drafts if not draft.discarded]
        number = {draft.index: new for new, draft in enumerate(kept)}
        nodes = tuple(self.frozen(draft, number, draft.index in principal) for draft in kept)
        steps = tuple(
            Step(
                step.kind,
                number[step.node],
                step.value,
                step.alpha,
                step.beta,
                step.secured,
                tuple(number[i] for i in step.dark) if step.dark else (),
                step.again,
                step.expected,
            )
            for step in self.steps
        )
        return nodes, steps

    def frozen(self, draft: _Draft, number: dict[int, int], principal: bool) -> SearchedNode:
        parent = None if draft.parent is None else self.drafts[draft.parent]
        return SearchedNode(
            index=number[draft.index],
            parent=None if draft.parent is None else number[draft.parent],
            children=tuple(number[index] for index in draft.children),
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
            earlier=tuple(draft.earlier),
            picture="" if self.render is None else self.render(draft.state),
            chance=draft.chance,
            probability=draft.probability,
        )

    def move_text(self, state: Any, move: Any) -> str:
        if self.format_move is not None:
            return self.format_move(state, move)
        return str(move)
