"""Matches between players: N games, alternating who starts, and what the results mean.

A player is described by a short text, `KIND` or `KIND:NAME=VALUE,NAME=VALUE` (for example
`random`, `mcts:iterations=800,c=1.4`, `mcts:time=0.5`, `alphabeta:depth=4`, `engine:time=0.5`,
`expectiminimax:depth=2`), parsed by `parse_player` against `PLAYERS`, the table of the kinds
of player and the options each takes. A new kind of player is one more entry in that table.

`play_match` plays the games (rolling the dice itself at chance nodes), player A taking the
first move in even-numbered games and player B in odd ones, each pair of games from the same
opening when a list of openings is given, and returns a `MatchResult`: A's wins, draws and
losses, A's score with a 95% confidence interval, and the Elo difference that score implies
with its 95% error.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zerosum.game import Chance, Evaluating, Game, require
from zerosum.games.pig import Pig
from zerosum.search.engine import Engine
from zerosum.search.exact import alphabeta
from zerosum.search.expectiminimax import expectiminimax
from zerosum.search.mcts import MCTS
from zerosum.solve.pig import solve_pig

Chooser = Callable[[Any], Any]
"""`choose(state) -> move`: a player, ready for one game."""

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player: its options (name -> parser of the value's text) and its maker.

    `make(game, options, seed)` returns a fresh `Chooser` for one game.
    """

    options: dict[str, Callable[[str], Any]]
    make: Callable[[Game, dict[str, Any], int], Chooser]
    summary: str


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player description: the kind and its options."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def _random_player(game: Game, options: dict[str, Any], seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda state: rng.choice(list(game.legal_moves(state)))


def _mcts_player(game: Game, options: dict[str, Any], seed: int) -> Chooser:
    return MCTS(game, seed=seed, **options).choose


def _alphabeta_player(game: Game, options: dict[str, Any], seed: int) -> Chooser:
    if isinstance(game, Chance):
        raise ValueError("alphabeta cannot play a game with dice: use expectiminimax:depth=N")
    depth = options.get("depth")
    if depth is not None:
        require(game, Evaluating, "alphabeta:depth=N (an evaluation at the depth limit)")
    return lambda state: alphabeta(game, state, depth=depth).best_move


def _expectiminimax_player(game: Game, options: dict[str, Any], seed: int) -> Chooser:
    depth = options.get("depth")
    if depth is not None:
        require(game, Evaluating, "expectiminimax:depth=N (an evaluation at the depth limit)")
    return lambda state: expectiminimax(game, state, depth=depth).best_move


def _engine_player(game: Game, options: dict[str, Any], seed: int) -> Chooser:
    if isinstance(game, Chance):
        raise ValueError("the engine cannot play a game with dice: use expectiminimax:depth=N")
    if not options:
        raise ValueError("engine needs a budget: engine:depth=N, engine:time=SECONDS or nodes=N")
    if "depth" in options:
        require(game, Evaluating, "engine:depth=N (an evaluation at the depth limit)")
    engine = Engine(game)  # one per game: its table and history carry from move to move
    return lambda state: engine.search(state, **options).best_move


def _solved_pig_player(game: Game, options: dict[str, Any], seed: int) -> Chooser:
    if not isinstance(game, Pig):
        raise ValueError("the solved player plays Pig only (its solution is computed exactly)")
    return _pig_solution(game.target).best_move


_pig_solution = functools.cache(solve_pig)  # solved once per target, not once per game


PLAYERS: dict[str, PlayerKind] = {
    "random": PlayerKind({}, _random_player, "a uniformly random legal move"),
    "mcts": PlayerKind(
        {"iterations": int, "time": float, "c": float},
        _mcts_player,
        "Monte Carlo tree search (UCT with the solver): iterations=N and/or time=SECONDS, c=X",
    ),
    "alphabeta": PlayerKind(
        {"depth": int},
        _alphabeta_player,
        "exact alpha-beta to the end, or to depth=N with the game's evaluation",
    ),
    "engine": PlayerKind(
        {"depth": int, "time": float, "nodes": int},
        _engine_player,
        "the engine (iterative deepening, table, ordering, PVS, quiescence): depth=N,"
        " time=SECONDS and/or nodes=N",
    ),
    "expectiminimax": PlayerKind(
        {"depth": int},
        _expectiminimax_player,
        "expectiminimax with Star2 pruning for dice games, to depth=N with the evaluation",
    ),
    "solved": PlayerKind({}, _solved_pig_player, "Pig's optimal policy, solved exactly"),
}


