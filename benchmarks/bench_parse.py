"""Batch parsing throughput: 1M hand strings per format through the Cython kernel.

Run: ``pytest benchmarks/bench_parse.py --benchmark-only``.  ``extra_info`` holds
``strings_per_s`` (best round) and the mean string length.
"""
from __future__ import annotations

import pyarrow as pa
import pytest

from mjfast import HandBatch, random_hands
from mjfast.notation import format_batch, parse_batch

N = 1_000_000
DISTINCT = 20_000


def sample_batch(n: int, seed: int = 1) -> HandBatch:
    """n complete MCR hands from the library's generator (``mjfast.random_hands``: melds of
    every kind, special forms, random situation and flowers; docs/generator.md)."""
    return random_hands(n, "mcr", "complete", seed=seed)


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
