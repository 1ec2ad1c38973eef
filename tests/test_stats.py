"""The studies' statistics (mjfast/analytics/_stats.py) against known results: Student t
table values, the textbook sample-size formula, and simulated coverage of the clustered,
paired and ratio intervals (a naive interval on the same data under-covers)."""
from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from mjfast.analytics import _stats as S


@pytest.mark.parametrize("df, p, table", [
    (1, 0.975, 12.706), (2, 0.975, 4.303), (5, 0.975, 2.571), (10, 0.975, 2.228),
    (30, 0.975, 2.042), (120, 0.975, 1.980), (10, 0.8, 0.879), (20, 0.8, 0.860),
    (4, 0.995, 4.604), (3000, 0.975, 1.961)])
def test_t_quantiles_match_the_table(df, p, table):
    # values of the t table printed in every statistics textbook (3 decimals)
    assert S.t_quantile(p, df) == pytest.approx(table, abs=6e-4)


def test_critical_values():
    assert S.crit() == pytest.approx(1.959964, abs=1e-6)
    assert S.crit(df=10) == pytest.approx(2.228139, abs=1e-6)
    # Bonferroni: 10 intervals with family-wise 95 % -> z_{1 - 0.0025}
    assert S.crit(m=10) == pytest.approx(2.807034, abs=1e-6)
    assert S.t_quantile(0.975, math.inf) == pytest.approx(1.959964, abs=1e-6)


def test_sample_size_formula():
    # one sample / paired differences, sigma 1, delta 0.5, 95 % two-sided, 80 % power:
    # n = (1.95996 + 0.84162)^2 / 0.25 = 31.4 -> 32
    assert S.n_needed(1.0, 0.5) == pytest.approx(31.40, abs=0.01)
    # two independent groups, d = 0.5: 62.8 -> 63 a group by the normal formula (Cohen's
    # table, with the t correction, gives 64)
    assert math.ceil(S.n_needed(2.0, 0.5)) == 63
    # the minimum detectable difference inverts it
    se = 1.0 / math.sqrt(100)
    assert float(S.mde(se)) == pytest.approx((1.959964 + 0.841621) * 0.1, abs=1e-6)
    assert float(S.n_needed(100 * se * se, float(S.mde(se)))) == pytest.approx(100, rel=1e-9)
    # t reference: a wider band for few clusters
    assert float(S.mde(se, df=9)) > float(S.mde(se))


def _units(rep, cluster, ya, xa, yb=None, xb=None):
    d = {"rep": rep, "cluster": cluster, "ya": ya, "xa": xa}
    if yb is not None:
        d.update(yb=yb, xb=xb)
    return pl.DataFrame(d).lazy()


def _coverage(est: pl.DataFrame, truth: float, lo="ci_low", hi="ci_high") -> float:
    return float(((est[lo] <= truth) & (est[hi] >= truth)).mean())


def test_clustered_mean_covers_and_naive_does_not():
    rng = np.random.default_rng(20)
    reps, G = 1500, 40
    rows = []
    for r in range(reps):
        sizes = rng.integers(1, 9, G)                   # 1..8 deals on a wall
        eff = rng.normal(0, 1.0, G)                     # the wall's luck, shared
        cl = np.repeat(np.arange(G), sizes)
        y = 2.0 + eff[cl] + rng.normal(0, 0.5, len(cl))
        rows.append((np.full(len(cl), r), cl, y))
    rep = np.concatenate([r[0] for r in rows])
    cl = np.concatenate([r[1] for r in rows])
    y = np.concatenate([r[2] for r in rows])
    m = S.moments(_units(rep, cl, y, np.ones_like(y)), ["rep"]).collect().sort("rep")
    e = S.estimates(m)
    cov = _coverage(e, 2.0, "value_low", "value_high")
    assert 0.93 <= cov <= 0.97, cov
    # the same data taken as independent deals (each its own cluster): far too narrow
    iid = S.estimates(S.moments(_units(rep, np.arange(len(y)), y, np.ones_like(y)),
                                ["rep"]).collect().sort("rep"))
    assert np.allclose(iid["value"].to_numpy(), e["value"].to_numpy())
    naive_cov = _coverage(iid, 2.0, "value_low", "value_high")
    assert naive_cov < 0.8, naive_cov


def test_paired_difference_covers_and_pairing_narrows():
    rng = np.random.default_rng(5)
    reps, G = 1500, 50
    rep, cl, ya, yb = [], [], [], []
    for r in range(reps):
        wall = rng.normal(0, 2.0, G)                    # shared by both variants
        inter = rng.normal(0, 1.0, G)                   # how the variant's effect varies by wall
        rot = np.repeat(np.arange(G), 4)                # 4 rotations a wall
        a = 1.0 + wall[rot] + inter[rot] + rng.normal(0, 1, len(rot))
        b = 0.7 + wall[rot] + rng.normal(0, 1, len(rot))
        rep.append(np.full(len(rot), r)); cl.append(rot); ya.append(a); yb.append(b)
    rep, cl, ya, yb = map(np.concatenate, (rep, cl, ya, yb))
    one = np.ones_like(ya)
    e = S.estimates(S.moments(_units(rep, cl, ya, one, yb, one), ["rep"]).collect().sort("rep"))
    cov = _coverage(e, 0.3)
    assert 0.93 <= cov <= 0.97, cov
    assert e["deff"].median() > 1.5             # the rotations of a wall share the effect
    # unpaired (the two sides as separate units of the same walls, b zero in a's rows):
    # still valid, much wider
    zero = np.zeros_like(ya)
    un = pl.concat([_units(rep, cl, ya, one, zero, zero).collect(),
                    _units(rep, cl, zero, zero, yb, one).collect()]).lazy()
    eu = S.estimates(S.moments(un, ["rep"]).collect().sort("rep"))
    assert np.allclose(eu["diff"].to_numpy(), e["diff"].to_numpy())
    # same walls on both sides: the clustered variance still sees the shared luck
    assert _coverage(eu, 0.3) >= 0.93
    # disjoint walls (a truly unpaired design) is the sum of the two variances
    un2 = pl.concat([_units(rep, cl, ya, one, zero, zero).collect(),
                     _units(rep, cl + 10_000, zero, zero, yb, one).collect()]).lazy()
    e2 = S.estimates(S.moments(un2, ["rep"]).collect().sort("rep"))
    assert np.allclose(e2["se"].to_numpy() ** 2,
                       e2["se_value"].to_numpy() ** 2 + e2["se_ref"].to_numpy() ** 2)
    assert (e2["se"] / e["se"]).median() > 1.5          # pairing removes the walls' luck


