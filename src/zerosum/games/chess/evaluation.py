"""Chess's evaluation: what a position is worth to White, in centipawns, before any search.

Every term is an integer number of centipawns and comes in two flavours, one for the middle game
and one for the endgame, blended by the material left on the board (a tapered evaluation):

    score = (middle * phase + end * (24 - phase)) // 24

where `phase` counts 1 a knight or bishop, 2 a rook and 4 a queen of either side (24 at the
start, at most 24). The terms, for each side, White's counted up and Black's down:

- **material and squares**: each piece's value plus the value of its square, in Ronald
  Friederich's PeSTO tables (values fitted to games by Texel's method, published on the Chess
  Programming Wiki); the tables below are written as a diagram, a8 first, from White's side;
- **mobility**: the squares each knight, bishop, rook and queen attacks that hold no piece of its
  own and no enemy pawn attacks, counted from a typical number (`Weights.mobility_centre`), so
  that mobility moves the balance between pieces, not their values;
- **king safety**: attack units of the pieces that attack the enemy king's zone (its square and
  the squares around it), weighted by piece, turned into a penalty that grows with the square of
  the units once two pieces at least take part; and the king's pawn shield;
- **pawn structure**: passed pawns by their rank, isolated and doubled pawns;
- **pieces**: the bishop pair, rooks on open and half-open files;
- **drawish endings**: the endgame score is divided by four when the side ahead has no pawns
  and at most a minor piece more than the other (a rook against a bishop, two minor pieces
  against one).

`Evaluation(weights).white_score(board)` is the Python version over python-chess's boards;
`zerosum.games.compiled_chess` computes the same integers over its bitboards (the tests hold the
two equal), from the arrays `Evaluation` lays out.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

# The PeSTO tables, in centipawns, by piece type (pawn to king), as diagrams: index 0 is a8,
# index 63 is h1, read from White's side; Black reads them mirrored.
MIDDLE_VALUES = (0, 82, 337, 365, 477, 1025, 0)
END_VALUES = (0, 94, 281, 297, 512, 936, 0)
# fmt: off
MIDDLE_SQUARES = (
    (),
    (   0,   0,   0,   0,   0,   0,   0,   0,
       98, 134,  61,  95,  68, 126,  34, -11,
       -6,   7,  26,  31,  65,  56,  25, -20,
      -14,  13,   6,  21,  23,  12,  17, -23,
      -27,  -2,  -5,  12,  17,   6,  10, -25,
      -26,  -4,  -4, -10,   3,   3,  33, -12,
      -35,  -1, -20, -23, -15,  24,  38, -22,
        0,   0,   0,   0,   0,   0,   0,   0),
    (-167, -89, -34, -49,  61, -97, -15, -107,
      -73, -41,  72,  36,  23,  62,   7,  -17,
      -47,  60,  37,  65,  84, 129,  73,   44,
       -9,  17,  19,  53,  37,  69,  18,   22,
      -13,   4,  16,  13,  28,  19,  21,   -8,
      -23,  -9,  12,  10,  19,  17,  25,  -16,
      -29, -53, -12,  -3,  -1,  18, -14,  -19,
     -105, -21, -58, -33, -17, -28, -19,  -23),
    ( -29,   4, -82, -37, -25, -42,   7,  -8,
      -26,  16, -18, -13,  30,  59,  18, -47,
      -16,  37,  43,  40,  35,  50,  37,  -2,
       -4,   5,  19,  50,  37,  37,   7,  -2,
       -6,  13,  13,  26,  34,  12,  10,   4,
        0,  15,  15,  15,  14,  27,  18,  10,
        4,  15,  16,   0,   7,  21,  33,   1,
      -33,  -3, -14, -21, -13, -12, -39, -21),
    (  32,  42,  32,  51,  63,   9,  31,  43,
       27,  32,  58,  62,  80,  67,  26,  44,
       -5,  19,  26,  36,  17,  45,  61,  16,
      -24, -11,   7,  26,  24,  35,  -8, -20,
      -36, -26, -12,  -1,   9,  -7,   6, -23,
      -45, -25, -16, -17,   3,   0,  -5, -33,
      -44, -16, -20,  -9,  -1,  11,  -6, -71,
      -19, -13,   1,  17,  16,   7, -37, -26),
    ( -28,   0,  29,  12,  59,  44,  43,  45,
      -24, -39,  -5,   1, -16,  57,  28,  54,
      -13, -17,   7,   8,  29,  56,  47,  57,
      -27, -27, -16, -16,  -1,  17,  -2,   1,
       -9, -26,  -9, -10,  -2,  -4,   3,  -3,
      -14,   2, -11,  -2,  -5,   2,  14,   5,
      -35,  -8,  11,   2,   8,  15,  -3,   1,
       -1, -18,  -9,  10, -15, -25, -31, -50),
    ( -65,  23,  16, -15, -56, -34,   2,  13,
       29,  -1, -20,  -7,  -8,  -4, -38, -29,
       -9,  24,   2, -16, -20,   6,  22, -22,
      -17, -20, -12, -27, -30, -25, -14, -36,
      -49,  -1, -27, -39, -46, -44, -33, -51,
      -14, -14, -22, -46, -44, -30, -15, -27,
        1,   7,  -8, -64, -43, -16,   9,   8,
      -15,  36,  12, -54,   8, -28,  24,  14),
)
END_SQUARES = (
    (),
    (   0,   0,   0,   0,   0,   0,   0,   0,
      178, 173, 158, 134, 147, 132, 165, 187,
       94, 100,  85,  67,  56,  53,  82,  84,
       32,  24,  13,   5,  -2,   4,  17,  17,
       13,   9,  -3,  -7,  -7,  -8,   3,  -1,
        4,   7,  -6,   1,   0,  -5,  -1,  -8,
       13,   8,   8,  10,  13,   0,   2,  -7,
        0,   0,   0,   0,   0,   0,   0,   0),
    ( -58, -38, -13, -28, -31, -27, -63, -99,
      -25,  -8, -25,  -2,  -9, -25, -24, -52,
      -24, -20,  10,   9,  -1,  -9, -19, -41,
      -17,   3,  22,  22,  22,  11,   8, -18,
      -18,  -6,  16,  25,  16,  17,   4, -18,
      -23,  -3,  -1,  15,  10,  -3, -20, -22,
      -42, -20, -10,  -5,  -2, -20, -23, -44,
      -29, -51, -23, -15, -22, -18, -50, -64),
    ( -14, -21, -11,  -8,  -7,  -9, -17, -24,
       -8,  -4,   7, -12,  -3, -13,  -4, -14,
        2,  -8,   0,  -1,  -2,   6,   0,   4,
       -3,   9,  12,   9,  14,  10,   3,   2,
       -6,   3,  13,  19,   7,  10,  -3,  -9,
      -12,  -3,   8,  10,  13,   3,  -7, -15,
      -14, -18,  -7,  -1,   4,  -9, -15, -27,
      -23,  -9, -23,  -5,  -9, -16,  -5, -17),
    (  13,  10,  18,  15,  12,  12,   8,   5,
       11,  13,  13,  11,  -3,   3,   8,   3,
        7,   7,   7,   5,   4,  -3,  -5,  -3,
        4,   3,  13,   1,   2,   1,  -1,   2,
        3,   5,   8,   4,  -5,  -6,  -8, -11,
       -4,   0,  -5,  -1,  -7, -12,  -8, -16,
       -6,  -6,   0,   2,  -9,  -9, -11,  -3,
       -9,   2,   3,  -1,  -5, -13,   4, -20),
    (  -9,  22,  22,  27,  27,  19,  10,  20,
      -17,  20,  32,  41,  58,  25,  30,   0,
      -20,   6,   9,  49,  47,  35,  19,   9,
        3,  22,  24,  45,  57,  40,  57,  36,
      -18,  28,  19,  47,  31,  34,  39,  23,
      -16, -27,  15,   6,   9,  17,  10,   5,
      -22, -23, -30, -16, -16, -23, -36, -32,
      -33, -28, -22, -43,  -5, -32, -20, -41),
    ( -74, -35, -18, -18, -11,  15,   4, -17,
      -12,  17,  14,  17,  17,  38,  23,  11,
       10,  17,  23,  15,  20,  45,  44,  13,
       -8,  22,  24,  27,  26,  33,  26,   3,
      -18,  -4,  21,  24,  27,  23,   9, -11,
      -19,  -3,  11,  21,  23,  16,   7,  -9,
      -27, -11,   4,  13,  14,   4,  -5, -17,
      -53, -34, -21, -11, -28, -14, -24, -43),
)
# fmt: on

PHASE = (0, 0, 1, 1, 2, 4, 0)
"""What each piece type (pawn to king) counts toward the middle game."""
FULL_PHASE = 24
MINOR_PIECE = 350
"""The most material (`SIMPLE_VALUES`) the side ahead may have beyond the other's, without pawns,
for the endgame to be taken as drawish."""
SIMPLE_VALUES = (0, 100, 300, 300, 500, 900, 0)
"""Piece values for the drawish-ending rule, by piece type."""
MOBILE = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
"""The pieces whose mobility and king attacks count, in the order they are evaluated."""


@dataclass(frozen=True)
class Weights:
    """Every weight of the evaluation beside the PeSTO tables, in centipawns; tuples are by piece
    type (index 1 pawn to 6 king), or by a pawn's rank counted from its own side (0 to 7)."""

    mobility_middle: tuple[int, ...] = (0, 0, 4, 5, 2, 1, 0)
    mobility_end: tuple[int, ...] = (0, 0, 4, 5, 4, 2, 0)
    mobility_centre: tuple[int, ...] = (0, 0, 4, 6, 6, 12, 0)
    king_attack: tuple[int, ...] = (0, 0, 2, 2, 3, 5, 0)
    """Attack units for each square of the enemy king's zone a piece attacks."""
    king_danger: int = 4
    """The penalty for `u` attack units is u * u // king_danger, at most `king_danger_most`."""
    king_danger_most: int = 500
    king_shield: int = 10
    """For each own pawn on the two ranks in front of the king, on its file and the two beside."""
    passed_middle: tuple[int, ...] = (0, 0, 5, 10, 20, 35, 60, 0)
    passed_end: tuple[int, ...] = (0, 5, 10, 15, 30, 50, 80, 0)
    isolated_middle: int = 10
    isolated_end: int = 12
    doubled_middle: int = 10
    doubled_end: int = 20
    bishop_pair_middle: int = 30
    bishop_pair_end: int = 50
    rook_open_middle: int = 25
    rook_open_end: int = 10
    rook_half_open_middle: int = 12
    rook_half_open_end: int = 8


