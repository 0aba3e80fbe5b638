"""Searches run with a trace for a picture: what an exact search, the engine or a tree's search
looked at, rebuilt as a `SearchedTree` that `zerosum.show.text`, `svg` and `html` draw. The
command (`zerosum explain`, `zerosum tree --show`) and the page draw the same trees.

Their limits: an exact search drawn stops at `SEARCHED` nodes, an engine's at `TRACE_LIMIT`
events and `ENGINE_DEPTH` plies, a picture has at most `MAX_DRAWN` nodes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum.game import Game
from zerosum.games.tree import Tree
from zerosum.limits import Limit, clipped, shown
from zerosum.notation import move_order
from zerosum.search.deepening import Iteration
from zerosum.search.engine import Engine
from zerosum.search.expectiminimax import expectiminimax
from zerosum.search.ordering import Order, by_value
from zerosum.search.result import SearchResult, SearchStats
from zerosum.search.trace import Trace
from zerosum.show.searched import MAX_DRAWN, SearchedTree, engine_picture, from_trace
from zerosum.solve.answer import SEARCHES

ENGINE_MAX_NODES = 150
"""The most nodes of an engine's picture unless asked: its deepest plies are left out to fit."""
EXACT_MAX_NODES = 2_000
"""The most nodes of an exact search's picture unless asked: a larger one is refused."""
SEARCHED = Limit(
    "the nodes of an exact search explain draws",
    2_000_000,
    "a search to the end visits about 400,000 nodes a second here, and a picture shows a few"
    " thousand of them: beyond, show a later position (zerosum solve searches further)",
    liftable=False,
)
TRACE_LIMIT = 200_000
"""Events an engine explanation keeps (a few tens of megabytes): a search to depth 9 of Connect
Four makes about a quarter of them. The search stops as soon as one iteration makes more."""

ENGINE_DEPTH = Limit(
    "the --depth of an engine's search to draw",
    100,
    "a deeper search would never end, and would call itself past Python's limit",
    liftable=False,
)
"""The deepest engine search explained, as `zerosum uci` searches at most: a search stops long
before (at `TRACE_LIMIT` events, depth 10 to 12 in Connect Four), this bounds the recursion."""


ORDERS = ("best", "worst")
"""The orders `--order` names in words, beside a list of moves: each node's moves best first
or worst first for the player to move there, by their exact values."""


def traced_search(
    game: Game,
    state: Any,
    *,
    algorithm: str = "alphabeta",
    order: Order | None = None,
    max_ply: int | None = None,
    max_nodes: int = EXACT_MAX_NODES,
) -> SearchedTree:
    """What an exact search of `state` to the end looked at, its first `max_ply` plies drawn
    (all by default); ValueError when the picture would have more than `max_nodes` nodes, or
    the search more than `SEARCHED` (a search to the end that would run for minutes)."""
    if algorithm not in TRACED:
        known = ", ".join(TRACED)
        raise ValueError(f"unknown algorithm {algorithm!r}: choose one of {known}")
    trace = Trace(limit=3 * max_nodes + 1, max_ply=max_ply)  # at most 3 events a node
    bound = {"max_nodes": SEARCHED} if algorithm in SEARCHES else {}
    result = TRACED[algorithm](game, state, order=order, trace=trace, **bound)
    if not trace.complete:
        raise ValueError(
            f"the search has more than {max_nodes:,} nodes to draw: show fewer plies"
            " (or a smaller tree)"
        )
    return from_trace(game, state, trace, result, algorithm=algorithm, order=order,
                      max_nodes=max_nodes)  # fmt: skip


def _traced_expectiminimax(
    game: Game, state: Any, *, order: Order | None, trace: Trace
) -> SearchResult:
    """Expectiminimax as a picture can replay it: alpha-beta at the players' nodes, every
    outcome of a chance node searched (no table: each node drawn where the search met it)."""
    return expectiminimax(
        game, state, pruning="alphabeta", order=order, trace=trace, transposition=False
    )


TRACED: dict[str, Callable[..., SearchResult]] = {
    **SEARCHES,
    "expectiminimax": _traced_expectiminimax,
}
"""The searches `traced_search` draws, by name: the exact ones, and expectiminimax for games
with chance nodes."""


