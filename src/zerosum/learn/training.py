"""The training loop of self-play learning: play, learn, gate, evaluate, keep.

A run lives in a directory. Each round of the loop:

1. **plays** `games_per_round` games of self-play with the best network so far
   (`zerosum.learn.selfplay`), on every core asked for (processes, each batching the
   network's answers across its games), and adds their positions to a replay buffer of the
   newest `buffer` positions;
2. **learns**: gradient steps (optax's AdamW, JAX) on batches drawn from the buffer, so many
   that each new position is drawn `replays` times on average; the loss is the policy's
   cross-entropy against the visits plus the value's squared error against the result;
3. **gates** (AlphaGo Zero's evaluator), every `gate_every` rounds: the network being trained
   plays `gate_games` games against the best, from short random openings, each with both
   colours; it becomes the best when it scores at least `gate_score`;
4. **evaluates** a new best against fixed opponents (player specs such as
   `mcts:iterations=100`, each played by the player maker the caller gives for it), what
   `zerosum chart learning` turns into Elo against time;
5. **keeps** it all: the weights being trained and the best, the optimizer's state, the
   buffer, each file with its SHA-256 in the manifest, written atomically, the manifest last
   (sealed with its own checksum, and the length of the log then: `zerosum.learn.log`).
   A run stopped anywhere (Ctrl-C, a killed process) resumes from its last round, its log
   cut back to that round.

Ctrl-C is answered at the points where a run may stop (`stop_points`): between two
simulations, gradient steps or moves, and within a tenth of a second while worker processes
play. A KeyboardInterrupt raised wherever the signal lands is not safe once JAX is loaded.

Every random choice of round r is seeded by the run's seed and r, so a run resumed after
round r goes on exactly as if it had not stopped (the tests check the weights are equal).
JAX and optax are the `learn` extra; playing with a trained network needs only numpy.

The game and the opponents come as values: the plan records the game's spec and the
opponents' specs, the caller (`zerosum train`) makes them with the registry and
`zerosum.players`, which this package does not import.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import re
import time as clock
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from zerosum import faults
from zerosum.files import sealed_json, unsealed_json, write_atomically
from zerosum.game import Game
from zerosum.learn import log, network
from zerosum.learn.network import Params, Shape
from zerosum.learn.player import network_player
from zerosum.learn.records import Examples, Settings
from zerosum.learn.selfplay import Evaluation, chosen_impl, play
from zerosum.limits import Limit
from zerosum.match import Chooser, MatchResult, play_match
from zerosum.stopping import Poll, stop_points

FORMAT = "zerosum self-play run"
VERSION = 2
"""2: the manifest sealed with its checksum, and the log's length recorded."""
MANIFEST = "manifest.json"
OPENING_PLIES = 2
"""Random moves before a gate or evaluation game: the games differ, the players don't."""

SIMULATIONS = Limit(
    "self-play simulations a move",
    100_000,
    "a simulation takes about 30 µs here (Connect Four, the default network): three seconds a"
    " move, hours a round",
    liftable=False,
)
GAMES_PER_ROUND = Limit(
    "self-play games a round",
    10_000,
    "64 games of Connect Four at 100 simulations take about 5 seconds here: 10,000 take 13"
    " minutes before the network learns from any",
    liftable=False,
)
GAMES = Limit(
    "games of a training run",
    1_000_000_000,
    "Pig's TD(lambda) plays about 330 games a second here, self-play far fewer: over a month",
    liftable=False,
)
ROUNDS = Limit(
    "rounds of training",
    10_000_000,
    "a round takes a second at the least here: over a month",
    liftable=False,
)

Maker = Callable[[int], Chooser]
"""`make(seed)`: a fresh player for each game of a match (`zerosum.players.player_maker`)."""


