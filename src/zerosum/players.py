"""Players by name: a spec such as `engine:time=0.5` or `mcts:iterations=800,c=1.4` made into
a player of one game.

A spec is `KIND` or `KIND:NAME=VALUE,...`; `PLAYERS` lists the kinds and the options each
takes, `parse_player` reads a spec, `make_player` builds the player for a game and a `Seat`
(the game's registry entry, a seed, how to ask a human, endgame tables), `player_maker` gives
`zerosum.match.play_match` a fresh player for every game. A player is a `Chooser`: given a
state where it is to move, its move (None when a human leaves). `trained` reads the network of
a run of `zerosum train` for `az:DIR` and `eval=az:DIR`, checked to have learned the game.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from zerosum.compiled import choice
from zerosum.compiled.protocol import PLAYOUTS
from zerosum.game import Evaluating, Game, NumberedMoves, has_chance, require
from zerosum.learn.network import shape_for
from zerosum.learn.player import LearnedEvaluation, az_search
from zerosum.learn.selfplay import Evaluation
from zerosum.limits import Limit, clipped, shown
from zerosum.match import Chooser
from zerosum.registry import (
    GameEntry,
    end_in_reach,
    entry_of,
    named_game,
    require_an_end_in_reach,
    setup,
)
from zerosum.search.deepening import Iteration
from zerosum.search.engine import Engine
from zerosum.search.exact import alphabeta
from zerosum.search.expectiminimax import expectiminimax
from zerosum.search.mcts import MOST_RAVE, MCTSResult
from zerosum.solve.answer import ExactSolver

DEPTH = Limit(
    "a search depth",
    100,
    "plies; the engine reaches depth 9 to 20 in 30 seconds in chess endgames, so 100 is never"
    " reached in hours, and a line of 100 plies stays far below Python's recursion limit",
    liftable=False,
)
NODES = Limit(
    "a node budget",
    100_000_000,
    "the engine searches 4,000 to 70,000 nodes a second here: hours for one move",
    liftable=False,
)
ITERATIONS = Limit(
    "MCTS iterations",
    10_000_000,
    "each keeps a node of about 500 bytes and takes about 0.15 ms here (Connect Four):"
    " 5 GB and 25 minutes for one move",
    liftable=False,
)
MOST_SECONDS = 3600.0
"""The most seconds a player may think about one move (an hour)."""
MOST_C = 100.0
"""The largest exploration constant of MCTS (about 1.4 is usual; beyond 100 it explores blindly)."""

BUDGETS: dict[str, tuple[float, float, str]] = {
    "depth": (1, DEPTH.most, "plies"),
    "nodes": (1, NODES.most, "nodes"),
    "iterations": (1, ITERATIONS.most, "iterations"),
    "simulations": (1, ITERATIONS.most, "simulations"),
    "time": (0, MOST_SECONDS, "seconds"),
    "c": (0, MOST_C, ""),
    "rave": (0, MOST_RAVE, ""),
}
"""Each player option's least and most value, and its unit: a time must be more than 0, the
exploration constant `c` may be 0, the others are whole numbers from 1."""


def check_budget(name: str, value: float, what: str = "") -> None:
    """ValueError unless `value` is a valid value of the player option or budget `name`
    (`BUDGETS`); the message names it as `what` (default: `name`), what it must be and its
    limit."""
    least, most, unit = BUDGETS[name]
    what = what or name
    units = f" {unit}" if unit else ""
    if name in ("time", "c", "rave"):
        expected = (
            f"more than 0 and at most {most:,g}{units}"
            if name == "time"
            else f"from 0 to {most:,g}"
        )
        valid = math.isfinite(value) and (value > least if name == "time" else value >= least)
        if not (valid and value <= most):
            raise ValueError(f"{what} must be {expected}, got {value}")
        return
    if not least <= value <= most:
        got = shown(int(value))
        got = f"a number {got}" if got.startswith("of ") else got  # "of 23 digits"
        raise ValueError(
            f"{what} must be a whole number from {least:,} to {most:,}{units}, got {got}"
        )


_INTEGER = re.compile(r"[+-]?[0-9]{1,30}")
_NUMBER = re.compile(
    r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,4})?"
)


def _option_value(kind: str, option: str, value: str, expected: type) -> Any:
    """The value of a player option, written in ASCII digits, checked against `BUDGETS`."""
    pattern = _INTEGER if expected is int else _NUMBER
    if not pattern.fullmatch(value):
        raise ValueError(
            f"bad value {clipped(value)} for {kind} option {option!r}: expected"
            f" {'an integer' if expected is int else 'a number such as 1.5'}"
        )
    number = expected(value)
    check_budget(option, number, f"{kind} option {option}")
    return number


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player description: its kind and options, and the text it was read from."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True)
class Watch:
    """How a searching player is watched while it thinks (the page in the browser does):
    `started(searcher)` before each of its searches, with the engine or MCTS about to search
    (whose `stop()` ends the search, from any thread), then `iteration(it)` after each of the
    engine's iterations and `progress(report)` with MCTS's report so far, a few times a
    second. Each is called in the searching thread."""

    started: Callable[[Any], None]
    iteration: Callable[[Iteration], None]
    progress: Callable[[MCTSResult], None]


@dataclass(frozen=True)
class Seat:
    """What a player is built with beyond its spec: the game's entry, a seed for its random
    choices, how to ask a human (`ask(game, state) -> move or None`), the tables a searching
    player scores positions from, the megabytes of the engine's or the solver's transposition
    table (`table_mb`, None for their default), and for the `solver` player: whether it may
    pass the solver's stated limits (`no_limit`), the file of its opening book (`book`, None for
    the package's), whether it searches without one (`no_book`), and how to show it thinking
    (`thinking(solver, state)`, a context around each of its searches: the command line draws
    a bar on a terminal)."""

    entry: GameEntry
    seed: int = 0
    ask: Callable[[Game, Any], Any] | None = None
    tablebase: Any = None
    table_mb: float | None = None
    no_limit: bool = False
    book: str | None = None
    no_book: bool = False
    thinking: Callable[[ExactSolver, Any], AbstractContextManager[None]] | None = None
    watch: Watch | None = None


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player: its options (name -> the type of its value), its maker
    `make(game, options, seat) -> Chooser`, and one line saying what it is."""

    options: dict[str, type]
    make: Callable[[Game, dict[str, Any], Seat], Chooser]
    summary: str
    argument: str | None = None
    """The name of a value the spec gives first, without a name (`az:DIR`'s directory)."""


