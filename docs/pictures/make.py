"""Draw the pictures the README shows, each from what one `zerosum` command gives a user.

    python docs/pictures/make.py [--output DIR] [--browser PATH]

alpha-beta.svg         zerosum tree "[[3,12,8],[2,4,6],[14,5,2]]" --show svg: the textbook's
                       tree, the two leaves alpha-beta never looks at crossed out
animation.png          the same tree with --show html, stepped in chromium to its cut-off
move-order.png         zerosum chart ordering: tic-tac-toe's cost under each move order
growth.png             zerosum chart growth: leaves against depth, minimax and alpha-beta
cfr-leduc.png          zerosum chart cfr leduc: the CFR family's exploitability on Leduc poker
connect4-analysis.svg  zerosum analyze connect4 4453 --depth 8, drawn as a terminal under
                       the position it analyses
page-*.png             zerosum serve's pages in chromium: Connect Four played against the
                       engine, its iterations beside the board; a matrix game solved with its
                       picture, the textbook's tree stepped to its first cut-off above
                       tic-tac-toe's move-order chart
learning-connect4.png  zerosum chart learning RUN, with --learning RUN only: a run of
                       zerosum train connect4 takes an hour (benchmarks/README.md says which)

Only the command line is used, so the pictures follow the program as it changes: run this
again after a change to what they show. The animation is photographed by Playwright driving
Debian's chromium (as the browser test does); the PNGs are cut to 256 colours with Pillow.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

TEXTBOOK_TREE = "[[3,12,8],[2,4,6],[14,5,2]]"
CONNECT4_MOVES = "4453"
ANALYZE = ["analyze", "connect4", CONNECT4_MOVES, "--depth", "8"]
# As root in a closed network: no sandbox, no GPU, and none of Chromium's background traffic.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The animation's page at about the README's width, so that its text is read at its own size.
PAGE_WIDTH = 900


def zerosum(*arguments: str) -> str:
    """What `zerosum ARGUMENTS` prints; its error message, and an exit, when it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "zerosum", *arguments], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"zerosum {' '.join(arguments)} failed: {done.stderr.strip()}")
    return done.stdout


def fewer_colours(path: Path) -> None:
    """Rewrite the PNG at `path` with a palette of 256 colours (no dithering: flat drawings)."""
    from PIL import Image

    with Image.open(path) as image:
        opaque = Image.alpha_composite(
            Image.new("RGBA", image.size, "white"), image.convert("RGBA")
        ).convert("RGB")
    palette = opaque.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette.save(path, optimize=True)


def alpha_beta_tree(folder: Path) -> Path:
    path = folder / "alpha-beta.svg"
    zerosum("tree", TEXTBOOK_TREE, "--show", "svg", "-o", str(path))
    return path


CHARTS = {
    "move-order.png": ["ordering"],
    "growth.png": ["growth"],
    "cfr-leduc.png": ["cfr", "leduc"],
}
"""Each chart's file and the `zerosum chart` arguments that draw it."""


def charts(folder: Path) -> list[Path]:
    paths = []
    for name, arguments in CHARTS.items():
        path = folder / name
        zerosum("chart", *arguments, "-o", str(path))
        fewer_colours(path)
        paths.append(path)
    return paths


def find_chromium() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def animation(folder: Path, browser: str) -> Path:
    """The HTML animation of the textbook's tree, photographed at its first cut-off."""
    from playwright.sync_api import sync_playwright

    path = folder / "animation.png"
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        page_file = Path(scratch) / "alpha-beta.html"
        zerosum("tree", TEXTBOOK_TREE, "--show", "html", "-o", str(page_file))
        chromium = playwright.chromium.launch(executable_path=browser, args=CHROMIUM_FLAGS)
        try:
            page = chromium.new_page(viewport={"width": PAGE_WIDTH, "height": 400})
            page.goto(page_file.as_uri())
            # Step as a reader would, with the arrow key, until the cut-off darkens its leaves.
            while page.locator(".node.dark").count() == 0:
                counter = page.text_content("#counter")
                page.keyboard.press("ArrowRight")
                if page.text_content("#counter") == counter:
                    raise SystemExit("the animation ended without a cut-off to show")
            page.screenshot(path=str(path), full_page=True)
        finally:
            chromium.close()
    fewer_colours(path)
    return path