@dataclass(frozen=True)
class Plan:
    """What a run does, fixed when it starts (the manifest keeps it): the `game` as the
    registry names it, the network's `hidden` layers, self-play's settings, the buffer and
    the optimizer, the gate, the fixed `opponents` of the evaluations, and the `seed`."""

    game: str
    hidden: tuple[int, ...] = (128, 128)
    simulations: int = 100
    c: float = 1.5
    noise_alpha: float = 0.5
    noise_fraction: float = 0.25
    temperature_moves: int = 4
    games_per_round: int = 64
    buffer: int = 100_000
    batch: int = 256
    replays: float = 4.0
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    gate_games: int = 20
    gate_score: float = 0.55
    gate_every: int = 1
    opponents: tuple[str, ...] = ()
    evaluation_games: int = 20
    seed: int = 0

    def settings(self) -> Settings:
        return Settings(
            self.simulations, self.c, self.noise_alpha, self.noise_fraction, self.temperature_moves
        )

    def check(self) -> None:
        """ValueError naming the first setting out of its range."""
        whole = {
            "simulations": self.simulations,
            "games_per_round": self.games_per_round,
            "buffer": self.buffer,
            "batch": self.batch,
            "gate_games": self.gate_games,
            "gate_every": self.gate_every,
            "evaluation_games": self.evaluation_games,
        }
        for name, value in whole.items():
            if value < 1:
                raise ValueError(f"{name} must be at least 1, got {value}")
        SIMULATIONS.check(self.simulations)
        GAMES_PER_ROUND.check(self.games_per_round)
        if self.temperature_moves < 0:
            raise ValueError(f"temperature_moves must be at least 0, got {self.temperature_moves}")
        positive: dict[str, float] = {"replays": self.replays, "learning_rate": self.learning_rate}
        for name, number in positive.items():
            if not (math.isfinite(number) and number > 0):
                raise ValueError(f"{name} must be a positive number, got {number}")
        if not 0 <= self.gate_score <= 1:
            raise ValueError(f"gate_score must be from 0 to 1, got {self.gate_score}")
        if not 0 <= self.noise_fraction <= 1 or not self.noise_alpha > 0:
            raise ValueError("the root noise needs alpha > 0 and a fraction from 0 to 1")


@dataclass(frozen=True)
class Progress:
    """Where a run stands after its last kept round: rounds, optimizer steps, self-play games
    and positions, seconds of training (over every session), the round whose network is the
    best, the last gate's wins, draws and losses and its round, and the last evaluation
    against each fixed opponent (spec -> wins, draws, losses)."""

    rounds: int = 0
    steps: int = 0
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    best_round: int = 0
    policy_loss: float | None = None
    value_loss: float | None = None
    gate: tuple[int, int, int] | None = None
    gate_round: int = 0
    evaluations: dict[str, tuple[int, int, int]] = field(default_factory=dict)


@dataclass
class Run:
    """A run in memory: its plan and progress, the weights being trained (`params`), the
    best (`best`), the optimizer's state as arrays (`optimizer`, empty before the first
    step), the replay buffer, and the length of the log when the round was kept
    (`log_bytes`)."""

    directory: str
    plan: Plan
    shape: Shape
    progress: Progress
    params: Params
    best: Params
    optimizer: list[np.ndarray]
    buffer: Examples
    log_bytes: int = 0


STARTED = re.compile(r"\.?(params|best|optimizer|buffer)-000000\.npz(\..+)?|\.manifest\.json\..+")
"""The names of what a run stopped before its round 0 was kept leaves (its files, whole or
being written): a new run may start over them."""


