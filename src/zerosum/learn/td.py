"""TD(λ): an evaluation of Pig learned from self-play by temporal differences, checked exactly.

The line of Samuel's checkers player and Tesauro's TD-Gammon. A small network `V` estimates,
for a position `(mine, theirs, turn)`, the probability that the player to move wins. The learner
plays both sides against itself, at each decision choosing the move whose expected after-value
under the current `V` is best (rolling: the mean over the six faces, a 1 handing the turn over;
holding: the opponent's turn starts, worth `1 - V` of their position to us). After each step it
moves `V` of the position it left toward what came next (Sutton's temporal-difference error):

    δ = target - V(s),  target = V(s') if the same player moves in s',
                                 1 - V(s') if the turn passed, 1 at a win,
    e ← λ e + ∇V(s),    w ← w + α δ e.

The values are from the mover's point of view, which changes as the turn passes, while the
trace `e` adds up gradients of past positions: TD(λ) needs one fixed point of view for the sum
to mean anything. So the trace and the error are kept for player 0 (`U = V` when player 0
moves, `1 - V` when player 1 does): each gradient enters the trace with the sign of its mover,
each error is multiplied by it. With `λ = 0` this is exactly the step above; the traces start
from zero in every game.

Features, scaled by the target so one network shape serves every target: the banked scores
(`mine`, `theirs`), the turn total (what a 1 would cost), what each side still needs (mine
counting the turn total, which holding would bank), their product and squares (a race is decided
by how the two needs compare, and the product lets one hidden unit see both), and the turn
total against the opponent's need (late in a race a big turn total is worth its risk). A hidden
layer of `tanh` units and a sigmoid output: the win probability.

The forward pass is written once, over an array module `xp`: numpy at play time (loading a
model needs no JAX) and `jax.numpy` in training, where `jax.grad` gives `∇V` and whole games run
inside one compiled loop.

The check is exact: `win_probability_against_optimal` values any deterministic policy against
Neller and Presser's optimal player (`zerosum.solve.pig`) by policy evaluation of the Markov
chain the two policies make, to machine precision, so a learned policy's strength is a number,
not a match's estimate.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.files import write_atomically
from zerosum.game import Player
from zerosum.games.pig import HOLD, ROLL, Pig
from zerosum.learn import network
from zerosum.solve.pig import PigSolution, check_position, solved

__all__ = [
    "AgainstOptimal",
    "LearnedPig",
    "TDEvaluation",
    "TDSettings",
    "hold_at",
    "load",
    "save",
    "train_td",
    "win_probability_against_optimal",
]

FORMAT = "zerosum-td-pig"
VERSION = 1
MANIFEST = "manifest.json"
PARAMETERS = "parameters.npz"
FEATURES = 10
MOST_STEPS = 100_000
"""The longest game training plays out (a game of Pig ends with probability 1; this bounds it)."""

ShouldRoll = Callable[[int, int, int], bool]
"""A deterministic Pig policy: `should_roll(mine, theirs, turn)` for the player to move."""


# The network, once for numpy and jax.numpy


def features(mine: Any, theirs: Any, turn: Any, target: int, xp: Any) -> Any:
    """The features of positions `(mine, theirs, turn)` (arrays of one shape), last axis
    `FEATURES` long, for the player to move."""
    mine, theirs, turn = xp.broadcast_arrays(mine, theirs, turn)
    me, them, at_risk = mine / target, theirs / target, turn / target
    my_need, their_need = 1 - me - at_risk, 1 - them
    return xp.stack(
        [
            me,
            them,
            at_risk,
            my_need,
            their_need,
            my_need * their_need,
            my_need * my_need,
            their_need * their_need,
            at_risk * their_need,
            at_risk * at_risk,
        ],
        axis=-1,
    )


def forward(parameters: dict[str, Any], x: Any, xp: Any) -> Any:
    """The win probability of the player to move, for features `x` (any leading shape)."""
    hidden = xp.tanh(x @ parameters["hidden_weights"] + parameters["hidden_bias"])
    logit = hidden @ parameters["output_weights"] + parameters["output_bias"]
    return 1 / (1 + xp.exp(-logit))


def after_values(
    parameters: dict[str, Any], mine: Any, theirs: Any, turn: Any, target: int, xp: Any
) -> Any:
    """What each outcome of a decision is worth to the player to move, under `V`: the last axis
    holds a 1 (the turn passes: `1 - V(theirs, mine, 0)`), the faces 2 to 6 (`V` with the
    larger turn total, 1 where it reaches the target) and holding (`1 - V(theirs, mine + turn,
    0)`). Rolling is worth the mean of the first six."""
    faces = xp.arange(2, 7)
    mine_, theirs_, turn_ = mine[..., None], theirs[..., None], turn[..., None]
    rolled = forward(parameters, features(mine_, theirs_, turn_ + faces, target, xp), xp)
    rolled = xp.where(mine_ + turn_ + faces >= target, 1.0, rolled)
    passed = forward(
        parameters,
        features(
            xp.stack([theirs, theirs], -1), xp.stack([mine, mine + turn], -1), 0 * turn_, target, xp
        ),
        xp,
    )
    return xp.concatenate([1 - passed[..., :1], rolled, 1 - passed[..., 1:]], axis=-1)


def initial_parameters(hidden: int, seed: int) -> dict[str, np.ndarray]:
    """Small random weights (numpy's generator, seeded): an untrained network near 1/2."""
    generator = np.random.default_rng(seed)
    return {
        "hidden_weights": (generator.normal(size=(FEATURES, hidden)) / math.sqrt(FEATURES)).astype(
            np.float32
        ),
        "hidden_bias": np.zeros(hidden, np.float32),
        "output_weights": (generator.normal(size=hidden) * 0.1 / math.sqrt(hidden)).astype(
            np.float32
        ),
        "output_bias": np.zeros((), np.float32),
    }


# The learned evaluation


@dataclass(frozen=True)
class TDSettings:
    """How a TD evaluation of Pig was trained: the `target`, the hidden units, the trace decay
    `lam` (λ), the step size `alpha` (α) and the games `halving` after which it is halved (α is
    divided by `1 + n / halving` in game `n`: Robbins and Monro's decreasing steps, which let
    the weights settle instead of wandering with the dice; 0 keeps α fixed), the rate of
    uniformly random moves `exploration` and the `seed` of the random generators."""

    target: int = 100
    hidden: int = 64
    lam: float = 0.7
    alpha: float = 0.03
    halving: int = 20_000
    exploration: float = 0.05
    seed: int = 0

    def check(self) -> None:
        """ValueError naming the first setting out of range."""
        if self.target < 2:
            raise ValueError(f"the target must be at least 2 points, got {self.target}")
        if self.hidden < 1:
            raise ValueError(f"the network needs at least 1 hidden unit, got {self.hidden}")
        if not 0 <= self.lam <= 1:
            raise ValueError(f"λ (lam) must be between 0 and 1, got {self.lam}")
        if not 0 < self.alpha <= 10:
            raise ValueError(
                f"the step size α (alpha) must be above 0 and at most 10, got {self.alpha}"
            )
        if self.halving < 0:
            raise ValueError(f"the games halving α must be 0 (never) or more, got {self.halving}")
        if not 0 <= self.exploration <= 1:
            raise ValueError(
                f"the exploration rate must be between 0 and 1, got {self.exploration}"
            )


@dataclass(frozen=True)
class TDEvaluation:
    """A learned evaluation of Pig to `settings.target`: `V`, and the greedy policy it gives.

    Every value is for the player to move unless a `player` is named. Runs on numpy.
    """

    settings: TDSettings
    parameters: dict[str, np.ndarray] = field(repr=False)
    episodes: int = 0
    """The games of self-play it learned from."""

    @property
    def target(self) -> int:
        return self.settings.target

    @property
    def game(self) -> str:
        """The game it plays, in the registry's words."""
        return f"pig(target={self.target})"

    def win_probability(self, mine: int = 0, theirs: int = 0, turn: int = 0) -> float:
        """`V`: the learned probability that the player to move wins."""
        self._check(mine, theirs, turn)
        x = features(np.float64(mine), np.float64(theirs), np.float64(turn), self.target, np)
        return float(forward(self.parameters, x, np))

    def should_roll(self, mine: int, theirs: int, turn: int) -> bool:
        """The learned greedy policy: True when rolling's expected after-value is at least
        holding's (always at a turn total of 0, where holding is not allowed)."""
        self._check(mine, theirs, turn)
        return bool(self._rolls[mine][theirs, turn])

    def best_move(self, state: tuple) -> str:
        """The greedy move, "roll" or "hold", in a `zerosum.games.pig.Pig` state."""
        player, score0, score1, turn, _ = state
        mine, theirs = (score0, score1) if player == 0 else (score1, score0)
        return ROLL if self.should_roll(mine, theirs, turn) else HOLD

    def evaluate(self, state: tuple, player: Player) -> float:
        """The value of a `Pig` state for `player` in [-1, 1]: `2V - 1` for the player to move
        (the mean over the faces while the die is rolling), exact at the end of the game."""
        mover, score0, score1, turn, rolling = state
        if max(score0, score1) >= self.target:
            return 1.0 if (score0 >= self.target) == (player == 0) else -1.0
        mine, theirs = (score0, score1) if mover == 0 else (score1, score0)
        if rolling:
            after = after_values(
                self.parameters,
                np.float64(mine),
                np.float64(theirs),
                np.float64(turn),
                self.target,
                np,
            )
            probability = float(after[:6].mean())
        else:
            probability = float(
                forward(
                    self.parameters,
                    features(
                        np.float64(mine), np.float64(theirs), np.float64(turn), self.target, np
                    ),
                    np,
                )
            )
        value = 2 * probability - 1
        return value if player == mover else -value

    @cached_property
    def _rolls(self) -> list[np.ndarray]:
        """The greedy policy of every position, one array `[theirs, turn]` for each `mine`,
        computed at once on first use (the exact check asks about every position)."""
        target, tables = self.target, []
        for mine in range(target):
            theirs, turn = np.meshgrid(np.arange(target), np.arange(target - mine), indexing="ij")
            after = after_values(
                self.parameters, np.full(theirs.shape, mine), theirs, turn, target, np
            )
            tables.append((after[..., :6].mean(-1) >= after[..., 6]) | (turn == 0))
        return tables

    def _check(self, mine: int, theirs: int, turn: int) -> None:
        check_position(self.target, mine, theirs, turn)


class LearnedPig(Pig):
    """Pig whose evaluation is a learned one, for depth-limited search
    (`expectiminimax(LearnedPig(evaluation), state, depth=2)`)."""

    def __init__(self, evaluation: TDEvaluation) -> None:
        super().__init__(evaluation.target)
        self.evaluation = evaluation

    def evaluate(self, state: tuple, player: Player) -> float:
        return self.evaluation.evaluate(state, player)


# Training


def train_td(
    settings: TDSettings = TDSettings(),
    episodes: int = 10_000,
    *,
    start: TDEvaluation | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    stop: threading.Event | Callable[[], bool] | None = None,
    chunk: int = 500,
) -> TDEvaluation:
    """A TD(λ) evaluation of Pig after `episodes` games of self-play under `settings`.

    `start` continues training a saved evaluation (its settings must match, its game count
    goes on). `on_progress(done, episodes)` is told after every `chunk` games; `stop` (a
    `threading.Event`, or a callable returning True) ends training early after the current
    chunk, with a usable evaluation of the games played. The same settings and count give
    the same evaluation (game `n` draws its dice from `seed` and `n` alone).
    """
    settings.check()
    if episodes < 0:
        raise ValueError(f"the number of games must be at least 0, got {episodes}")
    if chunk < 1:
        raise ValueError(f"a chunk must hold at least 1 game, got {chunk}")
    if start is not None and start.settings != settings:
        raise ValueError(
            f"cannot continue training: the evaluation was trained with {start.settings},"
            f" not {settings}"
        )
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        raise ValueError("training needs JAX: pip install 'zerosum[learn]'") from None

    parameters = (
        start.parameters
        if start is not None
        else initial_parameters(settings.hidden, settings.seed)
    )
    played = start.episodes if start is not None else 0
    weights = jax.tree_util.tree_map(jnp.asarray, parameters)
    run = _compiled_games(settings.target)
    key = jax.random.PRNGKey(settings.seed)
    done = 0
    while done < episodes and not _stopped(stop):
        count = min(chunk, episodes - done)
        weights = run(
            weights,
            key,
            played + done,
            count,
            settings.alpha,
            settings.halving,
            settings.lam,
            settings.exploration,
        )
        weights = jax.block_until_ready(weights)  # the chunk is played before it is reported
        done += count
        if on_progress is not None:
            on_progress(done, episodes)
    learned = {name: np.asarray(value) for name, value in weights.items()}
    return TDEvaluation(settings, learned, played + done)


def _stopped(stop: threading.Event | Callable[[], bool] | None) -> bool:
    if stop is None:
        return False
    return stop.is_set() if isinstance(stop, threading.Event) else bool(stop())


_COMPILED: dict[int, Callable[..., Any]] = {}


def _compiled_games(target: int) -> Callable[..., Any]:
    """`run(weights, key, first, count, alpha, halving, lam, exploration)`: the weights after games
    `first` to `first + count - 1` of self-play, compiled once for each target."""
    if target in _COMPILED:
        return _COMPILED[target]
    import jax
    import jax.numpy as jnp

    def value(weights: dict, mine: Any, theirs: Any, turn: Any) -> Any:
        return forward(weights, features(mine, theirs, turn, target, jnp), jnp)

    value_and_gradient = jax.value_and_grad(value)

    def step(carry: tuple, alpha: Any, lam: Any, exploration: Any) -> tuple:
        """One decision, its outcome and its TD(λ) update."""
        weights, traces, key, player, scores, turn, steps, over = carry
        key, explore_key, pick_key, die_key = jax.random.split(key, 4)
        mine, theirs = scores[player], scores[1 - player]
        after = after_values(weights, mine, theirs, turn, target, jnp)
        greedy_roll = (after[:6].mean() >= after[6]) | (turn == 0)
        explore = jax.random.uniform(explore_key) < exploration
        random_roll = jax.random.bernoulli(pick_key) | (turn == 0)
        roll = jnp.where(explore, random_roll, greedy_roll)
        face = jax.random.randint(die_key, (), 1, 7)
        outcome = jnp.where(roll, face - 1, 6)  # the index into `after`: a face, or holding
        # The TD error from the mover's point of view; the trace is kept for player 0.
        now, gradient = value_and_gradient(weights, mine, theirs, turn)
        sign = jnp.where(player == 0, 1.0, -1.0)
        delta = after[outcome] - now
        # A move off the greedy policy says nothing of the greedy policy's value: it teaches
        # nothing and cuts the trace (Watkins), so exploration only widens what is seen.
        greedy = (roll == greedy_roll).astype(jnp.float32)
        traces = jax.tree_util.tree_map(
            lambda e, g: greedy * (lam * e + sign * g), traces, gradient
        )
        weights = jax.tree_util.tree_map(lambda w, e: w + alpha * sign * delta * e, weights, traces)
        # The next position.
        won = roll & (face > 1) & (mine + turn + face >= target)
        passes = ~roll | (face == 1)
        banked = jnp.where(roll, 0, turn)
        scores = scores.at[player].add(banked)
        player = jnp.where(passes, 1 - player, player)
        turn = jnp.where(passes, 0, turn + face)
        return weights, traces, key, player, scores, turn, steps + 1, won

    def game(index: Any, weights: dict, base: Any, alpha: Any, lam: Any, exploration: Any) -> dict:
        traces = jax.tree_util.tree_map(jnp.zeros_like, weights)
        zero = jnp.int32(0)
        start = (
            weights,
            traces,
            jax.random.fold_in(base, index),
            zero,
            jnp.zeros(2, jnp.int32),
            zero,
            zero,
            jnp.bool_(False),
        )
        end = jax.lax.while_loop(
            lambda carry: ~carry[7] & (carry[6] < MOST_STEPS),
            lambda carry: step(carry, alpha, lam, exploration),
            start,
        )
        return end[0]

    @jax.jit
    def run(
        weights: dict,
        base: Any,
        first: Any,
        count: Any,
        alpha: Any,
        halving: Any,
        lam: Any,
        exploration: Any,
    ) -> dict:
        def one(index: Any, weights: dict) -> dict:
            step_size = jnp.where(halving > 0, alpha / (1 + index / jnp.maximum(halving, 1)), alpha)
            return game(index, weights, base, step_size, lam, exploration)

        return jax.lax.fori_loop(first, first + count, one, weights)

    _COMPILED[target] = run
    return run


# The exact check


@dataclass(frozen=True)
class AgainstOptimal:
    """The exact probability that a policy wins against the optimal player of Pig: moving
    `first`, moving `second`, and their `mean` (the colours alternating; 1/2 for the optimal
    policy itself, as the game is fair once the first move alternates)."""

    first: float
    second: float

    @property
    def mean(self) -> float:
        return (self.first + self.second) / 2


def hold_at(total: int) -> ShouldRoll:
    """The classic heuristic: roll until the turn total reaches `total` (or the target), then
    hold."""
    return lambda mine, theirs, turn: turn < total


def win_probability_against_optimal(
    target: int, should_roll: ShouldRoll, *, solution: PigSolution | None = None
) -> AgainstOptimal:
    """The exact probability that the deterministic policy `should_roll(mine, theirs, turn)`
    beats the optimal player of Pig to `target`, as first and as second player.

    Policy evaluation of the Markov chain the two fixed policies make, solved level by level as
    the solver does (`zerosum.solve.pig`): banked scores never decrease, so with `a` banked by
    the policy A and `b` by the optimal player B, the start-of-turn values `x = A(a, b)` (A to
    move) and `y = B(a, b)` (B to move, still A's win probability) depend only on pairs of a
    larger sum, computed before, and on each other. A's turn makes `x` an affine function of
    `y` (a 1 hands the turn to B at `(a, b)`; every hold leads to a known pair) and B's turn
    makes `y` affine in `x`: the cycle solves in closed form, `x = (p + q r) / (1 - q s)` for
    `x = p + q y` and `y = r + s x`. Exact up to float rounding, no iteration.
    """
    if solution is None:
        solution = solved(target)
    if solution.target != target:
        raise ValueError(f"the solution is for target {solution.target}, not {target}")
    # A's win probability at the start of a turn: A to move (`a_moves`), B to move (`b_moves`).
    a_moves = np.zeros((target, target))
    b_moves = np.zeros((target, target))
    for level in range(2 * target - 2, -1, -1):
        for a in range(max(0, level - target + 1), min(level, target - 1) + 1):
            b = level - a
            p, q = _turn(
                1.0, [should_roll(a, b, turn) for turn in range(target - a)], b_moves[a:, b]
            )
            r, s = _turn(
                0.0,
                [solution.should_roll(b, a, turn) for turn in range(target - b)],
                a_moves[a, b:],
            )
            a_moves[a, b] = (p + q * r) / (1 - q * s)
            b_moves[a, b] = r + s * a_moves[a, b]
    return AgainstOptimal(float(a_moves[0, 0]), float(b_moves[0, 0]))


def _turn(reached: float, rolls: list[bool], held: np.ndarray) -> tuple[float, float]:
    """A's win probability at the start of a turn as `(p, q)`, meaning `p + q z` where `z` is
    A's win probability once a 1 hands the turn over. `rolls[turn]` is the mover's policy for
    every turn total short of the target, `reached` A's win probability when the mover reaches
    it, `held[turn]` after holding."""
    room = len(rolls)
    constant = [reached] * (room + 6)
    slope = [0.0] * (room + 6)
    for turn in range(room - 1, -1, -1):
        if turn and not rolls[turn]:
            constant[turn], slope[turn] = float(held[turn]), 0.0
        else:
            constant[turn] = sum(constant[turn + 2 : turn + 7]) / 6
            slope[turn] = (1 + sum(slope[turn + 2 : turn + 7])) / 6
    return constant[0], slope[0]


# Saving and loading


def save(evaluation: TDEvaluation, directory: str | Path) -> None:
    """Write `evaluation` into `directory` (made if missing): `parameters.npz`, then
    `manifest.json` naming the format, the game, the settings, the games played and the
    parameters' SHA-256. Each file is written atomically; ValueError when one cannot be."""
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the directory {folder}: {error.strerror}") from None
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "game": evaluation.game,
        "settings": asdict(evaluation.settings),
        "episodes": evaluation.episodes,
        "parameters_sha256": network.save(evaluation.parameters, str(folder / PARAMETERS)),
    }
    write_atomically(str(folder / MANIFEST), json.dumps(manifest, indent=2) + "\n")