def _random_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    rng = random.Random(seat.seed)
    return lambda state: rng.choice(list(game.legal_moves(state)))


def _mcts_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    options = dict(options)
    impl = options.pop("impl", None)
    return _watched(choice.mcts(game, impl, seed=seat.seed, **options), seat.watch)


def _watched(search: Any, watch: Watch | None) -> Chooser:
    """The move `search` (MCTS, Python or compiled) prefers, watched while it searches: its
    root's report a few times a second, and once more when it ends."""
    if watch is None:
        return search.choose

    def choose(state: Any) -> Any:
        watch.started(search)
        report = search.search(state, on_progress=watch.progress)
        watch.progress(report)
        return report.best_move

    return choose


def _no_dice(game: Game, kind: str) -> None:
    if has_chance(game):
        raise ValueError(
            f"{kind} cannot play a game with dice: use expectiminimax:depth=N, mcts or solver"
        )


def _with_evaluation(game: Game, options: dict[str, Any], kind: str) -> Game:
    """`game`, or `game` with the learned evaluation its `eval` option names."""
    spec = options.pop("eval", None)
    if spec is None:
        return game
    if "depth" not in options and kind in ("alphabeta", "expectiminimax"):
        raise ValueError(f"{kind}:eval=... needs depth=N: to the end it evaluates nothing")
    return learned_evaluation(spec, game)


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


