"""The report's study sections on a made-up duplicate resimulation (MCR ``default`` against
``min6``, the deals of ``tests/test_studies.py``): seat advantage, fan value and sample size
each with a chart, a sentence saying how to read it, a table keeping its rules / variant /
source columns and the command that prints it; the first screen's headline is the study's
answer (both variants' levels, the difference with its interval, the detectable difference
and the sample with its walls, as :func:`mjfast.analytics.study_answer` computes them); the
payments section leaves its chart to the seat advantage; the terminal views fit 100 columns.
"""
from __future__ import annotations

import html as H
import json
import re

import polars as pl
import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

import mjfast.analytics as A
from mjfast.cli import app
from mjfast.report import _format as F
from test_studies import synth, write

HEADLINE = ["draw_rate", "win_rate", "mean_win_total", "dealer_net"]


@pytest.fixture(scope="module")
def resim(tmp_path_factory):
    """The resimulation dataset (a study: question, mode, headline in its manifest) and its
    report (page, Report)."""
    from mjfast.report import build_report
    path = tmp_path_factory.mktemp("resim") / "ds"
    deals, wins = synth()
    write(path, deals, wins)
    man = json.loads((path / "manifest.json").read_text())
    man["config"] = {"name": "min6", "mode": "resimulate", "rules": "mcr",
                     "question": "Would MCR play differently with a 6-point minimum?",
                     "variants": ["default", "min6"], "headline": HEADLINE,
                     "sources": ["simulate"]}
    (path / "manifest.json").write_text(json.dumps(man))
    rep = build_report(path)
    return path, rep.write(path / "report"), rep


def _section(html: str, key: str) -> str:
    sec = html[html.index(f"<section id='{key}'>"):]
    return sec[:sec.index("</section>")]


@pytest.mark.parametrize("key", ["seat-advantage", "fan-value", "sample-size"])
def test_each_study_analysis_has_its_section(resim, key):
    path, page, rep = resim
    html = page.read_text(encoding="utf-8")
    assert rep.errors == {}
    assert f"href='#{key}'" in html                         # in the contents
    sec = _section(html, key)
    assert sec.count("<svg class='chart'") >= 1             # a chart
    assert "<p class='note'>Read: " in sec                  # how to read it
    table = sec[sec.index("<table"):]
    for col in ("rules", "variant", "source"):              # no hidden groups
        assert f"<th class='c-{col}'>" in table, col
    assert f"<code>mjfast query {path} {key}</code>" in sec  # the runnable command
    assert (page.parent / f"{key}.svg").read_text(encoding="utf-8").startswith("<svg xmlns=")


def test_seat_advantage_chart(resim):
    _, page, rep = resim
    sec = _section(page.read_text(encoding="utf-8"), "seat-advantage")
    chart = sec[:sec.index("<table")]
    for heading in ("Dealer", "Seat wind", "Position in the record"):
        assert heading in chart
    assert ">default</text>" in chart and ">min6</text>" in chart     # both variants, a legend
    sa = rep.results["seat-advantage"]
    dealer = sa.filter((pl.col("by") == "dealer") & (pl.col("group") == "dealer")
                       & (pl.col("variant") == "min6")).row(0, named=True)
    # the dealer's net as the analysis computed it, labelled beside its mark
    assert f">{F.fmt(F.DPOINTS, dealer['net'])}</text>" in chart
    walls = dealer["walls"]
    assert f"{dealer['deals']:,} deals on {walls:,} walls" in chart
    # the table: the compensation with its interval, in signed points
    comp = (f"{F.fmt(F.DPOINTS, dealer['compensation'])} ("
            f"{F.fmt_interval(F.DPOINTS, dealer['compensation_low'], dealer['compensation_high'])})")
    assert comp in sec


def test_fan_value_is_a_price_list(resim):
    _, page, rep = resim
    sec = _section(page.read_text(encoding="utf-8"), "fan-value")
    chart = sec[:sec.index("<table")]
    fv = rep.results["fan-value"]
    for p in fv["points"].unique().to_list():                 # a band per point value
        assert f">{p} point{'s' if p != 1 else ''}</text>" in chart
    for zh, en in fv.select("name_zh", "name_en").unique().rows():
        assert f">{zh}</text>" in chart and f">{en}</text>" in chart
    # frequency on a log axis (percent ticks 1, 10, 100) and the pivotal share's legend
    assert ">100</text>" in chart and ">10</text>" in chart and "log scale" in chart
    # marker sizes (and their legend) only where the pivotal share is known (it needs the
    # events table; these made-up deals have none)
    assert ("pivotal share:" in chart) == (fv["pivotal_share"].drop_nulls().len() > 0)


