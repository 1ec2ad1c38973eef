"""The design of a study as the analyses see it: where each row comes from (``source``),
which rows are one *unit* under each variant (pairing), and which units are not
independent (*clusters*).

- **source**: ``replay`` (logs), ``simulate`` (the simulator), ``hands`` (generated or
  given hands). Read from the tables' ``source`` column when it holds one of these; a
  deals row whose ``source`` is a log file's path (datasets written before the column
  was settled) is a replay; ``wins`` and ``turns`` take their deal's.
- **unit and pairing**: a deal (``deal_id``), a hand (``hand_id``), a decision (deal and
  step). The same unit under two variants is a pair: a rescored log or hand sample, or a
  resimulated wall (same seed, game, deal and seat rotation).
- **cluster**: the wall. A simulated deal's id is ``<rules>-s<seed>-g<game>[-p<perm>]-d<deal>``
  and its wall depends on (seed, game, deal) only, so the seat rotations of a duplicate
  simulation (``-p<perm>``) share a cluster, and so does the same deal under every
  variant. A logged deal and a hand are their own cluster.

A source whose play does not change with the variant (``replay``, ``hands``: the same
decisions rescored) cannot change quantities of the play itself (draws, wall tiles drawn):
:data:`INVARIANT` lists them; the analyses report their level, never a difference.
"""
from __future__ import annotations

import polars as pl

SOURCES = ("replay", "simulate", "hands")
RESCORED = ("replay", "hands")
INVARIANT = ("draw_rate", "wall_draws")
DEFAULT_REFERENCE = "default"


def _names(lf: pl.LazyFrame) -> list[str]:
    return lf.collect_schema().names()


def source_expr(col: str = "source") -> pl.Expr:
    """``replay`` / ``simulate`` / ``hands`` from a ``source`` column (a log path: replay)."""
    c = pl.col(col).cast(pl.String)
    return (pl.when(c.is_in(list(SOURCES))).then(c)
            .otherwise(pl.lit("replay")).alias("source"))


def cluster_expr(deal_id: str = "deal_id") -> pl.Expr:
    """The wall a deal was played on: the deal id without its seat-rotation part."""
    return pl.col(deal_id).cast(pl.String).str.replace(r"-p\d+(-d\d+)$", "$1").alias("cluster")


def deals_frame(deals: pl.LazyFrame) -> pl.LazyFrame:
    """Deals with ``source``, ``cluster`` and ``players``."""
    names = _names(deals)
    src = source_expr() if "source" in names else pl.lit("simulate").alias("source")
    players = pl.coalesce(pl.col("scores").list.len(), pl.col("seats").list.len(),
                          pl.lit(4)).cast(pl.Int64).alias("players")
    return deals.with_columns(src, cluster_expr(), players)


def deal_keys(deals: pl.LazyFrame) -> pl.LazyFrame:
    """rules, variant, deal_id -> source, cluster (to tag rows of other tables)."""
    return deals_frame(deals).select("rules", "variant", "deal_id", "source", "cluster")


def tag(lf: pl.LazyFrame, deals: pl.LazyFrame) -> pl.LazyFrame:
    """Rows of a per-deal table (wins, turns) with their deal's source and cluster (rows
    whose deal is not in ``deals`` are dropped)."""
    keep = [c for c in _names(lf) if c not in ("source", "cluster")]
    return lf.select(keep).join(deal_keys(deals), on=["rules", "variant", "deal_id"],
                                how="inner", nulls_equal=True)


def reference_of(variants) -> str:
    """The reference variant: ``default`` when present, else the first by name."""
    vs = sorted({v for v in variants if v is not None})
    return DEFAULT_REFERENCE if DEFAULT_REFERENCE in vs or not vs else vs[0]


def membership(units: pl.LazyFrame, reference: str) -> pl.LazyFrame:
    """How each unit enters the comparisons of a variant with ``reference``.

    ``units``: rules, source, variant, unit, cluster (one row per unit and variant). Out:
    rules, source, variant, reference, pairing, unit, cluster, side (``a``: the variant,
    ``b``: the reference) and ``from_variant`` (the partition whose values fill the side):

    - ``paired``: a unit under the variant and under the reference (two rows: a and b);
    - ``unpaired``: a unit under only one of the two;
    - ``all``: every unit of each variant (the reference's too), side ``a`` only: the
      variant's own level.
    """
    u = units.select("rules", "source", "variant", "unit", "cluster").unique()
    k = ["rules", "source", "unit"]
    ref = u.filter(pl.col("variant") == reference).select(*k, "cluster")
    oth = u.filter(pl.col("variant") != reference)
    lit = pl.lit
    both = oth.join(ref.select(k), on=k, how="semi")
    a_paired = both.select(*k, "variant", "cluster", lit("paired").alias("pairing"),
                           lit("a").alias("side"), pl.col("variant").alias("from_variant"))
    b_paired = both.select(*k, "variant", "cluster", lit("paired").alias("pairing"),
                           lit("b").alias("side"), lit(reference).alias("from_variant"))
    a_only = oth.join(ref.select(k), on=k, how="anti").select(
        *k, "variant", "cluster", lit("unpaired").alias("pairing"), lit("a").alias("side"),
        pl.col("variant").alias("from_variant"))
    others = oth.select("rules", "source", "variant").unique()
    b_cand = ref.join(others, on=["rules", "source"], how="inner")
    b_only = b_cand.join(oth.select(*k, "variant"), on=k + ["variant"], how="anti").select(
        *k, "variant", "cluster", lit("unpaired").alias("pairing"), lit("b").alias("side"),
        lit(reference).alias("from_variant"))
    level = u.select(*k, "variant", "cluster", lit("all").alias("pairing"),
                     lit("a").alias("side"), pl.col("variant").alias("from_variant"))
    out = pl.concat([a_paired, b_paired, a_only, b_only, level], how="vertical_relaxed")
    return out.with_columns(lit(reference).alias("reference"))


def sides(member: pl.LazyFrame, values: pl.LazyFrame, keys, cols) -> pl.LazyFrame:
    """Per (``keys``, unit): the value columns ``cols`` of ``values`` (rules, source,
    variant, unit, ... ) put on side a (``<col>a``) or b (``<col>b``) as ``member`` says;
    ``keys`` are the extra key columns of ``values`` (metric, fan_id...)."""
    keys = list(keys)
    v = values.rename({"variant": "from_variant"})
    j = member.join(v, on=["rules", "source", "from_variant", "unit"], how="inner",
                    nulls_equal=True)
    side_a = pl.col("side") == "a"
    out = j.select("rules", "source", "variant", "reference", "pairing", *keys, "unit",
                   "cluster",
                   *[pl.when(side_a).then(pl.col(c)).otherwise(0.0).alias(f"{c}a") for c in cols],
                   *[pl.when(side_a).then(0.0).otherwise(pl.col(c)).alias(f"{c}b") for c in cols])
    gk = ["rules", "source", "variant", "reference", "pairing", *keys, "unit"]
    return out.group_by(gk).agg(pl.col("cluster").first(),
                                *[pl.col(f"{c}{s}").sum() for c in cols for s in "ab"])


__all__ = ["SOURCES", "RESCORED", "INVARIANT", "source_expr", "cluster_expr", "deals_frame",
           "deal_keys", "tag", "reference_of", "membership", "sides"]
