"""Fan names and settlement parameters joined from the rule profiles (never stored in tables)."""
from __future__ import annotations

import functools
from typing import Any

import polars as pl

from ..datasets import DEFAULT_VARIANT

NAME_SCHEMA = {"rules": pl.String, "variant": pl.String, "fan_id": pl.Int64,
               "name_zh": pl.String, "name_en": pl.String, "name_ja": pl.String,
               "key": pl.String, "value": pl.Int64}


def _profile(rules: str, variant: str | None):
    """The rule table of a dataset partition (``rules``, ``variant``); a variant without a
    file of its own (a study's variant given by path) falls back to the base table."""
    from ..rules._table import load_table
    base, var = rules, (None if variant in (None, "", DEFAULT_VARIANT) else variant)
    if rules == "two_player":
        base, var = "tuidaohu", "two_player"
    try:
        return load_table(base, var)
    except Exception:
        try:
            return load_table(base, None)
        except Exception:
            return None


@functools.lru_cache(maxsize=64)
def _names(rules: str, variant: str | None) -> tuple[tuple, ...]:
    t = _profile(rules, variant)
    if t is None:
        return ()
    return tuple((r.id, r.zh, r.en, r.ja, r.key, r.points) for r in t.rows)


def fan_names(pairs) -> pl.DataFrame:
    """Names of every fan of each ``(rules, variant)`` pair: rules, variant, fan_id,
    name_zh, name_en, name_ja, key, value (the table's points)."""
    rows = []
    for rules, variant in pairs:
        for fid, zh, en, ja, key, pts in _names(str(rules), variant):
            rows.append((rules, variant, fid, zh, en, ja, key, pts))
    return pl.DataFrame(rows, schema=NAME_SCHEMA, orient="row")


def join_names(df: pl.DataFrame, id_col: str = "fan_id", suffix: str = "") -> pl.DataFrame:
    """Join ``name_zh/en/ja`` (+ ``suffix``) onto a frame keyed by rules, variant, ``id_col``."""
    pairs = df.select("rules", "variant").unique().rows()
    names = fan_names(pairs).select(
        "rules", "variant", pl.col("fan_id").alias(id_col),
        *[pl.col(c).alias(c + suffix) for c in ("name_zh", "name_en", "name_ja")])
    out = df.with_columns(pl.col(id_col).cast(pl.Int64)).join(
        names, on=["rules", "variant", id_col], how="left", nulls_equal=True)
    fill = pl.concat_str(pl.lit("fan "), pl.col(id_col).cast(pl.String))
    return out.with_columns(*[pl.col(c + suffix).fill_null(fill)
                              for c in ("name_zh", "name_en", "name_ja")])


@functools.lru_cache(maxsize=64)
def settlement(rules: str, variant: str | None) -> dict[str, Any]:
    """The settlement parameters of a partition's rule profile (empty when none loads)."""
    t = _profile(rules, variant)
    return dict(t.params) if t is not None else {}
