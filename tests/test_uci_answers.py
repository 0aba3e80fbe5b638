"""The UCI engine answers every input: every `go` with one legal `bestmove` whatever its limits,
a refused option value with an `info string` that leaves the option as it was, any line with at
most a bounded `info string`; and the conversation goes on to `quit`."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import tracemalloc

import chess
import pytest
from oracles import oracle_path

from zerosum.cli import uci
from zerosum.cli.uci import (
    LEAST_TIME,
    LONGEST_LINE,
    MOST_DEPTH,
    MOST_HASH_MB,
    UciSession,
    read_go,
    serve,
    think_time,
    whole_number,
)

START = chess.Board()
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"  # fool's mate
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
KRVK = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"

LONGEST_ANSWER = 500
"""The most characters an `info string` takes, whatever the input it answers (400 of message,
cut in the middle)."""

HANG = 600
"""Seconds a `zerosum uci` process may take: each conversation here takes seconds, so only a
hang reaches this."""


class Conversation:
    """A `UciSession` in this process: what it said, and what its searches raised in their
    threads (nothing, ever)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.session = UciSession(self.lines.append)

    def __call__(self, *commands: str, settle: bool = False) -> list[str]:
        """What the session says to `commands`, its search ended (`stop`) at the end, or with
        `settle`, once it has ended by itself."""
        start = len(self.lines)
        for command in commands:
            assert self.session.handle(command)
        if settle and self.session.worker is not None:
            self.session.worker.join(HANG)
        self.session.stop()
        return self.lines[start:]


@pytest.fixture
def talk(monkeypatch):
    """A conversation; a test fails if a thread of it ends with an exception."""
    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda hook: raised.append(hook.exc_value))
    conversation = Conversation()
    yield conversation
    conversation.session.handle("quit")
    assert raised == []


def best_moves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def notes(lines: list[str]) -> list[str]:
    return [line.removeprefix("info string ") for line in lines if line.startswith("info string")]


def assert_one_legal_answer(lines: list[str], board: chess.Board = START) -> chess.Move:
    """The one `bestmove` of `lines`, the last line, a legal move of `board`."""
    (move,) = best_moves(lines)
    assert lines[-1] == f"bestmove {move}"
    played = chess.Move.from_uci(move)
    assert played in board.legal_moves
    return played


# -- go: any limits --------------------------------------------------------------------------

NINES = "9" * 5000

BUDGETS = [
    ("depth 0", "depth 0 is less than 1: taken as 1"),
    ("depth -5", "depth -5 is less than 1: taken as 1"),
    ("nodes 0", "nodes 0 is less than 1: taken as 1"),
    ("nodes -3", "nodes -3 is less than 1: taken as 1"),
    (
        "depth 99999999999999999999",
        "depth 99999999999999999999 is over the limit of 100: taken as 100",
    ),
    (f"depth {NINES}", "depth (a number of 5,000 digits) is over the limit of 100: taken as 100"),
    (f"nodes -{NINES}", "nodes -(a number of 5,000 digits) is less than 1: taken as 1"),
    ("movetime -1", "movetime -1 is less than 0: taken as 0"),
    ("wtime -100 btime -100", "wtime -100 is less than 0: taken as 0"),
    ("wtime 1000 winc -5000", "winc -5000 is less than 0: taken as 0"),
    ("wtime 1000 movestogo 0", "movestogo 0 is less than 1: taken as 1"),
    ("mate 0", "mate 0 is less than 1: taken as 1"),
    ("mate 1000", "mate 1000 is over the limit of 50: taken as 50"),
    ("depth x", "depth 'x' is not a whole number: taken as 1"),
    ("depth 1.5", "depth '1.5' is not a whole number: taken as 1"),
    ("depth 1e3", "depth '1e3' is not a whole number: taken as 1"),
    ("depth ٣", "depth '٣' is not a whole number: taken as 1"),  # an Arabic-Indic 3
    ("nodes 10**30", "nodes '10**30' is not a whole number: taken as 1"),
    ("depth", "depth has no value: taken as 1"),
    ("depth nodes 50", "depth has no value: taken as 1"),
    ("banana 3 depth 1", "go skipped 'banana' and 1 more: not a word of go"),
    ("ponder depth 1", "go skipped 'ponder': not a word of go"),
    ("searchmoves e2e4 d2d4 depth 1", "searchmoves is not supported: every move is searched"),
]


