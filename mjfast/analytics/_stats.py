"""The statistics of the studies, in one place: clustered and paired intervals of ratios and
of their differences, critical values (normal, Student t, Bonferroni), power and sample size.

**The estimator.** Every quantity the study analyses report is a ratio of totals
``R = Σ y / Σ x`` over *units* (deals, hands, wins, player-deals): a mean (``x = 1``), a
rate per player-deal (``x`` = players), a share among wins (``x`` = wins), a mean total per
win (``y`` = totals, ``x`` = wins). A comparison is ``D = R_a − R_b`` (variant ``a`` against
the reference ``b``). Units fall into *clusters* that are not independent: the deals played
on one wall (the seat rotations of a duplicate simulation, and in a resimulation or rescore
the same deal under each variant) form one cluster. Paired units are one unit holding both
sides (``y_a, x_a, y_b, x_b``: the same deal id under each variant); an unpaired comparison
has units with one side zero.

**The variance** is the cluster-robust (sandwich, "CR1") variance of the linearised
estimator: with the per-cluster totals ``v_g = (Y_ag, X_ag, Y_bg, X_bg)`` and the gradient
``∇ = (1/X_a, −R_a/X_a, −1/X_b, R_b/X_b)`` (``X`` the grand totals),
``Var(D) = G/(G−1) · Σ_g (∇·v_g)²`` over the ``G`` clusters (``Σ_g ∇·v_g = 0`` exactly, so no
centring term). One side alone (``b`` empty) gives the variance of ``R_a``. With one unit
per cluster and ``x = 1`` it is the textbook ``s²/n`` of a mean (of the paired differences
for a paired design), so clustered, paired and unpaired intervals are one formula.
It is computed from *additive moments* (sums and sums of products of the per-cluster and
per-unit totals: :data:`MOMENTS`), so partials of shards add — as long as no cluster is
split between two partials (the pipelines keep a simulation game's rotations in one shard;
a paired comparison needs both variants of a deal in the same partial: split a dataset by
wall or game, not by variant).

**Intervals**: ``estimate ± t_{G−1, 1−α/2} · se`` (Student t with ``G − 1`` degrees of
freedom, the usual small-sample reference for a clustered variance; it tends to the normal
``1.96`` for many clusters). Single proportions get a Wilson interval on the *effective*
sample size ``n_eff = p(1−p)/Var(p)`` (the design effect folded in), which stays inside
``[0, 1]`` and behaves at ``p`` near 0 or 1. **Multiplicity**: :func:`crit` with ``m``
comparisons gives the Bonferroni critical value (family-wise 95 % over ``m`` intervals).

**Power**: the smallest difference a sample detects at two-sided level ``α`` with power
``1 − β`` is ``MDE = (t_{1−α/2} + t_{1−β}) · se``; the units (deals, pairs) needed to detect
``Δ`` are ``n = (z_{1−α/2} + z_{1−β})² · σ² / Δ²`` with the observed per-unit variance
``σ² = n_obs · Var(D)`` (clustering and pairing included, the clusters keeping their size),
the normal-approximation formula of the textbooks (two-sample ``σ² = σ_a² + σ_b²`` per group).
"""
from __future__ import annotations

import functools
import math
from statistics import NormalDist

import numpy as np
import polars as pl

LEVEL = 0.95
POWER = 0.80
_N = NormalDist()

SIDES = ("ya", "xa", "yb", "xb")
PRODUCTS = tuple(f"{SIDES[i]}_{SIDES[j]}" for i in range(4) for j in range(i, 4))
# additive columns of a moments partial: unit and cluster counts, the four totals, the ten
# products summed over units (u_) and over clusters (c_)
MOMENTS = (("n_units", "n_clusters") + tuple(f"s_{s}" for s in SIDES)
           + tuple(f"u_{p}" for p in PRODUCTS) + tuple(f"c_{p}" for p in PRODUCTS))


# ---------------------------------------------------------------------------------------
# critical values
# ---------------------------------------------------------------------------------------
def z_quantile(p: float) -> float:
    """The standard normal quantile."""
    return _N.inv_cdf(p)