def parse_player(text: str, kinds: dict[str, PlayerKind] | None = None) -> PlayerSpec:
    """The `PlayerSpec` that `text` (e.g. `"mcts:iterations=800,c=1.4"`) describes.

    ValueError naming the problem: an unknown kind, an unknown option, a malformed value.
    """
    kinds = PLAYERS if kinds is None else kinds
    name, _, rest = text.strip().partition(":")
    if name not in kinds:
        raise ValueError(f"unknown player {name!r}: choose one of {', '.join(sorted(kinds))}")
    parsers = kinds[name].options
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        option, equals, value = item.partition("=")
        if option not in parsers:
            known = ", ".join(parsers) or "none"
            raise ValueError(f"player {name!r} has no option {option!r} (options: {known})")
        if not equals or not value:
            raise ValueError(f"player option {option!r} needs a value: {option}=VALUE")
        try:
            options[option] = parsers[option](value)
        except ValueError:
            raise ValueError(
                f"bad value {value!r} for {name} option {option!r}: expected"
                f" {'an integer' if parsers[option] is int else 'a number'}"
            ) from None
    return PlayerSpec(name, options, text.strip())


@dataclass(frozen=True)
class MatchResult:
    """A match's outcome from player A's point of view.

    `score` is A's mean points per game (win 1, draw 1/2, loss 0) and `score_interval` its 95%
    confidence interval (normal approximation from the games' own spread); `elo` the rating
    difference A minus B that the score implies, `-400 log10(1 / score - 1)`, and `elo_error`
    its 95% half-width by the delta method. Both are None when the score is 0 or 1 (the Elo
    difference is then unbounded).
    """

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    @property
    def standard_error(self) -> float:
        """The standard error of the mean score."""
        n = self.games
        if n == 0:
            return 0.0
        mean = self.score
        spread = (
            self.wins * (1 - mean) ** 2 + self.draws * (0.5 - mean) ** 2 + self.losses * mean**2
        ) / n
        return math.sqrt(spread / n)

    @property
    def score_interval(self) -> tuple[float, float]:
        margin = Z95 * self.standard_error
        return max(0.0, self.score - margin), min(1.0, self.score + margin)

    @property
    def elo(self) -> float | None:
        score = self.score
        if not 0 < score < 1:
            return None
        return -400 * math.log10(1 / score - 1)

    @property
    def elo_error(self) -> float | None:
        score = self.score
        if not 0 < score < 1:
            return None
        slope = 400 / (math.log(10) * score * (1 - score))  # d elo / d score
        return Z95 * self.standard_error * slope


def play_game(game: Game, choosers: Sequence[Chooser], state: Any, rng: random.Random) -> Any:
    """Play from `state` to the end (`choosers[p]` moves for player p); the final state."""
    dice = isinstance(game, Chance)
    while not game.is_terminal(state):
        if dice and game.is_chance(state):  # type: ignore[attr-defined]
            outcomes = game.chance_outcomes(state)  # type: ignore[attr-defined]
            outcome = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            state = game.result(state, outcome)
            continue
        move = choosers[game.to_move(state)](state)
        if move not in game.legal_moves(state):
            raise ValueError(f"a player chose {move!r}, which is not a legal move")
        state = game.result(state, move)
    return state


def play_match(
    game: Game,
    a: PlayerSpec,
    b: PlayerSpec,
    games: int,
    *,
    openings: Sequence[Any] | None = None,
    seed: int = 0,
    kinds: dict[str, PlayerKind] | None = None,
    progress: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Play `games` games between A and B, alternating who starts; the result for A.

    Game i starts from `openings[(i // 2) % len(openings)]` when openings are given (so each
    opening is played once with each player moving first), else from the initial position.
    `seed` fixes the dice and every player's random choices. `progress`, when given, is
    called with the running result after each game.
    """
    if games < 1:
        raise ValueError(f"a match needs at least 1 game, got {games}")
    if openings is not None and not openings:
        raise ValueError("the list of openings is empty")
    kinds = PLAYERS if kinds is None else kinds
    wins = draws = losses = 0
    result = MatchResult(0, 0, 0)
    for index in range(games):
        start = game.initial_state() if not openings else openings[(index // 2) % len(openings)]
        a_side = (game.to_move(start) + index) % 2  # A moves first in even games
        player_a = kinds[a.kind].make(game, a.options, seed * 1_000_003 + 2 * index)
        player_b = kinds[b.kind].make(game, b.options, seed * 1_000_003 + 2 * index + 1)
        choosers = (player_a, player_b) if a_side == 0 else (player_b, player_a)
        final = play_game(game, choosers, start, random.Random(seed * 7919 + index))
        outcome = game.utility(final, a_side)
        wins += outcome > 0
        draws += outcome == 0
        losses += outcome < 0
        result = MatchResult(wins, draws, losses)
        if progress is not None:
            progress(result)
    return result
