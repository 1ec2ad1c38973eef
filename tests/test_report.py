"""The report: written, self-contained (no network), CJK glyph coverage of every fan name,
English fallback without a font, headless-Chromium screenshot not blank; the CLI commands."""
from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import analytics_sample as S
from mjfast.cli import app

ROOT = Path(__file__).resolve().parents[1]
RULE_FILES = sorted((ROOT / "mjfast" / "rules").glob("*.toml"))


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
    assert "<script" not in page and "<link" not in page
    srcs = re.findall(r"src='([^']*)'", page) + re.findall(r'src="([^"]*)"', page)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "@font-face" in page and "data:font/" in page
    for name in ("一色三节高", "无字", "Half Flush", "high/low"):
        assert name in page
    pngs = sorted(p.name for p in written.parent.glob("*.png"))
    assert {"fan-frequency.png", "high-low.png", "ev.png"} <= set(pngs)
    assert all((written.parent / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


def test_english_fallback_without_a_font(dataset, tmp_path, monkeypatch):
    import mjfast.report._build as B
    monkeypatch.setattr(B, "find_cjk_font", lambda: None)
    page = B.write_report(dataset.path, tmp_path).read_text(encoding="utf-8")
    assert "@font-face" not in page and "name_zh" not in page
    assert "一色三节高" not in page and "Pure Shifted Pungs" in page


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_chromium() is None,
                    reason="chromium is not installed (Debian: apt-get install chromium)")
def test_report_opens_in_headless_chromium(written, tmp_path):
    shot = tmp_path / "shot.png"
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--host-resolver-rules=MAP * ~NOTFOUND",   # no network
           "--window-size=1200,1600", f"--screenshot={shot}", written.as_uri()]
    subprocess.run(cmd, check=True, capture_output=True, timeout=120)
    from matplotlib import image
    img = image.imread(str(shot))
    assert img.shape[0] >= 1000 and img.shape[1] >= 1000
    rgb = img[..., :3].reshape(-1, 3)
    # not blank: many pixels differ from the page background, in several colours
    background = (rgb == rgb[0]).all(axis=1).mean()
    assert background < 0.9
    colours = {tuple((c * 255).astype(int) // 16) for c in rgb[:: 97]}
    assert len(colours) > 20


def test_cli_query_named_and_sql(dataset, tmp_path):
    r = CliRunner().invoke(app, ["query", str(dataset.path), "fan-frequency", "--format", "csv"])
    assert r.exit_code == 0, r.output
    header = r.output.splitlines()[0].split(",")
    assert header[:6] == ["name_zh", "wins", "name_en", "share", "ci_low", "ci_high"]
    out = tmp_path / "hl.parquet"
    r = CliRunner().invoke(app, ["query", str(dataset.path), "high-low", "--format", "parquet",
                                 "--output", str(out)])
    assert r.exit_code == 0, r.output
    assert pl.read_parquet(out)["ready"].sum() == 8
    r = CliRunner().invoke(app, ["query", str(dataset.path),
                                 "SELECT COUNT(*) AS n FROM deals WHERE draw", "--format", "json"])
    assert r.exit_code == 0 and '"n":1' in r.output.replace(" ", "")
    r = CliRunner().invoke(app, ["query", str(dataset.path), "play-stats"])
    assert r.exit_code == 0 and "play-stats" in r.output
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


@pytest.mark.slow
def test_study_report_has_the_rule_balance_section(tmp_path):
    from mjfast.report import write_report
    S.write_study(tmp_path / "study")
    page = write_report(tmp_path / "study", tmp_path / "out").read_text(encoding="utf-8")
    assert "Rule-balance comparison" in page and (tmp_path / "out" / "compare.png").exists()
    # a folder of unrelated datasets (replay + hands) is no study: no comparison section
    S.write(tmp_path / "runs" / "replay", shards=(("00000", S.SHARD_A),))
    S.write(tmp_path / "runs" / "hands", shards=(("00001", S.SHARD_B),), variant="botzone")
    page = write_report(tmp_path / "runs", tmp_path / "out2").read_text(encoding="utf-8")
    assert "Rule-balance comparison" not in page and "Fan frequency" in page
