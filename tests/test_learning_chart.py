"""A training run's log (`zerosum.learn.log`) written, read back and checked, and `zerosum chart
learning` drawn from exactly its numbers: each Elo point and error bar is `MatchResult`'s."""

from __future__ import annotations

import json
import math
import sys

import pytest

from zerosum.learn.log import (
    LOG,
    Evaluation,
    Gate,
    Start,
    TrainingRound,
    append,
    line,
    read_log,
)
from zerosum.match import MatchResult

RECORDS = (
    Start("tictactoe", 0, 0, 0.0),
    TrainingRound(100, 40, 350, 60.0, 2.0, 0.5),
    Gate(100, 40, 65.0, 12, 6, 2, True),
    Evaluation(100, 40, 70.0, "random", 5, 3, 12),
    Evaluation(100, 40, 70.0, "mcts:iterations=100", 0, 0, 20),
    TrainingRound(200, 80, 700, 120.0, 1.5, 0.04),
    Gate(200, 80, 125.0, 8, 4, 8, False),
    Evaluation(200, 80, 130.0, "random", 20, 0, 0),
    Evaluation(200, 80, 130.0, "mcts:iterations=100", 6, 4, 10),
    Evaluation(200, 80, 190.0, "random", 15, 4, 1),
)


@pytest.fixture
def run(tmp_path):
    """A training directory whose log holds `RECORDS`, written by `append`."""
    for record in RECORDS:
        append(tmp_path, record)
    return tmp_path


def test_records_appended_are_read_back_equal_one_json_line_each(run):
    log = read_log(run)
    assert log.records == RECORDS and not log.cut_short
    lines = (run / LOG).read_text().splitlines()
    assert len(lines) == len(RECORDS)
    assert json.loads(lines[2]) == {
        "kind": "gate",
        "step": 100,
        "games": 40,
        "seconds": 65.0,
        "wins": 12,
        "draws": 6,
        "losses": 2,
        "accepted": True,
    }


