"""Table files: saved atomically, read back equal, refused when truncated, corrupted or foreign."""

import os

import pytest

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.solve import Table, read_header, solve
from zerosum.solve.table import MAGIC

TICTACTOE = TicTacToe()


@pytest.fixture
def saved(tictactoe_table, tmp_path):
    path = tmp_path / "ttt.tb"
    tictactoe_table.save(path)
    return path


def test_saved_table_loads_back_with_the_same_sections_and_counts(tictactoe_table, saved):
    loaded = Table.load(saved, TICTACTOE)
    assert loaded.sections == tictactoe_table.sections
    assert loaded.counts == tictactoe_table.counts and loaded.layers == tictactoe_table.layers
    assert loaded.probe(TICTACTOE.parse_state("XX.OO....")).best_moves == (2,)


def test_saved_file_has_the_permissions_of_any_new_file(saved):
    umask = os.umask(0)
    os.umask(umask)
    assert saved.stat().st_mode & 0o777 == 0o666 & ~umask


def test_file_is_11_bytes_a_position_after_its_header(tictactoe_table, saved):
    data = saved.read_bytes()
    assert data.startswith(MAGIC)
    header_length = int.from_bytes(data[10:14], "little")
    assert len(data) == 46 + header_length + 11 * 5478


def test_header_names_the_game_its_parameters_and_counts(tmp_path):
    path = tmp_path / "c4.tb"
    solve(ConnectFour(3, 3), workers=1).save(path)
    header = read_header(path)
    assert header["game"] == "zerosum.games.connect4.ConnectFour"
    assert header["parameters"] == {"width": 3, "height": 3, "connect": 4}
    assert header["format"] == 1 and header["layered"] is True
    assert header["positions"] == sum(s["positions"] for s in header["sections"])
    assert header["initial"] == {"value": 0, "distance": 9}


def test_truncated_file_is_refused(saved):
    data = saved.read_bytes()
    saved.write_bytes(data[:-7])
    with pytest.raises(ValueError, match="truncated table"):
        Table.load(saved, TICTACTOE)
    saved.write_bytes(data[:20])
    with pytest.raises(ValueError, match="truncated table"):
        Table.load(saved, TICTACTOE)


@pytest.mark.parametrize("offset", [-1, -5000, 60, 200])
def test_one_flipped_byte_anywhere_is_refused(saved, offset):
    data = bytearray(saved.read_bytes())
    data[offset] ^= 0x04
    saved.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="corrupted table"):
        Table.load(saved, TICTACTOE)


def test_table_of_another_game_is_refused(saved, tmp_path):
    with pytest.raises(ValueError, match=r"built for TicTacToe\(\), not ConnectFour\(width=4"):
        Table.load(saved, ConnectFour(4, 4))
    other = tmp_path / "c4.tb"
    solve(ConnectFour(3, 3), workers=1).save(other)
    with pytest.raises(ValueError, match=r"width=3, height=3.*not ConnectFour\(width=3, height=4"):
        Table.load(other, ConnectFour(3, 4))


def test_missing_and_foreign_files_are_refused(tmp_path):
    with pytest.raises(ValueError, match="cannot read table"):
        Table.load(tmp_path / "none.tb", TICTACTOE)
    foreign = tmp_path / "notes.txt"
    foreign.write_text("some notes that are long enough to fill a header and more" * 2)
    with pytest.raises(ValueError, match="not a zerosum table"):
        Table.load(foreign, TICTACTOE)


def test_interrupted_save_leaves_neither_table_nor_temporary_file(
    tictactoe_table, tmp_path, monkeypatch
):
    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        tictactoe_table.save(tmp_path / "ttt.tb")
    assert list(tmp_path.iterdir()) == []


def test_save_replaces_an_older_table_whole(tictactoe_table, tmp_path):
    path = tmp_path / "t.tb"
    solve(ConnectFour(3, 3), workers=1).save(path)
    tictactoe_table.save(path)
    assert Table.load(path, TICTACTOE).counts.positions == 5478
    assert [p.name for p in tmp_path.iterdir()] == ["t.tb"]
