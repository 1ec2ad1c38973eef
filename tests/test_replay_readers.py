"""Botzone log readers: the bundled samples read into events; corrupt input is quarantined
with its line and reason while every good deal is still read."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from mjfast.data import botzone_json_samples, botzone_text_sample
from mjfast.datasets import EventFlag, EventKind as K
from mjfast.formats import botzone_json, botzone_text
from mjfast.rules import rule_context

CTX = rule_context("mcr", "botzone")


def read_text(path, chunk_deals=2000):
    """The grammar's reader alone (the lexer's fallback reads what it leaves)."""
    return list(botzone_text._GrammarReader(path, CTX, chunk_deals))


def read_json(paths):
    return list(botzone_json.read(paths, CTX))


def _sample_lines() -> list[bytes]:
    return botzone_text_sample().read_bytes().split(b"\r\n")


def test_text_sample_reads_16_deals():
    (ch,) = read_text(botzone_text_sample())
    assert ch.n_in == 16 and len(ch.deals) == 16 and ch.quarantine == []
    kinds = Counter(ch.events.kind.tolist())
    assert kinds[K.WIN] == 14 and kinds[K.EXHAUSTIVE_DRAW] == 2
    assert kinds[K.DEAL] == 16 * 52
    assert kinds[K.CLAIM_LOST] == 5                       # five Ignore clauses
    # every Fan line maps to fan ids (the judge's names, aliases included)
    wins = [d for d in ch.deals if d.logged_total is not None]
    assert len(wins) == 14 and all(not d.unknown_fans for d in wins)
    for d in wins:
        assert sum(p * c for _, p, c in d.logged_fans) == d.logged_total
    first = ch.deals[0]
    assert first.deal_id == "61602cb45ddc087351c04358" and first.prevalent == 1
    assert first.logged_scores == [-8, 33, -17, -8]
    # line numbers are the file's (1-based): the first DEAL row is on line 3
    assert ch.line[0] == 3


def test_text_claims_name_their_discarder():
    (ch,) = read_text(botzone_text_sample())
    ev = ch.events
    for r in np.flatnonzero(np.isin(ev.kind, [K.CHOW, K.PUNG, K.KONG_EXPOSED])):
        prev = r - 1
        while ev.kind[prev] == K.CLAIM_LOST:
            prev -= 1
        assert ev.kind[prev] == K.DISCARD and ev.player[prev] == ev.target[r]
        assert ev.tile[prev] == ev.tile[r]
    for r in np.flatnonzero(ev.kind == K.CHOW):
        assert ev.aux[r] <= ev.tile[r] <= ev.aux[r] + 2
    # a draw right after the drawer's own kong is a replacement
    for r in np.flatnonzero(np.isin(ev.kind, [K.KONG_CONCEALED, K.KONG_EXPOSED, K.KONG_ADDED])):
        nxt = r + 1
        if ev.kind[nxt] == K.DRAW:
            assert ev.flags[nxt] & EventFlag.REPLACEMENT


def test_text_lf_and_crlf_read_the_same(tmp_path):
    lf = tmp_path / "lf.txt"
    lf.write_bytes(botzone_text_sample().read_bytes().replace(b"\r\n", b"\n"))
    (a,) = read_text(botzone_text_sample())
    (b,) = read_text(lf)
    assert a.events.deal_ids == b.events.deal_ids
    assert np.array_equal(a.events.kind, b.events.kind) and np.array_equal(a.line, b.line)


def test_text_chunks_stream(tmp_path):
    chunks = read_text(botzone_text_sample(), chunk_deals=5)
    assert [len(c.deals) for c in chunks] == [5, 5, 5, 1]
    assert sum(c.n_in for c in chunks) == 16


def _write(tmp_path, name, lines: list[bytes]) -> Path:
    p = tmp_path / name
    p.write_bytes(b"\r\n".join(lines))
    return p


def _block_starts(lines):
    return [i for i, ln in enumerate(lines) if ln.startswith(b"Match ")]


@pytest.mark.parametrize("case", ["truncated", "unknown_action", "claim_no_discard",
                                  "binary_junk", "bad_tile", "stray_text"])
def test_text_corruptions_quarantine_one_deal(tmp_path, case):
    lines = _sample_lines()
    starts = _block_starts(lines)
    b = starts[3]                                 # corrupt the 4th deal
    if case == "truncated":                       # cut the deal after 20 lines
        end = starts[4]
        lines = lines[:b + 20] + lines[end:]
        want = "truncated"
    elif case == "unknown_action":
        i = next(i for i in range(b + 6, starts[4]) if b" Play " in lines[i])
        lines[i] = lines[i].replace(b" Play ", b" Throw ")
        want = "unknown action"
    elif case == "claim_no_discard":
        i = next(i for i in range(b + 6, starts[4]) if b" Draw " in lines[i])
        lines[i] = lines[i].replace(b"Draw", b"Peng")
        want = "no discard before it"
    elif case == "binary_junk":
        lines[b + 12] = bytes(range(256))[:200]
        want = ""
    elif case == "bad_tile":
        lines[b + 12] = lines[b + 12][:-2] + b"X9"
        want = "unknown tile"
    else:
        lines.insert(b + 0, b"hello world")
        want = "outside a Match"
    p = _write(tmp_path, "bad.txt", lines)
    (ch,) = read_text(p)
    assert ch.n_in == len(ch.deals) + len(ch.quarantine)
    assert len(ch.quarantine) == 1
    q = ch.quarantine[0]
    assert want in q["reason"] and q["line"] is not None
    if case != "stray_text":
        assert len(ch.deals) == 15 and q["deal_id"] == "61602cb45ddc087351c04367"
    else:
        assert len(ch.deals) == 16 and q["line"] == b + 1


def test_text_truncated_at_end_of_file(tmp_path):
    lines = _sample_lines()
    p = _write(tmp_path, "cut.txt", lines[:_block_starts(lines)[15] + 30])
    (ch,) = read_text(p)
    assert len(ch.deals) == 15 and len(ch.quarantine) == 1
    assert "file ends" in ch.quarantine[0]["reason"]


def test_text_shuffled_lines_never_crash(tmp_path):
    lines = _sample_lines()
    rng = random.Random(7)
    body = lines[:]
    rng.shuffle(body)
    p = _write(tmp_path, "shuffled.txt", body)
    (ch,) = read_text(p)
    assert ch.n_in == len(ch.deals) + len(ch.quarantine)
    assert ch.quarantine and all(q["reason"] for q in ch.quarantine)


def test_text_over_long_line(tmp_path):
    lines = _sample_lines()
    b = _block_starts(lines)[2]
    lines[b + 8] = b"Player 0 Play " + b"W1 " * 5000
    (ch,) = read_text(_write(tmp_path, "long.txt", lines))
    assert len(ch.deals) == 15 and "longer than" in ch.quarantine[0]["reason"]


# --- Botzone JSON ------------------------------------------------------------------------
def test_json_samples_read():
    (ch,) = read_json(botzone_json_samples())
    assert ch.n_in == 3 and len(ch.deals) == 3 and ch.quarantine == []
    ids = [d.deal_id for d in ch.deals]
    assert ids == [p.stem for p in botzone_json_samples()]
    assert all(d.wall is not None and len(d.wall) == 136 for d in ch.deals)
    win = ch.deals[0]
    assert win.logged_total == 12 and win.logged_fans == [(34, 12, 1)]
    assert win.logged_scores == [-20, 36, -8, -8]
    # canHu kept per event: the two winning moments carry the logged totals
    assert sorted(ch.can_hu[ch.can_hu >= 0].tolist()) == [9, 12]
    ev = ch.events
    # PENG/CHI carry the follow-up discard: each claim is followed by a DISCARD by the claimer
    for r in np.flatnonzero(np.isin(ev.kind, [K.CHOW, K.PUNG])):
        assert ev.kind[r + 1] == K.DISCARD and ev.player[r + 1] == ev.player[r]


def test_json_corruptions(tmp_path):
    good = botzone_json_samples()
    files = []
    for p in good:
        q = tmp_path / p.name
        q.write_bytes(p.read_bytes())
        files.append(q)
    bad_json = tmp_path / "aaaaaaaaaaaaaaaaaaaaaaaa.json"
    bad_json.write_text('{"logs": [1, 2')
    junk = tmp_path / "bbbbbbbbbbbbbbbbbbbbbbbb.json"
    junk.write_bytes(bytes(range(256)))
    doc = json.loads(good[0].read_text())
    doc["logs"] = doc["logs"][:40]
    trunc = tmp_path / "cccccccccccccccccccccccc.json"
    trunc.write_text(json.dumps(doc))
    doc = json.loads(good[1].read_text())
    for s in doc["logs"]:
        d = s.get("output", {}).get("display", {})
        if d.get("action") == "PLAY":
            d["action"] = "THROW"
            break
    unknown = tmp_path / "dddddddddddddddddddddddd.json"
    unknown.write_text(json.dumps(doc))
    (ch,) = read_json(files + [bad_json, junk, trunc, unknown])
    assert ch.n_in == 7 and len(ch.deals) == 3
    reasons = {q["deal_id"]: q["reason"] for q in ch.quarantine}
    assert "invalid JSON" in reasons["aaaaaaaaaaaaaaaaaaaaaaaa"]
    assert "invalid JSON" in reasons["bbbbbbbbbbbbbbbbbbbbbbbb"]
    assert "truncated" in reasons["cccccccccccccccccccccccc"]
    assert "unknown action" in reasons["dddddddddddddddddddddddd"]


# --- the compiled lexer gives what the Python reader gives ---------------------------------
def _same_as_python(path, chunk_deals=2000):
    from mjfast.formats.botzone_text import _merge
    a = _merge(read_text(path, chunk_deals), str(path))
    b = _merge(list(botzone_text.read(path, CTX, chunk_deals=chunk_deals)), str(path))
    assert a.n_in == b.n_in
    qa = sorted((q["deal_id"] or "", q["line"] or 0, q["reason"]) for q in a.quarantine)
    qb = sorted((q["deal_id"] or "", q["line"] or 0, q["reason"]) for q in b.quarantine)
    assert qa == qb
    ida = {d.deal_id: i for i, d in enumerate(a.deals)}
    assert set(ida) == {d.deal_id for d in b.deals}
    sa = {i: (s, e) for i, s, e in a.events.deal_slices()}
    sb = {i: (s, e) for i, s, e in b.events.deal_slices()}
    for j, d in enumerate(b.deals):
        i = ida[d.deal_id]
        (x0, x1), (y0, y1) = sa[i], sb[j]
        for c in ("kind", "player", "tile", "aux", "target", "flags", "seq"):
            assert np.array_equal(getattr(a.events, c)[x0:x1], getattr(b.events, c)[y0:y1]), c
        assert np.array_equal(a.line[x0:x1], b.line[y0:y1])
        for f in ("prevalent", "logged_total", "logged_fans", "logged_scores", "line",
                  "unknown_fans"):
            assert getattr(a.deals[i], f) == getattr(d, f), f
    return b


def test_lexer_equals_python_reader_on_good_and_bad_input(tmp_path):
    b = _same_as_python(botzone_text_sample())
    assert len(b.deals) == 16
    _same_as_python(botzone_text_sample(), chunk_deals=3)
    lf = tmp_path / "lf.txt"
    lf.write_bytes(botzone_text_sample().read_bytes().replace(b"\r\n", b"\n"))
    _same_as_python(lf)
    lines = _sample_lines()
    st = _block_starts(lines)
    bad = list(lines)
    i = next(i for i in range(st[1] + 6, st[2]) if b" Play " in bad[i])
    bad[i] = bad[i].replace(b" Play ", b" Throw ")                # unknown action
    j = next(j for j in range(st[3] + 6, st[4]) if b" Draw " in bad[j])
    bad[j] = bad[j].replace(b" Draw ", b" Chi ")                   # claim, no discard
    bad[st[5] + 9] = bytes(range(256))[:100]                      # binary junk
    bad[st[6] + 7] = b"Player 0 Play " + b"W1 " * 3000            # over-long line
    bad.insert(st[8], b"stray words")                             # text outside a deal
    bad[st[12] + 3] = bad[st[12] + 3] + b" H1"                    # a flower (Python path)
    bad = bad[:st[15] + 30]                                       # truncated at the end
    p = tmp_path / "bad.txt"
    p.write_bytes(b"\r\n".join(bad))
    b = _same_as_python(p)
    assert len(b.quarantine) >= 6
    rng = random.Random(11)
    sh = list(lines)
    rng.shuffle(sh)
    p2 = tmp_path / "shuffled.txt"
    p2.write_bytes(b"\r\n".join(sh))
    _same_as_python(p2)
