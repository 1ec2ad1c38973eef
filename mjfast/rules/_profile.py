"""One rule profile for every rule set, built by one loader from the TOML files.

:func:`get_profile` reads ``mjfast/rules/<base>.toml`` (``two_player`` is the variant
``tuidaohu.two_player.toml`` of ``tuidaohu.toml``) and an optional variant: a name ``X``
for ``<base>.X.toml`` or the path of a user ``.toml`` variant file (same format:
``[rows.<id>]`` overrides, ``[params]``, ``[[decision]]``). It validates everything the
scorers read; an edit the scorer cannot honour (an unknown parameter, a policy value that
is not implemented, an unknown row field, a broken exclusion graph) is a
:class:`~mjfast.errors.RuleSetError` at load.

A :class:`RuleProfile` holds the rows (values, names en/zh/ja and the judges' aliases,
sources, exclusions), the parameters, the policies as enums, the caps, the combination
decisions (Taiwan), the structural facts (:class:`~mjfast.rules.registry.RuleSet`) and
:meth:`RuleProfile.kernel_args`: the tuple every compiled scorer takes (the batch
kernels and the single-hand entry points of :mod:`mjfast.kernels._entry`), the same
layout for the four rule sets (``PROFILE_FIELDS``), all arrays ``int64``, indexed by fan
id (column 0 unused):

- ``ints``: scalars, indexed by the ``I_*`` constants below;
- ``points[f]``: value of fan f (0 when switched off);
- ``topo``: every column once, enabled fans in a topological order of the exclusion graph
  (an excluding fan before the fans it excludes; standalone rows first), then the rest;
- ``excl[f]``: ``[n, ids...]`` the fans f rules out when it counts (a standalone row:
  every other row);
- ``reducers``: the fans with an account-once deduction, in ``topo`` order;
  ``red_t[f]``, ``red_n[f]``, ``red_unless[f] = [n, ids...]``: fan f takes ``red_n``
  off fan ``red_t`` unless one of ``red_unless`` counts;
- ``col[k]``: the fan id of the scorer's predicate k (:mod:`mjfast.rules._keys`), 0 = none;
- ``live[f]``: 1 when fan f is switched on; ``off``: the ids switched off;
- ``excluders``: the enabled fans with a non-empty ``excl`` list, in ``topo`` order (the
  only fans the exclusion kernel visits);
- ``excl_bits`` (n + 2, 2): the same graph as sets of fan ids, two 64-bit words a row (bit
  ``g % 64`` of word ``g // 64``; fan ids are below ``MAX_COLUMNS`` = 128): row f the
  fans f excludes, row n the excluders, row n + 1 ``[1, 0]`` when increasing id order is
  a topological order of the graph (every fan excludes only higher ids: the exclusion
  kernel then walks the held excluders by id, :mod:`mjfast.kernels._exclude`), else
  ``[0, 0]`` (it walks ``excluders`` in order).

:meth:`RuleProfile.content_hash` is a stable hash of everything above (pipelines record
it in their manifests).
"""
from __future__ import annotations

import enum
import functools
import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ..errors import RuleSetError
from . import _table as _tbl
from ._keys import PREDICATE_KEYS
from ._table import RULES_DIR, Row, RuleTable
from .registry import RuleSet, get_rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PROFILE_FIELDS = ("ints", "points", "topo", "excl", "reducers", "red_t", "red_n",
                  "red_unless", "col", "live", "off", "excluders", "excl_bits")
(P_INTS, P_POINTS, P_TOPO, P_EXCL, P_REDUCERS, P_RED_T, P_RED_N, P_RED_UNLESS, P_COL,
 P_LIVE, P_OFF, P_EXCLUDERS, P_EXCL_BITS) = range(len(PROFILE_FIELDS))

MAX_COLUMNS = 128   # fan ids are below this (the kernels' fan sets are two 64-bit words)

