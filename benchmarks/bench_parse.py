"""Batch parsing throughput: 1M hand strings per format through the Cython kernel.

Run: ``pytest benchmarks/bench_parse.py --benchmark-only``.  ``extra_info`` holds
``strings_per_s`` (best round) and the mean string length.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from mjfast import HandBatch
from mjfast.notation import format_batch, parse_batch

N = 1_000_000
DISTINCT = 20_000


def sample_batch(n: int, seed: int = 1) -> HandBatch:
    """n complete MCR hands: four sets + a pair, up to three of the sets called (chows,
    pungs, exposed / concealed / added kongs), random situation and flowers."""
    rng = np.random.default_rng(seed)
    b = HandBatch.empty(n, "mcr")
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        chow = rng.random((m, 4)) < 0.5
        start = np.where(chow, rng.integers(0, 3, (m, 4)) * 9 + rng.integers(0, 7, (m, 4)),
                         rng.integers(0, 34, (m, 4)))
        pair = rng.integers(0, 34, m)
        called = rng.integers(0, 4, m)
        kong = ~chow & (rng.random((m, 4)) < 0.3)
        allc = np.zeros((m, 34), np.int64)
        rows = np.repeat(np.arange(m)[:, None], 4, 1)
        for k in range(3):
            np.add.at(allc, (rows, start + chow * k), 1)
        melded = np.arange(4)[None, :] < called[:, None]
        np.add.at(allc, (rows[melded & kong], start[melded & kong]), 1)
        np.add.at(allc, (np.arange(m), pair), 2)
        ok = allc.max(1) <= 4
        conc = allc.copy()
        for k in range(3):
            np.add.at(conc, (rows[melded], (start + chow * k)[melded]), -1)
        np.add.at(conc, (rows[melded & kong], start[melded & kong]), -1)
        idx = todo[ok]
        b.counts[idx] = conc[ok]
        b.winning_tile[idx] = pair[ok]
        kind = np.where(chow, 0, np.where(kong, 2, 1))
        kflag = np.where(kong, rng.integers(0, 3, (m, 4)), 0)
        claimed = np.where(kflag == 1, 0, rng.integers(1, 4, (m, 4)))
        mel = np.full((m, 5, 4), 0, np.int64)
        mel[:, :, 0] = -1
        mel[:, :4, 0] = np.where(melded, kind, -1)
        mel[:, :4, 1] = np.where(melded, start, 0)
        mel[:, :4, 2] = np.where(melded, kflag, 0)
        mel[:, :4, 3] = np.where(melded, claimed, 0)
        b.melds[idx] = mel[ok]
        b.n_melds[idx] = called[ok]
        todo = todo[~ok]
    b.flags[:] = rng.integers(0, 16, n) & np.where(rng.random(n) < 0.5, 7, 15)
    b.flags[(b.flags & 8) > 0] |= 1                  # kong replacement is a self-draw
    b.seat[:] = rng.integers(0, 4, n)
    b.prevalent[:] = rng.integers(0, 4, n)
    b.flowers[:] = np.where(rng.random(n) < 0.3, rng.integers(0, 9, n), 0)
    return b


@pytest.fixture(scope="module")
def sample():
    return sample_batch(DISTINCT)


@pytest.mark.parametrize("fmt", ["mcr", "mpsz", "botzone"])
def test_parse_batch_1m(benchmark, sample, fmt):
    distinct = pa.array(format_batch(sample, fmt), type=pa.large_string())
    strings = pa.concat_arrays([distinct] * (N // DISTINCT))
    assert len(strings) == N
    batch = benchmark.pedantic(parse_batch, args=(strings,), kwargs={"fmt": fmt},
                               rounds=3, iterations=1)
    assert len(batch) == N and (batch.winning_tile >= 0).all()
    best = benchmark.stats.stats.min
    benchmark.extra_info["format"] = fmt
    benchmark.extra_info["strings"] = N
    benchmark.extra_info["strings_per_s"] = round(N / best)
    benchmark.extra_info["mean_bytes"] = round(len(strings.buffers()[2]) / N, 1)


PEER_SAMPLE = 50_000


def test_parse_vs_peer(benchmark, sample):
    """Context: the same concealed hands as plain mpsz (no melds, no situation) through
    mjfast's batch kernel, mjfast's per-hand Python path and the ``mahjong`` package's
    ``TilesConverter.one_line_string_to_34_array`` (a riichi tile parser, timed on a sample)."""
    import time
    plain = HandBatch.empty(len(sample), "mcr")
    plain.counts[:] = sample.counts
    plain.winning_tile[:] = sample.winning_tile
    keep = sample.n_melds == 0
    strings = [s for s, k in zip(format_batch(plain, "mpsz"), keep) if k]
    arr = pa.array(strings * (N // len(strings)), type=pa.large_string())
    batch = benchmark.pedantic(parse_batch, args=(arr,), rounds=3, iterations=1)
    assert len(batch) == len(arr)
    benchmark.extra_info["strings_per_s"] = round(len(arr) / benchmark.stats.stats.min)
    from mjfast.notation import parse_hand
    few = strings[:5000]
    t0 = time.perf_counter()
    for s in few:
        parse_hand(s)
    benchmark.extra_info["python_parse_hand_per_s"] = round(len(few) / (time.perf_counter() - t0))
    try:
        from mahjong.tile import TilesConverter
    except ImportError:
        return
    peer = (strings * (PEER_SAMPLE // len(strings) + 1))[:PEER_SAMPLE]
    t0 = time.perf_counter()
    for s in peer:
        TilesConverter.one_line_string_to_34_array(s)
    benchmark.extra_info["peer_mahjong_strings_per_s"] = round(PEER_SAMPLE / (time.perf_counter() - t0))
