"""The work on one layer that both layered builds share (`retrograde`, `partitioned`).

- *Owners*: a key belongs to one of `parts` parts of its layer, chosen by the high bits of its
  multiplicative hash (Knuth), so that copies of a position reached from anywhere meet in one
  place and any bits of the key spread out.
- *Expansion*: the keys of a layer expanded at once into what retrograde analysis needs of each
  position (its mover, its number of moves, its terminal rank, its children's keys and their
  layers, each later than its own: a move may go to any later layer), by the game's rules on
  arrays (`Vectorized`) or position by position from the keys (`Restorable`).
- *Valuing*: a position's rank (see `zerosum.solve.outcome`) from its children's ranks, each
  seen from the position's side to move.
"""

from __future__ import annotations

from array import array
from itertools import pairwise
from typing import Any

import numpy as np

from zerosum.game import Restorable, Vectorized
from zerosum.solve.outcome import (
    seen_by_mover_all,
    seen_by_opponent_all,
    terminal_rank,
    terminal_rank_all,
)

_FIBONACCI, _MASK = 0x9E3779B97F4A7C15, (1 << 64) - 1
"""Multiplicative hashing of a key to its owner (Knuth)."""


def owner(key: Any, parts: int) -> Any:
    """Which of `parts` parts a key (an int, or a numpy array of uint64 keys) belongs to: the
    high bits of its multiplicative hash, so that any bits of the key spread out."""
    return ((key * _FIBONACCI & _MASK) >> 32) * parts >> 32


def by_owner(keys: np.ndarray, parts: int) -> tuple[np.ndarray, np.ndarray]:
    """How an array of keys falls to `parts` owners: an order of its indices, owner after
    owner and in the order they had within one, and where each owner's begin in it
    (`bounds[q]:bounds[q + 1]`)."""
    if parts == 1:  # one owner: nothing to sort
        return np.arange(len(keys)), np.array([0, len(keys)])
    return by_place(owner(keys, parts), parts)


def by_place(places: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """How items fall to `count` places (`places`, each from 0 to `count` - 1): an order of
    their indices, place after place and in the order they had within one, and where each
    place's begin in it (`bounds[q]:bounds[q + 1]`)."""
    if count <= 1 << 16:  # numpy sorts 16-bit integers by radix, stably, in linear time
        places = places.astype(np.uint16)
    order = np.argsort(places, kind="stable")
    return order, np.searchsorted(places[order], np.arange(count + 1))


def split_by_owner(keys: np.ndarray, parts: int) -> list[np.ndarray | None]:
    """An array of keys in `parts` arrays by `owner`, each in the order it had, None when
    empty."""
    if parts == 1:
        return [keys if len(keys) else None]
    order, bounds = by_owner(keys, parts)
    return [keys[order[a:b]] if b > a else None for a, b in pairwise(bounds)]


def sorted_unique(keys: np.ndarray, *, runs: bool = False) -> np.ndarray:
    """The distinct keys of an array, in order (by sorting: numpy's `unique` hashes them, many
    times slower on these arrays). `runs`: the array is a few sorted runs end to end, which a
    merging sort (numpy's stable one) takes in one pass each."""
    keys = np.sort(keys, kind="stable" if runs else None)
    distinct = np.ones(len(keys), bool)
    np.not_equal(keys[1:], keys[:-1], out=distinct[1:])
    return keys[distinct]


def refuse_earlier(layers: np.ndarray, layer: int) -> None:
    """ValueError unless every one of `layers` (those the moves from layer `layer` reach) is
    later than `layer`: a layer may grow by any amount on a move, never stay or fall."""
    if len(layers) and (lowest := int(layers.min())) <= layer:
        raise ValueError(
            f"a move from layer {layer} reaches layer {lowest}: every move of a layered game"
            " must go to a later layer"
        )


def expand_layer(game: Any, layer: int, keys: np.ndarray) -> tuple[np.ndarray, ...]:
    """The positions of layer `layer` whose keys are `keys` (uint64, distinct), expanded: their
    movers (uint8), numbers of moves (0 exactly for a finished game), terminal ranks (int64, 0
    unless finished, from the mover's point of view), their children's keys (uint64) and the
    children's layers (int64), position after position. ValueError when a child is not in a
    later layer.

    A `Vectorized` game expands them at once; another must be `Restorable` (positions rebuilt
    from keys) and is expanded one position at a time."""
    if isinstance(game, Vectorized):
        movers, counts, utilities, child_keys = game.expand_keys(keys)
        counts = np.asarray(counts, np.intp)
        ranks = np.where(counts == 0, terminal_rank_all(np.asarray(utilities)), 0)
        child_keys = np.asarray(child_keys, np.uint64)
        child_layers = np.asarray(game.layers(child_keys) if len(child_keys) else (), np.int64)
        refuse_earlier(child_layers, layer)
        return (
            np.asarray(movers, np.uint8),
            counts,
            ranks.astype(np.int64),
            child_keys,
            child_layers,
        )
    if not isinstance(game, Restorable):
        raise ValueError(
            f"{type(game).__name__} cannot rebuild positions from keys (from_keys): a partitioned"
            " build sends positions between workers as keys"
        )
    states = game.from_keys(keys)
    rules: Any = game  # every rule is needed, not only `from_keys`
    movers_of, moves_of, ranks_of = bytearray(), array("q"), array("q")
    children: list[int] = []
    layers_of = array("q")
    for state in states:
        mover = rules.to_move(state)
        movers_of.append(mover)
        if rules.is_terminal(state):
            moves_of.append(0)
            ranks_of.append(terminal_rank(rules.utility(state, mover)))
            continue
        moves = rules.legal_moves(state)
        if not moves:
            raise ValueError(f"position {state!r} is not terminal but has no legal moves")
        moves_of.append(len(moves))
        ranks_of.append(0)
        for move in moves:
            child = rules.result(state, move)
            children.append(rules.key(child))
            layers_of.append(rules.layer(child))
    layers = np.frombuffer(layers_of, np.int64)
    refuse_earlier(layers, layer)
    return (
        np.frombuffer(bytes(movers_of), np.uint8),
        np.frombuffer(moves_of, np.int64).astype(np.intp),
        np.frombuffer(ranks_of, np.int64),
        np.array(children, np.uint64),
        layers,
    )


def best_of_children(
    movers: np.ndarray,
    counts: np.ndarray,
    ranks: np.ndarray,
    child_movers: np.ndarray,
    child_ranks: np.ndarray,
) -> np.ndarray:
    """The ranks of positions, each from its own side to move's point of view: a finished game
    keeps its rank (`ranks`), another takes the best of its children's ranks as seen from it.
    The children are given position after position (`counts` of them each), with their movers
    and ranks (each from its own mover's point of view)."""
    solved = ranks.copy()
    if not len(child_ranks):
        return solved
    same = child_movers == np.repeat(movers, counts)
    seen = np.where(same, seen_by_mover_all(child_ranks), seen_by_opponent_all(child_ranks))
    moving = counts > 0
    first_child = np.cumsum(counts, dtype=np.intp) - counts
    solved[moving] = np.maximum.reduceat(seen, first_child[moving])
    return solved
