"""Turn-level measures of discard decisions, in batch (the ``turns`` and ``candidates``
tables). Everything here runs on arrays through the public batch kernels
(:func:`mjfast.shanten`, :func:`mjfast.waits`, the waits scorer of ``score_waits_batch``); a
decision is a snapshot of the player's hand taken by the replay.

Definitions (also in ``docs/replay.md``):

- the 14-tile hand's shanten, per form of the rule set and the best;
- after a discard ``d``: the 13-tile shanten, the effective tiles (tiles whose draw lowers
  it) and their live copies ``max(0, 4 - own hand - own melds - visible)`` where visible is
  what the player can know: every unclaimed discard (``d`` included) and the other players'
  exposed melds;
- a ready hand's waits, each scored on a discard and on a self-draw with legality
  (``score_waits_batch``) and each way's fan list (from the same scoring pass: the
  complete hand of each wait with those situation flags). MCR: 和绝张 holds for a wait whose
  three other copies are visible; each distinct ready hand (tiles, melds, winds, flowers,
  和绝张 tiles) is scored once per batch;
- ``value`` of a candidate: sum over its waits of live copies x the best legal total
  (discard or self-draw; 0 when neither is legal); 0 when not ready;
- ranks (1 = best, ties share a rank): by efficiency (shanten after, then live effective
  tiles, more is better); by value (value, then efficiency).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from .._shanten import shanten as _shanten, waits as _waits
from ..datasets import FANS, WAIT, schema
from ..hand import HandBatch
from ..kernels import context_of
from ..rules import RuleContext, RuleProfile, get_rules, rule_context
from ..scoring import wait_grid, wait_pairs


@dataclass
class Decisions:
    """N discard decisions (snapshots taken by the replay before each DISCARD)."""
    deal_ids: list[str]
    deal: np.ndarray        # (N,) int32 index into deal_ids
    step: np.ndarray        # (N,) int32 seq of the DISCARD event
    player: np.ndarray      # (N,) int8
    turn: np.ndarray        # (N,) int16 the player's n-th discard, from 1
    counts: np.ndarray      # (N, 34) uint8 concealed hand before the discard (14-tile size)
    discard: np.ndarray     # (N,) int8
    melds: np.ndarray       # (N, 5, 4) int8 HandBatch meld rows
    n_melds: np.ndarray     # (N,) uint8
    flowers: np.ndarray     # (N,) uint8
    seat: np.ndarray        # (N,) int8 seat wind
    prevalent: np.ndarray   # (N,) int8
    own_meld: np.ndarray    # (N, 34) int16 tiles in the player's melds
    vis_other: np.ndarray   # (N, 34) int16 unclaimed discards + others' exposed melds

    def __len__(self) -> int:
        return len(self.step)

    @staticmethod
    def concat(parts: list["Decisions"]) -> "Decisions":
        parts = [p for p in parts if p is not None]
        ids: list[str] = []
        base = 0
        deals = []
        for p in parts:
            deals.append(p.deal + base)
            ids.extend(p.deal_ids)
            base += len(p.deal_ids)
        cat = {f: np.concatenate([getattr(p, f) for p in parts])
               for f in ("step", "player", "turn", "counts", "discard", "melds", "n_melds",
                         "flowers", "seat", "prevalent", "own_meld", "vis_other")}
        return Decisions(ids, np.concatenate(deals), **cat)


@dataclass
class _Measures:
    shanten_after: np.ndarray   # (M,) int8
    mask: np.ndarray            # (M, 34) effective tiles
    live: np.ndarray            # (M, 34) live copies (0 outside mask)
    wins: np.ndarray            # (M, 34) winning tiles (ready rows)
    td: np.ndarray
    ts: np.ndarray
    ld: np.ndarray
    ls: np.ndarray
    value: np.ndarray           # (M,) float64
    fan_idx: np.ndarray         # (M, 34) int32: the wait's row in fans_d / fans_s, -1 none
    fans_d: pa.Array | None = None    # list<FAN> per distinct wait (discard)
    fans_s: pa.Array | None = None    # list<FAN> per distinct wait (self-draw)

    ARRAYS = ("shanten_after", "mask", "live", "wins", "td", "ts", "ld", "ls", "value",
              "fan_idx")

    def take(self, rows: np.ndarray) -> "_Measures":
        return _Measures(*(getattr(self, f)[rows] for f in self.ARRAYS),
                         fans_d=self.fans_d, fans_s=self.fans_s)

    @property
    def effective_live(self) -> np.ndarray:
        return self.live.sum(axis=1, dtype=np.int64).astype(np.int16)


def _pair_fans(pairs, n: int, rules: str, variant) -> tuple[np.ndarray, pa.Array, pa.Array]:
    """The fan lists of every wait of :func:`mjfast.scoring.wait_pairs` (its
    discard and self-draw fan matrices): (n, 34) int32 wait index (-1 where no wait) and
    the two ``list<FAN>`` arrays, in the pairs' (row, tile) order."""
    from ..scoring import fan_lists, fan_points
    idx = np.full((n, 34), -1, np.int32)
    idx[pairs.row, pairs.tile] = np.arange(pairs.row.size, dtype=np.int32)
    good = np.ones(pairs.row.size, dtype=bool)
    out = []
    for fan_counts, _, _, _ in (pairs.discard, pairs.self_drawn):
        pts = fan_points(rules, variant, fan_counts.shape[1])
        out.append(fan_lists(np.array(fan_counts), pts, good)[0])
    return idx, out[0], out[1]


