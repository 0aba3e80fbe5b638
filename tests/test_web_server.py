"""`zerosum serve` without a browser: the guard against other sites' requests (Starlette's
TestClient speaks to the application in this process), the matrix route's answers and
refusals, the files it will and will not send, and the command's refusals in one line."""

from __future__ import annotations

import re
import socket

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from zerosum.cli.serve import own_hosts
from zerosum.web.app import create_app
from zerosum.web.guard import POLICY_VIOLATION, SameOriginGuard

HOST = "127.0.0.1:8000"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(own_hosts("127.0.0.1", 8000)), base_url=f"http://{HOST}")


def test_pages_answer_at_the_servers_own_address_and_localhost(client):
    for path in ("/", "/matrix", "/static/style.css", "/static/matrix.js"):
        assert client.get(path).status_code == 200, path
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200
    assert "default-src 'self'" in client.get("/matrix").headers["content-security-policy"]


def test_a_foreign_host_header_is_refused_dns_rebinding(client):
    for host in ("evil.example:8000", "127.0.0.1:8001", "attacker.test"):
        response = client.get("/", headers={"Host": host})
        assert response.status_code == 400, host
        assert "answers only at 127.0.0.1:8000" in response.text


def test_a_post_from_another_sites_page_is_refused(client):
    response = client.post(
        "/api/matrix", json={"matrix": "1"}, headers={"Origin": "http://evil.example"}
    )
    assert response.status_code == 403
    own = client.post("/api/matrix", json={"matrix": "1"}, headers={"Origin": f"http://{HOST}"})
    assert own.json()["lower_value"] == 1


def test_a_websocket_with_a_foreign_origin_is_closed_before_it_is_accepted():
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text(await websocket.receive_text())
        await websocket.close()

    guarded = SameOriginGuard(Starlette(routes=[WebSocketRoute("/echo", echo)]), hosts=[HOST])
    client = TestClient(guarded, base_url=f"http://{HOST}")
    with client.websocket_connect(
        f"ws://{HOST}/echo", headers={"Origin": f"http://{HOST}"}
    ) as websocket:
        websocket.send_text("own page")
        assert websocket.receive_text() == "own page"
    for headers in ({"Origin": "http://evil.example"}, {"Host": "evil.example:8000"}):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(f"ws://{HOST}/echo", headers=headers),
        ):
            pass
        assert refused.value.code == POLICY_VIOLATION, headers


def test_the_servers_own_websockets_refuse_a_foreign_origin(client):
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"ws://{HOST}/", headers={"Origin": "http://evil.example"}),
    ):
        pass
    assert refused.value.code == POLICY_VIOLATION


