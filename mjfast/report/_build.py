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
from ..analytics import compare, dataset_roots, get_analysis, study_answer
from . import _charts
from . import _format as F
from ._fonts import find_cjk_font, font_face_css, missing_glyphs
from ._summary import (Finding, StudySummary, compare_notes, findings_from_answer,
                       findings_from_compare, study_config, study_summary)
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
    Section("seat-advantage", "Seat advantage",
            "Does a seat, the dealer or the first to play win more? Net points per "
            "player-deal (kong payments included) by dealer, seat wind and position, each "
            "variant a colour on one scale, with 95% intervals (clustered by wall: the seat "
            "rotations of a wall share its luck), and the compensation per deal that would "
            "give every seat the same expectation."),
    Section("fan-value", "Fan value: a price list",
            "What each fan is worth against how often it is held: one row per fan, in the "
            "band of its points, its share of legal wins on a log scale; the larger the "
            "marker, the more often the fan is what lifts a win over the minimum (pivotal "
            "share). The table ranks the fans by their share of all points; intervals are "
            "per fan (95%, not adjusted for the number of fans: *_adj_* columns are).",
            rows=15),
    Section("sample-size", "Sample size: what this study can detect",
            "How many deals (hands, decisions) each variant needs to detect a difference of a "
            "given size with 95% confidence and 80% power, from the variance this study "
            "observed (paired and clustered as it was). Each row: the observed difference, "
            "the sample that would confirm it, what the present sample detects, and the "
            "samples for the planning grid. Clusters: walls in simulations (all seat "
            "rotations of a wall), logged deals in replays.", rows=12),
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
    Section("payments", "Net payment per deal, by player",
            "Each player's mean net payment per deal (kong payments included) by seat wind "
            "and dealer, with its 95% interval, every deal of a rule set and variant "
            "together (logs and simulations). The seat comparison, per source and with "
            "intervals clustered by wall, is under Seat advantage.", chart=False),
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
            "the player's previous discard.", rows=8),
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
    findings: list[Finding] | None = None     # None: the study's answer, else compare's
    answer: pl.DataFrame | None = None        # mjfast.analytics.study_answer, for a study

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
        found = findings_from_answer(self.answer)
        if found:
            return found
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
                ch = (fn(df, cjk, metrics=study_config(self.dataset).get("headline"))
                      if s.key == "sample-size" else fn(df, cjk))
            except Exception as exc:   # a chart never sinks the report
                self.errors[f"chart {s.key}"] = f"{type(exc).__name__}: {exc}"
                ch = None
            if ch is not None and ch.panels:
                cls = "panels wide" if ch.wide else "panels"
                parts.append(f"<div class='{cls}'>" + "".join(
                    f"<figure{' class=span' if k in ch.span else ''}>{p}</figure>"
                    for k, p in enumerate(ch.panels)) + "</div>")
                (out / f"{s.key}.svg").write_text(_standalone_svg(ch.panels), encoding="utf-8")
            if ch is not None and ch.note:
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
        names = [c.name for c in g.cols]
        head = "".join(f"<th class='c-{html.escape(n)}'>"
                       f"{html.escape(h).replace('95% CI', '95%&nbsp;CI')}</th>"
                       for h, n in zip(g.headers, names))
        rows = []
        for cells, is_base in zip(g.rows, base):
            tds = "".join(f"<td class='{'num' if num else 'txt'} c-{html.escape(n)}'>"
                          f"{html.escape(v)}</td>" for v, num, n in zip(cells, g.numeric, names))
            rows.append(f"<tr class='base'>{tds}</tr>" if is_base else f"<tr>{tds}</tr>")
        notes = [f"<p class='same'>{html.escape(x)}</p>" for x in said]
        if any(base):
            notes.append("Grey rows: the base fan, held by every ordinary win (left out of "
                         "the chart and of the co-occurrence ranking).")
        q = html.escape(_query_cmd(self.dataset, name))
        hidden = [c.name for c in grid(df.head(0), name).cols if c.rank > 1]
        how = []
        if left_out:
            per = (f"the first {s.rows} rows of each of {groups} groups shown, "
                   if groups > 1 else "")
            how.append(f"{per}{left_out:,} more rows: <code>{q} --format csv</code>")
        if hidden:
            how.append(f"more columns ({html.escape(', '.join(hidden[:6]))}"
                       f"{', …' if len(hidden) > 6 else ''}): <code>{q} --all</code>")
        notes.append(f"In a terminal: <code>{q}</code>" + ("; " + "; ".join(how) if how
                                                           else "") + ".")
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
            parts.append(findings_table(found, width))

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


