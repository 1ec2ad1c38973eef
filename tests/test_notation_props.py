"""Property tests of the notation layer.

- round trip of every format on 100k random valid hands (numpy-generated arrays, printed
  with ``format_batch``, parsed back with the Cython ``parse_batch``), plus a subset through
  the per-hand Python path (``Hand`` -> ``format_hand`` -> ``parse_hand``);
- the batch kernel and the Python parser accept exactly the same strings and report the
  same error (class, position, message) on random, mutated and garbage input;
- garbage strings and arrays only ever raise ``MjfastError`` subclasses.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjfast import HandBatch
from mjfast.errors import MjfastError
from mjfast.notation import format_batch, format_hand, parse_batch, parse_hand
from mjfast.rules.registry import RULESETS, get_rules

FORMATS = ("mcr", "mpsz", "botzone")
FIELDS = ("counts", "winning_tile", "melds", "n_melds", "flowers", "flags", "seat",
          "prevalent", "dealer", "discarder", "streak", "table_discards")
RULES = tuple(RULESETS)


def random_batch(rng: np.random.Generator, n: int, rules: str) -> HandBatch:
    """n random valid hands as arrays: melds of every kind, waiting and complete hands,
    flowers, every situation field."""
    rs = get_rules(rules)
    kinds = np.array(rs.kinds)
    suited = kinds[kinds < 27]
    chow_starts = suited[suited % 9 <= 6]
    b = HandBatch.empty(n, rs.name)
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        nm = rng.integers(0, rs.sets + 1, m)
        kind = rng.integers(0 if rs.chow_allowed else 1, 3, (m, 5))
        tile = np.where(kind == 0, rng.choice(chow_starts, (m, 5)), rng.choice(kinds, (m, 5)))
        ktype = rng.integers(0, 3, (m, 5))            # kong: 0 exposed, 1 concealed, 2 added
        mflags = np.where(kind == 2, np.where(ktype == 1, 1, np.where(ktype == 2, 2, 0)), 0)
        claimed = np.where(mflags & 1, 0, rng.integers(1, 4, (m, 5)))
        active = np.arange(5)[None, :] < nm[:, None]
        allc = np.zeros((m, 34), np.int64)
        rows = np.repeat(np.arange(m)[:, None], 5, 1)
        for k in range(4):   # the k-th tile of every meld
            t = np.where(kind == 0, tile + min(k, 2), tile)
            use = active & ((kind == 2) | (k < 3))
            np.add.at(allc, (rows[use], t[use]), 1)
        complete = rng.random(m) < 0.8
        nconc = rs.hand_size - 3 * nm + complete
        draw = rng.choice(kinds, (m, 17))
        cmask = np.arange(17)[None, :] < nconc[:, None]
        conc = np.zeros((m, 34), np.int64)
        np.add.at(conc, (np.repeat(np.arange(m)[:, None], 17, 1)[cmask], draw[cmask]), 1)
        valid = (allc + conc).max(1) <= 4
        idx = todo[valid]
        b.counts[idx] = conc[valid]
        win = draw[np.arange(m), np.maximum(nconc - 1, 0)]
        b.winning_tile[idx] = np.where(complete, win, -1)[valid]
        mel = np.stack([np.where(active, kind, -1), np.where(active, tile, 0),
                        np.where(active, mflags, 0), np.where(active, claimed, 0)], -1)
        b.melds[idx] = mel[valid]
        b.n_melds[idx] = nm[valid]
        todo = todo[~valid]
    sd = rng.random(n) < 0.5
    kong = rng.random(n) < 0.2
    flags = (sd * 1 | (rng.random(n) < 0.2) * 2 | (rng.random(n) < 0.2) * 4
             | (kong & sd) * 8 | (kong & ~sd) * 16 | (rng.random(n) < 0.1) * 32
             | (rng.random(n) < 0.1) * 64)
    b.flags[:] = flags
    b.seat[:] = rng.integers(0, 4, n)
    b.prevalent[:] = rng.integers(0, 4, n)
    b.dealer[:] = rng.integers(0, 4, n)
    disc = (b.seat + rng.integers(1, 4, n)) % 4
    b.discarder[:] = np.where(~sd & (rng.random(n) < 0.5), disc, -1)
    b.streak[:] = np.where(rng.random(n) < 0.2, rng.integers(1, 40000, n) % 32768, 0)
    b.table_discards[:] = np.where(rng.random(n) < 0.2, rng.integers(0, 200, n), -1)
    if rs.flowers:
        b.flowers[:] = np.where(rng.random(n) < 0.3, rng.integers(0, 9, n), 0)
    return b


def assert_batches_equal(a: HandBatch, b: HandBatch, where=""):
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f"{f} {where}")


def check_agreement(strings, rules):
    """Python parse_hand vs the batch kernel: same acceptance, same error, same arrays."""
    batch, ok, msgs = parse_batch(strings, rules=rules, errors="mask")
    hands = []
    for i, s in enumerate(strings):
        try:
            h = parse_hand(s, rules=rules)
        except MjfastError as e:
            assert not ok[i], (s, str(e))
            assert msgs[i] == str(e), (s, msgs[i], str(e))
            continue
        assert ok[i], (s, msgs[i])
        hands.append((i, h))
    if hands:
        ref = HandBatch.from_hands([h for _, h in hands], rules)
        rows = np.array([i for i, _ in hands])
        sub = HandBatch(*(getattr(batch, f)[rows] for f in FIELDS), rules=batch.rules)
        assert_batches_equal(sub, ref, "(batch vs per-hand)")
    return ok


# ------------------------------------------------------------------------- round trips
@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_roundtrip_100k(rules):
    """25k random hands per rule set (100k in all), every format, through the batch path."""
    rng = np.random.default_rng(abs(hash(rules)) % 2**32)
    b = random_batch(rng, 25_000, rules)
    for fmt in FORMATS:
        strings = format_batch(b, fmt)
        b2 = parse_batch(pa.array(strings), rules=rules)
        assert_batches_equal(b, b2, fmt)


@pytest.mark.parametrize("rules", RULES)
def test_roundtrip_per_hand(rules):
    """A subset through the Python path: Hand -> string -> Hand, flower letters included,
    and the per-hand printer agrees with the batch printer."""
    rng = np.random.default_rng(7 + len(rules))
    b = random_batch(rng, 400, rules)
    strings = {fmt: format_batch(b, fmt) for fmt in FORMATS}
    for i, h in enumerate(b):
        for fmt in FORMATS:
            s = format_hand(h, fmt)
            assert s == strings[fmt][i]
            assert parse_hand(s, rules=rules) == h
        if h.flower_count:
            ids = tuple(34 + rng.choice(8, h.flower_count, replace=False))
            h2 = replace(h, flowers=ids)
            for fmt in FORMATS:
                assert parse_hand(format_hand(h2, fmt), rules=rules) == h2
    # the same strings with situation keywords reproduce the situation
    h = b.hand(0)
    s = h.situation
    plain = format_hand(replace(h, situation=type(s)()), "mcr")
    opts = {k: getattr(s, k) for k in ("seat", "prevalent", "dealer", "self_drawn",
                                       "discarder", "streak", "table_discards",
                                       "original_ready", "last_tile", "kong_replacement",
                                       "robbing_kong", "fourth_tile", "first_turn")}
    assert parse_hand(plain, rules=rules, flowers=h.flower_count, **opts) == h


# ------------------------------------------------------------------------- agreement
def mutate(rng, strings, alphabet, pieces=()):
    """1..3 edits per string: delete, insert or replace a character, or splice in a piece."""
    out = []
    for s in strings:
        s = list(s)
        for _ in range(int(rng.integers(1, 4))):
            op = rng.integers(0, 4 if pieces else 3)
            k = int(rng.integers(0, len(s) + 1))
            ch = alphabet[int(rng.integers(0, len(alphabet)))]
            if op == 3:
                s[k:k] = list(pieces[int(rng.integers(0, len(pieces)))])
                continue
            if op == 0 and s:
                del s[min(k, len(s) - 1)]
            elif op == 1:
                s.insert(k, ch)
            elif s:
                s[min(k, len(s) - 1)] = ch
        out.append("".join(s))
    return out


MPSZ_ALPHABET = "0123456789mpszESWNCFP[],|abcdefghx=_ éilnrtkdus"
BZ_ALPHABET = "WBTFJH0123456789 []|ACEGHIKNPU=dealrtsk\t"
MPSZ_SPLICE = ("[123m]", "[EEE,2]", "[1111p]", "[5555s,7]", "1m", "9p", "5s", "E", "7z", "|",
               "|EE1000", "|SS0001", "|8", "|9", "|aa", "|abc", ",dealer=S", ",discarder=E",
               ",discarder=S", ",streak=1", ",first_turn", ",first_turn", "[12", "]", "11111m")
BZ_SPLICE = (" [CHI W2 1]", " [PENG F1 2] ", " [ANGANG J1]", " W1", " B9 ", " T5", " F4 ",
             " | ", " | F1 F2 1000 ", " | F2 F2 0001 ", " | 9", " | H1 H1", " discarder=S",
             " discarder=E", " streak=3", " first_turn", " first_turn", " [CHI T9 1]",
             " W1 W1 W1 W1 W1")


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_agreement_on_mutated_hands(rules):
    rng = np.random.default_rng(11 + len(rules))
    b = random_batch(rng, 1500, rules)
    for fmt, alpha, pieces in (("mcr", MPSZ_ALPHABET, MPSZ_SPLICE), ("mpsz", MPSZ_ALPHABET, MPSZ_SPLICE),
                               ("botzone", BZ_ALPHABET, BZ_SPLICE)):
        good = format_batch(b, fmt)
        bad = mutate(rng, good, alpha, pieces)
        ok = check_agreement(good + bad, rules)
        assert ok[:len(good)].all()
        assert not ok[len(good):].all()      # the mutations do reach the error paths


def test_python_fallback_matches_kernel(monkeypatch):
    """Without the compiled extension parse_batch runs the Python grammar: same results."""
    import mjfast.notation._api as nt
    rng = np.random.default_rng(5)
    b = random_batch(rng, 300, "mcr")
    strings = []
    for fmt, alpha, pieces in (("mcr", MPSZ_ALPHABET, MPSZ_SPLICE),
                               ("botzone", BZ_ALPHABET, BZ_SPLICE)):
        good = format_batch(b, fmt)
        strings += good + mutate(rng, good, alpha, pieces)
    strings += [None, "é1m", "W1 é"]
    fast, ok1, m1 = parse_batch(strings, errors="mask")
    monkeypatch.setattr(nt, "_KERNEL", [None])
    slow, ok2, m2 = parse_batch(strings, errors="mask")
    np.testing.assert_array_equal(ok1, ok2)
    assert m1 == m2
    assert_batches_equal(fast, slow, "(kernel vs Python fallback)")


settings_fast = settings(max_examples=300, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow])
TOKENS = st.sampled_from(["W1", "W9", "B5", "T3", "F1", "F4", "J1", "J3", "H1", "H8", "X1",
                          "W0", "F5", "[CHI", "[PENG", "[GANG", "[ANGANG", "[BUGANG", "]",
                          "[", "|", "||", "0", "1", "3", "5", "1000", "0001", "10x0",
                          "dealer=S", "discarder=W", "streak=3", "original_ready", "x=1"])
MPSZ_PIECES = st.sampled_from(["123m", "456p", "789s", "1z", "5z", "8z", "0m", "E", "S",
                               "W", "N", "C", "F", "P", "[", "]", ",", "1", "2", "5", "7",
                               "[345m3]", "[EEE,2]", "[CCCC]", "[1111p,6]", "|", "|EE1000",
                               "|SW0101", "|3", "|ab", "|dealer=N", ",streak=2", "11",
                               "99s", "m", "z", "|EE0000||discarder=S"])


@settings_fast
@given(st.text(max_size=60), st.sampled_from(RULES))
def test_garbage_text(text, rules):
    check_agreement([text], rules)


@settings_fast
@given(st.text(alphabet=MPSZ_ALPHABET, max_size=60), st.sampled_from(RULES))
def test_garbage_mpsz_alphabet(text, rules):
    check_agreement([text], rules)


@settings_fast
@given(st.lists(MPSZ_PIECES, max_size=25).map("".join), st.sampled_from(RULES))
def test_garbage_mpsz_pieces(text, rules):
    check_agreement([text], rules)


@settings_fast
@given(st.lists(TOKENS, max_size=25).map(" ".join), st.sampled_from(RULES))
def test_garbage_botzone_tokens(text, rules):
    check_agreement([text], rules)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(max_size=20), st.integers(), st.floats(),
                          st.binary(max_size=5)), max_size=8))
def test_garbage_lists(items):
    try:
        batch, ok, msgs = parse_batch(items, errors="mask")
    except MjfastError:
        return
    assert len(batch) == len(items) == len(ok) == len(msgs)
    for i, x in enumerate(items):
        if not ok[i]:
            assert msgs[i]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["i1", "i8", "u1", "f8", "U3", "O", "?"]), st.integers(0, 6),
       st.integers(0, 2**32 - 1))
def test_garbage_arrays(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if dtype == "U3":
        arr = np.array(["".join(map(chr, rng.integers(32, 127, 3))) for _ in range(n)])
    elif dtype == "O":
        arr = np.array([None, 1, "1m", 2.5, b"x", [1]][:n] + [None] * max(0, n - 6),
                       dtype=object)
    else:
        arr = (rng.random(n) * 100).astype(dtype)
    for inp in (arr, list(arr)):
        try:
            parse_batch(inp, errors="mask")
        except MjfastError:
            pass
        try:
            parse_batch(inp)
        except MjfastError:
            pass
    try:
        parse_batch(pa.array(arr) if dtype not in ("O",) else arr)
    except MjfastError:
        pass
