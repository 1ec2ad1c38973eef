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
    heading: bool = False         # a heading over the rows that follow (no marks)


def interval_panel(title: str, rows: Sequence[Row], kind: str, *, lo: float, hi: float,
                   series: Sequence[tuple[str, str]] = (("", BLUE),), bars: bool = True,
                   axis_label: str | None = None, width: float = PANEL_W,
                   label_width: float | None = None, zero: bool = False,
                   subtitle: str | None = None, ref: tuple[float, str] | None = None,
                   signed: bool | None = None) -> str:
    """Horizontal bars (or dots) with interval whiskers, one row per ``Row`` (a heading row
    names the rows under it); every panel given the same ``lo``/``hi`` shares one scale. A
    legend names the series only when there are several (each drawn). ``ref``: a dashed
    line at a value, with its name (e.g. the mean of all players)."""
    per = len(series)
    row_h = 20 if per == 1 else 14 * per + 8
    if any(r.sub for r in rows):
        row_h = max(row_h, 32)
    head_h = 22
    marks = [r for r in rows if not r.heading]
    if label_width is None:
        longest = max([text_width(r.label, LABEL) for r in marks]
                      + [text_width(r.sub or "", TICK) for r in marks] + [40])
        label_width = min(longest + 14, width * 0.45)
    legend_h = 18 if per > 1 else 0
    top = 24 + (16 if subtitle else 0) + legend_h + (14 if ref else 0)
    ys, y = [], top
    for r in rows:
        ys.append(y)
        y += head_h if r.heading else row_h
    bottom = y
    height = bottom + 38
    svg = Svg(width, height, title)
    svg.text(0, 10, clip_text(title, TITLE, width), size=TITLE, weight="600")
    if subtitle:
        svg.text(0, 27, clip_text(subtitle, TICK, width), size=TICK, fill="#555")
    if per > 1:
        x = label_width
        ly = top - legend_h - (14 if ref else 0)
        for name, colour in series:
            svg.rect(x, ly - 1, 10, 10, colour)
            svg.text(x + 14, ly + 4, name, size=TICK)
            x += text_width(name, TICK) + 32
    labels = [p.label if p.label is not None else fmt_signed(kind, p.value, signed)
              for r in marks for p in r.points if p.value is not None]
    value_room = max([text_width(x, TICK) for x in labels] + [30]) + 10
    sc = Scale(lo, hi, label_width + 4, width - value_room)
    _axis(svg, sc, bottom + 2, kind, axis_label, top)
    if zero and sc.lo < 0 < sc.hi:
        svg.line(sc(0), top, sc(0), bottom + 2, stroke="#333", width=1.2)
    if ref is not None and sc.lo <= ref[0] <= sc.hi:
        svg.line(sc(ref[0]), top - 4, sc(ref[0]), bottom + 2, stroke="#555", width=1.2,
                 dash="4 3")
        svg.text(sc(ref[0]), top - 10, ref[1], size=TICK, anchor="middle", fill="#444")
    for r, y0 in zip(rows, ys):
        if r.heading:
            svg.line(0, y0 + 2, width - value_room, y0 + 2, stroke="#d0d0d0")
            svg.text(0, y0 + head_h / 2 + 2, clip_text(r.label, LABEL, width - value_room),
                     weight="600", fill="#333")
            continue
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
            lab = p.label if p.label is not None else fmt_signed(kind, p.value, signed)
            svg.text(min(sc(end) + 5, width - value_room + 2), y, lab, size=TICK,
                     fill="#333")
    return str(svg)


def fmt_signed(kind: str, v, signed: bool | None = None) -> str:
    return F.fmt(kind, v, unit=True, signed=signed)


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


# -- log scales ------------------------------------------------------------------------------
class LogScale:
    """A base-10 log scale from ``lo`` to ``hi`` (both > 0) onto ``x0..x1``; ticks at the
    powers of ten (and 2, 5 between them when the range is short)."""

    def __init__(self, lo: float, hi: float, x0: float, x1: float, reverse: bool = False):
        lo = max(lo, 1e-12)
        hi = max(hi, lo * 10)
        self.llo, self.lhi = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
        if self.lhi == self.llo:
            self.lhi += 1
        self.x0, self.x1, self.reverse = x0, x1, reverse
        decades = self.lhi - self.llo
        mults = (1,) if decades > 3 else (1, 2, 5)
        self.ticks = [m * 10.0 ** e for e in range(self.llo, self.lhi + 1) for m in mults
                      if m * 10.0 ** e <= 10.0 ** self.lhi * (1 + 1e-9)]

    def __call__(self, v: float) -> float:
        v = max(v, 10.0 ** self.llo)
        f = (math.log10(v) - self.llo) / (self.lhi - self.llo)
        if self.reverse:
            f = 1 - f
        return self.x0 + f * (self.x1 - self.x0)