# ints[] slots
I_CODE = 0          # RULES_CODE of the scorer
I_NCOLS = 1         # columns (max fan id + 1)
I_MINIMUM = 2       # minimum for a legal win (MCR points; Tuidaohu fan)
I_KONG_COMBO = 3    # MCR: 明暗杠 (row 82) on
I_HEAVEN = 4        # MCR: heavenly hand scores no wait fans
I_FORM_MASK = 5     # winning forms (registry FORM_* bits)
I_VERY_EARLY = 6    # Taiwan: very-early win, at most this many table discards
I_EARLY = 7         # Taiwan: early win, at most this many table discards
I_PLAYERS = 8
I_FLOWER_COL = 9    # MCR: the fan id whose value each flower scores
I_WIND_ONCE = 10    # MCR: the seat-and-prevalent wind pung makes one deduction
I_FLOWERS_TO_MIN = 11  # MCR: flowers count towards the minimum
N_INTS = 12

CODE_MCR = 0
CODE_TAIWAN = 1
CODE_TUIDAOHU = 2
RULES_CODE = {"mcr": CODE_MCR, "taiwan": CODE_TAIWAN, "tuidaohu": CODE_TUIDAOHU,
              "two_player": CODE_TUIDAOHU}
BASE_FILE = {"mcr": "mcr", "taiwan": "taiwan", "tuidaohu": "tuidaohu", "two_player": "tuidaohu"}
BUILTIN_VARIANT = {"two_player": "two_player"}


# ---- policies -------------------------------------------------------------------------
class Payers(str, enum.Enum):
    """Who pays a win."""
    ALL_OTHERS = "all_others"
    DISCARDER = "discarder"


class DealerRepeat(str, enum.Enum):
    """When the dealer keeps the seat."""
    DEALER_WIN_OR_DRAW = "dealer_win_or_draw"


class SeveralRons(str, enum.Enum):
    """Several players claim one discard."""
    HEAD_BUMP = "head_bump"


class WindPungAccount(str, enum.Enum):
    """MCR: how many 幺九刻 deductions a pung of the seat wind that is also the prevalent
    wind makes (圈风刻 + 门风刻 from one pung)."""
    ACCOUNT_ONCE = "account_once"
    ACCOUNT_EACH = "account_each"


class DecisionMode(str, enum.Enum):
    """Taiwan combination decisions (checked against the exclusion graph)."""
    CUMULATIVE = "cumulative"
    REPLACES = "replaces"
    HIGHEST = "highest"
    ONE_VALUE = "one_value"
    STANDALONE = "standalone"


_INT = ("int",)
_BOOL = ("bool",)
_NUM = ("num",)
# every parameter each scorer honours: (kind, allowed values or an Enum, or None)
PARAM_SCHEMA: dict[str, dict[str, tuple]] = {
    "mcr": {"minimum": _INT, "seat_payment": _INT, "flowers_count_to_minimum": _BOOL,
            "heavenly_hand_no_waits": _BOOL, "false_win": ("pair",),
            "seat_prevalent_wind_pung": ("enum", WindPungAccount)},
    "taiwan": {"very_early_max_discards": _INT, "early_max_discards": _INT, "base": _INT,
               "unit": _INT, "dealer_bonus": _INT, "dealer_bonus_per_streak": _INT,
               # the settlement implements these values only
               "dealer_bonus_on_nondealer_tsumo": ("const", False),
               "multiple_ron": ("const", True),
               "dealer_repeat": ("enum", DealerRepeat)},
    "tuidaohu": {"fan_cap": _INT, "base": _INT, "minimum_fan": _INT,
                 "win_self_drawn_payers": ("enum", Payers, (Payers.ALL_OTHERS,)),
                 "win_discard_payers": ("enum", Payers),
                 "dealer_repeat": ("enum", DealerRepeat),
                 "several_rons": ("enum", SeveralRons),
                 "kong_open": _INT, "kong_added": _INT, "kong_concealed": _INT,
                 "fee": _NUM, "chips": _INT},
}
PARAM_SCHEMA["two_player"] = PARAM_SCHEMA["tuidaohu"]
ROW_FIELDS = {"reduces", "reduce_unless", "standalone", "per", "note"}
CAPS = {"tuidaohu": ("fan_cap",), "two_player": ("fan_cap",), "mcr": (), "taiwan": ()}


