"""The guides' code runs and prints what the guides say it prints."""

import contextlib
import io
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).parent.parent / "docs"


@pytest.mark.parametrize("guide", ["your-own-game.md", "impartial-games.md"])
def test_guide_runs_and_prints_what_it_shows(guide):
    path = DOCS / guide
    blocks = re.findall(r"```(python|text)\n(.*?)```", path.read_text(), re.DOTALL)
    namespace: dict = {}
    output = io.StringIO()
    expected = []
    for kind, code in blocks:
        if kind == "python":
            with contextlib.redirect_stdout(output):
                exec(compile(code, str(path), "exec"), namespace)
        else:
            expected.append(code)
    assert output.getvalue() == "".join(expected)


def test_the_guide_defines_its_game_in_under_25_lines():
    text = (DOCS / "your-own-game.md").read_text()
    first_block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    class_lines = first_block.split("class RaceToTen")[1].strip().splitlines()
    assert len([line for line in class_lines if line.strip()]) < 25