def test_sample_size_chart_and_table(resim):
    path, page, rep = resim
    sec = _section(page.read_text(encoding="utf-8"), "sample-size")
    chart = sec[:sec.index("<table")]
    assert "this sample: " in chart and "stroke-dasharray" in chart
    for m in HEADLINE:                                         # the headline metrics, named
        label = A.compare(path).filter(pl.col("metric") == m)["label"][0]
        assert H.escape(label[:1].upper() + label[1:]) in chart
    # the table reads one row per comparison, the planning grid in one cell
    ss = rep.results["sample-size"]
    row = ss.filter((pl.col("metric") == "draw_rate") & (pl.col("delta") == 0.01)).row(
        0, named=True)
    assert f"1\u00a0pp:\u00a0{row['units_needed']:,}" in sec


def test_headline_is_the_study_answer(resim):
    path, page, rep = resim
    html = page.read_text(encoding="utf-8")
    head = html[:html.index("<section")]
    ans = A.study_answer(path)
    assert "Would MCR play differently" in head
    assert "<th>default</th><th>min6</th>" in head            # both variants' levels
    for r in ans.filter(pl.col("reference").is_not_null()).iter_rows(named=True):
        kind = F.metric_kind(r["metric"], r["unit"])
        dkind = F.DIFF[kind]
        cell = f"{F.fmt(dkind, r['diff'], unit=True)} ({F.fmt_interval(dkind, r['ci_low'], r['ci_high'])})"
        assert cell in head, cell
        assert "±" + F.fmt(dkind, r["mde"], unit=True, signed=False) in head
        assert F.fmt(kind, r["value"], unit=True) in head
        assert f"{r['n_units']:,} paired deals on {r['n_clusters']:,} walls" in head
    comp = ans.filter(pl.col("metric") == "dealer_compensation")
    assert "Dealer&#x27;s compensation a deal" in head
    for r in comp.iter_rows(named=True):
        assert (f"{F.fmt(F.DPOINTS, r['value'], unit=True)} "
                f"({F.fmt_interval(F.DPOINTS, r['ci_low'], r['ci_high'])})") in head
    # the terminal summary leads with the same answer, fitted to 80 columns
    import io
    from rich.console import Console
    con = Console(width=80, file=io.StringIO(), color_system=None)
    for part in rep.summary():
        con.print(part)
    text = con.file.getvalue()
    assert max(cell_len(x) for x in text.splitlines()) <= 80
    assert "Headline findings" in text and "on 24 walls" in text and "…" not in text


def test_findings_from_answer_say_same_once():
    from mjfast.report import headline_html
    from mjfast.report._summary import findings_from_answer
    base = dict(question="Q", rules="mcr", variant="min6", reference="default",
                n_clusters=19, family="play", note=None)
    rows = [dict(base, source="replay", metric="win_rate", label="wins per player-deal",
                 value=0.2, ref_value=0.2, diff=0.0, ci_low=0.0, ci_high=0.0, mde=0.0,
                 n_units=19, unit="share", same=True),
            dict(base, source="replay", metric="mean_win_total", label="mean total of a win",
                 value=11.0, ref_value=11.0, diff=0.0, ci_low=0.0, ci_high=0.0, mde=0.0,
                 n_units=19, unit="points", same=True),
            dict(base, source="replay", metric="all_high_share",
                 label="ready hands whose every wait is legal", value=0.72, ref_value=0.53,
                 diff=0.19, ci_low=0.03, ci_high=0.34, mde=0.22, n_units=173,
                 unit="share", same=False, family="decisions")]
    found = findings_from_answer(pl.DataFrame(rows))
    assert [f.same for f in found] == [False, True]
    assert found[0].sample == "173 paired decisions on 19 logged deals"
    assert "wins per player-deal, mean total of a win" in found[1].name
    html = headline_html(found)
    assert "53.0%" in html and "72.0%" in html and "+19.0 pp (+3.0 to +34.0)" in html
    assert "±22.0 pp" in html and html.count("Same under both") == 1
    assert "1 of 1 differences are clear of zero" in html


def test_payments_chart_gives_way_to_seat_advantage(resim):
    _, page, _ = resim
    html = page.read_text(encoding="utf-8")
    sec = _section(html, "payments")
    assert "<svg" not in sec and "Seat advantage" in sec
    assert not (page.parent / "payments.svg").exists()


