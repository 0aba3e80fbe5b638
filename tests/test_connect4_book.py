"""Connect Four's opening book: its scores are the solver's and the retrograde table's, the
solver answers from it and scores alike without it, a damaged file is refused in one line, a
stopped build goes on where it was, and the package's own book holds the known first moves."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_connect4_compiled import table_score

from zerosum.games.connect4 import ConnectFour
from zerosum.solve import connect4_book
from zerosum.solve.connect4 import ConnectFourExact, ConnectFourSolver
from zerosum.solve.connect4 import build_book as build
from zerosum.solve.connect4_book import OpeningBook, canonical_key, positions_by_ply

SMALL_PLIES = 6


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    """The 5x4 board's book to 6 plies, built here (a second), and the file it was saved to."""
    game = ConnectFour(5, 4)
    folder = tmp_path_factory.mktemp("book")
    built = build(game, SMALL_PLIES, folder / "work", table_mb=8)
    path = folder / "five-by-four.zbook"
    built.book.save(path)
    return built.book, path


@pytest.fixture(scope="module")
def five_by_four_table():
    from zerosum.solve.retrograde import solve

    game = ConnectFour(5, 4)
    return game, solve(game)  # every position of the board, by retrograde analysis (3 s)


def walk(game, choices, most):
    """The position the columns `choices` (each taken modulo the legal ones) reach, stopping
    at `most` stones or at the end of the game."""
    state = game.initial_state()
    for choice in choices:
        if game.is_terminal(state) or state[2] >= most:
            break
        legal = game.legal_moves(state)
        state = game.result(state, legal[choice % len(legal)])
    return state


def test_the_small_book_holds_every_position_once_with_its_mirror_image(small_book):
    book, _ = small_book
    layers = positions_by_ply(book.game, SMALL_PLIES)
    assert [counts.positions for counts in book.layers] == [len(layer) for layer in layers]
    assert [counts.positions for counts in book.layers][:5] == [1, 3, 13, 49, 177]
    assert len(book) == 2_411


def test_every_entry_of_the_small_book_is_the_retrograde_tables_score(
    small_book, five_by_four_table
):
    book, _ = small_book
    game, table = five_by_four_table
    for layer in positions_by_ply(game, SMALL_PLIES):
        for state in layer.values():
            value, distance = table.lookup(state)
            assert book.score(state) == table_score(game, state[2], value, distance)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=SMALL_PLIES))
def test_book_entries_equal_the_solvers_scores_without_a_book(small_book, choices):
    book, _ = small_book
    state = walk(book.game, choices, SMALL_PLIES)
    if book.game.is_terminal(state):
        return
    solver = ConnectFourSolver(book.game, table_mb=4, book=None)
    assert book.score(state) == solver.solve(state).score


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=14), st.sampled_from(["compiled", "python"]))
def test_the_solver_scores_alike_with_the_book_and_without(small_book, choices, impl):
    book, _ = small_book
    game = book.game
    state = walk(game, choices, 14)
    if game.is_terminal(state):
        return
    with_book = ConnectFourSolver(game, table_mb=4, impl=impl, book=book)
    without = ConnectFourSolver(game, table_mb=4, impl=impl, book=None)
    assert with_book.solve(state).score == without.solve(state).score
    assert with_book.move_scores(state) == without.move_scores(state)
    assert with_book.solve(state, weak=True).score == without.solve(state, weak=True).score


def test_a_position_in_the_book_is_answered_without_a_search(small_book):
    book, _ = small_book
    solver = ConnectFourSolver(book.game, table_mb=4, book=book)
    state = walk(book.game, [2, 2, 1], SMALL_PLIES)
    solution = solver.solve(state)
    assert (solution.score, solution.nodes) == (book.score(state), 0)
    # the best move looks each child up: one node a child tried, at most one a column
    assert solver.solve(state, best_move=True).nodes <= book.game.width


def test_no_book_switches_the_exact_solver_to_searching_from_scratch(small_book):
    book, _ = small_book
    exact = ConnectFourExact(book.game, table_mb=4, book=book)
    root = book.game.initial_state()
    assert not exact.no_book and exact.answer(root).nodes <= book.game.width
    exact.no_book = True
    assert exact.solver.book is None
    answer = exact.answer(root)
    assert answer.nodes > 1000 and answer.details["score"] == book.score(root)
    exact.no_book = False
    assert exact.solver.book is book


