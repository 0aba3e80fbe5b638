"""The Play page's websocket without a browser (Starlette's TestClient): games played to the
end against the program, take-backs, the program's thinking streamed before its move, the
refusals in one line, and a closed socket stopping its search."""

from __future__ import annotations

import math
import signal
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from zerosum import registry
from zerosum.cli.serve import own_hosts
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.players import Seat, make_player, parse_player
from zerosum.solve.connect4 import ConnectFourExact
from zerosum.web import play
from zerosum.web.app import create_app
from zerosum.web.guard import POLICY_VIOLATION

HOST = "127.0.0.1:8000"
URL = f"ws://{HOST}/ws/play"


HANG = 120
"""Seconds after which a test is taken to hang (a message that never comes)."""


@pytest.fixture(autouse=True)
def no_hang():
    """A test waiting for a message that never comes fails after `HANG` seconds."""

    def hung(signum: int, frame: Any) -> None:
        raise TimeoutError(f"no message within {HANG} seconds")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url=f"http://{HOST}")


def until(websocket, kind: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The next message of type `kind`, and the messages received before it."""
    before = []
    while True:
        message = websocket.receive_json()
        if message["type"] == kind:
            return message, before
        before.append(message)


def position_after(websocket, message: dict[str, Any]) -> dict[str, Any]:
    """Send `message`; the position it leads to once the program has answered."""
    websocket.send_json(message)
    while True:
        position, _ = until(websocket, "position")
        if position["result"] is not None or position["moves"]:
            return position


def new(game: str, human: int = 0, **fields: Any) -> dict[str, Any]:
    return {"type": "new", "game": game, "human": human, "position": None} | fields


def error_for(websocket, message: dict[str, Any]) -> str:
    websocket.send_json(message)
    answer = websocket.receive_json()
    assert answer["type"] == "error", answer
    return answer["message"]


def test_the_first_message_lists_the_registrys_games_with_their_strengths(client):
    with client.websocket_connect(URL) as websocket:
        message = websocket.receive_json()
    games = {game["name"]: game for game in message["entries"]}
    assert list(games) == ["tictactoe", "connect4", "nim", "chess", "othello", "go"]
    assert message["game"] == "tictactoe"
    assert games["tictactoe"]["strengths"] == ["time", "perfect", "mcts", "network"]
    assert games["connect4"]["strengths"] == ["time", "depth", "perfect", "mcts", "network"]
    assert games["chess"]["strengths"] == ["time", "depth", "mcts"]  # no network learns it
    assert games["tictactoe"]["default"] == {"kind": "perfect"}
    assert games["connect4"]["names"] == ["X", "O"]


def test_a_whole_tictactoe_game_against_perfect_play_ends_in_the_solvers_result(client):
    game = TicTacToe()
    perfect = make_player(parse_player("solver"), game, Seat(registry.entry_of(game)))
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        position = position_after(websocket, new("tictactoe", strength={"kind": "perfect"}))
        while position["result"] is None:
            first = position["moves"][0]  # the person plays the lowest free square
            assert first["place"] == {"cell": int(first["move"])}
            position = position_after(websocket, {"type": "move", "move": first["move"]})
    state = game.initial_state()
    for index, text in enumerate(position["record"]):
        move = int(text)
        if index % 2 == 1:  # the program's: perfect play's move
            assert move == perfect(state), position["record"]
        state = game.result(state, move)
    assert game.is_terminal(state)
    assert position["record"] == ["0", "4", "1", "2", "3", "6"]
    assert position["result"] == {"text": "O wins", "winner": 1}
    assert position["board"]["cells"] == ["X", "X", "O", "X", "O", "", "O", "", ""]
    assert position["moves"] == [] and position["to_move"] is None


def test_take_back_undoes_the_persons_move_and_the_programs_reply(client):
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        position_after(websocket, new("tictactoe", strength={"kind": "perfect"}))
        position = position_after(websocket, {"type": "move", "move": "4"})
        assert position["record"] == ["4", "0"] and position["can_undo"]
        back = position_after(websocket, {"type": "undo"})
        assert back["record"] == [] and not back["can_undo"]
        assert back["board"]["cells"] == [""] * 9 and len(back["moves"]) == 9
        assert "no move of yours" in error_for(websocket, {"type": "undo"})


def test_the_program_moving_first_from_a_typed_position(client):
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        message = new("tictactoe", human=1, position="XX.OO....", strength={"kind": "perfect"})
        position = position_after(websocket, message)
    assert position["position"] == "XX.OO...."
    assert position["record"] == ["2"]  # X completes the top row
    assert position["result"] == {"text": "X wins", "winner": 0}
    assert position["human"] == [False, True]


def test_bad_inputs_are_one_line_messages_the_librarys_own(client):
    game = TicTacToe()
    with pytest.raises(ValueError) as bad_position:
        game.parse_state("XXX")
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        assert error_for(websocket, {"type": "move", "move": "4"}) == "start a game first"
        unknown = error_for(websocket, new("nosuchgame", strength={"kind": "perfect"}))
        assert unknown.startswith("unknown game 'nosuchgame': the page plays tictactoe, ")
        imported = error_for(websocket, new("os:getcwd", strength={"kind": "perfect"}))
        assert imported.startswith("unknown game 'os:getcwd'")  # never imported from a request
        message = new("tictactoe", position="XXX", strength={"kind": "perfect"})
        assert error_for(websocket, message) == str(bad_position.value)
        strength = error_for(websocket, new("tictactoe", strength={"kind": "genius"}))
        kinds = "time, depth, perfect, mcts, network"
        assert strength == f"unknown strength 'genius': choose one of {kinds}"
        too_long = error_for(websocket, new("connect4", strength={"kind": "time", "seconds": 99}))
        assert too_long == "the page thinks at most 30 seconds a move, not 99"
        depth = error_for(websocket, new("tictactoe", strength={"kind": "depth", "plies": 3}))
        assert "evaluation" in depth
        position_after(websocket, new("tictactoe", strength={"kind": "perfect"}))
        with pytest.raises(ValueError) as bad_move:
            game.parse_move(game.initial_state(), "9")
        assert error_for(websocket, {"type": "move", "move": "9"}) == str(bad_move.value)
        assert error_for(websocket, {"type": "dance"}).startswith("unknown message type 'dance'")
        for text in ("{not json", "[" * 100_000, '{"type": ' + "9" * 5000 + "}"):
            websocket.send_text(text)
            assert websocket.receive_json()["message"] == "the message is not JSON"
        huge = {"kind": "time", "seconds": 10**400}
        assert error_for(websocket, new("connect4", strength=huge)).startswith(
            "the time per move must be more than 0 and at most 3,600 seconds, got inf"
        )
        for message in (new("tictactoe"), {"type": "move", "move": "4\n5"}):
            assert "\n" not in error_for(websocket, message)


def test_connect4_engine_iterations_stream_before_the_move_with_the_bar_for_x(client):
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        websocket.send_json(new("connect4", human=1, strength={"kind": "depth", "plies": 5}))
        until(websocket, "position")
        thinking, _ = until(websocket, "thinking")
        assert thinking["budget"] == "depth 5" and thinking["seconds_left"] == play.MOST_SECONDS
        position, streamed = until(websocket, "position")
    assert [message["depth"] for message in streamed] == [1, 2, 3, 4, 5]
    last = streamed[-1]
    assert position["record"] == [last["best_move"]] == [last["pv"][0]]
    assert last["place"] == {"column": int(last["best_move"]) - 1}
    assert last["value_text"].startswith(("+", "-")) and -1 <= last["bar"] <= 1
    assert all(message["nodes"] > 0 for message in streamed)


def test_connect4_solver_scores_every_column_as_the_solver_does(client):
    game, moves = ConnectFour(), "12345671234567"  # two rows full: 0.3 M nodes
    expected = ConnectFourExact(game).move_values(game.parse_state(moves)).values
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        websocket.send_json(new("connect4", human=1, position=moves, strength={"kind": "perfect"}))
        until(websocket, "position")  # the program's turn: X
        position, streamed = until(websocket, "position")
    columns = [m for m in streamed if m["type"] == "columns"]
    assert columns[0]["moves"][0]["note"] == "not proven yet"
    assert len(columns) == 1 + len(expected)  # each column sent once proven
    last = columns[-1]["moves"]
    assert {int(move["move"]) - 1: move["score"] for move in last} == expected
    assert columns[-1]["bar"] == 1.0 and columns[-1]["bar_text"] == "X wins"  # X, to move
    best = max(expected.values())
    assert int(position["record"][0]) - 1 == next(c for c, s in expected.items() if s == best)


def test_mcts_reports_the_roots_visits_while_it_searches(client):
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        websocket.send_json(new("connect4", human=1, strength={"kind": "mcts", "seconds": 0.35}))
        position, streamed = until(websocket, "position")
        position, streamed = until(websocket, "position")
    reports = [m for m in streamed if m["type"] == "mcts"]
    assert reports, streamed
    visits = [sum(move["visits"] for move in report["moves"]) for report in reports]
    assert visits == sorted(visits) and visits[0] > 0
    assert {move["place"]["column"] for move in reports[-1]["moves"]} == set(range(7))
    assert position["record"] and len(position["record"]) == 1


def test_a_closed_socket_stops_the_programs_search(monkeypatch):
    searchers: list[Any] = []
    sessions: list[play.PlaySession] = []
    original = play.PlaySession._started

    def started(self: play.PlaySession, searcher: Any) -> None:
        searchers.append(searcher)
        sessions.append(self)
        original(self, searcher)

    monkeypatch.setattr(play.PlaySession, "_started", started)
    local = TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url=f"http://{HOST}")
    with local.websocket_connect(URL) as websocket:
        until(websocket, "games")
        websocket.send_json(new("connect4", human=1, strength={"kind": "time", "seconds": 30}))
        until(websocket, "iteration")
    engine, session = searchers[0], sessions[0]
    deadline = time.monotonic() + 60  # only catches a hang
    while session.searches == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert session.searches == 1 and len(searchers) == 1
    assert engine.stopped == "stop"  # not "time" nor "nodes": the closed socket stopped it
    assert session.played == []  # the move it was thinking about is not played


def test_move_now_plays_the_best_move_so_far(client):
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        websocket.send_json(new("connect4", human=1, strength={"kind": "time", "seconds": 30}))
        until(websocket, "position")
        iteration, _ = until(websocket, "iteration")
        websocket.send_json({"type": "stop"})
        position, streamed = until(websocket, "position")
    assert len(position["record"]) == 1 and position["moves"]
    iterations = [iteration] + [m for m in streamed if m["type"] == "iteration"]
    assert position["record"][0] == iterations[-1]["best_move"]


def test_a_move_while_the_program_thinks_is_refused(client):
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        websocket.send_json(new("connect4", human=1, strength={"kind": "time", "seconds": 30}))
        until(websocket, "iteration")
        websocket.send_json({"type": "move", "move": "4"})
        error, _ = until(websocket, "error")
        assert error["message"] == "the program is thinking: wait for its move, or press stop"
        position = position_after(websocket, new("tictactoe", strength={"kind": "perfect"}))
        assert position["game"] == "tictactoe" and position["record"] == []


def test_the_play_websocket_refuses_a_foreign_origin(client):
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(URL, headers={"Origin": "http://evil.example"}),
    ):
        pass
    assert refused.value.code == POLICY_VIOLATION


def test_a_users_own_game_from_the_command_line_is_offered(tmp_path):
    own = "connect4(width=5,height=4)"
    local = TestClient(create_app(own_hosts("127.0.0.1", 8000), [own]), base_url=f"http://{HOST}")
    with local.websocket_connect(URL) as websocket:
        names = [game["name"] for game in websocket.receive_json()["entries"]]
        assert names[-1] == own
        position = position_after(websocket, new(own, strength={"kind": "depth", "plies": 2}))
    assert position["board"]["width"] == 5 and len(position["board"]["cells"]) == 4
    with pytest.raises(ValueError, match="has dice"):
        create_app(own_hosts("127.0.0.1", 8000), ["pig"])


@pytest.mark.parametrize("impl", ["python", "compiled"])
def test_mcts_reports_its_progress_and_stops_when_asked(impl):
    from zerosum.compiled import choice

    game = ConnectFour()
    search = choice.mcts(game, impl, iterations=play.MOST_ITERATIONS, seed=1)
    reports = []

    def progress(report) -> None:
        reports.append(report)
        search.stop()  # from the first report on: the search ends long before its budget

    result = search.search(game.initial_state(), on_progress=progress)
    assert len(reports) == 1 and reports[0].iterations > 0
    assert reports[0].iterations <= result.iterations < play.MOST_ITERATIONS
    assert sum(move.visits for move in reports[0].moves) > 0


def test_the_evaluation_bar_is_the_first_players_whoever_is_to_move():
    import math

    from zerosum.games.chess import Chess

    game, connect4 = TicTacToe(), ConnectFour()
    x_to_move, o_to_move = game.initial_state(), game.parse_state("X........")
    assert play.first_player_bar(game, x_to_move, 1, proven=True) == 1.0
    assert play.first_player_bar(game, o_to_move, 1, proven=True) == -1.0  # O wins
    assert play.first_player_bar(game, o_to_move, 0, proven=True) == 0.0
    assert play.first_player_bar(connect4, connect4.parse_state("4"), -0.25) == 0.25
    chess = Chess()
    black = chess.result(chess.initial_state(), chess.legal_moves(chess.initial_state())[0])
    assert play.first_player_bar(chess, black, 3.0) == pytest.approx(-math.tanh(1))
    assert play.first_player_bar(chess, black, -1000, proven=True) == 1.0  # Black is mated


def test_the_bars_words_are_the_estimate_for_the_first_player_or_who_is_proven_to_win():
    from zerosum.games.chess import Chess

    game = Chess()
    white = game.initial_state()
    black = game.result(white, game.parse_move(white, "e4"))
    assert play.first_player_words(game, white, 0.21) == "+0.21 for White"
    assert play.first_player_words(game, black, 0.21) == "-0.21 for White"  # Black's 0.21
    assert play.first_player_words(game, black, 0.0) == "+0.00 for White"
    assert play.first_player_words(game, black, 1.0, proven=True) == "Black wins"
    assert play.first_player_words(game, black, 0.0, proven=True) == "a draw"
    assert play.first_player_bar(game, black, 0.21) == -math.tanh(0.21 / play.ESTIMATE_SCALE)


ADDING_GAME = '''
class Adding:
    """Players add 1 or 2 in turn to a total from 0; whoever reaches 4 wins. With BUG set,
    the rules fail as soon as the total passes 1."""

    BUG = False

    def initial_state(self):
        return (0, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        if self.BUG and state[0] > 1:
            raise RuntimeError("my rules are broken")
        return [1, 2] if state[0] < 4 else []

    def result(self, state, move):
        return (min(4, state[0] + move), 1 - state[1])

    def is_terminal(self, state):
        return state[0] >= 4

    def utility(self, state, player):
        return -1.0 if state[1] == player else 1.0  # the player who just moved reached 4


class Broken(Adding):
    BUG = True
'''


def test_a_users_file_game_is_played_as_text_and_a_fault_in_it_is_one_line(tmp_path, caplog):
    path = tmp_path / "adding.py"
    path.write_text(ADDING_GAME)
    good, broken = f"{path}:Adding", f"{path}:Broken"
    local = TestClient(
        create_app(own_hosts("127.0.0.1", 8000), [good, broken]), base_url=f"http://{HOST}"
    )
    with local.websocket_connect(URL) as websocket:
        names = [game["name"] for game in websocket.receive_json()["entries"]]
        assert names[-2:] == [good, broken]
        position = position_after(websocket, new(good, strength={"kind": "perfect"}))
        assert position["board"] == {"kind": "text", "text": "(0, 0)"}
        assert [move["move"] for move in position["moves"]] == ["1", "2"]
        websocket.send_json({"type": "move", "move": "1"})
        position, _ = until(websocket, "position")  # the person's move
        position, _ = until(websocket, "position")  # the program's: to 3, from where 1 wins
        assert position["record"][0] == "1" and position["board"]["text"] in ("(2, 0)", "(3, 0)")
        websocket.send_json(new(broken, human=1, strength={"kind": "perfect"}))
        until(websocket, "position")
        message, _ = until(websocket, "error")
    assert message["message"] == ("the program's search failed: RuntimeError: my rules are broken")
    assert "my rules are broken" in caplog.text and "Traceback" in caplog.text