def _check_param(name: str, key: str, value: Any, where: str) -> Any:
    schema = PARAM_SCHEMA[name]
    if key not in schema:
        raise RuleSetError(where, None, f"unknown {name} parameter {key!r} "
                                        f"(known: {', '.join(sorted(schema))})")
    kind = schema[key][0]
    bad = None
    if kind == "int" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
        bad = "a non-negative integer"
    elif kind == "num" and (not isinstance(value, (int, float)) or isinstance(value, bool)
                            or value < 0):
        bad = "a non-negative number"
    elif kind == "bool" and not isinstance(value, bool):
        bad = "true or false"
    elif kind == "pair" and not (isinstance(value, list) and len(value) == 2
                                 and all(isinstance(x, int) and x >= 0 for x in value)):
        bad = "two non-negative integers"
    elif kind == "const" and value != schema[key][1]:
        bad = f"{str(schema[key][1]).lower()} (the only value the scorer implements)"
    elif kind == "enum":
        cls = schema[key][1]
        allowed = schema[key][2] if len(schema[key]) > 2 else tuple(cls)
        try:
            member = cls(value)
        except ValueError:
            member = None
        if member not in allowed:
            bad = "one of " + ", ".join(repr(a.value) for a in allowed) + " (implemented)"
        else:
            return member
    if bad:
        raise RuleSetError(f"{key} = {value!r}", None, f"{where}: {key} must be {bad}")
    return value


@dataclass(frozen=True)
class Decision:
    """One combination decision (Taiwan ``[[decision]]``): ``mode`` over ``members`` (ids,
    lowest tier first for ``highest`` / ``one_value``); ``item`` for ``replaces``."""
    name: str
    mode: DecisionMode
    members: tuple[int, ...]
    item: int | None
    source: str

    def to_dict(self) -> dict[str, Any]:
        d = {"name": self.name, "mode": self.mode.value, "members": list(self.members),
             "source": self.source}
        if self.item is not None:
            d["item"] = self.item
        return d


def check_decisions(table: RuleTable, raw: list[dict], path) -> tuple[Decision, ...]:
    """The ``[[decision]]`` entries as :class:`Decision` s; each must agree with the rows'
    exclusion graph (enabled rows), else a :class:`~mjfast.errors.RuleSetError`."""
    ids = {r.id: r for r in table.rows}
    out = []

    def excl(a):
        r = ids[a]
        if r.get("standalone", False):
            return {x for x in ids if x != a}
        return set(r.excludes)

    def bad(msg):
        return RuleSetError(str(path), None, msg)

    for d in raw:
        name, mode = d.get("name", "?"), d.get("mode")
        try:
            mode = DecisionMode(mode)
        except ValueError:
            raise bad(f"decision {name}: unknown mode {mode!r}") from None
        members = tuple(int(x) for x in d.get("members", []))
        item = d.get("item")
        for m in members + ((item,) if item is not None else ()):
            if m not in ids:
                raise bad(f"decision {name}: unknown row {m}")
        live = [m for m in members if ids[m].enabled]
        if mode == DecisionMode.CUMULATIVE:
            for x in live:
                for y in live:
                    if y in excl(x):
                        raise bad(f"decision {name} (cumulative): row {x} excludes {y}")
        elif mode == DecisionMode.REPLACES:
            if item is None:
                raise bad(f"decision {name}: replaces needs an item")
            if ids[item].enabled:
                miss = [y for y in live if y not in excl(item)]
                if miss:
                    raise bad(f"decision {name}: row {item} must exclude {miss}")
        elif mode in (DecisionMode.HIGHEST, DecisionMode.ONE_VALUE):
            for i, x in enumerate(live):
                for y in live[:i]:
                    if y not in excl(x):
                        raise bad(f"decision {name} ({mode.value}): row {x} must exclude {y}")
        elif mode == DecisionMode.STANDALONE:
            for x in live:
                if not ids[x].get("standalone", False):
                    raise bad(f"decision {name}: row {x} must be standalone = true")
        out.append(Decision(name, mode, members, None if item is None else int(item),
                            str(d.get("source", ""))))
    return tuple(out)