def _az_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    _no_dice(game, "az")
    search = az_search(
        game,
        trained(options["directory"], game),
        options.get("simulations"),
        options.get("c"),
        seat.seed,
        options.get("time"),
    )
    return _watched(search, seat.watch)


def _alphabeta_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    _no_dice(game, "alphabeta")
    options = dict(options)
    game = _with_evaluation(game, options, "alphabeta")
    depth = options.get("depth")
    if depth is not None:
        require(game, Evaluating, "alphabeta:depth=N (an evaluation at the depth limit)")
    else:
        require_an_end_in_reach(seat.entry, game, "MCTS plays it (mcts:time=SECONDS)")
    return lambda state: alphabeta(game, state, depth=depth).best_move


def _expectiminimax_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    options = dict(options)
    game = _with_evaluation(game, options, "expectiminimax")
    depth = options.get("depth")
    if depth is not None:
        require(game, Evaluating, "expectiminimax:depth=N (an evaluation at the depth limit)")
    return lambda state: expectiminimax(game, state, depth=depth).best_move


def _engine_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    _no_dice(game, "the engine")
    require_an_end_in_reach(seat.entry, game, "MCTS plays it (mcts:time=SECONDS)")
    options = dict(options)
    impl = options.pop("impl", None)
    if "eval" in options:  # the compiled engine knows the game's own evaluation only
        if impl == "compiled":
            raise ValueError("engine:impl=compiled cannot use a learned evaluation: impl=python")
        impl = "python"
        game = _with_evaluation(game, options, "engine")
    if seat.tablebase is not None:  # the compiled engine reads no tables
        if impl == "compiled":
            raise ValueError("engine:impl=compiled reads no endgame tables: use impl=python")
        impl = "python"
    if not options and isinstance(game, Evaluating):
        raise ValueError(
            f"the engine needs a budget on {seat.entry.name}, whose evaluation lets it search"
            " ever deeper: engine:time=SECONDS, engine:depth=N or engine:nodes=N"
        )
    if "depth" in options:
        require(game, Evaluating, "engine:depth=N (an evaluation at the depth limit)")
    sized: dict[str, Any] = {} if seat.table_mb is None else {"table_mb": seat.table_mb}
    if choice.implementation(game, impl) == "compiled":
        engine = choice.engine(game, "compiled", **sized)  # one a game: its table carries over
    else:
        engine = Engine(game, tablebase=seat.tablebase, **sized)
    watch = seat.watch
    if watch is None:
        return lambda state: engine.search(state, **options).best_move

    def choose(state: Any) -> Any:
        watch.started(engine)
        return engine.search(state, **options, on_iteration=watch.iteration).best_move

    return choose


def _solver_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    """Perfect play: the game's own perfect player, else its exact solver (one for the whole
    game, so that what it learns on one move serves the next), else a search to the end."""
    entry = seat.entry
    if seat.table_mb is not None or entry.perfect is None:
        solver = entry.own_solver(game, seat.table_mb)
        if solver is not None:
            solver.no_limit = seat.no_limit
            solver.no_book = seat.no_book
            if seat.book is not None:
                solver.read_book(seat.book)
            thinking = seat.thinking or (lambda solver, state: nullcontext())

            def choose(state: Any) -> Any:
                with thinking(solver, state):
                    return solver.best_move(state)

            return choose
    if entry.perfect is not None:
        return entry.perfect(game)
    if not entry.solvable:
        player = "the engine (engine:time" if isinstance(game, Evaluating) else "MCTS (mcts:time"
        raise ValueError(
            f"{entry.name} has no exact solver and too many positions to search to the end:"
            f" play it with {player}=SECONDS)"
        )
    if has_chance(game):
        return lambda state: expectiminimax(game, state).best_move
    if isinstance(game, Evaluating):  # the engine would stop at its evaluation's horizon
        return lambda state: alphabeta(game, state, distance=True).best_move
    engine = Engine(game, tablebase=seat.tablebase)  # to the end: the quickest win
    return lambda state: engine.search(state).best_move


