"""A training run's log: `DIR/log.jsonl`, one JSON object a line, appended as training goes.

Each line is one record, named by its `kind`:

- `start`: a run began or resumed, on `game` (a game spec), at `step`, `games`, `seconds`;
- `train`: a round of gradient steps ended: the optimizer's `step` count, the self-play `games`
  and `positions` so far, the round's mean `policy_loss` and `value_loss`;
- `gate`: the new network played the best so far: its `wins`, `draws` and `losses` (from the
  new network's side), and whether it was `accepted` as the new best;
- `evaluation`: the best network played a fixed `opponent` (a player spec): its `wins`,
  `draws` and `losses`, from the network's side.

`seconds` is training time since the run began, summed across resumes. Every record is a
frozen dataclass that checks its fields when made, so a record the training cannot write is
refused as it is made, and a line that does not make one is refused as it is read.

`append` adds one record and flushes it to the disk, so a killed training loses at most the line
it was writing. The run's manifest records the log's length at each round it keeps (`size`);
a run resumed from that round first cuts the log back to it (`rewind`), dropping the lines of
the round that was stopped, which is played again: the log then reads as if the run had never
stopped, but for the `start` record of each resume. `read_log` reads the records back: a last
line cut short (it has no newline and is not JSON) is what a kill leaves and is ignored; a
damaged line anywhere else is refused in one line naming the file and the line's number.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, ClassVar

from zerosum import faults
from zerosum.limits import clipped
from zerosum.match import MatchResult

LOG = "log.jsonl"
"""The log's file name inside a training directory."""


def _check(record: Any) -> None:
    """ValueError unless every field of `record` has its declared type: a count a non-negative
    int, a measure a finite non-negative number (stored as a float), a flag a bool, a name a
    non-empty string."""
    for field in fields(record):
        value = getattr(record, field.name)
        if field.type == "int":
            if type(value) is not int or value < 0:
                raise ValueError(
                    f"{field.name} must be a whole number, 0 or more, not {clipped(value)}"
                )
        elif field.type == "float":
            if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
                raise ValueError(
                    f"{field.name} must be a finite number, 0 or more, not {clipped(value)}"
                )
            object.__setattr__(record, field.name, float(value))
        elif field.type == "bool":
            if type(value) is not bool:
                raise ValueError(f"{field.name} must be true or false, not {clipped(value)}")
        elif not isinstance(value, str) or not value:
            raise ValueError(f"{field.name} must be a non-empty string, not {clipped(value)}")


class _Match:
    """What a gate and an evaluation share: a match's games from the network's side."""

    wins: int
    draws: int
    losses: int

    def _check_games(self) -> None:
        if self.wins + self.draws + self.losses == 0:
            raise ValueError("a match record needs at least one game (wins, draws, losses all 0)")

    @property
    def result(self) -> MatchResult:
        """The match from the network's point of view: its score, the Elo difference (network
        minus opponent) and its 95% error (None when every game was won or every one lost)."""
        return MatchResult(self.wins, self.draws, self.losses)


@dataclass(frozen=True)
class Start:
    """A run began (step 0) or resumed from its last checkpoint, training `game`."""

    kind: ClassVar[str] = "start"
    game: str
    step: int
    games: int
    seconds: float

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class TrainingRound:
    """A round of gradient steps: the counts so far and the round's mean losses."""

    kind: ClassVar[str] = "train"
    step: int
    games: int
    positions: int
    seconds: float
    policy_loss: float
    value_loss: float

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class Gate(_Match):
    """The new network against the best so far, from the new network's side; `accepted`: it
    became the best."""

    kind: ClassVar[str] = "gate"
    step: int
    games: int
    seconds: float
    wins: int
    draws: int
    losses: int
    accepted: bool

    def __post_init__(self) -> None:
        _check(self)
        self._check_games()


@dataclass(frozen=True)
class Evaluation(_Match):
    """The best network against a fixed `opponent` (a player spec), from the network's side."""

    kind: ClassVar[str] = "evaluation"
    step: int
    games: int
    seconds: float
    opponent: str
    wins: int
    draws: int
    losses: int

    def __post_init__(self) -> None:
        _check(self)
        self._check_games()


Record = Start | TrainingRound | Gate | Evaluation
"""One line of the log."""

KINDS: dict[str, type[Record]] = {
    kind.kind: kind for kind in (Start, TrainingRound, Gate, Evaluation)
}
"""Each kind of record by the `kind` its line names."""


@dataclass(frozen=True)
class Log:
    """A training directory's records in the order written; `cut_short`: a last line cut short
    (by a kill) was ignored."""

    records: tuple[Record, ...]
    cut_short: bool = False

    @property
    def game(self) -> str | None:
        """The game of the last start (None when the log names none)."""
        starts = [record.game for record in self.records if isinstance(record, Start)]
        return starts[-1] if starts else None

    @property
    def rounds(self) -> tuple[TrainingRound, ...]:
        return tuple(record for record in self.records if isinstance(record, TrainingRound))

    @property
    def gates(self) -> tuple[Gate, ...]:
        return tuple(record for record in self.records if isinstance(record, Gate))

    @property
    def evaluations(self) -> tuple[Evaluation, ...]:
        return tuple(record for record in self.records if isinstance(record, Evaluation))

    @property
    def games(self) -> int:
        """Self-play games played in all, as far as the log tells."""
        return max(record.games for record in self.records)

    @property
    def positions(self) -> int:
        """Self-play positions in all, as the last training rounds count them (0 before any)."""
        return max((record.positions for record in self.rounds), default=0)

    @property
    def seconds(self) -> float:
        """Training time in all, summed across resumes, as far as the log tells."""
        return max(record.seconds for record in self.records)


