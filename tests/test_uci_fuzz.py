"""Random UCI conversations (hypothesis): valid commands mixed with mutated numbers, unknown
words, empty lines and unicode always get exactly one legal `bestmove` (`0000` where there is
no move) for each `go`, once it finishes or is stopped, and the conversation goes on to `quit`.

Each search is kept tiny: a `go` whose answer the test waits for has a budget of depth 1, a few
nodes or a few milliseconds; any other `go` is ended by the next command (each ends a running
search) or by `quit`, so a few hundred conversations take seconds.

A few hundred conversations on every run; 10,000 by hand with
`python -m pytest tests/test_uci_fuzz.py --hypothesis-profile=long` (tests/fuzzing.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import chess
from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st
from oracles import oracle_path

from zerosum.cli.uci import GO_WORDS, UciSession

EXAMPLES = 300
"""Conversations in a run of the tests: about 20 seconds."""


HANG = 600
"""Seconds a tiny search may take: it takes milliseconds, so only a hang reaches this."""

LONGEST_ANSWER = 500
"""The most characters of an `info string`, whatever the input it answers."""

LONGEST_INFO = 2000
"""The most characters of a search's `info depth` line (its principal variation included)."""

FENS = [
    chess.STARTING_FEN,
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  # mated
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "8/8/8/4k3/8/8/8/KR6 w - - 0 1",  # in the Syzygy tables of tests/data
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # castling, promotion
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",  # en passant
    "8/8/8/8/8/4k3/8/4K3 w - - 0 1",  # two kings: over, yet with moves
]

NUMBERS = st.one_of(
    st.integers(-3, 5).map(str),
    st.integers(-(10**25), 10**25).map(str),
    st.sampled_from(["", "x", "1.5", "1e3", "0x10", "+3", "-0", "٣", "９", "9" * 30, "nan", "-"]),
    st.text(max_size=6),
)
"""What a number of a command may be: small, huge, or not a number at all."""

NOISE = st.one_of(
    st.sampled_from([*GO_WORDS, "ponder", "banana", "moves", "value", "name", "fen", "\x00", "é"]),
    NUMBERS,
    st.text(max_size=8),
)
"""Words that may appear anywhere."""


def is_command(word: str) -> bool:
    return word in UciSession.COMMANDS


GARBAGE = st.text(max_size=40).filter(lambda line: not any(map(is_command, line.split())))
"""A line without a command word: unicode, control characters, NUL."""


