"""The sequence form (Koller, Megiddo and von Stengel 1996): a game of imperfect information as
one linear program, solved by HiGHS in floats or exactly in fractions.

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

The exact plans come from the floating-point answer's supports, as for matrix games, or from
an exact simplex method when the floats mislead (`solve_exact`), and are never returned on
trust: their profile, in fractions, must leave both best responses
(`zerosum.imperfect.best_response`) exactly the program's value, exploitability 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from zerosum.imperfect.best_response import measure
from zerosum.imperfect.tree import TERMINAL, GameTree, unroll
from zerosum.limits import Limit
from zerosum.theory.rational import solve_linear_system

#: The most sequences (both players', the empty ones included) that `solve` answers exactly.
#: The exact plans usually come from the floating-point answer's supports, by elimination in
#: integers: Kuhn poker's 26 sequences take 20 ms, Kuhn poker with 30 cards (242 sequences)
#: 0.6 s, with 100 cards (802) 12 s, a 150 x 150 matrix game of one-digit entries (302) 2 s,
#: Leduc poker (2,186) four minutes (its value's numerator and denominator have 31 digits).
EXACT_SEQUENCES = Limit(
    "sequences of the two players for an exact solution",
    2_500,
    "exact elimination takes time growing with the cube of the sequences (Leduc poker's 2,186"
    " take four minutes)",
)

#: The most sequences for the exact simplex method, which answers only when the floating-point
#: supports mislead (none of hundreds of random matrix games and trees needed it): Kuhn poker
#: takes 13 ms, with 20 cards (162 sequences) 3 s, with 30 (242) 15 s, a 50 x 50 matrix game
#: of one-digit entries (102) 2 s but a 100 x 100 one (202) five minutes: its numbers grow.
EXACT_SIMPLEX = Limit(
    "sequences of the two players for the exact simplex method",
    150,
    "its pivots grow with the sequences and its numbers with the payoffs (202 sequences of a"
    " matrix game took five minutes)",
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
        reach = tree.exact_chance_reach
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
        owners, starts = tree.owner.tolist(), tree.action_start.tolist()
        parents, position = self.plan_index(tree.parent_sequence).tolist(), self.position.tolist()
        numbers = list(profile) if exact else np.asarray(profile, dtype=float).tolist()
        for i, parent in enumerate(parents):
            plan = plans[owners[i]]
            for s in range(starts[i], starts[i + 1]):
                plan[position[s]] = plan[parent] * numbers[s]
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
    weights = tree.chance_reach[ends] * tree.utility[ends]
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
    return np.append(position, 0)[slots]  # -1, the empty sequence, takes the 0 put last


def _terminal_sequences(tree: GameTree, position: np.ndarray) -> tuple[list[int], list[int]]:
    """For each end of the game in node order, the plan indices of the two players' last
    sequences on the way to it."""
    ends = np.flatnonzero(tree.kind == TERMINAL)
    first, second = (_plan_index(position, tree.sequence[p, ends]).tolist() for p in (0, 1))
    return first, second


def _constraints(tree: GameTree, position: np.ndarray, player: int, size: int) -> sparse.csr_array:
    """E (or F): x[empty] = 1, then for each of the player's information sets its slots minus
    its parent sequence = 0."""
    infosets = tree.infosets_of(player)
    counts = np.diff(tree.action_start)[infosets]
    rows = np.arange(1, len(infosets) + 1)
    # The player's slots in increasing order are their sets' slots, set after set.
    slots = np.flatnonzero(np.repeat(tree.owner, np.diff(tree.action_start)) == player)
    shape = (len(infosets) + 1, size)
    return sparse.coo_array(
        (
            np.concatenate(([1.0], -np.ones(len(infosets)), np.ones(len(slots)))),
            (
                np.concatenate(([0], rows, np.repeat(rows, counts))),
                np.concatenate(
                    ([0], _plan_index(position, tree.parent_sequence[infosets]), position[slots])
                ),
            ),
        ),
        shape=shape,
    ).tocsr()


@dataclass(frozen=True, eq=False)
class Solution:
    """An equilibrium of a game of imperfect information, from its sequence form.

    `value`: the first player's payoff. `profile`: both players' behaviour strategies, one
    probability per slot of `tree` (a numpy array of floats, or a tuple of fractions when
    `exact`), ready for `zerosum.imperfect.best_response`. `plans`: the two realization plans
    (`SequenceForm.sequences` gives their order). An exact solution has been checked: the
    best responses to its profile gain nothing, exactly. `method`: "highs" (floats),
    "supports" (exact, from the floats' supports) or "simplex" (exact, `exact_simplex`).
    """

    value: Any
    profile: Any
    plans: tuple[tuple[Any, ...], tuple[Any, ...]]
    exact: bool
    tree: GameTree = field(repr=False)
    method: str

    def strategy(self, key: str) -> dict[str, Any]:
        """The probability of each move at the information set named `key`."""
        i = self.tree.index()[key]
        start = int(self.tree.action_start[i])
        return {move: self.profile[start + k] for k, move in enumerate(self.tree.moves[i])}


def solve(game: Any, *, exact: bool = False, lifted: bool = False) -> Solution:
    """An equilibrium of `game` (a `GameTree`, or a game `unroll` takes) from its sequence form,
    by HiGHS in floats, or with `exact` in fractions, checked (`solve_exact`).

    ValueError when an exact solution is asked of more than `EXACT_SEQUENCES` sequences
    (unless `lifted`, which lifts the tree's own limit and `EXACT_SIMPLEX` too);
    ArithmeticError when HiGHS fails, which only numerical trouble can cause.
    """
    tree = game if isinstance(game, GameTree) else unroll(game, lifted=lifted)
    form = sequence_form(tree)
    if exact:
        EXACT_SEQUENCES.check(sum(form.sizes), lifted=lifted)
    guess = _float_program(form)
    if exact:
        return solve_exact(form, guess, lifted=lifted)
    profile = form.behaviour((guess.x, guess.y))
    x_plan, y_plan = form.plans(profile)
    # The value as the pair's payoff: closer to the true value than HiGHS's objective.
    value = float(np.asarray(x_plan) @ (form.payoffs @ np.asarray(y_plan)))
    return Solution(value, profile, (tuple(x_plan), tuple(y_plan)), False, tree, "highs")


@dataclass(frozen=True)
class FloatOptimum:
    """HiGHS's answer to the program of the module, on A divided by its largest entry in size:
    the plans x and y, and how far each constraint x >= 0 (`x_slack`, the reduced costs) and
    F^T q <= A^T x (`y_slack`, one per sequence of the second player) is from tight."""

    x: np.ndarray
    y: np.ndarray
    x_slack: np.ndarray
    y_slack: np.ndarray


def _float_program(form: SequenceForm) -> FloatOptimum:
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
    return FloatOptimum(
        x=np.clip(result.x[:first], 0.0, None),
        y=np.clip(-result.ineqlin.marginals, 0.0, None),  # minimising: multipliers <= 0
        x_slack=np.abs(result.lower.marginals[:first]),
        y_slack=np.abs(result.ineqlin.residual),
    )


def solve_exact(
    form: SequenceForm, guess: FloatOptimum | None = None, *, lifted: bool = False
) -> Solution:
    """An equilibrium in fractions, checked: from the floating-point answer `guess` when it
    leads to one, else by `exact_simplex`.

    As for matrix games (`zerosum.theory.rational`), the floats tell which sequences are
    played and which constraints are tight; the exact plans are then the solution of those
    equations, x with the multipliers q of F^T q <= A^T x and y with the multipliers p of
    E x = e (first the constraints of the sequences the other player plays, by complementary
    slackness, then every constraint the floats find tight, for games with many equilibria).
    Whatever gave them, plans are returned only when `_certified`; the simplex method's must
    be, or ArithmeticError. ValueError when the simplex method is needed for more than
    `EXACT_SIMPLEX` sequences, unless `lifted`.
    """
    integers = _Integers(form)
    if guess is not None:
        played = (np.flatnonzero(guess.x > _TOLERANCE), np.flatnonzero(guess.y > _TOLERANCE))
        tight = (
            np.flatnonzero(guess.x_slack <= _TOLERANCE),
            np.flatnonzero(guess.y_slack <= _TOLERANCE),
        )
        for x_facing, y_facing in ((played[1], played[0]), (tight[1], tight[0])):
            x, q = integers.plan(0, played[0].tolist(), x_facing.tolist())
            y, p = integers.plan(1, played[1].tolist(), y_facing.tolist())
            if x is None or y is None or q is None or p is None or q[0] != p[0]:
                continue
            solution = _certified(form, x, y, q[0] / integers.scale, "supports")
            if solution is not None:
                return solution
    EXACT_SIMPLEX.check(sum(form.sizes), lifted=lifted)
    x, y, value = integers.simplex()
    solution = _certified(form, x, y, value, "simplex")
    if solution is None:  # cannot happen for a correct simplex: refuse rather than answer unproved
        raise ArithmeticError("the exact simplex method returned strategies that are not optimal")
    return solution


#: Probabilities and slacks below this count as 0 when reading HiGHS's answer (on A scaled to
#: at most 1 in size); any mistake is caught by the exact check.
_TOLERANCE = 1e-9


class _Integers:
    """The program of the module in integers: A times the common denominator `scale` of its
    entries, by row (`by_row[s0]`: s1 -> entry) and by column, and E and F by column."""

    def __init__(self, form: SequenceForm) -> None:
        self.form = form
        entries = form.exact_payoffs
        self.scale = math.lcm(*(entry.denominator for entry in entries.values()))
        first, second = form.sizes
        self.by_row: list[dict[int, int]] = [{} for _ in range(first)]
        self.by_column: list[dict[int, int]] = [{} for _ in range(second)]
        for (s0, s1), entry in entries.items():
            self.by_row[s0][s1] = self.by_column[s1][s0] = int(entry * self.scale)
        self.rows: list[list[dict[int, int]]] = []  # per player: the constraints' rows
        self.columns: list[list[dict[int, int]]] = []  # per player: the constraints' columns
        for p in (0, 1):
            matrix = form.constraints[p].tocoo()
            rows: list[dict[int, int]] = [{} for _ in range(matrix.shape[0])]
            columns: list[dict[int, int]] = [{} for _ in range(matrix.shape[1])]
            for k, s, a in zip(
                matrix.row.tolist(), matrix.col.tolist(), matrix.data.tolist(), strict=True
            ):
                rows[k][s] = columns[s][k] = int(a)
            self.rows.append(rows)
            self.columns.append(columns)

    def plan(
        self, player: int, support: list[int], facing: list[int]
    ) -> tuple[tuple[Fraction, ...] | None, list[Fraction] | None]:
        """The plan of `player` played on `support` that meets its own constraints and makes
        the other player's sequences `facing` tight, with the multipliers of those (None, None
        when the equations have no solution). For the first player: E x = e and
        (L A^T x - F^T q)[j] = 0 for j in `facing`; for the second, F y = f and
        (L A y - E^T p)[i] = 0."""
        payoffs = self.by_column if player == 0 else self.by_row
        other = self.columns[1 - player]
        duals = len(self.rows[1 - player])
        equations = [
            [row.get(s, 0) for s in support] + [0] * duals + [int(k == 0)]
            for k, row in enumerate(self.rows[player])
        ]
        for j in facing:
            equations.append(
                [payoffs[j].get(s, 0) for s in support]
                + [-other[j].get(k, 0) for k in range(duals)]
                + [0]
            )
        solution = solve_linear_system(equations)
        if solution is None:
            return None, None
        plan = [Fraction(0)] * self.form.sizes[player]
        for s, value in zip(support, solution, strict=False):
            plan[s] = value
        return tuple(plan), solution[len(support) :]

    def simplex(self) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], Fraction]:
        """Both plans and the value by `exact_simplex`. Standard form: q split into q+ - q-, a
        slack per row of F^T q <= L A^T x. Variables [x | q+ | q- | slack]; rows E x = e, then
        -L A^T x + F^T q+ - F^T q- + slack = 0; minimise -(q+[empty] - q-[empty]). The
        multipliers of the second block, y, are the slacks' reduced costs."""
        first, second = self.form.sizes
        free = len(self.rows[1])
        rows: list[Row] = [dict(row) for row in self.rows[0]]
        for s1 in range(second):
            row = {first + k: a for k, a in self.columns[1][s1].items()}
            row.update({first + free + k: -a for k, a in self.columns[1][s1].items()})
            row.update({s0: -a for s0, a in self.by_column[s1].items()})
            row[first + 2 * free + s1] = 1
            rows.append(row)
        right = [1] + [0] * (len(rows) - 1)
        optimum = exact_simplex(
            rows, right, {first: -1, first + free: 1}, first + 2 * free + second
        )
        x = optimum.values[:first]
        y = optimum.reduced_costs[first + 2 * free :]
        return x, y, (optimum.values[first] - optimum.values[first + free]) / self.scale


def _certified(
    form: SequenceForm,
    x: tuple[Fraction, ...],
    y: tuple[Fraction, ...],
    value: Fraction,
    method: str,
) -> Solution | None:
    """The exact solution of plans x and y, when they are realization plans and their profile
    an equilibrium worth `value` (the program's optimum): each best response gains exactly
    `value` for its player, so exploitability is 0. Else None."""
    for plan, constraints in zip((x, y), form.constraints, strict=True):
        matrix = constraints.tocoo()
        sums = [Fraction(0)] * matrix.shape[0]
        for k, s, a in zip(
            matrix.row.tolist(), matrix.col.tolist(), matrix.data.tolist(), strict=True
        ):
            sums[k] += int(a) * plan[s]
        if any(p < 0 for p in plan) or sums != [1] + [0] * (len(sums) - 1):
            return None
    profile = form.behaviour((x, y))
    if not profile:  # nobody chooses: an empty profile would be measured in floats
        if form.exact_payoffs.get((0, 0), 0) != value:
            return None
    else:
        found = measure(form.tree, profile)
        if found.value != value or found.best_values != (value, -value):
            return None
    return Solution(value, profile, (x, y), True, form.tree, method)


@dataclass(frozen=True)
class Optimum:
    """A basic optimal solution of `exact_simplex`'s program: every variable's value and every
    column's reduced cost (the dual's slack: for a slack column, its row's multiplier)."""

    values: tuple[Fraction, ...]
    reduced_costs: tuple[Fraction, ...]


#: The key of a row's right-hand side (and of minus the objective in a cost row).
RIGHT = -1

Row = dict[int, int]
"""A row of `exact_simplex`'s program: its nonzero coefficients by column (and `RIGHT`)."""


def exact_simplex(rows: list[Row], right: list[int], cost: Row, width: int) -> Optimum:
    """Minimise cost . z subject to rows z = right, z >= 0 (z of `width` variables), exactly:
    integers in, fractions out. Rows and costs are sparse: their nonzero entries by column.

    The right-hand sides must be >= 0. Columns equal to a unit vector at no cost (a slack)
    start the basis; the other rows get an artificial variable, driven to 0 by a first phase
    and then out of the basis. Each row is kept as integers with no common factor, divided by
    its basic variable's coefficient (always positive), and sparse: a pivot rewrites only the
    rows with an entry in the entering column, and only their nonzero entries.

    The entering column is the one whose reduced cost is the most negative (Dantzig's rule)
    while pivots lower the objective. A pivot that would not (degenerate: the leaving row's
    right-hand side is 0) is chosen by Bland's rule instead (the first improving column; the
    leaving row by least ratio, then least basic variable), until a pivot lowers the objective
    again: Bland's rule cannot cycle, and a lower objective never returns to a basis seen, so
    the method ends. ValueError for an infeasible or unbounded program.
    """
    height = len(rows)
    basis = [-1] * height
    entries: dict[int, list[tuple[int, int]]] = {}
    for i, row in enumerate(rows):
        for j, a in row.items():
            entries.setdefault(j, []).append((i, a))
    for j, column in sorted(entries.items()):
        if not cost.get(j) and len(column) == 1 and column[0][1] == 1 and basis[column[0][0]] < 0:
            basis[column[0][0]] = j
    missing = [i for i in range(height) if basis[i] < 0]
    total = width + len(missing)
    tableau = [{**row, RIGHT: b} if b else dict(row) for row, b in zip(rows, right, strict=True)]
    first = _Costs({}, 1)  # the first phase: minimise the artificial variables' sum
    for k, i in enumerate(missing):
        basis[i] = width + k
        for j, a in tableau[i].items():  # in the nonbasic variables: minus their rows
            first.row[j] = first.row.get(j, 0) - a
        tableau[i][width + k] = 1
    first.row = {j: a for j, a in first.row.items() if a}
    # The program's own costs need no such step: the slacks in the basis cost nothing.
    costs = [_Costs(dict(cost), 1), first]
    if missing:
        _run(tableau, basis, costs, first, total)
        if first.row.get(RIGHT, 0) != 0:
            raise ValueError("the program has no feasible point")
        for i in range(height):  # artificial variables left at 0: pivot them out
            if basis[i] >= width:
                entering = min((j for j in tableau[i] if 0 <= j < width), default=None)
                if entering is not None:  # else the row is redundant: its artificial stays 0
                    _pivot(tableau, basis, costs, i, entering)
    _run(tableau, basis, costs[:1], costs[0], width)
    values = [Fraction(0)] * width
    for i, variable in enumerate(basis):
        if variable < width:
            values[variable] = Fraction(tableau[i].get(RIGHT, 0), tableau[i][variable])
    reduced = costs[0]
    return Optimum(
        tuple(values),
        tuple(Fraction(reduced.row.get(j, 0), reduced.denominator) for j in range(width)),
    )


@dataclass
class _Costs:
    """A row of reduced costs, sparse, `row` over `denominator` (positive); its `RIGHT` entry
    is minus the objective's value."""

    row: Row
    denominator: int

    def eliminate(self, top: Row, column: int) -> None:
        """Clear `column` by the tableau row `top`, whose entry there is positive."""
        new, factor = _combine(top[column], self.row, self.row[column], top)
        del factor
        denominator = self.denominator * top[column]
        common = math.gcd(math.gcd(*new.values()), denominator)
        self.row = {j: a // common for j, a in new.items()}
        self.denominator = denominator // common


def _combine(pivot: int, row: Row, factor: int, top: Row) -> tuple[Row, int]:
    """pivot * row - factor * top, its zeros dropped, and the gcd of its entries."""
    new = {j: pivot * a for j, a in row.items()}
    for j, b in top.items():
        a = new.get(j, 0) - factor * b
        if a:
            new[j] = a
        else:
            new.pop(j, None)
    return new, math.gcd(*new.values())


def _run(
    tableau: list[Row], basis: list[int], costs: list[_Costs], goal: _Costs, allowed: int
) -> None:
    """Pivot until no column below `allowed` lowers `goal`'s objective (see `exact_simplex`)."""
    bland = False
    while True:
        improving = [(a, j) for j, a in goal.row.items() if a < 0 and 0 <= j < allowed]
        if not improving:
            return
        entering = min(j for _, j in improving) if bland else min(improving)[1]
        candidates = [i for i, row in enumerate(tableau) if row.get(entering, 0) > 0]
        if not candidates:
            raise ValueError("the program is unbounded")
        leaving = min(
            candidates,
            key=lambda i: (Fraction(tableau[i].get(RIGHT, 0), tableau[i][entering]), basis[i]),
        )
        lowers = RIGHT in tableau[leaving]
        if not bland and not lowers:
            bland = True  # choose this degenerate pivot, and those after it, by Bland's rule
            continue
        _pivot(tableau, basis, costs, leaving, entering)
        bland = bland and not lowers


def _pivot(
    tableau: list[Row], basis: list[int], costs: list[_Costs], leaving: int, entering: int
) -> None:
    """Make `entering` basic in row `leaving`, updating the tableau and every cost row (its
    entry may be negative only when an artificial variable at 0 leaves: the row changes sign)."""
    top = tableau[leaving]
    if top[entering] < 0:
        top = tableau[leaving] = {j: -a for j, a in top.items()}
    pivot = top[entering]
    for i, row in enumerate(tableau):
        factor = row.get(entering, 0)
        if i == leaving or not factor:
            continue
        new, common = _combine(pivot, row, factor, top)
        tableau[i] = {j: a // common for j, a in new.items()} if common > 1 else new
    for reduced in costs:
        if reduced.row.get(entering):
            reduced.eliminate(top, entering)
    basis[leaving] = entering
