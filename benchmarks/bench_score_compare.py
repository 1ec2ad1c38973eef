"""Interleaved before/after timing of ``score_batch`` for the four rule sets: two checkouts
of mjfast (each with its own Python, e.g. a ``git worktree`` of the older commit and a venv
with an editable install of it), the SAME hands for both, rounds alternating between them.

    python benchmarks/bench_score_compare.py BEFORE_DIR BEFORE_PYTHON [AFTER_DIR AFTER_PYTHON]
        [--rules mcr,taiwan,tuidaohu,two_player] [--threads 1,2] [--cycles 4]
        [--rounds 5] [--n 1000000] [--sub 200000]

The hands (``mjfast.random_hands(n, rules, "complete", seed=2026)`` of the AFTER checkout)
are saved once as ``.npz`` and loaded by both workers, so a change of the generator cannot
move the figures. Each worker compiles or loads its kernels before the first timed round.
A cycle times, for every rule set and thread count, ``--rounds`` calls of each checkout
(on the first ``--sub`` hands: short rounds catch the quiet moments of a loaded machine),
the order of the two alternating from cycle to cycle. Reported: the best round of each
cycle and the best of all, per checkout, wall time and CPU time (``time.process_time``:
on one thread, what a loaded machine distorts least), and whether both gave identical fan
counts and totals (a digest). MCR is scored with the ``botzone`` variant, as in bench_score_mcr.py.
No pytest test here (timing lives in the other bench files); this is a script.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RULES = ("mcr", "taiwan", "tuidaohu", "two_player")


def _worker(data_dir: str) -> None:          # pragma: no cover - runs in a subprocess
    import dataclasses

    import numba
    import numpy as np

    from mjfast.hand import HandBatch
    from mjfast.scoring import mcr, taiwan, tuidaohu
    fn = {"mcr": lambda b: mcr.score_batch(b, variant="botzone"), "taiwan": taiwan.score_batch,
          "tuidaohu": tuidaohu.score_batch, "two_player": tuidaohu.score_batch}
    batches = {}
    print("ready", flush=True)
    for line in sys.stdin:
        rules, threads, rounds, sub = line.split()
        if rules not in batches:
            z = np.load(os.path.join(data_dir, f"{rules}.npz"))
            b = HandBatch(**{k: z[k] for k in z.files if k != "rules"}, rules=str(z["rules"]))
            fn[rules](b)                                 # compile / load, warm the pages
            batches[rules] = b
        b = batches[rules]
        if int(sub) < len(b):
            b = dataclasses.replace(b, **{f.name: getattr(b, f.name)[:int(sub)]
                                          for f in dataclasses.fields(b) if f.name != "rules"})
        numba.set_num_threads(int(threads))
        times = []
        cpu = []
        for _ in range(int(rounds)):
            t, c = time.perf_counter(), time.process_time()
            res = fn[rules](b)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        digest = hashlib.sha1(np.ascontiguousarray(res.fan_counts).tobytes()
                              + np.ascontiguousarray(res.totals).tobytes()).hexdigest()[:12]
        print(f"{min(times):.5f} {min(cpu):.5f} {digest}", flush=True)


def _save_hands(python: str, root: str, data_dir: str, n: int, rules) -> None:
    code = ("import sys, numpy as np, dataclasses; from mjfast import random_hands\n"
            "for r in sys.argv[3].split(','):\n"
            "    b = random_hands(int(sys.argv[2]), r, 'complete', seed=2026)\n"
            "    d = {f.name: getattr(b, f.name) for f in dataclasses.fields(b) if f.name != 'rules'}\n"
            "    np.savez(f'{sys.argv[1]}/{r}.npz', rules=np.array(b.rules), **d)\n")
    subprocess.run([python, "-c", code, data_dir, str(n), ",".join(rules)], cwd=root, check=True,
                   env=dict(os.environ, PYTHONPATH=root))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before_dir")
    ap.add_argument("before_python")
    ap.add_argument("after_dir", nargs="?", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("after_python", nargs="?", default=sys.executable)
    ap.add_argument("--rules", default=",".join(RULES))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--cycles", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--sub", type=int, default=200_000)
    a = ap.parse_args(argv)
    rules = a.rules.split(",")
    data = tempfile.mkdtemp(prefix="mjfast-compare-")
    _save_hands(a.after_python, a.after_dir, data, a.n, rules)
    procs = {}
    for name, root, py in (("before", a.before_dir, a.before_python),
                           ("after", a.after_dir, a.after_python)):
        procs[name] = subprocess.Popen(
            [py, os.path.abspath(__file__), "--worker", data], cwd=root, text=True,
            env=dict(os.environ, PYTHONPATH=root), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        procs[name].stdout.readline()
    best: dict[tuple, list[float]] = {}
    best_cpu: dict[tuple, list[float]] = {}
    digests: dict[tuple, set] = {}
    for c in range(a.cycles):
        for r in rules:
            for th in a.threads.split(","):
                for name in (("before", "after") if c % 2 == 0 else ("after", "before")):
                    p = procs[name]
                    p.stdin.write(f"{r} {th} {a.rounds} {a.sub}\n")
                    p.stdin.flush()
                    t, c, dg = p.stdout.readline().split()
                    best.setdefault((r, th, name), []).append(float(t))
                    best_cpu.setdefault((r, th, name), []).append(float(c))
                    digests.setdefault((r, th), set()).add(dg)
    for p in procs.values():
        p.stdin.close()
        p.wait()
    print(f"{a.sub:,} hands a round, best of {a.rounds} rounds per cycle, "
          f"{a.cycles} cycles; load average {os.getloadavg()[0]:.2f} (1 min)")
    for r in rules:
        for th in a.threads.split(","):
            b, f = best[(r, th, "before")], best[(r, th, "after")]
            same = "identical" if len(digests[(r, th)]) == 1 else "DIFFERENT RESULTS"
            cb, cf = best_cpu[(r, th, "before")], best_cpu[(r, th, "after")]
            print(f"{r:10s} {th} thr  before {min(b):.4f} s  after {min(f):.4f} s  "
                  f"({min(f) / min(b) - 1:+.1%}; {same}); CPU before {min(cb):.4f} s "
                  f"after {min(cf):.4f} s ({min(cf) / min(cb) - 1:+.1%}; "
                  f"{min(cb) / a.sub * 1e6:.3f} -> {min(cf) / a.sub * 1e6:.3f} us a hand)  "
                  f"cycles before {' '.join(f'{x:.3f}' for x in b)} | "
                  f"after {' '.join(f'{x:.3f}' for x in f)}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        main()
