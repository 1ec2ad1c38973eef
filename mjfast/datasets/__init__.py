"""Datasets: every table's schema, the event model, ids, partitioning, atomic shard writes
and manifests. The engine, the readers, the pipelines and the analyses all write and read
through this module; a table or column is defined here and nowhere else."""
from __future__ import annotations

from ._convert import events_from_arrow, events_to_arrow
from ._events import (EF_FALSE_WIN, EF_HIDDEN, EF_INSTANT, EF_LAST_TILE, EF_REPLACEMENT,
                      EF_ROBBING, EVENT_COLUMNS, K_CHOW, K_CLAIM_LOST, K_DEAL, K_DEALER_CHANGE,
                      K_DISCARD, K_DRAW, K_EXHAUSTIVE_DRAW, K_FLOWER, K_KONG_ADDED,
                      K_KONG_CONCEALED, K_KONG_EXPOSED, K_KONG_PAYMENT, K_PUNG, K_WIN,
                      K_WIN_PASSED, EventBuilder, EventFlag, EventKind, Events)
from ._ids import sim_deal_id, sim_game_id
from ._schema import (DEFAULT_VARIANT, FAN, FANS, PARTITION_KEYS, SCORES, TABLES, TILES,
                      WAIT, WAITS, conform, empty_table, schema)
from ._store import (Dataset, atomic_write_bytes, atomic_write_table, file_sha256,
                     hash_files, open_dataset)

# the event codes as plain ints (compiled code reads module-level ints as constants)
EVENT_CODES = ["K_DEAL", "K_DRAW", "K_FLOWER", "K_DISCARD", "K_CHOW", "K_PUNG",
               "K_KONG_EXPOSED", "K_KONG_CONCEALED", "K_KONG_ADDED", "K_CLAIM_LOST",
               "K_WIN_PASSED", "K_WIN", "K_EXHAUSTIVE_DRAW", "K_KONG_PAYMENT",
               "K_DEALER_CHANGE", "EF_REPLACEMENT", "EF_ROBBING", "EF_FALSE_WIN", "EF_HIDDEN",
               "EF_LAST_TILE", "EF_INSTANT"]

__all__ = [*EVENT_CODES, "EVENT_COLUMNS", "EventBuilder", "EventFlag", "EventKind", "Events",
           "events_from_arrow", "events_to_arrow", "sim_deal_id", "sim_game_id",
           "DEFAULT_VARIANT", "FAN", "FANS", "PARTITION_KEYS", "SCORES", "TABLES", "TILES",
           "WAIT", "WAITS", "conform", "empty_table", "schema", "Dataset",
           "atomic_write_bytes", "atomic_write_table", "file_sha256", "hash_files",
           "open_dataset"]
