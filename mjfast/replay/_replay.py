"""The replay driver: log chunks in (the readers of :mod:`mjfast.formats`), the engine's
fold, the project's tables out.

:func:`replay_chunk` replays one chunk of deals; :func:`iter_replay` yields one
:class:`ReplayShard` per chunk; :func:`replay` gathers them, or, with ``out`` (or
``workers``), runs the replay job (:mod:`._job`) on the job runner. Tables (schemas in
:mod:`mjfast.datasets`): ``deals``, ``events``, ``turns``, ``candidates`` (opt-in),
``wins``, ``win_chances``, ``discrepancies``, ``quarantine``. Deals in = replayed +
quarantined, always. The rule context is resolved once, at the entry point
(:func:`log_context`), and handed down.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import pyarrow as pa

from ..datasets import EventKind as K, Events, conform, events_to_arrow, schema
from ..errors import ArgumentError, RuleSetError
from ..formats import CAN_HU_NONE, LogChunk, expand_paths, get_format
from ..rules import RuleContext, rule_context

SOURCE = "replay"            # the tables' ``source`` column
TABLE_NAMES = ("deals", "events", "turns", "candidates", "wins", "win_chances",
               "discrepancies", "quarantine")


@dataclass
class ReplayStats:
    """Counts that add across shards."""
    deals_in: int = 0
    replayed: int = 0
    quarantined: int = 0
    wins: int = 0
    draws: int = 0
    discrepancies: int = 0
    can_hu_compared: int = 0
    turns: int = 0

    def __iadd__(self, o: "ReplayStats") -> "ReplayStats":
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(o, k))
        return self

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass
class ReplayShard:
    index: int
    source: str
    tables: dict[str, pa.Table]
    stats: ReplayStats


@dataclass
class ReplayResult:
    """The tables (in memory; none when written to a dataset), the stats, and with
    ``out`` the dataset's folder and the runner's summary."""
    tables: dict[str, pa.Table]
    stats: ReplayStats = field(default_factory=ReplayStats)
    path: str | None = None
    summary: object | None = None

    def __getitem__(self, name: str) -> pa.Table:
        return self.tables[name]


# ---------------------------------------------------------------------------------------
# inputs and the rule context
# ---------------------------------------------------------------------------------------
def _recorded_context(path: Path, fmt: str, rules: str) -> RuleContext | None:
    """The rule context the project's own events of ``path`` were written with (their
    dataset's manifest, or the JSON-lines header), None when nothing records it."""
    mod = get_format(fmt)
    recorded = getattr(mod, "recorded_variants", None)
    if recorded is not None:
        records = recorded(path)
    else:
        rv = mod.recorded_variant(path) if hasattr(mod, "recorded_variant") else None
        records = [] if rv is None else [{"rules": rv[0], "variant": rv[1]}]
    parts = Path(path).parts
    label = next((x[len("variant="):] for x in parts if x.startswith("variant=")), None)
    mine = [r for r in records if r.get("rules") == rules
            and (label is None or r.get("variant") == label)]
    ids = {(r["rules"], r["variant"], r.get("hash")) for r in mine}
    if not ids:
        return None
    if len(ids) > 1:
        raise RuleSetError(str(path), None, "the events were written under several variants "
                                            f"({', '.join(sorted(r[1] for r in ids))}): replay "
                                            "one partition at a time, or give --variant")
    rec = mine[0]
    if "profile" in rec:
        return RuleContext.from_record(rec)
    return rule_context(rules, rec["variant"])


def log_context(paths: Iterable[Path], fmt: str, rules: str | RuleContext = "mcr",
                variant: str | RuleContext | None = None) -> RuleContext:
    """THE rule context of a replay, resolved once: ``rules`` / ``variant`` as given, or,
    with no variant, the rules the logs were produced under
    (:func:`mjfast.rules.produced_variant`): Botzone logs ``botzone`` (MCR); the project's
    own events what their dataset's manifest (or JSON-lines header) records -- one
    context for every file (else an error), the default tables where nothing records it."""
    if isinstance(rules, RuleContext) or variant is not None:
        return rule_context(rules, variant)
    mod = get_format(fmt)
    name = rule_context(rules).rules
    if mod.SOURCE is not None:
        return rule_context(name, source=mod.SOURCE)
    found = {c for c in (_recorded_context(Path(p), fmt, name) for p in paths) if c is not None}
    if len(found) > 1:
        raise RuleSetError(", ".join(sorted(c.variant_id for c in found)), None,
                           "the files were written under different rules: replay them "
                           "separately, or give --variant")
    return found.pop() if found else rule_context(name)


