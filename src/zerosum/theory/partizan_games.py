"""Partizan games' positions valued in canonical form, and sums played by their values.

A partizan game is given by its rules: `left_options(position)` and `right_options(position)`,
where a move of Left and of Right leads; optionally `components(position)`, the independent
parts a position splits into (the value of a sum is the sum of the parts' values), and
`key(component)`, a hashable name shared by components of equal value (a board and its mirror
image), so each is valued once, or `signed_key(component)`, a name and whether the component's
value is the negative of the named one's (a board turned a quarter). Left is the player the
game names first (Blue in Hackenbush, the vertical player in Domineering, the toads); values
are positive for Left. Every play must end, and the player who cannot move loses.

- `PartizanValues(game)(position)`: the position's value, every component valued once and
  remembered, with an explicit stack (no recursion limit).
- `winning_moves(values, components)`: the moves that win in a sum, found from the values of
  the components' options alone: Left's leave a sum >= 0, Right's a sum <= 0.
- `PartizanSum`: a sum as a two-player `Game`, so the exact search can check the theory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

from zerosum.game import Player
from zerosum.limits import Limit
from zerosum.theory.partizan import ZERO, Value, add, game, less_equal, negative, sum_of

POSITIONS = Limit(
    "the positions of a partizan game valued",
    3_000_000,
    "each is remembered with its value, under 1 KB apiece (5x6 Domineering values 356,382)",
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


def naming(game: Any) -> Callable[[Any], tuple[Hashable, bool]]:
    """The game's name for a component and whether the component's value is the negative of
    the named one's: its `signed_key`, else its `key` (never negated), else the component."""
    signed = getattr(game, "signed_key", None)
    if signed is not None:
        return cast(Callable[[Any], tuple[Hashable, bool]], signed)
    plain = getattr(game, "key", None)
    if plain is not None:
        return lambda component: (plain(component), False)
    return lambda component: (component, False)


class PartizanValues:
    """The canonical values of a partizan game's positions, each component valued once.

    Components are remembered by the game's `signed_key(component)` when it has one: a name
    and True when the component's value is the negative of the named one's (a Domineering
    board turned a quarter), else by its `key(component)`, else by the component itself.
    `no_limit` lifts the limit on the number of components valued (`POSITIONS`).
    """

    def __init__(self, game: Partizan, no_limit: bool = False) -> None:
        self.game = game
        self.no_limit = no_limit
        self.signed_key = naming(game)
        self._values: dict[Hashable, Value] = {}

    def __len__(self) -> int:
        """How many components have been valued."""
        return len(self._values)

    def __call__(self, position: Any) -> Value:
        """The value of `position`: the sum of its components' values."""
        return sum_of(self.component(part) for part in components_of(self.game, position))

    def _known(self, signed: tuple[Hashable, bool]) -> Value:
        """The remembered value of the component named `signed` (KeyError if none)."""
        found = self._values[signed[0]]
        return negative(found) if signed[1] else found

    def component(self, component: Any) -> Value:
        """The value of one component (a position that does not split)."""
        values, rules, signed_key = self._values, self.game, self.signed_key
        named = signed_key(component)
        if named[0] in values:
            return self._known(named)
        Options = list[list[tuple[Hashable, bool]]]
        stack: list[tuple[tuple[Hashable, bool], Any, tuple[Options, Options] | None]]
        stack = [(named, component, None)]
        while stack:
            (key, negated), position, options = stack[-1]
            if key in values:
                stack.pop()
                continue
            if options is None:
                waiting: list[tuple[tuple[Hashable, bool], Any]] = []
                sides = []
                for moves in (rules.left_options(position), rules.right_options(position)):
                    side = []
                    for option in moves:
                        parts = []
                        for part in components_of(rules, option):
                            signed = signed_key(part)
                            parts.append(signed)
                            if signed[0] not in values:
                                waiting.append((signed, part))
                        side.append(parts)
                    sides.append(side)
                options = (sides[0], sides[1])
                if waiting:
                    stack[-1] = ((key, negated), position, options)
                    stack.extend((name, part, None) for name, part in waiting)
                    continue
            stack.pop()
            POSITIONS.check(len(values) + 1, lifted=self.no_limit)
            lefts, rights = options
            found = game(
                [sum_of(self._known(signed) for signed in parts) for parts in lefts],
                [sum_of(self._known(signed) for signed in parts) for parts in rights],
            )
            values[key] = negative(found) if negated else found  # the named one's value
        return self._known(named)


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
    are +1 and -1. `key(state)` names a state by its components' names (`naming`) and the
    player to move, so the engine's table knows a sum met again in another order or with
    pieces turned alike.
    """

    def __init__(self, game: Partizan, positions: Iterable[Any], first: Player = 0) -> None:
        self.game = game
        self.start = tuple(part for p in positions for part in components_of(game, p))
        self.first = first
        self._name = naming(game)

    def key(self, state: SumState) -> Hashable:
        parts, player = state
        return frozenset(Counter(self._name(part) for part in parts).items()), player

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
