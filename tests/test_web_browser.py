"""The pages of `zerosum serve` in a real browser: Debian's chromium driven by Playwright.

The server is `zerosum serve` itself, in a process of its own on a free port. Each
page is used as a person would (typing, clicking, the keyboard) and logs no error in the
browser's console. Skipped, with the reason, only when no browser can be found.
"""

from __future__ import annotations

import re
import select
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest
from test_animation_browser import (
    ARTIFACTS,
    browser,  # noqa: F401 (the fixture: chromium, or a skip)
)

from zerosum.web.app import PAGES


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """The address `zerosum serve --port 0` prints, in a process of its own (a free port),
    stopped as Ctrl-C stops it when the module's tests end."""
    server = subprocess.Popen(
        [sys.executable, "-m", "zerosum", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], 60)
        assert ready, "zerosum serve printed no address within 60 seconds"
        line = server.stdout.readline()
        served = re.fullmatch(r"serving the page at (\S+)/ \(Ctrl-C stops\)\n", line)
        assert served, line
        yield served[1]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            assert server.wait(timeout=10) == 130  # Ctrl-C, as for every command
        finally:
            server.kill()


@pytest.fixture
def page(browser, address):  # noqa: F811 (the imported fixture)
    """A new page, and after the test a check that it logged no error."""
    opened = browser.new_page(viewport={"width": 1100, "height": 800})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    opened.errors = errors
    yield opened
    opened.close()
    assert errors == []


def test_every_page_loads_without_a_console_error(page, address):
    for path in PAGES:
        response = page.goto(address + path)
        assert response is not None and response.status == 200, path
        page.wait_for_load_state("load")
    assert page.errors == []


def test_matrix_page_solves_3_minus_1_minus_2_4_to_value_1_in_fractions(page, address):
    page.goto(address + "/matrix")
    page.fill("#matrix", "3 -1; -2 4")
    page.click("#solve")
    page.wait_for_selector("#answer:not([hidden])")
    assert page.text_content("#value") == "1"
    assert page.text_content("#row-strategy") == "R1 3/5, R2 2/5"
    assert page.text_content("#column-strategy") == "C1 1/2, C2 1/2"
    assert (page.text_content("#lower-value"), page.text_content("#upper-value")) == ("-1", "3")
    assert page.text_content("#saddle-points") == "none"
    assert page.text_content("#error") == ""


def test_matrix_page_shows_saddle_points_and_dominance_steps(page, address):
    page.goto(address + "/matrix")
    page.fill("#matrix", "4 2 3; 1 0 5; 3 1 2")
    page.press("#solve", "Enter")
    page.wait_for_selector("#answer:not([hidden])")
    assert page.text_content("#saddle-points") == "(R1, C2)"
    assert page.locator("td.saddle").count() == 1
    assert page.locator("#dominance li").first.text_content().startswith("R3 pays the row player")
    assert page.text_content("#dominance-left") == "left: rows R1; columns C2"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-matrix.png"), full_page=True)


def test_matrix_page_solves_the_battle_of_the_sexes_and_draws_its_best_responses(page, address):
    page.goto(address + "/matrix")
    page.fill("#matrix", "3,1 0,0; 0,0 1,3")
    page.click("#solve")
    page.wait_for_selector("#bimatrix-answer:not([hidden])")
    assert page.is_hidden("#zero-sum-answer")
    assert page.text_content("#pure-equilibria") == "(R1, C1), (R2, C2)"
    rows = page.locator("#equilibria tr")
    assert rows.count() == 4  # the heading and three equilibria
    assert rows.nth(3).locator("td").all_text_contents() == [
        "R1 3/4, R2 1/4",
        "C1 1/4, C2 3/4",
        "3/4 and 3/4",
        "-",
    ]
    assert rows.nth(1).locator("td").last.text_content() == "R1, C1"
    assert page.locator("#best-responses svg circle.equilibrium").count() == 3
    assert page.text_content("#degenerate").startswith("The game is nondegenerate")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-bimatrix.png"), full_page=True)
    page.fill("#matrix", "3,3 0,5; 5,0 1,1")  # the Prisoner's Dilemma: dominance alone
    page.click("#solve")
    page.wait_for_selector("#equilibria tr:nth-child(2) >> text=R2 1")
    steps = page.locator("#bimatrix-dominance li").all_text_contents()
    assert steps[1] == "C1 pays the column player less than C2 against every remaining strategy"
    page.fill("#matrix", "3,1 0")  # a mix: the parser's message, and no answer left
    page.click("#solve")
    page.wait_for_selector("#error:not(:empty)")
    assert page.text_content("#error").startswith("cell '0' at row 1, column 2 is a number")
    assert page.is_hidden("#answer")
    page.fill("#matrix", "3 -1; -2 4")  # and back to a zero-sum game
    page.click("#solve")
    page.wait_for_selector("#zero-sum-answer:not([hidden])")
    assert page.is_hidden("#bimatrix-answer") and page.text_content("#value") == "1"