def read_chunks(paths: Iterable[str | os.PathLike], fmt: str, chunk_deals: int = 2000,
                rules: str | RuleContext = "mcr", variant: str | None = None) -> Iterator[LogChunk]:
    """The chunks of format ``fmt``'s reader over every file (deal ids checked unique
    across files), read under the replay's rule context (:func:`log_context`)."""
    files = expand_paths(paths, fmt)
    ctx = log_context(files, fmt, rules, variant)
    yield from get_format(fmt).read(files, ctx, chunk_deals=chunk_deals, seen=set())


# ---------------------------------------------------------------------------------------
# the fold
# ---------------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _fold_context(ctx: RuleContext):
    """The engine's context ``(P, profile arrays, workspace)`` for ``ctx`` (the engine's
    public :func:`mjfast.engine.make_context`) and the fan points."""
    from ..engine import make_context
    fold_ctx = make_context(ctx.rules, ctx.arg)
    points = np.asarray(ctx.profile.points_array(128), dtype=np.int32)
    return fold_ctx, points


def _describe(ev: Events, r: int) -> str:
    from ..tiles import tile_name
    k = int(ev.kind[r])
    t = int(ev.tile[r])
    try:
        name = K(k).name
    except ValueError:
        name = str(k)
    tn = tile_name(t) if 0 <= t < 42 else "-"
    return f"{name} player {int(ev.player[r])} tile {tn}"


def _fans_list(counts_row: np.ndarray, points: np.ndarray) -> list[tuple[int, int, int]]:
    ids = np.flatnonzero(counts_row)
    return [(int(i), int(points[i]), int(counts_row[i])) for i in ids]


