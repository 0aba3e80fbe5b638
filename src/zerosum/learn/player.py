"""A trained network at play: the `az:DIR` player and the learned evaluation `eval=az:DIR`.

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
from zerosum.learn.network import shape_for
from zerosum.learn.selfplay import Evaluation
from zerosum.match import Chooser
from zerosum.registry import setup
from zerosum.search.mcts import MCTS

SIMULATIONS = 200
"""The `az` player's simulations a move when none are asked for."""


def network_player(
    game: Game, evaluation: Evaluation, simulations: int, c: float, seed: int
) -> Chooser:
    """A player of one game searching `simulations` PUCT iterations a move with `evaluation`."""
    search = MCTS(game, iterations=simulations, c=c, evaluator=evaluation, seed=seed)
    return search.choose


def trained(directory: str, game: Game) -> Evaluation:
    """The best network of the run in `directory` as an evaluator of `game`; ValueError in
    one line when there is no run there, or it learned another game (or board)."""
    from zerosum.learn.training import load_best

    spec, shape, params = load_best(directory)
    learned = setup(spec).game
    if type(learned) is not type(game) or shape_for(game, shape.hidden) != shape:
        raise ValueError(
            f"the network in {directory} learned {spec}, not this game"
            f" ({type(game).__name__}{_board(game)})"
        )
    return Evaluation(game, params)


def _board(game: Game) -> str:
    shape = getattr(game, "observation_shape", None)
    return f", positions of shape {shape()}" if shape is not None else ""


def az_search(
    game: Game,
    directory: str,
    simulations: int | None,
    c: float | None,
    seed: int,
    time: float | None = None,
) -> MCTS:
    """The search of the `az:DIR` player (`zerosum.players` plays the move it prefers), its
    tree kept from move to move: `simulations` a move (default `SIMULATIONS`), at most `time`
    seconds when given (the page's bound), PUCT's `c` (default 1.5). ValueError as `trained`
    gives it."""
    evaluation = trained(directory, game)
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


def learned_evaluation(spec: str, game: Game) -> Game:
    """`game` with the evaluation `spec` names: `az:DIR`, a network of `zerosum train`, or
    `td:DIR`, Pig's evaluation learned by TD(lambda) (`zerosum.learn.td`); ValueError for
    another spec, or one learned for another game."""
    kind, _, directory = spec.partition(":")
    if kind == "az" and directory:
        return LearnedEvaluation(game, trained(directory, game))
    if kind == "td" and directory:
        from zerosum.games.pig import Pig
        from zerosum.learn import td

        evaluation = td.load(directory)
        if not isinstance(game, Pig) or game.target != evaluation.target:
            raise ValueError(
                f"the evaluation in {directory} learned {evaluation.game}, not this game"
            )
        return td.LearnedPig(evaluation)
    raise ValueError(
        f"unknown evaluation {spec!r}: expected az:DIR or td:DIR, a run of zerosum train"
    )
