"""Chess endgame tables built by our own retrograde analysis (`zerosum.solve.chess_tables`),
held to Syzygy's win/draw/loss on every position of KRK and KPK."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys

import chess
import chess.syzygy
import numpy as np
import pytest
from oracles import DATA

from zerosum.games.chess import Chess
from zerosum.games.chess.endgame import Material
from zerosum.search.engine import Engine
from zerosum.solve import chess_tables
from zerosum.solve.chess_builds import build
from zerosum.solve.chess_tables import ChessTables, load

SYZYGY = DATA / "chess" / "syzygy"
PROMOTIONS = DATA / "chess" / "KNvKP-promotions.tsv"
NO_POSITION = -32768


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The tables of KRK and KPK (and KQK, KBK, KNK, which KPK's promotions reach)."""
    where = tmp_path_factory.mktemp("chess-tables")
    for material in chess_tables.materials(["KRK", "KPK"]):
        build(material, where)
    return where


@pytest.fixture(scope="module")
def pawn_tables(tmp_path_factory):
    """KNvKP's table (and the smaller ones it reaches: a capture, a promotion, a capture that
    promotes: KQvKN, KRvKN, KBvKN, KNvKN, KQvK...); half a minute."""
    where = tmp_path_factory.mktemp("chess-pawn-tables")
    build(Material.parse("KNvKP"), where)
    return where


def _positions(table: chess_tables.Built):
    for number in np.flatnonzero(table.codes != NO_POSITION):
        squares, turn = table.material.squares_of(int(number))
        yield int(number), table.material.board(squares, turn)


def test_materials_are_named_as_syzygy_names_them():
    assert Material.parse("KRK").name == "KRvK"
    assert Material.parse("kqkr").name == "KQvKR"
    assert Material.parse("KPKQ").name == "KQvKP"
    assert Material.parse("KPvKP").name == "KPvKP"
    # KQvK, KBvK, KNvK and KRvK too: the pawn takes the rook as it promotes
    assert [m.name for m in Material.parse("KRKP").smaller()] == [
        "KBvK", "KNvK", "KPvK", "KQvK", "KQvKR", "KRvK", "KRvKB", "KRvKN", "KRvKR",
    ]  # fmt: skip
    assert len(chess_tables.materials(["all4"])) == 35


def test_a_capture_that_promotes_reaches_a_table_of_its_own():
    """A pawn taking a piece on the last rank as it promotes leaves for the material without
    that piece and with the new one: the table must be built and read (it was missed, and
    every position of KQvKP, KRvKP, KBvKP and KNvKP with such a capture was built wrong)."""
    for name in ("KQvKP", "KRvKP", "KBvKP", "KNvKP"):
        smaller = {material.name for material in Material.parse(name).smaller()}
        assert {"KQvK", "KRvK", "KBvK", "KNvK"} <= smaller, name
    # no pawn stands on the last rank to be taken
    assert [m.name for m in Material.parse("KPvKP").smaller()] == [
        "KBvKP", "KNvKP", "KPvK", "KQvKP", "KRvKP",
    ]  # fmt: skip


def test_a_move_into_a_material_without_its_table_is_an_error_not_a_loss():
    """The build's lookup of a child whose material has no table raises: its INVALID code,
    read as a loss, silently turned wins and losses into draws."""
    from zerosum.solve import compiled_chess_tables as kernel

    krk = Material.parse("KRvK")
    specs = chess_tables.specs_of([krk])
    codes = np.zeros(krk.entries, np.int16)
    # KRvKP after d2xe1=Q: White's king on a1; Black's king on c3, queen on e1 (KQvK)
    types = np.array([chess.KING, chess.KING, chess.QUEEN, 0, 0], np.int64)
    sides = np.array([0, 1, 1, 0, 0], np.int64)
    squares = np.array([chess.A1, chess.C3, chess.E1, 0, 0], np.int64)
    work = np.zeros(3 * kernel.MOST, np.int64)
    with pytest.raises(ValueError, match="not among the smaller"):
        kernel.lookup(specs, codes, types, sides, squares, 3, 0, work)


