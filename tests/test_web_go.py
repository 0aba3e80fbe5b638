"""Go on the Play page, the server's side (issue 37): the board the drawer is given
(`zerosum.web.go_board`) and the websocket's messages for a game of Go, without a browser: a
legal move played and answered by MCTS, whose visits come with each point's place, an illegal
move refused in one line, a pass, and the end of the game with its score."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from test_web_play import HOST, URL, error_for, new, no_hang, position_after, until  # noqa: F401

from zerosum.cli.serve import own_hosts
from zerosum.games.go import Go
from zerosum.notation import format_move, parse_move
from zerosum.web import go_board
from zerosum.web.app import create_app

QUICK = {"kind": "mcts", "seconds": 0.3}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url=f"http://{HOST}")


def test_the_board_numbers_points_from_a1_and_marks_the_last_stone_and_the_stars():
    game = Go()
    state = game.parse_state("E5 D4")
    board = go_board.describe(game, state, parse_move(game, state, "C3"), 0)
    assert board["kind"] == "go" and board["size"] == 9 and len(board["cells"]) == 81
    assert [p for p, c in enumerate(board["cells"]) if c == "B"] == [40]  # E5
    assert [p for p, c in enumerate(board["cells"]) if c == "W"] == [30]  # D4
    assert board["last"] == 20 and board["passed"] is False  # C3, as given
    assert board["stars"] == [20, 24, 40, 56, 60]  # C3 G3 E5 C7 G7
    assert board["to_move"] == 0 and board["area"] == [1, 1] and board["komi"] == 7.5
    assert board["score"] is None


def test_every_legal_move_has_its_own_place_read_back_as_the_move():
    game = Go(size=5)
    state = game.parse_state("C3 D3")
    places = {}
    for move in game.legal_moves(state):
        place = go_board.target(game, state, move)
        places[format_move(game, state, move)] = place
        assert parse_move(game, state, format_move(game, state, move)) == move
    assert places["pass"] == {"pass": True}
    assert places["A1"] == {"point": 0} and places["E5"] == {"point": 24}
    assert len(places) == 24  # 23 points and the pass


def test_a_captured_group_is_gone_from_the_board_and_the_score_shows_at_the_end():
    game = Go(size=5, komi=0.5)
    # White's D3 is taken by Black's D4 (C3 D2 E3 around it)
    state = game.parse_state("C3 D3 D2 A1 E3 A2 D4")
    board = go_board.describe(game, state, game.point_of("D4"), 1)
    assert board["cells"][game.point_of("D3")] == "" and board["last"] == game.point_of("D4")
    assert board["cells"][game.point_of("D4")] == "B"
    over = game.result(game.result(state, game.pass_move), game.pass_move)
    final = go_board.describe(game, over, game.pass_move, 0)
    assert final["last"] is None and final["passed"] is True and final["to_move"] is None
    assert final["score"] == game.score_text(over) and final["score"].startswith("B+")
    assert go_board.star_points(5) == [12] and len(go_board.star_points(19)) == 9


def test_go_is_offered_with_mcts_for_its_default(client):
    with client.websocket_connect(URL) as websocket:
        message = websocket.receive_json()
    games = {game["name"]: game for game in message["entries"]}
    assert games["go"]["names"] == ["Black", "White"]
    assert games["go"]["default"] == {"kind": "mcts", "seconds": 1}
    assert "perfect" not in games["go"]["strengths"] and "depth" not in games["go"]["strengths"]


def test_a_move_is_answered_by_mcts_whose_visits_come_with_their_points(client):
    game = Go()
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        start = position_after(websocket, new("go", strength=QUICK))
        assert start["board"]["kind"] == "go" and len(start["moves"]) == 82
        websocket.send_json({"type": "move", "move": "E5"})
        mine, _ = until(websocket, "position")
        assert mine["record"] == ["E5"] and mine["moves"] == []
        assert mine["board"]["cells"][40] == "B" and mine["board"]["last"] == 40
        answer, streamed = until(websocket, "position")
    reports = [message for message in streamed if message["type"] == "mcts"]
    assert reports, streamed
    state = game.parse_state("E5")
    legal = {format_move(game, state, move) for move in game.legal_moves(state)}
    last = reports[-1]
    assert {move["move"] for move in last["moves"]} == legal  # every move of the root listed
    for move in last["moves"]:
        expected = go_board.target(game, state, parse_move(game, state, move["move"]))
        assert move["place"] == expected
    assert sum(move["visits"] for move in last["moves"]) > 0
    reply = answer["record"][1]
    assert reply in legal and answer["board"]["to_move"] == 0
    if reply != "pass":
        point = game.point_of(reply)
        assert answer["board"]["cells"][point] == "W" and answer["board"]["last"] == point


def test_an_illegal_move_is_one_line_and_the_game_goes_on(client):
    game = Go()
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        position_after(websocket, new("go", human=1, position="E5 D5 D4", strength=QUICK))
        # White to move: E5 is taken, Z1 is no point
        state = game.parse_state("E5 D5 D4")
        for text in ("E5", "Z1"):
            with pytest.raises(ValueError) as refused:
                game.parse_move(state, text)
            assert error_for(websocket, {"type": "move", "move": text}) == str(refused.value)
        assert error_for(websocket, {"type": "move", "move": "E5"}) == "E5 is taken"
        websocket.send_json({"type": "move", "move": "C5"})
        mine, _ = until(websocket, "position")
    assert mine["record"] == ["C5"] and mine["board"]["cells"][game.point_of("C5")] == "W"


def test_passing_after_a_pass_ends_the_game_with_its_score(client):
    game = Go()
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        start = position_after(websocket, new("go", position="E5 D5 C5 pass", strength=QUICK))
        assert start["board"]["passed"] is True and start["board"]["last"] is None
        assert start["moves"][-1] == {"move": "pass", "place": {"pass": True}}
        end = position_after(websocket, {"type": "move", "move": "pass"})
        over = error_for(websocket, {"type": "move", "move": "A1"})
    assert over == "the game is over: start a new one or take back"
    assert end["to_move"] is None and end["moves"] == [] and end["record"] == ["pass"]
    state = game.parse_state("E5 D5 C5 pass pass")
    board = end["board"]
    assert board["score"] == game.score_text(state) == "W+6.5"  # stones 2 to 1, komi 7.5
    assert board["area"] == [2, 1] and board["passed"] is True and board["to_move"] is None
    assert end["result"] == {"text": "White wins", "winner": 1}
