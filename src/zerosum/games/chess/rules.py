"""Chess, on python-chess's rules, with what a search needs beside the rules.

- `Position`: an immutable snapshot (a python-chess `Board` that is never changed once made),
  its Polyglot Zobrist `key` kept up to date move by move (recomputing python-chess's
  `zobrist_hash` at every node costs several times a move), and the keys of the earlier
  positions since the last capture or pawn move, for draws by repetition.
- `Chess`: the `Game`. Player 0 is White. Utilities are `WIN` (in pawns, beyond any
  evaluation) for the side that mates, `-WIN` for the side mated, 0 for every draw: stalemate,
  insufficient material, the fifty-move rule and threefold repetition.
- `evaluate`: material and piece-square terms tapered between middle game and endgame,
  mobility, pawn structure and king safety, in pawns (`zerosum.games.chess.evaluation`).
- `noisy_moves`: captures and promotions by MVV-LVA; every legal move when in check, so that a
  quiescence search never stands pat in check and never misses a mate by check evasion.
- `capture`: (victim, attacker) values for MVV-LVA ordering in the engine.
- `in_check` and `null_move`: for check extensions, and for null-move pruning (no null move in
  check or with only king and pawns, where zugzwang is common).

Moves are python-chess `Move` objects; as text they are read in SAN (`Nf3`) or UCI (`g1f3`) and
written in SAN. Positions are read from FEN (or `startpos`).

What a search repeats at every node is done here rather than by python-chess's general code
(the values are the same, tests compare them): `play` copies the board's fields and moves the
pieces itself, without the move stack that `push` keeps for `pop`; the end of the game needs
one legal move, quiescence only the captures and promotions, generated alone; the evaluation
adds up tables built once from its `Weights` and keeps the pawn and king terms in a pawn hash
table.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

import chess
import chess.polyglot

from zerosum.game import Player
from zerosum.games.chess.evaluation import Evaluation, Weights
from zerosum.limits import clipped

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


_ROOK_HOMES = ((chess.BB_H1, 768), (chess.BB_A1, 769), (chess.BB_H8, 770), (chess.BB_A8, 771))
"""Each castling right, as its rook's home square, with its Polyglot random number's index."""


def _castling_key(rights: int) -> int:
    """The castling part of the Polyglot key for clean castling rights (a bitboard of rooks)."""
    key = 0
    for square, index in _ROOK_HOMES:
        if rights & square:
            key ^= _ZOBRIST[index]
    return key


_CORNERS = chess.BB_H1 | chess.BB_A1 | chess.BB_H8 | chess.BB_A8
_CASTLING_KEYS = {
    sum(rooks): _castling_key(sum(rooks))
    for rooks in itertools.product(*((0, square) for square, _ in _ROOK_HOMES))
}

_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}


def _state_keys(board: chess.Board) -> int:
    """The castling and en passant part of the Polyglot key (castling rights kept clean)."""
    key = _CASTLING_KEYS[board.castling_rights & _CORNERS]
    return key ^ _HASHER.hash_ep_square(board) if board.ep_square else key


class Position:
    """A chess position that search can share: the board is never changed after creation."""

    __slots__ = ("board", "key", "history", "_moves", "_movable")

    def __init__(self, board: chess.Board, key: int, history: tuple[int, ...] = ()) -> None:
        self.board = board
        self.key = key
        self.history = history
        self._moves: list[chess.Move] | None = None
        self._movable: bool | None = None

    @classmethod
    def from_board(cls, board: chess.Board) -> Position:
        """A position from a python-chess board (copied, without its move stack)."""
        board = board.copy(stack=False)
        board.castling_rights = board.clean_castling_rights()  # as `play` keeps them
        return cls(board, chess.polyglot.zobrist_hash(board))

    def legal_moves(self) -> list[chess.Move]:
        """The legal moves, generated once and kept."""
        if self._moves is None:
            self._moves = list(self.board.legal_moves)
        return self._moves

    def has_legal_moves(self) -> bool:
        """Whether the side to move can move: the first legal move found is enough."""
        if self._movable is None:
            if self._moves is not None:
                self._movable = bool(self._moves)
            else:
                self._movable = next(self.board.generate_legal_moves(), None) is not None
        return self._movable

    def captures_and_promotions(self) -> list[chess.Move]:
        """The legal captures and promotions, in the order of `legal_moves`, generated alone
        (moves to the other side's pieces, the last rank and the en passant square)."""
        board = self.board
        if self._moves is not None:
            moves: Iterable[chess.Move] = self._moves
        else:
            targets = board.occupied_co[not board.turn] | _LAST_RANK[board.turn]
            if board.ep_square:
                targets |= chess.BB_SQUARES[board.ep_square]
            moves = board.generate_legal_moves(chess.BB_ALL, targets)
        return [move for move in moves if move.promotion or board.is_capture(move)]

    def repetitions(self) -> int:
        """How many times this position occurred before, since the last irreversible move."""
        return self.history.count(self.key)

    def play(self, move: chess.Move) -> Position:
        """The position after `move` (legal here), its key updated from the squares the move
        touches: python-chess's `push` without the move stack it keeps for `pop`."""
        board = self.board
        mover = board.turn
        origin, target = move.from_square, move.to_square
        piece_type = _piece_on(board, origin)
        after = _bare_copy(board)
        key = self.key ^ _TURN ^ _state_keys(board)
        victim = None
        lifted = chess.BB_SQUARES[origin] | chess.BB_SQUARES[target]  # squares left empty
        if piece_type == chess.KING and board.is_castling(move):
            rook_from, rook_to = _CASTLING_ROOKS[target]
            key ^= _move_piece(after, chess.KING, mover, origin, target)
            key ^= _move_piece(after, chess.ROOK, mover, rook_from, rook_to)
            lifted |= chess.BB_SQUARES[rook_from] | chess.BB_SQUARES[rook_to]
        else:
            if piece_type == chess.PAWN and board.is_en_passant(move):
                taken = chess.square(chess.square_file(target), chess.square_rank(origin))
                key ^= _toggle(after, chess.PAWN, not mover, taken)
                lifted |= chess.BB_SQUARES[taken]
            else:
                victim = board.piece_type_at(target)
                if victim:
                    key ^= _toggle(after, victim, not mover, target)
            key ^= _toggle(after, piece_type, mover, origin)
            key ^= _toggle(after, move.promotion or piece_type, mover, target)
        after.occupied = after.occupied_co[chess.WHITE] | after.occupied_co[chess.BLACK]
        if board.promoted or move.promotion:  # where a promoted piece stands (for python-chess)
            moved = move.promotion or board.promoted & chess.BB_SQUARES[origin]
            after.promoted = board.promoted & ~lifted | (chess.BB_SQUARES[target] if moved else 0)
        after.turn = not mover
        rights = board.castling_rights & ~chess.BB_SQUARES[origin] & ~chess.BB_SQUARES[target]
        after.castling_rights = rights & ~_BACK_RANK[mover] if piece_type == chess.KING else rights
        double_step = piece_type == chess.PAWN and abs(target - origin) == 16
        after.ep_square = (origin + target) // 2 if double_step else None
        irreversible = piece_type == chess.PAWN or victim
        after.halfmove_clock = 0 if irreversible else board.halfmove_clock + 1
        after.fullmove_number = board.fullmove_number + (mover == chess.BLACK)
        key ^= _state_keys(after)
        history = () if irreversible else (*self.history, self.key)
        return Position(after, key, history)


_BITBOARDS = ("", "pawns", "knights", "bishops", "rooks", "queens", "kings")
"""The name of each piece type's bitboard in a python-chess board."""

_CASTLING_ROOKS = {
    chess.G1: (chess.H1, chess.F1),
    chess.C1: (chess.A1, chess.D1),
    chess.G8: (chess.H8, chess.F8),
    chess.C8: (chess.A8, chess.D8),
}
"""The rook's move of each castling move, by the king's target square."""

_BACK_RANK = {chess.WHITE: chess.BB_RANK_1, chess.BLACK: chess.BB_RANK_8}


def _bare_copy(board: chess.Board) -> chess.Board:
    """A copy of `board` without its move stack, made by copying its fields (python-chess's
    `copy` builds an empty board first: three times slower)."""
    copy = object.__new__(type(board))
    copy.__dict__.update(board.__dict__)
    copy.occupied_co = board.occupied_co.copy()
    copy.move_stack = []
    copy._stack = []
    return copy


def _piece_on(board: chess.Board, square: int) -> int:
    """The type of the piece on `square`; ValueError when the square is empty (a move from it
    is not legal)."""
    piece_type = board.piece_type_at(square)
    if piece_type is None:
        raise ValueError(f"no piece on {chess.square_name(square)}")
    return piece_type


def _least_valuable(board: chess.Board, attackers: int) -> int | None:
    """The square of the least valuable of `attackers` (by type, pawn first, king last; of two
    alike the lower square), None when there is none."""
    for piece_type in chess.PIECE_TYPES:
        found = attackers & getattr(board, _BITBOARDS[piece_type])
        if found:
            return chess.lsb(found)
    return None


def _toggle(board: chess.Board, piece_type: int, color: bool, square: int) -> int:
    """Put a piece on an empty `square` or take it off; its Polyglot random number (for the
    key). `occupied` is left for the caller to set."""
    bit = chess.BB_SQUARES[square]
    name = _BITBOARDS[piece_type]
    setattr(board, name, getattr(board, name) ^ bit)
    board.occupied_co[color] ^= bit
    return _piece_key(piece_type, color, square)


def _move_piece(board: chess.Board, piece_type: int, color: bool, origin: int, target: int) -> int:
    """Move a piece to an empty square; the change of the Polyglot key."""
    return _toggle(board, piece_type, color, origin) ^ _toggle(board, piece_type, color, target)


class Chess:
    """Chess as a `Game`: player 0 is White; scores in pawns, a win worth `WIN`."""

    player_names = ("White", "Black")
    compiled_rules = "zerosum.games.compiled_chess:chess_rules"
    """The same rules compiled with numba, named (`zerosum.compiled.protocol.compiled_twin`
    loads them): the compiled twin imports this game, never the reverse."""

    history_dependent = True
    """Repetitions and the fifty-move rule make the outcome depend on the path to a position."""

    def __init__(self, fen: str = chess.STARTING_FEN, weights: Weights | None = None) -> None:
        """Chess from `fen` (the standard start by default), evaluated with `weights`
        (`Weights()` by default)."""
        self.start = self.parse_state(fen)
        self.weights = weights if weights is not None else Weights()
        self._evaluation = Evaluation(self.weights)

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
            board.halfmove_clock >= 100
            or state.repetitions() >= 2
            or not state.has_legal_moves()
            or (
                not board.pawns | board.rooks | board.queens  # else python-chess's answer is no
                and board.is_insufficient_material()
            )
        )

    def utility(self, state: Position, player: Player) -> int:
        """`WIN` for `player` when the other side is mated, `-WIN` when mated, else 0."""
        board = state.board
        if state.has_legal_moves() or not board.is_check():
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
        noisy = state.captures_and_promotions()
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
        if board.occupied_co[not board.turn] & chess.BB_SQUARES[move.to_square]:
            victim = _piece_on(board, move.to_square)
        elif board.is_en_passant(move):
            victim = chess.PAWN
        else:
            return None
        return PIECE_VALUES[victim], PIECE_VALUES[_piece_on(board, move.from_square)]

    def exchange(self, state: Position, move: chess.Move) -> float:
        """What the capture or promotion `move` wins for the side making it, in pawns, once
        every capture on its square is played out (static exchange evaluation); 0 for a quiet
        move.

        The swap list: each side in turn takes on the square with its least valuable attacker
        (pawn, knight, bishop, rook, queen, then king; of two alike the one on the lower
        square), the pieces behind it attacking through the square it left (x-rays); a king
        takes only where no attacker of the other side is left; a pawn taking on the last rank
        becomes a queen. Gains are counted from the first capture on, and from the last one
        back each side keeps the better of stopping and going on. Pins are not looked at."""
        board = state.board
        target = move.to_square
        occupied = board.occupied ^ chess.BB_SQUARES[move.from_square]
        if board.is_en_passant(move):
            victim: int | None = chess.PAWN
            passed = chess.square(chess.square_file(target), chess.square_rank(move.from_square))
            occupied ^= chess.BB_SQUARES[passed]
        elif board.occupied_co[not board.turn] & chess.BB_SQUARES[target]:
            victim = board.piece_type_at(target)
        elif move.promotion:
            victim = None
        else:
            return 0.0
        gains = [PIECE_VALUES[victim] if victim else 0.0]
        if move.promotion:
            gains[0] += PIECE_VALUES[move.promotion] - PIECE_VALUES[chess.PAWN]
        standing = move.promotion or _piece_on(board, move.from_square)  # the piece on target
        side = not board.turn
        last_rank = chess.square_rank(target) in (0, 7)
        while True:
            square = _least_valuable(board, board.attackers_mask(side, target, occupied) & occupied)
            if square is None:
                break
            piece = _piece_on(board, square)
            left = occupied ^ chess.BB_SQUARES[square]
            if piece == chess.KING and board.attackers_mask(not side, target, left) & left:
                break  # the king may not take into check
            value = PIECE_VALUES[standing]
            standing = piece
            if piece == chess.PAWN and last_rank:
                value += PIECE_VALUES[chess.QUEEN] - PIECE_VALUES[chess.PAWN]
                standing = chess.QUEEN
            gains.append(value - gains[-1])
            occupied = left
            side = not side
        while len(gains) > 1:
            last = gains.pop()
            gains[-1] = -max(-gains[-1], last)
        return gains[0]

    @staticmethod
    def _mvv_lva(board: chess.Board, move: chess.Move) -> float:
        victim = board.piece_type_at(move.to_square) or (
            chess.PAWN if board.is_capture(move) else 0
        )
        gain = PIECE_VALUES.get(victim, 0.0) + (
            PIECE_VALUES[move.promotion] if move.promotion else 0
        )
        return gain * 16 - PIECE_VALUES[_piece_on(board, move.from_square)]

    def evaluate(self, state: Position, player: Player) -> float:
        """The estimated value of `state` for `player`, in pawns (`zerosum.games.chess.evaluation`
        says what it counts)."""
        if self.is_terminal(state):
            return self.utility(state, player)
        white = self.white_score(state.board)
        return white if player == 0 else -white

    def white_score(self, board: chess.Board) -> float:
        """The evaluation from White's point of view, in pawns."""
        return self._evaluation.white_score(board) / 100

    # -- text ----------------------------------------------------------------------------

    def parse_state(self, text: str) -> Position:
        """A position from FEN, or `startpos`; ValueError with the reason when malformed."""
        fen = chess.STARTING_FEN if text.strip() in ("", "startpos") else text.strip()
        if len(fen) > LONGEST_FEN:
            raise ValueError(
                f"bad FEN {clipped(fen)}: longer than any position's ({LONGEST_FEN} characters)"
            )
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise ValueError(f"bad FEN {clipped(fen)}: {error}") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            raise ValueError(f"bad FEN {clipped(fen)}: {status_text(status)}")
        if board.halfmove_clock > LONGEST_CLOCK:
            raise ValueError(
                f"bad FEN {clipped(fen)}: a halfmove clock over {LONGEST_CLOCK}"
                " (the seventy-five-move rule ends every game by then)"
            )
        if board.fullmove_number > LAST_MOVE_NUMBER:
            raise ValueError(
                f"bad FEN {clipped(fen)}: a move number over {LAST_MOVE_NUMBER:,}"
                " (longer than any game under the seventy-five-move rule)"
            )
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


