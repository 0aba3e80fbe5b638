"""The network's gradient steps, in JAX with optax (the `learn` extra).

The loss of a batch is the policy's cross-entropy against the search's visits (the scores of
illegal moves masked out before the softmax) plus the squared error of the value against the
game's result, both for the player to move; AdamW's weight decay keeps the weights small.
One step is compiled once by `jax.jit` for the batch's shape. JAX runs on an accelerator when
it finds one, else on the CPU.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

try:
    import jax
    import jax.numpy as jnp
    import optax
except ImportError:  # pragma: no cover - the message names the extra
    raise ValueError("training needs JAX and optax: pip install 'zerosum[learn]'") from None

from zerosum.learn.network import Params, Shape, forward
from zerosum.learn.records import Examples

MASKED = -1e9
"""The score an illegal move is given before the softmax: its probability is 0."""


def loss(params: Params, batch: tuple[Any, ...]) -> tuple[Any, tuple[Any, Any]]:
    """The batch's loss, with its policy and value parts."""
    observations, legal, policies, values = batch
    scores, predicted = forward(params, observations, jnp)
    log_priors = jax.nn.log_softmax(jnp.where(legal, scores, MASKED))
    policy_loss = -jnp.mean(jnp.sum(policies * log_priors, axis=1))
    value_loss = jnp.mean((predicted - values) ** 2)
    return policy_loss + value_loss, (policy_loss, value_loss)


class Trainer:
    """The weights being trained and the optimizer's state, stepped on batches of examples.

    `state_arrays` (the optimizer's state as the list of its arrays, empty for a fresh
    optimizer) comes from a kept run; `state()` gives it back for keeping."""

    def __init__(self, plan: Any, shape: Shape, params: Params, state_arrays: list[np.ndarray]):
        self.batch = plan.batch
        self.optimizer = optax.adamw(plan.learning_rate, weight_decay=plan.weight_decay)
        self.weights = {name: jnp.asarray(value) for name, value in params.items()}
        fresh = self.optimizer.init(self.weights)
        leaves, structure = jax.tree_util.tree_flatten(fresh)
        if state_arrays:
            if len(state_arrays) != len(leaves) or any(
                np.shape(a) != np.shape(b) for a, b in zip(state_arrays, leaves, strict=True)
            ):
                raise ValueError("the run's optimizer state does not fit its network")
            leaves = [jnp.asarray(a) for a in state_arrays]
        self.opt_state = jax.tree_util.tree_unflatten(structure, leaves)
        optimizer = self.optimizer

        def step(weights: Params, opt_state: Any, batch: tuple[Any, ...]) -> Any:
            (_, parts), grads = jax.value_and_grad(loss, has_aux=True)(weights, batch)
            updates, opt_state = optimizer.update(grads, opt_state, weights)
            return optax.apply_updates(weights, updates), opt_state, parts

        self.step = jax.jit(step)

    def learn(
        self,
        examples: Examples,
        steps: int,
        rng: np.random.Generator,
        poll: Callable[[], None] | None = None,
    ) -> tuple[float, float]:
        """`steps` gradient steps on batches drawn uniformly from `examples`; the mean policy
        and value losses over them. `poll()`, when given, is called before each step: what it
        raises (KeyboardInterrupt, `zerosum.stopping.stop_points`) stops them."""
        size = min(self.batch, len(examples))
        totals = np.zeros(2)
        for _ in range(steps):
            if poll is not None:
                poll()
            rows = rng.choice(len(examples), size=size, replace=len(examples) < self.batch)
            batch = (
                jnp.asarray(examples.observations[rows], jnp.float32),
                jnp.asarray(examples.legal[rows]),
                jnp.asarray(examples.policies[rows]),
                jnp.asarray(examples.values[rows]),
            )
            self.weights, self.opt_state, parts = self.step(self.weights, self.opt_state, batch)
            totals += np.array([float(parts[0]), float(parts[1])])
        policy_loss, value_loss = totals / max(steps, 1)
        return float(policy_loss), float(value_loss)

    def params(self) -> Params:
        """The weights, as numpy arrays."""
        return {name: np.asarray(value) for name, value in self.weights.items()}

    def state(self) -> list[np.ndarray]:
        """The optimizer's state, as numpy arrays in the order of its leaves."""
        return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(self.opt_state)]
