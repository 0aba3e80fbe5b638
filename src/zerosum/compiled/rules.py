"""Any compiled game as an ordinary `zerosum.game.Game`, so that every Python algorithm, the
commands and the checks can use it.

`python_rules(compiled)` (a `CompiledRules`) calls the compiled functions from Python, one
state at a time: a state is a tuple of the words (hashable and immutable, as the Python
algorithms expect), a move an integer. With `checked=True` it calls the functions' Python
source instead (`py_func`), where a wrong index is an `IndexError`, not a crash of the interpreter.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.compiled.protocol import CompiledGame
from zerosum.game import Player

State = tuple[int, ...]


class CompiledRules:
    """The Game protocol over a `CompiledGame`'s functions; states are tuples of words."""

    def __init__(self, compiled: CompiledGame, *, checked: bool = False) -> None:
        self.compiled_game = compiled
        self.checked = checked

        def function(name: str) -> Any:
            found = getattr(compiled, name)
            return None if found is None else found.py_func if checked else found

        self._initial, self._to_move = function("initial"), function("to_move")
        self._moves, self._play = function("moves"), function("play")
        self._terminal, self._utility = function("terminal"), function("utility")
        self._key = function("key")
        self._evaluate, self._noisy = function("evaluate"), function("noisy")
        self._buffer = np.zeros(compiled.max_moves, np.int64)

    @property
    def name(self) -> str:
        return self.compiled_game.name

    def compiled(self) -> CompiledGame:
        """The compiled rules this view calls (`Compilable`: the compiled searches take it)."""
        return self.compiled_game

    def words(self, state: State) -> np.ndarray:
        return np.array(state, np.uint64)

    def initial_state(self) -> State:
        words = np.zeros(self.compiled_game.words, np.uint64)
        self._initial(words)
        return _state(words)

    def to_move(self, state: State) -> Player:
        return int(self._to_move(self.words(state)))

    def legal_moves(self, state: State) -> list[int]:
        words = self.words(state)
        if self._terminal(words):
            return []
        count = self._moves(words, self._buffer)
        return [int(move) for move in self._buffer[:count]]

    def result(self, state: State, move: int) -> State:
        child = np.zeros(self.compiled_game.words, np.uint64)
        self._play(self.words(state), move, child)
        return _state(child)

    def is_terminal(self, state: State) -> bool:
        return bool(self._terminal(self.words(state)))

    def utility(self, state: State, player: Player) -> int:
        return int(self._utility(self.words(state), player))

    def key(self, state: State) -> int:
        return int(self._key(self.words(state)))

    def format_move(self, state: State, move: int) -> str:
        formatted = self.compiled_game.format_move
        return str(move) if formatted is None else formatted(move)

    def parse_move(self, state: State, text: str) -> int:
        moves = self.legal_moves(state)
        for move in moves:
            if self.format_move(state, move) == text.strip():
                return move
        listed = " ".join(self.format_move(state, move) for move in moves)
        raise ValueError(f"{text.strip()!r} is not a legal move: choose one of {listed}")

    def parse_state(self, text: str) -> State:
        parse = self.compiled_game.parse_state
        if parse is None:
            raise ValueError(f"{self.compiled_game.name} does not read positions from text")
        return _state(parse(text))


class _Evaluating(CompiledRules):
    def evaluate(self, state: State, player: Player) -> float:
        return float(self._evaluate(self.words(state), player))


class _Noisy(CompiledRules):
    def noisy_moves(self, state: State) -> list[int]:
        count = self._noisy(self.words(state), self._buffer)
        return [int(move) for move in self._buffer[:count]]


class _EvaluatingNoisy(_Evaluating, _Noisy):
    pass


def python_rules(compiled: CompiledGame, *, checked: bool = False) -> CompiledRules:
    """`compiled` as a Python game offering what it offers: `evaluate` (`Evaluating`) and
    `noisy_moves` (`Noisy`) only where the compiled game gives them, since the searches
    discover capabilities by the methods a game has."""
    kind = {
        (False, False): CompiledRules,
        (True, False): _Evaluating,
        (False, True): _Noisy,
        (True, True): _EvaluatingNoisy,
    }[compiled.evaluate is not None, compiled.noisy is not None]
    return kind(compiled, checked=checked)


def _state(words: np.ndarray) -> State:
    return tuple(int(word) for word in words)
