"""`zerosum gtp`: Go behind the Go Text Protocol, version 2, for a GUI (Sabaki, GoGui), a
referee (gogui-twogtp) or another engine's match.

`GtpSession` obeys one command line at a time (`handle`) and returns its answer, so that it runs
on standard input and output (`serve`) or in a test. The rules are `zerosum.games.go`'s:
positional superko, suicide refused, area scoring with komi.

**Framing.** As the protocol says: control characters but tab and newline are dropped, a tab
is a space, a `#` starts a comment, and a line left empty gets no answer. A command may start
with a whole number, its id, echoed in the answer. An answer is `=` (success) or `?` (failure),
the id, a space and the text, then an empty line: `=3 D4`, `? illegal move: D4 is taken`.

**Commands.** `protocol_version`, `name`, `version`, `known_command`, `list_commands`,
`boardsize` (5 to 19), `clear_board`, `komi`, `play`, `genmove`, `undo`, `showboard`,
`final_score` (Tromp-Taylor area, `B+3.5`, `W+0.5` or `0`), `time_settings`, `time_left`,
`quit`. Either colour may be played or asked for at any time (`play b D4` twice is two Black
stones); a game ended by two passes goes on if a stone is played or asked for.

**Always an answer.** Every line is answered, `? unknown command` for a word not in the list,
`? syntax error` for arguments that cannot be read, and nothing raises. Every `genmove` answers
a legal move or `pass`, never `resign`: a search that fails answers `pass` (the failure said on
the log, standard error). A line longer than `LONGEST_LINE` bytes is refused without being held.

**Thinking.** `--player SPEC` (`zerosum.players`, `mcts:time=1` by default) chooses the moves.
When the controller gives a clock (`time_settings`, then `time_left`) and the player has a
`time` option, each move gets a share of the time left: the byo-yomi period's time over its
stones, or the main time over `MOVES_TO_GO` or a third of the empty points, whichever is more,
less `MARGIN`; never more than the spec's own `time`, nor than a player may think (an hour).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import IO

import zerosum
from zerosum.cli.lines import bounded_line
from zerosum.game import Player
from zerosum.games.go import LARGEST, SMALLEST, Go, Position
from zerosum.limits import clipped, one_line
from zerosum.match import Chooser
from zerosum.players import MOST_SECONDS as MOST_THINKING
from zerosum.players import PLAYERS, PlayerSpec, Seat, make_player, parse_player
from zerosum.registry import entry_of

NAME = "zerosum"
PROTOCOL_VERSION = "2"
DEFAULT_PLAYER = "mcts:time=1"

LONGEST_LINE = 1 << 16
"""The longest command line read, in bytes: the longest real one (`play white T19`) is 16."""

MOVES_TO_GO = 10
"""The fewest moves the main time is shared among (more when a third of the empty points is
more: 27 on an empty 9x9 board)."""

MARGIN = 0.1
"""Seconds kept back from every share of the clock for the referee's lag."""

LEAST_TIME = 0.01
"""The smallest budget of one move, in seconds: one iteration is always searched anyway."""

MOST_SECONDS = 10**9
"""Where a clock stops counting: a time this large is no limit."""

COLOURS = {"b": 0, "black": 0, "w": 1, "white": 1}


class GtpError(Exception):
    """A command refused: its text follows the `?` of the answer."""


def colour_of(text: str) -> Player:
    """The player a GTP colour names (`b`, `black`, `w`, `white`, any case)."""
    colour = COLOURS.get(text.lower())
    if colour is None:
        raise GtpError(f"syntax error: {clipped(text)} is not a colour (b, black, w or white)")
    return colour


def whole_number(text: str, what: str) -> int:
    """`text` as a whole number from 0, capped at `MOST_SECONDS`; GtpError otherwise."""
    if not text.isascii() or not text.isdigit():
        raise GtpError(f"syntax error: {what} must be a whole number from 0, not {clipped(text)}")
    return int(text) if len(text) < 10 else MOST_SECONDS


def seconds(text: str, what: str) -> float:
    """`text` as a number of seconds from 0 (a real number, as some controllers send); capped at
    `MOST_SECONDS`; GtpError otherwise."""
    try:
        value = float(text) if text.isascii() and len(text) <= 40 else math.nan
    except ValueError:
        value = math.nan
    if not value >= 0:  # NaN too
        raise GtpError(f"syntax error: {what} must be a number of seconds from 0, not"
                       f" {clipped(text)}")  # fmt: skip
    return min(value, MOST_SECONDS)


def clean(line: str) -> str:
    """A command line as the protocol reads it: control characters but tab and newline dropped,
    tabs made spaces, the comment from `#` on dropped."""
    line = line.partition("#")[0]
    return "".join(" " if char == "\t" else char for char in line if char >= " " or char == "\n")


