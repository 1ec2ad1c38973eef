"""The report: every analysis of a dataset as one self-contained HTML page, its charts as
inline SVG (text in the page's font; the CJK font subset to the page's characters and
embedded as an ``@font-face`` data URI; no scripts, no network), each chart also written
beside the page as an ``.svg`` file, and a terminal summary.

The first screen answers: the study's question, its sources and sample sizes, the headline
findings with their intervals and the differences the sample can detect
(:func:`headline_html`, fed a list of :class:`~mjfast.report.Finding`), and the contents.
Renders what :mod:`mjfast.analytics` computes."""
from __future__ import annotations

import html
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import polars as pl

from .. import __version__
from ..analytics import compare, dataset_roots, get_analysis
from . import _charts
from . import _format as F
from ._fonts import find_cjk_font, font_face_css, missing_glyphs
from ._summary import (Finding, StudySummary, compare_notes, findings_from_compare,
                       study_config, study_summary)
from ._tables import for_reading, grid
from ._terminal import Fitted, per_group_head
from ._terminal import render_table as _render

ROWS_PER_GROUP = 12      # table rows per rule set / variant / source group on the page


@dataclass(frozen=True)
class Section:
    key: str                 # analysis name, also the chart's file stem and the anchor
    title: str
    text: str
    rows: int = ROWS_PER_GROUP
    chart: bool = True


SECTIONS = (
    Section("compare", "Rule comparison",
            "Every metric under each variant against the reference variant: the difference "
            "and its 95% interval. Paired rows compare the same deals (or hands) under both "
            "variants; unpaired rows compare each variant's own data. Rates and shares "
            "differ in percentage points (pp).", rows=40),
    Section("play-stats", "Play statistics",
            "Rates per player-deal (the draw rate per deal) with 95% Wilson intervals; the "
            "winning turn is the winner's discards before the win + 1; the win total is in "
            "the rule set's points (MCR points, Taiwan tai, Tuidaohu fan)."),
    Section("fan-frequency", "Fan frequency",
            "Share of legal wins holding each fan, with its 95% Wilson interval, and the "
            "points it contributes. Each rule set, variant and source has its own panel, all "
            "on one scale."),
    Section("fan-cooccurrence", "Co-occurrence of the top fans",
            "How often two of the ten most frequent fans (base fans aside) come together: "
            "wins holding both, P(b | a) and the lift (1 = independent).", rows=10),
    Section("payments", "Net payment per deal",
            "Each player's mean net payment per deal (kong payments included) by seat wind "
            "and dealer, with its 95% interval; the variants of a rule set share one scale."),
    Section("ev", "Expected value of a ready hand",
            "Mean gain over a ready hand's winning tiles weighted by their live copies "
            "(MCR: 8+F from the discarder and 8 from each other player; 3×(8+F) on a "
            "self-draw; a wait under 8 points gains 0), ± 1.96 standard errors."),
    Section("high-low", "MCR high/low: the 8-point threshold",
            "A ready hand's winning tiles are high when the win reaches the minimum (8 "
            "points in MCR) and low when it does not. Shares of ready hands and of live "
            "winning tiles."),
    Section("high-low-self-draw", "High/low: how a self-draw changes the split",
            "Ready hands by their category on a discard and on a self-draw.", chart=False),
    Section("high-low-fans", "Which fans decide the split",
            "Fans on every high wait and on no low wait of split hands (needs per-wait fan "
            "lists; the last column counts split hands without them).", chart=False),
    Section("high-low-by-turn", "High/low by turn and shanten history",
            "Ready decisions in replays and simulations by turn and by the shanten after "
            "the player's previous discard.", rows=8, chart=False),
    Section("high-low-stood", "How often players stood on low or split waits",
            "Player-deals with a ready hand in which the player stood on a split or all-low "
            "wait at least once.", chart=False),
    Section("high-low-better", "What a better discard would have kept",
            "Decisions left on a split or all-low wait where another ready discard kept more "
            "live high tiles (from the candidates table).", chart=False),
    Section("play-by-turn", "Shanten and ready rate by turn",
            "Mean 14-tile shanten and the share of decisions that leave a ready hand.",
            rows=8),
    Section("discard-agreement", "Real discards against the efficiency-best",
            "Share of real discards ranked first by efficiency (and by value) among all "
            "possible discards.", chart=False),
)
_BY_KEY = {s.key: s for s in SECTIONS}


