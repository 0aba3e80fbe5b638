"""What the Play page costs a search: nodes per second with the page watching, against the
library searching directly, and the delay from the engine's answer to the move on the board.

1. The same searches (a fresh engine each, so the same nodes) run directly in this process and
   through a real websocket to `zerosum serve` (a process of its own, started here), which runs
   them in its worker thread and streams every iteration to the page; the runs of each way take
   turns, the best of `--repeat` kept. With the page, the nodes are those its iterations count
   and the time runs from the message saying the program thinks to the one with its move;
   directly, the search's nodes and the time of the call.
2. In chromium (Playwright), a Connect Four game clicked through against the engine: for each
   of the program's moves, the time from the server's message with the move (and from its last
   iteration, sent as the search returns) reaching the page to the frame that draws the board.

Run by hand: python benchmarks/serve_overhead.py [--repeat 5] [--moves 10].
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from websockets.sync.client import connect

from zerosum import registry
from zerosum.compiled import choice
from zerosum.web.process import served

SEARCHES = (  # game, position, depth: a compiled engine and the Python one
    ("connect4", "4453", 16),
    ("chess", "", 5),
)

MARKS = """
window.zerosumMarks = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const socket = new Native(url, protocols);
  socket.addEventListener("message", (event) => {  // before the page's own listener
    window.zerosumMarks.push([JSON.parse(event.data).type, performance.now()]);
  });
  return socket;
};
window.WebSocket.prototype = Native.prototype;
window.WebSocket.OPEN = Native.OPEN;
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver(() => {
    requestAnimationFrame(() => window.zerosumMarks.push(["drawn", performance.now()]));
  }).observe(document.getElementById("record"), { childList: true });
});
"""
"""Recorded in the page: when each message arrives, and the frame after the record changes."""


def direct(game_name: str, position: str, depth: int) -> tuple[int, float]:
    """The nodes and seconds of a fresh engine's search, in this process."""
    setup = registry.setup(game_name, position)
    engine = choice.engine(setup.game)
    start = time.perf_counter()
    result = engine.search(setup.state, depth=depth)
    return result.stats.nodes, time.perf_counter() - start


def watched(address: str, game_name: str, position: str, depth: int) -> tuple[int, float]:
    """The nodes and seconds of the same search by the server, its iterations streamed: the
    nodes its iterations count, the seconds from the page told it thinks to the page told its
    move (the websocket's latency, about a millisecond, included)."""
    url = address.replace("http://", "ws://") + "/ws/play"
    with connect(url, origin=address, max_size=None) as socket:
        json.loads(socket.recv())  # the games
        new = {"type": "new", "game": game_name, "position": position, "human": 1}
        setup = registry.setup(game_name, position)
        new["human"] = 1 - setup.game.to_move(setup.state)  # the program moves first
        socket.send(json.dumps(new | {"strength": {"kind": "depth", "plies": depth}}))
        nodes, start = 0, 0.0
        while True:
            message = json.loads(socket.recv())
            if message["type"] == "thinking":
                start = time.perf_counter()
            elif message["type"] == "iteration":
                nodes += message["nodes"]
            elif message["type"] == "position" and message["record"]:
                return nodes, time.perf_counter() - start
            elif message["type"] == "error":
                raise ValueError(message["message"])


def speeds(address: str, repeat: int) -> None:
    print("| search | nodes | direct nodes/s | with the page watching | page / direct |")
    print("|---|---:|---:|---:|---:|")
    for game_name, position, depth in SEARCHES:
        direct(game_name, position, depth)  # compiled, or read from numba's cache, first
        watched(address, game_name, position, depth)
        best: dict[str, float] = {"direct": 0.0, "page": 0.0}
        counted: dict[str, int] = {}
        for _ in range(repeat):
            for way in ("direct", "page"):
                if way == "direct":
                    nodes, seconds = direct(game_name, position, depth)
                else:
                    nodes, seconds = watched(address, game_name, position, depth)
                counted[way] = nodes
                best[way] = max(best[way], nodes / seconds)
        impl = choice.implementation(registry.setup(game_name, position).game)
        what = f"{game_name} {position or 'start'}, depth {depth} ({impl})"
        same = "" if counted["direct"] == counted["page"] else f" (page: {counted['page']:,})"
        print(
            f"| {what} | {counted['direct']:,}{same} | {best['direct']:,.0f}"
            f" | {best['page']:,.0f} | **{best['page'] / best['direct']:.2f}** |"
        )


def delays(address: str, moves: int) -> None:
    sys.path.insert(0, "tests")
    from playwright import sync_api
    from test_animation_browser import FLAGS, find_chromium

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=FLAGS)
        context = browser.new_context(bypass_csp=True)  # the measuring script is injected
        context.add_init_script(MARKS)
        page = context.new_page()
        page.goto(address + "/play")
        page.wait_for_selector("body[data-game='1']")
        page.select_option("#game", "connect4")
        page.select_option("#strength", "depth")
        page.fill("#amount", "8")
        page.click("#new")
        page.wait_for_selector("body[data-game='2']")
        for played in range(moves):
            if page.text_content("#result"):
                break
            page.locator(".board-connect4 .column.playable").first.click()
            page.wait_for_selector(
                f"#record li:nth-child({2 * played + 2}), #result:not(:empty)", timeout=60_000
            )
            time.sleep(0.2)  # the frame after the move
        marks: list[Any] = page.evaluate("window.zerosumMarks")
        browser.close()
    from_position, from_answer = [], []
    last_iteration = None
    waiting = None
    for kind, when in marks:
        if kind == "iteration":
            last_iteration = when
        elif kind == "thinking":
            waiting = "move"
        elif kind == "position" and waiting == "move":
            waiting = when
        elif kind == "drawn" and isinstance(waiting, float):
            from_position.append(when - waiting)
            if last_iteration is not None:
                from_answer.append(when - last_iteration)
            waiting = last_iteration = None
    print()
    print(f"| the program's moves shown ({len(from_position)}) | median | most |")
    print("|---|---:|---:|")
    for label, values in (
        ("from its move's message to the board drawn", from_position),
        ("from its last iteration (the engine's answer) to the board drawn", from_answer),
    ):
        print(f"| {label} | {statistics.median(values):.1f} ms | {max(values):.1f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    with served() as address:
        speeds(address, args.repeat)
        delays(address, args.moves)


if __name__ == "__main__":
    main()
