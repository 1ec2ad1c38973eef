"""The public scoring functions, re-exported by :mod:`mjfast.scoring` and :mod:`mjfast`.

One contract for the four rule sets (``mcr``, ``taiwan``, ``tuidaohu``, ``two_player``):

- ``score(hand, rules=None, variant=None, *, threads=None, **options) -> ScoreResult``
- ``score_batch(batch, rules=None, variant=None, *, threads=None) -> BatchScores``
- ``score_waits(hand, rules=None, visible=None, variant=None, *, threads=None, **situation)``
- ``score_table(df, rules=None, variant=None, column="hand", *, threads=None)``

``rules`` None means the Hand's (or HandBatch's) own rule set, ``mcr`` for strings; a
``rules`` that differs from a Hand's converts it when its tiles fit, else a
:class:`~mjfast.errors.RuleSetError`. ``options`` are the situation keywords of
:func:`mjfast.parse_hand` and the settlement parameters of :data:`SETTLEMENT_PARAMS`; an
unknown keyword is a :class:`~mjfast.errors.SituationError` whatever the rule set, a
settlement parameter the rule set does not use a :class:`~mjfast.errors.RuleSetError`
naming it, a value out of range an :class:`~mjfast.errors.ArgumentError`. ``threads`` is
the number of threads the kernel may use (None = all cores; see :mod:`mjfast._threads`).
Everything is validated here, before the per-rule-set ``score_hand`` / ``score_batch`` /
``score_waits_batch`` of ``mjfast.scoring.<rules>`` run.
"""
from __future__ import annotations

import dataclasses
import importlib
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import _threads
from ..errors import (ArgumentError, HandSizeError, InputError, InvalidCountsError,
                      RuleSetError, SituationError)
from ..hand import Hand, HandBatch
from ..notation import OPTION_NAMES, convert_hand, hand_with_options, parse_hand
from ..rules.registry import get_rules
from ..tiles import N_KINDS, tile_name
from ._params import _ALL_PARAMS, SETTLEMENT_PARAMS, settlement_params
from .result import BatchScores, ScoreResult, WaitScores

_SCORER_MODULES = {"mcr": "mcr", "taiwan": "taiwan", "tuidaohu": "tuidaohu",
                   "two_player": "tuidaohu"}

def scorer_module(rules):
    """The per-rule-set scorer module (``mjfast.scoring.mcr`` ...)."""
    rs = get_rules(rules)
    name = _SCORER_MODULES.get(rs.name)
    try:
        return importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError as exc:  # a rule set whose scorer is not built yet
        raise RuleSetError(rs.name, None, f"no scorer for rule set {rs.name}") from exc


# ---------------------------------------------------------------------------------------
# argument checks
# ---------------------------------------------------------------------------------------
def _check_variant(variant) -> None:
    from ..rules import RuleContext, RuleProfile
    if isinstance(variant, RuleProfile) and variant.rules == "mcr":
        return            # an in-memory MCR profile (mjfast.rules.without_fans)
    if variant is not None and not isinstance(variant, (str, RuleContext)):
        raise ArgumentError(repr(variant)[:60], None,
                            "variant must be a name, a .toml path, a RuleContext, None or "
                            "an MCR RuleProfile")


def _context(rules: str, variant):
    """The rule context of a call, resolved once here at the public edge (an in-memory
    MCR profile passes through)."""
    from ..rules import RuleProfile, rule_context
    if isinstance(variant, RuleProfile):
        return variant
    return rule_context(rules, variant)


def _split_options(options: dict[str, Any], rules: str, settles: bool):
    """-> (situation keywords, settlement parameters), every name and value checked."""
    situation, params = {}, {}
    for k, v in options.items():
        if k in _ALL_PARAMS:
            params[k] = v
        elif k in OPTION_NAMES:
            situation[k] = v
        else:
            raise SituationError(k, None, f"unknown option {k!r} (situation: "
                                 f"{', '.join(sorted(OPTION_NAMES))}; settlement: "
                                 f"{', '.join(_ALL_PARAMS)})")
    params = {k: v for k, v in params.items() if v is not None}
    if params and not settles:
        k = next(iter(params))
        raise ArgumentError(f"{k}={params[k]!r}"[:80], None,
                            "score_waits gives totals, not settlements: it takes no settlement "
                            f"parameter ({', '.join(_ALL_PARAMS)})")
    return situation, settlement_params(rules, params)


def _one_hand(hand, rules, options: dict[str, Any], fn: str, settles: bool):
    """-> (Hand, settlement params, what the caller gave: the string, or the Hand)."""
    if isinstance(hand, str):
        rs = get_rules(rules if rules is not None else "mcr")
        situation, params = _split_options(options, rs.name, settles)
        return parse_hand(hand, rules=rs, **situation), params, hand
    if isinstance(hand, Hand):
        rs = get_rules(rules if rules is not None else hand.rules)
        situation, params = _split_options(options, rs.name, settles)
        h = hand_with_options(convert_hand(hand, rs), situation)
        return h, params, h
    many = "; N hands: score_batch / score_table" if fn == "score" else ""
    raise ArgumentError(_shown(hand), None, f"{fn} takes one Hand or hand string{many}")


