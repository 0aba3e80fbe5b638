"""`zerosum uci`: the chess engine behind the Universal Chess Interface, for a GUI, lichess-bot
or `chess.engine`.

`UciSession` reads one command line at a time (`handle`) and writes its answers through a
`write` function, so that it runs on stdin/stdout (`serve`) or in a test. A `go` searches in
a worker thread: `isready` is answered and `stop` honoured while it thinks.

Every input is answered or refused, and the conversation goes on to `quit`:

- every `go` gets exactly one `bestmove`, a legal move (`0000`, the null move, where the game
  is over), whatever its limits say: a budget that is not a whole number, missing, or less than
  the least is the least (`depth 1`, `nodes 1`, no time), a depth beyond `MOST_DEPTH` is
  `MOST_DEPTH`, and each such change is said in an `info string`; a search that fails still
  answers (with the best move found so far) after an `info string` naming the failure;
- a refused option value (`Hash` not a whole number of megabytes in 1..`MOST_HASH_MB`, an
  `OwnBook` neither true nor false, a `BookFile` that is not a Polyglot book, a `SyzygyPath`
  without tables, an unknown option) is an `info string`, and the option keeps its value;
- unknown words are skipped (a line is read from its first known command on, as the protocol
  asks); a malformed command is an `info string` that quotes the input cut to 80 characters;
  `serve` reads bytes (invalid UTF-8 is replaced, never fatal) and skips a line longer than
  `LONGEST_LINE` bytes without holding it in memory.

Beside the search: with `OwnBook` and a readable `BookFile`, a weighted move from a Polyglot
book; with a `SyzygyPath`, the tables' best move in any position they hold (by distance to
zeroing), and inside the search the positions they hold scored from them
(`zerosum.games.chess.syzygy`). A folder holding our own tables (`zerosum tablebase build
chess`) is read in place of Syzygy's: their move is the quickest mate, and the search scores
mates by their distance (`zerosum.solve.chess_tables`).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import time as clock
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import chess
import chess.polyglot
import chess.syzygy

from zerosum.cli.lines import bounded_line
from zerosum.compiled import choice
from zerosum.compiled.choice import IMPLEMENTATIONS
from zerosum.games.chess import WIN, Chess, Position
from zerosum.games.chess.syzygy import Syzygy
from zerosum.limits import Limit, clipped, clipped_path, one_line
from zerosum.search.deepening import Iteration
from zerosum.search.engine import Engine
from zerosum.search.scores import decode
from zerosum.search.table import DEFAULT_MEGABYTES
from zerosum.solve.chess_tables import ChessTables, endgame_tables

NAME = "zerosum"
AUTHOR = "the zerosum authors"

MARGIN = 0.1
"""Seconds kept back from every budget for the engine's overshoot and the GUI's lag: from a
fixed `movetime`, a tenth of it when that is less (a short movetime would otherwise be mostly
margin)."""

MOVES_TO_GO = 20
"""The moves the remaining time is shared among when the time control does not say (each share
shrinks with the clock, so the clock is never spent; with 30 the engine left time unused, 0.21 s
a move against Stockfish's 0.28 at 10 s + 0.1 s)."""

LEAST_TIME = 0.01
"""The smallest budget: the first iteration always finishes anyway."""

MOST_DEPTH = 100
"""The deepest `go depth` searched; deeper is searched to this depth. The engine reaches depth
9 to 20 in 30 seconds in endgames of three to six pieces (about 10,000 nodes a second), so 100
plies is never reached in hours, while a line of 100 plies (twice that with check extensions,
and quiescence's 16 more) stays far below Python's recursion limit of 1,000 frames."""

MOST_HASH_MB = 4096
"""The largest `Hash`, in megabytes: 16.7 million entries of 256 bytes, what the engine fills
in about half an hour of search at 10,000 nodes a second."""

PLIES = Limit(
    "moves in a position command",
    20_000,
    "the longest game the rules allow has 17,697 plies",
    liftable=False,
)
"""The most moves a `position` command plays (the longest game under the 75-move and fivefold
rules, 8,848 moves and a half, rounded up); 20,000 moves that never capture or move a pawn,
whose repetitions are counted at every move, take 3.5 seconds here."""

LONGEST_LINE = 1 << 20
"""The longest command line `serve` reads, in bytes: a position command of `PLIES` moves takes
120 kB. A longer line is skipped (read in pieces, never held whole) with an `info string`."""

SATURATED = 10**18
"""Where whole numbers of `go` stop counting: a budget this large is already no budget."""

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")

LIMIT_WORDS = ("depth", "nodes", "mate", "movetime", "wtime", "btime", "winc", "binc",
               "movestogo")  # fmt: skip
"""The words of `go` that take a number."""

GO_WORDS = (*LIMIT_WORDS, "infinite", "searchmoves")
"""The words `go` knows; any other is skipped with an `info string`."""

LEAST = {"depth": 1, "nodes": 1, "mate": 1, "movetime": 0, "wtime": 0, "btime": 0, "winc": 0,
         "binc": 0, "movestogo": 1}  # fmt: skip
"""The least value of each limit of `go`: the least budget (or no increment)."""

MOST = {"depth": MOST_DEPTH, "mate": (MOST_DEPTH + 1) // 2}
"""The greatest value of the limits that have one (a mate in N moves is searched 2N-1 plies)."""


def whole_number(text: str) -> int | None:
    """The integer `text` writes in ASCII digits with an optional sign, at most `SATURATED` in
    size (a longer one is taken as that); None when `text` is not one."""
    if not _WHOLE_NUMBER.fullmatch(text):
        return None
    if len(text.lstrip("+-")) > 18:
        return -SATURATED if text.startswith("-") else SATURATED
    return int(text)


def _number_text(text: str) -> str:
    """A whole number as a message shows it: as written, or by its number of digits."""
    digits = text.lstrip("+-")
    if len(digits) <= 20:
        return text
    return f"{text[: len(text) - len(digits)]}(a number of {len(digits):,} digits)"


@dataclass(frozen=True)
class Go:
    """What a `go` command asks: its `limits` (each within its least and most), whether it is
    `infinite`, and the `notes` that say what was changed or skipped to make it so."""

    limits: dict[str, int]
    infinite: bool
    notes: tuple[str, ...]


def read_go(args: list[str]) -> Go:
    """The search that `go ARGS` asks for; never an error: an unreadable or out-of-range limit
    is the nearest one allowed, an unknown word is skipped, and each is noted."""
    limits: dict[str, int] = {}
    notes: dict[str, str] = {}
    unknown: list[str] = []
    infinite = False
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "infinite":
            infinite = True
        elif word == "searchmoves":  # its moves are every word up to the next limit
            while index < len(args) and args[index] not in GO_WORDS:
                index += 1
            notes[word] = "searchmoves is not supported: every move is searched"
        elif word in LIMIT_WORDS:
            text = args[index] if index < len(args) and args[index] not in GO_WORDS else ""
            index += text != ""
            limits[word], note = _limit(word, text)
            notes.pop(word, None)  # the last value of a word repeated stands
            if note:
                notes[word] = note
        else:
            unknown.append(word)
    if "mate" in limits:  # a mate in N moves is within 2N-1 plies
        limits["depth"] = min(limits.get("depth", MOST_DEPTH), 2 * limits.pop("mate") - 1)
    if unknown:
        more = f" and {len(unknown) - 1:,} more" if len(unknown) > 1 else ""
        notes[""] = f"go skipped {clipped(unknown[0])}{more}: not a word of go"
    return Go(limits, infinite, tuple(notes.values()))


def _limit(word: str, text: str) -> tuple[int, str]:
    """The value of the limit `word` written `text`, brought within its least and most, and a
    note saying how it was changed ("" when it was not)."""
    least, most = LEAST[word], MOST.get(word)
    number = whole_number(text)
    if number is None:
        written = f"{clipped(text)} is not a whole number" if text else "has no value"
        return least, f"{word} {written}: taken as {least}"
    if number < least:
        return least, f"{word} {_number_text(text)} is less than {least}: taken as {least}"
    if most is not None and number > most:
        return most, f"{word} {_number_text(text)} is over the limit of {most}: taken as {most}"
    return number, ""


def think_time(limits: dict[str, int], white: bool) -> float | None:
    """The seconds to think for `go` with `limits` (in ms), or None when the clock is not used."""
    if "movetime" in limits:
        seconds = max(0, limits["movetime"]) / 1000
        return max(LEAST_TIME, seconds - min(MARGIN, seconds / 10))
    remaining = limits.get("wtime" if white else "btime")
    if remaining is None:
        return None
    increment = max(0, limits.get("winc" if white else "binc", 0)) / 1000
    seconds = max(0, remaining) / 1000
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


def check_book(path: str) -> None:
    """ValueError unless `path` is a Polyglot book that holds at least one move."""
    if not os.path.isfile(path):
        raise ValueError(f"BookFile {clipped_path(path)} is not a file")
    try:
        with chess.polyglot.open_reader(path) as reader:
            entries = len(reader)
    except OSError as error:  # python-chess says "invalid file size" without an errno
        reason = error.strerror or "not a Polyglot book (its size is not a multiple of 16 bytes)"
        raise ValueError(f"BookFile {clipped_path(path)} unreadable: {reason}") from None
    if not entries:
        raise ValueError(f"BookFile {clipped_path(path)} holds no moves")


class UciSession:
    """One conversation with a GUI: its position, options, engine and running search."""

    def __init__(self, write: Callable[[str], None], impl: str | None = None) -> None:
        """A conversation written to by `write`, searched by the engine `impl` names (the
        compiled one by default, `zerosum.compiled.choice`)."""
        self._write = write
        self._lock = threading.Lock()
        self.game = Chess()
        self.impl = choice.implementation(self.game, impl)  # ValueError for a bad one
        self.options = Options()
        self.syzygy: Syzygy | ChessTables | None = None
        self._engine: Any = None  # made when first needed: `isready` waits for it
        self._making = threading.Lock()
        self.position = self.game.initial_state()
        self.worker: threading.Thread | None = None
        self.release = threading.Event()  # set by `stop`: an infinite search may answer
        self.infinite = False  # whether the running search is a `go infinite`
        self.best_so_far: chess.Move | None = None  # of the running search's last iteration

    def send(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def note(self, text: str) -> None:
        """Say `text` to the GUI as an `info string`: one line, at most 400 characters."""
        self.send(f"info string {one_line(' '.join(text.split()))}")

    def handle(self, line: str) -> bool:
        """Obey one command line; False after `quit`. Words before the first known command are
        skipped (so is a line without one), and so is a line longer than `LONGEST_LINE`; no
        input raises."""
        size = len(line) - line.endswith("\n")  # its end not counted
        if size > LONGEST_LINE:
            self.note(
                f"skipped a line of {size:,} characters: the longest read is {LONGEST_LINE:,}"
            )
            return True
        words = line.split()
        start = next((at for at, word in enumerate(words) if word in self.COMMANDS), None)
        if start is None:
            return True
        command, args = words[start], words[start + 1 :]
        if command == "quit":
            self.stop()
            return False
        try:
            self.COMMANDS[command](self, args)
        except ValueError as error:
            self.note(f"ignored {clipped(line.strip())}: {error}")
        except Exception as error:  # a fault of the engine's: said, and the conversation goes on
            self.note(f"failed on {clipped(line.strip())}: {type(error).__name__}: {error}")
        return True

    # -- the commands ---------------------------------------------------------------------

    def uci(self, args: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        self.send(
            f"option name Hash type spin default {int(DEFAULT_MEGABYTES)} min 1 max {MOST_HASH_MB}"
        )
        self.send("option name OwnBook type check default false")
        self.send("option name BookFile type string default <empty>")
        self.send("option name SyzygyPath type string default <empty>")
        self.send("uciok")

    @property
    def engine(self) -> Any:
        """The engine, made (and the compiled one loaded, compiled the first time) when first
        asked for: `uci` is answered at once, `isready` once the engine can search."""
        with self._making:  # the worker and `stop` may both ask first
            if self._engine is None:
                self._engine = self._new_engine(self.options.hash_mb)
        return self._engine

    @engine.setter
    def engine(self, engine: Any) -> None:
        self._engine = engine

    def isready(self, args: list[str]) -> None:
        self.engine  # noqa: B018 (made now: the GUI waits for readyok, not for its first move)
        self.send("readyok")

    def ucinewgame(self, args: list[str]) -> None:
        self.stop()
        self.engine.clear()
        self.position = self.game.initial_state()

    def setoption(self, args: list[str]) -> None:
        """Set one option; a value refused (ValueError) leaves the option as it was."""
        if not args or args[0] != "name" or len(args) < 2 or args[1] == "value":
            raise ValueError("expected setoption name NAME [value VALUE]")
        value_at = args.index("value") if "value" in args else len(args)
        name = " ".join(args[1:value_at]).lower()
        value = " ".join(args[value_at + 1 :])
        if value == "<empty>":
            value = ""
        if name == "hash":
            megabytes = whole_number(value)
            if megabytes is None or not 1 <= megabytes <= MOST_HASH_MB:
                raise ValueError(
                    f"Hash is a whole number of megabytes from 1 to {MOST_HASH_MB:,}, not"
                    f" {clipped(value)}; Hash stays {self.options.hash_mb}"
                )
            self.stop()
            try:
                engine = self._new_engine(megabytes)
            except ValueError as error:  # more than this machine's memory
                raise ValueError(f"{error}; Hash stays {self.options.hash_mb}") from None
            self.options.hash_mb, self.engine = megabytes, engine
        elif name == "ownbook":
            if value.lower() not in ("true", "false"):
                own = str(self.options.own_book).lower()
                raise ValueError(
                    f"OwnBook is true or false, not {clipped(value)}; OwnBook stays {own}"
                )
            self.options.own_book = value.lower() == "true"
        elif name == "bookfile":
            if value:
                try:
                    check_book(value)
                except ValueError as error:
                    raise ValueError(f"{error}; {self._kept('BookFile')}") from None
            self.options.book_file = value
        elif name == "syzygypath":
            try:
                syzygy = endgame_tables(value) if value else None
            except ValueError as error:
                kept = self._kept("SyzygyPath")
                raise ValueError(f"SyzygyPath {one_line(str(error))}; {kept}") from None
            self.stop()
            if self.syzygy is not None:
                self.syzygy.close()
            self.options.syzygy_path, self.syzygy = value, syzygy
            if self.impl == "python":  # its search reads them
                self.engine = self._new_engine(self.options.hash_mb)
        else:
            raise ValueError(f"no option {clipped(name)}")

    def position_command(self, args: list[str]) -> None:
        if not args or args[0] not in ("startpos", "fen"):
            raise ValueError("expected position startpos or position fen FEN, then moves")
        moves_at = args.index("moves") if "moves" in args else len(args)
        if args[0] == "startpos":
            fen = "startpos"
        else:
            fen = " ".join(args[1:moves_at])
            if not fen:
                raise ValueError("expected a FEN after position fen")
        moves = args[moves_at + 1 :]
        PLIES.check(len(moves))
        position = self.game.parse_state(fen)
        for text in moves:
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                raise ValueError(f"{clipped(text)} is not a UCI move") from None
            if move not in position.legal_moves():
                raise ValueError(f"{text} is not legal in {position.board.fen()}")
            position = position.play(move)
        self.stop()
        self.position = position

    def go(self, args: list[str]) -> None:
        """Start the search `args` ask for; it always answers `bestmove` (see `read_go`)."""
        asked = read_go(args)
        for note in asked.notes:
            self.note(note)
        self.stop()
        self.release.clear()
        self.infinite = asked.infinite
        self.worker = threading.Thread(
            target=self._think, args=(self.position, asked.limits, asked.infinite), daemon=True
        )
        try:
            self.worker.start()
        except RuntimeError as error:  # no thread to be had: think here, as little as may be
            self.worker = None
            self.note(f"no thread for the search ({error}): searching to depth 1")
            self._think(self.position, {"depth": 1}, infinite=False)

    def stop(self, args: list[str] | None = None) -> None:
        """End the running search, if any; it answers with its best move."""
        self.release.set()
        while self.worker is not None and self.worker.is_alive():
            self.engine.stop()  # again, in case the worker had not started searching yet
            self.worker.join(0.01)
        self.worker = None

    def finish(self) -> None:
        """At the end of input: let the running search end by its own limits (its answer is
        what the input asked for: `go depth 6` piped in answers at depth 6), and stop a `go
        infinite`, which nothing else would end."""
        if not self.infinite:
            while self.worker is not None and self.worker.is_alive():
                self.worker.join(0.05)  # in slices: Ctrl-C still reaches the main thread
        self.stop()

    COMMANDS: dict[str, Callable[[UciSession, list[str]], None]] = {
        "uci": uci,
        "isready": isready,
        "ucinewgame": ucinewgame,
        "setoption": setoption,
        "position": position_command,
        "go": go,
        "stop": stop,
        "quit": stop,  # `handle` ends the conversation
    }

    # -- thinking -------------------------------------------------------------------------

    def _think(self, position: Position, limits: dict[str, int], infinite: bool) -> None:
        """Find a move, report it, and (for `go infinite`) wait for `stop` before answering.
        Whatever fails, a `bestmove` is sent: a GUI waits for it."""
        self.best_so_far = None
        move: chess.Move | None = None
        try:
            legal = position.legal_moves()
            if legal and self.game.is_terminal(position):
                # over by a rule the GUI may not apply (a repetition, fifty moves, two bare
                # kings): nothing to search, any move goes on
                move = legal[0]
            elif legal:
                move = self._table_move(position) or self._book_move(position)
                if move is None:
                    move = self._search(position, limits, infinite)
        except Exception as error:  # said to the GUI, which still gets a move
            legal = position.legal_moves()
            move = self.best_so_far or (legal[0] if legal else None)
            played = move.uci() if move is not None else "0000"
            self.note(f"search failed ({type(error).__name__}: {error}): playing {played}")
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
            if iteration.best_move is not None:
                self.best_so_far = iteration.best_move
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
        except OSError as error:  # the file changed since `setoption`
            self.note(f"book {clipped_path(self.options.book_file)} unreadable: {error.strerror}")
            return None
        if entry.move not in position.legal_moves():
            return None
        self.note(f"book move {entry.move.uci()}")
        return entry.move

    def _new_engine(self, megabytes: int) -> Any:
        """An engine with a table of `megabytes`; ValueError when the table cannot exist on
        this machine. The Python engine reads the Syzygy tables in use inside its search, the
        compiled one is given a tables' move at the root (`_table_move`)."""
        if self.impl == "compiled":
            return choice.engine(self.game, "compiled", table_mb=megabytes)
        return Engine(self.game, table_mb=megabytes, tablebase=self.syzygy)

    def _kept(self, option: str) -> str:
        """What a refused value leaves: `option` as it was."""
        value = self.options.book_file if option == "BookFile" else self.options.syzygy_path
        return f"{option} stays {clipped(value) if value else 'empty'}"

    def _table_move(self, position: Position) -> chess.Move | None:
        """The tables' best move: the quickest safe win, the longest loss, or a draw."""
        if self.syzygy is None:
            return None
        found = self.syzygy.best_move(position)
        if found is None:
            return None
        move, wdl = found
        kind = "table" if isinstance(self.syzygy, ChessTables) else "syzygy"
        self.note(f"{kind} move {move.uci()} wdl {wdl}")
        return move


def serve(
    source: IO[bytes] | None = None, output: IO[bytes] | None = None, impl: str | None = None
) -> int:
    """Hold a UCI conversation on `source` and `output` (standard input and output by default),
    searching with the engine `impl` names (`zerosum.compiled.choice`), until `quit` or the end
    of input; a GUI gone (a closed output) ends it too."""
    source = sys.stdin.buffer if source is None else source
    sink = sys.stdout.buffer if output is None else output
    closed = threading.Event()

    def write(line: str) -> None:
        if closed.is_set():
            return
        try:
            sink.write(line.encode("utf-8", errors="replace") + b"\n")
            sink.flush()
        except (OSError, ValueError):  # the GUI went away (a broken pipe, a closed file)
            closed.set()

    session = UciSession(write, impl)
    while not closed.is_set():
        line = bounded_line(source, LONGEST_LINE)
        if isinstance(line, int):
            session.note(f"skipped a line of {line:,} bytes: the longest read is {LONGEST_LINE:,}")
        elif not line:
            session.finish()
            break
        elif not session.handle(line.decode("utf-8", errors="replace")):
            break
    session.stop()
    if closed.is_set() and output is None:  # no flush of the lost output at exit, no message
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Speak the Universal Chess Interface on standard input and output, for a chess GUI,"
        " lichess-bot or python-chess's chess.engine. Options: Hash (MB), OwnBook with"
        " BookFile (a Polyglot book), SyzygyPath (Syzygy tables). Every go is answered"
        " with a bestmove. Limits: go depth at most"
        f" {MOST_DEPTH} (deeper is searched to {MOST_DEPTH}), Hash from 1 to"
        f" {MOST_HASH_MB:,} MB, {PLIES}, a command line of at most {LONGEST_LINE:,}"
        " bytes (a longer one is skipped)."
    )
    parser.add_argument(
        "--engine",
        choices=IMPLEMENTATIONS,
        help="the compiled engine (the default where chess's compiled rules are) or the Python"
        " one; the compiled engine reads the Syzygy tables at the root, the Python one in its"
        " search too",
    )
    parser.set_defaults(run=lambda args: serve(impl=args.engine))