@st.composite
def positions(draw: st.DrawFn) -> str:
    """A `position` command: a start and moves played from it (legal ones, then perhaps a
    mutated one), or one of its words changed."""
    fen = draw(st.sampled_from(FENS))
    board = chess.Board(fen)
    moves = []
    for choice in draw(st.lists(st.integers(0, 200), max_size=12)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = legal[choice % len(legal)]
        moves.append(move.uci())
        board.push(move)
    start = "startpos" if fen == chess.STARTING_FEN and draw(st.booleans()) else f"fen {fen}"
    words = [
        "position",
        *start.split(),
        *(["moves", *moves] if moves or draw(st.booleans()) else []),
    ]
    for _ in range(draw(st.integers(0, 2))):  # mutations: a word changed, inserted or dropped
        at = draw(st.integers(1, len(words)))
        kind = draw(st.sampled_from(["change", "insert", "drop"]))
        if kind == "insert":
            words.insert(at, draw(NOISE))
        elif at < len(words):
            if kind == "change":
                words[at] = draw(NOISE)
            else:
                del words[at]
    return " ".join(words)


@st.composite
def options(draw: st.DrawFn) -> str:
    """A `setoption` command, its name and value drawn among the real and the wrong."""
    name = draw(st.sampled_from(["Hash", "hash", "OwnBook", "BookFile", "SyzygyPath", "Threads",
                                 "", "Hash Size"]))  # fmt: skip
    value = draw(
        st.one_of(
            NUMBERS,
            st.sampled_from(
                [
                    "true",
                    "false",
                    "TRUE",
                    "maybe",
                    "<empty>",
                    "/no/such",
                    "/dev/null",
                    "/tmp",
                    "a\x00b",
                    "1",
                    "16",
                ]
            ),  # fmt: skip
            st.sampled_from(
                [
                    str(oracle_path("chess", "polyglot", "performance-start.bin")),
                    str(oracle_path("chess", "syzygy")),
                ]
            ),
        )
    )
    return draw(
        st.sampled_from(
            [f"setoption name {name} value {value}", f"setoption name {name}", "setoption value 3"]
        )
    )


TINY = st.one_of(
    st.just("depth 1"),
    st.integers(1, 200).map(lambda nodes: f"nodes {nodes}"),
    st.integers(1, 20).map(lambda ms: f"movetime {ms}"),
    st.just("depth 0"),
    st.just("nodes -3"),
    st.just("movetime -1"),
    st.just("mate 1"),
)
"""The last limit of a `go` the test waits for: each keeps the search to milliseconds."""


@dataclass(frozen=True)
class Go:
    """A `go` command; `settled` when its budget is tiny, so that the test waits for its answer."""

    line: str
    settled: bool


@st.composite
def gos(draw: st.DrawFn) -> Go:
    """A `go` with noise before a tiny limit (waited for), or with any words (stopped later)."""
    noise = draw(st.lists(NOISE.filter(lambda word: "infinite" not in word), max_size=4))
    if draw(st.booleans()):
        return Go(" ".join(["go", *noise, draw(TINY)]), settled=True)
    words = draw(st.lists(st.one_of(NOISE, st.sampled_from(GO_WORDS)), max_size=6))
    return Go(" ".join(["go", *words]), settled=False)


COMMANDS = st.one_of(
    st.sampled_from(["uci", "isready", "ucinewgame", "stop", "", "   "]),
    positions(),
    options(),
    gos(),
    GARBAGE,
)


@dataclass
class Transcript:
    """What a fuzzed conversation said, and the board each `go` searched."""

    lines: list[str] = field(default_factory=list)
    searched: list[chess.Board] = field(default_factory=list)


def converse(commands: list[str | Go]) -> Transcript:
    """Hold the conversation `commands` with a session, then `quit`, checking each answer that
    comes at once; the answers of the searches are checked by the caller."""
    transcript = Transcript()
    session = UciSession(transcript.lines.append)
    try:
        for command in commands:
            line = command.line if isinstance(command, Go) else command
            before = len(transcript.lines)
            assert session.handle(line) is True
            said = transcript.lines[before:]
            if isinstance(command, Go):
                transcript.searched.append(session.position.board.copy(stack=False))
                if command.settled:
                    assert session.worker is not None
                    session.worker.join(HANG)
                    assert not session.worker.is_alive(), f"{line!r} is still searching"
                    assert transcript.lines[-1].startswith("bestmove "), transcript.lines[-1]
            elif line.split()[:1] == ["isready"]:
                assert "readyok" in said
            elif line.split()[:1] == ["uci"]:
                assert "uciok" in said
    finally:
        assert session.handle("quit") is False
    assert session.worker is None
    return transcript


@fuzzing(EXAMPLES)
@given(st.lists(COMMANDS, max_size=10))
def test_every_go_of_a_random_conversation_gets_one_legal_bestmove(commands):
    raised: list[BaseException | None] = []
    hook = threading.excepthook
    threading.excepthook = lambda failure: raised.append(failure.exc_value)
    try:
        transcript = converse(commands)
    finally:
        threading.excepthook = hook
    assert raised == []
    answers = [line.split(" ")[1] for line in transcript.lines if line.startswith("bestmove ")]
    assert len(answers) == len(transcript.searched)
    for answer, board in zip(answers, transcript.searched, strict=True):
        if answer == "0000":
            assert not any(board.legal_moves), board.fen()
        else:
            assert chess.Move.from_uci(answer) in board.legal_moves, (answer, board.fen())
    for line in transcript.lines:
        assert line.split(" ")[0] in ("id", "option", "uciok", "readyok", "info", "bestmove")
        most = LONGEST_ANSWER if line.startswith("info string ") else LONGEST_INFO
        assert len(line) <= most, line[:200]
