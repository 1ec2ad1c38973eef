"""Shanten, effective tiles (waits) and live counts for all four rule sets
(:func:`mjfast.shanten`, :func:`mjfast.waits` are re-exported from here).

API::

    shanten(counts, rules=None, forms=False, threads=None)
    waits(counts, rules=None, visible=None, threads=None) -> Waits
    report(hand, rules=None, visible=None) -> dict      # the CLI's JSON object
    format_report(d) -> str                             # the CLI's text output

``counts`` is an (N, 34) array of concealed tile counts (any integer dtype; uint8 is used
as is), a single (34,) row, a :class:`~mjfast.Hand` or a hand string. The number of called
melds follows from the tile count: 13/14 tiles none, 10/11 one, ... (Taiwan 16/17 none).

Shanten is ``min |W - H| - 1`` over the complete hands ``W`` of the rule set's forms that
hold at most four copies of a tile: -1 = complete, 0 = ready. ``docs/shanten.md`` has the
definition, the method (per-suit tables) and the differences from the reference
calculators.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np

from . import _threads
from . import hand as _hand_module
from .errors import ArgumentError, InvalidCountsError
from .hand import Hand
from .notation import convert_hand
from . import kernels as _k
from .rules.registry import FORM_NAMES, RuleSet, get_rules
from .tiles import N_KINDS, tile_name

__all__ = ["shanten", "waits", "Waits", "report", "format_report", "NO_FORM"]

NO_FORM = _k.NO_FORM
"""Per-form value of a form the row cannot reach (called melds, or not in the rule set)."""

_REASONS = {
    _k.BAD_COUNT: "a count above 4",
    _k.BAD_TOTAL: "a tile total no hand of the rule set has",
    _k.BAD_TILE: "a tile outside the rule set",
    _k.BAD_WAIT_TOTAL: "waits need a waiting hand (3k+1 tiles: 13, 10, ...; Taiwan 16, ...)",
}


# ---------------------------------------------------------------------------------
# input handling
# ---------------------------------------------------------------------------------
def _as_hand(x: Any, rules: str | None) -> Hand | None:
    if isinstance(x, Hand):
        return x
    if isinstance(x, str):
        from .notation import parse_hand
        return parse_hand(x, rules=rules or "mcr")
    return None


def _as_array(x: Any, what: str) -> np.ndarray:
    """A numeric array of ``x`` or a typed error (strings, objects, ragged lists...)."""
    if x is None or isinstance(x, (bytes, dict, set)):
        raise InvalidCountsError(repr(x)[:120], None, f"{what} must be an (N, 34) or (34,) count array")
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError):
        raise InvalidCountsError(repr(x)[:120], None, f"{what} must be an (N, 34) or (34,) count array") from None
    if arr.dtype.kind not in "biuf":
        raise InvalidCountsError(f"{what} of dtype {arr.dtype}", None, f"{what} must hold whole numbers")
    return arr


def _prepare(counts: Any, rules: str | RuleSet | None):
    """-> (counts (N,34) uint8 C-contiguous, RuleSet, single: bool, hand or None)."""
    rs = None if rules is None else get_rules(rules)
    hand = _as_hand(counts, None if rs is None else rs.name)
    if hand is not None:
        if rs is not None and rs.name != hand.rules:
            hand = convert_hand(hand, rs.name)
        return hand.counts()[None, :], get_rules(hand.rules), True, hand
    rs = rs if rs is not None else get_rules("mcr")
    if isinstance(counts, (list, tuple)) and counts and isinstance(counts[0], (str, Hand)):
        from .notation import hands_to_counts
        return hands_to_counts(counts, rules=rs.name), rs, False, None
    arr = _as_array(counts, "counts")
    single = arr.ndim == 1
    if single:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != N_KINDS:
        raise InvalidCountsError(f"array of shape {np.shape(counts)}", None,
                                 "counts must have shape (N, 34) or (34,)")
    if arr.dtype != np.uint8:
        if not np.issubdtype(arr.dtype, np.integer):
            with np.errstate(invalid="ignore"):
                whole = np.all(np.equal(np.mod(arr, 1), 0))
            if not whole:
                raise InvalidCountsError(f"array of dtype {arr.dtype}", None,
                                         "counts must be whole numbers")
        bad = np.flatnonzero(((arr < 0) | (arr > 4)).any(axis=1))
        if bad.size:
            _raise_row(arr, int(bad[0]), _k.BAD_COUNT, rs)
        arr = arr.astype(np.uint8)
    return np.ascontiguousarray(arr), rs, single, None


def _raise_row(arr: np.ndarray, row: int, reason: int, rs: RuleSet):
    raw = np.asarray(arr[row])
    with np.errstate(invalid="ignore", over="ignore"):
        r = raw.astype(np.int64)
    text = f"counts row {row}: {raw.tolist()}"
    detail = _REASONS.get(reason, "invalid row")
    if reason == _k.BAD_COUNT:
        t = int(np.flatnonzero((raw < 0) | (raw > 4))[0])
        detail = f"{raw[t].item()} copies of {tile_name(t)} (a count must be 0..4)"
    elif reason in (_k.BAD_TOTAL, _k.BAD_WAIT_TOTAL):
        detail = f"{_REASONS[reason]}: {int(r.sum())} tiles ({rs.name} hands have at most " \
                 f"{rs.hand_size + 1}, and 3k+1 or 3k+2)"
    elif reason == _k.BAD_TILE:
        mask = rs.kind_mask
        t = int(np.flatnonzero((r > 0) & ~mask)[0])
        detail = f"tile {tile_name(t)} is not in the {rs.name} tile set"
    raise InvalidCountsError(text, row, detail)


def _params(rs: RuleSet):
    form_mask = sum(1 << f for f in rs.forms)
    two_player = int(len(rs.kinds) == 16)
    return form_mask, rs.sets, rs.hand_size, two_player


def _run_chunks(fn, n: int, threads: int):
    """Run fn(lo, hi) -> (bad_row, reason) over row chunks; first bad row wins."""
    if threads == 1 or n < 2048:
        return fn(0, n)
    bounds = np.linspace(0, n, threads + 1).astype(np.int64)
    with ThreadPoolExecutor(threads) as ex:
        futs = [ex.submit(fn, int(bounds[i]), int(bounds[i + 1])) for i in range(threads)]
        results = [f.result() for f in futs]
    for i, (row, reason) in enumerate(results):
        if row >= 0:
            return int(bounds[i]) + row, reason
    return -1, 0


# ---------------------------------------------------------------------------------
# shanten
# ---------------------------------------------------------------------------------
def shanten(counts: Any, rules: str | RuleSet | None = None, forms: bool = False,
            threads: int | None = None):
    """Shanten of N hands: int8 (N,) with -1 = complete, 0 = ready.

    ``counts``: (N, 34) concealed counts, a (34,) row, a :class:`Hand` or a hand string
    (then an ``int`` is returned), or a list of Hands / hand strings. ``rules``: ``mcr`` (default), ``taiwan``, ``tuidaohu``,
    ``two_player`` (a Hand's own rule set when omitted; another rule set converts the
    hand when its tiles fit, else a :class:`~mjfast.errors.RuleSetError`). ``threads``:
    how many threads the kernel may use (None = all cores); batches of 2048 rows and more
    are split over them (the kernel releases the GIL).

    With ``forms=True`` the result is a dict: ``"shanten"`` (the minimum) and one int8
    array per winning form of the rule set (``"regular"``, ``"seven_pairs"``,
    ``"thirteen_orphans"``, ``"honors_knitted"``, ``"knitted_straight"``,
    ``"seven_pairs_triplet"``), :data:`NO_FORM` (127) where the row cannot reach the form
    (called melds).

    Raises :class:`~mjfast.errors.InvalidCountsError` naming the first bad row.
    """
    if not isinstance(forms, (bool, np.bool_)):
        raise ArgumentError(repr(forms)[:60], None, "forms must be True or False")
    n_threads = _threads.resolve(threads)
    arr, rs, single, _ = _prepare(counts, rules)
    tab, vec, ct, _ = _k.shanten_tables()
    form_mask, max_sets, hand_size, two_player = _params(rs)
    n = arr.shape[0]
    out = np.empty(n, dtype=np.int8)
    per = np.empty((n if forms else 0, _k.N_FORMS), dtype=np.int8)

    def run(lo, hi):
        return _k.shanten_batch(arr[lo:hi], form_mask, max_sets, hand_size, two_player,
                                tab, vec, ct, out[lo:hi], per[lo:hi] if forms else per)

    row, reason = _run_chunks(run, n, n_threads)
    if row >= 0:
        _raise_row(arr, row, reason, rs)
    if not forms:
        return int(out[0]) if single else out
    res = {"shanten": out}
    for f in rs.forms:
        res[FORM_NAMES[f]] = per[:, f]
    if single:
        return {k: int(v[0]) for k, v in res.items()}
    return res


# ---------------------------------------------------------------------------------
# waits
# ---------------------------------------------------------------------------------
class _WaitsTuple(NamedTuple):
    mask: np.ndarray
    live: np.ndarray


class Waits(_WaitsTuple):
    """Effective tiles of N waiting hands: a NamedTuple ``(mask, live)`` (so
    ``mask, live = waits(...)`` and ``waits(...)[0]`` work) with the shanten beside it.

    - ``mask`` (N, 34) bool: the tiles whose draw lowers the shanten (for a ready hand:
      its winning tiles). A tile the hand holds four of is never in it.
    - ``live`` (N, 34) int8: live copies ``max(0, 4 - held - visible)`` of each tile in
      ``mask``, 0 elsewhere, so ``live.sum(1)`` is the ukeire (:attr:`ukeire`).
    - ``shanten`` (N,) int8 (an int for a single hand).
    """

    def __new__(cls, mask: np.ndarray, live: np.ndarray, shanten: Any):
        self = super().__new__(cls, mask, live)
        self.__dict__["_shanten"] = shanten
        return self

    def __getnewargs__(self):
        return (self.mask, self.live, self.shanten)

    def __setattr__(self, name, value):
        raise AttributeError("Waits is immutable")

    @property
    def shanten(self):
        """(N,) int8 shanten of each hand (an int for a single hand)."""
        return self.__dict__["_shanten"]

    @property
    def ukeire(self) -> np.ndarray:
        """(N,) live copies of all effective tiles."""
        return self.live.sum(axis=-1, dtype=np.int64)

    def __repr__(self) -> str:
        return f"Waits(mask={self.mask!r}, live={self.live!r}, shanten={self.shanten!r})"


def waits(counts: Any, rules: str | RuleSet | None = None, visible: Any = None,
          threads: int | None = None) -> Waits:
    """Effective tiles and live counts of N waiting hands (13, 10, 7, 4, 1 concealed
    tiles; Taiwan 16, 13, ...).

    ``visible``: (N, 34) or (34,) counts of tiles seen elsewhere (discards, other players'
    melds); live = ``max(0, 4 - held - visible)``. For a :class:`Hand` the hand's own melds
    are added to ``visible`` and a tile whose four copies the player holds (melds
    included) is not a wait. A single hand gives (34,) arrays and an int shanten.
    ``threads`` as in :func:`shanten`.
    """
    n_threads = _threads.resolve(threads)
    arr, rs, single, hand = _prepare(counts, rules)
    tab, vec, ct, opt = _k.shanten_tables()
    form_mask, max_sets, hand_size, two_player = _params(rs)
    n = arr.shape[0]
    if visible is None:
        vis = np.zeros((1, N_KINDS), dtype=np.int16)
    else:
        vis = _as_array(visible, "visible")
        if vis.dtype.kind == "f" and not np.all(np.equal(np.mod(vis, 1), 0)):
            raise InvalidCountsError(f"visible of dtype {vis.dtype}", None, "visible must hold whole numbers")
        if vis.ndim == 1:
            vis = vis[None, :]
        if vis.ndim != 2 or vis.shape[1] != N_KINDS or vis.shape[0] not in (1, n):
            raise InvalidCountsError(f"visible of shape {np.shape(visible)}", None,
                                     "visible must have shape (N, 34) or (34,)")
        if vis.size and (vis.min() < 0 or vis.max() > 4):
            row = int(np.flatnonzero(((vis < 0) | (vis > 4)).any(axis=1))[0])
            raise InvalidCountsError(f"visible row {row}: {vis[row].tolist()}", row,
                                     "visible counts must be 0..4")
        vis = np.ascontiguousarray(vis, dtype=np.int16)
    if hand is not None:
        own = np.zeros(N_KINDS, dtype=np.int16)
        for m in hand.melds:
            for tile in m.tiles:
                own[tile] += 1
        vis = vis + own[None, :]
    shan = np.empty(n, dtype=np.int8)
    mask = np.empty((n, N_KINDS), dtype=np.bool_)
    live = np.empty((n, N_KINDS), dtype=np.int8)
    per_row_vis = vis.shape[0] == n and n != 1

    def run(lo, hi):
        v = vis[lo:hi] if per_row_vis else vis
        return _k.waits_batch(arr[lo:hi], v, form_mask, max_sets, hand_size, two_player,
                              tab, vec, ct, opt, shan[lo:hi], mask[lo:hi], live[lo:hi])

    row, reason = _run_chunks(run, n, n_threads)
    if row >= 0:
        _raise_row(arr, row, reason, rs)
    if hand is not None:
        full = hand.all_counts() >= 4
        mask[0, full] = False
        live[0, full] = 0
    if single:
        return Waits(mask[0], live[0], int(shan[0]))
    return Waits(mask, live, shan)


# ---------------------------------------------------------------------------------
# single-hand report (CLI)
# ---------------------------------------------------------------------------------
def report(hand: Any, rules: str | None = None, visible: Any = None) -> dict:
    """The CLI's JSON object for one hand (a :class:`Hand` or a hand string)::

        {"shanten": 1, "effective": [{"tile": "5m", "live": 3}, ...]}
        {"shanten": 0, "effective": [...], "waits": [...]}     # ready: waits = effective

    A complete-size hand (14 tiles; 17 Taiwan) draws nothing before discarding, so its
    ``effective`` list is empty; -1 = complete.
    """
    rs = None if rules is None else get_rules(rules)
    h = _as_hand(hand, None if rs is None else rs.name)
    if h is None:
        raise ArgumentError(repr(hand)[:120], None, "report() takes a Hand or a hand string")
    if rs is not None and rs.name != h.rules:
        h = convert_hand(h, rs.name)
    n_tiles = int(h.counts().sum())
    if n_tiles % 3 == 1:
        w = waits(h, visible=visible)
        sh = int(w.shanten)
        eff = [{"tile": tile_name(t), "live": int(w.live[t])} for t in np.flatnonzero(w.mask)]
    else:
        sh = int(shanten(h))
        eff = []
    out: dict = {"shanten": sh, "effective": eff}
    if sh == 0 and n_tiles % 3 == 1:
        out["waits"] = [dict(e) for e in eff]
    return out


def format_report(d: dict) -> str:
    """Human-readable text of a :func:`report` dict."""
    sh = d["shanten"]
    label = {-1: " (complete)", 0: " (ready)"}.get(sh, "")
    lines = [f"shanten: {sh}{label}"]
    eff = d.get("effective", [])
    if eff:
        total = sum(e["live"] for e in eff)
        tiles = " ".join(f"{e['tile']}x{e['live']}" for e in eff)
        kinds = f"{len(eff)} kind" + ("s" if len(eff) != 1 else "")
        lines.append(f"effective: {kinds}, {total} live: {tiles}")
    if "waits" in d:
        total = sum(e["live"] for e in d["waits"])
        tiles = " ".join(f"{e['tile']}x{e['live']}" for e in d["waits"])
        lines.append(f"waits: {tiles} ({total} live)")
    return "\n".join(lines)


_hand_module.register_layer_function("shanten", shanten)
_hand_module.register_layer_function("waits", waits)