def _group(f: Finding) -> str:
    if f.group:
        return f.group
    g = " · ".join(x for x in (f.rules, f.source) if x)
    if f.variant and f.reference:
        return f"{g}: {f.variant} vs {f.reference}"
    return f"{g}: {f.variant}" if f.variant else g


def _estimate(f: Finding) -> str:
    if f.same:
        return "same under both"
    if f.estimate is None:
        return F.MISSING
    s = F.fmt(f.unit, f.estimate, unit=True)
    if f.interval is not None:
        s += f" ({F.fmt_interval(f.unit, *f.interval)})"
    return s


def _level(f: Finding, which: str) -> str:
    v = f.value if which == "value" else f.ref_value
    ci = f.value_interval if which == "value" else f.ref_interval
    if v is None:
        return ""
    kind = f.level_unit or F.LEVEL.get(f.unit, f.unit)
    s = F.fmt(kind, v, unit=True)
    if ci is not None and None not in ci:
        s += f" ({F.fmt_interval(kind, *ci)})"
    return s


def _detect(f: Finding) -> str:
    if f.detectable is None:
        return F.MISSING
    kind = f.unit if f.unit in F.SIGNED else F.DIFF.get(f.unit, f.unit)
    return "±" + F.fmt(kind, f.detectable, unit=True, signed=False)


def _layout(found: Sequence[Finding]):
    """How the findings are tabled: their groups in order, the names of the level
    columns, and per group whether it has one sample (said in its heading)."""
    groups: dict[str, list[Finding]] = {}
    for f in found:
        groups.setdefault(_group(f), []).append(f)
    pairs = {(f.reference, f.variant) for f in found
             if f.value is not None or f.ref_value is not None}
    ref_h, var_h = next(iter(pairs)) if len(pairs) == 1 else ("reference", "variant")
    levels = bool(pairs)
    uniform = {g: len({f.sample for f in fs}) == 1 for g, fs in groups.items()}
    return groups, levels, ref_h or "reference", var_h or "variant", uniform


def _levels(f: Finding) -> str:
    """Both levels in one cell, the reference's first: ``8.9% → 2.9%``, ``14.5 → 12.2
    points`` (the unit once)."""
    if f.value is None and f.ref_value is None:
        return ""
    kind = f.level_unit or F.LEVEL.get(f.unit, f.unit)
    unit = F.UNIT.get(kind, "")

    def one(v, ci):
        if v is None:
            return F.MISSING
        s = F.fmt(kind, v, unit=unit in ("%",))
        if ci is not None and None not in ci:
            s += f" ({F.fmt_interval(kind, *ci)})"
        return s
    if f.ref_value is None:            # one level (e.g. the same under both: said once)
        s = one(f.value, f.value_interval)
    else:
        s = f"{one(f.ref_value, f.ref_interval)} → {one(f.value, f.value_interval)}"
    return s + (f" {unit}" if unit and unit != "%" else "")


