"""Best responses and exploitability, exact: a full walk of the tree.

A strategy profile is one probability per slot of a `GameTree` (`tree.action_start`), floats
or fractions: the arithmetic follows the numbers given, so a profile in fractions gets its
values in fractions.

A best response to the other player's strategy is found one information set at a time, the
deepest first. Every node carries its *counterfactual weight*: the probability that chance and
the other player lead to it (the responder's own moves count 1). At one of the responder's
information sets, each move's worth is the weighted value of its children summed over the
set's nodes, and the responder takes the best; perfect recall makes this the best over all the
responder's plans at once.

`exploitability` follows OpenSpiel's `exploitability`: the mean of what each player gains by
answering the other's strategy with a best response, 0 exactly at an equilibrium and positive
elsewhere. Values are the first player's unless a function says otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from zerosum.imperfect.tree import CHANCE, TERMINAL, GameTree

Number = Any  # float or Fraction: the profile's numbers decide
Profile = Sequence[Number] | np.ndarray


@dataclass(frozen=True)
class Exploitability:
    """How far a profile is from an equilibrium.

    `value`: the first player's expected payoff when both play the profile.
    `best_values`: what each player gets by a best response to the other's strategy, in their
    own payoff. `best_responses`: those responses, a move number by information set.
    """

    value: Number
    best_values: tuple[Number, Number]
    best_responses: tuple[dict[int, int], dict[int, int]]

    @property
    def exploitability(self) -> Number:
        """The mean of the two gains, (best_values[0] + best_values[1]) / 2: as the game is
        zero-sum, what the profile pays both players cancels."""
        return (self.best_values[0] + self.best_values[1]) / 2

    @property
    def nash_conv(self) -> Number:
        """The sum of the two gains (OpenSpiel's `nash_conv`)."""
        return self.best_values[0] + self.best_values[1]


def measure(tree: GameTree, profile: Profile, *, impl: str = "compiled") -> Exploitability:
    """The profile's value, both best responses and its exploitability (see the module);
    `impl` as `best_response`'s."""
    first, second = (best_response(tree, profile, player, impl=impl) for player in (0, 1))
    return Exploitability(
        profile_value(tree, profile, impl=impl), (first[0], second[0]), (first[1], second[1])
    )


def exploitability(tree: GameTree, profile: Profile) -> Number:
    """The mean gain of the two best responses to `profile` (OpenSpiel's `exploitability`)."""
    return measure(tree, profile).exploitability


def profile_value(tree: GameTree, profile: Profile, *, impl: str = "compiled") -> Number:
    """The first player's expected payoff when both players follow `profile`. A profile of
    floats is valued by compiled code unless `impl` is "python"."""
    numbers = _numbers(tree, profile)
    if impl == "compiled" and not isinstance(numbers.zero, Fraction):
        from zerosum.imperfect import compiled_best_response as compiled

        floats = np.asarray(numbers.profile)
        return float(
            compiled.profile_value(
                tree.kind, tree.first_child, tree.child_count, tree.infoset, tree.chance,
                tree.utility, tree.action_start, floats,
            )
        )  # fmt: skip
    probability, chance = numbers.profile, numbers.chance
    value = list(numbers.utility)
    for n in range(tree.nodes - 1, -1, -1):
        kind = tree.kind[n]
        if kind == TERMINAL:
            continue
        first, count = int(tree.first_child[n]), int(tree.child_count[n])
        if kind == CHANCE:
            value[n] = sum(chance[c] * value[c] for c in range(first, first + count))
        else:
            start = int(tree.action_start[tree.infoset[n]])
            value[n] = sum(probability[start + k] * value[first + k] for k in range(count))
    return value[0]


def best_response(
    tree: GameTree, profile: Profile, player: int, *, impl: str = "compiled"
) -> tuple[Number, dict[int, int]]:
    """What `player` gets, in their own payoff, by a best response to the other player's part
    of `profile`, and that response: for each of `player`'s information sets, the number of
    the move taken (the first of equal ones). A profile of floats on a tree whose sets each
    lie at one depth is answered by compiled code, unless `impl` is "python"."""
    numbers = _numbers(tree, profile)
    if impl == "compiled" and not isinstance(numbers.zero, Fraction) and tree.sets_level:
        from zerosum.imperfect import compiled_best_response as compiled

        total, chosen = compiled.best_response(
            tree.kind, tree.first_child, tree.child_count, tree.infoset, tree.chance,
            tree.utility, tree.levels, tree.action_start, np.asarray(numbers.profile), player,
        )  # fmt: skip
        return float(total), {i: int(k) for i, k in enumerate(chosen.tolist()) if k >= 0}
    probability = numbers.profile
    sign = 1 if player == 0 else -1
    zero = numbers.zero
    # The counterfactual weight of every node: chance and the other player, down the tree.
    weight = [zero] * tree.nodes
    weight[0] = zero + 1
    for n in range(tree.nodes):
        kind = tree.kind[n]
        if kind == TERMINAL:
            continue
        first, count = int(tree.first_child[n]), int(tree.child_count[n])
        if kind == CHANCE:
            for c in range(first, first + count):
                weight[c] = weight[n] * numbers.chance[c]
        elif kind == player:
            for c in range(first, first + count):
                weight[c] = weight[n]
        else:
            start = int(tree.action_start[tree.infoset[n]])
            for k in range(count):
                weight[first + k] = weight[n] * probability[start + k]
    members: dict[int, list[int]] = {}
    for n in np.flatnonzero(tree.kind == player).tolist():
        members.setdefault(int(tree.infoset[n]), []).append(n)
    choice: dict[int, int] = {}
    value: list[Number | None] = [None] * tree.nodes

    def node_value(n: int) -> Number:
        """The weighted value of node `n` for `player` when they respond best."""
        known = value[n]
        if known is not None:
            return known
        kind = tree.kind[n]
        first, count = int(tree.first_child[n]), int(tree.child_count[n])
        if kind == TERMINAL:
            result = weight[n] * (sign * numbers.utility[n])
        elif kind == player:
            result = node_value(first + decide(int(tree.infoset[n])))
        else:
            result = sum((node_value(c) for c in range(first, first + count)), zero)
        value[n] = result
        return result

    def decide(infoset: int) -> int:
        """The best move at `infoset`: the one whose children are worth most in total."""
        if infoset not in choice:
            nodes = members[infoset]
            count = int(tree.child_count[nodes[0]])
            worth = [
                sum((node_value(int(tree.first_child[m]) + k) for m in nodes), zero)
                for k in range(count)
            ]
            choice[infoset] = max(range(count), key=worth.__getitem__)
        return choice[infoset]

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * tree.depth + 1000))
    try:
        total = node_value(0)
    finally:
        sys.setrecursionlimit(limit)
    for infoset in members:  # the sets no weight reaches still get a move: the first best
        decide(infoset)
    return total, choice


@dataclass(frozen=True)
class _Numbers:
    profile: Sequence[Number]
    utility: Sequence[Number]
    chance: Sequence[Number]
    zero: Number


def _numbers(tree: GameTree, profile: Profile) -> _Numbers:
    """The profile and the tree's utilities and chance probabilities in one arithmetic:
    fractions when the profile holds a fraction, else floats."""
    if len(profile) != tree.actions:
        raise ValueError(
            f"a profile of this game has {tree.actions} probabilities, not {len(profile)}"
        )
    if not isinstance(profile, np.ndarray) and any(isinstance(p, Fraction) for p in profile):
        exact = [Fraction(p) for p in profile]
        return _Numbers(exact, tree.exact_utility, tree.exact_chance, Fraction(0))
    floats = np.asarray(profile, dtype=float).tolist()
    return _Numbers(floats, tree.utility.tolist(), tree.chance.tolist(), 0.0)