def test_no_route_sends_a_file_outside_the_static_folder(client):
    for path in (
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e/%2e%2e/__init__.py",
        "/static//etc/passwd",
        "/app.py",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "create_app" not in response.text


def test_matrix_route_solves_exactly(client):
    answer = client.post("/api/matrix", json={"matrix": "3 -1; -2 4"}).json()
    assert answer["value_exact"] == "1"
    assert answer["row_strategy_exact"] == ["3/5", "2/5"]
    assert answer["column_strategy_exact"] == ["1/2", "1/2"]
    assert (answer["lower_value"], answer["upper_value"], answer["saddle_points"]) == (-1, 3, [])


def test_matrix_route_gives_saddle_points_and_dominance_steps(client):
    answer = client.post("/api/matrix", json={"matrix": "4 2 3; 1 0 5; 3 1 2"}).json()
    assert answer["saddle_points"] == [[0, 1]]
    steps = answer["dominance"]["eliminations"]
    assert steps[0] == {"player": "row", "eliminated": 2, "dominated_by": 0}
    assert answer["dominance"]["rows"] == [0] and answer["dominance"]["columns"] == [1]


def test_matrix_route_answers_a_bad_matrix_with_the_parsers_message(client):
    from zerosum.theory.payoffs import parse_matrix

    with pytest.raises(ValueError) as parser:
        parse_matrix("1 2; 3")
    answer = client.post("/api/matrix", json={"matrix": "1 2; 3"}).json()
    assert answer == {"error": str(parser.value)}
    assert "ragged" in answer["error"]


def test_matrix_route_refuses_what_is_not_a_matrix_request(client):
    assert "error" in client.post("/api/matrix", json={"matrix": 5}).json()
    for body in (b"not json", b"[1, 2]", b"[" * 100_000):
        response = client.post("/api/matrix", content=body)
        assert response.status_code == 400 and "error" in response.json()
    assert client.get("/api/matrix").status_code == 405


def test_matrix_route_caps_the_matrix_by_the_commands_limit(client, monkeypatch):
    from dataclasses import replace

    import zerosum.theory.payoffs as payoffs

    monkeypatch.setattr(payoffs, "MATRIX_CELLS", replace(payoffs.MATRIX_CELLS, most=4))
    answer = client.post("/api/matrix", json={"matrix": "1 2 3; 4 5 6"}).json()
    assert answer["error"].startswith("the payoff matrix has more than 4 cells, the limit")
    assert "--no-limit" not in answer["error"]  # the page cannot lift it


def test_serve_refuses_a_port_in_use_in_one_line(cli):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = cli("serve", "--port", str(port))
    assert code == 2 and out == ""
    assert (
        err == f"zerosum: error: port {port} is in use on 127.0.0.1: choose another with --port\n"
    )


def test_serve_refuses_a_port_out_of_range_and_an_address_not_this_computers(cli):
    code, _, err = cli("serve", "--port", "70000")
    assert code == 2 and err.count("\n") == 1
    code, _, err = cli("serve", "--host", "192.0.2.1", "--port", "0")  # TEST-NET-1: not ours
    assert code == 2 and err.count("\n") == 1  # the refusal alone, no warning before it
    assert err.startswith("zerosum: error: cannot listen on 192.0.2.1:0")


@pytest.mark.parametrize("host", ["\u0000", "é" * 70, "127.0.0.1\u0000"])
def test_serve_refuses_a_host_that_is_no_name_in_one_line(cli, host):
    # A NUL, a name no encoding makes a host name: the socket raised TypeError, a traceback.
    err = cli.error("serve", "--host", host, "--port", "0")
    assert "cannot listen on" in err and "not a host name or an address" in err, err


def test_own_hosts_are_the_address_and_localhost_for_loopback():
    assert own_hosts("127.0.0.1", 8000) == [
        "127.0.0.1:8000",
        "localhost:8000",
        "[::1]:8000",
    ]
    assert own_hosts("192.168.1.5", 80) == ["192.168.1.5:80"]
    assert own_hosts("::1", 8000)[0] == "[::1]:8000"


def test_serve_prints_its_address_and_warns_when_listening_beyond_this_computer(cli, served):
    code, out, err = cli("serve", "--port", "0")
    assert code == 0 and err == ""
    assert re.fullmatch(r"serving the page at http://127\.0\.0\.1:\d+/ \(Ctrl-C stops\)\n", out)
    code, out, err = cli("serve", "--host", "0.0.0.0", "--port", "0")
    assert code == 0 and out.startswith("serving the page at http://0.0.0.0:")
    assert err == "zerosum: warning: listening on 0.0.0.0: whoever can reach it can use the page\n"
    port = out.split(":")[2].split("/")[0]
    client = TestClient(served[-1])
    for own in (f"0.0.0.0:{port}", f"localhost:{port}", f"127.0.0.1:{port}"):
        assert client.get("/", headers={"Host": own}).status_code == 200, own
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_tree_route_traces_the_textbook_tree_as_the_html_animation_does(client):
    from zerosum.games.tree import Tree
    from zerosum.show.html import stepped_search
    from zerosum.show.traced import traced_search

    answer = client.post(
        "/api/tree", json={"tree": "[[3,12,8],[2,4,6],[14,5,2]]", "algorithm": "alphabeta"}
    ).json()
    assert (answer["value"], answer["value_text"]) == (3, "3")
    assert (answer["leaves"], answer["tree_leaves"]) == (7, 9)  # as zerosum tree counts them
    assert "leaves examined 7 of 9, pruned 2" in answer["summary"]
    same = stepped_search(traced_search(Tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), ()))
    assert answer["steps"] == same.steps and answer["drawing"] == same.drawing
    minimax = client.post(
        "/api/tree", json={"tree": "[[3,12,8],[2,4,6],[14,5,2]]", "algorithm": "minimax"}
    ).json()
    assert "leaves examined 9 of 9, pruned 0" in minimax["summary"]