@pytest.mark.parametrize(("limits", "note"), BUDGETS)
def test_go_with_any_limits_says_what_it_changed_and_answers_one_legal_move(talk, limits, note):
    lines = talk(f"go {limits}")
    assert notes(lines)[0] == note
    assert_one_legal_answer(lines)


def test_go_limits_are_brought_within_their_least_and_most():
    assert read_go(["depth", "0", "nodes", "-3", "movetime", "-1"]).limits == {
        "depth": 1,
        "nodes": 1,
        "movetime": 0,
    }
    assert read_go(["depth", "99999999999999999999"]).limits == {"depth": MOST_DEPTH}
    assert read_go(["nodes", NINES]).limits == {"nodes": 10**18}  # no budget, in effect
    assert read_go(["wtime", "-100", "winc", "-5", "movestogo", "0"]).limits == {
        "wtime": 0,
        "winc": 0,
        "movestogo": 1,
    }
    assert read_go(["infinite"]).infinite


def test_a_mate_in_n_is_searched_2n_minus_1_plies_at_most():
    assert read_go(["mate", "3"]).limits == {"depth": 5}
    assert read_go(["depth", "3", "mate", "5"]).limits == {"depth": 3}
    assert read_go(["mate", "50"]).limits == {"depth": MOST_DEPTH - 1}


def test_the_last_of_a_repeated_limit_stands_with_its_note():
    assert read_go(["depth", "x", "depth", "3"]) == uci.Go({"depth": 3}, False, ())
    assert read_go(["depth", "3", "depth", "0"]).notes == ("depth 0 is less than 1: taken as 1",)


def test_limits_within_range_are_taken_as_they_are_without_a_note():
    words = "wtime 60000 btime 50000 winc 1000 binc 1000 movestogo 20 depth 7"
    asked = read_go(words.split(" "))
    assert asked.notes == ()
    assert asked.limits == {
        "wtime": 60000,
        "btime": 50000,
        "winc": 1000,
        "binc": 1000,
        "movestogo": 20,
        "depth": 7,
    }


def test_whole_numbers_are_ascii_digits_with_a_sign():
    assert [whole_number(text) for text in ("12", "+12", "-12", "007")] == [12, 12, -12, 7]
    assert [whole_number(text) for text in ("", "1.0", "1e3", "0x10", "１２", "- 1")] == [None] * 6
    assert whole_number("-" + NINES) == -(10**18)


def test_a_clock_below_zero_is_the_least_time():
    assert think_time({"wtime": -100, "btime": -100}, white=True) == LEAST_TIME
    assert think_time({"movetime": -1}, white=True) == LEAST_TIME
    assert think_time({"wtime": 1000, "winc": -(10**18)}, white=True) == LEAST_TIME


def test_a_huge_movetime_is_no_budget_and_stop_still_answers(talk):
    lines = talk(f"go movetime {NINES}")
    assert notes(lines) == []
    assert_one_legal_answer(lines)


def test_every_go_gets_one_answer_even_when_the_next_go_comes_first(talk):
    lines = talk("go infinite", "go depth 99", "go nodes 0", "go movetime 5", "go")
    assert len(best_moves(lines)) == 5
    assert all(chess.Move.from_uci(move) in START.legal_moves for move in best_moves(lines))


@pytest.mark.parametrize("fen", [MATED, STALEMATE])
@pytest.mark.parametrize("limits", ["depth 3", "depth 0", "nodes -3", "movetime 10", "infinite"])
def test_go_in_a_finished_game_answers_the_null_move(talk, fen, limits):
    lines = talk(f"position fen {fen}", f"go {limits}")
    assert best_moves(lines) == ["0000"]
    assert lines[-1] == "bestmove 0000"