def matrix_page(page: Any, address: str) -> None:
    """The matrix page with 3 -1; -2 4 solved."""
    page.goto(address + "/matrix")
    page.fill("#matrix", "3 -1; -2 4")
    page.click("#solve")
    page.wait_for_selector("#answer:not([hidden])")


def tree_page(page: Any, address: str) -> None:
    """The stepper on the textbook's tree, stepped by the arrow key to its first cut-off, under
    tic-tac-toe's move-order experiment run to its last bar."""
    page.goto(address + "/tree")
    page.click("#ordering-run")
    page.wait_for_selector("#ordering-chart svg g.bar.done >> nth=7", timeout=120_000)
    page.wait_for_selector("#answer:not([hidden])")
    while page.locator(".node.dark").count() == 0:
        counter = page.text_content("#counter")
        page.keyboard.press("ArrowRight")
        if page.text_content("#counter") == counter:
            raise SystemExit("the stepper ended without a cut-off to show")


def play_page(page: Any, address: str) -> None:
    """Connect Four on the Play page after 4453, the program (X) answering with a search to
    depth 10: the board with its move, its iterations beside it."""
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    page.select_option("#game", "connect4")
    page.select_option("#side", "1")
    page.select_option("#strength", "depth")
    page.fill("#amount", "10")
    page.fill("#position", CONNECT4_MOVES)
    page.click("#new")
    page.wait_for_selector("#record li", timeout=120_000)  # the record starts at the position


PAGES = {
    "page-play.png": play_page,
    "page-matrix.png": matrix_page,
    "page-tree.png": tree_page,
}
"""Each screenshot of `zerosum serve` and how the page is brought to what it shows."""


def pages(folder: Path, browser: str) -> list[Path]:
    """Screenshots of the pages of `zerosum serve`, each used as a reader would use it."""
    from playwright.sync_api import sync_playwright

    from zerosum.web.process import served

    paths = []
    with served() as address, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=browser, args=CHROMIUM_FLAGS)
        try:
            for name, show in PAGES.items():
                page = chromium.new_page(viewport={"width": PAGE_WIDTH + 200, "height": 700})
                show(page, address)
                path = folder / name
                page.screenshot(path=str(path), full_page=True)
                page.close()
                fewer_colours(path)
                paths.append(path)
        finally:
            chromium.close()
    return paths


def board_cells(moves: str, width: int = 7) -> dict[tuple[int, int], str]:
    """The stone on each (column, row) after `moves` (columns from 1, rows from the bottom)."""
    heights = [0] * width
    cells = {}
    for ply, column in enumerate(int(move) - 1 for move in moves):
        cells[column, heights[column]] = "XO"[ply % 2]
        heights[column] += 1
    return cells


