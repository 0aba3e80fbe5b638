"""The page under load: many tabs each asking for the longest search the server allows, while
a new visitor loads the Play page and plays; then every tab closes and the server goes idle.

`zerosum serve` runs in a process of its own, on the loopback address only. `--tabs` websockets
(50) each start a chess game with the program to move at the strength "time" at the server's
most (30 s a move): the server runs its few searches at once (one a core, or `--searches`) and
the other tabs wait in line, told their place. Meanwhile a new visitor, `--rounds` times: loads
`/play` over HTTP, opens a websocket, starts a tic-tac-toe game and plays a move; each step's
latency is timed (median and worst), and where its program's search stands (waiting in line,
or thinking). The server's memory (resident set) is sampled all along. Then every socket
closes, and the server's processor time is watched until it is idle (under 5% of a core over a
second): every search stopped. The script stops by itself.

Run by hand: python benchmarks/serve_load.py [--tabs 50] [--rounds 20] [--searches N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from zerosum.web.process import serving

TICKS = os.sysconf("SC_CLK_TCK")
"""Processor time's unit in /proc/PID/stat."""

IDLE = 0.05
"""A server using under this share of a core over a second is idle."""


def resident_bytes(pid: int) -> int:
    """The process's resident memory, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc")


def cpu_seconds(pid: int) -> float:
    """The process's processor time so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def next_of(socket: ClientConnection, kinds: set[str]) -> dict[str, Any]:
    """The next message of one of `kinds`."""
    while True:
        message = json.loads(await socket.recv())
        if message["type"] in kinds:
            return message


class Tab:
    """A tab asking for the longest search, counting what the server tells it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: Counter[str] = Counter()
        self.socket: ClientConnection | None = None

    async def open(self) -> None:
        self.socket = await connect(self.url, max_size=2**24)
        await next_of(self.socket, {"games"})
        strength = {"kind": "time", "seconds": 30}
        new = {"type": "new", "game": "chess", "human": 1, "strength": strength}
        await self.socket.send(json.dumps(new))

    async def listen(self) -> None:
        assert self.socket is not None
        try:
            async for text in self.socket:
                self.seen[json.loads(text)["type"]] += 1
        except Exception:  # closed by this script
            pass


async def page_load(host: str, port: int) -> float:
    """Seconds to GET /play, read whole."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /play HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    if not answer.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"/play answered {answer[:40]!r}")
    return time.perf_counter() - started


async def visit(url: str, host: str, port: int) -> dict[str, Any]:
    """A new visitor: the page, a websocket, a new game, a move; each step's seconds."""
    steps: dict[str, Any] = {"page": await page_load(host, port)}
    started = time.perf_counter()
    async with connect(url) as socket:
        await next_of(socket, {"games"})
        steps["connect"] = time.perf_counter() - started
        started = time.perf_counter()
        strength = {"kind": "time", "seconds": 1}
        new = {"type": "new", "game": "tictactoe", "human": 0, "strength": strength}
        await socket.send(json.dumps(new))
        position = await next_of(socket, {"position"})
        steps["new game"] = time.perf_counter() - started
        started = time.perf_counter()
        await socket.send(json.dumps({"type": "move", "move": position["moves"][0]["move"]}))
        await next_of(socket, {"position"})
        steps["move"] = time.perf_counter() - started
        reply = await next_of(socket, {"waiting", "thinking"})
        steps["program"] = (
            f"waits, {reply['place']} in line" if reply["type"] == "waiting" else "thinks at once"
        )
    return steps


async def load(address: str, pid: int, tabs: int, rounds: int) -> None:
    host, port = address.removeprefix("http://").split(":")
    url = f"ws://{host}:{port}/ws/play"
    idle_memory = resident_bytes(pid)
    peak = idle_memory
    crowd = [Tab(url) for _ in range(tabs)]
    await asyncio.gather(*(tab.open() for tab in crowd))
    listening = [asyncio.create_task(tab.listen()) for tab in crowd]
    await asyncio.sleep(2)  # the searches start and the line forms
    visits = []
    for _ in range(rounds):
        visits.append(await visit(url, host, int(port)))
        peak = max(peak, resident_bytes(pid))
        await asyncio.sleep(0.5)
    told = Counter[str]()
    for tab in crowd:
        told.update(tab.seen)
    print(f"| tabs searching or in line | {tabs} |")
    print(f"| tabs told 'thinking' / 'waiting' | {told['thinking']} / {told['waiting']} |")
    print(f"| server memory, idle / peak | {idle_memory / 2**20:.0f} / {peak / 2**20:.0f} MB |")
    print()
    print("| the new visitor (of", rounds, "visits) | median | worst |")
    print("|---|---:|---:|")
    for step in ("page", "connect", "new game", "move"):
        values = [visit[step] * 1000 for visit in visits]
        print(f"| {step} | {statistics.median(values):.1f} ms | {max(values):.1f} ms |")
    print(f"| its program | {Counter(visit['program'] for visit in visits).most_common(1)[0][0]} |")
    print()
    closing = time.perf_counter()
    for tab in crowd:
        assert tab.socket is not None
        await tab.socket.close()
    for task in listening:
        task.cancel()
    while True:
        before = cpu_seconds(pid)
        await asyncio.sleep(1)
        share = cpu_seconds(pid) - before
        if share < IDLE:
            break
        if time.perf_counter() - closing > 60:
            raise RuntimeError(f"the server still uses {share:.0%} of a core a minute later")
    idle_after = time.perf_counter() - closing
    print(f"| idle (under {IDLE:.0%} of a core) after every tab closed | {idle_after:.1f} s |")
    print(f"| server memory after | {resident_bytes(pid) / 2**20:.0f} MB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--searches", type=int, help="zerosum serve --searches (default: cores)")
    args = parser.parse_args()
    options = [] if args.searches is None else ["--searches", str(args.searches)]
    with serving(*options) as (address, server):
        print(f"zerosum serve at {address}, {os.cpu_count()} cores")
        print()
        print("| measure | value |")
        print("|---|---:|")
        asyncio.run(load(address, server.pid, args.tabs, args.rounds))


if __name__ == "__main__":
    main()
