"""The replay job cuts a Botzone text file into pieces of ``chunk_deals`` deals (one shard
each, found by one streaming pass), so a worker never holds a whole file: the pieces cover
the file exactly, start at ``Match`` lines with the right line numbers, and the job's
tables equal a whole-file replay; it resumes piece by piece, replays only new files, and
gives the same files on a process pool."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from mjfast.data import botzone_text_sample
from mjfast.datasets import Dataset, file_sha256
from mjfast.errors import MjfastError
from mjfast.pipelines import SpecError, run_job
from mjfast.pipelines import replay as replay_job
from mjfast.formats.botzone_text import pieces as text_chunks
from mjfast.replay import replay

SAMPLE = botzone_text_sample().read_bytes()
TABLES = ("deals", "events", "turns", "wins", "win_chances", "discrepancies", "quarantine")


def _mixed_log(tmp_path: Path) -> Path:
    """The sample, a truncated copy of it (repeated ids, a deal cut short) and junk
    between deals: every kind of piece a cut can meet."""
    f = tmp_path / "mixed.txt"
    f.write_bytes(b"stray text before the first deal\r\n" + SAMPLE
                  + SAMPLE[: len(SAMPLE) // 2] + b"\r\nnot a deal\r\n" + SAMPLE[:3000])
    return f


@pytest.mark.parametrize("lf", [False, True])
@pytest.mark.parametrize("block", [97, 4096, 1 << 24])
def test_text_chunks_cover_the_file(tmp_path, lf, block):
    data = _mixed_log(tmp_path).read_bytes()
    if lf:
        data = data.replace(b"\r\n", b"\n")
    f = tmp_path / "log.txt"
    f.write_bytes(data)
    n_match = data.count(b"\nMatch ") + data.startswith(b"Match ")
    for k in (1, 7, 16, 1000):
        digest, pieces = text_chunks(f, k, block=block)
        assert digest == file_sha256(f)
        assert pieces[0]["start"] == 0 and pieces[-1]["end"] == len(data)
        assert all(a["end"] == b["start"] for a, b in zip(pieces, pieces[1:]))
        assert sum(p["deals"] for p in pieces) == n_match
        assert all(p["deals"] == k for p in pieces[1:-1]) and pieces[0]["deals"] == min(k, n_match)
        for p in pieces:
            assert p["line0"] == data[:p["start"]].count(b"\n")
            if p["start"]:
                assert data[p["start"]:p["start"] + 6] == b"Match "
        # the ids a piece repeats from earlier pieces (the truncated copy repeats the sample)
        ids = [line.split()[1] for line in data.splitlines() if line.startswith(b"Match ")]
        owner, want = {}, [set() for _ in pieces]
        j = 0
        for i, p in enumerate(pieces):
            for did in ids[j:j + p["deals"]]:
                if owner.setdefault(did, i) < i:
                    want[i].add(did.decode())
            j += p["deals"]
        assert [set(p["seen"]) for p in pieces] == want


def test_text_chunks_edge_files(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert text_chunks(empty, 5)[1] == [{"start": 0, "end": 0, "line0": 0, "deals": 0, "seen": []}]
    junk = tmp_path / "junk.txt"
    junk.write_bytes(bytes(range(256)) * 300)           # no line end for a long stretch
    _, pieces = text_chunks(junk, 5, block=1000)
    assert len(pieces) == 1 and pieces[0]["end"] == 256 * 300 and pieces[0]["deals"] == 0
    with pytest.raises(MjfastError):
        text_chunks(junk, 0)


def _sorted(df: pl.DataFrame) -> pl.DataFrame:
    key = [c for c in ("deal_id", "step", "seq", "player", "tile", "line", "what")
           if c in df.columns]
    return df.sort(key, nulls_last=True)


def test_chunked_job_equals_whole_file_replay(tmp_path):
    log = _mixed_log(tmp_path)
    s = run_job(replay_job.job_from_spec(None, files=[str(log)], variants=["botzone"],
                                         chunk_deals=5), tmp_path / "out")
    whole = replay([log], "botzone")
    assert s.shards_total == len(text_chunks(log, 5)[1]) > 3
    assert (s.n_in, s.n_out, s.n_quarantined) == (whole.stats.deals_in, whole.stats.replayed,
                                                    whole.stats.quarantined)
    assert s.n_in == s.n_out + s.n_quarantined and s.n_quarantined >= 10
    ds = Dataset(tmp_path / "out")
    for t in TABLES:
        want = pl.from_arrow(whole[t])
        got = ds.read(t).drop("rules", "variant") if want.height else None
        if got is None:
            continue
        assert _sorted(got).equals(_sorted(want)), t
    m = ds.manifest()
    assert m["accounting"] == {"inputs": s.n_in, "outputs": s.n_out, "quarantined": s.n_quarantined}
    assert m["inputs"][0]["pieces"] == s.shards_total and m["config"]["chunk_deals"] == 5


def test_chunked_job_resumes_by_piece_and_runs_only_new_files(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.txt").write_bytes(SAMPLE)
    out = tmp_path / "out"
    job = replay_job.job_from_spec(None, files=[str(logs)], variants=["botzone"], chunk_deals=6)
    first = run_job(job, out)
    assert first.shards_total == 3 and first.n_in == 16
    files = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.parquet")}
    # a run killed after two pieces: one piece's marker and files are missing
    lost = job.shards[1].key
    (out / "_done" / f"{lost}.json").unlink()
    for p in out.rglob(f"part-{lost}.parquet"):
        p.unlink()
    again = run_job(job, out)
    assert (again.shards_run, again.shards_skipped) == (1, 2)
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*.parquet")} == files
    # a new file in the folder: only its pieces run
    (logs / "b.txt").write_bytes(SAMPLE.replace(b"Match ", b"Match b"))
    more = run_job(replay_job.job_from_spec(None, files=[str(logs)], variants=["botzone"],
                                            chunk_deals=6), out)
    assert (more.shards_run, more.shards_skipped) == (3, 3) and more.n_in == 32
    # another piece size into the same folder is another job's dataset
    with pytest.raises(SpecError):
        run_job(replay_job.job_from_spec(None, files=[str(logs)], variants=["botzone"],
                                         chunk_deals=7), out)


@pytest.mark.slow
def test_chunked_job_same_files_on_a_process_pool(tmp_path):
    from mjfast.runner import ProcessExecutor
    log = _mixed_log(tmp_path)
    job = replay_job.job_from_spec(None, files=[str(log)], variants=["botzone"], chunk_deals=5)
    run_job(job, tmp_path / "a")
    run_job(job, tmp_path / "b", executor=ProcessExecutor(2))
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*.parquet")}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*.parquet")}
    assert a == b and len(a) > 10