def replay_chunk(chunk: LogChunk, rules: str | RuleContext = "mcr", variant: str | None = None,
                 candidates: bool = False, index: int = 0) -> ReplayShard:
    """Replay one chunk through the engine under ``rules`` / ``variant`` (or a
    :class:`~mjfast.rules.RuleContext`) and build every table."""
    from ..engine.layout import ERROR_MESSAGES, MAX_FANS, WALL_BOTZONE, WALL_STANDARD
    from ..tiles import tile_name
    from . import _fold
    from ._turns import Decisions, turn_tables
    from .._shanten import waits as _waits

    rctx = rule_context(rules, variant)
    rules = rctx.rules
    ev = chunk.events
    deals = chunk.deals
    nd = len(deals)
    ne = len(ev)
    ctx, points = _fold_context(rctx)
    starts = np.searchsorted(ev.deal, np.arange(nd + 1)).astype(np.int64)
    i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
    kind, player, tile = i64(ev.kind), i64(ev.player), i64(ev.tile)
    aux, target, flags = i64(ev.aux), i64(ev.target), i64(ev.flags)
    dealer = np.array([d.dealer for d in deals], np.int64)
    prevalent = np.array([d.prevalent for d in deals], np.int64)
    streak = np.array([d.streak for d in deals], np.int64)
    seats = np.full((nd, 4), -1, np.int64)
    walls = np.zeros((nd, 144), np.int8)
    wall_len = np.zeros(nd, np.int64)
    wall_mode = np.zeros(nd, np.int64)
    for i, d in enumerate(deals):
        if d.seats is not None:
            seats[i, :len(d.seats)] = d.seats
        if d.wall is not None and len(d.wall):
            walls[i, :len(d.wall)] = d.wall
            wall_len[i] = len(d.wall)
        wall_mode[i] = WALL_BOTZONE if d.botzone_wall else WALL_STANDARD

    # ---- pass 1: fold, quarantine, snapshots ------------------------------------------
    err = np.zeros(nd, np.int32)
    err_row = np.full(nd, -1, np.int64)
    wall_bad = np.full(ne, -1, np.int64)
    n_disc = int((ev.kind == K.DISCARD).sum())
    dec_row = np.zeros(n_disc, np.int64)
    dec_counts = np.zeros((n_disc, 34), np.uint8)
    dec_melds = np.zeros((n_disc, 5, 4), np.int8)
    dec_nm = np.zeros(n_disc, np.uint8)
    dec_fl = np.zeros(n_disc, np.uint8)
    dec_seat = np.zeros(n_disc, np.int8)
    dec_prev = np.zeros(n_disc, np.int8)
    dec_own = np.zeros((n_disc, 34), np.int16)
    dec_vis = np.zeros((n_disc, 34), np.int16)
    dec_turn = np.zeros(n_disc, np.int16)
    snaps = np.zeros((ne + 4 * nd + 1, 34), np.uint8)
    snap_of = np.full((ne, 4), -1, np.int32)
    n_dec, n_snap = _fold.fold_snapshots(
        ctx, kind, player, tile, aux, target, flags, starts, dealer, prevalent, streak,
        seats, walls, wall_len, wall_mode, err, err_row, wall_bad,
        dec_row, dec_counts, dec_melds, dec_nm, dec_fl, dec_seat, dec_prev, dec_own,
        dec_vis, dec_turn, snaps, snap_of)
    good = err == 0
    quarantine = list(chunk.quarantine)
    for i in np.flatnonzero(~good):
        r = int(err_row[i])
        d = deals[i]
        e = int(err[i])
        reason = ("truncated: the events end before the deal does" if e == -1 else
                  f"rejected by the engine: {ERROR_MESSAGES.get(e, e)}")
        if r >= 0:
            reason += f" ({_describe(ev, r)})"
        quarantine.append({"source": d.source, "deal_id": d.deal_id,
                           "line": int(chunk.line[r]) if r >= 0 else None,
                           "step": int(ev.seq[r]) if r >= 0 else None,
                           "reason": reason, "rows": int(starts[i + 1] - starts[i])})

    # ---- winning tiles of every waiting snapshot (batch) --------------------------------
    wins_mask = np.zeros((max(n_snap, 1), 34), np.bool_)
    if n_snap:
        w = _waits(snaps[:n_snap], rules, threads=1)
        wins_mask[:n_snap] = np.asarray(w.mask) & (np.asarray(w.shanten) == 0)[:, None]

    # ---- pass 2: wins, win chances ----------------------------------------------------
    can_hu = np.ascontiguousarray(chunk.can_hu.astype(np.int64))
    out_flags = flags.copy()
    cap = 4 * ne + 1
    c_row = np.zeros(cap, np.int64); c_player = np.zeros(cap, np.int64)
    c_tile = np.zeros(cap, np.int64); c_self = np.zeros(cap, np.bool_)
    c_total = np.zeros(cap, np.int64); c_legal = np.zeros(cap, np.bool_)
    c_flags = np.zeros(cap, np.int64); c_logged = np.zeros(cap, np.int64)
    n_win_ev = int((ev.kind == K.WIN).sum()) + 1
    w_row = np.zeros(n_win_ev, np.int64); w_player = np.zeros(n_win_ev, np.int64)
    w_tile = np.zeros(n_win_ev, np.int64); w_from = np.zeros(n_win_ev, np.int64)
    w_evflags = np.zeros(n_win_ev, np.int64); w_total = np.zeros(n_win_ev, np.int64)
    w_legal = np.zeros(n_win_ev, np.bool_); w_sit = np.zeros(n_win_ev, np.int64)
    w_scores = np.zeros((n_win_ev, 4), np.int64)
    w_fans = np.zeros((n_win_ev, MAX_FANS), np.int32)
    d_scores = np.zeros((nd, 4), np.int64)
    d_seats = np.zeros((nd, 4), np.int64)
    d_ended = np.zeros(nd, np.int64)
    n_ch, n_w = _fold.fold_results(
        ctx, kind, player, tile, aux, target, flags, starts, dealer, prevalent, streak,
        seats, walls, wall_len, wall_mode, good, snap_of, wins_mask, can_hu, out_flags,
        c_row, c_player, c_tile, c_self, c_total, c_legal, c_flags, c_logged,
        w_row, w_player, w_tile, w_from, w_evflags, w_total, w_legal, w_sit, w_scores,
        w_fans, d_scores, d_seats, d_ended)

    ev_deal = ev.deal
    good_idx = np.flatnonzero(good)
    disc: list[dict] = []

    def add_disc(i, step, player_, what, logged, computed, detail=None):
        disc.append({"source": deals[i].source, "deal_id": deals[i].deal_id,
                     "step": step, "player": player_, "what": what, "logged": logged,
                     "computed": computed, "detail": detail})

    # wall discrepancies (good deals)
    for r in np.flatnonzero(wall_bad >= 0):
        i = int(ev_deal[r])
        if good[i]:
            add_disc(i, int(ev.seq[r]), int(ev.player[r]), "wall_draw",
                     tile_name(int(ev.tile[r])), tile_name(int(wall_bad[r])),
                     "the logged draw differs from the logged wall")

    # ---- wins table + comparisons --------------------------------------------------------
    win_rows = []
    win_of_deal: dict[int, list[int]] = {}
    for j in range(n_w):
        r = int(w_row[j])
        i = int(ev_deal[r])
        win_of_deal.setdefault(i, []).append(j)
    for j in range(n_w):
        r = int(w_row[j])
        i = int(ev_deal[r])
        d = deals[i]
        fans = _fans_list(w_fans[j], points)
        scores = [int(x) for x in w_scores[j]]
        if chunk.logged_in_events:
            logged_total = int(ev.total[r]) if ev.total[r] >= 0 else None
            logged_fans = [(a, c) for a, _, c in ev.fans_of(r)]
            logged_scores = [int(x) for x in ev.scores[r]]
        else:
            last = j == win_of_deal[i][-1]
            logged_total = d.logged_total if last else None
            logged_scores = d.logged_scores if last else None
            logged_fans = [(a, c) for a, _, c in d.logged_fans]
        win_rows.append({"deal_id": d.deal_id, "step": int(ev.seq[r]),
                         "winner": int(w_player[j]), "self_drawn": bool(w_from[j] < 0),
                         "discarder": int(w_from[j]) if w_from[j] >= 0 else None,
                         "tile": int(w_tile[j]), "flags": int(w_sit[j]),
                         "total": int(w_total[j]), "legal": bool(w_legal[j]),
                         "logged_total": logged_total,
                         "fans": [{"id": a, "points": b, "count": c} for a, b, c in fans],
                         "scores": scores, "logged_scores": logged_scores, "source": SOURCE})
        if logged_total is not None:
            step = int(ev.seq[r])
            p = int(w_player[j])
            if logged_total != int(w_total[j]):
                add_disc(i, step, p, "fan_total", str(logged_total), str(int(w_total[j])))
            lf = sorted(logged_fans)
            cf = sorted((a, c) for a, _, c in fans)
            if lf != cf:
                add_disc(i, step, p, "fans", _fan_text(lf), _fan_text(cf))
            if chunk.logged_in_events and logged_scores != scores:
                add_disc(i, step, p, "scores", " ".join(map(str, logged_scores)),
                         " ".join(map(str, scores)))
            if not chunk.logged_in_events:
                for name, cnt in d.unknown_fans:
                    add_disc(i, step, p, "fan_name", f"{name}*{cnt}", None,
                             "a fan name the rule profile does not know (add it as an alias)")
    for i in good_idx:
        d = deals[i]
        if d.logged_scores is not None:
            comp = [int(x) for x in d_scores[i]]
            if list(d.logged_scores) != comp:
                js = win_of_deal.get(int(i))
                step = int(ev.seq[int(w_row[js[-1]])]) if js else None
                add_disc(int(i), step, None, "scores", " ".join(map(str, d.logged_scores)),
                         " ".join(map(str, comp)))

    # ---- win chances + canHu ------------------------------------------------------------
    ch = slice(0, n_ch)
    c_row_, c_total_ = c_row[ch], c_total[ch]
    c_logged_ = c_logged[ch]
    for k in np.flatnonzero((c_logged_ != CAN_HU_NONE) &
                            (np.where(c_logged_ == -3, -1, c_logged_) != c_total_)):
        r = int(c_row_[k])
        add_disc(int(ev_deal[r]), int(ev.seq[r]), int(c_player[k]), "can_hu",
                 str(int(c_logged_[k])), str(int(c_total_[k])),
                 f"{'self-drawn' if c_self[k] else 'on'} {tile_name(int(c_tile[k]))}"
                 " (-3 = not complete, -1 = not complete here)")
    compared = 0
    if chunk.has_can_hu and ne:
        rows_good = good[ev_deal]
        on_draw = (ev.kind == K.DRAW)[:, None] & (np.arange(4)[None, :] == ev.player[:, None])
        on_offer = (np.isin(ev.kind, [K.DISCARD, K.KONG_ADDED])[:, None]
                    & (np.arange(4)[None, :] != ev.player[:, None]))
        compared = int(((chunk.can_hu != CAN_HU_NONE) & (on_draw | on_offer)
                        & rows_good[:, None]).sum())
    done = c_total_ >= 0
    chance_tbl = conform("win_chances", {
        "deal_id": [deals[int(ev_deal[r])].deal_id for r in c_row_[done]],
        "step": pa.array(ev.seq[c_row_[done]], pa.int32()),
        "player": pa.array(c_player[ch][done].astype(np.int8)),
        "tile": pa.array(c_tile[ch][done].astype(np.int8)),
        "self_drawn": pa.array(c_self[ch][done]),
        "total": pa.array(c_total_[done].astype(np.int32)),
        "legal": pa.array(c_legal[ch][done]),
        "logged_total": pa.array(c_logged_[done].astype(np.int32),
                                 mask=c_logged_[done] == CAN_HU_NONE)})

    # ---- events (the engine's results on WIN rows) -------------------------------------
    out_ev = _replayed_events(ev, good, out_flags, w_row[:n_w], w_total[:n_w],
                              w_scores[:n_w], w_fans[:n_w], points)

    # ---- deals -------------------------------------------------------------------------
    deal_rows = []
    for i in good_idx:
        d = deals[i]
        js = win_of_deal.get(int(i), [])
        j = js[0] if js else None
        deal_rows.append({
            "deal_id": d.deal_id, "game_id": d.game_id, "deal_index": d.deal_index,
            "source": SOURCE, "log_file": d.source, "seed": d.seed, "prevalent": d.prevalent,
            "dealer": d.dealer, "streak": d.streak,
            "seats": [int(x) for x in d_seats[i]], "start_scores": None,
            "wall": None if d.wall is None else [int(x) for x in d.wall],
            "bots": d.bots, "permutation": None, "draw": bool(d_ended[i] == 2),
            "n_wins": len(js),
            "winner": int(w_player[j]) if j is not None else None,
            "self_drawn": bool(w_from[j] < 0) if j is not None else None,
            "discarder": int(w_from[j]) if j is not None and w_from[j] >= 0 else None,
            "total": int(w_total[j]) if j is not None else None,
            "fans": ([{"id": a, "points": b, "count": c}
                      for a, b, c in _fans_list(w_fans[j], points)] if j is not None else None),
            "scores": [int(x) for x in d_scores[i]],
            "n_events": int(starts[i + 1] - starts[i])})

    # ---- turns / candidates ---------------------------------------------------------------
    keep = good[ev_deal[dec_row[:n_dec]]] if n_dec else np.zeros(0, bool)
    rows = dec_row[:n_dec][keep]
    sel = np.flatnonzero(keep)
    dec = Decisions(list(ev.deal_ids), ev.deal[rows].astype(np.int32),
                    ev.seq[rows].astype(np.int32), ev.player[rows].astype(np.int8),
                    dec_turn[sel], dec_counts[sel], ev.tile[rows].astype(np.int8),
                    dec_melds[sel], dec_nm[sel], dec_fl[sel], dec_seat[sel], dec_prev[sel],
                    dec_own[sel], np.maximum(dec_vis[sel], 0))
    turns, cands = turn_tables(dec, rctx, candidates=candidates, source=SOURCE)

    tables = {
        "deals": conform("deals", pa.Table.from_pylist(deal_rows, schema=schema("deals"))),
        "events": events_to_arrow(out_ev),
        "turns": turns,
        "wins": pa.Table.from_pylist(win_rows, schema=schema("wins")),
        "win_chances": chance_tbl,
        "discrepancies": pa.Table.from_pylist(disc, schema=schema("discrepancies")),
        "quarantine": pa.Table.from_pylist(quarantine, schema=schema("quarantine")),
    }
    if candidates:
        tables["candidates"] = cands if cands is not None else schema("candidates").empty_table()
    stats = ReplayStats(deals_in=chunk.n_in, replayed=int(good.sum()),
                        quarantined=len(quarantine), wins=n_w,
                        draws=int((d_ended[good_idx] == 2).sum()),
                        discrepancies=len(disc), can_hu_compared=compared, turns=len(turns))
    return ReplayShard(index, chunk.source, tables, stats)


