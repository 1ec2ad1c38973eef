"""Notation: tiles, the three hand formats, validation errors, peer strings, batch input kinds."""
from __future__ import annotations

import ast

import numpy as np
import pyarrow as pa
import pytest

from mjfast import Hand, HandBatch, Meld, MeldKind, Situation
from mjfast.errors import (HandSizeError, MeldError, MjfastError, RuleSetError,
                           SituationError, TileCountError, TileParseError)
from mjfast.notation import (detect_format, format_batch, format_hand, parse_batch,
                             parse_hand, parse_tiles)
from mjfast.notation.botzone import tile_code
from mjfast.notation import tile_from_name
from mjfast.tiles import N_TILE_IDS, RED, WHITE, tile_name

FORMATS = ("mcr", "mpsz", "botzone")


def peer_strings(shared_dir):
    out = []
    for path in sorted((shared_dir / "data" / "mcr").glob("peer_cases_*.tsv")):
        rows = path.read_text(encoding="utf-8").splitlines()[1:]
        out += [(path.name, r.split("\t")) for r in rows if r.strip()]
    return out


# ------------------------------------------------------------------------- tiles
def test_parse_tiles_basic():
    assert parse_tiles("123m456p11z") == [0, 1, 2, 12, 13, 14, 27, 27]
    assert parse_tiles("5z") == [RED]          # MCR order: 5z is the red dragon
    assert parse_tiles("7z") == [WHITE]
    assert parse_tiles("ESWNCFP") == list(range(27, 34))
    assert parse_tiles("1234567z") == list(range(27, 34))
    assert parse_tiles("ah") == [34, 41]
    assert parse_tiles("") == []
    assert parse_tiles("W1 B1 T9 F4 J1 H8") == [0, 9, 26, 30, 31, 41]
    assert parse_tiles("J3") == [WHITE]
    assert parse_tiles(" 12m 3p ") == [0, 1, 11]


def test_tile_names_roundtrip():
    for t in range(N_TILE_IDS):
        assert tile_from_name(tile_name(t)) == t
        assert parse_tiles(tile_code(t)) == [t]


@pytest.mark.parametrize("text,pos,cls", [
    ("12x", 2, TileParseError), ("0m", 0, TileParseError), ("18z", 1, TileParseError),
    ("12", 0, TileParseError), ("m", 0, TileParseError), ("1E", 0, TileParseError),
    ("123m i", 5, TileParseError), ("12 3m", 2, TileParseError), ("W1 X9", 3, TileParseError), ("W1 H9", 3, TileParseError),
    ("W1W2 B1", 2, TileParseError), ("é1m", 0, TileParseError),
])
def test_parse_tiles_errors(text, pos, cls):
    with pytest.raises(cls) as ei:
        parse_tiles(text)
    assert ei.value.position == pos
    assert ei.value.text == text


def test_parse_tiles_not_a_string():
    with pytest.raises(TileParseError):
        parse_tiles(123)


# ------------------------------------------------------------------------- mcr format
def test_readme_example():
    h = parse_hand("[EEE,2][SSSS,1]WWWNN55pN|EE1000|3")
    assert h.melds == (Meld(MeldKind.PUNG, 27, claimed_from=2),
                       Meld(MeldKind.KONG, 28, claimed_from=1))
    assert h.winning_tile == 30
    assert h.concealed == (13, 13, 29, 29, 29, 30, 30)
    assert h.situation.self_drawn and not h.situation.kong_replacement
    assert h.flower_count == 3 and h.flowers == ()
    assert h.to_string("mcr") == "[EEE,2][SSSS,1]55pWWWNNN|EE1000|3"
    assert h.to_string("mpsz") == "[111z,2][2222z,1]55p33344z4z|EE1000|3"
    assert h.to_string("botzone") == "[PENG F1 2] [GANG F2 1] B5 B5 F3 F3 F3 F4 F4 F4 | F1 F1 1000 | 3"
    assert str(h) == h.to_string("mcr")


