"""The report: renders the analytics' tables as one self-contained HTML page (charts as
inline SVG) and terminal tables, with one number format for both (computes nothing itself).

    from mjfast.report import write_report
    write_report("mjfast-out", "mjfast-out/report")   # -> .../report.html

The first screen is built from a :class:`StudySummary` whose headline is a list of
:class:`Finding` (:func:`findings_from_compare` makes them from the ``compare`` table; a
study analysis can give its own: ``Report.findings``, :func:`headline_html`).
"""
from __future__ import annotations

from ._build import (SECTIONS, Report, build_report, collapse_same, findings_table,
                     headline_html, top_fans, write_report)
from ._fonts import CJKFont, find_cjk_font, missing_glyphs
from ._summary import Finding, Source, StudySummary, findings_from_compare
from ._terminal import render_table, terminal_width

__all__ = ["SECTIONS", "Report", "build_report", "render_table", "write_report", "CJKFont",
           "find_cjk_font", "missing_glyphs", "Finding", "Source", "StudySummary",
           "findings_from_compare", "headline_html", "findings_table", "top_fans",
           "collapse_same", "terminal_width"]
