"""Notation: hand strings in, :class:`~mjfast.Hand` / :class:`~mjfast.HandBatch` out, and back.

The functions live in :mod:`mjfast.notation._api` and are re-exported here; the grammar
modules :mod:`~mjfast.notation.mpsz`, :mod:`~mjfast.notation.mcr_string` and
:mod:`~mjfast.notation.botzone` describe each format (see ``docs/notation.md``).
"""
from __future__ import annotations

from ._api import (FORMATS, OPTION_NAMES, convert_hand, detect_format, format_batch,
                   format_hand, hand_with_options, hands_to_counts, parse_batch, parse_hand,
                   parse_tiles, tile_from_name)

__all__ = ["parse_tiles", "parse_hand", "format_hand", "format_batch", "parse_batch",
           "detect_format", "hands_to_counts", "tile_from_name", "hand_with_options",
           "convert_hand", "FORMATS", "OPTION_NAMES"]