def test_go_where_the_rules_end_the_game_but_moves_remain_plays_one(talk):
    bare_kings = "8/8/8/8/8/4k3/8/4K3 w - - 0 1"  # a draw by the rules, kings can still move
    lines = talk("go infinite", "stop", f"position fen {bare_kings}", "go depth 3")
    assert notes(lines) == []
    assert best_moves(lines)[1] in {move.uci() for move in chess.Board(bare_kings).legal_moves}


def test_go_before_any_position_plays_from_the_start(talk):
    assert_one_legal_answer(talk("go depth 1"))


def test_go_after_a_refused_position_plays_from_the_last_one_accepted(talk):
    talk("position fen " + KRVK)
    lines = talk("position fen 8/8/8 w - - 0 1", "go depth 1")
    assert notes(lines)[0].startswith("ignored 'position fen 8/8/8 w - - 0 1': bad FEN")
    assert_one_legal_answer(lines, chess.Board(KRVK))


def test_a_search_that_fails_says_why_and_still_plays_a_legal_move(talk, monkeypatch):
    def fail(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(talk.session.engine, "search", fail)
    lines = talk("go depth 5")
    first = next(iter(START.legal_moves)).uci()  # python-chess's order, the session's too
    assert notes(lines) == [
        f"search failed (RecursionError: maximum recursion depth exceeded): playing {first}"
    ]
    assert_one_legal_answer(lines)


def test_a_search_that_fails_late_plays_the_best_move_it_had_found(talk, monkeypatch):
    engine = talk.session.engine
    search = engine.search

    def fail_after_two_plies(position, **limits):
        search(position, depth=2, on_iteration=limits["on_iteration"])
        raise MemoryError("no more")

    monkeypatch.setattr(engine, "search", fail_after_two_plies)
    lines = talk("position fen " + KRVK, "go depth 9", settle=True)
    last = [line for line in lines if line.startswith("info depth 2 ")][-1]
    best = last.split(" pv ")[1].split()[0]
    assert notes(lines) == [f"search failed (MemoryError: no more): playing {best}"]
    assert best_moves(lines) == [best]


def test_go_without_a_thread_to_search_in_answers_at_once(talk, monkeypatch):
    def no_thread(thread):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_thread)
    lines = talk("go infinite")
    assert (
        notes(lines)[0] == "no thread for the search (can't start new thread): searching to depth 1"
    )
    assert_one_legal_answer(lines)


# -- setoption: a value refused leaves the option as it was -----------------------------------


@pytest.mark.parametrize("value", ["-5", "0", "abc", "10**30", "1e3", "", "4097", NINES])
def test_a_hash_value_out_of_range_is_refused_and_hash_stays(talk, value):
    (line,) = talk(f"setoption name Hash value {value}")
    assert line.startswith("info string ignored 'setoption name Hash value")
    refusal = f"Hash is a whole number of megabytes from 1 to 4,096, not {uci.clipped(value)}"
    assert line.endswith(f": {refusal}; Hash stays 256")
    assert len(line) <= LONGEST_ANSWER
    assert talk.session.options.hash_mb == 256


def test_a_hash_this_machine_cannot_hold_is_refused_and_later_options_are_set(talk, monkeypatch):
    monkeypatch.setattr("zerosum.search.table.physical_memory", lambda: 1 << 30)
    table = talk.session.engine.table
    (line,) = talk("setoption name Hash value 2048")
    assert line.endswith(
        "a table of 2048 MB does not fit in this machine's memory (1024 MB); Hash stays 256"
    )
    assert talk.session.engine.table is table
    syzygy = oracle_path("chess", "syzygy")
    lines = talk(
        f"setoption name SyzygyPath value {syzygy}",
        "setoption name OwnBook value true",
        "setoption name Hash value 64",
    )
    assert lines == []
    assert talk.session.options.hash_mb == 64
    assert talk.session.engine.settings.table_mb == 64
    assert talk.session.syzygy is not None  # the new engine's root move comes from the tables
    answer = talk("position fen " + KRVK, "go depth 1")
    assert_one_legal_answer(answer, chess.Board(KRVK))
    assert any(line.startswith("info string syzygy move") for line in answer)


