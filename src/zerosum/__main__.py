"""`python -m zerosum` and the `zerosum` command (`run`): `zerosum.cli.main` on the process's
arguments, Ctrl-C answered in one line (`zerosum.interrupt`) even while it still imports."""

import signal
import sys

from zerosum.interrupt import interrupted


def run() -> int:
    """Run the `zerosum` command on the process's arguments; the exit code."""
    try:
        from zerosum.cli import main
    except KeyboardInterrupt:
        return interrupted()
    code = main()
    # The command is over: a Ctrl-C now could only kill the interpreter on its way out (it
    # restores the default handler), with no line and the signal's exit code.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code


if __name__ == "__main__":
    sys.exit(run())
