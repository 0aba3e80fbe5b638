"""The compiled-game protocol: a game's rules as numba-compiled functions over a fixed-size state.

A state is a one-dimensional numpy array of `words` unsigned 64-bit integers (bitboards, a
count of moves, a side to move, an incremental key: whatever the game keeps). An array rather
than a tuple of integers because the searches hold one row of a preallocated
`(plies, words)` array per ply, and a game writes the child of a move into the next row: no
allocation in the search, one array type for every game (so one search code), and a state
that Python code reads and writes as plainly as any numpy array. Moves are small integers,
`0 <= move < move_space` (the searches index their history tables by them).

The functions, each compiled with `numba.njit` (`CompiledGame` holds them):

- `initial(state)` writes the position the game starts from into `state`;
- `to_move(state) -> int`: 0 or 1, the player whose turn it is (0 moves first);
- `moves(state, out) -> int`: writes the legal moves of a non-terminal `state` into `out`
  (an int64 array of `max_moves`), in the order the game prefers them searched, and returns
  how many there are;
- `play(state, move, child)`: writes the state after `move` into `child` (never `state`);
- `terminal(state) -> bool`: the game is over;
- `utility(state, player) -> int`: the payoff of a terminal state *for `player`*, as a Python
  game's `utility(state, player)` (zero-sum: the other player gets minus it);
- `key(state) -> uint64`: the position's key for transposition tables (two states with the
  same key are the same position for search); games keep it incremental in a word of the
  state, or compute it in a few operations;
- optional `evaluate(state, player) -> float`: an estimate for `player` on the utility's
  scale, equal to the utility on terminal states (as `zerosum.game.Evaluating`);
- optional `noisy(state, out) -> int`: the noisy moves (wins, threats, captures: a subset of
  the legal moves), written into `out` like `moves`, for quiescence search;
- optional `in_check(state) -> bool`: the player to move is in check (`zerosum.game.Checking`:
  check extensions, and no forward pruning in check);
- optional `capture(state, move) -> float`: the rank of `move` by what it captures,
  `zerosum.search.ordering.mvv_lva` of the Python game's `capture` (`QUIET` for a move that
  captures nothing: `zerosum.game.Capturing`, the engine's `captures` order);
- optional `pass_move(state, child) -> bool`: writes into `child` the position with the turn
  passed and returns True, or returns False where passing is not allowed (the Python game's
  `null_move` gives None: `zerosum.game.Passing`, null-move pruning);
- optional `exchange(state, move) -> float`: what the capture `move` wins for the player making
  it once every exchange on its square is played out, on the utility's scale (the Python
  game's `exchange`: static exchange evaluation in quiescence);
- optional `observe(state, player, out)`: writes the position as `player` sees it into `out`
  (a float32 array of the observation's size): the Python twin's `observation(state,
  player)`, flattened (`zerosum.game.Observing`; the compiled PUCT of self-play hands it to
  the network);
- optional `path_key(state) -> uint64`: for a game whose outcome depends on the way to a
  position (`zerosum.game.HistoryDependent`), a hash of what of it matters (the Python game's
  `path_key`: two states with equal ones have the same future), so that the engine reuses a
  stored score only along an equal path;
- optional `playout_move(state, rng) -> int`: the game's playout policy, the move a random
  playout plays in the non-terminal `state` (a legal one), drawn with `rng`, the searches'
  one-word generator (`zerosum.compiled.draws`); without it a playout draws uniformly from
  `moves` (the compiled MCTS's `playouts="random"` does so even with it).

Python glue, not compiled: `format_move(move)` and `parse_state(text)` for a game without a
Python twin; `twin` maps the game to an ordinary Python game with the same rules (`Twin`:
state to words and back), so that a compiled game and its Python twin are checked equal and a
command given the Python game (`connect4`) searches it with the compiled rules.
`max_plies` bounds the length of a game (the searches' stacks).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["PLAYOUTS", "Compilable", "CompiledGame", "Twin", "compiled_twin", "new_state"]

REQUIRED = ("initial", "to_move", "moves", "play", "terminal", "utility", "key")
"""The compiled functions every compiled game gives."""

OPTIONAL = (
    "evaluate", "noisy", "in_check", "capture", "pass_move", "exchange", "path_key", "observe",
    "playout_move",
)  # fmt: skip

PLAYOUTS = ("game", "random")
"""How the compiled MCTS's playouts choose their moves: by the game's playout policy where it
has one (`CompiledGame.playout_move`, else uniformly), or uniformly from the legal moves."""


@dataclass(frozen=True)
class Twin:
    """An ordinary Python game with the same rules as a compiled game, and the maps between
    their states: `to_words(state) -> array` and `from_words(array) -> state`; and between
    their moves where the Python game's are not the compiled game's integers (chess's
    `chess.Move`): `move_number(move) -> int` and `numbered_move(number) -> move`."""

    game: Any
    to_words: Callable[[Any], np.ndarray]
    from_words: Callable[[np.ndarray], Any]
    move_number: Callable[[Any], int] = int
    numbered_move: Callable[[int], Any] = int


@dataclass(frozen=True)
class CompiledGame:
    """A game's rules as compiled functions (see the module for what each one does).

    `name` is what messages call it; `words` the size of a state, `max_moves` the most legal
    moves of a position, `move_space` one more than the largest move, `max_plies` the most
    moves of a game.
    """

    name: str
    words: int
    max_moves: int
    move_space: int
    max_plies: int
    initial: Any
    to_move: Any
    moves: Any
    play: Any
    terminal: Any
    utility: Any
    key: Any
    evaluate: Any = None
    noisy: Any = None
    in_check: Any = None
    capture: Any = None
    pass_move: Any = None
    exchange: Any = None
    path_key: Any = None
    observe: Any = None
    playout_move: Any = None
    format_move: Callable[[int], str] | None = None
    parse_state: Callable[[str], np.ndarray] | None = None
    twin: Twin | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for number in ("words", "max_moves", "move_space", "max_plies"):
            if not isinstance(getattr(self, number), int) or getattr(self, number) < 1:
                raise ValueError(f"{self.name}: {number} must be a positive integer")
        for name in REQUIRED:
            if not _compiled(getattr(self, name)):
                raise ValueError(
                    f"{self.name}: {name} must be a numba-compiled function (@numba.njit)"
                )
        for name in OPTIONAL:
            function = getattr(self, name)
            if function is not None and not _compiled(function):
                raise ValueError(
                    f"{self.name}: {name} must be a numba-compiled function (@numba.njit)"
                )

    def initial_words(self) -> np.ndarray:
        """The start position as a new array of words."""
        state = new_state(self.words)
        self.initial(state)
        return state


def new_state(words: int) -> np.ndarray:
    """An array for one state of `words` words, all zero."""
    return np.zeros(words, np.uint64)


def _compiled(function: Any) -> bool:
    """True for a numba dispatcher (what `@numba.njit` makes), without importing numba."""
    return callable(function) and hasattr(function, "py_func") and hasattr(function, "signatures")


@runtime_checkable
class Compilable(Protocol):
    """A Python game with a compiled twin: `compiled()` gives its rules as a `CompiledGame`
    whose `twin` is this game."""

    def compiled(self) -> CompiledGame: ...


def compiled_twin(game: object) -> CompiledGame | None:
    """The compiled rules of `game`: itself if it is a `CompiledGame`, its `compiled()` if it
    is `Compilable`, the rules its class names in `compiled_rules` (`"module:function"`, the
    function making them from the game: the built-in games' twins, which import their Python
    game, so that the game need not import them), else None. ValueError from the twin when the
    game's rules do not fit (a board wider than 64 bits)."""
    if isinstance(game, CompiledGame):
        return game
    if isinstance(game, Compilable):
        return game.compiled()
    named = getattr(type(game), "compiled_rules", None)
    if not isinstance(named, str):
        return None
    module, _, function = named.partition(":")
    rules: CompiledGame = getattr(importlib.import_module(module), function)(game)
    return rules
