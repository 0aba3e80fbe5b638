"""The impartial-games guide's code runs and prints what the guide says it prints."""

import contextlib
import io
import re
from pathlib import Path

GUIDE = Path(__file__).parent.parent / "docs" / "impartial-games.md"


def test_impartial_games_guide_runs_and_prints_what_it_shows():
    blocks = re.findall(r"```(python|text)\n(.*?)```", GUIDE.read_text(), re.DOTALL)
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
