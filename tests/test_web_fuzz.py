"""Random conversations on the Play page's websocket (hypothesis, Starlette's TestClient): bursts
of the protocol's own messages (new, move, undo, stop) with valid and hostile fields (unknown
games, huge, unicode and NUL strings, numbers of thousands of digits, deep JSON, positions
valid and not, strengths valid and hostile, a trained run's directory pointing anywhere), text
that is no JSON or no object, and binary frames, sent without waiting for the answers. Whatever
it gets, every reply is a JSON object of a type the protocol names, every "error" is one line
of bounded length without a traceback, each message that is no JSON object is refused by name,
no search fails in the library's code, the server raises nothing, and a last `new` game still
gets its position: the connection and the server are alive.

Every search asked for is tiny (a depth of 1 or 2, hundredths of a second, perfect play only
in tic-tac-toe and Nim), so a conversation takes a fraction of a second.

A hundred conversations on every run; 10,000 by hand with
`python -m pytest tests/test_web_fuzz.py --hypothesis-profile=long` (tests/fuzzing.py).
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fuzzing import fuzzing
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zerosum.cli.serve import own_hosts
from zerosum.limits import MESSAGE_LENGTH
from zerosum.web.app import create_app
from zerosum.web.play import MESSAGE_CHARACTERS

EXAMPLES = 100
"""Conversations in a run of the tests: about 2 seconds."""

HANG = 120
"""Seconds a conversation may take: it takes a fraction of one, so only a hang reaches this."""

HOST = "127.0.0.1:8000"
URL = f"ws://{HOST}/ws/play"
CLIENT = TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url=f"http://{HOST}")

REPLIES = {"games", "position", "thinking", "iteration", "mcts", "columns", "error"}
"""Every type of message the server sends (docs/web.md)."""

NOT_JSON = "the message is not JSON"
TOO_LONG = "the message is too long"
BINARY = "a message is JSON text, not binary"
NOT_OBJECT = "a message is a JSON object with a type"

LAST = {
    "type": "new",
    "game": "nim",
    "position": "7 7 7 7",
    "human": 0,
    "strength": {"kind": "time", "seconds": 1},
}
"""The conversation's last message: a game no other message starts, whose position proves the
server still answers."""

GAMES = ["tictactoe", "connect4", "nim", "chess", "othello", "go"]

HOSTILE_TEXT = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "a\x00b",
            "é",
            "🂡",
            "\u202e",
            "9" * 5000,
            "x" * 20_000,
            "os:getcwd",
            "evil.py:Game",
            "connect4(width=99999999999999999999)",
            "nim(heaps=[" + "9" * 5000 + "])",
            "../../etc/passwd",
            "<script>alert(1)</script>",
            "null",
        ]
    ),
    st.text(max_size=12),
)
"""Strings that name nothing: empty, NUL, unicode, huge, code, paths, markup."""

HOSTILE_VALUE = st.one_of(
    HOSTILE_TEXT,
    st.sampled_from([None, True, False, -1, 0, 2, 10**400, -(10**400), 1e308, 0.5, [], {}]),
    st.integers(),
    st.floats(),
    st.lists(st.integers(), max_size=3),
    st.recursive(st.none(), lambda inner: st.lists(inner, max_size=2), max_leaves=4),
)
"""Any JSON value in a field: a hostile string, a number of 400 digits, a list, nothing."""

POSITIONS = {
    "tictactoe": ["XX.OO....", "XOX.O....", "XOXOXOOXO", "XXX", "........."],
    "connect4": ["4453", "1234567", "44444444", "0", "4" * 43],
    "nim": ["3 5 8", "1 2", "0 0 0", "1 -1", "99999999999999999999 1"],
    "chess": [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "8/8/8/4k3/8/8/8/KR6 w - - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    ],
    "othello": ["", "not a board"],
    "go": ["", "E5 E5", "pass", "not a board"],
}
"""Positions of the games, valid (near the end, where searches are short) and not."""

MOVES = ["0", "4", "8", "9", "1", "4", "7", "1 2", "2 3", "e2e4", "d1h5", "c4", "pass", "a9"]
"""Moves of the games, legal somewhere and not."""

DIRECTORIES = ["/", "/etc", "/etc/passwd", "/no/such/run", "../../..", "~", "~root", "a\x00b",
               "runs/a,b", "x=1", "/dev/null", "/proc/self", " ", "\\\\server\\share"]  # fmt: skip
"""A trained run's directory pointing anywhere: the root, a file, missing, a traversal, NUL."""


@st.composite
def strengths(draw: st.DrawFn, game: str) -> Any:
    """A strength for `game`: tiny and valid, or hostile in any field."""
    tiny = [
        {"kind": "depth", "plies": draw(st.integers(1, 2))},
        {"kind": "time", "seconds": draw(st.sampled_from([0.01, 0.02, 0.05]))},
        {"kind": "mcts", "seconds": draw(st.sampled_from([0.01, 0.02]))},
    ]
    if game in ("tictactoe", "nim"):
        tiny.append({"kind": "perfect"})
    hostile = [
        {"kind": "network", "directory": draw(st.sampled_from(DIRECTORIES))},
        {"kind": "network", "directory": draw(HOSTILE_VALUE), "simulations": draw(HOSTILE_VALUE)},
        {"kind": "network", "run": draw(st.sampled_from(DIRECTORIES))},
        {"kind": draw(HOSTILE_VALUE)},
        {"kind": "time", "seconds": draw(st.sampled_from([0, -1, 31, 10**400, 1e400, "1"]))},
        {"kind": "depth", "plies": draw(st.sampled_from([0, -1, 10**400, 2.5, "3", None]))},
        {"kind": "mcts", "seconds": draw(HOSTILE_VALUE)},
        draw(HOSTILE_VALUE),
    ]
    return draw(st.sampled_from(tiny + hostile))


