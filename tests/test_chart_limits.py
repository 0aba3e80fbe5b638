"""`zerosum chart`: what a chart may be asked to compute is bounded (stated in --help, checked
at the edge before any work), options a chart does not take are refused, the work done is
reported as it goes, and an interrupted chart writes nothing."""

from __future__ import annotations

import pytest

from zerosum.cli import chart
from zerosum.cli.chart import ABLATION_DEPTH, MAX_LEAVES, MAX_WORK, growth_leaves


def test_the_limits_are_stated_in_the_help(cli):
    _, out, _ = cli("chart", "--help")
    words = " ".join(out.split())
    assert f"at most {MAX_LEAVES.most:,} leaves" in words
    assert f"{MAX_WORK.most:,} (minutes of work)" in words
    assert f"to depth {ABLATION_DEPTH.most} at most" in words


def test_growth_trees_up_to_the_leaf_limit_are_accepted_and_one_more_level_refused():
    assert 3**11 <= MAX_LEAVES.most < 3**12
    assert growth_leaves(3, 11, 1) == sum(3**depth for depth in range(1, 12))
    with pytest.raises(ValueError, match="make a tree of more than 200,000 leaves"):
        growth_leaves(3, 12, 1)
    assert growth_leaves(MAX_LEAVES.most, 1, 1) == MAX_LEAVES.most
    with pytest.raises(ValueError, match="from depth 1"):
        growth_leaves(MAX_LEAVES.most + 1, 1, 1)


def test_growth_work_up_to_its_limit_is_accepted_and_past_it_refused():
    per_sample = sum(3**depth for depth in range(1, 12))
    most = MAX_WORK.most // per_sample
    assert growth_leaves(3, 11, most) == most * per_sample
    with pytest.raises(ValueError, match=r"--samples 16 .* at most 4,000,000"):
        growth_leaves(3, 11, most + 1)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["growth", "--max-depth", "1000000000"], "(from depth 12)"),
        (["growth", "--max-depth", "9" * 4000], "--max-depth of 4,000 digits"),
        (["growth", "--branching", "9" * 4000], "--branching of 4,000 digits"),
        (["growth", "--max-depth", "0"], "the deepest tree: at least 1, not 0"),
        (["growth", "--samples", "-1"], "the trees per depth: at least 1, not -1"),
        (["growth", "--branching", "-5"], "the moves per node: at least 2, not -5"),
        (["ablation", "--max-depth", "9"], "from 1 to 8 (every configuration"),
        (["ablation", "--max-depth", "0"], "from 1 to 8"),
        (["ordering", "--samples", "3"], "--samples is for the growth chart, not ordering"),
        (["ordering", "--max-depth", "3"], "--max-depth is for the growth and ablation charts"),
        (["ablation", "--branching", "3"], "--branching is for the growth chart, not ablation"),
        (["ablation", "--seed", "1"], "--seed is for the growth and cfr charts, not ablation"),
        (["growth", "--iterations", "5"], "--iterations is for the cfr chart, not growth"),
    ],
)
def test_chart_options_out_of_range_or_for_another_chart_are_refused_before_any_work(
    cli, tmp_path, argv, message
):
    target = tmp_path / "chart.png"
    assert message in cli.error("chart", argv[0], "-o", str(target), *argv[1:])
    assert not target.exists()


@pytest.mark.usefixtures("charts")
def test_a_growth_chart_reports_its_leaves_as_it_goes(cli, tmp_path, monkeypatch):
    done: list[int] = []

    class Bar:
        def advance(self, count: int = 1) -> None:
            done.append(count)

    class Progress:
        def __init__(self, unit: str, *, total: int | None = None, what: str = "") -> None:
            assert unit == "leaves" and total == 2 * (3 + 9 + 27)

        def __enter__(self) -> Bar:
            return Bar()

        def __exit__(self, *_: object) -> None:
            return None

    monkeypatch.setattr(chart, "progress", Progress)
    argv = ["chart", "growth", "-o", str(tmp_path / "g.png"), "--max-depth", "3"]
    cli.json(*argv, "--samples", "2")
    assert done == [3, 3, 9, 9, 27, 27]


@pytest.mark.usefixtures("charts")
def test_an_interrupted_chart_exits_130_and_writes_nothing(cli, tmp_path, monkeypatch):
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(chart, "ablation_experiment", interrupted)
    target = tmp_path / "ablation.png"
    code, out, err = cli("chart", "ablation", "-o", str(target))
    assert code == 130 and out == "" and "Traceback" not in err
    assert not target.exists() and list(tmp_path.iterdir()) == []
