"""A small generic loader for rule tables (fan / tai / yaku rows) kept as TOML data.

A rule file ``mjfast/rules/<rules>.toml`` holds::

    [meta]                      # free keys: title, unit, sources...
    rules = "mcr"
    [params]                    # free settlement / scoring parameters
    minimum = 8
    [[row]]                     # one row per scoring item
    id = 1                      # positive int, unique
    key = "big_four_winds"      # the predicate's name (code keys on it, never on names)
    points = 88                 # int value
    en = "Big Four Winds"       # names: labels only
    zh = "大四喜"
    ja = "大四喜"
    source = "seed 004 table; GB 2006 §1"
    excludes = [38, 48]         # ids this item rules out when it counts (optional)
    enabled = true              # optional (default true)
    aliases = ["..."]           # other names the judges use (optional)
    # any other key is kept in ``Row.extra`` (``reduces``, ``reduce_unless``,
    # ``standalone``, ``per``, ``note``; the profile loader rejects others)

A variant ``mjfast/rules/<rules>.<variant>.toml`` overrides the base::

    [variant]
    name = "botzone"
    description = "..."
    [params]                    # merged over the base params
    [rows.82]                   # per-row overrides, keyed by id (points, enabled,
    enabled = true              # excludes, names, source, extra keys)
    [[row]]                     # (optional) extra rows appended to the table

Loading validates every row (types, unique ids/keys, known predicate keys when the caller
gives them, exclusions naming existing rows) and checks that the exclusion graph among
*enabled* rows is acyclic; :attr:`RuleTable.order` is a topological order of it (an item
comes before every item it excludes; ties by points descending, then id).
"""
from __future__ import annotations

import copy
import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping

import numpy as np

from ..errors import RuleSetError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

RULES_DIR = Path(__file__).resolve().parent

# a fan's value: 0..MAX_POINTS. The scorers total fan counts x values in 32-bit lanes and
# report totals as int32, and a negative total would read as "not complete" (-1)
MAX_POINTS = 1 << 20
_CORE = ("id", "key", "points", "en", "zh", "ja", "source", "excludes", "enabled", "aliases")