def _evaluate(dec: Decisions, rows: np.ndarray, tiles: np.ndarray, rules: str,
              variant: str | None, wait_fans: bool = True) -> _Measures:
    """Measures of discarding ``tiles[i]`` at decision ``rows[i]``."""
    m = len(rows)
    counts = dec.counts[rows].astype(np.int16)
    counts[np.arange(m), tiles] -= 1
    counts13 = counts.astype(np.uint8)
    own = dec.own_meld[rows]
    vis = dec.vis_other[rows].copy()
    vis[np.arange(m), tiles] += 1
    seen = np.clip(own + vis, 0, 4).astype(np.int16)
    w = _waits(counts13, rules, visible=seen, threads=1)
    sh = np.asarray(w.shanten, dtype=np.int8)
    mask = np.asarray(w.mask)
    live = np.asarray(w.live, dtype=np.int16)
    wins = np.zeros((m, 34), bool)
    td = np.full((m, 34), -1, np.int32)
    ts = np.full((m, 34), -1, np.int32)
    ld = np.zeros((m, 34), bool)
    ls = np.zeros((m, 34), bool)
    fan_idx = np.full((m, 34), -1, np.int32)
    fans_d = fans_s = None
    ready = np.flatnonzero(sh == 0)
    if ready.size:
        r = rows[ready]
        mcr = get_rules(rules).name == "mcr"
        fourth = (seen[ready] >= 3) if mcr else np.zeros((ready.size, 34), bool)
        key = np.concatenate([counts13[ready], dec.melds[r].reshape(ready.size, -1).view(np.uint8),
                              dec.n_melds[r, None].astype(np.uint8),
                              dec.flowers[r, None].astype(np.uint8),
                              dec.seat[r, None].view(np.uint8),
                              dec.prevalent[r, None].view(np.uint8),
                              np.packbits(fourth, axis=1)], axis=1)
        key = np.ascontiguousarray(key)
        _, first, inv = np.unique(key.view(np.dtype((np.void, key.shape[1]))).ravel(),
                                  return_index=True, return_inverse=True)
        u = ready[first]
        ur = rows[u]
        b = HandBatch.empty(len(u), get_rules(rules).name)
        b.counts[:] = counts13[u]
        b.melds[:] = dec.melds[ur]
        b.n_melds[:] = dec.n_melds[ur]
        b.flowers[:] = dec.flowers[ur]
        b.seat[:] = dec.seat[ur]
        b.prevalent[:] = dec.prevalent[ur]
        vis_u = (3 * fourth[first]).astype(np.int64) if mcr else None
        # one scoring pass per way: the totals and the fan lists come from the same fan
        # matrices (what score_waits_batch and score_batch of each wait computed apart)
        profile = (variant if isinstance(variant, RuleProfile)
                   else rule_context(b.rules, variant).profile)
        pairs = wait_pairs(b, context_of(profile), vis_u)
        w_u, td_u, ts_u, ld_u, ls_u = wait_grid(pairs, len(u))
        inv = inv.ravel()
        wins[ready] = w_u[inv]
        td[ready] = td_u[inv]
        ts[ready] = ts_u[inv]
        ld[ready] = ld_u[inv]
        ls[ready] = ls_u[inv]
        if wait_fans:
            widx, fans_d, fans_s = _pair_fans(pairs, len(u), b.rules, variant)
            fan_idx[ready] = widx[inv]
    best = np.maximum(np.where(ld, td, 0), np.where(ls, ts, 0))
    value = (np.where(wins, best, 0) * live).sum(axis=1).astype(np.float64)
    return _Measures(sh, mask, live, wins, td, ts, ld, ls, value, fan_idx, fans_d, fans_s)