def _shown(x) -> str:
    if isinstance(x, np.ndarray):
        return f"array of shape {x.shape} and dtype {x.dtype}"
    return repr(x)[:120]


def _retext(e: InputError, typed) -> InputError:
    """A scorer's error re-addressed to what the caller typed (scorers work on batches
    and name rows; one hand has no row)."""
    return type(e)(typed if isinstance(typed, str) else typed.describe(), None, e.reason)


_BATCH_FIELDS = {"counts": (N_KINDS,), "winning_tile": (), "melds": (5, 4), "n_melds": (),
                 "flowers": (), "flags": (), "seat": (), "prevalent": (), "dealer": (),
                 "discarder": (), "streak": (), "table_discards": ()}
# the 1-D fields a kernel indexes with (the count rows are checked by each scorer, row
# by row, inside its own pass over the batch)
_BATCH_RANGES = {"winning_tile": (-1, 33), "n_melds": (0, 5),
                 "flowers": (0, 8), "seat": (0, 3), "prevalent": (0, 3), "dealer": (0, 3),
                 "discarder": (-1, 3), "streak": (0, 32767), "table_discards": (-1, 32767),
                 "flags": (0, 127)}


def _check_batch(batch, fn: str) -> None:
    """A :class:`HandBatch` with arrays of the right shapes, integer types and ranges."""
    if not isinstance(batch, HandBatch):
        raise ArgumentError(_shown(batch), None,
                            f"{fn} takes a HandBatch (parse_batch(strings) or "
                            "HandBatch.from_hands(hands) builds one)")
    n = None
    for name, tail in _BATCH_FIELDS.items():
        a = getattr(batch, name)
        if not isinstance(a, np.ndarray) or a.dtype.kind not in "iu" or a.ndim != 1 + len(tail) \
                or a.shape[1:] != tail or (n is not None and a.shape[0] != n):
            want = f"({n if n is not None else 'N'}{''.join(', ' + str(d) for d in tail)})"
            raise InvalidCountsError(f"HandBatch.{name}: {_shown(a)}", None,
                                     f"HandBatch.{name} must be an integer array of shape {want}")
        n = a.shape[0]
        lo, hi = _BATCH_RANGES.get(name, (None, None))
        if lo is not None and a.size and (a.min() < lo or a.max() > hi):
            bad = np.flatnonzero((a < lo) | (a > hi))
            if bad.size:
                i = int(bad[0])
                raise InvalidCountsError(f"HandBatch.{name} row {i}: {a[i].tolist()}", i,
                                         f"{name} values must be {lo}..{hi}")
    if not isinstance(batch.rules, str):
        raise ArgumentError(repr(batch.rules)[:60], None, "HandBatch.rules must be a rule set name")


def _check_visible(visible) -> np.ndarray | None:
    """``visible`` as a (1, 34) uint8 row: copies of each tile seen elsewhere."""
    if visible is None:
        return None
    hint = ("visible counts the copies of each tile seen elsewhere: a (34,) array of 0..4 "
            "(tile names: mjfast.hands_to_counts or numpy.bincount of tile ids)")
    if isinstance(visible, (str, bytes, Mapping)):
        raise ArgumentError(_shown(visible), None, hint)
    try:
        arr = np.asarray(visible)
    except (ValueError, TypeError):
        raise ArgumentError(_shown(visible), None, hint) from None
    if arr.dtype.kind not in "biuf":
        raise ArgumentError(_shown(visible), None, hint)
    if arr.size != N_KINDS or arr.ndim not in (1, 2):
        raise ArgumentError(f"visible of shape {arr.shape}", None,
                            f"visible must have 34 counts, got {arr.size}: {hint}")
    arr = arr.reshape(N_KINDS)
    if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)) \
            or arr.min() < 0 or arr.max() > 4:
        t = int(np.flatnonzero(~np.isfinite(arr) | (arr != np.round(arr)) | (arr < 0) | (arr > 4))[0])
        raise InvalidCountsError(f"visible {arr.tolist()}", t,
                                 f"visible[{t}] ({tile_name(t)}) is {arr[t]}: counts must be 0..4")
    return arr.astype(np.uint8).reshape(1, N_KINDS)


# ---------------------------------------------------------------------------------------
# the four functions
# ---------------------------------------------------------------------------------------
def score(hand: Hand | str, rules: str | None = None, variant: str | None = None, *,
          threads: int | None = None, **options) -> ScoreResult:
    """Score one complete hand (a :class:`Hand` or any accepted hand string).

    ``options`` are situation keywords (``self_drawn``, ``discarder``, ``seat``...) that
    override the hand's own, and the settlement parameters the rule set uses
    (:data:`SETTLEMENT_PARAMS`: ``base``, ``unit``, ``fee``, ``chips``,
    ``eighth_flower``). ``threads``: threads the kernel may use (None = all cores).
    """
    _check_variant(variant)
    _threads.resolve(threads)
    h, params, typed = _one_hand(hand, rules, options, "score", True)
    try:
        with _threads.numba_threads(threads):
            return scorer_module(h.rules).score_hand(h, variant=_context(h.rules, variant),
                                                     **params)
    except InputError as e:
        raise _retext(e, typed) from None


