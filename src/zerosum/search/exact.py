"""Exact game-tree search: minimax, negamax and alpha-beta, as the textbooks write them.

All three return a `SearchResult` whose `value` is from the point of view of the player to
move at the root. Searched to the end (no `depth`) they compute the game-theoretic value
(Zermelo, von Neumann); with `depth` they stop that many plies below the root and call the
game's `evaluate` there (Shannon's type A, "h-minimax"), so the value is only as good as the
evaluation.

Options shared by all three:

- `depth`: plies to search before evaluating (None: to the end of the game);
- `order`: a function `(state, moves) -> moves` choosing the order moves are examined
  (`zerosum.search.ordering.by_priority` builds one from a list); it changes the work alpha-beta
  does, never the value;
- `distance`: score a win found sooner above one found later, and a loss found later above one
  found sooner (what a person playing against the program expects), on the engine's integer
  scale (`zerosum.search.scores`: an evaluation at the depth limit counts 1/1024ths of the
  utility scale, below every proven result). It needs integer utilities; the result then also
  gives `plies` to the end for a proven win or loss;
- `trace`: a `zerosum.search.trace.Trace` that records every node, leaf and cut-off;
- `max_nodes`: a limit on the nodes to visit (None: no bound); a search that would visit more stops
  with the ValueError of that `zerosum.limits.Limit` (what it bounds, its most, its cost);
- `progress`: called with the nodes visited so far every `REPORT_EVERY` nodes (a bar to draw).

The algorithms see a game only through the `Game` protocol, so they work for any game, and
for games where a player may move twice in a row: a node maximises when the player to move
is the root player, whatever its depth.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from math import inf
from typing import Any

from zerosum.game import Evaluating, Game, Player, require
from zerosum.limits import Limit
from zerosum.search.ordering import Order
from zerosum.search.result import SearchResult, SearchStats
from zerosum.search.scores import decode, distance_score, heuristic_score
from zerosum.search.trace import Trace

__all__ = ["alphabeta", "minimax", "negamax"]

Line = tuple[Any, ...]
"""A principal variation as the searches build it: `(move, rest)`, `rest` a line again, `()`
at its end; linked, not copied, at every improvement (`principal_variation` reads it)."""


def principal_variation(line: Line) -> tuple[Any, ...]:
    """The moves of a `Line`, first to last."""
    moves = []
    while line:
        move, line = line
        moves.append(move)
    return tuple(moves)


REPORT_EVERY = 1 << 16
"""Nodes between two calls of a search's `progress` (a few a second)."""


def minimax(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None = None,
    order: Order | None = None,
    distance: bool = False,
    trace: Trace | None = None,
    max_nodes: Limit | None = None,
    progress: Callable[[int], None] | None = None,
) -> SearchResult:
    """Minimax value of `state` for the player to move, in the explicit MAX/MIN form.

    Every move of every node is examined: from the empty tic-tac-toe board this reaches all
    255,168 finished games.
    """
    search = _Search(game, state, depth, order, distance, trace, max_nodes, progress)
    return search.finish(*search.minimax(state, 0))


def negamax(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None = None,
    order: Order | None = None,
    distance: bool = False,
    trace: Trace | None = None,
    max_nodes: Limit | None = None,
    progress: Callable[[int], None] | None = None,
) -> SearchResult:
    """Minimax value of `state` for the player to move, in negamax form.

    Each node scores its position for its own player to move and negates the children's
    scores (zero-sum: my gain is your loss), so one rule replaces the MAX and MIN cases. It
    examines exactly the nodes `minimax` does.
    """
    search = _Search(game, state, depth, order, distance, trace, max_nodes, progress)
    return search.finish(*search.negamax(state, 0))


