"""Replay to a dataset folder: one shard per chunk, atomic writes, a manifest."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..datasets import Dataset, hash_files
from ._replay import ReplayStats, expand_paths, iter_replay


def replay_to_dataset(paths, fmt: str, out: str | os.PathLike, rules: str = "mcr",
                      variant: str | None = None, candidates: bool = False,
                      chunk_deals: int = 2000, progress: bool = False,
                      workers: int = 1) -> dict[str, Any]:
    """Replay ``paths`` and write every table under ``out`` (Hive partitions
    ``rules=/variant=``, shard ``NNNNN`` per chunk); returns the summary (also in the
    manifest)."""
    from ..rules.registry import get_rules
    from ._replay import _default_variant
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    rules = get_rules(rules).name
    var = _default_variant(fmt, rules, variant)
    files = expand_paths(paths, fmt)
    ds = Dataset(out)
    stats = ReplayStats()
    position = {str(f): i for i, f in enumerate(files)}   # files started, for the bar
    bar = None
    if progress:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)
        bar = Progress(TextColumn("replay"), BarColumn(), TextColumn("{task.fields[deals]} deals"),
                       TimeElapsedColumn(), transient=False)
        task = bar.add_task("replay", total=len(files) or None, deals=0)
        bar.start()
    try:
        for shard in iter_replay(files, fmt, rules, var, candidates, chunk_deals, workers):
            name = f"{shard.index:05d}"
            for table, t in shard.tables.items():
                ds.write(table, t, rules=rules, variant=var, shard=name)
            ds.mark_done(name, {"source": shard.source, **shard.stats.as_dict()})
            stats += shard.stats
            if bar is not None:
                bar.update(task, deals=stats.deals_in, completed=position.get(shard.source, 0))
        if bar is not None:
            bar.update(task, completed=len(files))
    finally:
        if bar is not None:
            bar.stop()
    summary = {"job": "replay", "format": fmt, "rules": rules, "variant": var or "default",
               "candidates": candidates, "out": str(out), "stats": stats.as_dict()}
    inputs = [f for f in files if Path(f).is_file()]
    ds.write_manifest({**summary, "inputs": hash_files(inputs)})
    return summary
