"""The report: written, self-contained (no network), CJK glyph coverage of every fan name,
English fallback without a font, the first screen (question, sources, headline findings,
contents), no hidden groups, base fans out of the top lists, identical variants said once,
charts as SVG at a legible size, the page's weight; and in a real browser (headless
Chromium over the DevTools protocol, ``tests/browser.py``): no console errors, the first
screen visible, chart text >= 10 px at 1200 px, a screenshot of the first screen.

The screenshot: ``<pytest's base temp>/report-browser/first-screen.png``, i.e.
``/tmp/pytest-of-$USER/pytest-current/report-browser/first-screen.png`` after a run.
Outside CI, without Chromium, the browser test is skipped with the command that installs it;
in CI (``MJFAST_CI`` set by ``.ci/run``) it must run."""
from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import analytics_sample as S
import report_sample as R
from browser import INSTALL_HINT, Chromium, find_chromium
from mjfast.cli import app

ROOT = Path(__file__).resolve().parents[1]
RULE_FILES = sorted((ROOT / "mjfast" / "rules").glob("*.toml"))
IN_CI = bool(os.environ.get("MJFAST_CI"))


def all_cjk_names() -> str:
    """Every zh / ja name (and alias) in the rule files, read with tomllib here."""
    names = []
    for p in RULE_FILES:
        d = tomllib.loads(p.read_text(encoding="utf-8"))
        rows = list(d.get("row", [])) + list(d.get("rows", {}).values())
        for r in rows:
            names += [r[k] for k in ("zh", "ja") if k in r]
            names += list(r.get("aliases", []))
    return "".join(names)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return S.write(tmp_path_factory.mktemp("rep") / "ds")


@pytest.fixture(scope="module")
def written(dataset, tmp_path_factory):
    from mjfast.report import write_report
    out = tmp_path_factory.mktemp("out")
    return write_report(dataset.path, out)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """The study-shaped sample and its report (page path, Report)."""
    from mjfast.report import build_report
    path = R.write(tmp_path_factory.mktemp("study") / "ds")
    rep = build_report(path)
    return rep.write(path / "report"), rep


def test_every_cjk_name_has_a_glyph():
    from fontTools.ttLib import TTFont
    from mjfast.report import find_cjk_font
    assert len(RULE_FILES) >= 4
    font = find_cjk_font()
    assert font is not None, "the CJK font package (noto-cjk-sans-otc) is not installed"
    cmap = TTFont(str(font.path), fontNumber=font.face, lazy=True).getBestCmap()
    text = all_cjk_names()
    assert len(set(text)) > 100
    missing = sorted({c for c in text if not c.isspace() and ord(c) not in cmap})
    assert missing == []


def test_report_is_self_contained(written):
    page = written.read_text(encoding="utf-8")
    assert not re.search(r"https?://", page)
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert not re.findall(r"\bsrc=", page.split("@font-face")[-1])   # only the font's data URI
    assert "@font-face" in page and "data:font/woff;base64," in page
    for name in ("一色三节高", "无字", "Half Flush", "high/low"):
        assert name in page
    charts = sorted(p.name for p in written.parent.glob("*.svg"))
    assert {"fan-frequency.svg", "high-low.svg", "ev.svg", "play-stats.svg"} <= set(charts)
    assert page.count("<svg class='chart'") >= 5
    for c in charts:
        assert (written.parent / c).read_text(encoding="utf-8").startswith("<svg xmlns=")


def test_english_fallback_without_a_font(dataset, tmp_path, monkeypatch):
    import mjfast.report._build as B
    monkeypatch.setattr(B, "find_cjk_font", lambda: None)
    page = B.write_report(dataset.path, tmp_path).read_text(encoding="utf-8")
    assert "@font-face" not in page
    assert "一色三节高" not in page and "Pure Shifted Pungs" in page


def test_first_screen_is_the_study(study):
    """Question, sources with sample sizes, headline findings, contents, in that order, before
    the first section."""
    page = study[0].read_text(encoding="utf-8")
    head = page[:page.index("<section")]
    for what in ("Question.", "MCR under botzone", "Headline findings", "Sources and sample",
                 "Contents", "href='#compare'", "href='#fan-frequency'", "6 deals", "40 deals",
                 "detectable difference", "Same under both"):
        assert what in head, what
    assert head.index("Question.") < head.index("Contents") < head.index("Headline findings")