def _group_rank(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Rank (1 = smallest key, ties share) of each row within its group."""
    n = len(key)
    if n == 0:
        return np.zeros(0, np.int16)
    order = np.lexsort((key, group))
    g, k = group[order], key[order]
    idx = np.arange(n)
    new_group = np.concatenate(([True], g[1:] != g[:-1]))
    new_key = new_group | np.concatenate(([True], k[1:] != k[:-1]))
    gstart = np.maximum.accumulate(np.where(new_group, idx, 0))
    kstart = np.maximum.accumulate(np.where(new_key, idx, 0))
    rank = np.empty(n, np.int64)
    rank[order] = kstart - gstart + 1
    return rank.astype(np.int16)


def _list_of_tiles(mask: np.ndarray) -> pa.Array:
    r, c = np.nonzero(mask)
    off = np.zeros(mask.shape[0] + 1, np.int32)
    np.cumsum(np.bincount(r, minlength=mask.shape[0]), out=off[1:])
    return pa.ListArray.from_arrays(pa.array(off), pa.array(c.astype(np.int8)))


def _waits_column(me: _Measures) -> pa.Array:
    r, c = np.nonzero(me.wins)
    n = me.wins.shape[0]
    off = np.zeros(n + 1, np.int32)
    np.cumsum(np.bincount(r, minlength=n), out=off[1:])
    k = len(r)
    fields = [pa.array(c.astype(np.int8)), pa.array(me.live[r, c].astype(np.int8)),
              pa.array(me.td[r, c].astype(np.int32)), pa.array(me.ts[r, c].astype(np.int32)),
              pa.array(me.ld[r, c]), pa.array(me.ls[r, c])]
    for fans in (me.fans_d, me.fans_s):
        fields.append(pa.nulls(k, FANS) if fans is None else
                      fans.take(pa.array(me.fan_idx[r, c].astype(np.int64))))
    values = pa.StructArray.from_arrays(fields, fields=list(WAIT))
    return pa.ListArray.from_arrays(pa.array(off), values)


def _deal_id_column(dec: Decisions, rows: np.ndarray) -> pa.Array:
    ids = pa.DictionaryArray.from_arrays(pa.array(dec.deal[rows], pa.int32()),
                                         pa.array(dec.deal_ids, pa.string()))
    return ids.cast(pa.string())


def turn_tables(dec: Decisions, ctx: RuleContext, candidates: bool = False,
                wait_fans: bool = True, source: str = "replay") -> tuple[pa.Table, pa.Table | None]:
    """The ``turns`` table of these decisions under the rule context ``ctx`` (and
    ``candidates`` when asked); ``wait_fans``: each wait's fan lists (else null);
    ``source``: the rows' ``source`` column."""
    n = len(dec)
    rs = ctx.structure
    variant = ctx
    all_rows = np.arange(n)
    if n:
        sh = _shanten(dec.counts, rs.name, forms=True, threads=1)
        from ..rules.registry import FORM_NAMES
        forms = np.stack([np.asarray(sh[FORM_NAMES[f]], np.int8) for f in rs.forms], axis=1)
        best14 = np.asarray(sh["shanten"], np.int8)
    else:
        forms = np.zeros((0, len(rs.forms)), np.int8)
        best14 = np.zeros(0, np.int8)
    cand_table = None
    if candidates and n:
        held = dec.counts > 0
        crow, ctile = np.nonzero(held)
        cm = _evaluate(dec, crow, ctile, rs.name, variant, wait_fans)
        eff_key = (cm.shanten_after.astype(np.int64) + 1) * 1024 + (1023 - cm.effective_live)
        val_key = -np.round(cm.value).astype(np.int64) * (1 << 20) + eff_key
        r_eff = _group_rank(crow, eff_key)
        r_val = _group_rank(crow, val_key)
        chosen = ctile == dec.discard[crow].astype(np.int64)
        cand_table = pa.Table.from_pydict({
            "deal_id": _deal_id_column(dec, crow), "step": pa.array(dec.step[crow], pa.int32()),
            "player": pa.array(dec.player[crow], pa.int8()),
            "discard": pa.array(ctile.astype(np.int8)), "chosen": pa.array(chosen),
            "shanten_after": pa.array(cm.shanten_after), "effective_live": pa.array(cm.effective_live),
            "waits": _waits_column(cm), "value": pa.array(cm.value),
            "rank_efficiency": pa.array(r_eff), "rank_value": pa.array(r_val)},
            schema=schema("candidates"))
        pick = np.flatnonzero(chosen)
        # one chosen row per decision (the discard is held, by the engine's check)
        me = cm.take(pick)
    else:
        me = _evaluate(dec, all_rows, dec.discard.astype(np.int64), rs.name, variant, wait_fans)
    off = np.arange(0, (n + 1) * forms.shape[1], forms.shape[1], dtype=np.int32)
    turns = pa.Table.from_pydict({
        "deal_id": _deal_id_column(dec, all_rows), "step": pa.array(dec.step, pa.int32()),
        "player": pa.array(dec.player, pa.int8()), "turn": pa.array(dec.turn, pa.int16()),
        "shanten": pa.array(best14, pa.int8()),
        "shanten_forms": pa.ListArray.from_arrays(pa.array(off), pa.array(forms.reshape(-1))),
        "discard": pa.array(dec.discard, pa.int8()),
        "shanten_after": pa.array(me.shanten_after, pa.int8()),
        "effective": _list_of_tiles(me.mask), "effective_live": pa.array(me.effective_live),
        "waits": _waits_column(me), "source": pa.array([source] * n, pa.string())},
        schema=schema("turns"))
    return turns, cand_table