def terminal_svg(command: str, output: str, moves: str) -> str:
    """An SVG of a terminal window showing `command` and its `output`, under the board."""
    font_size, line_height, char_width, pad = 13, 18, 7.83, 16  # DejaVu Sans Mono: 0.602 em
    lines = output.rstrip("\n").splitlines()
    columns = max(len(line) for line in [f"$ {command}", *lines])
    width = round(columns * char_width + 2 * pad)
    # The board: 7 columns of 6 holes, X (red) and O (yellow), column numbers under it.
    cell, board_x, board_y = 24, pad, 12
    board_w, board_h = 7 * cell + 8, 6 * cell + 8
    parts = [
        f'<rect x="{board_x}" y="{board_y}" width="{board_w}" height="{board_h}" rx="6" '
        'fill="#1f4e8c"/>'
    ]
    cells = board_cells(moves)
    for column in range(7):
        x = board_x + 4 + column * cell + cell / 2
        parts.append(
            f'<text class="label" x="{x:.0f}" y="{board_y + board_h + 14}">{column + 1}</text>'
        )
        for row in range(6):
            y = board_y + 4 + (5 - row) * cell + cell / 2
            stone = cells.get((column, row))
            fill = {"X": "#c0392b", "O": "#f4c430", None: "#fff"}[stone]
            parts.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="9.5" fill="{fill}"/>')
            if stone:
                parts.append(f'<text class="stone" x="{x:.0f}" y="{y + 4:.0f}">{stone}</text>')
    spaced = " ".join(moves)
    mover = "XO"[len(moves) % 2]
    note_x = board_x + board_w + 20
    parts += [
        f'<text class="note" x="{note_x}" y="{board_y + 40}">Connect Four after the moves '
        f"{spaced} (columns), {mover} to move.</text>",
        f'<text class="note" x="{note_x}" y="{board_y + 64}">Each line below is one iteration '
        "of the engine: its depth, the score</text>",
        f'<text class="note" x="{note_x}" y="{board_y + 84}">for the side to move (a win is 1), '
        "the nodes, and the best line found.</text>",
    ]
    # The terminal window under it.
    top = board_y + board_h + 30
    bar = 26
    height_window = bar + pad + (len(lines) + 1) * line_height + pad // 2
    parts += [
        f'<rect x="0" y="{top}" width="{width}" height="{height_window}" rx="8" fill="#1d2330"/>',
        f'<path d="M0 {top + 8} a8 8 0 0 1 8 -8 h{width - 16} a8 8 0 0 1 8 8 v{bar - 8} '
        f'h-{width} z" fill="#2c3447"/>',
    ]
    for i, colour in enumerate(("#ff5f56", "#ffbd2e", "#27c93f")):
        parts.append(f'<circle cx="{18 + 18 * i}" cy="{top + 13}" r="5.5" fill="{colour}"/>')
    parts.append(f'<text class="title" x="{width / 2:.0f}" y="{top + 17}">{escape(command)}</text>')
    y = top + bar + pad + 4
    parts.append(
        f'<text class="line" x="{pad}" y="{y}"><tspan class="prompt">$ </tspan>'
        f"{escape(command)}</text>"
    )
    for line in lines:
        y += line_height
        kind = "line best" if line.startswith("best move") else "line"
        parts.append(f'<text class="{kind}" x="{pad}" y="{y}">{escape(line)}</text>')
    height = top + height_window + 2
    style = (
        "text { font-family: 'DejaVu Sans', Verdana, sans-serif; }"
        " .label { font-size: 11px; fill: #555; text-anchor: middle; }"
        " .stone { font-size: 11px; font-weight: bold; fill: #fff; text-anchor: middle; }"
        " .note { font-size: 13px; fill: #222; }"
        " .title { font-size: 12px; fill: #aab2c5; text-anchor: middle; }"
        " .line { font-family: 'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace;"
        f" font-size: {font_size}px; fill: #d6dbe6; white-space: pre; }}"
        " .prompt { fill: #7ee787; } .best { font-weight: bold; fill: #ffffff; }"
    )
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" xml:space="preserve">',
            f"<title>zerosum {escape(' '.join(ANALYZE))}</title>",
            f"<style>{style}</style>",
            f'<rect width="{width}" height="{height}" fill="#fff"/>',
            *parts,
            "</svg>",
            "",
        ]
    )


def connect4_analysis(folder: Path) -> Path:
    path = folder / "connect4-analysis.svg"
    output = zerosum(*ANALYZE)
    path.write_text(terminal_svg("zerosum " + " ".join(ANALYZE), output, CONNECT4_MOVES))
    return path


MAKERS: dict[str, Any] = {
    "alpha-beta": lambda folder, browser: alpha_beta_tree(folder),
    "animation": animation,
    "charts": lambda folder, browser: charts(folder),
    "connect4-analysis": lambda folder, browser: connect4_analysis(folder),
    "pages": pages,
}
"""Each group of pictures by name (`--only`), drawn into a folder with chromium's path."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--output",
        "-o",
        type=Path,
        default=Path(__file__).resolve().parent,
        help="the folder to write the pictures to (default: this script's)",
    )
    parser.add_argument("--browser", help="chromium's executable (default: found on the system)")
    parser.add_argument(
        "--only", choices=MAKERS, nargs="+", help="draw only these pictures (default: all)"
    )
    parser.add_argument("--learning", metavar="RUN", help="a Connect Four run to chart")
    args = parser.parse_args(argv)
    browser = args.browser or find_chromium()
    if browser is None:
        raise SystemExit("no chromium found (apt-get install chromium, or --browser PATH)")
    args.output.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    for name in args.only or MAKERS:
        drawn = MAKERS[name](args.output, browser)
        made += drawn if isinstance(drawn, list) else [drawn]
    if args.learning:
        path = args.output / "learning-connect4.png"
        zerosum("chart", "learning", args.learning, "-o", str(path))
        fewer_colours(path)
        made.append(path)
    for path in made:
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
