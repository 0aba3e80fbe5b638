"""Bimatrix games: every Nash equilibrium, exactly, by support enumeration, by vertex enumeration
and by the Lemke–Howson algorithm; pure equilibria, dominance and the check of a pair of
strategies.

Conventions. The game is a `Bimatrix`: at row i and column j the row player gets `A[i][j]`
(`row_payoffs`) and the column player `B[i][j]` (`column_payoffs`); each maximises their own
payoff, and each payoff is from its own player's point of view (in a zero-sum game B = -A, and
A is what `zerosum.theory.matrix` solves). A mixed strategy is a tuple of probabilities, the
row player's `x` over rows, the column player's `y` over columns; strategies are numbered from
0. Every answer is exact (`int` and `Fraction`): float entries are taken at their exact binary
value.

A pair (x, y) is an equilibrium when neither player gains by deviating: no row pays the row
player more than `x A y` against y, no column pays the column player more than `x B y` against
x (`gains` measures both). The game is *nondegenerate* when no mixed strategy with k pure
strategies in its support has more than k pure best responses; then its equilibria are finitely
many and each has supports of one size, found by both enumerations. In a degenerate game the
equilibria may form continua: vertex enumeration then gives the *extreme* equilibria (the
corners of those sets, every equilibrium being a mix of corners that belong to one set) and
says the game is degenerate; support enumeration gives the equilibria it finds on supports of
one size whose equations have one solution.

The polytopes (von Stengel, "Computing equilibria for two-person games", 2002): with A and B
shifted to be positive (which changes no equilibrium), P = {x >= 0 : B^T x <= 1} and
Q = {y >= 0 : A y <= 1}. Labels 0..m-1 name the rows, m..m+n-1 the columns; a point of P has
label i when x_i = 0 and label m+j when column j is a best response to it, a point of Q label
m+j when y_j = 0 and label i when row i is a best response. The equilibria are the pairs of
points of P and Q, other than (0, 0), that together have every label, scaled to sum to 1.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from zerosum.limits import Limit
from zerosum.theory.matrix import Elimination, iterated_elimination, mixed_strategy
from zerosum.theory.payoffs import Bimatrix, MatrixLike, Number, PayoffMatrix, bimatrix

__all__ = [
    "SUPPORTS",
    "Equilibria",
    "Equilibrium",
    "Gains",
    "Reduction",
    "eliminate_dominated",
    "gains",
    "lemke_howson",
    "pure_equilibria",
    "support_enumeration",
    "vertex_enumeration",
]

SUPPORTS = Limit(
    "pairs of supports of a bimatrix game",
    200_000,
    "support enumeration solves up to two systems of equations in fractions for each, and"
    " vertex enumeration may meet as many bases; a 10 x 10 game has 184,756 and takes about a"
    " minute",
)
"""The largest C(m + n, m) the enumerations take: the pairs of supports of one size of an
m x n game, and a bound on the bases of its polytopes."""

Game = Bimatrix | tuple[MatrixLike, MatrixLike]
"""A bimatrix game, or its two matrices (A, B)."""


@dataclass(frozen=True)
class Equilibrium:
    """A Nash equilibrium: the row player's mixed strategy `row_strategy` (a probability a row),
    the column player's `column_strategy`, and what each expects, `row_payoff` (x A y, the row
    player's) and `column_payoff` (x B y, the column player's)."""

    row_strategy: tuple[Number, ...]
    column_strategy: tuple[Number, ...]
    row_payoff: Number
    column_payoff: Number


@dataclass(frozen=True)
class Equilibria:
    """The equilibria an `algorithm` found, each once, in a fixed order (fewest strategies in
    the supports first, then by the row player's probabilities, the larger first); `degenerate`
    is true when the game is known to be degenerate (see the module: then vertex enumeration's
    are the extreme equilibria)."""

    equilibria: tuple[Equilibrium, ...]
    degenerate: bool
    algorithm: Literal["support enumeration", "vertex enumeration"]


@dataclass(frozen=True)
class Gains:
    """What each player gains by their best pure deviation from (x, y), in their own payoff:
    `row_gain` = max_i (A y)_i - x A y, `column_gain` = max_j (x B)_j - x B y. Both are >= 0;
    both are 0 exactly when (x, y) is an equilibrium."""

    row_payoff: Number
    column_payoff: Number
    row_gain: Number
    column_gain: Number


@dataclass(frozen=True)
class Reduction:
    """A bimatrix game after iterated elimination of strictly dominated strategies: the rows and
    columns left (original indices) and the eliminations in order."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    eliminations: tuple[Elimination, ...]


def pure_equilibria(data: Game) -> tuple[tuple[int, int], ...]:
    """Every cell (row, column) where each player's strategy is a best response to the other's:
    A[i][j] is the most of its column and B[i][j] the most of its row. In a zero-sum game these
    are the saddle points."""
    game = _game(data)
    a, b = game.row_payoffs, game.column_payoffs
    best_in_column = [max(column) for column in a.columns]
    best_in_row = [max(row) for row in b.rows]
    return tuple(
        (i, j)
        for i in range(game.shape[0])
        for j in range(game.shape[1])
        if a.rows[i][j] == best_in_column[j] and b.rows[i][j] == best_in_row[i]
    )


def eliminate_dominated(data: Game, *, lifted: bool = False) -> Reduction:
    """Iterated elimination of strictly dominated strategies, each player judged by their own
    payoffs (`zerosum.theory.matrix.iterated_elimination`: the lowest-numbered dominated row
    first, then columns, until nothing is dominated, within `DOMINANCE_COMPARISONS` unless
    `lifted`). No equilibrium is lost."""
    game = _game(data)
    rows, columns, eliminations = iterated_elimination(
        game.row_payoffs.rows, game.column_payoffs.columns, lifted=lifted
    )
    return Reduction(rows, columns, eliminations)


def gains(data: Game, row_strategy: Sequence[Number], column_strategy: Sequence[Number]) -> Gains:
    """Each player's gain from their best pure deviation against the other's mixed strategy,
    exact when the game and both strategies are; ValueError for a strategy of the wrong length,
    with a negative probability or not summing to 1."""
    game = _game(data)
    rows, columns = game.shape
    x = mixed_strategy(row_strategy, rows, "row")
    y = mixed_strategy(column_strategy, columns, "column")
    a, b = game.row_payoffs.rows, game.column_payoffs.rows
    row_payoffs = [_dot(a[i], y) for i in range(rows)]
    column_payoffs = [sum(x[i] * b[i][j] for i in range(rows)) for j in range(columns)]
    row_payoff = _dot(row_payoffs, x)
    column_payoff = _dot(column_payoffs, y)
    return Gains(
        row_payoff=_plain(row_payoff),
        column_payoff=_plain(column_payoff),
        row_gain=_plain(max(max(row_payoffs) - row_payoff, 0)),
        column_gain=_plain(max(max(column_payoffs) - column_payoff, 0)),
    )


def support_enumeration(data: Game, *, lifted: bool = False) -> Equilibria:
    """The equilibria with supports of one size: for each pair of supports (I, J) with
    |I| = |J|, the strategies making the other player indifferent on them, kept when they are
    positive there and no pure strategy outside pays more. In a nondegenerate game these are
    all its equilibria. `degenerate` is true when an equilibrium found has more best responses
    than its support has strategies (a witness; a degenerate game may show none here).
    ValueError over `SUPPORTS` (unless `lifted`)."""
    game = _game(data)
    rows, columns = game.shape
    _check_size(rows, columns, lifted)
    a, b = _positive(game.row_payoffs), _positive(game.column_payoffs)
    b_columns = [list(column) for column in zip(*b, strict=True)]
    found: set[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]] = set()
    degenerate = False
    for size in range(1, min(rows, columns) + 1):
        for row_support in itertools.combinations(range(rows), size):
            for column_support in itertools.combinations(range(columns), size):
                # The column player's y makes the rows of I indifferent against it...
                y = _indifferent(a, row_support, column_support, columns)
                if y is None:
                    continue
                # ... and the row player's x the columns of J.
                x = _indifferent(b_columns, column_support, row_support, rows)
                if x is None:
                    continue
                found.add((x, y))
                best_rows = _best(a, y)
                best_columns = _best(b_columns, x)
                degenerate |= len(best_rows) > size or len(best_columns) > size
    return Equilibria(_sorted(game, found), degenerate, "support enumeration")


