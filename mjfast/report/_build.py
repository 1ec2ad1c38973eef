"""The report: every analysis of a dataset as one self-contained HTML page (charts as PNG
data URIs, the CJK font subset into an ``@font-face`` data URI, no network), the PNG charts
beside it, and a terminal summary. Renders what :mod:`mjfast.analytics` computes."""
from __future__ import annotations

import base64
import html
import os
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from .. import __version__
from ..analytics import compare, dataset_roots, get_analysis
from . import _charts
from ._fonts import find_cjk_font, font_face_css, missing_glyphs, register_matplotlib

MAX_ROWS = 40


@dataclass(frozen=True)
class Section:
    key: str                 # analysis name, also the chart's file stem
    title: str
    text: str
    columns: tuple[str, ...]
    chart: object = None     # a function of _charts


SECTIONS = (
    Section("play-stats", "Play statistics",
            "Rates per player-deal (draws per deal); the winning turn is the winner's "
            "discards before the win + 1.",
            ("rules", "variant", "deals", "draw_rate", "win_rate", "self_draw_rate",
             "deal_in_rate", "mean_win_turn", "mean_win_total", "false_wins")),
    Section("fan-frequency", "Fan frequency",
            "Share of legal wins holding each fan, with its 95% Wilson interval, and the "
            "points it contributes.",
            ("name_zh", "name_en", "name_ja", "rules", "variant", "wins", "share", "ci_low",
             "ci_high", "points_per_win", "points_share"), _charts.fan_frequency),
    Section("fan-cooccurrence", "Co-occurrence of the top fans",
            "How often two of the ten most frequent fans come together.",
            ("name_zh_a", "name_zh_b", "name_en_a", "name_en_b", "wins", "share",
             "p_b_given_a", "p_a_given_b", "lift"), _charts.cooccurrence),
    Section("high-low", "MCR high/low: the 8-point threshold",
            "A ready hand's winning tiles are high when the win reaches the minimum (8 points "
            "in MCR) and low when it does not. Shares of ready hands and of live winning tiles.",
            ("rules", "variant", "source", "ready", "share_all_high", "share_split",
             "share_all_low", "low_live_share", "share_all_high_self", "share_split_self",
             "share_all_low_self", "low_live_share_self"), _charts.high_low),
    Section("high-low-self-draw", "High/low: how a self-draw changes the split",
            "Ready hands by their category on a discard (rows) and on a self-draw.",
            ("rules", "variant", "source", "discard", "self_draw", "hands", "share",
             "share_of_discard")),
    Section("high-low-fans", "Which fans decide the split",
            "Fans on every high wait and on no low wait of split hands (needs per-wait fan "
            "lists; the last column counts split hands that lack them).",
            ("name_zh", "name_en", "rules", "variant", "decides", "share", "on_high_only",
             "split_hands_with_fans", "split_hands_without_fans")),
    Section("high-low-by-turn", "High/low by turn and shanten history",
            "Ready decisions in replays and simulations by turn and by the shanten after the "
            "player's previous discard.",
            ("rules", "variant", "turn", "prev_shanten", "ready", "share_all_high",
             "share_split", "share_all_low", "low_live_share"), _charts.high_low_by_turn),
    Section("high-low-stood", "How often players stood on low or split waits",
            "Player-deals with a ready hand in which the player stood on a split or all-low "
            "wait at least once.",
            ("rules", "variant", "player_deals_ready", "stood_split", "stood_all_low",
             "share_stood_low_or_split", "ci_low", "ci_high", "share_turns_low_or_split")),
    Section("high-low-better", "What a better discard would have kept",
            "Decisions left on a split or all-low wait where another ready discard kept more "
            "live high tiles (from the candidates table).",
            ("rules", "variant", "chosen_category", "decisions", "better_exists",
             "share_better", "all_high_available", "high_live_gained_per_decision")),
    Section("ev", "Expected value of a ready hand",
            "Mean gain over the winning tiles weighted by live copies (MCR: 8+F from the "
            "discarder and 8 from each other player; 3×(8+F) on a self-draw; under 8 gains 0).",
            ("rules", "variant", "source", "form_name", "n_melds", "hands", "ev_discard",
             "ev_discard_sd", "ev_self", "ev_self_sd", "legal_share_discard",
             "legal_share_self", "live_per_hand"), _charts.ev),
    Section("payments", "Net payment per deal",
            "Mean and spread of each player's net payment per deal, by seat wind and dealer.",
            ("rules", "variant", "player", "seat", "dealer", "deals", "mean", "sd", "ci_low",
             "ci_high"), _charts.payments),
    Section("play-by-turn", "Shanten and ready rate by turn", "",
            ("rules", "variant", "turn", "decisions", "mean_shanten", "ready_rate",
             "ready_low", "ready_high"), _charts.by_turn),
    Section("discard-agreement", "Real discards against the efficiency-best",
            "Share of real discards ranked first by efficiency (and by value) among all "
            "possible discards.",
            ("rules", "variant", "decisions", "agreement", "ci_low", "ci_high",
             "agreement_value", "mean_rank_efficiency")),
    Section("compare", "Rule-balance comparison",
            "Every metric per variant against the reference variant: difference and 95% "
            "interval (paired per deal where the same deals were played or scored under both).",
            ("rules", "metric", "variant", "reference", "paired", "n", "value", "ref_value",
             "diff", "ci_low", "ci_high"), _charts.compare),
)


