"""How many of the program's searches a server runs at once: `SearchSlots`.

A search takes a core for up to `MOST_SECONDS`, and a server may hold many tabs. The server
runs at most `most` searches together (by default one a core), each in a worker thread of its
own (compiled searches release the GIL, so they run side by side and the event loop goes on
answering); a tab asking for one more waits in line, in the order asked, and is told its place
first. A tab runs one search at a time (`zerosum.web.play.PlaySession`), so the line is never
longer than the tabs open, and those are bounded too (`MOST_CONNECTIONS`).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

MOST_CONNECTIONS = 100
"""The most Play page connections (tabs) a server holds at once: one more is told so and
closed."""

SEARCHES = os.cpu_count() or 1
"""The searches run at once by default: one a core."""

MOST_SEARCHES = 64
"""The most searches at once `zerosum serve --searches` accepts."""

Result = TypeVar("Result")


def checked_searches(count: int) -> int:
    """`count`, the searches a server runs at once, when it is one of 1 to `MOST_SEARCHES`;
    else ValueError with the range."""
    if not 1 <= count <= MOST_SEARCHES:
        raise ValueError(f"--searches must be from 1 to {MOST_SEARCHES}, not {count}")
    return count


class SearchSlots:
    """At most `most` searches at once, run in worker threads in the order asked (see the
    module). `running` and `waiting` count them; `started` counts every search begun. Its
    counts are kept under a lock, so searches asked for on several event loops (a test
    client's, one a connection) share the same slots."""

    def __init__(self, most: int = SEARCHES) -> None:
        self.most = checked_searches(most)
        self.running = 0
        self.started = 0
        self.line: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self.lock = threading.Lock()
        self.workers = ThreadPoolExecutor(most, thread_name_prefix="zerosum-search")

    @property
    def waiting(self) -> int:
        """The searches waiting in line for a slot."""
        return len(self.line)

    async def run(
        self,
        search: Callable[[], Result],
        wait: Callable[[int], Awaitable[None]],
        begin: Callable[[], Awaitable[None]],
    ) -> Result:
        """`search()` in a worker thread once a slot is free, `begin()` awaited just before; when
        no slot is free, `wait(place)` is awaited first (1: next in line). Cancelled in line,
        the search never starts; a slot is free again when its search's thread is."""
        loop = asyncio.get_running_loop()
        with self.lock:
            queued = self.running >= self.most or bool(self.line)
            if queued:
                turn = loop.create_future()
                self.line.append((loop, turn))
                place = len(self.line)
            else:
                self.running += 1
        if queued:
            try:
                await wait(place)
                await turn
            except asyncio.CancelledError:
                with self.lock:
                    handed = (loop, turn) not in self.line
                    if not handed:
                        self.line.remove((loop, turn))
                # A turn handed over but not taken: pass it on (`_hand` does, if still to come).
                if handed and turn.done() and not turn.cancelled():
                    self._free()
                raise
        try:
            await begin()
        except BaseException:
            self._free()
            raise
        self.started += 1
        working = self.workers.submit(search)
        # The slot is free when the thread is, even if the one awaiting it was cancelled.
        working.add_done_callback(lambda _: self._free())
        return await asyncio.wrap_future(working)

    def _free(self) -> None:
        """A slot is free (in any thread): hand it to the first in line, or count it free."""
        with self.lock:
            while self.line:
                loop, turn = self.line.popleft()
                try:
                    loop.call_soon_threadsafe(self._hand, turn)
                    return
                except RuntimeError:  # its event loop has ended: nobody waits there
                    continue
            self.running -= 1

    def _hand(self, turn: asyncio.Future[None]) -> None:
        """Give `turn` its slot (on its event loop), or pass it on if it left meanwhile."""
        if turn.cancelled():
            self._free()
        else:
            turn.set_result(None)

    def close(self) -> None:
        """Let the worker threads end once their searches have (the server stops)."""
        self.workers.shutdown(wait=False, cancel_futures=True)
