"""The Play page's server side: a game against the program over one websocket, the program's
thinking streamed to the page while it searches.

`PlaySession` holds one tab's game: the game (by a name the server offers: `offered_games`),
the position it started from, the moves played, which seat the person has and the program's
player, built by `zerosum.players` from the strength the page asks for (`program_spec`) and
watched as it thinks (`zerosum.players.Watch`). A search runs in a worker thread, one at a time
per connection; what it reports on the way (an engine iteration, MCTS's root moves, Connect
Four's proven columns) is handed to the event loop, which sends it. Every search is bounded by
the server (`MOST_SECONDS`, `MOST_NODES`, `MOST_ITERATIONS`, `SOLVER_NODES`), whatever the
page asks; "stop" makes the program move now, and a closed tab stops its search. Every input
is read by the library's own parsers; a refused one is an "error" message of one line.

A trained network plays as the `az:DIR` player (the strength "network"): the page names a run
of `zerosum train` by its directory on the server's computer, read when the game starts, so a
directory without a run, or a run of another game, is refused before the first move.

The messages are described in docs/web.md (the Play page's protocol).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zerosum import naming, notation, registry
from zerosum.game import (
    Bounded,
    Evaluating,
    Game,
    InformationSets,
    NumberedMoves,
    Observing,
    has_chance,
)
from zerosum.learn.player import SIMULATIONS
from zerosum.limits import clipped, clipped_path, one_line
from zerosum.players import (
    PlayerSpec,
    Seat,
    Watch,
    check_budget,
    make_player,
    parse_player,
    searching_player,
)
from zerosum.search.engine import Iteration
from zerosum.search.mcts import MCTSResult
from zerosum.search.scores import decode
from zerosum.show.words import describe_score
from zerosum.solve.connect4 import ConnectFourExact
from zerosum.web.boards import GAME_KINDS, KINDS, kind_of

MOST_SECONDS = 30.0
"""The most seconds the program thinks about a move: a person waits no longer at a board, and
a tab left open cannot keep a core busy for minutes."""

MOST_NODES = 50_000_000
"""The most nodes of one engine search: the compiled engine's 2 to 5 million a second reach it
in 10 to 25 seconds, the Python engine's 5,000 to 100,000 never within `MOST_SECONDS`; it
bounds a search whatever the clock (a machine slowed down by other work)."""

MOST_ITERATIONS = 5_000_000
"""The most MCTS iterations of one move: the compiled MCTS's 0.2 to 1 million a second reach it
within `MOST_SECONDS` at best; each new node keeps about 80 bytes (compiled) to 500 (Python),
so a tree stays within a few hundred megabytes. The most simulations of a trained network
too, which `MOST_SECONDS` bounds first (PUCT with a network: about 6,000 a second here)."""

SOLVER_NODES = 20_000_000
"""The most nodes of the Connect Four solver's scores of the columns of one position: 4 to 5
seconds compiled, what a person waits for a move; a column the solver has not proven by then
is "not proven yet" (what it proved stays in its table, and the later moves go quicker)."""

FALLBACK_SECONDS = 1.0
"""Seconds the engine thinks in Connect Four with the solver on, when the solver has not
proven every column within `SOLVER_NODES`: early in the game, the move is the engine's."""

MESSAGE_CHARACTERS = 100_000
"""The longest message read from the page (a position in any game's notation is far shorter)."""

ESTIMATE_SCALE = 3.0
"""The estimate of a game without bounds on its utilities that fills three quarters of the
evaluation bar (`tanh(1)`): three pawns up in chess, whose evaluation is in pawns."""

LOG = logging.getLogger(__name__)
"""Where a fault in a game's own code is told in full: the terminal running the server."""

STOP_AGAIN = 0.05
"""Seconds between two stop requests to a search asked to stop: a request made as it starts
(before it clears its flag) is made again."""

STRENGTHS = ("time", "depth", "perfect", "mcts", "network")
"""The kinds of strength the page asks for (`program_spec`)."""


