"""A small SVG writer for the report's charts: panels drawn at the size they are shown
(a 540 px panel, two to a row at 1200 px), text as text in the page's font (so every CJK
name renders with the embedded subset), no scripts. Draws; computes no statistics."""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Sequence

from . import _format as F

# Okabe-Ito: told apart by people with the common colour-vision deficiencies
BLUE, ORANGE, GREEN, VERMILION, PURPLE, SKY, YELLOW, GREY = (
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#6b6b6b")
SERIES = (BLUE, VERMILION, GREEN, PURPLE, ORANGE, SKY, GREY)

PANEL_W = 520          # px: two panels side by side in the 1,100 px column
WIDE_W = 1070          # px: a panel across the column
TICK = 11              # px: the smallest text on a chart (>= 10 px when shown at 1200 px)
LABEL = 12
TITLE = 13


def esc(s) -> str:
    return html.escape(str(s), quote=True)


def text_width(s: str, size: float) -> float:
    """Approximate rendered width: CJK characters one em, others about 0.6 em."""
    return sum(size * (1.0 if ord(c) >= 0x2E80 else 0.6) for c in str(s))


def clip_text(s: str, size: float, width: float) -> str:
    s = str(s)
    if text_width(s, size) <= width:
        return s
    while s and text_width(s + "…", size) > width:
        s = s[:-1]
    return s + "…"


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(n, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    ticks, t = [], first
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 12))
        t += step
    if ticks[-1] < hi - 1e-12:
        ticks.append(round(ticks[-1] + step, 12))
    return ticks


