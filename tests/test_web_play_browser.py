"""The Play page in a real browser (Debian's chromium driven by Playwright) against `zerosum
serve` in a process of its own: whole games clicked through to their result, the program's
thinking shown while it searches, the keyboard, a trained network as the program, and no error
in the browser's console."""

from __future__ import annotations

import json
import re

import pytest
from test_animation_browser import (
    ARTIFACTS,
    browser,  # noqa: F401 (the fixture: chromium, or a skip)
)
from test_web_browser import address, page  # noqa: F401 (the fixtures: the server, a page)

from zerosum.games.connect4 import ConnectFour

FIRST_SEARCH = 120_000
"""Milliseconds to wait for the first search of a server (the compiled engine may be read from
numba's cache, or compiled): only catches a hang."""


def records(page) -> list[str]:  # noqa: F811
    return [item.text_content() for item in page.locator("#record li").all()]


def new_game(page, game: str, side: int, strength: str, amount: str | None = None) -> None:  # noqa: F811
    page.select_option("#game", game)
    page.select_option("#side", str(side))
    page.select_option("#strength", strength)
    if amount is not None:
        page.fill("#amount", amount)
    games = int(page.get_attribute("body", "data-game") or 0)
    page.click("#new")
    page.wait_for_selector(f"body[data-game='{games + 1}']")


def play_lowest_until_the_end(page, playable: str) -> None:  # noqa: F811
    """Click the first playable place (`playable`, a selector) each turn until the result."""
    while not page.text_content("#result"):
        played = len(records(page))
        page.locator(playable).first.click()
        page.wait_for_selector(
            f"#record li:nth-child({played + 2}), #result:not(:empty)", timeout=FIRST_SEARCH
        )


