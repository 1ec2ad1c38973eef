"""The pipeline framework and the ``hands`` job: executors give the same bytes, a killed run
resumes to the same bytes, every input row is accounted for."""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from mjfast.pipelines import (InlineExecutor, ProcessExecutor, ShardFailure, SpecError,
                              make_executor, run_job)
from mjfast.pipelines import hands as hands_job
from mjfast.datasets import Dataset
from mjfast.errors import MjfastError

REPO = Path(__file__).resolve().parents[1]


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _small_job(**kw):
    spec = dict(n=600, shard_size=200, kind="ready", variants=["default", "botzone"])
    spec.update(kw)
    return hands_job.job_from_spec(None, **spec)


def test_hands_job_columns_and_accounting(tmp_path):
    s = run_job(_small_job(), tmp_path)
    assert (s.shards_total, s.shards_run, s.n_in, s.n_out, s.n_quarantined) == (6, 6, 1200, 1200, 0)
    d = Dataset(tmp_path)
    df = d.read("hands")
    assert df.height == 1200 and set(df["variant"]) == {"default", "botzone"}
    assert (df["shanten"] == 0).all() and df["hand"].null_count() == 0
    # paired: the same hands (ids and strings) under each variant
    a = df.filter(pl.col("variant") == "default").sort("hand_id")
    b = df.filter(pl.col("variant") == "botzone").sort("hand_id")
    assert a["hand"].to_list() == b["hand"].to_list() and a["hand_id"].to_list() == list(range(600))
    # each wait's fan list adds up to the wait kernel's total, both ways
    w = df.select("waits").explode("waits").unnest("waits")
    pts = pl.element().struct.field("points") * pl.element().struct.field("count")
    w = w.with_columns(d=pl.col("fans_discard").list.eval(pts).list.sum(),
                       s=pl.col("fans_self_drawn").list.eval(pts).list.sum())
    assert w.height > 600
    assert (w["d"] == w["total_discard"]).all() and (w["s"] == w["total_self_drawn"]).all()
    # a hand's waits equal mjfast.score_waits on its string
    import mjfast
    row = a.row(7, named=True)
    want = mjfast.score_waits(row["hand"], rules="mcr")
    assert [x["total_discard"] for x in want] == [x["total_discard"] for x in row["waits"]]
    m = d.manifest()
    assert m["accounting"] == {"inputs": 1200, "outputs": 1200, "quarantined": 0}
    assert m["tables"] == {"hands": 1200} and m["config"]["mix"]["mcr"]
    assert {f["file"] for v in m["config"]["variants"] for f in v["files"]} == {"mcr.toml", "mcr.botzone.toml"}
    # a second run finds every shard done and rewrites nothing
    before = _files(tmp_path)
    s2 = run_job(_small_job(), tmp_path)
    assert (s2.shards_run, s2.shards_skipped) == (0, 6) and _files(tmp_path) == before


def test_complete_hands_scored(tmp_path):
    run_job(_small_job(kind="complete", variants=["default"], n=300, shard_size=300), tmp_path)
    df = Dataset(tmp_path).read("hands")
    import mjfast
    assert (df["shanten"] == -1).all() and df["total"].null_count() == 0
    for r in df.head(20).iter_rows(named=True):
        res = mjfast.score(r["hand"], rules="mcr")
        assert res.total == r["total"] and res.legal == r["legal"]
        assert sorted((f.id, f.count) for f in res.fans) == sorted((f["id"], f["count"]) for f in r["fans"])


@pytest.mark.slow
def test_executors_same_bytes(tmp_path):
    """Inline, a 2-process pool (forkserver) and a real Dask LocalCluster (2 worker
    processes): the same files, byte for byte."""
    pytest.importorskip("distributed")
    outs = {}
    for name, ex in (("inline", InlineExecutor()), ("pool", ProcessExecutor(2)),
                     ("dask", make_executor(2, dask=True))):
        out = tmp_path / name
        run_job(_small_job(), out, ex)
        outs[name] = _files(out)
    assert outs["inline"] == outs["pool"] == outs["dask"]
    assert len(outs["inline"]) == 6 + 6 + 2       # 6 parquet, 6 markers, manifest, _job