@dataclass(frozen=True)
class Preset:
    """What the page starts with instead of the first game and its default strength: `game`
    (a name the page offers) played by the program at `strength` (`zerosum serve --network`)."""

    game: str
    strength: dict[str, Any]


# -- the games offered ---------------------------------------------------------------------


def offered_games(own: Sequence[str] = ()) -> dict[str, registry.GameEntry]:
    """The games the page offers, by the name the page sends: the registry's games the page
    has a board of their own for (`boards.GAME_KINDS`), then `own`, the games named on
    `zerosum serve`'s command line (checked: a ValueError with the reason for a game the page
    cannot play)."""
    known = registry.games()
    offered = {
        name: entry for name, entry in known.items() if registry.loaded(entry.make) in GAME_KINDS
    }
    for name in own:
        offered[name] = playable_setup(name).entry
    return offered


def playable_setup(name: str, position: str = "") -> registry.Setup:
    """The game `name` at `position` (the registry's `setup`), checked to be one the page
    plays: two players taking turns, no dice and nothing hidden."""
    setup = registry.setup(name, position, hidden=True)
    if isinstance(setup.game, InformationSets):
        raise ValueError(f"{setup.entry.name} hides cards or dice: the Play page shows everything")
    if has_chance(setup.game):
        raise ValueError(f"{setup.entry.name} has dice: the Play page plays games without chance")
    return setup


def strengths_of(entry: registry.GameEntry, game: Game) -> list[str]:
    """The kinds of strength the program has in `game`: perfect play where the game has a
    solver or few enough positions, a depth where it has an evaluation, a trained network
    where `zerosum train` can learn the game (numbered moves, positions as planes)."""
    kinds = ["time"]
    if isinstance(game, Evaluating):
        kinds.append("depth")
    if entry.perfect is not None or entry.solver is not None or entry.solvable:
        kinds.append("perfect")
    kinds.append("mcts")
    if isinstance(game, NumberedMoves) and isinstance(game, Observing):
        kinds.append("network")
    return kinds


def games_message(
    offered: dict[str, registry.GameEntry], preset: Preset | None = None
) -> dict[str, Any]:
    """The first message of a connection: the games offered, their strengths and defaults,
    and the game the page starts with (`first`): the first offered, or `preset`'s game, whose
    default strength is then `preset`'s."""
    listed = []
    for name, entry in offered.items():
        game = playable_setup(name).game
        strengths = strengths_of(entry, game)
        default: dict[str, Any] = {"kind": "time", "seconds": 1}
        if preset is not None and name == preset.game:
            default = preset.strength
        elif entry.player.startswith("mcts"):  # the registry's choice for a large game without
            default = {"kind": "mcts", "seconds": 1}  # an evaluation (OpenSpiel's Hex, Go)
        elif "perfect" in strengths and not isinstance(game, Evaluating):
            default = {"kind": "perfect"}
        listed.append(
            {
                "name": name,
                "summary": entry.summary,
                "names": list(notation.player_names(game)),
                "strengths": strengths,
                "default": default,
            }
        )
    first = preset.game if preset is not None else next(iter(offered), None)
    return {"type": "games", "games": listed, "first": first}


def network_preset(directory: str) -> Preset:
    """`zerosum serve --network DIR`: the game the run in `directory` learned (its name as
    `zerosum train` was given it), played by its network at the default simulations; checked
    as the page checks the strength (ValueError in one line: no run there, a game the page
    cannot play)."""
    from zerosum.learn.training import load_best

    name = load_best(directory)[0]
    setup = playable_setup(name)
    strength = {"kind": "network", "directory": directory, "simulations": SIMULATIONS}
    make_player(program_spec(setup, strength), setup.game, Seat(setup.entry))
    return Preset(name, strength)


# -- the program's strength ----------------------------------------------------------------


