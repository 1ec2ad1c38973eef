"""The random-hand generator: seeded complete / ready hands for every rule set.

``random_hands(n, rules, kind, seed)`` returns a :class:`~mjfast.hand.HandBatch` built by
one compiled kernel (:mod:`mjfast.kernels._generate`). Hand ``i`` depends only on
``(seed, i)`` (a counter-based stream per hand), so the batch is the same bytes whatever
the thread count, and ``random_hands(n + k, ...)`` starts with ``random_hands(n, ...)``.
The mix of forms, tile pools, fan patterns, meld counts and situations per rule set is
below (``MIXES``) and documented in ``docs/generator.md``.
"""
from __future__ import annotations

import operator
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._threads import resolve as _resolve_threads
from .errors import ArgumentError, RuleSetError
from .hand import HandBatch
from .rules.registry import (FORM_HONORS_KNITTED, FORM_KNITTED_STRAIGHT, FORM_SEVEN_PAIRS,
                             FORM_SEVEN_PAIRS_TRIPLET, FORM_THIRTEEN_ORPHANS, get_rules)

KINDS = ("complete", "ready", "wall")

# The documented mix per rule set (docs/generator.md). Form probabilities of forms a rule
# set lacks are dropped (that share goes to regular hands).
_BASE = dict(seven_pairs=0.0, orphans=0.0, honors_knitted=0.0, knitted_straight=0.0,
             nine_gates=0.0, seven_pairs_triplet=0.0, shifted_pairs=0.2, pattern=0.3,
             kong=0.2, self_drawn=0.45, fourth_tile=0.0, last_tile=0.05, kong_win=0.1,
             original_ready=0.0, first_turn=0.0, flowers=0.0, flower_max=0,
             streak_max=0, table_discards=0.0, table_discards_max=0)
MIXES: dict[str, dict] = {
    "mcr": {**_BASE, "seven_pairs": 0.06, "orphans": 0.03, "honors_knitted": 0.04,
            "knitted_straight": 0.04, "nine_gates": 0.03, "pattern": 0.6, "kong": 0.22,
            "fourth_tile": 0.12, "last_tile": 0.08, "flowers": 0.45, "flower_max": 8},
    "taiwan": {**_BASE, "seven_pairs_triplet": 0.05, "kong": 0.15, "self_drawn": 0.5,
               "fourth_tile": 0.05, "original_ready": 0.03, "first_turn": 0.02,
               "flowers": 0.6, "flower_max": 7, "streak_max": 3, "table_discards": 0.5,
               "table_discards_max": 59},
    "tuidaohu": {**_BASE, "seven_pairs": 0.1, "kong": 0.25, "self_drawn": 0.4,
                 "first_turn": 0.02},
    "two_player": {**_BASE, "seven_pairs": 0.1, "kong": 0.25, "self_drawn": 0.4,
                   "first_turn": 0.02},
}
_FORM_OF = {"seven_pairs": FORM_SEVEN_PAIRS, "orphans": FORM_THIRTEEN_ORPHANS,
            "honors_knitted": FORM_HONORS_KNITTED, "knitted_straight": FORM_KNITTED_STRAIGHT,
            "seven_pairs_triplet": FORM_SEVEN_PAIRS_TRIPLET}
_SPECIAL = ("seven_pairs", "orphans", "honors_knitted", "knitted_straight", "nine_gates",
            "seven_pairs_triplet")
_NINE_GATES_RULES = ("mcr",)      # the nine-gates shape is a fan only in MCR


def _params(rs, kind: str, melds: int | None, special: float | None):
    from .kernels import _generate as _k
    mix = dict(MIXES[rs.name])
    for name, form in _FORM_OF.items():
        if form not in rs.forms:
            mix[name] = 0.0
    if rs.name not in _NINE_GATES_RULES:
        mix["nine_gates"] = 0.0
    if special is not None:
        total = sum(mix[s] for s in _SPECIAL)
        for s in _SPECIAL:
            mix[s] = mix[s] * special / total if total else 0.0
    if not rs.flowers:
        mix["flowers"], mix["flower_max"] = 0.0, 0
    p = np.zeros(_k.N_P, dtype=np.float64)
    for key, idx in (("seven_pairs", _k.P_SEVEN_PAIRS), ("orphans", _k.P_ORPHANS),
                     ("honors_knitted", _k.P_HONORS_KNITTED),
                     ("knitted_straight", _k.P_KNITTED_STRAIGHT),
                     ("nine_gates", _k.P_NINE_GATES),
                     ("seven_pairs_triplet", _k.P_SEVEN_PAIRS_TRIPLET),
                     ("pattern", _k.P_PATTERN), ("kong", _k.P_KONG),
                     ("self_drawn", _k.P_SELF_DRAWN), ("fourth_tile", _k.P_FOURTH_TILE),
                     ("last_tile", _k.P_LAST_TILE), ("kong_win", _k.P_KONG_WIN),
                     ("original_ready", _k.P_ORIGINAL_READY), ("first_turn", _k.P_FIRST_TURN),
                     ("flowers", _k.P_FLOWERS), ("table_discards", _k.P_TABLE_DISCARDS),
                     ("shifted_pairs", _k.P_SHIFTED_PAIRS)):
        p[idx] = mix[key]
    q = np.zeros(_k.N_Q, dtype=np.int64)
    q[_k.Q_SETS] = rs.sets
    q[_k.Q_PLAYERS] = rs.players
    q[_k.Q_CHOW_CLAIM] = int(rs.chow_allowed)
    q[_k.Q_FLOWER_MAX] = mix["flower_max"]
    q[_k.Q_STREAK_MAX] = mix["streak_max"]
    q[_k.Q_TABLE_DISCARDS_MAX] = mix["table_discards_max"]
    q[_k.Q_READY] = int(kind == "ready")
    q[_k.Q_MELDS] = -1 if melds is None else melds
    return p, q


