"""Self-play positions a second on Connect Four, the compiled PUCT against the Python one, in
one run (issue 36: at least 10x the 474 of the Python self-play at 50 simulations).

Both play games side by side (the network's questions batched across them, as a round of
`zerosum train` does in one process) with `--simulations` a move and a network of two layers
of `--hidden` units (fresh weights, or the best of the run `--run DIR`), from the same seed
(`zerosum.learn.selfplay.play`, `impl=python` and `impl=compiled`): the compiled self-play
`--games` games, the Python one `--python-games` (default a quarter of `--games`, at least 8:
the same rate, less waiting), and the compiled one those too, to check that the two played
the same games (their examples equal). Reported: positions a CPU second of each, the ratio,
and where the compiled self-play's time goes, measured on one more, timed pass: the compiled
descents and back-ups, the network (numpy's forward pass and softmax), the moves (recording
the example, choosing, the root noise and the new root's search started: Python), the rest
(the loop's Python between the calls).

`--blas-threads` sets how many threads the network's matrix products use (the environment's
`OPENBLAS_NUM_THREADS` and its peers, before numpy is imported): 1 is what a self-play worker
of `zerosum train` should use when the workers fill the cores.

    python benchmarks/selfplay_speed.py [--simulations 50] [--games 64] [--repeat 3]
        [--blas-threads 1] [--run DIR]

CPU seconds of this process, not the wall clock; each rate the best of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--python-games", type=int)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--blas-threads", type=int, default=1)
    parser.add_argument("--run", help="the best network of this training run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = str(args.blas_threads)
    if "numpy" in sys.modules:
        raise SystemExit("numpy was imported before its threads were set")

    import time

    import numpy as np

    from zerosum.compiled import puct
    from zerosum.games.connect4 import ConnectFour
    from zerosum.learn import network, selfplay, selfplay_compiled
    from zerosum.learn.training import load_best

    game = ConnectFour()
    if args.run:
        _, _, params = load_best(args.run)
    else:
        params = network.initial(network.shape_for(game, (args.hidden, args.hidden)), 0)
    settings = selfplay.Settings(simulations=args.simulations)
    python_games = args.python_games or max(8, args.games // 4)

    def rate(impl: str, games: int) -> tuple[float, selfplay.Examples]:
        best, examples = 0.0, None
        for _ in range(args.repeat):
            began = time.process_time()
            examples = selfplay.play(game, params, settings, games, args.seed, impl=impl)
            best = max(best, len(examples) / (time.process_time() - began))
        assert examples is not None
        return best, examples

    selfplay.play(game, params, settings, 2, args.seed, impl="compiled")  # compiled, or read
    compiled, compiled_examples = rate("compiled", args.games)
    python, _ = rate("python", python_games)
    small, small_examples = rate("compiled", python_games)
    equal = all(
        np.array_equal(getattr(small_examples, f), getattr(ours, f))
        for ours in [selfplay.play(game, params, settings, python_games, args.seed, impl="python")]
        for f in ("observations", "legal", "policies", "values")
    )

    # Where the compiled self-play's time goes: the kernels, the network, the moves, timed apart.
    spent = {"descend": 0.0, "back up": 0.0, "network": 0.0, "moves": 0.0}
    wrapped = [
        (puct.Forest, "descend", "descend"),
        (puct.Forest, "back_up", "back up"),
        (selfplay_compiled, "forward", "network"),
        (selfplay_compiled, "masked_softmax", "network"),
        (selfplay_compiled.Games, "move", "moves"),
    ]
    originals = [getattr(owner, name) for owner, name, _ in wrapped]

    def timed(part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*arguments: Any) -> Any:
            began = time.process_time()
            try:
                return function(*arguments)
            finally:
                spent[part] += time.process_time() - began

        return run

    for (owner, name, part), original in zip(wrapped, originals, strict=True):
        setattr(owner, name, timed(part, original))
    batches: list[int] = []
    network_forward = selfplay_compiled.forward

    def counted(params: Any, inputs: Any, xp: Any) -> Any:
        batches.append(len(inputs))
        return network_forward(params, inputs, xp)

    setattr(selfplay_compiled, "forward", counted)  # noqa: B010
    began = time.process_time()
    selfplay.play(game, params, settings, args.games, args.seed, impl="compiled")
    total = time.process_time() - began
    for (owner, name, _), original in zip(wrapped, originals, strict=True):
        setattr(owner, name, original)
    print(
        f"Connect Four self-play, {args.simulations} simulations a move, network"
        f" {'of ' + args.run if args.run else f'{args.hidden},{args.hidden} (fresh)'},"
        f" BLAS threads {args.blas_threads}, best of {args.repeat}:"
    )
    print(f"- compiled, {args.games} games: {compiled:,.0f} positions a CPU second"
          f" ({len(compiled_examples)} positions)")  # fmt: skip
    print(f"- compiled, {python_games} games: {small:,.0f}")
    print(f"- python, {python_games} games: {python:,.0f}")
    print(f"- compiled ({args.games} games) / python: {compiled / python:.1f}x")
    print(f"- the same games either way ({python_games} games): {equal}")
    rest = total - sum(spent.values())
    shares = ", ".join(f"{name} {seconds / total:.0%}" for name, seconds in spent.items())
    print(
        f"- the network's batches: {len(batches):,}, {sum(batches) / len(batches):.1f}"
        f" positions on average (of {args.games} games)"
    )
    print(
        f"- the compiled self-play's time ({args.games} games): {shares} (the Python of"
        f" recording, choosing and starting), the loop's Python {rest / total:.0%}"
    )


if __name__ == "__main__":
    main()