def program_spec(setup: registry.Setup, strength: object) -> PlayerSpec:
    """The program's player for the page's `strength` (`{"kind": "time", "seconds": 1}`,
    `{"kind": "depth", "plies": 6}`, `{"kind": "perfect"}`, `{"kind": "mcts", "seconds": 1}`,
    `{"kind": "network", "directory": "DIR", "simulations": 200}`), every search bounded by
    the server's most time and nodes; ValueError for a strength unknown, out of range or
    beyond the server's bounds. The network's run is read when the player is made
    (`make_player`), which refuses a directory without one or a run of another game."""
    if not isinstance(strength, dict):
        raise ValueError('give the strength as {"kind": "time", "seconds": 1}')
    kind, game = strength.get("kind"), setup.game
    bound = f"nodes={MOST_NODES}"
    if kind == "perfect":
        entry = setup.entry
        if entry.perfect is not None or entry.solver is not None or not entry.solvable:
            return parse_player("solver")  # refused, with the reason, for a game too large
        return parse_player(f"engine:time={MOST_SECONDS},{bound}")  # to the end, bounded
    if kind == "time":
        spec = searching_player(setup.entry, game, _seconds(strength), None)
        if spec.startswith("mcts"):  # the engine would have nothing to stop at (Hex 7x7)
            bound = f"iterations={MOST_ITERATIONS}"
        return parse_player(f"{spec},{bound}")
    if kind == "depth":
        depth = strength.get("plies")
        if not isinstance(depth, int) or isinstance(depth, bool):
            raise ValueError(f"the depth must be a whole number of plies, not {clipped(depth)}")
        check_budget("depth", depth, "the depth")
        return parse_player(f"{searching_player(setup.entry, game, MOST_SECONDS, depth)},{bound}")
    if kind == "mcts":
        seconds = _seconds(strength)
        return parse_player(f"mcts:time={seconds},iterations={MOST_ITERATIONS}")
    if kind == "network":
        directory, simulations = _network(strength)
        _refuse_code_of_another_game(directory, setup)
        return parse_player(f"az:{directory},simulations={simulations},time={MOST_SECONDS}")
    raise ValueError(f"unknown strength {clipped(kind)}: choose one of {', '.join(STRENGTHS)}")


def _seconds(strength: dict[str, Any]) -> float:
    seconds = strength.get("seconds")
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        raise ValueError(f"the time per move must be a number of seconds, not {clipped(seconds)}")
    seconds = float(seconds) if abs(seconds) < 1e300 else math.inf  # an integer of 400 digits
    check_budget("time", seconds, "the time per move")
    if seconds > MOST_SECONDS:
        raise ValueError(
            f"the page thinks at most {MOST_SECONDS:g} seconds a move, not {seconds:g}"
        )
    return float(seconds)


def _network(strength: dict[str, Any]) -> tuple[str, int]:
    """The run's directory (a leading `~` is the server's user's home) and the simulations a
    move of a "network" strength, checked to fit the player spec and the server's bounds."""
    directory = strength.get("directory")
    if not isinstance(directory, str) or not directory.strip():
        raise ValueError(
            "give the directory of a run of zerosum train (zerosum train GAME --out DIR),"
            " on the computer running the server"
        )
    directory = os.path.expanduser(directory.strip())
    if "," in directory or "=" in directory:
        raise ValueError(
            f"the run's directory {clipped_path(directory)} has a ',' or '=', which the player"
            " spec az:DIR,simulations=N cannot hold: rename the directory or link to it"
        )
    simulations = strength.get("simulations", SIMULATIONS)
    if not isinstance(simulations, int) or isinstance(simulations, bool):
        raise ValueError(
            f"the simulations a move must be a whole number, not {clipped(simulations)}"
        )
    check_budget("simulations", simulations, "the simulations a move")
    if simulations > MOST_ITERATIONS:
        raise ValueError(
            f"the page searches at most {MOST_ITERATIONS:,} simulations a move, not {simulations:,}"
        )
    return directory, simulations


def _refuse_code_of_another_game(directory: str, setup: registry.Setup) -> None:
    """ValueError when the run in `directory` learned a game of the user's own code
    (`FILE.py:CLASS`, `MODULE:CLASS`) other than `setup`'s, the one being played: its manifest
    names code, and the page never loads code named in a request (the command line names it:
    `zerosum serve --game`). Also a ValueError when there is no run there."""
    from zerosum.learn.training import read_manifest

    learned = str(read_manifest(directory).get("game"))
    spec = naming.GAME_SPEC.fullmatch(learned)
    named = spec["name"] if spec is not None else learned
    if ":" in named and not named.startswith(registry.OPENSPIEL) and learned != setup.name:
        raise ValueError(
            f"the run in {directory} learned {clipped(learned)}, a game of your own code that"
            " the page does not offer: name it with zerosum serve --game to play it here"
        )