def test_matrix_page_shows_the_parsers_message_for_a_ragged_matrix(page, address):
    from zerosum.theory.payoffs import parse_matrix

    with pytest.raises(ValueError) as parser:
        parse_matrix("1 2; 3")
    page.goto(address + "/matrix")
    page.fill("#matrix", "3 -1; -2 4")
    page.click("#solve")
    page.wait_for_selector("#answer:not([hidden])")
    page.fill("#matrix", "1 2; 3")
    page.click("#solve")
    page.wait_for_selector("#error:not(:empty)")
    assert page.text_content("#error") == str(parser.value)
    assert page.is_hidden("#answer")  # the previous answer is not left beside the message


def test_tree_stepper_reaches_value_3_with_7_of_9_leaves_by_the_arrow_keys(page, address):
    page.goto(address + "/tree")
    page.click("#textbook")  # may overtake the search the page asks for on arrival
    page.wait_for_selector("#waiting:empty", state="attached")  # the click's answer, shown
    page.wait_for_selector("#answer:not([hidden])")
    assert page.text_content("#summary").endswith("leaves examined 7 of 9, pruned 2")
    total = int(page.text_content("#counter").split(" of ")[1])
    assert page.text_content("#counter") == f"step 0 of {total}"
    assert page.text_content("#value") == "?"
    for frame in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        assert page.text_content("#counter") == f"step {frame} of {total}"
    assert page.text_content("#value") == "3"
    assert page.locator(".node.leaf.valued").count() == 7
    assert page.locator(".node.leaf.dark").count() == 2
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#value") == "?"
    page.click("#next")
    assert page.text_content("#value") == "3"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-tree-stepper.png"), full_page=True)


def test_tree_page_drops_an_answer_overtaken_by_a_newer_question(page, address):
    held = []  # the search the page asks for on arrival, answered only after the next one

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/tree", hold_the_first)
    page.goto(address + "/tree")
    page.select_option("#algorithm", "minimax")  # while the first is held
    page.wait_for_selector("#leaves:has-text('9 of 9')")
    with page.expect_response("**/api/tree") as late:
        held[0].continue_()
    late.value.finished()
    page.evaluate("() => new Promise((settled) => setTimeout(settled, 200))")
    assert page.text_content("#leaves") == "9 of 9"  # not alpha-beta's 7 of 9
    assert "minimax" in page.text_content("#summary")
    assert page.text_content("#waiting") == ""
    assert page.is_enabled("#search")


def test_tree_stepper_under_minimax_examines_all_9_leaves(page, address):
    page.goto(address + "/tree")
    page.wait_for_selector("#answer:not([hidden])")  # the box's tree, searched on arrival
    page.select_option("#algorithm", "minimax")
    page.wait_for_selector("#summary:has-text('minimax')")
    page.keyboard.press("End")
    assert page.text_content("#value") == "3"
    assert page.locator(".node.leaf.valued").count() == 9
    assert page.locator(".node.dark").count() == 0


def test_tree_stepper_shows_the_readers_message_and_typing_does_not_step(page, address):
    from zerosum.games.tree import Tree

    with pytest.raises(ValueError) as reader:
        Tree.from_text("[[3,12,8],[2,4")
    page.goto(address + "/tree")
    page.wait_for_selector("#answer:not([hidden])")
    page.fill("#tree", "[[3,12,8],[2,4")
    page.press("#tree", "ArrowLeft")  # moves the cursor in the box, not the search
    assert page.text_content("#counter").startswith("step 0 of")
    page.press("#tree", "Enter")
    page.wait_for_selector("#error:not(:empty)")
    assert page.text_content("#error") == str(reader.value)
    assert page.is_hidden("#answer")


def test_matrix_page_draws_no_table_beyond_the_commands_and_counts_saddle_points(page, address):
    page.goto(address + "/matrix")
    page.fill("#matrix", "\n".join(" ".join(["0"] * 21) for _ in range(3)))
    page.click("#solve")
    page.wait_for_selector("#answer:not([hidden])")
    assert page.text_content("#table-size").startswith("3 rows x 21 columns")
    assert page.locator("#payoffs td").count() == 0
    assert page.text_content("#saddle-points").endswith(", ... (63 in all)")
    assert page.text_content("#value") == "0"


