"""The sequence form (Koller, Megiddo and von Stengel 1996): a game of imperfect information as
one linear program, solved by HiGHS in floats or by an exact simplex method in fractions.

A player's *realization plan* gives each of their sequences (the empty one, then one per slot
of `GameTree`) the probability that their own moves follow it when the others' moves allow:
x[empty] = 1, and at each of the player's information sets the slots sum to the set's parent
sequence (E x = e, F y = f, x, y >= 0). The payoff is bilinear, x^T A y, where A[s0, s1] sums
over the ends of the game reached by the sequences s0 and s1 the chance probability of the
path times the first player's payoff. The first player's equilibrium solves

    maximise f^T q  subject to  F^T q <= A^T x,  E x = e,  x >= 0  (q free),

the inner minimum over y replaced by its dual; the multipliers of F^T q <= A^T x are an optimal
plan y of the second player, so one solve answers for both, as in the matrix games' program
(`zerosum.theory.linear_program`). The program has as many rows and columns as the game has
sequences, not strategies: Kuhn poker's has 13 + 13 sequences, where its pure strategies number
64 and 64.

A plan becomes a behaviour strategy slot by slot: x[slot] / x[parent sequence], and the legal
moves alike where the player's own earlier moves never lead (x[parent] = 0).

The exact answer is never returned on trust: its profile, in fractions, must leave both best
responses (`zerosum.imperfect.best_response`) exactly the program's value, exploitability 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from zerosum.imperfect.best_response import measure
from zerosum.imperfect.tree import TERMINAL, GameTree, unroll
from zerosum.limits import Limit

#: The most sequences (both players', the empty ones included) that `solve` answers exactly:
#: the exact simplex method's tableau has a row and about three columns per sequence, and its
#: pivots grow with them (see `EXACT_SEQUENCES`'s measurements in the tests' module).
EXACT_SEQUENCES = Limit(
    "sequences of the two players for an exact solution",
    400,
    "the exact simplex method's time grows with the cube of the sequences and more (Kuhn"
    " poker's 26 take milliseconds)",
)

#: What HiGHS is asked for: its tightest tolerances, as for the matrix games.
_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

#: A realization below this counts as 0 when a float plan becomes a behaviour strategy.
_NEVER = 1e-12


@dataclass(frozen=True, eq=False)
class SequenceForm:
    """The sequence form of `tree` (see the module).

    `sequences[p]` holds player p's sequences in plan order: -1 for the empty sequence, then
    the player's slots in increasing order; `position[slot]` is a slot's place in its owner's
    plan. `payoffs` is A in floats (sparse, rows the first player's sequences, columns the
    second's) and `constraints` the pair (E, F), one row for the empty sequence and one per
    information set of the player, in the order of `tree.infosets_of`. The exact A is
    `exact_payoffs`, computed when first asked.
    """

    tree: GameTree
    sequences: tuple[np.ndarray, np.ndarray]
    position: np.ndarray
    payoffs: sparse.csr_array
    constraints: tuple[sparse.csr_array, sparse.csr_array]

    @property
    def sizes(self) -> tuple[int, int]:
        """The number of sequences of each player, the empty ones included."""
        return len(self.sequences[0]), len(self.sequences[1])

    @cached_property
    def exact_payoffs(self) -> dict[tuple[int, int], Fraction]:
        """The nonzero entries of A in fractions, by (first's sequence, second's sequence)."""
        tree = self.tree
        reach = exact_chance_reach(tree)
        first, second = self._terminal_sequences()
        entries: dict[tuple[int, int], Fraction] = {}
        ends = np.flatnonzero(tree.kind == TERMINAL).tolist()
        for n, s0, s1 in zip(ends, first, second, strict=True):
            entry = entries.get((s0, s1), Fraction(0)) + reach[n] * tree.exact_utility[n]
            entries[(s0, s1)] = entry
        return {pair: entry for pair, entry in entries.items() if entry}

    def _terminal_sequences(self) -> tuple[list[int], list[int]]:
        """For each end of the game in node order, the plan indices of the two players' last
        sequences on the way to it."""
        return _terminal_sequences(self.tree, self.position)

    def plan_index(self, slots: Any) -> np.ndarray:
        """The plan indices of sequences given as slots (-1: the empty sequence, index 0)."""
        return _plan_index(self.position, slots)

    def behaviour(self, plans: tuple[Any, Any]) -> Any:
        """The behaviour profile (one probability per slot) of two realization plans: each
        slot's realization over its parent sequence's, the moves alike where that is 0. Floats
        give a numpy array (negative noise cut off, each set's probabilities summing to 1),
        fractions a tuple of fractions."""
        tree = self.tree
        counts = np.diff(tree.action_start)
        owners = np.repeat(tree.owner, counts)
        exact = any(isinstance(p, Fraction) for plan in plans for p in plan)
        if exact:
            profile: list[Fraction] = []
            for i in range(len(tree.keys)):
                plan = plans[int(tree.owner[i])]
                start, end = int(tree.action_start[i]), int(tree.action_start[i + 1])
                reached = [Fraction(plan[int(self.position[s])]) for s in range(start, end)]
                total = sum(reached, Fraction(0))
                if total:
                    profile.extend(r / total for r in reached)
                else:
                    profile.extend([Fraction(1, end - start)] * (end - start))
            return tuple(profile)
        floats = [np.clip(np.asarray(plan, dtype=float), 0.0, None) for plan in plans]
        realized = np.zeros(tree.actions)
        for p in (0, 1):
            mine = owners == p
            realized[mine] = floats[p][self.position[mine]]
        totals = np.repeat(np.add.reduceat(realized, tree.action_start[:-1]), counts)
        never = totals <= _NEVER
        return np.where(
            never, np.repeat(1.0 / counts, counts), realized / np.where(never, 1, totals)
        )

    def plans(self, profile: Any) -> tuple[list[Any], list[Any]]:
        """The realization plans of a behaviour profile: each sequence's probability is its
        parent's times the slot's (information sets come parents first)."""
        tree = self.tree
        exact = not isinstance(profile, np.ndarray) and any(
            isinstance(p, Fraction) for p in profile
        )
        one = Fraction(1) if exact else 1.0
        plans: tuple[list[Any], list[Any]] = (
            [one] + [one * 0] * (self.sizes[0] - 1),
            [one] + [one * 0] * (self.sizes[1] - 1),
        )
        for i in range(len(tree.keys)):
            plan = plans[int(tree.owner[i])]
            parent = int(self.plan_index(tree.parent_sequence[i]))
            for s in range(int(tree.action_start[i]), int(tree.action_start[i + 1])):
                probability = profile[s] if exact else float(profile[s])
                plan[int(self.position[s])] = plan[parent] * probability
        return plans


def sequence_form(tree: GameTree) -> SequenceForm:
    """The sequence form of `tree`: its plans' indexing, A in floats and E and F."""
    counts = np.diff(tree.action_start)
    owners = np.repeat(tree.owner, counts)
    position = np.zeros(tree.actions, dtype=np.int64)
    sequences = []
    for p in (0, 1):
        slots = np.flatnonzero(owners == p)
        position[slots] = np.arange(1, len(slots) + 1)
        sequences.append(np.concatenate(([-1], slots)))
    shape = (len(sequences[0]), len(sequences[1]))
    ends = np.flatnonzero(tree.kind == TERMINAL)
    rows, columns = _terminal_sequences(tree, position)
    weights = chance_reach(tree)[ends] * tree.utility[ends]
    # A pair of sequences reached at several ends (chance's outcomes) sums its entries.
    payoffs = sparse.coo_array((weights, (rows, columns)), shape=shape).tocsr()
    return SequenceForm(
        tree=tree,
        sequences=(sequences[0], sequences[1]),
        position=position,
        payoffs=payoffs,
        constraints=(
            _constraints(tree, position, 0, shape[0]),
            _constraints(tree, position, 1, shape[1]),
        ),
    )


def _plan_index(position: np.ndarray, slots: Any) -> np.ndarray:
    """The plan indices of sequences given as slots (-1: the empty sequence, index 0)."""
    slots = np.asarray(slots)
    return np.where(slots < 0, 0, position[np.maximum(slots, 0)])


def _terminal_sequences(tree: GameTree, position: np.ndarray) -> tuple[list[int], list[int]]:
    """For each end of the game in node order, the plan indices of the two players' last
    sequences on the way to it."""
    ends = np.flatnonzero(tree.kind == TERMINAL)
    first, second = (_plan_index(position, tree.sequence[p, ends]).tolist() for p in (0, 1))
    return first, second


def _constraints(tree: GameTree, position: np.ndarray, player: int, size: int) -> sparse.csr_array:
    """E (or F): x[empty] = 1, then for each of the player's information sets its slots minus
    its parent sequence = 0."""
    rows, columns, values = [0], [0], [1.0]
    infosets = tree.infosets_of(player).tolist()
    for row, i in enumerate(infosets, 1):
        rows.append(row)
        columns.append(int(_plan_index(position, tree.parent_sequence[i])))
        values.append(-1.0)
        for s in range(int(tree.action_start[i]), int(tree.action_start[i + 1])):
            rows.append(row)
            columns.append(int(position[s]))
            values.append(1.0)
    shape = (len(infosets) + 1, size)
    return sparse.coo_array((values, (rows, columns)), shape=shape).tocsr()


def parents(tree: GameTree) -> np.ndarray:
    """Each node's parent (-1 for the first): children sit side by side, in their parents'
    order, so the parents are the nodes repeated by their number of children."""
    return np.concatenate(([-1], np.repeat(np.arange(tree.nodes), tree.child_count)))


def chance_reach(tree: GameTree) -> np.ndarray:
    """The probability that chance's moves lead to each node (the players' count 1): a pass a
    level, `tree.depth` of them, the first node's level first."""
    parent = parents(tree)
    reach = tree.chance.copy()
    for _ in range(tree.depth):
        reach[1:] = tree.chance[1:] * reach[parent[1:]]
    return reach


def exact_chance_reach(tree: GameTree) -> list[Fraction]:
    """`chance_reach` in fractions (`tree.exact_chance`), down the tree once."""
    parent = parents(tree).tolist()
    reach = [Fraction(1)] * tree.nodes
    for n in range(1, tree.nodes):
        reach[n] = reach[parent[n]] * tree.exact_chance[n]
    return reach


@dataclass(frozen=True, eq=False)
class Solution:
    """An equilibrium of a game of imperfect information, from its sequence form.

    `value`: the first player's payoff. `profile`: both players' behaviour strategies, one
    probability per slot of `tree` (a numpy array of floats, or a tuple of fractions when
    `exact`), ready for `zerosum.imperfect.best_response`. `plans`: the two realization plans
    (`SequenceForm.sequences` gives their order). An exact solution has been checked: the
    best responses to its profile gain nothing, exactly.
    """

    value: Any
    profile: Any
    plans: tuple[tuple[Any, ...], tuple[Any, ...]]
    exact: bool
    tree: GameTree

    def strategy(self, key: str) -> dict[str, Any]:
        """The probability of each move at the information set named `key`."""
        i = self.tree.index()[key]
        start = int(self.tree.action_start[i])
        return {move: self.profile[start + k] for k, move in enumerate(self.tree.moves[i])}


def solve(game: Any, *, exact: bool = False, lifted: bool = False) -> Solution:
    """An equilibrium of `game` (a `GameTree`, or a game `unroll` takes) from its sequence form:
    by HiGHS in floats, or with `exact` by the exact simplex method in fractions, checked.
    ValueError when an exact solution is asked of more than `EXACT_SEQUENCES` sequences
    (unless `lifted`, which lifts the tree's own limit too); ArithmeticError when HiGHS fails,
    which only numerical trouble can cause."""
    tree = game if isinstance(game, GameTree) else unroll(game, lifted=lifted)
    form = sequence_form(tree)
    if exact:
        EXACT_SEQUENCES.check(sum(form.sizes), lifted=lifted)
        return _solve_exact(form)
    return _solve_floats(form)


def _solve_floats(form: SequenceForm) -> Solution:
    """The program of the module by HiGHS, on A scaled to entries of at most 1 in size."""
    first, second = form.sizes
    e, f = form.constraints
    payoffs = form.payoffs
    scale = float(abs(payoffs).max()) if payoffs.nnz else 1.0
    scale = scale or 1.0  # HiGHS's tolerances are absolute: work in [-1, 1]
    free = f.shape[0]
    objective = np.zeros(first + free)
    objective[first] = -1.0  # maximise q[empty]: f is the unit vector of the empty sequence
    # F^T q - A^T x <= 0, one row per sequence of the second player
    upper = sparse.hstack((-payoffs.T / scale, f.T), format="csr")
    equal = sparse.hstack((e, sparse.csr_array((e.shape[0], free))), format="csr")
    right = np.zeros(e.shape[0])
    right[0] = 1.0
    result = linprog(  # type: ignore[call-overload]  # the stubs omit sparse matrices
        objective,
        A_ub=upper,
        b_ub=np.zeros(second),
        A_eq=equal,
        b_eq=right,
        bounds=[(0, None)] * first + [(None, None)] * free,
        method="highs",
        options=_OPTIONS,
    )
    if result.status != 0 or result.x is None:
        raise ArithmeticError(f"HiGHS failed on the sequence form: {result.message}")
    x = np.clip(result.x[:first], 0.0, None)
    y = np.clip(-result.ineqlin.marginals, 0.0, None)  # minimising: multipliers <= 0
    profile = form.behaviour((x, y))
    x_plan, y_plan = form.plans(profile)
    # The value as the pair's payoff: closer to the true value than HiGHS's objective.
    value = float(np.asarray(x_plan) @ (form.payoffs @ np.asarray(y_plan)))
    return Solution(value, profile, (tuple(x_plan), tuple(y_plan)), False, form.tree)


def _solve_exact(form: SequenceForm) -> Solution:
    """The program of the module in fractions by `exact_simplex`, checked (see the module).

    Standard form, all integers: A times the common denominator L of its entries, q split into
    q+ - q-, a slack per row of F^T q <= A^T x. Variables [x | q+ | q- | slack]; rows E x = e,
    then -L A^T x + F^T q+ - F^T q- + slack = 0; minimise -(q+[empty] - q-[empty]).
    """
    tree = form.tree
    first, second = form.sizes
    e, f = (matrix.toarray().astype(np.int64).tolist() for matrix in form.constraints)
    free = len(f)
    entries = form.exact_payoffs
    scale = math.lcm(*(entry.denominator for entry in entries.values()))
    columns = first + 2 * free + second
    rows: list[list[int]] = [row + [0] * (columns - first) for row in e]
    for j in range(second):
        row = [0] * columns
        for k in range(free):
            row[first + k] = f[k][j]
            row[first + free + k] = -f[k][j]
        row[first + 2 * free + j] = 1
        rows.append(row)
    for (s0, s1), entry in entries.items():
        rows[len(e) + s1][s0] = -int(entry * scale)
    right = [1] + [0] * (len(rows) - 1)
    cost = [0] * columns
    cost[first], cost[first + free] = -1, 1
    optimum = exact_simplex(rows, right, cost)
    x = tuple(optimum.values[:first])
    y = tuple(optimum.reduced_costs[first + 2 * free :])
    value = (optimum.values[first] - optimum.values[first + free]) / scale
    profile = form.behaviour((x, y))
    _certify(form, x, y, profile, value)
    return Solution(value, profile, (x, y), True, tree)


def _certify(
    form: SequenceForm,
    x: tuple[Fraction, ...],
    y: tuple[Fraction, ...],
    profile: tuple[Fraction, ...],
    value: Fraction,
) -> None:
    """ArithmeticError unless x and y are realization plans and the profile is an equilibrium
    worth `value`: each best response gains exactly `value` for its player (exploitability
    0). A correct simplex method never fails this; it is the reason to trust the answer."""
    for plan, constraints in zip((x, y), form.constraints, strict=True):
        matrix = constraints.toarray().astype(np.int64).tolist()
        sums = [
            sum((c * p for c, p in zip(row, plan, strict=True) if c), Fraction(0)) for row in matrix
        ]
        if any(p < 0 for p in plan) or sums != [1] + [0] * (len(sums) - 1):
            raise ArithmeticError("the exact simplex method returned a plan that is not one")
    found = measure(form.tree, profile)
    if found.value != value or found.best_values != (value, -value):
        raise ArithmeticError("the exact simplex method returned strategies that are not optimal")


@dataclass(frozen=True)
class Optimum:
    """A basic optimal solution of `exact_simplex`'s program: every variable's value and every
    column's reduced cost (the dual's slack: for a slack column, its row's multiplier)."""

    values: tuple[Fraction, ...]
    reduced_costs: tuple[Fraction, ...]


def exact_simplex(rows: list[list[int]], right: list[int], cost: list[int]) -> Optimum:
    """Minimise cost . z subject to rows z = right, z >= 0, exactly: integers in, fractions out.

    The right-hand sides must be >= 0. Columns equal to a unit vector at no cost (a slack)
    start the basis; the other rows get an artificial variable, driven to 0 by a first phase
    and then out of the basis. Each row is kept as integers with no common factor, divided by
    its basic variable's coefficient (always positive): a pivot rewrites only the rows whose
    entry in the entering column is not 0, which keeps a sparse program cheap. Bland's rule
    (the first improving column; the leaving row by least ratio, then least basic variable)
    cannot cycle. ValueError for an infeasible or unbounded program.
    """
    height, width = len(rows), len(rows[0])
    basis = [-1] * height
    for j in range(width):
        column = [row[j] for row in rows]
        if cost[j] == 0 and column.count(0) == height - 1 and 1 in column:
            i = column.index(1)
            if basis[i] < 0:
                basis[i] = j
    missing = [i for i in range(height) if basis[i] < 0]
    total = width + len(missing)
    tableau = [row + [0] * len(missing) + [b] for row, b in zip(rows, right, strict=True)]
    for k, i in enumerate(missing):
        tableau[i][width + k] = 1
        basis[i] = width + k
    # The first phase minimises the artificial variables' sum: in the nonbasic variables, minus
    # the sum of their rows. The program's own costs need no such step: slacks cost nothing.
    first = _Costs([0] * (total + 1), 1)
    for i in missing:
        first.row = [a - b for a, b in zip(first.row, tableau[i], strict=True)]
    first.row[width:total] = [0] * len(missing)
    costs = [_Costs([*cost, *([0] * len(missing)), 0], 1), first]
    if missing:
        _run(tableau, basis, costs, first, total)
        if first.row[-1] != 0:
            raise ValueError("the program has no feasible point")
        for i in range(height):  # artificial variables left at 0: pivot them out
            if basis[i] >= width:
                entering = next((j for j in range(width) if tableau[i][j]), None)
                if entering is not None:  # else the row is redundant: its artificial stays 0
                    _pivot(tableau, basis, costs, i, entering)
    _run(tableau, basis, costs[:1], costs[0], width)
    values = [Fraction(0)] * width
    for i, variable in enumerate(basis):
        if variable < width:
            values[variable] = Fraction(tableau[i][-1], tableau[i][variable])
    reduced = costs[0]
    return Optimum(
        tuple(values), tuple(Fraction(c, reduced.denominator) for c in reduced.row[:width])
    )


@dataclass
class _Costs:
    """A row of reduced costs, `row` over `denominator` (positive); its last entry is minus the
    objective's value."""

    row: list[int]
    denominator: int

    def eliminate(self, top: list[int], column: int) -> None:
        """Clear `column` by the tableau row `top`, whose entry there is positive."""
        pivot, factor = top[column], self.row[column]
        new = [pivot * a - factor * b for a, b in zip(self.row, top, strict=True)]
        denominator = self.denominator * pivot
        common = math.gcd(math.gcd(*new), denominator)
        self.row = [a // common for a in new]
        self.denominator = denominator // common


def _run(
    tableau: list[list[int]], basis: list[int], costs: list[_Costs], goal: _Costs, allowed: int
) -> None:
    """Pivot by Bland's rule until no column below `allowed` lowers `goal`'s objective."""
    while True:
        entering = next((j for j in range(allowed) if goal.row[j] < 0), None)
        if entering is None:
            return
        candidates = [i for i, row in enumerate(tableau) if row[entering] > 0]
        if not candidates:
            raise ValueError("the program is unbounded")
        leaving = min(
            candidates,
            key=lambda i: (Fraction(tableau[i][-1], tableau[i][entering]), basis[i]),
        )
        _pivot(tableau, basis, costs, leaving, entering)


def _pivot(
    tableau: list[list[int]], basis: list[int], costs: list[_Costs], leaving: int, entering: int
) -> None:
    """Make `entering` basic in row `leaving`, updating the tableau and every cost row (its
    entry may be negative only when an artificial variable at 0 leaves: the row changes sign)."""
    top = tableau[leaving]
    if top[entering] < 0:
        top[:] = [-a for a in top]
    pivot = top[entering]
    for i, row in enumerate(tableau):
        factor = row[entering]
        if i == leaving or not factor:
            continue
        new = [pivot * a - factor * b for a, b in zip(row, top, strict=True)]
        common = math.gcd(*new)
        tableau[i] = [a // common for a in new] if common > 1 else new
    for reduced in costs:
        if reduced.row[entering]:
            reduced.eliminate(top, entering)
    basis[leaving] = entering
