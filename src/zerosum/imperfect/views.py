"""Other games seen as games of imperfect information, for the solvers of `zerosum.imperfect`.

`MatrixGame(payoffs)` is a matrix game played as a tree: the row player picks a row, then the
column player picks a column without seeing it (one information set for every row).
`PerfectInformation(game)` is any game of the `Game` protocol (with `Chance` or not) in which
every player sees everything: each history is its own information set.

Both check what the solvers' answers can be compared with: a matrix game's value
(`zerosum.theory.matrix.solve`) and a tree's minimax or expectiminimax value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zerosum.game import Game, MoveText, Player, has_chance, require
from zerosum.limits import clipped
from zerosum.theory.payoffs import MatrixLike, Number, payoff_matrix

MatrixState = tuple[int, ...]


class MatrixGame:
    """The matrix game `payoffs` (the row player's, validated as `zerosum.theory.matrix`
    reads them): the row player moves first ("row 1", "row 2", ...), the column player second
    ("column 1", ...) without knowing the row. A state is the 0-based indices chosen so far."""

    player_names = ("row player", "column player")

    def __init__(self, payoffs: MatrixLike) -> None:
        self.rows: tuple[tuple[Number, ...], ...] = payoff_matrix(payoffs).rows

    def initial_state(self) -> MatrixState:
        return ()

    def to_move(self, state: MatrixState) -> Player:
        return len(state)

    def legal_moves(self, state: MatrixState) -> tuple[str, ...]:
        if len(state) == 0:
            return tuple(f"row {i}" for i in range(1, len(self.rows) + 1))
        if len(state) == 1:
            return tuple(f"column {j}" for j in range(1, len(self.rows[0]) + 1))
        return ()

    def result(self, state: MatrixState, move: str) -> MatrixState:
        legal = self.legal_moves(state)
        if move not in legal:
            choices = f"{legal[0]} to {legal[-1]}" if legal else "none: the game is over"
            raise ValueError(f"{clipped(move)} is not a move here: choose {choices}")
        return (*state, legal.index(move))

    def is_terminal(self, state: MatrixState) -> bool:
        return len(state) == 2

    def utility(self, state: MatrixState, player: Player) -> Number:
        row, column = state
        payoff = self.rows[row][column]
        return payoff if player == 0 else -payoff

    def information_set(self, state: MatrixState) -> str:
        """The row player's is "rows", the column player's "columns" whatever the row."""
        return "columns" if state else "rows"


PerfectState = tuple[Any, tuple[str, ...]]


class PerfectInformation:
    """`game` (a `Game`, with `Chance` or not) as a game of imperfect information in which
    nothing is hidden, from `state` (the game's initial state when None). A state of the view
    is the game's state and the history that led to it from there: its moves (and chance's
    outcomes) as text, by the game's `format_move` when it has `MoveText`, else `str`. The
    information set is the player to move and that history.

    The history, not the game's position (its `key`): two histories can reach one position
    (tic-tac-toe's transpositions) after different moves of the same player, and a position
    shared by them would be an information set its player reaches along two paths of their
    own, which perfect recall, and so the sequence form, does not allow. ValueError when two
    moves (or outcomes) of a state have the same text.
    """

    def __init__(self, game: Game[Any, Any], state: Any = None) -> None:
        require(game, Game, "a game of perfect information to view")
        self.game = game
        self.start = game.initial_state() if state is None else state
        self._chance = has_chance(game)
        names = getattr(game, "player_names", None)
        self.player_names = tuple(names) if names else ("first player", "second player")

    def initial_state(self) -> PerfectState:
        return self.start, ()

    def to_move(self, state: PerfectState) -> Player:
        return self.game.to_move(state[0])

    def is_chance(self, state: PerfectState) -> bool:
        return self._chance and bool(self.game.is_chance(state[0]))  # type: ignore[attr-defined]

    def chance_outcomes(self, state: PerfectState) -> list[tuple[str, Any]]:
        outcomes = self._outcomes(state[0])
        return [(text, probability) for text, (_, probability) in outcomes.items()]

    def legal_moves(self, state: PerfectState) -> tuple[str, ...]:
        if self.is_terminal(state) or self.is_chance(state):
            return ()
        return tuple(self._moves(state[0]))

    def result(self, state: PerfectState, move: str) -> PerfectState:
        inner, history = state
        if self.is_chance(state):
            outcomes = self._outcomes(inner)
            if move not in outcomes:
                raise ValueError(f"{clipped(move)} is not one of chance's outcomes here")
            return self.game.result(inner, outcomes[move][0]), (*history, move)
        moves = self._moves(inner)
        if move not in moves:
            raise ValueError(f"{clipped(move)} is not a legal move here")
        return self.game.result(inner, moves[move]), (*history, move)

    def is_terminal(self, state: PerfectState) -> bool:
        return self.game.is_terminal(state[0])

    def utility(self, state: PerfectState, player: Player) -> Any:
        return self.game.utility(state[0], player)

    def information_set(self, state: PerfectState) -> str:
        """The player to move and the history, as `player 1 after ('0', '2')`."""
        return f"player {self.to_move(state)} after {state[1]!r}"

    def _moves(self, inner: Any) -> dict[str, Any]:
        """The legal moves of the game's state `inner`, by their text."""
        game = self.game
        texts: Sequence[tuple[str, Any]]
        if isinstance(game, MoveText):
            texts = [(game.format_move(inner, move), move) for move in game.legal_moves(inner)]
        else:
            texts = [(str(move), move) for move in game.legal_moves(inner)]
        return _unique(texts, "moves")

    def _outcomes(self, inner: Any) -> dict[str, tuple[Any, Any]]:
        """Chance's outcomes at the game's state `inner`, by their text, with probabilities."""
        outcomes = self.game.chance_outcomes(inner)  # type: ignore[attr-defined]
        return _unique([(str(o), (o, p)) for o, p in outcomes], "chance outcomes")


def _unique(pairs: Sequence[tuple[str, Any]], what: str) -> dict[str, Any]:
    """`pairs` as a dict by text; ValueError when two share a text."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError(f"two {what} of one state have the same text: a history would be unclear")
    return found