DANGER_MOST = 100
"""Attack units beyond which the king's danger no longer grows."""


def _square_value(tables: tuple[tuple[int, ...], ...], piece_type: int, color: bool,
                  square: int) -> int:  # fmt: skip
    """The diagram `tables[piece_type]`'s value of `square` (a1 = 0) for a piece of `color`."""
    return tables[piece_type][square ^ 56 if color == chess.WHITE else square]


def _relative_rank(square: int, color: bool) -> int:
    """The rank of `square` counted from `color`'s side (0 its first rank)."""
    rank = chess.square_rank(square)
    return rank if color == chess.WHITE else 7 - rank


def _front_span(square: int, color: bool) -> int:
    """The squares ahead of `square` (from `color`'s side) on its file and the two beside: where
    an enemy pawn stops a pawn on `square` from being passed."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    files = chess.BB_FILES[file] | _ADJACENT_FILES[file]
    ahead = range(rank + 1, 8) if color == chess.WHITE else range(rank)
    return files & sum(chess.BB_RANKS[r] for r in ahead)


def _shield(square: int, color: bool) -> int:
    """The king's shield: the two ranks in front of `square`, on its file and the two beside."""
    rank = chess.square_rank(square)
    near = (rank + 1, rank + 2) if color == chess.WHITE else (rank - 1, rank - 2)
    ranks = sum(chess.BB_RANKS[r] for r in near if 0 <= r < 8)
    return _front_span(square, color) & ranks