@pytest.mark.parametrize("text", ["KRX", "KK K", "RKK", "KQRBNKP"])
def test_a_material_that_names_no_endgame_is_refused_with_the_reason(text):
    with pytest.raises(ValueError, match="material"):
        Material.parse(text)


@pytest.mark.parametrize("name", ["KQvKR", "KRRvK", "KPvKP", "KPPvK", "KBNvK"])
def test_the_compiled_index_is_the_python_index(name):
    """The twin's index (a king on the diagonal, pieces alike, pawns) equals the readable one
    on random placements, and reading an index back gives its position."""
    from zerosum.solve import compiled_chess_tables as kernel

    material = Material.parse(name)
    spec = np.zeros(kernel.SPEC_WIDTH, np.int64)
    spec[kernel.SPEC_COUNT] = len(material.pieces)
    spec[kernel.SPEC_PAWNS] = int(material.pawns)
    for i, (piece, side) in enumerate(material.pieces):
        spec[kernel.SPEC_PIECES + 2 * i] = piece
        spec[kernel.SPEC_PIECES + 2 * i + 1] = side
    rng = random.Random(7)
    moved = np.zeros(kernel.MOST, np.int64)
    for _ in range(3000):
        squares = tuple(rng.sample(range(64), len(material.pieces)))
        turn = rng.randrange(2)
        number = material.index(squares, turn)
        assert kernel.index(spec, np.array(squares, np.int64), turn, moved) == number
        back, back_turn = material.squares_of(number)
        assert material.index(back, back_turn) == number and back_turn == turn


def test_krk_and_kpk_agree_with_syzygy_on_every_position(folder):
    """KRK against Syzygy's KRvK.rtbw, KPK against the win, draw or loss Syzygy gives each of
    its positions (kept in tests/data in our index's order)."""
    krk = load(folder / "KRvK.ztb")
    with chess.syzygy.open_tablebase(str(SYZYGY)) as syzygy:
        for _, board in _positions(krk):
            number = krk.material.index(*krk.material.position_of(board))
            assert np.sign(krk.codes[number]) == np.sign(syzygy.probe_wdl(board)), board.fen()
    kpk = load(folder / "KPvK.ztb")
    with gzip.open(DATA / "chess" / "KPvK-wdl.gz") as facts:
        wdl = np.frombuffer(facts.read(), np.int8)
    assert len(wdl) == len(kpk.codes)
    assert np.array_equal(wdl == -128, kpk.codes == NO_POSITION)
    valid = kpk.codes != NO_POSITION
    assert np.array_equal(np.sign(kpk.codes[valid]), wdl[valid])


