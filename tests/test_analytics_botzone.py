"""The bundled Botzone text sample replayed: 14 wins, and the fan-frequency table equals a
count made here from the logs' own ``Fan`` lines (names mapped to ids with the rule file's
Chinese names and the judge's aliases, read with tomllib)."""
from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

import mjfast

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = Path(mjfast.__file__).parent / "data" / "botzone_sample16.txt"



def logged_fans():
    rows = tomllib.loads((ROOT / "mjfast/rules/mcr.toml").read_text(encoding="utf-8"))["row"]
    ids = {}
    for r in rows:
        ids[r["zh"]] = r["id"]
        for a in r.get("aliases", []):
            ids[a] = r["id"]
    wins, holding, counts = 0, Counter(), Counter()
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("Fan "):
            wins += 1
            seen = set()
            for item in line.strip().split(" ", 2)[2].split("+"):
                name, k = item.rsplit("*", 1)
                seen.add(ids[name])
                counts[ids[name]] += int(k)
            holding.update(seen)
    return wins, holding, counts


@pytest.mark.slow
def test_botzone_sample_fan_frequency(tmp_path):
    from mjfast.analytics import run
    from mjfast.datasets import Dataset
    from mjfast.replay import replay
    res = replay([SAMPLE], "botzone", out=tmp_path / "bz")
    assert res.stats.replayed == 16
    ds = Dataset(tmp_path / "bz")
    wins, holding, counts = logged_fans()
    assert wins == 14
    ff = run("fan-frequency", ds.path).filter(pl.col("source") == "wins")
    assert set(ff["n_wins"]) == {14}
    got = {r["fan_id"]: (r["wins"], r["count"]) for r in ff.iter_rows(named=True)}
    assert got == {f: (holding[f], counts[f]) for f in holding}
    ps = run("play-stats", ds.path).row(0, named=True)
    assert (ps["deals"], ps["wins"], ps["draws"]) == (16, 14, 2)
