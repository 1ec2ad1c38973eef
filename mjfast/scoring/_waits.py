"""The one way a ready hand's waits are scored (``score_waits`` and the hands job alike).

The winning tiles come from the shanten tables (:func:`mjfast.waits`: the tiles that
complete a ready hand, for every winning form of the rule set), then only the (hand, tile)
pairs that win go through the batch scorer, once as a discard win and once as a
self-draw; its fan matrix gives the totals, legality and the fan lists in one pass. A
tile the player already holds four of (melds included) is no wait.

The situation of each way follows the rule set (:data:`WAIT_FLAGS`): a discard win drops
the self-draw and kong-replacement bits; a self-draw drops robbing-a-kong (MCR keeps the
kong replacement only on the self-draw and robbing-a-kong only on the discard, and with
``visible`` sets 和绝张 when the three other copies are visible); Taiwan's self-draw has no
discarder.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..hand import FOURTH_TILE, KONG_REPLACEMENT, ROBBING_KONG, SELF_DRAWN
from ._rows import run_pairs


@dataclass
class WaitPairs:
    """Every (row, tile) wait of a batch of ready hands, in row then tile order."""
    row: np.ndarray            # (K,) int64 hand row
    tile: np.ndarray           # (K,) int64 winning tile
    live: np.ndarray           # (N, 34) int16 copies left (4 - held - visible, >= 0)
    discard: tuple             # (fan_counts (K, F) int16, totals int32, legal bool, extra)
    self_drawn: tuple


def take_rows(batch, idx: np.ndarray):
    """Rows ``idx`` of a :class:`~mjfast.hand.HandBatch` (a new batch, arrays copied)."""
    return type(batch)(**{f.name: (getattr(batch, f.name)[idx] if f.name != "rules"
                                   else batch.rules) for f in dataclasses.fields(batch)})


def meld_counts(batch) -> np.ndarray:
    """(N, 34) int16: the tiles of each hand's called melds (a kong counts four)."""
    from ..kernels import meld_tile_counts
    out = np.empty((len(batch), 34), dtype=np.int16)
    melds = np.ascontiguousarray(batch.melds, dtype=np.int8).reshape(len(batch), -1, 4)
    meld_tile_counts(melds, np.ascontiguousarray(batch.n_melds, dtype=np.uint8), out)
    return out


def _flags_mcr(flags, fourth):
    base = flags & np.uint16(~(SELF_DRAWN | FOURTH_TILE | KONG_REPLACEMENT | ROBBING_KONG) & 0xFFFF)
    base = base | fourth
    return (base | (flags & np.uint16(ROBBING_KONG)),
            base | np.uint16(SELF_DRAWN) | (flags & np.uint16(KONG_REPLACEMENT)))


def _flags_plain(flags, fourth):
    return (flags & np.uint16(~(SELF_DRAWN | KONG_REPLACEMENT) & 0xFFFF),
            (flags | np.uint16(SELF_DRAWN)) & np.uint16(~ROBBING_KONG & 0xFFFF))


# rules -> (flags of the two ways, whether the self-draw drops the discarder)
WAIT_FLAGS = {"mcr": (_flags_mcr, False), "taiwan": (_flags_plain, True),
              "tuidaohu": (_flags_plain, False), "two_player": (_flags_plain, False)}


def pair_flags(batch, r: np.ndarray, t: np.ndarray, mc: np.ndarray,
               visible: np.ndarray | None):
    """The flags of each (hand ``r[k]``, winning tile ``t[k]``) pair on a discard and on a
    self-draw (:data:`WAIT_FLAGS`; with ``visible``, 和绝张 when the three other copies are
    in sight: visible or in the hand's melds, none held), and whether the self-draw keeps
    the discarder. ``mc``: :func:`meld_counts` of the batch."""
    flags_of, drop_discarder = WAIT_FLAGS[batch.rules]
    fourth = np.zeros(r.size, dtype=np.uint16)
    if visible is not None:
        vis = np.asarray(visible, np.int16)
        fourth = np.where((vis[r, t] + mc[r, t] >= 3) & (np.asarray(batch.counts)[r, t] == 0),
                          np.uint16(FOURTH_TILE), np.uint16(0)).astype(np.uint16)
    fl_d, fl_s = flags_of(np.asarray(batch.flags, np.uint16)[r], fourth)
    return fl_d, fl_s, not drop_discarder


def wait_pairs(batch, ctx: np.ndarray, visible: np.ndarray | None = None,
               threads: int | None = None) -> WaitPairs:
    """Score every wait of the ready hands in ``batch`` (rows that are not ready have
    none) with context ``ctx``; ``visible`` (N, 34) copies seen elsewhere or None."""
    from .._shanten import waits as find_waits
    n = len(batch)
    counts = np.asarray(batch.counts)
    mc = meld_counts(batch)
    held = counts.astype(np.int16) + mc
    w = find_waits(counts, batch.rules, visible=mc, threads=threads)
    ready = np.asarray(w.shanten) == 0
    r, t = np.nonzero(np.asarray(w.mask, dtype=bool) & ready[:, None] & (held < 4))
    vis = np.zeros((n, 34), dtype=np.int16) if visible is None else np.asarray(visible, np.int16)
    live = np.maximum(4 - held - vis, 0).astype(np.int16)
    fl_d, fl_s, keep_discarder = pair_flags(batch, r, t, mc, visible)
    discard, self_drawn = run_pairs(batch, r, t, fl_d, fl_s, keep_discarder, ctx)
    if not (np.all(discard[1] >= 0) and np.all(self_drawn[1] >= 0)):
        raise RuntimeError("a winning tile from the shanten tables does not complete the "
                           "hand for the scorer (a bug)")
    return WaitPairs(r.astype(np.int64), t.astype(np.int64), live, discard, self_drawn)


def wait_grid(pairs: WaitPairs, n: int):
    """The (N, 34) arrays of ``WaitScores`` (wins, totals, legality; -1 / False where the
    tile is not a wait) from :func:`wait_pairs`."""
    wins = np.zeros((n, 34), dtype=np.bool_)
    td = np.full((n, 34), -1, dtype=np.int32)
    ts = np.full((n, 34), -1, dtype=np.int32)
    ld = np.zeros((n, 34), dtype=np.bool_)
    ls = np.zeros((n, 34), dtype=np.bool_)
    r, t = pairs.row, pairs.tile
    wins[r, t] = True
    td[r, t] = pairs.discard[1]
    ts[r, t] = pairs.self_drawn[1]
    ld[r, t] = pairs.discard[2]
    ls[r, t] = pairs.self_drawn[2]
    return wins, td, ts, ld, ls
