"""docs/pictures/make.py run into an empty folder: every picture of the README made, and sound.

Facts only: the files, an SVG that parses as XML and draws what its command printed, a PNG with
the PNG signature and the dimensions of a picture for a page. Skipped, with the reason, only
when no browser can be found (the animation is photographed in chromium).
"""

import struct
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from drawings import SVG, svg_groups
from test_animation_browser import find_chromium

SCRIPT = Path(__file__).resolve().parent.parent / "docs" / "pictures" / "make.py"
PICTURES = {
    "alpha-beta.svg",
    "animation.png",
    "move-order.png",
    "growth.png",
    "cfr-leduc.png",
    "connect4-analysis.svg",
    "page-play.png",
    "page-matrix.png",
    "page-tree.png",
}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def pictures(tmp_path_factory):
    """The folder the script wrote to, and what it printed."""
    browser = find_chromium()
    if browser is None:
        pytest.skip("no chromium found (apt-get install chromium): cannot photograph the page")
    folder = tmp_path_factory.mktemp("pictures")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--output", str(folder), "--browser", browser],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return folder, done.stdout


def png_header(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type from the header of the PNG at `path`."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height, data[25]


def test_the_script_writes_every_picture_and_says_where(pictures):
    folder, printed = pictures
    assert {path.name for path in folder.iterdir()} == PICTURES
    for name in PICTURES:
        assert f"wrote {folder / name} (" in printed


def test_every_picture_is_under_100_kb(pictures):
    folder, _ = pictures
    sizes = {path.name: path.stat().st_size for path in folder.iterdir()}
    assert max(sizes.values()) < 100_000, sizes


@pytest.mark.parametrize("name", sorted(name for name in PICTURES if name.endswith(".png")))
def test_png_pictures_are_paletted_and_fit_a_page(pictures, name):
    folder, _ = pictures
    width, height, colour_type = png_header(folder / name)
    assert 600 <= width <= 1600
    assert 300 <= height <= 1400  # the stepper's page, its chart under the tree, is the tallest
    assert colour_type == 3  # a palette: a few colours, a small file


def test_animation_is_photographed_at_the_page_width_the_script_asks(pictures):
    folder, _ = pictures
    assert png_header(folder / "animation.png")[0] == 900


def test_alpha_beta_picture_is_the_textbook_tree_with_two_leaves_pruned(pictures):
    folder, _ = pictures
    document = (folder / "alpha-beta.svg").read_text()
    root = ElementTree.fromstring(document)
    assert root.tag == f"{SVG}svg"
    assert "value 3 for MAX" in root.find(f"{SVG}title").text
    groups = svg_groups(document)
    assert sum("leaf" in classes for classes in groups) == 9
    assert sum({"leaf", "pruned"} <= classes for classes in groups) == 2


def test_connect4_picture_is_the_analysis_printed_under_its_board(pictures):
    folder, _ = pictures
    root = ElementTree.fromstring((folder / "connect4-analysis.svg").read_text())
    assert root.tag == f"{SVG}svg"
    lines = ["".join(text.itertext()) for text in root.iter(f"{SVG}text")]
    assert "$ zerosum analyze connect4 4453 --depth 8" in lines
    depths = [line.split()[1] for line in lines if line.startswith("depth ")]
    assert depths == [str(depth) for depth in range(1, 9)]
    assert sum(line.startswith("best move: ") for line in lines) == 1
    stones = [line for line in lines if line in ("X", "O")]
    assert sorted(stones) == ["O", "O", "X", "X"]
    assert int(root.get("width")) <= 1000
