"""Botzone / PyMahjongGB tile codes, and a hand-string syntax built on them.

Tile codes: ``W1..W9`` characters, ``B1..B9`` dots, ``T1..T9`` bamboo, ``F1..F4`` winds
E S W N, ``J1..J3`` dragons red 中, green 發, white 白, ``H1..H8`` flowers.

Hand strings (an mjfast syntax mirroring PyMahjongGB's ``MahjongFanCalculator`` pack
tuples ``(kind, tile, offer)``), tokens separated by whitespace::

    [PENG F1 2] [CHI W4 3] W1 W1 B2 B3 B4 T5 T5 T6 | F1 F2 1000 | H1 H3 | dealer=S

- melds first, each ``[KIND TILE OFFER]``:
  ``[CHI t k]`` chow whose MIDDLE tile is ``t`` (a suited 2..8), ``k`` = position 1..3 of
  the claimed tile; ``[PENG t k]`` pung claimed from ``k`` (1 left, 2 across, 3 right);
  ``[GANG t k]`` exposed kong claimed from ``k`` 1..3, ``k`` = 0 a concealed kong (as in
  PyMahjongGB); ``[ANGANG t]`` a concealed kong (``[ANGANG t 0]`` too); ``[BUGANG t k]``
  an added kong made from a pung claimed from ``k`` 1..3.  The offer is required except for
  ANGANG.
- the concealed tiles; the last one is the winning tile when the hand has 14 tiles
  (17 Taiwan; melds counted as 3), none when it has 13 (16).
- ``|`` situation: empty, or prevalent wind, seat wind (``F1..F4``) and the four 0/1 flags
  self-drawn, fourth tile, last tile, kong-related (as one token, ``1000``).
- ``|`` flowers: empty, a count ``0``..``8`` or flower codes ``H1..H8`` (each at most once).
- ``|`` extras, whitespace-separated: ``dealer=W discarder=W streak=N table_discards=N
  original_ready first_turn`` (W = ``E S W N`` or ``0..3``), as in the mpsz grammar.

Every error is a typed :class:`mjfast.errors.MjfastError` with the 0-based position.
The batch kernel (``_parse.pyx``) implements the same grammar, checks and order.
"""
from __future__ import annotations

from ..tiles import FLOWER_BASE
from .mpsz import (C_FLOWER_DUP, C_FLOWERS_9, E_BZ_TILE, E_FLAG, E_FLOWER_SYNTAX,
                   E_MELD_AFTER, E_SECTIONS, E_SEP, E_SIT_LEN, E_WIND, M_CHI_TILE,
                   M_CHOW_RULE, M_CLAIM, M_KIND, M_STRAY, M_SYNTAX, M_UNCLOSED,
                   R_FLOWERS, S_MELDS, ParseFail, Record, _Emitter, finish_record,
                   make_error, parse_extra_item, extras_items,
                   flags4_text)

_SUIT_CODES = {"W": (0, 9), "B": (9, 9), "T": (18, 9), "F": (27, 4), "J": (31, 3)}
_KINDS = {"CHI": 0, "PENG": 1, "GANG": 2, "ANGANG": 3, "BUGANG": 4}
_WS = " \t"