_SCRIPT = """
import os, signal, sys
from mjfast.pipelines import hands, run_job


def progress(key, info, done, total):
    # the kill lands where the test says: after that many shards, mid-run, every time
    if len(sys.argv) > 2 and done >= int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    job = hands.job_from_spec(None, n=1200, shard_size=150, kind="ready", variants=["default"])
    run_job(job, sys.argv[1], progress=progress)
"""


@pytest.mark.slow
def test_kill_and_resume_same_bytes(tmp_path):
    """A run killed (SIGKILL) after three of its eight shards, with a temporary file a write
    in flight would leave, resumes to the bytes of an uninterrupted run. The process kills
    itself from the runner's progress callback, so the kill never races the job's end."""
    script = tmp_path / "job.py"
    script.write_text(_SCRIPT)
    full, resumed = tmp_path / "full", tmp_path / "resumed"
    subprocess.run([sys.executable, str(script), str(full)], check=True)
    killed = subprocess.run([sys.executable, str(script), str(resumed), "3"])
    assert killed.returncode == -signal.SIGKILL
    done = resumed / "_done"
    assert len(list(done.glob("*.json"))) == 3 and not (resumed / "manifest.json").exists()
    stray = resumed / "hands" / "rules=mcr" / "variant=default" / ".part-x.parquet.abc.tmp"
    stray.write_bytes(b"half a file")
    subprocess.run([sys.executable, str(script), str(resumed)], check=True)
    assert not stray.exists()
    assert _files(full) == _files(resumed) and len(list(done.glob("*.json"))) == 8


def test_bad_rows_quarantined(tmp_path):
    good = ["123m456p789s12399s|EE1000", "[CCC,1]FFF123m456p7s7s", "1112345678999p",
            "123m456p789s1234s", "11223344556677z"]
    bad = ["123x", "", "1111m1111m", "123m456p789s1239s9s9s", "\x00\xff junk"]
    lines = []
    for i in range(60):
        lines.append(bad[i % 5] if i % 7 == 3 else good[i % 5])
    txt = tmp_path / "hands.txt"
    txt.write_text("\n".join(lines) + "\n")
    pq_path = tmp_path / "hands.parquet"
    pl.DataFrame({"hand": lines[:25] + [None]}).write_parquet(pq_path, row_group_size=10)
    job = hands_job.job_from_spec(None, source="files", files=[str(txt), str(pq_path)],
                                  shard_size=16)
    s = run_job(job, tmp_path / "out")
    n_bad = sum(1 for i in range(60) if i % 7 == 3)
    n_bad_pq = sum(1 for i in range(25) if i % 7 == 3) + 1
    assert s.n_in == 60 + 26
    assert s.n_quarantined == n_bad + n_bad_pq and s.n_out + s.n_quarantined == s.n_in
    d = Dataset(tmp_path / "out")
    q = d.read("quarantine").sort("source", "line")
    assert q.filter(pl.col("source") == "hands.txt")["line"].to_list() == \
        [i + 1 for i in range(60) if i % 7 == 3]
    assert q.filter(pl.col("source") == "hands.parquet")["line"].to_list()[-1] == 26
    assert q["reason"].null_count() == 0 and (q["rows"] == 1).all()
    h = d.read("hands")
    assert h.height == s.n_out
    # a complete hand is scored, a ready one has its waits, shanten for all
    h1 = h.filter(pl.col("hand") == "123m456p789s12399s|EE1000")
    assert h1["shanten"][0] == -1 and h1["total"][0] is not None
    h2 = h.filter(pl.col("hand") == "1112345678999p")
    assert h2["shanten"][0] == 0 and len(h2["waits"][0]) == 9
    m = d.manifest()
    assert m["accounting"]["inputs"] == m["accounting"]["outputs"] + m["accounting"]["quarantined"]
    assert {i["file"] for i in m["inputs"]} == {"hands.txt", "hands.parquet"}
    # a new file in the folder: only its shards run on the next pass
    txt2 = tmp_path / "more.txt"
    txt2.write_text("123m456p789s12399s|EE1000\n")
    job2 = hands_job.job_from_spec(None, source="files", shard_size=16,
                                   files=[str(txt), str(pq_path), str(txt2)])
    s2 = run_job(job2, tmp_path / "out2")
    assert s2.shards_run == s2.shards_total
    # same folder, same spec but a new input: only the new shard runs
    s3 = run_job(job2, tmp_path / "out")
    assert s3.shards_run == 1 and s3.n_in == s.n_in + 1


