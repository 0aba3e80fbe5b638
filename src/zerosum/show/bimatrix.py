"""A solved bimatrix game as `zerosum matrix` prints it and the page shows it: the table of payoff
pairs, the pure equilibria, the dominated strategies and the equilibria with their payoffs, in
words and as JSON (docs/json.md). Each payoff is its own player's: the row player's first in a
pair, then the column player's; strategies and labels are counted from 0 in JSON, named R1..,
C1.. in words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zerosum.show.matrix import SHOWN, TABLE_COLUMNS, TABLE_ROWS, first, mixture, number_text
from zerosum.theory.bimatrix import (
    Equilibria,
    Equilibrium,
    Reduction,
    eliminate_dominated,
    lemke_howson,
    pure_equilibria,
    vertex_enumeration,
)
from zerosum.theory.matrix import Elimination, Solution, solve
from zerosum.theory.payoffs import Bimatrix


@dataclass(frozen=True)
class SolvedBimatrix:
    """What the command found: the pure equilibria, the dominance steps, the equilibria (every
    extreme one by vertex enumeration in `enumerated`, or None when not asked), those
    Lemke–Howson reached (`reached[label]`), and, for a zero-sum game, the matrix solver's
    answer on the row player's payoffs."""

    game: Bimatrix
    pure: tuple[tuple[int, int], ...]
    reduction: Reduction
    enumerated: Equilibria | None
    reached: dict[int, Equilibrium]
    zero_sum: Solution | None

    def equilibria(self) -> list[Equilibrium]:
        """The equilibria to show, each once: the enumerated ones, then any other Lemke–Howson
        reached (none, for it reaches extreme equilibria only)."""
        shown = list(self.enumerated.equilibria) if self.enumerated else []
        for equilibrium in self.reached.values():
            if equilibrium not in shown:
                shown.append(equilibrium)
        return shown


def solve_game(
    game: Bimatrix, *, every: bool = False, each_label: bool = False, lifted: bool = False
) -> SolvedBimatrix:
    """The command's answer for `game`: pure equilibria and dominance always; every extreme
    equilibrium by vertex enumeration with `every`; Lemke–Howson from each label with
    `each_label`, else from label 0 alone (when `every` is not asked either); and for a
    zero-sum game, `zerosum.theory.matrix.solve` on the row player's payoffs."""
    rows, columns = game.shape
    enumerated = vertex_enumeration(game, lifted=lifted) if every else None
    labels = range(rows + columns) if each_label else range(0 if every else 1)
    return SolvedBimatrix(
        game=game,
        pure=pure_equilibria(game),
        reduction=eliminate_dominated(game, lifted=lifted),
        enumerated=enumerated,
        reached={label: lemke_howson(game, label) for label in labels},
        zero_sum=solve(game.row_payoffs, no_limit=lifted) if game.zero_sum else None,
    )


def label_name(label: int, rows: int) -> str:
    """A Lemke–Howson label as the text names it: R1.. for rows, C1.. for columns."""
    return f"R{label + 1}" if label < rows else f"C{label - rows + 1}"


def dominance_report(
    eliminations: Sequence[Elimination], rows: Sequence[int], columns: Sequence[int]
) -> dict[str, Any]:
    """The JSON of iterated elimination of strictly dominated strategies (zero-sum or not)."""
    return {
        "eliminations": [
            {"player": step.player, "eliminated": step.strategy, "dominated_by": step.dominated_by}
            for step in eliminations
        ],
        "rows": list(rows),
        "columns": list(columns),
    }


def bimatrix_report(solved: SolvedBimatrix) -> dict[str, Any]:
    """The JSON object of `zerosum matrix --json` for a bimatrix game (docs/json.md): every
    probability and payoff as a float and as exact text ("3/4")."""
    labels: dict[int, list[int]] = {}
    equilibria = solved.equilibria()
    for label, equilibrium in solved.reached.items():
        labels.setdefault(equilibria.index(equilibrium), []).append(label)
    value = solved.zero_sum.value if solved.zero_sum else None
    return {
        "bimatrix": True,
        "zero_sum": solved.zero_sum is not None,
        "algorithm": "vertex enumeration" if solved.enumerated else "lemke-howson",
        "exact": True,
        "degenerate": solved.enumerated.degenerate if solved.enumerated else None,
        "pure_equilibria": [list(cell) for cell in solved.pure],
        "dominance": dominance_report(
            solved.reduction.eliminations, solved.reduction.rows, solved.reduction.columns
        ),
        "equilibria": [
            {
                "row_strategy": [float(p) for p in e.row_strategy],
                "column_strategy": [float(q) for q in e.column_strategy],
                "row_strategy_exact": [number_text(p) for p in e.row_strategy],
                "column_strategy_exact": [number_text(q) for q in e.column_strategy],
                "row_payoff": float(e.row_payoff),
                "column_payoff": float(e.column_payoff),
                "row_payoff_exact": number_text(e.row_payoff),
                "column_payoff_exact": number_text(e.column_payoff),
                "labels": labels.get(k, []),
            }
            for k, e in enumerate(equilibria)
        ],
        "value": None if value is None else float(value),
        "value_exact": None if value is None else number_text(value),
    }