@dataclass
class Report:
    dataset: Path
    results: dict[str, pl.DataFrame] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    n_datasets: int = 1

    # -- HTML -----------------------------------------------------------------------------
    def write(self, out_dir: str | os.PathLike) -> Path:
        """Write ``report.html`` and the PNG charts into ``out_dir``; returns the page."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        font = find_cjk_font()
        names = _cjk_text(self.results)
        if font is not None and missing_glyphs(font, names):
            font = None
        family = register_matplotlib(font)
        body = []
        for s in SECTIONS:
            df = self.results.get(s.key)
            if df is None or df.height == 0:
                continue
            if s.key == "compare" and (df.select("variant").n_unique() < 2 or (
                    self.n_datasets > 1 and not df["paired"].any())):
                continue   # variants of different jobs (replay vs simulation) are no study
            body.append(f"<section id='{s.key}'><h2>{html.escape(s.title)}</h2>")
            if s.text:
                body.append(f"<p class='note'>{html.escape(s.text)}</p>")
            png = None
            if s.chart is not None:
                try:
                    png = s.chart(df, family)
                except Exception as exc:   # a chart never sinks the report
                    self.errors[f"chart {s.key}"] = f"{type(exc).__name__}: {exc}"
            if png:
                (out / f"{s.key}.png").write_bytes(png)
                uri = "data:image/png;base64," + base64.b64encode(png).decode()
                body.append(f"<figure><img alt='{html.escape(s.title)}' src='{uri}'></figure>")
            body.append(_table(df, s.columns, cjk=family is not None))
            body.append("</section>")
        if self.errors:
            body.append("<section><h2>Not computed</h2><ul>" + "".join(
                f"<li>{html.escape(k)}: {html.escape(v)}</li>" for k, v in self.errors.items())
                + "</ul></section>")
        css = font_face_css(font, names) if family else ""
        page = _PAGE.format(
            font_css=css, title=html.escape(f"mjfast report: {self.dataset.name}"),
            dataset=html.escape(str(self.dataset)), version=__version__,
            counts=html.escape(", ".join(f"{k} {v:,}" for k, v in self.counts.items()) or "empty"),
            fontnote=html.escape(f"fan names set in {font.family}" if family
                                 else "no CJK font found: English fan names"),
            body="\n".join(body))
        path = out / "report.html"
        path.write_text(page, encoding="utf-8")
        return path

    # -- terminal -------------------------------------------------------------------------
    def summary(self):
        """Rich renderables: the dataset's counts and the headline numbers."""
        from rich.table import Table
        parts = []
        t = Table(title=f"mjfast report: {self.dataset}", show_header=False)
        for k, v in self.counts.items():
            t.add_row(k, f"{v:,}")
        parts.append(t)
        ps = self.results.get("play-stats")
        if ps is not None and ps.height:
            parts.append(render_table(ps.select(
                "rules", "variant", "deals", "win_rate", "self_draw_rate", "deal_in_rate",
                "draw_rate", "mean_win_turn"), "Play statistics"))
        ff = self.results.get("fan-frequency")
        if ff is not None and ff.height:
            top = ff.sort("wins", descending=True).head(8)
            parts.append(render_table(top.select("name_zh", "wins", "name_en", "share",
                                                 "rules", "variant"), "Top fans"))
        hl = self.results.get("high-low")
        if hl is not None and hl.height:
            parts.append(render_table(hl.select(
                "rules", "variant", "source", "ready", "share_all_high", "share_split",
                "share_all_low", "low_live_share"), "MCR high/low"))
        return parts


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


