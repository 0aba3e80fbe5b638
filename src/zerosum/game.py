"""The Game protocol: what a two-player zero-sum game gives the algorithms.

A game is an object with six methods (`Game`). States and moves are whatever the game chooses;
the algorithms only pass them back. States should be immutable (or at least never changed
after `result` returns them): searches keep references to them.

Players are the integers 0 (the player who moves first) and 1. Every score carries its point
of view explicitly: `utility(state, player)` is the payoff *for `player`*, and because the game
is zero-sum, `utility(state, 0) == -utility(state, 1)`.

Everything else is optional and discovered at run time with `isinstance` against the small
protocols below (`Keyed`, `Restorable`, `Vectorized`, `Layered`, `Evaluating`, `Bounded`,
`Noisy`, `Capturing`, `Exchanging`, `Checking`, `Passing`, `HistoryDependent`, `PathKeyed`,
`Chance`, `InformationSets`, `MoveText`, `StateText`, `Rendering`, `NumberedMoves`,
`Observing`), so
that a game of ten lines works with every algorithm that needs no more than it gives, and a
search that needs more says so with a `ValueError`. A game with `InformationSets` hides part
of its state from the players: tree search does not apply to it, the algorithms of
`zerosum.imperfect` do.

`Tablebase` is not a game's capability but what a solved table offers a search: the value of
the positions it holds.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

Player = int
"""0 for the player who moves first, 1 for the other."""

FIRST: Player = 0
SECOND: Player = 1

State = TypeVar("State")
Move = TypeVar("Move")


def opponent(player: Player) -> Player:
    """The other player."""
    return 1 - player


@runtime_checkable
class Game(Protocol[State, Move]):
    """The six methods every game provides."""

    def initial_state(self) -> State:
        """The position the game starts from."""
        ...

    def to_move(self, state: State) -> Player:
        """The player whose turn it is in `state` (0 or 1)."""
        ...

    def legal_moves(self, state: State) -> Sequence[Move]:
        """The moves available in a non-terminal `state`, in the game's preferred order."""
        ...

    def result(self, state: State, move: Move) -> State:
        """The state after `move` is played in `state` (a new object: `state` is unchanged)."""
        ...

    def is_terminal(self, state: State) -> bool:
        """True when the game is over in `state`."""
        ...

    def utility(self, state: State, player: Player) -> float:
        """The payoff of a terminal `state` for `player` (zero-sum: the other gets minus it)."""
        ...


@runtime_checkable
class Keyed(Protocol):
    """A game whose positions have a compact hashable key, for transposition tables.

    Two states with the same key must be the same position for the purpose of search. Built-in
    games return integers (a perfect encoding or an incremental Zobrist key).
    """

    def key(self, state: Any) -> Hashable: ...


@runtime_checkable
class Restorable(Protocol):
    """A keyed game whose integer key is a perfect encoding: positions are rebuilt from keys.

    `from_keys(keys)` takes a numpy array of keys (unsigned 64-bit integers, as `key` gives
    them) and returns the states they encode, in the same order. Retrograde analysis then sends
    positions between processes as 8-byte keys instead of pickled states.
    """

    def from_keys(self, keys: Any) -> list[Any]: ...


@runtime_checkable
class Vectorized(Protocol):
    """A layered game whose rules also work on numpy arrays of keys (see `Restorable`), so that
    retrograde analysis expands a whole layer without a Python call per position.

    `expand_keys(keys)` returns four arrays: for each position, the player to move, its number
    of legal moves (0 exactly when the game is over) and its utility for the player to move
    (0 unless the game is over); and the keys of every position's children, position after
    position, each position's in the order of its `legal_moves`. `layers(keys)` gives the
    `layer` of each position.
    """

    def expand_keys(self, keys: Any) -> tuple[Any, Any, Any, Any]: ...

    def layers(self, keys: Any) -> Any: ...


