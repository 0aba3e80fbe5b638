"""Monte Carlo tree search: UCT, MCTS-Solver and PUCT, with chance nodes.

Each iteration walks down the tree choosing moves by a bandit rule, adds the first position it
has not seen, scores that position (a random playout to the end of the game, or the value a
user's evaluator gives), and adds the score to every node on the way back up (Coulom 2006).

- **UCT** (Kocsis and Szepesvari 2006): a child is chosen by UCB1, its mean score for the player
  choosing plus `c * sqrt(ln N / n)`, `N` the parent's visits and `n` the child's; every child
  is tried once before any is tried twice. `c` trades exploration for exploitation.
- **PUCT** (the AlphaZero rule, Silver et al. 2017): with an `evaluator(state) -> (priors,
  value)` (priors a mapping from moves to probabilities, value for the player to move, in the
  utilities' range), a position is scored by the evaluator instead of a playout, and a child by
  its mean plus `c * prior * sqrt(N) / (1 + n)`. This is where a policy and value network
  plugs in.
- **RAVE** (Gelly and Silver 2007), with `rave=K`: each child also keeps its AMAF ("all
  moves as first") statistics, the results of every iteration through its parent in which the
  player to move there played its move at any later point (in the tree or the playout), not
  only first. A child is chosen by UCB1 over a blend of its mean and its AMAF mean, the AMAF
  mean's weight `beta = sqrt(K / (3n + K))` fading as its own visits `n` grow (`K` is the
  equivalence parameter: at `n = K` both weigh about alike); a child never visited with AMAF
  results is valued by them alone, and only a child with neither is tried before the others.
  The idea: in Go a move good later is often good now, and AMAF learns of every move from
  each playout (docs/go.md measures it: with Go's light playouts it did not pay).
- **MCTS-Solver** (Winands, Bjornsson and Saito 2008), in its score-bounded form (Cazenave and
  Saffidine 2010): every node keeps a proven lower and upper bound on its exact value; a
  terminal position is proven, a player's node is proven once its best child is proven at
  least as good as every other child can be, a chance node once all its outcomes are. A
  proven node is never sampled again, and when the root is proven the search stops.
- **Chance nodes**: the outcome is sampled with the game's probabilities (among the outcomes
  not yet proven, once some are).

All scores are kept from player 0's point of view internally; what the result reports is from
the point of view of the player to move at the root. The game's `value_bounds` (`Bounded`),
when declared, let the solver prove a win without trying every alternative; otherwise
unexplored moves are unbounded.

`MCTS` keeps its tree between calls: searching a position that lies a few moves below the last
root reuses that subtree and its statistics. A `seed` makes an iteration budget reproducible.
"""

from __future__ import annotations

import math
import random
import threading
import time as clock
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from zerosum.game import Bounded, Chance, Game, Keyed

__all__ = ["MCTS", "MCTSResult", "MoveStats", "Evaluator", "mcts"]

T = TypeVar("T")

Evaluator = Callable[[Any], tuple[Mapping[Any, float], float]]
"""`evaluator(state) -> (priors, value)`: move probabilities; the value for the player to move."""

CHANCE, TERMINAL = 2, 3
REUSE_DEPTH = 4  # how many levels below the old root to look for the new root
PLAYOUT_MOVES = 10_000
"""The most moves (dice rolls too) of one random playout: a game that may go on for millions
(Pig to 100,000 points played at random) ends there as a draw, so that one iteration's work is
bounded and a time budget is kept. Every built-in game's playouts are far shorter."""
PROGRESS_SECONDS = 0.1
"""Seconds between two reports of a search in progress (`on_progress`): ten a second, what a
person watching can follow."""


@dataclass(frozen=True)
class MoveStats:
    """What the search learned about one move at the root.

    `value` is the mean score of the move for the player to move at the root (0 when never
    visited); `prior` the prior probability it was given (uniform for UCT); `proven` the move's
    exact value when the solver proved it, else None.
    """

    move: Any
    visits: int
    value: float
    prior: float
    proven: float | None