def test_a_whole_tictactoe_game_clicked_against_perfect_play(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1'] .board-tictactoe .cell.playable")
    assert page.input_value("#strength") == "perfect"
    assert page.locator(".cell.legal").count() == 9
    play_lowest_until_the_end(page, ".board-tictactoe .cell.playable")
    assert records(page) == ["0", "4", "1", "2", "3", "6"]
    assert page.text_content("#result") == "O wins: the program wins."
    marks = [cell.text_content() for cell in page.locator(".board-tictactoe .cell").all()]
    assert marks == ["X", "X", "O", "X", "O", "", "O", "", ""]
    assert page.locator(".cell.playable").count() == 0
    page.click("#undo")  # back to the person's last move: X's 3 and O's 6 taken back
    page.wait_for_selector("#result:empty", state="attached")
    assert records(page) == ["0", "4", "1", "2"]
    assert page.locator(".cell.playable").count() == 5
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-tictactoe.png"), full_page=True)


def test_a_whole_connect4_game_clicked_against_the_engine(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    new_game(page, "connect4", 0, "depth", "2")
    assert page.locator(".board-connect4 .column.legal").count() == 7
    play_lowest_until_the_end(page, ".board-connect4 .column.playable")
    moves = records(page)
    game = ConnectFour()
    final = game.parse_state("".join(moves))  # every move legal, in turn, to the end
    assert game.is_terminal(final)
    outcome = game.utility(final, 0)
    expected = {1: "X wins: you win.", -1: "O wins: the program wins.", 0: "The game is drawn."}
    assert page.text_content("#result") == expected[outcome]
    assert page.locator("#iterations tbody tr").count() in (1, 2)  # its last search (to depth 2)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-connect4.png"), full_page=True)


def test_the_programs_thinking_is_shown_while_it_searches_and_space_moves_now(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    # Thirty seconds a move (the server's most): the rows appear long before it is over.
    new_game(page, "connect4", 1, "time", "30")
    page.wait_for_selector("#iterations tbody tr", timeout=FIRST_SEARCH)
    assert records(page) == []  # the program is still thinking: no move yet
    assert page.text_content("#waiting").startswith("thinking... (engine, 30 s), at most")
    assert page.locator(".board-connect4 .column.hint").count() == 1  # its best move so far
    label = page.text_content("#bar-label")  # the estimate for X, or who is proven to win
    assert re.fullmatch(r"[+-][0-9]+\.[0-9]{2} for X|X wins|O wins|a draw", label), label
    assert page.is_enabled("#stop")
    page.keyboard.press(" ")  # move now
    page.wait_for_selector("#record li")
    rows = page.locator("#iterations tbody tr").all()
    line = rows[-1].locator("td").last.text_content()
    assert records(page) == [line.split()[0]]  # the best move of its last iteration
    assert page.text_content("#waiting") == "" and not page.is_enabled("#stop")


def test_a_depth_limited_search_shows_each_iteration_before_the_move(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    new_game(page, "connect4", 1, "depth", "6")
    page.wait_for_selector("#record li", timeout=FIRST_SEARCH)
    rows = page.locator("#iterations tbody tr").all()
    assert [row.locator("td").first.text_content() for row in rows] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]
    line = rows[-1].locator("td").last.text_content()
    assert records(page) == [line.split()[0]]  # the move is the last iteration's best
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-thinking.png"), full_page=True)


def test_the_arrow_keys_choose_a_move_and_enter_plays_it(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    new_game(page, "nim", 0, "perfect")
    assert page.locator(".board-nim .object.legal").count() == 16  # heaps 3, 5 and 8
    page.keyboard.press("ArrowRight")
    assert page.locator(".board-nim .object.cursor").count() == 1
    page.keyboard.press("Enter")  # the first legal move: all three of heap 1
    page.wait_for_selector("#record li:nth-child(2)")
    assert records(page)[0] == "1:3"


def test_a_bad_position_is_the_parsers_message_on_the_page(page, address):  # noqa: F811
    from zerosum.games.tictactoe import TicTacToe

    with pytest.raises(ValueError) as parser:
        TicTacToe().parse_state("XXX")
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    page.fill("#position", "XXX")
    page.click("#new")
    page.wait_for_selector("#error:not(:empty)")
    assert page.text_content("#error") == str(parser.value)


def test_the_play_websocket_refuses_another_sites_page(address):  # noqa: F811
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    url = address.replace("http://", "ws://") + "/ws/play"
    with connect(url, origin=address) as own:  # the page's own origin: the games come first
        assert json.loads(own.recv(timeout=30))["type"] == "games"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="http://evil.example", open_timeout=30)
    assert refused.value.response.status_code == 403


def centre(page, selector: str) -> tuple[float, float]:  # noqa: F811
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_chess_on_the_page_a_click_and_a_drag_played_and_the_engine_answering(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    new_game(page, "chess", 0, "depth", "1")
    assert page.locator("image[data-piece]").count() == 32
    page.mouse.click(*centre(page, 'rect.square[data-square="e2"]'))
    page.mouse.click(*centre(page, 'rect.square[data-square="e4"]'))
    page.wait_for_selector("#record li:nth-child(2)", timeout=FIRST_SEARCH)
    assert records(page)[0] == "e4"
    page.mouse.move(*centre(page, 'rect.square[data-square="g1"]'))  # a drag, as a person's
    page.mouse.down()
    page.mouse.move(*centre(page, 'rect.square[data-square="f3"]'), steps=6)
    page.mouse.up()
    page.wait_for_selector("#record li:nth-child(4)", timeout=FIRST_SEARCH)
    assert records(page)[2] == "Nf3"
    assert page.locator('image[data-piece="wN"][data-square="f3"]').count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-chess.png"), full_page=True)


def test_othello_on_the_page_a_legal_square_clicked_and_the_engine_answering(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    new_game(page, "othello", 0, "depth", "1")
    assert page.locator(".board circle.target").count() == 4  # d3, c4, f5 and e6
    page.locator(".board circle.target").first.click()
    page.wait_for_selector("#record li:nth-child(2)", timeout=FIRST_SEARCH)
    assert records(page)[0] in ("d3", "c4", "f5", "e6")
    discs = page.locator(".board circle.disc").count()
    assert discs == 6  # four, one placed and one turned by each side: 4 + 1 + 1


def test_the_page_plays_a_trained_network_and_shows_a_wrong_directory(
    page,  # noqa: F811
    address,  # noqa: F811
    tictactoe_network,
):
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    assert page.is_hidden("#network-fields")
    page.select_option("#strength", "network")
    assert page.is_visible("#network-fields") and page.is_hidden("#amount-label")
    assert page.input_value("#simulations") == "200"
    gone = tictactoe_network + "-gone"
    page.fill("#network", gone)
    page.click("#new")
    page.wait_for_selector("#error:not(:empty)")
    assert page.text_content("#error") == f"{gone} is not a directory of a training run"
    page.fill("#network", tictactoe_network)
    page.fill("#simulations", "20")
    page.click("#new")
    page.wait_for_selector("body[data-game='2'] .board-tictactoe .cell.playable")
    assert page.text_content("#error") == ""
    page.locator(".board-tictactoe .cell.playable").first.click()
    page.wait_for_selector("#record li:nth-child(2)", timeout=FIRST_SEARCH)
    mine, answer = records(page)
    assert mine == "0" and answer in "12345678"
    assert page.locator("#mcts tbody tr").count() == 8  # the network's root: the free squares
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-network.png"), full_page=True)


def test_go_on_the_page_a_point_clicked_mcts_visits_shown_then_its_stone(page, address):  # noqa: F811
    page.goto(address + "/play")
    page.wait_for_selector("body[data-game='1']")
    new_game(page, "go", 0, "mcts", "1.5")
    assert page.locator("#board .target").count() == 81
    page.locator('#board .target[data-point="40"]').click()  # E5
    # While MCTS searches, its visits are drawn on the points, ten times a second
    page.wait_for_selector("#board g.visits", timeout=FIRST_SEARCH)
    assert int(page.locator("#board g.visits").first.get_attribute("data-visits")) > 0
    page.wait_for_selector("#record li:nth-child(2)", timeout=FIRST_SEARCH)
    assert records(page)[0] == "E5"
    stones = page.locator("#board .stone").count()
    assert stones == (1 if records(page)[1] == "pass" else 2)
    assert page.locator("#board g.visits").count() == 0  # the person's turn: the board is theirs
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-go.png"), full_page=True)
