"""Every table's schema, in one place.

Conventions shared by all tables:

- ``deal_id`` (string) names a deal (a Botzone ``Match`` id or JSON file name; a simulated
  deal's id from :func:`mjfast.datasets.sim_deal_id`); ``game_id`` a game; ``seq`` / ``step``
  an event's position in its deal.
- players are 0..3 as the log numbers them (two-player: 0..1); ``seat`` is the wind 0..3 =
  E S W N; tiles are the project's int8 ids (``mjfast/tiles.py``), -1 for none.
- ``fans``: list of ``{id, points, count}`` (names are joined from the rule profile, never
  stored); ``scores``: list of one int per player (gain +, payment -).
- ``rules`` (mcr, taiwan, tuidaohu, two_player) and ``variant`` (``default`` when none) are
  Hive partition keys (``rules=mcr/variant=botzone/``), not columns inside the files.
- ``source`` (``deals``, ``wins``, ``turns``, ``hands``): what produced the row --
  ``replay`` (a log replayed), ``simulate`` (a simulated deal) or ``hands`` (the hands
  job), so one dataset can hold, and an analysis tell apart, every source of a study.
"""
from __future__ import annotations

import pyarrow as pa

FAN = pa.struct([("id", pa.int16()), ("points", pa.int32()), ("count", pa.int16())])
FANS = pa.list_(FAN)
SCORES = pa.list_(pa.int32())
TILES = pa.list_(pa.int8())
# One winning tile of a ready hand, scored both ways (turns, hands, analytics).
# Optional (null when the writer does not score fans per wait): each way's fan list, which
# the analytics use to tell which fans lift a wait over the MCR 8-point minimum.
WAIT = pa.struct([("tile", pa.int8()), ("live", pa.int8()),
                  ("total_discard", pa.int32()), ("total_self_drawn", pa.int32()),
                  ("legal_discard", pa.bool_()), ("legal_self_drawn", pa.bool_()),
                  ("fans_discard", FANS), ("fans_self_drawn", FANS)])
WAITS = pa.list_(WAIT)

PARTITION_KEYS = ("rules", "variant")
DEFAULT_VARIANT = "default"


def _s(*fields) -> pa.Schema:
    return pa.schema([pa.field(n, t, nullable=nullable) for n, t, nullable in
                      (f if len(f) == 3 else (*f, True) for f in fields)])