@dataclass
class Report:
    dataset: Path
    results: dict[str, pl.DataFrame] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    n_datasets: int = 1
    findings: list[Finding] | None = None     # None: from the compare table

    # -- what the first screen says ---------------------------------------------------------
    def comparison(self) -> pl.DataFrame | None:
        """The compare table when it is a study (variants of one rule set), else None."""
        df = self.results.get("compare")
        if df is None or df.height == 0 or df.select("variant").n_unique() < 2:
            return None
        if self.n_datasets > 1 and not df["paired"].any():
            return None     # variants of different jobs (replay vs simulation) are no study
        return df

    def headline(self) -> list[Finding]:
        if self.findings is not None:
            return list(self.findings)
        cfg = study_config(self.dataset)
        found = findings_from_compare(self.comparison(), mode=cfg.get("mode"),
                                      headline=cfg.get("headline"))
        return found or findings_from_play(self.results.get("play-stats"))

    def study(self) -> StudySummary:
        notes = compare_notes(self.comparison()) if self.findings is None else []
        return study_summary(self.dataset, self.results, self.counts, self.headline(), notes)

    # -- HTML ---------------------------------------------------------------------------------
    def write(self, out_dir: str | os.PathLike) -> Path:
        """Write ``report.html`` and the charts (``<section>.svg``) into ``out_dir``;
        returns the page."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.png"):      # charts of an earlier version of the report
            old.unlink()
        font = find_cjk_font()
        cjk_names = _cjk_text(self.results)
        if font is not None and missing_glyphs(font, cjk_names):
            font = None
        cjk = font is not None
        summary = self.study()
        body, toc, absent = [], [], []
        for s in SECTIONS:
            df = self.results.get(s.key)
            if s.key == "compare":
                df = self.comparison()
            if df is None or df.height == 0:
                absent.append(s)
                continue
            toc.append(s)
            body.append(self._section(s, df, cjk, out))
        if self.errors:
            body.append("<section id='not-computed'><h2>Not computed</h2><ul>" + "".join(
                f"<li>{html.escape(k)}: {html.escape(v)}</li>" for k, v in self.errors.items())
                + "</ul></section>")
        first = _first_screen(summary, toc, absent, self.dataset, cjk)
        about = _about(self, font)
        page_body = "\n".join([first, *body, about])
        css = font_face_css(font, page_body + summary.title) if cjk else ""
        page = _PAGE.format(font_css=css, title=html.escape(summary.title), body=page_body)
        path = out / "report.html"
        path.write_text(page, encoding="utf-8")
        return path

    def _section(self, s: Section, df: pl.DataFrame, cjk: bool, out: Path) -> str:
        parts = [f"<section id='{s.key}'><h2>{html.escape(s.title)}</h2>"]
        if s.text:
            parts.append(f"<p class='note'>{html.escape(s.text)}</p>")
        same_notes: list[str] = []
        if s.key != "compare":
            df, same_notes = collapse_same(df)
        for n in same_notes:
            parts.append(f"<p class='same'>{html.escape(n)}</p>")
        fn = _charts.CHARTS.get(s.key) if s.chart else None
        if fn is not None:
            try:
                ch = fn(df, cjk)
            except Exception as exc:   # a chart never sinks the report
                self.errors[f"chart {s.key}"] = f"{type(exc).__name__}: {exc}"
                ch = None
            if ch is not None and ch.panels:
                cls = "panels wide" if ch.wide else "panels"
                parts.append(f"<div class='{cls}'>" + "".join(
                    f"<figure>{p}</figure>" for p in ch.panels) + "</div>")
                (out / f"{s.key}.svg").write_text(_standalone_svg(ch.panels), encoding="utf-8")
                if ch.note:
                    parts.append(f"<p class='note'>{html.escape(ch.note)}</p>")
        parts.append(self._table(s, df, cjk))
        parts.append("</section>")
        return "\n".join(parts)

    def _table(self, s: Section, df: pl.DataFrame, cjk: bool) -> str:
        name = s.key
        df, said = for_reading(name, df, cjk)
        shown, left_out, groups = _rows_for_page(df, name, s.rows)
        cols = [c for c in grid(shown.head(0), name).cols if c.rank <= 1]
        g = grid(shown, name, cols, cjk=cjk)
        base = (shown["base"].to_list() if "base" in shown.columns
                else [False] * shown.height)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in g.headers)
        rows = []
        for cells, is_base in zip(g.rows, base):
            tds = "".join(f"<td class='{'num' if num else 'txt'}'>{html.escape(v)}</td>"
                          for v, num in zip(cells, g.numeric))
            rows.append(f"<tr class='base'>{tds}</tr>" if is_base else f"<tr>{tds}</tr>")
        notes = [f"<p class='same'>{html.escape(x)}</p>" for x in said]
        if any(base):
            notes.append("Grey rows: the base fan, held by every ordinary win (left out of "
                         "the chart and of the co-occurrence ranking).")
        q = _query_cmd(self.dataset, name)
        hidden = [c.name for c in grid(df.head(0), name).cols if c.rank > 1]
        if left_out:
            per = f"the first {s.rows} rows of each of {groups} groups shown; " if groups > 1 else ""
            notes.append(f"{per}{left_out:,} more rows: <code>{html.escape(q)} --format csv"
                         f"</code>")
        if hidden:
            notes.append(f"More columns ({html.escape(', '.join(hidden[:6]))}"
                         f"{', …' if len(hidden) > 6 else ''}): <code>{html.escape(q)} --all"
                         f"</code>")
        note = "".join(n if n.startswith("<p") else f"<p class='note'>{n}</p>" for n in notes)
        return (f"<div class='tw'><table><thead><tr>{head}</tr></thead><tbody>"
                f"{''.join(rows)}</tbody></table></div>{note}")

    # -- terminal -----------------------------------------------------------------------------
    def summary(self, width: int | None = None):
        """Rich renderables for a terminal: the headline findings, the play statistics,
        the top fans of each rule set (base fans aside) and the MCR high/low split, each
        fitted to ``width`` columns (default: the width of the console that prints it)."""
        parts = []

        def render_table(df, title, **kw):     # fitted when printed unless width is given
            return (Fitted(df, title, **kw) if kw.pop("width", None) is None
                    else _render(df, title, width=width, **kw))
        found = self.headline()
        if found:
            parts.append(findings_table(found, width) if width else Fitted(
                *_findings_frame(found), name="findings", max_rows=10_000,
                all_hint="the report's first screen"))

        def hint(name):
            return f"{_query_cmd(self.dataset, name)} --all"
        ps = self.results.get("play-stats")
        if ps is not None and ps.height:
            parts.append(render_table(collapse_same(ps)[0], "Play statistics",
                                      name="play-stats", width=width,
                                      all_hint=hint("play-stats")))
        ff = self.results.get("fan-frequency")
        if ff is not None and ff.height:
            parts.append(render_table(collapse_same(top_fans(ff, 3))[0],
                                      "Top fans of each rule set (base fans aside)",
                                      name="fan-frequency", width=width, max_rows=10_000,
                                      all_hint=hint("fan-frequency")))
        hl = self.results.get("high-low")
        if hl is not None and hl.height:
            parts.append(render_table(collapse_same(hl)[0], "MCR high/low", name="high-low",
                                      width=width, all_hint=hint("high-low")))
        return parts


def top_fans(ff: pl.DataFrame, n: int = 3) -> pl.DataFrame:
    """The ``n`` most frequent fans of each rule set / variant / source, base fans aside."""
    keys = [k for k in ("rules", "variant", "source") if k in ff.columns]
    df = ff.filter(~pl.col("base")) if "base" in ff.columns else ff
    df = df.sort([*keys, "wins", "fan_id"], descending=[False] * len(keys) + [True, False],
                 nulls_last=True)
    return df.filter(pl.col("wins").rank("ordinal", descending=True).over(keys) <= n)


def findings_from_play(ps: pl.DataFrame | None) -> list[Finding]:
    """Without a comparison: each rule set's win and draw rate as the headline."""
    if ps is None or ps.height == 0:
        return []
    out = []
    for r in ps.to_dicts():
        who = " · ".join(str(r[k]) for k in ("rules", "variant", "source") if r.get(k))
        out.append(Finding(f"Win rate ({who})", r["win_rate"],
                           (r.get("win_rate_low"), r.get("win_rate_high")), F.PCT,
                           f"{r['deals']:,} deals", None, "per player-deal",
                           str(r["rules"]), str(r["variant"])))
    return out