_ADJACENT_FILES = tuple(
    (chess.BB_FILES[f - 1] if f > 0 else 0) | (chess.BB_FILES[f + 1] if f < 7 else 0)
    for f in range(8)
)
_COLORS = (chess.WHITE, chess.BLACK)
FRONT_SPAN = tuple(tuple(_front_span(s, c) for s in range(64)) for c in _COLORS)
"""By colour (0 White) and square: `_front_span`."""
AHEAD_ON_FILE = tuple(tuple(FRONT_SPAN[c][s] & chess.BB_FILES[chess.square_file(s)]
                            for s in range(64)) for c in range(2))  # fmt: skip
"""By colour and square: the squares ahead of it on its own file."""
SHIELD = tuple(tuple(_shield(s, c) for s in range(64)) for c in _COLORS)
"""By colour and square of the king: its pawn shield's squares."""
KING_ZONE = tuple(chess.BB_KING_ATTACKS[s] | chess.BB_SQUARES[s] for s in range(64))
NOT_A_FILE = chess.BB_ALL & ~chess.BB_FILE_A
NOT_H_FILE = chess.BB_ALL & ~chess.BB_FILE_H


def pawn_attacks(pawns: int, color: bool) -> int:
    """The squares the `pawns` of `color` attack."""
    if color == chess.WHITE:
        return (pawns << 7 & NOT_H_FILE | pawns << 9 & NOT_A_FILE) & chess.BB_ALL
    return pawns >> 9 & NOT_H_FILE | pawns >> 7 & NOT_A_FILE


