"""Games and matches between players, and what the results mean.

A player is a `Chooser`: given a state where it is to move, the move it plays (None when it
leaves the game, as a human may). `play_game` is the one game loop of the project: it asks
the players for their moves, rolls the dice itself at chance nodes, and tells an observer
each move played (the terminal's `play` draws the board from it). `zerosum.registry` builds
players from specs such as `mcts:iterations=800` or `engine:time=0.5`.

`play_match` plays N games between players A and B, A taking the first move in
even-numbered games and B in odd ones, each pair of games from the same opening when a list
of openings is given, and returns a `MatchResult`: A's wins, draws and losses, A's score with
a 95% confidence interval (Wilson's score interval), and the Elo difference that score implies
with its 95% error. A game of a match still going after `MOST_MOVES` moves (a cycle two
players never leave, or Pig to a hundred thousand points) is scored a draw and counted as
adjudicated, so that a match ends.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zerosum.game import Chance, Game, Player
from zerosum.limits import Limit

Chooser = Callable[[Any], Any]
"""`choose(state) -> move`: a player, ready for one game (None: it leaves the game)."""

Observer = Callable[[Any, Any, Player | None, Any], None]
"""`observe(state, move, player, after)`: `player` (None for the dice) played `move` in
`state`, which became `after`."""

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution

GAMES = Limit(
    "games in a match",
    1_000_000,
    "a million games of tic-tac-toe between random players take three minutes here, and"
    " searching players take far longer a game",
    liftable=False,
)

MOST_MOVES = 20_000
"""The moves (a roll of the dice is a move) a game of a match may last before it is scored a
draw: more than any game here can last when it ends by its rules (chess, drawn here at fifty
moves without a capture or a pawn move, ends within 12,000 plies), and a bound on a game that
two players would never end (Pig to a hundred thousand points takes about 170,000 moves
between random players)."""


@dataclass(frozen=True)
class MatchResult:
    """A match's outcome from player A's point of view.

    `score` is A's mean points per game (win 1, draw 1/2, loss 0) and `score_interval` its 95%
    confidence interval: Wilson's score interval, the score taken as a proportion of the games
    played (which, unlike the normal approximation, never shrinks to a point when every game
    ends alike: 4 wins of 4 give 0.510 to 1); `elo` the rating
    difference A minus B that the score implies, `400 log10(score / (1 - score))`, and `elo_error`
    its 95% half-width by the delta method. Both are None when the score is 0 or 1 (the Elo
    difference is then unbounded). `left` is True when a player left a game: the match
    ended before all its games were played. `adjudicated` counts the draws among them that were
    scored at a game's most moves rather than played out.
    """

    wins: int
    draws: int
    losses: int
    left: bool = False
    adjudicated: int = 0

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
        """Wilson's 95% score interval of `score` over `games` ((0.5, 0.5) before any game)."""
        n = self.games
        if n == 0:
            return 0.5, 0.5
        p, z2 = self.score, Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        margin = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
        return max(0.0, centre - margin), min(1.0, centre + margin)

    @property
    def elo(self) -> float | None:
        score = self.score
        if not 0 < score < 1:
            return None
        return 400 * math.log10(score / (1 - score))  # an even score gives 0.0, not -0.0

    @property
    def elo_error(self) -> float | None:
        score = self.score
        if not 0 < score < 1:
            return None
        slope = 400 / (math.log(10) * score * (1 - score))  # d elo / d score
        return Z95 * self.standard_error * slope


def play_game(
    game: Game,
    players: Sequence[Chooser],
    state: Any,
    rng: random.Random,
    observe: Observer | None = None,
    most_moves: int | None = None,
) -> Any | None:
    """Play from `state` to the end (`players[p]` moves for player p; the dice rolled with
    `rng`); the final state, or None when a player left. With `most_moves`, the game stops after
    that many moves (a roll of the dice is a move): the state returned is then unfinished.
    ValueError when a player chooses an illegal move."""
    dice = game if isinstance(game, Chance) else None
    moves = 0
    while not game.is_terminal(state):
        if moves == most_moves:
            return state
        moves += 1
        player: Player | None
        if dice is not None and dice.is_chance(state):
            outcomes = dice.chance_outcomes(state)
            move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            player = None
        else:
            player = game.to_move(state)
            move = players[player](state)
            if move is None:
                return None
            if move not in game.legal_moves(state):
                raise ValueError(f"a player chose {move!r}, which is not a legal move")
        after = game.result(state, move)
        if observe is not None:
            observe(state, move, player, after)
        state = after
    return state


def play_match(
    game: Game,
    a: Callable[[int], Chooser],
    b: Callable[[int], Chooser],
    games: int,
    *,
    openings: Sequence[Any] | None = None,
    seed: int = 0,
    progress: Callable[[MatchResult], None] | None = None,
    most_moves: int = MOST_MOVES,
) -> MatchResult:
    """Play `games` games between A and B, alternating who starts; the result for A.

    `a(seed)` and `b(seed)` make each player afresh for a game, with a seed for its random
    choices. Game i starts from `openings[(i // 2) % len(openings)]` when openings are given
    (so each opening is played once with each player moving first), else from the initial
    position. `seed` fixes the dice and every player's random choices. `progress`, when given, is
    called with the running result after each game. When a player leaves a game, the match
    ends there: the result counts the games finished and says `left`. A game that has not
    ended after `most_moves` moves is scored a draw, and counted in `adjudicated`.
    """
    if games < 1:
        raise ValueError(f"a match needs at least 1 game, got {games}")
    if most_moves < 1:
        raise ValueError(f"a game of a match needs at least 1 move, got {most_moves:,}")
    GAMES.check(games)
    if openings is not None and not openings:
        raise ValueError("the list of openings is empty")
    for number, opening in enumerate(openings or (), 1):
        if game.is_terminal(opening):
            raise ValueError(f"opening {number} is a finished game: there is nothing to play")
    wins = draws = losses = adjudicated = 0
    result = MatchResult(0, 0, 0)
    for index in range(games):
        start = game.initial_state() if not openings else openings[(index // 2) % len(openings)]
        a_side = (game.to_move(start) + index) % 2  # A moves first in even games
        player_a = a(seed * 1_000_003 + 2 * index)
        player_b = b(seed * 1_000_003 + 2 * index + 1)
        players = (player_a, player_b) if a_side == 0 else (player_b, player_a)
        rng = random.Random(seed * 7919 + index)
        final = play_game(game, players, start, rng, most_moves=most_moves)
        if final is None:
            return MatchResult(wins, draws, losses, left=True, adjudicated=adjudicated)
        if game.is_terminal(final):
            outcome = game.utility(final, a_side)
        else:  # still going at its most moves: a draw
            outcome, adjudicated = 0, adjudicated + 1
        wins += outcome > 0
        draws += outcome == 0
        losses += outcome < 0
        result = MatchResult(wins, draws, losses, adjudicated=adjudicated)
        if progress is not None:
            progress(result)
    return result
