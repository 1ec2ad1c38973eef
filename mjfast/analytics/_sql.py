"""SQL over a dataset's tables (Polars SQL), each registered under its table name."""
from __future__ import annotations

import polars as pl

from ..datasets import TABLES
from ..errors import InputError
from ._core import collect, frames

TABLE_NAMES = tuple(TABLES)


def sql(source, query: str) -> pl.DataFrame:
    """Run ``query`` with every table of the dataset registered by its name (``wins``,
    ``turns``, ...; ``rules`` and ``variant`` are columns)."""
    fr = frames(source, TABLE_NAMES)
    ctx = pl.SQLContext(frames=fr, eager=False)
    try:
        lf = ctx.execute(query)
        return collect(lf)
    except Exception as exc:   # Polars raises several types for a bad query
        raise InputError(query[:80], None, f"SQL failed: {exc}") from None