def budget_text(strength: dict[str, Any]) -> str:
    """The program's budget in words ("1 s", "depth 6", "perfect play", "200 simulations"),
    for a strength `program_spec` has accepted."""
    if strength["kind"] == "perfect":
        return "perfect play"
    if strength["kind"] == "depth":
        return f"depth {strength['plies']}"
    if strength["kind"] == "network":
        return f"{strength.get('simulations', SIMULATIONS):,} simulations"
    return f"{strength['seconds']:g} s"


# -- what the page is shown ----------------------------------------------------------------


def first_player_bar(game: Game, state: Any, value: float, proven: bool = False) -> float:
    """`value`, for the player to move in `state` on the game's utility scale, as the
    evaluation bar shows it: for the first player (X, White), from -1 to 1. A `proven` result
    fills the bar to its winner's end (or leaves it even for a draw); an estimate is a share of
    the game's bounds (`value_bounds`), or for a game without bounds (chess, in pawns)
    `tanh(value / ESTIMATE_SCALE)`."""
    if proven:
        scaled = float((value > 0) - (value < 0))
    elif isinstance(game, Bounded) and math.isfinite(high := game.value_bounds()[1]) and high:
        scaled = value / high
    else:
        scaled = math.tanh(value / ESTIMATE_SCALE)
    if game.to_move(state) != 0:
        scaled = -scaled
    return max(-1.0, min(1.0, scaled)) + 0.0


def first_player_words(game: Game, state: Any, value: float, proven: bool = False) -> str:
    """What the evaluation bar's label says: `value` (for the player to move in `state`) for
    the first player, as a signed number on the game's own scale (pawns in chess), or who
    wins when it is `proven`."""
    first = value if game.to_move(state) == 0 else -value
    names = notation.player_names(game)
    if proven:
        return "a draw" if first == 0 else f"{names[0 if first > 0 else 1]} wins"
    return f"{first + 0.0:+.2f} for {names[0]}"


def result_of(game: Game, state: Any) -> dict[str, Any] | None:
    """The result of a finished game in words, and its winner (None for a draw); None while
    the game goes on."""
    if not game.is_terminal(state):
        return None
    names = notation.player_names(game)
    outcome = game.utility(state, 0)
    if outcome == 0:
        return {"text": "a draw", "winner": None}
    winner = 0 if outcome > 0 else 1
    return {"text": f"{names[winner]} wins", "winner": winner}


def iteration_message(game: Game, state: Any, iteration: Iteration) -> dict[str, Any]:
    """An engine iteration as the page shows it: its score in words (for the player to move,
    as `zerosum analyze` writes it), the bar for the first player, the line as move texts."""
    pv = notation.line_text(game, state, iteration.pv)
    best = iteration.best_move
    proven = decode(iteration.score, iteration.exact).proven
    return {
        "type": "iteration",
        "depth": iteration.depth,
        "score": describe_score(iteration),
        "bar": first_player_bar(game, state, iteration.value, proven),
        "bar_text": first_player_words(game, state, iteration.value, proven),
        "pv": pv,
        "best": pv[0] if pv else None,
        "target": None if best is None else _target(game, state, best),
        "nodes": iteration.nodes,
        "nps": iteration.nps,
        "seconds": round(iteration.seconds, 3),
        "exact": iteration.exact,
        "complete": iteration.complete,
    }


