"""The predicate keys of each rule set's scorer, in the kernel's column order.

A rule table row names its predicate by ``key``; the kernels fill one column per key.
This is the one definition: the kernels import their key order from here, and the
profile loader (:mod:`mjfast.rules._profile`) checks every row against it.
"""
from __future__ import annotations

MCR_KEYS = (
    "big_four_winds", "big_three_dragons", "all_green", "nine_gates", "four_kongs",
    "seven_shifted_pairs", "thirteen_orphans", "all_terminals", "little_four_winds",
    "little_three_dragons", "all_honors", "four_concealed_pungs", "pure_terminal_chows",
    "quadruple_chow", "four_pure_shifted_pungs", "four_pure_shifted_chows", "three_kongs",
    "all_terminals_and_honors", "seven_pairs", "greater_honors_and_knitted_tiles",
    "all_even_pungs", "full_flush", "pure_triple_chow", "pure_shifted_pungs", "upper_tiles",
    "middle_tiles", "lower_tiles", "pure_straight", "three_suited_terminal_chows",
    "pure_shifted_chows", "all_five", "triple_pung", "three_concealed_pungs",
    "lesser_honors_and_knitted_tiles", "knitted_straight", "upper_four", "lower_four",
    "big_three_winds", "mixed_straight", "reversible_tiles", "mixed_triple_chow",
    "mixed_shifted_pungs", "chicken_hand", "last_tile_draw", "last_tile_claim",
    "out_with_replacement_tile", "robbing_the_kong", "all_pungs", "half_flush",
    "mixed_shifted_chows", "all_types", "melded_hand", "two_concealed_kongs",
    "two_dragons_pungs", "outside_hand", "fully_concealed_hand", "two_melded_kongs",
    "last_tile", "dragon_pung", "prevalent_wind", "seat_wind", "concealed_hand", "all_chows",
    "tile_hog", "double_pung", "two_concealed_pungs", "concealed_kong", "all_simples",
    "pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows",
    "pung_of_terminals_or_honors", "melded_kong", "one_voided_suit", "no_honors", "edge_wait",
    "closed_wait", "single_wait", "self_drawn", "flower_tiles", "concealed_kong_and_melded_kong",
)
"""MCR: index = fan id - 1 (the fan ids are fixed: the kernel's constants)."""

TAIWAN_KEYS = (
    "win_shape", "no_flowers", "flowers", "honor_pung", "open_kong", "concealed_kong",
    "concealed_self_draw", "concealed_hand", "self_draw", "all_called", "single_wait",
    "closed_or_edge_wait", "no_honors", "no_honors_no_flowers", "half_flush", "full_flush",
    "seven_pairs_triplet", "all_chows", "pure_all_chows", "all_pungs",
    "small_three_dragons", "big_three_dragons", "small_three_winds", "three_wind_pungs",
    "small_four_winds", "big_four_winds", "two_concealed_pungs", "three_concealed_pungs",
    "four_concealed_pungs", "five_concealed_pungs", "pure_straight",
    "concealed_pure_straight", "last_tile_draw", "last_discard", "robbing_kong",
    "very_early_win", "early_win", "original_ready", "heavenly_win", "earthly_win",
    "seven_flowers_rob", "eight_flowers",
)
"""Taiwan: the kernel's key columns (the table maps each key to its row id)."""

TUIDAOHU_KEYS = ("win", "self_drawn", "concealed", "kong_replacement", "last_tile_draw",
                 "robbing_kong", "all_pungs", "seven_pairs", "luxury_seven_pairs",
                 "half_flush", "full_flush", "all_honors", "big_three_dragons",
                 "little_four_winds", "big_four_winds", "heavenly_hand", "earthly_hand")
"""Tuidaohu and two-player: predicate codes (``P_*`` in the kernel) in this order."""

PREDICATE_KEYS = {"mcr": MCR_KEYS, "taiwan": TAIWAN_KEYS, "tuidaohu": TUIDAOHU_KEYS,
                  "two_player": TUIDAOHU_KEYS}

__all__ = ["MCR_KEYS", "TAIWAN_KEYS", "TUIDAOHU_KEYS", "PREDICATE_KEYS"]
