"""A trained network at play: the search of the `az:DIR` player and the learned evaluation
of `eval=az:DIR`, given the network as an `Evaluation` (`zerosum.players` reads the run in
`DIR` and checks it learned the game being played).

`az:DIR` searches each move with PUCT MCTS guided by the best network of the run in `DIR`
(`zerosum train`), with the solver on and its tree kept from move to move; it plays the move
the search prefers. Playing needs numpy only, not JAX.

`eval=az:DIR` gives another player (the engine, alpha-beta) the network's value as the
game's evaluation: the expected result for the player to move, in the game's utilities,
turned to the side the search asks about. Deep Blue's search with AlphaZero's judgement:
the textbook's two lines of game programs in one player. `eval=td:DIR` gives expectiminimax
Pig's evaluation learned by TD(lambda) (`zerosum.learn.td`).
"""

from __future__ import annotations

from typing import Any

from zerosum.game import Game, Player
from zerosum.learn.selfplay import Evaluation
from zerosum.match import Chooser
from zerosum.search.mcts import MCTS

SIMULATIONS = 200
"""The `az` player's simulations a move when none are asked for."""


def network_player(
    game: Game, evaluation: Evaluation, simulations: int, c: float, seed: int
) -> Chooser:
    """A player of one game searching `simulations` PUCT iterations a move with `evaluation`."""
    search = MCTS(game, iterations=simulations, c=c, evaluator=evaluation, seed=seed)
    return search.choose


def az_search(
    game: Game,
    evaluation: Evaluation,
    simulations: int | None,
    c: float | None,
    seed: int,
    time: float | None = None,
) -> MCTS:
    """The search of the `az:DIR` player guided by `evaluation`, the run's best network
    (`zerosum.players` plays the move it prefers), its tree kept from move to move:
    `simulations` a move (default `SIMULATIONS`), at most `time` seconds when given (the
    page's bound), PUCT's `c` (default 1.5)."""
    return MCTS(
        game,
        iterations=simulations or SIMULATIONS,
        time=time,
        c=1.5 if c is None else c,
        evaluator=evaluation,
        seed=seed,
    )


class LearnedEvaluation:
    """`game` whose `evaluate` is a trained network's value; every other method is the
    game's own. `evaluate(state, player)` is for `player`, in the game's utilities."""

    def __init__(self, game: Game, evaluation: Evaluation) -> None:
        self._game = game
        self._evaluation = evaluation

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def evaluate(self, state: Any, player: Player) -> float:
        value = self._evaluation(state)[1]  # for the player to move
        return value if self._game.to_move(state) == player else -value