def line(record: Record) -> str:
    """The record as its line of the log, without the newline."""
    return json.dumps({"kind": record.kind, **asdict(record)}, allow_nan=False)


def parse(text: str) -> Record:
    """The record a line holds; ValueError, with the reason, when it holds none."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"not a JSON object but {clipped(data, 40)}")
    kind = data.pop("kind", None)
    if kind not in KINDS:
        known = ", ".join(KINDS)
        raise ValueError(f"kind {clipped(kind, 40)} is none of {known}")
    cls = KINDS[kind]
    names = [field.name for field in fields(cls)]
    missing = [name for name in names if name not in data]
    if missing:
        raise ValueError(f"a {kind} record without {', '.join(missing)}")
    unknown = [name for name in data if name not in names]
    if unknown:
        raise ValueError(f"a {kind} record with unknown fields {clipped(', '.join(unknown), 60)}")
    return cls(**data)


def read_log(directory: str | os.PathLike[str]) -> Log:
    """The records of `directory`'s log, in the order written.

    ValueError, one line, for a missing directory, a directory without a log, a log without a
    record, and a damaged line (named by its number); only a last line cut short is ignored.
    """
    path = _log_path(directory)
    if not path.is_file():
        raise ValueError(f"{directory} holds no {LOG}: it is not a training directory")
    try:
        content = path.read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    lines = content.split(b"\n")
    last = lines.pop()  # b"" when the file ends with its newline, else a last line unfinished
    records = [_record(path, number, text) for number, text in enumerate(lines, 1)]
    cut_short = False
    if last:
        try:
            records.append(parse(last.decode("utf-8")))
        except (UnicodeDecodeError, ValueError):
            cut_short = True  # a kill in the middle of `append`'s one write
    if not records:
        what = "only a line cut short" if cut_short else "no record"
        raise ValueError(f"{path} is empty: it holds {what}")
    return Log(tuple(records), cut_short)


def append(directory: str | os.PathLike[str], record: Record) -> None:
    """Add `record` as the last line of `directory`'s log (made when missing), flushed to the
    disk before returning. A last line cut short by a kill is dropped first (a whole record that
    only lacks its newline is kept), so the log stays readable after a resume. ValueError when
    the directory does not exist or the log cannot be written."""
    path = _log_path(directory)
    text = (line(record) + "\n").encode()
    try:
        with open(path, "a+b") as file:
            _drop_cut_short(file)
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror}") from None
    faults.reached("logged")


def size(directory: str | os.PathLike[str]) -> int:
    """The length of `directory`'s log in bytes, 0 when it has none yet."""
    try:
        return _log_path(directory).stat().st_size
    except FileNotFoundError:
        return 0


def rewind(directory: str | os.PathLike[str], length: int) -> None:
    """Cut `directory`'s log back to its first `length` bytes (the length `size` gave when the
    run's last round was kept): the lines written after it are dropped. ValueError naming the
    log when it is shorter than that (cut short, or replaced)."""
    path = _log_path(directory)
    found = size(directory)
    if found < length:
        raise ValueError(
            f"{path}: damaged ({found:,} bytes, shorter than the {length:,} its run's last"
            " round was kept with)"
        )
    if found == length:
        return
    try:
        with open(path, "r+b") as file:
            file.truncate(length)
            os.fsync(file.fileno())
    except OSError as error:
        raise ValueError(f"cannot write {path}: {error.strerror}") from None


def _log_path(directory: str | os.PathLike[str]) -> Path:
    """`directory`'s log; ValueError when the directory does not exist."""
    folder = Path(directory)
    if not folder.exists():
        raise ValueError(f"no training directory {directory}")
    if not folder.is_dir():
        raise ValueError(f"{directory} is not a directory (a training directory holds {LOG})")
    return folder / LOG


def _record(path: Path, number: int, text: bytes) -> Record:
    """The record of line `number`; ValueError naming the file and the line when it is damaged."""
    try:
        return parse(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{path}, line {number}: not UTF-8 text") from None
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}, line {number}: {error}") from None


def _drop_cut_short(file: Any) -> None:
    """End the open log with a newline: truncate a last line cut short, or end a whole one."""
    end = file.seek(0, os.SEEK_END)
    if end == 0:
        return
    file.seek(end - 1)
    if file.read(1) == b"\n":
        return
    start = end
    while start > 0:  # back to the last newline, a block at a time
        block = min(start, 4096)
        file.seek(start - block)
        newline = file.read(block).rfind(b"\n")
        if newline >= 0:
            start = start - block + newline + 1
            break
        start -= block
    file.seek(start)
    try:
        parse(file.read(end - start).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, TypeError):
        file.truncate(start)
    else:
        file.write(b"\n")
