"""One rule profile for every rule set: the loaded TOML table as the arrays the kernels read.

:func:`get_profile` builds a :class:`RuleProfile` from ``mjfast/rules/<rules>.toml`` (and a
variant: a name ``X`` for ``<rules>.X.toml`` or a path to a user ``.toml`` file).
:meth:`RuleProfile.kernel_args` is the tuple every compiled scorer takes (the batch
kernels and the single-hand entry points of :mod:`mjfast.kernels._entry`), the same
layout for the four rule sets (``PROFILE_FIELDS``), all arrays ``int64``, indexed by fan
id (column 0 unused):

- ``ints``: scalars, indexed by the ``I_*`` constants below;
- ``points[f]``: value of fan f (0 when switched off);
- ``topo``: every column once, enabled fans in a topological order of the exclusion graph
  (an excluding fan before the fans it excludes; standalone rows first), then the rest;
- ``excl[f]``: ``[n, ids...]`` the fans f rules out when it counts;
- ``red_t[f]``, ``red_n[f]``, ``red_unless[f] = [n, ids...]``: account-once deductions
  (fan f takes ``red_n`` off fan ``red_t`` unless one of ``red_unless`` counts);
- ``col[k]``: the fan id of the scorer's predicate k (``mjfast.rules._keys``), 0 = none;
- ``live[f]``: 1 when fan f is switched on; ``off``: the ids switched off.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ..errors import RuleSetError
from . import _table as _tbl
from ._keys import PREDICATE_KEYS
from ._table import RULES_DIR, RuleTable
from .registry import get_rules

PROFILE_FIELDS = ("ints", "points", "topo", "excl", "red_t", "red_n", "red_unless", "col",
                  "live", "off")

# ints[] slots
I_CODE = 0          # RULES_CODE of the scorer
I_NCOLS = 1         # columns (max fan id + 1)
I_MINIMUM = 2       # minimum for a legal win (MCR points without flowers; fan elsewhere)
I_KONG_COMBO = 3    # MCR: 明暗杠 (row 82) on
I_HEAVEN = 4        # MCR: heavenly hand scores no wait fans
I_FORM_MASK = 5     # winning forms (registry FORM_* bits)
I_VERY_EARLY = 6    # Taiwan: very-early win, at most this many table discards
I_EARLY = 7         # Taiwan: early win, at most this many table discards
I_PLAYERS = 8
I_FLOWER_COL = 9    # the fan id whose value each flower scores (0 = none)
N_INTS = 10

CODE_MCR = 0
CODE_TAIWAN = 1
CODE_TUIDAOHU = 2
RULES_CODE = {"mcr": CODE_MCR, "taiwan": CODE_TAIWAN, "tuidaohu": CODE_TUIDAOHU,
              "two_player": CODE_TUIDAOHU}
BASE_FILE = {"mcr": "mcr", "taiwan": "taiwan", "tuidaohu": "tuidaohu", "two_player": "tuidaohu"}
BUILTIN_VARIANT = {"two_player": "two_player"}


@dataclass(frozen=True, eq=False)
class RuleProfile:
    """A rule set's validated table and its kernel arrays (see the module docstring)."""
    rules: str
    variant: str | None
    table: RuleTable = field(repr=False)
    arrays: tuple = field(repr=False)

    def kernel_args(self) -> tuple:
        """The tuple of arrays every compiled scorer takes (``PROFILE_FIELDS`` order)."""
        return self.arrays

    @property
    def params(self) -> Mapping[str, Any]:
        return self.table.params

    @property
    def n_cols(self) -> int:
        return int(self.arrays[0][I_NCOLS])


def _id_list(rows: dict[int, list[int]], n: int) -> np.ndarray:
    width = 1 + max([len(v) for v in rows.values()] + [1])
    out = np.zeros((n, width), dtype=np.int64)
    for f, ids in rows.items():
        out[f, 0] = len(ids)
        out[f, 1:1 + len(ids)] = ids
    return out


