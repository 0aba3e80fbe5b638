"""Expectiminimax: minimax over games with dice, with Ballard's pruning at chance nodes.

At a player node the value is the maximum (root player to move) or the minimum (the other) of
the children's values, as in minimax; at a chance node it is the expectation
`sum(p * value(child))` over the outcomes the game lists, each child weighted once by its
probability. The returned `value` is from the point of view of the player to move at the root
(for a chance root, the player `to_move` names there).

`depth` counts the players' plies: chance levels are free unless `count_chance` is set, so
`depth=2` in backgammon is "my move, the opponent's roll, the opponent's move", evaluated with
the game's `evaluate` wherever the count runs out (a chance node included). Because the
expectation adds values up, the evaluation's scale matters here, not only its order: a
monotone transformation that leaves minimax's choice alone can change expectiminimax's.

Pruning (`pruning=`):

- `"none"`: every node is searched, the textbook recursion;
- `"alphabeta"`: alpha-beta at player nodes, chance nodes averaged exactly (the default when
  the game declares no bounds);
- `"star1"`: Ballard's Star1 (1983). With the bounds `L <= value <= U` the game declares
  (`Bounded`), a chance node knows its value lies between `sum(p * lower)` and
  `sum(p * upper)` of its children's current bounds; it gives each child the narrowest window
  that could still change its verdict and stops as soon as the whole expectation is known to
  fall outside its own window;
- `"star2"` (the default with bounds): Star1 preceded by a probing pass that searches only the
  first move of each child, a cheap lower bound under a maximising child and an upper bound
  under a minimising one, which often settles the cut before any child is searched in full.

All four return the same value (up to float rounding of the sums). A transposition table
keyed by the game's `key` and the remaining depth, with bound types, serves player and chance
nodes when the game is `Keyed`.

`trace=` (a `zerosum.search.trace.Trace`) records the search as the exact searches do, every
score for the root player: a chance node is entered and left like a player node, its children
searched in the order of its outcomes with the full window, its score the expectation. Only
the searches that enter every node they value can be traced (`"none"` and `"alphabeta"`):
Star2's probes value a grandchild before its parent, which no picture of a tree can replay.

`rank_moves` values every move of a position, not only the best (what a backgammon analysis
lists): each move's position is searched with a full window of its own, so the values of the
second and later moves are exact where a single search would only bound them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import fsum, inf
from typing import Any, Literal

from zerosum.game import Bounded, Chance, Evaluating, Game, Keyed, Player, require
from zerosum.search.ordering import Order
from zerosum.search.result import SearchResult, SearchStats
from zerosum.search.table import bound_type, decides
from zerosum.search.trace import CUTOFF, ENTER, EXIT, HIT, LEAF, Trace

__all__ = ["MoveValue", "Pruning", "expectiminimax", "rank_moves"]

Pruning = Literal["none", "alphabeta", "star1", "star2"]
PRUNINGS: tuple[Pruning, ...] = ("none", "alphabeta", "star1", "star2")


def expectiminimax(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None = None,
    count_chance: bool = False,
    pruning: Pruning | None = None,
    order: Order | None = None,
    transposition: bool = True,
    trace: Trace | None = None,
) -> SearchResult:
    """Expectiminimax value of `state` for the player to move there, and the best move.

    `pv` holds the moves of the line of best play up to the first chance node (what follows
    depends on the dice). `stats.cutoffs` counts alpha-beta cut-offs at player nodes and
    Star1/Star2 cut-offs at chance nodes together.
    """
    require(game, Chance, "expectiminimax")
    if depth is not None:
        if depth < 0:
            raise ValueError(f"depth must be at least 0, got {depth}")
        if not game.is_terminal(state):
            require(game, Evaluating, "depth-limited expectiminimax")
    if pruning is None:
        pruning = "star2" if isinstance(game, Bounded) else "alphabeta"
    if pruning not in PRUNINGS:
        raise ValueError(f"unknown pruning {pruning!r}: choose one of {', '.join(PRUNINGS)}")
    if pruning in ("star1", "star2"):
        require(game, Bounded, f"{pruning} pruning at chance nodes")
        if trace is not None:
            raise ValueError(
                f"{pruning} pruning cannot be traced (its probes value nodes before their"
                " parents): trace the search with pruning 'none' or 'alphabeta'"
            )
    search = _Search(game, state, count_chance, pruning, order, transposition, trace)
    score, pv = search.value(state, depth, -inf, inf)
    stats = SearchStats(search.nodes, search.terminals, search.evaluations, search.cutoffs)
    return SearchResult(score, pv[0] if pv else None, pv, stats)


@dataclass(frozen=True)
class MoveValue:
    """One move with its expectiminimax value for the player to move before it, and the nodes
    its search entered."""

    move: Any
    value: float
    nodes: int


def rank_moves(
    game: Game[Any, Any],
    state: Any,
    *,
    depth: int | None = None,
    count_chance: bool = False,
    pruning: Pruning | None = None,
    transposition: bool = True,
) -> tuple[MoveValue, ...]:
    """Every legal move of `state` with its exact value for the player to move, best first.

    `depth` counts the plies as `expectiminimax` does, the move itself being the first (so
    `depth=1` judges the position after each move with the game's evaluation). Moves of equal
    value keep the game's order. ValueError at a finished game or where the dice are still to
    be rolled.
    """
    require(game, Chance, "ranking moves by expectiminimax")
    assert isinstance(game, Chance)  # `require` said so
    if game.is_terminal(state):
        raise ValueError("the game is over: there is no move to rank")
    if game.is_chance(state):
        raise ValueError("the position waits for a roll of the dice: give the roll first")
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1 (the move itself), got {depth}")
    player = game.to_move(state)
    below = None if depth is None else depth - 1
    ranked = []
    for move in game.legal_moves(state):
        child = game.result(state, move)
        result = expectiminimax(
            game,
            child,
            depth=below,
            count_chance=count_chance,
            pruning=pruning,
            transposition=transposition,
        )
        value = result.value if game.to_move(child) == player else -result.value
        ranked.append(MoveValue(move, value, result.stats.nodes))
    return tuple(sorted(ranked, key=lambda entry: -entry.value))


class _Search:
    """One expectiminimax search: its options, the table and the counters.

    Every score is from the root player's point of view, so player nodes are MAX or MIN nodes
    and windows `(alpha, beta)` keep their alpha-beta meaning throughout.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        root: Any,
        count_chance: bool,
        pruning: Pruning,
        order: Order | None,
        transposition: bool,
        trace: Trace | None = None,
    ) -> None:
        assert isinstance(game, Chance)  # `expectiminimax` required it
        self.game = game
        self.trace = trace
        self.evaluate = game.evaluate if isinstance(game, Evaluating) else None
        self.root_player: Player = game.to_move(root)
        self.count_chance = count_chance
        self.pruning = pruning
        self.order = order
        # the table, by key and depth: (score, bound type, best move); no key, no table
        self.key = game.key if transposition and isinstance(game, Keyed) else None
        self.table: dict[tuple[Hashable, int | None], tuple[float, int, Any]] = {}
        if pruning in ("star1", "star2"):
            assert isinstance(game, Bounded)  # `expectiminimax` required it for Star1 and Star2
            low, high = game.value_bounds()
            self.low, self.high = (low, high) if self.root_player == 0 else (-high, -low)
        self.nodes = self.terminals = self.evaluations = self.cutoffs = 0

    def leaf_score(self, state: Any, depth: int | None) -> float | None:
        """The root player's score of `state` if the search stops there, else None."""
        if self.game.is_terminal(state):
            self.terminals += 1
            return self.game.utility(state, self.root_player)
        if depth == 0:
            self.evaluations += 1
            assert self.evaluate is not None  # `expectiminimax` required it with a depth limit
            return self.evaluate(state, self.root_player)
        return None

    def value(
        self, state: Any, depth: int | None, alpha: float, beta: float, ply: int = 0
    ) -> tuple[float, tuple[Any, ...]]:
        """Fail-soft score of `state` within `(alpha, beta)` and its line (Knuth-Moore invariant).

        The table answers when it holds an exact score, or a bound that already settles the
        window; otherwise the node is searched and its score stored with its bound type.
        """
        self.nodes += 1
        trace = self.trace
        score = self.leaf_score(state, depth)
        if score is not None:
            if trace is not None:
                trace.record(LEAF, state, ply, score)
            return score, ()
        key = self.key
        hash_move = None
        if key is not None:
            entry_key = (key(state), depth)
            entry = self.table.get(entry_key)
            if entry is not None:
                stored, bound, hash_move = entry
                if decides(bound, stored, alpha, beta):
                    if trace is not None:
                        trace.record(HIT, state, ply, stored)
                    return stored, () if hash_move is None else (hash_move,)
        if trace is not None:
            trace.record(ENTER, state, ply, None, alpha, beta)
        if self.game.is_chance(state):
            below = depth if depth is None or not self.count_chance else depth - 1
            if self.pruning in ("star1", "star2"):
                score, pv = self.star(state, below, alpha, beta), ()
            else:
                score, pv = self.expectation(state, below, ply), ()
        else:
            score, pv = self.player_node(state, depth, alpha, beta, hash_move, ply)
        if trace is not None:
            trace.record(EXIT, state, ply, score, alpha, beta)
        if key is not None:
            self.table[entry_key] = (score, bound_type(score, alpha, beta), pv[0] if pv else None)
        return score, pv

    def expectation(self, state: Any, depth: int | None, ply: int = 0) -> float:
        """The exact expected score of a chance node: every outcome searched in full."""
        game = self.game
        return fsum(
            p * self.value(game.result(state, outcome), depth, -inf, inf, ply + 1)[0]
            for outcome, p in game.chance_outcomes(state)
        )

    def star(self, state: Any, depth: int | None, alpha: float, beta: float) -> float:
        """Score of a chance node by Star1, after Star2's probing pass when asked (Ballard).

        `lower[i] <= value(child i) <= upper[i]` throughout, so the node's value lies between
        `lo = sum(p * lower)` and `hi = sum(p * upper)`; the node stops (a cut-off) as soon as
        `lo >= beta` or `hi <= alpha`.
        """
        game, low, high = self.game, self.low, self.high
        outcomes = game.chance_outcomes(state)
        count = len(outcomes)
        lower = [low] * count
        upper = [high] * count
        lo, hi = low, high
        children = None
        if self.pruning == "star2":
            children = [game.result(state, outcome) for outcome, _ in outcomes]
            for i, (_, p) in enumerate(outcomes):
                low_i, high_i = self.probe(
                    children[i], depth, p, alpha - hi + p * high, beta - lo + p * low
                )
                lo += p * (low_i - low)
                hi += p * (high_i - high)
                lower[i], upper[i] = low_i, high_i
                if lo >= beta:
                    self.cutoffs += 1
                    return lo if lo > beta else beta
                if hi <= alpha:
                    self.cutoffs += 1
                    return hi if hi < alpha else alpha
        for i, (outcome, p) in enumerate(outcomes):
            low_i, high_i = lower[i], upper[i]
            if low_i == high_i:
                continue
            child = game.result(state, outcome) if children is None else children[i]
            # The window in which child i's value still decides the node's verdict.
            raw_alpha = (alpha - hi + p * high_i) / p
            raw_beta = (beta - lo + p * low_i) / p
            v = self.value(
                child,
                depth,
                raw_alpha if raw_alpha > low else low,
                raw_beta if raw_beta < high else high,
            )[0]
            lo += p * (v - low_i)
            hi += p * (v - high_i)
            if v >= raw_beta:  # the expectation is at least beta: enough for the caller
                self.cutoffs += 1
                return lo if lo > beta else beta
            if v <= raw_alpha:  # the expectation is at most alpha
                self.cutoffs += 1
                return hi if hi < alpha else alpha
            lower[i] = upper[i] = v
        return fsum(p * v for (_, p), v in zip(outcomes, lower, strict=True))

    def probe(
        self, child: Any, depth: int | None, p: float, alpha_rest: float, beta_rest: float
    ) -> tuple[float, float]:
        """Bounds `(lower, upper)` on a chance node's child from a search of its first move.

        Under a maximising child the first move's score is a lower bound on the child, under a
        minimising child an upper bound. A leaf is scored exactly; a chance child stays at the
        game's bounds. `alpha_rest` and `beta_rest` are the node's window less the other
        children's contributions.
        """
        game = self.game
        score = self.leaf_score(child, depth)
        if score is not None:
            self.nodes += 1
            return score, score
        if game.is_chance(child):
            return self.low, self.high
        maximizing = game.to_move(child) == self.root_player
        threshold = (beta_rest if maximizing else alpha_rest) / p
        if not self.low < threshold < self.high:  # no score of the probe could cut: save it
            return self.low, self.high
        successor = game.result(child, self.moves(child, None)[0])
        below = None if depth is None else depth - 1
        if maximizing:
            v, _ = self.value(successor, below, self.low, threshold)
            return max(self.low, v), self.high
        v, _ = self.value(successor, below, threshold, self.high)
        return self.low, min(self.high, v)

    def player_node(
        self,
        state: Any,
        depth: int | None,
        alpha: float,
        beta: float,
        hash_move: Any,
        ply: int = 0,
    ) -> tuple[float, tuple[Any, ...]]:
        """Alpha-beta (or plain minimax with `pruning="none"`) at a player node."""
        prune = self.pruning != "none"
        below = None if depth is None else depth - 1
        maximizing = self.game.to_move(state) == self.root_player
        best = -inf if maximizing else inf
        best_pv: tuple[Any, ...] = ()
        moves = self.moves(state, hash_move)
        for index, move in enumerate(moves, 1):
            v, pv = self.value(self.game.result(state, move), below, alpha, beta, ply + 1)
            if v > best if maximizing else v < best:
                best, best_pv = v, (move, *pv)
            if not prune:
                continue
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                self.cutoffs += 1
                if self.trace is not None and index < len(moves):  # moves left unexamined
                    self.trace.record(CUTOFF, state, ply, best, alpha, beta)
                break
        return best, best_pv

    def moves(self, state: Any, first: Any) -> Sequence[Any]:
        """The legal moves in the search's order, the table's move first."""
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError(f"state {state!r} is not terminal but has no legal moves")
        if self.order is not None:
            moves = list(self.order(state, moves))
        if first is not None and first in moves:
            moves = [first, *(move for move in moves if move != first)]
        return moves
