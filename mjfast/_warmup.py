"""Compile every kernel once, into the kernel cache (``python -m mjfast._warmup``).

``setup.py`` runs this while building (``pip install``): the compiled kernels land in
``mjfast/kernels/_jitcache/`` and ship with the package, so a fresh install's first command
loads them instead of compiling (see ``mjfast/kernels/_cache.py``). It drives the public
API the way the command line does (parse, decompose, shanten, waits, score, score-waits,
batch scoring, the generator, the engine's Game, simulations with every built-in bot and a
Python policy, replay) on a few generated hands of every rule set, so it follows whatever
kernels those calls use without naming them.

The work runs as *groups* in parallel processes, in two phases: first the linked scorer
symbols and the small kernels (each scorer family is compiled once, in its own process),
then everything that calls the scorers (the engine in the play loop, replay, the batch
paths), which finds the scorers in the cache. ``--jobs N`` (default: the CPU count, at
most 4) processes at a time. A step that fails is reported (its kernels then compile at
first use); the marker ``warm.json`` lists the steps, their times, the peak memory of the
processes and the failures.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

RULES = ("mcr", "taiwan", "tuidaohu", "two_player")


# ---------------------------------------------------------------------------------------
# steps
# ---------------------------------------------------------------------------------------
def _api_steps(rules: str):
    """(name, thunk) pairs: the public API on a few hands of one rule set."""
    import mjfast
    from mjfast import _generate
    from mjfast import scoring

    b = _generate.random_hands(48, rules, "complete", seed=1, threads=1)
    r = _generate.random_hands(48, rules, "ready", seed=1, threads=1)
    w = _generate.random_hands(48, rules, "wall", seed=1, threads=1)
    hands = [b.hand(i) for i in range(0, 48, 8)]
    ready = [r.hand(i) for i in range(0, 48, 8)]

    def parse_and_score():
        from mjfast.notation import format_hand, parse_hand
        for h in hands:
            text = format_hand(h, "mcr" if rules == "mcr" else "mpsz")
            mjfast.score(parse_hand(text, rules=rules), rules=rules)

    def score_table():                 # the batch path: strings -> Arrow
        import polars as pl
        from mjfast.notation import format_hand
        fmt = "mcr" if rules == "mcr" else "mpsz"
        mjfast.score_table(pl.DataFrame({"hand": [format_hand(h, fmt) for h in hands]}),
                           rules=rules)

    def shanten_report():
        from mjfast import _shanten as sh
        for h in ready + hands:
            sh.report(h)

    return [
        ("score", lambda: [mjfast.score(h, rules=rules) for h in hands]),
        ("parse+score", parse_and_score),
        ("decompose", lambda: [mjfast.decompose(h) for h in hands]),
        ("decompose batch", lambda: mjfast.decompose_batch(b.counts, rules)),
        ("shanten", lambda: [mjfast.shanten(h, rules=rules) for h in hands + ready]),
        ("waits", lambda: [mjfast.waits(h, rules=rules) for h in ready]),
        ("shanten report", shanten_report),
        ("score_waits", lambda: [mjfast.score_waits(h, rules=rules) for h in ready]),
        ("score_batch", lambda: mjfast.score_batch(b, rules=rules)),
        # a batch large enough for the multi-threaded kernel (smaller ones are scored on
        # the calling thread): mjfast run's hands job and any large score_batch use it
        ("score_batch threads", lambda: mjfast.score_batch(
            _generate.random_hands(5000, rules, "complete", seed=2, threads=1), rules=rules)),
        ("shanten batch", lambda: mjfast.shanten(w.counts, rules=rules, forms=True)),
        ("waits batch", lambda: mjfast.waits(w.counts, rules=rules)),
        ("wait lists", lambda: scoring.score_wait_lists(r)),
        # enough waits for the multi-threaded pair kernel (the hands job inline, large
        # score_waits_batch calls)
        ("wait lists threads", lambda: scoring.score_wait_lists(
            _generate.random_hands(3000, rules, "ready", seed=2, threads=1))),
        ("score_table", score_table),
    ]


def _game_step(rules: str):
    """The engine's Python face: a whole deal played event by event with Game."""
    def play():
        from mjfast.engine import Game
        from mjfast.simulation import make_wall
        g = Game(rules, wall=make_wall(rules, 1, 0, 0))
        g.win_value(0, 0, False)
        g.wall_left()
        for _ in range(400):
            g.auto(passed=True)
            if g.ended:
                break
            g.resolve_claims([-1] * g.players)
            for q in range(g.players):
                acts = [a for a in g.legal_actions(q) if a.kind >= 0]
                if acts:
                    a = acts[-1]
                    g.apply(a.kind, q, a.tile, a.aux, a.target)
                    break
    return [("game", play)]


def _play_steps(rules: str):
    """The engine, the built-in bots and the Python loop, as ``mjfast simulate`` drives them."""
    def simulate():
        from mjfast.simulation import simulate as sim
        bots = ("planner,value" if rules == "two_player"
                else "efficiency,value,planner,planner_defend")
        sim(rules, bots=bots, deals=2, seed=1)
        if rules == "mcr":
            sim(rules, bots="efficiency", deals=2, seed=1, wall="botzone", variant="botzone")

    def python_policy():
        from mjfast.rules.registry import get_rules
        from mjfast.simulation import simulate as sim
        others = ["efficiency"] * (get_rules(rules).players - 1)
        sim(rules, bots=[lambda view, actions: 0] + others, deals=1, seed=1)
    return [("simulate", simulate), ("python policy", python_policy)]


def _replay_steps():
    def replay():
        from mjfast.data import botzone_json_samples, botzone_text_sample
        from mjfast.replay import replay as rep
        for variant in ("botzone", None):
            rep([botzone_text_sample()], "botzone", variant=variant, candidates=True)
        rep(botzone_json_samples(), "botzone-json", variant="botzone", candidates=True)
    return [("replay", replay)]


def _bot_row_steps(rules: str):
    """The shanten row functions the bots call (``discard_options``, ``hand_shanten``),
    compiled with the argument types the play loop gives them, so that the play group
    finds them in the cache (it is the longest group of the second phase)."""
    def rows():
        import numpy as np

        from mjfast import kernels as k
        from mjfast.rules.registry import get_rules
        rs = get_rules(rules)
        tab, vec, ct, opt = k.shanten_tables()
        FD, R = k.row_scratch()
        fm, two = sum(1 << f for f in rs.forms), int(len(rs.kinds) == 16)
        c = np.zeros(34, np.int64)
        c[:14] = 1
        vis = np.zeros(34, np.int32)           # a slice of the int32 deal state
        cand, emask = np.zeros((34, 4), np.int64), np.zeros(34, np.int64)
        k.discard_options(c, vis, fm, rs.sets, two, tab, vec, ct, opt, FD, R, cand, emask)
        c[13] = 0
        k.hand_shanten(c, fm, rs.sets, two, tab, vec, ct, FD)
    return [("bot rows", rows)]


def _symbol_steps(family: str):
    """Compile (or load) one scorer family's linked symbol."""
    import importlib
    module = {"mcr": "mjfast.kernels._mcr_hand", "taiwan": "mjfast.kernels._score_taiwan",
              "tuidaohu": "mjfast.kernels._score_tuidaohu"}[family]
    return [("symbol", lambda: importlib.import_module(module))]


# the groups of each phase: (label, [(rules, step factory)])
# (balanced by the CPU seconds of each group, benchmarks/bench_first_run.py)
PHASES = [
    [("mcr + tuidaohu scorers",
      [("mcr", lambda: _symbol_steps("mcr")), ("tuidaohu", lambda: _symbol_steps("tuidaohu")),
       ("mcr", lambda: _bot_row_steps("mcr"))]),
     ("taiwan scorer, shanten and waits",
      [("taiwan", lambda: _symbol_steps("taiwan")),
       ("tuidaohu", lambda: _api_steps("tuidaohu")[3:8])])],
    [("play", [(r, (lambda r=r: _play_steps(r))) for r in RULES]),
     ("api + game + replay", [(r, (lambda r=r: _api_steps(r) + _game_step(r))) for r in RULES]
      + [("mcr", _replay_steps)])],
]


def run_group(phase: int, group: int, verbose: bool = True) -> dict:
    """Run one group's steps in this process."""
    t0 = time.perf_counter()
    steps: dict[str, float] = {}
    failed: dict[str, str] = {}
    label, parts = PHASES[phase][group]
    for rules, factory in parts:
        try:
            todo = factory()
        except Exception as e:  # noqa: BLE001  (report, do not fail the install)
            failed[f"{rules}: setup"] = f"{type(e).__name__}: {e}"[:300]
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
                print(f"mjfast warm-up [{label}]: {key} {steps[key]:.1f} s", file=sys.stderr,
                      flush=True)
    import resource
    use = resource.getrusage(resource.RUSAGE_SELF)
    return {"group": label, "steps": steps, "failed": failed, "peak_mb": int(use.ru_maxrss // 1024),
            "seconds": round(time.perf_counter() - t0, 1),
            "cpu_s": round(use.ru_utime + use.ru_stime, 1)}


def run(verbose: bool = True, jobs: int | None = None) -> dict:
    """Every group, phase by phase, ``jobs`` processes at a time; writes the marker."""
    from mjfast.kernels import _cache
    if jobs is None:
        jobs = max(1, min(4, os.cpu_count() or 1))
    t0 = time.perf_counter()
    groups: list[dict] = []
    for phase, gs in enumerate(PHASES):
        todo = list(range(len(gs)))
        while todo:
            batch, todo = todo[:jobs], todo[jobs:]
            procs = [subprocess.Popen([sys.executable, "-m", "mjfast._warmup", "--group",
                                       str(phase), str(g)], stdout=subprocess.PIPE,
                                      stderr=None if verbose else subprocess.DEVNULL, text=True)
                     for g in batch]
            for g, p in zip(batch, procs):
                out, _ = p.communicate()
                try:
                    groups.append(json.loads(out.strip().splitlines()[-1]))
                except (ValueError, IndexError):
                    groups.append({"group": gs[g][0], "steps": {}, "peak_mb": 0,
                                   "failed": {"process": f"exit status {p.returncode}"}})
    pruned = _cache.prune_orphans()
    steps = {f"{g['group']} | {k}": v for g in groups for k, v in g["steps"].items()}
    failed = {f"{g['group']} | {k}": v for g in groups for k, v in g["failed"].items()}
    out = {"stamps": _cache.warm_stamps(), "cache": _cache.CACHE_DIR, "steps": steps,
           "failed": failed, "jobs": jobs, "seconds": round(time.perf_counter() - t0, 1),
           "groups": [{k: g[k] for k in ("group", "seconds", "cpu_s", "peak_mb") if k in g}
                      for g in groups],
           "peak_mb": max((g.get("peak_mb", 0) for g in groups), default=0),
           "pruned": pruned}
    if _cache.CACHE_DIR:   # what compiled is valid even when a step failed (listed)
        path = os.path.join(_cache.CACHE_DIR, _cache.WARM_MARKER)
        with open(path + ".tmp", "w") as fh:
            json.dump(out, fh, indent=1)
        os.replace(path + ".tmp", path)
    if verbose:
        for k, v in failed.items():
            print(f"mjfast warm-up: FAILED {k}: {v}", file=sys.stderr)
        print(f"mjfast warm-up: {out['seconds']} s ({jobs} processes, peak "
              f"{out['peak_mb']} MB each at most), cache {out['cache']}", file=sys.stderr)
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--group"]:
        res = run_group(int(argv[1]), int(argv[2]))
        print(json.dumps(res))
        return 0
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else None
    res = run(jobs=jobs)
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