def test_hash_at_its_limits_is_taken(talk):
    assert talk(f"setoption name Hash value {MOST_HASH_MB}", "setoption name Hash value 1") == []
    assert talk.session.options.hash_mb == 1


def test_the_option_names_and_values_are_read_as_the_protocol_writes_them(talk):
    assert talk("setoption name hash value 32", "setoption name OWNBOOK value TRUE") == []
    assert talk.session.options.hash_mb == 32 and talk.session.options.own_book
    assert talk("setoption name OwnBook value false") == []
    assert not talk.session.options.own_book


def test_ownbook_is_true_or_false(talk):
    assert talk("setoption name OwnBook value maybe") == [
        "info string ignored 'setoption name OwnBook value maybe': OwnBook is true or false,"
        " not 'maybe'; OwnBook stays false"
    ]


@pytest.mark.parametrize(
    "command",
    ["setoption", "setoption name", "setoption value 3", "setoption Hash value 3",
     "setoption name value 3"],
)  # fmt: skip
def test_a_malformed_setoption_says_its_form(talk, command):
    assert talk(command) == [
        f"info string ignored {command!r}: expected setoption name NAME [value VALUE]"
    ]


def test_an_unknown_option_is_refused_by_name(talk):
    assert talk("setoption name Threads value 4") == [
        "info string ignored 'setoption name Threads value 4': no option 'threads'"
    ]


def test_a_book_that_cannot_be_read_is_refused_and_the_book_in_use_stays(talk, tmp_path):
    book = oracle_path("chess", "polyglot", "performance-start.bin")
    empty, odd = tmp_path / "empty.bin", tmp_path / "odd.bin"
    empty.write_bytes(b"")
    odd.write_bytes(b"\x00" * 17)
    assert talk(f"setoption name BookFile value {book}") == []
    refusals = {
        "/no/such/book.bin": "BookFile '/no/such/book.bin' is not a file",
        str(tmp_path): f"BookFile '{tmp_path}' is not a file",
        str(empty): f"BookFile '{empty}' holds no moves",
        str(odd): f"BookFile '{odd}' unreadable: not a Polyglot book (its size is not a"
        " multiple of 16 bytes)",
        "a\x00b": "BookFile 'a\\x00b' is not a file",
    }
    for path, reason in refusals.items():
        (line,) = talk(f"setoption name BookFile value {path}")
        assert line.endswith(f": {reason}; BookFile stays '{book}'"), line
    assert talk.session.options.book_file == str(book)
    talk("setoption name OwnBook value true")
    lines = talk("go depth 1")
    assert notes(lines)[0] == f"book move {best_moves(lines)[0]}"


def test_a_syzygy_path_without_tables_is_refused_and_the_tables_in_use_stay(talk, tmp_path):
    syzygy = oracle_path("chess", "syzygy")
    assert talk(f"setoption name SyzygyPath value {syzygy}") == []
    tables = talk.session.syzygy
    for path in ("/no/such/folder", str(tmp_path), str(syzygy / "KRvK.rtbw"), "a\x00b"):
        (line,) = talk(f"setoption name SyzygyPath value {path}")
        assert line.startswith("info string ignored 'setoption name SyzygyPath value ")
        assert line.endswith(f"; SyzygyPath stays '{syzygy}'"), line
    assert talk.session.syzygy is tables and talk.session.options.syzygy_path == str(syzygy)
    lines = talk("position fen " + KRVK, "go depth 1")
    assert notes(lines)[0].startswith(f"syzygy move {best_moves(lines)[0]} wdl 2")


def test_an_empty_value_turns_the_book_and_the_tables_off(talk):
    syzygy = oracle_path("chess", "syzygy")
    book = oracle_path("chess", "polyglot", "performance-start.bin")
    talk(f"setoption name SyzygyPath value {syzygy}", f"setoption name BookFile value {book}")
    assert talk("setoption name SyzygyPath value <empty>", "setoption name BookFile value") == []
    assert talk.session.syzygy is None and talk.session.options.book_file == ""


# -- any line ---------------------------------------------------------------------------------

