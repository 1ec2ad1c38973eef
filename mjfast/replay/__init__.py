"""Log replay: readers (Botzone text, Botzone match-log JSON, the project's own events)
turn logs into events; the engine folds them; turn-level tables come out."""
from __future__ import annotations

from ._log import CAN_HU_NONE, DealInfo, LogChunk
from ._read_botzone_json import BotzoneJsonReader
from ._read_botzone_text import BotzoneTextReader

__all__ = ["CAN_HU_NONE", "DealInfo", "LogChunk", "BotzoneJsonReader", "BotzoneTextReader"]