def _attacks(piece_type: int, square: int, occupied: int) -> int:
    """The squares a piece of `piece_type` on `square` attacks on a board `occupied`."""
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    attacks = 0
    if piece_type != chess.ROOK:
        attacks = chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    if piece_type != chess.BISHOP:
        attacks |= (
            chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
        )
    return attacks


def drawish(end: int, pawns: tuple[int, int], material: tuple[int, int]) -> bool:
    """Whether an endgame score `end` (White's) is taken as drawish: the side it favours has no
    `pawns` and at most `MINOR_PIECE` more `material` (without pawns) than the other."""
    strong = 0 if end > 0 else 1
    return pawns[strong] == 0 and material[strong] - material[1 - strong] <= MINOR_PIECE


def quartered(end: int) -> int:
    """`end` divided by four, rounded toward 0 (the same for either side)."""
    return end // 4 if end >= 0 else -(-end // 4)


class Evaluation:
    """The evaluation with `weights`: its tables (`Weights` spread over squares and counts) and
    `white_score`; it keeps the pawn and king terms of the structures it meets (a pawn hash
    table of at most `STRUCTURES` entries)."""

    STRUCTURES = 1 << 16

    def __init__(self, weights: Weights) -> None:
        w = self.weights = weights
        # material and square, by colour (0 White), piece type and square (a1 = 0)
        self.middle = [[[MIDDLE_VALUES[t] + _square_value(MIDDLE_SQUARES, t, color, s)
                         for s in range(64)] if t else [] for t in range(7)]
                       for color in _COLORS]  # fmt: skip
        self.end = [[[END_VALUES[t] + _square_value(END_SQUARES, t, color, s)
                      for s in range(64)] if t else [] for t in range(7)]
                    for color in _COLORS]  # fmt: skip
        # mobility by piece type and number of squares (at most 27)
        self.mobility_middle = [[w.mobility_middle[t] * (n - w.mobility_centre[t])
                                 for n in range(28)] for t in range(7)]  # fmt: skip
        self.mobility_end = [[w.mobility_end[t] * (n - w.mobility_centre[t])
                              for n in range(28)] for t in range(7)]  # fmt: skip
        self.danger = [min(w.king_danger_most, u * u // w.king_danger)
                       for u in range(DANGER_MOST + 1)]  # fmt: skip
        # passed pawns by colour and square
        self.passed_middle = [[w.passed_middle[_relative_rank(s, c)] for s in range(64)]
                              for c in _COLORS]  # fmt: skip
        self.passed_end = [[w.passed_end[_relative_rank(s, c)] for s in range(64)]
                           for c in _COLORS]  # fmt: skip
        self._structures: dict[tuple[int, int, int, int], tuple[int, int]] = {}

    def white_score(self, board: chess.Board) -> int:
        """The evaluation of `board` from White's point of view, in centipawns."""
        occupied = board.occupied
        phase = 0
        middle = end = 0
        units = [0, 0]  # the attack units of each side on the other's king
        attackers = [0, 0]
        material = [0, 0]
        w = self.weights
        pawn_guard = (
            pawn_attacks(board.pawns & board.occupied_co[chess.WHITE], chess.WHITE),
            pawn_attacks(board.pawns & board.occupied_co[chess.BLACK], chess.BLACK),
        )
        kings = (board.king(chess.WHITE), board.king(chess.BLACK))
        for side, color in enumerate(_COLORS):
            sign = 1 if side == 0 else -1
            own = board.occupied_co[color]
            own_middle, own_end = self.middle[side], self.end[side]
            area = ~own & ~pawn_guard[1 - side]  # mobility: neither own pieces nor pawn guards
            enemy_king = kings[1 - side]
            zone = KING_ZONE[enemy_king] if enemy_king is not None else 0
            for piece_type in chess.PIECE_TYPES:
                pieces = board.pieces_mask(piece_type, color)
                while pieces:
                    square = (pieces & -pieces).bit_length() - 1
                    pieces &= pieces - 1
                    middle += sign * own_middle[piece_type][square]
                    end += sign * own_end[piece_type][square]
                    phase += PHASE[piece_type]
                    material[side] += SIMPLE_VALUES[piece_type]
                    if piece_type == chess.PAWN or piece_type == chess.KING:
                        continue
                    attacks = _attacks(piece_type, square, occupied)
                    reach = (attacks & area).bit_count()
                    middle += sign * self.mobility_middle[piece_type][reach]
                    end += sign * self.mobility_end[piece_type][reach]
                    hits = (attacks & zone).bit_count()
                    if hits:
                        units[side] += w.king_attack[piece_type] * hits
                        attackers[side] += 1
                    if piece_type == chess.ROOK:
                        file = chess.BB_FILES[square & 7]
                        if not file & board.pawns & own:
                            if file & board.pawns:
                                middle += sign * w.rook_half_open_middle
                                end += sign * w.rook_half_open_end
                            else:
                                middle += sign * w.rook_open_middle
                                end += sign * w.rook_open_end
            if (board.bishops & own).bit_count() >= 2:
                middle += sign * w.bishop_pair_middle
                end += sign * w.bishop_pair_end
            pawn_middle, pawn_end = self._structure(board, side, kings[side])
            middle += sign * pawn_middle
            end += sign * pawn_end
        for side in (0, 1):  # each side's attack on the other's king
            if attackers[side] >= 2:
                middle += (1 if side == 0 else -1) * self.danger[min(units[side], DANGER_MOST)]
        pawns = ((board.pawns & board.occupied_co[chess.WHITE]).bit_count(),
                 (board.pawns & board.occupied_co[chess.BLACK]).bit_count())  # fmt: skip
        beside_pawns = (material[0] - 100 * pawns[0], material[1] - 100 * pawns[1])
        if end and drawish(end, pawns, beside_pawns):
            end = quartered(end)
        phase = min(FULL_PHASE, phase)
        return (middle * phase + end * (FULL_PHASE - phase)) // FULL_PHASE

    def _structure(self, board: chess.Board, side: int, king: int | None) -> tuple[int, int]:
        """(middle game, endgame) of one side's pawn structure and king shield, from its own
        point of view: they depend on the pawns and the king alone, and are kept."""
        color = _COLORS[side]
        own = board.occupied_co[color]
        pawns, enemy = board.pawns & own, board.pawns & ~own
        found = (side, pawns, enemy, -1 if king is None else king)
        terms = self._structures.get(found)
        if terms is None:
            if len(self._structures) >= self.STRUCTURES:
                self._structures.clear()
            terms = self._structures[found] = self._pawn_terms(side, pawns, enemy, king)
        return terms

    def _pawn_terms(self, side: int, pawns: int, enemy: int, king: int | None) -> tuple[int, int]:
        w = self.weights
        middle = end = 0
        remaining = pawns
        while remaining:
            square = (remaining & -remaining).bit_length() - 1
            remaining &= remaining - 1
            file = square & 7
            if not pawns & _ADJACENT_FILES[file]:
                middle -= w.isolated_middle
                end -= w.isolated_end
            if pawns & AHEAD_ON_FILE[side][square]:  # another of its pawns ahead: doubled
                middle -= w.doubled_middle
                end -= w.doubled_end
            elif not enemy & FRONT_SPAN[side][square]:  # the foremost, and nothing stops it
                middle += self.passed_middle[side][square]
                end += self.passed_end[side][square]
        if king is not None:
            middle += w.king_shield * (SHIELD[side][king] & pawns).bit_count()
        return middle, end