def test_the_book_survives_its_file(small_book):
    book, path = small_book
    again = OpeningBook.load(path, book.game)
    assert np.array_equal(again.keys, book.keys) and np.array_equal(again.scores, book.scores)
    data = path.read_bytes()
    header_bytes = int.from_bytes(data[10:14], "little")
    assert len(data) == 46 + header_bytes + 9 * len(book)  # preamble, header, 9 bytes a position


def damaged(path: Path, tmp_path: Path, how: str) -> Path:
    data = bytearray(path.read_bytes())
    if how == "truncated":
        data = data[:-5]
    elif how == "flipped":
        data[-3] ^= 0x10
    else:  # a byte too many
        data += b"\0"
    target = tmp_path / f"{how}.zbook"
    target.write_bytes(bytes(data))
    return target


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("truncated", "truncated table"),
        ("flipped", "corrupted table (checksum mismatch)"),
        ("longer", "1 bytes too many after the table"),
    ],
)
def test_a_damaged_book_is_refused_in_one_line(small_book, tmp_path, cli, how, message):
    book, path = small_book
    broken = damaged(path, tmp_path, how)
    with pytest.raises(ValueError, match=r"^[^\n]*$") as error:
        OpeningBook.load(broken, book.game)
    assert message in str(error.value) and str(broken) in str(error.value)
    assert message in cli.error("tablebase", "info", str(broken))


def test_a_book_of_another_board_is_refused(small_book):
    _, path = small_book
    with pytest.raises(ValueError, match="built for ConnectFour.width=5, height=4"):
        OpeningBook.load(path, ConnectFour())
    book = OpeningBook.load(path, ConnectFour(5, 4))
    with pytest.raises(ValueError, match="the 5x4 board cannot serve the 7x6 one"):
        ConnectFourSolver(ConnectFour(), table_mb=4, book=book)


SMALL = "connect4(width=5,height=4)"


def test_book_file_answers_solve_analyze_and_play_from_the_file_given(small_book, cli):
    book, path = small_book
    position = "1"  # in the book, its player to move winning, one move losing
    state = book.game.parse_state(position)
    answer = cli.json("solve", SMALL, position, "--book", str(path))
    assert answer["score"] == book.score(state) == 1
    assert answer["nodes"] <= book.game.width  # a look at each child, no search
    searched = cli.json("solve", SMALL, position, "--no-book")
    assert searched["score"] == 1 and searched["nodes"] > 1000
    exact = cli.json("analyze", SMALL, position, "--exact", "--book", str(path))
    assert exact["nodes"] == 0 and exact["all_moves"] == {
        str(move + 1): -book.score(book.game.result(state, move))
        for move in book.game.legal_moves(state)
    }
    played = cli("play", SMALL, "--ai", "perfect", "--book", str(path), answers=["q"])
    assert played.code == 0, played.err


def test_a_book_file_the_solver_cannot_read_is_one_line(small_book, tmp_path, cli):
    _, path = small_book
    assert "built for ConnectFour(width=5, height=4" in cli.error(
        "solve", "connect4", "4", "--book", str(path)
    )
    broken = damaged(path, tmp_path, "flipped")
    assert "corrupted table (checksum mismatch)" in cli.error(
        "analyze", SMALL, "--exact", "--book", str(broken)
    )
    assert "tictactoe has none" in cli.error("solve", "tictactoe", "--book", str(path))
    assert "tictactoe has none" in cli.error("analyze", "tictactoe", "--exact", "--book", str(path))
    assert "--order asks for an exact search instead" in cli.error(
        "solve", SMALL, "--book", str(path), "--order", "12345"
    )
    assert "not the engine's" in cli.error(
        "play", SMALL, "--ai", "engine:depth=2", "--book", str(path)
    )
    both = cli("solve", SMALL, "--book", str(path), "--no-book")
    assert both.code == 2 and "argument --no-book: not allowed with argument --book" in both.err


