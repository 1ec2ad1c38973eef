"""The report: renders the analytics' tables as one self-contained HTML page with PNG
charts beside it, and a terminal summary (computes nothing itself).

    from mjfast.report import write_report
    write_report("mjfast-out/replay", "mjfast-out/report")   # -> .../report.html
"""
from __future__ import annotations

from ._build import SECTIONS, Report, build_report, render_table, write_report
from ._fonts import CJKFont, find_cjk_font, missing_glyphs

__all__ = ["SECTIONS", "Report", "build_report", "render_table", "write_report", "CJKFont",
           "find_cjk_font", "missing_glyphs"]