def test_ratio_covers():
    # a share among wins: wins per deal vary (0..3), holding probability 0.3, clustered
    rng = np.random.default_rng(11)
    reps, G = 1500, 60
    rep, cl, y, x = [], [], [], []
    for r in range(reps):
        p_wall = np.clip(0.3 + rng.normal(0, 0.12, G), 0, 1)
        c = np.repeat(np.arange(G), 4)
        w = rng.integers(0, 4, len(c))
        h = rng.binomial(w, p_wall[c])
        rep.append(np.full(len(c), r)); cl.append(c); y.append(h); x.append(w)
    rep, cl, y, x = map(np.concatenate, (rep, cl, y, x))
    e = S.estimates(S.moments(_units(rep, cl, y.astype(float), x.astype(float)), ["rep"]).collect().sort("rep"))
    truth = 0.3  # E[h]/E[w] with the wall effect symmetric (clipping aside)
    cov = _coverage(e, truth, "value_low", "value_high")
    assert 0.925 <= cov <= 0.97, cov
    lo, hi = S.proportion_interval(e)
    cov_w = float(((lo <= truth) & (hi >= truth)).mean())
    assert 0.925 <= cov_w <= 0.975, cov_w


def test_family_moments_equal_the_dense_ones():
    rng = np.random.default_rng(3)
    n = 400
    unit = np.arange(n)
    cl = rng.integers(0, 90, n)
    xa = rng.integers(0, 3, n).astype(float)
    xb = rng.integers(0, 3, n).astype(float)
    xs = pl.DataFrame({"k": "x", "unit": unit, "cluster": cl, "xa": xa, "xb": xb})
    ys = []
    dense = []
    for f in range(4):
        ya = rng.binomial(xa.astype(int), 0.2 + 0.1 * f).astype(float)
        yb = rng.binomial(xb.astype(int), 0.25).astype(float)
        keep = (ya + yb) > 0
        ys.append(pl.DataFrame({"k": "x", "fan": f, "unit": unit[keep], "cluster": cl[keep],
                                "ya": ya[keep], "yb": yb[keep]}))
        dense.append(pl.DataFrame({"k": "x", "fan": f, "unit": unit, "cluster": cl, "ya": ya,
                                   "xa": xa, "yb": yb, "xb": xb}))
    fam = S.complete_family(S.family_moments(xs.lazy(), pl.concat(ys).lazy(), ["k"], "fan")
                            .collect(), ["k"], "fan").sort("fan")
    den = S.moments(pl.concat(dense).lazy(), ["k", "fan"]).collect().sort("fan")
    for c in S.MOMENTS:
        assert np.allclose(fam[c].to_numpy().astype(float), den[c].to_numpy().astype(float)), c


def test_moments_add_when_clusters_stay_whole():
    rng = np.random.default_rng(9)
    n = 300
    cl = rng.integers(0, 50, n)
    df = pl.DataFrame({"k": rng.integers(0, 2, n), "cluster": cl, "ya": rng.normal(size=n),
                       "xa": 1.0, "yb": rng.normal(size=n), "xb": 1.0})
    whole = S.moments(df.lazy(), ["k"]).collect().sort("k")
    a = S.moments(df.filter(pl.col("cluster") < 25).lazy(), ["k"]).collect()
    b = S.moments(df.filter(pl.col("cluster") >= 25).lazy(), ["k"]).collect()
    added = pl.concat([a, b]).group_by("k").agg(pl.all().sum()).sort("k")
    for c in S.MOMENTS:
        assert np.allclose(added[c].to_numpy().astype(float), whole[c].to_numpy().astype(float))


def test_bonferroni_family_and_empty():
    rng = np.random.default_rng(1)
    rows = []
    for fam, k in (("a", 3), ("b", 1)):
        for j in range(k):
            rows.append(pl.DataFrame({"fam": fam, "metric": f"{fam}{j}", "cluster": np.arange(30),
                                      "ya": rng.normal(size=30), "xa": 1.0,
                                      "yb": rng.normal(size=30), "xb": 1.0}))
    m = S.moments(pl.concat(rows).lazy(), ["fam", "metric"]).collect()
    e = S.estimates(m, family=["fam"]).sort("metric")
    assert e["m"].to_list() == [3, 3, 3, 1]
    half = (e["ci_high"] - e["ci_low"]) / 2
    adj = (e["adj_high"] - e["adj_low"]) / 2
    k3 = S.crit(df=29, m=3) / S.crit(df=29)
    assert np.allclose((adj / half).to_numpy(), [k3, k3, k3, 1.0])
    empty = S.estimates(m.head(0), family=["fam"])
    assert empty.height == 0 and "adj_low" in empty.columns
