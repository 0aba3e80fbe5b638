"""`zerosum cfr`, `zerosum play` and `zerosum chart cfr` on games of imperfect information:
what they report, the strategy files they write and read, and the mistakes they refuse."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from zerosum.games.kuhn import KuhnPoker
from zerosum.imperfect.best_response import measure
from zerosum.imperfect.strategy import Strategy
from zerosum.imperfect.tree import unroll


def test_cfr_reports_value_exploitability_and_strategy(cli):
    report = cli.json("cfr", "kuhn", "--algorithm", "cfr", "--iterations", "1000")
    assert report["iterations"] == 1000
    assert (report["histories"], report["information_sets"]) == (58, 12)
    assert report["exploitability"] == pytest.approx(0.0009376166469929614, abs=1e-9)
    assert report["value"] == pytest.approx(-1 / 18, abs=2e-3)
    assert set(report["strategy"]["K check bet"]) == {"fold", "call"}
    assert report["strategy"]["K check bet"]["call"] > 0.99
    assert all(sum(row.values()) == pytest.approx(1) for row in report["strategy"].values())


def test_cfr_text_report_shows_a_small_strategy(cli):
    code, out, err = cli("cfr", "kuhn", "--iterations", "200")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("kuhn: cfr+, 200 iterations in ")
    assert lines[1].startswith("value for the first player: -0.05")
    assert lines[2].startswith("exploitability: ")
    assert any(line.split()[:3] == ["K", "check", "bet"] for line in lines)


def test_cfr_with_a_time_budget_and_a_seed(cli):
    first = cli.json("cfr", "kuhn", "--algorithm", "mccfr-es", "--time", "0.2", "--seed", "3")
    assert first["iterations"] >= 1 and first["seed"] == 3
    assert first["exploitability"] > 0


def test_saved_strategy_is_played_and_checked(cli, tmp_path):
    path = tmp_path / "kuhn.json"
    cli.json("cfr", "kuhn", "--iterations", "500", "--save", str(path))
    saved = json.loads(path.read_text())
    assert (saved["format"], saved["version"], saved["game"]) == ("zerosum strategy", 1, "kuhn")
    strategy = Strategy.load(path, "kuhn")
    assert len(strategy.profile(unroll(KuhnPoker()))) == 24
    code, out, _ = cli("play", "kuhn", "--strategy", str(path), "--seed", "1", answers=["q"])
    assert code == 0
    assert "Hand 1: you are the first player." in out and "You know: " in out


def test_play_hides_the_programs_card_until_the_end(cli):
    code, out, _ = cli("play", "kuhn", "--seed", "1", answers=["bet", "q"])
    assert code == 0
    before, _, after = out.partition("You know: ")
    card = after.split()[0]
    assert card in "JQK"
    # Until the hand's end only the human's own card is shown; then both.
    shown_before_end = after.split("first player ")[0]
    assert sum(c in shown_before_end.split() for c in ("J", "Q", "K")) == 1
    assert "You leave after 1 hand" in out
    assert "; moves: bet " in out


def test_play_alternates_seats_and_counts(cli):
    code, out, _ = cli("play", "kuhn", "--seed", "4", answers=["check", "check", "bet", "q"])
    assert code == 0
    assert "Hand 2: you are the second player." in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["cfr", "poker"], "unknown game 'poker'"),
        (["cfr", "kuhn", "--algorithm", "cfr++"], "invalid choice: 'cfr++'"),
        (["cfr", "kuhn", "--iterations", "0"], "--iterations must be at least 1, got 0"),
        (["cfr", "kuhn", "--iterations", "-5"], "--iterations must be at least 1, got -5"),
        (["cfr", "kuhn", "--time", "0"], "--time must be more than 0"),
        (["cfr", "kuhn", "--iterations", "200000000"], "over the limit of 100,000,000"),
        (
            ["cfr", "liars-dice", "--numdice", "3", "--faces", "7", "--iterations", "1"],
            "histories of the game 1,034,851,547,969,650,951 is over the limit of 20,000,000",
        ),
        (
            ["cfr", "liars-dice", "--numdice", "1000000", "--iterations", "1"],
            "Liar's Dice (2 x dice x faces) 12,000,000 is over the limit of 1,000,000",
        ),
        (
            ["solve", "liars-dice", "--numdice", "2"],
            "histories of the game 43,486,542,835 is over the limit of 20,000,000",
        ),
        (["cfr", "kuhn", "K"], "kuhn starts from the deal: it takes no position"),
        (["analyze", "kuhn"], "kuhn is a game of imperfect information"),
        (["match", "kuhn", "--a", "random", "--b", "random"], "kuhn is a game of imperfect"),
        (["play", "kuhn", "--depth", "3"], "--depth is for tree search"),
        (["play", "tictactoe", "--strategy", "x.json"], "--strategy is for games of imperfect"),
        (["chart", "cfr", "kuhn", "-o", "x.png", "--algorithms", "cfr,x"], "unknown algorithm"),
    ],
)
def test_mistakes_are_one_line(cli, argv, message):
    if argv[:2] == ["cfr", "kuhn"] and argv[2:3] == ["--algorithm"]:
        code, _, err = cli(*argv)  # argparse's own refusal, one line too
        assert code == 2 and message in err and err.count("\n") == 1
        return
    assert message in cli.error(*argv)


def _file(tmp_path, data, name="s.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_strategy_files_are_checked(cli, tmp_path):
    good = {"format": "zerosum strategy", "version": 1, "game": "kuhn"}
    table = Strategy.of(unroll(KuhnPoker()), unroll(KuhnPoker()).uniform(), "kuhn").table
    cases = [
        ("{not json", "is not a strategy file: not JSON"),
        ({"format": "other"}, "is not a strategy file"),
        ({**good, "game": "leduc", "strategy": table}, "is a strategy for 'leduc', not for kuhn"),
        (
            {**good, "strategy": {**table, "K": {"check": 0.5, "bet": 0.6}}},
            "the probabilities at information set 'K' sum to 1.1, not 1",
        ),
        (
            {**good, "strategy": {**table, "K": {"check": -0.5, "bet": 1.5}}},
            "is not a probability between 0 and 1",
        ),
        ({**good, "strategy": {**table, "A": {"check": 1}}}, "information set 'A' that kuhn"),
        (
            {**good, "strategy": {k: v for k, v in table.items() if k != "Q bet"}},
            "lacks the information set 'Q bet'",
        ),
        ({**good, "strategy": {**table, "K": {"check": 1}}}, "moves at 'K' are check"),
    ]
    for data, message in cases:
        err = cli.error("play", "kuhn", "--strategy", _file(tmp_path, data), "--seed", "1")
        assert message in err, err
    assert "cannot read" in cli.error("play", "kuhn", "--strategy", str(tmp_path / "none.json"))


def test_fractions_in_a_strategy_file_must_sum_exactly(tmp_path):
    table = {"K": {"check": "1/3", "bet": "2/3"}}
    path = _file(
        tmp_path, {"format": "zerosum strategy", "version": 1, "game": "g", "strategy": table}
    )
    assert Strategy.load(path).table["K"]["bet"] == pytest.approx(2 / 3)
    table["K"]["bet"] = "1/2"
    path = _file(
        tmp_path, {"format": "zerosum strategy", "version": 1, "game": "g", "strategy": table}
    )
    with pytest.raises(ValueError, match="sum to 0.833333, not 1"):
        Strategy.load(path)


def test_chart_cfr_draws_one_line_per_algorithm(cli, tmp_path, charts):
    out = tmp_path / "kuhn.png"
    report = cli.json(
        "chart", "cfr", "kuhn", "-o", str(out), "--iterations", "30", "--algorithms", "cfr,cfr+"
    )
    assert out.read_bytes()[:4] == b"\x89PNG"
    assert report["stops"] == [1, 2, 3, 4, 6, 10, 16, 25, 30]
    points = report["points"]
    assert [p["algorithm"] for p in points].count("cfr+") == 9
    assert points[0]["exploitability"] == pytest.approx(11 / 24)
    last = [p for p in points if p["iterations"] == 30]
    assert all(p["exploitability"] < 0.05 for p in last)


def test_chart_cfr_runs_the_sampled_variants_longer(cli, tmp_path, charts):
    out = tmp_path / "kuhn.svg"
    argv = ["chart", "cfr", "kuhn", "-o", str(out), "--iterations", "10", "--seed", "1"]
    report = cli.json(*argv, "--algorithms", "cfr+,mccfr-es", "--sampled-iterations", "20000")
    assert report["sampled_stops"][-1] == 20_000 and report["stops"][-1] == 10
    sampled = [p for p in report["points"] if p["algorithm"] == "mccfr-es"]
    assert sampled[-1]["iterations"] == 20_000 and sampled[-1]["exploitability"] < 0.03
    assert "--sampled-iterations is for the cfr chart" in cli.error(
        "chart", "growth", "-o", str(out), "--sampled-iterations", "5"
    )


def test_solve_kuhn_exactly(cli):
    code, out, err = cli("solve", "kuhn", "--exact")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("kuhn: the sequence form (13 + 13 sequences), solved exactly")
    assert lines[1] == "value for the first player: -1/18 (-0.0555556)"
    assert lines[2] == "check: a best response gains the first player 0 and the second player 0"
    report = cli.json("solve", "kuhn", "--exact")
    assert report["exact"] is True and report["value_exact"] == "-1/18"
    assert report["exploitability"] == 0
    first = {
        key: {move: Fraction(p) for move, p in row.items()}
        for key, row in report["strategy_exact"].items()
    }
    alpha = first["J"]["bet"]
    assert 0 <= alpha <= Fraction(1, 3)
    assert first["K"]["bet"] == 3 * alpha and first["Q"]["bet"] == 0
    assert first["Q check bet"]["call"] == alpha + Fraction(1, 3)
    assert first["J check bet"]["call"] == 0


def test_solve_leduc_in_floats_and_save(cli, tmp_path):
    path = tmp_path / "leduc.json"
    report = cli.json("solve", "leduc", "--save", str(path))
    assert report["value"] == pytest.approx(-0.0856, abs=0.0002)
    assert report["exploitability"] < 1e-9 and report["exact"] is False
    assert report["sequences"] == [1093, 1093] and report["information_sets"] == 936
    assert Strategy.load(path, "leduc").table.keys() == report["strategy"].keys()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "kuhn", "--weak"], "--weak is for tree search; kuhn is solved by its"),
        (["solve", "kuhn", "--all-moves"], "--all-moves is for tree search"),
        (["solve", "tictactoe", "--exact"], "--exact is for games of imperfect information"),
        (["solve", "nim", "3", "--save", "x.json"], "--save is for games of imperfect"),
    ],
)
def test_solve_refuses_what_the_sequence_form_does_not_take(cli, argv, message):
    assert message in cli.error(*argv)


def test_an_exact_equilibrium_saved_in_fractions_is_read_back_exactly(cli, tmp_path):
    path = tmp_path / "kuhn-exact.json"
    cli.json("solve", "kuhn", "--exact", "--save", str(path))
    assert json.loads(path.read_text())["strategy"]["Q bet"] == {"fold": "2/3", "call": "1/3"}
    strategy = Strategy.load(path, "kuhn")
    assert strategy.table["Q bet"]["call"] == Fraction(1, 3)
    tree = unroll(KuhnPoker())
    assert measure(tree, strategy.profile(tree)).exploitability == 0
    code, out, _ = cli("play", "kuhn", "--strategy", str(path), "--seed", "3", answers=["q"])
    assert code == 0 and "You leave after 0 hands" in out