@pytest.mark.parametrize("meld,expected", [
    ("[345m3]", Meld(MeldKind.CHOW, 2, claimed_index=3)),
    ("[345m,2]", Meld(MeldKind.CHOW, 2, claimed_index=2)),
    ("[123m]", Meld(MeldKind.CHOW, 0, claimed_index=1)),
    ("[345m,1]", Meld(MeldKind.CHOW, 2, claimed_index=1)),
    ("[EEE,2]", Meld(MeldKind.PUNG, 27, claimed_from=2)),
    ("[PPP]", Meld(MeldKind.PUNG, 33, claimed_from=1)),
    ("[111z3]", Meld(MeldKind.PUNG, 27, claimed_from=3)),
    ("[CCCC]", Meld(MeldKind.KONG, 31, concealed=True)),
    ("[CCCC,0]", Meld(MeldKind.KONG, 31, concealed=True)),
    ("[2222m1]", Meld(MeldKind.KONG, 1, claimed_from=1)),
    ("[NNNN2]", Meld(MeldKind.KONG, 30, claimed_from=2)),
    ("[3333p,5]", Meld(MeldKind.KONG, 11, added=True, claimed_from=1)),
    ("[3333p,7]", Meld(MeldKind.KONG, 11, added=True, claimed_from=3)),
])
def test_meld_spellings(meld, expected):
    h = parse_hand(meld + "123456789s1p1p")
    assert h.melds == (expected,)
    for fmt in FORMATS:
        assert parse_hand(h.to_string(fmt)) == h


def test_kong_related_flag():
    s = "[1111m1]234567p789s5s5s|EE"
    assert parse_hand(s + "1001").situation.kong_replacement
    h = parse_hand(s + "0001")
    assert h.situation.robbing_kong and not h.situation.kong_replacement
    assert h.to_string("mcr").endswith("|EE0001")


def test_flowers_and_sections():
    h = parse_hand("123456789m123p1s1s|EE1000|c")
    assert h.flowers == (36,) and h.flower_count == 1
    assert parse_hand("123456789m123p1s1s|EE0000|").flower_count == 0
    assert parse_hand("123456789m123p1s1s||3").flower_count == 3
    h = parse_hand("123456789m123p1s1s|SW0110|hab|dealer=S,discarder=N,streak=4,"
                   "table_discards=9,original_ready,first_turn")
    s = h.situation
    assert (s.prevalent, s.seat, s.dealer, s.discarder, s.streak, s.table_discards) == \
        (1, 2, 1, 3, 4, 9)
    assert s.fourth_tile and s.last_tile and s.original_ready and s.first_turn
    assert h.flowers == (34, 35, 41)
    for fmt in FORMATS:
        assert parse_hand(h.to_string(fmt)) == h


def test_waiting_and_taiwan_sizes():
    h = parse_hand("123456789m123p1s")
    assert h.winning_tile is None and len(h.concealed) == 13
    h = parse_hand("123456789m123456p1s1s", rules="taiwan")
    assert h.winning_tile == 18 and h.size == 17
    h = parse_hand("[111m][222m][333m][444m][555m]5p", rules="taiwan")
    assert h.winning_tile is None
    with pytest.raises(HandSizeError):
        parse_hand("123456789m123456p1s1s")           # 17 tiles in MCR


def test_peer_strings_parse(shared_dir):
    rows = peer_strings(shared_dir)
    assert len(rows) == 343
    strings = [r[1][0] for r in rows]
    hands = [parse_hand(s) for s in strings]
    for h in hands:
        assert h.winning_tile is not None
        for fmt in FORMATS:
            assert parse_hand(h.to_string(fmt)) == h
    batch = parse_batch(strings)
    ref = HandBatch.from_hands(hands)
    for name in ("counts", "winning_tile", "melds", "n_melds", "flowers", "flags", "seat",
                 "prevalent"):
        np.testing.assert_array_equal(getattr(batch, name), getattr(ref, name), err_msg=name)