def _int_arg(name: str, value, lo: int, hi: int | None = None) -> int:
    try:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError
        v = operator.index(value)
    except TypeError:
        raise ArgumentError(repr(value), None, f"{name} must be an integer") from None
    if v < lo or (hi is not None and v > hi):
        rng = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise ArgumentError(repr(value), None, f"{name} must be {rng}")
    return v


def random_hands(n: int, rules: str = "mcr", kind: str = "complete", seed: int = 0, *,
                 melds: int | None = None, special: float | None = None,
                 tiles: int | None = None, threads: int | None = None) -> HandBatch:
    """``n`` random hands of rule set ``rules`` as a :class:`HandBatch`.

    ``kind="complete"``: winning hands (winning tile drawn uniformly among the concealed
    tiles) with a random situation; ``kind="ready"``: the same hands less that tile
    (no winning tile, no win-specific flags). ``seed`` (0..2**64-1) fixes the batch;
    hand ``i`` depends only on ``(seed, i)``. ``melds`` fixes the number of melds of the
    regular-form hands (default: uniform 0..sets, at least the kongs); ``special``
    replaces the total probability of the special forms (seven pairs, thirteen orphans,
    knitted forms, nine gates, seven pairs + triplet), shared in the documented ratios.
    ``kind="wall"``: ``tiles`` tiles (default the rule set's hand size) drawn uniformly
    without replacement from the rule set's wall, as concealed counts only (no melds,
    no winning tile, default situation): random hands, mostly far from ready.
    ``threads``: worker threads (None = all, see :mod:`mjfast._threads`); the result does
    not depend on it. The mix is documented in ``docs/generator.md``.
    """
    n = _int_arg("n", n, 0)
    if not isinstance(rules, str):
        raise RuleSetError(repr(rules), None, "rules must be a rule-set name")
    rs = get_rules(rules)
    if kind not in KINDS:
        raise ArgumentError(repr(kind), None, f"kind must be one of {', '.join(KINDS)}")
    seed = _int_arg("seed", seed, 0, 2**64 - 1)
    if melds is not None:
        melds = _int_arg("melds", melds, 0, rs.sets)
    if tiles is not None:
        if kind != "wall":
            raise ArgumentError(repr(tiles), None, 'tiles is for kind="wall" only')
        tiles = _int_arg("tiles", tiles, 0, rs.win_size)
    if kind == "wall" and (melds is not None or special is not None):
        raise ArgumentError(kind, None, 'melds and special are not for kind="wall"')
    if special is not None:
        if isinstance(special, (bool, np.bool_)) or not isinstance(special, (int, float, np.floating, np.integer)) \
                or not 0.0 <= float(special) <= 1.0:
            raise ArgumentError(repr(special), None, "special must be a probability in 0..1")
        special = float(special)
    threads = _resolve_threads(threads)
    # the kernels load here, at the first call: reading MIXES (a job's plan) loads none
    from .kernels import _generate as _k
    b = HandBatch.empty(n, rs.name)
    if kind == "wall":
        size = rs.hand_size if tiles is None else tiles
        kinds = np.array(rs.kinds, dtype=np.int64)
        _run(n, threads, lambda a, z: _k.draw_range(np.uint64(seed), a, z, kinds, size, b.counts))
        return b
    p, q = _params(rs, kind, melds, special)
    args = (rs.kind_mask, p, q, b.counts, b.winning_tile, b.melds, b.n_melds, b.flowers,
            b.flags, b.seat, b.prevalent, b.dealer, b.discarder, b.streak, b.table_discards)
    useed = np.uint64(seed)
    _run(n, threads, lambda a, z: _k.generate_range(useed, a, z, *args))
    return b


def _run(n: int, threads: int, fill) -> None:
    """``fill(start, stop)`` over row chunks, on ``threads`` threads (the kernels release
    the GIL; each row depends only on its index, so the split changes nothing)."""
    chunk = max(4096, -(-n // (4 * threads)))
    bounds = [(a, min(n, a + chunk)) for a in range(0, n, chunk)]
    if threads == 1 or len(bounds) <= 1:
        for a, z in bounds:
            fill(a, z)
    else:
        with ThreadPoolExecutor(threads) as ex:
            list(ex.map(lambda az: fill(*az), bounds))


__all__ = ["random_hands"]
