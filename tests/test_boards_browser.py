"""The Play page's chess, Othello and Go drawers in a real browser (chromium driven by
Playwright).

The drawers (`static/board-chess.js`, `static/board-othello.js`, `static/board-go.js`) are
loaded with the page's own `boards.js` into a bare page, served from the package's `static`
folder under the server's Content-Security-Policy (a made-up address answered by the test, so
no server runs). Each test draws a position with the board and the moves the server would send
(`zerosum.web.chess_board`, `zerosum.web.othello_board`, `zerosum.web.go_board`), acts as a
person would (clicks, a drag) and checks the move text the drawer hands to the page, read back
by the game into the move meant. No test logs an error in the browser's console. Skipped, with
the reason, only when no browser can be found."""

from __future__ import annotations

from typing import Any

import pytest
from test_animation_browser import (
    ARTIFACTS,
    browser,  # noqa: F401 (the fixture: chromium, or a skip)
)

from zerosum.games.chess import Chess
from zerosum.games.go import Go
from zerosum.games.othello import Othello
from zerosum.notation import format_move, parse_move
from zerosum.web import chess_board, go_board, othello_board
from zerosum.web.app import SECURITY_HEADERS, STATIC

ORIGIN = "http://zerosum.test"
PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>boards</title>
<script src="/static/boards.js"></script>
<script src="/static/board-chess.js"></script>
<script src="/static/board-othello.js"></script>
<script src="/static/board-go.js"></script>
</head><body><div id="board"></div></body></html>"""
STAND_IN = "window.zerosumBoards = window.zerosumBoards || {};"
"""What `boards.js` must at least do for the drawers, until the Play page's own exists."""

DRAW = """([board, moves, options]) => {
  window.played = [];
  const onMove = (text) => window.played.push(text);
  const container = document.getElementById("board");
  zerosumBoards[board.kind].draw(container, board, moves, {...options, onMove});
}"""


def _serve(route: Any) -> None:
    """The test page at ORIGIN/, and the package's static files under /static/."""
    path = route.request.url.removeprefix(ORIGIN)
    if path == "/":
        route.fulfill(body=PAGE, content_type="text/html", headers=SECURITY_HEADERS)
        return
    name = path.removeprefix("/static/")
    file = (STATIC / name).resolve()
    if not path.startswith("/static/") or STATIC not in file.parents:
        route.fulfill(status=404)
    elif file.is_file():
        types = {".js": "text/javascript", ".svg": "image/svg+xml"}
        route.fulfill(path=str(file), content_type=types.get(file.suffix, "text/plain"))
    elif name == "boards.js":
        route.fulfill(body=STAND_IN, content_type="text/javascript")
    else:
        route.fulfill(status=404)


@pytest.fixture(scope="module")
def loaded(browser):  # noqa: F811 (the imported fixture)
    """The bare page with the drawers loaded, once for the module's tests; the errors it logs."""
    opened = browser.new_page(viewport={"width": 700, "height": 700})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    opened.route(f"{ORIGIN}/**", _serve)
    opened.goto(f"{ORIGIN}/")
    opened.errors = errors
    yield opened
    opened.close()


@pytest.fixture
def page(loaded):
    """The page, and after the test a check that it logged no error and that every piece it
    drew is a file of the package's `pieces` folder."""
    loaded.errors.clear()
    yield loaded
    hrefs = loaded.eval_on_selector_all("image", "images => images.map(i => i.href.baseVal)")
    for href in hrefs:
        name = href.removeprefix(f"{ORIGIN}/static/pieces/")
        assert (STATIC / "pieces" / name).is_file(), href
    assert loaded.errors == []


def chess_position(fen: str = "startpos", moves: tuple[str, ...] = ()) -> tuple[Chess, Any, Any]:
    """The game, the position after `moves` from `fen`, and the last move (None at the start)."""
    game = Chess() if fen == "startpos" else Chess(fen)
    state, last = game.initial_state(), None
    for text in moves:
        last = parse_move(game, state, text)
        state = game.result(state, last)
    return game, state, last