def _findings_frame(found: Sequence[Finding]):
    rows = [{"finding": f.name, "group": _group(f), "estimate": _estimate(f),
             "detectable": _detect(f), "sample": f.sample, "note": f.note} for f in found]
    df = pl.DataFrame(rows, schema={k: pl.String for k in ("finding", "group", "estimate",
                                                           "detectable", "sample", "note")})
    return df, "Headline findings"


def findings_table(found: Sequence[Finding], width: int | None = None):
    """The headline findings as a terminal table (same formats as the page)."""
    df, title = _findings_frame(found)
    return _render(df, title, name="findings", width=width, max_rows=10_000,
                   all_hint="the report's first screen")


def _group(f: Finding) -> str:
    g = " · ".join(x for x in (f.rules, f.source) if x)
    if f.variant and f.reference:
        return f"{g}: {f.variant} vs {f.reference}"
    return f"{g}: {f.variant}" if f.variant else g


def _estimate(f: Finding) -> str:
    if f.same:
        return "same under both"
    s = F.fmt(f.unit, f.estimate, unit=True)
    if f.interval is not None:
        s += f" ({F.fmt_interval(f.unit, *f.interval)})"
    return s


def _detect(f: Finding) -> str:
    if f.detectable is None:
        return F.MISSING
    return "±" + F.fmt(f.unit if f.unit not in F.SIGNED else
                       {F.PP: F.PCT, F.DPOINTS: F.POINTS, F.DTURNS: F.TURNS}[f.unit],
                       f.detectable, unit=True).replace("%", " pp" if f.unit == F.PP else "%")


