"""Tile ids: the one place they are defined.

=====  ==========================================================
id     tile
=====  ==========================================================
0-8    characters 1m..9m  (萬子, Botzone ``W1..W9``)
9-17   dots 1p..9p        (筒子, Botzone ``B1..B9``)
18-26  bamboo 1s..9s      (索子, Botzone ``T1..T9``)
27-30  winds East South West North   (letters ``E S W N``, ``1z..4z``, ``F1..F4``)
31-33  dragons Red 中, Green 發, White 白  (letters ``C F P``, ``5z 6z 7z``, ``J1..J3``)
34-41  flowers a..h (plum, orchid, chrysanthemum, bamboo, spring, summer,
       autumn, winter; Botzone ``H1..H8``)
=====  ==========================================================

**z digits follow the MCR calculators' order**: ``1z..7z`` = E S W N C F P, so ``5z`` is
the RED dragon 中.  (The riichi/tenhou convention puts white at 5z; letters are
unambiguous and are what :func:`mjfast.Hand.to_string` prints.)
"""
from __future__ import annotations

from .errors import TileParseError

N_KINDS = 34
N_FLOWERS = 8
FLOWER_BASE = 34
N_TILE_IDS = N_KINDS + N_FLOWERS

MAN, PIN, SOU = 0, 9, 18
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONORS = WINDS + DRAGONS
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS = TERMINALS + HONORS

SUIT_LETTERS = "mps"
HONOR_LETTERS = "ESWNCFP"          # index i -> tile 27 + i
WIND_LETTERS = "ESWN"              # seat / prevalent wind letters, index = wind number
FLOWER_LETTERS = "abcdefgh"
FLOWER_NAMES_EN = ("plum", "orchid", "chrysanthemum", "bamboo",
                   "spring", "summer", "autumn", "winter")

HONOR_NAMES_EN = ("East", "South", "West", "North", "Red", "Green", "White")
HONOR_NAMES_ZH = ("东", "南", "西", "北", "中", "发", "白")
SUIT_NAMES_ZH = ("万", "饼", "条")


def tile_name(tile: int) -> str:
    """Short name: ``5m``, ``E``, ``C``, flowers ``a``..``h``."""
    if not 0 <= tile < N_TILE_IDS:
        raise TileParseError(repr(tile), None, f"tile id {tile} out of range 0..{N_TILE_IDS - 1}")
    if tile >= FLOWER_BASE:
        return FLOWER_LETTERS[tile - FLOWER_BASE]
    if tile >= 27:
        return HONOR_LETTERS[tile - 27]
    return f"{tile % 9 + 1}{SUIT_LETTERS[tile // 9]}"


ALL_KINDS = tuple(range(N_KINDS))
