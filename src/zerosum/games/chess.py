"""Chess, on python-chess's rules, with what a search needs beside the rules.

- `Position`: an immutable snapshot (a python-chess `Board` that is never changed once made),
  its Polyglot Zobrist `key` kept up to date move by move (recomputing python-chess's
  `zobrist_hash` at every node costs several times a move), and the keys of the earlier
  positions since the last capture or pawn move, for draws by repetition.
- `Chess`: the `Game`. Player 0 is White. Utilities are `WIN` (in pawns, beyond any
  evaluation) for the side that mates, `-WIN` for the side mated, 0 for every draw: stalemate,
  insufficient material, the fifty-move rule and threefold repetition.
- `evaluate`: material and piece-square terms tapered between middle game and endgame,
  mobility, pawn structure and king safety, in pawns, every weight in `Weights`.
- `noisy_moves`: captures and promotions by MVV-LVA; every legal move when in check, so that a
  quiescence search never stands pat in check and never misses a mate by check evasion.
- `capture`: (victim, attacker) values for MVV-LVA ordering in the engine.
- `in_check` and `null_move`: for check extensions, and for null-move pruning (no null move in
  check or with only king and pawns, where zugzwang is common).

Moves are python-chess `Move` objects; as text they are read in SAN (`Nf3`) or UCI (`g1f3`) and
written in SAN. Positions are read from FEN (or `startpos`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess
import chess.polyglot

from zerosum.game import Player

_UCI_SHAPE = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
"""What a move in UCI notation looks like (SAN parsing may take it for an illegal SAN move)."""

WIN = 1000
"""The utility of a won game, in pawns: larger than any evaluation."""

_ZOBRIST = chess.polyglot.POLYGLOT_RANDOM_ARRAY
_HASHER = chess.polyglot.ZobristHasher(_ZOBRIST)
_TURN = _ZOBRIST[780]

PIECE_VALUES = {
    chess.PAWN: 1.0,
    chess.KNIGHT: 3.2,
    chess.BISHOP: 3.3,
    chess.ROOK: 5.0,
    chess.QUEEN: 9.0,
    chess.KING: 0.0,
}


def _piece_key(piece_type: int, color: bool, square: int) -> int:
    """The Polyglot random number of one piece on one square."""
    return _ZOBRIST[64 * ((piece_type - 1) * 2 + int(color)) + square]


def _state_keys(board: chess.Board) -> int:
    """The castling and en passant part of the Polyglot key (both O(1))."""
    return _HASHER.hash_castling(board) ^ _HASHER.hash_ep_square(board)


class Position:
    """A chess position that search can share: the board is never changed after creation."""

    __slots__ = ("board", "key", "history", "_moves")

    def __init__(self, board: chess.Board, key: int, history: tuple[int, ...] = ()) -> None:
        self.board = board
        self.key = key
        self.history = history
        self._moves: list[chess.Move] | None = None

    @classmethod
    def from_board(cls, board: chess.Board) -> Position:
        """A position from a python-chess board (copied, without its move stack)."""
        return cls(board.copy(stack=False), chess.polyglot.zobrist_hash(board))

    def legal_moves(self) -> list[chess.Move]:
        """The legal moves, generated once and kept."""
        if self._moves is None:
            self._moves = list(self.board.legal_moves)
        return self._moves

    def repetitions(self) -> int:
        """How many times this position occurred before, since the last irreversible move."""
        return self.history.count(self.key)

    def play(self, move: chess.Move) -> Position:
        """The position after `move`, its key updated from the squares the move touches."""
        board = self.board
        key = self.key ^ _TURN ^ _state_keys(board)
        mover = board.turn
        piece_type = board.piece_type_at(move.from_square)
        if board.is_castling(move):
            key ^= self._castling_keys(move)
        else:
            key ^= _piece_key(piece_type, mover, move.from_square)
            key ^= _piece_key(move.promotion or piece_type, mover, move.to_square)
            if board.is_en_passant(move):
                taken = chess.square(
                    chess.square_file(move.to_square), chess.square_rank(move.from_square)
                )
                key ^= _piece_key(chess.PAWN, not mover, taken)
            else:
                victim = board.piece_type_at(move.to_square)
                if victim:
                    key ^= _piece_key(victim, not mover, move.to_square)
        irreversible = piece_type == chess.PAWN or board.is_capture(move)
        after = board.copy(stack=False)
        after.push(move)
        key ^= _state_keys(after)
        history = () if irreversible else (*self.history, self.key)
        return Position(after, key, history)

    def _castling_keys(self, move: chess.Move) -> int:
        """The key change of a castling move: the king and the rook each change square."""
        board = self.board
        color = board.turn
        rank = chess.square_rank(move.from_square)
        kingside = board.is_kingside_castling(move)
        king_to = chess.square(6 if kingside else 2, rank)
        rook_from = chess.square(7 if kingside else 0, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        return (
            _piece_key(chess.KING, color, move.from_square)
            ^ _piece_key(chess.KING, color, king_to)
            ^ _piece_key(chess.ROOK, color, rook_from)
            ^ _piece_key(chess.ROOK, color, rook_to)
        )


@dataclass(frozen=True)
class Weights:
    """Every weight of the evaluation, in pawns."""

    knight_centre: float = 0.08
    bishop_centre: float = 0.04
    queen_centre: float = 0.02
    pawn_advance_middle: float = 0.04
    pawn_advance_end: float = 0.10
    pawn_centre_file: float = 0.10
    rook_seventh: float = 0.20
    king_shelter_corner: float = 0.12
    king_centre_end: float = 0.10
    mobility: float = 0.03
    bishop_pair: float = 0.30
    doubled_pawn: float = 0.15
    isolated_pawn: float = 0.15
    passed_pawn_middle: float = 0.10
    passed_pawn_end: float = 0.30
    king_shield_pawn: float = 0.10
    king_open_file: float = 0.20


_PHASE = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}
_FULL_PHASE = 24
_FILES = [chess.BB_FILES[f] for f in range(8)]
_ADJACENT_FILES = [
    (_FILES[f - 1] if f > 0 else 0) | (_FILES[f + 1] if f < 7 else 0) for f in range(8)
]


def _centrality(square: int) -> float:
    """0 on the edge of the board up to 3 on the four centre squares."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    return 3.5 - max(abs(file - 3.5), abs(rank - 3.5))