def mcts_message(game: Game, state: Any, report: MCTSResult) -> dict[str, Any]:
    """MCTS's root so far: each move's visits and mean value (for the player to move), most
    visited first; the bar for the first player."""
    moves = [
        {
            "text": notation.format_move(game, state, stats.move),
            "visits": stats.visits,
            "value": round(stats.value, 4),
            "proven": stats.proven,
            "target": _target(game, state, stats.move),
        }
        for stats in report.moves
    ]
    best = report.best_move
    return {
        "type": "mcts",
        "iterations": report.iterations,
        "nodes": report.nodes,
        "seconds": round(report.seconds, 3),
        "moves": moves,
        "best": notation.format_move(game, state, best),
        "target": _target(game, state, best),
        "bar": first_player_bar(game, state, report.value, report.proven),
        "bar_text": first_player_words(game, state, report.value, report.proven),
    }


def columns_message(game: Game, state: Any, scores: dict[int, int]) -> dict[str, Any]:
    """Connect Four's columns, each with its exact score for the player to move when the
    solver has proven it (in the test sets' convention: positive, the player to move wins,
    sooner the larger), else "not proven yet"; the bar for the first player once known."""
    from zerosum.solve.connect4 import describe_connect4

    values = []
    for column in game.legal_moves(state):
        score = scores.get(column)
        values.append(
            {
                "text": notation.format_move(game, state, column),
                "score": score,
                "note": "not proven yet"
                if score is None
                else describe_connect4(score, False, game.cells),  # type: ignore[attr-defined]
                "target": _target(game, state, column),
            }
        )
    known = len(scores) == len(values) or any(score > 0 for score in scores.values())
    best = max(scores.values()) if scores else 0
    bar = first_player_bar(game, state, best, proven=True) if known else None
    words = first_player_words(game, state, best, proven=True) if known else None
    return {"type": "columns", "values": values, "bar": bar, "bar_text": words}


def _target(game: Game, state: Any, move: Any) -> dict[str, Any]:
    return KINDS[kind_of(game)].target(game, state, move)


# -- one tab's game ------------------------------------------------------------------------


@dataclass
class Played:
    """A move of the game and the position it was played in."""

    before: Any
    move: Any