@pytest.mark.parametrize("name", ["seat-advantage", "fan-value", "sample-size"])
def test_terminal_views_fit_100_columns(resim, name):
    path = resim[0]
    r = CliRunner().invoke(app, ["query", str(path), name], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(cell_len(x) for x in lines) <= 100 and "…" not in r.output
    head = r.output.split("─")[0]
    for col in ("rules", "variant" if name != "sample-size" else "source", "source"):
        assert col in head
    if name == "sample-size":               # metrics in words, differences with their unit
        assert "Exhaustive draws" in r.output and re.search(r"[-+]\d+\.\d pp", r.output)
    if name == "seat-advantage":            # the dealer first, in words
        body = r.output.split("─")[-1]
        assert body.index("dealer") < body.index("seat wind") < body.index("position")


def test_new_panels_are_legible_svg():
    """The price list, the log-log lines and the heat map: text of 11 px or more, widths
    within the page's column, legends for what is drawn."""
    from mjfast.report import _svg as S
    price = S.price_panel("t", [("24 points", [S.Item("七对", [S.Mark(0.09, 0.08, 0.1, 0.99)],
                                                       sub="Seven Pairs")]),
                                ("1 point", [S.Item("花牌", [S.Mark(0.8, 0.78, 0.81, 0.0)],
                                                    sub="Flower Tiles")])],
                          F.PCT, lo=0.001, hi=1.0, size_legend=("pivotal share:", (0, 0.5, 1)))
    lines = S.loglog_panel("t", [S.LogLine("Exhaustive draws", [0.01, 0.02, 0.06],
                                           [5465.0, 1367.0, 152.0], mark=(0.06, 152.0))],
                           F.PP, x_label="x", y_label="y", hlines=[(4096, "this sample")])
    heat = S.heatmap_panel("t", [("平和", "All Chows"), ("花牌", "Flower Tiles"),
                                 ("自摸", "Self-Drawn")],
                           {(1, 0): ("#ffffff", "1.01", "h"), (2, 1): ("#E69F00", "1.62", "h")},
                           legend=[("#ffffff", "1: as chance")])
    for svg in (price, lines, heat):
        sizes = [float(x) for x in re.findall(r"font-size='([\d.]+)'", svg)]
        assert sizes and min(sizes) >= 11
        w = float(re.search(r"viewBox='0 0 ([\d.]+) ", svg).group(1))
        assert w <= 1070
    assert "pivotal share:" in price and ">50%</text>" in price
    assert ">24 points</text>" in price and ">Flower Tiles</text>" in price
    assert "this sample" in lines and ">Exhaustive draws</text>" in lines
    assert ">1.62</text>" in heat and ">–</text>" in heat      # a pair never together: "–"


@pytest.mark.slow
def test_study_sections_in_headless_chromium(resim, tmp_path_factory):
    """The resimulation's report in a real browser: no console errors, chart text >= 10 px
    and no sideways scrolling at 1200 px; screenshots of the sections for a person."""
    from browser import Chromium, find_chromium, INSTALL_HINT
    binary = find_chromium()
    if binary is None:
        pytest.skip(f"headless Chromium not installed: {INSTALL_HINT}")
    _, page, _ = resim
    shots = tmp_path_factory.mktemp("report-sections-browser", numbered=False)
    measure = """(() => {
      const texts = [...document.querySelectorAll('svg.chart text')].filter(t => t.textContent.trim());
      let minPx = 1e9;
      for (const t of texts) {
        const svg = t.ownerSVGElement;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        minPx = Math.min(minPx, parseFloat(getComputedStyle(t).fontSize) * scale);
      }
      return {minPx, n: texts.length,
              overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
    })()"""
    with Chromium(binary, width=1200, height=900) as b:
        b.open(page.as_uri())
        m = b.evaluate(measure)
        assert m["n"] > 100 and m["minPx"] >= 10 and m["overflow"] <= 0, m
        b.screenshot(shots / "sections-1200.png", full_page=True)
        assert b.problems() == []


def test_a_compensation_identical_under_both_variants_is_said_once():
    import polars as pl

    from mjfast.report._build import _levels
    from mjfast.report._summary import findings_from_answer

    def row(source, variant, value, lo, hi):
        return {"rules": "mcr", "source": source, "reference": None, "variant": variant,
                "label": "dealer's compensation a deal (equal expectations)", "metric": "comp",
                "unit": "points", "value": value, "ci_low": lo, "ci_high": hi, "mde": 2.0,
                "n_units": 100, "n_clusters": 25, "family": "seats", "same": False,
                "diff": None, "ref_value": None}
    answer = pl.DataFrame([row("replay", "default", 9.6, 3.2, 16.0),
                           row("replay", "min6", 9.6, 3.2, 16.0),
                           row("simulate", "default", -1.8, -3.5, -0.1),
                           row("simulate", "min6", -2.1, -3.7, -0.5)]
                          + [dict(row(src, "min6", 0.1, 0.0, 0.2), reference="default",
                                  metric="draws", label="exhaustive draws", unit="share",
                                  diff=-0.02, ref_value=0.03, family="play")
                             for src in ("replay", "simulate")])
    found = [f for f in findings_from_answer(answer) if f.name.startswith("Dealer")]
    by_source = {f.source: f for f in found}
    assert len(found) == 2
    same, differ = by_source["replay"], by_source["simulate"]
    assert same.ref_value is None and "same under default and min6" in same.note
    assert "→" not in _levels(same) and "9.6" in _levels(same)
    assert differ.ref_value == -1.8 and "→" in _levels(differ)