def test_the_counts_and_longest_mates_are_the_known_ones(folder):
    """KRK's longest mate is 16 moves, KQK's 10, KPK's 28 (White to move: 31, 19, 55 plies;
    Black to move, lost one ply later)."""
    found = {
        table.material.name: (table.positions, table.wins, table.draws, table.losses)
        for table in (load(path) for path in sorted(folder.glob("*.ztb")))
    }
    assert found == {
        "KBvK": (52234, 0, 52234, 0),
        "KNvK": (53806, 0, 53806, 0),
        "KPvK": (165676, 62480, 54394, 48802),
        "KQvK": (46137, 18081, 2896, 25160),
        "KRvK": (50015, 21959, 2796, 25260),
    }
    for name, longest in (("KRvK", 32), ("KQvK", 20), ("KPvK", 56)):
        table = load(folder / f"{name}.ztb")
        assert table.longest == longest
        white = table.codes[: len(table.codes) // 2]
        assert int(white.max()) == longest - 1


def test_every_entry_is_its_best_child_one_ply_before(folder):
    """The table satisfies retrograde analysis's equation on a sample of KPK: a position's
    entry is the best of its children's (python-chess's moves, through promotions to the
    smaller tables), a win one ply sooner than the child's loss, a loss one ply later."""
    tables = ChessTables.open(str(folder))
    kpk = tables.tables[Material.parse("KPK")]
    rng = random.Random(3)
    boards = [board for _, board in _positions(kpk)]
    for board in rng.sample(boards, 1500):
        code = tables.code(board)
        if not any(board.legal_moves):
            assert code == (-1 if board.is_check() else 0)
            continue
        children = []
        for move in board.legal_moves:
            board.push(move)
            children.append(tables.code(board))
            board.pop()
        wins = [-child + 0 for child in children if child is not None and child < 0]
        if wins:
            assert code == min(wins), board.fen()
        elif all(child is not None and child > 0 for child in children):
            assert code == -(max(children) + 2), board.fen()
        else:
            assert code == 0, board.fen()


def test_the_tables_best_move_keeps_syzygys_value(folder):
    tables = ChessTables.open(str(folder))
    game = Chess()
    krk = tables.tables[Material.parse("KRK")]
    rng = random.Random(5)
    with chess.syzygy.open_tablebase(str(SYZYGY)) as syzygy:
        for _, board in rng.sample(list(_positions(krk)), 400):
            if board.is_game_over():
                continue
            found = tables.best_move(game.parse_state(board.fen()))
            assert found is not None
            move, value = found
            before = syzygy.probe_wdl(board)
            board.push(move)
            after = 0 if board.occupied == board.kings else -syzygy.probe_wdl(board)
            if board.is_checkmate():
                after = 2
            assert np.sign(after) == np.sign(before) == np.sign(value), board.fen()


def test_a_damaged_table_is_refused(folder, tmp_path):
    damaged = tmp_path / "KRvK.ztb"
    data = bytearray((folder / "KRvK.ztb").read_bytes())
    data[-1] ^= 1
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum mismatch"):
        load(damaged)


def test_the_engine_reads_mates_by_their_distance(folder):
    """With our tables the Python engine scores a KRK position by its mate, as Syzygy could
    not (a win of unknown length)."""
    game = Chess()
    tables = ChessTables.open(str(folder))
    state = game.parse_state("8/8/8/4k3/8/8/8/4K2R w - - 0 1")
    result = Engine(game, tablebase=tables).search(state, depth=2)
    assert result.plies == 27
    assert tables.hits > 0


def _zerosum(*arguments, **options):
    return subprocess.run(
        [sys.executable, "-m", "zerosum", *arguments],
        capture_output=True,
        text=True,
        **options,
    )


def test_the_command_builds_probes_and_describes_a_table(tmp_path):
    built = _zerosum("tablebase", "build", "chess", "KRK", "-o", str(tmp_path), "--json")
    assert built.returncode == 0, built.stderr
    report = json.loads(built.stdout)
    assert [table["material"] for table in report["tables"]] == ["KRvK"]
    assert report["tables"][0]["longest_plies"] == 32
    probe = _zerosum(
        "tablebase", "probe", str(tmp_path / "KRvK.ztb"),
        "--position", "8/8/8/4k3/8/8/8/4K2R w - - 0 1", "--json",
    )  # fmt: skip
    assert json.loads(probe.stdout)["plies"] == 27
    again = _zerosum("tablebase", "build", "chess", "KRK", "-o", str(tmp_path))
    assert "written 0 tables" in again.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["chess", "KXK"], "material 'KXK': name each side's king"),
        (["chess", "KQRKR"], "the pieces of a chess endgame table 5 is over the limit of 4"),
        (["chess"], "name endgames to build"),
        (["nim", "KRK"], "name chess endgames"),
    ],
)
def test_a_bad_build_is_one_line_and_exit_2(tmp_path, arguments, message):
    done = _zerosum("tablebase", "build", *arguments, "-o", str(tmp_path / "t"))
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.count("\n") == 1