def test_helper_strings_match_pymahjonggb_args(shared_dir):
    """The helper file's column 5 is the same hand as PyMahjongGB pack tuples."""
    checked = 0
    for name, cols in peer_strings(shared_dir):
        if name != "peer_cases_helper.tsv" or not cols[4].strip():
            continue
        packs, hand, win = ast.literal_eval(cols[4])
        h = parse_hand(cols[0])
        code = {tile_code(t): t for t in range(34)}
        assert h.winning_tile == code[win]
        assert sorted(h.concealed) == sorted(code[t] for t in hand)
        ours = []
        for m in h.melds:
            if m.kind == MeldKind.CHOW:
                ours.append(("CHI", tile_code(m.tile + 1), m.claimed_index))
            elif m.kind == MeldKind.PUNG:
                ours.append(("PENG", tile_code(m.tile), m.claimed_from))
            else:
                ours.append(("GANG", tile_code(m.tile), m.claimed_from))
        assert tuple(ours) == tuple(packs), cols[0]
        checked += 1
    assert checked > 150


# ------------------------------------------------------------------------- botzone
def test_botzone_format():
    s = "[PENG F1 2] [CHI W4 3] [BUGANG B5 1] [ANGANG J1] W1 W1 | F2 F3 1001 | H1 H3 | dealer=S"
    h = parse_hand(s)
    assert h.melds == (Meld(MeldKind.PUNG, 27, claimed_from=2),
                       Meld(MeldKind.CHOW, 2, claimed_index=3),
                       Meld(MeldKind.KONG, 13, added=True, claimed_from=1),
                       Meld(MeldKind.KONG, 31, concealed=True))
    assert h.winning_tile == 0 and h.situation.kong_replacement
    assert (h.situation.prevalent, h.situation.seat, h.situation.dealer) == (1, 2, 1)
    assert h.flowers == (34, 36)
    assert h.to_string("botzone") == s
    assert parse_hand("[GANG J1 0] W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9").melds[0].concealed
    assert detect_format(s) == "botzone" and detect_format("123m") == "mcr"


@pytest.mark.parametrize("text,cls,pos", [
    ("[PUNG F1 2] W1", MeldError, 1),
    ("[PENG F1] W1", MeldError, 8),
    ("[CHI W1 1] W1", MeldError, 5),
    ("[CHI F2 1] W1", MeldError, 5),
    ("[PENG F1 4] W1", MeldError, 9),
    ("[ANGANG F1 2] W1", MeldError, 11),
    ("[PENG F1 2 W1", MeldError, 11),
    ("W1 [PENG F1 2]", TileParseError, 3),
    ("W1 W1 W1 W1 W1", TileCountError, 12),
    ("W1 B0 W2", TileParseError, 3),
    ("W1 W2 | F5 F1 1000", TileParseError, 8),
    ("W1 W2 | F1 F1 1020", TileParseError, 16),
    ("W1 W2 | F1 F1 1000 | H1 H1", TileCountError, 24),
])
def test_botzone_errors(text, cls, pos):
    with pytest.raises(cls) as ei:
        parse_hand(text)
    assert ei.value.position == pos and ei.value.text == text


