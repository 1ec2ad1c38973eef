"""The one rule profile (mjfast.rules._profile): loaded from the TOML files, the data is
the whole truth (a variant file's exclusion / value / policy change reaches the scorers),
an edit the scorer cannot honour is a RuleSetError at load."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast.errors import RuleSetError
from mjfast.notation import parse_hand
from mjfast.rules._profile import (P_EXCL, P_EXCL_BITS, P_EXCLUDERS, P_OFF, P_RED_N, P_RED_T,
                                   P_RED_UNLESS, P_REDUCERS, PROFILE_FIELDS, DecisionMode,
                                   Payers, WindPungAccount,
                                   get_profile)
from mjfast.scoring import mcr, taiwan, tuidaohu

RULES = [("mcr", None), ("mcr", "botzone"), ("mcr", "seed"), ("taiwan", None),
         ("tuidaohu", None), ("two_player", None)]


def _variant(tmp_path, name: str, text: str) -> str:
    p = tmp_path / f"{name}.study.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("rules,variant", RULES)
def test_one_layout_for_every_rule_set(rules, variant):
    prof = get_profile(rules, variant)
    args = prof.kernel_args()
    assert len(args) == len(PROFILE_FIELDS)
    assert all(a.dtype == np.int64 for a in args)
    assert [a.ndim for a in args] == [1, 1, 1, 2, 1, 1, 1, 2, 1, 1, 1, 1, 2]
    n = prof.n_cols
    assert sorted(args[2].tolist()) == list(range(n))          # topo: every column once
    for r in prof.rows:
        assert args[1][r.id] == (r.points if r.enabled else 0)
    assert prof.content_hash() == get_profile(rules, variant).content_hash()


def test_content_hash_follows_the_content(tmp_path):
    base = get_profile("mcr")
    assert base.content_hash() != get_profile("mcr", "botzone").content_hash()
    same = _variant(tmp_path, "mcr", "# nothing changes\n[variant]\nname = 'x'\n")
    assert get_profile("mcr", same).content_hash() == base.content_hash()
    moved = _variant(tmp_path, "mcr2", "[rows.54]\npoints = 7\n")
    assert get_profile("mcr", moved).content_hash() != base.content_hash()


def test_names_and_judges_aliases():
    p = get_profile("mcr")
    assert p.row("边张").id == 77 and p.row("嵌张").id == 78 and p.row("单钓将").id == 79
    assert p.row("独听・单钓").id == 79 and p.row("Single Wait").id == 79
    assert p.row("single_wait").aliases == ("单钓将",)
    assert p.sources and p.structure.players == 4


def test_policies_are_enums():
    t = get_profile("tuidaohu")
    assert t.policies["win_discard_payers"] is Payers.DISCARDER
    assert get_profile("mcr").policies["seat_prevalent_wind_pung"] is WindPungAccount.ACCOUNT_ONCE
    assert {d.mode for d in get_profile("taiwan").decisions} >= {
        DecisionMode.CUMULATIVE, DecisionMode.REPLACES, DecisionMode.HIGHEST}
    assert get_profile("two_player").caps == {"fan_cap": 6}


@pytest.mark.parametrize("rules,text", [
    ("mcr", "[params]\nminimun = 8\n"),                              # unknown parameter
    ("mcr", "[params]\nseat_prevalent_wind_pung = 'twice'\n"),        # unknown policy
    ("taiwan", "[params]\ndealer_bonus_on_nondealer_tsumo = true\n"),  # not implemented
    ("tuidaohu", "[params]\nwin_self_drawn_payers = 'discarder'\n"),  # not implemented
    ("tuidaohu", "[rows.8]\nexcludes = [9]\n"),                      # a cycle
    ("mcr", "[rows.4]\nreduces = [[73, 1], [60, 1]]\n"),             # one deduction per row
    ("mcr", "[rows.4]\nbonus = 3\n"),                                # unknown row field
    ("taiwan", "[rows.7]\nexcludes = []\n"),                         # contradicts a decision
    ("mcr", "[rows.12]\nkey = 'other'\n"),                           # keys are code's
    ("mcr", "[rows.54]\npoints = -1\n"),                             # values are 0..2**20
    ("tuidaohu", "[rows.8]\npoints = 1048577\n"),
])
def test_edits_the_scorer_cannot_honour_are_typed_errors(tmp_path, rules, text):
    with pytest.raises(RuleSetError):
        path = _variant(tmp_path, rules, text)
        if rules == "taiwan":
            taiwan.get_table(path)
        else:
            get_profile(rules, path)


def test_unknown_variant_name():
    with pytest.raises(RuleSetError):
        get_profile("mcr", "no_such_variant")
    with pytest.raises(RuleSetError):
        get_profile("mcr", "/no/such/file.toml")


# ---- a flipped exclusion in a temporary variant file moves the totals ----------------------
def _mcr_total(text, variant=None, **sit):
    return mcr.score_hand(parse_hand(text, rules="mcr", **sit), variant=variant).total


def test_mcr_exclusion_flip(tmp_path):
    hand = "[CCC,1]FFF123m456p7s7s"          # 双箭刻 (excludes 箭刻) + 单钓将
    base = _mcr_total(hand)
    v = _variant(tmp_path, "mcr", "[rows.54]\nexcludes = []\n")
    assert _mcr_total(hand, v) == base + 2 * 2          # the two 箭刻 now count


def test_mcr_pair_fans_follow_the_data(tmp_path):
    # 小四喜 rules out 三风刻 by data only (mcr.toml), not by kernel code
    hand = "[EEE,1][SSS,1]WWW123mNN"
    base = _mcr_total(hand, self_drawn=True)
    v = _variant(tmp_path, "mcr", "[rows.9]\nexcludes = [73]\n")
    got = mcr.score_hand(parse_hand(hand, rules="mcr", self_drawn=True), variant=v)
    assert 38 in {f.id for f in got.fans} and got.total == base + 12
    # 小三元 and 双箭刻 likewise
    hand = "[CCC,1]FFF123m456pPP"
    base = _mcr_total(hand)
    v = _variant(tmp_path, "mcr2", "[rows.10]\nexcludes = [59]\n")
    assert _mcr_total(hand, v) == base + 6


def test_mcr_wind_pung_policy(tmp_path):
    # seat E, prevalent E: one pung of E scores 圈风刻 + 门风刻; with 999m, 幺九刻 raw 2
    hand = "[EEE,1]999m123p456s7s7s"
    once = mcr.score_hand(parse_hand(hand, rules="mcr"))
    v = _variant(tmp_path, "mcr", "[params]\nseat_prevalent_wind_pung = 'account_each'\n")
    each = mcr.score_hand(parse_hand(hand, rules="mcr"), variant=v)
    count = {f.id: f.count for f in once.fans}
    assert count.get(60) == 1 and count.get(61) == 1 and count.get(73) == 1
    assert each.total == once.total - 1 and 73 not in {f.id for f in each.fans}
    # the wind fans' own exclusions are data too: a variant where 圈风刻 excludes 门风刻
    v2 = _variant(tmp_path, "mcr2", "[rows.60]\nexcludes = [61]\n")
    assert mcr.score_hand(parse_hand(hand, rules="mcr"), variant=v2).total == once.total - 2


def test_taiwan_exclusion_flip(tmp_path):
    hand = parse_hand("123m456m789p222s678s5m5m", rules="taiwan", self_drawn=True,
                      table_discards=20)
    base = taiwan.score_hand(hand).total
    # 門清自摸 no longer rules out 自摸 (門前清 is a discard-win item: it does not fire on a
    # self-draw); the decision list goes with it
    v = _variant(tmp_path, "taiwan", "[rows.7]\nexcludes = []\n"
                 "[[decision]]\nname = 'dragons'\nmode = 'highest'\nmembers = [21, 22]\n")
    t = taiwan.get_table(v)
    got = taiwan.score_hand(hand, variant=v)
    assert got.total == base + t.row("self_draw").points
    assert {f.id for f in got.fans} >= {7, 9}
    b = taiwan.score_batch(__import__("mjfast").HandBatch.from_hands([hand], "taiwan"), variant=v)
    assert b.totals[0] == base + t.row("self_draw").points


@pytest.mark.parametrize("rules", ["tuidaohu", "two_player"])
def test_tuidaohu_exclusion_flip(tmp_path, rules):
    text = "11112233445566m" if rules == "tuidaohu" else "11112233445566m"
    hand = parse_hand(text, rules=rules)
    base = tuidaohu.score_hand(hand)
    assert 9 in {f.id for f in base.fans}                  # luxury seven pairs
    v = _variant(tmp_path, "tuidaohu", "[rows.9]\nexcludes = []\n")
    got = tuidaohu.score_hand(hand, variant=v)
    assert got.total == base.total + get_profile(rules).row(8).points


def test_exclusions_beyond_63_items(tmp_path):
    # no bit-mask limit: MCR has 82 fans in one graph; a fan with a high id excludes one
    # with a low id and the reverse
    v = _variant(tmp_path, "mcr", "[rows.79]\nexcludes = [2]\n")
    prof = get_profile("mcr", v)
    excl = prof.kernel_args()[3]
    assert 2 in excl[79, 1:1 + excl[79, 0]].tolist()


def test_mcr_predicates_found_by_key():
    from mjfast.kernels import _mcr_fans, _mcr_hand
    from mjfast.rules._keys import MCR_KEYS
    assert set(_mcr_fans.DECIDED_BY) == set(MCR_KEYS)
    for i, key in enumerate(MCR_KEYS, start=1):
        const = {"greater_honors_and_knitted_tiles": "GREATER_HONORS_KNITTED",
                 "lesser_honors_and_knitted_tiles": "LESSER_HONORS_KNITTED",
                 "self_drawn": "SELF_DRAWN_FAN"}.get(key, key.upper())
        assert getattr(_mcr_fans, const) == i          # the constant is the key
        for name in _mcr_fans.DECIDED_BY[key].split(" (")[0].split(" / "):
            if name != "the drivers":
                assert hasattr(_mcr_fans, name) or hasattr(_mcr_hand, name), (key, name)


def test_totals_are_counts_times_values_up_to_the_largest_value(tmp_path):
    """The scorers multiply in 32-bit lanes: totals stay the fan counts times the values
    at the largest value a rule file may hold (MAX_POINTS)."""
    from mjfast import random_hands, score_batch
    from mjfast.rules._table import MAX_POINTS
    big = _variant(tmp_path, "mcr", f"[rows.54]\npoints = {MAX_POINTS}\n"
                                    "[rows.69]\npoints = 1000003\n[rows.49]\npoints = 0\n")
    batch = random_hands(3000, "mcr", "complete", seed=3)
    for variant in (None, big):
        sc = score_batch(batch, variant=variant, threads=1)
        points = get_profile("mcr", variant).kernel_args()[1]
        counts = sc.fan_counts.astype(np.int64)
        assert (sc.totals >= 0).all()
        assert (counts @ points[:counts.shape[1]] == sc.totals).all()
    assert (counts[:, 54] > 0).any() and (counts[:, 69] > 0).any()


def test_more_than_64_excluders_span_two_words(tmp_path):
    """The exclusion pass gathers the excluders a hand holds into one word per 64 (MCR has
    45: one word); a file with more takes two words, and must score alike.
    Twenty more rows exclude the chicken hand, which is only set after the exclusions, so
    the scores cannot change."""
    from mjfast import random_hands, score_batch
    rows = [17, 24, 30, 35, 38, 39, 41, 42, 45, 48, 50, 51, 55, 58, 59, 60, 61, 62, 64, 65]
    text = "".join(f"[rows.{r}]\nexcludes = [43]\n" for r in rows)
    many = _variant(tmp_path, "mcr", text)
    assert len(get_profile("mcr", many).kernel_args()[P_EXCLUDERS]) > 64
    assert len(get_profile("mcr").kernel_args()[P_EXCLUDERS]) <= 64
    # (these rows exclude a lower id: the walk by rank)
    assert get_profile("mcr", many).kernel_args()[P_EXCL_BITS][-1, 0] == 0
    batch = random_hands(3000, "mcr", "complete", seed=4)
    base, other = (score_batch(batch, variant=v, threads=1) for v in (None, many))
    assert (base.totals == other.totals).all()
    assert (base.fan_counts == other.fan_counts).all()


def _exclusions_by_list(ft, args, skip=0):
    """The exclusion semantics written plainly over the profile's lists (the oracle):
    switched-off fans dropped; each excluder, in topo order, still counting (> 0) zeroes
    the fans it excludes; then the account-once deductions."""
    ft = ft.copy()
    ft[args[P_OFF]] = 0
    excl = args[P_EXCL]
    for f in args[P_EXCLUDERS].tolist():
        if ft[f] > 0:
            ft[excl[f, 1:1 + excl[f, 0]]] = 0
    unless = args[P_RED_UNLESS]
    for f in args[P_REDUCERS].tolist():
        if ft[f] <= 0 or f == skip:
            continue
        if not (ft[unless[f, 1:1 + unless[f, 0]]] > 0).any():
            t = args[P_RED_T][f]
            ft[t] = max(0, ft[t] - args[P_RED_N][f])
    return ft


@pytest.mark.parametrize("rules,variant", RULES)
def test_exclusion_bits_are_the_graph_and_both_walks_agree(rules, variant):
    """``excl_bits`` holds the exclusion lists as id sets, and says whether id order is
    topological (every MCR table). The kernel walks the held fans by id there, else the
    excluders in topo order; on random fan counts (a negative one now and then: a fifth
    copy's tile hog) both walks leave what the plain list semantics leave, and the id
    set returned holds every fan left with a count."""
    from mjfast.kernels._exclude import apply_exclusions, apply_exclusions_held
    args = get_profile(rules, variant).kernel_args()
    excl, excluders, bits = args[P_EXCL], args[P_EXCLUDERS], args[P_EXCL_BITS]
    n = bits.shape[0] - 2
    by_id = all(g > f for f in excluders.tolist() for g in excl[f, 1:1 + excl[f, 0]].tolist())
    assert bits[n + 1, 0] == int(by_id)
    assert by_id or rules != "mcr"
    words = bits.view(np.uint64)
    for f in range(n):
        ids = {g for g in range(n) if (int(words[f, g >> 6]) >> (g & 63)) & 1}
        assert ids == set(excl[f, 1:1 + excl[f, 0]].tolist())
    held = {g for g in range(n) if (int(words[n, g >> 6]) >> (g & 63)) & 1}
    assert held == set(excluders.tolist())
    by_rank = bits.copy()
    by_rank[n + 1, 0] = 0
    rng = np.random.default_rng(7)
    rest = (args[P_REDUCERS], args[P_RED_T], args[P_RED_N], args[P_RED_UNLESS], args[P_OFF])
    changed = 0
    for _ in range(3000):
        ft = np.zeros(128, dtype=np.int64)
        ids = rng.choice(np.arange(1, n), size=rng.integers(1, 12), replace=False)
        ft[ids] = rng.integers(1, 3, size=ids.size)
        if rng.random() < 0.2:
            ft[rng.integers(1, n)] = -1       # (a fifth copy's tile hog)
        want = _exclusions_by_list(ft, args)
        for walk in ((bits, by_rank) if by_id else (bits,)):
            got = ft.copy()
            held = apply_exclusions(got, excluders, *rest, 0, walk)
            assert (got == want).all(), sorted(ids.tolist())
            in_set = {f for f in range(128) if (int(held[f >> 6]) >> (f & 63)) & 1}
            assert {f for f in range(n) if got[f] != 0} <= in_set
            assert all(got[f] == 0 for f in in_set if f >= n or got[f] == 0)
            # the same walk from a held set the caller kept (a superset of the fans
            # with a count: extra ids change nothing)
            got = ft.copy()
            extra = rng.choice(np.arange(1, n), size=rng.integers(0, 8), replace=False)
            words = np.zeros(2, dtype=np.uint64)
            for f in set(np.flatnonzero(ft).tolist()) | set(extra.tolist()):
                words[f >> 6] |= np.uint64(1 << (f & 63))
            held = apply_exclusions_held(got, excluders, *rest, 0, walk, words[0], words[1])
            assert (got == want).all(), (sorted(ids.tolist()), sorted(extra.tolist()))
            in_set = {f for f in range(128) if (int(held[f >> 6]) >> (f & 63)) & 1}
            assert {f for f in range(n) if got[f] != 0} <= in_set
        changed += int((want != ft).any())
    assert changed > 100            # the draws do exercise the graph


def test_add_fan_builds_the_id_set():
    """``add_fan`` (what the MCR scorer keeps as it writes a division's fans) adds fan
    ``f`` to the two-word id set exactly when its count is not 0, either word."""
    from mjfast.kernels._exclude import add_fan
    rng = np.random.default_rng(3)
    for _ in range(200):
        lo, hi = np.uint64(0), np.uint64(0)
        want = set()
        for f in rng.integers(0, 128, size=6).tolist():
            v = int(rng.integers(-1, 3))
            lo, hi = (np.uint64(w) for w in add_fan(lo, hi, f, v))
            if v:
                want.add(f)
        got = {f for f in range(128) if (int(hi if f >= 64 else lo) >> (f & 63)) & 1}
        assert got == want


def test_row_lookups_are_read_only_and_survive_pickling():
    """``by_id`` / ``by_key`` are built once per table (the scorers look a row up for
    every fan a hand scores) and handed out read-only: a caller cannot edit the table
    through them, and a table whose lookups were built still pickles (pool and Dask
    workers receive rule tables)."""
    import pickle
    table = mcr.rule_table("botzone").table
    assert table.row(1).key == table.by_id[1].key
    with pytest.raises(TypeError):
        table.by_id[1] = table.by_id[2]
    with pytest.raises(TypeError):
        table.by_key["chicken_hand"] = table.by_id[2]
    back = pickle.loads(pickle.dumps(table))
    assert back == table
    assert [back.row(r.id).key for r in table.rows] == [r.key for r in table.rows]
    assert all(back.row(r.key).id == r.id for r in table.rows)
