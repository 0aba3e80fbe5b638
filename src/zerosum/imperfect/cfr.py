"""Counterfactual regret minimization (Zinkevich et al. 2007) and its descendants.

Each information set keeps, for each of its moves, a *cumulative regret*: how much better the
move would have done than the strategy played, in counterfactual value (the value weighted by
the probability that chance and the other player lead to the set). The strategy played next
is *regret matching*: each move in proportion to its positive regret, all alike when none is
positive. What converges to an equilibrium is not that strategy but the *average* of those
played, each weighted by the probability that its player reaches the set. In a two-player
zero-sum game the average's exploitability falls like 1/sqrt(T) at worst.

The variants (`ALGORITHMS`), with OpenSpiel's update schemes so that the two can be compared
number for number:

- `cfr`: the original, with alternating updates (player 0's regrets, then player 1's against
  player 0's new strategy, in every iteration); a uniform average.
- `cfr+` (Tammelin 2014): regret matching+ (cumulative regrets floored at 0 after each update)
  and a linear average (iteration t weighs t).
- `dcfr` (Brown and Sandholm 2019): after iteration t, positive regrets times t^1.5 /
  (t^1.5 + 1), negative ones times 1/2, and the average weighs iteration t by t^2.
- `mccfr-es`, `mccfr-os` (Lanctot et al. 2009): Monte Carlo CFR, which samples instead of
  walking the whole tree: external sampling samples chance and the other player and tries every
  move of the updated one; outcome sampling samples one line of play (exploring with
  probability 0.6 at the updated player's sets) and corrects by importance weights. An
  iteration updates both players once each; random draws come from `seed`.

Every variant runs compiled by default (`zerosum.imperfect.compiled_cfr`, `compiled_mccfr`);
`impl="python"` runs the readable recursions below, which the tests hold the compiled code to
bit for bit (the sampled ones draw the same numbers from the same generator, in the same
order).
Values are the first player's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zerosum.imperfect.tree import CHANCE, TERMINAL, GameTree


@dataclass(frozen=True)
class Scheme:
    """How a full-tree variant updates: regret matching+ (`plus`), discounts (`alpha`, `beta`;
    alpha < 0 for none) and the average's weight t^`gamma`."""

    plus: bool = False
    alpha: float = -1.0
    beta: float = 0.0
    gamma: float = 0.0


SCHEMES = {
    "cfr": Scheme(),
    "cfr+": Scheme(plus=True, gamma=1.0),
    "dcfr": Scheme(alpha=1.5, beta=0.0, gamma=2.0),
}
SAMPLED = ("mccfr-es", "mccfr-os")
ALGORITHMS = (*SCHEMES, *SAMPLED)

EXPLORATION = 0.6
"""Outcome sampling's exploration at the updated player's sets (Lanctot et al.'s value)."""


def check_algorithm(name: str) -> str:
    """`name` when it is one of `ALGORITHMS`; ValueError listing them otherwise."""
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}: choose one of {', '.join(ALGORITHMS)}")
    return name