def test_headline_findings_from_compare():
    from mjfast.report import findings_from_compare, headline_html
    from mjfast.report._summary import Z_POWER
    df = pl.DataFrame({
        "rules": ["mcr"] * 4, "metric": ["paired: draw", "paired: win total", "win_rate",
                                        "paired: dealer net"],
        "variant": ["v6"] * 4, "reference": ["default"] * 4, "paired": [True, True, False, True],
        "n": [100, 100, 400, 100], "value": [0.0, 2.5, 0.25, -1.0], "ref_value": [None, None, 0.2, None],
        "diff": [0.0, 2.5, 0.05, -1.0], "se": [0.0, 0.5, 0.03, 0.4],
        "ci_low": [0.0, 1.52, -0.009, -1.78], "ci_high": [0.0, 3.48, 0.109, -0.22]})
    found = findings_from_compare(df)
    names = [f.name for f in found]
    # paired design: the paired differences lead, the unpaired play rate stays out, the
    # exact zero is said once
    assert names[:2] == ["Win total (paired per deal)", "Dealer's net payment (paired per deal)"]
    assert all("Win rate" not in n for n in names)
    same = [f for f in found if f.same]
    assert len(same) == 1 and "draws" in same[0].name
    total = found[0]
    assert total.unit == "dpoints" and total.detectable == pytest.approx(Z_POWER * 0.5)
    assert total.significant()
    html = headline_html(found)
    assert "+2.5 points (+1.5 to +3.5)" in html and "±1.4 points" in html
    assert "Same under both" in html and "2 of 2 differences are clear of zero" in html
    # without paired rows, the rates: a difference of rates in percentage points
    un = findings_from_compare(df.filter(~pl.col("paired")))
    assert un[0].name == "Win rate" and un[0].unit == "pp"
    assert "+5.0 pp (-0.9 to +10.9)" in headline_html(un)


def test_no_hidden_groups_and_base_fans(study):
    page, rep = study
    html = page.read_text(encoding="utf-8")
    ff = rep.results["fan-frequency"]
    assert ff.filter(pl.col("base"))["name_zh"].unique().to_list() == ["和牌"]
    sec = html[html.index("<section id='fan-frequency'>"):]
    sec = sec[:sec.index("</section>")]
    # both rule sets have rows in the table; tuidaohu's 16 fans are cut per group
    table = sec[sec.index("<table"):]
    assert ("<td class='txt c-rules'>mcr</td>" in table
            and "<td class='txt c-rules'>tuidaohu</td>" in table)
    # the base fan: not in the chart, said in its note, kept in the table (marked)
    chart = sec[sec.index("<div class='panels"):sec.index("</div>")]
    assert "和牌" not in chart and "Left out of the chart" in sec
    assert "<tr class='base'><td class='txt c-name_zh'>和牌</td>" in table
    # the terminal summary ranks fans per rule set and leaves base fans out
    from mjfast.report import top_fans
    top = top_fans(ff, 3)
    assert not top["base"].any()
    assert set(top["rules"]) == {"mcr", "tuidaohu"}
    assert top.group_by("rules", "variant", "source").len()["len"].max() <= 3
    # co-occurrence: the base fan is not among the top fans paired
    co = rep.results["fan-cooccurrence"]
    assert "和牌" not in co["name_zh_a"].to_list() + co["name_zh_b"].to_list()
    assert co.filter(pl.col("rules") == "tuidaohu").height > 0


def test_identical_variants_said_once(study):
    page, rep = study
    html = page.read_text(encoding="utf-8")
    sec = html[html.index("<section id='play-by-turn'>"):]
    sec = sec[:sec.index("</section>")]
    assert "identical under botzone and default" in sec and "botzone = default" in sec
    from mjfast.report import collapse_same
    df = pl.DataFrame({"rules": ["mcr"] * 4 + ["taiwan"], "variant": ["a", "b", "a", "b", "a"],
                       "x": [1, 1, 2, 2, 5], "y": [0.1, 0.1 + 1e-15, 0.2, 0.2, 0.5]})
    out, notes = collapse_same(df)
    assert out.height == 3 and set(out["variant"]) == {"a = b", "a"} and len(notes) == 1
    out, notes = collapse_same(df.with_columns(pl.when(pl.col("x") == 2).then(pl.lit(3))
                                               .otherwise(pl.col("x")).alias("x")).with_columns(
        pl.when((pl.col("variant") == "b") & (pl.col("x") == 3)).then(4).otherwise(pl.col("x"))
        .alias("x")))
    assert out.height == 5 and notes == []