def vertex_enumeration(data: Game, *, lifted: bool = False) -> Equilibria:
    """Every extreme equilibrium: the vertices of the polytopes P and Q (the module), found by
    visiting every feasible basis of each from the origin by exact pivots, and paired when
    together they have every label. In a nondegenerate game these are all its equilibria;
    `degenerate` is true exactly when a vertex has more labels than its polytope has dimensions,
    which is when the game is degenerate. ValueError over `SUPPORTS` (unless `lifted`)."""
    game = _game(data)
    rows, columns = game.shape
    _check_size(rows, columns, lifted)
    p_vertices = _vertices(_polytope_p(game), range(rows))
    q_vertices = _vertices(_polytope_q(game), range(rows, rows + columns))
    degenerate = any(bin(labels).count("1") > rows for labels in p_vertices.values()) or any(
        bin(labels).count("1") > columns for labels in q_vertices.values()
    )
    everything = (1 << (rows + columns)) - 1
    found = set()
    for x, x_labels in p_vertices.items():
        if not any(x):
            continue
        for y, y_labels in q_vertices.items():
            if any(y) and x_labels | y_labels == everything:
                found.add((_normalised(x), _normalised(y)))
    return Equilibria(_sorted(game, found), degenerate, "vertex enumeration")


def lemke_howson(data: Game, label: int = 0) -> Equilibrium:
    """The equilibrium the Lemke–Howson algorithm reaches from the artificial equilibrium
    (0, 0) by dropping `label` (0..m-1 a row, m..m+n-1 a column, as in the module), with
    exact pivots and the lexicographic rule, so that degenerate games end too. ValueError for
    a label out of range."""
    game = _game(data)
    rows, columns = game.shape
    if not 0 <= label < rows + columns:
        raise ValueError(
            f"a starting label is a row (0 to {rows - 1}) or a column ({rows} to"
            f" {rows + columns - 1}), not {label}"
        )
    tableaux = [_polytope_p(game), _polytope_q(game)]
    side = 0 if label < rows else 1  # the row player's x_label leaves 0 in P, y in Q
    entering = label
    while True:
        tableau = tableaux[side]
        row = tableau.lexicographic_leaving(entering)
        leaving = tableau.basis[row]
        tableau.pivot(entering, row)
        if leaving == label:
            break
        entering, side = leaving, 1 - side  # the label now twice: its other variable enters
    x, y = tableaux[0].point(range(rows)), tableaux[1].point(range(rows, rows + columns))
    return _equilibrium(game, _normalised(x), _normalised(y))


