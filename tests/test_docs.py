"""The guides' examples run and print what the guides say they print.

A guide's ```python blocks run in order in one namespace, and what they print must be the
following ```text blocks. A python block whose first line is `# NAME.py` is also saved as that
file, for the commands to name. A ```console block holds commands (`$ zerosum ...`, run in the
guide's folder of saved files) each followed by what it prints: its standard output, or its
error when it fails; `...` in a line stands for any text (times, speeds). The folder holds the
repository's `tests/data` at the same path, so a command names the Connect Four test sets and the
chess tables as a reader at the repository's root would. The README's examples run the same way.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
GUIDES = ["README.md", *sorted(f"docs/{path.name}" for path in DOCS.glob("*.md"))]
BLOCK = re.compile(r"```(python|text|console)\n(.*?)```", re.DOTALL)


def run_guide(path: Path, folder: Path) -> None:
    namespace: dict = {}
    printed, expected = io.StringIO(), []
    (folder / "tests").mkdir()
    (folder / "tests" / "data").symlink_to(ROOT / "tests" / "data")
    sys.path.insert(0, str(folder))
    try:
        for kind, code in BLOCK.findall(path.read_text()):
            if kind == "python":
                name = re.match(r"# (\w+\.py)\n", code)
                if name:
                    (folder / name[1]).write_text(code)
                with contextlib.chdir(folder), contextlib.redirect_stdout(printed):
                    exec(compile(code, str(path), "exec"), namespace)  # files it writes go there
            elif kind == "text":
                expected.append(code)
            else:
                run_console(code, folder)
    finally:
        sys.path.remove(str(folder))
    assert printed.getvalue() == "".join(expected)


def run_console(block: str, folder: Path) -> None:
    """Run each `$ command` of a console block in `folder`; check what it prints."""
    for step in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
        command, _, shown = step.partition("\n")
        if IN_PROCESS.fullmatch(command) and not USER_GAME.search(command):
            output = run_in_process(command, folder)
        else:
            output = run_in_shell(command, folder)
        assert_lines(command, output, shown)


# A plain `zerosum` command runs in this process, as the installed `zerosum` calls `main`: the
# guides hold dozens of commands and each new interpreter pays half a second of imports. In a
# shell: pipes and redirections, commands that read standard input or start worker processes,
# and those naming a game class in a file or module (the module must not be kept across guides).
IN_PROCESS = re.compile(r"zerosum (?!play |uci|tablebase build )[^|<>;&$`]*")
USER_GAME = re.compile(r"[\w.]:[A-Z_]")


def run_in_process(command: str, folder: Path) -> str:
    """What `zerosum ...` prints in `folder`: its standard output, or its error when it fails."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(shlex.split(command)[1:])
        except SystemExit as leaving:  # argparse's own errors
            code = leaving.code
    return out.getvalue() if not code else err.getvalue()


def run_in_shell(command: str, folder: Path) -> str:
    """What a shell command line prints in `folder`, `zerosum` being this interpreter's."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    zerosum = f"{sys.executable} -m zerosum "
    command = re.sub(r"(^|\| )zerosum ", lambda m: m[1] + zerosum, command)
    done = subprocess.run(
        command, shell=True, cwd=folder, env=environment, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    return done.stdout if done.returncode == 0 else done.stderr


def assert_lines(command: str, output: str, shown: str) -> None:
    """Each line of `output` is the line `shown` (`...` matching any text), all of them."""
    actual = [line.rstrip() for line in output.rstrip("\n").splitlines()]
    wanted = [line.rstrip() for line in shown.rstrip("\n").splitlines()]
    assert len(actual) == len(wanted), f"{command}:\n{output}"
    for got, want in zip(actual, wanted, strict=True):
        pattern = ".*".join(re.escape(part) for part in want.split("..."))
        assert re.fullmatch(pattern, got), f"{command}: {got!r} is not {want!r}"


@pytest.mark.parametrize("guide", GUIDES)
def test_guide_runs_and_prints_what_it_shows(guide, tmp_path):
    run_guide(ROOT / guide, tmp_path)


def test_the_guide_defines_its_game_in_under_25_lines():
    text = (DOCS / "your-own-game.md").read_text()
    first_block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    class_lines = first_block.split("class RaceToTen")[1].strip().splitlines()
    assert len([line for line in class_lines if line.strip()]) < 25


def test_the_readme_cheat_sheet_commands_are_accepted():
    """The README's commands that take long or wait for a person (its ```sh blocks) are not run,
    but each is one the command line accepts, and names a game and a position that exist."""
    from zerosum.cli import build_parser
    from zerosum.cli.common import game_setup

    readme = (DOCS.parent / "README.md").read_text()
    commands = [
        line.split("#")[0].strip()
        for block in re.findall(r"```sh\n(.*?)```", readme, re.DOTALL)
        for line in block.splitlines()
        if line.startswith("zerosum ")
    ]
    assert len(commands) > 10
    parser = build_parser()
    for command in commands:
        args, extra = parser.parse_known_args(shlex.split(command)[1:])
        assert not extra or hasattr(args, "position_words"), command
        assert not any(word.startswith("-") for word in extra), command
        if hasattr(args, "position_words"):
            args.position_words = [*args.position_words, *extra]
        if getattr(args, "takes_game", False):  # the game and its position read without error
            game_setup(args, hidden=args.command in ("cfr", "solve", "play"))
