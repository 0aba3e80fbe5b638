"""`zerosum uci`: the chess engine behind the Universal Chess Interface, for a GUI, lichess-bot
or `chess.engine`.

`UciSession` reads one command line at a time (`handle`) and writes its answers through a
`write` function, so that it runs on stdin/stdout (`serve`) or in a test. A `go` searches in
a worker thread: `isready` is answered and `stop` honoured while it thinks. Unknown or
malformed commands are ignored (a malformed one with an `info string` saying why).

Beside the search: with `OwnBook` and a readable `BookFile`, a weighted move from a Polyglot
book; with a `SyzygyPath`, the tables' best move in any position they hold (by distance to
zeroing), and inside the search the positions they hold scored from them
(`zerosum.games.chess.syzygy`).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time as clock
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

import chess
import chess.polyglot
import chess.syzygy

from zerosum.games.chess import WIN, Chess, Position
from zerosum.games.chess.syzygy import Syzygy
from zerosum.search.engine import Engine, Iteration
from zerosum.search.scores import decode
from zerosum.search.table import DEFAULT_MEGABYTES

NAME = "zerosum"
AUTHOR = "the zerosum authors"

MARGIN = 0.1
"""Seconds kept back from every budget for the engine's overshoot and the GUI's lag: from a
fixed `movetime`, a tenth of it when that is less (a short movetime would otherwise be mostly
margin)."""

MOVES_TO_GO = 30
"""The moves the remaining time is shared among when the time control does not say."""

LEAST_TIME = 0.01
"""The smallest budget: the first iteration always finishes anyway."""


def think_time(limits: dict[str, int], white: bool) -> float | None:
    """The seconds to think for `go` with `limits` (in ms), or None when the clock is not used."""
    if "movetime" in limits:
        seconds = limits["movetime"] / 1000
        return max(LEAST_TIME, seconds - min(MARGIN, seconds / 10))
    remaining = limits.get("wtime" if white else "btime")
    if remaining is None:
        return None
    increment = limits.get("winc" if white else "binc", 0) / 1000
    seconds = remaining / 1000
    share = seconds / max(1, limits.get("movestogo", MOVES_TO_GO)) + increment * 0.75
    return max(LEAST_TIME, min(share, seconds * 0.4) - MARGIN)


def uci_score(iteration: Iteration) -> str:
    """`cp N` or `mate N` (negative when mated) for the player to move."""
    decoded = decode(iteration.score)
    if decoded.proven and abs(decoded.value) == WIN and decoded.plies is not None:
        moves = (decoded.plies + 1) // 2
        return f"mate {moves if decoded.value > 0 else -moves}"
    return f"cp {round(decoded.value * 100)}"


@dataclass
class Options:
    """The options a GUI can set."""

    hash_mb: int = int(DEFAULT_MEGABYTES)
    own_book: bool = False
    book_file: str = ""
    syzygy_path: str = ""


class UciSession:
    """One conversation with a GUI: its position, options, engine and running search."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self.game = Chess()
        self.options = Options()
        self.syzygy: Syzygy | None = None
        self.engine = self._new_engine()
        self.position = self.game.initial_state()
        self.worker: threading.Thread | None = None
        self.release = threading.Event()  # set by `stop`: an infinite search may answer

    def send(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def handle(self, line: str) -> bool:
        """Obey one command line; False after `quit`."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            self.stop()
            return False
        handler = self.COMMANDS.get(command)
        if handler is not None:
            try:
                handler(self, args)
            except ValueError as error:
                self.send(f"info string ignored {line.strip()!r}: {error}")
        return True

    # -- the commands ---------------------------------------------------------------------

    def uci(self, args: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        self.send(f"option name Hash type spin default {self.options.hash_mb} min 1 max 4096")
        self.send("option name OwnBook type check default false")
        self.send("option name BookFile type string default <empty>")
        self.send("option name SyzygyPath type string default <empty>")
        self.send("uciok")

    def isready(self, args: list[str]) -> None:
        self.send("readyok")

    def ucinewgame(self, args: list[str]) -> None:
        self.stop()
        self.engine.clear()
        self.position = self.game.initial_state()

    def setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            raise ValueError("expected setoption name NAME [value VALUE]")
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if value == "<empty>":
            value = ""
        self.stop()
        if name == "hash":
            megabytes = int(value)
            if megabytes < 1:
                raise ValueError("Hash must be at least 1")
            self.options.hash_mb = megabytes
            self.engine = self._new_engine()
        elif name == "ownbook":
            self.options.own_book = value.lower() == "true"
        elif name == "bookfile":
            self.options.book_file = value
        elif name == "syzygypath":
            self.options.syzygy_path = value
            if self.syzygy is not None:
                self.syzygy.close()
            self.syzygy = self._open_tablebase(value) if value else None
            self.engine = self._new_engine()
        else:
            raise ValueError(f"no option {name!r}")

    def position_command(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected startpos or fen")
        moves_at = args.index("moves") if "moves" in args else len(args)
        if args[0] == "startpos":
            fen = "startpos"
        elif args[0] == "fen":
            fen = " ".join(args[1:moves_at])
        else:
            raise ValueError("expected startpos or fen")
        position = self.game.parse_state(fen)
        for text in args[moves_at + 1 :]:
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                raise ValueError(f"{text!r} is not a UCI move") from None
            if move not in position.legal_moves():
                raise ValueError(f"{text} is not legal in {position.board.fen()}")
            position = position.play(move)
        self.stop()
        self.position = position

    def go(self, args: list[str]) -> None:
        limits: dict[str, int] = {}
        infinite = False
        for index, word in enumerate(args):
            if word == "infinite":
                infinite = True
            elif word in ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc",
                          "movestogo") and index + 1 < len(args):  # fmt: skip
                limits[word] = int(args[index + 1])
        self.stop()
        self.release.clear()
        self.worker = threading.Thread(
            target=self._think, args=(self.position, limits, infinite), daemon=True
        )
        self.worker.start()

    def stop(self, args: list[str] | None = None) -> None:
        """End the running search, if any; it answers with its best move."""
        self.release.set()
        while self.worker is not None and self.worker.is_alive():
            self.engine.stop()  # again, in case the worker had not started searching yet
            self.worker.join(0.01)
        self.worker = None

    COMMANDS: dict[str, Callable[[UciSession, list[str]], None]] = {
        "uci": uci,
        "isready": isready,
        "ucinewgame": ucinewgame,
        "setoption": setoption,
        "position": position_command,
        "go": go,
        "stop": stop,
    }

    # -- thinking -------------------------------------------------------------------------

    def _think(self, position: Position, limits: dict[str, int], infinite: bool) -> None:
        """Find a move, report it, and (for `go infinite`) wait for `stop` before answering."""
        move = self._table_move(position) or self._book_move(position)
        if move is None and position.legal_moves():
            move = self._search(position, limits, infinite)
        if infinite:
            self.release.wait()
        self.send(f"bestmove {'0000' if move is None else move.uci()}")

    def _search(self, position: Position, limits: dict[str, int], infinite: bool) -> chess.Move:
        start = clock.perf_counter()
        nodes = 0
        hits = self.engine.tablebase_hits

        def report(iteration: Iteration) -> None:
            nonlocal nodes
            nodes += iteration.nodes
            elapsed = clock.perf_counter() - start
            pv = " ".join(move.uci() for move in iteration.pv)
            nps = int(nodes / elapsed) if elapsed > 0 else 0
            tbhits = f" tbhits {self.engine.tablebase_hits - hits}" if self.syzygy else ""
            self.send(
                f"info depth {iteration.depth} score {uci_score(iteration)} nodes {nodes}"
                f" nps {nps}{tbhits} time {int(elapsed * 1000)} pv {pv}"
            )

        time = None if infinite else think_time(limits, position.board.turn == chess.WHITE)
        result = self.engine.search(
            position,
            depth=None if infinite else limits.get("depth"),
            time=time,
            nodes=None if infinite else limits.get("nodes"),
            on_iteration=report,
        )
        # a claimable draw (a repetition) is over for the search, not for the GUI
        return result.best_move if result.best_move is not None else position.legal_moves()[0]

    def _book_move(self, position: Position) -> chess.Move | None:
        """A weighted random move of the book for `position`, when a book is in use."""
        if not self.options.own_book or not self.options.book_file:
            return None
        try:
            with chess.polyglot.open_reader(self.options.book_file) as reader:
                entry = reader.weighted_choice(position.board)
        except IndexError:  # the position is not in the book
            return None
        except OSError as error:
            self.send(f"info string book {self.options.book_file!r} unreadable: {error}")
            return None
        if entry.move not in position.legal_moves():
            return None
        self.send(f"info string book move {entry.move.uci()}")
        return entry.move

    def _new_engine(self) -> Engine:
        """An engine with the options' table size and Syzygy tables."""
        return Engine(self.game, table_mb=self.options.hash_mb, tablebase=self.syzygy)

    def _open_tablebase(self, path: str) -> Syzygy | None:
        """The Syzygy tables in the directories of `path` (separated by the OS path separator)."""
        try:
            return Syzygy.open(path)
        except ValueError as error:
            self.send(f"info string SyzygyPath {error}")
            return None

    def _table_move(self, position: Position) -> chess.Move | None:
        """The tables' best move: the quickest safe win, the longest loss, or a draw."""
        if self.syzygy is None:
            return None
        found = self.syzygy.best_move(position)
        if found is None:
            return None
        move, wdl = found
        self.send(f"info string syzygy move {move.uci()} wdl {wdl}")
        return move


def serve(lines: IO[str] = sys.stdin, output: IO[str] = sys.stdout) -> int:
    """Hold a UCI conversation on `lines` and `output` until `quit` or the end of input."""

    def write(line: str) -> None:
        output.write(line + "\n")
        output.flush()

    session = UciSession(write)
    for line in lines:
        if not session.handle(line):
            return 0
    session.stop()
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "uci",
        help="run the chess engine for a UCI GUI",
        description=(
            "Speak the Universal Chess Interface on standard input and output, for a chess GUI,"
            " lichess-bot or python-chess's chess.engine. Options: Hash (MB), OwnBook with"
            " BookFile (a Polyglot book), SyzygyPath (Syzygy tables)."
        ),
    )
    parser.set_defaults(run=lambda args: serve())
