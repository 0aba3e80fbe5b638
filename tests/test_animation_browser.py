"""The HTML animation and the SVG drawing in a real browser: Debian's chromium driven by Playwright.

Stepped through every frame with the keyboard; no script error; the last frame shows
the textbook's value 3 and the two dark leaves. A screenshot of the last frame is kept in
test-artifacts/. The SVG drawing holds all its text, caption included, whatever the tree's
shape. Skipped, with the reason, only when no browser can be found.
"""

import json
import re
import shutil
from pathlib import Path

import pytest

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tree import Tree
from zerosum.show.html import html
from zerosum.show.searched import PRUNED
from zerosum.show.svg import layout, svg
from zerosum.show.traced import traced_engine as engine_tree
from zerosum.show.traced import traced_search as searched_tree

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
# As root in a closed network: no sandbox, no GPU, and none of Chromium's background traffic.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    from playwright import sync_api  # in the test extra: its absence is a failure, not a skip

    executable = find_chromium()
    if executable is None:
        pytest.skip("no chromium found (apt-get install chromium): cannot run the browser test")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=FLAGS)
        yield browser
        browser.close()


def open_page(browser, page_file, tree):
    """The page of `tree` opened from `page_file`, its steps, and the script errors it logs."""
    page_file.write_text(html(tree))
    page = browser.new_page(viewport={"width": 1000, "height": 640})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(page_file.as_uri())
    steps = json.loads(
        re.search(r'id="steps">(.*?)</script>', page_file.read_text(), re.DOTALL).group(1)
    )
    return page, steps, errors


@pytest.fixture
def textbook_page(browser, tmp_path):
    textbook = searched_tree(Tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), ())
    page, steps, errors = open_page(browser, tmp_path / "textbook.html", textbook)
    yield page, steps, errors
    page.close()


def test_animation_stepped_by_keyboard_ends_on_value_3_with_two_dark_leaves(textbook_page):
    page, steps, errors = textbook_page
    assert page.text_content("#counter") == f"step 0 of {len(steps)}"
    assert page.locator(".node.dark").count() == 0
    for frame in range(1, len(steps) + 1):
        page.keyboard.press("ArrowRight")
        assert page.text_content("#counter") == f"step {frame} of {len(steps)}"
        assert page.text_content("#caption") == steps[frame - 1]["text"]
    assert page.text_content("#value") == "3"
    assert page.text_content("#secured") == "3"
    assert page.locator(".node.leaf.dark").count() == 2
    assert page.text_content("#n0 .value") == "3"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "animation-last-frame.png"))
    assert errors == []


def test_leaves_go_dark_at_the_cutoff_and_come_back_when_stepping_back(textbook_page):
    page, steps, errors = textbook_page
    cutoff = next(i for i, step in enumerate(steps) if step["dark"]) + 1
    for _ in range(cutoff - 1):
        page.keyboard.press("ArrowRight")
    assert page.locator(".node.dark").count() == 0
    assert page.text_content("#secured") == "3"
    page.keyboard.press("ArrowRight")
    assert page.locator(".node.leaf.dark").count() == 2
    page.keyboard.press("ArrowLeft")
    assert page.locator(".node.dark").count() == 0
    page.keyboard.press("End")
    assert page.text_content("#value") == "3"
    page.keyboard.press("Home")
    assert (page.text_content("#value"), page.text_content("#secured")) == ("?", "nothing yet")
    assert errors == []


def test_play_steps_on_by_itself_until_paused(textbook_page):
    page, _, errors = textbook_page
    page.click("#play")
    assert page.text_content("#play") == "Pause"
    page.wait_for_function("document.getElementById('counter').textContent.startsWith('step 2 ')")
    page.keyboard.press(" ")
    assert page.text_content("#play") == "Play"
    paused_at = page.text_content("#counter")
    page.wait_for_timeout(1000)
    assert page.text_content("#counter") == paused_at
    page.click("#next")
    page.click("#previous")
    assert page.text_content("#counter") == paused_at
    assert errors == []


def test_engine_animation_on_connect4_steps_to_the_engine_value_with_pruned_nodes_dark(
    browser, tmp_path
):
    game = ConnectFour()
    searched = engine_tree(game, game.parse_state("4453"), 2)
    page, steps, errors = open_page(browser, tmp_path / "connect4.html", searched)
    for frame in range(1, len(steps) + 1):
        page.keyboard.press("ArrowRight")
        assert page.text_content("#caption") == steps[frame - 1]["text"]
    assert page.text_content("#counter") == f"step {len(steps)} of {len(steps)}"
    assert page.text_content("#value") == "-0.008"
    assert page.locator(".node.dark").count() == searched.count(PRUNED) == 26
    assert page.locator(".node.hit, .node.examined").count() == 31
    page.close()
    assert errors == []


# Each text element's class, text and box in the drawing's own units, and the drawing's viewBox.
TEXT_BOXES = """() => {
    const drawing = document.querySelector("svg");
    const view = drawing.viewBox.baseVal;
    const boxes = [...drawing.querySelectorAll("text")].map((text) => {
        const box = text.getBBox();
        const edges = [box.x, box.y, box.x + box.width, box.y + box.height];
        return [text.getAttribute("class"), text.textContent, ...edges];
    });
    return {view: [view.x, view.y, view.x + view.width, view.y + view.height], boxes};
}"""


@pytest.mark.parametrize(
    ("nested", "across"),
    [
        ([[3, 12, 8], [2, 4, 6], [14, 5, 2]], False),  # the textbook's tree
        (7, False),  # one leaf: the caption alone sets the width
        ([[i, i + 1, i + 2, i + 3] for i in range(7)], False),  # 28 leaves drawn down
        ([[i, -i] for i in range(20)], True),  # 40 leaves: drawn across
    ],
)
def test_every_text_of_the_svg_lies_inside_its_view_box(browser, tmp_path, nested, across):
    searched = searched_tree(Tree(nested), ())
    assert layout(searched)[1] is across
    drawing = tmp_path / "tree.svg"
    drawing.write_text(svg(searched))
    page = browser.new_page()
    page.goto(drawing.as_uri())
    found = page.evaluate(TEXT_BOXES)
    page.close()
    left, top, right, bottom = found["view"]
    assert sum(kind == "caption" for kind, *_ in found["boxes"]) >= 2
    outside = [
        text
        for _, text, x1, y1, x2, y2 in found["boxes"]
        if x1 < left or y1 < top or x2 > right or y2 > bottom
    ]
    assert outside == []
