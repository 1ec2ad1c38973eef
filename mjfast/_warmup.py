"""Compile every kernel once, into the kernel cache (``python -m mjfast._warmup``).

``setup.py`` runs this while building (``pip install``), with ``MJFAST_JIT_BUILD_DIR``
pointing at ``mjfast/kernels/_jitcache/<KEY>``: the compiled kernels ship with the package
and a fresh install's first command loads them instead of compiling (see
``mjfast/kernels/_cache.py``). It drives the public API the way the command line does
(parse, decompose, shanten, waits, score, score-waits, batch scoring, the generator) on a
few generated hands of every rule set, so it follows whatever kernels those calls use
without naming them. A step that fails is reported and skipped (its kernels then compile
at first use); the marker ``warm.json`` lists the steps, their times and the failures.

The build environment holds NumPy, Numba, pyarrow and Polars (``[build-system] requires``):
the engine, simulation and replay steps need the event tables.
"""
from __future__ import annotations

import json
import os
import sys
import time


def _steps(rules: str):
    """(name, thunk) pairs for one rule set."""
    import mjfast
    from mjfast import _generate
    from mjfast.scoring import _arrow

    b = _generate.random_hands(48, rules, "complete", seed=1, threads=1)
    r = _generate.random_hands(48, rules, "ready", seed=1, threads=1)
    hands = [b.hand(i) for i in range(0, 48, 8)]
    ready = [r.hand(i) for i in range(0, 48, 8)]

    def parse_and_score():
        from mjfast.notation import format_hand, parse_hand
        for h in hands:
            text = format_hand(h, "mcr" if rules == "mcr" else "mpsz")
            mjfast.score(parse_hand(text, rules=rules), rules=rules)

    def score_table():                 # the batch path: strings -> Arrow (MCR strings)
        import polars as pl
        from mjfast.notation import format_hand
        if rules == "mcr":
            mjfast.score_table(pl.DataFrame({"hand": [format_hand(h, "mcr") for h in hands]}),
                               rules="mcr")

    def shanten_report():
        from mjfast import _shanten as sh
        for h in ready + hands:
            sh.report(h)

    return [
        ("score", lambda: [mjfast.score(h, rules=rules) for h in hands]),
        ("parse+score", parse_and_score),
        ("decompose", lambda: [mjfast.decompose(h) for h in hands]),
        ("shanten", lambda: [mjfast.shanten(h, rules=rules) for h in hands + ready]),
        ("waits", lambda: [mjfast.waits(h, rules=rules) for h in ready]),
        ("shanten report", shanten_report),
        ("score_waits", lambda: [mjfast.score_waits(h, rules=rules) for h in ready]),
        ("score_batch", lambda: mjfast.score_batch(b, rules=rules)),
        ("shanten batch", lambda: mjfast.shanten(r.counts, rules=rules)),
        ("waits batch", lambda: mjfast.waits(r.counts, rules=rules)),
        ("wait lists", lambda: _arrow.score_wait_lists(r)),
        ("score_table", score_table),
    ]


def _play_steps(rules: str):
    """The engine, simulation and replay kernels, as ``mjfast run`` drives them."""
    def simulate():
        from mjfast.simulation import simulate as sim
        bots = "efficiency,value" if rules == "two_player" else "efficiency,value,efficiency,value"
        sim(rules, bots=bots, deals=2, seed=1)
        if rules == "mcr":
            sim(rules, bots="efficiency", deals=2, seed=1, wall="botzone", variant="botzone")

    def replay():
        from mjfast.data import botzone_json_samples, botzone_text_sample
        from mjfast.replay import replay as rep
        for variant in ("botzone", None):
            rep([botzone_text_sample()], "botzone", variant=variant)
        rep(botzone_json_samples(), "botzone-json", variant="botzone")

    steps = [("simulate", simulate)]
    if rules == "mcr":
        steps.append(("replay", replay))
    return steps


def step(rules: str, name: str):
    """The thunk of one warm-up step (``benchmarks/bench_first_run.py`` times each)."""
    return dict(_steps(rules) + _play_steps(rules))[name]


def step_names() -> list[str]:
    return ["score", "parse+score", "decompose", "shanten", "waits", "shanten report",
            "score_waits", "score_batch", "shanten batch", "waits batch", "wait lists",
            "score_table"]


def run(verbose: bool = True) -> dict:
    """Run every step; returns ``{"steps": {name: seconds}, "failed": {name: error}}`` and
    writes it as the cache's warm marker (a failed step only leaves its kernels to compile
    at first use; the rest of the cache still ships)."""
    from mjfast.kernels import _cache
    from mjfast.rules.registry import RULESETS

    t0 = time.perf_counter()
    steps: dict[str, float] = {}
    failed: dict[str, str] = {}
    for rules in RULESETS:
        try:
            todo = _steps(rules) + _play_steps(rules)
        except Exception as e:  # noqa: BLE001  (report, do not fail the install)
            failed[f"{rules}: generate"] = f"{type(e).__name__}: {e}"
            continue
        for name, thunk in todo:
            key = f"{rules}: {name}"
            t = time.perf_counter()
            try:
                thunk()
            except Exception as e:  # noqa: BLE001
                failed[key] = f"{type(e).__name__}: {e}"[:300]
                continue
            steps[key] = round(time.perf_counter() - t, 2)
            if verbose:
                print(f"mjfast warm-up: {key} {steps[key]:.1f} s", file=sys.stderr, flush=True)
    out = {"stamps": _cache.warm_stamps(), "cache": _cache.CACHE_DIR, "steps": steps,
           "failed": failed, "seconds": round(time.perf_counter() - t0, 1)}
    if _cache.CACHE_DIR:   # what compiled is valid even when a step failed (listed)
        path = os.path.join(_cache.CACHE_DIR, _cache.WARM_MARKER)
        with open(path + ".tmp", "w") as fh:
            json.dump(out, fh, indent=1)
        os.replace(path + ".tmp", path)
    if verbose:
        for k, v in failed.items():
            print(f"mjfast warm-up: FAILED {k}: {v}", file=sys.stderr)
        print(f"mjfast warm-up: {out['seconds']} s, cache {out['cache']}", file=sys.stderr)
    return out


if __name__ == "__main__":
    res = run()
    sys.exit(1 if res["failed"] else 0)
