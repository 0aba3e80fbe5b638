"""The exploitability OpenSpiel's CFR solvers reach on its poker games after a few iteration
counts: the reference numbers `tests/data/imperfect/openspiel_cfr.json` keeps for the tests.

Run by hand (needs the bench-openspiel extra): python benchmarks/openspiel_cfr_reference.py
It prints the JSON; the tests hold zerosum's CFR, CFR+ and DCFR to these numbers within 1e-9.
"""

from __future__ import annotations

import json

import pyspiel
from open_spiel.python.algorithms import discounted_cfr, exploitability

GAMES = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}
RUNS = {"kuhn": (1, 10, 100, 1000), "leduc": (1, 10, 50, 1000)}


def reference() -> dict:
    numbers: dict = {}
    for name, spiel_name in GAMES.items():
        game = pyspiel.load_game(spiel_name)
        numbers[name] = {}
        solvers = {
            "cfr": pyspiel.CFRSolver,
            "cfr+": pyspiel.CFRPlusSolver,
            "dcfr": discounted_cfr.DCFRSolver,
        }
        for algorithm, make in solvers.items():
            solver, done, found = make(game), 0, {}
            runs = RUNS[name] if algorithm != "dcfr" else RUNS[name][:-1]
            for count in runs:
                while done < count:
                    solver.evaluate_and_update_policy()
                    done += 1
                found[str(count)] = exploitability.exploitability(game, solver.average_policy())
            numbers[name][algorithm] = found
    return numbers


if __name__ == "__main__":
    print(json.dumps(reference(), indent=1))