def alphabeta(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None = None,
    order: Order | None = None,
    distance: bool = False,
    trace: Trace | None = None,
    max_nodes: Limit | None = None,
    progress: Callable[[int], None] | None = None,
    alpha: float = -inf,
    beta: float = inf,
) -> SearchResult:
    """Minimax value of `state` for the player to move, by alpha-beta pruning (Knuth and Moore).

    `alpha` is the score the maximising player (the root player) is already sure of along the
    current path, `beta` the score the minimising player is sure of. A MAX node stops as soon
    as its score reaches `beta` (`v >= beta`), a MIN node as soon as it falls to `alpha`
    (`v <= alpha`): equality is enough, which matters in games full of draws. Fail-soft: a node
    returns the best score it saw, which may lie outside the window.

    With the default infinite window the value is exact. With a narrower window the result
    `v` keeps Knuth and Moore's invariant: `alpha < v < beta` means `v` is exact, `v <= alpha`
    that the true value is at most `v`, `v >= beta` that it is at least `v`.
    """
    search = _Search(game, state, depth, order, distance, trace, max_nodes, progress)
    return search.finish(*search.alphabeta(state, 0, alpha, beta))


class _Search:
    """The state of one exact search: the options and the counters."""

    def __init__(
        self,
        game: Game[Any, Any],
        root: Any,
        depth: int | None,
        order: Order | None,
        distance: bool,
        trace: Trace | None,
        limit: Limit | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        if depth is not None:
            if depth < 0:
                raise ValueError(f"depth must be at least 0, got {depth}")
            if not game.is_terminal(root):
                require(game, Evaluating, "depth-limited search")
        self.game = game
        self.evaluate = game.evaluate if isinstance(game, Evaluating) else None
        self.root_player: Player = game.to_move(root)
        self.depth = depth
        self.horizon = -1 if depth is None else depth  # the ply that evaluates; -1: none
        self.order = order
        self.distance = distance
        self.trace = trace
        self.limit = limit
        self.most = sys.maxsize if limit is None else limit.most
        self.progress = progress
        self.nodes = self.terminals = self.evaluations = self.cutoffs = 0
        self.next_check = 0  # the node count past which `checkpoint` runs
        self.checkpoint()

    def checkpoint(self) -> None:
        """Stop the search past its limit; else report progress and set the next check (one
        comparison a node stands for both)."""
        if self.nodes > self.most:
            assert self.limit is not None
            self.limit.check(self.nodes)
        if self.progress is not None:
            self.progress(self.nodes)
            self.next_check = min(self.most, self.nodes + REPORT_EVERY)
        else:
            self.next_check = self.most

    def leaf_score(self, state: Any, ply: int, player: Player) -> float | None:
        """The score of `state` for `player` if the search stops at it, else None."""
        if self.game.is_terminal(state):
            return self.end_score(state, ply, player)
        if self.depth is not None and ply >= self.depth:
            return self.horizon_score(state, ply, player)
        return None

    def end_score(self, state: Any, ply: int, player: Player) -> float:
        """The score of the finished `state` for `player`: its utility."""
        self.terminals += 1
        utility = self.game.utility(state, player)
        score = distance_score(utility, ply) if self.distance else utility
        if self.trace is not None:
            self.trace.record("leaf", state, ply, score)
        return score

    def horizon_score(self, state: Any, ply: int, player: Player) -> float:
        """The score of `state` for `player` at the depth limit: its evaluation."""
        self.evaluations += 1
        assert self.evaluate is not None  # required with a depth limit
        estimate = self.evaluate(state, player)
        score = heuristic_score(estimate) if self.distance else estimate
        if self.trace is not None:
            self.trace.record("leaf", state, ply, score)
        return score

    def ordered(self, state: Any, moves: Sequence[Any]) -> Sequence[Any]:
        """`moves`, the legal moves of the non-terminal `state`, in the search's order; called
        only when there is an order or no move (ValueError: a game that forgot to end)."""
        if not moves:
            raise ValueError(f"state {state!r} is not terminal but has no legal moves")
        return moves if self.order is None else list(self.order(state, moves))

    def minimax(self, state: Any, ply: int) -> tuple[float, Line]:
        self.nodes += 1
        if self.nodes > self.next_check:
            self.checkpoint()
        score = self.leaf_score(state, ply, self.root_player)
        if score is not None:
            return score, ()
        if self.trace is not None:
            self.trace.record("enter", state, ply)
        maximizing = self.game.to_move(state) == self.root_player
        best = -inf if maximizing else inf
        best_pv: Line = ()
        moves = self.game.legal_moves(state)
        if not moves or self.order is not None:
            moves = self.ordered(state, moves)
        for move in moves:
            value, pv = self.minimax(self.game.result(state, move), ply + 1)
            if value > best if maximizing else value < best:
                best, best_pv = value, (move, pv)
        if self.trace is not None:
            self.trace.record("exit", state, ply, best)
        return best, best_pv

    def negamax(self, state: Any, ply: int) -> tuple[float, Line]:
        self.nodes += 1
        if self.nodes > self.next_check:
            self.checkpoint()
        player = self.game.to_move(state)
        score = self.leaf_score(state, ply, player)
        if score is not None:
            return score, ()
        if self.trace is not None:
            self.trace.record("enter", state, ply)
        best = -inf
        best_pv: Line = ()
        moves = self.game.legal_moves(state)
        if not moves or self.order is not None:
            moves = self.ordered(state, moves)
        for move in moves:
            child = self.game.result(state, move)
            value, pv = self.negamax(child, ply + 1)
            if self.game.to_move(child) != player:
                value = -value
            if value > best:
                best, best_pv = value, (move, pv)
        if self.trace is not None:
            self.trace.record("exit", state, ply, best)
        return best, best_pv

    def alphabeta(self, state: Any, ply: int, alpha: float, beta: float) -> tuple[float, Line]:
        # The hot loop of exact search, so that a node costs few calls beyond the game's own:
        # `leaf_score` written in line, `ordered` called only when there is work for it, the
        # bounds moved and the cut-off tested only when a move improves the best score
        # (nothing else can change them).
        self.nodes += 1
        if self.nodes > self.next_check:
            self.checkpoint()
        game = self.game
        if game.is_terminal(state):
            return self.end_score(state, ply, self.root_player), ()
        if ply == self.horizon:
            return self.horizon_score(state, ply, self.root_player), ()
        trace = self.trace
        if trace is not None:
            trace.record("enter", state, ply, None, alpha, beta)
        moves = game.legal_moves(state)
        if not moves or self.order is not None:
            moves = self.ordered(state, moves)
        result, search = game.result, self.alphabeta
        left = len(moves)  # moves not yet searched: a cut-off prunes them
        best_pv: Line = ()
        if game.to_move(state) == self.root_player:
            best = -inf
            for move in moves:
                left -= 1
                value, pv = search(result(state, move), ply + 1, alpha, beta)
                if value > best:
                    best, best_pv = value, (move, pv)
                    if best > alpha:
                        alpha = best
                    if best >= beta:  # MIN above would never let the game come here
                        self.cut(state, ply, best, alpha, beta, left > 0)
                        break
        else:
            best = inf
            for move in moves:
                left -= 1
                value, pv = search(result(state, move), ply + 1, alpha, beta)
                if value < best:
                    best, best_pv = value, (move, pv)
                    if best < beta:
                        beta = best
                    if best <= alpha:  # MAX above already has something at least as good
                        self.cut(state, ply, best, alpha, beta, left > 0)
                        break
        if trace is not None:
            trace.record("exit", state, ply, best, alpha, beta)
        return best, best_pv

    def cut(
        self, state: Any, ply: int, score: float, alpha: float, beta: float, pruning: bool
    ) -> None:
        """Count a cut-off, when moves were left unexamined (a bound met by the last move prunes
        nothing)."""
        if pruning:
            self.cutoffs += 1
            if self.trace is not None:
                self.trace.record("cutoff", state, ply, score, alpha, beta)

    def finish(self, score: float, line: Line) -> SearchResult:
        pv = principal_variation(line)
        if self.distance:  # exact when no evaluation was met
            decoded = decode(int(score), exact=self.evaluations == 0)
            value, plies = decoded.value, decoded.plies
        else:
            value, plies = score, None
        stats = SearchStats(self.nodes, self.terminals, self.evaluations, self.cutoffs)
        return SearchResult(value, pv[0] if pv else None, pv, stats, plies)
