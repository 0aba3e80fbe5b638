"""Hostile requests to `zerosum serve` (Starlette's TestClient, and raw ASGI calls for what a
client library would tidy up first): every route the application has, read off its routes so
that a new one is covered at once, refuses a wrong `Host` (400) and another site's `Origin`
(403, a websocket closed before it is accepted); no path under /static, in any encoding,
sends a file from outside the static folder; and bodies too large, not JSON or not objects,
matrices and trees past their limits and chart runs that name nothing are each a one-line
refusal, never a 500 and never a traceback. The websocket's messages: tests/test_web_fuzz.py.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from urllib.parse import unquote

import pytest
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from zerosum.cli.serve import own_hosts
from zerosum.limits import MESSAGE_LENGTH
from zerosum.web import app as web
from zerosum.web.guard import POLICY_VIOLATION

HOST = "127.0.0.1:8000"
APP = web.create_app(own_hosts("127.0.0.1", 8000))
WRONG_HOST = "this server answers only at 127.0.0.1:8000, [::1]:8000, localhost:8000"
FOREIGN = "requests from another site's pages are refused"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(APP, base_url=f"http://{HOST}", raise_server_exceptions=False)


def requests() -> Iterator[tuple[str, str]]:
    """Every (method, path) the application answers over HTTP, read off its routes: a
    mounted folder by a file in it."""
    for route in APP.routes:
        if isinstance(route, Route):
            for method in sorted(route.methods or ()):
                yield method, route.path
        elif isinstance(route, Mount):
            yield "GET", f"{route.path}/style.css"


def sockets() -> list[str]:
    return [route.path for route in APP.routes if isinstance(route, WebSocketRoute)]


def call(
    path: str, method: str = "GET", headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[int, bytes]:
    """The status and body of `method path` sent to the application as a server hands it on:
    the path decoded once and nothing else done to it (no `..` resolved, a NUL left in);
    status 500 when the application raised."""
    if headers is None:
        headers = [(b"host", HOST.encode())]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode("utf-8", "surrogateescape"),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent: list[dict[str, Any]] = []
    asked: list[bool] = []

    async def receive() -> dict[str, Any]:
        if asked:  # the body is read: the client stays (a response may listen for it to go)
            await asyncio.Event().wait()
        asked.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    try:
        asyncio.run(APP(scope, receive, send))
    except Exception:
        return 500, b""
    start = next(message for message in sent if message["type"] == "http.response.start")
    body = b"".join(message.get("body", b"") for message in sent[1:])
    return start["status"], body


def test_every_route_refuses_a_wrong_host_and_a_foreign_origin(client):
    answered = list(requests())
    assert {path for _, path in answered} >= {"/", "/api/matrix", "/static/style.css"}
    for method, path in answered:
        own = client.request(method, path)
        assert own.status_code not in (400, 403) or "error" in own.json(), (method, path)
        said = {"HEAD": ""}  # a HEAD is answered without a body
        for host in ("evil.example:8000", "127.0.0.1:8001", "127.0.0.1:8000.", "127.0.0.1", ""):
            refused = client.request(method, path, headers={"Host": host})
            expected = (400, said.get(method, WRONG_HOST))
            assert (refused.status_code, refused.text) == expected, (method, path, host)
        for origin in (
            "http://evil.example",
            "null",
            "https://127.0.0.1:8000",
            "http://127.0.0.1:8001",
            "http://127.0.0.1:8000.evil.example",
        ):
            refused = client.request(method, path, headers={"Origin": origin})
            expected = (403, said.get(method, FOREIGN))
            assert (refused.status_code, refused.text) == expected, (method, path, origin)
        assert call(path, method, headers=[])[0] == 400  # no Host at all (HTTP/1.0)


def test_every_websocket_refuses_a_wrong_host_and_a_foreign_origin_before_accepting(client):
    assert sockets() == ["/ws/play"]
    for path in sockets():
        with client.websocket_connect(f"ws://{HOST}{path}") as own:
            assert own.receive_json()["type"] == "games"
        for headers in (
            {"Host": "evil.example:8000"},
            {"Origin": "http://evil.example"},
            {"Origin": "null"},
        ):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(f"ws://{HOST}{path}", headers=headers),
            ):
                pass
            assert refused.value.code == POLICY_VIOLATION, (path, headers)


TRAVERSALS = [
    "../app.py",
    "../../../../../../etc/passwd",
    "%2e%2e/app.py",
    "%2E%2E%2Fapp.py",
    "%252e%252e/app.py",
    "%252e%252e%252fapp.py",
    "..%2fapp.py",
    "..%2Fguard.py",
    "..%5capp.py",
    "..\\app.py",
    "..%255capp.py",
    ".%2e/app.py",
    "%2e./app.py",
    "%c0%ae%c0%ae/app.py",
    "%c0%af../app.py",
    "%e0%80%ae%e0%80%ae/app.py",
    "\uff0e\uff0e/app.py",
    "%ef%bc%8e%ef%bc%8e%ef%bc%8fapp.py",
    "\u2024\u2024/app.py",
    "..%00/app.py",
    "style.css%00../../app.py",
    "%00",
    "/etc/passwd",
    "%2fetc%2fpasswd",
    "//etc/passwd",
    "\\etc\\passwd",
    "C:\\Windows\\win.ini",
    "....//app.py",
    "..;/app.py",
    "./../app.py",
    "chess/../../app.py",
    "chess/%2e%2e/%2e%2e/app.py",
    "a" * 5000,
    "a/" * 3000 + "style.css",
    "../" * 3000 + "etc/passwd",
    "é" * 3000,
]
"""Paths after /static/ that try to climb out of the folder, as a browser or a script may
send them: dots and slashes encoded once, twice, overlong, full-width, with NUL, absolute,
very long."""


@pytest.mark.parametrize("traversal", TRAVERSALS)
def test_no_path_under_static_sends_a_file_from_outside_it(client, traversal):
    assert call("/static/style.css")[0] == 200  # the same call sends a file that is there
    outside = (web.STATIC.parent / "app.py").read_bytes()
    for decoded in {unquote(traversal), unquote(unquote(traversal)), traversal}:
        status, body = call(f"/static/{decoded}")
        assert status in (404, 405), (decoded[:80], status)  # never a file, never a 500
        assert body in (b"Not Found", b""), decoded[:80]
        assert outside not in body
    response = client.get(f"/static/{traversal}")
    assert response.status_code == 404 and "create_app" not in response.text


def refusal_of(response: Any) -> str:
    """The one-line message of a refused request: `{"error": ...}`, a 200 or a 400."""
    assert response.status_code in (200, 400), response.status_code
    answer = response.json()
    assert list(answer) == ["error"], answer
    message = answer["error"]
    assert "\n" not in message and len(message) <= MESSAGE_LENGTH, message
    assert "Traceback" not in message and 'File "' not in message
    return message


POSTED = [path for method, path in requests() if method == "POST"]


@pytest.mark.parametrize("path", POSTED)
def test_every_posted_route_refuses_a_body_it_will_not_read_in_one_line(client, path):
    too_large = (b" " * 2**20 for _ in range(web.REQUEST_BYTES // 2**20 + 1))  # chunked
    assert refusal_of(client.post(path, content=too_large)) == "a request is at most 64 MB"
    for body in (
        b"",
        b"{",
        b"not json",
        b"\xff\xfe\x00",
        b"[" * 100_000,
        b'{"a": ' * 100_000,
        b"9" * 5000,
        b'{"matrix": "1"} trailing',
        b'{"matrix": ' + b"9" * 5000 + b"}",
    ):
        assert refusal_of(client.post(path, content=body)) == "the request is not JSON", body[:20]
    for body in (b"[1, 2]", b'"text"', b"null", b"3", b"true", b"NaN"):
        assert refusal_of(client.post(path, content=body)) == "the request is not a JSON object"
    for hostile in ({}, {"matrix": None, "tree": [], "run": "/etc"}, {"\x00": "\x00" * 1000}):
        refusal_of(client.post(path, json=hostile))


def chunks(*parts: bytes) -> Iterator[bytes]:
    yield from parts


def test_a_chunked_body_without_a_length_is_read_as_any_other(client):
    answer = client.post("/api/matrix", content=chunks(b'{"matrix": ', b'"3 -1; -2 4"}')).json()
    assert answer["value_exact"] == "1"


@pytest.mark.parametrize(
    ("matrix", "start"),
    [
        ("9" * 5000, "cell '9999999999"),
        ("1/0", "cell '1/0' at row 1, column 1 divides by zero"),
        ("nan 1; 1 2", "cell 'nan' at row 1, column 1 is not a finite number"),
        ("1\x00 2", "cell '1\\x00' at row 1, column 1 is not a number"),
        ("1e99999999", "cell '1e99999999' at row 1, column 1 has more than 1,000 digits"),
        (";" * 100_000, "the payoff matrix is empty"),
        (";".join([" ".join(["1,2"] * 30)] * 30), "pairs of supports of a bimatrix game"),
    ],
)
def test_a_hostile_matrix_is_the_librarys_one_line(client, matrix, start):
    assert refusal_of(client.post("/api/matrix", json={"matrix": matrix})).startswith(start)


def test_a_matrix_past_the_cells_limit_is_refused_and_dominance_past_its_own_is_a_note(
    client, monkeypatch
):
    import zerosum.theory.matrix as theory
    import zerosum.theory.payoffs as payoffs

    monkeypatch.setattr(payoffs, "MATRIX_CELLS", replace(payoffs.MATRIX_CELLS, most=400))
    wide = " ".join(str(i % 7) for i in range(401))
    refused = refusal_of(client.post("/api/matrix", json={"matrix": wide}))
    assert refused.startswith("the payoff matrix has more than 400 cells, the limit")
    assert "--no-limit" not in refused  # the page cannot lift it
    limit = replace(theory.DOMINANCE_COMPARISONS, most=10_000)
    monkeypatch.setattr(theory, "DOMINANCE_COMPARISONS", limit)
    row = " ".join(str(i % 7) for i in range(300))  # 257 columns go, one a step
    answer = client.post("/api/matrix", json={"matrix": row}).json()
    assert answer["lower_value"] == 0 and answer["dominance"] is None
    note = answer["dominance_note"]
    assert note.startswith("the comparisons of iterated elimination of dominated strategies")
    assert "is over the limit of 10,000" in note and "--no-limit" not in note
    assert "\n" not in note and len(note) <= MESSAGE_LENGTH


@pytest.mark.parametrize(
    ("tree", "start"),
    [
        ("[" * 100_000 + "1" + "]" * 100_000, "the tree goes deeper than 200 levels"),
        ('{"chance": ' * 300 + "1" + "}" * 300, "the tree goes deeper than 200 levels"),
        ("[[NaN, 1]]", "node 0.0 is nan: leaf values must be finite numbers"),
        ("[[" + "9" * 5000 + ",1]]", "the number '9999"),
        ('[{"chance": [[2, 6], [-1, 6]]}]', "node 0: outcome 1 has probability -1"),
        ('{"a": 1}', "the root is {'a': 1}"),
        ("[[1,\\ud800]]", "malformed tree"),
        ("[]", "the root is an empty list"),
        ("[" + ",".join(["1"] * 20_000) + "]", "the tree has 20,001 nodes: the nodes of a tree"),
    ],
)
def test_a_hostile_tree_is_the_librarys_one_line(client, tree, start):
    refused = refusal_of(client.post("/api/tree", json={"tree": tree}))
    assert refused.startswith(start), refused


def test_a_tree_of_the_commands_million_nodes_is_refused_before_it_is_searched(client):
    from zerosum.web.tree import PAGE_NODES

    largest = "[" + ",".join(["1"] * (PAGE_NODES.most - 1)) + "]"
    assert client.post("/api/tree", json={"tree": largest}).json()["tree_leaves"] == 19_999
    million = "[" + ",".join(["1"] * 999_999) + "]"
    refused = refusal_of(client.post("/api/tree", json={"tree": million}))
    assert refused.startswith("the tree has 1,000,000 nodes: the nodes of a tree the page")


def test_the_tree_routes_other_fields_are_one_line_each(client):
    textbook = "[[3,12,8],[2,4,6],[14,5,2]]"
    for fields in (
        {"algorithm": "x" * 100_000},
        {"algorithm": "\x00"},
        {"order": "1," * 100_000},
        {"order": "9" * 5000},
        {"order": "\x00"},
        {"order": -1},
        {"algorithm": ["alphabeta"]},
    ):
        refusal_of(client.post("/api/tree", json={"tree": textbook} | fields))


@pytest.mark.parametrize(
    "run",
    [None, -1, 8, 10**400, 1.0, True, "0", "/etc", "../../", "\x00", [0], {"run": 0}, "~"],
)
def test_a_chart_run_that_names_no_run_is_one_line(client, run):
    body = json.dumps({"run": run} if run is not None else {})
    assert refusal_of(client.post("/api/ordering", content=body)) == (
        "the chart's runs are numbered 0 to 7"
    )
