"""The Play page's server side: a game against the program over one websocket, the program's
thinking streamed to the page while it searches.

`PlaySession` holds one tab's game: the game (by a name the server offers: `offered_games`),
the position it started from, the moves played, which seat the person has and the program's
player, built by `zerosum.players` from the strength the page asks for (`program_spec`) and
watched as it thinks (`zerosum.players.Watch`). A search runs in a worker thread of the
server's (`zerosum.web.slots.SearchSlots`: a few at once, the others waiting in line, told their
place), one at a time per connection; what it reports on the way (an engine iteration, MCTS's
root moves, Connect Four's proven columns) is handed to the event loop, which sends it. Every
search is bounded by the server (`MOST_SECONDS`, `MOST_NODES`, `MOST_ITERATIONS`,
`SOLVER_NODES`, a table of `TABLE_MB`), whatever the page asks; "stop" makes the program move
now, and a closed tab stops its search. Every input is read by the library's own parsers; a
refused one is an "error" message of one line.

A trained network plays as the `az:DIR` player (the strength "network"): the page names a run
of `zerosum train` by its directory on the server's computer, read when the game starts, so a
directory without a run, or a run of another game, is refused before the first move.

This module holds the session and names the page's other parts: the games offered and the
program's strength in them are in `zerosum.web.offer`, the messages about a search (and the
evaluation bar) in `zerosum.web.thinking`.

The messages are described in docs/web.md (the Play page's protocol).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from zerosum import notation, registry
from zerosum.limits import clipped, one_line
from zerosum.players import PlayerSpec, Seat, Watch, make_player, parse_player
from zerosum.search.deepening import Iteration
from zerosum.search.mcts import MCTSResult
from zerosum.solve.connect4 import ConnectFourExact
from zerosum.web.boards import KINDS, kind_of
from zerosum.web.offer import MOST_ITERATIONS as MOST_ITERATIONS
from zerosum.web.offer import MOST_NODES, budget_text, playable_setup, program_spec
from zerosum.web.offer import MOST_SECONDS as MOST_SECONDS
from zerosum.web.offer import Preset as Preset
from zerosum.web.offer import games_message as games_message
from zerosum.web.offer import network_preset as network_preset
from zerosum.web.offer import offered_games as offered_games
from zerosum.web.slots import SearchSlots
from zerosum.web.thinking import ESTIMATE_SCALE as ESTIMATE_SCALE
from zerosum.web.thinking import columns_message, iteration_message, mcts_message, result_of
from zerosum.web.thinking import first_player_bar as first_player_bar
from zerosum.web.thinking import first_player_words as first_player_words

SOLVER_NODES = 20_000_000
"""The most nodes of the Connect Four solver's scores of the columns of one position: 4 to 5
seconds compiled, what a person waits for a move; a column the solver has not proven by then
is "not proven yet" (what it proved stays in its table, and the later moves go quicker)."""

FALLBACK_SECONDS = 1.0
"""Seconds the engine thinks in Connect Four with the solver on, when the solver has not
proven every column within `SOLVER_NODES`: early in the game, the move is the engine's."""

TABLE_MB = 16.0
"""The megabytes of the transposition table of a tab's engine (or Connect Four's solver): the
server holds `zerosum.web.slots.MOST_CONNECTIONS` tabs, so their tables stay within 1.6 GB."""

MESSAGE_CHARACTERS = 100_000
"""The longest message read from the page (a position in any game's notation is far shorter)."""

LOG = logging.getLogger(__name__)
"""Where a fault in a game's own code is told in full: the terminal running the server."""

STOP_AGAIN = 0.05
"""Seconds between two stop requests to a search asked to stop: a request made as it starts
(before it clears its flag) is made again."""


@dataclass
class Played:
    """A move of the game and the position it was played in."""

    before: Any
    move: Any


