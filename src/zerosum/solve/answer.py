"""An exact answer for a position, whichever solver gives it: a game's own (Connect Four's,
Pig's) or an exact search of `zerosum.search` to the end.

`ExactAnswer` is what `zerosum solve` reports; `ExactSolver` is what a game's own solver
offers; `exact_search` answers for any game without dice by minimax, negamax or alpha-beta.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zerosum.game import Game, has_chance
from zerosum.limits import Limit
from zerosum.search.exact import alphabeta, minimax, negamax
from zerosum.search.expectiminimax import expectiminimax
from zerosum.search.ordering import Order


@dataclass(frozen=True)
class ExactAnswer:
    """An exact answer for a position, for its player to move.

    `value` is on the game's utility scale (for a game with dice, the expected utility under
    best play); `plies` the moves to the end of a proven win or loss under best play (None for
    a draw, or where the solver does not say); `best_move` None when the game is over; `pv`
    a line of best play; `details` the solver's own figures (Connect Four's test-set score,
    Pig's win probability), `note` those figures in words.
    """

    algorithm: str
    value: float
    best_move: Any
    pv: tuple[Any, ...]
    plies: int | None
    nodes: int
    seconds: float
    details: dict[str, Any] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class MoveValues:
    """For every legal move of a position, in the game's order, the exact value playing it
    secures for the player to move (`values`): on the game's utility scale (`scale` "value"), or
    on a solver's own (`scale` "score": Connect Four's test-set scores); the `algorithm` that
    found them, the `nodes` it searched and the `seconds` it took."""

    algorithm: str
    values: dict[Any, float]
    scale: str
    nodes: int
    seconds: float
    notes: dict[Any, str] = field(default_factory=dict)
    """A value in words, by move, where the solver says more than the number."""

    def best_first(self) -> list[tuple[Any, float]]:
        """The moves and their values, the best first (ties in the game's order)."""
        return sorted(self.values.items(), key=lambda item: -item[1])


class ExactSolver:
    """A game's own exact solver. `answer(state, weak=...)` solves a position (`weak`: only win,
    draw or loss); `reset()` forgets what earlier positions taught it. While `answer` runs,
    another thread may read `work()`, the `work_unit`s done so far (of `work_total(state)` when
    known), to show progress; `no_limit` lifts the solver's stated limits."""

    weak = False
    """Whether it has a faster mode that finds only the win, draw or loss."""

    work_unit = "nodes"
    """What `work()` counts."""

    no_limit = False
    """True to go past the solver's stated limits (`--no-limit`)."""

    has_book = False
    """Whether it answers from an opening book of exact scores (Connect Four's)."""

    no_book = False
    """True to search from scratch, without the solver's opening book (`--no-book`)."""

    def read_book(self, path: str) -> None:
        """Answer from the opening book in the file `path` from now on (`--book FILE`);
        ValueError when the solver reads no book, or the file is not one of its board's."""
        raise ValueError(
            "--book is for a solver that answers from an opening book (connect4's),"
            f" not {type(self).__name__}"
        )

    def work(self) -> int:
        """The work done so far by the running `answer` (0 when the solver does not count)."""
        return 0

    def work_total(self, state: Any) -> int | None:
        """The work `answer(state)` will do in all, when known in advance."""
        return None

    scores_moves = False
    """Whether `move_values` scores every move of a position."""

    has_table = False
    """Whether it keeps a table whose size its constructor's `table_mb` sets (megabytes)."""

    def answer(self, state: Any, *, weak: bool = False) -> ExactAnswer:
        raise NotImplementedError

    def best_move(self, state: Any) -> Any:
        """A move of best play in `state` (what a perfect player plays): `answer`'s, unless the
        solver finds it more cheaply."""
        return self.answer(state).best_move

    def move_values(self, state: Any, *, weak: bool = False) -> MoveValues:
        """The exact value every legal move of `state` secures for the player to move, on the
        solver's own scale; ValueError when the solver does not score moves one by one."""
        raise ValueError(f"{type(self).__name__} does not score the moves one by one")

    def reset(self) -> None:
        """Forget what earlier positions taught (each position then costs what it costs alone)."""


SEARCHES: dict[str, Callable[..., Any]] = {
    "alphabeta": alphabeta,
    "minimax": minimax,
    "negamax": negamax,
}
"""The exact searches over any game, by name."""


EXACT_NODES = Limit(
    "the nodes of an exact search",
    100_000_000,
    "a search to the end visits about 400,000 nodes a second here (tic-tac-toe by minimax,"
    " 549,946 nodes, in 1.3 s): four minutes, and no end in sight for Connect Four from the"
    " start (its own solver is the way)",
)


def exact_search(
    game: Game,
    state: Any,
    *,
    algorithm: str | None = None,
    order: Order | None = None,
    distance: bool = False,
    no_limit: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ExactAnswer:
    """The value of `state` by `algorithm` searched to the end (no game-specific solver):
    alphabeta by default, and for a game with chance nodes expectiminimax, whose value is the
    expected utility of best play (the other searches take no chance nodes). ValueError past
    `EXACT_NODES` nodes, unless `no_limit`; `progress` is called with the nodes searched so far
    (every few hundred thousand)."""
    if has_chance(game):
        return _expected(game, state, algorithm, order, distance)
    algorithm = algorithm or "alphabeta"
    if algorithm not in SEARCHES:
        raise ValueError(f"unknown algorithm {algorithm!r}: choose one of {', '.join(SEARCHES)}")
    start = time.perf_counter()
    limit = None if no_limit else EXACT_NODES
    result = SEARCHES[algorithm](
        game, state, order=order, distance=distance, max_nodes=limit, progress=progress
    )
    stats = result.stats
    details = {"leaves": stats.leaves, "cutoffs": stats.cutoffs}
    return ExactAnswer(
        algorithm, result.value, result.best_move, result.pv, result.plies, stats.nodes,
        time.perf_counter() - start, details,
    )  # fmt: skip


def _expected(
    game: Game, state: Any, algorithm: str | None, order: Order | None, distance: bool
) -> ExactAnswer:
    """The expectiminimax value of `state` searched to the end (see `exact_search`)."""
    if algorithm not in (None, "expectiminimax"):
        raise ValueError(
            f"{algorithm} takes no chance nodes: a game with dice is searched to the end by"
            " expectiminimax (the default)"
        )
    if distance:
        raise ValueError("the distance to the end is for games without dice (--distance)")
    start = time.perf_counter()
    result = expectiminimax(game, state, order=order)
    stats = result.stats
    details = {"leaves": stats.leaves, "cutoffs": stats.cutoffs}
    return ExactAnswer(
        "expectiminimax", result.value, result.best_move, result.pv, None, stats.nodes,
        time.perf_counter() - start, details,
    )  # fmt: skip


def exact_move_values(
    game: Game,
    state: Any,
    *,
    algorithm: str | None = None,
    order: Order | None = None,
    no_limit: bool = False,
    progress: Callable[[int], None] | None = None,
) -> MoveValues:
    """The exact value of every legal move of `state` for its player to move: each child
    searched to the end by `exact_search` (its value turned to the mover's side), or its
    utility when the move ends the game. ValueError when the game is over, or has dice (the
    value of a move is then an expectation over rolls no search here lists), or a child's
    search passes `EXACT_NODES` (unless `no_limit`); `progress` gets the nodes searched so far."""
    if has_chance(game):
        raise ValueError(
            "a game with dice has no exact value per move here: the roll decides what a move is"
            " worth (zerosum analyze ranks them by expectiminimax)"
        )
    if game.is_terminal(state):
        raise ValueError("the game is already over: there are no moves to score")
    start = time.perf_counter()
    mover = game.to_move(state)
    values: dict[Any, float] = {}
    searched = [0]  # the nodes of the children searched so far
    report = progress

    def child_progress(count: int) -> None:
        if report is not None:
            report(searched[0] + count)

    for move in game.legal_moves(state):
        child = game.result(state, move)
        if game.is_terminal(child):
            values[move] = game.utility(child, mover)
            continue
        answer = exact_search(
            game, child, algorithm=algorithm, order=order, no_limit=no_limit,
            progress=child_progress,
        )  # fmt: skip
        searched[0] += answer.nodes
        same_side = game.to_move(child) == mover  # a move after which the mover moves again
        values[move] = answer.value if same_side else -answer.value
    seconds = time.perf_counter() - start
    return MoveValues(algorithm or "alphabeta", values, "value", searched[0], seconds)