def test_spec_errors(tmp_path):
    with pytest.raises(SpecError):
        hands_job.job_from_spec(None, kind="half")
    with pytest.raises(SpecError):
        hands_job.job_from_spec(None, source="files", files=[str(tmp_path / "nope.txt")])
    bad = tmp_path / "spec.toml"
    bad.write_text("[hands]\nnumber = 3\n")
    with pytest.raises(SpecError, match="unknown key"):
        hands_job.job_from_spec(str(bad))
    run_job(_small_job(n=10, shard_size=10), tmp_path / "a")
    with pytest.raises(SpecError, match="another job"):
        run_job(_small_job(n=20, shard_size=10), tmp_path / "a")


def test_failed_shard_reported_and_resumable(tmp_path, monkeypatch):
    job = _small_job(n=400, shard_size=200, variants=["default"])
    calls = {"n": 0}
    real = hands_job.transform

    def flaky(p):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("disk on fire")
        return real(p)
    monkeypatch.setattr(hands_job, "transform", flaky)
    with pytest.raises(ShardFailure, match="disk on fire"):
        run_job(job, tmp_path)
    assert len(Dataset(tmp_path).done_shards()) == 1
    s = run_job(job, tmp_path)
    assert s.shards_run == 1 and s.n_out == 400


def test_a_variant_file_changed_since_the_dataset_was_written_is_refused(tmp_path):
    """A resume (or a merge into the same folder) across different rule contents is refused
    with an error naming the variant and both hashes; the manifest records the variant's id,
    file and hash."""
    import json
    f = tmp_path / "mcr.house.toml"
    f.write_text('[variant]\nname = "house"\n[rows.82]\nenabled = true\npoints = 5\n')
    out = tmp_path / "out"
    job = hands_job.job_from_spec(None, n=50, shard_size=50, variants=[str(f)])
    run_job(job, out)
    m = json.loads((out / "manifest.json").read_text())
    (rec,) = [r for r in m["rules"] if r["id"] == "mcr:house"]
    assert rec["file"] == str(f.resolve()) and len(rec["hash"]) == 16
    assert m["config"]["variants"][0]["hash"] == rec["hash"]
    f.write_text('[variant]\nname = "house"\n[rows.82]\nenabled = true\npoints = 6\n')
    with pytest.raises(SpecError, match=f"mcr:house.*{rec['hash']}"):
        run_job(hands_job.job_from_spec(None, n=50, shard_size=50, variants=[str(f)]), out)
    # a shard planned under the old content refuses to run under the new one
    from mjfast.runner import execute_shard
    with pytest.raises(MjfastError, match="changed since the job was planned"):
        execute_shard(job.shards[0], str(tmp_path / "other"), single_thread=False)


def test_planning_a_job_loads_no_kernels():
    """The parent only plans: the workers load the compiled kernels, so that the pool
    starts its workers without waiting on a parent's Numba start (a fresh interpreter)."""
    code = ("import sys; from mjfast.pipelines import hands; "
            "job = hands.job_from_spec(None, n=1000); "
            "print(len(job.shards), 'numba' in sys.modules, 'mjfast.kernels' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["1", "False", "False"]