def _ahead_mask(square: int, color: bool) -> int:
    """The squares in front of `square` (from `color`'s side) on its file and the two beside."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    files = _FILES[file] | _ADJACENT_FILES[file]
    ranks = 0
    for r in range(rank + 1, 8) if color == chess.WHITE else range(0, rank):
        ranks |= chess.BB_RANKS[r]
    return files & ranks


_AHEAD = {color: [_ahead_mask(s, color) for s in range(64)] for color in (chess.WHITE, chess.BLACK)}
_CENTRALITY = [_centrality(s) for s in range(64)]


def _shield_mask(square: int, color: bool) -> int:
    """The king's pawn shield: the squares ahead of it on the next two ranks, three files wide."""
    rank = chess.square_rank(square)
    near = [rank + 1, rank + 2] if color == chess.WHITE else [rank - 1, rank - 2]
    ranks = 0
    for r in near:
        if 0 <= r < 8:
            ranks |= chess.BB_RANKS[r]
    return _AHEAD[color][square] & ranks


_SHIELD = {
    color: [_shield_mask(s, color) for s in range(64)] for color in (chess.WHITE, chess.BLACK)
}


class Chess:
    """Chess as a `Game`: player 0 is White; scores in pawns, a win worth `WIN`."""

    history_dependent = True
    """Repetitions and the fifty-move rule make the outcome depend on the path to a position."""

    def __init__(self, fen: str = chess.STARTING_FEN, weights: Weights = Weights()) -> None:
        self.start = self.parse_state(fen)
        self.weights = weights

    # -- the Game protocol ----------------------------------------------------------------

    def initial_state(self) -> Position:
        return self.start

    def to_move(self, state: Position) -> Player:
        return 0 if state.board.turn == chess.WHITE else 1

    def legal_moves(self, state: Position) -> list[chess.Move]:
        return [] if self.is_terminal(state) else state.legal_moves()

    def result(self, state: Position, move: chess.Move) -> Position:
        return state.play(move)

    def is_terminal(self, state: Position) -> bool:
        board = state.board
        return (
            not state.legal_moves()
            or board.halfmove_clock >= 100
            or state.repetitions() >= 2
            or board.is_insufficient_material()
        )

    def utility(self, state: Position, player: Player) -> int:
        """`WIN` for `player` when the other side is mated, `-WIN` when mated, else 0."""
        board = state.board
        if state.legal_moves() or not board.is_check():
            return 0
        return -WIN if self.to_move(state) == player else WIN

    # -- what search uses beside the rules ------------------------------------------------

    def key(self, state: Position) -> int:
        """The Polyglot Zobrist key (equal to `chess.polyglot.zobrist_hash`)."""
        return state.key

    def path_key(self, state: Position) -> tuple[tuple[int, ...], int]:
        """What of the way to `state` its outcome depends on: the keys of the positions since
        the last capture or pawn move (repetitions) and the fifty-move counter."""
        return state.history, state.board.halfmove_clock

    def noisy_moves(self, state: Position) -> list[chess.Move]:
        """Captures and promotions by MVV-LVA; every legal move when in check."""
        board = state.board
        if board.is_check():
            return state.legal_moves()
        noisy = [m for m in state.legal_moves() if m.promotion or board.is_capture(m)]
        noisy.sort(key=lambda m: self._mvv_lva(board, m), reverse=True)
        return noisy

    def in_check(self, state: Position) -> bool:
        return state.board.is_check()

    def null_move(self, state: Position) -> Position | None:
        """The position with the turn passed, or None in check or with only king and pawns."""
        board = state.board
        mover = board.occupied_co[board.turn]
        if board.is_check() or not mover & ~(board.pawns | board.kings):
            return None
        after = board.copy(stack=False)
        after.push(chess.Move.null())
        key = state.key ^ _TURN ^ _state_keys(board) ^ _state_keys(after)
        return Position(after, key)  # no repetition across a pass

    def capture(self, state: Position, move: chess.Move) -> tuple[float, float] | None:
        """(value of the piece taken, value of the piece taking it), or None for a quiet move."""
        board = state.board
        if not board.is_capture(move):
            return None
        victim = chess.PAWN if board.is_en_passant(move) else board.piece_type_at(move.to_square)
        return PIECE_VALUES[victim], PIECE_VALUES[board.piece_type_at(move.from_square)]

    @staticmethod
    def _mvv_lva(board: chess.Board, move: chess.Move) -> float:
        victim = board.piece_type_at(move.to_square) or (
            chess.PAWN if board.is_capture(move) else 0
        )
        gain = PIECE_VALUES.get(victim, 0.0) + (
            PIECE_VALUES[move.promotion] if move.promotion else 0
        )
        return gain * 16 - PIECE_VALUES[board.piece_type_at(move.from_square)]

    def evaluate(self, state: Position, player: Player) -> float:
        """The estimated value of `state` for `player`, in pawns."""
        if self.is_terminal(state):
            return self.utility(state, player)
        white = self.white_score(state.board)
        return white if player == 0 else -white

    def white_score(self, board: chess.Board) -> float:
        """The evaluation from White's point of view, in pawns."""
        phase = min(_FULL_PHASE, sum(
            weight * chess.popcount(board.pieces_mask(piece, color))
            for piece, weight in _PHASE.items() for color in (chess.WHITE, chess.BLACK)
        ))  # fmt: skip
        middle = end = 0.0
        for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
            side_middle, side_end = self._side_terms(board, color)
            middle += sign * side_middle
            end += sign * side_end
        return (middle * phase + end * (_FULL_PHASE - phase)) / _FULL_PHASE

    def _side_terms(self, board: chess.Board, color: bool) -> tuple[float, float]:
        """(middle game, endgame) score of `color`'s pieces, in pawns."""
        w = self.weights
        own = board.occupied_co[color]
        middle = end = 0.0
        for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            centre_weight = {chess.KNIGHT: w.knight_centre, chess.BISHOP: w.bishop_centre,
                             chess.QUEEN: w.queen_centre}.get(piece_type, 0.0)  # fmt: skip
            for square in chess.scan_forward(board.pieces_mask(piece_type, color)):
                value = PIECE_VALUES[piece_type]
                value += w.mobility * chess.popcount(board.attacks_mask(square) & ~own)
                value += centre_weight * (_CENTRALITY[square] - 1.5)
                if piece_type == chess.ROOK and chess.square_rank(square) == (6 if color else 1):
                    value += w.rook_seventh
                middle += value
                end += value
        if chess.popcount(board.pieces_mask(chess.BISHOP, color)) >= 2:
            middle += w.bishop_pair
            end += w.bishop_pair
        pawn_middle, pawn_end = self._pawn_terms(board, color)
        king_middle, king_end = self._king_terms(board, color)
        return middle + pawn_middle + king_middle, end + pawn_end + king_end

    def _pawn_terms(self, board: chess.Board, color: bool) -> tuple[float, float]:
        w = self.weights
        pawns = board.pieces_mask(chess.PAWN, color)
        enemy_pawns = board.pieces_mask(chess.PAWN, not color)
        middle = end = 0.0
        for file in range(8):
            count = chess.popcount(pawns & _FILES[file])
            if count > 1:
                middle -= w.doubled_pawn * (count - 1)
                end -= w.doubled_pawn * (count - 1)
            if count and not pawns & _ADJACENT_FILES[file]:
                middle -= w.isolated_pawn * count
                end -= w.isolated_pawn * count
        for square in chess.scan_forward(pawns):
            advance = chess.square_rank(square) if color else 7 - chess.square_rank(square)
            file = chess.square_file(square)
            middle += 1.0 + w.pawn_advance_middle * (advance - 1)
            middle += w.pawn_centre_file if file in (3, 4) else 0.0
            end += 1.0 + w.pawn_advance_end * (advance - 1)
            if not _AHEAD[color][square] & enemy_pawns:
                middle += w.passed_pawn_middle * advance
                end += w.passed_pawn_end * advance
        return middle, end

    def _king_terms(self, board: chess.Board, color: bool) -> tuple[float, float]:
        w = self.weights
        king = board.king(color)
        if king is None:
            return 0.0, 0.0
        file = chess.square_file(king)
        home = chess.square_rank(king) == (0 if color else 7)
        middle = w.king_shelter_corner * (home and file in (0, 1, 2, 6, 7))
        pawns = board.pieces_mask(chess.PAWN, color)
        middle += w.king_shield_pawn * chess.popcount(_SHIELD[color][king] & pawns)
        for f in range(max(0, file - 1), min(7, file + 1) + 1):
            if not pawns & _FILES[f]:
                middle -= w.king_open_file
        end = w.king_centre_end * (_CENTRALITY[king] - 1.5)
        return middle, end

    # -- text ----------------------------------------------------------------------------

    def parse_state(self, text: str) -> Position:
        """A position from FEN, or `startpos`; ValueError with the reason when malformed."""
        fen = chess.STARTING_FEN if text.strip() in ("", "startpos") else text.strip()
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"bad FEN {text!r}: {error}") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            raise ValueError(f"bad FEN {text!r}: {status!r}")
        return Position.from_board(board)

    def parse_move(self, state: Position, text: str) -> chess.Move:
        """The legal move `text` names, in SAN (`Nf3`) or UCI (`g1f3`)."""
        board = state.board
        text = text.strip()
        try:
            return board.parse_san(text)
        except chess.AmbiguousMoveError:
            raise ValueError(f"{text} is ambiguous: add the piece's file or rank (Nbd2)") from None
        except chess.IllegalMoveError:
            if not _UCI_SHAPE.fullmatch(text):  # a well-formed SAN move, not possible here
                raise ValueError(f"{text} is not legal here") from None
        except ValueError:
            pass  # not SAN: perhaps UCI
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a move: write it as Nf3 or g1f3") from None
        if move not in state.legal_moves():
            raise ValueError(f"{text} is not legal here")
        return move

    def format_move(self, state: Position, move: chess.Move) -> str:
        return state.board.san(move)

    def render(self, state: Position) -> str:
        return str(state.board)
