"""Log replay: readers (Botzone text, Botzone match-log JSON, the project's own events)
turn logs into events; the engine folds them; turn-level tables come out
(``docs/replay.md``)."""
from __future__ import annotations

from ._log import CAN_HU_NONE, DealInfo, LogChunk
from ._read_botzone_json import BotzoneJsonReader
from ._read_botzone_text import BotzoneTextReader
from ._replay import (FORMATS, TABLE_NAMES, ReplayResult, ReplayShard, ReplayStats,
                      expand_paths, iter_replay, read_chunks, replay, replay_chunk,
                      replay_text_range)

__all__ = ["CAN_HU_NONE", "DealInfo", "LogChunk", "BotzoneJsonReader", "BotzoneTextReader",
           "FORMATS", "TABLE_NAMES", "ReplayResult", "ReplayShard", "ReplayStats",
           "expand_paths", "iter_replay", "read_chunks", "replay", "replay_chunk",
           "replay_text_range"]
