"""Tables for a terminal (``mjfast query``, ``mjfast report``, ``mjfast run``'s summary):
the cells of :mod:`._tables` (one number format with the page), fitted to the terminal's
width: the columns a person needs first (names, counts, shares with intervals), then the
others while they fit; what is left out is named under the table (``--all`` shows every
column). Every rule set and variant keeps rows: a long table shows the first rows of each
group rather than the first rows of the whole."""
from __future__ import annotations

import shutil
import textwrap
from typing import Sequence

import polars as pl

from . import _format as F
from ._tables import columns, grid, view_for


TEXT_CAP = 30      # a text column wider than this wraps its cells
GAP = 2            # spaces between columns
HEAD_MIN = 12      # a column is at least this wide when its header is (fewer header lines)


def terminal_width(default: int = 100) -> int:
    """The terminal's columns (``COLUMNS`` when set; ``default`` when not a terminal)."""
    return shutil.get_terminal_size((default, 24)).columns


def per_group_head(df: pl.DataFrame, name: str | None, max_rows: int
                   ) -> tuple[pl.DataFrame, int, int]:
    """The first rows of each group (rules, variant, source) so every group shows, at most
    about ``max_rows`` in all: (rows shown, rows left out, groups)."""
    v = view_for(name)
    keys = [k for k in (v.group if v else ("rules", "variant", "source")) if k in df.columns]
    if df.height <= max_rows or not keys:
        return df.head(max_rows), max(df.height - max_rows, 0), 1
    groups = df.select(keys).unique().height
    if groups <= 1:
        return df.head(max_rows), df.height - max_rows, 1
    each = max(3, max_rows // groups)
    shown = df.with_row_index("_i").filter(
        pl.col("_i").rank("ordinal").over(keys) <= each).drop("_i")
    return shown, df.height - shown.height, groups


def _cells(s: str) -> int:
    from rich.cells import cell_len
    return cell_len(s)


def render_table(df: pl.DataFrame, title: str | None = None, max_rows: int = 60, *,
                 name: str | None = None, width: int | None = None,
                 all_columns: bool = False, cjk: bool = True, more: str | None = None):
    """A rich Table of ``df`` fitted to ``width`` columns (the terminal's by default).
    ``name`` (a built-in analysis) picks its view: column order, labels with units, number
    formats. ``more``: the command that gives every row (said in the caption)."""
    from rich import box
    from rich.table import Table
    width = width or terminal_width()
    name = name or title
    if name == "compare" and "metric" in df.columns:
        from ._tables import compare_for_reading
        df = compare_for_reading(df)
    shown, left_out, groups = per_group_head(df, name, max_rows)
    cols = columns(df, name)
    if not cjk:
        cols = [c for c in cols if not c.name.startswith(("name_zh", "name_ja"))]
    g = grid(shown, name, cols)
    order = sorted(range(len(cols)), key=lambda i: (cols[i].rank, i))

    # each column's width: its widest cell (a text column wraps beyond TEXT_CAP cells) and
    # at least its header's longest word; headers wrap at their spaces, cells never do
    need = []
    for i, h in enumerate(g.headers):
        cell = max([_cells(r[i]) for r in g.rows] + [1])
        if not g.numeric[i]:
            cell = min(cell, TEXT_CAP)
        need.append(max(cell, min(_cells(h), HEAD_MIN), max(_cells(w) for w in (h.split() or [""]))))

    def total(keep: Sequence[int]) -> int:
        return sum(need[i] for i in keep) + GAP * max(len(keep) - 1, 0)

    if all_columns:
        keep = list(range(len(cols)))
    else:
        keep = sorted(i for i in range(len(cols)) if cols[i].rank == 0) or [0]
        skipped_rank = None
        for i in order:
            if i in keep or (skipped_rank is not None and cols[i].rank > skipped_rank):
                continue      # a less needed column never takes the place of a needed one
            if total(sorted(keep + [i])) <= width:
                keep = sorted(keep + [i])
            elif skipped_rank is None:
                skipped_rank = cols[i].rank

    def build(keep: Sequence[int], caption: str | None = None) -> Table:
        t = Table(title=title, box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False,
                  show_edge=False, collapse_padding=True, caption=caption,
                  caption_justify="left", title_justify="left")
        for i in keep:
            head = "\n".join(textwrap.wrap(g.headers[i], need[i], break_long_words=False))
            t.add_column(head, justify="right" if g.numeric[i] else "left",
                         overflow="fold", min_width=need[i], max_width=need[i])
        for r in g.rows:
            t.add_row(*[r[i] for i in keep])
        return t

    dropped = [cols[i].name for i in range(len(cols)) if i not in keep]
    notes = []
    if dropped:
        listed = ", ".join(dropped[:8]) + (f" and {len(dropped) - 8} more" if len(dropped) > 8
                                           else "")
        notes.append(f"not shown: {listed} (--all shows every column)")
    if left_out:
        per = f"the first rows of each of {groups} groups; " if groups > 1 else ""
        notes.append(f"{per}{left_out:,} more rows"
                     + (f": {more}" if more else " (--max-rows N, or --format csv)"))
    return build(keep, "\n".join(notes) or None)


__all__ = ["render_table", "terminal_width", "per_group_head"]
