"""Where compile time goes: run warm-up steps in a fresh process on an empty kernel cache
and report each compiled function's exclusive compile seconds (its own time minus the
compiles nested in it: the typing, lowering and LLVM optimisation of its module with the
callees linked in).

    python benchmarks/compile_profile.py [STEP ...]   # STEP: rules:step of mjfast._warmup,
                                                     # e.g. mcr:simulate (default: all)
    python benchmarks/compile_profile.py --top 40 mcr:simulate

Runs with ``MJFAST_JIT_DIR`` pointing at a new temporary folder (nothing is loaded from
a cache); prints the top functions and the total. Compile seconds are CPU seconds of the
compiling thread (``time.thread_time``: a loaded machine changes them much less than wall
time); the steps' wall time is printed too.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time


def profile(steps: list[str], top: int) -> None:
    from numba.core import event

    stack: list[list] = []
    rows: list[tuple[str, float, float]] = []

    class L(event.Listener):
        def on_start(self, ev):
            d = ev.data["dispatcher"]
            name = f"{getattr(d, 'py_func', d).__module__}.{getattr(d, 'py_func', d).__qualname__}"
            stack.append([name, time.thread_time(), 0.0])

        def on_end(self, ev):
            name, t0, nested = stack.pop()
            incl = time.thread_time() - t0
            rows.append((name, incl, incl - nested))
            if stack:
                stack[-1][2] += incl

    event.register("numba:compile", L())
    from mjfast import _warmup
    t0 = time.perf_counter()
    for spec in steps:
        rules, name = spec.split(":", 1)
        if name == "symbol":
            for fam in ("mcr", "taiwan", "tuidaohu"):
                dict(_warmup._symbol_steps(fam))["symbol"]()
            continue
        table = dict(_warmup._api_steps(rules) + _warmup._play_steps(rules)
                     + _warmup._game_step(rules) + _warmup._replay_steps())
        t = time.perf_counter()
        table[name]()
        print(f"step {spec}: {time.perf_counter() - t:.1f} s", flush=True)
    total = time.perf_counter() - t0
    rows.sort(key=lambda r: -r[2])
    print(f"\n{'exclusive s':>11} {'inclusive s':>11}  function (CPU seconds)")
    for name, incl, excl in rows[:top]:
        print(f"{excl:11.2f} {incl:11.2f}  {name}")
    print(f"\n{len(rows)} compiles, {sum(r[2] for r in rows):.1f} CPU s exclusive in all; "
          f"steps {total:.1f} s wall, load {os.getloadavg()[0]:.2f}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("steps", nargs="*", default=["mcr:symbol", "mcr:simulate"])
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    if "MJFAST_JIT_DIR" not in os.environ:
        os.environ["MJFAST_JIT_DIR"] = tempfile.mkdtemp(prefix="mjfast-jit-")
    profile(a.steps, a.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