# ------------------------------------------------------------------------- validation
@pytest.mark.parametrize("text,rules,cls,pos", [
    ("123m4x5p", "mcr", TileParseError, 5),
    ("[1111m]1m23456789p11s", "mcr", TileCountError, 7),
    ("11111m", "mcr", TileCountError, 4),
    ("123456789m123p1", "mcr", TileParseError, 14),
    ("123456789m12p1s", "mcr", HandSizeError, None),
    ("123456789m123p11s1s1s", "mcr", HandSizeError, 17),
    ("123456789m123p1s1s", "two_player", RuleSetError, 10),
    ("123456789m1234z4z|EE0000|2", "two_player", RuleSetError, 25),
    ("[123m]456789m11222z", "two_player", MeldError, 0),
    ("[124m]456789m11222z", "mcr", MeldError, 0),
    ("[345m,4]456789m11222z", "mcr", MeldError, 6),
    ("[3333m4]456789m11222z", "mcr", MeldError, 6),
    ("[EEE", "mcr", MeldError, 0),
    ("[EEEEE]", "mcr", MeldError, 5),
    ("[[EEE]", "mcr", MeldError, 1),
    ("EEE]", "mcr", MeldError, 3),
    ("1m[EEE]", "mcr", TileParseError, 2),
    ("[EEE][SSS][WWW][NNN][CCC]PP", "mcr", HandSizeError, 20),
    ("123456789m123p1s1s|EX1000", "mcr", TileParseError, 20),
    ("123456789m123p1s1s|EE10", "mcr", TileParseError, 23),
    ("123456789m123p1s1s|EE1000|9", "mcr", TileCountError, 26),
    ("123456789m123p1s1s|EE1000|aa", "mcr", TileCountError, 27),
    ("123456789m123p1s1s|EE1000|3|x", "mcr", SituationError, 28),
    ("123456789m123p1s1s|EE1000|3|a|b", "mcr", TileParseError, 29),
    ("123456789m123p1s1s|EE0000||discarder=E", "mcr", SituationError, 27),
    ("123456789m123p1s1s|ES1000||discarder=E", "mcr", SituationError, 27),
    ("123456789m123p1s1s|ES0000||streak=99999", "mcr", SituationError, 34),
])
def test_validation_errors(text, rules, cls, pos):
    with pytest.raises(cls) as ei:
        parse_hand(text, rules=rules)
    assert ei.value.text == text
    assert ei.value.position == pos
    # the batch kernel agrees, class, position and message
    b, ok, msgs = parse_batch([text], rules=rules, errors="mask")
    assert not ok[0] and msgs[0] == str(ei.value)


def test_botzone_chow_rule():
    s = "[CHI W2 1] W4 W5 W6 W7 W8 W9 F1 F1 F1 F2 F2"
    assert parse_hand(s).melds[0] == Meld(MeldKind.CHOW, 0, claimed_index=1)
    with pytest.raises(MeldError) as ei:
        parse_hand(s, rules="two_player")
    assert ei.value.position == 0
    b, ok, msgs = parse_batch([s], rules="two_player", errors="mask")
    assert msgs[0] == str(ei.value)


def test_long_inputs_never_crash():
    for s in ("1" * 200 + "m", "123456789m" * 20, "E" * 200, "[" * 200, "|" * 200,
              "W1 " * 200, "[EEE]" * 40, "1m" * 200, "123m|EE1000|" + "a" * 200,
              "123m|EE1000|1|" + "streak=1," * 100, "\x00" * 10, "💀" * 200):
        with pytest.raises(MjfastError):
            parse_hand(s)
        b, ok, msgs = parse_batch([s], errors="mask")
        assert not ok[0] and msgs[0]


# ------------------------------------------------------------------------- keywords
BASE = "123456789m123p1s1s"


def test_situation_keywords_override():
    h = parse_hand(BASE + "|EE1000|3", seat="S", prevalent=2, dealer="N", self_drawn=False,
                   discarder="W", streak=2, flowers="abd", table_discards=7,
                   original_ready=True, last_tile=True, fourth_tile=True, first_turn=True)
    s = h.situation
    assert (s.seat, s.prevalent, s.dealer, s.discarder, s.streak) == (1, 2, 3, 2, 2)
    assert not s.self_drawn and s.last_tile and s.fourth_tile and s.first_turn
    assert h.flowers == (34, 35, 37) and h.flower_count == 3
    assert parse_hand(BASE, flowers=[34, 41]).flowers == (34, 41)
    assert parse_hand(BASE, flowers=5).flower_count == 5
    assert parse_hand(BASE, flowers="5").flower_count == 5           # the CLI passes strings
    assert parse_hand(BASE, seat="w", dealer="3").situation.dealer == 3
    # discarder implies a discard win, self_drawn clears the discarder
    assert not parse_hand(BASE + "|EE1000", discarder=1).situation.self_drawn
    assert parse_hand(BASE + "||||"[:0] + "|EE0000||discarder=S",
                      self_drawn=True).situation.discarder is None
    # the string's kong-related flag follows the self-draw override
    assert parse_hand(BASE + "|EE1001", self_drawn=False).situation.robbing_kong