class PlaySession:
    """One websocket's game against the program (see the module). `handle(message)` answers a
    message from the page; `send(message)` is how the session talks to it; `close()` stops
    the search when the tab goes away."""

    def __init__(
        self, offered: dict[str, registry.GameEntry], slots: SearchSlots | None = None
    ) -> None:
        self.offered = offered
        self.slots = SearchSlots() if slots is None else slots
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
        self.searches = 0  # searches whose thread has ended, whichever way
        self.searched: Any = None  # the position being searched
        self.in_line = False  # the search waits for one of the server's slots

    # -- the page's messages --

    async def send(self, message: dict[str, Any]) -> None:
        """Queue `message` for the page (`deliver` sends the queue in order)."""
        self.outbox.put_nowait(message)

    async def deliver(self, send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        """Send every queued message, in order, with `send` (until cancelled)."""
        while True:
            await send(await self.outbox.get())

    async def receive(self, text: str | bytes | None) -> None:
        """Answer one message of the page, as the JSON text it sent (a binary frame, bytes,
        is refused)."""
        if not isinstance(text, str):
            await self.send({"type": "error", "message": "a message is JSON text, not binary"})
            return
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
        strength = message.get("strength")
        # Reading the position and making the program (its table, its compiled search) take
        # a while: in a thread, so that the server goes on answering the other tabs meanwhile.
        setup, spec, program, solver = await asyncio.to_thread(
            self._program, name, position.strip(), strength
        )
        await self._forget_search()
        self.setup, self.played, self.human = setup, [], human
        self.spec, self.program, self.solver = spec, program, solver
        self.budget = budget_text(strength)  # type: ignore[arg-type]
        await self._go_on()

    def _program(
        self, name: str, position: str, strength: object
    ) -> tuple[registry.Setup, PlayerSpec, Callable[[Any], Any], ConnectFourExact | None]:
        """The game, the program's spec, its player and Connect Four's solver (or None) for a
        new game; ValueError for a position or a strength refused."""
        setup = playable_setup(name, position)
        spec = program_spec(setup, strength)
        watch = Watch(self._started, self._iteration, self._progress)
        engine_seat = Seat(setup.entry, table_mb=TABLE_MB, watch=watch)
        if spec.kind == "solver" and registry.refers_to(setup.entry.solver, ConnectFourExact):
            # The solver scores every column; the engine moves where it has not proven them all.
            solver = ConnectFourExact(setup.game, TABLE_MB)  # type: ignore[arg-type]
            fallback = parse_player(f"engine:time={FALLBACK_SECONDS},nodes={MOST_NODES}")
            return setup, spec, make_player(fallback, setup.game, engine_seat), solver
        seat = engine_seat if spec.kind == "engine" else Seat(setup.entry, watch=watch)
        return setup, spec, make_player(spec, setup.game, seat), None

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
        """Ask the program's search to end now: it plays the best move it has (a search
        waiting in line for a slot ends as soon as it starts)."""
        if self._busy():
            self.loop.create_task(self._halt(leave_line=False))

    async def close(self) -> None:
        """The tab is gone: stop its search, wait for the worker thread to end, and let go of
        the program (its table's memory is free at once, not at the next garbage collection:
        the program's callbacks and the session refer to each other)."""
        await self._forget_search()
        self.program = self.solver = self.searcher = self.thinking = None

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
                    "move": notation.format_move(game, state, move),
                    "place": kind.target(game, state, move),
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
            "position": setup.position,
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

        async def wait(place: int) -> None:
            self.in_line = True
            most = self.slots.most
            await self.send(
                {
                    "type": "waiting",
                    "place": place,
                    "searches": most,
                    "text": f"the server runs {most} search{'es' * (most > 1)} at once:"
                    f" the program waits for one to end ({place} in line)",
                }
            )

        async def begin() -> None:
            self.in_line = False
            self.searched = state
            await self.send(
                {
                    "type": "thinking",
                    "player": {"az": "network"}.get(spec.kind, spec.kind),
                    "budget": self.budget,
                    "seconds_left": spec.options.get("time"),
                }
            )

        try:
            move = await self.slots.run(lambda: self._choose(state), wait, begin)
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
            self.in_line = False
        if generation != self.generation:  # a new game, a take-back or a closed tab
            return
        self.played.append(Played(state, move))
        await self._go_on()

    def _choose(self, state: Any) -> Any:
        """The program's move in `state` (in the worker thread)."""
        assert self.setup is not None and self.program is not None
        try:
            if self.solver is not None:
                move = self._solved_move(state)
                if move is not None:
                    return move
            return self.program(state)
        finally:
            self.searches += 1

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

    async def _halt(self, leave_line: bool = True) -> None:
        """Stop the running search, and wait for its thread to end; a search waiting in line
        for a slot leaves it, when `leave_line`, or else ends as soon as it starts."""
        task = self.thinking
        if task is None:
            return
        self.stopping.set()
        while not task.done():
            if leave_line and self.in_line:
                task.cancel()
            searcher = self.searcher
            if searcher is not None:
                searcher.stop()
            await asyncio.wait({task}, timeout=STOP_AGAIN)

    async def _forget_search(self) -> None:
        """Stop the running search and forget its move (a new game, a take-back, a closed tab)."""
        self.generation += 1
        await self._halt()
        self.searcher = None