def _fmt(col: str, v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        if any(k in col for k in ("share", "rate", "ci_", "_low", "_high", "p_", "agreement")) \
                and not col.startswith(("ev", "mean")) and -1.0 <= v <= 1.0 and col != "diff":
            return f"{v:.1%}"
        return f"{v:,.3f}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    return html.escape(str(v))


def _table(df: pl.DataFrame, columns, cjk: bool) -> str:
    cols = [c for c in columns if c in df.columns and (cjk or not c.startswith(("name_zh", "name_ja")))]
    rows = df.select(cols).head(MAX_ROWS).rows()
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(
        f"<td class='{'txt' if isinstance(v, str) else 'num'}'>{_fmt(c, v)}</td>"
        for c, v in zip(cols, r)) + "</tr>" for r in rows)
    more = (f"<p class='note'>{df.height - MAX_ROWS:,} more rows: <code>mjfast query DATASET "
            f"NAME</code></p>" if df.height > MAX_ROWS else "")
    return f"<div class='tw'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>{more}"


def render_table(df: pl.DataFrame, title: str | None = None, max_rows: int = 60):
    """A rich Table of a frame (floats rounded, the first ``max_rows`` rows)."""
    from rich.table import Table
    t = Table(title=title, header_style="bold")
    for c in df.columns:
        t.add_column(c, justify="right" if df[c].dtype.is_numeric() else "left")
    for r in df.head(max_rows).rows():
        t.add_row(*[("" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v))
                    for v in r])
    if df.height > max_rows:
        t.caption = f"{df.height - max_rows} more rows (use --format csv)"
    return t


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{font_css}
body {{ font-family: 'mjfast-cjk', 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif;
       margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #1b1b1b; background: #fafafa; }}
h1 {{ font-size: 1.7rem; margin-bottom: .2rem; }}
h2 {{ font-size: 1.25rem; border-bottom: 2px solid #1565c0; padding-bottom: .2rem; margin-top: 2.2rem; }}
.meta, .note {{ color: #555; font-size: .9rem; }}
figure {{ margin: 1rem 0; }} figure img {{ max-width: 100%; height: auto; background: white; }}
.tw {{ overflow-x: auto; }}
table {{ border-collapse: collapse; font-size: .85rem; background: white; }}
th, td {{ padding: .25rem .6rem; border-bottom: 1px solid #e0e0e0; white-space: nowrap; }}
th {{ background: #e3f2fd; text-align: left; position: sticky; top: 0; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
</style></head>
<body>
<h1>{title}</h1>
<p class="meta">dataset <code>{dataset}</code> · tables: {counts} · mjfast {version} · {fontnote}</p>
{body}
</body></html>
"""
