"""Analyses over the datasets' Parquet tables (Polars lazy frames).

Every analysis is an :class:`Analysis`: ``partial`` (tables -> counts and sums that add),
``merge`` (add partials of shards), ``finish`` (shares, means, intervals, names). Call one
on a dataset folder, a :class:`~mjfast.datasets.Dataset` or a mapping of table name to frame::

    from mjfast.analytics import run, fan_frequency
    fan_frequency("mjfast-out/replay")          # a Polars DataFrame
    run("high-low", "mjfast-out/hands")

Built-in names (``mjfast query DATASET NAME``): see :data:`ANALYSES`.
"""
from __future__ import annotations

from ._core import (ANALYSES, Analysis, collect, dataset_roots, frames, get_analysis, mean_sd,
                    merge, run, wilson)
from ._fans import FAN_COOCCURRENCE, FAN_FREQUENCY
from ._ev import EV, PAYMENTS
from ._highlow import (HIGH_LOW, HIGH_LOW_BETTER, HIGH_LOW_FANS, HIGH_LOW_SELF,
                       HIGH_LOW_STOOD, HIGH_LOW_TURN)
from ._play import DISCARD_AGREEMENT, PLAY_BY_TURN, PLAY_STATS
from ._compare import COMPARE, compare, side_by_side
from ._seat import SEAT_ADVANTAGE, seat_advantage
from ._fanvalue import FAN_VALUE, fan_value
from ._samplesize import SAMPLE_SIZE, sample_size
from ._answer import answer_text, study_answer
from ._names import fan_names, join_names
from ._sql import TABLE_NAMES, sql

fan_frequency = FAN_FREQUENCY
fan_cooccurrence = FAN_COOCCURRENCE
expected_value = EV
payments = PAYMENTS
high_low = HIGH_LOW
play_stats = PLAY_STATS

__all__ = ["ANALYSES", "Analysis", "collect", "dataset_roots", "frames", "get_analysis",
           "mean_sd", "merge",
           "run", "wilson", "compare", "side_by_side", "fan_names", "join_names", "sql", "TABLE_NAMES",
           "fan_frequency", "fan_cooccurrence", "expected_value", "payments", "high_low",
           "play_stats", "FAN_FREQUENCY", "FAN_COOCCURRENCE", "EV", "PAYMENTS", "HIGH_LOW",
           "HIGH_LOW_SELF", "HIGH_LOW_TURN", "HIGH_LOW_STOOD", "HIGH_LOW_BETTER",
           "HIGH_LOW_FANS", "PLAY_STATS", "PLAY_BY_TURN", "DISCARD_AGREEMENT", "COMPARE",
           "SEAT_ADVANTAGE", "seat_advantage", "FAN_VALUE", "fan_value", "SAMPLE_SIZE",
           "sample_size", "study_answer", "answer_text"]
