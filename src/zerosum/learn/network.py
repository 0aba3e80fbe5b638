"""The policy-and-value network of self-play learning (the AlphaZero line), and its files.

The network reads a position as the player to move sees it (the game's `Observing` planes,
flattened) and gives two answers: a score for every numbered move (`NumberedMoves`), made
into probabilities over the legal moves only (a softmax with the others masked out), and a
value in [-1, 1]: the expected result for the player to move, -1 a loss, +1 a win.

It is a plain multilayer perceptron, `hidden` layers of rectified units and two linear heads
(the value head through tanh). `forward` is written once over an array module: under
`jax.numpy` it is what `zerosum.learn.training` differentiates and trains, under `numpy` it
is what self-play and the players run, in processes that never import JAX (it is an extra,
and a forked process must not inherit its threads). Small boards need no convolutions: a
network of two layers of 128 units has tic-tac-toe's 5,478 positions and Connect Four's
tactics within reach of a laptop's hour.

Parameters are a flat dict of float32 arrays (`w0`, `b0`, ... for the hidden layers, then
`policy_w`, `policy_b`, `value_w`, `value_b`), which is a pytree for JAX and an `.npz` file
on disk. `save` and `load` write and read that file with its SHA-256, checked on load.
"""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.files import write_atomically
from zerosum.game import Game, NumberedMoves, Observing, has_chance, require

Params = dict[str, Any]
"""The network's weights by name: numpy arrays, or JAX arrays while training."""


@dataclass(frozen=True)
class Shape:
    """The network's layers: `inputs` numbers in (the observation's size), the widths of the
    `hidden` layers, and `moves` scores out (the game's `move_count()`)."""

    inputs: int
    hidden: tuple[int, ...]
    moves: int

    def names(self) -> list[str]:
        """The parameters' names, in the order of the layers."""
        hidden = [f"{kind}{layer}" for layer in range(len(self.hidden)) for kind in "wb"]
        return [*hidden, "policy_w", "policy_b", "value_w", "value_b"]

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Each parameter's array shape."""
        shapes: dict[str, tuple[int, ...]] = {}
        width = self.inputs
        for layer, size in enumerate(self.hidden):
            shapes[f"w{layer}"], shapes[f"b{layer}"] = (width, size), (size,)
            width = size
        shapes["policy_w"], shapes["policy_b"] = (width, self.moves), (self.moves,)
        shapes["value_w"], shapes["value_b"] = (width, 1), (1,)
        return shapes

    def as_json(self) -> dict[str, Any]:
        return {"inputs": self.inputs, "hidden": list(self.hidden), "moves": self.moves}

    @classmethod
    def from_json(cls, data: Any) -> Shape:
        """The shape a manifest records; ValueError when it is not one."""
        try:
            shape = cls(
                int(data["inputs"]), tuple(int(h) for h in data["hidden"]), int(data["moves"])
            )
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"not a network's shape: {data!r}") from None
        if min((shape.inputs, shape.moves, *shape.hidden)) < 1:
            raise ValueError(f"not a network's shape: {data!r}")
        return shape


def shape_for(game: Game, hidden: Sequence[int]) -> Shape:
    """The shape of a network for `game`, which must number its moves and show positions as
    planes (ValueError saying what it lacks), with no dice (self-play here searches without
    chance nodes)."""
    if has_chance(game):
        raise ValueError(
            f"{type(game).__name__} has dice: self-play with a network searches games without"
            " chance; for Pig, zerosum.learn.td learns an evaluation by TD(lambda)"
        )
    require(game, NumberedMoves, "learning by self-play (a fixed list of moves)")
    require(game, Observing, "learning by self-play (positions as arrays)")
    if not hidden or min(hidden) < 1:
        raise ValueError(f"the hidden layers need at least one unit each, got {list(hidden)}")
    inputs = math.prod(game.observation_shape())  # type: ignore[attr-defined]
    return Shape(inputs, tuple(hidden), game.move_count())  # type: ignore[attr-defined]


def initial(shape: Shape, seed: int) -> Params:
    """Fresh weights: He's normal initialisation for the rectified layers, small heads (so
    the first priors are near uniform and the first values near 0), zero biases."""
    rng = np.random.default_rng(seed)
    params: Params = {}
    for name, size in shape.shapes().items():
        if name.endswith("_b") or name.startswith("b"):
            params[name] = np.zeros(size, np.float32)
        else:
            scale = math.sqrt(2 / size[0]) if name.startswith("w") else 0.01
            params[name] = (rng.standard_normal(size) * scale).astype(np.float32)
    return params


def forward(params: Mapping[str, Any], inputs: Any, xp: Any) -> tuple[Any, Any]:
    """The network on a batch: `inputs` of shape (batch, shape.inputs) gives the moves' scores
    (batch, moves), before any mask, and the values (batch,) in [-1, 1] for the player to move.
    `xp` is the array module (`numpy` or `jax.numpy`)."""
    layers = sum(1 for name in params if name.startswith("w"))
    hidden = inputs
    for layer in range(layers):
        hidden = xp.maximum(hidden @ params[f"w{layer}"] + params[f"b{layer}"], 0)
    scores = hidden @ params["policy_w"] + params["policy_b"]
    values = xp.tanh(hidden @ params["value_w"] + params["value_b"])[:, 0]
    return scores, values


def masked_softmax(scores: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Each row of `scores` made into probabilities over its `legal` (bool) entries only."""
    weights = np.where(legal, scores, -np.inf)
    weights -= weights.max(axis=1, keepdims=True)
    np.exp(weights, out=weights)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights


def to_bytes(arrays: Mapping[str, Any], compressed: bool = False) -> bytes:
    """Named arrays (a network's weights, a run's buffer) as an `.npz` file's bytes, in the
    order of their names: the same arrays make the same bytes, whatever order the mapping
    holds them in (JAX's steps give the weights back sorted, a file read gives them in its
    network's order, and a resumed run wrote its best network's file unlike a run never
    stopped)."""
    buffer = io.BytesIO()
    write = np.savez_compressed if compressed else np.savez
    write(buffer, **{name: np.asarray(arrays[name]) for name in sorted(arrays)})  # type: ignore[arg-type]
    return buffer.getvalue()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def save(params: Mapping[str, Any], path: str) -> str:
    """Write the weights (any named arrays) to `path` atomically; their SHA-256, for the
    manifest."""
    data = to_bytes(params)
    write_atomically(path, data)
    return digest(data)


def load_arrays(path: str, sha256: str, what: str) -> dict[str, np.ndarray]:
    """The arrays of the `.npz` file `path`, checked against the SHA-256 a manifest recorded;
    ValueError in one line for a missing or changed file, or one that is not `what`."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    if digest(data) != sha256:
        raise ValueError(f"{path} is damaged or was changed: its SHA-256 is not the recorded one")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except (ValueError, OSError, KeyError, EOFError):
        raise ValueError(f"{path} is not {what}") from None


def load(path: str, shape: Shape, sha256: str) -> Params:
    """The weights in `path`, checked against the SHA-256 the manifest recorded and against
    `shape`; ValueError in one line for a missing, damaged or foreign file."""
    params = load_arrays(path, sha256, "a network's weights")
    expected = shape.shapes()
    found = {name: tuple(value.shape) for name, value in params.items()}
    if found != expected:
        raise ValueError(f"{path} holds weights of another shape than its manifest says")
    return {name: params[name].astype(np.float32) for name in shape.names()}
