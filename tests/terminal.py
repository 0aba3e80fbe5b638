"""Driving `zerosum play` in tests: in a pseudo-terminal, or with answers fed to input."""

from __future__ import annotations

import sys

import pexpect

from zerosum.cli import main


def spawn_play(game: str, *args: str) -> pexpect.spawn:
    """`zerosum play GAME ARGS` in a pseudo-terminal, past its greeting."""
    child = pexpect.spawn(
        sys.executable, ["-m", "zerosum", "play", game, *args], encoding="utf-8", timeout=90
    )
    child.expect("Type q to leave.")
    return child


def play_typed(monkeypatch, capsys, game: str, answers, *options: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `zerosum play GAME OPTIONS` answered with `answers`."""
    typed = iter(answers)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    code = main(["play", game, *options])
    out, err = capsys.readouterr()
    return code, out, err


def exit_status(child: pexpect.spawn) -> int:
    """The exit status of a spawned `zerosum play`, once its output has ended."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus
