"""A rule profile with some rows switched off, built in memory (no file).

:func:`without_fans` is what a variant file with ``[rows.<id>] enabled = false`` for each
row does, applied to a loaded profile: the table is validated again (its exclusion graph
among the enabled rows, its topological order) and the kernel arrays are rebuilt, so a
scorer given the result recomputes the best reading and the exclusions as if the rows did
not exist (a switched-off row scores nothing and excludes nothing). The studies use it for
a fan's *pivotal share* (the wins that stop being legal without it).
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Iterable

from . import _table as _tbl
from ._keys import PREDICATE_KEYS
from ._profile import RuleProfile, check_decisions


@functools.lru_cache(maxsize=512)
def _without(profile: RuleProfile, ids: tuple[int, ...]) -> RuleProfile:
    off = set(ids)
    rows = [dataclasses.replace(r, enabled=False) if r.id in off else r
            for r in profile.table.rows]
    base = profile.table
    label = f"{base.variant or 'default'}-without-{'-'.join(str(i) for i in ids)}"
    where = f"{profile.source or profile.rules} without rows {sorted(off)}"
    table = _tbl._finish(base.rules, label, rows, dict(base.params), dict(base.meta),
                         PREDICATE_KEYS[profile.rules], where)
    raw = [d.to_dict() for d in profile.decisions]
    prof = RuleProfile(profile.rules, label, table, dict(profile.policies),
                       check_decisions(table, raw, where), where)
    prof.arrays                              # built and validated now
    return prof


def without_fans(profile: RuleProfile, fans: Iterable[int | str]) -> RuleProfile:
    """``profile`` with the rows ``fans`` (ids, keys or names) switched off, in memory.

    The result is a :class:`RuleProfile` like any other (same rule set, parameters and
    policies; ``variant`` labelled ``<variant>-without-<ids>``); the MCR scorer takes it as
    its ``variant`` (``mjfast.score_batch(batch, variant=without_fans(p, [48]))``). Results
    are cached per (profile, rows). Raises :class:`~mjfast.errors.RuleSetError` for an
    unknown row."""
    ids = tuple(sorted({profile.row(f).id for f in fans}))
    if not ids:
        return profile
    return _without(profile, ids)


__all__ = ["without_fans"]