def _game(data: Game) -> Bimatrix:
    """The game as a Bimatrix of exact entries (a float at its exact binary value)."""
    if isinstance(data, tuple) and len(data) == 2:
        data = bimatrix(*data)
    if not isinstance(data, Bimatrix):
        raise ValueError("a bimatrix game is a Bimatrix or a pair of matrices (A, B)")
    if data.exact:
        return data
    return bimatrix(_exact(data.row_payoffs), _exact(data.column_payoffs))


def _exact(matrix: PayoffMatrix) -> list[list[Number]]:
    return [[_plain(Fraction(entry)) for entry in row] for row in matrix.rows]


def _check_size(rows: int, columns: int, lifted: bool) -> None:
    SUPPORTS.check(math.comb(rows + columns, rows), lifted=lifted, needs=f"{rows} x {columns}")


def _positive(matrix: PayoffMatrix) -> list[list[int]]:
    """The entries as positive integers: over their common denominator, shifted so that the
    least is 1. Each player's payoffs changed alike, by a positive factor and a constant, change
    no best response and no equilibrium."""
    exact = [[Fraction(entry) for entry in row] for row in matrix.rows]
    scale = math.lcm(*(entry.denominator for row in exact for entry in row))
    whole = [[int(entry * scale) for entry in row] for row in exact]
    shift = 1 - min(min(row) for row in whole)
    return [[entry + shift for entry in row] for row in whole]