def _human_player(game: Game, options: dict[str, Any], seat: Seat) -> Chooser:
    if seat.ask is None:
        raise ValueError("a human player needs a terminal to type moves at")
    ask = seat.ask
    return lambda state: ask(game, state)


PLAYERS: dict[str, PlayerKind] = {
    "random": PlayerKind({}, _random_player, "a uniformly random legal move"),
    "mcts": PlayerKind(
        {
            "iterations": int,
            "time": float,
            "c": float,
            "impl": str,
            "playouts": str,
            "rave": float,
        },
        _mcts_player,
        "Monte Carlo tree search (UCT with the solver): iterations=N and/or time=SECONDS, c=X;"
        " impl=compiled (the default for a game with compiled rules) or impl=python;"
        " playouts=game (the game's playout policy, Go's: no eye filled) or playouts=random"
        " (compiled); rave=K for RAVE, K its equivalence parameter (0: none, the default)",
    ),
    "alphabeta": PlayerKind(
        {"depth": int, "eval": str},
        _alphabeta_player,
        "exact alpha-beta to the end, or to depth=N with the game's evaluation"
        " (eval=az:DIR: a trained network's value instead)",
    ),
    "engine": PlayerKind(
        {"depth": int, "time": float, "nodes": int, "impl": str, "eval": str},
        _engine_player,
        "the engine (iterative deepening, table, ordering, PVS, quiescence): depth=N,"
        " time=SECONDS and/or nodes=N; none needed where it can search to the end;"
        " impl=compiled (the default for a game with compiled rules) or impl=python;"
        " eval=az:DIR: a trained network's value as the evaluation",
    ),
    "az": PlayerKind(
        {"simulations": int, "c": float, "time": float},
        _az_player,
        "a network trained by zerosum train, searching with PUCT MCTS: az:DIR,"
        " simulations=N (default 200), c=X, time=SECONDS (at most, beside the simulations)",
        argument="directory",
    ),
    "expectiminimax": PlayerKind(
        {"depth": int, "eval": str},
        _expectiminimax_player,
        "expectiminimax with Star2 pruning for dice games, to depth=N with the evaluation"
        " (eval=td:DIR: Pig's evaluation learned by TD(lambda))",
    ),
    "solver": PlayerKind(
        {},
        _solver_player,
        "perfect play by the game's exact solver (Bouton's move for Nim, Pig solved exactly,"
        " the Connect Four solver) or a search to the end; perfect is the same player",
    ),
    "human": PlayerKind({}, _human_player, "you, typing moves at the terminal"),
}


ALIASES = {"perfect": "solver"}
"""Other names of a kind of player: `perfect`, the name `solver` had first."""


def parse_player(text: str) -> PlayerSpec:
    """The `PlayerSpec` that `text` (e.g. `"mcts:iterations=800,c=1.4"`) describes.

    ValueError naming the problem: an unknown kind, an unknown option, a malformed value.
    """
    name, _, rest = text.strip().partition(":")
    name = ALIASES.get(name, name)
    if name not in PLAYERS:
        raise ValueError(
            f"unknown player {clipped(name)}: choose one of {', '.join(sorted(PLAYERS))}"
        )
    kind = PLAYERS[name]
    types = kind.options
    options: dict[str, Any] = {}
    items = [part.strip() for part in rest.split(",")]
    if kind.argument is not None:
        first = items.pop(0) if items else ""
        if not first or "=" in first:
            raise ValueError(f"player {name!r} needs its {kind.argument} first: {name}:DIR")
        options[kind.argument] = first
    for item in filter(None, items):
        option, equals, value = item.partition("=")
        if option not in types:
            known = ", ".join(types) or "none"
            raise ValueError(f"player {name!r} has no option {clipped(option)} (options: {known})")
        if not equals or not value:
            raise ValueError(f"player option {option!r} needs a value: {option}=VALUE")
        if option in options:
            raise ValueError(f"player option {option!r} is given twice in {clipped(text)}")
        if option == "eval":
            options[option] = value
        elif option == "impl":
            if value not in choice.IMPLEMENTATIONS:
                raise ValueError(
                    f"bad value {clipped(value)} for {name} option 'impl': compiled or python"
                )
            options[option] = value
        elif option == "playouts":
            if value not in PLAYOUTS:
                raise ValueError(
                    f"bad value {clipped(value)} for {name} option 'playouts': game or random"
                )
            options[option] = value
        else:
            options[option] = _option_value(name, option, value, types[option])
    return PlayerSpec(name, options, text.strip())


