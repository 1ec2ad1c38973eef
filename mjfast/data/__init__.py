"""Bundled sample logs (origin in ``ORIGIN.md``): the Botzone text sample and three Botzone
match-log JSON files, for tests and the main job's default input."""
from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent


def botzone_text_sample() -> Path:
    """The 16-deal Botzone text log (CRLF)."""
    return DATA_DIR / "botzone_sample16.txt"


def botzone_json_samples() -> list[Path]:
    """The three Botzone match-log JSON files (file name = deal id), sorted."""
    return sorted((DATA_DIR / "botzone_json").glob("*.json"))


__all__ = ["DATA_DIR", "botzone_text_sample", "botzone_json_samples"]
