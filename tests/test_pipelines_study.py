"""Studies, the replay job and the CLI commands run, hands and study."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from mjfast.datasets import Dataset, file_sha256
from mjfast.pipelines import SpecError, run_job
from mjfast.pipelines import replay as replay_job
from mjfast.pipelines import study

CHEAP = """[variant]
name = "cheap"
[rows.69]
points = 3
"""
DEAR = """[variant]
name = "dear"
[rows.69]
points = 6
[rows.70]
points = 4
"""


def _variants(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "mcr.cheap.toml", tmp_path / "mcr.dear.toml"
    a.write_text(CHEAP)
    b.write_text(DEAR)
    return a, b


def _study_file(tmp_path: Path, a: Path, b: Path, sources=("hands", "replay")) -> Path:
    f = tmp_path / "study.toml"
    f.write_text(f"""[study]
name = "t"
rules = "mcr"
variants = ["{a}", "{b}"]
mode = "rescore"
seed = 3
sources = {json.dumps(list(sources))}
[study.hands]
kind = "complete"
n = 400
shard_size = 200
strings = false
wait_fans = false
[study.replay]
files = ["bundled"]
""")
    return f


def test_rescore_study_paired_rows(tmp_path):
    """Two user variant files (paths): the same hands scored under each, paired."""
    a, b = _variants(tmp_path)
    job = study.job_from_spec(str(_study_file(tmp_path, a, b, sources=("hands",))))
    s = run_job(job, tmp_path / "out")
    d = Dataset(tmp_path / "out")
    h = d.read("hands")
    assert set(h["variant"]) == {"cheap", "dear"} and h.height == 800
    wide = (h.filter(pl.col("variant") == "cheap").select("hand_id", pl.col("total").alias("c"))
            .join(h.filter(pl.col("variant") == "dear").select("hand_id", pl.col("total").alias("d")),
                  on="hand_id", how="inner"))
    assert wide.height == 400                                   # one pair per hand
    assert (wide["d"] >= wide["c"]).all() and (wide["d"] > wide["c"]).any()
    m = d.manifest()
    files = {f["file"]: f["sha256"] for v in m["config"]["variants"] for f in v["files"]}
    assert files["mcr.cheap.toml"] == file_sha256(a) and files["mcr.dear.toml"] == file_sha256(b)
    assert m["config"]["mode"] == "rescore"
    assert m["accounting"]["inputs"] == 800 == s.n_in
    with pytest.raises(SpecError):
        bad = tmp_path / "bad.toml"
        bad.write_text('[study]\nmode = "sideways"\n')
        study.job_from_spec(str(bad))


def test_rescore_study_replay_paired_deals(tmp_path):
    """The bundled logs replayed under two variant files given by path: every deal once
    under each variant (paired by deal_id)."""
    from mjfast.rules._table import RULES_DIR
    a, b = RULES_DIR / "mcr.botzone.toml", RULES_DIR / "mcr.seed.toml"
    s = run_job(study.job_from_spec(str(_study_file(tmp_path, a, b, sources=("replay",)))),
                tmp_path / "out")
    d = Dataset(tmp_path / "out")
    per = d.read("deals").group_by("deal_id").agg(pl.col("variant").sort())
    assert per.height == 19 and all(v == ["botzone", "seed"] for v in per["variant"].to_list())
    wins = d.read("wins")
    pw = (wins.filter(pl.col("variant") == "botzone").select("deal_id", "winner", pl.col("total").alias("a"))
          .join(wins.filter(pl.col("variant") == "seed").select("deal_id", "winner", pl.col("total").alias("b")),
                on=["deal_id", "winner"]))
    assert pw.height == 16
    assert s.n_in == 2 * 19 == s.n_out + s.n_quarantined


def test_replay_bad_logs_quarantined_and_incremental(tmp_path):
    from mjfast.data import botzone_text_sample
    logs = tmp_path / "logs"
    logs.mkdir()
    text = botzone_text_sample().read_bytes()
    (logs / "good.txt").write_bytes(text)
    (logs / "truncated.txt").write_bytes(text[: len(text) // 2])
    (logs / "junk.txt").write_bytes(bytes(range(256)) * 20)
    job = replay_job.job_from_spec(None, files=[str(logs)], variants=["botzone"])
    s = run_job(job, tmp_path / "out")
    assert s.n_in == s.n_out + s.n_quarantined and s.n_quarantined >= 1
    d = Dataset(tmp_path / "out")
    q = d.read("quarantine")
    assert q.height >= 1 and q["reason"].null_count() == 0
    assert d.read("deals").height == s.n_out
    # a new log in the folder: only its shard runs
    (logs / "more.txt").write_bytes(text[: len(text) // 3])
    job2 = replay_job.job_from_spec(None, files=[str(logs)], variants=["botzone"])
    s2 = run_job(job2, tmp_path / "out")
    assert s2.shards_run == 1 and s2.shards_skipped == 3


def _mjfast(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True,
                          text=True, cwd=cwd)


@pytest.mark.slow
def test_cli_hands_exit_codes(tmp_path):
    f = tmp_path / "h.txt"
    f.write_text("123m456p789s12399s|EE1000\n1112345678999p\n")
    r = _mjfast("hands", str(f), "--out", str(tmp_path / "a"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outputs"] == 2
    f.write_text("123m456p789s12399s|EE1000\nnot a hand\n")
    r = _mjfast("hands", str(f), "--out", str(tmp_path / "b"))
    assert r.returncode == 1 and "quarantined 1" in r.stdout
    assert "[1/1]" in r.stderr                   # one log line per shard off a terminal
    r = _mjfast("hands", "--kind", "sideways", "--out", str(tmp_path / "c"))
    assert r.returncode == 2 and "kind" in r.stderr
    r = _mjfast("study", str(tmp_path / "missing.toml"))
    assert r.returncode == 2


@pytest.mark.slow
def test_mjfast_run_end_to_end(tmp_path):
    r = _mjfast("run", "--out", "mjfast-out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    out = tmp_path / "mjfast-out"
    m = json.loads((out / "manifest.json").read_text())
    acc = m["accounting"]
    assert acc["inputs"] == acc["outputs"] + acc["quarantined"] and acc["quarantined"] == 0
    assert m["tables"]["hands"] > 0 and "inputs" in r.stdout
    if "replay" in m["config"]["sources"]:
        assert m["tables"]["deals"] >= 2 * 19
    assert (out / "report" / "report.html").exists()
    # run again: every shard done, nothing rewritten
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
    r2 = _mjfast("run", "--out", "mjfast-out", "--no-report", "--quiet", cwd=tmp_path)
    assert r2.returncode == 0 and "already done" in r2.stdout
    assert before == {p: p.stat().st_mtime_ns for p in out.rglob("*.parquet")}
