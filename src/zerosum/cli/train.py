"""`zerosum train GAME`: learn to play by self-play, in a run directory that resumes.

A game with numbered moves and array positions (tic-tac-toe, Connect Four, Othello, a user's
game with `NumberedMoves` and `Observing`) learns a policy-and-value network by self-play
with PUCT MCTS (`zerosum.learn.training`); each round prints one line: games and positions
so far, the losses, the gate's result and the last evaluation against a fixed opponent.
Ctrl-C stops it with the last round kept: `--resume` goes on from there, `az:DIR` plays it.
"""

from __future__ import annotations

import argparse
import importlib
import math
import re
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from zerosum import registry
from zerosum.cli.common import add_game_argument, print_json
from zerosum.game import Game
from zerosum.games.pig import Pig
from zerosum.learn.selfplay import IMPLS, chosen_impl
from zerosum.learn.training import (
    Maker,
    Plan,
    Progress,
    check_budget,
    read_manifest,
    resume,
    start,
    stop_points,
    train,
)
from zerosum.match import MatchResult
from zerosum.players import parse_player, player_maker
from zerosum.solve.parallel import workers_limit

DEFAULT_SECONDS = 3600.0
MOST_SECONDS = 30 * 86_400.0
"""The longest `--time`: thirty days."""
UNITS = {"": 1, "s": 1, "m": 60, "min": 60, "h": 3600, "d": 86_400}
DURATION = re.compile(r"([0-9]{1,9}(?:\.[0-9]{1,9})?)\s*(s|m|min|h|d)?")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Learn a policy-and-value network by self-play: games searched by PUCT MCTS with"
        " the best network so far, gradient steps on a replay buffer, a gate against the"
        " best, evaluations against fixed opponents; every round is kept in --out, so"
        " Ctrl-C loses nothing and --resume goes on. Play the result with az:DIR. Needs"
        " the learn extra (JAX, optax)."
    )
    add_game_argument(parser, position=False)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--time", metavar="DURATION", help="train this long: 90s, 30m, 1h, 2d (default 1h)"
    )
    budget.add_argument("--games", type=int, help="train until the run has played N games")
    budget.add_argument("--rounds", type=int, help="train N more rounds")
    parser.add_argument("--out", metavar="DIR", help="the run's directory (default train-GAME)")
    parser.add_argument("--resume", action="store_true", help="go on with the run in --out")
    parser.add_argument("--simulations", type=int, help="MCTS simulations a move (default 100)")
    parser.add_argument("--games-per-round", type=int, help="self-play games a round (64)")
    parser.add_argument(
        "--gate-every", type=int, help="rounds between two gates against the best (default 1)"
    )
    parser.add_argument(
        "--hidden", metavar="N,N", help="the network's hidden layers (default 128,128)"
    )
    parser.add_argument(
        "--opponent",
        action="append",
        metavar="PLAYER",
        help="a fixed opponent each new best network is measured against, e.g."
        " mcts:iterations=100 (repeatable; default: pure MCTS with as many simulations)",
    )
    parser.add_argument("--workers", type=int, help="self-play processes (default: every core)")
    parser.add_argument(
        "--impl",
        choices=IMPLS,
        help="self-play's search: compiled (many games' trees in arrays), python, or auto"
        " (compiled where the game has compiled rules with an observation; the default)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    seconds = duration(args.time) if args.time is not None else None
    for flag in ("games", "rounds", "simulations", "games_per_round", "gate_every", "workers"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            raise ValueError(f"--{flag.replace('_', '-')} must be at least 1, got {value}")
    check_budget(args.games, args.rounds)
    if args.games is None and args.rounds is None and seconds is None:
        seconds = DEFAULT_SECONDS
    from zerosum.solve.parallel import default_workers

    workers = args.workers or default_workers()
    workers_limit().check(workers)
    args.game = game_spec(args)
    directory = args.out or "train-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", args.game).strip("-")
    game = registry.setup(args.game).game
    with stop_points() as poll:  # from JAX's import on, Ctrl-C is answered where it is safe
        importlib.import_module("zerosum.learn.optimizer")  # the learn extra, before any file
        poll()
        if isinstance(game, Pig):
            return train_pig(args, game, directory, seconds)
        return train_network(args, game, directory, seconds, workers)


def train_network(
    args: argparse.Namespace, game: Game, directory: str, seconds: float | None, workers: int
) -> int:
    """Self-play with a network in `directory`, started or resumed, within the caller's
    `stop_points`; on Ctrl-C, the round on disk is told."""
    impl = chosen_impl(game, args.impl or "auto")  # refused now, before the run's first file
    if args.resume:
        changed = [
            f for f in ("simulations", "games_per_round", "hidden", "opponent") if getattr(args, f)
        ]
        if changed:
            flag = changed[0].replace("_", "-")
            raise ValueError(f"--resume goes on with the run's own settings: drop --{flag}")
        session = resume(directory)
        if session.plan.game != args.game:
            raise ValueError(f"{directory} is a run of {session.plan.game}, not {args.game}")
        opponents = opponent_makers(session.plan, game)
    else:
        plan = plan_of(args)
        opponents = opponent_makers(plan, game)  # refused now, before the run's first file
        session = start(directory, plan, game)
    began = time.perf_counter()
    what = (
        f"until {args.games:,} games"
        if args.games
        else (f"{args.rounds} rounds" if args.rounds else f"for {_clock(seconds or 0)}")
    )
    say = _progress_printer(args)
    say(
        f"training {args.game} in {directory} {what} on {workers} process(es), {impl} search;"
        " Ctrl-C stops it"
    )
    try:
        progress = train(
            session,
            game,
            opponents=opponents,
            games=args.games,
            seconds=seconds,
            rounds=args.rounds,
            workers=workers,
            impl=impl,
            on_progress=lambda p: say(line(p)),
        )
    except KeyboardInterrupt:
        kept = read_manifest(directory)["progress"]  # the round on disk, not the one under way
        say(
            f"\nstopped: {directory} keeps round {kept['rounds']} ({kept['games']:,} games);"
            f" --resume goes on"
        )
        raise
    report: dict[str, Any] = {
        "game": args.game,
        "directory": directory,
        "impl": impl,
        "round": progress.rounds,
        "step": progress.steps,
        "games": progress.games,
        "positions": progress.positions,
        "seconds": round(progress.seconds, 3),
        "session_seconds": round(time.perf_counter() - began, 3),
        "best_round": progress.best_round,
        "policy_loss": progress.policy_loss,
        "value_loss": progress.value_loss,
        "evaluations": [
            {"opponent": opponent, "wins": wins, "draws": draws, "losses": losses}
            for opponent, (wins, draws, losses) in progress.evaluations.items()
        ],
    }
    if args.json:
        print_json(report)
        return 0
    print(
        f"{directory}: round {progress.rounds}, best network from round {progress.best_round};"
        f" play it with az:{directory}"
    )
    return 0


TD_GAMES = 20_000
"""TD(lambda)'s games of self-play on Pig when no budget is given (about a minute here)."""
SELF_PLAY_ONLY = (
    "rounds", "simulations", "games_per_round", "gate_every", "hidden", "opponent", "impl",
)  # fmt: skip


def train_pig(args: argparse.Namespace, game: Pig, directory: str, seconds: float | None) -> int:
    """Pig learns an evaluation by TD(lambda) (`zerosum.learn.td`), kept in `directory`, and
    the learned policy is measured exactly against the optimal player. Ctrl-C ends training
    after the games under way, and the evaluation so far is kept."""
    import signal

    from zerosum.learn import td
    from zerosum.solve.pig import TARGET

    for flag in SELF_PLAY_ONLY:
        if getattr(args, flag):
            name = flag.replace("_", "-")
            raise ValueError(f"--{name} is for self-play with a network; Pig learns by TD(lambda)")
    if args.resume:
        saved = td.load(directory)
        if saved.target != game.target:
            raise ValueError(f"{directory} learned {saved.game}, not {args.game}")
        start: td.TDEvaluation | None = saved
        settings = saved.settings
    else:
        if Path(directory).exists() and any(Path(directory).iterdir()):
            raise ValueError(f"{directory} is not empty: --resume goes on with what it holds")
        start, settings = None, td.TDSettings(target=game.target, seed=args.seed)
    settings.check()
    done = 0 if start is None else start.episodes
    episodes = (
        (args.games - done)
        if args.games is not None
        else (TD_GAMES if seconds is None or args.time is None else 10**9)
    )
    if episodes < 1:
        raise ValueError(f"{directory} has played {done:,} games already, --games {args.games:,}")
    interrupted: list[int] = []
    deadline = None if args.time is None or seconds is None else time.perf_counter() + seconds

    def stop() -> bool:
        return bool(interrupted) or (deadline is not None and time.perf_counter() >= deadline)

    def interrupt(signum: int, frame: Any) -> None:
        interrupted.append(signum)

    say = _progress_printer(args)
    say(f"training {args.game} by TD(lambda) in {directory}; Ctrl-C stops it")
    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        learned = td.train_td(
            settings, episodes, start=start, stop=stop,
            on_progress=lambda d, n: say(f"{done + d:,} games"),
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, previous)
    td.save(learned, directory)
    if interrupted:
        say(f"stopped: {directory} keeps {learned.episodes:,} games; --resume goes on")
        raise KeyboardInterrupt
    report: dict[str, Any] = {"game": args.game, "directory": directory,
                              "games": learned.episodes}  # fmt: skip
    if game.target <= TARGET.most:
        against = td.win_probability_against_optimal(game.target, learned.should_roll)
        report["against_optimal"] = {
            "first": against.first,
            "second": against.second,
            "mean": against.mean,
        }
    if args.json:
        print_json(report)
        return 0
    print(f"{directory}: {learned.episodes:,} games of TD(lambda) self-play")
    if "against_optimal" in report:
        print(
            f"the learned policy wins {against.mean:.4f} against the optimal player"
            f" ({against.first:.4f} moving first, {against.second:.4f} second; optimal: 0.5)"
        )
    print(f"play it with expectiminimax:depth=1,eval=td:{directory}")
    return 0


def _progress_printer(args: argparse.Namespace) -> Callable[[str], None]:
    """How the command reports its rounds: a line on standard output, or on standard error
    with `--json` (whose standard output is the one JSON object)."""
    stream = sys.stderr if args.json else sys.stdout

    def say(text: str) -> None:
        print(text, file=stream, flush=True)

    return say


def game_spec(args: argparse.Namespace) -> str:
    """The game as one name with its options (`connect4(width=5, height=4)`), as the run
    keeps it and its worker processes make it."""
    flags = {
        option.name: getattr(args, option.name)
        for option in registry.GAME_OPTIONS
        if getattr(args, option.name, None) is not None
    }
    registry.setup(args.game, "", flags)  # refused now, in one line, if it is no game
    if not flags:
        return str(args.game)
    if "(" in args.game:
        raise ValueError("give the game's options once: in its name or as flags, not both")
    shown = ", ".join(f"{name}={value}" for name, value in flags.items())
    return f"{args.game}({shown})"


def plan_of(args: argparse.Namespace) -> Plan:
    """The plan the command's options describe (the library's defaults where none is given)."""
    options: dict[str, Any] = {"game": args.game, "seed": args.seed}
    if args.simulations is not None:
        options["simulations"] = args.simulations
    if args.games_per_round is not None:
        options["games_per_round"] = args.games_per_round
    if args.gate_every is not None:
        options["gate_every"] = args.gate_every
    if args.hidden is not None:
        options["hidden"] = hidden_layers(args.hidden)
    plan = Plan(**options)
    plan.check()  # before the default opponent, which searches as many simulations
    opponents = args.opponent or [f"mcts:iterations={plan.simulations}"]
    for opponent in opponents:
        parse_player(opponent)  # refused now, not after the first round
    return replace(plan, opponents=tuple(opponents))


def opponent_makers(plan: Plan, game: Game) -> dict[str, Maker]:
    """Each fixed opponent of `plan` (its spec) and the maker of its players of `game`, which
    the evaluations play; ValueError when one cannot play the game."""
    return {spec: player_maker(spec, game) for spec in plan.opponents}


def hidden_layers(text: str) -> tuple[int, ...]:
    """`128,128` as (128, 128); ValueError for anything but 1 to 8 widths of 1 to 4096."""
    parts = text.split(",")
    if not 1 <= len(parts) <= 8 or not all(re.fullmatch(r"[0-9]{1,4}", p.strip()) for p in parts):
        raise ValueError(f"--hidden takes 1 to 8 layer widths such as 128,128, got {text!r}"[:200])
    widths = tuple(int(p) for p in parts)
    if not all(1 <= w <= 4096 for w in widths):
        raise ValueError(f"--hidden widths must be from 1 to 4096, got {text}")
    return widths


def duration(text: str) -> float:
    """Seconds in `90`, `90s`, `30m`, `1.5h`, `2d`; ValueError otherwise, or beyond 30 days."""
    match = DURATION.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"--time takes a duration such as 90s, 30m or 1h, got {text!r}"[:200])
    seconds = float(match[1]) * UNITS[match[2] or ""]
    if not (math.isfinite(seconds) and 0 < seconds <= MOST_SECONDS):
        raise ValueError(f"--time must be more than 0 and at most 30 days, got {text}")
    return seconds


def line(progress: Progress) -> str:
    """One round on one line: games and positions so far, losses, gate, last evaluations."""
    parts = [
        f"round {progress.rounds}",
        f"{progress.games:,} games",
        f"{progress.positions:,} positions",
        f"loss {progress.policy_loss:.3f} + {progress.value_loss:.3f}",
    ]
    if progress.gate is not None and progress.gate_round == progress.rounds:
        kept = "kept" if progress.best_round == progress.rounds else "not kept"
        parts.append("gate {}-{}-{} ({})".format(*progress.gate, kept))
    for opponent, (wins, draws, losses) in progress.evaluations.items():
        result = MatchResult(wins, draws, losses)
        elo = f", {result.elo:+.0f} Elo" if result.elo is not None else ""
        parts.append(f"vs {opponent} {result.score:.2f}{elo}")
    parts.append(_clock(progress.seconds))
    return ", ".join(parts)


def _clock(seconds: float) -> str:
    minutes, second = divmod(int(seconds), 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02d}:{second:02d}" if hours else f"{minute}:{second:02d}"