def _fan_text(items) -> str:
    return "+".join(f"{a}*{c}" for a, c in items)


def _replayed_events(ev: Events, good: np.ndarray, out_flags: np.ndarray, w_row, w_total,
                     w_scores, w_fans, points) -> Events:
    """The good deals' events with the engine's flags and, on WIN rows, its results
    (rows selected and deals renumbered with array operations)."""
    keep = good[ev.deal] if len(ev) else np.zeros(0, bool)
    rows = np.flatnonzero(keep)
    n = len(rows)
    new_index = np.cumsum(good) - 1
    pos = np.full(len(ev), -1, np.int64)
    pos[rows] = np.arange(n)
    total = ev.total[rows].astype(np.int32)
    scores = np.zeros((n, ev.players), np.int32)
    lengths = np.zeros(n, np.int32)
    fid, fpt, fct = [], [], []
    order = np.argsort(w_row, kind="stable")
    for j in order:
        r = int(pos[int(w_row[j])])
        total[r] = int(w_total[j])
        scores[r] = w_scores[j][:ev.players]
        f = _fans_list(w_fans[j], points)
        lengths[r] = len(f)
        for a, b, c in f:
            fid.append(a); fpt.append(b); fct.append(c)
    offsets = np.zeros(n + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return Events(deal_ids=[d for d, g in zip(ev.deal_ids, good) if g],
                  deal=new_index[ev.deal[rows]].astype(np.int32), seq=ev.seq[rows],
                  kind=ev.kind[rows], player=ev.player[rows], tile=ev.tile[rows],
                  aux=ev.aux[rows], target=ev.target[rows],
                  flags=out_flags[rows].astype(np.int8), total=total, scores=scores,
                  fan_offsets=offsets, fan_id=np.array(fid, np.int16),
                  fan_points=np.array(fpt, np.int32), fan_count=np.array(fct, np.int16),
                  players=ev.players)


# ---------------------------------------------------------------------------------------
# public entry points
# ---------------------------------------------------------------------------------------
def _check_workers(workers) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArgumentError(str(workers), None, "workers must be a positive integer")


def _paths(paths) -> list:
    return [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)


def iter_replay(paths, fmt: str, rules: str | RuleContext = "mcr", variant: str | None = None,
                candidates: bool = False, chunk_deals: int = 2000,
                workers: int = 1) -> Iterator[ReplayShard]:
    """Replay every deal of ``paths`` (files, folders, globs); one shard per chunk of
    ``chunk_deals`` deals, in input order. ``fmt``: a format of :mod:`mjfast.formats`
    (``botzone`` text, ``botzone-json``, ``jsonl``, ``events``: Parquet ``events``
    files, mjfast dataset folders, JSON lines). ``variant`` None: the rules the logs were
    produced under (:func:`log_context`: ``botzone`` for Botzone logs). ``workers`` > 1:
    the replay job runs on the job runner's process pool (into a temporary folder) and
    its shards (one per file, or per piece of a text file) come back in input order."""
    paths = _paths(paths)
    _check_workers(workers)
    if workers > 1:
        yield from _job_shards(paths, fmt, rules, variant, candidates, chunk_deals, workers)
        return
    files = expand_paths(paths, fmt)
    ctx = log_context(files, fmt, rules, variant)
    chunks = get_format(fmt).read(files, ctx, chunk_deals=chunk_deals, seen=set())
    for i, chunk in enumerate(chunks):
        yield replay_chunk(chunk, ctx, candidates=candidates, index=i)


def replay_text_range(path, start: int, end: int, line0: int = 0,
                      rules: str | RuleContext = "mcr", variant: str | None = None,
                      candidates: bool = False, seen: Iterable[str] = (),
                      index: int = 0) -> ReplayShard:
    """Replay the Botzone text deals in bytes ``start:end`` of ``path`` (a piece cut right
    before a ``Match`` line, or at the file's start; line ``line0 + 1`` is its first) as
    one shard: the unit the job gives a worker, so memory is bounded by the piece, not
    the file. ``seen``: deal ids that earlier pieces of the file hold (a repeat is
    quarantined, as in a whole-file read)."""
    ctx = log_context([Path(path)], "botzone", rules, variant)
    piece = {"start": start, "end": end, "line0": line0, "seen": list(seen)}
    chunk = get_format("botzone").read_piece(path, piece, ctx)
    return replay_chunk(chunk, ctx, candidates=candidates, index=index)


def gather(shards: Iterable[ReplayShard], candidates: bool = False) -> "ReplayResult":
    """Every table of ``shards`` concatenated (an empty table of the schema where none
    has rows) and their stats added."""
    stats = ReplayStats()
    parts: dict[str, list[pa.Table]] = {}
    for shard in shards:
        stats += shard.stats
        for name, t in shard.tables.items():
            parts.setdefault(name, []).append(t)
    names = [n for n in TABLE_NAMES if candidates or n != "candidates"]
    tables = {n: (pa.concat_tables(parts[n]) if n in parts else schema(n).empty_table())
              for n in names}
    return ReplayResult(tables, stats)


def replay(paths, fmt: str, rules: str | RuleContext = "mcr", variant: str | None = None,
           candidates: bool = False, chunk_deals: int = 2000, workers: int = 1, *,
           out: str | os.PathLike | None = None, executor=None) -> "ReplayResult":
    """Replay every deal (see :func:`iter_replay`) and return all tables in memory; with
    ``out``, run the replay job (:func:`replay_job`) on the job runner into that dataset
    folder (resumable; the same command again rewrites nothing) and return its stats and
    path (no tables). ``executor``: a runner executor (default: a process pool of
    ``workers``, inline for one)."""
    paths = _paths(paths)
    _check_workers(workers)
    if out is None:
        return gather(iter_replay(paths, fmt, rules, variant, candidates, chunk_deals, workers),
                      candidates)
    from ..runner import make_executor, run_job
    from ._job import replay_job
    ctx = None if (variant is None and not isinstance(rules, RuleContext)) else \
        rule_context(rules, variant)
    job = replay_job({fmt: paths}, ctx.rules if ctx else rules,
                     None if ctx is None else [ctx], candidates, chunk_deals)
    summary = run_job(job, out, executor or make_executor(workers))
    return ReplayResult({}, stats_of(summary.manifest), str(out), summary)


def stats_of(manifest: dict) -> ReplayStats:
    """The replay stats a dataset's manifest records (its shards' markers, added)."""
    stats = ReplayStats()
    for m in manifest.get("shards", {}).values():
        if "stats" in m:
            stats += ReplayStats(**m["stats"])
    return stats


def _job_shards(paths, fmt, rules, variant, candidates, chunk_deals, workers):
    """The replay job on a process pool into a temporary folder, its shards read back in
    the job's (input) order."""
    import tempfile
    import pyarrow.parquet as pq
    from ..datasets import Dataset
    with tempfile.TemporaryDirectory(prefix="mjfast-replay-") as tmp:
        from ..runner import make_executor, run_job
        from ._job import replay_job
        ctx = None if (variant is None and not isinstance(rules, RuleContext)) else \
            rule_context(rules, variant)
        job = replay_job({fmt: paths}, ctx.rules if ctx else rules,
                         None if ctx is None else [ctx], candidates, chunk_deals)
        run_job(job, tmp, make_executor(workers))
        ds = Dataset(tmp)
        markers = ds.done_shards()
        names = [n for n in TABLE_NAMES if candidates or n != "candidates"]
        for i, shard in enumerate(job.shards):
            tables = {}
            for n in names:
                f = ds.shard_path(n, shard.params["rules"], shard.params["variant"], shard.key)
                tables[n] = (pq.read_table(f) if f.exists() else schema(n).empty_table())
            yield ReplayShard(i, shard.params["path"], tables,
                              ReplayStats(**markers[shard.key]["stats"]))
