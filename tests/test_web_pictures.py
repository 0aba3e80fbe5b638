"""The pages' new pictures without a browser: the envelope of a 2 x n matrix game, exact, and
the tree page's chart of the move-ordering experiment, whose runs are the experiment's own."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from starlette.testclient import TestClient

from zerosum.cli.serve import own_hosts
from zerosum.experiments.ordering import ordering_experiment
from zerosum.theory.matrix import solve
from zerosum.theory.payoffs import parse_matrix
from zerosum.web.app import create_app
from zerosum.web.envelope import best_text, envelope, envelope_svg
from zerosum.web.ordering import CHART_SHUFFLES, ORDERS


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url="http://127.0.0.1:8000")


def test_the_envelope_of_3_minus_1_minus_2_4_peaks_at_3_5_with_value_1():
    shape = envelope(parse_matrix("3 -1; -2 4"))
    assert shape.side == "row"
    assert shape.best == ((Fraction(3, 5), 1),) and shape.value == 1
    assert shape.corners == ((0, -2), (Fraction(3, 5), 1), (1, -1))
    assert best_text(shape) == "p = 3/5, value 1"
    assert [name for name, _, _ in shape.lines] == ["C1", "C2"]


def test_a_dominated_column_leaves_the_peak_where_it_was():
    # C3 pays the row player more than C1 and C2 at every p: the column player never plays it.
    shape = envelope(parse_matrix("3 -1 5; -2 4 6"))
    assert shape.best == ((Fraction(3, 5), 1),)
    solved = solve(parse_matrix("3 -1 5; -2 4 6"))
    assert solved.value == shape.value and solved.row_strategy[0] == Fraction(3, 5)


def test_an_n_by_2_game_is_drawn_from_the_column_players_side():
    shape = envelope(parse_matrix("3 -1; -2 4; 0 0"))
    solved = solve(parse_matrix("3 -1; -2 4; 0 0"))
    assert shape.side == "column" and shape.value == solved.value == 1
    assert shape.best == ((Fraction(1, 2), 1),)
    assert best_text(shape) == "q = 1/2, value 1"


def test_a_flat_envelope_is_best_along_a_stretch():
    assert best_text(envelope(parse_matrix("1 1; 1 1"))) == "p = 0 to 1, value 1"


def test_the_drawing_holds_only_numbers_and_names_it_wrote():
    drawing = envelope_svg(envelope(parse_matrix("3 -1 5; -2 4 6")))
    texts = re.findall(r">([^<>]+)</text>", drawing)
    assert texts == [
        "0", "1", "p: the probability of R1", "6", "-2", "0", "C1", "C2", "C3",
        "p = 3/5, value 1",
    ]  # fmt: skip
    assert drawing.count('class="best"') == 1


def test_matrix_route_draws_2_by_n_and_says_why_not_3_by_3(client):
    answer = client.post("/api/matrix", json={"matrix": "3 -1; -2 4"}).json()
    assert answer["picture"].startswith("<svg") and answer["picture_best"] == "p = 3/5, value 1"
    assert "lower envelope" in answer["picture_note"]
    answer = client.post("/api/matrix", json={"matrix": "1 2 3; 4 5 6; 7 8 9"}).json()
    assert answer["picture"] is None
    assert answer["picture_note"] == (
        "the picture is drawn for games with 2 rows or 2 columns: this one is 3 x 3"
    )
    wide = " ".join(["1"] * 21)
    answer = client.post("/api/matrix", json={"matrix": f"{wide}; {wide}"}).json()
    assert answer["picture_note"] == "the picture draws at most 20 lines: this game has 21"


def test_the_charts_runs_are_the_experiments_own(client):
    expected = ordering_experiment(CHART_SHUFFLES)
    orders = client.get("/api/ordering").json()["orders"]
    assert [order["name"] for order in orders] == [run.name for run in expected]
    assert [o["name"] for o in orders][:3] == ["square order", "centre and corners", "edges first"]
    for index, run in enumerate(expected):
        answer = client.post("/api/ordering", json={"run": index}).json()
        assert (answer["name"], answer["leaves"], answer["nodes"]) == (
            run.name,
            run.leaves,
            run.nodes,
        )
        assert answer["value"] == 0 and tuple(answer["order"]) == run.order
    assert [run.leaves for run in expected][:3] == [7330, 2893, 17002]  # the module's numbers
    assert len(ORDERS) == 8


def test_the_chart_refuses_a_run_it_does_not_have(client):
    for run in (8, -1, "0", None, 1.0):
        answer = client.post("/api/ordering", json={"run": run}).json()
        assert answer == {"error": "the chart's runs are numbered 0 to 7"}, run