def _findings_frames(found: Sequence[Finding]):
    """The findings as terminal tables: one per group (its heading and sample as title;
    both levels in one column), each with the sentences said under it (results the same
    under both variants, a note every row shares)."""
    groups, levels, ref_h, var_h, uniform = _layout(found)
    out = []
    for title, fs in groups.items():
        same = [f for f in fs if f.same]
        rows = [f for f in fs if not f.same]
        said = [f"Same under both variants in every one of the {f.sample}: "
                f"{f.name.partition(': ')[2] or f.name}." for f in same]
        if not rows:
            out.append((None, title, None, said))
            continue
        one_sample = len({f.sample for f in rows}) == 1
        cols = {"finding": [f.name for f in rows]}
        if levels:
            cols[f"{ref_h} → {var_h}"] = [_levels(f) for f in rows]
        cols["difference (95% CI)"] = [_estimate(f) if f.estimate is not None else ""
                                       for f in rows]
        cols["detectable"] = [_detect(f) for f in rows]
        if not one_sample:
            cols["sample"] = [f.sample for f in rows]
        notes = {f.note for f in rows}
        if len(notes) == 1:
            said = [n[:1].upper() + n[1:] + "." for n in notes if n] + said
        else:
            cols["note"] = [f.note for f in rows]
        cols = {k: v for k, v in cols.items() if k == "finding" or any(
            x and x != F.MISSING for x in v)}
        head = f"{title} · {rows[0].sample}" if one_sample else title
        ranks = {"sample": 1, "note": 2}
        view = F.View(tuple(F.Col(c, c, F.TEXT, None, ranks.get(c, 0)) for c in cols),
                      group=(), extra=False)
        out.append((pl.DataFrame(cols, schema={k: pl.String for k in cols}), head, view,
                    said))
    return out


