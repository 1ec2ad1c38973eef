"""Shanten and waits: mjfast's table kernels against PyMahjongGB on the same random hands.

    pytest benchmarks/bench_shanten.py --benchmark-only     # pytest-benchmark
    python benchmarks/bench_shanten.py [N]                  # plain timing, prints ns/hand

One set of ``N`` (default 1M) random 13-tile MCR hands, drawn from the wall
(:func:`handsets.random_hands`, seeded), made once outside the timed parts, is given to

- ``mjfast.shanten(counts, rules="mcr")``: every MCR form (regular, seven pairs, thirteen
  orphans, honors-and-knitted, knitted straight), validation included, one thread, and the
  same split over 2 threads (the kernel releases the GIL);
- ``mjfast.waits(counts, rules="mcr")``: shanten + the effective tiles + their live counts;
- ``MahjongGB.MahjongShanten`` (every form) and ``MahjongGB.RegularShanten`` (regular form,
  also returns the useful tiles), one call per hand, on the first ``PEER_N`` hands of the
  same set (default: all of them; the tile tuples are built outside the timed part).

The last test prints ns/hand and the ratios (mjfast must be at least 100x faster per hand).
Taiwan: ``mjfast.shanten(..., rules="taiwan")`` on N random 16-tile hands, hands/s.

Before/after on the same hands (two checkouts, e.g. a ``git worktree`` of the older commit
with its Cython parser built in place; rounds interleaved, the order alternating)::

    python benchmarks/bench_shanten.py --compare BEFORE_DIR [--python PY] [--n 1000000]
        [--cycles 4] [--rounds 5] [--cases shanten-mcr,waits-mcr,...]

One thread, the public calls (``shanten``, ``shanten(forms=True)``, ``waits``) on wall
hands of every rule set (MCR, Tuidaohu, two-player 13 tiles, Taiwan 16) and on ready MCR
hands; each worker loads the same saved hands and warms its kernels first. Printed: ns per
hand (the best call of each checkout), the median ratio of paired calls (before and after
run back to back, order alternating: robust to a load that changes during the run),
whether both gave identical outputs (a digest), and the load average before and after.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from handsets import TILE_CODES, random_hands  # noqa: E402

import mjfast._shanten as S  # noqa: E402

N = int(os.environ.get("MJFAST_BENCH_N", 1_000_000))
PEER_N = int(os.environ.get("MJFAST_BENCH_PEER_N", N))
RESULTS: dict[str, float] = {}      # name -> seconds per hand (best round)


def _gb_tuples(hands: np.ndarray) -> list[tuple[str, ...]]:
    tiles = np.arange(34)
    return [tuple(TILE_CODES[t] for t in np.repeat(tiles, row)) for row in hands]


@pytest.fixture(scope="module")
def hands():
    h = random_hands(N, 13, "mcr", seed=20261129)
    S.shanten(h[:1000])            # load the tables, compile / load the kernels
    S.waits(h[:1000])
    return h


@pytest.fixture(scope="module")
def gb_hands(hands):
    return _gb_tuples(hands[:PEER_N])


def _record(benchmark, name: str, n: int) -> None:
    per = benchmark.stats.stats.min / n
    RESULTS[name] = per
    benchmark.extra_info["hands"] = n
    benchmark.extra_info["ns_per_hand"] = per * 1e9
    benchmark.extra_info["hands_per_s"] = 1 / per


def test_mjfast_shanten_all_forms(benchmark, hands):
    out = benchmark.pedantic(S.shanten, args=(hands,), kwargs={"rules": "mcr", "threads": 1},
                             rounds=5, iterations=1)
    assert out.shape == (N,) and out.min() >= 0
    _record(benchmark, "mjfast_shanten", N)


def test_mjfast_shanten_2_threads(benchmark, hands):
    out = benchmark.pedantic(S.shanten, args=(hands,), kwargs={"rules": "mcr", "threads": 2},
                             rounds=5, iterations=1)
    assert out.shape == (N,)
    _record(benchmark, "mjfast_shanten_2t", N)


def test_mjfast_waits(benchmark, hands):
    w = benchmark.pedantic(S.waits, args=(hands,), kwargs={"rules": "mcr", "threads": 1}, rounds=3,
                           iterations=1)
    assert w.mask.any(axis=1).all()
    _record(benchmark, "mjfast_waits", N)


def test_mjfast_waits_2_threads(benchmark, hands):
    w = benchmark.pedantic(S.waits, args=(hands,), kwargs={"rules": "mcr", "threads": 2},
                           rounds=3, iterations=1)
    assert w.mask.any(axis=1).all()
    _record(benchmark, "mjfast_waits_2t", N)


def test_mahjonggb_mahjongshanten(benchmark, gb_hands):
    import MahjongGB

    def run():
        f = MahjongGB.MahjongShanten
        return [f(pack=(), hand=h) for h in gb_hands]

    benchmark.pedantic(run, rounds=1, iterations=1)
    _record(benchmark, "gb_mahjongshanten", len(gb_hands))
    if "mjfast_shanten" in RESULTS:          # same hands, same run: at least 100x per hand
        ratio = RESULTS["gb_mahjongshanten"] / RESULTS["mjfast_shanten"]
        benchmark.extra_info["mjfast_speedup"] = ratio
        assert ratio >= 100, ratio


def test_mahjonggb_regularshanten(benchmark, gb_hands):
    import MahjongGB

    def run():
        f = MahjongGB.RegularShanten
        return [f(h) for h in gb_hands]

    benchmark.pedantic(run, rounds=1, iterations=1)
    _record(benchmark, "gb_regularshanten", len(gb_hands))
    if "mjfast_waits" in RESULTS:
        ratio = RESULTS["gb_regularshanten"] / RESULTS["mjfast_waits"]
        benchmark.extra_info["mjfast_speedup"] = ratio
        assert ratio >= 100, ratio


def test_taiwan_shanten_16_tiles(benchmark):
    h = random_hands(N, 16, "taiwan", seed=20261130)
    S.shanten(h[:1000], rules="taiwan")
    out = benchmark.pedantic(S.shanten, args=(h,), kwargs={"rules": "taiwan", "threads": 1}, rounds=5,
                             iterations=1)
    assert out.shape == (N,)
    _record(benchmark, "mjfast_taiwan_shanten", N)


def test_ratios():
    """Summary (without --benchmark-only): mjfast at least 100x the reference calculator."""
    need = ("mjfast_shanten", "mjfast_waits", "gb_mahjongshanten", "gb_regularshanten")
    if not all(k in RESULTS for k in need):
        pytest.skip("run the whole file")
    _print_summary(RESULTS)
    assert RESULTS["gb_mahjongshanten"] / RESULTS["mjfast_shanten"] >= 100
    assert RESULTS["gb_regularshanten"] / RESULTS["mjfast_waits"] >= 100


def _print_summary(r: dict[str, float]) -> None:
    print()
    for k, v in r.items():
        print(f"  {k:<24} {v * 1e9:12.1f} ns/hand  {1 / v:14,.0f} hands/s")
    if "gb_mahjongshanten" in r:
        print(f"  shanten ratio (MahjongShanten / mjfast)  {r['gb_mahjongshanten'] / r['mjfast_shanten']:8.0f}x")
    if "gb_regularshanten" in r:
        print(f"  waits ratio (RegularShanten / mjfast)    {r['gb_regularshanten'] / r['mjfast_waits']:8.0f}x")


def _best(fn, *args, rounds=3, **kwargs):
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn(*args, **kwargs)
        best = min(best, time.perf_counter() - t)
    return best


def main(n: int = N) -> None:
    import MahjongGB
    h = random_hands(n, 13, "mcr", seed=20261129)
    S.shanten(h[:1000])
    S.waits(h[:1000])
    r = {
        "mjfast_shanten": _best(S.shanten, h, rounds=5, threads=1) / n,
        "mjfast_shanten_2t": _best(S.shanten, h, rounds=5, threads=2) / n,
        "mjfast_waits": _best(S.waits, h, threads=1) / n,
        "mjfast_waits_2t": _best(S.waits, h, threads=2) / n,
    }
    peer = _gb_tuples(h[:min(n, PEER_N)])
    r["gb_mahjongshanten"] = _best(lambda: [MahjongGB.MahjongShanten(pack=(), hand=x) for x in peer],
                                   rounds=1) / len(peer)
    r["gb_regularshanten"] = _best(lambda: [MahjongGB.RegularShanten(x) for x in peer],
                                   rounds=1) / len(peer)
    t16 = random_hands(n, 16, "taiwan", seed=20261130)
    S.shanten(t16[:1000], rules="taiwan")
    r["mjfast_taiwan_shanten"] = _best(S.shanten, t16, rules="taiwan", rounds=5, threads=1) / n
    _print_summary(r)


# ---------------------------------------------------------------------------------------
# before/after compare (interleaved, same hands)
# ---------------------------------------------------------------------------------------
COMPARE_CASES = {        # name -> (call, rules, hands file)
    "shanten-mcr": ("shanten", "mcr", "mcr13"), "forms-mcr": ("forms", "mcr", "mcr13"),
    "waits-mcr": ("waits", "mcr", "mcr13"), "waits-ready-mcr": ("waits", "mcr", "mcr_ready"),
    "shanten-taiwan": ("shanten", "taiwan", "taiwan16"), "waits-taiwan": ("waits", "taiwan", "taiwan16"),
    "shanten-tuidaohu": ("shanten", "tuidaohu", "tuidaohu13"),
    "waits-tuidaohu": ("waits", "tuidaohu", "tuidaohu13"),
    "forms-taiwan": ("forms", "taiwan", "taiwan16"), "forms-tuidaohu": ("forms", "tuidaohu", "tuidaohu13"),
    "shanten-two_player": ("shanten", "two_player", "two_player13"),
    "waits-two_player": ("waits", "two_player", "two_player13"),
}


def _compare_worker(data_dir: str) -> None:          # pragma: no cover - a subprocess
    import hashlib

    import mjfast._shanten as SS
    hands = {}
    warm: dict[str, str] = {}
    print("ready", flush=True)
    for line in sys.stdin:
        case, rounds = line.split()
        call, rules, name = COMPARE_CASES[case]
        if name not in hands:
            hands[name] = np.load(os.path.join(data_dir, f"{name}.npy"))
        h = hands[name]
        if call == "waits":
            def fn():
                return SS.waits(h, rules=rules, threads=1)
        else:
            def fn():
                return SS.shanten(h, rules=rules, forms=call == "forms", threads=1)
        if case not in warm:                                # compile / load, warm; digest
            res = fn()
            arrays = ([res.mask, res.live, res.shanten] if call == "waits" else
                      [res[k] for k in sorted(res)] if call == "forms" else [res])
            warm[case] = hashlib.sha1(b"".join(np.ascontiguousarray(x).tobytes()
                                               for x in arrays)).hexdigest()[:12]
        times = []
        for _ in range(int(rounds)):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        print(f"{min(times):.6f} {warm[case]}", flush=True)


def compare(argv) -> None:
    import argparse
    import subprocess
    import tempfile
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", required=True, metavar="BEFORE_DIR")
    ap.add_argument("--python", default=sys.executable, help="the BEFORE checkout's Python")
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--cycles", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cases", default=",".join(COMPARE_CASES))
    a = ap.parse_args(argv)
    after = str(Path(__file__).resolve().parents[1])
    data = tempfile.mkdtemp(prefix="mjfast-shanten-compare-")
    import mjfast
    seeds = {"mcr13": ("mcr", 13), "taiwan16": ("taiwan", 16), "tuidaohu13": ("tuidaohu", 13),
             "two_player13": ("two_player", 13)}
    for name, (rules, size) in seeds.items():
        np.save(os.path.join(data, f"{name}.npy"), random_hands(a.n, size, rules, seed=20261129))
    np.save(os.path.join(data, "mcr_ready.npy"),
            mjfast.random_hands(a.n, "mcr", "ready", seed=20261129).counts)
    procs = {}
    for side, root, py in (("before", a.compare, a.python), ("after", after, sys.executable)):
        procs[side] = subprocess.Popen([py, os.path.abspath(__file__), "--compare-worker", data],
                                       cwd=root, text=True, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE,
                                       env=dict(os.environ, PYTHONPATH=root))
        procs[side].stdout.readline()
    load0 = os.getloadavg()
    cases = a.cases.split(",")
    times: dict[tuple, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    digests: dict[str, set] = {}
    for c in range(a.cycles):
        for case in cases:
            for r in range(a.rounds):
                pair = {}
                for side in (("before", "after") if (c + r) % 2 == 0 else ("after", "before")):
                    p = procs[side]
                    p.stdin.write(f"{case} 1\n")
                    p.stdin.flush()
                    t, dg = p.stdout.readline().split()
                    pair[side] = float(t)
                    times.setdefault((case, side), []).append(float(t))
                    digests.setdefault(case, set()).add(dg)
                ratios.setdefault(case, []).append(pair["after"] / pair["before"])
        print(f"cycle {c + 1}/{a.cycles} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr,
              flush=True)
    for p in procs.values():
        p.stdin.close()
        p.wait()
    load1 = os.getloadavg()
    print(f"{a.n:,} hands, one thread, {a.cycles} cycles x {a.rounds} rounds, before and after "
          f"alternating call by call; load average (1/5/15 min) before "
          f"{load0[0]:.2f}/{load0[1]:.2f}/{load0[2]:.2f}, after "
          f"{load1[0]:.2f}/{load1[1]:.2f}/{load1[2]:.2f}")
    print("  ns/hand: best call of each checkout; after/before: median of the paired calls' ratios")
    for case in cases:
        b, f = times[(case, "before")], times[(case, "after")]
        same = "identical" if len(digests[case]) == 1 else "DIFFERENT RESULTS"
        print(f"{case:20s} before {1e9 * min(b) / a.n:7.1f}  after {1e9 * min(f) / a.n:7.1f} ns  "
              f"after/before {float(np.median(ratios[case])):.3f} (best {min(f) / min(b):.3f}; "
              f"{same})")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--compare-worker":
        _compare_worker(sys.argv[2])
    elif any(x.startswith("--compare") for x in sys.argv[1:]):
        compare(sys.argv[1:])
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else N)
