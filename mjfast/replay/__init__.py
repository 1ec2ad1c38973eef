"""Log replay: the readers of :mod:`mjfast.formats` (Botzone text, Botzone match-log JSON,
JSON lines, the project's own events) turn logs into events; the engine folds them;
turn-level tables come out (``docs/replay.md``). :func:`replay` returns the tables, or
with ``out`` runs the replay job (:func:`replay_job`) on the one job runner."""
from __future__ import annotations

from ..formats import CAN_HU_NONE, FORMATS, DealInfo, LogChunk, expand_paths
from ._job import replay_job, shard_transform
from ._replay import (TABLE_NAMES, ReplayResult, ReplayShard, ReplayStats, gather,
                      iter_replay, log_context, read_chunks, replay, replay_chunk,
                      replay_text_range, stats_of)

__all__ = ["CAN_HU_NONE", "DealInfo", "LogChunk", "FORMATS", "TABLE_NAMES", "ReplayResult",
           "ReplayShard", "ReplayStats", "expand_paths", "gather", "iter_replay",
           "log_context", "read_chunks", "replay", "replay_chunk", "replay_job",
           "replay_text_range", "shard_transform", "stats_of"]
