"""`python -m zerosum` and the `zerosum` command (`run`): `zerosum.cli.main` on the process's
arguments, Ctrl-C answered in one line (`zerosum.interrupt`) even while it still imports."""

import sys

from zerosum.interrupt import interrupted


def run() -> int:
    """Run the `zerosum` command on the process's arguments; the exit code."""
    try:
        from zerosum.cli import main
    except KeyboardInterrupt:
        return interrupted()
    return main()


if __name__ == "__main__":
    sys.exit(run())