GARBAGE = [
    "\x00\x00\x00",
    "go\x00 depth 1",
    "\ufffd\ufffd isready\x00",
    "position fen " + "\x00" * 1000,
    "position startpos moves " + "e2e4\x00 " * 1000,
    "setoption name " + "x" * 10**6 + " value 1",
    "position fen " + "8/" * 10**6,
    "𝕘𝕠 𝕕𝕖𝕡𝕥𝕙 𝟙",
    "\r\n\t\x0b\x0c",
    "position",
]


@pytest.mark.parametrize("line", GARBAGE, ids=range(len(GARBAGE)))
def test_any_line_gets_at_most_a_bounded_info_string(talk, line):
    lines = talk(line)
    assert len(lines) <= 1
    assert all(answer.startswith("info string ") for answer in lines)
    assert all(len(answer) <= LONGEST_ANSWER for answer in lines)
    assert talk("isready") == ["readyok"]


def test_a_line_longer_than_the_longest_read_is_skipped_unread(talk):
    assert talk("position fen " + "x " * (25 << 20)) == [
        "info string skipped a line of 52,428,813 characters: the longest read is 1,048,576"
    ]
    assert talk("isready" + " " * LONGEST_LINE) == [
        f"info string skipped a line of {LONGEST_LINE + 7:,} characters: the longest read is"
        " 1,048,576"
    ]
    assert talk("isready" + " " * (LONGEST_LINE - 7)) == ["readyok"]


def test_a_fault_in_a_command_is_said_and_the_conversation_goes_on(talk, monkeypatch):
    def broken(session, args):
        raise TypeError("a fault")

    monkeypatch.setitem(UciSession.COMMANDS, "ucinewgame", broken)
    assert talk("ucinewgame now") == ["info string failed on 'ucinewgame now': TypeError: a fault"]
    assert talk("isready") == ["readyok"]


def test_the_help_names_the_limits(cli):
    code, out, _ = cli("uci", "--help")
    text = " ".join(out.split())
    assert code == 0
    for limit in ("go depth at most 100", "Hash from 1 to 4,096 MB",
                  "moves in a position command at most 20,000",
                  "a command line of at most 1,048,576 bytes"):  # fmt: skip
        assert limit in text


def test_words_before_the_first_command_are_skipped(talk):
    assert talk("joho isready") == ["readyok"]
    assert_one_legal_answer(talk("xyzzy go depth 1"))
    assert not talk.session.handle("what quit")


def test_a_position_of_20000_moves_is_played_and_of_20001_refused(talk):
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    assert talk("position startpos moves " + " ".join(shuffle * 5000)) == []
    assert talk.session.position.board.fullmove_number == 10001
    lines = talk("position startpos moves " + " ".join(shuffle * 5000 + ["e2e4"]))
    (note,) = notes(lines)
    assert note.startswith("ignored 'position startpos moves g1f3 g8f6 ")
    assert note.endswith(
        "... (100,028 characters): moves in a position command 20,001 is over the limit of"
        " 20,000: the longest game the rules allow has 17,697 plies"
    )
    assert_one_legal_answer(talk("go depth 1"))  # from the position before


# -- serve: bytes on standard input ---------------------------------------------------------


def conversation_of(data: bytes) -> list[str]:
    """What `serve` writes for the bytes `data` on its input."""
    output = io.BytesIO()
    assert serve(io.BytesIO(data), output) == 0
    return output.getvalue().decode().splitlines()


def test_invalid_utf8_and_nul_bytes_are_read_and_answered():
    lines = conversation_of(
        b"\xff\xfe\xc3\x28\n\x00\x00\nposition startpos moves e2e4\xff\nisready\n"
    )
    assert lines == [
        "info string ignored 'position startpos moves e2e4\ufffd': 'e2e4\ufffd' is not a UCI move",
        "readyok",
    ]