class GtpSession:
    """One conversation with a controller: the board, its history (for `undo`), the clocks,
    and the player that thinks."""

    def __init__(self, spec: str = DEFAULT_PLAYER, log: Callable[[str], None] | None = None):
        """A conversation whose moves `spec` (a player spec) chooses, saying what fails on
        `log` (nothing by default); ValueError for a spec that cannot play Go."""
        self.spec: PlayerSpec = parse_player(spec)
        self.log = log or (lambda text: None)
        self.game = Go()
        make_player(self.spec, self.game, Seat(entry_of(self.game)))  # refused now, not later
        self.history: list[Position] = [self.game.initial_state()]
        self.settings: tuple[float, float, int] | None = None
        self.clocks: dict[Player, tuple[float, int]] = {}
        self._player: Chooser | None = None
        self.running = True

    @property
    def state(self) -> Position:
        return self.history[-1]

    def handle(self, line: str) -> str | None:
        """The framed answer to one command line (None for a line with no command); after
        `quit`, `running` is False. Never raises."""
        words = clean(line).split()
        if not words:
            return None
        ident = ""
        if words[0].isascii() and words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} syntax error: an id and no command\n\n"
        command, args = words[0], words[1:]
        try:
            handler = self.COMMANDS.get(command)
            if handler is None:
                raise GtpError(f"unknown command: {clipped(command)}")
            text = handler(self, args)
        except GtpError as error:
            return f"?{ident} {one_line(str(error))}\n\n"
        except Exception as error:  # a fault of ours: said, and the conversation goes on
            reason = one_line(f"{type(error).__name__}: {error}")
            self.log(f"{command} failed: {reason}")
            return f"?{ident} failed: {reason}\n\n"
        return f"={ident} {text}\n\n" if text else f"={ident}\n\n"

    # -- the commands ---------------------------------------------------------------------

    def protocol_version(self, args: list[str]) -> str:
        return PROTOCOL_VERSION

    def name(self, args: list[str]) -> str:
        return NAME

    def version(self, args: list[str]) -> str:
        return zerosum.__version__

    def known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self.COMMANDS else "false"

    def list_commands(self, args: list[str]) -> str:
        return "\n".join(self.COMMANDS)

    def quit(self, args: list[str]) -> str:
        self.running = False
        return ""

    def boardsize(self, args: list[str]) -> str:
        size = whole_number(args[0], "the size") if args else None
        if size is None:
            raise GtpError("syntax error: boardsize needs a size")
        if not SMALLEST <= size <= LARGEST:
            raise GtpError(f"unacceptable size: {SMALLEST} to {LARGEST}")
        if abs(self.game.komi) > size * size:
            raise GtpError(
                f"unacceptable size: the komi {self.game.komi:g} is more than the {size * size}"
                f" points of {size}x{size} (change the komi first)"
            )
        self._new_game(Go(size, self.game.komi))
        return ""

    def clear_board(self, args: list[str]) -> str:
        self._new_game(self.game)
        return ""

    def komi(self, args: list[str]) -> str:
        if not args:
            raise GtpError("syntax error: komi needs a number")
        try:
            value = float(args[0]) if len(args[0]) <= 40 else math.nan
            game = Go(self.game.size, value)
        except ValueError as error:
            reason = "not a number" if "could not convert" in str(error) else str(error)
            raise GtpError(f"syntax error: {reason}") from None
        self.game, self._player = game, None  # the position stands; the score changes
        return ""

    def play(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpError("syntax error: play needs a colour and a vertex (play b D4)")
        colour = colour_of(args[0])
        state = self._for(colour, args[1].lower() != "pass")
        if self.game.is_terminal(state):  # by the move limit: only passes remain
            if args[1].lower() != "pass":
                raise GtpError("illegal move: the game is over (the move limit)")
            self.history.append(state)
            return ""
        try:
            move = self.game.parse_move(state, args[1])
        except ValueError as error:
            vertex = "syntax error" if "not a point" in str(error) else "illegal move"
            raise GtpError(f"{vertex}: {error}") from None
        self.history.append(self.game.result(state, move))
        return ""

    def genmove(self, args: list[str]) -> str:
        if not args:
            raise GtpError("syntax error: genmove needs a colour")
        colour = colour_of(args[0])
        state = self._for(colour, True)
        if self.game.is_terminal(state):
            self.history.append(state)
            return "pass"
        move = self._chosen(state, colour)
        self.history.append(self.game.result(state, move))
        return self.game.format_move(state, move)

    def undo(self, args: list[str]) -> str:
        if len(self.history) < 2:
            raise GtpError("cannot undo: no move to take back")
        self.history.pop()
        return ""

    def showboard(self, args: list[str]) -> str:
        return "\n" + self.game.render(self.state)

    def final_score(self, args: list[str]) -> str:
        return self.game.score_text(self.state)

    def time_settings(self, args: list[str]) -> str:
        if len(args) < 3:
            raise GtpError("syntax error: time_settings main_time byo_yomi_time byo_yomi_stones")
        main = seconds(args[0], "the main time")
        period = seconds(args[1], "the byo-yomi time")
        stones = whole_number(args[2], "the byo-yomi stones")
        self.settings = (main, period, stones)
        self.clocks = {}
        return ""

    def time_left(self, args: list[str]) -> str:
        if len(args) < 3:
            raise GtpError("syntax error: time_left colour time stones")
        colour = colour_of(args[0])
        self.clocks[colour] = (seconds(args[1], "the time"), whole_number(args[2], "the stones"))
        return ""

    COMMANDS: dict[str, Callable[[GtpSession, list[str]], str]] = {
        "protocol_version": protocol_version,
        "name": name,
        "version": version,
        "known_command": known_command,
        "list_commands": list_commands,
        "quit": quit,
        "boardsize": boardsize,
        "clear_board": clear_board,
        "komi": komi,
        "play": play,
        "genmove": genmove,
        "undo": undo,
        "showboard": showboard,
        "final_score": final_score,
        "time_settings": time_settings,
        "time_left": time_left,
    }

    # -- the game -------------------------------------------------------------------------

    def _new_game(self, game: Go) -> None:
        self.game, self._player = game, None
        self.history = [game.initial_state()]

    def _for(self, colour: Player, stone: bool) -> Position:
        """The position with `colour` to move; with a stone to come, a game ended by two passes
        taken up again (the controller decides when a game ends)."""
        state = self.state
        if state.player != colour:
            state = state._replace(player=colour)
        if stone and state.passes >= 2:
            state = state._replace(passes=0)
        return state

    def _chosen(self, state: Position, colour: Player) -> int:
        """The player's move in `state`, checked legal; a pass when the player fails."""
        legal = self.game.legal_moves(state)
        try:
            move = self._chooser(colour)(state)
        except Exception as error:  # the answer must be a move: a pass, and the reason logged
            self.log(f"genmove failed ({type(error).__name__}: {one_line(str(error))}): pass")
            return self.game.pass_move
        if move not in legal:
            self.log(f"genmove: the player chose {clipped(move)}, not a legal move: pass")
            return self.game.pass_move
        return move

    def _chooser(self, colour: Player) -> Chooser:
        """The player for this move: the game's one (its tree kept from move to move), or one
        with a budget cut to the clock's share."""
        budget = self._budget(colour)
        if budget is not None and "time" in PLAYERS[self.spec.kind].options:
            own = self.spec.options.get("time", math.inf)
            options = {**self.spec.options, "time": min(own, budget)}
            return make_player(replace(self.spec, options=options), self.game, self._seat())
        if self._player is None:
            self._player = make_player(self.spec, self.game, self._seat())
        return self._player

    def _seat(self) -> Seat:
        return Seat(entry_of(self.game), seed=len(self.history))

    def _budget(self, colour: Player) -> float | None:
        """The seconds of the clock's share for `colour`'s move (see the module), or None
        without a clock."""
        clock = self.clocks.get(colour)
        if clock is None and self.settings is not None:
            main, period, stones = self.settings
            clock = (main, 0) if main > 0 else (period, stones) if stones > 0 else None
        if clock is None:
            return None
        time, stones = clock
        if stones > 0:
            share = time / stones
        else:
            empty = self.game.points - (self.state.black | self.state.white).bit_count()
            share = time / max(MOVES_TO_GO, empty // 3)
        return min(MOST_THINKING, max(LEAST_TIME, share - MARGIN))


def serve(
    session: GtpSession, source: IO[bytes] | None = None, output: IO[bytes] | None = None
) -> int:
    """Hold a GTP conversation on `source` and `output` (standard input and output by default)
    until `quit` or the end of input; a controller gone (a closed output) ends it too."""
    source = sys.stdin.buffer if source is None else source
    sink = sys.stdout.buffer if output is None else output
    while session.running:
        line = bounded_line(source, LONGEST_LINE)
        if isinstance(line, int):
            answer: str | None = f"? syntax error: a line of {line:,} bytes, the longest read is"
            answer = f"{answer} {LONGEST_LINE:,}\n\n"
        elif not line:
            break
        else:
            answer = session.handle(line.decode("utf-8", errors="replace"))
        if answer is None:
            continue
        try:
            sink.write(answer.encode("utf-8", errors="replace"))
            sink.flush()
        except (OSError, ValueError):  # the controller went away
            if output is None:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            break
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Play Go through the Go Text Protocol (version 2) on standard input and output, for a"
        " GUI (Sabaki, GoGui) or a referee (gogui-twogtp). Positional superko, suicide"
        " refused, area scoring; every genmove answers a legal move or pass. Board sizes"
        f" {SMALLEST} to {LARGEST}; a command line of at most {LONGEST_LINE:,} bytes."
    )
    parser.add_argument(
        "--player",
        default=DEFAULT_PLAYER,
        metavar="SPEC",
        help=f"who chooses the moves (default {DEFAULT_PLAYER}): mcts:iterations=N,"
        " mcts:time=SECONDS, random...; a clock given by the controller cuts a time budget",
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    session = GtpSession(args.player, log=lambda text: print(text, file=sys.stderr))
    return serve(session)
