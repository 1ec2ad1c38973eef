"""Datasets: every table's schema, the event model, ids, partitioning, atomic shard writes
and manifests. The engine, the readers, the pipelines and the analyses all write and read
through this module; a table or column is defined here and nowhere else."""
from __future__ import annotations

from ._convert import events_from_arrow, events_to_arrow
from ._events import EVENT_COLUMNS, EventBuilder, EventFlag, EventKind, Events
from ._ids import sim_deal_id, sim_game_id
from ._schema import (DEFAULT_VARIANT, FAN, FANS, PARTITION_KEYS, SCORES, TABLES, TILES,
                      WAIT, WAITS, conform, empty_table, schema)
from ._store import (Dataset, atomic_write_bytes, atomic_write_table, file_sha256,
                     hash_files, open_dataset)

__all__ = ["EVENT_COLUMNS", "EventBuilder", "EventFlag", "EventKind", "Events",
           "events_from_arrow", "events_to_arrow", "sim_deal_id", "sim_game_id",
           "DEFAULT_VARIANT", "FAN", "FANS", "PARTITION_KEYS", "SCORES", "TABLES", "TILES",
           "WAIT", "WAITS", "conform", "empty_table", "schema", "Dataset",
           "atomic_write_bytes", "atomic_write_table", "file_sha256", "hash_files",
           "open_dataset"]