@dataclass(frozen=True, eq=False)
class RuleProfile:
    """A rule set's validated table, policies and kernel arrays (module docstring): the
    one table type every scorer exposes (``mjfast.scoring.<rules>.FAN_TABLE``).

    It reads like a table of rows (``len``, iteration, ``profile[id or key or name]``,
    :meth:`row`, :attr:`rows`, :attr:`ids`) and carries the settlement numbers
    (:attr:`params`, :attr:`settlement`, :attr:`caps`). ``arrays`` are derived from
    ``table`` (``dataclasses.replace(profile, table=...)`` rebuilds them)."""
    rules: str
    variant: str | None
    table: RuleTable = field(repr=False)
    policies: Mapping[str, enum.Enum] = field(repr=False, default_factory=dict)
    decisions: tuple[Decision, ...] = field(repr=False, default=())
    source: str = field(repr=False, default="")

    @functools.cached_property
    def arrays(self) -> tuple:
        """The kernel arrays (``PROFILE_FIELDS`` order), built from ``table``."""
        return build_arrays(self.rules, self.table, self.source or self.rules)

    def kernel_args(self) -> tuple:
        """The tuple of arrays every compiled scorer takes (``PROFILE_FIELDS`` order)."""
        return self.arrays

    # ---- the data ---------------------------------------------------------------------
    @property
    def structure(self) -> RuleSet:
        """Tiles, hand size, sets, forms, players... (:mod:`mjfast.rules.registry`)."""
        return get_rules(self.rules)

    @property
    def rows(self) -> tuple[Row, ...]:
        return self.table.rows

    @property
    def params(self) -> Mapping[str, Any]:
        return self.table.params

    @property
    def meta(self) -> Mapping[str, Any]:
        return self.table.meta

    @property
    def caps(self) -> dict[str, int]:
        return {k: int(self.table.params[k]) for k in CAPS[self.rules] if k in self.table.params}

    @property
    def sources(self) -> tuple[str, ...]:
        m = self.table.meta
        src = m.get("sources", m.get("source", ()))
        return tuple([src] if isinstance(src, str) else src)

    @property
    def title(self) -> str:
        """The variant's description for a built-in variant rule set (two-player), else
        the table's title."""
        if self.rules in BUILTIN_VARIANT:
            desc = self.table.meta.get("variant", {}).get("description")
            if desc:
                return str(desc)
        return str(self.table.meta.get("title", self.rules))

    @property
    def n_cols(self) -> int:
        return int(self.arrays[P_INTS][I_NCOLS])

    @property
    def players(self) -> int:
        return self.structure.players

    @property
    def settlement(self) -> dict[str, Any]:
        """The table's parameters, with ``players`` from the rule set's structure."""
        return {**self.table.params, "players": self.players}

    @property
    def values(self) -> np.ndarray:
        """Value of each fan id (0 when switched off)."""
        return self.arrays[P_POINTS]

    @property
    def enabled(self) -> np.ndarray:
        """bool by fan id: switched on."""
        return self.arrays[P_LIVE].astype(bool)

    @property
    def fan_cap(self) -> int:
        return int(self.settlement["fan_cap"])

    @property
    def kong_values(self) -> np.ndarray:
        """Units of base per kong: open, added, concealed (Tuidaohu / two-player)."""
        s = self.table.params
        return np.array([s["kong_open"], s["kong_added"], s["kong_concealed"]], dtype=np.int64)

    # ---- rows -------------------------------------------------------------------------
    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(r.id for r in self.table.rows)

    @property
    def by_id(self) -> dict[int, Row]:
        return self.table.by_id

    @property
    def by_key(self) -> dict[str, Row]:
        return self.table.by_key

    @property
    def order(self) -> tuple[int, ...]:
        return self.table.order

    @property
    def max_id(self) -> int:
        return self.table.max_id

    def points_array(self, size: int | None = None, dtype=np.int32) -> np.ndarray:
        return self.table.points_array(size, dtype)

    def __len__(self) -> int:
        return len(self.table.rows)

    def __iter__(self):
        return iter(self.table.rows)

    def __getitem__(self, ident: int | str) -> Row:
        return self.row(ident)

    def row(self, ident: int | str) -> Row:
        """A row by id, key, or any of its names (en / zh / ja / aliases)."""
        if isinstance(ident, str) and ident not in self.table.by_key:
            hit = self._by_name().get(ident)
            if hit is not None:
                return hit
        return self.table.row(ident)

    def excluded_by(self, ident: int | str) -> set[int]:
        """Ids a row removes when it counts (a standalone row: every other row)."""
        r = self.row(ident)
        if r.get("standalone", False):
            return {x.id for x in self.table.rows if x.id != r.id}
        return set(r.excludes)

    def _by_name(self) -> dict[str, Row]:
        out: dict[str, Row] = {}
        for r in self.table.rows:
            for nm in r.names:
                out.setdefault(nm, r)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Everything that defines the profile, as plain JSON values."""
        rows = [{"id": r.id, "key": r.key, "points": r.points, "en": r.en, "zh": r.zh,
                 "ja": r.ja, "aliases": list(r.aliases), "source": r.source,
                 "excludes": list(r.excludes), "enabled": r.enabled,
                 "extra": {k: r.extra[k] for k in sorted(r.extra)}} for r in self.table.rows]
        st = self.structure
        return {"rules": self.rules, "structure": {
                    "players": st.players, "hand_size": st.hand_size, "sets": st.sets,
                    "kinds": list(st.kinds), "flowers": st.flowers, "forms": list(st.forms),
                    "dead_wall": st.dead_wall, "chow_allowed": st.chow_allowed},
                "params": {k: self.table.params[k] for k in sorted(self.table.params)},
                "rows": rows, "decisions": [d.to_dict() for d in self.decisions]}

    def content_hash(self) -> str:
        """A stable hash (sha256 hex, 16 digits) of :meth:`to_dict`: equal for equal
        content whatever the file names, comments or order of keys."""
        text = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False,
                          separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _id_list(rows: dict[int, list[int]], n: int) -> np.ndarray:
    width = 1 + max([len(v) for v in rows.values()] + [1])
    out = np.zeros((n, width), dtype=np.int64)
    for f, ids in rows.items():
        out[f, 0] = len(ids)
        out[f, 1:1 + len(ids)] = ids
    return out


def _exclusion_bits(excl: dict[int, list[int]], excluders: np.ndarray, n: int,
                    where: str) -> np.ndarray:
    """``excl_bits`` (module docstring): the exclusion graph as 128-bit id sets."""
    if n > MAX_COLUMNS:
        raise RuleSetError(where, None, f"fan ids must be below {MAX_COLUMNS} (got {n - 1}): "
                                        "the scorers hold a hand's fans as 128-bit sets")
    words = np.zeros((n + 2, 2), dtype=np.uint64)

    def put(row: int, ids) -> None:
        for g in ids:
            words[row, g >> 6] |= np.uint64(1) << np.uint64(g & 63)

    for f, ids in excl.items():
        put(f, ids)
    put(n, excluders.tolist())
    words[n + 1, 0] = int(all(g > f for f in excluders.tolist() for g in excl[f]))
    return words.view(np.int64)


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
    for r in table.rows:
        unknown = set(r.extra) - ROW_FIELDS
        if unknown:
            raise RuleSetError(where, None, f"row {r.id}: unknown field(s) {', '.join(sorted(unknown))}")
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
        if not isinstance(r.get("standalone", False), bool):
            raise RuleSetError(where, None, f"row {r.id}: standalone must be true or false")
        if not r.enabled:
            continue
        if r.id in standalone:
            excl[r.id] = [x.id for x in table.rows if x.id != r.id]
        else:
            excl[r.id] = sorted(set(r.excludes))
        red = r.get("reduces")
        if red:
            if (not isinstance(red, list) or len(red) != 1 or not isinstance(red[0], list)
                    or len(red[0]) != 2 or red[0][0] not in table.by_id
                    or not isinstance(red[0][1], int) or red[0][1] < 0 or red[0][0] == r.id):
                raise RuleSetError(where, None,
                                   f"row {r.id}: reduces must be [[id, n]] naming another row")
            red_t[r.id], red_n[r.id] = int(red[0][0]), int(red[0][1])
        un = r.get("reduce_unless", []) or []
        if not isinstance(un, list) or any(u not in table.by_id for u in un):
            raise RuleSetError(where, None, f"row {r.id}: reduce_unless must list existing rows")
        if un and not red:
            raise RuleSetError(where, None, f"row {r.id}: reduce_unless without reduces")
        unless[r.id] = [int(u) for u in un]
    order = [f for f in standalone] + [f for f in table.order if f not in standalone]
    seen = set(order)
    topo = order + [f for f in range(n) if f not in seen]
    reducers = [f for f in order if red_t[f] > 0]
    p = table.params
    ints = np.zeros(N_INTS, dtype=np.int64)
    ints[I_CODE] = RULES_CODE[name]
    ints[I_NCOLS] = n
    rs = get_rules(name)
    ints[I_FORM_MASK] = sum(1 << f for f in rs.forms)
    ints[I_PLAYERS] = rs.players
    if name == "mcr":
        ints[I_MINIMUM] = int(p.get("minimum", 8))
        ints[I_KONG_COMBO] = int(table.row("concealed_kong_and_melded_kong").enabled)
        ints[I_HEAVEN] = int(bool(p.get("heavenly_hand_no_waits", True)))
        ints[I_FLOWER_COL] = table.row("flower_tiles").id
        ints[I_WIND_ONCE] = int(WindPungAccount(p.get("seat_prevalent_wind_pung", "account_once"))
                                == WindPungAccount.ACCOUNT_ONCE)
        ints[I_FLOWERS_TO_MIN] = int(bool(p.get("flowers_count_to_minimum", False)))
    elif name == "taiwan":
        ints[I_VERY_EARLY] = int(p.get("very_early_max_discards", 5))
        ints[I_EARLY] = int(p.get("early_max_discards", 9))
    else:
        ints[I_MINIMUM] = int(p.get("minimum_fan", 0))
    excluders = np.array([f for f in order if excl.get(f)], dtype=np.int64)
    arrays = (ints, points, np.array(topo, dtype=np.int64), _id_list(excl, n),
              np.array(reducers, dtype=np.int64), red_t, red_n, _id_list(unless, n), col,
              live, off, excluders, _exclusion_bits(excl, excluders, n, where))
    for a in arrays:
        a.setflags(write=False)
    return arrays


def _decisions(path: Path) -> list[dict]:
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh).get("decision", [])
    except (OSError, tomllib.TOMLDecodeError):
        return []
    if not isinstance(raw, list) or not all(isinstance(d, dict) for d in raw):
        raise RuleSetError(str(path), None, "[[decision]] entries must be tables")
    for d in raw:
        try:
            DecisionMode(d.get("mode"))
        except ValueError:
            raise RuleSetError(str(path), None,
                               f"decision {d.get('name', '?')}: unknown mode {d.get('mode')!r}") from None
    return raw


@functools.lru_cache(maxsize=64)
def _profile(name: str, variant: str | None, stamp: tuple | None = None) -> RuleProfile:
    base = BASE_FILE[name]
    keys = PREDICATE_KEYS[name]
    builtin = BUILTIN_VARIANT.get(name)
    path = Path(variant) if variant is not None and variant.endswith(".toml") else None
    files = [RULES_DIR / f"{base}.toml"]
    if builtin:
        files.append(RULES_DIR / f"{base}.{builtin}.toml")
    if path is None:
        if builtin is not None and variant is not None:
            raise RuleSetError(variant, None,
                               f"{name} is itself a variant of {base}; pass a variant file path")
        table = _tbl.load_table(base, builtin or variant, predicates=keys)
        if variant:
            files.append(RULES_DIR / f"{base}.{variant}.toml")
    else:
        if not path.is_file():
            raise RuleSetError(variant, None, "rule variant file not found")
        table = _tbl.load_table(base, builtin, predicates=keys)
        table = layer(table, path, keys)
        files.append(path)
    where = str(files[-1])
    for f in files[1 + bool(builtin):]:
        if "structure" in _tbl._read(Path(f)):
            raise RuleSetError(str(f), None, "a variant cannot change the [structure] "
                                             "(tiles, forms, players): the kernels are built for it")
    policies = {}
    for k, v in table.params.items():
        checked = _check_param(name, k, v, where)
        if isinstance(checked, enum.Enum):
            policies[k] = checked
    decisions: list[dict] = []
    for f in files:           # a file that lists decisions replaces the list before it
        d = _decisions(f)
        if d:
            decisions = d
    prof = RuleProfile(name, variant, table, policies,
                       check_decisions(table, decisions, where), where)
    prof.arrays                   # built (and validated) at load
    return prof


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
    ``mcr.botzone.toml``) or the path of a user ``.toml`` variant file, normalised by
    :func:`mjfast.rules.variant_key` (an edited variant file is loaded again).
    Raises :class:`~mjfast.errors.RuleSetError` on anything the scorer cannot honour."""
    from ._context import _stamp, variant_key
    name = get_rules(rules).name
    key = variant_key(name, variant)
    return _profile(name, key, _stamp(key))