def _log_tick(kind: str, t: float, signed: bool | None = False) -> str:
    scale = F.SCALE.get(kind, 1.0)
    d = max(0, -math.floor(math.log10(t * scale) + 1e-9)) if t * scale < 1 else 0
    return F.fmt(kind, t, decimals=d, signed=signed)


def _spread(ys: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Label positions near ``ys`` (kept in their order), at least ``gap`` apart, inside
    ``lo..hi``."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    out = [0.0] * len(ys)
    last = lo - gap
    for i in order:
        out[i] = max(ys[i], last + gap)
        last = out[i]
    over = last - hi
    if over > 0:                      # push back up from the bottom
        nxt = hi + gap
        for i in reversed(order):
            out[i] = min(out[i], nxt - gap)
            nxt = out[i]
    return out


# -- a price list: a row per item, grouped in bands, values on a log axis ----------------------
@dataclass
class Mark:
    value: float | None
    lo: float | None = None
    hi: float | None = None
    size: float | None = None     # 0..1: the marker's area (None: a plain marker)
    title: str | None = None


@dataclass
class Item:
    label: str
    marks: list[Mark]
    sub: str | None = None        # a grey second name, after the first
    title: str | None = None


def price_panel(title: str, bands: Sequence[tuple[str, Sequence[Item]]], kind: str, *,
                lo: float, hi: float, series: Sequence[tuple[str, str]] = (("", BLUE),),
                subtitle: str | None = None, axis_label: str = "",
                size_legend: tuple[str, Sequence[float]] | None = None,
                width: float = WIDE_W) -> str:
    """Items (rows) grouped in labelled bands (e.g. a fan table's point values), each item's
    value per series on a log axis with its interval; a marker's area shows ``size``
    (legend: ``size_legend`` = (what, example sizes)). The axis is drawn above and below."""
    per = len(series)
    row_h = 16 if per == 1 else 19
    band_w = max([text_width(b, LABEL) for b, _ in bands] + [30]) + 12
    name_w = min(max([text_width(it.label + (" " + it.sub if it.sub else ""), LABEL)
                      for _, items in bands for it in items] + [60]) + 12, width * 0.36)
    legend_h = 20 if (per > 1 or size_legend) else 0
    top = 24 + (16 if subtitle else 0) + legend_h + 22
    n_rows = sum(len(items) for _, items in bands)
    bottom = top + n_rows * row_h + 6 * len(bands)
    height = bottom + 44
    svg = Svg(width, height, title)
    svg.text(0, 10, clip_text(title, TITLE, width), size=TITLE, weight="600")
    if subtitle:
        svg.text(0, 27, clip_text(subtitle, TICK, width), size=TICK, fill="#555")
    x0 = band_w + name_w + 8
    sc = LogScale(lo, hi, x0, width - 16)
    # legend: series colours, then marker sizes
    ly = top - 22 - legend_h + 8
    x = x0
    if per > 1:
        for name, colour in series:
            svg.circle(x + 5, ly + 4, 5, colour)
            svg.text(x + 14, ly + 4, name, size=TICK)
            x += text_width(name, TICK) + 34
    if size_legend:
        what, sizes = size_legend
        svg.text(x, ly + 4, what, size=TICK, fill="#333")
        x += text_width(what, TICK) + 10
        for sz in sizes:
            r = _radius(sz)
            svg.circle(x + r, ly + 4, r, "#888")
            svg.text(x + 2 * r + 4, ly + 4, F.fmt(F.PCT, sz, unit=True, decimals=0), size=TICK)
            x += 2 * r + 4 + text_width(F.fmt(F.PCT, sz, unit=True, decimals=0), TICK) + 16
    for t in sc.ticks:
        svg.line(sc(t), top - 4, sc(t), bottom, stroke="#e3e3e3")
        lab = _log_tick(kind, t)
        svg.text(sc(t), top - 12, lab, size=TICK, anchor="middle", fill="#444")
        svg.text(sc(t), bottom + 10, lab, size=TICK, anchor="middle", fill="#444")
    svg.line(x0, bottom, width - 16, bottom, stroke="#999")
    svg.text((x0 + width - 16) / 2, bottom + 28, axis_label, size=TICK, anchor="middle",
             fill="#444")
    y = top
    for b, (band, items) in enumerate(bands):
        if b:
            svg.line(0, y + 2, width - 16, y + 2, stroke="#c8c8c8")
        y += 6 if b else 3
        svg.text(band_w - 8, y + row_h / 2, band, anchor="end", weight="600", fill="#333")
        for it in items:
            cy = y + row_h / 2
            name = clip_text(it.label, LABEL, name_w - 4)
            svg.text(band_w, cy, name, title=it.title or it.label)
            if it.sub:
                used = text_width(name, LABEL) + 6
                if used < name_w - 30:
                    svg.text(band_w + used, cy, clip_text(it.sub, TICK, name_w - used - 4),
                             size=TICK, fill="#555")
            for j, (m, (_, colour)) in enumerate(zip(it.marks, series)):
                if m.value is None or m.value <= 0 and m.hi in (None, 0):
                    continue
                my = cy + (j - (per - 1) / 2) * 5
                if m.lo is not None and m.hi is not None and m.hi > 0:
                    svg.line(sc(max(m.lo, 10.0 ** sc.llo)), my, sc(m.hi), my, stroke=colour,
                             width=1.2)
                if m.value > 0:
                    r = _radius(m.size) if m.size is not None else 3.5
                    svg.add(f"<circle cx='{sc(m.value):.1f}' cy='{my:.1f}' r='{r:.1f}' "
                            f"fill='{colour}' fill-opacity='0.8' stroke='white' "
                            f"stroke-width='0.8'>"
                            + (f"<title>{esc(m.title)}</title>" if m.title else "")
                            + "</circle>")
            y += row_h
    return str(svg)


def _radius(size: float | None) -> float:
    return 2.5 + 5.5 * math.sqrt(max(0.0, min(1.0, size or 0.0)))


# -- lines on log-log axes -------------------------------------------------------------------
@dataclass
class LogLine:
    name: str
    xs: list[float]
    ys: list[float]
    colour: str = BLUE
    mark: tuple[float, float] | None = None     # a highlighted point (e.g. the observed)
    mark_title: str | None = None


def loglog_panel(title: str, lines: Sequence[LogLine], x_kind: str, *, x_label: str,
                 y_label: str, subtitle: str | None = None,
                 hlines: Sequence[tuple[float, str]] = (), width: float = PANEL_W) -> str:
    """Lines on log-log axes, each named at its right end (names kept apart); dashed
    horizontal reference lines (e.g. the present sample) with their names."""
    lines = [ln for ln in lines if ln.xs]
    xs = [x for ln in lines for x in ln.xs if x > 0]
    ys = [y for ln in lines for y in ln.ys if y > 0] + [h for h, _ in hlines]
    name_w = min(max([text_width(ln.name, TICK) for ln in lines] + [40]) + 14, width * 0.42)
    left, top, plot_h = 58, 30 + (16 if subtitle else 0), 230
    right = width - name_w
    height = top + plot_h + 46
    svg = Svg(width, height, title)
    svg.text(0, 10, clip_text(title, TITLE, width), size=TITLE, weight="600")
    if subtitle:
        svg.text(0, 27, clip_text(subtitle, TICK, width), size=TICK, fill="#555")
    if not xs:
        return str(svg)
    sx = LogScale(min(xs), max(xs), left, right - 8)
    sy = LogScale(min(ys), max(ys), top + plot_h, top)
    for t in sx.ticks:
        svg.line(sx(t), top, sx(t), top + plot_h, stroke="#e3e3e3")
        svg.text(sx(t), top + plot_h + 12, _log_tick(x_kind, t), size=TICK, anchor="middle",
                 fill="#444")
    for t in sy.ticks:
        svg.line(left, sy(t), right - 8, sy(t), stroke="#e3e3e3")
        svg.text(left - 5, sy(t), F.fmt(F.COUNT, int(round(t))) if t >= 1 else f"{t:g}",
                 size=TICK, anchor="end", fill="#444")
    svg.line(left, top + plot_h, right - 8, top + plot_h, stroke="#999")
    svg.line(left, top, left, top + plot_h, stroke="#999")
    svg.text((left + right) / 2, top + plot_h + 30, x_label, size=TICK, anchor="middle",
             fill="#444")
    svg.add(f"<text x='12' y='{top + plot_h / 2:.1f}' font-size='{TICK}' fill='#444' "
            f"text-anchor='middle' transform='rotate(-90 12 {top + plot_h / 2:.1f})'>"
            f"{esc(y_label)}</text>")
    for h, name in hlines:
        svg.line(left, sy(h), right - 8, sy(h), stroke="#333", width=1.2, dash="5 3")
        svg.text(left + 4, sy(h) - 7, name, size=TICK, fill="#333")
    ends = []
    for ln in lines:
        pts = sorted((x, y) for x, y in zip(ln.xs, ln.ys) if x > 0 and y > 0)
        if not pts:
            continue
        svg.path("M" + " L".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts),
                 stroke=ln.colour, width=2)
        for x, y in pts:
            svg.circle(sx(x), sy(y), 2.5, ln.colour)
        if ln.mark is not None and ln.mark[0] > 0 and ln.mark[1] > 0:
            svg.circle(sx(ln.mark[0]), sy(ln.mark[1]), 5, "white", title=ln.mark_title,
                       stroke=ln.colour)
        ends.append((ln, sx(pts[-1][0]), sy(pts[-1][1])))
    placed = _spread([e[2] for e in ends], 13, top, top + plot_h + 20)
    for (ln, ex, ey), ly in zip(ends, placed):
        if abs(ly - ey) > 2 or ex < right - 12:
            svg.line(ex + 3, ey, right - 2, ly, stroke=ln.colour, width=0.8)
        svg.text(right, ly, clip_text(ln.name, TICK, name_w - 4), size=TICK, fill=ln.colour
                 if ln.colour not in (YELLOW, SKY) else "#333")
    return str(svg)