def test_the_log_totals_and_kinds(run):
    log = read_log(run)
    assert (log.game, log.games, log.positions, log.seconds) == ("tictactoe", 80, 700, 190.0)
    assert [r.step for r in log.rounds] == [100, 200]
    assert [g.accepted for g in log.gates] == [True, False]
    assert [e.opponent for e in log.evaluations][:2] == ["random", "mcts:iterations=100"]
    assert log.evaluations[0].result == MatchResult(5, 3, 12)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Gate(1, 1, 1.0, -1, 0, 2, True), "wins must be a whole number, 0 or more"),
        (lambda: Gate(1, 1, 1.0, 0, 0, 0, True), "at least one game"),
        (lambda: Gate(1, 1, 1.0, 1, 0, 0, 1), "accepted must be true or false, not 1"),
        (lambda: TrainingRound(True, 1, 1, 1.0, 1.0, 1.0), "step must be a whole number"),
        (lambda: TrainingRound(1, 1, 1, 1.0, math.nan, 1.0), "policy_loss must be a finite"),
        (lambda: Evaluation(1, 1, 1.0, "", 1, 0, 0), "opponent must be a non-empty string"),
    ],
)
def test_a_record_with_a_bad_field_is_refused_when_made(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_a_whole_number_of_seconds_is_kept_as_a_float():
    assert Start("nim", 0, 0, 3).seconds == 3.0
    assert line(Start("nim", 0, 0, 3)).endswith('"seconds": 3.0}')


def test_a_last_line_cut_short_is_ignored_and_dropped_by_the_next_append(run):
    path = run / LOG
    with open(path, "a") as file:
        file.write('{"kind": "train", "step": 3')
    log = read_log(run)
    assert log.records == RECORDS and log.cut_short
    append(run, TrainingRound(300, 120, 1050, 180.0, 1.2, 0.03))
    again = read_log(run)
    assert again.records == (*RECORDS, TrainingRound(300, 120, 1050, 180.0, 1.2, 0.03))
    assert not again.cut_short and path.read_text().count("\n") == len(RECORDS) + 1


def test_a_whole_last_record_without_its_newline_is_kept_and_ended_by_the_next_append(run):
    path = run / LOG
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert read_log(run).records == RECORDS
    append(run, Start("tictactoe", 200, 80, 190.0))
    assert read_log(run).records == (*RECORDS, Start("tictactoe", 200, 80, 190.0))


@pytest.mark.parametrize(
    "damaged, reason",
    [
        ('{"kind": "train", "step": 3', "not JSON (Expecting ',' delimiter at column 28)"),
        ("[1, 2]", "not a JSON object but [1, 2]"),
        ('{"kind": "match"}', "kind 'match' is none of start, train, gate, evaluation"),
        ('{"kind": "start", "game": "nim", "step": 0}', "a start record without games, seconds"),
        (
            '{"kind": "start", "game": "nim", "step": 0, "games": 0, "seconds": 0, "x": 1}',
            "a start record with unknown fields 'x'",
        ),
        (
            '{"kind": "start", "game": "nim", "step": 1.5, "games": 0, "seconds": 0}',
            "step must be a whole number, 0 or more, not 1.5",
        ),
        ("", "not JSON (Expecting value at column 1)"),
    ],
)
def test_a_damaged_line_in_the_middle_is_refused_with_its_number(run, damaged, reason):
    path = run / LOG
    lines = path.read_text().splitlines()
    lines.insert(3, damaged)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as refused:
        read_log(run)
    assert str(refused.value) == f"{path}, line 4: {reason}"


def test_bytes_that_are_not_text_are_refused_with_their_line(run):
    path = run / LOG
    path.write_bytes(b"\xff\xfe\n" + path.read_bytes())
    with pytest.raises(ValueError, match=r"log.jsonl, line 1: not UTF-8 text$"):
        read_log(run)


def _errors(tmp_path):
    """A training directory that cannot be read, and the one line that says why."""
    missing = tmp_path / "missing"
    no_log = tmp_path / "no-log"
    no_log.mkdir()
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / LOG).write_text("")
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / LOG).write_text('{"kind": "st')
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    return [
        (missing, f"no training directory {missing}"),
        (no_log, f"{no_log} holds no log.jsonl: it is not a training directory"),
        (empty, f"{empty / LOG} is empty: it holds no record"),
        (cut, f"{cut / LOG} is empty: it holds only a line cut short"),
        (a_file, f"{a_file} is not a directory (a training directory holds log.jsonl)"),
    ]


def test_a_missing_directory_a_missing_log_and_an_empty_log_are_value_errors(tmp_path):
    for directory, message in _errors(tmp_path):
        with pytest.raises(ValueError) as refused:
            read_log(directory)
        assert str(refused.value) == message


def test_append_into_a_missing_directory_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="no training directory"):
        append(tmp_path / "missing", Start("nim", 0, 0, 0.0))


def test_the_chart_command_refuses_each_unreadable_directory_in_one_line(cli, tmp_path):
    for directory, message in _errors(tmp_path):
        target = tmp_path / "chart.png"
        assert cli.error("chart", "learning", str(directory), "-o", str(target)) == (
            f"zerosum: error: {message}\n"
        )
        assert not target.exists()


def test_the_chart_command_refuses_a_damaged_line_in_one_line(cli, run):
    path = run / LOG
    path.write_text("{}\n" + path.read_text())
    error = cli.error("chart", "learning", str(run), "-o", str(run / "chart.png"))
    reason = "kind None is none of start, train, gate, evaluation"
    assert error == f"zerosum: error: {path}, line 1: {reason}\n"


def test_the_learning_chart_needs_a_directory_and_the_others_take_none(cli, tmp_path):
    target = str(tmp_path / "chart.png")
    assert "needs a training directory" in cli.error("chart", "learning", "-o", target)
    message = "the ordering chart takes no game or directory (the cfr and learning charts do)"
    assert message in cli.error("chart", "ordering", str(tmp_path), "-o", target)
    assert "--seed is for the growth and cfr charts, not learning" in cli.error(
        "chart", "learning", str(tmp_path), "-o", target, "--seed", "1"
    )


