"""Partizan games' positions valued in canonical form, and sums played by their values.

A partizan game is given by its rules: `left_options(position)` and `right_options(position)`,
where a move of Left and of Right leads; optionally `components(position)`, the independent
parts a position splits into (the value of a sum is the sum of the parts' values), and
`key(component)`, a hashable name shared by components of equal value (a board and its mirror
image), so each is valued once. Left is the player the game names first (Blue in Hackenbush,
the vertical player in Domineering, the toads); values are positive for Left. Every play must
end, and the player who cannot move loses.

- `PartizanValues(game)(position)`: the position's value, every component valued once and
  remembered, with an explicit stack (no recursion limit).
- `winning_moves(values, components)`: the moves that win in a sum, found from the values of
  the components' options alone: Left's leave a sum >= 0, Right's a sum <= 0.
- `PartizanSum`: a sum as a two-player `Game`, so the exact search can check the theory.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from zerosum.game import Player
from zerosum.limits import Limit
from zerosum.theory.partizan import ZERO, Value, add, game, less_equal, negative, sum_of

POSITIONS = Limit(
    "the positions of a partizan game valued",
    3_000_000,
    "each is remembered with its value, some 2 KB apiece",
)
"""Components valued (each once): checked as the walk meets them."""


@runtime_checkable
class Partizan(Protocol):
    """The rules of a partizan game: where Left may move, where Right may move."""

    def left_options(self, position: Any) -> Iterable[Any]: ...

    def right_options(self, position: Any) -> Iterable[Any]: ...


def components_of(game: Any, position: Any) -> Sequence[Any]:
    """The independent parts of `position` (itself when the game does not split positions)."""
    split = getattr(game, "components", None)
    return tuple(split(position)) if split is not None else (position,)


class PartizanValues:
    """The canonical values of a partizan game's positions, each component valued once.

    `no_limit` lifts the limit on the number of components valued (`POSITIONS`).
    """

    def __init__(self, game: Partizan, no_limit: bool = False) -> None:
        self.game = game
        self.no_limit = no_limit
        self._key = getattr(game, "key", None)
        self._values: dict[Hashable, Value] = {}

    def __len__(self) -> int:
        """How many components have been valued."""
        return len(self._values)

    def key(self, component: Any) -> Hashable:
        return self._key(component) if self._key is not None else component

    def __call__(self, position: Any) -> Value:
        """The value of `position`: the sum of its components' values."""
        return sum_of(self.component(part) for part in components_of(self.game, position))

    def component(self, component: Any) -> Value:
        """The value of one component (a position that does not split)."""
        values, rules = self._values, self.game
        found = values.get(self.key(component))
        if found is not None:
            return found
        stack: list[tuple[Any, list[Sequence[Any]] | None, list[Sequence[Any]] | None]]
        stack = [(component, None, None)]
        while stack:
            position, lefts, rights = stack[-1]
            key = self.key(position)
            if key in values:
                stack.pop()
                continue
            if lefts is None or rights is None:
                lefts = [components_of(rules, o) for o in rules.left_options(position)]
                rights = [components_of(rules, o) for o in rules.right_options(position)]
                stack[-1] = (position, lefts, rights)
            waiting = [
                part
                for parts in (*lefts, *rights)
                for part in parts
                if self.key(part) not in values
            ]
            if waiting:
                stack.extend((part, None, None) for part in waiting)
                continue
            stack.pop()
            POSITIONS.check(len(values) + 1, lifted=self.no_limit)
            values[key] = game(
                [sum_of(values[self.key(p)] for p in parts) for parts in lefts],
                [sum_of(values[self.key(p)] for p in parts) for parts in rights],
            )
        return values[self.key(component)]


@dataclass(frozen=True)
class SumMove:
    """A move in a sum: in component `index` (counted from 0), to `option` (a position), which
    leaves the sum worth `leaves`."""

    index: int
    option: Any
    leaves: Value


def winning_moves(values: PartizanValues, components: Sequence[Any], left: bool) -> list[SumMove]:
    """The moves of Left (`left`) or Right in the sum of `components` that win: those leaving a
    sum the opponent, to move, loses (>= 0 for Left, <= 0 for Right). Found from values alone:
    the total less the component's value plus the option's."""
    parts = [values(component) for component in components]
    total = sum_of(parts)
    found = []
    for index, component in enumerate(components):
        rest = add(total, negative(parts[index]))
        moves = (values.game.left_options if left else values.game.right_options)(component)
        for option in moves:
            leaves = add(rest, values(option))
            if less_equal(ZERO, leaves) if left else less_equal(leaves, ZERO):
                found.append(SumMove(index, option, leaves))
    return found


SumState = tuple[tuple[Any, ...], Player]


class PartizanSum:
    """A sum of a partizan game's components as a two-player `Game`, for the exact search.

    A state is `(components, player)`, player 0 being Left; a move `(index, option)` replaces
    component `index` by the parts of `option`. The player who cannot move loses; utilities
    are +1 and -1.
    """

    def __init__(self, game: Partizan, positions: Iterable[Any], first: Player = 0) -> None:
        self.game = game
        self.start = tuple(part for p in positions for part in components_of(game, p))
        self.first = first

    def initial_state(self) -> SumState:
        return (self.start, self.first)

    def to_move(self, state: SumState) -> Player:
        return state[1]

    def legal_moves(self, state: SumState) -> list[tuple[int, Any]]:
        parts, player = state
        moves = self.game.left_options if player == 0 else self.game.right_options
        return [(i, option) for i, part in enumerate(parts) for option in moves(part)]

    def result(self, state: SumState, move: tuple[int, Any]) -> SumState:
        parts, player = state
        index, option = move
        replaced = components_of(self.game, option)
        return (parts[:index] + tuple(replaced) + parts[index + 1 :], 1 - player)

    def is_terminal(self, state: SumState) -> bool:
        return not self.legal_moves(state)

    def utility(self, state: SumState, player: Player) -> int:
        """+1 for the player who made the last move: the one not to move now."""
        return -1 if player == state[1] else 1
