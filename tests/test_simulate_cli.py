"""``mjfast simulate`` as a user runs it (a subprocess)."""
from __future__ import annotations

import json
import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True,
                          text=True, timeout=900)


def test_simulate_writes_a_dataset(tmp_path):
    out = tmp_path / "sim"
    r = run("simulate", "--rules", "mcr", "--variant", "botzone", "--wall", "botzone",
            "--bots", "efficiency,value,efficiency,value", "--deals", "4", "--seed", "3",
            "--out", str(out), "--jsonl", "--botzone-text", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["deals"] == 4 and summary["tables"]["deals"] == 4 and summary["errors"] == 0
    assert (out / "manifest.json").exists()
    assert list((out / "botzone").rglob("*.txt")) and list((out / "jsonl").rglob("*.jsonl"))
    # not a terminal: one line per shard on stderr
    r = run("simulate", "--rules", "two_player", "--deals", "2", "--chips", "30",
            "--out", str(tmp_path / "b"))
    assert r.returncode == 0 and "shard 1/1" in r.stderr


def test_simulate_bad_input_exits_2(tmp_path):
    r = run("simulate", "--rules", "mcr", "--bots", "nobody", "--out", str(tmp_path / "x"))
    assert r.returncode == 2 and "unknown bot" in r.stderr
    r = run("simulate", "--rules", "taiwan", "--wall", "botzone", "--out", str(tmp_path / "y"))
    assert r.returncode == 2
    r = run("simulate", "--rules", "mcr", "--chips", "10", "--out", str(tmp_path / "z"))
    assert r.returncode == 2 and "two-player" in r.stderr
