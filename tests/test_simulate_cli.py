"""``mjfast simulate`` as a user runs it (a subprocess)."""
from __future__ import annotations

import json

import pytest
import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True,
                          text=True, timeout=900)


@pytest.mark.slow
def test_simulate_writes_a_dataset(tmp_path):
    out = tmp_path / "sim"
    r = run("simulate", "--rules", "mcr", "--variant", "botzone", "--wall", "botzone",
            "--bots", "efficiency,value,efficiency,value", "--deals", "4", "--seed", "3",
            "--out", str(out), "--jsonl", "--botzone-text", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["tables"]["deals"] == 4 and summary["engine_errors"] == 0
    assert summary["job"] == "simulate" and summary["shards_run"] == 1
    m = json.loads((out / "manifest.json").read_text())
    assert m["accounting"] == {"inputs": 1, "outputs": 1, "quarantined": 0}
    assert [r["id"] for r in m["rules"]] == ["mcr:botzone"] and (out / "_job.json").exists()
    assert list((out / "botzone").rglob("*.txt")) and list((out / "jsonl").rglob("*.jsonl"))
    # the same command again: every shard done, nothing rewritten
    stamp = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    r = run("simulate", "--rules", "mcr", "--variant", "botzone", "--wall", "botzone",
            "--bots", "efficiency,value,efficiency,value", "--deals", "4", "--seed", "3",
            "--out", str(out), "--jsonl", "--botzone-text")
    assert r.returncode == 0 and "0 run, 1 already done" in r.stdout, r.stdout + r.stderr
    assert stamp == {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*")
                     if p.is_file()}
    # not a terminal: one line per shard on stderr; two-player JSON lines name their fans
    r = run("simulate", "--rules", "two_player", "--deals", "16", "--chips", "30", "--jsonl",
            "--out", str(tmp_path / "b"))
    assert r.returncode == 0 and "[1/1] simulate-two_player-default-00000" in r.stderr
    lines = [json.loads(x) for f in (tmp_path / "b" / "jsonl").rglob("*.jsonl")
             for x in f.read_text().splitlines()]
    wins = [o for o in lines if o["type"] == "win"]
    assert wins and all(f.get("name") and f.get("zh") for o in wins for f in o["fans"])
    assert {(o["rules"], o["variant"]) for o in lines if o["type"] == "start_deal"} == \
        {("two_player", "default")}


@pytest.mark.slow
def test_simulate_bad_input_exits_2(tmp_path):
    r = run("simulate", "--rules", "mcr", "--bots", "nobody", "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "unknown bot" in r.stderr
    r = run("simulate", "--rules", "taiwan", "--wall", "botzone", "--out", str(tmp_path / "y"))
    assert r.returncode == 2
    r = run("simulate", "--rules", "mcr", "--chips", "10", "--out", str(tmp_path / "z"))
    assert r.returncode == 2 and "two-player" in r.stderr
