"""The textbook's experiments: the numbers, and charts drawn from exactly those numbers."""

import pytest

from zerosum.experiments import growth_experiment, minimal_tree_leaves, ordering_experiment
from zerosum.experiments.ordering import CENTRE_AND_CORNERS, EDGES_FIRST, random_order


@pytest.fixture(scope="module")
def ordering_runs():
    return ordering_experiment()


@pytest.fixture(scope="module")
def growth_points():
    return growth_experiment(branching=3, depths=range(1, 8), samples=4)


def test_square_order_reaches_7330_centre_and_corners_2893_edges_first_17002(ordering_runs):
    named = {run.name: run.leaves for run in ordering_runs[:3]}
    assert named == {"square order": 7_330, "centre and corners": 2_893, "edges first": 17_002}
    assert ordering_runs[1].order == CENTRE_AND_CORNERS
    assert ordering_runs[2].order == EDGES_FIRST


def test_twenty_random_orders_reach_from_2603_to_13358_games(ordering_runs):
    random_runs = ordering_runs[3:]
    assert [run.order for run in random_runs] == [random_order(seed) for seed in range(20)]
    leaves = [run.leaves for run in random_runs]
    assert (min(leaves), max(leaves)) == (2_603, 13_358)
    assert leaves.index(2_603) == 8 and leaves.index(13_358) == 13


def test_every_order_finds_the_draw(ordering_runs):
    assert {run.value for run in ordering_runs} == {0}


def test_minimax_reaches_b_to_the_m_leaves_on_uniform_trees(growth_points):
    assert [p.minimax for p in growth_points] == [3**m for m in range(1, 8)]


def test_best_first_alphabeta_reaches_exactly_the_knuth_moore_minimal_tree(growth_points):
    assert [p.best_first for p in growth_points] == [3, 5, 11, 17, 35, 53, 107]
    assert [p.best_first for p in growth_points] == [minimal_tree_leaves(3, m) for m in range(1, 8)]


def test_random_order_lies_between_the_minimal_tree_and_minimax(growth_points):
    for point in growth_points[1:]:
        assert point.best_first < point.random_order < point.minimax


def test_ordering_chart_bars_are_the_experiments_numbers(ordering_runs, charts):
    figure = charts.ordering_figure(ordering_runs)
    heights = [bar.get_height() for bar in figure.axes[0].patches]
    assert heights == [run.leaves for run in ordering_runs]
    assert charts.image(figure).startswith(b"\x89PNG\r\n\x1a\n")


def test_growth_chart_points_are_the_experiments_numbers(growth_points, charts):
    figure = charts.growth_figure(growth_points, 3)
    series = {line.get_label(): list(line.get_ydata()) for line in figure.axes[0].lines}
    assert series["minimax"] == [p.minimax for p in growth_points]
    assert series["alpha-beta, random order"] == [p.random_order for p in growth_points]
    assert series["alpha-beta, best move first"] == [p.best_first for p in growth_points]
    assert charts.image(figure, "svg").lstrip().startswith(b"<?xml")


def test_chart_in_an_unknown_format_is_a_value_error(growth_points, charts):
    with pytest.raises(ValueError, match="choose one of png, svg, pdf"):
        charts.image(charts.growth_figure(growth_points, 3), "gif")


@pytest.fixture(scope="module")
def ablation_points():
    from zerosum.experiments.ablation import ablation_experiment

    return ablation_experiment(range(1, 4), ("", "4453"))


def test_ablation_every_configuration_finds_the_same_scores_at_each_depth(ablation_points):
    for depth in (1, 2, 3):
        scores = {p.scores for p in ablation_points if p.depth == depth}
        assert len(scores) == 1


def test_ablation_plain_alphabeta_at_depth_1_enters_the_root_and_its_seven_replies(ablation_points):
    plain = [p for p in ablation_points if p.configuration.startswith("plain")]
    assert [p.depth for p in plain] == [1, 2, 3]
    assert plain[0].nodes == 2 * (1 + 7)
    assert plain[0].branching_factor == 8.0


def test_ablation_adds_the_enhancements_one_after_another(ablation_points):
    from zerosum.experiments.ablation import STEPS

    names = list(dict.fromkeys(p.configuration for p in ablation_points))
    assert names == [name for name, _ in STEPS]


def test_ablation_chart_lines_are_the_experiments_numbers(ablation_points, charts):
    figure = charts.ablation_figure(ablation_points)
    nodes_axes, ebf_axes = figure.axes
    for line in nodes_axes.lines:
        expected = [p.nodes for p in ablation_points if p.configuration == line.get_label()]
        assert list(line.get_ydata()) == expected
    for line in ebf_axes.lines:
        expected = [
            p.branching_factor for p in ablation_points if p.configuration == line.get_label()
        ]
        assert list(line.get_ydata()) == expected
    assert charts.image(figure, "png").startswith(b"\x89PNG")