def tile_code(t: int) -> str:
    """Botzone code of a tile id (flowers ``H1..H8``)."""
    if t >= FLOWER_BASE:
        return f"H{t - FLOWER_BASE + 1}"
    if t >= 31:
        return f"J{t - 30}"
    if t >= 27:
        return f"F{t - 26}"
    return "WBT"[t // 9] + str(t % 9 + 1)


def _code_at(text: str, i: int, n: int) -> int:
    """Tile id of the 2-char code at i (not flowers), or -1."""
    if i + 1 >= n:
        return -1
    c, d = text[i], text[i + 1]
    if c not in _SUIT_CODES or not "1" <= d <= "9":
        return -1
    base, top = _SUIT_CODES[c]
    r = ord(d) - 48
    return base + r - 1 if r <= top else -1


def _ends_token(text: str, j: int, n: int) -> bool:
    return j >= n or text[j] in _WS


def looks_like_botzone(text: str) -> bool:
    """Whitespace inside (after stripping) or a single bare code: the Botzone syntax."""
    s = text.strip(_WS)
    if any(ch in s for ch in _WS):          # (a test per whitespace kind, not per character)
        return True
    return len(s) == 2 and s[0] in "WBTFJH" and "1" <= s[1] <= "9"


def parse_botzone_tiles(text: str) -> list[int]:
    out = []
    n = len(text)
    i = 0
    while i < n:
        if text[i] in _WS:
            i += 1
            continue
        t = _code_at(text, i, n)
        if t < 0 and text[i] == "H" and i + 1 < n and "1" <= text[i + 1] <= "8":
            t = FLOWER_BASE + ord(text[i + 1]) - 49
        if t < 0:
            raise make_error(E_BZ_TILE, text, i)
        if not _ends_token(text, i + 2, n):
            raise make_error(E_SEP, text, i + 2)
        out.append(t)
        i += 2
    return out


def parse_record(text: str, rs) -> Record:
    """Parse a Botzone hand string into a :class:`Record` (raises ``ParseFail``)."""
    rec = Record()
    em = _Emitter(rec, rs)
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if c in _WS:
            i += 1
        elif c == "[":
            if rec.tiles:
                raise ParseFail(E_MELD_AFTER, i)
            if len(rec.melds) >= rs.sets:
                raise ParseFail(S_MELDS, i)
            i = _parse_meld(text, i, n, rec, em, rs)
        elif c == "]":
            raise ParseFail(M_STRAY, i)
        elif c == "|":
            break
        else:
            t = _code_at(text, i, n)
            if t < 0:
                raise ParseFail(E_BZ_TILE, i)
            if not _ends_token(text, i + 2, n) and text[i + 2] != "|":
                raise ParseFail(E_SEP, i + 2)
            em.concealed(t, i)
            i += 2
    if i < n:
        _parse_tail(text, i, rec, rs)
    finish_record(rec, rs)
    return rec


def _parse_meld(text: str, i: int, n: int, rec: Record, em: _Emitter, rs) -> int:
    start = i
    j = i + 1
    while j < n and text[j] in _WS:
        j += 1
    w = j
    while j < n and "A" <= text[j] <= "Z":
        j += 1
    kind = _KINDS.get(text[w:j], -1)
    if kind < 0:
        raise ParseFail(M_KIND, w)
    if j >= n:
        raise ParseFail(M_UNCLOSED, start)
    if text[j] not in _WS:
        raise ParseFail(M_SYNTAX, j)
    while j < n and text[j] in _WS:
        j += 1
    tp = j
    t = _code_at(text, tp, n)
    if t < 0:
        raise ParseFail(E_BZ_TILE, tp)
    j = tp + 2
    offer, op = -1, j
    if j < n and text[j] not in _WS and text[j] != "]":
        raise ParseFail(E_SEP, j)
    while j < n and text[j] in _WS:
        j += 1
    if j < n and "0" <= text[j] <= "9":
        offer, op = ord(text[j]) - 48, j
        j += 1
        if j < n and text[j] not in _WS and text[j] != "]":
            raise ParseFail(M_CLAIM, j)
        while j < n and text[j] in _WS:
            j += 1
    if j >= n:
        raise ParseFail(M_UNCLOSED, start)
    if text[j] != "]":
        raise ParseFail(M_SYNTAX, j)
    if offer < 0:
        op = j
    # semantics
    if kind == 0:
        if not 1 <= offer <= 3:
            raise ParseFail(M_CLAIM, op)
        if t >= 27 or t % 9 == 0 or t % 9 == 8:
            raise ParseFail(M_CHI_TILE, tp)
        if not rs.chow_allowed:
            raise ParseFail(M_CHOW_RULE, start)
        meld = (0, t - 1, False, False, offer)
        tiles = (t - 1, t, t + 1)
    elif kind == 1:
        if not 1 <= offer <= 3:
            raise ParseFail(M_CLAIM, op)
        meld, tiles = (1, t, False, False, offer), (t, t, t)
    elif kind == 2:
        if not 0 <= offer <= 3:
            raise ParseFail(M_CLAIM, op)
        meld = (2, t, offer == 0, False, offer)
        tiles = (t, t, t, t)
    elif kind == 3:
        if offer > 0:
            raise ParseFail(M_CLAIM, op)
        meld, tiles = (2, t, True, False, 0), (t, t, t, t)
    else:
        if not 1 <= offer <= 3:
            raise ParseFail(M_CLAIM, op)
        meld, tiles = (2, t, False, True, offer), (t, t, t, t)
    for x in tiles:
        em.tile(x, tp)
    rec.melds.append(meld)
    return j + 1


def _tokens(text: str, s: int, e: int) -> list[tuple[int, int]]:
    out = []
    p = s
    while p < e:
        if text[p] in _WS:
            p += 1
            continue
        q = p
        while q < e and text[q] not in _WS:
            q += 1
        out.append((p, q))
        p = q
    return out


def _parse_tail(text: str, i: int, rec: Record, rs) -> None:
    n = len(text)
    bars = [i]
    for j in range(i + 1, n):
        if text[j] == "|":
            if len(bars) == 3:
                raise ParseFail(E_SECTIONS, j)
            bars.append(j)
    ends = bars[1:] + [n]
    s, e = bars[0] + 1, ends[0]
    toks = _tokens(text, s, e)
    if toks:
        for k in range(2):
            if k >= len(toks):
                raise ParseFail(E_SIT_LEN, e)
            p, q = toks[k]
            if q - p != 2 or text[p] != "F" or not "1" <= text[p + 1] <= "4":
                raise ParseFail(E_WIND, p)
        if len(toks) < 3:
            raise ParseFail(E_SIT_LEN, e)
        p, q = toks[2]
        for k in range(4):
            if p + k >= q:
                raise ParseFail(E_SIT_LEN, p + k)
            if text[p + k] not in "01":
                raise ParseFail(E_FLAG, p + k)
        if q > p + 4:
            raise ParseFail(E_SIT_LEN, p + 4)
        if len(toks) > 3:
            raise ParseFail(E_SIT_LEN, toks[3][0])
        rec.prevalent = ord(text[toks[0][0] + 1]) - 49
        rec.seat = ord(text[toks[1][0] + 1]) - 49
        rec.flags4 = tuple(ord(text[p + k]) - 48 for k in range(4))
    if len(bars) > 1:
        s, e = bars[1] + 1, ends[1]
        toks = _tokens(text, s, e)
        if toks:
            p, q = toks[0]
            if "0" <= text[p] <= "9":
                if q > p + 1:
                    raise ParseFail(E_FLOWER_SYNTAX, p + 1)
                d = ord(text[p]) - 48
                if d > 8:
                    raise ParseFail(C_FLOWERS_9, p, d)
                if len(toks) > 1:
                    raise ParseFail(E_FLOWER_SYNTAX, toks[1][0])
                rec.flower_count = d
            else:
                seen = 0
                for p, q in toks:
                    if q - p != 2 or text[p] != "H" or not "1" <= text[p + 1] <= "8":
                        raise ParseFail(E_FLOWER_SYNTAX, p)
                    b = 1 << (ord(text[p + 1]) - 49)
                    if seen & b:
                        raise ParseFail(C_FLOWER_DUP, p)
                    seen |= b
                    rec.flowers.append(FLOWER_BASE + ord(text[p + 1]) - 49)
                rec.flowers.sort()
                rec.flower_count = len(rec.flowers)
            if rec.flower_count and not rs.flowers:
                raise ParseFail(R_FLOWERS, toks[0][0])
    if len(bars) > 2:
        for p, q in _tokens(text, bars[2] + 1, ends[2]):
            parse_extra_item(text, p, q, rec)



# ---------------------------------------------------------------------------------
# printing
# ---------------------------------------------------------------------------------
def meld_to_botzone(m) -> str:
    kind, tile, flags, claimed = m
    if kind == 0:
        return f"[CHI {tile_code(tile + 1)} {claimed}]"
    if kind == 1:
        return f"[PENG {tile_code(tile)} {claimed}]"
    if flags & 1:
        return f"[ANGANG {tile_code(tile)}]"
    if flags & 2:
        return f"[BUGANG {tile_code(tile)} {claimed}]"
    return f"[GANG {tile_code(tile)} {claimed}]"


def format_botzone(p) -> str:
    """``[PENG F1 2] W1 W1 ... B5 | F1 F2 1000 | H1 H3 | dealer=S`` (tail when needed)
    from printer :class:`~mjfast.notation.mpsz.Parts`."""
    parts = [meld_to_botzone(m) for m in p.melds]
    parts += [tile_code(t) for t in p.concealed]
    if p.winning_tile is not None:
        parts.append(tile_code(p.winning_tile))
    sit = f"F{p.prevalent + 1} F{p.seat + 1} " + flags4_text(p.flags)
    if p.flowers:
        fl = " ".join(tile_code(f) for f in p.flowers)
    elif p.flower_count:
        fl = str(p.flower_count)
    else:
        fl = ""
    ex = " ".join(extras_items(p))
    if ex:
        parts += ["|", sit, "|", fl, "|", ex] if fl else ["|", sit, "||", ex]
    elif fl:
        parts += ["|", sit, "|", fl]
    elif sit != "F1 F1 0000":
        parts += ["|", sit]
    return " ".join(parts)