def legal(game: Any, state: Any, module: Any) -> list[dict[str, Any]]:
    """The moves of `state` as the server lists them: each move's text and place."""
    return [
        {"move": format_move(game, state, move), "place": module.target(game, state, move)}
        for move in game.legal_moves(state)
    ]


def draw(page: Any, board: dict[str, Any], moves: list[dict[str, Any]], **options: Any) -> None:
    page.evaluate(DRAW, [board, moves, {"hint": None, "interactive": True, **options}])


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_square(page: Any, square: str) -> None:
    page.mouse.click(*centre(page, f'rect.square[data-square="{square}"]'))


def played(page: Any) -> list[str]:
    return page.evaluate("window.played")


def marked(page: Any) -> list[str]:
    """The squares marked as the picked piece's targets."""
    return sorted(page.eval_on_selector_all(".target", "marks => marks.map(m => m.dataset.square)"))


def test_chess_start_marks_20_moves_and_a_click_on_e2_then_e4_plays_e4(page):
    game, state, _ = chess_position()
    draw(page, chess_board.describe(game, state, None, 0), legal(game, state, chess_board))
    assert page.locator("image.piece").count() == 32
    reached = 0
    for square in ("a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "b1", "g1"):
        click_square(page, square)
        reached += len(marked(page))
    assert reached == 20
    click_square(page, "e1")  # the king cannot move: nothing marked
    assert marked(page) == []
    click_square(page, "e2")
    assert marked(page) == ["e3", "e4"]
    click_square(page, "e4")
    assert played(page) == ["e4"]
    assert parse_move(game, state, "e4").uci() == "e2e4"
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#board svg").screenshot(path=str(ARTIFACTS / "board-chess.png"))


def test_chess_dragging_the_knight_from_g1_to_f3_plays_nf3(page):
    game, state, _ = chess_position()
    draw(page, chess_board.describe(game, state, None, 0), legal(game, state, chess_board))
    page.mouse.move(*centre(page, 'rect.square[data-square="g1"]'))
    page.mouse.down()
    page.mouse.move(*centre(page, 'rect.square[data-square="f3"]'), steps=6)
    page.mouse.up()
    (text,) = played(page)
    assert parse_move(game, state, text).uci() == "g1f3"
    assert page.locator('image[data-piece="wN"][data-square="f3"]').count() == 1


def test_chess_drop_on_a_square_out_of_reach_puts_the_piece_back(page):
    game, state, _ = chess_position()
    draw(page, chess_board.describe(game, state, None, 0), legal(game, state, chess_board))
    page.mouse.move(*centre(page, 'rect.square[data-square="g1"]'))
    page.mouse.down()
    page.mouse.move(*centre(page, 'rect.square[data-square="g4"]'), steps=6)
    page.mouse.up()
    assert played(page) == []
    assert page.get_attribute('image[data-square="g1"]', "x") == "600"
    assert page.get_attribute('image[data-square="g1"]', "y") == "700"


def test_chess_promotion_offers_four_pieces_and_the_knight_plays_b8_knight_after_one_refusal(page):
    game, state, _ = chess_position("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    draw(page, chess_board.describe(game, state, None, 0), legal(game, state, chess_board))
    click_square(page, "b7")
    assert marked(page) == ["a8", "b8"]
    click_square(page, "b8")
    assert played(page) == []
    assert page.locator(".promotion").count() == 4
    click_square(page, "h1")  # beside the four pieces: no promotion after all
    assert page.locator(".promotion").count() == 0 and played(page) == []
    click_square(page, "b7")
    click_square(page, "b8")
    choices = page.eval_on_selector_all(".promotion", "gs => gs.map(g => g.dataset.promotion)")
    assert choices == ["q", "r", "b", "n"]
    page.click('.promotion[data-promotion="n"]')
    (text,) = played(page)
    assert parse_move(game, state, text).uci() == "b7b8n"


def test_chess_flipped_board_has_a8_at_the_bottom_right_and_black_moves_e7_e5(page):
    game, state, last = chess_position(moves=("e4",))
    draw(
        page,
        chess_board.describe(game, state, last, 1),
        legal(game, state, chess_board),
    )
    a8 = page.locator('rect.square[data-square="a8"]').bounding_box()
    h1 = page.locator('rect.square[data-square="h1"]').bounding_box()
    board = page.locator("#board svg").bounding_box()
    assert a8["x"] + a8["width"] == pytest.approx(board["x"] + board["width"], abs=1)
    assert a8["y"] + a8["height"] == pytest.approx(board["y"] + board["height"], abs=1)
    assert (h1["x"], h1["y"]) == pytest.approx((board["x"], board["y"]), abs=1)
    assert sorted(page.eval_on_selector_all(".last", "r => r.map(m => m.dataset.square)")) == [
        "e2",
        "e4",
    ]
    click_square(page, "e7")
    click_square(page, "e5")
    assert played(page) == ["e5"]


def test_chess_check_last_move_and_the_engine_arrow_are_drawn_and_a_watched_board_takes_no_move(
    page,
):
    game, state, last = chess_position(moves=("e4", "f5", "Qh5+"))
    hint = chess_board.target(game, state, parse_move(game, state, "g6"))
    board = chess_board.describe(game, state, last, 0)
    draw(page, board, legal(game, state, chess_board), hint=hint, interactive=False)
    assert page.get_attribute(".check", "data-square") == "e8"
    arrow = page.locator(".hint")
    assert (arrow.get_attribute("data-from"), arrow.get_attribute("data-to")) == ("g7", "g6")
    click_square(page, "g7")
    click_square(page, "g6")
    assert marked(page) == [] and played(page) == []


def othello_position(text: str = "") -> tuple[Othello, Any]:
    game = Othello()
    return game, game.parse_state(text)


def test_othello_start_marks_four_squares_and_a_click_on_d3_plays_it(page):
    game, state = othello_position()
    draw(page, othello_board.describe(game, state, None, 0), legal(game, state, othello_board))
    cells = page.eval_on_selector_all(".target", "marks => marks.map(m => Number(m.dataset.cell))")
    assert sorted(cells) == [19, 26, 37, 44]  # d3, c4, f5, e6
    assert page.locator(".disc").count() == 4
    counts = page.locator(".counts")
    assert (counts.get_attribute("data-black"), counts.get_attribute("data-white")) == ("2", "2")
    assert page.locator("button.pass").count() == 0
    page.mouse.click(*centre(page, '.target[data-cell="19"]'))
    assert played(page) == ["d3"]
    assert parse_move(game, state, "d3") == 19


def test_othello_last_disc_and_engine_square_are_marked(page):
    game, state = othello_position("d3")
    hint = othello_board.target(game, state, parse_move(game, state, "c5"))
    board = othello_board.describe(game, state, 19, 0)  # d3
    draw(page, board, legal(game, state, othello_board), hint=hint)
    assert page.get_attribute(".last", "data-cell") == "19"
    assert page.get_attribute(".hint", "data-cell") == str(parse_move(game, state, "c5"))
    assert page.get_attribute(".counts", "data-black") == "4"
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#board").screenshot(path=str(ARTIFACTS / "board-othello.png"))


def test_othello_pass_only_position_shows_the_pass_button_which_plays_pass(page):
    game, state = othello_position("O" + "X" * 62 + ". X")
    draw(page, othello_board.describe(game, state, None, 0), legal(game, state, othello_board))
    assert page.locator(".target").count() == 0
    page.click("button.pass")
    assert played(page) == ["pass"]


def test_chess_a1_is_a_dark_square_and_h1_a_light_one(page):
    game, state, _ = chess_position()
    draw(page, chess_board.describe(game, state, None, 0), [])
    fill = 'rect.square[data-square="{}"]'
    a1, h1 = (page.get_attribute(fill.format(square), "fill") for square in ("a1", "h1"))
    assert a1 == page.get_attribute(fill.format("h8"), "fill") != h1
    assert h1 == page.get_attribute(fill.format("a8"), "fill")
    (a1_red, h1_red) = (int(colour[1:3], 16) for colour in (a1, h1))
    assert a1_red < h1_red  # a1 the darker


def test_go_start_has_every_point_to_play_the_stars_and_a_click_on_e5_plays_it(page):
    game = Go()
    state = game.initial_state()
    draw(page, go_board.describe(game, state, None, 0), legal(game, state, go_board))
    points = page.eval_on_selector_all(".target", "ts => ts.map(t => Number(t.dataset.point))")
    assert sorted(points) == list(range(81))
    stars = page.eval_on_selector_all(".star", "ss => ss.map(s => Number(s.dataset.point))")
    assert sorted(stars) == [20, 24, 40, 56, 60]
    assert page.locator(".stone").count() == 0 and page.locator(".visits").count() == 0
    assert page.locator(".counts").inner_text() == "area: Black (X) 0, White (O) 0; komi 7.5"
    page.mouse.click(*centre(page, '.target[data-point="40"]'))
    assert played(page) == ["E5"]
    assert parse_move(game, state, "E5") == 40


def test_go_a1_is_drawn_at_the_bottom_left(page):
    game = Go(size=5)
    state = game.parse_state("A1 E5")
    draw(page, go_board.describe(game, state, 24, 0), legal(game, state, go_board))
    a1, e5 = (centre(page, f'.stone[data-point="{point}"]') for point in (0, 24))
    assert a1[0] < e5[0] and a1[1] > e5[1]  # left of E5, and below it
    assert page.get_attribute(".stone[data-point='0']", "data-colour") == "B"
    assert page.get_attribute(".last", "data-point") == "24"


def test_go_mcts_visits_are_drawn_on_their_points_and_the_pass_button(page):
    game = Go(size=5, komi=0.5)
    state = game.parse_state("C3 D3 D2 A1 E3 A2 D4")  # Black's D4 took White's D3
    board = go_board.describe(game, state, game.point_of("D4"), 0)
    assert board["cells"][game.point_of("D3")] == ""
    visits = [
        {"place": go_board.target(game, state, move), "visits": 10 * (move % 7)}
        for move in game.legal_moves(state)
    ]
    hint = go_board.target(game, state, game.point_of("B2"))
    draw(page, board, [], hint=hint, visits=visits, interactive=False)
    shown = page.eval_on_selector_all(
        ".visits", "vs => vs.map(v => [Number(v.dataset.point), Number(v.dataset.visits)])"
    )
    expected = [
        [entry["place"]["point"], entry["visits"]]
        for entry in visits
        if "point" in entry["place"] and entry["visits"] > 0
    ]
    assert sorted(shown) == sorted(expected)
    assert page.locator(".visits text").all_inner_texts()[0] != ""
    assert page.get_attribute(".hint", "data-point") == str(game.point_of("B2"))
    assert page.locator(".stone").count() == 6  # D3 is gone
    assert page.locator("button.pass").inner_text() == f"Pass ({10 * (game.pass_move % 7)})"
    assert page.locator("button.pass").is_disabled() and page.locator(".target").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#board").screenshot(path=str(ARTIFACTS / "board-go.png"))


def test_go_pass_button_plays_pass_and_the_end_shows_the_score(page):
    game = Go()
    state = game.parse_state("E5 D5 C5 pass")
    draw(page, go_board.describe(game, state, game.pass_move, 0), legal(game, state, go_board))
    assert page.locator(".passed").count() == 1
    page.click("button.pass")
    assert played(page) == ["pass"]
    over = game.result(state, game.pass_move)
    draw(page, go_board.describe(game, over, game.pass_move, 0), [], interactive=False)
    assert page.locator(".score").inner_text() == "final score W+6.5"
    assert page.locator(".target").count() == 0 and page.locator("button.pass").is_disabled()