def build_arrays(rules: str, table: RuleTable, where: str) -> tuple:
    """The kernel arrays of ``table`` for the ``rules`` scorer (validated)."""
    name = get_rules(rules).name
    keys = PREDICATE_KEYS[name]
    by_key = table.by_key
    n = table.max_id + 1
    if name == "mcr":
        for i, key in enumerate(keys, start=1):
            if i not in table.by_id or table.row(i).key != key:
                raise RuleSetError(where, None, f"mcr row {i} must be {key!r} (the kernel's fan ids)")
        n = max(n, len(keys) + 1)
    col = np.zeros(len(keys), dtype=np.int64)
    for k, key in enumerate(keys):
        if key in by_key:
            col[k] = by_key[key].id
    points = table.points_array(n, np.int64)
    live = table.enabled_array(n).astype(np.int64)
    off = np.array([r.id for r in table.rows if not r.enabled], dtype=np.int64)
    standalone = [r.id for r in table.rows if r.enabled and r.get("standalone", False)]
    excl: dict[int, list[int]] = {}
    red_t = np.zeros(n, dtype=np.int64)
    red_n = np.zeros(n, dtype=np.int64)
    unless: dict[int, list[int]] = {}
    for r in table.rows:
        if not r.enabled:
            continue
        if r.id in standalone:
            excl[r.id] = [x.id for x in table.rows if x.id != r.id]
        else:
            excl[r.id] = sorted(set(r.excludes))
        red = r.get("reduces")
        if red:
            if (not isinstance(red, list) or len(red) != 1 or not isinstance(red[0], list)
                    or len(red[0]) != 2 or red[0][0] not in table.by_id):
                raise RuleSetError(where, None, f"row {r.id}: reduces must be [[id, n]] naming a row")
            red_t[r.id], red_n[r.id] = int(red[0][0]), int(red[0][1])
        un = r.get("reduce_unless", []) or []
        if any(u not in table.by_id for u in un):
            raise RuleSetError(where, None, f"row {r.id}: reduce_unless names an unknown row")
        unless[r.id] = [int(u) for u in un]
    order = [f for f in standalone] + [f for f in table.order if f not in standalone]
    seen = set(order)
    topo = order + [f for f in range(n) if f not in seen]
    p = table.params
    ints = np.zeros(N_INTS, dtype=np.int64)
    ints[I_CODE] = RULES_CODE[name]
    ints[I_NCOLS] = n
    rs = get_rules(name)
    ints[I_FORM_MASK] = sum(1 << f for f in rs.forms)
    ints[I_PLAYERS] = int(p.get("players", rs.players))
    if name == "mcr":
        ints[I_MINIMUM] = int(p.get("minimum", 8))
        ints[I_KONG_COMBO] = int(table.row("concealed_kong_and_melded_kong").enabled)
        ints[I_HEAVEN] = int(bool(p.get("heavenly_hand_no_waits", True)))
        ints[I_FLOWER_COL] = table.row("flower_tiles").id
    elif name == "taiwan":
        ints[I_VERY_EARLY] = int(p.get("very_early_max_discards", 5))
        ints[I_EARLY] = int(p.get("early_max_discards", 9))
    else:
        ints[I_MINIMUM] = int(p.get("minimum_fan", 0))
    arrays = (ints, points, np.array(topo, dtype=np.int64), _id_list(excl, n), red_t, red_n,
              _id_list(unless, n), col, live, off)
    for a in arrays:
        a.setflags(write=False)
    return arrays


def _norm_variant(variant: str | None) -> str | None:
    if variant is None or str(variant).lower() in ("", "none", "default", "official"):
        return None
    return str(variant)


@functools.lru_cache(maxsize=64)
def _profile(name: str, variant: str | None) -> RuleProfile:
    base = BASE_FILE[name]
    keys = PREDICATE_KEYS[name]
    builtin = BUILTIN_VARIANT.get(name)
    path = Path(variant) if variant is not None and variant.endswith(".toml") else None
    if path is None:
        if builtin is not None and variant is not None:
            raise RuleSetError(variant, None, f"{name} is itself a variant; pass a user file path")
        table = _tbl.load_table(base, builtin or (variant.lower() if variant else None),
                                predicates=keys)
        where = str(RULES_DIR / f"{base}.toml")
    else:
        if not path.is_file():
            raise RuleSetError(variant, None, "rule variant file not found")
        table = _tbl.load_table(base, builtin, predicates=keys)
        table = layer(table, path, keys)
        where = str(path)
    return RuleProfile(name, variant, table, build_arrays(name, table, where))


def layer(base: RuleTable, path: Path, predicates) -> RuleTable:
    """A variant file applied on top of a loaded table (the variant file format:
    ``[rows.<id>]`` overrides, extra ``[[row]]`` entries, ``[params]``)."""
    data = _tbl._read(path)
    rows = _tbl._apply_overrides(list(base.rows), data.get("rows", {}), path)
    rows += [_tbl._make_row(r, path) for r in data.get("row", [])]
    params = {**base.params, **data.get("params", {})}
    meta = {**base.meta, "user_variant": dict(data.get("variant", {}))}
    return _tbl._finish(base.rules, path.stem.split(".")[-1], rows, params, meta,
                        predicates, path)


def get_profile(rules: str, variant: str | Path | None = None) -> RuleProfile:
    """The rule profile of ``rules`` (``mcr``, ``taiwan``, ``tuidaohu``, ``two_player``)
    with an optional ``variant``: a name (``mcr`` + ``"botzone"`` loads
    ``mcr.botzone.toml``) or the path of a user ``.toml`` variant file."""
    name = get_rules(rules).name
    v = _norm_variant(None if variant is None else str(variant))
    return _profile(name, v)


__all__ = ["RuleProfile", "get_profile", "build_arrays", "PROFILE_FIELDS", "RULES_CODE",
           "CODE_MCR", "CODE_TAIWAN", "CODE_TUIDAOHU"]
