"""The commands that draw: `tree --show`, `explain`, `chart`."""

from xml.etree import ElementTree

import pytest
from drawings import SVG, svg_groups

SEED_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"


def test_tree_default_output_lists_7_of_9_leaves_examined(cli):
    code, out, _ = cli("tree", SEED_TREE)
    assert code == 0
    assert "leaves examined: 7 of 9" in out
    assert "  1.1                 4  pruned" in out


def test_tree_show_text_prints_the_indented_tree(cli):
    code, out, _ = cli("tree", SEED_TREE, "--show", "text")
    assert code == 0
    assert out.splitlines()[1] == "MAX α=-∞ β=∞ → 3 *"
    assert "│   ├── 1 leaf (4) pruned" in out


def test_tree_show_svg_to_file_reports_it_in_json(tmp_path, cli):
    target = tmp_path / "textbook.svg"
    report = cli.json("tree", SEED_TREE, "--show", "svg", "-o", str(target))
    assert report["output"] == str(target)
    assert (report["value"], report["leaves"], len(report["pruned"])) == (3, 7, 2)
    ElementTree.parse(target)
    assert [p.name for p in tmp_path.iterdir()] == ["textbook.svg"]  # no temporary file left


def test_tree_show_html_replaces_an_existing_file(tmp_path, cli):
    target = tmp_path / "textbook.html"
    target.write_text("old")
    assert cli("tree", SEED_TREE, "--show", "html", "-o", str(target)).code == 0
    assert target.read_text().startswith("<!DOCTYPE html>")


def test_tree_show_with_json_and_no_file_is_an_error(cli):
    err = cli.error("tree", SEED_TREE, "--show", "svg", "--json")
    assert err == (
        "zerosum: error: --json and --show both print to stdout: give the picture a file with -o\n"
    )


def test_tree_show_into_a_missing_folder_is_one_line_error(tmp_path, cli):
    target = tmp_path / "missing" / "textbook.svg"
    err = cli.error("tree", SEED_TREE, "--show", "svg", "-o", str(target))
    assert err.startswith(f"zerosum: error: cannot write {target}:")


def test_explain_tictactoe_depth_2_svg_notes_what_was_left_out(tmp_path, cli):
    target = tmp_path / "explain.svg"
    argv = ["explain", "tictactoe", "--position", "XOX.O....", "--depth", "2"]
    report = cli.json(*argv, "--show", "svg", "-o", str(target))
    assert (report["value"], report["best_move"], report["nodes"]) == (0, "7", 101)
    assert report["left_out"] == report["nodes"] - report["nodes_drawn"] == 81
    caption = "".join(ElementTree.parse(target).getroot().itertext())
    assert "left out: 81 nodes searched below ply 2" in caption


def test_explain_prints_text_by_default(cli):
    code, out, _ = cli("explain", "tictactoe", "--position", "XOX.O....", "--depth", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "MAX α=-∞ β=∞ → 0 *"
    assert lines[-1] == "└── 8 MIN α=0 β=∞ → 0 cut-off: 0 ≤ α=0 (search went on below)"


def test_explain_negative_depth_is_an_error(cli):
    err = cli.error("explain", "tictactoe", "--depth", "-1")
    assert err == "zerosum: error: --depth is the plies to draw: at least 0, not -1\n"


def test_explain_bad_position_is_an_error(cli):
    assert "zerosum: error: bad position" in cli.error(
        "explain", "tictactoe", "--position", "XXXX....."
    )


def test_explain_connect4_svg_counts_equal_the_report(tmp_path, cli):
    target = tmp_path / "engine.svg"
    argv = ["explain", "connect4", "--position", "4453", "--depth", "3", "--show", "svg"]
    report = cli.json(*argv, "-o", str(target))
    assert (report["algorithm"], report["value"]) == ("engine", 0.043)
    assert report["pv"] == ["6", "7", "4"]
    assert (report["nodes"], report["cutoffs"], report["plies_drawn"]) == (99, 29, 3)
    root = ElementTree.parse(target).getroot()
    groups = svg_groups(target.read_text())
    assert sum(bool({"examined", "hit"} & g) for g in groups) == report["nodes_drawn"] == 82
    assert sum("pruned" in g for g in groups) == report["pruned_drawn"] == 66
    assert report["left_out"] == report["nodes"] - report["nodes_drawn"] == 17
    assert "left out: 17 nodes searched below ply 3" in "".join(root.itertext())


def test_explain_connect4_too_deep_for_the_picture_says_what_was_left_out(cli):
    argv = ["explain", "connect4", "--position", "4453", "--depth", "4", "--max-nodes", "60"]
    code, out, _ = cli(*argv)
    assert code == 0
    first = out.splitlines()[0]
    assert first.endswith(
        "engine, depth 4 (its last iteration): 235 nodes, 57 cut-offs; drawn: the first 2"
        " plies (57 nodes), left out: 208 nodes searched below ply 2 or in first searches"
        " that were repeated"
    )


def test_explain_connect4_html_is_one_page_with_a_step_per_event(tmp_path, cli):
    target = tmp_path / "engine.html"
    argv = ["explain", "connect4", "--position", "4453", "--depth", "2", "--show", "html"]
    assert cli(*argv, "-o", str(target)).code == 0
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "again (a first, cheaper search returned -0.008)" in page


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--position", "4453x"], "bad moves '4453x' at move 5: 'x' is not a column"),
        (["--position", "4455667"], "the game is already over in '4455667'"),
        (["--depth", "0"], "--depth is the plies the engine searches: from 1 to 100"),
        (["--depth", "101"], "from 1 to 100 (a deeper search would never end"),
        (["--depth", "9" * 4000], "not of 4,000 digits"),
        (["--order", "3,4"], "(it has an evaluation): --algorithm and --order are for exact"),
        (["--max-nodes", "0"], "--max-nodes is the most nodes the picture may have: from 1"),
        (["--max-nodes", "-1"], "from 1 (the root alone) to 1,000,000, not -1"),
        (["--max-nodes", "1000001"], "to 1,000,000, not 1,000,001"),
    ],
)
def test_explain_connect4_bad_options_are_one_line_errors(argv, message, cli):
    assert message in cli.error("explain", "connect4", *argv)  # one line, exit code 2


