"""One number format for the page and the terminal, and terminal tables that fit: every
built-in analysis at 100 columns (needed columns first, no header cut, no two headers
alike), ``--all``, CSV with nested columns as JSON text, one-line errors, the run summary."""
from __future__ import annotations

import csv
import io
import json

import polars as pl
import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

import analytics_sample as S
import report_sample as R
from mjfast.analytics import ANALYSES
from mjfast.cli import app
from mjfast.report import _format as F
from mjfast.report._tables import grid

ENV = {"COLUMNS": "100"}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    return R.write(tmp_path_factory.mktemp("term") / "ds")


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return S.write(tmp_path_factory.mktemp("term") / "sample").path


def test_one_format_per_kind():
    assert F.fmt(F.PCT, 0.2304) == "23.0" and F.fmt(F.PCT, 0.2304, unit=True) == "23.0%"
    assert F.fmt(F.PP, 0.079, unit=True) == "+7.9 pp" and F.fmt(F.PP, -0.105) == "-10.5"
    assert F.fmt(F.PP, -0.0001) == "0.0"                 # never "-0.0"
    assert F.fmt(F.POINTS, 13.842) == "13.8" and F.fmt(F.POINTS, 1234.5) == "1,234.5"
    assert F.fmt(F.DPOINTS, -4.3, unit=True) == "-4.3 points"
    assert F.fmt(F.COUNT, 20000) == "20,000" and F.fmt(F.WIND, 2) == "W"
    assert F.fmt(F.PCT, None) == F.MISSING and F.fmt(F.TEXT, True) == "yes"
    # an interval like its estimate: same scale, decimals and unit
    assert F.fmt_interval(F.PP, -0.105, 0.264, unit=True) == "-10.5 to +26.4 pp"
    assert F.fmt_interval(F.PCT, 0.171, 0.302) == "17.1 to 30.2"
    assert F.fmt_estimate(F.PCT, 0.23, 0.171, 0.302) == "23.0% (95% CI 17.1 to 30.2%)"
    # a value's format never depends on its size: 0.5 points stay points
    assert F.fmt(F.POINTS, 0.5) == "0.5" and F.fmt(F.PCT, 1.5) == "150.0"
    assert F.header("win rate", F.PCT) == "win rate %"
    assert F.header("win total", F.POINTS) == "win total (points)"
    assert F.header("points per win", F.POINTS) == "points per win"
    assert F.decimals_for([0.5, 0.25]) == 3 and F.decimals_for([12.5, 3]) == 1


def test_compare_metric_kinds():
    for metric, kind in (("win_rate", F.PCT), ("draw_rate", F.PCT), ("paired: draw", F.PCT),
                         ("paired: win total", F.POINTS), ("dealer net payment", F.POINTS),
                         ("paired: dealer net", F.POINTS), ("mean_win_turn", F.TURNS),
                         ("ev turns: discard", F.POINTS), ("ev hands: self-draw", F.POINTS),
                         ("fan share: Flower Tiles", F.PCT),
                         ("high-low turns: share split", F.PCT)):
        assert F.metric_kind(metric) == kind, metric
    assert F.metric_kind("anything", unit="points") == F.POINTS
    assert F.DIFF[F.PCT] == F.PP


def test_compare_cells_carry_their_unit(study):
    from mjfast.analytics import compare
    from mjfast.report._tables import compare_for_reading
    df = compare_for_reading(compare(study))
    g = grid(df, "compare")
    diff = g.headers.index("difference (95% CI)")
    cells = {r[g.headers.index("metric")]: r[diff] for r in g.rows}
    assert cells["Mean total of a win"] == "same under both"
    assert cells["Wins per player-deal"] == "same under both"
    assert " points (" in cells["Dealer's net a deal"]


