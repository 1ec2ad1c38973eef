"""The winning hands of the ``wins`` table, read back from the ``events`` table, so that a
win can be scored again (under a rule profile with a fan switched off: the fan-value
analysis's pivotal share).

This is bookkeeping of the record, not a rule of play: the winner's concealed tiles are
the tiles dealt and drawn to him less those he discarded or put into melds (a chow gives
up the two tiles it completes, a pung two, an exposed kong three, a concealed kong four,
an added kong one), plus the winning tile when it came from another player; his melds are
his CHOW / PUNG / KONG rows in order (an added kong upgrades its pung); flowers are his
FLOWER rows; the situation is the win's own flag bits (``wins.flags``: the scorer's
situation bits), his seat wind and the deal's prevalent wind. Every hand read back is
scored with the partition's own rules and kept only when that gives the recorded total
and fans exactly (:func:`winning_hands` ``ok``), so a hand the record does not determine
(a concealed kong whose tile a log hides, a truncated deal) is counted, never guessed.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from ..hand import MELD_ADDED, MELD_CONCEALED, HandBatch

K_DEAL, K_DRAW, K_FLOWER, K_DISCARD, K_CHOW, K_PUNG = 0, 1, 2, 3, 4, 5
K_KONG_EXPOSED, K_KONG_CONCEALED, K_KONG_ADDED = 6, 7, 8
KINDS = (K_DEAL, K_DRAW, K_FLOWER, K_DISCARD, K_CHOW, K_PUNG, K_KONG_EXPOSED,
         K_KONG_CONCEALED, K_KONG_ADDED)
MELD_KINDS = (K_CHOW, K_PUNG, K_KONG_EXPOSED, K_KONG_CONCEALED, K_KONG_ADDED)


def winning_hands(wins: pl.DataFrame, events: pl.LazyFrame, deals: pl.LazyFrame,
                  rules: str, variant) -> tuple[HandBatch, np.ndarray]:
    """The hands of ``wins`` (one partition's rows: rules, variant, deal_id, step, winner,
    self_drawn, discarder, tile, flags, total, fans) as a :class:`HandBatch` in the same
    order, and ``ok``: the rows whose hand, scored with ``variant`` (a name, path or
    :class:`~mjfast.rules.RuleProfile`), gives the recorded total and fans."""
    from ..scoring import score_batch, take_rows
    n = wins.height
    batch = HandBatch.empty(n, rules)
    ok = np.zeros(n, dtype=bool)
    if n == 0:
        return batch, ok
    key = wins.select("deal_id", pl.col("step").alias("wstep"), "winner").with_row_index("row")
    rv = wins.select("rules", "variant").row(0)
    ev = (events.filter((pl.col("rules") == rv[0]) & (pl.col("variant") == rv[1])
                        & pl.col("kind").is_in(list(KINDS)))
          .select("deal_id", "seq", "kind", "player", "tile", "aux", "target")
          .join(key.lazy(), on="deal_id", how="inner")
          .filter((pl.col("seq") < pl.col("wstep")) & (pl.col("player") == pl.col("winner")))
          .sort("row", "seq"))
    ev = ev.collect()
    dl = (deals.filter((pl.col("rules") == rv[0]) & (pl.col("variant") == rv[1]))
          .select("deal_id", "prevalent", "dealer", "seats", "streak")
          .join(key.lazy().select("row", "deal_id"), on="deal_id", how="inner")
          .sort("row").collect())
    have_deal = np.zeros(n, dtype=bool)
    have_deal[dl["row"].to_numpy()] = True
    row = ev["row"].to_numpy().astype(np.int64)
    kind = ev["kind"].to_numpy().astype(np.int64)
    tile = ev["tile"].to_numpy().astype(np.int64)
    aux = ev["aux"].to_numpy().astype(np.int64)
    target = ev["target"].to_numpy().astype(np.int64)
    counts = np.zeros((n, 34), dtype=np.int64)
    hidden = np.zeros(n, dtype=bool)
    flowers = np.zeros(n, dtype=np.int64)
    # concealed tiles: + dealt / drawn, - discarded / melded
    regular = (tile >= 0) & (tile < 34)
    hid = (tile < 0) & np.isin(kind, (K_DEAL, K_DRAW, K_DISCARD, K_CHOW, K_PUNG,
                                      K_KONG_EXPOSED, K_KONG_CONCEALED, K_KONG_ADDED))
    np.logical_or.at(hidden, row[hid], True)
    np.add.at(flowers, row[kind == K_FLOWER], 1)
    for k, d in ((K_DEAL, 1), (K_DRAW, 1), (K_DISCARD, -1), (K_PUNG, -2),
                 (K_KONG_EXPOSED, -3), (K_KONG_CONCEALED, -4), (K_KONG_ADDED, -1)):
        s = (kind == k) & regular
        np.add.at(counts, (row[s], tile[s]), d)
    ch = (kind == K_CHOW) & regular & (aux >= 0) & (aux < 32)
    np.add.at(counts, (row[ch], tile[ch]), 1)
    for off in range(3):
        np.add.at(counts, (row[ch], aux[ch] + off), -1)
    w_self = wins["self_drawn"].fill_null(False).to_numpy()
    w_tile = wins["tile"].fill_null(-1).to_numpy().astype(np.int64)
    w_winner = wins["winner"].to_numpy().astype(np.int64)
    w_disc = wins["discarder"].fill_null(-1).to_numpy().astype(np.int64)
    take_in = (~w_self) & (w_tile >= 0) & (w_tile < 34)
    np.add.at(counts, (np.flatnonzero(take_in), w_tile[take_in]), 1)
    # melds, in order
    melds = np.full((n, 5, 4), -1, dtype=np.int8)
    melds[:, :, 1:] = 0
    n_melds = np.zeros(n, dtype=np.int64)
    bad_meld = np.zeros(n, dtype=bool)
    is_meld = np.isin(kind, MELD_KINDS) & regular
    for i in np.flatnonzero(is_meld):
        r, k, t = row[i], kind[i], tile[i]
        off = int((w_winner[r] - target[i]) % 4) if target[i] >= 0 else 1
        if k == K_KONG_ADDED:
            hit = [j for j in range(n_melds[r]) if melds[r, j, 0] == 1 and melds[r, j, 1] == t]
            if not hit:
                bad_meld[r] = True
                continue
            melds[r, hit[0], 0] = 2
            melds[r, hit[0], 2] = MELD_ADDED
            continue
        if n_melds[r] >= 5:
            bad_meld[r] = True
            continue
        j = n_melds[r]
        if k == K_CHOW:
            melds[r, j] = (0, aux[i], 0, t - aux[i] + 1)
        elif k == K_PUNG:
            melds[r, j] = (1, t, 0, off or 1)
        elif k == K_KONG_EXPOSED:
            melds[r, j] = (2, t, 0, off or 1)
        else:
            melds[r, j] = (2, t, MELD_CONCEALED, 0)
        n_melds[r] += 1
    seats = dl["seats"].to_list()
    prevalent = np.zeros(n, dtype=np.int64)
    seat = np.zeros(n, dtype=np.int64)
    dealer = np.zeros(n, dtype=np.int64)
    disc = np.full(n, -1, dtype=np.int64)
    streak = np.zeros(n, dtype=np.int64)
    for r_, pv, dlr, st, sk in zip(dl["row"].to_list(), dl["prevalent"].to_list(),
                                  dl["dealer"].to_list(), seats, dl["streak"].to_list()):
        st = list(st) if st is not None else [0, 1, 2, 3]
        w = int(w_winner[r_])
        prevalent[r_] = int(pv or 0)
        seat[r_] = int(st[w]) if w < len(st) else 0
        dealer[r_] = int(st[int(dlr)]) if dlr is not None and int(dlr) < len(st) else 0
        if not w_self[r_] and 0 <= w_disc[r_] < len(st):
            disc[r_] = int(st[int(w_disc[r_])])
        streak[r_] = int(sk or 0)
    valid = (have_deal & ~hidden & ~bad_meld & (counts.min(axis=1) >= 0)
             & (counts.max(axis=1) <= 4) & (w_tile >= 0) & (w_tile < 34))
    valid &= counts.sum(axis=1) == 14 - 3 * n_melds
    valid &= counts[np.arange(n), np.clip(w_tile, 0, 33)] > 0
    counts = np.clip(counts, 0, 4)
    flags = wins["flags"].fill_null(0).to_numpy().astype(np.int64) & 0x7F
    batch = HandBatch(counts.astype(np.uint8), np.where(valid, w_tile, -1).astype(np.int8),
                      melds, n_melds.astype(np.uint8), np.minimum(flowers, 8).astype(np.uint8),
                      flags.astype(np.uint16), seat.astype(np.int8), prevalent.astype(np.int8),
                      dealer.astype(np.int8), disc.astype(np.int8), streak.astype(np.int16),
                      np.full(n, -1, np.int16), rules)
    idx = np.flatnonzero(valid)
    if idx.size:
        sc = score_batch(take_rows(batch, idx), variant=variant,
                                threads=1 if idx.size < 4096 else None)
        total = wins["total"].fill_null(-2).to_numpy().astype(np.int64)[idx]
        good = sc.totals.astype(np.int64) == total
        rec = wins["fans"].to_list()
        for j, i in enumerate(idx):
            if not good[j]:
                continue
            want = sorted((int(f["id"]), int(f["count"])) for f in (rec[i] or []))
            got = [(int(f), int(sc.fan_counts[j, f])) for f in np.flatnonzero(sc.fan_counts[j])]
            good[j] = want == got
        ok[idx[good]] = True
    return batch, ok


__all__ = ["winning_hands", "take"]