def make_player(spec: PlayerSpec, game: Game, seat: Seat) -> Chooser:
    """A fresh player of `spec` for one game of `game`; ValueError when it cannot play it (or
    an option is out of its range, `BUDGETS`)."""
    for option, value in spec.options.items():
        if option in BUDGETS:  # impl names an implementation, not a budget
            check_budget(option, value, f"{spec.kind} option {option}")
    return PLAYERS[spec.kind].make(game, spec.options, seat)


def player_maker(
    spec: str | PlayerSpec, game: Game | str, seat: Seat | None = None
) -> Callable[[int], Chooser]:
    """`make(seed)`: a fresh player of `spec` (a text or a parsed spec) for each game of `game`
    (the game, or its name as the command line takes it), as `zerosum.match.play_match` takes
    them; checked once at once (ValueError when it cannot play this game)."""
    parsed = parse_player(spec) if isinstance(spec, str) else spec
    game = named_game(game)
    seat = seat or Seat(entry_of(game))
    make_player(parsed, game, seat)
    return lambda seed: make_player(parsed, game, replace(seat, seed=seed))


def searching_player(entry: GameEntry, game: Game, time: float | None, depth: int | None) -> str:
    """The spec of a player searching `time` seconds or `depth` plies a move: the engine,
    expectiminimax for a game with dice (to `depth`: it has no clock), or MCTS for `time`
    where the engine would have nothing to stop at short of an end out of reach (no
    evaluation, too many positions: OpenSpiel's Hex, Go)."""
    if has_chance(game):
        if time is not None:
            raise ValueError("a game with dice is searched to --depth, not for a --time")
        return f"expectiminimax:depth={depth}"
    if time is not None and depth is None and not end_in_reach(entry, game):
        return f"mcts:time={time}"
    budget = [f"time={time}"] if time is not None else []
    budget += [f"depth={depth}"] if depth is not None else []
    return "engine:" + ",".join(budget)


def environment_policy(spec: str, environment: Any, seed: int = 0) -> Callable[[Any, str], int]:
    """An opponent for a reinforcement-learning loop: `policy(observation, agent)` is the
    number of the move the player `spec` (`engine:time=0.1`, `mcts:iterations=200`, `solver`)
    chooses for `agent` in the position of `environment`, a `ZerosumEnv`, wrapped or not
    (`zerosum.adapters.pettingzoo`'s `env` or `raw_env`). It reads the environment's position,
    not the observation (a search needs the whole game); ValueError when the player cannot play
    the game."""
    game: Game = environment.game
    require(game, NumberedMoves, "a policy choosing moves by number")
    assert isinstance(game, NumberedMoves)  # as `require` has just checked
    numbered: NumberedMoves = game
    choose = make_player(parse_player(spec), game, Seat(entry_of(game), seed=seed))

    def policy(observation: Any, agent: str) -> int:
        if agent != environment.agent_selection:
            raise ValueError(f"{agent} is not to move: {environment.agent_selection} is")
        return numbered.move_number(choose(environment.position))

    return policy
