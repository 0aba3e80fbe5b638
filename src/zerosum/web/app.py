"""The Starlette application behind `zerosum serve`: its pages, its JSON routes, its guard.

Pages are fixed files of `static/` named in `PAGES`; `/static/` serves that folder and
nothing outside it; the search stepper's script and style are the HTML animation's own
(`zerosum.show.html`), sent from memory. The JSON routes take a small object in a POST and
answer with the result, or with `{"error": message}` when the input is refused: the message is
the library's own (the same as the command line's), never a traceback. That answer has status
200, as the page asked a question and was answered (a browser logs every 4xx as an error in its
console); a body the server will not read at all (too large, not a JSON object) is a 400.
`GET /api/ordering` lists the runs of the tree page's chart, each then asked for by a POST.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from zerosum.limits import one_line
from zerosum.registry import GameEntry
from zerosum.show.html import STEPPER_SCRIPT, STEPPER_STYLE
from zerosum.theory.payoffs import FILE_BYTES
from zerosum.web.guard import SameOriginGuard
from zerosum.web.matrix import solved_matrix
from zerosum.web.ordering import chart_orders, chart_run
from zerosum.web.play import PlaySession, Preset, games_message, network_preset, offered_games
from zerosum.web.slots import MOST_CONNECTIONS, SEARCHES, SearchSlots
from zerosum.web.tree import TEXTBOOK_TREE, searched_tree

STATIC = Path(__file__).resolve().parent / "static"
"""The folder of every file the server sends: pages, scripts, the style sheet."""

PAGES = {"/": "index.html", "/play": "play.html", "/matrix": "matrix.html", "/tree": "tree.html"}
"""Each page's address and its file in `STATIC`."""

TRY_AGAIN_LATER = 1013
"""The websocket close code for a connection the server is too busy to take (RFC 6455's
registry)."""

REQUEST_BYTES = FILE_BYTES.most
"""The largest request body read: the largest matrix file `zerosum matrix --csv` reads."""

SECURITY_HEADERS = {
    # Scripts and styles from this server only: text shown on a page can never run as code.
    "Content-Security-Policy": (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;"
        " frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def create_app(
    hosts: Iterable[str],
    games: Sequence[str] = (),
    network: str | None = None,
    searches: int = SEARCHES,
) -> Starlette:
    """The application, answering only requests addressed to one of `hosts` ("127.0.0.1:8000");
    the Play page offers the registry's games and `games`, the user's own named on the command
    line (ValueError, with the reason, for one it cannot play), and starts with the game the
    run in the directory `network` learned, played by its network (ValueError in one line when
    there is no run there). The program runs at most `searches` searches at once, for all the
    tabs (`zerosum.web.slots`)."""
    preset = None if network is None else network_preset(network)
    offered = offered_games([*games, preset.game] if preset is not None else games)
    slots = SearchSlots(searches)
    routes: list[BaseRoute] = [Route(path, _page(name)) for path, name in PAGES.items()]
    routes += [
        WebSocketRoute("/ws/play", _play_socket(offered, preset, slots)),
        Route("/api/matrix", _json_route(_solve_matrix), methods=["POST"]),
        Route("/api/tree", _json_route(_search_tree), methods=["POST"]),
        Route("/api/ordering", _json_route(_ordering_run), methods=["POST"]),
        Route("/api/ordering", _ordering_orders, methods=["GET"]),
        # The stepper's script and style live with the HTML animation, their one home.
        Route("/stepper.js", _text(STEPPER_SCRIPT, "text/javascript")),
        Route("/stepper.css", _text(STEPPER_STYLE, "text/css")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        slots.close()

    app = Starlette(
        routes=routes,
        middleware=[Middleware(SameOriginGuard, hosts=list(hosts))],
        lifespan=lifespan,
    )
    app.state.slots = slots  # the server's searches, counted (tests and the load benchmark)
    return app


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    path = STATIC / name

    async def page(request: Request) -> Response:
        return FileResponse(path, media_type="text/html", headers=SECURITY_HEADERS)

    return page


def _play_socket(
    offered: dict[str, GameEntry], preset: Preset | None, slots: SearchSlots
) -> Callable[[WebSocket], Awaitable[None]]:
    """The Play page's websocket: a `PlaySession` for each connection, its searches run in
    `slots`, its search stopped when the connection closes; the page starts with `preset` when
    there is one. One connection more than `MOST_CONNECTIONS` is told so and closed."""
    listed = games_message(offered, preset)
    connections = 0

    async def play(websocket: WebSocket) -> None:
        nonlocal connections
        await websocket.accept()
        if connections >= MOST_CONNECTIONS:
            full = f"the server holds {MOST_CONNECTIONS} games at once: close another tab"
            await websocket.send_json({"type": "error", "message": full})
            await websocket.close(TRY_AGAIN_LATER, full)
            return
        connections += 1
        session = PlaySession(offered, slots)
        sender = asyncio.create_task(session.deliver(websocket.send_json))
        await session.send(listed)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")  # a binary frame has bytes instead
                await session.receive(text if text is not None else message.get("bytes"))
        except WebSocketDisconnect:
            pass
        finally:
            connections -= 1
            await session.close()
            sender.cancel()

    return play


def _text(text: str, media_type: str) -> Callable[[Request], Awaitable[Response]]:
    async def send(request: Request) -> Response:
        return Response(text, media_type=media_type, headers=SECURITY_HEADERS)

    return send


class RefusedRequest(ValueError):
    """A request body the server will not read: too large, not JSON, not an object."""


def _solve_matrix(body: dict[str, Any]) -> dict[str, Any]:
    text = body.get("matrix")
    if not isinstance(text, str):
        raise ValueError('give the matrix as text, e.g. "3 -1; -2 4"')
    return solved_matrix(text)


def _search_tree(body: dict[str, Any]) -> dict[str, Any]:
    text, algorithm = body.get("tree"), body.get("algorithm", "alphabeta")
    order = body.get("order", "")
    if not (isinstance(text, str) and isinstance(algorithm, str) and isinstance(order, str)):
        raise ValueError(
            f'give the tree as text, e.g. "{TEXTBOOK_TREE}", the algorithm and the order'
        )
    return searched_tree(text, algorithm, order)


def _ordering_run(body: dict[str, Any]) -> dict[str, Any]:
    return chart_run(body.get("run"))


async def _ordering_orders(request: Request) -> Response:
    return JSONResponse(chart_orders())


def _json_route(
    answer: Callable[[dict[str, Any]], dict[str, Any]],
) -> Callable[[Request], Awaitable[Response]]:
    """A POST route calling `answer(body)` in a worker thread (the solvers take their time and
    must not stop the server answering), a ValueError becoming `{"error": ...}`."""

    async def route(request: Request) -> Response:
        try:
            body = await _json_body(request)
        except RefusedRequest as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        try:
            result = await run_in_threadpool(answer, body)
        except ValueError as error:
            return JSONResponse({"error": one_line(str(error))})
        return JSONResponse(result)

    return route


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to REQUEST_BYTES."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > REQUEST_BYTES:
            raise RefusedRequest(f"a request is at most {REQUEST_BYTES // 2**20} MB")
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):  # not JSON, a number of 4,300 digits, deep brackets
        raise RefusedRequest("the request is not JSON") from None
    if not isinstance(body, dict):
        raise RefusedRequest("the request is not a JSON object")
    return body