LONGEST_FEN = 128
"""More characters than any FEN has (64 squares, a side, castling, en passant, two counters of
python-chess's limits: about 90)."""

LONGEST_CLOCK = 150
"""The highest halfmove clock a position can have: FIDE's seventy-five-move rule ends the game
there (this game ends at 100, the fifty-move rule; a position beyond is over)."""

LAST_MOVE_NUMBER = 10_000
"""More than the move number of any game's position: a game has at most 126 captures and pawn
moves (16 pawns of 6 steps, 30 pieces to take) and at most 150 plies before each and after the
last (the seventy-five-move rule), 19,176 plies in all."""

STATUS_WORDS = {
    chess.STATUS_NO_WHITE_KING: "no white king",
    chess.STATUS_NO_BLACK_KING: "no black king",
    chess.STATUS_TOO_MANY_KINGS: "too many kings",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "more than 8 white pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "more than 8 black pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "pawns on the first or last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "more than 16 white pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "more than 16 black pieces",
    chess.STATUS_BAD_CASTLING_RIGHTS: "castling rights without the king and rook at home",
    chess.STATUS_INVALID_EP_SQUARE: "an en passant square no pawn can have passed",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_EMPTY: "an empty board",
    chess.STATUS_TOO_MANY_CHECKERS: "check by more than two pieces",
    chess.STATUS_IMPOSSIBLE_CHECK: "a check no last move can have given",
}
"""Why python-chess finds a position invalid, in words."""


def status_text(status: chess.Status) -> str:
    """A board's invalid `status` in words: its reasons joined by commas."""
    reasons = [words for flag, words in STATUS_WORDS.items() if status & flag]
    return ", ".join(reasons) or f"an invalid position (python-chess status {int(status)})"