def headline_html(findings: Sequence[Finding]) -> str:
    """The headline section: one row per finding (what, group, estimate with its 95%
    interval, the difference the sample can detect, the sample, a note)."""
    if not findings:
        return ("<p class='note'>No headline findings: this dataset holds no comparison of "
                "variants.</p>")
    # a note shared by several findings is said once, under the table, with a mark
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.note] = counts.get(f.note, 0) + 1
    marks = {n: "*" * (k + 1) for k, n in enumerate(n for n, c in counts.items() if n and c > 1)}
    rows = []
    for f in findings:
        cls = " class='sig'" if f.significant() else (" class='same'" if f.same else "")
        note = marks.get(f.note, f.note)
        rows.append(
            f"<tr{cls}><td class='txt'>{html.escape(f.name)}</td>"
            f"<td class='txt'>{html.escape(_group(f))}</td>"
            f"<td class='num'>{html.escape(_estimate(f))}</td>"
            f"<td class='num'>{html.escape(_detect(f))}</td>"
            f"<td class='num'>{html.escape(f.sample)}</td>"
            f"<td class='txt'>{html.escape(note)}</td></tr>")
    sig = [f for f in findings if f.significant()]
    if all(f.same for f in findings):
        answer = "The variants gave identical results in every paired comparison."
    elif sig:
        answer = (f"{len(sig)} of {len(findings)} findings differ from zero (95% interval "
                  f"clear of it): " + "; ".join(f"{f.name} {_estimate(f)}" for f in sig[:4])
                  + ("; …" if len(sig) > 4 else "") + ".")
    else:
        answer = ("No interval excludes zero: no difference detected at this sample size "
                  "(the detectable differences say how large one would have to be).")
    answer_html = f"<p class='answer'><b>Answer.</b> {html.escape(answer)}</p>"
    foot = "".join(f"<p class='note'>{html.escape(m)} {html.escape(n[:1].upper() + n[1:])}."
                   f"</p>" for n, m in marks.items())
    return (answer_html + "<table class='findings'><thead><tr><th>finding</th><th>rule set: variants</th>"
            "<th>estimate (95% CI)</th><th>detectable difference</th><th>sample</th>"
            "<th>note</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>" + foot +
            "<p class='note'>Detectable difference: the smallest true difference this sample "
            "would find with 95% confidence and 80% power (2.8 standard errors). Bold: the "
            "interval excludes zero.</p>")


