"""The tasks of a partitioned build (`zerosum.solve.partitioned`), each on one partition of a
layer, run in the building process or sent to a worker (a process of a pool, or of a Dask
cluster: top-level functions, pickled by reference). Each reads and writes files of the work
directory only, and returns counts and its process's peak memory:

- `route`: expand a partition and send its children's distinct keys to their owners in the
  later layers (its expansion kept for `settle`, as `EXPANSION` says, when asked);
- `gather`: a partition of a layer from the keys every partition of the earlier layers sent it;
- `answer`: the ranks and movers of a solved partition's keys, for every partition that asked;
- `settle`: a partition's ranks from its expansion and its children's answers.

A partition of layer k sends its children by *place*: the child in layer m owned by partition
q of that layer goes to place `(m - k - 1) * parts + q` (`place`), so that the shares of one
file are the later layers in order, each layer's partitions in order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from zerosum.solve.layers import best_of_children, by_place, expand_layer, owner, sorted_unique
from zerosum.solve.parallel import peak_memory
from zerosum.solve.workdir import file_name, load, save, send, share_of

EXPANSION = ("movers", "counts", "ranks", "children")
"""What `route` keeps of a partition's expansion for `settle`: each position's mover, number of
moves and terminal rank, and its children one position after another, each as its index among
the keys the partition sent (`from-P.npy`, place after place), where the owners' answers put
its rank."""
SETTLED_AT_ONCE = 1 << 16
"""Positions valued at a time from their children: few enough that the arrays of their
children stay in the processor's cache (5x4 Connect Four: 20% faster than a batch of a
million)."""


def place(layer: int, later: Any, partition: Any, parts: int) -> Any:
    """Where a partition of layer `layer` sends a child in layer `later` owned there by
    `partition` (of `parts`): the later layers in order, each one's partitions in order (an
    integer, or an array of them for arrays of children)."""
    return (later - layer - 1) * parts + partition


def route(
    game: Any,
    layer: int,
    source: str,
    entry: dict[str, Any],
    partition: int,
    parts: int,
    batch: int,
    outbox: str,
    keep: bool = False,
) -> tuple[int, dict[int, int], dict[int, int], int, dict[str, Any]]:
    """Expand partition `partition` of layer `layer` (in `source`) and send its children's
    distinct keys to their owners among the `parts` of each later layer, ascending within each
    owner's share: one file in `outbox` (`from-P.npy`, shares by `place`, see `send`). With
    `keep`, the expansion is kept there too for `settle` (`expanded-P.KIND.npy`, see
    `EXPANSION`). Its positions; their moves and their distinct children (the keys sent), each
    by the layer they reach; this process's peak memory; and the manifest entries of the files
    written (named from the layer's directory)."""
    keys = load(Path(source) / file_name("keys", partition), entry)
    children, expanded = [], []
    moves: dict[int, int] = {}
    for start in range(0, len(keys), batch):
        columns = expand_layer(game, layer, keys[start : start + batch])
        _count(moves, columns[4])
        children.append(_distinct(columns[3], columns[4]))
        if keep:
            expanded.append(columns)
    if len(children) == 1:
        merged, merged_layers = children[0]
    elif children:
        keys, layers = (np.concatenate(column) for column in zip(*children, strict=True))
        merged, merged_layers = _distinct(keys, layers)
    else:
        merged, merged_layers = _NO_KEYS, _NO_LAYERS
    del children
    reach = int(merged_layers.max()) if len(merged_layers) else layer
    places = (reach - layer) * parts
    if places > 1:
        owners = owner(merged, parts).astype(np.int64)
        order, bounds = by_place(place(layer, merged_layers, owners, parts), places)
    else:  # one owner, or none
        order, bounds = np.arange(len(merged)), np.array([0, len(merged)] if places else [0])
    box = Path(outbox)
    written = {
        file_name("from", partition): send(
            box / file_name("from", partition), merged[order], bounds
        )
    }
    if keep:
        if not expanded:  # an empty partition
            expanded.append(expand_layer(game, layer, _NO_KEYS))
        movers, counts, ranks, child_keys, _ = (
            np.concatenate(c) for c in zip(*expanded, strict=True)
        )
        del expanded
        sent_at = np.empty(len(order), np.uint32 if len(order) < 1 << 32 else np.uint64)
        sent_at[order] = np.arange(len(order))  # where each key of `merged` was sent
        indices = sent_at[np.searchsorted(merged, child_keys)]
        del child_keys, sent_at
        columns = (movers, counts.astype(np.uint32), ranks.astype(np.int32), indices)
        for kind, column in zip(EXPANSION, columns, strict=True):
            name = file_name(f"expanded-{kind}", partition)
            written[name] = save(box / name, column)
    sent: dict[int, int] = {}
    _count(sent, merged_layers)
    entries = {f"{box.name}/{name}": entry for name, entry in written.items()}
    return len(keys), moves, sent, peak_memory(), entries


def _distinct(keys: np.ndarray, layers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct keys of children, in order, and each one's layer (`layers`, child by
    child: a key is one position's, in one layer)."""
    distinct = sorted_unique(keys)
    if not len(layers) or layers.min() == layers.max():  # one layer, as when moves add one
        return distinct, np.full(len(distinct), layers[0] if len(layers) else 0, np.int64)
    found = np.empty(len(distinct), np.int64)
    found[np.searchsorted(distinct, keys)] = layers
    return distinct, found


def _count(counts: dict[int, int], layers: np.ndarray) -> None:
    """Add to `counts` how many of `layers` are in each layer."""
    if not len(layers):
        return
    if layers.min() == layers.max():
        found = {int(layers[0]): len(layers)}
    else:
        values, numbers = np.unique(layers, return_counts=True)
        found = dict(zip(values.tolist(), numbers.tolist(), strict=True))
    for later, number in found.items():
        counts[later] = counts.get(later, 0) + number


_NO_KEYS = np.empty(0, np.uint64)
_NO_LAYERS = np.empty(0, np.int64)
_NO_ANSWERS = np.empty(0, np.int64)


def gather(
    folder: str, partition: int, parts: int, sources: list[tuple[str, int]]
) -> tuple[dict[str, Any], int, int]:
    """Partition `partition` of the layer in `folder` from the keys the `parts` partitions of
    each earlier layer sent it (`sources`: each layer's outbox, and the place there of this
    layer's first partition), each position once, written in order: its manifest entry, its
    positions and this process's peak memory."""
    sent = [
        share_of(Path(outbox) / file_name("from", sender), first + partition)
        for outbox, first in sources
        for sender in range(parts)
    ]
    sent = [share for share in sent if len(share)]
    if len(sent) == 1:  # already distinct and in order
        keys = sent[0]
    else:
        keys = sorted_unique(np.concatenate(sent), runs=True) if sent else _NO_KEYS
    del sent
    return save(Path(folder) / file_name("keys", partition), keys), len(keys), peak_memory()


def answer(
    above: str,
    files: dict[str, Any],
    partition: int,
    parts: int,
    asked: str,
    answered: str,
    first: int,
) -> int:
    """Answer, for partition `partition` of the solved layer in `above`, every key each of the
    `parts` partitions of an earlier layer asked of it (in `asked`, at place `first +
    partition`) with its rank and mover, packed as `rank * 2 + mover`, in the order asked: one
    file in `answered` (`from-S.npy`, S that place, see `send`). This process's peak memory."""
    folder = Path(above)
    keys, ranks, movers = (
        load(folder / file_name(kind, partition), files[file_name(kind, partition)])
        for kind in ("keys", "ranks", "movers")
    )
    answers, sizes = [], np.zeros(parts + 1, np.int64)
    for source in range(parts):
        path = Path(asked) / file_name("from", source)
        wanted = share_of(path, first + partition)
        if len(wanted) == len(keys) and np.array_equal(wanted, keys):
            answers.append(ranks.astype(np.int64) * 2 + movers)  # asked for all, in order
        else:
            index = np.searchsorted(keys, wanted)
            if len(wanted) and (index[-1] >= len(keys) or not np.array_equal(keys[index], wanted)):
                raise ValueError(
                    f"{path}: a child the layer above does not hold (a damaged build?)"
                )
            answers.append(ranks[index].astype(np.int64) * 2 + movers[index])
        sizes[source + 1] = len(wanted)
    path = Path(answered) / file_name("from", first + partition)
    send(path, np.concatenate(answers), np.cumsum(sizes))
    return peak_memory()


def settle(
    source: str,
    entry: dict[str, Any],
    partition: int,
    asked: str,
    answered: str,
    places: list[int],
) -> tuple[dict[str, Any], int, int]:
    """Solve partition `partition` of a layer (in `source`) from its expansion (kept by
    `route` in `asked`, checked by the run that found it there) and its children's ranks and
    movers (answered by their owners in the later layers, in `answered`, at each of `places`):
    each position's rank for its side to move and its mover, written beside its keys. Their
    manifest entries, its positions and this process's peak memory."""
    folder = Path(source)
    count = entry["shape"][0]
    movers, counts, ranks, children = (
        np.load(Path(asked) / file_name(f"expanded-{kind}", partition)) for kind in EXPANSION
    )
    if len(movers) != count:
        raise ValueError(f"{asked}: the expansion of partition {partition} is not whole")
    # The ranks and movers of the keys this partition sent, in the order it sent them: each
    # owner answered its share in the order it was asked (none was asked of a layer no move
    # reaches).
    packed = np.concatenate(
        [_NO_ANSWERS]
        + [share_of(Path(answered) / file_name("from", at), partition) for at in places]
    )
    child_ranks, child_movers = (packed >> 1).astype(np.int32), (packed & 1).astype(np.uint8)
    del packed
    solved = ranks.copy()
    edges = np.zeros(count + 1, np.intp)
    np.cumsum(counts, out=edges[1:])
    for start in range(0, count, SETTLED_AT_ONCE):
        stop = min(start + SETTLED_AT_ONCE, count)
        index = children[edges[start] : edges[stop]]
        solved[start:stop] = best_of_children(
            movers[start:stop],
            counts[start:stop].astype(np.intp),
            ranks[start:stop],
            child_movers[index],
            child_ranks[index],
        )
    entries = {
        file_name(kind, partition): save(folder / file_name(kind, partition), column)
        for kind, column in (("ranks", solved), ("movers", movers))
    }
    return entries, count, peak_memory()