def test_tree_stepper_steps_expectiminimax_to_6_the_expectation_rising(page, address):
    page.goto(address + "/tree")
    page.wait_for_selector("#answer:not([hidden])")
    page.click("#dice")
    page.wait_for_selector("#summary:has-text('expectiminimax')")
    total = int(page.text_content("#counter").split(" of ")[1])
    assert total == 10 and page.text_content("#leaves") == "4 of 4"
    for _ in range(3):  # the root, the first roll, its first outcome: half of 6
        page.keyboard.press("ArrowRight")
    assert page.locator("#n1.partial .value").text_content() == "3"
    page.keyboard.press("ArrowRight")
    assert page.locator("#n1.partial .value").text_content() == "6"
    for _ in range(3):  # its return, the second roll, its first outcome: half of 10
        page.keyboard.press("ArrowRight")
    assert page.locator("#n4.partial .value").text_content() == "5"
    assert "brings the expectation of chance node after 1 to 5." in page.text_content("#caption")
    page.keyboard.press("End")
    assert page.text_content("#value") == "6"
    assert page.locator("#n4.valued .value").text_content() == "5.5"
    assert page.locator(".node.partial").count() == 0
    assert page.locator(".edge text", has_text="p=0.5").count() == 4
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-tree-chance.png"), full_page=True)


def test_tree_stepper_order_changes_the_leaves_examined_and_a_bad_order_is_refused(page, address):
    from zerosum.games.tree import Tree
    from zerosum.show.traced import tree_order

    with pytest.raises(ValueError) as refused:
        tree_order(Tree.from_text("[[3,12,8],[2,4,6],[14,5,2]]"), "1,x")
    page.goto(address + "/tree")
    page.wait_for_selector("#answer:not([hidden])")
    assert page.text_content("#leaves") == "7 of 9"
    page.select_option("#order-kind", "worst")
    page.wait_for_selector("#leaves:has-text('9 of 9')")
    page.select_option("#order-kind", "best")
    page.wait_for_selector("#leaves:has-text('5 of 9')")
    page.keyboard.press("End")
    assert page.text_content("#value") == "3"
    assert page.locator(".node.leaf.dark").count() == 4
    page.select_option("#order-kind", "typed")
    page.fill("#order", "1,x")
    page.press("#order", "Enter")
    page.wait_for_selector("#error:not(:empty)")
    assert page.text_content("#error") == str(refused.value)
    page.fill("#order", "2,1,0")
    page.press("#order", "Enter")
    page.wait_for_selector("#leaves:has-text('9 of 9')")
    assert page.text_content("#error") == ""


def test_tree_page_charts_the_move_order_experiment_run_by_run(page, address):
    from zerosum.experiments.ordering import ordering_experiment
    from zerosum.web.ordering import CHART_SHUFFLES

    runs = ordering_experiment(CHART_SHUFFLES)
    page.goto(address + "/tree")
    page.click("#ordering-run")
    page.wait_for_selector("#ordering-waiting:has-text('done')")
    bars = page.locator("#ordering-chart svg g.bar.done")
    assert bars.count() == len(runs) == 8
    assert page.locator("#ordering-chart svg rect").count() == 8
    names = page.locator("#ordering-chart .name").all_text_contents()
    counts = page.locator("#ordering-chart .count").all_text_contents()
    assert names == [run.name for run in runs]
    assert counts == [f"{run.leaves:,}" for run in runs]
    assert counts[:3] == ["7,330", "2,893", "17,002"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#ordering").screenshot(path=str(ARTIFACTS / "web-ordering-chart.png"))


def test_matrix_page_draws_the_envelope_of_a_2_by_2_game_peaking_at_3_5(page, address):
    page.goto(address + "/matrix")
    page.fill("#matrix", "3 -1; -2 4")
    page.click("#solve")
    page.wait_for_selector("#picture svg")
    assert page.text_content("#picture .best-label") == "p = 3/5, value 1"
    assert page.locator("#picture circle.best").count() == 1
    assert page.locator("#picture g.line").count() == 2
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#picture").screenshot(path=str(ARTIFACTS / "web-matrix-envelope.png"))
    page.fill("#matrix", "1 2 3; 4 5 6; 7 8 9")
    page.click("#solve")
    page.wait_for_selector("#picture-note:has-text('3 x 3')")
    assert page.locator("#picture svg").count() == 0