class Svg:
    def __init__(self, width: float, height: float, label: str):
        self.w, self.h, self.label = width, height, label
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def text(self, x, y, s, size=LABEL, anchor="start", weight=None, fill="#1b1b1b",
             baseline="middle", title=None):
        w = f" font-weight='{weight}'" if weight else ""
        t = f"<title>{esc(title)}</title>" if title else ""
        self.add(f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' text-anchor='{anchor}' "
                 f"dominant-baseline='{baseline}' fill='{fill}'{w}>{t}{esc(s)}</text>")

    def line(self, x1, y1, x2, y2, stroke="#333", width=1.0, dash=None):
        d = f" stroke-dasharray='{dash}'" if dash else ""
        self.add(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' "
                 f"stroke='{stroke}' stroke-width='{width}'{d}/>")

    def rect(self, x, y, w, h, fill, title=None, opacity=None):
        o = f" fill-opacity='{opacity}'" if opacity is not None else ""
        t = f"<title>{esc(title)}</title>" if title else ""
        self.add(f"<rect x='{x:.1f}' y='{y:.1f}' width='{max(w, 0):.1f}' "
                 f"height='{max(h, 0):.1f}' fill='{fill}'{o}>{t}</rect>")

    def circle(self, x, y, r, fill, title=None, stroke=None):
        s = f" stroke='{stroke}' stroke-width='1.5'" if stroke else ""
        t = f"<title>{esc(title)}</title>" if title else ""
        self.add(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='{r}' fill='{fill}'{s}>{t}</circle>")

    def path(self, d, stroke="none", fill="none", width=1.5, opacity=None):
        o = f" fill-opacity='{opacity}'" if opacity is not None else ""
        self.add(f"<path d='{d}' stroke='{stroke}' fill='{fill}' stroke-width='{width}'{o}/>")

    def __str__(self) -> str:
        # inline in HTML: no namespace needed (the standalone file adds it)
        return (f"<svg class='chart' "
                f"viewBox='0 0 {self.w:.0f} {self.h:.0f}' width='{self.w:.0f}' "
                f"height='{self.h:.0f}' role='img' aria-label='{esc(self.label)}'>"
                + "".join(self.parts) + "</svg>")


class Scale:
    def __init__(self, lo, hi, x0, x1, ticks=None):
        self.ticks = ticks or nice_ticks(lo, hi)
        self.lo, self.hi = min(self.ticks[0], lo), max(self.ticks[-1], hi)
        self.x0, self.x1 = x0, x1

    def __call__(self, v):
        if self.hi == self.lo:
            return self.x0
        return self.x0 + (v - self.lo) / (self.hi - self.lo) * (self.x1 - self.x0)


def _axis(svg: Svg, sc: Scale, y: float, kind: str, label: str | None, top: float):
    for t in sc.ticks:
        x = sc(t)
        svg.line(x, top, x, y, stroke="#e3e3e3")
        svg.text(x, y + 10, F.fmt(kind, t, decimals=_tick_decimals(sc.ticks, kind)),
                 size=TICK, anchor="middle", fill="#444")
    svg.line(sc.x0, y, sc.x1, y, stroke="#999")
    if label:
        svg.text((sc.x0 + sc.x1) / 2, y + 26, label, size=TICK, anchor="middle", fill="#444")


def _tick_decimals(ticks, kind) -> int:
    scale = F.SCALE.get(kind, 1.0)
    step = abs(ticks[1] - ticks[0]) * scale if len(ticks) > 1 else 1.0
    return 0 if step >= 1 - 1e-9 else (1 if step >= 0.1 - 1e-12 else 2)


# -- an interval panel: rows of bars or dots with their 95% intervals --------------------------
@dataclass
class Point:
    value: float | None
    lo: float | None = None
    hi: float | None = None
    label: str | None = None      # the text beside the mark (default: the value)


@dataclass
class Row:
    label: str
    points: list[Point]
    sub: str | None = None        # a second, grey label line (e.g. the English name)
    note: str | None = None       # replaces the marks (e.g. "same under both")
    title: str | None = None      # hover text


def interval_panel(title: str, rows: Sequence[Row], kind: str, *, lo: float, hi: float,
                   series: Sequence[tuple[str, str]] = (("", BLUE),), bars: bool = True,
                   axis_label: str | None = None, width: float = PANEL_W,
                   label_width: float | None = None, zero: bool = False,
                   subtitle: str | None = None) -> str:
    """Horizontal bars (or dots) with interval whiskers, one row per ``Row``; every panel
    given the same ``lo``/``hi`` shares one scale. A legend names the series only when
    there are several (each drawn)."""
    per = len(series)
    row_h = 20 if per == 1 else 14 * per + 8
    if any(r.sub for r in rows):
        row_h = max(row_h, 32)
    if label_width is None:
        longest = max([text_width(r.label, LABEL) for r in rows]
                      + [text_width(r.sub or "", TICK) for r in rows] + [40])
        label_width = min(longest + 14, width * 0.45)
    legend_h = 18 if per > 1 else 0
    top = 24 + (16 if subtitle else 0) + legend_h
    height = top + row_h * len(rows) + 38
    svg = Svg(width, height, title)
    svg.text(0, 10, clip_text(title, TITLE, width), size=TITLE, weight="600")
    if subtitle:
        svg.text(0, 27, clip_text(subtitle, TICK, width), size=TICK, fill="#555")
    if per > 1:
        x = label_width
        for name, colour in series:
            svg.rect(x, top - legend_h - 1, 10, 10, colour)
            svg.text(x + 14, top - legend_h + 4, name, size=TICK)
            x += text_width(name, TICK) + 32
    labels = [p.label if p.label is not None else F.fmt(kind, p.value, unit=True)
              for r in rows for p in r.points if p.value is not None]
    value_room = max([text_width(x, TICK) for x in labels] + [30]) + 10
    sc = Scale(lo, hi, label_width + 4, width - value_room)
    bottom = top + row_h * len(rows)
    _axis(svg, sc, bottom + 2, kind, axis_label, top)
    if zero and sc.lo < 0 < sc.hi:
        svg.line(sc(0), top, sc(0), bottom + 2, stroke="#333", width=1.2)
    for i, r in enumerate(rows):
        y0 = top + i * row_h
        cy = y0 + row_h / 2
        if r.sub:
            svg.text(label_width - 6, cy - 7, clip_text(r.label, LABEL, label_width - 8),
                     anchor="end", title=r.title or r.label)
            svg.text(label_width - 6, cy + 8, clip_text(r.sub, TICK, label_width - 8),
                     size=TICK, anchor="end", fill="#555")
        else:
            svg.text(label_width - 6, cy, clip_text(r.label, LABEL, label_width - 8),
                     anchor="end", title=r.title or r.label)
        if r.note:
            svg.text(sc.x0 + 4, cy, r.note, size=TICK, fill="#555")
            continue
        band = (row_h - 8) / per
        for j, (p, (_, colour)) in enumerate(zip(r.points, series)):
            if p.value is None:
                continue
            y = y0 + 4 + band * j + band / 2
            base = sc(max(sc.lo, min(0.0, sc.hi))) if bars else None
            if bars:
                x1 = sc(p.value)
                svg.rect(min(base, x1), y - band * 0.38, abs(x1 - base), band * 0.76, colour,
                         opacity=0.85)
            if p.lo is not None and p.hi is not None:
                svg.line(sc(p.lo), y, sc(p.hi), y, stroke="#222" if bars else colour,
                         width=1.3)
                for e in (p.lo, p.hi):
                    svg.line(sc(e), y - 4, sc(e), y + 4, stroke="#222" if bars else colour,
                             width=1.3)
            if not bars:
                svg.circle(sc(p.value), y, 4, colour)
            end = max(v for v in (p.value, p.hi) if v is not None)
            lab = p.label if p.label is not None else F.fmt(kind, p.value, unit=True)
            svg.text(min(sc(end) + 5, width - value_room + 2), y, lab, size=TICK,
                     fill="#333")
    return str(svg)


# -- stacked shares ---------------------------------------------------------------------------
def stacked_panel(title: str, rows: Sequence[tuple[str, Sequence[float | None]]],
                  categories: Sequence[tuple[str, str]], width: float = WIDE_W,
                  subtitle: str | None = None, axis_label: str = "share %") -> str:
    """One 100% bar per row split into ``categories`` (name, colour); the legend names
    every category (each is drawn)."""
    label_width = min(max([text_width(l, LABEL) for l, _ in rows] + [60]) + 10, width * 0.4)
    row_h = 24
    top = 44 + (16 if subtitle else 0)
    height = top + row_h * len(rows) + 40
    svg = Svg(width, height, title)
    svg.text(0, 10, title, size=TITLE, weight="600")
    if subtitle:
        svg.text(0, 27, subtitle, size=TICK, fill="#555")
    x = label_width
    for name, colour in categories:
        svg.rect(x, top - 22, 10, 10, colour)
        svg.text(x + 14, top - 17, name, size=TICK)
        x += text_width(name, TICK) + 32
    sc = Scale(0, 1, label_width, width - 10, ticks=[0, .2, .4, .6, .8, 1.0])
    bottom = top + row_h * len(rows)
    _axis(svg, sc, bottom + 2, F.PCT, axis_label, top)
    for i, (label, vals) in enumerate(rows):
        y = top + i * row_h
        svg.text(label_width - 6, y + row_h / 2, clip_text(label, LABEL, label_width - 8),
                 anchor="end")
        left = 0.0
        for v, (name, colour) in zip(vals, categories):
            v = v or 0.0
            svg.rect(sc(left), y + 3, sc(left + v) - sc(left), row_h - 6, colour,
                     title=f"{label}: {name} {F.fmt(F.PCT, v, unit=True)}")
            if v >= 0.07:
                svg.text(sc(left + v / 2), y + row_h / 2, F.fmt(F.PCT, v, unit=True,
                                                                decimals=0),
                         size=TICK, anchor="middle", fill="white", weight="600")
            left += v
    return str(svg)


# -- lines over turns -------------------------------------------------------------------------
@dataclass
class Line:
    name: str
    xs: list[float]
    ys: list[float | None]
    lo: list[float | None] = field(default_factory=list)
    hi: list[float | None] = field(default_factory=list)
    colour: str = BLUE


def line_panel(title: str, lines: Sequence[Line], kind: str, *, lo: float, hi: float,
               x_label: str, y_label: str, width: float = PANEL_W,
               subtitle: str | None = None) -> str:
    """Lines with interval bands; the legend names only the lines drawn."""
    lines = [ln for ln in lines if any(y is not None for y in ln.ys)]
    if len(lines) == 1:      # no legend for one line: its name goes under the title
        subtitle = f"{lines[0].name}: {subtitle}" if subtitle else lines[0].name
    legend_rows = math.ceil(len(lines) / 2) if len(lines) > 1 else 0
    top = 28 + (16 if subtitle else 0) + 16 * legend_rows
    plot_h = 190
    height = top + plot_h + 44
    left = 52
    svg = Svg(width, height, title)
    svg.text(0, 10, clip_text(title, TITLE, width), size=TITLE, weight="600")
    if subtitle:
        svg.text(0, 27, clip_text(subtitle, TICK, width), size=TICK, fill="#555")
    if legend_rows:
        for k, ln in enumerate(lines):
            x = left + (k % 2) * (width - left) / 2
            y = top - 16 * legend_rows + 16 * (k // 2) - 4
            svg.line(x, y, x + 16, y, stroke=ln.colour, width=2.5)
            svg.text(x + 22, y, clip_text(ln.name, TICK, (width - left) / 2 - 30), size=TICK)
    xs = [x for ln in lines for x in ln.xs]
    if not xs:
        return str(svg)
    sx = Scale(min(xs), max(xs), left, width - 12,
               ticks=nice_ticks(min(xs), max(xs), 6))
    ys = Scale(lo, hi, 0, 1)
    ty = ys.ticks

    def Y(v):
        return top + plot_h - (v - ys.lo) / ((ys.hi - ys.lo) or 1) * plot_h

    for t in ty:
        svg.line(left, Y(t), width - 12, Y(t), stroke="#e3e3e3")
        svg.text(left - 5, Y(t), F.fmt(kind, t, decimals=_tick_decimals(ty, kind)),
                 size=TICK, anchor="end", fill="#444")
    svg.line(left, top + plot_h, width - 12, top + plot_h, stroke="#999")
    for t in sx.ticks:
        svg.text(sx(t), top + plot_h + 12, F.fmt(F.NUMBER, t, decimals=0), size=TICK,
                 anchor="middle", fill="#444")
    svg.text((left + width) / 2, top + plot_h + 30, x_label, size=TICK, anchor="middle",
             fill="#444")
    svg.text(0, top - 8 if not legend_rows else top - 16 * legend_rows - 16, "", size=TICK)
    svg.add(f"<text x='12' y='{top + plot_h / 2:.1f}' font-size='{TICK}' fill='#444' "
            f"text-anchor='middle' transform='rotate(-90 12 {top + plot_h / 2:.1f})'>"
            f"{esc(y_label)}</text>")
    for ln in lines:
        band = [(x, a, b) for x, a, b in zip(ln.xs, ln.lo, ln.hi) if a is not None and b is not None]
        if band:
            d = "M" + " L".join(f"{sx(x):.1f},{Y(b):.1f}" for x, _, b in band)
            d += " L" + " L".join(f"{sx(x):.1f},{Y(a):.1f}" for x, a, _ in reversed(band)) + " Z"
            svg.path(d, fill=ln.colour, opacity=0.15)
        pts = [(x, y) for x, y in zip(ln.xs, ln.ys) if y is not None]
        if pts:
            svg.path("M" + " L".join(f"{sx(x):.1f},{Y(y):.1f}" for x, y in pts),
                     stroke=ln.colour, width=2)
            for x, y in pts:
                svg.circle(sx(x), Y(y), 2.5, ln.colour)
    return str(svg)


__all__ = ["Svg", "Scale", "Point", "Row", "Line", "interval_panel", "stacked_panel",
           "line_panel", "nice_ticks", "text_width", "clip_text", "SERIES", "BLUE", "ORANGE",
           "GREEN", "VERMILION", "PURPLE", "SKY", "YELLOW", "GREY"]