def _indifferent(
    payoffs: Sequence[Sequence[int]],
    against: Sequence[int],
    support: Sequence[int],
    size: int,
) -> tuple[Fraction, ...] | None:
    """The mixed strategy on `support` (of `size` strategies) under which the opponent's
    strategies `against` all pay the same, most among all of `payoffs[k][.]` (one list per
    opponent strategy, indexed by ours), or None when there is none, or not just one, or it
    is not positive on the support."""
    k = len(support)
    # Unknowns: the k probabilities and the payoff v. Equations: payoffs[i] . p - v = 0 for i in
    # `against`, and the probabilities summing to 1.
    system = [[payoffs[i][s] for s in support] + [-1, 0] for i in against]
    system.append([1] * k + [0, 1])
    solution = _solve(system)
    if solution is None:
        return None
    *probabilities, value = solution
    if any(p <= 0 for p in probabilities):
        return None
    strategy = [Fraction(0)] * size
    for s, p in zip(support, probabilities, strict=True):
        strategy[s] = p
    if any(_dot(line, strategy) > value for line in payoffs):
        return None
    return tuple(strategy)


def _solve(system: list[list[int]]) -> list[Fraction] | None:
    """The one solution of the square integer system (each row its coefficients, then the
    right-hand side), by fraction-free elimination (Bareiss); None when it is singular."""
    n = len(system)
    rows = [row[:] for row in system]
    previous = 1
    for k in range(n):
        pivot = next((r for r in range(k, n) if rows[r][k]), None)
        if pivot is None:
            return None
        rows[k], rows[pivot] = rows[pivot], rows[k]
        top = rows[k]
        for r in range(k + 1, n):
            row = rows[r]
            factor = row[k]
            rows[r] = [
                (row[c] * top[k] - factor * top[c]) // previous if c > k else 0
                for c in range(n + 1)
            ]
        previous = top[k]
    solution = [Fraction(0)] * n
    for k in range(n - 1, -1, -1):
        rest = rows[k][n] - sum(rows[k][c] * solution[c] for c in range(k + 1, n))
        solution[k] = Fraction(rest) / rows[k][k]
    return solution


def _best(payoffs: Sequence[Sequence[int]], strategy: Sequence[Fraction]) -> list[int]:
    """The opponent's pure best responses to `strategy` (one list of `payoffs` each)."""
    values = [_dot(line, strategy) for line in payoffs]
    most = max(values)
    return [k for k, value in enumerate(values) if value == most]


class _Tableau:
    """A polytope {z >= 0 : M z <= 1} in equations M z + s = 1, kept in integers: `rows[r]` is
    a row of coefficients of every variable (numbered by its label) and its right-hand side,
    `basis[r]` the variable solved for in it, whose coefficient is `determinant` in its row and
    0 in the others (fraction-free pivoting: every division is exact). A basic variable's value
    is its row's right-hand side over `determinant`; a variable out of the basis is 0."""

    def __init__(self, rows: list[list[int]], basis: list[int], first: int) -> None:
        self.rows = rows
        self.basis = basis
        self.determinant = 1
        self.first = first  # the first slack's label: the slacks are the starting basis
        self.labels = len(rows[0]) - 1

    def copy(self) -> _Tableau:
        twin = _Tableau([row[:] for row in self.rows], self.basis[:], self.first)
        twin.determinant = self.determinant
        return twin

    def pivot(self, entering: int, row: int) -> None:
        top = self.rows[row]
        pivot = top[entering]
        for r, line in enumerate(self.rows):
            if r != row:
                factor = line[entering]
                self.rows[r] = [
                    (value * pivot - factor * top[c]) // self.determinant
                    for c, value in enumerate(line)
                ]
        self.basis[row] = entering
        self.determinant = pivot

    def ratio_ties(self, entering: int) -> list[int]:
        """The rows that may leave when `entering` enters: those of the least ratio of
        right-hand side to a positive coefficient."""
        best: list[int] = []
        for r, line in enumerate(self.rows):
            if line[entering] > 0:
                if not best:
                    best = [r]
                    continue
                first = self.rows[best[0]]
                compared = line[-1] * first[entering] - first[-1] * line[entering]
                if compared < 0:
                    best = [r]
                elif compared == 0:
                    best.append(r)
        return best

    def lexicographic_leaving(self, entering: int) -> int:
        """The one row to leave by the lexicographic rule: among the least ratios, the least
        ratio of each slack's column in turn (the columns of the starting basis, independent:
        no two rows tie on all of them)."""
        rows = self.ratio_ties(entering)
        slacks = range(self.first, self.first + len(self.rows))
        for column in slacks:
            if len(rows) == 1:
                break
            ratios = [(Fraction(self.rows[r][column], self.rows[r][entering]), r) for r in rows]
            least = min(ratio for ratio, _ in ratios)
            rows = [r for ratio, r in ratios if ratio == least]
        return rows[0]

    def point(self, variables: range) -> tuple[Fraction, ...]:
        """The values of `variables` at this basis."""
        value = {v: Fraction(self.rows[r][-1], self.determinant) for r, v in enumerate(self.basis)}
        return tuple(value.get(v, Fraction(0)) for v in variables)

    def tight(self) -> int:
        """The labels of this basis's point, as bits: the variables that are 0."""
        labels = (1 << self.labels) - 1
        for r, v in enumerate(self.basis):
            if self.rows[r][-1] != 0:
                labels &= ~(1 << v)
        return labels


