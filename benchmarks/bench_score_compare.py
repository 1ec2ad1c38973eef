"""Interleaved before/after timing of ``score_batch`` for the four rule sets: two checkouts
of mjfast (each with its own Python, e.g. a ``git worktree`` of the older commit and a venv
with an editable install of it), the SAME hands for both, rounds alternating between them.

    python benchmarks/bench_score_compare.py BEFORE_DIR BEFORE_PYTHON [AFTER_DIR AFTER_PYTHON]
        [--rules mcr,taiwan,tuidaohu,two_player] [--threads 1,2] [--cycles 4]
        [--rounds 5] [--n 1000000] [--sub 200000] [--processes 3]

The hands (``mjfast.random_hands(n, rules, "complete", seed=2026)`` of the AFTER checkout)
are saved once as ``.npz`` and loaded by both workers, so a change of the generator cannot
move the figures. Each worker compiles or loads its kernels before the first timed round.
A cycle times, for every rule set and thread count, ``--rounds`` calls of each checkout
(on the first ``--sub`` hands: short rounds catch the quiet moments of a loaded machine),
the order of the two alternating from cycle to cycle. Reported per checkout, wall time
and CPU time (``time.process_time``: on one thread, what a loaded machine distorts
least), and whether both gave identical fan counts and totals (a digest). MCR is scored
with the ``botzone`` variant, as in bench_score_mcr.py.

Each checkout runs in ``--processes`` worker processes, all of them in the rounds: where
a process's machine code lands in memory moves its speed by 1-6% on this kind of machine
(the same checkout in four processes: medians 1.010-1.028x apart), as much as a change
being measured. A checkout's figure is then the median over its processes of each
process's best round, and the spread of those bests is printed beside it.
No pytest test here (timing lives in the other bench files); this is a script.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
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
    ap.add_argument("--processes", type=int, default=3,
                    help="worker processes a checkout (code placement moves a process's speed)")
    a = ap.parse_args(argv)
    rules = a.rules.split(",")
    data = tempfile.mkdtemp(prefix="mjfast-compare-")
    _save_hands(a.after_python, a.after_dir, data, a.n, rules)
    procs: dict[str, list] = {}
    for name, root, py in (("before", a.before_dir, a.before_python),
                           ("after", a.after_dir, a.after_python)):
        procs[name] = [subprocess.Popen(
            [py, os.path.abspath(__file__), "--worker", data], cwd=root, text=True,
            env=dict(os.environ, PYTHONPATH=root), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE) for _ in range(a.processes)]
    for ps in procs.values():
        for p in ps:
            p.stdout.readline()
    # (rules, threads, checkout, process) -> each cycle's best round
    best: dict[tuple, list[float]] = {}
    best_cpu: dict[tuple, list[float]] = {}
    digests: dict[tuple, set] = {}
    for c in range(a.cycles):
        for r in rules:
            for th in a.threads.split(","):
                for name in (("before", "after") if c % 2 == 0 else ("after", "before")):
                    for k, p in enumerate(procs[name]):
                        p.stdin.write(f"{r} {th} {a.rounds} {a.sub}\n")
                        p.stdin.flush()
                        t, cpu, dg = p.stdout.readline().split()
                        best.setdefault((r, th, name, k), []).append(float(t))
                        best_cpu.setdefault((r, th, name, k), []).append(float(cpu))
                        digests.setdefault((r, th), set()).add(dg)
    for ps in procs.values():
        for p in ps:
            p.stdin.close()
            p.wait()
    print(f"{a.sub:,} hands a round, best of {a.rounds} rounds per cycle, "
          f"{a.cycles} cycles, {a.processes} processes a checkout; "
          f"load average {os.getloadavg()[0]:.2f} (1 min)")

    def per_process(table, r, th, name):
        """Each process's best over every cycle."""
        return [min(table[(r, th, name, k)]) for k in range(a.processes)]

    for r in rules:
        for th in a.threads.split(","):
            same = "identical" if len(digests[(r, th)]) == 1 else "DIFFERENT RESULTS"
            b, f = per_process(best, r, th, "before"), per_process(best, r, th, "after")
            cb = per_process(best_cpu, r, th, "before")
            cf = per_process(best_cpu, r, th, "after")
            mb, mf = statistics.median(b), statistics.median(f)
            mcb, mcf = statistics.median(cb), statistics.median(cf)
            print(f"{r:10s} {th} thr  before {mb:.4f} s  after {mf:.4f} s  "
                  f"({mf / mb - 1:+.1%}; {same}); CPU before {mcb:.4f} s "
                  f"after {mcf:.4f} s ({mcf / mcb - 1:+.1%}; "
                  f"{mcb / a.sub * 1e6:.3f} -> {mcf / a.sub * 1e6:.3f} us a hand)  "
                  f"processes' best CPU before {' '.join(f'{x:.4f}' for x in cb)} | "
                  f"after {' '.join(f'{x:.4f}' for x in cf)}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        _worker(sys.argv[2])
    else:
        main()