def test_a_stopped_build_goes_on_from_its_last_whole_chunk(tmp_path, small_book):
    game = ConnectFour(5, 4)
    chunks = []

    def stop_after_two(progress):
        chunks.append(progress.solved)
        if len(chunks) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(game, SMALL_PLIES, tmp_path, table_mb=4, progress=stop_after_two)
    damaged_chunk = sorted(tmp_path.glob("frontier-*.npy"))[1]
    damaged_chunk.write_bytes(damaged_chunk.read_bytes()[:-8])  # solved again, not trusted
    built = build(game, SMALL_PLIES, tmp_path, table_mb=4)
    assert built.resumed == connect4_book.CHUNK  # the first chunk only
    book, _ = small_book
    assert np.array_equal(built.book.keys, book.keys)
    assert np.array_equal(built.book.scores, book.scores)


def test_a_build_on_two_processes_writes_the_same_book(tmp_path, small_book):
    built = build(ConnectFour(5, 4), SMALL_PLIES, tmp_path, table_mb=4, workers=2)
    book, _ = small_book
    assert (built.frontier, built.resumed) == (1_626, 0)
    assert np.array_equal(built.book.keys, book.keys)
    assert np.array_equal(built.book.scores, book.scores)
    assert len(list(tmp_path.glob("frontier-*.npy"))) == -(-1_626 // connect4_book.CHUNK)


def test_bad_book_builds_are_one_line_errors(cli, tmp_path):
    output = str(tmp_path / "b.zbook")
    assert "needs its depth: --plies N" in cli.error(
        "tablebase", "build", "connect4-book", "-o", output
    )
    assert "is over the limit of 8" in cli.error(
        "tablebase", "build", "connect4-book", "--plies", "9", "-o", output
    )
    assert "--plies is the depth of Connect Four's opening book" in cli.error(
        "tablebase", "build", "tictactoe", "--plies", "3", "-o", output
    )
    assert "not 5" in cli.error(
        "tablebase", "build", "connect4-book(connect=5)", "--plies", "2", "-o", output
    )


def test_the_build_command_writes_info_and_probe_read_it(cli, tmp_path, small_book):
    output = tmp_path / "b.zbook"
    argv = ["tablebase", "build", "connect4-book(width=5,height=4)", "--plies", "6"]
    report = cli.json(*argv, "-o", str(output))
    assert (report["positions"], report["plies"], report["score"]) == (2_411, 6, 0)
    assert report["bytes"] == output.stat().st_size and report["frontier"] == 1_626
    assert Path(report["work_dir"]) == Path(f"{output}.work")
    again = cli.json(*argv, "-o", str(output), "--workers", "2")  # every chunk found solved
    assert again["resumed"] == again["frontier"] == 1_626
    info = cli.json("tablebase", "info", str(output))
    assert [layer["positions"] for layer in info["layers"]][:3] == [1, 3, 13]
    probe = cli.json("tablebase", "probe", str(output), "--position", "3")
    book, _ = small_book
    assert probe["score"] == book.score(walk(book.game, [0], 1))
    assert "past its 6 plies" in cli.error(
        "tablebase", "probe", str(output), "--position", "3333222"
    )


def test_the_packaged_book_knows_the_first_moves_of_the_seven_by_six_board():
    game = ConnectFour()
    book = connect4_book.shipped(game)
    assert book is not None and book.plies >= 4
    root = game.initial_state()
    assert book.score(root) == 1  # the first player wins, with their last stone but one
    firsts = [book.score(game.result(root, column)) for column in range(7)]
    assert [-score for score in firsts] == [-2, -1, 0, 1, 0, -1, -2]


def test_every_packaged_entry_before_its_frontier_is_the_best_of_its_moves():
    game = ConnectFour()
    book = connect4_book.shipped(game)
    assert book is not None
    for layer in positions_by_ply(game, book.plies - 1):
        for key, state in layer.items():
            moves = state[2]
            best = max(
                (game.cells + 1 - moves) // 2
                if (child := game.result(state, column))[3]
                else -book.score_of_key(canonical_key(game, child[0], child[1]))
                for column in game.legal_moves(state)
            )
            assert book.score_of_key(key) == best
