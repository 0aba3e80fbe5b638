"""Driving `zerosum play` in tests, in a pseudo-terminal."""

from __future__ import annotations

import sys

import pexpect


def spawn_play(game: str, *args: str) -> pexpect.spawn:
    """`zerosum play GAME ARGS` in a pseudo-terminal, past its greeting."""
    child = pexpect.spawn(
        sys.executable, ["-m", "zerosum", "play", game, *args], encoding="utf-8", timeout=90
    )
    child.expect("Type q to leave.")
    return child


def exit_status(child: pexpect.spawn) -> int:
    """The exit status of a spawned `zerosum play`, once its output has ended."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus
