"""The ``planner`` bot: speed, realism and duplicate strength (issue 19).

    python benchmarks/bench_planner.py speed [DEALS]           # four planners, deals/s, one worker
    python benchmarks/bench_planner.py realism [DEALS]         # MCR, Botzone walls, four planners
    python benchmarks/bench_planner.py duplicate RULES OPP [WALLS]   # planner vs three OPP bots
    python benchmarks/bench_planner.py defence [OPP WALLS MODEL GATE W1,W2 SEED]   # MCR
    pytest benchmarks/bench_planner.py --benchmark-only

**Speed**: ``simulate(..., workers=1)`` with its tables, the marginal rate between a small
and a large run (compilation and start-up cancel) in deals per CPU-second of the process
(per core), floor 300 MCR deals/s per core.

**Realism** (MCR, Botzone variant and walls, four planners): exhaustive draws, the share of
self-drawn wins, the share of wins at exactly 8 and the top fans, printed beside the
reference figures of the IJCAI-2026 Botzone final (12,288 deals of strong bots: 1.6% draws,
30% self-drawn, 14.7% at exactly 8). No parameter of the planner is fitted to them.

**Duplicate strength**: ``planner`` in one seat against three ``OPP`` bots, every game
played once per seat rotation on the same walls (``--duplicate``: 4 rotations; two-player
2); the planner's net points per deal (``deals.scores``), averaged over the rotations of
each wall, then a mean over walls with a 95% Student-t interval (so the interval is
clustered by wall: the rotations of one wall share its luck).

**Defence** (:func:`defence`): ``planner_defend`` with each defence weight against three
``OPP`` bots (default three plain planners: the field the planner plays in), unpaired as
above and paired against the same bot without defence on the same walls.
"""
from __future__ import annotations

import math
import os
import sys
import time
from collections import defaultdict

import numpy as np

REFERENCE = {"draw_rate": 0.016, "self_drawn_share": 0.30, "mcr_exactly_8": 0.147}
FLOOR = 300          # MCR deals/s per core, four planners


def speed(rules="mcr", bots="planner", small=256, large=None, seed=1):
    """Marginal deals per CPU-second of ``simulate(workers=1)`` between ``small`` and
    ``large`` deals (the process's CPU time: on a shared machine the wall clock measures
    the other jobs too), and the large run's deals per CPU-second."""
    from mjfast.simulation import simulate
    large = large or 8 * small
    simulate(rules, bots, deals=16, seed=seed)             # compiled / loaded
    t = []
    for n in (small, large):
        t0 = time.process_time()
        simulate(rules, bots, deals=n, seed=seed, workers=1)
        t.append(time.process_time() - t0)
    return (large - small) / max(t[1] - t[0], 1e-9), large / t[1]


def realism(deals=4096, seed=11, bots="planner", rules="mcr", variant="botzone",
            wall="botzone"):
    """:func:`bench_simulate.realism` of the planner, the top fans as shares of the wins."""
    from bench_simulate import realism as play_realism
    fig = play_realism(rules, bots, variant, wall, deals=deals, seed=seed)
    n_w = max(fig["wins"], 1)
    fig["top_fans"] = [(k, round(v / n_w, 3)) for k, v in fig.pop("top10")]
    return fig


def _t975(df):
    from mjfast.analytics._stats import t_quantile
    return t_quantile(0.975, df)


def duplicate(rules, opp, walls=2048, seed=7, bot="planner", variant=None, wall=None,
              workers=1):
    """The net points per deal of ``bot`` against three ``opp`` bots (one for two-player),
    duplicate: mean over walls of the rotations' mean, with a 95% interval clustered by
    wall. ``walls`` is the deals per rotation."""
    from mjfast.rules.registry import get_rules
    from mjfast.simulation import simulate
    n = get_rules(rules).players
    bots = ",".join([bot] + [opp] * (n - 1))
    t0 = time.perf_counter()
    res = simulate(rules, bots, deals=walls, seed=seed, variant=variant, wall=wall,
                   duplicate=True, workers=workers)
    secs = time.perf_counter() - t0
    pw = _per_wall(res, bot)
    m, ci = _interval(list(pw.values()))
    return {"rules": rules, "vs": opp, "walls": len(pw), "deals": res.n_deals,
            "net_per_deal": m, "ci95": ci, "seconds": secs}


def _per_wall(res, bot):
    """``bot``'s mean net points a deal on each wall (over the rotations that played it)."""
    per_wall = defaultdict(list)
    for r in res.tables["deals"].to_pylist():
        key = bytes(np.asarray(r["wall"], dtype=np.int8))
        for p, b in enumerate(r["bots"]):
            if b == bot:
                per_wall[key].append(r["scores"][p])
    return {k: float(np.mean(v)) for k, v in per_wall.items()}


def _interval(x):
    """Mean of ``x`` and its 95% Student-t interval."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean())
    half = _t975(len(x) - 1) * float(x.std(ddof=1)) / math.sqrt(len(x))
    return m, (m - half, m + half)


def defence(opp="planner", walls=2048, weights=(0.0, 0.5, 1.0, 2.0), model=1, gate=0,
            seed=7, rules="mcr"):
    """``planner_defend`` (defence weight ``w``, danger model ``model``, defending at shanten
    ``gate`` or more) in one seat against three ``opp`` bots, duplicate on the same walls
    for every weight: per weight the unpaired mean net points a deal (95% interval
    clustered by wall) and the paired difference against weight 0 (the same bot without
    defence, on the same walls and seats: per-wall differences, a 95% Student-t interval).
    The weights are data of the bot context (no compile)."""
    from mjfast.simulation import _planner, _simulate, simulate
    bot = "planner_defend"
    saved = (_planner.DANGER_DEFEND, _planner.DANGER_MODEL, _planner.DANGER_GATE)
    base = None
    out = []
    try:
        for w in (0.0,) + tuple(x for x in weights if x != 0.0):
            _planner.DANGER_DEFEND, _planner.DANGER_MODEL, _planner.DANGER_GATE = w, model, gate
            _simulate._worker.cache_clear()
            t0 = time.perf_counter()
            res = simulate(rules, ",".join([bot] + [opp] * 3), deals=walls, seed=seed,
                           duplicate=True, workers=1)
            pw = _per_wall(res, bot)
            m, ci = _interval(list(pw.values()))
            row = {"weight": w, "model": model, "gate": gate, "vs": opp, "walls": len(pw),
                   "net_per_deal": m, "ci95": ci, "seconds": time.perf_counter() - t0}
            if base is None:
                base = pw
            else:
                d, dci = _interval([pw[k] - base[k] for k in pw])
                row.update(paired=d, paired_ci95=dci)
            out.append(row)
            print(row, f"load {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        _planner.DANGER_DEFEND, _planner.DANGER_MODEL, _planner.DANGER_GATE = saved
        _simulate._worker.cache_clear()
    return out


def test_bench_planner_speed(benchmark):
    marginal, whole = benchmark.pedantic(lambda: speed(), rounds=1, iterations=1)
    benchmark.extra_info.update({"marginal_deals_per_s": marginal, "deals_per_s": whole})
    assert marginal >= FLOOR


def test_bench_planner_realism(benchmark):
    fig = benchmark.pedantic(lambda: realism(), rounds=1, iterations=1)
    benchmark.extra_info.update(fig)
    benchmark.extra_info["reference"] = REFERENCE
    print("\nMCR realism (four planners, Botzone walls):", fig, "reference:", REFERENCE)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "speed"
    load = os.getloadavg()[0]
    if what == "speed":
        small = int(sys.argv[2]) if len(sys.argv) > 2 else 256
        for rules in ("mcr", "taiwan", "tuidaohu", "two_player"):
            for bots in ("planner", "value", "efficiency"):
                mg, wh = speed(rules, bots, small)
                print(f"{rules:10} {bots:10} marginal {mg:7.0f} deals/s, whole {wh:7.0f} "
                      f"(load {load:.1f})", flush=True)
    elif what == "realism":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
        print(realism(n), "reference:", REFERENCE, f"load {load:.1f}")
    elif what == "defence":
        # defence OPP WALLS MODEL GATE W1,W2,... SEED
        opp = sys.argv[2] if len(sys.argv) > 2 else "planner"
        walls = int(sys.argv[3]) if len(sys.argv) > 3 else 2048
        model = int(sys.argv[4]) if len(sys.argv) > 4 else 1
        gate = int(sys.argv[5]) if len(sys.argv) > 5 else 0
        ws = tuple(float(x) for x in sys.argv[6].split(",")) if len(sys.argv) > 6 else \
            (0.5, 1.0, 2.0)
        seed = int(sys.argv[7]) if len(sys.argv) > 7 else 7
        defence(opp, walls, ws, model, gate, seed)
    else:
        rules, opp = sys.argv[2], sys.argv[3]
        walls = int(sys.argv[4]) if len(sys.argv) > 4 else 2048
        print(duplicate(rules, opp, walls), f"load {load:.1f}")