class Solver:
    """One of `ALGORITHMS` on `tree`: `run(n)` more iterations, then `average()` (the
    profile that converges) and `current()` (the one regret matching plays now), each one
    probability per slot of the tree."""

    def __init__(
        self, tree: GameTree, algorithm: str = "cfr", *, seed: int | None = None,
        impl: str = "compiled",
    ) -> None:  # fmt: skip
        self.tree = tree
        self.algorithm = check_algorithm(algorithm)
        if impl not in ("compiled", "python"):
            raise ValueError(f"impl must be 'compiled' or 'python', not {impl!r}")
        self.impl = impl
        self.iterations = 0
        self.regret = np.zeros(tree.actions)
        self.total = np.zeros(tree.actions)
        self.policy = tree.uniform()
        self.random = np.random.default_rng(seed)
        if impl == "compiled":
            from zerosum.compiled.cache import told

            # Compiled (or read from numba's cache) now, not in the first iterations' time.
            if algorithm in SCHEMES:
                with told("compiling the CFR kernel (once; later runs read the cache)"):
                    self._compiled(SCHEMES[algorithm], 0)
            else:
                with told("compiling the Monte Carlo CFR kernel (once; later runs read the cache)"):
                    self._sampled_compiled(0)

    def run(self, iterations: int) -> None:
        """`iterations` more iterations (at least 1)."""
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if self.algorithm in SCHEMES:
            scheme = SCHEMES[self.algorithm]
            if self.impl == "compiled":
                self._compiled(scheme, iterations)
            else:
                for _ in range(iterations):
                    self._iteration(scheme, self.iterations + 1)
                    self.iterations += 1
            return
        if self.impl == "compiled":
            self._sampled_compiled(iterations)
            return
        sample = self._external if self.algorithm == "mccfr-es" else self._outcome
        for _ in range(iterations):
            for player in (0, 1):
                sample(player)
            self.iterations += 1

    def average(self) -> np.ndarray:
        """The average strategy: each set's weights normalized (uniform where none)."""
        return _normalized(self.tree, self.total)

    def current(self) -> np.ndarray:
        """The strategy regret matching plays next."""
        return _normalized(self.tree, np.maximum(self.regret, 0.0))

    # -- the full tree -----------------------------------------------------------------------

    def _compiled(self, scheme: Scheme, iterations: int) -> None:
        from zerosum.imperfect.compiled_cfr import iterate

        tree = self.tree
        iterate(tree.kind, tree.first_child, tree.child_count, tree.infoset, tree.chance,
                tree.chance_reach, tree.utility, tree.levels, tree.owner, tree.action_start,
                self.regret, self.total, self.policy, scheme.plus, scheme.alpha, scheme.beta,
                scheme.gamma, self.iterations + 1, iterations)  # fmt: skip
        self.iterations += iterations

    def _iteration(self, scheme: Scheme, t: int) -> None:
        """Iteration `t`: each player's regrets and average in turn, then their strategy."""
        tree = self.tree
        weight = float(t) ** scheme.gamma
        for player in (0, 1):
            self._walk(0, player, 1.0, 1.0, weight)
            for i in tree.infosets_of(player).tolist():
                slots = range(int(tree.action_start[i]), int(tree.action_start[i + 1]))
                for a in slots:
                    if scheme.plus and self.regret[a] < 0.0:
                        self.regret[a] = 0.0
                    elif scheme.alpha >= 0.0:
                        exponent = scheme.alpha if self.regret[a] >= 0.0 else scheme.beta
                        self.regret[a] *= float(t) ** exponent / (float(t) ** exponent + 1.0)
                low, strategy = self._strategy(i)
                self.policy[low : low + len(strategy)] = strategy

    def _walk(self, n: int, player: int, own: float, other: float, weight: float) -> float:
        """The value of node `n` for `player` under the current strategy; on the way up, the
        regrets and average weights of `player`'s sets. `own`: the probability of `player`'s
        moves to `n`; `other`: the other player's. A regret is weighed by the counterfactual
        weight, `other` times chance's reach, multiplied last (as OpenSpiel does: the same
        rounding)."""
        tree = self.tree
        kind = tree.kind[n]
        if kind == TERMINAL:
            return float(tree.utility[n] if player == 0 else -tree.utility[n])
        first, count = int(tree.first_child[n]), int(tree.child_count[n])
        value = 0.0
        if kind == CHANCE:
            for c in range(first, first + count):
                value += tree.chance[c] * self._walk(c, player, own, other, weight)
            return value
        slot = int(tree.action_start[tree.infoset[n]])
        probability = self.policy[slot : slot + count]
        values = [
            self._walk(first + j, player, own * p, other, weight)
            if kind == player
            else self._walk(first + j, player, own, other * p, weight)
            for j, p in enumerate(probability)
        ]
        for p, v in zip(probability, values, strict=True):
            value += p * v
        if kind == player:
            counterfactual = other * tree.chance_reach[n]
            for j, p in enumerate(probability):
                self.regret[slot + j] += counterfactual * (values[j] - value)
                self.total[slot + j] += weight * own * p
        return value

    # -- sampling ----------------------------------------------------------------------------
    #
    # The readable versions of `zerosum.imperfect.compiled_mccfr`'s kernels, which the tests
    # hold to them bit for bit: each draw is one `self.random.random()` taken where the walk
    # meets chance or samples a move (`_draw`), in the same order in both, and every sum is
    # taken in a plain loop from the first move to the last, as the kernels take it.

    def _sampled_compiled(self, iterations: int) -> None:
        """`iterations` iterations of the sampled variant in one call of its kernel, drawing
        from `self.random` (0: only compiles or loads the kernel)."""
        from zerosum.imperfect import compiled_mccfr

        tree = self.tree
        widest = int(tree.child_count.max())
        arrays = (tree.kind, tree.first_child, tree.child_count, tree.infoset, tree.chance,
                  tree.utility, tree.action_start, self.regret, self.total,
                  self.random)  # fmt: skip
        if self.algorithm == "mccfr-es":
            compiled_mccfr.external(*arrays, tree.depth, widest, iterations)
        else:
            compiled_mccfr.outcome(*arrays, tree.depth, widest, EXPLORATION, iterations)
        self.iterations += iterations

    def _strategy(self, infoset: int) -> tuple[int, list[float]]:
        """The set's first slot and regret matching's strategy there now."""
        low, high = int(self.tree.action_start[infoset]), int(self.tree.action_start[infoset + 1])
        positive = [r if r > 0.0 else 0.0 for r in self.regret[low:high].tolist()]
        total = 0.0
        for r in positive:
            total += r
        if total > 0.0:
            return low, [r / total for r in positive]
        return low, [1.0 / (high - low)] * (high - low)

    def _chance(self, n: int) -> int:
        first, count = int(self.tree.first_child[n]), int(self.tree.child_count[n])
        return first + _draw(self.random, self.tree.chance[first : first + count].tolist())

    def _external(self, player: int) -> None:
        """One external-sampling pass updating `player` (Lanctot et al. 2009): every move of
        `player` tried, one of chance and of the other player sampled; the other player's
        average takes their strategy at each set met (the sampling does the weighting)."""
        tree = self.tree

        def walk(n: int) -> float:
            kind = tree.kind[n]
            if kind == TERMINAL:
                return float(tree.utility[n] if player == 0 else -tree.utility[n])
            if kind == CHANCE:
                return walk(self._chance(n))
            low, strategy = self._strategy(int(tree.infoset[n]))
            first = int(tree.first_child[n])
            if kind != player:
                for k, p in enumerate(strategy):
                    self.total[low + k] += p
                return walk(first + _draw(self.random, strategy))
            values = [walk(first + k) for k in range(len(strategy))]
            value = 0.0
            for p, v in zip(strategy, values, strict=True):
                value += p * v
            for k, v in enumerate(values):
                self.regret[low + k] += v - value
            return value

        walk(0)

    def _outcome(self, player: int) -> None:
        """One outcome-sampling pass updating `player` (Lanctot et al. 2009): one line of play,
        `player` exploring; each set on the line gets its sampled regrets, and the other
        player's sets their strategy weighted by reach over sampling probability."""
        tree = self.tree

        def walk(n: int, theirs: float, sampled: float) -> tuple[float, float]:
            """(the utility over the line's sampling probability, the probability of the
            strategies from `n` to the end), `theirs` being the other player's reach of `n`
            and `sampled` the probability that the sampling chose the players' moves to it."""
            kind = tree.kind[n]
            if kind == TERMINAL:
                utility = tree.utility[n] if player == 0 else -tree.utility[n]
                return float(utility) / sampled, 1.0
            if kind == CHANCE:  # sampled as it falls: the same factor on both sides
                return walk(self._chance(n), theirs, sampled)
            low, strategy = self._strategy(int(tree.infoset[n]))
            moves = len(strategy)
            first = int(tree.first_child[n])
            if kind == player:
                odds = [EXPLORATION / moves + (1.0 - EXPLORATION) * p for p in strategy]
            else:
                odds = strategy
            j = _draw(self.random, odds)
            p = strategy[j]
            if kind == player:
                utility, tail = walk(first + j, theirs, sampled * odds[j])
                # The sampled counterfactual value of the move taken, over its probability;
                # every move's regret loses the set's value (p times it), the move taken
                # gains its own.
                worth = utility * theirs * tail
                for k in range(moves):
                    self.regret[low + k] -= worth * p
                self.regret[low + j] += worth
            else:
                utility, tail = walk(first + j, theirs * p, sampled * odds[j])
                weight = theirs / sampled
                for k, q in enumerate(strategy):
                    self.total[low + k] += weight * q
            return utility, tail * p

        walk(0, 1.0, 1.0)


def _draw(random: np.random.Generator, probabilities: list[float]) -> int:
    """A number drawn with the given probabilities (which sum to 1): the first whose
    cumulative probability exceeds one uniform draw from [0, 1) (the last if rounding leaves
    none)."""
    point = random.random()
    cumulative = 0.0
    for j, p in enumerate(probabilities):
        cumulative += p
        if point < cumulative:
            return j
    return len(probabilities) - 1


def _normalized(tree: GameTree, weights: np.ndarray) -> np.ndarray:
    """`weights` scaled to sum 1 in every set; uniform where a set's weights sum to 0."""
    sets = np.repeat(np.arange(len(tree.keys)), np.diff(tree.action_start))
    sums = np.bincount(sets, weights=weights, minlength=len(tree.keys))
    uniform = tree.uniform()
    where = sums[sets] > 0
    return np.where(where, weights / np.where(where, sums[sets], 1.0), uniform)
