"""Fan names, values and settlement parameters from what the dataset records.

A dataset's manifest records the rule context of every (rules, variant) it holds
(:meth:`mjfast.rules.RuleContext.record`: the profile with names, values, parameters);
:func:`recorded_rules` rebuilds those contexts from the records -- never from today's rule
files, so a dataset analysed after a rule file changed still shows what it was written
with. Two datasets read together (a folder of datasets) that record different rules under
one (rules, variant) are refused: their numbers do not merge.

:func:`~mjfast.analytics.frames` puts the contexts of the data it reads in use; the
analyses' ``finish`` steps join names through :func:`join_names`. A mapping of frames
carries its contexts under the key ``"rule_contexts"`` (a list of
:class:`~mjfast.rules.RuleContext` or records); without that key the contexts in use stay
(the frames of a dataset already read). Where the data holds a (rules, variant)
that no record names, the names are **null** (documented, never a guess from today's
files), and :func:`contexts_of` (settlement) raises.
"""
from __future__ import annotations

import functools
import json
from typing import Any, Iterable, Mapping

import polars as pl

from ..errors import InputError
from ..rules import RuleContext

NAME_SCHEMA = {"rules": pl.String, "variant": pl.String, "fan_id": pl.Int64,
               "name_zh": pl.String, "name_en": pl.String, "name_ja": pl.String,
               "key": pl.String, "value": pl.Int64}

# (rules, variant) -> the context the data being analysed was written with
_IN_USE: dict[tuple[str, str], RuleContext] = {}


@functools.lru_cache(maxsize=64)
def _from_text(text: str) -> RuleContext:
    return RuleContext.from_record(json.loads(text))


def as_context(record: RuleContext | Mapping[str, Any]) -> RuleContext:
    """A rule context from a context or a record (rebuilt once per process)."""
    if isinstance(record, RuleContext):
        return record
    return _from_text(json.dumps(record, sort_keys=True, ensure_ascii=False))


def merge_contexts(groups: Iterable[Iterable[RuleContext | Mapping[str, Any]]],
                   where: str = "the datasets") -> list[RuleContext]:
    """The contexts of several datasets, one per (rules, variant); the same (rules,
    variant) with different content is an error (a merge across different rules)."""
    out: dict[tuple[str, str], RuleContext] = {}
    for group in groups:
        for rec in group:
            ctx = as_context(rec)
            key = (ctx.rules, ctx.variant)
            if key in out and out[key].content_hash != ctx.content_hash:
                raise InputError(where, None,
                                 f"{ctx.variant_id} is recorded with two different rule "
                                 f"contents (hash {out[key].content_hash} and "
                                 f"{ctx.content_hash}): datasets written with different "
                                 "rules are not merged; analyse them apart")
            out[key] = ctx
    return [out[k] for k in sorted(out)]


def recorded_rules(datasets) -> list[RuleContext]:
    """The rule contexts the datasets' manifests record (see the module docstring)."""
    groups = []
    for ds in datasets:
        path = ds.path / "manifest.json"
        if path.is_file():
            groups.append(json.loads(path.read_text()).get("rules", []))
    return merge_contexts(groups, ", ".join(str(ds.path) for ds in datasets))


def use_contexts(contexts: Iterable[RuleContext]) -> None:
    """Put ``contexts`` in use for the names and values of the analyses that follow."""
    _IN_USE.clear()
    for c in contexts:
        _IN_USE[(c.rules, c.variant)] = c


def contexts_of(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], RuleContext]:
    """The context in use of each (rules, variant); one the data does not record is an
    error naming it."""
    out = {}
    for rules, variant in pairs:
        key = (str(rules), str(variant))
        if key not in _IN_USE:
            raise InputError(f"{key[0]}:{key[1]}", None,
                             "the data records no rule context for these rules (a dataset "
                             "written before mjfast recorded its rules? write it again; "
                             "frames given by hand: add 'rule_contexts')")
        out[key] = _IN_USE[key]
    return out


def recorded(rules: str, variant: str | None) -> RuleContext | None:
    """The rule context in use for (rules, variant) (``None`` / "" = ``default``), or None
    when the data records none."""
    key = (str(rules), "default" if variant in (None, "") else str(variant))
    return _IN_USE.get(key)


def settlement(rules: str, variant: str | None = None) -> dict[str, Any]:
    """The settlement parameters of (rules, variant) as the data records them. With no
    variant (or ``default``) and no record of it, the rule set's bundled default tables:
    the reference the studies measure against (e.g. the default minimum), never a
    stand-in for a variant the data holds; any other unrecorded variant is an error."""
    ctx = recorded(rules, variant)
    if ctx is None and variant in (None, "", "default"):
        from ..rules import rule_context
        ctx = rule_context(rules)
    if ctx is None:
        ctx = contexts_of([(rules, variant)])[(str(rules), str(variant))]
    return dict(ctx.params)


def fan_names(pairs) -> pl.DataFrame:
    """Names of every fan of each ``(rules, variant)`` pair in use: rules, variant,
    fan_id, name_zh, name_en, name_ja, key, value (the recorded points). Pairs without a
    recorded context have no rows."""
    rows = []
    for rules, variant in pairs:
        ctx = _IN_USE.get((str(rules), str(variant)))
        if ctx is None:
            continue
        for r in ctx.profile.rows:
            rows.append((rules, variant, r.id, r.zh, r.en, r.ja, r.key, r.points))
    return pl.DataFrame(rows, schema=NAME_SCHEMA, orient="row")


def join_names(df: pl.DataFrame, id_col: str = "fan_id", suffix: str = "") -> pl.DataFrame:
    """Join ``name_zh/en/ja`` (+ ``suffix``) onto a frame keyed by rules, variant,
    ``id_col``, from the recorded rule contexts in use (null where none is recorded)."""
    pairs = df.select("rules", "variant").unique().rows()
    names = fan_names(pairs).select(
        "rules", "variant", pl.col("fan_id").alias(id_col),
        *[pl.col(c).alias(c + suffix) for c in ("name_zh", "name_en", "name_ja")])
    return df.with_columns(pl.col(id_col).cast(pl.Int64)).join(
        names, on=["rules", "variant", id_col], how="left", nulls_equal=True)


__all__ = ["NAME_SCHEMA", "as_context", "contexts_of", "fan_names", "join_names",
           "merge_contexts", "recorded", "recorded_rules", "settlement", "use_contexts"]