@st.composite
def news(draw: st.DrawFn) -> dict[str, Any]:
    """A `new` message: an offered game or a hostile name, a position, a seat, a strength."""
    game = draw(st.one_of(st.sampled_from(GAMES), HOSTILE_TEXT))
    position = draw(st.one_of(st.none(), st.sampled_from(POSITIONS.get(game, [""])), HOSTILE_VALUE))
    message: dict[str, Any] = {
        "type": "new",
        "game": game,
        "position": position,
        "human": draw(st.one_of(st.sampled_from([0, 1]), HOSTILE_VALUE)),
        "strength": draw(strengths(game)),
    }
    for field in draw(st.lists(st.sampled_from(list(message)), max_size=1)):
        del message[field]
    return message


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


RAW = st.sampled_from(
    [
        "{not json",
        "",
        "\x00",
        "[" * 100_000,
        '{"type": ' + "9" * 5000 + "}",
        '{"type": "new", "game": "tictactoe", "human": ' + "9" * 5000 + "}",
        '{"a": ' * 50_000,
        "NaN",
        "null",
        "[1, 2]",
        '"new"',
        "3",
        deep(10_000),
        " " * (MESSAGE_CHARACTERS + 1),
        '{"type": "stop"}' + " " * MESSAGE_CHARACTERS,
        '{"type": "new", "type": "move"}',
        "\ud800",
    ]
)
"""Text that is no JSON object: broken, deep, a number of 5,000 digits, too long, a list."""

MESSAGES = st.one_of(
    news(),
    st.builds(
        lambda move: {"type": "move", "move": move},
        st.one_of(st.sampled_from(MOVES), HOSTILE_VALUE),
    ),
    st.just({"type": "undo"}),
    st.just({"type": "stop"}),
    st.builds(lambda kind: {"type": kind}, HOSTILE_VALUE),
    st.dictionaries(HOSTILE_TEXT, HOSTILE_VALUE, max_size=3),
    RAW,
    st.binary(max_size=64),
)
"""A message: the protocol's own, a dictionary of anything, raw text, or a binary frame."""


def expected_refusal(message: object) -> str | None:
    """The error a message gets before it is read as the protocol's, or None."""
    if isinstance(message, bytes):
        return BINARY
    if isinstance(message, str):
        if len(message) > MESSAGE_CHARACTERS:
            return TOO_LONG
        try:
            parsed = json.loads(message)
        except (ValueError, RecursionError):
            return NOT_JSON
        return None if isinstance(parsed, dict) else NOT_OBJECT
    return None


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail with TimeoutError when the block takes longer than `seconds` (a hang)."""

    def hung(signum: int, frame: Any) -> None:
        raise TimeoutError(f"no answer within {seconds} seconds")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def converse(messages: list[object]) -> list[dict[str, Any]]:
    """Send `messages` in one burst, then `LAST`; every reply up to the position `LAST` gets."""
    replies: list[dict[str, Any]] = []
    with within(HANG), CLIENT.websocket_connect(URL) as websocket:
        assert websocket.receive_json()["type"] == "games"
        for message in [*messages, LAST]:
            if isinstance(message, bytes):
                websocket.send_bytes(message)
            elif isinstance(message, str):
                websocket.send_text(message)
            else:
                websocket.send_text(json.dumps(message))
        while True:
            reply = json.loads(websocket.receive_text())
            replies.append(reply)
            if reply.get("type") == "position" and reply.get("position") == LAST["position"]:
                return replies


@fuzzing(EXAMPLES)
@given(st.lists(MESSAGES, max_size=12))
def test_every_reply_to_a_hostile_burst_is_the_protocols_and_the_server_lives(messages):
    replies = converse(messages)
    for reply in replies:
        assert isinstance(reply, dict) and reply.get("type") in REPLIES, str(reply)[:200]
    errors = [reply["message"] for reply in replies if reply["type"] == "error"]
    for error in errors:
        assert isinstance(error, str) and "\n" not in error, error
        assert 0 < len(error) <= MESSAGE_LENGTH, error
        assert "Traceback" not in error and 'File "' not in error, error
        assert not error.startswith("the program's search failed"), error  # a library fault
    for refusal in (NOT_JSON, TOO_LONG, BINARY, NOT_OBJECT):
        sent = sum(expected_refusal(message) == refusal for message in messages)
        assert errors.count(refusal) == sent, (refusal, errors)
    last = replies[-1]
    assert (last["game"], last["record"], last["human"]) == ("nim", [], [True, False])
    assert len(last["moves"]) == 28  # 7 from each of the four heaps


def test_a_binary_frame_is_refused_in_one_line_and_the_game_goes_on():
    replies = converse([b"\x00\xff", b'{"type": "new"}', LAST])
    errors = [reply["message"] for reply in replies if reply["type"] == "error"]
    assert errors == [BINARY, BINARY]
