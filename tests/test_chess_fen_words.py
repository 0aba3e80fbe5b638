"""A FEN python-chess reads but finds invalid is refused with its reasons in words."""

import pytest

from zerosum.games.chess import Chess


@pytest.mark.parametrize(
    ("fen", "reasons"),
    [
        ("8/8/8/8/8/8/8/8 w - - 0 1", "no white king, no black king, an empty board"),
        ("8/8/8/8/8/8/8/8", "no white king, no black king, an empty board"),
        ("K6k/8/8/8/8/8/8/8 w KQ - 0 1", "castling rights without the king and rook at home"),
        ("KPk5/8/8/8/8/8/8/8 w - - 0 1", "pawns on the first or last rank"),
        ("k7/8/8/8/8/8/8/R6K w - - 0 1", "the side not to move is in check"),
        ("k7/8/8/8/8/8/8/KK6 w - - 0 1", "too many kings"),
    ],
)
def test_an_invalid_position_is_said_in_words(cli, fen, reasons):
    err = cli.error("analyze", "chess", "--fen", fen)
    assert err == f"zerosum: error: bad FEN {fen!r}: {reasons}\n"
    assert "Status" not in err


def test_a_fen_longer_than_any_is_refused_and_not_echoed_whole():
    with pytest.raises(ValueError) as error:
        Chess().parse_state("8/" * 100_000)
    message = str(error.value)
    assert "longer than any position's (128 characters)" in message
    assert len(message) < 200
