"""The page under load, by counts and flags: the server's searches at once (`SearchSlots`), a
tab told its place in line, a closed tab leaving the line or stopping its search, a connection
past the most refused in one line. `benchmarks/serve_load.py` runs the same with 50 tabs."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_web_play import URL, new, no_hang, until

from zerosum.cli.serve import own_hosts
from zerosum.web import app as web_app
from zerosum.web.app import TRY_AGAIN_LATER, create_app
from zerosum.web.slots import MOST_SEARCHES, SearchSlots, checked_searches

__all__ = ["no_hang"]  # the fixture that turns a message never coming into a failure

LONG = {"kind": "time", "seconds": 30}
"""A search that ends only when stopped, as far as a test is concerned."""


def settled(condition: Any) -> None:
    """Wait for `condition()` (the server's threads end on their own time); the deadline only
    catches a hang."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, "the server did not settle"
        time.sleep(0.01)


def line_up(first: Any, second: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Two tabs each start a game with the program to move: the first's searches, the second's
    waits in line; the second's `waiting` message and what came before it."""
    for websocket in (first, second):
        until(websocket, "games")
    first.send_json(new("connect4", human=1, strength=LONG))
    until(first, "iteration")
    second.send_json(new("connect4", human=1, strength=LONG))
    return until(second, "waiting")


@pytest.fixture
def one_search():
    """A server running one search at once, on one event loop for all its connections."""
    with TestClient(create_app(own_hosts("127.0.0.1", 8000), searches=1)) as client:
        yield client, client.app.state.slots  # type: ignore[attr-defined]


def test_a_tab_past_the_servers_searches_waits_in_line_and_is_told_its_place(one_search):
    client, slots = one_search
    with client.websocket_connect(URL) as first, client.websocket_connect(URL) as second:
        waiting, before = line_up(first, second)
        assert [message["type"] for message in before] == ["position"]
        assert waiting["place"] == 1 and waiting["searches"] == 1
        assert waiting["text"] == (
            "the server runs 1 search at once: the program waits for one to end (1 in line)"
        )
        assert (slots.running, slots.waiting, slots.started) == (1, 1, 1)
        first.close()  # the first tab goes: its search stops and the second's starts
        thinking, _ = until(second, "thinking")
        assert thinking["player"] == "engine"
        until(second, "iteration")
        assert (slots.running, slots.waiting, slots.started) == (1, 0, 2)
    settled(lambda: slots.running == 0)  # every tab closed: no search left running
    assert (slots.waiting, slots.started) == (0, 2)


def test_a_tab_closed_while_in_line_leaves_it_and_its_search_never_starts(one_search):
    client, slots = one_search
    with client.websocket_connect(URL) as first:
        until(first, "games")
        first.send_json(new("connect4", human=1, strength=LONG))
        until(first, "iteration")
        with client.websocket_connect(URL) as second:
            until(second, "games")
            second.send_json(new("connect4", human=1, strength=LONG))
            until(second, "waiting")
        settled(lambda: slots.waiting == 0)
        assert (slots.running, slots.started) == (1, 1)
        first.send_json({"type": "stop"})  # the first tab's program moves: its slot is free
        position, _ = until(first, "position")
        assert len(position["record"]) == 1
    settled(lambda: slots.running == 0)
    assert slots.started == 1  # the second tab's search never ran


def test_move_now_in_line_plays_as_soon_as_the_search_starts(one_search):
    client, slots = one_search
    with client.websocket_connect(URL) as first, client.websocket_connect(URL) as second:
        line_up(first, second)
        second.send_json({"type": "stop"})  # asked to move now while waiting: it stays in line
        first.send_json({"type": "stop"})
        until(first, "position")
        position, before = until(second, "position")
        assert "thinking" in [message["type"] for message in before]
        assert len(position["record"]) == 1 and position["moves"]  # the person is to move
    settled(lambda: slots.running == 0)
    assert slots.started == 2


def test_a_connection_past_the_most_is_told_so_in_one_line_and_closed(monkeypatch, one_search):
    client, _ = one_search
    monkeypatch.setattr(web_app, "MOST_CONNECTIONS", 2)
    with client.websocket_connect(URL) as first, client.websocket_connect(URL) as second:
        for websocket in (first, second):
            until(websocket, "games")
        with client.websocket_connect(URL) as third:
            refused = third.receive_json()
            assert refused == {
                "type": "error",
                "message": "the server holds 2 games at once: close another tab",
            }
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == TRY_AGAIN_LATER
    with client.websocket_connect(URL) as again:  # the others closed: there is room again
        assert until(again, "games")[0]["type"] == "games"


def test_slots_run_in_the_order_asked_and_a_cancelled_waiter_passes_its_turn_on():
    async def scenario() -> tuple[list[str], list[tuple[str, int]], int]:
        slots = SearchSlots(1)
        ran: list[str] = []
        told: list[tuple[str, int]] = []
        gate = asyncio.Event()
        loop = asyncio.get_running_loop()

        def search(name: str) -> str:
            if name == "a":
                asyncio.run_coroutine_threadsafe(gate.wait(), loop).result()
            ran.append(name)
            return name

        async def ask(name: str) -> str:
            async def wait(place: int) -> None:
                told.append((name, place))

            async def begin() -> None:
                pass

            return await slots.run(lambda: search(name), wait, begin)

        first = asyncio.create_task(ask("a"))
        await asyncio.sleep(0)
        queued = [asyncio.create_task(ask(name)) for name in "bcd"]
        await asyncio.sleep(0.01)
        queued[0].cancel()  # b leaves the line before its turn
        gate.set()
        results = await asyncio.gather(first, *queued[1:])
        assert results == ["a", "c", "d"]
        slots.close()
        return ran, told, slots.started

    ran, told, started = asyncio.run(scenario())
    assert ran == ["a", "c", "d"]
    assert told == [("b", 1), ("c", 2), ("d", 3)]
    assert started == 3


def test_the_searches_at_once_are_from_one_to_the_most():
    assert checked_searches(1) == 1 and checked_searches(MOST_SEARCHES) == MOST_SEARCHES
    for count in (0, -1, MOST_SEARCHES + 1):
        with pytest.raises(ValueError, match=f"--searches must be from 1 to {MOST_SEARCHES}"):
            checked_searches(count)


def test_serve_refuses_searches_out_of_range_in_one_line(cli):
    assert cli.error("serve", "--port", "0", "--searches", "0") == (
        f"zerosum: error: --searches must be from 1 to {MOST_SEARCHES}, not 0\n"
    )