def traced_engine(
    game: Game, state: Any, depth: int, *, table: bool = True, max_nodes: int = ENGINE_MAX_NODES
) -> SearchedTree:
    """The last iteration of the engine's search of `state` to `depth`, as many of its plies
    drawn as fit in `max_nodes` nodes."""
    if not 1 <= depth <= ENGINE_DEPTH.most:
        raise ValueError(
            f"--depth is the plies the engine searches: from 1 to {ENGINE_DEPTH.most}"
            f" ({ENGINE_DEPTH.cost}), not {shown(depth)}"
        )
    if game.is_terminal(state):
        raise ValueError("the game is over in this position: there is no search to draw")
    trace = _StoppingTrace(limit=TRACE_LIMIT, max_ply=depth)
    engine = Engine(game, table=table, trace=trace)
    trace.when_full = engine.stop
    totals = [SearchStats()]  # the engine's counts after each iteration
    finished = [0]  # the depth of the last iteration finished

    def add_totals(iteration: Iteration) -> None:
        if iteration.complete:
            finished.append(iteration.depth)
        totals.append(
            SearchStats(engine.nodes, engine.terminals, engine.evaluations, engine.cutoffs)
        )

    result = engine.search(state, depth=depth, on_iteration=add_totals)
    if not trace.complete or engine.stopped is not None:
        reached = finished[-1] + 1  # the iteration that was stopped
        raise ValueError(
            f"the search to depth {depth} makes more than {TRACE_LIMIT:,} events to draw"
            f" (stopped at depth {reached}): ask for fewer plies"
        )
    before, after = totals[-2], totals[-1]
    stats = SearchStats(
        after.nodes - before.nodes,
        after.terminals - before.terminals,
        after.evaluations - before.evaluations,
        after.cutoffs - before.cutoffs,
    )
    last = SearchResult(result.score, result.best_move, result.pv, stats)
    return engine_picture(
        game, state, trace, last, depth=depth, iteration=result.depth, max_nodes=max_nodes
    )


@dataclass
class _StoppingTrace(Trace):
    """A trace that calls `when_full` (the engine's `stop`) when it first drops an event:
    a picture needs the whole trace, so the search need not go on."""

    when_full: Callable[[], None] | None = None

    def record(
        self,
        kind: str,
        state: Any,
        ply: int,
        value: float | None = None,
        alpha: float | None = None,
        beta: float | None = None,
    ) -> None:
        super().record(kind, state, ply, value, alpha, beta)
        if self.dropped == 1 and self.when_full is not None:
            self.when_full()


def tree_order(tree: Tree, text: str | None) -> Order | None:
    """The order `--order` names for `tree`: None (as written), `best`, `worst`, or moves to
    examine first ("2,0,1"). ValueError, `--order`'s message, for any other text."""
    if text is None or not text.strip():
        return None
    word = text.strip().lower()
    if word in ORDERS:
        values = tree.values()
        return by_value(tree, values.__getitem__, best=word == "best")
    players = [path for path, node in tree.nodes.items() if isinstance(node, list)]
    if not players:
        raise ValueError(f"bad --order {clipped(text)}: the tree has no player's node to order")
    try:
        order = move_order(tree, players[0], text)
    except ValueError as error:
        raise ValueError(f"{error}, or best or worst") from None
    widest = max(len(tree.nodes[path]) for path in players)
    for word in text.split(","):
        if int(word) >= widest:
            raise ValueError(
                f"bad --order {clipped(text)}: the tree's moves are 0 to {widest - 1},"
                f" not {word.strip()}"
            )
    return order


def traced_tree(tree: Tree, algorithm: str, order: Order | None = None) -> SearchedTree:
    """The whole search of `tree`, traced for a picture: by `algorithm`, or by expectiminimax
    when the tree has chance nodes (as the command searches it), moves in `order`."""
    return traced_search(
        tree,
        tree.initial_state(),
        algorithm="expectiminimax" if tree.has_chance else algorithm,
        order=order,
        max_nodes=min(len(tree.nodes), MAX_DRAWN.most),
    )