def findings_table(found: Sequence[Finding], width: int | None = None):
    """The headline findings as terminal tables (same formats as the page), one per
    group, under the title "Headline findings"."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.text import Text
    parts = [Text("Headline findings", style="bold")]
    for df, title, view, said in _findings_frames(found):
        if df is None:
            parts.append(Text(title))
        else:
            kw = dict(name="findings", max_rows=10_000, all_hint="the report's first screen",
                      view=view)
            parts.append(_render(df, title, width=width, **kw) if width else
                         Fitted(df, title, **kw))
        parts += [Padding(Text(x), (0, 0, 0, 2)) for x in said]
    return Group(*parts)


def headline_html(findings: Sequence[Finding]) -> str:
    """The headline section: the findings under their group's heading (rule set, source,
    variants and, when it is one, the sample), each with both variants' levels, the
    difference and its 95% interval, and the difference the sample can detect."""
    if not findings:
        return ("<p class='note'>No headline findings: this dataset holds no comparison of "
                "variants.</p>")
    groups, levels, ref_h, var_h, uniform = _layout(findings)
    heads = (["finding"] + ([ref_h, var_h] if levels else [])
             + ["difference (95% CI)", "detectable difference"])
    rows = []
    for title, fs in groups.items():
        head = html.escape(title) + (f" <span class='sample'>· {html.escape(fs[0].sample)}"
                                     f"</span>" if uniform[title] else "")
        rows.append(f"<tr class='group'><th colspan='{len(heads)}'>{head}</th></tr>")
        for f in fs:
            cls = " class='sig'" if f.significant() else (" class='same'" if f.same else "")
            extra = [x for x in ("" if uniform[title] else f.sample, f.note) if x]
            sub = "".join(f"<span class='sub'>{html.escape(x)}</span>" for x in extra)
            if f.same:
                name, _, what = f.name.partition(": ")
                rows.append(f"<tr{cls}><td class='txt'>{html.escape(name)}</td><td class='txt' "
                            f"colspan='{len(heads) - 1}'>{html.escape(what)}{sub}</td></tr>")
                continue
            cells = [f"<td class='txt'>{html.escape(f.name)}{sub}</td>"]
            if levels:
                cells += [f"<td class='num'>{html.escape(_level(f, w))}</td>"
                          for w in ("ref", "value")]
            cells += [f"<td class='num'>{html.escape(_estimate(f) if f.estimate is not None else '')}"
                      f"</td>", f"<td class='num'>{html.escape(_detect(f))}</td>"]
            rows.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    diffs = [f for f in findings if f.estimate is not None and not f.same]
    sig = [f for f in diffs if f.significant()]
    if all(f.same for f in findings):
        answer = "The variants gave identical results in every paired comparison."
    elif sig:
        def said(f):
            lv = (f"{_level(f, 'ref')} → {_level(f, 'value')}, "
                  if f.value is not None and f.ref_value is not None else "")
            return f"{f.name[:1].lower() + f.name[1:]} {lv}{_estimate(f)}"
        pair = f" under {sig[0].variant} against {sig[0].reference}" if sig[0].reference else ""
        answer = (f"{len(sig)} of {len(diffs)} differences are clear of zero (95% interval)"
                  f"{pair}: " + "; ".join(said(f) for f in sig[:4])
                  + ("; …" if len(sig) > 4 else "") + ".")
    else:
        answer = ("No interval excludes zero: no difference detected at this sample size "
                  "(the detectable differences say how large one would have to be).")
    answer_html = f"<p class='answer'><b>Answer.</b> {html.escape(answer)}</p>"
    head_html = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    return (answer_html + f"<table class='findings'><thead><tr>{head_html}</tr></thead>"
            "<tbody>" + "".join(rows) + "</tbody></table>"
            "<p class='note'>Detectable difference: the smallest true difference this sample "
            "would find with 95% confidence and 80% power (clustered by wall where deals share "
            "one). Bold: the interval excludes zero.</p>")


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
    items = " ".join(f"<a href='#{x.key}'>{html.escape(x.title)}</a>" for x in toc)
    missing = (f"<span class='absent'>Not in this dataset: "
               f"{html.escape(', '.join(x.title for x in absent))}.</span>" if absent else "")
    return (f"<header id='summary'><h1>{html.escape(s.title)}</h1>"
            f"<p class='question'><b>Question.</b> {html.escape(s.question)}</p>"
            f"<nav class='toc'><b>Contents</b> {items} {missing}</nav>"
            f"<h2 class='first'>Headline findings</h2>{headline_html(s.findings)}"
            f"<h3>Sources and sample sizes</h3>{sources}{notes}</header>")


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
    if study_config(ds) and "compare" in rep.results and "seat-advantage" in rep.results:
        try:     # the study's answer: its headline metrics, paired, and the seat advantage
            rep.answer = study_answer(ds, compare_df=rep.results["compare"],
                                      seat_df=rep.results["seat-advantage"])
        except Exception as exc:
            rep.errors["study answer"] = f"{type(exc).__name__}: {exc}"
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
nav.toc {{ font-size: .85rem; margin: .3rem 0 .2rem; line-height: 1.6; }}
nav.toc a {{ color: #0b5394; margin-right: .75em; white-space: nowrap; }}
nav.toc .absent {{ color: #666; }}
.panels {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr));
           gap: .6rem 1rem; margin: .8rem 0; }}
.panels.wide {{ grid-template-columns: 1fr; }}
figure {{ margin: 0; background: white; padding: .4rem; }}
svg.chart {{ max-width: 100%; height: auto; display: block; }}
svg.chart text {{ font-family: inherit; }}
.tw {{ overflow-x: auto; }}
table {{ border-collapse: collapse; font-size: .82rem; background: white; }}
th, td {{ padding: .2rem .55rem; border-bottom: 1px solid #e0e0e0; white-space: nowrap; }}
th {{ background: #e8f1fa; text-align: left; position: sticky; top: 0; white-space: normal;
      vertical-align: bottom; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
td.txt {{ white-space: normal; max-width: 15em; }}
tr.base td {{ color: #777; font-style: italic; }}
td.c-fan, td.c-label, td.c-metric, td.c-name_en, td.c-name_en_a, td.c-name_en_b
  {{ min-width: 11em; }}
td.c-grid {{ min-width: 14em; }}
td.c-rules, td.c-variant, td.c-source, td.c-by, td.c-group, td.c-sample_unit
  {{ white-space: nowrap; }}
.panels figure.span {{ grid-column: 1 / -1; }}
table.findings {{ width: 100%; font-size: .88rem; }}
table.findings td.txt {{ white-space: normal; }}
table.findings tr.sig td {{ font-weight: 600; }}
table.findings tr.same td {{ color: #555; }}
table.findings tr.group th {{ background: #f1f1f1; font-weight: 600; padding-top: .45rem;
                             position: static; }}
table.findings .sample {{ font-weight: normal; color: #555; }}
table.findings .sub {{ display: block; font-weight: normal; color: #666; font-size: .8rem; }}
table.findings td.txt:first-child {{ min-width: 14em; }}
table.sources td.txt {{ white-space: normal; }}
code {{ font-size: .85em; background: #eef; padding: 0 .2em; }}
footer {{ margin-top: 2rem; }}
</style></head>
<body>
{body}
</body></html>
"""