@dataclass(frozen=True)
class MCTSResult:
    """The outcome of one search, from the point of view of the player to move at the root.

    `best_move` is the proven best move when the solver found one, else the most visited move
    not proven worse than another. `value` is the root's proven value if `proven`, else its mean
    score. `moves` holds each root move's statistics, most visited first; `iterations` the
    iterations this search ran and `nodes` the size of the tree after it.
    """

    best_move: Any
    value: float
    proven: bool
    moves: tuple[MoveStats, ...]
    iterations: int
    nodes: int
    seconds: float


class _Node:
    """A position in the search tree; `total` and the bounds are from player 0's point of view."""

    __slots__ = (
        "move",
        "probability",
        "prior",
        "state",
        "kind",
        "children",
        "visits",
        "total",
        "lower",
        "upper",
        "priors",
        "amaf_visits",
        "amaf_total",
    )

    def __init__(self, move: Any, probability: float, prior: float, low: float, high: float):
        self.move = move
        self.probability = probability
        self.prior = prior
        self.state: Any = None
        self.kind = -1  # 0 or 1 (the player to move), CHANCE or TERMINAL, once the state is known
        self.children: list[_Node] | None = None
        self.amaf_visits = 0  # RAVE: the iterations through the parent that played this move
        self.amaf_total = 0.0  # later, and their results for player 0
        self.visits = 0
        self.total = 0.0
        self.lower = low
        self.upper = high
        self.priors: Mapping[Any, float] | None = None  # the evaluator's, until expanded

    @property
    def solved(self) -> bool:
        return self.lower == self.upper


def check_budget(iterations: int | None, time: float | None, c: float | None) -> None:
    """ValueError unless MCTS can keep this budget: iterations, time or both (at least 1
    iteration, more than 0 seconds), and an exploration constant `c` of at least 0."""
    if iterations is None and time is None:
        raise ValueError("MCTS needs a budget: iterations, time, or both")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if time is not None and not time > 0:
        raise ValueError(f"time must be a positive number of seconds, got {time}")
    if c is not None and not c >= 0:
        raise ValueError(f"the exploration constant c must be at least 0, got {c}")