def test_explain_tictactoe_without_table_is_an_error(cli):
    err = cli.error("explain", "tictactoe", "--no-table")
    assert "--no-table is for the engine: the exact searches keep no table" in err


@pytest.mark.usefixtures("charts")
def test_chart_ordering_writes_a_png_and_prints_the_numbers(tmp_path, cli):
    target = tmp_path / "ordering.png"
    report = cli.json("chart", "ordering", "-o", str(target))
    assert [run["leaves"] for run in report["runs"][:3]] == [7_330, 2_893, 17_002]
    assert target.read_bytes().startswith(b"\x89PNG")


@pytest.mark.usefixtures("charts")
def test_chart_growth_small_writes_a_png(tmp_path, cli):
    target = tmp_path / "growth.png"
    argv = ["chart", "growth", "-o", str(target), "--max-depth", "4", "--samples", "2"]
    report = cli.json(*argv)
    assert [p["minimal_tree"] for p in report["points"]] == [3, 5, 11, 17]
    assert target.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["chart", "ordering", "-o", "x.gif"], "cannot tell the chart's format from 'x.gif'"),
        (["chart", "growth", "-o", "x.png", "--branching", "1"], "moves per node: at least 2"),
        (["chart", "growth", "-o", "x.png", "--max-depth", "30"], "leaves (from depth 12)"),
    ],
)
@pytest.mark.usefixtures("charts")
def test_chart_bad_options_are_one_line_errors(argv, message, cli):
    assert message in cli.error(*argv)  # one line, exit code 2


def test_tree_show_svg_through_a_subprocess_prints_the_svg(cli):
    code, out, _ = cli.process("tree", SEED_TREE, "--show", "svg")
    assert code == 0
    root = ElementTree.fromstring(out)
    assert root.tag == f"{SVG}svg"


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ("9", "tic-tac-toe's moves are the squares 0 to 8, not 9"),
        ("-1", "tic-tac-toe's moves are the squares 0 to 8, not -1"),
        ("", "--order names no move"),
        ("1,,2", "'' is no move"),
        ("4,4", "it lists 4 twice"),
    ],
)
def test_explain_refuses_an_order_of_moves_the_game_does_not_have(cli, order, message):
    assert message in cli.error("explain", "tictactoe", "--order", order)


def test_explain_refuses_an_exact_search_too_long_to_draw(cli, monkeypatch):
    """Nim (18, 18) searched to the end ran for minutes before the picture's own limit: the
    search itself stops at `SEARCHED` nodes (made small here: tic-tac-toe's start is over)."""
    from dataclasses import replace

    import zerosum.show.traced as traced

    monkeypatch.setattr(traced, "SEARCHED", replace(traced.SEARCHED, most=1_000))
    code, _, err = cli("explain", "tictactoe", "--depth", "1")
    assert code == 2 and err.count("\n") == 1
    assert "the nodes of an exact search explain draws 1,001 is over the limit of 1,000" in err
    code, _, _ = cli("explain", "tictactoe", "XOX.O.X..")  # a few nodes: drawn as before
    assert code == 0
