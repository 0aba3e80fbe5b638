"""The Play page against a trained network (the strength "network", `az:DIR` on the server):
the player spec it is made into, its refusals in one line, a whole game on the page's
websocket, and `zerosum serve --network DIR` (the page in a browser: test_web_play_browser).

The network is `tictactoe_network`, one tiny round of `zerosum train`: it plays legal moves,
which is all these tests ask of it.
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web_play import HOST, URL, error_for, new, position_after, until

from zerosum.cli.serve import own_hosts
from zerosum.files import SEAL, sealed_json
from zerosum.games.tictactoe import TicTacToe
from zerosum.players import Seat, Watch, make_player, trained
from zerosum.registry import setup
from zerosum.web import play
from zerosum.web.app import create_app


@pytest.fixture
def run(tictactoe_network: str) -> str:
    return tictactoe_network


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url=f"http://{HOST}")


def network(directory: str, **fields: Any) -> dict[str, Any]:
    return {"kind": "network", "directory": directory} | fields


def test_the_network_strength_is_the_az_player_within_the_servers_time(run, monkeypatch):
    tictactoe = play.playable_setup("tictactoe")
    spec = play.program_spec(tictactoe, network(run, simulations=50))
    assert spec.text == f"az:{run},simulations=50,time=30.0"
    assert spec.options == {"directory": run, "simulations": 50, "time": 30.0}
    searches: list[Any] = []
    watch = Watch(searches.append, lambda iteration: None, lambda report: None)
    program = make_player(spec, tictactoe.game, Seat(tictactoe.entry, watch=watch))
    assert program(tictactoe.state) in range(9)
    assert (searches[0].iterations, searches[0].time) == (50, play.MOST_SECONDS)
    monkeypatch.setenv("HOME", os.path.dirname(run))  # "~" is the server's user's home
    default = play.program_spec(tictactoe, network(" ~/run "))
    assert default.options["directory"] == run and default.options["simulations"] == 200
    assert play.budget_text(network(run)) == "200 simulations"
    assert play.budget_text(network(run, simulations=5000)) == "5,000 simulations"


def test_a_run_naming_code_is_refused_unread_as_the_page_never_loads_code_it_is_sent(
    client, run, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # where evil.py would be found
    copied = tmp_path / "copied"
    shutil.copytree(run, copied)
    marker = tmp_path / "imported"
    (tmp_path / "evil.py").write_text(f"open({str(marker)!r}, 'w').close()\nGame = None\n")
    manifest = json.loads((copied / "manifest.json").read_text())
    del manifest[SEAL]  # sealed again below: a run written so, not a manifest edited
    manifest["game"] = "evil.py:Game"
    (copied / "manifest.json").write_text(sealed_json(manifest))
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        refused = error_for(websocket, new("tictactoe", strength=network(str(copied))))
    assert refused == (
        f"the run in {copied} learned 'evil.py:Game', a game of your own code that"
        " the page does not offer: name it with zerosum serve --game to play it here"
    )
    assert not marker.exists()


def test_each_refused_network_is_one_line_the_librarys_own(client, run, tmp_path):
    connect4 = setup("connect4").game
    refusals = {}
    for directory, game in ((str(tmp_path / "none"), TicTacToe()), (run, connect4)):
        with pytest.raises(ValueError) as refused:
            trained(directory, game)
        refusals[directory] = str(refused.value)
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")

        def refusal(game: str, strength: dict[str, Any]) -> str:
            return error_for(websocket, new(game, strength=strength))

        missing = str(tmp_path / "none")
        assert refusal("tictactoe", network(missing)) == refusals[missing]
        assert refusals[missing] == f"{missing} is not a directory of a training run"
        assert refusal("tictactoe", network(str(tmp_path))) == (
            f"{tmp_path} holds no training run (no manifest.json)"
        )
        assert refusal("connect4", network(run)) == refusals[run]
        assert refusals[run].startswith(f"the network in {run} learned tictactoe, not this game")
        assert refusal("tictactoe", network("")) == (
            "give the directory of a run of zerosum train (zerosum train GAME --out DIR),"
            " on the computer running the server"
        )
        assert refusal("tictactoe", network("runs/a,b")) == (
            "the run's directory 'runs/a,b' has a ',' or '=', which the player spec"
            " az:DIR,simulations=N cannot hold: rename the directory or link to it"
        )
        assert refusal("tictactoe", network(run, simulations=0)) == (
            "the simulations a move must be a whole number from 1 to 10,000,000 simulations, got 0"
        )
        assert refusal("tictactoe", network(run, simulations=5_000_001)) == (
            "the page searches at most 5,000,000 simulations a move, not 5,000,001"
        )
        assert refusal("tictactoe", network(run, simulations=2.5)) == (
            "the simulations a move must be a whole number, not 2.5"
        )
        assert refusal("chess", network(run)).startswith("the network in")  # no planes
        position = position_after(websocket, new("tictactoe", strength=network(run)))
        assert position["record"] == [] and len(position["moves"]) == 9  # the run is good


def test_a_game_against_the_network_on_the_page_ends_with_legal_moves(client, run):
    game = TicTacToe()
    with client.websocket_connect(URL) as websocket:
        until(websocket, "games")
        strength = network(run, simulations=30)
        websocket.send_json(new("tictactoe", human=1, strength=strength))
        until(websocket, "position")  # X, the network, to move
        thinking, _ = until(websocket, "thinking")
        assert thinking["player"] == "network" and thinking["budget"] == "30 simulations"
        assert thinking["seconds_left"] == play.MOST_SECONDS
        position, streamed = until(websocket, "position")
        reports = [message for message in streamed if message["type"] == "mcts"]
        assert reports and reports[-1]["best_move"] == position["record"][0]  # its root, at the end
        assert reports[-1]["iterations"] == 30
        while position["result"] is None:
            lowest = position["moves"][0]["move"]  # the person plays the lowest free square
            position = position_after(websocket, {"type": "move", "move": lowest})
    state = game.initial_state()
    for text in position["record"]:
        move = game.parse_move(state, text)
        assert move in game.legal_moves(state), position["record"]
        state = game.result(state, move)
    assert game.is_terminal(state)
    expected = {1: "X wins", -1: "O wins", 0: "a draw"}[int(game.utility(state, 0))]
    assert position["result"]["text"] == expected


def test_serve_network_starts_the_page_with_the_runs_game_and_network(cli, served, run):
    code, out, err = cli("serve", "--port", "0", "--network", run)
    assert code == 0 and err == ""
    port = out.split(":")[2].split("/")[0]
    client = TestClient(served[-1], base_url=f"http://127.0.0.1:{port}")
    with client.websocket_connect(f"ws://127.0.0.1:{port}/ws/play") as websocket:
        message = websocket.receive_json()
    games = {game["name"]: game for game in message["entries"]}
    assert message["game"] == "tictactoe"
    assert games["tictactoe"]["default"] == network(run, simulations=200)
    assert games["connect4"]["default"] == {"kind": "time", "seconds": 1}
    code, out, err = cli("serve", "--port", "0", "--network", run + "-gone")
    assert code == 2 and out == ""
    assert err == f"zerosum: error: {run}-gone is not a directory of a training run\n"
