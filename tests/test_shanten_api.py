"""Public shanten API: inputs, errors, single hands, the CLI report, threads, tables."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import mjfast
from mjfast.errors import InvalidCountsError
from mjfast.notation import parse_hand
from mjfast._shanten import NO_FORM, Waits, format_report, report, shanten, waits
from test_shanten_bruteforce import random_hands


def counts_of(tiles: list[int]) -> np.ndarray:
    c = np.zeros(34, dtype=np.uint8)
    for t in tiles:
        c[t] += 1
    return c


NINE_GATES = counts_of([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8])   # 1112345678999m


# ---- values on known hands --------------------------------------------------------
def test_known_hands():
    assert shanten(NINE_GATES) == 0
    w = waits(NINE_GATES)
    assert np.flatnonzero(w.mask).tolist() == list(range(9))
    assert w.live.tolist()[:9] == [1, 3, 3, 3, 3, 3, 3, 3, 1]
    assert int(w.ukeire) == 23
    orphans = counts_of([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])
    assert shanten(orphans) == 0
    assert waits(orphans).mask.sum() == 13
    assert shanten(orphans, rules="tuidaohu") > 0          # no thirteen orphans there
    complete = counts_of([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 10, 10])
    assert shanten(complete) == -1


def test_fifth_copy_is_never_a_wait():
    # 1111m 234p 567p 789s: the only "wait" would be a fifth 1m
    row = counts_of([0, 0, 0, 0, 10, 11, 12, 13, 14, 15, 24, 25, 26])
    w = waits(row)
    assert not w.mask[0]
    assert w.shanten == 1
    # a held four as two pairs: 1111m 22m 33m 44m 55m 6m -> ready on 6m (seven pairs)
    sp = counts_of([0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5])
    assert shanten(sp, forms=True)["seven_pairs"] == 0


def test_seven_pairs_triplet_taiwan():
    # 16 tiles: 6 pairs + a triplet + a single -> ready (the single pairs up)
    tiles = [0, 0, 2, 2, 4, 4, 9, 9, 11, 11, 13, 13, 27, 27, 27, 31]
    f = shanten(counts_of(tiles), rules="taiwan", forms=True)
    assert f["seven_pairs_triplet"] == 0
    assert set(f) == {"shanten", "regular", "seven_pairs_triplet"}


def test_forms_dict_and_no_form_with_melds():
    rng = np.random.default_rng(1)
    hands = random_hands(rng, "mcr", 10, 50)          # one called meld
    f = shanten(hands, forms=True)
    assert set(f) == {"shanten", "regular", "seven_pairs", "thirteen_orphans",
                      "honors_knitted", "knitted_straight"}
    assert (f["seven_pairs"] == NO_FORM).all()
    assert (f["knitted_straight"] != NO_FORM).all()     # 9 knitted + pair + a called set
    assert (f["shanten"] == np.minimum(f["regular"], f["knitted_straight"])).all()
    hands7 = random_hands(rng, "mcr", 7, 20)
    assert (shanten(hands7, forms=True)["knitted_straight"] == NO_FORM).all()


def test_mixed_sizes_in_one_batch():
    rng = np.random.default_rng(2)
    parts = [random_hands(rng, "mcr", n, 200) for n in (13, 14, 10, 11, 7, 8, 4, 5, 1, 2)]
    hands = np.concatenate(parts)
    perm = rng.permutation(len(hands))
    got = shanten(hands[perm])
    expect = np.concatenate([shanten(p) for p in parts])[perm]
    assert np.array_equal(got, expect)
    # forms and waits too (blocks where rows need different numbers of sets)
    f_mixed, f_sep = shanten(hands[perm], forms=True), None
    for name in f_mixed:
        f_sep = np.concatenate([shanten(p, forms=True)[name] for p in parts])[perm]
        assert np.array_equal(f_mixed[name], f_sep), name
    waiting = np.concatenate([p for p in parts if p.sum(1)[0] % 3 == 1])
    perm2 = rng.permutation(len(waiting))
    wm = waits(waiting[perm2])
    ws = [waits(p) for p in parts if p.sum(1)[0] % 3 == 1]
    assert np.array_equal(wm.mask, np.concatenate([w.mask for w in ws])[perm2])


# ---- inputs ----------------------------------------------------------------------------
def test_dtypes_and_shapes():
    rng = np.random.default_rng(3)
    hands = random_hands(rng, "mcr", 13, 100)
    base = shanten(hands)
    assert base.dtype == np.int8 and base.shape == (100,)
    assert np.array_equal(shanten(hands.astype(np.int64)), base)
    assert np.array_equal(shanten(hands.tolist()), base)
    assert shanten(hands[5]) == base[5]
    assert isinstance(shanten(hands[5]), int)
    w = waits(hands)
    mask, live = w
    assert mask.dtype == np.bool_ and live.dtype == np.int8 and mask.shape == (100, 34)
    assert (live[~mask] == 0).all()


@pytest.mark.parametrize("rules,row,reason", [
    ("mcr", lambda r: r.__setitem__(4, 5), "copies"),
    ("mcr", lambda r: r.__setitem__(4, r[4] + 3), "tile total"),
    ("two_player", lambda r: (r.__setitem__(0, r[0] - 1 if r[0] else r[0]), r.__setitem__(12, 1)), "not in the two_player"),
])
def test_invalid_rows_raise_naming_the_row(rules, row, reason):
    rng = np.random.default_rng(4)
    hands = random_hands(rng, rules, 13, 10).astype(np.int64)
    if rules == "two_player":
        # move one tile to 4p (not in the set) keeping the total
        t = int(np.flatnonzero(hands[7])[0])
        hands[7, t] -= 1
        hands[7, 12] += 1
    else:
        row(hands[7])
    for fn in (shanten, waits):
        with pytest.raises(InvalidCountsError) as e:
            fn(hands.astype(np.uint8) if (hands >= 0).all() else hands, rules=rules)
        assert e.value.position == 7
        assert "row 7" in str(e.value)
        assert reason in str(e.value)


def test_other_invalid_inputs():
    good = NINE_GATES.copy()
    with pytest.raises(InvalidCountsError):
        shanten(np.zeros((3, 33), np.uint8))
    bad = np.stack([good, good]).astype(np.int64)
    bad[1, 0] = -1
    with pytest.raises(InvalidCountsError) as e:
        shanten(bad)
    assert e.value.position == 1
    with pytest.raises(InvalidCountsError):                  # 0 tiles
        shanten(np.zeros((1, 34), np.uint8))
    too_many = good.copy()
    too_many[20:23] += 1                                      # 16 tiles in MCR
    with pytest.raises(InvalidCountsError):
        shanten(too_many)
    fourteen = good.copy()
    fourteen[9] += 1
    assert shanten(fourteen) >= -1
    with pytest.raises(InvalidCountsError) as e:             # waits need a waiting hand
        waits(np.stack([good, fourteen]))
    assert e.value.position == 1
    with pytest.raises(InvalidCountsError):
        waits(good, visible=np.full(34, 5))
    with pytest.raises(mjfast.MjfastError):
        shanten(good, rules="riichi")


def test_invalid_arrays_are_typed_errors():
    assert issubclass(InvalidCountsError, ValueError)


# ---- visible tiles and live counts -----------------------------------------------------
def test_live_counts_with_visible():
    vis = np.zeros(34, np.int16)
    vis[0] = 1      # one 1m seen elsewhere
    vis[4] = 4      # every 5m seen
    w = waits(NINE_GATES, visible=vis)
    assert w.live[0] == 0 and w.live[4] == 0 and w.mask[4]
    assert int(w.ukeire) == 23 - 1 - 3
    rng = np.random.default_rng(5)
    hands = random_hands(rng, "mcr", 13, 500)
    vis2 = rng.integers(0, 3, size=(500, 34))
    w2 = waits(hands, visible=vis2)
    expect = np.clip(4 - hands.astype(int) - vis2, 0, None) * w2.mask
    assert np.array_equal(w2.live, expect)
    assert np.array_equal(waits(hands).mask, w2.mask)


def test_threads_give_the_same_result():
    rng = np.random.default_rng(6)
    hands = random_hands(rng, "mcr", 13, 20000)
    assert np.array_equal(shanten(hands, threads=2), shanten(hands))
    a, b = waits(hands, threads=2), waits(hands)
    assert np.array_equal(a.mask, b.mask) and np.array_equal(a.live, b.live)
    bad = hands.copy()
    bad[15000, 0] = 5
    with pytest.raises(InvalidCountsError) as e:
        shanten(bad, threads=2)
    assert e.value.position == 15000


# ---- single hands, the package attribute and the CLI report ------------------------------
def test_hand_and_string_inputs():
    h = parse_hand("11122345678999m")
    assert shanten(h) == -1
    assert shanten("11122345678999m") == -1
    assert shanten("11123456789m99p") == 0
    w = waits("11123456789m99p")
    assert isinstance(w, Waits) and w.shanten == 0
    assert shanten("19m19p19s1234567z", forms=True)["thirteen_orphans"] == 0
    assert shanten(["11122345678999m", "11123456789m99p"]).tolist() == [-1, 0]
    # the package attribute is callable whether the submodule was imported or not
    assert mjfast.shanten(NINE_GATES) == 0
    assert mjfast._shanten.report("11122345678999m")["shanten"] == -1
    assert mjfast.waits(NINE_GATES).mask.sum() == 9


def test_report_shapes():
    r = report("11122345678999m")
    assert r == {"shanten": -1, "effective": []}
    r = report("123456789m1112p")
    assert r["shanten"] == 0
    assert r["waits"] == r["effective"] == [{"tile": "2p", "live": 3}, {"tile": "3p", "live": 4}]
    json.dumps(r)
    r = report("1367m2p4599s1357z")
    assert r["shanten"] >= 1 and "waits" not in r
    assert all(set(e) == {"tile", "live"} for e in r["effective"])
    text = format_report(report("123456789m1112p"))
    assert "shanten: 0" in text and "2p" in text and "waits" in text


def test_report_with_melds_counts_own_melds_as_seen():
    # [123m] called; 123m 4m... waiting: 1m is in the meld, so fewer live copies
    r = report("[123m]1m23m456m789p5s")
    by = {e["tile"]: e["live"] for e in r["effective"]}
    assert r["shanten"] == 0
    assert by == {"5s": 3}
    r2 = report("[111m]1m23p456p789s5s")        # a fourth 1m is held: never a wait
    assert "1m" not in {e["tile"] for e in r2["effective"]}


def test_two_player_waits_stay_in_the_tile_set():
    rng = np.random.default_rng(7)
    hands = random_hands(rng, "two_player", 13, 2000)
    w = waits(hands, rules="two_player")
    assert not w.mask[:, 9:27].any()


# ---- tables --------------------------------------------------------------------------------
@pytest.mark.slow
def test_tables_cached_and_regenerated(tmp_path):
    """(The generation time is a benchmark: benchmarks/bench_first_run.py.)"""
    code = ("from mjfast.kernels._shanten_tables import get_tables; get_tables()")
    env = dict(os.environ, MJFAST_CACHE_DIR=str(tmp_path))
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    files = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".npy"))
    assert len(files) == 4                 # (compiled kernels may be cached there too)
    # a corrupt cache file is regenerated, not trusted
    victim = tmp_path / files[0]
    victim.write_bytes(b"not a table")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    assert np.load(victim).dtype in (np.int16, np.int64)       # a table again


@pytest.mark.slow
def test_cli_shanten_json_and_text():
    """``mjfast shanten "<hand>" [--json]`` as a user runs it."""
    def run(*args):
        return subprocess.run([sys.executable, "-m", "mjfast", "shanten", *args],
                              capture_output=True, text=True, timeout=1800)
    out = run("123456789m1112p", "--rules", "mcr", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d == {"shanten": 0, "effective": [{"tile": "2p", "live": 3}, {"tile": "3p", "live": 4}],
                 "waits": [{"tile": "2p", "live": 3}, {"tile": "3p", "live": 4}]}
    out = run("1367m2p4599s1357z")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("shanten: ") and "effective:" in out.stdout