def test_tree_route_answers_a_bad_tree_or_algorithm_with_the_commands_message(client):
    from zerosum.games.tree import Tree

    with pytest.raises(ValueError) as reader:
        Tree.from_text("[[3,12,8],[2,4")
    answer = client.post("/api/tree", json={"tree": "[[3,12,8],[2,4"}).json()
    assert answer == {"error": str(reader.value)}
    answer = client.post("/api/tree", json={"tree": "[[1,2]]", "algorithm": "import os"}).json()
    assert answer["error"].startswith("unknown algorithm 'import os'")
    assert "error" in client.post("/api/tree", json={"tree": 3}).json()
    assert "error" in client.post("/api/tree", json={"tree": "[1]", "order": 2}).json()
    order = client.post("/api/tree", json={"tree": "[[1,2]]", "order": "1,x"}).json()
    assert order["error"].startswith("bad --order '1,x': 'x' is no move")


def test_tree_route_steps_expectiminimax_on_chance_nodes_and_follows_the_order(client):
    from zerosum.games.tree import Tree
    from zerosum.show.html import stepped_search
    from zerosum.show.traced import traced_tree

    dice = '[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]'
    answer = client.post("/api/tree", json={"tree": dice, "algorithm": "alphabeta"}).json()
    assert answer["value"] == 6 and "expectiminimax" in answer["summary"]
    assert answer["steps"] == stepped_search(traced_tree(Tree.from_text(dice), "alphabeta")).steps
    textbook = "[[3,12,8],[2,4,6],[14,5,2]]"
    for order, examined in (("", 7), ("best", 5), ("worst", 9)):
        answer = client.post("/api/tree", json={"tree": textbook, "order": order}).json()
        assert f"leaves examined {examined} of 9" in answer["summary"], order


def test_the_steppers_script_and_style_are_the_html_animations_own(client):
    from zerosum.show.html import STEPPER_SCRIPT, STEPPER_STYLE

    assert client.get("/stepper.js").text == STEPPER_SCRIPT
    assert client.get("/stepper.css").text == STEPPER_STYLE
    assert client.get("/tree").status_code == 200


def test_every_asset_is_in_the_package_and_no_page_names_another_server():
    from zerosum.web.app import PAGES, STATIC

    files = [path for path in STATIC.rglob("*") if path.is_file()]  # the chess pieces' folder too
    assets = {path.relative_to(STATIC).as_posix() for path in files}
    assert set(PAGES.values()) <= assets
    for path in files:
        text = path.read_text()
        addresses = re.findall(r"[a-z]+://[^\s\"'<>)]+", text)
        assert addresses in ([], ["http://www.w3.org/2000/svg"]), (path.name, addresses)
        for linked in re.findall(r'(?:src|href)="/static/([^"]+)"', text):
            assert linked in assets, (path.name, linked)


def test_matrix_route_answers_a_bimatrix_game_with_its_picture(client):
    answer = client.post("/api/matrix", json={"matrix": "0,0 -1,1; 1,-1 -10,-10"}).json()
    assert answer["bimatrix"] is True and answer["cells"][1] == ["1,-1", "-10,-10"]
    assert answer["equilibria"][2]["row_strategy_exact"] == ["9/10", "1/10"]
    assert answer["picture"].startswith("<svg") and answer["picture"].count("<circle") == 3
    wide = client.post("/api/matrix", json={"matrix": "1,1 0,0 2,2; 0,0 1,1 3,3"}).json()
    assert wide["picture"] is None
    assert (
        wide["picture_note"]
        == "the best-response picture is drawn for 2 x 2 games: this one is 2 x 3"
    )
    mixed = client.post("/api/matrix", json={"matrix": "1,1 2"}).json()
    assert mixed["error"].startswith("cell '2' at row 1, column 2 is a number")