def test_charts_are_legible_svg(study):
    """Every chart is inline SVG no wider than the page's column (so shown at its own size,
    never shrunk), with text of 11 px or more; compared panels share one scale."""
    page, _ = study
    html = page.read_text(encoding="utf-8")
    svgs = re.findall(r"<svg class='chart'[^>]*viewBox='0 0 ([\d.]+) ([\d.]+)'", html)
    assert len(svgs) >= 6
    assert max(float(w) for w, _ in svgs) <= 1070
    sizes = [float(x) for x in re.findall(r"<text [^>]*font-size='([\d.]+)'", html)]
    assert sizes and min(sizes) >= 11
    # the fan-frequency panels (mcr, tuidaohu) share one axis: the same tick labels
    sec = html[html.index("<section id='fan-frequency'>"):]
    panels = re.findall(r"<svg class='chart'.*?</svg>", sec[:sec.index("</section>")])
    assert len(panels) >= 2
    ticks = [re.findall(r"text-anchor='middle'[^>]*>(\d+)</text>", p) for p in panels]
    assert all(t == ticks[0] for t in ticks) and ticks[0]


def test_page_weight(study, written):
    """The page stays well under 1 MB: charts as SVG, the font subset to the page."""
    for page in (study[0], written):
        assert page.stat().st_size < 1_000_000
    import mjfast.report._fonts as Fo
    font = Fo.find_cjk_font()
    css = Fo.font_face_css(font, "一色三节高无字和牌")
    assert len(css) < 40_000     # a few dozen glyphs and the Latin range


def test_embedded_font_covers_every_character(study):
    """Every character of the page (CJK names, dashes, ×, ±...) has a glyph in the font
    the page embeds."""
    import base64
    import io
    from fontTools.ttLib import TTFont
    html = study[0].read_text(encoding="utf-8")
    data = re.search(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)", html).group(1)
    cmap = TTFont(io.BytesIO(base64.b64decode(data))).getBestCmap()
    body = re.sub(r"<[^>]+>", "", html[html.index("<body>"):])
    import html as H
    text = H.unescape(body)
    missing = sorted({c for c in text if not c.isspace() and ord(c) not in cmap})
    assert missing == []
    assert {"和", "牌", "一", "色"} <= {chr(c) for c in cmap}


def test_cli_query_named_and_sql(dataset, tmp_path):
    r = CliRunner().invoke(app, ["query", str(dataset.path), "fan-frequency", "--format", "csv"])
    assert r.exit_code == 0, r.output
    header = r.output.splitlines()[0].split(",")
    assert header[:6] == ["name_zh", "wins", "name_en", "share", "ci_low", "ci_high"]
    assert "base" in header
    out = tmp_path / "hl.parquet"
    r = CliRunner().invoke(app, ["query", str(dataset.path), "high-low", "--format", "parquet",
                                 "--output", str(out)])
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(out)["ready"].sum() == 8
    r = CliRunner().invoke(app, ["query", str(dataset.path),
                                 "SELECT COUNT(*) AS n FROM deals WHERE draw", "--format", "json"])
    assert r.exit_code == 0 and '"n":1' in r.output.replace(" ", "")
    r = CliRunner().invoke(app, ["query", str(dataset.path), "play-stats"])
    assert r.exit_code == 0 and "Play statistics" in r.output
    r = CliRunner().invoke(app, ["query", str(dataset.path), "play-stats", "--by-variant",
                                 "--format", "csv"])
    assert r.exit_code == 0 and "win_rate_default" in r.output
    r = CliRunner().invoke(app, ["query", str(dataset.path), "SELECT x FROM nowhere"])
    assert r.exit_code == 2


