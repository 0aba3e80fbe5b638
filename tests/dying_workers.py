"""Connect Four games whose expansions kill the worker process doing them, or the build that
started it, for the tests of a build's faults: `KilledOnce` kills the first worker to expand a
given layer, `KilledAlways` every worker that expands layer 3, `KillsItsParent` the build of
the first worker to expand a given layer."""

from __future__ import annotations

import os
import signal
from multiprocessing import parent_process
from pathlib import Path

from zerosum.games.connect4 import ConnectFour


class KilledOnce(ConnectFour):
    """Connect Four whose first expansion of layer `killed_layer` kills the worker process
    doing it (a file at `marker` remembers that it has happened)."""

    def __init__(self, width, height, killed_layer, marker):
        super().__init__(width, height)
        self.killed_layer, self.marker = killed_layer, marker

    def expand_keys(self, keys):
        if len(keys) and self.layers(keys[:1])[0] == self.killed_layer:
            try:
                Path(self.marker).touch(exist_ok=False)
            except FileExistsError:
                pass
            else:
                os._exit(1)  # the worker dies in the middle of the layer
        return super().expand_keys(keys)


class KilledAlways(ConnectFour):
    """Connect Four whose every expansion of layer 3 kills the worker doing it."""

    def expand_keys(self, keys):
        if len(keys) and self.layers(keys[:1])[0] == 3:
            os._exit(1)
        return super().expand_keys(keys)


class KillsItsParent(ConnectFour):
    """Connect Four whose first expansion of layer `killing` in a worker process kills the build
    that started the worker (`kill -9` of the parent), after writing the worker's process id to
    `marker`, which also remembers that it has happened: the worker is left an orphan."""

    def __init__(self, width, height, killing, marker):
        super().__init__(width, height)
        self.killing, self.marker = killing, marker

    def expand_keys(self, keys):
        if len(keys) and self.layers(keys[:1])[0] == self.killing and parent_process():
            try:
                with open(self.marker, "x") as marker:
                    marker.write(str(os.getpid()))
            except FileExistsError:
                pass
            else:
                os.kill(os.getppid(), signal.SIGKILL)
        return super().expand_keys(keys)
