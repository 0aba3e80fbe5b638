"""Impartial games: P and N positions built backwards, mex, Grundy numbers, disjoint sums.

An impartial game is given by its rules: `options(position)`, the positions one move leads to
(the same for both players), and `components(position)`, the independent parts a position
splits into (a position that does not split is its own only component; a position with no
parts is the empty sum, worth 0). The game is played in the normal convention: the player who
cannot move loses. Positions must be hashable, and every play must end.

- `pn_construction` labels the positions reachable from a start by backward induction, in the
  steps the textbooks draw: the terminal positions are P; then every position with a move into
  P is N; then every position all of whose moves lead into N is P; and so on.
- `Grundy` computes Grundy numbers, g(x) = mex {g(y) : y an option of x}, memoised and with an
  explicit stack (no recursion limit), and the value of a sum as the XOR of its components'
  values (Sprague and Grundy). `Grundy.winning_move` finds a winning move in a sum from the
  components' values alone, without searching the sum.
- `SumGame` presents a sum of positions as a two-player `Game`, so that the exact search of
  `zerosum.search` can cross-check the theory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import xor
from typing import Any, Protocol, runtime_checkable

from zerosum.game import Player


@runtime_checkable
class Impartial(Protocol):
    """The rules of an impartial game: where a position may go, and what parts it splits into."""

    def options(self, position: Any) -> Iterable[Any]:
        """The positions one move leads to from `position` (for either player)."""
        ...

    def components(self, position: Any) -> Sequence[Any]:
        """The independent parts of `position`: `(position,)` when it does not split."""
        ...


@dataclass(frozen=True)
class MoveFunction:
    """An impartial game given by a move function, and a split function where positions split.

    `MoveFunction(lambda n: [n - k for k in (1, 2, 3) if k <= n])` is the subtraction game
    {1, 2, 3}.
    """

    follow: Callable[[Any], Iterable[Any]]
    split: Callable[[Any], Sequence[Any]] | None = None

    def options(self, position: Any) -> Iterable[Any]:
        return self.follow(position)

    def components(self, position: Any) -> Sequence[Any]:
        return (position,) if self.split is None else self.split(position)


def mex(values: Iterable[int]) -> int:
    """The minimum excludant: the least non-negative integer not among `values`."""
    seen = set(values)
    least = 0
    while least in seen:
        least += 1
    return least


def nim_sum(values: Iterable[int]) -> int:
    """The XOR of `values`: the Grundy value of a sum whose components have these values."""
    return reduce(xor, values, 0)


Rule = Callable[[list[int]], int]


def induct(root: Any, expand: Callable[[Any], tuple[Sequence[Any], Rule]], memo: dict) -> int:
    """The value of `root` defined by induction from the end of the game, memoised in `memo`.

    `expand(position)` gives the positions its value depends on and the rule combining their
    values. The walk keeps its own stack, so a game thousands of moves long needs no recursion;
    a position met again on the current path means the game does not end: ValueError.
    """
    if root in memo:
        return memo[root]
    stack = [[root, *expand(root), 0]]
    on_path = {root}
    while stack:
        frame = stack[-1]
        position, children, rule, next_child = frame
        while next_child < len(children) and children[next_child] in memo:
            next_child += 1
        if next_child < len(children):
            frame[3] = next_child
            child = children[next_child]
            if child in on_path:
                raise ValueError(
                    f"position {child!r} can be reached from itself: the game never ends"
                )
            on_path.add(child)
            stack.append([child, *expand(child), 0])
            continue
        memo[position] = rule([memo[child] for child in children])
        on_path.discard(position)
        stack.pop()
    return memo[root]


def _count(values: list[int]) -> int:
    return sum(values) if values else 1


def count_plays(game: Impartial, position: Any) -> int:
    """The number of distinct plays from `position` to the end of the game.

    These are the leaves minimax would reach without pruning and without memory: one per
    sequence of moves, each option counted as often as `options` lists it. The count itself is
    memoised on positions, so it costs one visit per distinct position.
    """
    return induct(position, lambda p: (list(game.options(p)), _count), {})


@dataclass(frozen=True)
class SumMove:
    """A move in a sum: replace component `index` by `option` (the sum's value becomes 0)."""

    index: int
    option: Any


class Grundy:
    """Grundy numbers of an impartial game, memoised across calls.

    `len(grundy)` is the number of Grundy numbers computed so far (components and sums).
    """

    def __init__(self, game: Impartial) -> None:
        self.game = game
        self.values: dict[Any, int] = {}

    def __call__(self, position: Any) -> int:
        """The Grundy number of `position`: 0 exactly when the player to move loses."""
        return induct(position, self._expand, self.values)

    def __len__(self) -> int:
        return len(self.values)

    def _expand(self, position: Any) -> tuple[Sequence[Any], Rule]:
        parts = tuple(self.game.components(position))
        if parts == (position,):
            return list(self.game.options(position)), mex
        return parts, nim_sum

    def outcome(self, position: Any) -> str:
        """ "P" when the previous player wins from `position` (Grundy number 0), else "N"."""
        return "P" if self(position) == 0 else "N"

    def sum_value(self, positions: Iterable[Any]) -> int:
        """The Grundy number of the disjoint sum of `positions`: the XOR of theirs."""
        return nim_sum(self(position) for position in positions)

    def winning_move(self, positions: Sequence[Any]) -> SumMove | None:
        """A move of the sum of `positions` to Grundy value 0, or None when the sum is P.

        Found from the components' values: with t the XOR of all of them, a component of value
        g with g XOR t < g has, by the definition of mex, an option of value g XOR t.
        """
        values = [self(position) for position in positions]
        total = nim_sum(values)
        if total == 0:
            return None
        for index, (position, value) in enumerate(zip(positions, values, strict=True)):
            wanted = value ^ total
            if wanted < value:
                for option in self.game.options(position):
                    if self(option) == wanted:
                        return SumMove(index, option)
        raise AssertionError("mex guarantees an option of every smaller value")


@dataclass(frozen=True)
class PNConstruction:
    """The P and N positions reachable from `start`, in the order backward induction finds them.

    `steps[k]` holds the positions labelled at step k: P at even steps (step 0: the terminal
    positions), N at odd steps, each in the order they were reached.
    """

    start: Any
    steps: tuple[tuple[Any, ...], ...]
    label: dict[Any, str] = field(repr=False)

    @property
    def p_positions(self) -> tuple[Any, ...]:
        return tuple(p for step in self.steps[0::2] for p in step)

    @property
    def n_positions(self) -> tuple[Any, ...]:
        return tuple(p for step in self.steps[1::2] for p in step)

    def outcome(self, position: Any) -> str:
        """ "P" or "N" for a position reachable from the start."""
        return self.label[position]

    def sets_after(self, step: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The P set and the N set as they stand after `step`."""
        done = self.steps[: step + 1]
        return (
            tuple(p for step_set in done[0::2] for p in step_set),
            tuple(p for step_set in done[1::2] for p in step_set),
        )


def pn_construction(
    game: Impartial, start: Any, on_progress: Callable[[int], None] | None = None
) -> PNConstruction:
    """The P/N labelling of every position reachable from `start`, built step by step.

    Each step labels everything it can at once: an odd step adds to N every unlabelled
    position with a move into the P positions found at the step before; an even step adds to P
    every unlabelled position whose moves all lead into N. Linear in the moves of the game.
    `on_progress(labelled)`, when given, hears how many positions are labelled after each step.
    """
    successors = _reachable(game, start)
    predecessors: dict[Any, list[Any]] = {position: [] for position in successors}
    for position, options in successors.items():
        for option in options:
            predecessors[option].append(position)
    unlabelled_options = {position: len(options) for position, options in successors.items()}
    label = {p: "P" for p, count in unlabelled_options.items() if count == 0}
    steps: list[tuple[Any, ...]] = []
    found = list(label)
    while found:
        steps.append(tuple(found))
        if on_progress is not None:
            on_progress(len(label))
        found = []
        if len(steps) % 2:  # P positions just found: a move into one of them wins
            for position in steps[-1]:
                for parent in predecessors[position]:
                    if parent not in label:
                        label[parent] = "N"
                        found.append(parent)
        else:  # N positions just found: P where every move now leads into N
            for position in steps[-1]:
                for parent in predecessors[position]:
                    unlabelled_options[parent] -= 1
                    if unlabelled_options[parent] == 0 and parent not in label:
                        label[parent] = "P"
                        found.append(parent)
    if len(label) < len(successors):
        raise ValueError("some positions are never labelled: the game has a cycle")
    return PNConstruction(start, tuple(steps), label)


def _reachable(game: Impartial, start: Any) -> dict[Any, tuple[Any, ...]]:
    """Every position reachable from `start`, with its options, found breadth first."""
    successors: dict[Any, tuple[Any, ...]] = {}
    frontier = [start]
    while frontier:
        following: list[Any] = []
        for position in frontier:
            if position in successors:
                continue
            options = tuple(dict.fromkeys(game.options(position)))
            successors[position] = options
            following.extend(o for o in options if o not in successors)
        frontier = following
    return successors


class SumGame:
    """A disjoint sum of impartial positions as a two-player `Game`, for the exact search.

    A state is `(positions, player)`: the components still in play and the player to move. A
    move `(index, option)` replaces component `index` by the parts of `option`. In the normal
    convention the player who cannot move loses; with `misere=True` that player wins.
    Utilities are +1 and -1.
    """

    def __init__(self, game: Impartial, positions: Iterable[Any], misere: bool = False) -> None:
        self.game = game
        self.start = tuple(part for p in positions for part in game.components(p))
        self.misere = misere

    def initial_state(self) -> tuple[tuple[Any, ...], Player]:
        return (self.start, 0)

    def to_move(self, state: tuple[tuple[Any, ...], Player]) -> Player:
        return state[1]

    def legal_moves(self, state: tuple[tuple[Any, ...], Player]) -> list[tuple[int, Any]]:
        positions, _ = state
        return [(i, option) for i, p in enumerate(positions) for option in self.game.options(p)]

    def result(self, state: tuple[tuple[Any, ...], Player], move: tuple[int, Any]):
        positions, player = state
        index, option = move
        parts = tuple(self.game.components(option))
        return (positions[:index] + parts + positions[index + 1 :], 1 - player)

    def is_terminal(self, state: tuple[tuple[Any, ...], Player]) -> bool:
        return not self.legal_moves(state)

    def utility(self, state: tuple[tuple[Any, ...], Player], player: Player) -> int:
        """+1 for the winner: who made the last move (normal) or was left without one (misère)."""
        mover_lost = not self.misere
        return -1 if (player == state[1]) == mover_lost else 1