# -- a triangular heat map -------------------------------------------------------------------
def heatmap_panel(title: str, names: Sequence[tuple[str, str | None]],
                  cells: dict[tuple[int, int], tuple[str, str, str]], *,
                  legend: Sequence[tuple[str, str]] = (), subtitle: str | None = None,
                  width: float = PANEL_W) -> str:
    """A lower-triangular matrix of the items ``names`` (label, grey second label): cell
    (i, j), i > j, has (fill colour, text, hover text); ``legend`` (colour, words)."""
    n = len(names)
    label_w = min(max([text_width(a, LABEL) + (text_width(b or "", TICK) + 6 if b else 0)
                       for a, b in names] + [40]) + 10, width * 0.45)
    cell = max(28.0, min(44.0, (width - label_w - 8) / max(n - 1, 1)))
    top = 26 + (16 if subtitle else 0) + (20 if legend else 0)
    grid_top = top + 4
    height = grid_top + cell * (n - 1) + 96
    svg = Svg(width, height, title)
    svg.text(0, 10, clip_text(title, TITLE, width), size=TITLE, weight="600")
    if subtitle:
        svg.text(0, 27, clip_text(subtitle, TICK, width), size=TICK, fill="#555")
    x = 0
    for colour, words in legend:
        svg.add(f"<rect x='{x:.1f}' y='{top - 20:.1f}' width='12' height='12' fill='{colour}' "
                f"stroke='#bbb' stroke-width='0.5'/>")
        svg.text(x + 16, top - 14, words, size=TICK)
        x += text_width(words, TICK) + 34
    for i in range(1, n):                       # rows: the 2nd .. last item
        y = grid_top + (i - 1) * cell
        a, b = names[i]
        if b:
            bw = min(text_width(b, TICK), label_w * 0.6)
            svg.text(label_w - 6, y + cell / 2, clip_text(b, TICK, bw + 1), size=TICK,
                     anchor="end", fill="#555")
            svg.text(label_w - 12 - bw, y + cell / 2,
                     clip_text(a, LABEL, label_w - bw - 14), anchor="end", title=f"{a} {b}")
        else:
            svg.text(label_w - 6, y + cell / 2, clip_text(a, LABEL, label_w - 8),
                     anchor="end", title=a)
        for j in range(i):
            fill, txt, hover = cells.get((i, j), ("#f2f2f2", "–", "never together"))
            svg.rect(label_w + j * cell, y, cell - 2, cell - 2, fill, title=hover)
            svg.text(label_w + j * cell + (cell - 2) / 2, y + (cell - 2) / 2, txt, size=TICK,
                     anchor="middle", fill="#1b1b1b")
    base = grid_top + (n - 1) * cell + 4
    for j in range(n - 1):                      # columns: the 1st .. next-to-last item
        cx = label_w + j * cell + (cell - 2) / 2
        a, _ = names[j]
        svg.add(f"<text x='{cx:.1f}' y='{base:.1f}' font-size='{LABEL}' text-anchor='end' "
                f"dominant-baseline='middle' fill='#1b1b1b' transform='rotate(-50 {cx:.1f} "
                f"{base:.1f})'><title>{esc(a)}</title>{esc(clip_text(a, LABEL, 110))}</text>")
    return str(svg)


__all__ = ["Svg", "Scale", "LogScale", "Point", "Row", "Line", "Mark", "Item", "LogLine",
           "interval_panel", "stacked_panel", "line_panel", "price_panel", "loglog_panel",
           "heatmap_panel", "nice_ticks", "text_width", "clip_text", "SERIES", "BLUE", "ORANGE",
           "GREEN", "VERMILION", "PURPLE", "SKY", "YELLOW", "GREY"]
