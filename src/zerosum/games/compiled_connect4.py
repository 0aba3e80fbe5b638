"""Connect Four's rules compiled (`zerosum.compiled.protocol`): the twin of `ConnectFour`, for
any width and height whose board fits in 64 bits with a spare bit a column
(`width * (height + 1) <= 64`) and any line length.

A state is four words, the Python game's tuple: the stones of the player to move, every stone,
the number of stones, and 1 when the player who just moved has a line. Moves are columns,
centre first; the key is `position + mask`, the evaluation and the noisy moves the Python
game's, computed alike (the two engines score every position the same).

The functions are `zerosum.games.compiled_connect4_rules`, a template whose board dimensions
are set per size in a module written to the cache directory (`zerosum.compiled.cache`): numba
keeps them, and the searches over them, between processes.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from zerosum.compiled.cache import build
from zerosum.compiled.protocol import CompiledGame, Twin
from zerosum.games.connect4 import ConnectFour


def connect_four_rules(game: ConnectFour) -> CompiledGame:
    """The compiled rules of `game`'s size, twinned with `game`; ValueError when its board does
    not fit in 64 bits."""
    if game.width * game.stride > 64:
        raise ValueError(
            f"a {game.width}x{game.height} Connect Four board does not fit in 64 bits:"
            " the compiled rules need width * (height + 1) <= 64"
        )
    initial, to_move, moves, play, terminal, utility, key, evaluate, noisy, observe = _compile(
        game.width, game.height, game.connect
    )
    return CompiledGame(
        f"connect4({game.width}x{game.height}, {game.connect} in a line)",
        words=4, max_moves=game.width, move_space=game.width, max_plies=game.cells,
        initial=initial, to_move=to_move, moves=moves, play=play, terminal=terminal,
        utility=utility, key=key, evaluate=evaluate, noisy=noisy, observe=observe,
        format_move=_column_text, twin=Twin(game, _to_words, _from_words),
    )  # fmt: skip


def _column_text(move: int) -> str:
    return str(move + 1)


def _to_words(state: tuple[int, int, int, bool]) -> np.ndarray:
    return np.array([state[0], state[1], state[2], int(state[3])], np.uint64)


def _from_words(words: np.ndarray) -> tuple[int, int, int, bool]:
    return int(words[0]), int(words[1]), int(words[2]), bool(words[3])


@functools.cache
def _compile(width: int, height: int, connect: int) -> tuple[Any, ...]:
    """The compiled functions of one size: initial, to_move, moves, play, terminal, utility,
    key, evaluate, noisy, observe (the protocol's order), from the template
    `zerosum.games.compiled_connect4_rules` made that size's (kept on disk by
    `zerosum.compiled.cache`, so that the searches over them are cached too)."""
    from zerosum.games import compiled_connect4_rules as template

    size = {"WIDTH": width, "HEIGHT": height, "CONNECT": connect}
    module = build(template, size, f"compiling Connect Four's rules ({width}x{height})", _lazy)
    return tuple(getattr(module, name) for name in FUNCTIONS)


FUNCTIONS = ("initial", "to_move", "moves", "play", "terminal", "utility", "key", "evaluate",
             "noisy", "observe")  # fmt: skip


def _lazy(module: Any) -> None:
    """The rules compile when first called, or with a search that calls them."""