@pytest.mark.parametrize("opts,cls", [
    (dict(bogus=1), SituationError),
    (dict(seat="X"), SituationError),
    (dict(seat=4), SituationError),
    (dict(seat=True), SituationError),
    (dict(self_drawn=True, discarder="S"), SituationError),
    (dict(discarder="E"), SituationError),
    (dict(kong_replacement=True, robbing_kong=True, self_drawn=True), SituationError),
    (dict(robbing_kong=True, self_drawn=True), SituationError),
    (dict(streak=-1), SituationError),
    (dict(streak="2"), SituationError),
    (dict(self_drawn="yes"), SituationError),
    (dict(flowers=9), TileCountError),
    (dict(flowers="9"), TileCountError),
    (dict(seat="East"), SituationError),
    (dict(flowers="aa"), TileCountError),
    (dict(flowers="xyz"), SituationError),
    (dict(flowers=[1, 2]), SituationError),
    (dict(flowers=object()), SituationError),
])
def test_bad_keywords(opts, cls):
    with pytest.raises(cls) as ei:
        parse_hand(BASE, **opts)
    assert ei.value.text == BASE


def test_flowers_keyword_rules():
    with pytest.raises(RuleSetError):
        parse_hand("123456789m1234z5z", rules="two_player", flowers=1)
    with pytest.raises(RuleSetError):
        parse_hand(BASE, rules="nope")


def test_format_errors():
    h = parse_hand(BASE)
    with pytest.raises(MjfastError):
        h.to_string("tenhou")
    with pytest.raises(MjfastError):
        parse_hand(BASE, fmt="tenhou")
    with pytest.raises(MjfastError):
        parse_hand(None)
    with pytest.raises(MjfastError):
        parse_hand("W1 W2", fmt="mcr")


def test_hand_built_by_api_roundtrips():
    h = Hand((0, 1, 2, 3, 4, 5, 9, 10, 11, 18, 19, 20, 27), (Meld(MeldKind.KONG, 33, added=True,
                                                    claimed_from=2),), 27, (38,), 1,
             Situation(seat=3, prevalent=1, dealer=2, discarder=0, streak=1), "taiwan")
    for fmt in FORMATS:
        assert parse_hand(h.to_string(fmt), rules="taiwan") == h
        assert format_batch(HandBatch.from_hands([h]), fmt)[0] == \
            format_hand(Hand(h.concealed, h.melds, h.winning_tile, (), 1, h.situation,
                             "taiwan"), fmt)


# ------------------------------------------------------------------------- batch input kinds
def test_batch_inputs():
    import polars as pl
    good = [BASE, "[EEE,2][SSSS,1]WWWNN55pN|EE1000|3", "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B2 B2 B2"]
    ref = parse_batch(good)
    variants = [
        pa.array(good), pa.array(good, type=pa.large_string()),
        pa.array(good, type=pa.string_view()), pa.chunked_array([good[:1], good[1:]]),
        pl.Series(good), np.array(good), tuple(good),
        pa.array(["x"] + good).slice(1),
    ]
    for v in variants:
        b = parse_batch(v)
        np.testing.assert_array_equal(b.counts, ref.counts)
        np.testing.assert_array_equal(b.melds, ref.melds)
        np.testing.assert_array_equal(b.flags, ref.flags)
    assert len(parse_batch([])) == 0
    b, ok, msgs = parse_batch([None, BASE, 7, "x"], errors="mask")
    assert ok.tolist() == [False, True, False, False]
    assert msgs[1] is None and all(msgs[i] for i in (0, 2, 3))
    assert b.counts[0].sum() == 0 and b.counts[1].sum() == 14
    with pytest.raises(TileParseError) as ei:
        parse_batch([BASE, BASE, "12x"])
    assert ei.value.row == 2 and "row 2" in str(ei.value) and ei.value.position == 2
    for bad in (pa.array([1, 2]), pl.Series([1, 2]), "123m", 5, np.arange(3)):
        with pytest.raises(MjfastError):
            parse_batch(bad)
    with pytest.raises(MjfastError):
        parse_batch(good, errors="ignore")
    with pytest.raises(MjfastError):
        parse_batch(good, rules="riichi")