TABLES: dict[str, pa.Schema] = {
    # one row per event (see mjfast.datasets._events for the kinds and columns)
    "events": _s(("deal_id", pa.string(), False), ("seq", pa.int32(), False),
                 ("kind", pa.int8(), False), ("player", pa.int8()), ("tile", pa.int8()),
                 ("aux", pa.int8()), ("target", pa.int8()), ("flags", pa.int8()),
                 ("total", pa.int32()), ("fans", FANS), ("scores", SCORES)),
    # one row per deal: its starting state and its outcome
    "deals": _s(("deal_id", pa.string(), False), ("game_id", pa.string()),
                ("deal_index", pa.int16()),       # position of the deal in its game
                ("source", pa.string()),          # replay / simulate
                ("log_file", pa.string()),        # the replayed log file (null: simulated)
                ("seed", pa.uint64()), ("prevalent", pa.int8()), ("dealer", pa.int8()),
                ("streak", pa.int16()), ("seats", TILES),          # seat wind by player
                ("start_scores", SCORES), ("wall", TILES),         # wall in draw order
                ("bots", pa.list_(pa.string())),  # by player (simulations)
                ("permutation", pa.int16()),      # --duplicate: seat permutation index
                ("draw", pa.bool_()), ("n_wins", pa.int8()),
                ("winner", pa.int8()), ("self_drawn", pa.bool_()), ("discarder", pa.int8()),
                ("total", pa.int32()), ("fans", FANS),
                ("scores", SCORES),               # net for the deal, kong payments included
                ("n_events", pa.int32()),
                ("wall_mode", pa.string()),       # "standard" / "botzone" (the wall's convention)
                ("entrants", TILES)),             # the game's player at each position (MCR re-seating)
    # one row per game (a sequence of deals with dealer rotation)
    "games": _s(("game_id", pa.string(), False), ("seed", pa.uint64()),
                ("n_deals", pa.int32()), ("bots", pa.list_(pa.string())),
                ("final_scores", SCORES),         # by the game's player (entrant)
                ("end", pa.string()),             # structure / budget / bust / error
                ("prevalent_rounds", pa.int8()),  # wind rounds played
                ("dealer_passes", pa.int16())),   # changes of dealer
    # one row per win (several per deal where the rules allow several winners)
    "wins": _s(("deal_id", pa.string(), False), ("step", pa.int32()), ("winner", pa.int8()),
               ("self_drawn", pa.bool_()), ("discarder", pa.int8()), ("tile", pa.int8()),
               ("flags", pa.uint16()),           # the scorer's situation flag bits
               ("total", pa.int32()), ("legal", pa.bool_()), ("logged_total", pa.int32()),
               ("fans", FANS), ("scores", SCORES), ("logged_scores", SCORES),
               ("source", pa.string())),          # replay / simulate
    # one row per discard decision
    "turns": _s(("deal_id", pa.string(), False), ("step", pa.int32()), ("player", pa.int8()),
                ("turn", pa.int16()),             # the player's n-th discard, from 1
                ("shanten", pa.int8()),           # 14-tile hand, best form
                ("shanten_forms", pa.list_(pa.int8())),  # by the rule set's form order
                ("discard", pa.int8()), ("shanten_after", pa.int8()),
                ("effective", TILES),             # tiles that lower the 13-tile shanten
                ("effective_live", pa.int16()),   # their live copies, what the player can know
                ("waits", WAITS),                 # ready after the discard: every wait scored
                ("source", pa.string())),         # replay
    # one row per possible discard at each decision (opt-in)
    "candidates": _s(("deal_id", pa.string(), False), ("step", pa.int32()),
                     ("player", pa.int8()), ("discard", pa.int8()), ("chosen", pa.bool_()),
                     ("shanten_after", pa.int8()), ("effective_live", pa.int16()),
                     ("waits", WAITS), ("value", pa.float64()),
                     ("rank_efficiency", pa.int16()), ("rank_value", pa.int16())),
    # every moment a player's hand is completed by an available tile, declared or not
    "win_chances": _s(("deal_id", pa.string(), False), ("step", pa.int32()),
                      ("player", pa.int8()), ("tile", pa.int8()), ("self_drawn", pa.bool_()),
                      ("total", pa.int32()), ("legal", pa.bool_()),
                      ("logged_total", pa.int32())),
    # the project disagreeing with a log's own numbers: a finding, never an exception
    "discrepancies": _s(("source", pa.string()), ("deal_id", pa.string()),
                        ("step", pa.int32()), ("player", pa.int8()),
                        ("what", pa.string(), False),     # fan_total, fans, scores, can_hu...
                        ("logged", pa.string()), ("computed", pa.string()),
                        ("detail", pa.string())),
    # every input that could not be used, with the reason
    "quarantine": _s(("source", pa.string(), False), ("deal_id", pa.string()),
                     ("line", pa.int64()), ("step", pa.int32()),
                     ("reason", pa.string(), False), ("rows", pa.int64())),
    # generated or given hands, analysed (the `hands` pipeline)
    "hands": _s(("hand_id", pa.int64(), False), ("hand", pa.string()), ("form", pa.int8()),
                ("n_melds", pa.int8()), ("shanten", pa.int8()), ("waits", WAITS),
                ("total", pa.int32()), ("legal", pa.bool_()), ("fans", FANS),
                ("error", pa.dictionary(pa.int32(), pa.string())),
                ("source", pa.string())),         # hands
}


def schema(table: str) -> pa.Schema:
    """The Arrow schema of ``table`` (a :data:`TABLES` key)."""
    try:
        return TABLES[table]
    except KeyError:
        from ..errors import InputError
        raise InputError(table, None, f"unknown table (known: {', '.join(TABLES)})") from None


def empty_table(table: str) -> pa.Table:
    return schema(table).empty_table()


def conform(table: str, data) -> pa.Table:
    """Cast a pyarrow Table / Polars DataFrame / dict of columns to ``table``'s schema
    (columns in schema order; missing nullable columns become nulls)."""
    sch = schema(table)
    if hasattr(data, "to_arrow"):
        data = data.to_arrow()
    if isinstance(data, dict):
        n = max((len(v) for v in data.values()), default=0)
        cols = {f.name: data[f.name] if f.name in data else pa.nulls(n, f.type) for f in sch}
        return pa.Table.from_pydict(cols, schema=sch)
    missing = [f.name for f in sch if f.name not in data.column_names and not f.nullable]
    if missing:
        from ..errors import InputError
        raise InputError(table, None, f"missing required columns {missing}")
    cols = [data.column(f.name).cast(f.type) if f.name in data.column_names
            else pa.nulls(data.num_rows, f.type) for f in sch]
    return pa.Table.from_arrays(cols, schema=sch)