def _polytope_p(game: Bimatrix) -> _Tableau:
    """P = {x >= 0 : B^T x <= 1}: variables x_i (labels 0..m-1), then the slacks of the
    columns (labels m..m+n-1), one equation a column."""
    b = _positive(game.column_payoffs)
    rows, columns = game.shape
    equations = [
        [b[i][j] for i in range(rows)] + [int(k == j) for k in range(columns)] + [1]
        for j in range(columns)
    ]
    return _Tableau(equations, list(range(rows, rows + columns)), rows)


def _polytope_q(game: Bimatrix) -> _Tableau:
    """Q = {y >= 0 : A y <= 1}: the slacks of the rows (labels 0..m-1), then y_j (labels
    m..m+n-1), one equation a row."""
    a = _positive(game.row_payoffs)
    rows, columns = game.shape
    equations = [[int(k == i) for k in range(rows)] + a[i] + [1] for i in range(rows)]
    return _Tableau(equations, list(range(rows)), 0)


def _vertices(start: _Tableau, strategy: range) -> dict[tuple[Fraction, ...], int]:
    """Every vertex of the polytope (the values of its `strategy` variables) with its labels,
    by a walk over its feasible bases (connected by pivots): from each, every variable out of
    the basis enters, with each row the ratio test allows leaving (all of them at a degenerate
    vertex)."""
    seen = {frozenset(start.basis)}
    vertices: dict[tuple[Fraction, ...], int] = {}
    stack = [start]
    while stack:
        tableau = stack.pop()
        vertices[tableau.point(strategy)] = tableau.tight()
        basic = set(tableau.basis)
        for entering in range(tableau.labels):
            if entering in basic:
                continue
            for row in tableau.ratio_ties(entering):
                basis = frozenset(basic - {tableau.basis[row]} | {entering})
                if basis in seen:
                    continue
                seen.add(basis)
                neighbour = tableau.copy()
                neighbour.pivot(entering, row)
                stack.append(neighbour)
    return vertices


def _normalised(point: Sequence[Fraction]) -> tuple[Fraction, ...]:
    total = sum(point, Fraction(0))
    return tuple(value / total for value in point)


def _sorted(
    game: Bimatrix, found: set[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]]
) -> tuple[Equilibrium, ...]:
    def order(pair: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]) -> tuple:
        x, y = pair
        support = sum(p > 0 for p in x) + sum(q > 0 for q in y)
        return support, tuple(-p for p in x), tuple(-q for q in y)

    return tuple(_equilibrium(game, x, y) for x, y in sorted(found, key=order))


def _equilibrium(game: Bimatrix, x: Sequence[Fraction], y: Sequence[Fraction]) -> Equilibrium:
    """The equilibrium (x, y) with its payoffs, checked: neither player gains by deviating."""
    check = gains(game, x, y)
    if check.row_gain != 0 or check.column_gain != 0:  # pragma: no cover - a bug, never input
        raise ArithmeticError(f"not an equilibrium: a deviation gains {check}")
    return Equilibrium(
        tuple(map(_plain, x)), tuple(map(_plain, y)), check.row_payoff, check.column_payoff
    )


def _dot(line: Sequence[Number], strategy: Sequence[Number]) -> Number:
    return sum((entry * p for entry, p in zip(line, strategy, strict=True)), Fraction(0))


def _plain(value: Number) -> Number:
    """A Fraction with denominator 1 as an int; other numbers unchanged."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value