def start(directory: str, plan: Plan, game: Game) -> Run:
    """A new run of `plan` learning `game` (the game `plan.game` names) in `directory` (made
    if missing; ValueError if it holds a run or other files than those of a start stopped
    before its round 0 was kept, `STARTED`), its round 0 kept at once."""
    plan.check()
    shape = network.shape_for(game, plan.hidden)
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{directory} is not a directory")
    if (path / MANIFEST).exists():
        raise ValueError(f"{directory} holds a run already: --resume goes on with it")
    if path.exists() and not all(STARTED.fullmatch(found.name) for found in path.iterdir()):
        raise ValueError(f"{directory} is not empty: a run starts in an empty directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make {directory}: {error.strerror}") from None
    params = network.initial(shape, plan.seed)
    run = Run(
        directory,
        plan,
        shape,
        Progress(),
        params,
        dict(params),
        [],
        Examples.empty(shape.inputs, shape.moves),
    )
    keep(run)
    return run


def check_budget(games: int | None, rounds: int | None) -> None:
    """ValueError unless each budget given, the games of a run in all and the rounds more, is
    within its limit (`GAMES`, `ROUNDS`)."""
    if games is not None:
        GAMES.check(games)
    if rounds is not None:
        ROUNDS.check(rounds)


def keep(run: Run) -> None:
    """Write the run's files for its current round, then the manifest that names them (so a
    reader sees the last round whole or the one before), then drop older rounds' files."""
    directory = Path(run.directory)
    suffix = f"{run.progress.rounds:06d}"
    files: dict[str, dict[str, str]] = {}
    optimizer = {str(index): array for index, array in enumerate(run.optimizer)}
    for name, data in (
        ("params", network.to_bytes(run.params)),
        ("best", network.to_bytes(run.best)),
        ("optimizer", network.to_bytes(optimizer, compressed=True)),
        ("buffer", network.to_bytes(asdict(run.buffer), compressed=True)),
    ):
        file = f"{name}-{suffix}.npz"
        write_atomically(str(directory / file), data)
        files[name] = {"file": file, "sha256": network.digest(data)}
    progress = asdict(run.progress)
    run.log_bytes = log.size(directory)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "game": run.plan.game,
        "network": run.shape.as_json(),
        "plan": asdict(run.plan),
        "progress": progress,
        "files": files,
        "log_bytes": run.log_bytes,
    }
    write_atomically(str(directory / MANIFEST), sealed_json(manifest, indent=1) + "\n")
    kept = {entry["file"] for entry in files.values()}
    for stale in directory.glob("*-[0-9][0-9][0-9][0-9][0-9][0-9].npz"):
        if stale.name not in kept:
            stale.unlink(missing_ok=True)
    faults.reached("kept")