class MCTS:
    """A Monte Carlo tree search player that keeps its tree from one move to the next.

    `iterations` and `time` (seconds) are budgets: the search stops at the first one reached
    (at least one is needed). `c` is the exploration constant of UCB1, or of PUCT when an
    `evaluator` is given. `solver` turns MCTS-Solver on, `reuse` the reuse of subtrees,
    `rave` (the equivalence parameter `K`, more than 0; None or 0 for none) RAVE.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        iterations: int | None = None,
        time: float | None = None,
        c: float | None = None,
        evaluator: Evaluator | None = None,
        solver: bool = True,
        reuse: bool = True,
        seed: int | None = None,
        rave: float | None = None,
    ) -> None:
        check_budget(iterations, time, c)
        self.rave = check_rave(rave, evaluator is not None)
        self.game = game
        self.iterations = iterations
        self.time = time
        self.c = (1.5 if evaluator is not None else math.sqrt(2)) if c is None else c
        self.evaluator = evaluator
        self.solver = solver
        self.reuse = reuse
        self.rng = random.Random(seed)
        self.chance: Chance | None = game if isinstance(game, Chance) else None
        self.low, self.high = (
            game.value_bounds() if isinstance(game, Bounded) else (-math.inf, math.inf)
        )
        self.key: Callable[[Any], Hashable] = game.key if isinstance(game, Keyed) else _identity
        self.root: _Node | None = None
        self.size = 0
        self.stop_requested = threading.Event()

    def stop(self) -> None:
        """Ask the running search (from any thread) to return after its current iteration."""
        self.stop_requested.set()

    def search(
        self, state: Any, on_progress: Callable[[MCTSResult], None] | None = None
    ) -> MCTSResult:
        """Search `state` within the budget and report the root's statistics; `on_progress`,
        when given, gets the report so far every `PROGRESS_SECONDS` while it searches."""
        self.stop_requested.clear()
        root = self.start(state)
        start = clock.perf_counter()
        deadline = None if self.time is None else start + self.time
        report_at = start + PROGRESS_SECONDS if on_progress is not None else math.inf
        done = 0
        while not (self.solver and root.solved) and not self.stop_requested.is_set():
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None or on_progress is not None:
                now = clock.perf_counter()
                if deadline is not None and done and now >= deadline:
                    break
                if now >= report_at and on_progress is not None and root.children:
                    on_progress(self.report(root, done, now - start))
                    report_at = now + PROGRESS_SECONDS
            self.iterate(root)
            done += 1
        return self.report(root, done, clock.perf_counter() - start)

    def choose(self, state: Any) -> Any:
        """The move the search prefers in `state`."""
        return self.search(state).best_move

    def principal_lines(self) -> dict[Any, tuple[Any, ...]]:
        """Each move of the last search's root, with the line the search expects after it:
        the move, then at each node below its most visited child (the first in the tree's
        order on a tie) while that child was visited; a chance node ends a line."""
        root = self.root
        lines: dict[Any, tuple[Any, ...]] = {}
        for child in (root.children or ()) if root is not None else ():
            line, node = [child.move], child
            while node.kind != CHANCE and node.children:
                node = max(node.children, key=lambda ch: ch.visits)
                if node.visits == 0:
                    break
                line.append(node.move)
            lines[child.move] = tuple(line)
        return lines

    def start(self, state: Any) -> _Node:
        """The root for a search of `state`: the node of the last tree that holds it (its
        statistics kept), or a new one. ValueError for a finished game or a chance node."""
        if self.game.is_terminal(state):
            raise ValueError("the game is over in this position: there is no move to search")
        self.size = 0
        root = self.reused_root(state) if self.reuse else None
        if root is None:
            root = self.new_node(None, 1.0, 1.0)
            self.visit(root, state)
        self.root = root
        if self.chance is not None and root.kind == CHANCE:
            raise ValueError("the position is a chance node: roll the dice before searching")
        return root

    def add_noise(self, root: _Node, alpha: float, fraction: float) -> None:
        """Mix Dirichlet(`alpha`) noise into the priors of the root's moves, `fraction` of it
        (AlphaZero's self-play: every move of the root keeps a chance to be explored). The
        root is expanded first if it is not yet; `alpha` and `fraction` must be positive."""
        if root.children is None:
            self.expand(root)
        children = root.children
        assert children is not None
        priors = noisy_priors([child.prior for child in children], self.rng, alpha, fraction)
        for child, prior in zip(children, priors, strict=True):
            child.prior = prior

    # The four steps of an iteration.

    def iterate(self, root: _Node) -> None:
        path, value = self.descend(root)
        if self.rave is None:
            self.back_up(path, self.leaf_value(path[-1]) if value is None else value)
            return
        trail = [
            (parent.kind, child.move) for parent, child in zip(path[:-1], path[1:], strict=True)
        ]
        if value is None:
            value = self.playout(path[-1].state, trail)
        self.back_up(path, value)
        self.back_up_amaf(path, trail, value)

    def descend(self, root: _Node) -> tuple[list[_Node], float | None]:
        """Selection and expansion: the path from `root` to the first node never visited or
        to a finished game, and the finished game's value for player 0 (None for a new
        position, which the caller scores: `leaf_value`, or a batch of them at once, as
        `zerosum.learn.selfplay` does, then `back_up`)."""
        node, path = root, [root]
        while True:
            if node.kind == TERMINAL:
                return path, node.lower
            if node.visits == 0:
                return path, None
            if node.children is None:
                self.expand(node)
            node = self.select(node)
            if node.state is None:
                parent = path[-1]
                self.visit(node, self.game.result(parent.state, node.move))
            path.append(node)

    def back_up(self, path: list[_Node], value: float) -> None:
        """Backpropagation: add `value` (for player 0) to every node of `path`, then tighten
        the proven bounds."""
        for visited in path:
            visited.visits += 1
            visited.total += value
        if self.solver:
            self.prove(path)

    def back_up_amaf(self, path: list[_Node], trail: list[tuple[int, Any]], value: float) -> None:
        """RAVE: add `value` (for player 0) to the AMAF statistics of each child of a node of
        `path` whose move the player to move there played later in the iteration; `trail`
        holds the iteration's moves, each with the player who played it (`path[i]` is the
        position before `trail[i]`)."""
        later: set[tuple[int, Any]] = set()
        for index in range(len(trail) - 1, -1, -1):
            later.add(trail[index])
            if index >= len(path):
                continue
            node = path[index]
            if node.kind in (0, 1):
                for child in node.children or ():
                    if (node.kind, child.move) in later:
                        child.amaf_visits += 1
                        child.amaf_total += value

    def select(self, node: _Node) -> _Node:
        """The child to descend into: a sampled outcome, or the best by UCB1 or PUCT."""
        children = node.children
        assert children is not None  # expanded before
        if node.kind == CHANCE:
            return self.sample_outcome(children)
        sign = 1.0 if node.kind == 0 else -1.0
        if self.solver:  # children proven no better than the node's guaranteed value are done
            if sign > 0:
                open_children = [ch for ch in children if ch.upper > node.lower]
            else:
                open_children = [ch for ch in children if ch.lower < node.upper]
            children = open_children or children
        if self.rave is not None:
            for child in children:
                if child.visits == 0 and child.amaf_visits == 0:
                    return child
            log_n = math.log(node.visits)
            return max(children, key=lambda ch: self.rave_score(ch, sign, log_n))
        if self.evaluator is None:
            for child in children:
                if child.visits == 0:
                    return child
            log_n = math.log(node.visits)
            c = self.c
            return max(
                children,
                key=lambda ch: sign * ch.total / ch.visits + c * math.sqrt(log_n / ch.visits),
            )
        scale = self.c * math.sqrt(node.visits)
        return max(
            children,
            key=lambda ch: (
                (sign * ch.total / ch.visits if ch.visits else 0.0)
                + scale * ch.prior / (1 + ch.visits)
            ),
        )

    def rave_score(self, child: _Node, sign: float, log_n: float) -> float:
        """RAVE's UCB1 value of `child` for the player choosing (`sign`: +1 for player 0), its
        parent's visits' logarithm `log_n`: its mean and AMAF mean blended by `beta`."""
        k, visits, amaf_visits = self.rave, child.visits, child.amaf_visits
        assert k is not None
        beta = math.sqrt(k / (3 * visits + k)) if amaf_visits > 0 else 0.0
        mean = child.total / visits if visits > 0 else 0.0
        amaf = child.amaf_total / amaf_visits if amaf_visits > 0 else 0.0
        blend = (1.0 - beta) * mean + beta * amaf
        return sign * blend + self.c * math.sqrt(log_n / max(visits, 1))

    def sample_outcome(self, children: list[_Node]) -> _Node:
        if self.solver:
            children = [ch for ch in children if not ch.solved] or children
        total = sum(ch.probability for ch in children)
        return _sample([(ch, ch.probability) for ch in children], self.rng.random() * total)

    def expand(self, node: _Node) -> None:
        """Create the node's children (states are computed when first visited)."""
        game = self.game
        if node.kind == CHANCE:
            assert self.chance is not None  # only a game with chance has chance nodes
            outcomes = self.chance.chance_outcomes(node.state)
            node.children = [self.new_node(o, p, p) for o, p in outcomes]
            return
        moves = list(game.legal_moves(node.state))
        if not moves:
            raise ValueError(f"state {node.state!r} is not terminal but has no legal moves")
        if self.evaluator is None:
            self.rng.shuffle(moves)  # unvisited moves are tried in random order
            node.children = [self.new_node(move, 1.0, 1 / len(moves)) for move in moves]
            return
        priors = node.priors
        if priors is None:  # a root never scored: its value is not needed, its priors are
            priors, _ = self.evaluator(node.state)
        node.priors = None
        weights = [max(0.0, float(priors.get(move, 0.0))) for move in moves]
        total = 0.0
        for weight in weights:  # added in turn, as the compiled PUCT does (not `sum`'s way)
            total += weight
        node.children = [
            self.new_node(move, 1.0, w / total if total > 0 else 1 / len(moves))
            for move, w in zip(moves, weights, strict=True)
        ]

    def leaf_value(self, node: _Node) -> float:
        """A new position's score for player 0: the evaluator's value or a random playout's."""
        if self.evaluator is not None:
            priors, value = self.evaluator(node.state)
            return self.scored(node, priors, value)
        return self.playout(node.state)

    def scored(self, node: _Node, priors: Mapping[Any, float], value: float) -> float:
        """Keep the evaluator's `priors` for the node's expansion; its `value` (for the player
        to move at the node) as player 0's."""
        node.priors = priors
        return value if node.kind != 1 else -value

    def playout(self, state: Any, trail: list[tuple[int, Any]] | None = None) -> float:
        """The result for player 0 of a game played out at random from `state`; 0 (a draw)
        when it has not ended within `PLAYOUT_MOVES` moves. Its moves, each with the player
        who played it, are added to `trail` when given (RAVE)."""
        game, rng, chance = self.game, self.rng, self.chance
        for _ in range(PLAYOUT_MOVES):
            if game.is_terminal(state):
                return game.utility(state, 0)
            if chance is not None and chance.is_chance(state):
                outcomes = chance.chance_outcomes(state)
                state = game.result(state, _sample(outcomes, rng.random()))
            else:
                move = rng.choice(game.legal_moves(state))
                if trail is not None:
                    trail.append((game.to_move(state), move))
                state = game.result(state, move)
        return game.utility(state, 0) if game.is_terminal(state) else 0.0

    def prove(self, path: list[_Node]) -> None:
        """Tighten the proven bounds from the end of `path` up, while they change."""
        for node in reversed(path):
            children = node.children
            if node.kind == TERMINAL or children is None:
                continue
            if node.kind == CHANCE:
                lower = sum(ch.probability * ch.lower for ch in children)
                upper = sum(ch.probability * ch.upper for ch in children)
                if all(ch.solved for ch in children):
                    lower = upper = math.fsum(ch.probability * ch.lower for ch in children)
            elif node.kind == 0:
                lower = max(ch.lower for ch in children)
                upper = max(ch.upper for ch in children)
            else:
                lower = min(ch.lower for ch in children)
                upper = min(ch.upper for ch in children)
            if lower == node.lower and upper == node.upper:
                return
            node.lower, node.upper = lower, upper

    # Bookkeeping.

    def new_node(self, move: Any, probability: float, prior: float) -> _Node:
        self.size += 1
        return _Node(move, probability, prior, self.low, self.high)

    def visit(self, node: _Node, state: Any) -> None:
        """Give a node its state and kind; a terminal position is proven at once."""
        game = self.game
        node.state = state
        if game.is_terminal(state):
            node.kind = TERMINAL
            node.lower = node.upper = game.utility(state, 0)
        elif self.chance is not None and self.chance.is_chance(state):
            node.kind = CHANCE
        else:
            node.kind = game.to_move(state)

    def reused_root(self, state: Any) -> _Node | None:
        """The node for `state` among the last tree's first levels, or None."""
        if self.root is None:
            return None
        key = self.key(state)
        level = [self.root]
        for _ in range(REUSE_DEPTH + 1):
            following: list[_Node] = []
            for node in level:
                if node.state is not None and self.key(node.state) == key:
                    return node
                following.extend(node.children or ())
            level = following
        return None

    def report(self, root: _Node, iterations: int, seconds: float) -> MCTSResult:
        if root.children is None:  # one iteration scored the root and never expanded it
            self.expand(root)
        sign = 1.0 if root.kind == 0 else -1.0
        children = sorted(root.children or (), key=lambda ch: -ch.visits)
        stats = [
            MoveStats(
                child.move,
                child.visits,
                sign * child.total / child.visits if child.visits else 0.0,
                child.prior,
                sign * child.lower + 0.0 if child.solved else None,  # + 0.0: no -0.0
            )
            for child in children
        ]
        if root.solved:
            value, proven = sign * root.lower + 0.0, True
            best = max(stats, key=lambda m: (m.proven == value, m.visits)).move
        else:
            value, proven = sign * root.total / root.visits, False
            # Moves proven worse than what the root is already sure of are not candidates; of
            # the others, the one with the best proven value or cautious mean (the mean less
            # one standard error's worth, 1/sqrt(visits)) is played.
            guaranteed = root.lower if sign > 0 else -root.upper
            candidates = [
                m
                for m, ch in zip(stats, children, strict=True)
                if (ch.upper if sign > 0 else -ch.lower) >= guaranteed
            ] or stats
            best = max(candidates, key=lambda m: (_secure(m), m.prior)).move
        return MCTSResult(best, value, proven, tuple(stats), iterations, self.size, seconds)