class PlaySession:
    """One websocket's game against the program (see the module). `handle(message)` answers a
    message from the page; `send(message)` is how the session talks to it; `close()` stops
    the search when the tab goes away."""

    def __init__(self, offered: dict[str, registry.GameEntry]) -> None:
        self.offered = offered
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()
        self.setup: registry.Setup | None = None
        self.played: list[Played] = []
        self.human = 0
        self.spec: PlayerSpec | None = None
        self.budget = ""
        self.program: Callable[[Any], Any] | None = None
        self.solver: ConnectFourExact | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.searcher: Any = None  # the engine, MCTS or solver searching now
        self.stopping = threading.Event()
        self.generation = 0  # a search started under an older one is forgotten
        self.searches = 0  # searches ended, whichever way
        self.searched: Any = None  # the position being searched

    # -- the page's messages --

    async def send(self, message: dict[str, Any]) -> None:
        """Queue `message` for the page (`deliver` sends the queue in order)."""
        self.outbox.put_nowait(message)

    async def deliver(self, send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        """Send every queued message, in order, with `send` (until cancelled)."""
        while True:
            await send(await self.outbox.get())

    async def receive(self, text: str) -> None:
        """Answer one message of the page, as the JSON text it sent."""
        if len(text) > MESSAGE_CHARACTERS:
            await self.send({"type": "error", "message": "the message is too long"})
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, a number of 4,300 digits, deep brackets
            await self.send({"type": "error", "message": "the message is not JSON"})
            return
        await self.handle(message)

    async def handle(self, message: object) -> None:
        """Answer one message from the page; a refused one gets an "error" message."""
        try:
            if not isinstance(message, dict):
                raise ValueError("a message is a JSON object with a type")
            kind = message.get("type")
            if kind == "new":
                await self.new_game(message)
            elif kind == "move":
                await self.person_moves(message.get("move"))
            elif kind == "undo":
                await self.take_back()
            elif kind == "stop":
                self.move_now()
            else:
                raise ValueError(f"unknown message type {clipped(kind)}: new, move, undo or stop")
        except ValueError as error:
            await self.send({"type": "error", "message": one_line(str(error))})

    async def new_game(self, message: dict[str, Any]) -> None:
        name, position = message.get("game"), message.get("position") or ""
        if not isinstance(name, str) or name not in self.offered:
            raise ValueError(
                f"unknown game {clipped(name)}: the page plays {', '.join(self.offered)}"
            )
        if not isinstance(position, str):
            raise ValueError("give the position as text in the game's notation")
        human = message.get("human", 0)
        if human not in (0, 1) or isinstance(human, bool):
            raise ValueError(f"the person plays seat 0 or 1, not {clipped(human)}")
        setup = playable_setup(name, position.strip())
        strength = message.get("strength")
        spec = program_spec(setup, strength)
        watch = Watch(self._started, self._iteration, self._progress)
        solver: ConnectFourExact | None = None
        if spec.kind == "solver" and registry.refers_to(setup.entry.solver, ConnectFourExact):
            # The solver scores every column; the engine moves where it has not proven them all.
            solver = ConnectFourExact(setup.game)  # type: ignore[arg-type]
            fallback = f"engine:time={FALLBACK_SECONDS},nodes={MOST_NODES}"
            program = make_player(
                parse_player(fallback), setup.game, Seat(setup.entry, watch=watch)
            )
        else:
            program = make_player(spec, setup.game, Seat(setup.entry, watch=watch))
        await self._forget_search()
        self.setup, self.played, self.human = setup, [], human
        self.spec, self.program, self.solver = spec, program, solver
        self.budget = budget_text(strength)  # type: ignore[arg-type]
        await self._go_on()

    async def person_moves(self, text: object) -> None:
        setup = self._playing()
        if not isinstance(text, str):
            raise ValueError("give the move as text")
        if self._busy():
            raise ValueError("the program is thinking: wait for its move, or press stop")
        state = self.state
        if setup.game.is_terminal(state):
            raise ValueError("the game is over: start a new one or take back")
        if setup.game.to_move(state) != self.human:
            raise ValueError("it is the program's turn")
        move = notation.parse_move(setup.game, state, text)
        if move not in setup.game.legal_moves(state):
            raise ValueError(f"{clipped(text)} is not a legal move here")
        self.played.append(Played(state, move))
        await self._go_on()

    async def take_back(self) -> None:
        """Undo the person's last move and the program's replies after it."""
        setup = self._playing()
        await self._forget_search()
        mine = [i for i, p in enumerate(self.played) if setup.game.to_move(p.before) == self.human]
        if not mine:
            raise ValueError("there is no move of yours to take back")
        del self.played[mine[-1] :]
        await self._go_on()

    def move_now(self) -> None:
        """Ask the program's search to end now: it plays the best move it has."""
        if self._busy():
            self.loop.create_task(self._halt())

    async def close(self) -> None:
        """The tab is gone: stop its search and wait for the worker thread to end."""
        await self._forget_search()

    # -- the game --

    @property
    def state(self) -> Any:
        assert self.setup is not None
        state = self.setup.state
        if self.played:
            last = self.played[-1]
            state = self.setup.game.result(last.before, last.move)
        return state

    def _playing(self) -> registry.Setup:
        if self.setup is None:
            raise ValueError("start a game first")
        return self.setup

    def _busy(self) -> bool:
        return self.thinking is not None and not self.thinking.done()

    async def _go_on(self) -> None:
        """Show the position; start the program's search when it is to move."""
        await self.send(self.position_message())
        assert self.setup is not None
        game, state = self.setup.game, self.state
        if not game.is_terminal(state) and game.to_move(state) != self.human:
            self.stopping.clear()
            self.thinking = self.loop.create_task(self._think(self.generation))

    def position_message(self) -> dict[str, Any]:
        setup = self.setup
        assert setup is not None
        game, state = setup.game, self.state
        over = game.is_terminal(state)
        persons = not over and game.to_move(state) == self.human
        last = self.played[-1].move if self.played else None
        kind = KINDS[kind_of(game)]
        moves = (
            [
                {
                    "text": notation.format_move(game, state, move),
                    "target": kind.target(game, state, move),
                }
                for move in game.legal_moves(state)
            ]
            if persons
            else []
        )
        return {
            "type": "position",
            "game": setup.name,
            "names": list(notation.player_names(game)),
            "human": [seat == self.human for seat in (0, 1)],
            "to_move": None if over else game.to_move(state),
            "record": [notation.format_move(game, p.before, p.move) for p in self.played],
            "start": setup.position,
            "result": result_of(game, state),
            "board": kind.board(game, state, last, self.human),
            "moves": moves,
            "can_undo": any(game.to_move(p.before) == self.human for p in self.played),
        }

    # -- the program's search --

    async def _think(self, generation: int) -> None:
        setup, spec = self.setup, self.spec
        assert setup is not None and spec is not None
        state = self.state
        left = spec.options.get("time")
        await self.send(
            {
                "type": "thinking",
                "player": {"az": "network"}.get(spec.kind, spec.kind),
                "budget": self.budget,
                "left": left,
            }
        )
        self.searched = state
        try:
            move = await self.loop.run_in_executor(None, self._choose, state)
        except ValueError as error:
            if generation == self.generation:
                await self.send({"type": "error", "message": one_line(str(error))})
            return
        except Exception as error:  # a fault in a game's own code: one line, not a traceback
            # The page gets one line; the terminal running the server, the whole story.
            LOG.exception("the program's search failed in %s", setup.name)
            if generation == self.generation:
                failed = f"the program's search failed: {type(error).__name__}: {error}"
                await self.send({"type": "error", "message": one_line(failed)})
            return
        finally:
            self.searches += 1
        if generation != self.generation:  # a new game, a take-back or a closed tab
            return
        self.played.append(Played(state, move))
        await self._go_on()

    def _choose(self, state: Any) -> Any:
        """The program's move in `state` (in the worker thread)."""
        assert self.setup is not None and self.program is not None
        if self.solver is not None:
            move = self._solved_move(state)
            if move is not None:
                return move
        return self.program(state)

    def _solved_move(self, state: Any) -> Any:
        """Connect Four with the solver on: each column's score, sent as it is proven; the
        best column once all are (or one is a proven win), else None: the server's budget ran
        out first, and the engine answers."""
        assert self.setup is not None and self.solver is not None
        game, solver = self.setup.game, self.solver
        self._started(solver)
        proven: dict[int, int] = {}

        def found(column: int, score: int) -> None:
            proven[column] = score
            self._emit(columns_message(game, state, proven))

        self._emit(columns_message(game, state, proven))
        scores = solver.scored_moves(state, SOLVER_NODES, found)
        columns = list(game.legal_moves(state))
        best = max(scores, key=lambda column: scores[column], default=None)
        if best is None:
            return None  # the engine answers, within the server's bounds
        # Every column proven, or a proven win (the quickest win may be among the others), or
        # the person's "move now": the best column proven.
        if len(scores) == len(columns) or scores[best] > 0 or self.stopping.is_set():
            return best
        return None

    def _started(self, searcher: Any) -> None:
        self.searcher = searcher
        if self.stopping.is_set():
            searcher.stop()

    def _iteration(self, iteration: Iteration) -> None:
        assert self.setup is not None
        self._emit(iteration_message(self.setup.game, self.searched, iteration))

    def _progress(self, report: MCTSResult) -> None:
        assert self.setup is not None
        self._emit(mcts_message(self.setup.game, self.searched, report))

    def _emit(self, message: dict[str, Any]) -> None:
        """Send `message` from the worker thread, through the event loop."""
        generation = self.generation

        def send() -> None:
            if generation == self.generation:
                self.outbox.put_nowait(message)

        self.loop.call_soon_threadsafe(send)

    async def _halt(self) -> None:
        """Stop the running search, and wait for its thread to end."""
        task = self.thinking
        if task is None:
            return
        self.stopping.set()
        while not task.done():
            searcher = self.searcher
            if searcher is not None:
                searcher.stop()
            await asyncio.wait({task}, timeout=STOP_AGAIN)

    async def _forget_search(self) -> None:
        """Stop the running search and forget its move (a new game, a take-back, a closed tab)."""
        self.generation += 1
        await self._halt()
        self.searcher = None