def read_manifest(directory: str) -> dict[str, Any]:
    """The manifest of the run in `directory`; ValueError in one line when there is none, it is
    not one of ours (of this version), or it is damaged or edited (its seal does not match)."""
    path = Path(directory) / MANIFEST
    if not Path(directory).is_dir():
        raise ValueError(f"{directory} is not a directory of a training run")
    try:
        text = path.read_text()
        manifest = json.loads(text)
    except FileNotFoundError:
        raise ValueError(f"{directory} holds no training run (no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(f"{path} is damaged: not a run's manifest") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ValueError(f"{path} is not a zerosum training run's manifest")
    if manifest.get("version") != VERSION:
        raise ValueError(
            f"{path} is a run of format version {manifest.get('version')!r}; this zerosum"
            f" reads version {VERSION}"
        )
    manifest = unsealed_json(str(path), text)
    if type(manifest.get("log_bytes")) is not int or manifest["log_bytes"] < 0:
        raise ValueError(f"{path} is damaged: no length of its log")
    return manifest


def load_best(directory: str) -> tuple[str, Shape, Params]:
    """The game spec, the network's shape and the best weights of the run in `directory`:
    what a player needs (numpy only). ValueError in one line for a missing or damaged run."""
    manifest = read_manifest(directory)
    shape = Shape.from_json(manifest.get("network"))
    entry = _file_entry(manifest, "best", directory)
    params = network.load(str(Path(directory) / entry["file"]), shape, entry["sha256"])
    return str(manifest["game"]), shape, params


def resume(directory: str) -> Run:
    """The run in `directory` as its last round left it; ValueError in one line for a
    missing, foreign, truncated or changed file."""
    manifest = read_manifest(directory)
    try:
        plan_data = dict(manifest["plan"])
        plan_data["hidden"] = tuple(plan_data["hidden"])
        plan_data["opponents"] = tuple(plan_data["opponents"])
        plan = Plan(**plan_data)
        progress_data = dict(manifest["progress"])
        if progress_data.get("gate") is not None:
            progress_data["gate"] = tuple(progress_data["gate"])
        progress_data["evaluations"] = {
            k: tuple(v) for k, v in progress_data.get("evaluations", {}).items()
        }
        progress = Progress(**progress_data)
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{Path(directory) / MANIFEST} is damaged: its plan or progress") from None
    shape = Shape.from_json(manifest.get("network"))
    params, best = (
        network.load(str(Path(directory) / e["file"]), shape, e["sha256"])
        for e in (_file_entry(manifest, name, directory) for name in ("params", "best"))
    )
    optimizer = _load_arrays(directory, _file_entry(manifest, "optimizer", directory))
    arrays = _load_arrays(directory, _file_entry(manifest, "buffer", directory))
    try:
        buffer = Examples(
            **{name: arrays[name] for name in ("observations", "legal", "policies", "values")}
        )
    except KeyError:
        raise ValueError(f"{directory}'s buffer is not one of a run") from None
    ordered = [optimizer[str(i)] for i in range(len(optimizer))]
    return Run(
        directory, plan, shape, progress, params, best, ordered, buffer, manifest["log_bytes"]
    )


Report = Callable[[Progress], None]


def train(
    run: Run,
    game: Game,
    *,
    opponents: Mapping[str, Maker] | None = None,
    games: int | None = None,
    seconds: float | None = None,
    rounds: int | None = None,
    workers: int = 1,
    impl: str = "auto",
    on_progress: Report | None = None,
) -> Progress:
    """The progress after the last round: `run` of `game` (the game `run.plan.game` names)
    goes on until it has played `games` self-play games in all, or for `seconds` more, or
    `rounds` more rounds (the first reached; at least one is needed), keeping every round.
    `opponents` gives each of `run.plan.opponents` (its spec) the player maker the
    evaluations play. Self-play runs in `workers` processes (1: in this one), each sent the
    game, and searches with `impl` (`zerosum.learn.selfplay.IMPLS`: ValueError for one the
    game cannot have). Ctrl-C (KeyboardInterrupt, raised at the next of `stop_points`)
    leaves the last kept round on disk."""
    if games is None and seconds is None and rounds is None:
        raise ValueError("training needs a budget: a number of games, a time, or rounds")
    check_budget(games, rounds)
    impl = chosen_impl(game, impl)
    makers = dict(opponents or {})
    missing = [spec for spec in run.plan.opponents if spec not in makers]
    if missing:
        raise ValueError(f"the run's opponent {missing[0]} has no player maker in opponents")
    if network.shape_for(game, run.shape.hidden) != run.shape:
        raise ValueError(
            f"{run.directory} is a run of {run.plan.game}: its network does not fit this game"
        )
    with stop_points() as poll:
        from zerosum.learn.optimizer import Trainer  # JAX: imported only to train

        trainer = Trainer(run.plan, run.shape, run.params, run.optimizer)
        progress = run.progress
        log.rewind(run.directory, run.log_bytes)  # the lines of a round stopped before kept
        log.append(
            run.directory,
            log.Start(run.plan.game, progress.steps, progress.games, progress.seconds),
        )
        began = clock.perf_counter()
        done_rounds = 0
        with _self_players(workers, poll) as mapper:
            while True:
                poll()
                spent = clock.perf_counter() - began
                if games is not None and run.progress.games >= games:
                    break
                if seconds is not None and spent >= seconds:
                    break
                if rounds is not None and done_rounds >= rounds:
                    break
                elapsed = _stopwatch(run.progress.seconds)
                _round(run, game, makers, trainer, mapper, poll, elapsed, impl)
                run.progress = replace(run.progress, seconds=elapsed())
                keep(run)
                done_rounds += 1
                if on_progress is not None:
                    on_progress(run.progress)
    return run.progress


def _stopwatch(seconds: float) -> Callable[[], float]:
    """`seconds` and the time since this call."""
    began = clock.perf_counter()
    return lambda: seconds + clock.perf_counter() - began


def _round(
    run: Run,
    game: Game,
    opponents: Mapping[str, Maker],
    trainer: Any,
    mapper: Any,
    poll: Poll,
    elapsed: Callable[[], float],
    impl: str,
) -> None:
    """One round: play (searching with `impl`), learn, gate, evaluate a new best against
    `opponents` (`elapsed()`: the run's seconds; `poll()` at each point where it may stop)."""
    plan, number = run.plan, run.progress.rounds + 1
    seed = plan.seed * 1_000_003 + number
    shares = _shares(plan.games_per_round, mapper.width)
    tasks = [
        (game, run.best, plan.settings(), count, seed * 101 + index, impl)
        for index, count in enumerate(shares)
    ]
    if len(tasks) == 1:  # played here, polled between its simulations
        played = _self_play(*tasks[0], poll=poll)
    else:
        played = Examples.joined(list(mapper(_self_play, tasks)))
    buffer = Examples.joined([run.buffer, played]).last(plan.buffer)
    steps = max(1, math.ceil(len(played) * plan.replays / plan.batch))
    rng = np.random.default_rng(seed)
    policy_loss, value_loss = trainer.learn(buffer, steps, rng, poll)
    run.params, run.optimizer, run.buffer = trainer.params(), trainer.state(), buffer
    progress = replace(
        run.progress,
        rounds=number,
        steps=run.progress.steps + steps,
        games=run.progress.games + plan.games_per_round,
        positions=run.progress.positions + len(played),
        policy_loss=policy_loss,
        value_loss=value_loss,
    )
    log.append(
        run.directory,
        log.TrainingRound(
            progress.steps, progress.games, progress.positions, elapsed(), policy_loss, value_loss
        ),
    )
    run.progress = progress
    if number % plan.gate_every == 0:
        _gate(run, game, opponents, elapsed, seed, poll)


def _gate(
    run: Run,
    game: Game,
    opponents: Mapping[str, Maker],
    elapsed: Callable[[], float],
    seed: int,
    poll: Poll,
) -> None:
    """The network being trained against the best; if it is kept, the evaluations against
    each of `plan.opponents`, played by its maker in `opponents`."""
    plan, progress = run.plan, run.progress
    openings = random_openings(game, random.Random(seed))
    gate = match(game, run.params, run.best, plan, openings, seed, poll=poll)
    accepted = gate.score >= plan.gate_score
    log.append(
        run.directory,
        log.Gate(
            progress.steps, progress.games, elapsed(), gate.wins, gate.draws, gate.losses, accepted
        ),
    )
    progress = replace(
        progress, gate=(gate.wins, gate.draws, gate.losses), gate_round=progress.rounds
    )
    if accepted:
        run.best = dict(run.params)
        progress = replace(progress, best_round=progress.rounds)
        evaluations = dict(progress.evaluations)
        for opponent in plan.opponents:
            result = match(
                game,
                run.best,
                opponents[opponent],
                plan,
                openings,
                seed,
                plan.evaluation_games,
                poll=poll,
            )
            evaluations[opponent] = (result.wins, result.draws, result.losses)
            log.append(
                run.directory,
                log.Evaluation(
                    progress.steps,
                    progress.games,
                    elapsed(),
                    opponent,
                    result.wins,
                    result.draws,
                    result.losses,
                ),
            )
        progress = replace(progress, evaluations=evaluations)
    run.progress = progress


def match(
    game: Game,
    params: Params,
    opponent: Params | Maker,
    plan: Plan,
    openings: list[Any],
    seed: int,
    games: int | None = None,
    *,
    poll: Poll | None = None,
) -> MatchResult:
    """The result for `params` of a match of the network `params` (searching
    `plan.simulations` a move, without noise) against another network or a player maker
    (`make(seed)`, a fresh player for each game), from `openings`, each with both colours;
    `poll()`, when given, before each move."""

    def ours(weights: Params) -> Maker:
        evaluation = Evaluation(game, weights)
        return lambda s: network_player(game, evaluation, plan.simulations, plan.c, s)

    a = ours(params)
    b = ours(opponent) if isinstance(opponent, dict) else opponent
    if poll is not None:
        a, b = _polled(a, poll), _polled(b, poll)
    return play_match(game, a, b, games or plan.gate_games, openings=openings, seed=seed)


def _polled(make: Maker, poll: Poll) -> Maker:
    """`make`, its players calling `poll()` before each move."""

    def made(seed: int) -> Chooser:
        choose = make(seed)

        def chosen(state: Any) -> Any:
            poll()
            return choose(state)

        return chosen

    return made


def random_openings(game: Game, rng: random.Random, plies: int = OPENING_PLIES) -> list[Any]:
    """Distinct positions `plies` random moves from the start (none finished), in the order
    found: the openings of a round's matches, as many as a match has pairs of games."""
    seen: dict[Any, Any] = {}
    for _ in range(200):
        state = game.initial_state()
        for _ in range(plies):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.legal_moves(state))))
        if not game.is_terminal(state):
            seen.setdefault(repr(state), state)
        if len(seen) >= 50:
            break
    return list(seen.values()) or [game.initial_state()]