def _t_abs_cdf(t: float, nu: int) -> float:
    """P(|T| <= t) for Student's t with integer ``nu`` degrees of freedom (the closed
    forms of Abramowitz & Stegun 26.7.3-4: a finite series in cos θ, θ = atan(t/√ν))."""
    th = math.atan(t / math.sqrt(nu))
    c2 = math.cos(th) ** 2
    s = math.sin(th)
    if nu % 2 == 1:
        if nu == 1:
            return 2.0 * th / math.pi
        term, acc = 1.0, 1.0
        for k in range(1, (nu - 1) // 2):            # 2/3 c², 2·4/(3·5) c⁴, ...
            term *= c2 * (2 * k) / (2 * k + 1)
            acc += term
        return 2.0 / math.pi * (th + s * math.cos(th) * acc)
    term, acc = 1.0, 1.0
    for k in range(1, nu // 2):                      # 1/2 c², 1·3/(2·4) c⁴, ...
        term *= c2 * (2 * k - 1) / (2 * k)
        acc += term
    return s * acc


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Student's t quantile ``t_{p, df}`` (``p`` >= 0.5; ``df`` >= 1, rounded down to an
    integer): the exact distribution function inverted by bisection; above 200 degrees
    of freedom the Cornish-Fisher expansion (A&S 26.7.5, error below 1e-6); infinite
    ``df``: the normal quantile."""
    if not 0.5 <= p < 1.0:
        raise ValueError("t_quantile takes 0.5 <= p < 1")
    if df is None or not math.isfinite(df):
        return z_quantile(p)
    nu = max(int(df), 1)
    if nu > 200:
        z = z_quantile(p)
        return (z + (z ** 3 + z) / (4 * nu) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * nu ** 2)
                + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * nu ** 3))
    target = 2.0 * p - 1.0                         # P(|T| <= t)
    lo, hi = 0.0, max(2.0 * z_quantile(p), 1.0)
    while _t_abs_cdf(hi, nu) < target:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _t_abs_cdf(mid, nu) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


def crit(level: float = LEVEL, df: float | None = None, m: int = 1) -> float:
    """Two-sided critical value for a ``level`` interval (Student t with ``df``, normal
    when None), Bonferroni-adjusted for ``m`` comparisons."""
    alpha = (1.0 - level) / max(int(m), 1)
    p = 1.0 - alpha / 2.0
    return z_quantile(p) if df is None else t_quantile(p, df)


def wilson(p: np.ndarray, n_eff: np.ndarray, z: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a proportion ``p`` on ``n_eff`` (effective) trials."""
    p = np.asarray(p, dtype=float)
    n = np.asarray(n_eff, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = 1.0 + z * z / n
        c = (p + z * z / (2.0 * n)) / d
        h = z / d * np.sqrt(np.maximum(p * (1.0 - p) / n + z * z / (4.0 * n * n), 0.0))
    ok = n > 0
    lo = np.where(p <= 0.0, 0.0, np.clip(c - h, 0.0, 1.0))      # exact ends at p = 0 and 1
    hi = np.where(p >= 1.0, 1.0, np.clip(c + h, 0.0, 1.0))
    return np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


# ---------------------------------------------------------------------------------------
# power and sample size
# ---------------------------------------------------------------------------------------
def mde(se, df=None, level: float = LEVEL, power: float = POWER):
    """The smallest true difference detected with ``power`` by a two-sided ``level`` test
    whose estimate has standard error ``se`` (``df``: the t reference, None = normal)."""
    se = np.asarray(se, dtype=float)
    if df is None:
        k = z_quantile(1.0 - (1.0 - level) / 2.0) + z_quantile(power)
        return k * se
    df = np.broadcast_to(np.asarray(df, dtype=float), se.shape)
    k = np.array([(t_quantile(1.0 - (1.0 - level) / 2.0, d) + t_quantile(power, d))
                  if np.isfinite(d) and d >= 1 else np.nan for d in df.ravel()]).reshape(se.shape)
    return k * se


def n_needed(sigma2, delta, level: float = LEVEL, power: float = POWER):
    """Units needed to detect ``delta`` (two-sided ``level``, ``power``) when one unit's
    contribution to the estimate's variance is ``sigma2`` (Var(estimate) = sigma2 / n):
    ``(z_{1-α/2} + z_{1-β})² σ² / Δ²``, not rounded (:func:`math.ceil` it for a count)."""
    k = z_quantile(1.0 - (1.0 - level) / 2.0) + z_quantile(power)
    sigma2 = np.asarray(sigma2, dtype=float)
    delta = np.asarray(delta, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(delta != 0, k * k * sigma2 / (delta * delta), np.nan)


# ---------------------------------------------------------------------------------------
# moments (partials) and their finish
# ---------------------------------------------------------------------------------------
def _f(e) -> pl.Expr:
    return e.cast(pl.Float64).fill_null(0.0)


def _products(prefix: str) -> list[pl.Expr]:
    c = pl.col
    return [(c(a) * c(b)).sum().alias(f"{prefix}_{a}_{b}") for a, b in
            (p.split("_") for p in PRODUCTS)]


def moments(units: pl.LazyFrame, keys) -> pl.LazyFrame:
    """Additive moments (:data:`MOMENTS`) per ``keys`` of a frame of *units*: one row per
    unit with ``keys``, ``cluster`` and the sides ``ya``, ``xa``, ``yb``, ``xb`` (missing
    sides are 0)."""
    keys = list(keys)
    have = set(units.collect_schema().names())
    u = units.select(*keys, "cluster", *[_f(pl.col(s)) if s in have else pl.lit(0.0).alias(s)
                                         for s in SIDES])
    per_unit = u.group_by(keys).agg(pl.len().cast(pl.Int64).alias("n_units"),
                                    *[pl.col(s).sum().alias(f"s_{s}") for s in SIDES],
                                    *_products("u"))
    cl = u.group_by(keys + ["cluster"]).agg(*[pl.col(s).sum() for s in SIDES])
    per_cl = cl.group_by(keys).agg(pl.len().cast(pl.Int64).alias("n_clusters"), *_products("c"))
    return per_unit.join(per_cl, on=keys, how="left", nulls_equal=True).select(*keys, *MOMENTS)


X_ONLY = ("n_units", "n_clusters", "s_xa", "s_xb", "u_xa_xa", "u_xa_xb", "u_xb_xb",
          "c_xa_xa", "c_xa_xb", "c_xb_xb")


def family_moments(xunits: pl.LazyFrame, yunits: pl.LazyFrame, keys, member: str,
                   base: int = -1) -> pl.LazyFrame:
    """Moments of a *family* of ratios sharing one denominator, without a cross join:
    ``xunits`` one row per unit (``keys``, ``unit``, ``cluster``, ``xa``, ``xb``) and
    ``yunits`` the sparse numerators (``keys``, ``member``, ``unit``, ``cluster``, ``ya``,
    ``yb``; units without the member have no row), e.g. each fan's share among the wins.

    Out: :data:`MOMENTS` per ``keys`` + ``member`` in two kinds of rows, so that partials
    add exactly even when a member is absent from one of them: the *base* row
    (``member == base``) holds the denominator's moments and the unit and cluster counts
    (:data:`X_ONLY`), each member's row holds only the moments that involve its numerator
    (``X_ONLY`` zero). :func:`complete_family` joins them before :func:`estimates`."""
    keys = list(keys)
    c = pl.col
    xs = xunits.select(*keys, "unit", "cluster", _f(c("xa")).alias("xa"), _f(c("xb")).alias("xb"))
    ys = yunits.select(*keys, member, "unit", "cluster", _f(c("ya")).alias("ya"),
                       _f(c("yb")).alias("yb"))
    base_u = xs.group_by(keys).agg(pl.len().cast(pl.Int64).alias("n_units"),
                                   c("xa").sum().alias("s_xa"), c("xb").sum().alias("s_xb"),
                                   (c("xa") ** 2).sum().alias("u_xa_xa"),
                                   (c("xa") * c("xb")).sum().alias("u_xa_xb"),
                                   (c("xb") ** 2).sum().alias("u_xb_xb"))
    xcl = xs.group_by(keys + ["cluster"]).agg(c("xa").sum(), c("xb").sum())
    base_c = xcl.group_by(keys).agg(pl.len().cast(pl.Int64).alias("n_clusters"),
                                    (c("xa") ** 2).sum().alias("c_xa_xa"),
                                    (c("xa") * c("xb")).sum().alias("c_xa_xb"),
                                    (c("xb") ** 2).sum().alias("c_xb_xb"))
    yu = ys.group_by(keys + [member, "unit"]).agg(c("ya").sum(), c("yb").sum(), c("cluster").first())
    yu = yu.join(xs.select(*keys, "unit", "xa", "xb"), on=keys + ["unit"], how="left",
                 nulls_equal=True).with_columns(c("xa").fill_null(0.0), c("xb").fill_null(0.0))

    def ymom(prefix):
        return [(c("ya") ** 2).sum().alias(f"{prefix}_ya_ya"),
                (c("ya") * c("xa")).sum().alias(f"{prefix}_ya_xa"),
                (c("ya") * c("yb")).sum().alias(f"{prefix}_ya_yb"),
                (c("ya") * c("xb")).sum().alias(f"{prefix}_ya_xb"),
                (c("xa") * c("yb")).sum().alias(f"{prefix}_xa_yb"),
                (c("yb") ** 2).sum().alias(f"{prefix}_yb_yb"),
                (c("yb") * c("xb")).sum().alias(f"{prefix}_yb_xb")]

    ym_u = yu.group_by(keys + [member]).agg(c("ya").sum().alias("s_ya"),
                                            c("yb").sum().alias("s_yb"), *ymom("u"))
    ycl = yu.group_by(keys + [member, "cluster"]).agg(c("ya").sum(), c("yb").sum())
    ycl = ycl.join(xcl, on=keys + ["cluster"], how="left", nulls_equal=True).with_columns(
        c("xa").fill_null(0.0), c("xb").fill_null(0.0))
    ym_c = ycl.group_by(keys + [member]).agg(*ymom("c"))
    members = ym_u.join(ym_c, on=keys + [member], how="left", nulls_equal=True).with_columns(
        pl.lit(0, pl.Int64).alias("n_units"), pl.lit(0, pl.Int64).alias("n_clusters"),
        *[pl.lit(0.0).alias(x) for x in X_ONLY[2:]])
    bases = base_u.join(base_c, on=keys, how="left", nulls_equal=True).with_columns(
        pl.lit(base, pl.Int64).alias(member),
        *[pl.lit(0.0).alias(x) for x in MOMENTS if x not in X_ONLY])
    cols = [*keys, member, *MOMENTS]
    return pl.concat([members.select(cols), bases.select(cols)], how="vertical_relaxed")


def complete_family(df: pl.DataFrame, keys, member: str, base: int = -1) -> pl.DataFrame:
    """A (merged) :func:`family_moments` frame with every member's row completed by its
    base row's denominator moments and counts (the base rows dropped)."""
    keys = list(keys)
    is_base = pl.col(member) == base
    b = df.filter(is_base).select(*keys, *[pl.col(x).alias(f"_b_{x}") for x in X_ONLY])
    m = df.filter(~is_base).join(b, on=keys, how="left", nulls_equal=True)
    return m.with_columns(*[(pl.col(x) + pl.col(f"_b_{x}").fill_null(0)).alias(x)
                            for x in X_ONLY]).drop([f"_b_{x}" for x in X_ONLY])


def _var(m: dict[str, np.ndarray], prefix: str, ra, rb, has_b) -> np.ndarray:
    """``Σ (∇·v)²`` with the gradient of ``R_a − R_b`` (``R_a`` alone where not ``has_b``)."""
    g = {"ya": 1.0 / m["s_xa"], "xa": -ra / m["s_xa"],
         "yb": np.where(has_b, -1.0 / np.where(has_b, m["s_xb"], 1.0), 0.0),
         "xb": np.where(has_b, rb / np.where(has_b, m["s_xb"], 1.0), 0.0)}
    tot = np.zeros_like(ra)
    for p in PRODUCTS:
        a, b = p.split("_")
        w = 1.0 if a == b else 2.0
        tot = tot + w * g[a] * g[b] * m[f"{prefix}_{p}"]
    return np.maximum(tot, 0.0)


def _var_a(m, prefix, ra) -> np.ndarray:
    return np.maximum((m[f"{prefix}_ya_ya"] - 2 * ra * m[f"{prefix}_ya_xa"]
                       + ra * ra * m[f"{prefix}_xa_xa"]) / m["s_xa"] ** 2, 0.0)


def _var_b(m, prefix, rb) -> np.ndarray:
    return np.maximum((m[f"{prefix}_yb_yb"] - 2 * rb * m[f"{prefix}_yb_xb"]
                       + rb * rb * m[f"{prefix}_xb_xb"]) / m["s_xb"] ** 2, 0.0)


def estimates(part: pl.DataFrame, level: float = LEVEL, power: float = POWER,
              family: list[str] | None = None) -> pl.DataFrame:
    """The estimates of a moments frame (:data:`MOMENTS` columns), added as columns:

    - ``value`` = ``R_a`` and ``ref_value`` = ``R_b`` (null where the side is empty), their
      clustered standard errors ``se_value``, ``se_ref`` and ``level`` intervals
      ``value_low`` / ``value_high``;
    - ``diff`` = ``R_a − R_b`` (null without a reference side), ``se`` (clustered),
      ``se_iid`` (units taken as independent), ``deff`` = (se / se_iid)² (the design
      effect of the clustering), ``df`` = clusters − 1, ``ci_low`` / ``ci_high`` (t with
      ``df``), ``mde`` (the smallest difference detected with ``power``);
    - with ``family`` (key columns): ``m`` = rows in the row's family and ``adj_low`` /
      ``adj_high``, the Bonferroni intervals over the family (family-wise ``level``).
    """
    if part.height == 0:
        extra = ["value", "ref_value", "se_value", "se_ref", "value_low", "value_high",
                 "diff", "se", "se_iid", "deff", "df", "ci_low", "ci_high", "mde"]
        out = part.with_columns(*[pl.lit(None, pl.Float64).alias(c) for c in extra])
        if family is not None:
            out = out.with_columns(pl.lit(None, pl.Int64).alias("m"),
                                   pl.lit(None, pl.Float64).alias("adj_low"),
                                   pl.lit(None, pl.Float64).alias("adj_high"))
        return out
    m = {c: part[c].cast(pl.Float64).fill_null(0.0).to_numpy() for c in MOMENTS}
    G, n = m["n_clusters"], m["n_units"]
    with np.errstate(divide="ignore", invalid="ignore"):
        has_a = m["s_xa"] > 0
        has_b = m["s_xb"] > 0
        ra = np.where(has_a, m["s_ya"] / m["s_xa"], np.nan)
        rb = np.where(has_b, m["s_yb"] / m["s_xb"], np.nan)
        fc = np.where(G > 1, G / (G - 1.0), np.nan)
        fu = np.where(n > 1, n / (n - 1.0), np.nan)
        se_a = np.sqrt(fc * _var_a(m, "c", ra))
        se_b = np.sqrt(fc * _var_b(m, "c", rb))
        both = has_a & has_b
        v_c = fc * _var(m, "c", ra, rb, has_b)
        v_u = fu * _var(m, "u", ra, rb, has_b)
        se = np.where(both, np.sqrt(v_c), np.nan)
        se_iid = np.where(both, np.sqrt(v_u), np.nan)
        deff = np.where(both & (v_u > 0), v_c / v_u, np.nan)
        df = np.where(G > 1, G - 1.0, np.nan)
        k = np.array([crit(level, d) if np.isfinite(d) else np.nan for d in df])
        diff = np.where(both, ra - rb, np.nan)
    out = part.with_columns(
        value=pl.Series(ra), ref_value=pl.Series(rb), se_value=pl.Series(np.where(has_a, se_a, np.nan)),
        se_ref=pl.Series(np.where(has_b, se_b, np.nan)),
        value_low=pl.Series(ra - k * se_a), value_high=pl.Series(ra + k * se_a),
        diff=pl.Series(diff), se=pl.Series(se), se_iid=pl.Series(se_iid), deff=pl.Series(deff),
        df=pl.Series(df), ci_low=pl.Series(diff - k * se), ci_high=pl.Series(diff + k * se),
        mde=pl.Series(mde(se, df, level, power)))
    out = out.with_columns([pl.col(c).fill_nan(None) for c in
                            ("value", "ref_value", "se_value", "se_ref", "value_low", "value_high",
                             "diff", "se", "se_iid", "deff", "df", "ci_low", "ci_high", "mde")])
    if family is not None:
        out = out.with_columns(m=pl.len().over(family).cast(pl.Int64))
        kk = np.array([crit(level, d, mm) if d is not None and np.isfinite(d) else np.nan
                       for d, mm in zip(out["df"].to_list(), out["m"].to_list())], dtype=float)
        d = out["diff"].cast(pl.Float64).fill_null(np.nan).to_numpy()
        s = out["se"].cast(pl.Float64).fill_null(np.nan).to_numpy()
        out = out.with_columns(adj_low=pl.Series(d - kk * s).fill_nan(None),
                               adj_high=pl.Series(d + kk * s).fill_nan(None))
    return out


def proportion_interval(part: pl.DataFrame, level: float = LEVEL, m: pl.Series | None = None
                        ) -> tuple[pl.Series, pl.Series]:
    """Wilson intervals of ``value`` (a proportion) on the effective sample size
    ``p(1−p)/se_value²`` (the units where the variance is 0: p at 0 or 1), Bonferroni over
    ``m`` when given. Needs the columns of :func:`estimates`."""
    p = part["value"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    se = part["se_value"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    n_units = part["s_xa"].cast(pl.Float64).fill_null(0.0).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        n_eff = np.where((se > 0) & np.isfinite(se), p * (1 - p) / se ** 2, n_units)
    n_eff = np.where(np.isfinite(n_eff), n_eff, 0.0)
    ms = np.ones(len(p), dtype=int) if m is None else np.asarray(m.to_numpy(), dtype=int)
    z = np.array([crit(level, None, mm) for mm in ms])
    lo, hi = wilson(p, n_eff, z)
    return pl.Series(lo).fill_nan(None), pl.Series(hi).fill_nan(None)


__all__ = ["LEVEL", "POWER", "MOMENTS", "X_ONLY", "complete_family", "z_quantile", "t_quantile", "crit", "wilson", "mde",
           "n_needed", "moments", "family_moments", "estimates", "proportion_interval"]