class _Endgame:
    """The positions of one endgame on python-chess's rules, as any game of the project (six
    methods and a key): the game the readable retrograde analysis solves. Its key is the
    table's index (symmetric copies are one position); two kings alone end the game drawn."""

    def __init__(self, material: Material) -> None:
        self.material = material

    def initial_state(self) -> chess.Board:
        return chess.Board(None)

    def to_move(self, board: chess.Board) -> int:
        return 0 if board.turn == chess.WHITE else 1

    def legal_moves(self, board: chess.Board) -> list[chess.Move]:
        return list(board.legal_moves)

    def result(self, board: chess.Board, move: chess.Move) -> chess.Board:
        child = board.copy(stack=False)
        child.push(move)
        return child

    def is_terminal(self, board: chess.Board) -> bool:
        return board.occupied == board.kings or not any(board.legal_moves)

    def utility(self, board: chess.Board, player: int) -> int:
        if not board.is_checkmate():
            return 0
        return -1 if self.to_move(board) == player else 1

    def key(self, board: chess.Board) -> int:
        if board.occupied == board.kings:  # after the capture: the kings and the side to move
            white, black = board.king(chess.WHITE), board.king(chess.BLACK)
            assert white is not None and black is not None
            return 1 << 40 | white << 7 | black << 1 | int(board.turn)
        return self.material.index(*self.material.position_of(board))


def test_the_compiled_build_is_the_readable_retrograde_analysis_of_the_same_positions(folder):
    """`zerosum.solve.solve`, the project's retrograde analysis of any game, run on KRK's
    positions through python-chess's moves, gives every position the value and the distance to
    mate of the compiled build (a draw with no distance: ours end no draw by a count)."""
    from zerosum.solve import solve

    material = Material.parse("KRK")
    table = load(folder / "KRvK.ztb")
    game = _Endgame(material)
    starts = [board for _, board in _positions(table)]
    solved = solve(game, starts)
    assert len(solved) > table.positions  # and the kings left alone by a capture
    for number, board in zip(np.flatnonzero(table.codes != NO_POSITION), starts, strict=True):
        value, distance = solved.lookup(board)
        code = int(table.codes[number])
        if value == 0:
            assert code == 0, board.fen()
        else:
            assert code == (distance if value > 0 else -distance - 1), board.fen()


def test_a_pawn_on_its_seventh_rank_promotes_into_the_right_table(pawn_tables):
    """KNvKP with Black's pawn on its seventh rank: the positions of tests/data with their
    distance to mate (found by search) and Syzygy's win, draw or loss, 2,997 more with
    Syzygy's, and these held to retrograde analysis's equation too (the entry the best of
    its children's, one ply before). The build read a capture that promotes as a move into no
    table, and drew positions won or lost (`8/8/8/8/8/1k6/2p5/K2N4 b`: c1=Q mates, and it
    took 13 plies)."""
    tables = ChessTables.open(str(pawn_tables))
    lines = PROMOTIONS.read_text().splitlines()
    facts = [line.split("\t") for line in lines if not line.startswith("#")]
    assert len(facts) == 7
    for fen, wdl, plies in facts:
        mate = int(plies)
        expected = mate if mate > 0 else mate - 1 if mate < 0 else 0  # a loss in n: -(n + 1)
        code = tables.code(chess.Board(fen))
        assert code == expected and np.sign(code) == np.sign(int(wdl)), fen
    knkp = tables.tables[Material.parse("KNvKP")]
    with gzip.open(DATA / "chess" / "KNvKP-seventh-wdl.gz", "rt") as sample:
        rows = [tuple(map(int, line.split())) for line in sample]
    assert len(rows) == 2997
    for number, wdl in rows:
        squares, turn = knkp.material.squares_of(number)
        assert squares[-1] >> 3 == 1
        board = knkp.material.board(squares, turn)
        code = int(knkp.codes[number])
        assert code != NO_POSITION and np.sign(code) == np.sign(wdl), board.fen()
        _assert_best_child(tables, board, code)


def _assert_best_child(tables: ChessTables, board: chess.Board, code: int) -> None:
    """The entry is its best child's one ply before (a win one ply sooner than the quickest
    child's loss; a loss one ply later than the slowest child's win; else a draw)."""
    if not any(board.legal_moves):
        assert code == (-1 if board.is_check() else 0), board.fen()
        return
    children = []
    for move in board.legal_moves:
        board.push(move)
        child = tables.code(board)
        board.pop()
        assert child is not None, board.fen()
        children.append(child)
    wins = [-child for child in children if child < 0]
    if wins:
        assert code == min(wins), board.fen()
    elif all(child > 0 for child in children):
        assert code == -(max(children) + 2), board.fen()
    else:
        assert code == 0, board.fen()