@runtime_checkable
class Layered(Protocol):
    """A game whose positions fall into numbered layers, every move going to a later one.

    `layer(state)` is a counter that each move raises, by one (stones on the board, moves
    played) or by more (stones taken), so the game has no cycles and retrograde analysis solves
    it a layer at a time, each from the later layers its moves reach.
    """

    def layer(self, state: Any) -> int: ...


@runtime_checkable
class Evaluating(Protocol):
    """A game with a heuristic evaluation for depth-limited search.

    `evaluate(state, player)` estimates the value of `state` for `player`, on the same scale as
    `utility` and equal to it on terminal states.
    """

    def evaluate(self, state: Any, player: Player) -> float: ...


@runtime_checkable
class Bounded(Protocol):
    """A game that declares the range of its utilities and evaluations.

    `value_bounds()` returns `(low, high)` with `low <= utility(state, 0) <= high` for every
    terminal state and `low <= evaluate(state, 0) <= high` for every state (player 1's values
    lie in `[-high, -low]`). Expectiminimax needs these bounds to prune at chance nodes
    (Ballard's Star1 and Star2).
    """

    def value_bounds(self) -> tuple[float, float]: ...


@runtime_checkable
class Noisy(Protocol):
    """A game that names its "noisy" moves (captures, threats) for quiescence search."""

    def noisy_moves(self, state: Any) -> Sequence[Any]: ...


@runtime_checkable
class Capturing(Protocol):
    """A game with captures, for MVV-LVA move ordering (most valuable victim, least valuable
    attacker first).

    `capture(state, move)` is `(victim, attacker)`, the values of the piece taken and of the
    piece that takes it, or None when `move` takes nothing.
    """

    def capture(self, state: Any, move: Any) -> tuple[float, float] | None: ...


@runtime_checkable
class Exchanging(Protocol):
    """A game whose captures can be judged by static exchange evaluation: `exchange(state,
    move)` is what the capture `move` wins for the player making it once every capture on its
    square is played out, each side taking with its least valuable piece and free to stop
    (on the utility's scale; negative when the capture loses material, 0 for a quiet move).
    Quiescence search leaves out the captures that lose."""

    def exchange(self, state: Any, move: Any) -> float: ...


@runtime_checkable
class Checking(Protocol):
    """A game with checks: `in_check(state)` is True when the player to move is in check.

    Search extends the lines that give check and never prunes or reduces a position in check.
    """

    def in_check(self, state: Any) -> bool: ...


@runtime_checkable
class Passing(Protocol):
    """A game where search may let the player to move pass, to prove a position good cheaply
    (null-move pruning: if even passing keeps a position above beta, a real move will).

    `null_move(state)` is the position with the turn handed to the other player, or None where
    passing would mislead: in check, or where having to move can be a disadvantage (zugzwang,
    e.g. chess with only king and pawns).
    """

    def null_move(self, state: Any) -> Any | None: ...


@runtime_checkable
class HistoryDependent(Protocol):
    """A game whose outcome can depend on how a position was reached, not only on its key
    (a draw by repetition, a rule counting moves since a capture).

    When `history_dependent` is True, searches must not reuse a stored score for a position
    reached along another path: a transposition table then only suggests moves, unless the game
    also names the part of the path that matters (`PathKeyed`).
    """

    history_dependent: bool


@runtime_checkable
class PathKeyed(Protocol):
    """A history-dependent game that names what of the way to a position its outcome depends on.

    `path_key(state)` is comparable with `==`: two states with the same `key` and the same
    `path_key` have the same value, whatever else their paths were (chess: the positions since
    the last capture or pawn move, and the fifty-move counter). A stored score is reused only
    for a position reached with an equal `path_key`; the stored move is tried on any path.
    """

    def path_key(self, state: Any) -> Any: ...


def is_history_dependent(game: object) -> bool:
    """True when `game` declares that its outcomes depend on the path to a position."""
    return isinstance(game, HistoryDependent) and bool(game.history_dependent)