def test_cli_report(dataset, tmp_path):
    r = CliRunner().invoke(app, ["report", str(dataset.path), "--out", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "r" / "report.html").exists() and "Top fans" in r.output
    r = CliRunner().invoke(app, ["report", str(tmp_path / "missing"), "--out", str(tmp_path)])
    assert r.exit_code == 2


def test_report_default_folder_is_where_run_writes_it(tmp_path):
    """``mjfast report DATASET`` writes DATASET/report/report.html, as ``mjfast run`` does,
    and its help says so."""
    ds = S.write(tmp_path / "mjfast-out")
    r = CliRunner().invoke(app, ["report", str(ds.path), "--quiet"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "mjfast-out" / "report" / "report.html").exists()
    assert r.output.strip().endswith(str(tmp_path / "mjfast-out" / "report" / "report.html"))
    r = CliRunner().invoke(app, ["report", "--help"], env={"COLUMNS": "200"})
    assert "mjfast-out/report" in r.output and "mjfast-report" not in r.output
    run_help = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "200"}).output
    assert "report/" in run_help and "mjfast-out" in run_help


@pytest.mark.slow
def test_study_report_has_the_rule_balance_section(tmp_path):
    from mjfast.report import write_report
    S.write_study(tmp_path / "study")
    page = write_report(tmp_path / "study", tmp_path / "out").read_text(encoding="utf-8")
    assert "Rule comparison" in page and (tmp_path / "out" / "compare.svg").exists()
    assert "<section id='compare'>" in page
    # a folder of unrelated datasets (replay + hands) is no study: no comparison section
    S.write(tmp_path / "runs" / "replay", shards=(("00000", S.SHARD_A),))
    S.write(tmp_path / "runs" / "hands", shards=(("00001", S.SHARD_B),), variant="botzone")
    page = write_report(tmp_path / "runs", tmp_path / "out2").read_text(encoding="utf-8")
    assert "<section id='compare'>" not in page and "<section id='fan-frequency'>" in page


# -- in a real browser -----------------------------------------------------------------------
def _browser_or_skip() -> str:
    path = find_chromium()
    if path is None:
        if IN_CI:
            pytest.fail(f"chromium is not installed in CI; .ci/run installs it ({INSTALL_HINT})")
        pytest.skip(f"headless Chromium not installed: {INSTALL_HINT}")
    return path


_MEASURE = """(() => {
  const texts = [...document.querySelectorAll('svg.chart text')].filter(t => t.textContent.trim());
  let minPx = 1e9;
  for (const t of texts) {
    const svg = t.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    minPx = Math.min(minPx, parseFloat(getComputedStyle(t).fontSize) * scale);
  }
  const top = sel => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().top : 1e9; };
  const fonts = [...document.fonts].filter(f => f.family.replace(/['"]/g, '') === 'mjfast-cjk');
  return {minPx, n: texts.length, question: top('.question'), findings: top('table.findings'),
          contents: top('nav'), firstSection: top('section'),
          cjk: fonts.length > 0 && fonts.every(f => f.status === 'loaded')
               && document.fonts.check("14px 'mjfast-cjk'", '和牌一色三节高'),
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
})()"""


@pytest.mark.slow
def test_report_in_headless_chromium(study, tmp_path_factory):
    binary = _browser_or_skip()
    page, _ = study
    shots = tmp_path_factory.mktemp("report-browser", numbered=False)
    with Chromium(binary, width=1400, height=900) as b:
        secs = b.open(page.as_uri())
        assert b.problems() == []                          # no console errors or warnings
        first = b.screenshot(shots / "first-screen.png")
        m = b.evaluate(_MEASURE)
        # the first screen answers: the question, the findings and the contents are on it
        assert m["question"] < 200 and m["findings"] < 450 and m["contents"] < 900, m
        assert m["cjk"], "the embedded CJK font did not load or lacks a fan name's glyphs"
        b.resize(1200, 900)
        m12 = b.evaluate(_MEASURE)
        assert m12["n"] > 50 and m12["minPx"] >= 10, m12   # chart text at 1200 px
        assert m12["overflow"] <= 0, m12                   # no sideways scrolling
        b.screenshot(shots / "page-1200.png", full_page=True)
        assert b.problems() == []
    data = first.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    from matplotlib import image
    img = image.imread(str(first))
    assert img.shape[0] == 900 and img.shape[1] == 1400
    rgb = img[..., :3].reshape(-1, 3)
    assert (rgb == rgb[0]).all(axis=1).mean() < 0.9        # not a blank page
    print(f"report loaded in {secs:.2f} s; first screen: {first}")