def test_the_elo_points_and_error_bars_are_match_results(run, charts):
    figure = charts.learning_figure(read_log(run), "tictactoe")
    strength, losses = figure.axes
    bars = {container.get_label(): container for container in strength.containers}
    assert list(bars) == ["random", "mcts:iterations=100"]
    for opponent, container in bars.items():
        finite = [
            e
            for e in read_log(run).evaluations
            if e.opponent == opponent and e.result.elo is not None
        ]
        results = [MatchResult(e.wins, e.draws, e.losses) for e in finite]
        data_line, _, (bar_lines,) = container.lines
        assert list(data_line.get_xdata()) == [e.seconds / 60 for e in finite]
        assert list(data_line.get_ydata()) == [r.elo for r in results]
        for (low, high), result in zip(bar_lines.get_segments(), results, strict=True):
            assert low[1] == pytest.approx(result.elo - result.elo_error)
            assert high[1] == pytest.approx(result.elo + result.elo_error)
    assert MatchResult(15, 4, 1).elo == pytest.approx(301.3, abs=0.1)  # a score of 0.85


def test_every_game_won_or_lost_is_drawn_at_the_panels_edge(run, charts):
    figure = charts.learning_figure(read_log(run), "tictactoe")
    strength = figure.axes[0]
    bottom, top = strength.get_ylim()
    reach = max(abs(r.elo) + r.elo_error for r in (MatchResult(15, 4, 1), MatchResult(5, 3, 12)))
    assert top == -bottom == pytest.approx(1.06 * 1.1 * reach)
    edges = {
        line.get_label(): (list(line.get_xdata()), list(line.get_ydata()), line.get_marker())
        for line in strength.lines
        if "off the scale" in line.get_label()
    }
    assert edges == {
        "random: every game won, Elo off the scale": ([130 / 60], [top / 1.06], "^"),
        "mcts:iterations=100: every game lost, Elo off the scale": (
            [70 / 60],
            [bottom / 1.06],
            "v",
        ),
    }


def test_the_losses_are_drawn_against_the_step_on_a_log_scale_and_the_title_has_the_totals(
    run, charts
):
    figure = charts.learning_figure(read_log(run), "tictactoe")
    losses = figure.axes[1]
    series = {
        line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in losses.lines
    }
    assert series == {
        "policy loss": ([100, 200], [2.0, 1.5]),
        "value loss": ([100, 200], [0.5, 0.04]),
    }
    assert losses.get_yscale() == "log"  # 2.0 / 0.04 = 50, over a factor of 10
    assert figure.get_suptitle() == (
        "Learning tictactoe: 80 self-play games, 700 positions, 3.2 min of training;"
        " 1 of 2 new networks accepted"
    )


def test_losses_within_a_factor_of_10_stay_on_a_linear_scale(tmp_path, charts):
    append(tmp_path, TrainingRound(10, 4, 30, 5.0, 1.0, 0.2))
    figure = charts.learning_figure(read_log(tmp_path), "nim")
    assert figure.axes[1].get_yscale() == "linear"
    assert figure.axes[0].texts[0].get_text() == "no evaluation yet"
    assert figure.get_suptitle() == "Learning nim: 4 self-play games, 30 positions, 5 s of training"


def test_the_command_writes_an_svg_and_reports_the_numbers_drawn(cli, run, charts):
    target = run / "learning.svg"
    report = cli.json("chart", "learning", str(run), "-o", str(target))
    assert target.read_bytes().lstrip().startswith(b"<?xml")
    assert (report["game"], report["games"], report["positions"]) == ("tictactoe", 80, 700)
    assert report["seconds"] == 190.0 and report["cut_short"] is False
    first, all_lost = report["evaluations"][:2]
    assert first["elo"] == MatchResult(5, 3, 12).elo
    assert first["elo_error"] == MatchResult(5, 3, 12).elo_error
    assert (all_lost["mean_score"], all_lost["elo"], all_lost["elo_error"]) == (0.0, None, None)
    assert [r["value_loss"] for r in report["rounds"]] == [0.5, 0.04]
    assert report["output"] == str(target)


def test_without_matplotlib_the_chart_says_how_to_install_it(cli, run, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    target = run / "learning.png"
    error = cli.error("chart", "learning", str(run), "-o", str(target))
    assert error == "zerosum: error: charts need matplotlib: pip install 'zerosum[charts]'\n"
    assert not target.exists()