def describe_bimatrix(solved: SolvedBimatrix) -> str:
    """What `zerosum matrix` prints for a bimatrix game."""
    game = solved.game
    rows, columns = game.shape
    pure = first(f"(R{i + 1}, C{j + 1})" for i, j in solved.pure) or "none"
    lines = [
        "bimatrix game (each cell: the row player's payoff, the column player's):",
        _table(game),
        f"pure equilibria: {pure}",
        f"dominated strategies: {_dominance(solved.reduction)}",
    ]
    if solved.zero_sum is not None:
        lines.append(
            "zero-sum (each pair adds up to 0): the value for the row player is"
            f" {number_text(solved.zero_sum.value)}, as for the matrix of its payoffs"
        )
    equilibria = solved.equilibria()
    if solved.enumerated is not None:
        count = len(solved.enumerated.equilibria)
        if solved.enumerated.degenerate:
            lines.append(
                f"the game is degenerate (a strategy has more pure best responses than it plays"
                f" strategies): its equilibria may form continua. Its {count} extreme"
                f" equilibri{'um' if count == 1 else 'a'}, by vertex enumeration (every"
                " equilibrium mixes extreme ones of one set):"
            )
        else:
            lines.append(
                f"the game is nondegenerate: {count} equilibri{'um' if count == 1 else 'a'},"
                " by vertex enumeration:"
            )
    elif len(solved.reached) == 1:
        (label,) = solved.reached
        lines.append(f"an equilibrium, by Lemke–Howson from label {label_name(label, rows)}:")
    else:
        lines.append("the equilibria Lemke–Howson reaches:")
    for k, equilibrium in enumerate(equilibria[:SHOWN]):
        lines.append(f"  {k + 1}. {_equilibrium(equilibrium)}")
    if len(equilibria) > SHOWN:
        lines.append(f"  ... ({len(equilibria):,} in all; --json lists every one)")
    if len(solved.reached) > 1:
        lines.append("Lemke–Howson, from each label:")
        for label, equilibrium in solved.reached.items():
            lines.append(
                f"  {label_name(label, rows)}: equilibrium {equilibria.index(equilibrium) + 1}"
            )
    lines.append("check: in each, a deviation gains neither player anything (exact)")
    if solved.enumerated is None and len(solved.reached) == 1:
        lines.append("(--all: every equilibrium; --lemke-howson: from each starting label)")
    return "\n".join(lines)


def _equilibrium(equilibrium: Equilibrium) -> str:
    return (
        f"row {mixture('R', equilibrium.row_strategy)};"
        f" column {mixture('C', equilibrium.column_strategy)};"
        f" payoffs {number_text(equilibrium.row_payoff)} and"
        f" {number_text(equilibrium.column_payoff)}"
    )


def _dominance(reduction: Reduction) -> str:
    if not reduction.eliminations:
        return "none strictly dominated"
    steps = ", then ".join(
        f"{'R' if step.player == 'row' else 'C'}{step.strategy + 1}"
        f" (by {'R' if step.player == 'row' else 'C'}{step.dominated_by + 1})"
        for step in reduction.eliminations
    )
    rows = ", ".join(f"R{i + 1}" for i in reduction.rows)
    columns = ", ".join(f"C{j + 1}" for j in reduction.columns)
    return f"{steps}; left: rows {rows}; columns {columns}"


def pair_texts(game: Bimatrix) -> list[list[str]]:
    """Each cell as its pair is typed: "3,1"."""
    return [[f"{number_text(a)},{number_text(b)}" for a, b in row] for row in game.pairs]


def _table(game: Bimatrix) -> str:
    rows, columns = game.shape
    if rows > TABLE_ROWS or columns > TABLE_COLUMNS:
        return (
            f"{rows:,} rows x {columns:,} columns (a table is drawn up to {TABLE_ROWS} rows and"
            f" {TABLE_COLUMNS} columns)"
        )
    cells = pair_texts(game)
    widths = [max(3, *(len(row[j]) for row in cells)) for j in range(columns)]
    margin = len(f"R{rows}")

    def line(label: str, texts: Sequence[str]) -> str:
        return f"{label:<{margin}} " + " ".join(
            f"{text:>{width}}" for text, width in zip(texts, widths, strict=True)
        )

    head = line("", [f"C{j + 1}" for j in range(columns)])
    return "\n".join([head] + [line(f"R{i + 1}", row) for i, row in enumerate(cells)])
