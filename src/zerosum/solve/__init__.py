"""Whole-game solving: retrograde analysis and the tables it builds.

`solve(game)` enumerates every position reachable from the start and solves them all from the
end backwards; the `Table` it returns gives any position's value for the side to move, its
distance to the end under perfect play and its best moves, and saves to (and loads from) a
verified file. A layered game too large for one process's memory is built by partitions kept
in a work directory (`partitioned.build`) and written as a compact, memory-mapped table
(`compact.write`, `compact.load`). Games with dice and cycles: `value_iteration` (any small
keyed game) and `pig.solve_pig` (Pig, level by level).
"""

from zerosum.solve.retrograde import Progress, solve
from zerosum.solve.table import Counts, Probe, Table, read_header

__all__ = ["Counts", "Probe", "Progress", "Table", "read_header", "solve"]