def _self_play(
    game: Game,
    params: Params,
    settings: Settings,
    games: int,
    seed: int,
    impl: str,
    poll: Poll | None = None,
) -> Examples:
    """One worker's share of a round (a top-level function: it goes to other processes, and
    the game with it, pickled; a game of the user's own file is found on the import path the
    spawned process is given)."""
    return play(game, params, settings, games, seed, poll=poll, impl=impl)


def _shares(games: int, workers: int) -> list[int]:
    """`games` split as evenly as can be between `workers` (none empty)."""
    parts = min(games, workers)
    return [games // parts + (index < games % parts) for index in range(parts)]


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""What the numpy of a self-play worker is told about its threads: one each. The network's
products are small (a batch of 64 positions): a second thread spins more than it helps, and
the workers fill the cores already (Connect Four's compiled self-play: 1,232 positions a CPU
second with two BLAS threads, 4,451 with one)."""


@contextmanager
def _self_players(workers: int, poll: Poll) -> Iterator[Any]:
    """The mapper self-play runs on: worker processes started fresh (a forked process would
    inherit JAX's threads), their numpy on one thread (`BLAS_THREADS`, in the environment
    they start with), or this process for one worker; `poll()` while it waits."""
    from zerosum.solve.parallel import mapper

    before = {name: os.environ.get(name) for name in BLAS_THREADS}
    if workers > 1:
        os.environ.update({name: "1" for name in BLAS_THREADS})
    try:
        with mapper(workers, context=multiprocessing.get_context("spawn"), poll=poll) as pool:
            yield pool
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _file_entry(manifest: dict[str, Any], name: str, directory: str) -> dict[str, str]:
    try:
        entry = manifest["files"][name]
        if not isinstance(entry["file"], str) or "/" in entry["file"] or not entry["sha256"]:
            raise ValueError
        return {"file": entry["file"], "sha256": str(entry["sha256"])}
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{Path(directory) / MANIFEST} is damaged: no {name} file") from None


def _load_arrays(directory: str, entry: dict[str, str]) -> dict[str, np.ndarray]:
    path = os.path.join(directory, entry["file"])
    return network.load_arrays(path, entry["sha256"], "a run's arrays")
