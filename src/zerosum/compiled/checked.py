"""The checked mode: a compiled game run from Python on a few random games before any search
compiles it in, so that a game that breaks its own rules is a `ValueError` naming the function,
not a crash of the interpreter (compiled code does not check its array indices).

`check(compiled)` plays `games` random games with the functions' Python source (`py_func`:
a wrong index is an `IndexError` there), checking at every position what the protocol promises
(see `zerosum.compiled.protocol`): `to_move` is 0 or 1; `moves` returns between 1 and
`max_moves` distinct moves within `move_space` exactly when the state is not terminal; `play`
leaves its state alone; `key` is the same for equal states; a terminal state's utilities are
integers, opposite for the two players; `evaluate` is a finite number; `noisy` moves are legal;
no game is longer than `max_plies`. Then the compiled functions replay the same games and must
agree with their source (a function that does not compile is named too).
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from zerosum.compiled.protocol import REQUIRED, CompiledGame

__all__ = ["check", "checked_once"]

GAMES = 4
"""Random games a check plays."""


def check(compiled: CompiledGame, *, games: int = GAMES, seed: int = 0) -> None:
    """Raise ValueError naming the function of `compiled` that breaks the protocol on one of
    `games` random games (played from `seed`); return None when every check holds."""
    rng = random.Random(seed)
    lines = []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Python source may overflow where numba wraps
        for _ in range(games):
            lines.append(_play_checked(compiled, rng))
        for line in lines:
            _replay_compiled(compiled, line)


_CHECKED: set[CompiledGame] = set()


def checked_once(compiled: CompiledGame) -> None:
    """`check(compiled)` the first time a search is given a compiled game without a Python
    twin (a user's: the built-in games are checked against their twins by the tests)."""
    if compiled.twin is None and compiled not in _CHECKED:
        check(compiled)
        _CHECKED.add(compiled)


def _call(compiled: CompiledGame, name: str, compiled_functions: bool) -> Callable[..., Any]:
    """The function `name` of `compiled` (its Python source unless `compiled_functions`),
    wrapped so that any error it raises is a ValueError naming it."""
    function = getattr(compiled, name)
    if function is None:  # an optional function the game does not give: never called
        return _absent
    target = function if compiled_functions else function.py_func
    how = "compiled" if compiled_functions else "run from Python"

    def call(*arguments: Any) -> Any:
        try:
            return target(*arguments)
        except Exception as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise ValueError(
                f"{compiled.name}: {name} failed ({how}): {type(error).__name__}: {first}"
            ) from error

    return call


def _play_checked(compiled: CompiledGame, rng: random.Random) -> list[int]:
    """One random game played with the functions' source, every promise checked; its moves."""
    name = compiled.name
    f = {n: _call(compiled, n, False) for n in (*REQUIRED, "evaluate", "noisy")}
    state = np.zeros(compiled.words, np.uint64)
    f["initial"](state)
    out = np.zeros(compiled.max_moves, np.int64)
    line: list[int] = []
    while True:
        player = f["to_move"](state)
        if player not in (0, 1):
            raise ValueError(f"{name}: to_move returned {player!r}, not 0 or 1")
        key = f["key"](state)
        if f["key"](state.copy()) != key:
            raise ValueError(f"{name}: key differs for two copies of the same state")
        if compiled.evaluate is not None:
            estimate = f["evaluate"](state, player)
            if not isinstance(estimate, (int, float)) or not math.isfinite(estimate):
                raise ValueError(f"{name}: evaluate returned {estimate!r}, not a finite number")
        if f["terminal"](state):
            _check_utilities(compiled, f["utility"], state)
            return line
        if len(line) >= compiled.max_plies:
            raise ValueError(
                f"{name}: terminal is still False after max_plies = {compiled.max_plies} moves"
            )
        count = f["moves"](state, out)
        if not isinstance(count, (int, np.integer)) or not 1 <= count <= compiled.max_moves:
            raise ValueError(
                f"{name}: moves returned {count!r} for a state that is not terminal"
                f" (expected 1 to max_moves = {compiled.max_moves})"
            )
        legal = [int(move) for move in out[:count]]
        if len(set(legal)) != count:
            raise ValueError(f"{name}: moves lists a move twice: {legal}")
        if any(not 0 <= move < compiled.move_space for move in legal):
            raise ValueError(
                f"{name}: moves returned a move outside 0..{compiled.move_space - 1}: {legal}"
            )
        if compiled.noisy is not None:
            noisy = f["noisy"](state, out)
            if not 0 <= noisy <= count or not set(out[:noisy].tolist()) <= set(legal):
                raise ValueError(f"{name}: noisy returned moves that are not legal")
        move = rng.choice(legal)
        before = state.copy()
        child = np.zeros(compiled.words, np.uint64)
        f["play"](state, move, child)
        if not np.array_equal(before, state):
            raise ValueError(f"{name}: play changed the state it was given (write into child)")
        state = child
        line.append(move)


def _check_utilities(compiled: CompiledGame, utility: Callable[..., Any], state: Any) -> None:
    first, second = utility(state, 0), utility(state, 1)
    for value in (first, second):
        if not isinstance(value, (int, np.integer)):
            raise ValueError(f"{compiled.name}: utility returned {value!r}, not an integer")
    if first != -second:
        raise ValueError(
            f"{compiled.name}: utility is not zero-sum: {first} for player 0, {second} for 1"
        )


def _replay_compiled(compiled: CompiledGame, line: list[int]) -> None:
    """Replay `line` with the compiled functions, each answer compared with the source's."""
    name = compiled.name
    source = {n: _call(compiled, n, False) for n in (*REQUIRED, "evaluate", "noisy")}
    fast = {n: _call(compiled, n, True) for n in (*REQUIRED, "evaluate", "noisy")}
    state = np.zeros(compiled.words, np.uint64)
    fast["initial"](state)
    expected = np.zeros(compiled.words, np.uint64)
    source["initial"](expected)
    out_source = np.zeros(compiled.max_moves, np.int64)
    out_fast = np.zeros(compiled.max_moves, np.int64)
    for index in range(len(line) + 1):
        if not np.array_equal(state, expected):
            raise ValueError(f"{name}: play gives another state compiled than from Python")
        for function in ("to_move", "terminal", "key"):
            if source[function](state) != fast[function](state):
                raise ValueError(f"{name}: {function} answers otherwise compiled than from Python")
        player = int(fast["to_move"](state))
        if compiled.evaluate is not None and source["evaluate"](state, player) != fast["evaluate"](
            state, player
        ):
            raise ValueError(f"{name}: evaluate answers otherwise compiled than from Python")
        if index == len(line):
            if source["utility"](state, 0) != fast["utility"](state, 0):
                raise ValueError(f"{name}: utility answers otherwise compiled than from Python")
            return
        count = fast["moves"](state, out_fast)
        if count != source["moves"](state, out_source) or not np.array_equal(
            out_fast[:count], out_source[:count]
        ):
            raise ValueError(f"{name}: moves answers otherwise compiled than from Python")
        child = np.zeros(compiled.words, np.uint64)
        fast["play"](state, line[index], child)
        expected_child = np.zeros(compiled.words, np.uint64)
        source["play"](expected, line[index], expected_child)
        state, expected = child, expected_child


def _absent(*arguments: Any) -> None:
    return None