@dataclass(frozen=True)
class Row:
    """One scoring item of a rule table."""
    id: int
    key: str
    points: int
    en: str
    zh: str
    ja: str
    source: str
    excludes: tuple[int, ...] = ()
    enabled: bool = True
    extra: Mapping[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()   # other names the judges use (Botzone: 边张 for 独听・边张)

    def get(self, name: str, default: Any = None) -> Any:
        return self.extra.get(name, default)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name of the row: en, zh, ja, then the aliases."""
        return (self.en, self.zh, self.ja) + self.aliases


@dataclass(frozen=True)
class RuleTable:
    """A validated rule table (base + optional variant)."""
    rules: str
    variant: str | None
    rows: tuple[Row, ...]
    params: Mapping[str, Any]
    meta: Mapping[str, Any]
    order: tuple[int, ...]          # topological order of enabled row ids

    # ---- lookups -------------------------------------------------------------------
    @functools.cached_property
    def _lookups(self) -> tuple[dict[int, Row], dict[str, Row]]:
        """(row by id, row by key), built once per table: ``row`` runs for every fan a
        scored hand holds."""
        return {r.id: r for r in self.rows}, {r.key: r for r in self.rows}

    @property
    def by_id(self) -> Mapping[int, Row]:
        """Row by id (read-only)."""
        return MappingProxyType(self._lookups[0])

    @property
    def by_key(self) -> Mapping[str, Row]:
        """Row by predicate key (read-only)."""
        return MappingProxyType(self._lookups[1])

    def row(self, ident: int | str) -> Row:
        by_id, by_key = self._lookups
        table = by_key if isinstance(ident, str) else by_id
        if ident not in table:
            raise RuleSetError(str(ident), None, f"no row {ident!r} in the {self.rules} table")
        return table[ident]

    @property
    def max_id(self) -> int:
        return max(r.id for r in self.rows)

    def enabled_ids(self) -> list[int]:
        return [r.id for r in self.rows if r.enabled]

    # ---- arrays for kernels ----------------------------------------------------------
    def points_array(self, size: int | None = None, dtype=np.int32) -> np.ndarray:
        """(size,) values indexed by id; disabled rows are 0."""
        n = (size or self.max_id + 1)
        out = np.zeros(n, dtype=dtype)
        for r in self.rows:
            if r.enabled and r.id < n:
                out[r.id] = r.points
        return out

    def enabled_array(self, size: int | None = None) -> np.ndarray:
        n = (size or self.max_id + 1)
        out = np.zeros(n, dtype=np.bool_)
        for r in self.rows:
            if r.enabled and r.id < n:
                out[r.id] = True
        return out

    def exclusion_matrix(self, size: int | None = None) -> np.ndarray:
        """(size, size) bool: ``m[a, b]`` when enabled row a excludes row b."""
        n = (size or self.max_id + 1)
        m = np.zeros((n, n), dtype=np.bool_)
        for r in self.rows:
            if r.enabled:
                for b in r.excludes:
                    m[r.id, b] = True
        return m

    def order_array(self) -> np.ndarray:
        return np.array(self.order, dtype=np.int64)

    def with_points(self, **by_key: int) -> "RuleTable":
        """A copy with some values changed (keyed by row key); revalidated."""
        rows = [Row(**{**r.__dict__, "points": int(by_key[r.key])}) if r.key in by_key else r
                for r in self.rows]
        unknown = set(by_key) - {r.key for r in self.rows}
        if unknown:
            raise RuleSetError(", ".join(sorted(unknown)), None, "unknown row key")
        return _finish(self.rules, self.variant, rows, dict(self.params), dict(self.meta), None)


def _err(path: Path | str, msg: str) -> RuleSetError:
    return RuleSetError(str(path), None, msg)


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise _err(path, "rule file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise _err(path, f"invalid TOML: {exc}") from exc


def _make_row(raw: Mapping[str, Any], path: Path | str) -> Row:
    where = f"row {raw.get('id', '?')}"
    for k in ("id", "key", "points", "en", "zh", "ja", "source"):
        if k not in raw:
            raise _err(path, f"{where}: missing field {k!r}")
    if not isinstance(raw["id"], int) or isinstance(raw["id"], bool) or raw["id"] <= 0:
        raise _err(path, f"{where}: id must be a positive integer")
    if not isinstance(raw["points"], int) or isinstance(raw["points"], bool):
        raise _err(path, f"{where}: points must be an integer")
    for k in ("key", "en", "zh", "ja", "source"):
        if not isinstance(raw[k], str) or (k == "key" and not raw[k].isidentifier()):
            raise _err(path, f"{where}: {k} must be a string" + (" identifier" if k == "key" else ""))
    exc = raw.get("excludes", [])
    if not isinstance(exc, list) or not all(isinstance(x, int) for x in exc):
        raise _err(path, f"{where}: excludes must be a list of ids")
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        raise _err(path, f"{where}: enabled must be true or false")
    aliases = raw.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(x, str) and x for x in aliases):
        raise _err(path, f"{where}: aliases must be a list of names")
    extra = {k: v for k, v in raw.items() if k not in _CORE}
    return Row(int(raw["id"]), raw["key"], int(raw["points"]), raw["en"], raw["zh"], raw["ja"],
               raw["source"], tuple(int(x) for x in exc), enabled, extra, tuple(aliases))


def _topological(rows: Iterable[Row], path: Path | str) -> tuple[int, ...]:
    rows = [r for r in rows if r.enabled]
    ids = {r.id for r in rows}
    rank = {r.id: (-r.points, r.id) for r in rows}
    indeg = {i: 0 for i in ids}
    succ: dict[int, list[int]] = {i: [] for i in ids}
    for r in rows:
        for b in set(r.excludes):
            if b in ids:
                succ[r.id].append(b)
                indeg[b] += 1
    import heapq
    heap = [rank[i] for i in ids if indeg[i] == 0]
    heapq.heapify(heap)
    order: list[int] = []
    while heap:
        _, i = heapq.heappop(heap)
        order.append(i)
        for b in succ[i]:
            indeg[b] -= 1
            if indeg[b] == 0:
                heapq.heappush(heap, rank[b])
    if len(order) != len(ids):
        cyc = sorted(i for i in ids if indeg[i] > 0)
        raise _err(path, f"the exclusion graph has a cycle among rows {cyc}")
    return tuple(order)


def _finish(rules: str, variant: str | None, rows: list[Row], params: dict, meta: dict,
            predicates: Iterable[str] | None, path: Path | str = "") -> RuleTable:
    seen_id: set[int] = set()
    seen_key: set[str] = set()
    for r in rows:
        if r.id in seen_id:
            raise _err(path, f"duplicate row id {r.id}")
        if r.key in seen_key:
            raise _err(path, f"duplicate row key {r.key!r}")
        seen_id.add(r.id)
        seen_key.add(r.key)
        if not 0 <= r.points <= MAX_POINTS:
            raise _err(path, f"row {r.id}: points must be between 0 and {MAX_POINTS}")
    for r in rows:
        for b in r.excludes:
            if b not in seen_id:
                raise _err(path, f"row {r.id} excludes unknown row {b}")
            if b == r.id:
                raise _err(path, f"row {r.id} excludes itself")
    if predicates is not None:
        known = set(predicates)
        missing = [r.key for r in rows if r.key not in known]
        if missing:
            raise _err(path, f"rows without a predicate: {', '.join(missing)}")
    rows = sorted(rows, key=lambda r: r.id)
    return RuleTable(rules, variant, tuple(rows), params, meta, _topological(rows, path))


def _apply_overrides(rows: list[Row], overrides: Mapping[str, Any], path: Path) -> list[Row]:
    by_id = {r.id: i for i, r in enumerate(rows)}
    out = list(rows)
    for key, ov in overrides.items():
        try:
            rid = int(key)
        except ValueError as exc:
            raise _err(path, f"rows.{key}: override keys are row ids") from exc
        if rid not in by_id:
            raise _err(path, f"rows.{key}: no such row in the base table")
        if not isinstance(ov, Mapping):
            raise _err(path, f"rows.{key}: an override is a table of fields")
        base = out[by_id[rid]]
        raw = {"id": base.id, "key": base.key, "points": base.points, "en": base.en,
               "zh": base.zh, "ja": base.ja, "source": base.source,
               "excludes": list(base.excludes), "enabled": base.enabled,
               "aliases": list(base.aliases), **dict(base.extra)}
        if "id" in ov or "key" in ov:
            raise _err(path, f"rows.{key}: id and key cannot be overridden")
        raw.update(ov)
        out[by_id[rid]] = _make_row(raw, path)
    return out


def load_table(rules: str, variant: str | None = None, *, predicates: Iterable[str] | None = None,
               directory: Path | str | None = None) -> RuleTable:
    """Load ``<rules>.toml`` (and ``<rules>.<variant>.toml``), validate, return a RuleTable.

    ``predicates``: the predicate keys the caller implements; every row key must be one.
    Unknown variants raise :class:`~mjfast.errors.RuleSetError`.
    """
    d = Path(directory) if directory is not None else RULES_DIR
    path = d / f"{rules}.toml"
    data = _read(path)
    raw_rows = data.get("row", [])
    if not isinstance(raw_rows, list) or not raw_rows:
        raise _err(path, "no [[row]] entries")
    rows = [_make_row(r, path) for r in raw_rows]
    params = dict(data.get("params", {}))
    meta = dict(data.get("meta", {}))
    vname = None
    if variant:
        vname = str(variant).lower()
        vpath = d / f"{rules}.{vname}.toml"
        if not vpath.exists():
            avail = sorted(p.name[len(rules) + 1:-5] for p in d.glob(f"{rules}.*.toml"))
            raise RuleSetError(str(variant), None,
                               f"unknown {rules} variant (available: {', '.join(avail) or 'none'})")
        vdata = _read(vpath)
        rows = _apply_overrides(rows, vdata.get("rows", {}), vpath)
        rows += [_make_row(r, vpath) for r in vdata.get("row", [])]
        params.update(vdata.get("params", {}))
        meta = {**meta, "variant": dict(vdata.get("variant", {}))}
        path = vpath
    return _finish(rules, vname, rows, params, meta, predicates, path)


def available_variants(rules: str, directory: Path | str | None = None) -> list[str]:
    d = Path(directory) if directory is not None else RULES_DIR
    return sorted(p.name[len(rules) + 1:-5] for p in d.glob(f"{rules}.*.toml"))


__all__ = ["Row", "RuleTable", "load_table", "available_variants", "RULES_DIR"]
