"""Every limit's estimate held to the costs measured on this machine (`tests/data/cost_models.json`,
recorded by `benchmarks/cost_models.py --record`): within 3x of each, the record read as data."""

from __future__ import annotations

import json
import math

import pytest
from oracles import oracle_path

from zerosum.games.connect4 import ConnectFour
from zerosum.games.nim import Nim
from zerosum.solve import pig
from zerosum.solve.retrograde import reachable_at_most
from zerosum.theory import heaps, rational
from zerosum.theory.octal import GrundysGame, OctalGame
from zerosum.theory.subtraction import SubtractionGame

RECORD = json.loads(oracle_path("cost_models.json").read_text())

GRUNDY = {
    "grundys-game": GrundysGame,
    "octal 0.77": lambda: OctalGame("0.77"),
    "octal 0.137": lambda: OctalGame("0.137"),
    "subtraction 1,2,5": lambda: SubtractionGame([1, 2, 5]),
    "subtraction 1..60": lambda: SubtractionGame(range(1, 61)),
}
TABLES = {
    "connect4 4x4": ConnectFour(4, 4),
    "connect4 5x4": ConnectFour(5, 4),
    "connect4 4x4, three in a row": ConnectFour(4, 4, 3),
    "nim 3,4,5": Nim([3, 4, 5]),
    "nim 10,10,10": Nim([10, 10, 10]),
}


def estimate(row: dict) -> float:
    """What the model says today of a recorded case."""
    size, model = row["size"], row["model"]
    if model == "matrix":
        return rational.supports_seconds(size["strategies"], size["digits"])
    if model == "simplex":
        return rational.simplex_seconds(size["strategies"], size["digits"])
    if model == "grundy":
        return GRUNDY[size["game"]]().seconds(size["count"])
    if model == "period":
        return heaps.search_seconds(size["count"])
    if model == "pig":
        return pig.positions(size["target"]) * pig.SECONDS_A_POSITION
    raise AssertionError(f"no model {model}")


def test_the_record_sweeps_every_model():
    counted = {model: sum(row["model"] == model for row in RECORD) for model in
               ("matrix", "simplex", "grundy", "period", "pig", "table")}  # fmt: skip
    assert all(count >= 3 for count in counted.values()), counted


@pytest.mark.parametrize(
    "row",
    [row for row in RECORD if row["model"] != "table"],
    ids=lambda row: f"{row['model']}: {row['case']}",
)
def test_each_estimate_is_within_3x_of_the_cost_measured_here(row):
    assert row["measured"] > 0
    ratio = estimate(row) / row["measured"]
    assert 1 / 3 <= ratio <= 3, f"{row['case']}: estimate / measured = {ratio:.2f}"


@pytest.mark.parametrize(
    "row", [row for row in RECORD if row["model"] == "table"], ids=lambda row: row["case"]
)
def test_a_table_s_positions_are_checked_on_a_bound_never_under_the_count(row):
    bound = reachable_at_most(TABLES[row["size"]["game"]])
    assert bound is not None and bound[0] == row["estimate"] >= row["measured"]


def test_kuhn_poker_s_normal_form_is_estimated_at_its_cost_not_seventeen_hours():
    # 27 x 64 strategies; sixths of 1 and 2 over the denominator 6: at most 12, two digits
    assert math.ceil(rational.supports_seconds(64, 2)) == 1
    kuhn = next(row for row in RECORD if row["case"] == "kuhn 27x64")
    assert kuhn["size"] == {"strategies": 64, "digits": 2}


def test_kuhn_poker_s_normal_form_is_solved_exactly_without_no_limit(cli):
    path = oracle_path("kuhn_normal_form.csv")
    report = cli.json("matrix", "--csv", str(path), "--exact")
    assert report["value_exact"] == "-1/18"