def load(directory: str | Path) -> TDEvaluation:
    """The evaluation `save` wrote into `directory`, checked: ValueError (one line naming the
    path and the fault) for a missing, truncated, foreign, other-version or damaged one.
    Needs numpy only."""
    folder = Path(directory)
    manifest_path, parameters_path = folder / MANIFEST, folder / PARAMETERS
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such directory (expected a saved TD evaluation)")
    try:
        manifest = json.loads(manifest_path.read_text())
    except FileNotFoundError:
        raise ValueError(f"{folder}: no {MANIFEST}, so not a saved TD evaluation") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{manifest_path}: damaged or truncated ({_reason(error)})") from None
    found = manifest.get("format") if isinstance(manifest, dict) else None
    if found != FORMAT:
        raise ValueError(
            f"{manifest_path}: not a zerosum TD evaluation (format {found!r}, expected {FORMAT!r})"
        )
    if manifest.get("version") != VERSION:
        raise ValueError(
            f"{manifest_path}: format version {manifest.get('version')!r},"
            f" this zerosum reads version {VERSION}"
        )
    try:
        settings = TDSettings(**manifest["settings"])
        settings.check()
        episodes, digest = int(manifest["episodes"]), str(manifest["parameters_sha256"])
        game = str(manifest["game"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{manifest_path}: damaged ({_reason(error)})") from None
    if game != f"pig(target={settings.target})":
        raise ValueError(f"{manifest_path}: damaged (game {game!r} but target {settings.target})")
    parameters = network.load_arrays(str(parameters_path), digest, "a TD evaluation's weights")
    expected = initial_parameters(settings.hidden, 0)
    shapes = {name: array.shape for name, array in parameters.items()}
    if shapes != {name: array.shape for name, array in expected.items()}:
        raise ValueError(
            f"{parameters_path}: damaged (arrays {shapes} do not fit"
            f" {settings.hidden} hidden units)"
        )
    return TDEvaluation(settings, parameters, episodes)


def _reason(error: BaseException) -> str:
    """An exception's message on one line."""
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return " ".join(str(text).split())
