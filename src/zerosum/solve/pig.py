"""Pig solved exactly: the optimal win probability of every position (Neller and Presser).

Pig's state graph has cycles (a 1 hands the turn back and forth with the banked scores
unchanged), so backward induction alone cannot order it. Banked scores never decrease,
though: a position with banked scores `(mine, theirs)` depends only on positions with a larger
sum of banked scores and on the pair's mirror `(theirs, mine)`. So the solver takes the pairs
in decreasing order of that sum and, for each pair and its mirror, solves the one remaining
cycle exactly: the two start-of-turn values are each a monotone, piecewise-linear function of
the other, and Newton's method (kept inside a shrinking bracket) finds the fixed point to
machine precision in a few steps. This is value iteration done level by level, with the
inner iteration replaced by its limit.

`W(mine, theirs, turn)` is the probability that the player to move, with `mine` banked and a
turn total of `turn`, wins against an opponent with `theirs`, both playing optimally.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerosum.games.pig import Pig
from zerosum.limits import Limit
from zerosum.solve.answer import ExactAnswer, ExactSolver

TOLERANCE = 1e-15
MAX_STEPS = 200

TARGET = Limit(
    "the target of an exact Pig solve",
    300,
    "the solve grows with the cube of the target: measured here, 2.6 s for 100 and 8.5 s for"
    " 150 (`benchmarks/cost_models.py`), 55 MB for 100, 1.3 GB for 400",
    liftable=True,
)
SECONDS_A_POSITION = 5e-6
BYTES_A_POSITION = 40
"""What one position of the solve costs here (its time measured at targets 25 to 150 by
`benchmarks/cost_models.py`, its memory at 200 and 400)."""


def positions(target: int) -> int:
    """The positions of Pig to `target` the solve values: every pair of banked scores below
    the target, each with every turn total that does not reach it."""
    return target * target * (target + 1) // 2


def check_target(target: int, *, no_limit: bool = False, liftable: bool = True) -> None:
    """ValueError unless `target` is one the solve takes (`TARGET`, unless `no_limit`), saying
    what a larger one would take; `liftable` False where no `--no-limit` can be given."""
    if target < 1:
        raise ValueError(f"the target must be at least 1 point, got {target}")
    count = positions(target)
    seconds, gigabytes = count * SECONDS_A_POSITION, count * BYTES_A_POSITION / 1e9
    limit = TARGET if liftable else Limit(TARGET.what, TARGET.most, TARGET.cost, liftable=False)
    limit.check(target, lifted=no_limit, needs=_cost(seconds, gigabytes))


def _cost(seconds: float, gigabytes: float) -> str:
    if seconds > 1e9:
        return "longer than a human life"
    hours = seconds / 3600
    time_text = f"about {hours:,.0f} hours" if hours >= 2 else f"about {seconds / 60:,.0f} minutes"
    return f"{time_text} and {gigabytes:,.1f} GB"


def check_position(target: int, mine: int, theirs: int, turn: int) -> None:
    """ValueError unless banked scores `mine` and `theirs` and a turn total `turn` make a
    position of Pig to `target` where the game goes on."""
    if max(mine, theirs) >= target or mine + turn >= target or min(mine, theirs, turn) < 0:
        raise ValueError(
            f"no position with scores {mine}, {theirs} and turn total {turn} before the"
            f" target {target}"
        )


@dataclass(frozen=True)
class PigSolution:
    """The optimal win probabilities of every Pig position to `target`.

    `table[(mine, theirs)][turn]` is `W(mine, theirs, turn)` for the player to move.
    """

    target: int
    table: dict[tuple[int, int], list[float]]

    def win_probability(self, mine: int = 0, theirs: int = 0, turn: int = 0) -> float:
        """The probability that the player to move wins under optimal play by both."""
        check_position(self.target, mine, theirs, turn)
        return self.table[(mine, theirs)][turn]

    def should_roll(self, mine: int, theirs: int, turn: int) -> bool:
        """True when rolling is optimal for the player to move (holding needs a turn total);
        ValueError for scores that are no position of the game."""
        self.win_probability(mine, theirs, turn)  # checks the position exists
        if turn == 0:
            return True
        return self.roll_value(mine, theirs, turn) >= 1 - self.table[(theirs, mine + turn)][0]

    def best_move(self, state: tuple) -> str:
        """The optimal move, "roll" or "hold", in a `zerosum.games.pig.Pig` state to `target`."""
        player, score0, score1, turn, _ = state
        mine, theirs = (score0, score1) if player == 0 else (score1, score0)
        return "roll" if self.should_roll(mine, theirs, turn) else "hold"

    def roll_value(self, mine: int, theirs: int, turn: int) -> float:
        """The win probability of rolling once more and then playing optimally."""
        column = self.table[(mine, theirs)]
        value = (1 - self.table[(theirs, mine)][0]) / 6
        for face in range(2, 7):
            value += (column[turn + face] if turn + face < len(column) else 1.0) / 6
        return value


def solve_pig(
    target: int = 100,
    *,
    no_limit: bool = False,
    on_progress: Callable[[int], None] | None = None,
) -> PigSolution:
    """Every Pig position's optimal win probability for the player to move, for `target`.

    ValueError for a target over `TARGET` (unless `no_limit`); `on_progress(done)`, when given,
    is told the positions valued so far (of `positions(target)`) after each level.
    """
    check_target(target, no_limit=no_limit)
    table: dict[tuple[int, int], list[float]] = {}
    done = 0
    for level in range(2 * target - 2, -1, -1):
        for mine in range(max(0, level - target + 1), level // 2 + 1):
            theirs = level - mine
            _solve_pair(target, table, mine, theirs)
            done += (target - mine) + (target - theirs if mine != theirs else 0)
        if on_progress is not None:
            on_progress(done)
    return PigSolution(target, table)


def _solve_pair(target: int, table: dict, mine: int, theirs: int) -> None:
    """Fill `table` for the pair `(mine, theirs)` and its mirror, given every higher level."""

    def round_trip(x: float) -> tuple[float, float]:
        # x = W(theirs, mine, 0); its image after one turn each way, and the derivative.
        y, dy = _column(target, table, mine, theirs, x)[1:]
        if mine == theirs:
            return y, dy
        z, dz = _column(target, table, theirs, mine, y)[1:]
        return z, dz * dy

    low, high, x = 0.0, 1.0, 0.5
    for _ in range(MAX_STEPS):
        image, slope = round_trip(x)
        gap = image - x  # decreasing in x: the round trip's slope is below 1
        if abs(gap) <= TOLERANCE or high - low <= TOLERANCE:
            break
        if gap > 0:
            low = x
        else:
            high = x
        step = x - gap / (slope - 1)
        x = step if low < step < high else (low + high) / 2
    column, y, _ = _column(target, table, mine, theirs, x)
    table[(mine, theirs)] = column
    if mine != theirs:
        table[(theirs, mine)] = _column(target, table, theirs, mine, y)[0]


def _column(
    target: int, table: dict, mine: int, theirs: int, after_one: float
) -> tuple[list[float], float, float]:
    """`W(mine, theirs, turn)` for every turn total, given `W(theirs, mine, 0) = after_one`.

    Returns the column, its start-of-turn value `W(mine, theirs, 0)` and that value's
    derivative with respect to `after_one` (the policy held fixed: piecewise linear).
    """
    size = target - mine
    values = [0.0] * (size + 6)
    slopes = [0.0] * (size + 6)
    for turn in range(size, size + 6):
        values[turn] = 1.0  # reaching the target wins at once
    lose = (1 - after_one) / 6
    for turn in range(size - 1, -1, -1):
        roll = (
            lose
            + (
                values[turn + 2]
                + values[turn + 3]
                + values[turn + 4]
                + values[turn + 5]
                + values[turn + 6]
            )
            / 6
        )
        if turn and 1 - table[(theirs, mine + turn)][0] > roll:
            values[turn] = 1 - table[(theirs, mine + turn)][0]
            slopes[turn] = 0.0
        else:
            values[turn] = roll
            slopes[turn] = (
                slopes[turn + 2]
                + slopes[turn + 3]
                + slopes[turn + 4]
                + slopes[turn + 5]
                + slopes[turn + 6]
                - 1
            ) / 6
    del values[size:]
    return values, values[0], slopes[0]


_SOLVED: dict[int, PigSolution] = {}


def solved(
    target: int,
    *,
    no_limit: bool = False,
    on_progress: Callable[[int], None] | None = None,
) -> PigSolution:
    """`solve_pig`, each target solved once in a process (a player asks at every move)."""
    if target not in _SOLVED:
        _SOLVED[target] = solve_pig(target, no_limit=no_limit, on_progress=on_progress)
    return _SOLVED[target]


class PigExact(ExactSolver):
    """Pig solved over every position (value iteration): the optimal win probability."""

    work_unit = "positions"

    def __init__(self, game: Pig) -> None:
        self.game = game
        self._done = 0

    def work(self) -> int:
        return self._done

    def work_total(self, state: Any) -> int | None:
        return positions(self.game.target)

    def _advance(self, done: int) -> None:
        self._done = done

    def answer(self, state: Any, *, weak: bool = False) -> ExactAnswer:
        start = time.perf_counter()
        check_target(self.game.target, no_limit=self.no_limit)  # before asking about the state
        solution = solved(self.game.target, no_limit=self.no_limit, on_progress=self._advance)
        player, score0, score1, turn, rolling = state
        if rolling:
            raise ValueError("the position waits for the die: give one where a player decides")
        mine, theirs = (score0, score1) if player == 0 else (score1, score0)
        probability = solution.win_probability(mine, theirs, turn)
        move = solution.best_move(state)
        hold_at = _hold_threshold(solution, mine, theirs)
        positions = sum(len(column) for column in solution.table.values())
        details = {"win_probability": probability, "hold_at": hold_at, "positions": positions}
        note = (
            f"wins with probability {probability:.12f} under optimal play (target"
            f" {self.game.target}); with these banked scores, hold once the turn total"
            f" reaches {hold_at}"
        )
        seconds = time.perf_counter() - start
        return ExactAnswer(
            "value iteration", 2 * probability - 1, move, (move,), None,
            positions, seconds, details, note,
        )  # fmt: skip


def _hold_threshold(solution: PigSolution, mine: int, theirs: int) -> int:
    """The smallest turn total at which holding is optimal with banked scores `(mine, theirs)`."""
    turn = 1
    while mine + turn < solution.target and solution.should_roll(mine, theirs, turn):
        turn += 1
    return turn