def test_a_line_longer_than_the_longest_read_is_skipped_without_being_held():
    line = b"go depth 1 " + bytes(range(1, 256)).replace(b"\n", b"") * (50 << 12) + b"\n"

    def peak_of(data: bytes) -> tuple[int, bytes]:
        """The most memory `serve` held at once on `data`, beyond what it holds without it (the
        engine `isready` makes), and what it wrote."""
        output = io.BytesIO()
        tracemalloc.start()
        try:
            serve(io.BytesIO(data), output)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return peak, output.getvalue()

    peak_of(b"isready\n")  # the engine's modules imported, its rules loaded
    without, _ = peak_of(b"isready\n")
    peak, written = peak_of(line + b"isready\n")
    assert peak - without < 4 * LONGEST_LINE
    output = io.BytesIO(written)
    assert output.getvalue().decode().splitlines() == [
        f"info string skipped a line of {len(line):,} bytes: the longest read is 1,048,576",
        "readyok",
    ]


def test_a_line_of_the_longest_read_is_read_and_one_byte_more_skipped():
    longest = b"isready" + b" " * (LONGEST_LINE - 7)
    assert len(longest) == LONGEST_LINE
    assert conversation_of(longest + b"\n" + longest) == ["readyok", "readyok"]
    assert conversation_of(longest + b" \nisready\n") == [
        f"info string skipped a line of {LONGEST_LINE + 2:,} bytes: the longest read is 1,048,576",
        "readyok",
    ]


def test_the_end_of_input_ends_a_running_search_with_its_answer():
    lines = conversation_of(b"position startpos\ngo infinite\n")
    assert_one_legal_answer(lines)


def test_a_gui_gone_ends_the_conversation_quietly():
    class Gone(io.BytesIO):
        def write(self, data):
            raise BrokenPipeError(32, "Broken pipe")

    assert serve(io.BytesIO(b"uci\ngo depth 2\nisready\n"), Gone()) == 0


# -- a real `zerosum uci` process ----------------------------------------------------------------


def run_uci(data: bytes) -> tuple[int, list[str], bytes]:
    """The exit code, output lines and standard error of `zerosum uci` given `data`."""
    done = subprocess.run(
        [sys.executable, "-m", "zerosum", "uci"], input=data, capture_output=True, timeout=HANG
    )
    return done.returncode, done.stdout.decode().splitlines(), done.stderr


def test_the_engine_process_answers_every_go_of_a_hostile_conversation():
    gos = [b"go depth 0", b"go depth -5", b"go nodes 0", b"go nodes -3", b"go movetime -1",
           b"go depth 99999999999999999999", b"go wtime -1 btime -1", b"go depth x"]  # fmt: skip
    before = [b"\xff\xfe\x00garbage", b"position startpos moves e2e4"]
    after = [b"setoption name Hash value -5", b"\x00" * 100, b"isready", b"quit"]
    data = b"\n".join([*before, *gos, *after]) + b"\n"
    code, lines, err = run_uci(data)
    assert (code, err) == (0, b"")
    answers = best_moves(lines)
    board = chess.Board()
    board.push_uci("e2e4")
    assert len(answers) == len(gos)
    assert all(chess.Move.from_uci(move) in board.legal_moves for move in answers)
    assert lines.count("readyok") == 1


def test_the_engine_process_skips_a_50_megabyte_line_and_plays_on():
    noise = bytes(range(256)).replace(b"\n", b" ") * (50 << 12)
    code, lines, err = run_uci(
        noise + b"\nposition fen " + MATED.encode() + b"\ngo depth 3\nquit\n"
    )
    assert (code, err) == (0, b"")
    assert lines == [
        f"info string skipped a line of {len(noise) + 1:,} bytes: the longest read is 1,048,576",
        "bestmove 0000",
    ]


def test_at_the_end_of_input_a_search_ends_by_its_own_limits():
    lines = conversation_of(b"position startpos moves e2e4\ngo depth 3\n")
    depths = [line.split()[2] for line in lines if line.startswith("info depth")]
    assert depths == ["1", "2", "3"] and lines[-1].startswith("bestmove ")


def test_at_the_end_of_input_an_infinite_search_is_stopped_and_answers():
    lines = conversation_of(b"go infinite\n")
    assert len(best_moves(lines)) == 1
    assert chess.Move.from_uci(best_moves(lines)[0]) in chess.Board().legal_moves
