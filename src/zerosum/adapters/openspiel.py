"""OpenSpiel's games as zerosum games: `load("checkers")`, or `openspiel:NAME` by the registry.

OpenSpiel (`pip install open_spiel`, imported as `pyspiel`) keeps the rules of dozens of games
in C++. `load(name, parameters)` takes one that is two-player, sequential and zero-sum (or
constant-sum), and returns:

- for a game of perfect information, with or without chance, an `OpenSpielGame`: a `Game`
  whose states are OpenSpiel's states (never changed: `result` plays on a copy), whose moves
  are OpenSpiel's action numbers, with a key for tables (`key`), moves as text (`MoveText`),
  positions as the moves from the start (`StateText`), its drawing (`Rendering`), the bounds
  of its values (`Bounded`), chance as the `Chance` capability with exact probabilities, and
  an evaluation (`Evaluating`) when one is given (`evaluation=`) or shipped for the game
  (`zerosum.adapters.openspiel_evaluations`); without chance, its moves numbered once and for
  all (`NumberedMoves`: an action's number is itself) and, where OpenSpiel gives one, each
  position shown to a player as OpenSpiel's observation tensor (`Observing`, its planes laid
  out as OpenSpiel lays them: Go's black, white, empty and the player to move), so that it is
  a PettingZoo environment (`zerosum.adapters.pettingzoo.env("openspiel:go(board_size=9)")`);
- for a game of imperfect information (`kuhn_poker`, `leduc_poker`, ...), an
  `OpenSpielHiddenGame` with `InformationSets` (OpenSpiel's `information_state_string`) and
  moves as OpenSpiel's action texts, for the CFR family and the sequence form.

Anything else is refused with a `ValueError` that says why in one line: simultaneous moves,
more or fewer than two players, payoffs that do not add up to a constant, chance whose
outcomes are drawn but not listed, an unknown name or a parameter OpenSpiel does not take.

**Values.** A constant-sum game (each end's payoffs add up to the same `c`) is made zero-sum
by taking half the difference: `utility(state, p) = (returns[p] - returns[1 - p]) / 2`, which
is `returns[p] - c / 2`, and exactly `returns[p]` when `c` is 0. Values are from the point of
view of the player asked about, as everywhere in zerosum.

**Keys.** OpenSpiel's own serialization of a state is the list of moves that led to it, so
two move orders reaching one position would be two table entries. The key is instead a 64-bit
BLAKE2 hash of the player to move and `str(state)` (OpenSpiel's drawing, which for the board
games is the board: tic-tac-toe's 5,478 positions are 5,478 keys). The hash is the same in
every process and run (Python's `hash` of a string is not), so tables can be saved; two
positions would share a key with a probability of about n² / 2⁶⁵ among n positions.

Where the drawing may not be the whole position (a game ending after a number of moves, a
rule on repeated positions: chess, Go, checkers, backgammon), the game is declared
`history_dependent`: the searches then take a stored move as a hint but never a stored score.
The games known to be wholly drawn (`POSITIONAL`) are not; on a board of at most `MOST_CELLS`
cells their positions are few enough to search to the end (`few_positions`).
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from zerosum.game import Player
from zerosum.limits import clipped

PREFIX = "openspiel:"
"""How the registry names an OpenSpiel game: `openspiel:NAME` or `openspiel:NAME(k=v,...)`."""

POSITIONAL = frozenset({"tic_tac_toe", "connect_four", "hex", "breakthrough", "othello"})
"""Games whose `str(state)` and player to move are the whole position: no move counter ends
them, no rule looks at earlier positions. Their transpositions share a table entry."""

ALTERNATING = frozenset({"tic_tac_toe", "connect_four", "hex", "breakthrough", "othello", "go"})
"""Games without chance whose players take turns strictly, the first player first (a pass is
a move): after `n` moves the player to move is `n % 2`, which `to_move` reads at the end
instead of the history (checkers' multiple jumps, chess's counter are not so)."""

MOST_CELLS = 16
"""The largest board (in cells) of a `POSITIONAL` game whose positions count as few enough to
search to the end or put in a table: each cell empty or either player's, at most 2 * 3**16
(86 million) drawings with the side to move, far fewer reachable. OpenSpiel's Hex 4x4 is
solved to the end in about a minute; 5x5, Connect Four's 6x7, Othello's 8x8 are not."""

DENOMINATOR = 1_000_000
"""The largest denominator a chance probability is read as (OpenSpiel gives floats: 1/3 is
0.333..., read back as the fraction 1/3)."""

Evaluation = Callable[[Any, Player], float]
"""A heuristic value of an OpenSpiel state for a player (see `Evaluating`)."""


def load(
    name: str,
    parameters: Mapping[str, Any] | None = None,
    *,
    evaluation: Evaluation | None = None,
) -> OpenSpielGame | OpenSpielHiddenGame:
    """OpenSpiel's game `name` with `parameters` (OpenSpiel's own: `{"rows": 6}`) as a zerosum
    game (see the module). `evaluation(state, player)`, when given, is the estimate of a state
    for `player` that depth-limited searches use, else the one shipped for the game if any.
    ValueError, in one line, for a game the adapter cannot take or OpenSpiel cannot make."""
    spiel = load_spiel(name, parameters)
    if not _perfect(spiel):
        if evaluation is not None:
            raise ValueError(f"{PREFIX}{name} hides information: an evaluation has no use there")
        return OpenSpielHiddenGame(name, parameters)
    if evaluation is None:
        from zerosum.adapters.openspiel_evaluations import shipped

        evaluation = shipped(name, spiel)
    if evaluation is not None:
        return EvaluatedOpenSpielGame(name, parameters, evaluation=evaluation)
    return OpenSpielGame(name, parameters)


def load_spiel(name: str, parameters: Mapping[str, Any] | None = None) -> Any:
    """OpenSpiel's own game object for `name` and `parameters`, checked to be one the adapter
    takes; ValueError with the reason in one line."""
    spiel = _load_spiel(name, dict(parameters or {}))
    _check_two_player_zero_sum(spiel, name)
    if not _perfect(spiel) and not spiel.get_type().provides_information_state_string:
        raise ValueError(
            f"{PREFIX}{name} hides information but does not say what each player knows"
            " (no information state string): CFR cannot take it"
        )
    try:  # parameters OpenSpiel takes but cannot play (a board of a million rows) fail here
        with _quiet_stderr():
            spiel.new_initial_state()
    except (pyspiel.SpielError, ValueError, MemoryError) as error:
        raise ValueError(
            f"{PREFIX}{name}: OpenSpiel cannot set up its start ({_one_line(error)})"
        ) from None
    return spiel


def _perfect(spiel: Any) -> bool:
    information = spiel.get_type().information
    return bool(information == pyspiel.GameType.Information.PERFECT_INFORMATION)


def make(name: str, /, **parameters: Any) -> OpenSpielGame | OpenSpielHiddenGame:
    """`load(name, parameters)` with the parameters as keywords: how the registry makes
    `openspiel:NAME(k=v,...)`."""
    return load(name, parameters)


def _load_spiel(name: str, parameters: dict[str, Any]) -> Any:
    """OpenSpiel's game, or ValueError with OpenSpiel's reason made one line."""
    known = pyspiel.registered_names()
    if name not in known:
        close = difflib.get_close_matches(name, known, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise ValueError(
            f"OpenSpiel has no game {clipped(name)}{hint}: its names are listed by"
            " python -c 'import pyspiel; print(pyspiel.registered_names())'"
        )
    for key, value in parameters.items():
        if not isinstance(value, (bool, int, float, str)):
            raise ValueError(
                f"{PREFIX}{name} parameter {clipped(key)}: OpenSpiel takes a number, true or"
                f" false, or text, got {type(value).__name__}"
            )
    try:
        with _quiet_stderr():  # OpenSpiel also prints its errors; the message says them once
            return pyspiel.load_game(name, parameters)
    except pyspiel.SpielError as error:
        raise ValueError(f"{PREFIX}{name}: {_one_line(error)}") from None


def _one_line(error: BaseException) -> str:
    text = str(error).strip().removeprefix("OpenSpiel exception:").strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = lines[0] if lines else type(error).__name__
    return line if len(line) <= MOST_MESSAGE else line[:MOST_MESSAGE] + "..."


MOST_MESSAGE = 300
"""The most characters of OpenSpiel's message an error repeats (it may quote a long value)."""


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The process's standard error (file descriptor 2, where C++ writes) sent nowhere while
    the block runs, and given back however the block ends, no descriptor left open; left as
    it is where there is none to redirect or nowhere to send it. Process-wide: what another
    thread writes there meanwhile is lost too (loading a game takes milliseconds)."""
    if sys.stderr is not None:  # None without a console (pythonw)
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no descriptor 2: nothing would be printed anyway
        yield
        return
    try:
        nowhere = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no null device (a bare container): OpenSpiel's message is printed too
        os.close(saved)
        yield
        return
    try:
        os.dup2(nowhere, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(nowhere)


def _check_two_player_zero_sum(spiel: Any, name: str) -> None:
    """ValueError naming the first reason the game is not one zerosum takes."""
    kind = spiel.get_type()
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"{PREFIX}{name} has simultaneous moves: zerosum's games take turns")
    players = spiel.num_players()
    if players != 2:
        counted = f"{players} player" + ("" if players == 1 else "s")
        raise ValueError(f"{PREFIX}{name} has {counted}: zerosum's games have two")
    if kind.utility not in (
        pyspiel.GameType.Utility.ZERO_SUM,
        pyspiel.GameType.Utility.CONSTANT_SUM,
    ):
        raise ValueError(
            f"{PREFIX}{name} is not zero-sum: its players' payoffs do not add up to a constant"
            f" (OpenSpiel calls it {kind.utility.name.lower().replace('_', '-')})"
        )
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise ValueError(
            f"{PREFIX}{name} draws its chance outcomes without listing them: zerosum needs each"
            " outcome and its probability"
        )


def _cells(spiel: Any) -> int:
    """The number of cells of a board game's board: its observation is planes of the board
    (OpenSpiel's tensors for the `POSITIONAL` games are a plane per kind of cell)."""
    shape = spiel.observation_tensor_shape()
    return int(shape[-1] * shape[-2]) if len(shape) >= 2 else 0


def _after_last_chooser(state: Any) -> Player:
    """The player after the last one who chose a move on the way to `state` (0 at the start),
    read from its history."""
    for step in reversed(state.full_history()):
        if step.player >= 0:
            return 1 - int(step.player)
    return 0


def _exact(probability: float) -> Fraction:
    """OpenSpiel's float probability as the fraction it rounds (1/3, 1/36, ...)."""
    return Fraction(probability).limit_denominator(DENOMINATOR)


class _Adapted:
    """What both kinds of adapted game share: OpenSpiel's game, its name and parameters (the
    constructor's arguments, read back by a table file to say which game it holds), the
    states' basics."""

    player_names = ("first player", "second player")  # OpenSpiel's players 0 and 1

    def __init__(self, name: str, parameters: Mapping[str, Any] | None = None) -> None:
        self.name = name
        self.parameters = dict(parameters or {})
        self.spiel = load_spiel(name, self.parameters)
        kind = self.spiel.get_type()
        self.has_chance = kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        self.long_name = kind.long_name
        self._zero_sum = kind.utility == pyspiel.GameType.Utility.ZERO_SUM
        self._alternating = name in ALTERNATING
        # The payoff of a finished state for a player, made zero-sum (see the module)
        self.utility: Callable[[Any, Player], float] = self._exact_utility

    def __repr__(self) -> str:
        return f"{type(self).__name__}({PREFIX}{self.spiel})"

    def __reduce__(self) -> tuple[Any, ...]:
        """How the game travels to another process (self-play's workers): made again there
        from its name and parameters, since OpenSpiel's own methods it holds do not pickle."""
        return (type(self), (self.name, self.parameters))

    def initial_state(self) -> Any:
        return self.spiel.new_initial_state()

    def to_move(self, state: Any) -> Player:
        """The player to move (0 or 1). Where nobody chooses (chance, the end: OpenSpiel says
        a negative number), the player after the last one who chose: the one who would move
        next, so that a finished game is valued, as in zerosum's own games, for the side that
        would be to move (a won game is a loss for it)."""
        player: int = state.current_player()
        if player >= 0:
            return player
        if self._alternating:  # the history costs microseconds: a search asks at every end
            return int(state.move_number() % 2)
        return _after_last_chooser(state)

    # OpenSpiel's own method, called with no Python frame of ours between: a search calls it
    # at every node (`state.is_terminal()`)
    is_terminal = staticmethod(pyspiel.State.is_terminal)

    def _exact_utility(self, state: Any, player: Player) -> float:
        """The payoff of the finished `state` for `player`, made zero-sum (see the module), as
        an integer when it is one (fractions of it stay exact: expectiminimax's, CFR's)."""
        if self._zero_sum:
            value = state.player_return(player)
        else:  # half the difference of the two returns
            returns = state.returns()
            value = (returns[player] - returns[1 - player]) / 2
        return int(value) if value.is_integer() else value

    def is_chance(self, state: Any) -> bool:
        return bool(state.is_chance_node())

    def chance_outcomes(self, state: Any) -> list[tuple[int, Fraction]]:
        """Chance's outcomes (OpenSpiel's action numbers) with their exact probabilities."""
        outcomes = [(action, _exact(p)) for action, p in state.chance_outcomes()]
        total = sum((p for _, p in outcomes), Fraction(0))
        if total != 1:  # rounding left them a hair off: the last takes up the difference
            action, last = outcomes[-1]
            outcomes[-1] = (action, last + 1 - total)
        return outcomes

    def render(self, state: Any) -> str:
        return str(state)

    def _action_named(self, state: Any, text: str) -> int:
        """The legal action of `state` written `text` (its OpenSpiel text, or its number);
        ValueError listing the legal ones."""
        word = text.strip()
        actions = state.legal_actions()
        named = {state.action_to_string(action): action for action in actions}
        if word in named:
            return named[word]
        folded = {key.lower(): action for key, action in named.items()}
        if word.lower() in folded:
            return folded[word.lower()]
        if word.lstrip("-").isdigit() and len(word) < 20 and int(word) in actions:
            return int(word)
        listed = ", ".join(list(named)[:20]) + (", ..." if len(named) > 20 else "")
        raise ValueError(f"{word[:40]!r} is not a legal move: choose one of {listed}")


class OpenSpielGame(_Adapted):
    """An OpenSpiel game of perfect information (chance allowed) as a zerosum `Game`: states
    are OpenSpiel's, moves its action numbers (see the module)."""

    def __init__(self, name: str, parameters: Mapping[str, Any] | None = None) -> None:
        super().__init__(name, parameters)
        if not _perfect(self.spiel):
            raise ValueError(f"{PREFIX}{name} hides information: load it as OpenSpielHiddenGame")
        self.history_dependent = name not in POSITIONAL
        spiel = self.spiel
        self.few_positions = not self.history_dependent and _cells(spiel) <= MOST_CELLS
        # The legal actions in OpenSpiel's order, a new list each time (none at the end, none
        # at chance nodes): without chance, OpenSpiel's own method, called with no Python
        # frame of ours between (a search asks at every node)
        self.legal_moves: Callable[[Any], Sequence[int]] = (
            self._decision_moves if self.has_chance else pyspiel.State.legal_actions
        )
        if self._zero_sum and not self.has_chance:
            # OpenSpiel's own return, the same number: a float (1.0) that a search compares
            # with its bounds (floats) at C speed, with no Python frame of ours between; with
            # chance, the exact value keeps expectiminimax's fractions exact
            self.utility = pyspiel.State.player_return
        low, high = spiel.min_utility(), spiel.max_utility()
        constant = spiel.utility_sum() if spiel.get_type().utility.name == "CONSTANT_SUM" else 0
        self._bounds = (low - constant / 2, high - constant / 2)
        if not self.has_chance:  # an environment's actions, its agents' arrays (see the module)
            self.move_count = spiel.num_distinct_actions
            self.move_number = self.numbered_move = int
            if spiel.get_type().provides_observation_tensor:
                self.observation_shape = self._observation_shape
                self.observation = self._observation

    def _observation_shape(self) -> tuple[int, ...]:
        """The shape of OpenSpiel's observation tensor (`Observing`)."""
        return tuple(self.spiel.observation_tensor_shape())

    def _observation(self, state: Any, player: Player) -> Any:
        """OpenSpiel's observation tensor of `state` for `player`, in its shape (`Observing`)."""
        return np.reshape(state.observation_tensor(player), self._observation_shape())

    def _decision_moves(self, state: Any) -> Sequence[int]:
        """The legal actions of a game with chance: none at a chance node (where OpenSpiel
        lists chance's outcomes)."""
        if state.is_chance_node():
            return ()
        return state.legal_actions()

    # The state after a move (a player's action or chance's outcome), on a copy: OpenSpiel's
    # `state.child(move)`, called with no Python frame of ours between (a search calls it at
    # every node)
    result = staticmethod(pyspiel.State.child)

    def value_bounds(self) -> tuple[float, float]:
        """The lowest and highest utility for the first player (OpenSpiel's, shifted)."""
        return self._bounds

    def key(self, state: Any) -> int:
        """A 64-bit hash of the player to move and the drawn position (see the module)."""
        text = f"{state.current_player()}\n{state}".encode()
        return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")

    def format_move(self, state: Any, move: int) -> str:
        """OpenSpiel's text for the action `move` in `state`."""
        return str(state.action_to_string(state.current_player(), move))

    def parse_move(self, state: Any, text: str) -> int:
        """The legal action `text` names: its OpenSpiel text (any case) or its number."""
        if state.is_terminal():
            raise ValueError("the game is over: no move is legal")
        return self._action_named(state, text)

    def parse_state(self, text: str) -> Any:
        """The position after the moves `text` lists from the start, separated by spaces, each
        its OpenSpiel text or its action number (chance's outcomes too): `x(1,1) o(0,0)` or
        `4 0` in tic-tac-toe."""
        state = self.initial_state()
        for number, word in enumerate(text.split(), start=1):
            if state.is_terminal():
                raise ValueError(f"move {number} ({word[:40]!r}) comes after the end of the game")
            try:
                state = state.child(self._action_named(state, word))
            except ValueError as error:
                raise ValueError(f"move {number}: {error}") from None
        return state


class EvaluatedOpenSpielGame(OpenSpielGame):
    """An `OpenSpielGame` with an evaluation for depth-limited search (`Evaluating`)."""

    def __init__(
        self, name: str, parameters: Mapping[str, Any] | None = None, *, evaluation: Evaluation
    ) -> None:
        super().__init__(name, parameters)
        self._evaluation = evaluation  # not `evaluation`: a table file reads back only text

    def __reduce__(self) -> tuple[Any, ...]:
        return (_evaluated, (self.name, self.parameters, self._evaluation))

    def evaluate(self, state: Any, player: Player) -> float:
        """The estimate of `state` for `player`: its utility at the end, else the evaluation's."""
        if state.is_terminal():
            return self.utility(state, player)
        return self._evaluation(state, player)


def _evaluated(
    name: str, parameters: Mapping[str, Any], evaluation: Evaluation
) -> EvaluatedOpenSpielGame:
    """The `EvaluatedOpenSpielGame` an unpickling makes (its evaluation is a keyword)."""
    return EvaluatedOpenSpielGame(name, parameters, evaluation=evaluation)


class OpenSpielHiddenGame(_Adapted):
    """An OpenSpiel game of imperfect information as a zerosum game with `InformationSets`:
    a player's moves are OpenSpiel's action texts (`"Bet"`), chance's its action numbers."""

    def __init__(self, name: str, parameters: Mapping[str, Any] | None = None) -> None:
        super().__init__(name, parameters)
        if _perfect(self.spiel):
            raise ValueError(f"{PREFIX}{name} has perfect information: load it as OpenSpielGame")

    def legal_moves(self, state: Any) -> tuple[str, ...]:
        """The texts of the legal actions of the player to move, in OpenSpiel's order."""
        if state.is_chance_node() or state.is_terminal():
            return ()
        texts = tuple(state.action_to_string(action) for action in state.legal_actions())
        if len(set(texts)) < len(texts):  # a strategy names moves by text: they must differ
            raise ValueError(f"{PREFIX}{self.name} writes two legal moves alike: {texts[:10]}")
        return texts

    def result(self, state: Any, move: int | str) -> Any:
        """The state after a player's move (its text) or chance's outcome (its number)."""
        if state.is_chance_node():
            return state.child(move)
        return state.child(self._action_named(state, str(move)))

    def information_set(self, state: Any) -> str:
        """What the player to move knows: OpenSpiel's information state string."""
        return str(state.information_state_string())