def _first_screen(s: StudySummary, toc: Sequence[Section], absent: Sequence[Section],
                  dataset: Path, cjk: bool) -> str:
    src_rows = "".join(
        f"<tr><td class='txt'>{html.escape(x.name)}</td><td class='txt'>{html.escape(x.rules)}"
        f"</td><td class='txt'>{html.escape(', '.join(x.variants))}</td>"
        f"<td class='num'>{html.escape(F.fmt(F.COUNT, x.sample) + ' ' + x.unit if x.sample is not None else F.MISSING)}</td>"
        f"<td class='txt'>{html.escape(x.design)}</td></tr>" for x in s.sources)
    sources = ("<table class='sources'><thead><tr><th>source</th><th>rules</th><th>variants"
               "</th><th>sample (per variant)</th><th>design</th></tr></thead><tbody>"
               + src_rows + "</tbody></table>") if s.sources else ""
    notes = "".join(f"<p class='note'>{html.escape(n)}</p>" for n in s.notes)
    items = "".join(f"<li><a href='#{x.key}'>{html.escape(x.title)}</a></li>" for x in toc)
    missing = (f"<p class='note'>Not in this dataset: "
               f"{html.escape(', '.join(x.title for x in absent))}.</p>" if absent else "")
    return (f"<header id='summary'><h1>{html.escape(s.title)}</h1>"
            f"<p class='question'><b>Question.</b> {html.escape(s.question)}</p>"
            f"<h2 class='first'>Headline findings</h2>{headline_html(s.findings)}"
            f"<div class='cols'><div><h3>Sources and sample sizes</h3>{sources}{notes}</div>"
            f"<nav><h3>Contents</h3><ol>{items}</ol>{missing}</nav></div></header>")


def _about(rep: Report, font) -> str:
    counts = ", ".join(f"{k} {v:,}" for k, v in rep.counts.items()) or "empty"
    fontnote = (f"fan names set in {font.family} (subset embedded)" if font is not None
                else "no CJK font found: English fan names")
    return (f"<footer id='about'><h2>About this report</h2><p class='note'>Dataset "
            f"<code>{html.escape(str(rep.dataset))}</code> · rows: {html.escape(counts)} · "
            f"mjfast {html.escape(__version__)} · {html.escape(fontnote)}. Any table: "
            f"<code>{html.escape(_query_cmd(rep.dataset, 'NAME'))}</code> (<code>"
            f"{html.escape(_query_cmd(rep.dataset, 'list'))}</code> names them).</p></footer>")