def score_batch(batch: HandBatch, rules: str | None = None, variant: str | None = None, *,
                threads: int | None = None) -> BatchScores:
    """Score N complete hands held as a :class:`HandBatch` (compiled kernel).

    ``rules`` None = the batch's own rule set. ``threads``: threads the kernel may use
    (None = all cores)."""
    _check_variant(variant)
    _threads.resolve(threads)
    _check_batch(batch, "score_batch")
    if rules is not None and get_rules(rules).name != get_rules(batch.rules).name:
        batch = dataclasses.replace(batch, rules=get_rules(rules).name)
    with _threads.numba_threads(threads):
        return scorer_module(batch.rules).score_batch(batch,
                                                      variant=_context(batch.rules, variant))


def score_waits(hand: Hand | str, rules: str | None = None, visible=None,
                variant: str | None = None, *, threads: int | None = None,
                **situation) -> list[dict[str, Any]]:
    """Every winning tile of a ready hand with its totals on a discard and a self-draw,
    legality and live count: a list of dicts ``{"tile", "total_discard",
    "total_self_drawn", "legal_discard", "legal_self_drawn", "live"}``.

    ``visible``: (34,) counts of tiles seen elsewhere (0..4 each), for ``live``.
    """
    _check_variant(variant)
    _threads.resolve(threads)
    h, _, typed = _one_hand(hand, rules, situation, "score_waits", False)
    vis = _check_visible(visible)
    rs = get_rules(h.rules)
    if h.winning_tile is not None:
        raise HandSizeError(typed if isinstance(typed, str) else typed.describe(), None,
                            f"score_waits needs a ready hand ({rs.hand_size} tiles, melds counted "
                            f"as 3, no winning tile); this one has {h.size}: score it with score()")
    batch = HandBatch.from_hands([h])
    try:
        with _threads.numba_threads(threads):
            ws = scorer_module(h.rules).score_waits_batch(batch, vis,
                                                          variant=_context(h.rules, variant))
    except InputError as e:
        raise _retext(e, typed) from None
    out = []
    for t in np.flatnonzero(ws.wins[0]):
        out.append({"tile": tile_name(int(t)),
                    "total_discard": int(ws.total_discard[0, t]),
                    "total_self_drawn": int(ws.total_self_drawn[0, t]),
                    "legal_discard": bool(ws.legal_discard[0, t]),
                    "legal_self_drawn": bool(ws.legal_self_drawn[0, t]),
                    "live": int(ws.live[0, t])})
    return out


def score_table(df, rules: str | None = None, variant: str | None = None, column: str = "hand",
                *, threads: int | None = None):
    """Score a Polars DataFrame (or Arrow table) with a hand-string column (``hand``).

    Returns a Polars DataFrame with the input columns plus ``total``, ``legal``,
    ``fan_ids`` (list), ``fan_counts`` (list) and ``fans`` (list of {id, points, count},
    the datasets' shape). Rows that do not parse or are not
    complete get null scores and an ``error`` message (nothing is dropped).
    """
    import polars as pl
    import pyarrow as pa

    from ..notation import parse_batch

    _check_variant(variant)
    _threads.resolve(threads)
    rs = get_rules(rules if rules is not None else "mcr")
    if isinstance(df, (pa.Table, pa.RecordBatch)):
        df = pl.from_arrow(df)
    if not isinstance(df, pl.DataFrame):
        raise ArgumentError(_shown(df), None,
                            "score_table takes a Polars DataFrame or an Arrow table with a "
                            "hand-string column (a list of strings: pl.DataFrame({'hand': strings}))")
    if not isinstance(column, str):
        raise ArgumentError(repr(column)[:60], None, "column must be a column name (str)")
    if column not in df.columns:
        raise ArgumentError(f"column {column!r}", None,
                            f"the table has no column {column!r} (columns: "
                            f"{', '.join(df.columns) or 'none'}); name it with column=")
    strings = df.get_column(column)
    if strings.dtype not in (pl.String, pl.Null):
        raise ArgumentError(f"column {column!r} ({strings.dtype})", None,
                            "the hand column must hold strings")
    from ._arrow import score_strings   # chunked, parsed on every thread, Arrow lists
    t = pl.from_arrow(score_strings(strings.cast(pl.String), rs.name, _context(rs.name, variant),
                                    threads))
    return df.with_columns(t.get_column("total"), t.get_column("legal"),
                           t.get_column("fan_ids"), t.get_column("fan_counts"),
                           t.get_column("fans"), t.get_column("error").cast(pl.String))


__all__ = ["score", "score_batch", "score_table", "score_waits", "scorer_module",
           "SETTLEMENT_PARAMS"]
