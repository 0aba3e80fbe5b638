"""The guide's code runs and prints what the guide says it prints."""

import contextlib
import io
import re
from pathlib import Path

GUIDE = Path(__file__).parent.parent / "docs" / "your-own-game.md"


def test_your_own_game_guide_runs_and_prints_what_it_shows():
    text = GUIDE.read_text()
    blocks = re.findall(r"```(python|text)\n(.*?)```", text, re.DOTALL)
    namespace: dict = {}
    output = io.StringIO()
    expected = []
    for kind, code in blocks:
        if kind == "python":
            with contextlib.redirect_stdout(output):
                exec(compile(code, str(GUIDE), "exec"), namespace)
        else:
            expected.append(code)
    assert output.getvalue() == "".join(expected)


def test_the_guide_defines_its_game_in_under_25_lines():
    text = GUIDE.read_text()
    first_block = re.search(r"```python\n(.*?)```", text, re.DOTALL).group(1)
    class_lines = first_block.split("class RaceToTen")[1].strip().splitlines()
    assert len([line for line in class_lines if line.strip()]) < 25