def _query_cmd(dataset: Path, name: str) -> str:
    return f"mjfast query {shlex.quote(str(dataset))} {name}"


def _rows_for_page(df: pl.DataFrame, name: str, rows: int):
    """Every group's first ``rows`` rows (fan tables: the top fans, base fans last)."""
    keys = [k for k in ("rules", "variant", "source") if k in df.columns]
    if name == "fan-frequency" and "base" in df.columns:
        top = top_fans(df, rows)
        base = df.filter(pl.col("base"))
        shown = pl.concat([top, base]).sort(
            [*keys, "base", "wins"], descending=[False] * len(keys) + [False, True],
            nulls_last=True)
        return shown, df.height - shown.height, df.select(keys).unique().height
    n_groups = max(df.select(keys).unique().height, 1) if keys else 1
    return per_group_head(df, name, rows * n_groups)


def collapse_same(df: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """Variants of a rule set (and source) whose rows are identical are shown once, as
    ``default = botzone``; returns the frame and a sentence per merge."""
    if df.height == 0 or "variant" not in df.columns or "rules" not in df.columns:
        return df, []
    keys = [k for k in ("rules", "source") if k in df.columns]
    flat = [c for c, t in df.schema.items() if c != "variant" and not t.is_nested()]
    parts, notes = [], []
    for g, sub in _charts.groups(df, keys):
        vs = sorted(str(v) for v in sub["variant"].unique().to_list())
        if len(vs) < 2:
            parts.append(sub)
            continue
        # equal to 9 significant digits: sums taken in another order are the same result
        floats = [c for c in flat if df.schema[c].is_float()]
        frames = {v: sub.filter(pl.col("variant") == v).drop("variant").with_columns(
            [_round_sig(c) for c in floats]).sort(flat, nulls_last=True) for v in vs}
        classes: list[list[str]] = []
        for v in vs:
            for cls in classes:
                if frames[cls[0]].equals(frames[v]):
                    cls.append(v)
                    break
            else:
                classes.append([v])
        for cls in classes:
            first = sub.filter(pl.col("variant") == cls[0])
            if len(cls) > 1:
                name = " = ".join(cls)
                first = first.with_columns(pl.lit(name).cast(df.schema["variant"])
                                           .alias("variant"))
                notes.append(f"{_charts.label(g)}: identical under {', '.join(cls[:-1])} and "
                             f"{cls[-1]}, shown once (variant {name}).")
            parts.append(first)
    return pl.concat(parts, how="vertical_relaxed"), notes


def _round_sig(c: str, digits: int = 9) -> pl.Expr:
    x = pl.col(c)
    mag = pl.when(x == 0).then(0).otherwise(x.abs().log10().floor()).fill_nan(0)
    scale = pl.lit(10.0).pow(pl.lit(digits - 1) - mag)
    return pl.when(x.is_finite()).then((x * scale).round(0) / scale).otherwise(x).alias(c)


def _standalone_svg(panels: Sequence[str]) -> str:
    """The panels of a chart as one SVG file (stacked), for use outside the page."""
    import re
    sizes = [tuple(float(x) for x in re.search(r"viewBox='0 0 ([\d.]+) ([\d.]+)'", p).groups())
             for p in panels]
    w = max(s[0] for s in sizes)
    h = sum(s[1] + 16 for s in sizes)
    y, body = 0.0, []
    for p, (pw, ph) in zip(panels, sizes):
        body.append(p.replace("<svg class='chart' ", f"<svg x='0' y='{y:.0f}' ", 1))
        y += ph + 16
    ns = "http://www.w3.org/2000/svg"
    return (f"<svg xmlns='{ns}' viewBox='0 0 {w:.0f} {h:.0f}' "
            f"width='{w:.0f}' height='{h:.0f}' font-family=\"'Noto Sans CJK SC', 'Noto Sans "
            f"CJK JP', 'DejaVu Sans', sans-serif\"><rect width='100%' height='100%' "
            f"fill='white'/>" + "".join(body) + "</svg>")


def build_report(dataset_path: str | os.PathLike) -> Report:
    """Run every analysis over the dataset (an analysis that fails is listed, not fatal)."""
    roots = dataset_roots(dataset_path)
    counts: dict[str, int] = {}
    for d in roots:
        for k, v in d.row_counts().items():
            counts[k] = counts.get(k, 0) + v
    ds = Path(dataset_path)
    rep = Report(ds, counts=counts, n_datasets=len(roots))
    for s in SECTIONS:
        try:
            rep.results[s.key] = (compare(ds) if s.key == "compare"
                                  else get_analysis(s.key)(ds))
        except Exception as exc:
            rep.errors[s.key] = f"{type(exc).__name__}: {exc}"
    return rep


def write_report(dataset_path: str | os.PathLike, out_dir: str | os.PathLike) -> Path:
    """Write the report of a dataset into ``out_dir``; returns the HTML page's path."""
    return build_report(dataset_path).write(out_dir)


def _cjk_text(results: dict[str, pl.DataFrame]) -> str:
    chars = set()
    for df in results.values():
        for c in df.columns:
            if c.startswith(("name_zh", "name_ja")):
                for v in df[c].drop_nulls().unique().to_list():
                    chars |= set(v)
    return "".join(sorted(chars))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{font_css}
body {{ font-family: 'mjfast-cjk', 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif;
       margin: 1.2rem auto; max-width: 1100px; padding: 0 1rem; color: #1b1b1b;
       background: #fafafa; font-size: 15px; line-height: 1.4; }}
h1 {{ font-size: 1.55rem; margin: 0 0 .3rem; }}
h2 {{ font-size: 1.2rem; border-bottom: 2px solid #0072B2; padding-bottom: .15rem;
      margin-top: 2rem; }}
h2.first {{ margin-top: .8rem; }}
h3 {{ font-size: 1rem; margin: .8rem 0 .3rem; }}
.question {{ font-size: 1.05rem; margin: .3rem 0 .4rem; }}
.answer {{ font-size: 1rem; margin: .3rem 0 .5rem; }}
.note {{ color: #555; font-size: .85rem; margin: .3rem 0; }}
.same {{ color: #1b1b1b; background: #fff8e1; padding: .2rem .5rem; font-size: .85rem; }}
.cols {{ display: grid; grid-template-columns: 3fr 1.2fr; gap: 1.5rem; }}
nav ol {{ margin: 0; padding-left: 1.3rem; font-size: .9rem; columns: 1; }}
nav a {{ color: #0b5394; }}
.panels {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr));
           gap: .6rem 1rem; margin: .8rem 0; }}
.panels.wide {{ grid-template-columns: 1fr; }}
figure {{ margin: 0; background: white; padding: .4rem; }}
svg.chart {{ max-width: 100%; height: auto; display: block; }}
svg.chart text {{ font-family: inherit; }}
.tw {{ overflow-x: auto; }}
table {{ border-collapse: collapse; font-size: .82rem; background: white; }}
th, td {{ padding: .2rem .55rem; border-bottom: 1px solid #e0e0e0; white-space: nowrap; }}
th {{ background: #e8f1fa; text-align: left; position: sticky; top: 0; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
td.txt {{ white-space: normal; max-width: 15em; }}
tr.base td {{ color: #777; font-style: italic; }}
table.findings {{ width: 100%; font-size: .88rem; }}
table.findings td.txt {{ white-space: normal; }}
table.findings tr.sig td {{ font-weight: 600; }}
table.findings tr.same td {{ color: #555; }}
table.sources td.txt {{ white-space: normal; }}
code {{ font-size: .85em; background: #eef; padding: 0 .2em; }}
footer {{ margin-top: 2rem; }}
</style></head>
<body>
{body}
</body></html>
"""