@runtime_checkable
class Chance(Protocol):
    """A game with chance nodes (dice, cards).

    In a state where `is_chance(state)` is true nobody chooses: `chance_outcomes(state)` lists
    `(outcome, probability)` pairs whose probabilities sum to 1, and `result(state, outcome)`
    gives the state that follows.
    """

    def is_chance(self, state: Any) -> bool: ...

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, float]]: ...


def has_chance(game: object) -> bool:
    """True for a game with chance nodes: it offers `Chance` and, if it says whether it has any
    (a tree's `has_chance`), has some."""
    return isinstance(game, Chance) and bool(getattr(game, "has_chance", True))


@runtime_checkable
class InformationSets(Protocol):
    """A game of imperfect information: the player to move does not see the whole state (the
    cards in the other hand, the other player's dice).

    `information_set(state)` is what the player to move knows in `state`, as text: two states
    with the same text are the same situation to that player, and offer the same legal moves.
    The game has perfect recall: what a player knew and did earlier is part of what they know
    (the algorithms check it). Moves are text (`"bet"`, `"3-5"`), so that a strategy can be
    written down by information set and move. Chance (a deal, a roll) is the `Chance`
    capability, with exact probabilities (fractions) when an exact solution is wanted.
    `utility(state, player)` is the payoff for `player` at the end, as in every game.
    """

    def information_set(self, state: Any) -> str: ...


@runtime_checkable
class MoveText(Protocol):
    """A game whose moves can be read from and written as text."""

    def parse_move(self, state: Any, text: str) -> Any:
        """The legal move that `text` names in `state`; `ValueError` with the reason otherwise."""
        ...

    def format_move(self, state: Any, move: Any) -> str: ...


@runtime_checkable
class StateText(Protocol):
    """A game whose positions can be read from text."""

    def parse_state(self, text: str) -> Any:
        """The position `text` describes; `ValueError` with the reason when it is malformed."""
        ...


@runtime_checkable
class Rendering(Protocol):
    """A game that can draw a position as text."""

    def render(self, state: Any) -> str: ...


@runtime_checkable
class NumberedMoves(Protocol):
    """A game whose moves are numbered once and for all: `move_number(move)` is the same number
    for the same move in every position, from 0 to `move_count() - 1`, and `numbered_move`
    gives the move back. Learning environments need it: their space of actions is fixed
    (PettingZoo's `Discrete(move_count())`, the legal ones shown by a mask)."""

    def move_count(self) -> int: ...

    def move_number(self, move: Any) -> int: ...

    def numbered_move(self, number: int) -> Any: ...


@runtime_checkable
class Observing(Protocol):
    """A game that shows a position to a player as an array of 0s and 1s of a fixed shape
    (`observation_shape()`): planes of the board, the player's own pieces first, so that a
    network sees every position from the side of the player it plays."""

    def observation_shape(self) -> tuple[int, ...]: ...

    def observation(self, state: Any, player: Player) -> Any: ...


@runtime_checkable
class Tablebase(Protocol):
    """A solved table a search reads positions from instead of searching them (a retrograde
    analysis's `zerosum.solve.Table`, chess's `zerosum.games.chess.syzygy.Syzygy`).

    `lookup(state)` is None where the table does not answer, else `(value, distance)`: the
    utility of `state` under perfect play for the player to move, and the plies from `state` to
    the end of the game. A distance of None means the table does not say how long: with value
    0, a draw held by endless play; otherwise a win or loss whose length the table does not
    know (a win/draw/loss table, such as Syzygy's WDL).
    """

    def lookup(self, state: Any) -> tuple[int, int | None] | None: ...


def require(game: object, capability: type, purpose: str) -> None:
    """Raise `ValueError` unless `game` offers `capability` (one of the protocols above),
    naming what the game lacks: the protocol and its methods."""
    if not isinstance(game, capability):
        members = [name for name in vars(capability) if not name.startswith("_")]
        lacks = f"{capability.__name__} ({', '.join(members)})" if members else capability.__name__
        raise ValueError(f"{type(game).__name__} does not provide {lacks}, needed for {purpose}")
