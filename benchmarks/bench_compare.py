"""Interleaved before/after timing of the compiled core's workloads: two checkouts (each
with its own Python, e.g. a ``git worktree`` of the older commit with its Cython parser
built in place), the SAME inputs for both, rounds alternating between them.

    python benchmarks/bench_compare.py BEFORE_DIR BEFORE_PYTHON [AFTER_DIR AFTER_PYTHON]
        [--only score,score_waits,shanten,waits,simulate,replay] [--cycles 3] [--rounds 3]
        [--n 200000] [--deals 256] [--env KEY=VALUE ...]

Workloads (one thread each; MCR scored with the ``botzone`` variant as elsewhere):
``score:<rules>`` (``score_batch`` of ``--n`` complete hands), ``score_waits:<rules>``
(``--n``/10 ready hands), ``shanten:<rules>`` / ``waits:<rules>`` (``--n`` random hands),
``simulate:<rules>:<bot>`` (``--deals`` deals, tables in memory) and ``replay`` (the bundled
Botzone text log, 4 times). Hands come from the AFTER checkout's generator, saved once
and loaded by both. Each worker compiles or loads its kernels before the first timed
round. Rounds are timed in CPU seconds of the worker process (``time.process_time``;
everything runs on one thread). Reported per workload: the best round of each cycle, the best of all for each
checkout, the ratio, and the machine's load average. ``--env`` sets environment variables
for the BEFORE worker only (e.g. its kernel cache folder).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RULES = ("mcr", "taiwan", "tuidaohu", "two_player")


def _batch(data_dir, rules, kind):
    import numpy as np

    from mjfast.hand import HandBatch
    z = np.load(os.path.join(data_dir, f"{rules}-{kind}.npz"))
    return HandBatch(**{k: z[k] for k in z.files if k != "rules"}, rules=str(z["rules"]))


def _workload(data_dir: str, name: str):
    """A thunk running ``name`` once (inputs prepared outside the timing)."""
    import mjfast
    parts = name.split(":")
    kind = parts[0]
    if kind == "score":
        b = _batch(data_dir, parts[1], "complete")
        v = "botzone" if parts[1] == "mcr" else None
        return lambda: mjfast.score_batch(b, rules=parts[1], variant=v)
    if kind == "score_waits":
        from mjfast.scoring import scorer_module
        b = _batch(data_dir, parts[1], "ready")
        n = len(b) // 10
        b = dataclasses.replace(b, **{f.name: getattr(b, f.name)[:n]
                                      for f in dataclasses.fields(b) if f.name != "rules"})
        return lambda: scorer_module(parts[1]).score_waits_batch(b)
    if kind in ("shanten", "waits"):
        b = _batch(data_dir, parts[1], "wall")
        fn = mjfast.shanten if kind == "shanten" else mjfast.waits
        return lambda: fn(b.counts, rules=parts[1], threads=1)
    if kind == "simulate":
        from mjfast.simulation import simulate
        bots = parts[2] if parts[1] != "two_player" else ",".join(parts[2].split(",")[:2])
        deals = int(os.environ.get("BENCH_DEALS", "256"))
        return lambda: simulate(parts[1], bots=bots, deals=deals, seed=7)
    if kind == "replay":
        from mjfast.data import botzone_text_sample
        from mjfast.replay import replay
        path = botzone_text_sample()
        return lambda: [replay([path], "botzone", variant="botzone") for _ in range(4)]
    raise ValueError(name)


def _worker(data_dir: str) -> None:          # pragma: no cover - runs in a subprocess
    import numba
    numba.set_num_threads(1)
    thunks = {}
    print("ready", flush=True)
    for line in sys.stdin:
        name, rounds = line.split()
        if name not in thunks:
            thunks[name] = _workload(data_dir, name)
            thunks[name]()                   # compile / load, warm the pages
        times = []
        for _ in range(int(rounds)):
            t = time.process_time()          # CPU seconds: a shared machine's load
            thunks[name]()                   # moves wall time more than CPU time
            times.append(time.process_time() - t)
        print(f"{min(times):.5f}", flush=True)


def _save_hands(python: str, root: str, data_dir: str, n: int) -> None:
    code = ("import sys, numpy as np, dataclasses; from mjfast import random_hands\n"
            "for r in ('mcr', 'taiwan', 'tuidaohu', 'two_player'):\n"
            "    for kind in ('complete', 'ready', 'wall'):\n"
            "        b = random_hands(int(sys.argv[2]), r, kind, seed=2026)\n"
            "        d = {f.name: getattr(b, f.name) for f in dataclasses.fields(b) if f.name != 'rules'}\n"
            "        np.savez(f'{sys.argv[1]}/{r}-{kind}.npz', rules=np.array(b.rules), **d)\n")
    subprocess.run([python, "-c", code, data_dir, str(n)], cwd=root, check=True,
                   env=dict(os.environ, PYTHONPATH=root))


def workloads(only: list[str]) -> list[str]:
    out = []
    for kind in only:
        if kind == "replay":
            out.append("replay")
        elif kind == "simulate":
            out += [f"simulate:{r}:{b}" for r in RULES for b in ("efficiency", "value")]
        else:
            out += [f"{kind}:{r}" for r in RULES]
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before_dir")
    ap.add_argument("before_python")
    ap.add_argument("after_dir", nargs="?", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("after_python", nargs="?", default=sys.executable)
    ap.add_argument("--only", default="score,score_waits,shanten,waits,simulate,replay")
    ap.add_argument("--cycles", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--deals", type=int, default=256)
    ap.add_argument("--env", nargs="*", default=[])
    a = ap.parse_args(argv)
    names = workloads(a.only.split(","))
    data = tempfile.mkdtemp(prefix="mjfast-compare-")
    _save_hands(a.after_python, a.after_dir, data, a.n)
    extra = dict(kv.split("=", 1) for kv in a.env)
    procs = {}
    for label, root, py in (("before", a.before_dir, a.before_python),
                            ("after", a.after_dir, a.after_python)):
        env = dict(os.environ, PYTHONPATH=root, BENCH_DEALS=str(a.deals))
        if label == "before":
            env.update(extra)
        procs[label] = subprocess.Popen([py, os.path.abspath(__file__), "--worker", data],
                                        cwd=root, text=True, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        procs[label].stdout.readline()
    best: dict[tuple, list[float]] = {}
    loads = []
    for c in range(a.cycles):
        for name in names:
            for label in (("before", "after") if c % 2 == 0 else ("after", "before")):
                p = procs[label]
                p.stdin.write(f"{name} {a.rounds}\n")
                p.stdin.flush()
                best.setdefault((name, label), []).append(float(p.stdout.readline()))
        loads.append(os.getloadavg()[0])
    for p in procs.values():
        p.stdin.close()
        p.wait()
    print(f"CPU seconds, best of {a.rounds} rounds per cycle, {a.cycles} cycles, one thread; load average "
          f"(1 min) {min(loads):.2f}-{max(loads):.2f}")
    for name in names:
        b, f = best[(name, "before")], best[(name, "after")]
        print(f"{name:28s} before {min(b):8.4f} s  after {min(f):8.4f} s  "
              f"({min(f) / min(b) - 1:+6.1%})   cycles {' '.join(f'{x:.3f}' for x in b)} | "
              f"{' '.join(f'{x:.3f}' for x in f)}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        main()
