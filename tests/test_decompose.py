"""The decomposer against a plain recursive reference written here."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast import Hand, Meld, MeldKind, random_hands
from mjfast._decompose import decompose, decompose_batch, form_mask
from mjfast.errors import HandSizeError, InvalidCountsError
from mjfast.rules.registry import get_rules

from handgen import ORPHANS, knitted_tiles, KNITTED_PERMS, random_counts

# ---------------------------------------------------------------- the reference ----
# Forms: 0 regular, 1 seven pairs, 2 thirteen orphans, 3 honors-knitted, 4 knitted straight,
# 5 seven pairs + triplet. A division key: (form, sorted sets, pair, extra).


def _ref_sets(c: list[int]):
    """All multisets of sets (as sorted tuples of (kind, tile)) covering c exactly."""
    i = next((t for t in range(34) if c[t]), None)
    if i is None:
        return [()]
    found = []
    if c[i] >= 3:
        c[i] -= 3
        found += [((1, i),) + rest for rest in _ref_sets(c)]
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        found += [((0, i),) + rest for rest in _ref_sets(c)]
        for t in (i, i + 1, i + 2):
            c[t] += 1
    return found


def _ref_regular(c, form=0, extra=-1):
    out = set()
    if (sum(c) - 2) % 3:
        return out
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            for sets in _ref_sets(c):
                out.add((form, tuple(sorted(sets)), p, extra))
            c[p] += 2
    return out


def reference_divisions(counts, rules: str) -> set:
    c = [int(x) for x in counts]
    forms = get_rules(rules).forms
    total = sum(c)
    out = _ref_regular(c) if 0 in forms else set()
    if 1 in forms and total == 14 and all(x % 2 == 0 for x in c):
        out.add((1, (), -1, -1))
    if 2 in forms and total == 14 and all(c[t] >= 1 for t in ORPHANS) and \
            sum(c[t] for t in ORPHANS) == 14:
        out.add((2, (), -1, -1))
    if 3 in forms and total == 14 and max(c) == 1:
        for pi, perm in enumerate(KNITTED_PERMS):
            allowed = set(knitted_tiles(perm)) | set(range(27, 34))
            if all(c[t] == 0 or t in allowed for t in range(34)):
                full = all(c[t] for t in knitted_tiles(perm))
                out.add((3, (), -1, pi if full else -1))
                break
    if 4 in forms and total in (11, 14):
        for pi, perm in enumerate(KNITTED_PERMS):
            kt = knitted_tiles(perm)
            if all(c[t] for t in kt):
                for t in kt:
                    c[t] -= 1
                out |= _ref_regular(c, 4, pi)
                for t in kt:
                    c[t] += 1
    if 5 in forms and total == 17:
        odd = [t for t in range(34) if c[t] % 2]
        if len(odd) == 1 and c[odd[0]] == 3:
            out.add((5, (), -1, odd[0]))
    return out


def kernel_keys(rows) -> set:
    out = set()
    for r in rows:
        sets = tuple(sorted((int(r[3 + 2 * i]), int(r[4 + 2 * i])) for i in range(int(r[2]))))
        out.add((int(r[0]), sets, int(r[1]), int(r[13])))
    return out


# ------------------------------------------------------------------- tests ----------
RULES = ["mcr", "taiwan", "tuidaohu", "two_player"]


def _complete_batch(rules, n, seed):
    """Concealed counts (called melds excluded) of n complete hands: mjfast.random_hands."""
    return random_hands(n, rules, seed=seed).counts


@pytest.mark.parametrize("rules", RULES)
def test_matches_reference_on_complete_hands_quick(rules):
    counts = _complete_batch(rules, 3000, 1)
    _compare(counts, rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_matches_reference_on_200k_complete_hands(rules):
    counts = _complete_batch(rules, 200_000, 2 + RULES.index(rules))
    _compare(counts, rules)


@pytest.mark.parametrize("rules", RULES)
def test_random_tiles_rarely_complete_and_agree(rules):
    rs = get_rules(rules)
    counts = random_counts(np.random.default_rng(3), rules, rs.win_size, 5000)
    _compare(counts, rules)


def _compare(counts, rules):
    res = decompose_batch(counts, rules)
    mismatches = []
    for i in range(len(counts)):
        got = kernel_keys(res.rows[res.offsets[i]:res.offsets[i + 1]])
        # the kernel emits each division once
        assert res.offsets[i + 1] - res.offsets[i] == len(got)
        want = reference_divisions(counts[i], rules)
        if got != want:
            mismatches.append((counts[i].tolist(), got, want))
    assert not mismatches, mismatches[:3]


def test_every_generated_hand_is_complete():
    for rules in RULES:
        counts = _complete_batch(rules, 2000, 4)
        assert (decompose_batch(counts, rules).count() > 0).all()


def _hand(text_tiles, win, melds=(), rules="mcr"):
    return Hand(tuple(text_tiles), tuple(melds), win, rules=rules)


def test_pure_straight_with_called_pung_and_wait_shapes():
    # 1m..9m + called pung of East + 99m... : concealed 123456789m 99m, win 9m? use 7m win
    hand = _hand([0, 1, 2, 3, 4, 5, 7, 8, 9, 9], 6, [Meld(MeldKind.PUNG, 27)])
    divs = decompose(hand)
    assert len(divs) == 1
    d = divs[0]
    assert d.form == "regular" and d.pair == 9
    assert d.melds[0].called and d.melds[0].tile == 27
    shapes = {w.shape for w in d.waits}
    assert shapes == {"edge"}  # 7m completes 789m from 89m: an edge wait


def test_two_sided_and_dual_pung_placements():
    # 23m + 444p 555s 666s 88p ... winning 1m: two-sided
    hand = _hand([1, 2, 12, 12, 12, 22, 22, 22, 23, 23, 23, 16, 16], 0)
    (d,) = decompose(hand)
    assert [w.shape for w in d.waits] == ["two_sided"]
    # dual pung: 55m 88m + 3 sets, win 5m
    hand = _hand([4, 4, 7, 7, 18, 19, 20, 21, 22, 23, 27, 27, 27], 4)
    (d,) = decompose(hand)
    assert {w.shape for w in d.waits} == {"dual_pung"}


def test_seven_pairs_with_a_held_four_and_regular_reading():
    # 11223344556677m: 3 regular readings + seven pairs
    hand = _hand([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6], 6)
    forms = sorted(d.form for d in decompose(hand))
    assert forms == ["regular", "regular", "regular", "seven_pairs"]
    # a held four counts as two pairs
    hand = _hand([0, 0, 0, 0, 9, 9, 10, 10, 27, 27, 28, 28, 31], 31)
    (d,) = decompose(hand)
    assert d.form == "seven_pairs" and d.pairs.count(0) == 2


def test_thirteen_orphans_and_knitted_forms_only_in_mcr():
    tiles = ORPHANS + [27]
    hand = _hand(tiles[:-1], tiles[-1])
    assert [d.form for d in decompose(hand)] == ["thirteen_orphans"]
    hand_t = _hand(tiles[:-1], tiles[-1], rules="tuidaohu")
    assert decompose(hand_t) == []
    # knitted straight 147m 258p 369s + 123s? use pung of E and pair of C
    kt = knitted_tiles((0, 1, 2))
    tiles = kt + [27, 27, 27, 31]
    hand = _hand(tiles, 31)
    (d,) = decompose(hand)
    assert d.form == "knitted_straight" and d.pair == 31 and d.knitted == tuple(kt)
    # honors and knitted: 7 honors + 7 knitted tiles
    tiles = [0, 3, 6, 10, 13, 20, 23] + list(range(27, 33))
    hand = _hand(tiles, 33)
    (d,) = decompose(hand)
    assert d.form == "honors_knitted" and d.knitted == ()


def test_knitted_straight_with_one_called_meld():
    kt = knitted_tiles((2, 0, 1))
    hand = _hand(kt + [30], 30, [Meld(MeldKind.PUNG, 31)])
    (d,) = decompose(hand)
    assert d.form == "knitted_straight" and d.melds[0].called and d.pair == 30


def test_taiwan_seventeen_tiles_and_special_form():
    # five sets + pair
    tiles = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27, 27, 27, 31]
    (d,) = decompose(_hand(tiles, 31, rules="taiwan"))
    assert len(d.melds) == 5
    # seven pairs + a triplet
    tiles = [0, 0, 2, 2, 4, 4, 9, 9, 11, 11, 18, 18, 20, 20, 27, 27]
    divs = decompose(_hand(tiles, 27, rules="taiwan"))
    assert [d.form for d in divs] == ["seven_pairs_triplet"]
    assert divs[0].melds[0].tile == 27


def test_decompose_requires_winning_tile():
    hand = _hand([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27], None)
    with pytest.raises(HandSizeError):
        decompose(hand)


@pytest.mark.parametrize("bad,match", [
    (np.full((1, 34), 5, np.uint8), "0..4"),
    (np.zeros((2, 33), np.uint8), "shape"),
    (np.array([[1] * 13 + [0] * 21], np.uint8), "not a complete"),
])
def test_invalid_counts_are_typed_errors(bad, match):
    with pytest.raises(InvalidCountsError, match=match):
        decompose_batch(bad, "mcr")


def test_two_player_rejects_pin_counts():
    c = np.zeros((1, 34), np.uint8)
    c[0, 9] = 2
    with pytest.raises(InvalidCountsError, match="outside"):
        decompose_batch(c, "two_player")


def test_form_masks():
    assert form_mask("tuidaohu") == 0b11
    assert form_mask("taiwan") == 0b100001


def test_hand_convenience_methods_match_the_functions():
    import mjfast
    ready = mjfast.parse_hand("1112345678999m")
    assert ready.shanten() == mjfast.shanten(ready) == 0
    w = ready.waits()
    assert w.mask.sum() == 9          # nine gates waits on every character
    done = mjfast.parse_hand("1112345678999m5m")
    assert done.shanten() == -1
    assert [d.key() for d in done.decompose()] == [d.key() for d in decompose(done)]


# ------------------------------------------------- the MCR per-suit divisions table ----
def test_suit_divisions_table_is_the_search_for_every_suit_pattern():
    """Every code of the per-suit table (a suit's base-5 code; with a pair when its tile
    count is 2 modulo 3) holds exactly the divisions the recursive reference above finds for that suit, with
    each division's sets in the search's order, the divisions themselves in the order
    the package's search meets them; and every suit pattern of 0-14 tiles
    that the reference can split is in the table (none missing, none extra)."""
    from itertools import product

    from mjfast.kernels._decompose import DIV_COLS, FORM_REGULAR, MAX_DIVISIONS, divisions
    from mjfast.kernels._suit_divisions import (NO_PAIR, SLOTS, build_suit_divisions,
                                                division_count, division_word, suit_entry)
    dec = build_suit_divisions()
    n_keys = 0
    for counts in product(range(5), repeat=9):
        total = sum(counts)
        if total % 3 == 1 or total > 14:
            continue
        code = sum(v * 5 ** r for r, v in enumerate(counts))
        with_pair = total % 3 == 2
        c = list(counts) + [0] * 25
        want = set()
        for p in (range(9) if with_pair else [None]):
            if p is not None:
                if c[p] < 2:
                    continue
                c[p] -= 2
            for sets in _ref_sets(c):
                want.add((p, tuple(sorted(sets, key=lambda x: (x[1], x[0])))))
            if p is not None:
                c[p] += 2
        entry = int(suit_entry(dec, code))
        got = []
        for i in range(int(division_count(entry))):
            w = int(division_word(dec, entry, i))
            sets = tuple(((w >> (7 + 5 * j)) & 1, (w >> (8 + 5 * j)) & 15)
                         for j in range((w >> 4) & 7))
            assert list(sets) == sorted(sets, key=lambda x: (x[1], x[0]))
            got.append((None if w & 15 == NO_PAIR else w & 15, sets))
        assert set(got) == want, counts
        if len(got) > 1:
            # in the order the package's search meets them (a suit without a pair gets an
            # honor pair: the search then splits the suit alone)
            hand = np.array(list(counts) + [0] * 24 + ([0] if with_pair else [2]),
                            dtype=np.int64)
            out = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
            rows = out[:divisions(hand, 1 << FORM_REGULAR, out)]
            order = [(None if not with_pair else int(r[1]),
                      tuple((int(r[3 + 2 * j]), int(r[4 + 2 * j])) for j in range(int(r[2]))))
                     for r in rows]
            assert order == got, counts
        n_keys += bool(want)
    assert n_keys == int((dec[:SLOTS] != 0).sum())


@pytest.mark.parametrize("rules", ["mcr", "taiwan"])
def test_table_divisions_are_the_search_rows_in_its_order(rules):
    """The scorers' regular divisions from the per-suit table are the search's rows, row
    for row and in its order (Taiwan keeps the first of equal readings, so the order is
    part of the result); a suit of five sets (15 or 17 tiles) is outside the table."""
    from mjfast.kernels._context import suit_divisions_table
    from mjfast.kernels._decompose import (DIV_COLS, FORM_REGULAR, MAX_DIVISIONS,
                                           divisions_into, new_scratch)
    from mjfast.kernels._suit_divisions import table_divisions
    dec = suit_divisions_table()
    batch = random_hands(4000, rules, "complete", seed=11)
    st = new_scratch()
    a = np.zeros((MAX_DIVISIONS, DIV_COLS), dtype=np.int16)
    b = np.zeros_like(a)
    several = outside = 0
    hands = [batch.counts[i].astype(np.int64) for i in range(len(batch))]
    # plus flushes of one suit, where five sets of a 17-tile hand leave the table
    rng = np.random.default_rng(3)
    for _ in range(300):
        c = np.zeros(34, dtype=np.int64)
        while c.sum() < 17:
            t = int(rng.integers(0, 9))
            if c[t] < 4:
                c[t] += 1
        hands.append(c)
    for c in hands:
        n = table_divisions(c, a, st, dec)
        m = divisions_into(c, 1 << FORM_REGULAR, b, st)
        if n < 0:
            assert max(c[9 * s:9 * s + 9].sum() for s in range(3)) > 14
            outside += 1
            continue
        assert n == m and (a[:n] == b[:m]).all(), c.tolist()
        several += n > 1
    assert several > 20
    assert outside > 0 or rules == "mcr"