MOST_RAVE = 1e9
"""The largest equivalence parameter of RAVE (beyond it, AMAF outweighs a child's own mean for
longer than any search lasts)."""


def check_rave(rave: float | None, evaluated: bool) -> float | None:
    """RAVE's equivalence parameter `K` (None for no RAVE: `rave` None or 0); ValueError for
    a value out of (0, MOST_RAVE], or RAVE asked with an evaluator (PUCT has no playouts)."""
    if rave is None or rave == 0:
        return None
    if isinstance(rave, bool) or not isinstance(rave, (int, float)):
        raise ValueError(f"rave must be a number, got {rave!r}")
    if not (math.isfinite(rave) and 0 < rave <= MOST_RAVE):
        raise ValueError(f"rave must be from 0 (none) to {MOST_RAVE:,g}, got {rave}")
    if evaluated:
        raise ValueError("rave is for UCT's playouts: PUCT (an evaluator) has none")
    return float(rave)


def mcts(game: Game[Any, Any], state: Any, **options: Any) -> MCTSResult:
    """One Monte Carlo tree search of `state` (options as for `MCTS`), for the player to move."""
    return MCTS(game, **options).search(state)


def noisy_priors(
    priors: Sequence[float], rng: random.Random, alpha: float, fraction: float
) -> list[float]:
    """`priors` with Dirichlet(`alpha`) noise making `fraction` of them, drawn from `rng` (a
    gamma variate a move, in order): AlphaZero's root noise, for the Python and the compiled
    PUCT alike."""
    noise = [rng.gammavariate(alpha, 1.0) for _ in priors]
    total = sum(noise) or 1.0
    return [
        (1 - fraction) * prior + fraction * eta / total
        for prior, eta in zip(priors, noise, strict=True)
    ]


def _sample(outcomes: Sequence[tuple[T, float]], point: float) -> T:
    """The outcome whose share of the line of probabilities holds `point` (the last one if
    rounding leaves it)."""
    for outcome, p in outcomes:
        point -= p
        if point < 0:
            return outcome
    return outcomes[-1][0]


def _secure(move: MoveStats) -> float:
    """A move's worth for the final choice: its proven value, or its mean less 1/sqrt(visits)."""
    if move.proven is not None:
        return move.proven
    return move.value - 1 / math.sqrt(move.visits) if move.visits else -math.inf


def _identity(state: Any) -> Any:
    return state