@pytest.mark.parametrize("name", sorted(ANALYSES))
def test_every_analysis_fits_100_columns(name, study, sample):
    for ds in (study, sample):
        r = CliRunner().invoke(app, ["query", str(ds), name], env=ENV)
        assert r.exit_code == 0, r.output
        lines = r.output.splitlines()
        assert max(cell_len(x) for x in lines) <= 100, name
        assert "…" not in r.output                        # no header or cell cut short
        df = ANALYSES[name](ds)
        heads = grid(df, name).headers
        assert len(heads) == len(set(heads)), heads       # no two headers alike
        if df.height and {"rules", "variant"} <= set(df.columns):
            body = r.output.split("─")[-1]
            if name == "compare":      # a rule set with one variant compares nothing
                df = df.filter(pl.col("variant") != pl.col("reference"))
            rules = set(df["rules"].drop_nulls().unique().to_list())
            assert all(x in body for x in rules), (name, rules)   # every rule set has rows


def test_needed_columns_first_and_all_columns(study):
    r = CliRunner().invoke(app, ["query", str(study), "fan-frequency"], env=ENV)
    head = r.output.split("─")[0]
    for h in ("fan", "rules", "variant", "wins", "share of wins %", "(95% CI)"):
        assert h in head
    assert "fan_id" not in head and "not shown:" in r.output and "--all" in r.output
    r = CliRunner().invoke(app, ["query", str(study), "fan-frequency", "--all"], env=ENV)
    assert r.exit_code == 0 and "not shown" not in r.output
    for h in ("fan id", "all wins", "held by every win"):
        assert h in r.output.replace("\n", " ") or h.split()[0] in r.output


def test_long_tables_keep_every_group(study):
    r = CliRunner().invoke(app, ["query", str(study), "fan-frequency", "--max-rows", "6"],
                           env=ENV)
    body = r.output.split("─")[-1]
    assert "mcr" in body and "tuidaohu" in body and "more rows" in body


def test_csv_of_nested_columns_is_json_text(study):
    r = CliRunner().invoke(app, ["query", str(study), "select * from deals", "--format", "csv"])
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert len(rows) == pl.scan_parquet(str(study / "deals" / "**" / "*.parquet")).select(
        pl.len()).collect().item()
    fans = [json.loads(x["fans"]) for x in rows if x["fans"]]
    assert fans and all(isinstance(f, list) and "id" in f[0] for f in fans)
    assert json.loads(rows[0]["scores"]) and json.loads(rows[0]["seats"]) == [0, 1, 2, 3]
    draws = [x for x in rows if x["draw"] == "true"]
    assert draws and draws[0]["fans"] == ""               # null stays empty, not "null"


def test_errors_are_one_line(study, tmp_path):
    for args in (["select * from nowhere"], ["play-stats", "--format", "xml"],
                 ["play-stats", "--format", "parquet"]):
        r = CliRunner().invoke(app, ["query", str(study), *args])
        assert r.exit_code == 2
        assert "Traceback" not in r.output and r.output.count("error:") == 1, r.output


def test_run_summary_fits_and_ranks_fans_per_rule_set(study):
    from mjfast.report import build_report
    rep = build_report(study)
    con = Console(width=100, file=io.StringIO(), color_system=None)
    for part in rep.summary(width=100):
        con.print(part)
    text = con.file.getvalue()
    assert max(cell_len(x) for x in text.splitlines()) <= 100
    assert "Headline findings" in text and "Top fans of each rule set" in text
    top = text[text.index("Top fans"):]
    assert "tuidaohu" in top and "mcr" in top and "和牌" not in top
    assert "…" not in text
    # without a width the tables fit the console that prints them (mjfast run's own)
    for w in (80, 120):
        con = Console(width=w, file=io.StringIO(), color_system=None)
        for part in rep.summary():
            con.print(part)
        out = con.file.getvalue()
        assert max(cell_len(x) for x in out.splitlines()) <= w and "Top fans" in out


def test_headers_never_read_the_same():
    df = pl.DataFrame({"rules": ["mcr"], "variant": ["default"], "a": [1.0], "b": [2.0]})
    cols = [F.Col("a", "share", F.PCT), F.Col("b", "share", F.PCT)]
    heads = grid(df, None, cols).headers
    assert len(set(heads)) == 2 and all(h.startswith("share %") for h in heads)
