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
TEXT_MIN = 14      # ... and narrower than this it does not wrap
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
    keys = [k for k in (v.group if v else ("rules", "variant")) if k in df.columns]
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
                 all_columns: bool = False, cjk: bool = True, more: str | None = None,
                 all_hint: str | None = None, view: F.View | None = None):
    """A rich Table of ``df`` fitted to ``width`` columns (the terminal's by default).
    ``name`` (a built-in analysis) picks its view: column order, labels with units, number
    formats. ``more``: the command that gives every row, ``all_hint``: the one that shows
    every column (said in the caption; default: the ``--all`` option). ``view``: columns
    given here rather than by ``name`` (a table made for the occasion)."""
    from rich import box
    from rich.table import Table
    width = width or terminal_width()
    name = name or title
    from ._tables import for_reading
    df, said = for_reading(name, df, cjk)
    shown, left_out, groups = per_group_head(df, name, max_rows)
    cols = view.columns(df.columns, dict(df.schema)) if view is not None else columns(df, name)
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
        # the needed columns (rank 0) always; when they are too wide, their text wraps
        # (down to TEXT_MIN cells), then the last of them go; then the others, in the
        # view's order, while they fit
        keep = sorted(i for i in range(len(cols)) if cols[i].rank == 0) or [0]
        for i in sorted(keep, key=lambda i: -need[i]):
            if total(keep) <= width:
                break
            if not g.numeric[i] and need[i] > TEXT_MIN:
                need[i] = max(TEXT_MIN, need[i] - (total(keep) - width))
        while total(keep) > width and len(keep) > 1:
            keep = keep[:-1]
        for i in order:
            if i in keep:
                continue
            if total(sorted(keep + [i])) > width:
                break
            keep = sorted(keep + [i])

    def build(keep: Sequence[int], caption: str | None = None) -> Table:
        t = Table(title=title, box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False,
                  show_edge=False, collapse_padding=True, caption=caption,
                  caption_justify="left", title_justify="left")
        for i in keep:
            h = g.headers[i].replace("95% CI", "95%\u00a0CI")     # kept on one line
            head = "\n".join(textwrap.wrap(h, need[i], break_long_words=False)).replace(
                "\u00a0", " ")
            t.add_column(head, justify="right" if g.numeric[i] else "left",
                         overflow="fold", min_width=need[i], max_width=need[i])
        for r in g.rows:
            t.add_row(*[r[i] for i in keep])
        return t

    dropped = [cols[i].name for i in range(len(cols)) if i not in keep]
    notes = list(said)
    if dropped and all_hint:
        names = ", ".join(dropped[:4]) + (" ..." if len(dropped) > 4 else "")
        more = "1 more column" if len(dropped) == 1 else f"{len(dropped)} more columns"
        notes.append(f"{more} ({names}): {all_hint}")
    elif dropped:
        listed = ", ".join(dropped[:8]) + (f" and {len(dropped) - 8} more" if len(dropped) > 8
                                           else "")
        notes.append(f"not shown: {listed} (--all shows every column)")
    if left_out:
        per = f"the first rows of each of {groups} groups; " if groups > 1 else ""
        notes.append(f"{per}{left_out:,} more rows"
                     + (f": {more}" if more else " (--max-rows N, or --format csv)"))
    if df.height == 0:
        notes.append("no rows: the dataset has none of the rows this needs")
    return build(keep, "\n".join(notes) or None)


class Fitted:
    """A table that fits whatever console prints it: :func:`render_table` at the console's
    width when printed (``mjfast run`` prints the summary on its own console)."""

    def __init__(self, df: pl.DataFrame, title: str | None = None, max_rows: int = 60,
                 **kw):
        self.args, self.kw = (df, title, max_rows), kw

    def table(self, width: int):
        return render_table(*self.args, **{**self.kw, "width": width})

    def __rich_console__(self, console, options):
        yield self.table(options.max_width)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement
        return Measurement.get(console, options, self.table(options.max_width))


__all__ = ["render_table", "terminal_width", "per_group_head", "Fitted"]