def profile_from_dict(data: Mapping[str, Any], variant: str | None = None) -> RuleProfile:
    """A profile rebuilt from :meth:`RuleProfile.to_dict` (what a dataset records), with
    the same checks as a load: the rows, parameters, policies and decisions."""
    name = get_rules(data["rules"]).name
    where = f"recorded {name} rules"
    rows = []
    for r in data["rows"]:
        raw = {k: v for k, v in r.items() if k != "extra"}
        raw.update(r.get("extra", {}))
        rows.append(_tbl._make_row(raw, where))
    params = dict(data.get("params", {}))
    table = _tbl._finish(name, variant, rows, params, {}, PREDICATE_KEYS[name], where)
    policies = {}
    for k, v in params.items():
        checked = _check_param(name, k, v, where)
        if isinstance(checked, enum.Enum):
            policies[k] = checked
    prof = RuleProfile(name, variant, table, policies,
                       check_decisions(table, list(data.get("decisions", [])), where), where)
    prof.arrays
    return prof


__all__ = ["RuleProfile", "Decision", "check_decisions", "get_profile", "profile_from_dict",
           "build_arrays", "PROFILE_FIELDS", "RULES_CODE",
           "CODE_MCR", "CODE_TAIWAN", "CODE_TUIDAOHU", "Payers", "DealerRepeat",
           "SeveralRons", "WindPungAccount", "DecisionMode", "PARAM_SCHEMA"]
