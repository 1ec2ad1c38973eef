"""Botzone text logs (``--format botzone``): the one module of the format -- its grammar,
its codes, the reader (a compiled lexer, and the grammar's reader for what the lexer
leaves), the cutting of a file into pieces, and the writer.

Grammar (CRLF or LF; blank lines between blocks are optional)::

    Match <id>
    Wind <0..3>
    Player <n> Deal <13 tiles>             four lines, n = 0..3 in order
    Player <n> <Action> <tile> [Ignore Player <m> <Claim> <tile>]...
    Fan <total> <name>*<count>+...         after Hu
    Score <s0> <s1> <s2> <s3>
    Huang                                  exhaustive draw (then Score)

``<Action>`` is one of :data:`ACTIONS` (``Draw Play Chi Peng Gang AnGang BuGang Hu``),
``<Claim>`` one of :data:`CLAIM_WORDS`; tiles are Botzone codes (``W1`` characters, ``B``
dots, ``T`` bamboo, ``F1..F4`` winds, ``J1..J3`` dragons, ``H1..H8`` flowers;
:func:`tile_codes`). ``Player n`` is the player whose seat wind is n (the judge's
numbering). ``Chi`` names the chow's middle tile; ``Ignore`` clauses are claims that lost
to the one on their line (``CLAIM_LOST`` events right after it). A ``Draw`` right after
the drawer's own kong (or flower) is a replacement. ``Fan`` names are the judge's (the
rule profile's ``zh`` names and ``aliases``, :func:`judge_names`).

**Reading.** The file is read in blocks cut at ``Match`` lines (never whole).
:func:`lex_block` (compiled) turns every well-formed deal of a block into event rows;
anything else (a grammar error, flowers, control bytes, an over-long line, a truncated
deal, text outside a deal) is read again by :class:`_GrammarReader`, which walks the same
grammar line by line in Python and names the reason a deal is quarantined (the line and
what was expected); the reader resynchronises on the next ``Match`` line and every other
deal is still read. Both use the vocabulary below (:data:`ACTIONS`, the word ids of the
lexer); tests check that they give the same events.

**Pieces.** :func:`pieces` cuts a file into byte ranges of ``chunk_deals`` deals at
``Match`` lines by one streaming pass (a job's shards: a worker reads one piece,
:func:`read_piece`).

**Writing.** :func:`write` / :func:`botzone_text`: MCR deals the format can express (4
players, no flowers, no kong payments; anything else raises
:class:`~mjfast.errors.LogParseError` naming the deal and the row); ``Match`` ids are a
hash of the deal id (:func:`match_id`), lines end in CRLF and blocks are separated by an
empty line, as in the judge's files.
"""
from __future__ import annotations

import hashlib
import os
import re
from array import array
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

import numpy as np

from ..datasets import (K_CHOW, K_CLAIM_LOST, K_DEAL, K_DISCARD, K_DRAW, K_EXHAUSTIVE_DRAW,
                        K_KONG_ADDED, K_KONG_CONCEALED, K_KONG_EXPOSED, K_PUNG, K_WIN,
                        EventFlag, EventKind, Events)
from ..errors import LogParseError
from ..kernels import kernel
from ._chunk import CAN_HU_NONE, ChunkBuilder, DealInfo, LogChunk

if TYPE_CHECKING:
    from ..rules import RuleContext

NAME = "botzone"
SUFFIXES = (".txt", ".log")
SOURCE = "botzone"          # what produced such logs (the rules they were judged under)

# ---------------------------------------------------------------------------------------
# the vocabulary: the one table of words the reader, the lexer and the writer use
# ---------------------------------------------------------------------------------------
ACTIONS = {"Draw": EventKind.DRAW, "Play": EventKind.DISCARD, "Chi": EventKind.CHOW,
           "Peng": EventKind.PUNG, "Gang": EventKind.KONG_EXPOSED,
           "AnGang": EventKind.KONG_CONCEALED, "BuGang": EventKind.KONG_ADDED,
           "Hu": EventKind.WIN}
"""The action word of a ``Player <n> <Action> <tile>`` line -> the event it is."""
CLAIM_WORDS = ("Chi", "Peng", "Gang", "Hu")
"""The claims an ``Ignore`` clause may name."""
MAX_LINE = 4096
MAX_TOKENS = 64
# the lexer's word ids: 1 + the position in this list (the actions first, as above)
_WORDS = [*ACTIONS, "Deal", "Player", "Ignore", "Match", "Wind", "Fan", "Score", "Huang"]
W_DRAW, W_PLAY, W_CHI, W_PENG, W_GANG, W_ANGANG, W_BUGANG, W_HU, W_DEAL, W_PLAYER, \
    W_IGNORE, W_MATCH, W_WIND, W_FAN, W_SCORE, W_HUANG = range(1, 17)
WORDS = np.zeros((len(_WORDS), 8), np.uint8)
WORD_LEN = np.zeros(len(_WORDS), np.int64)
for _i, _w in enumerate(_WORDS):
    WORDS[_i, :len(_w)] = np.frombuffer(_w.encode(), np.uint8)
    WORD_LEN[_i] = len(_w)
_CLAIMS = {w: ACTIONS[w] for w in CLAIM_WORDS}
_VERB = {kind: word for word, kind in ACTIONS.items()}
_IGNORE = {ACTIONS[w]: w for w in CLAIM_WORDS}

OK, FALLBACK, STRAY = 0, 1, 2


@lru_cache(maxsize=1)
def tile_codes() -> dict[str, int]:
    """Botzone tile code (``W1``, ``F3``, ``J2``, ``H5``) -> tile id."""
    from ..notation.botzone import tile_code
    return {tile_code(t): t for t in range(42)}


def tile_code(tile: int) -> str:
    """The Botzone code of a tile id."""
    from ..notation.botzone import tile_code as code
    return code(tile)


@lru_cache(maxsize=16)
def judge_names(ctx: "RuleContext") -> dict[str, tuple[int, int]]:
    """Fan name as the judge writes it (the rule profile's ``zh`` name or one of the row's
    ``aliases``) -> (fan id, points) under ``ctx`` (names are data, compared by id)."""
    out: dict[str, tuple[int, int]] = {}
    for r in ctx.profile.rows:
        for name in (r.zh, *r.aliases):
            out[name] = (r.id, r.points)
    return out


def _context(ctx) -> "RuleContext":
    from ..rules import rule_context
    return rule_context(ctx if ctx is not None else "mcr", source=SOURCE)


# ---------------------------------------------------------------------------------------
# the compiled lexer (the common case: well-formed deals without flowers)
# ---------------------------------------------------------------------------------------
@kernel
def _word(buf, a, b, WORDS, WORD_LEN):
    n = b - a
    for w in range(WORD_LEN.shape[0]):
        if WORD_LEN[w] != n:
            continue
        same = True
        for k in range(n):
            if buf[a + k] != WORDS[w, k]:
                same = False
                break
        if same:
            return w + 1
    return 0


@kernel
def _tile(buf, a, b):
    """Tile id of a 2-byte code (W B T 1-9, F 1-4, J 1-3); -1 otherwise (flowers too)."""
    if b - a != 2:
        return -1
    c = buf[a]
    d = buf[a + 1] - 48
    if d < 1 or d > 9:
        return -1
    if c == 87:          # W
        return d - 1
    if c == 66:          # B
        return 9 + d - 1
    if c == 84:          # T
        return 18 + d - 1
    if c == 70 and d <= 4:   # F
        return 27 + d - 1
    if c == 74 and d <= 3:   # J
        return 31 + d - 1
    return -1


@kernel
def _int(buf, a, b):
    """(ok, value) of a signed decimal token."""
    if a >= b:
        return False, 0
    neg = buf[a] == 45
    i = a + 1 if neg else a
    if i >= b or b - i > 9:
        return False, 0
    v = 0
    while i < b:
        c = buf[i] - 48
        if c < 0 or c > 9:
            return False, 0
        v = v * 10 + c
        i += 1
    return True, -v if neg else v


@kernel
def _claim_kind(w):
    if w == W_CHI:
        return K_CHOW
    if w == W_PENG:
        return K_PUNG
    if w == W_GANG:
        return K_KONG_EXPOSED
    if w == W_HU:
        return K_WIN
    return -1


@kernel
def lex_block(buf, line0, WORDS, WORD_LEN,
              e_deal, e_kind, e_player, e_tile, e_aux, e_target, e_flags, e_line,
              d_a, d_b, d_status, d_line, d_prev, d_id_a, d_id_b, d_fan_a, d_fan_b,
              d_total, d_scores, d_nlines):
    """Lex one block (whole deals). Returns (rows, deals). Deals with status FALLBACK /
    STRAY have no rows: their bytes ``d_a:d_b`` go to the Python reader."""
    n = buf.shape[0]
    tok_a = np.zeros(MAX_TOKENS, np.int64)
    tok_b = np.zeros(MAX_TOKENS, np.int64)
    cl_m = np.zeros(MAX_TOKENS, np.int64)
    cl_k = np.zeros(MAX_TOKENS, np.int64)
    cl_t = np.zeros(MAX_TOKENS, np.int64)
    nr = 0
    nd = 0
    phase = 0          # 0 outside, 1 wind, 2 deal, 3 play, 4 fan, 5 score, 6 done, 7 skip, 8 stray
    first_row = 0
    dealt = 0
    live_p = -1
    live_t = -1
    last_k = -1
    last_p = -1
    last_t = -1
    kong_by = -1
    line = line0
    i = 0
    cur = -1
    while i < n:
        # one line: [i, j) without the line end
        j = i
        bad = False
        while j < n and buf[j] != 10:
            c = buf[j]
            if (c < 32 and c != 9 and c != 13) or c == 127:
                bad = True
            j += 1
        nxt = j + 1
        e = j
        if e > i and buf[e - 1] == 13:
            e -= 1
        line += 1
        if e - i >= MAX_LINE:
            bad = True
        nt = 0
        k = i
        while k < e and nt < MAX_TOKENS:
            while k < e and (buf[k] == 32 or buf[k] == 9):
                k += 1
            if k >= e:
                break
            tok_a[nt] = k
            while k < e and buf[k] != 32 and buf[k] != 9:
                k += 1
            tok_b[nt] = k
            nt += 1
        if k < e:
            bad = True                                  # too many tokens
        w0 = _word(buf, tok_a[0], tok_b[0], WORDS, WORD_LEN) if nt > 0 else 0
        if w0 == W_MATCH and not bad:
            # close the previous deal / stray run
            if cur >= 0:
                d_b[cur] = i
                if d_status[cur] == OK and phase != 6:
                    d_status[cur] = FALLBACK
                    nr = first_row
            cur = nd
            nd += 1
            d_a[cur] = i
            d_b[cur] = n
            d_line[cur] = line
            d_status[cur] = OK
            d_prev[cur] = 0
            d_total[cur] = -1
            d_fan_a[cur] = -1
            d_fan_b[cur] = -1
            d_nlines[cur] = 0
            for q in range(4):
                d_scores[cur, q] = 0
            if nt != 2:
                d_status[cur] = FALLBACK
                phase = 7
            else:
                d_id_a[cur] = tok_a[1]
                d_id_b[cur] = tok_b[1]
                phase = 1
            first_row = nr
            dealt = 0
            live_p = -1
            live_t = -1
            last_k = -1
            last_p = -1
            last_t = -1
            kong_by = -1
            d_nlines[cur] = 1
            i = nxt
            continue
        if cur >= 0:
            d_nlines[cur] += 1
        if phase == 0 or phase == 6:
            if nt == 0 and not bad:
                i = nxt
                continue
            # text outside a deal: a stray run (the Python reader reports it)
            if cur >= 0:
                d_b[cur] = i
            cur = nd
            nd += 1
            d_a[cur] = i
            d_b[cur] = n
            d_line[cur] = line
            d_status[cur] = STRAY
            phase = 8
            i = nxt
            continue
        if phase == 7 or phase == 8:
            i = nxt
            continue
        if nt == 0 and not bad:
            i = nxt
            continue
        ok = not bad
        if ok and phase == 1:
            if w0 == W_WIND and nt == 2 and tok_b[1] - tok_a[1] == 1 and 48 <= buf[tok_a[1]] <= 51:
                d_prev[cur] = buf[tok_a[1]] - 48
                phase = 2
            else:
                ok = False
        elif ok and phase == 2:
            if (w0 == W_PLAYER and nt == 16 and tok_b[1] - tok_a[1] == 1
                    and buf[tok_a[1]] - 48 == dealt
                    and _word(buf, tok_a[2], tok_b[2], WORDS, WORD_LEN) == W_DEAL):
                for x in range(3, 16):
                    t = _tile(buf, tok_a[x], tok_b[x])
                    if t < 0:
                        ok = False
                        break
                    e_deal[nr] = cur
                    e_kind[nr] = K_DEAL
                    e_player[nr] = dealt
                    e_tile[nr] = t
                    e_aux[nr] = -1
                    e_target[nr] = -1
                    e_flags[nr] = 0
                    e_line[nr] = line
                    nr += 1
                dealt += 1
                if dealt == 4:
                    phase = 3
            else:
                ok = False
        elif ok and phase == 3:
            if w0 == W_HUANG and nt == 1:
                e_deal[nr] = cur
                e_kind[nr] = K_EXHAUSTIVE_DRAW
                e_player[nr] = -1
                e_tile[nr] = -1
                e_aux[nr] = -1
                e_target[nr] = -1
                e_flags[nr] = 0
                e_line[nr] = line
                nr += 1
                phase = 5
            elif w0 == W_PLAYER and nt >= 4 and (nt - 4) % 5 == 0 and tok_b[1] - tok_a[1] == 1:
                p = buf[tok_a[1]] - 48
                act = _word(buf, tok_a[2], tok_b[2], WORDS, WORD_LEN)
                t = _tile(buf, tok_a[3], tok_b[3])
                if p < 0 or p > 3 or t < 0 or act == 0 or act > W_HU:
                    ok = False
                # Ignore clauses -> CLAIM_LOST rows, written after the claim that beat them
                lost_target = live_p
                n_lost = 0
                x = 4
                while ok and x < nt:
                    if (_word(buf, tok_a[x], tok_b[x], WORDS, WORD_LEN) != W_IGNORE
                            or _word(buf, tok_a[x + 1], tok_b[x + 1], WORDS, WORD_LEN) != W_PLAYER
                            or tok_b[x + 2] - tok_a[x + 2] != 1 or live_p < 0):
                        ok = False
                        break
                    m = buf[tok_a[x + 2]] - 48
                    ck = _claim_kind(_word(buf, tok_a[x + 3], tok_b[x + 3], WORDS, WORD_LEN))
                    ct = _tile(buf, tok_a[x + 4], tok_b[x + 4])
                    if m < 0 or m > 3 or ck < 0 or ct < 0:
                        ok = False
                        break
                    cl_m[n_lost] = m
                    cl_k[n_lost] = ck
                    cl_t[n_lost] = ct
                    n_lost += 1
                    x += 5
                if ok:
                    kind = -1
                    aux = -1
                    target = -1
                    fl = 0
                    tt = t
                    if act == W_DRAW:
                        kind = K_DRAW
                        if kong_by == p:
                            fl = 1
                        kong_by = -1
                    elif act == W_PLAY:
                        kind = K_DISCARD
                    elif act == W_CHI or act == W_PENG or act == W_GANG:
                        if live_p < 0 or live_p == p:
                            ok = False
                        elif act == W_CHI:
                            if t >= 27 or t % 9 == 0 or t % 9 == 8 or live_t < t - 1 \
                                    or live_t > t + 1 or live_t // 9 != t // 9:
                                ok = False
                            kind = K_CHOW
                            aux = t - 1
                            tt = live_t
                            target = live_p
                        else:
                            if t != live_t:
                                ok = False
                            kind = K_PUNG if act == W_PENG else K_KONG_EXPOSED
                            target = live_p
                            if act == W_GANG:
                                kong_by = p
                    elif act == W_ANGANG or act == W_BUGANG:
                        kind = K_KONG_CONCEALED if act == W_ANGANG else K_KONG_ADDED
                        kong_by = p
                    elif act == W_HU:
                        kind = K_WIN
                        if last_k == K_DRAW and last_p == p and last_t == t:
                            pass
                        elif live_p >= 0 and live_p != p and live_t == t:
                            target = live_p
                        elif last_k == K_KONG_ADDED and last_p != p and last_t == t:
                            target = last_p
                            fl = 2
                        else:
                            ok = False
                        phase = 4
                    if ok:
                        e_deal[nr] = cur
                        e_kind[nr] = kind
                        e_player[nr] = p
                        e_tile[nr] = tt
                        e_aux[nr] = aux
                        e_target[nr] = target
                        e_flags[nr] = fl
                        e_line[nr] = line
                        nr += 1
                        last_k = kind
                        last_p = p
                        last_t = tt
                        if kind == K_DISCARD:
                            live_p = p
                            live_t = t
                        else:
                            live_p = -1
                            live_t = -1
                        for y in range(n_lost):
                            e_deal[nr] = cur
                            e_kind[nr] = K_CLAIM_LOST
                            e_player[nr] = cl_m[y]
                            e_tile[nr] = cl_t[y]
                            e_aux[nr] = cl_k[y]
                            e_target[nr] = lost_target
                            e_flags[nr] = 0
                            e_line[nr] = line
                            nr += 1
            else:
                ok = False
        elif ok and phase == 4:
            if w0 == W_FAN and (nt == 2 or nt == 3):
                okv, v = _int(buf, tok_a[1], tok_b[1])
                if not okv:
                    ok = False
                else:
                    d_total[cur] = v
                    if nt == 3:
                        d_fan_a[cur] = tok_a[2]
                        d_fan_b[cur] = tok_b[2]
                    phase = 5
            else:
                ok = False
        elif ok and phase == 5:
            if w0 == W_SCORE and nt == 5:
                for q in range(4):
                    okv, v = _int(buf, tok_a[q + 1], tok_b[q + 1])
                    if not okv:
                        ok = False
                    d_scores[cur, q] = v
                if ok:
                    phase = 6
            else:
                ok = False
        if not ok:
            d_status[cur] = FALLBACK
            nr = first_row
            phase = 7
        i = nxt
    if cur >= 0 and d_status[cur] == OK and phase != 6:
        d_status[cur] = FALLBACK
        nr = first_row
    return nr, nd


def _blocks(path: str, block_bytes: int) -> Iterator[tuple[bytes, int]]:
    """(block, lines before it): blocks end right before a ``Match`` line (or at EOF)."""
    line0 = 0
    rest = b""
    with open(path, "rb") as f:
        while True:
            data = f.read(block_bytes)
            buf = rest + data
            if len(data) < block_bytes:               # the end of the file
                if buf:
                    yield buf, line0
                return
            cut = buf.rfind(b"\nMatch ")
            if cut <= 0:
                rest = buf
                continue
            block, rest = buf[:cut + 1], buf[cut + 1:]
            yield block, line0
            line0 += block.count(b"\n")


class Reader:
    """A Botzone text file in chunks of deals: the compiled lexer for every well-formed
    deal, the grammar's reader for the rest (see the module docstring). Deal order within
    a chunk: the lexed deals in file order, then the re-read ones."""

    def __init__(self, path: str | os.PathLike, ctx: "RuleContext", chunk_deals: int = 2000,
                 seen: set | None = None):
        self.path = str(path)
        self.chunk_deals = max(1, int(chunk_deals))
        self.ctx = ctx
        self.fans = judge_names(ctx)
        self.seen = seen if seen is not None else set()

    def __iter__(self) -> Iterator[LogChunk]:
        any_out = False
        for block, line0 in _blocks(self.path, self.chunk_deals * 2300):
            any_out = True
            yield self._block(block, line0)
        if not any_out:
            yield self._block(b"", 0)

    def read_range(self, start: int, end: int, line0: int = 0) -> LogChunk:
        """The deals in bytes ``start:end`` of the file as one chunk (a piece cut right
        before a ``Match`` line, or at the file's start; its first line is line
        ``line0 + 1``): memory bounded by the piece, not the file."""
        with open(self.path, "rb") as f:
            f.seek(start)
            block = f.read(max(0, end - start))
        return self._block(block, line0)

    def _block(self, block: bytes, line0: int) -> LogChunk:
        buf = np.frombuffer(block, dtype=np.uint8)
        cap = len(block) // 2 + 16
        e = [np.zeros(cap, np.int32)] + [np.zeros(cap, np.int8) for _ in range(6)] + \
            [np.zeros(cap, np.int64)]
        dcap = block.count(b"\n") + 2
        d = [np.zeros(dcap, np.int64) for _ in range(10)] + [np.zeros((dcap, 4), np.int64),
                                                             np.zeros(dcap, np.int64)]
        nr, nd = lex_block(buf, line0, WORDS, WORD_LEN, *e, *d)
        (e_deal, e_kind, e_player, e_tile, e_aux, e_target, e_flags, e_line) = (x[:nr] for x in e)
        (d_a, d_b, d_status, d_line, d_prev, d_id_a, d_id_b, d_fan_a, d_fan_b, d_total,
         d_scores, d_nlines) = (x[:nd] for x in d)
        infos: list[DealInfo] = []
        quarantine: list[dict] = []
        keep_deal = np.zeros(nd, bool)
        fallback: list[int] = []
        n_in = 0
        for i in range(nd):
            st = int(d_status[i])
            if st != OK:
                fallback.append(i)
                continue
            try:
                did = block[d_id_a[i]:d_id_b[i]].decode("ascii")
                names = (block[d_fan_a[i]:d_fan_b[i]].decode("utf-8") if d_fan_a[i] >= 0
                         else None)
            except UnicodeDecodeError:
                fallback.append(i)
                continue
            n_in += 1
            info = DealInfo(deal_id=did, source=self.path, line=int(d_line[i]),
                            prevalent=int(d_prev[i]), n_lines=int(d_nlines[i]))
            if did in self.seen:
                quarantine.append({"source": self.path, "deal_id": did, "line": int(d_line[i]),
                                   "step": None, "reason": f"deal id {did} repeats an earlier deal",
                                   "rows": None})
                continue
            if d_total[i] >= 0:
                info.logged_total = int(d_total[i])
                if names is not None and not self._fans(info, names):
                    n_in -= 1
                    fallback.append(i)
                    continue
            info.logged_scores = [int(x) for x in d_scores[i]]
            self.seen.add(did)
            keep_deal[i] = True
            infos.append(info)
        rows = keep_deal[e_deal] if nr else np.zeros(0, bool)
        newidx = np.cumsum(keep_deal) - 1
        deal = newidx[e_deal[rows]].astype(np.int32)
        n = int(rows.sum())
        starts = np.searchsorted(deal, np.arange(len(infos)))
        seq = (np.arange(n) - (starts[deal] if n else 0)).astype(np.int32)
        ev = Events(deal_ids=[x.deal_id for x in infos], deal=deal, seq=seq,
                    kind=e_kind[rows], player=e_player[rows], tile=e_tile[rows],
                    aux=e_aux[rows], target=e_target[rows], flags=e_flags[rows],
                    total=np.full(n, -1, np.int32), scores=np.zeros((n, 4), np.int32),
                    fan_offsets=np.zeros(n + 1, np.int32), fan_id=np.zeros(0, np.int16),
                    fan_points=np.zeros(0, np.int32), fan_count=np.zeros(0, np.int16))
        lines = e_line[rows]
        chunk = LogChunk(self.path, ev, lines, np.full((n, 4), CAN_HU_NONE, np.int16),
                         infos, quarantine, n_in)
        if not fallback:
            return chunk
        # the Python reader re-reads each part the lexer left (same reasons and lines)
        parts = [chunk]
        for i in fallback:
            seg = block[d_a[i]:d_b[i]]
            slow = _GrammarReader(self.path, self.ctx, 10 ** 9, seen=self.seen)
            for ch in slow.iter_bytes(seg, int(d_line[i]) - 1):
                parts.append(ch)
        return _merge(parts, self.path)

    def _fans(self, info: DealInfo, names: str) -> bool:
        for item in names.split("+"):
            name, star, cnt = item.rpartition("*")
            if not star or not cnt.isdigit() or not name:
                return False
            hit = self.fans.get(name)
            if hit is None:
                info.unknown_fans.append((name, int(cnt)))
            else:
                info.logged_fans.append((hit[0], hit[1], int(cnt)))
        return True


def _merge(parts: list[LogChunk], source: str) -> LogChunk:
    ev = Events.concat([p.events for p in parts])
    return LogChunk(source, ev, np.concatenate([p.line for p in parts]),
                    np.concatenate([p.can_hu for p in parts]),
                    [d for p in parts for d in p.deals],
                    [q for p in parts for q in p.quarantine], sum(p.n_in for p in parts))


# ---------------------------------------------------------------------------------------
# the grammar, line by line (what the lexer leaves: errors named, flowers)
# ---------------------------------------------------------------------------------------
_CONTROL = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")
_PLAYERS = {"0": 0, "1": 1, "2": 2, "3": 3}
_REPL = int(EventFlag.REPLACEMENT)


class _Bad(Exception):
    """A grammar error in the current deal (message = the reason)."""


def _lines(f, n: int = 0):
    """Yield ``(line_number, text | None, error | None)`` from a binary file object (lines
    numbered from ``n + 1``), capped line length."""
    while True:
        raw = f.readline(MAX_LINE)
        if not raw:
            return
        n += 1
        if not raw.endswith(b"\n") and len(raw) >= MAX_LINE:
            while True:                       # skip the rest of an over-long line
                more = f.readline(MAX_LINE)
                if not more or more.endswith(b"\n"):
                    break
            yield n, None, f"line longer than {MAX_LINE} bytes"
            continue
        raw = raw.rstrip(b"\r\n")
        if _CONTROL.search(raw):
            yield n, None, "control characters (binary data)"
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield n, None, f"not UTF-8 text (byte {e.start})"
            continue
        yield n, text, None


class _Deal:
    """Context of the deal being read: just enough to name each event."""
    __slots__ = ("phase", "dealt", "live", "last", "kong_by", "result_line", "lines")

    def __init__(self):
        self.phase = "wind"        # wind -> deal -> play -> fan -> score -> done
        self.dealt = 0
        self.live = None           # (player, tile) of the discard claims may take
        self.last = None           # (kind, player, tile) of the last event
        self.kong_by = -1          # player whose next draw is a kong replacement
        self.result_line = 0
        self.lines = 0


class _GrammarReader:
    """The grammar, line by line: a Botzone text log (or the part of a block the lexer
    left) in chunks of deals (:class:`LogChunk`), every grammar error quarantined with its
    line and reason. ``ctx``'s fan names (and aliases) map the ``Fan`` lines to fan ids."""

    def __init__(self, path: str | os.PathLike, ctx: "RuleContext", chunk_deals: int = 2000,
                 seen: set | None = None):
        self.path = str(path)
        self.chunk_deals = max(1, int(chunk_deals))
        self.codes = tile_codes()
        self.fans = judge_names(ctx)
        self.seen = seen if seen is not None else set()

    # -- helpers -----------------------------------------------------------------------
    def _tile(self, tok: str) -> int:
        t = self.codes.get(tok, -1)
        if t < 0:
            raise _Bad(f"unknown tile {tok!r}")
        return t

    def _player(self, tok: str) -> int:
        if tok not in ("0", "1", "2", "3"):
            raise _Bad(f"bad player {tok!r} (0..3)")
        return int(tok)

    # -- main loop ---------------------------------------------------------------------
    def __iter__(self) -> Iterator[LogChunk]:
        with open(self.path, "rb") as f:
            yield from self._iter(f, 0)

    def iter_bytes(self, data: bytes, first_line: int = 0) -> Iterator[LogChunk]:
        """Read ``data`` (a part of the file whose first line is ``first_line + 1``)."""
        import io
        yield from self._iter(io.BytesIO(data), first_line)

    def _iter(self, f, n0: int) -> Iterator[LogChunk]:
        cb = ChunkBuilder(self.path)
        deal: _Deal | None = None
        skipping = False           # after an error: ignore lines until the next Match
        stray_at, stray_n = 0, 0   # a run of lines outside any deal

        def flush_stray():
            nonlocal stray_at, stray_n
            if stray_n:
                cb.stray(stray_at, "text outside a Match block", stray_n)
                stray_at, stray_n = 0, 0

        for no, text, err in _lines(f, n0):
            toks = text.split() if text is not None else None
            if toks is not None and toks and toks[0] == "Match":
                flush_stray()
                if deal is not None and not skipping:
                    cb.reject(no, cb.current_seq,
                              f"truncated: the deal has no result (next Match at line {no})",
                              rows=deal.lines)
                skipping = False
                if len(cb.deals) >= self.chunk_deals:
                    yield cb.build()
                    cb = ChunkBuilder(self.path)
                deal = _Deal()
                deal.lines = 1
                did = toks[1] if len(toks) == 2 else None
                if did is None:
                    cb.stray(no, "bad Match line (Match <id>)")
                    deal, skipping = None, True
                    continue
                cb.start(DealInfo(deal_id=did, source=self.path, line=no))
                if did in self.seen:
                    cb.reject(no, None, f"deal id {did} repeats an earlier deal")
                    deal, skipping = None, True
                    continue
                self.seen.add(did)
                continue
            if skipping:
                if deal is not None:
                    deal.lines += 1
                continue
            if deal is None:
                if toks is not None and not toks:
                    continue                      # blank line between blocks
                if not stray_n:
                    stray_at = no
                stray_n += 1
                continue
            deal.lines += 1
            if toks is not None and not toks:
                continue
            try:
                if err is not None:
                    raise _Bad(err)
                if deal.phase == "play" and toks[0] == "Player":
                    self._play(cb, deal, no, toks)
                else:
                    self._line(cb, deal, no, toks)
            except _Bad as e:
                cb.reject(no, cb.current_seq, str(e), rows=deal.lines)
                skipping = True
                continue
            if deal.phase == "done":
                cb.deals[-1].n_lines = deal.lines
                deal = None
        flush_stray()
        if deal is not None and not skipping:
            cb.reject(None, cb.current_seq, "truncated: the file ends inside the deal",
                      rows=deal.lines)
        yield cb.build()

    # -- one line ----------------------------------------------------------------------
    def _line(self, cb: ChunkBuilder, d: _Deal, no: int, toks: list[str]) -> None:
        head = toks[0]
        info = cb.deals[-1]
        if d.phase == "wind":
            if head != "Wind" or len(toks) != 2 or toks[1] not in ("0", "1", "2", "3"):
                raise _Bad("expected 'Wind <0..3>'")
            info.prevalent = int(toks[1])
            d.phase = "deal"
            return
        if d.phase == "deal":
            if head != "Player" or len(toks) < 3 or toks[2] != "Deal":
                raise _Bad(f"expected 'Player {d.dealt} Deal <13 tiles>'")
            p = self._player(toks[1])
            if p != d.dealt:
                raise _Bad(f"deal lines out of order (player {p}, expected {d.dealt})")
            tiles = [self._tile(t) for t in toks[3:]]
            if len(tiles) != 13:
                raise _Bad(f"player {p} is dealt {len(tiles)} tiles (13 expected)")
            for t in tiles:
                cb.add(no, EventKind.DEAL, p, t)
            for t in tiles:
                if t >= 34:
                    cb.add(no, EventKind.FLOWER, p, t)
            d.dealt += 1
            if d.dealt == 4:
                d.phase = "play"
            return
        if d.phase == "play":
            if head == "Player":
                self._play(cb, d, no, toks)
                return
            if head == "Huang" and len(toks) == 1:
                cb.add(no, EventKind.EXHAUSTIVE_DRAW)
                d.phase = "score"
                return
            raise _Bad(f"unknown line {' '.join(toks)[:40]!r}")
        if d.phase == "fan":
            if head != "Fan" or len(toks) not in (2, 3):
                raise _Bad("expected 'Fan <total> <name>*<count>+...' after Hu")
            self._fan(info, toks)
            d.phase = "score"
            return
        if d.phase == "score":
            if head != "Score" or len(toks) != 5:
                raise _Bad("expected 'Score <s0> <s1> <s2> <s3>'")
            try:
                scores = [int(x) for x in toks[1:]]
            except ValueError:
                raise _Bad("non-integer score") from None
            info.logged_scores = scores
            d.phase = "done"
            return
        raise _Bad("line after the deal's result")

    def _fan(self, info: DealInfo, toks: list[str]) -> None:
        try:
            info.logged_total = int(toks[1])
        except ValueError:
            raise _Bad(f"non-integer fan total {toks[1]!r}") from None
        if len(toks) == 2:
            return
        for item in toks[2].split("+"):
            name, star, cnt = item.rpartition("*")
            if not star or not cnt.isdigit() or not name:
                raise _Bad(f"bad fan item {item!r} (name*count)")
            hit = self.fans.get(name)
            if hit is None:
                info.unknown_fans.append((name, int(cnt)))
            else:
                info.logged_fans.append((hit[0], hit[1], int(cnt)))

    def _play(self, cb: ChunkBuilder, d: _Deal, no: int, toks: list[str]) -> None:
        if len(toks) == 4:                        # the hot path: Draw / Play, no clauses
            p = _PLAYERS.get(toks[1], -1)
            tile = self.codes.get(toks[3], -1)
            act = toks[2]
            if p >= 0 and tile >= 0:
                if act == "Play":
                    cb.add(no, K_DISCARD, p, tile)
                    d.last = (K_DISCARD, p, tile)
                    d.live = (p, tile)
                    return
                if act == "Draw" and tile < 34:
                    flags = _REPL if d.kong_by == p else 0
                    d.kong_by = -1
                    cb.add(no, K_DRAW, p, tile, flags=flags)
                    d.last = (K_DRAW, p, tile)
                    d.live = None
                    return
        if len(toks) < 4:
            raise _Bad("expected 'Player <n> <Action> <tile>'")
        p = self._player(toks[1])
        act = toks[2]
        tile = self._tile(toks[3])
        rest = toks[4:]
        lost = []
        while rest:
            if len(rest) < 5 or rest[0] != "Ignore" or rest[1] != "Player":
                raise _Bad("bad Ignore clause (Ignore Player <m> <Act> <tile>)")
            m = self._player(rest[2])
            kind = _CLAIMS.get(rest[3])
            if kind is None:
                raise _Bad(f"unknown claim {rest[3]!r} in an Ignore clause")
            lost.append((m, kind, self._tile(rest[4])))
            rest = rest[5:]
        target = -1
        if lost:
            if d.live is not None:
                target = d.live[0]
            elif (act == "Hu" and d.last is not None and d.last[0] == EventKind.KONG_ADDED
                  and d.last[1] != p):
                target = d.last[1]          # several players could rob the added kong
            else:
                raise _Bad("Ignore clause with no discard before it (nor an added kong)")
        self._act(cb, d, no, toks, p, act, tile)
        # lost claims follow the claim that beat them (the engine's play-loop order)
        for m, kind, t in lost:
            cb.add(no, EventKind.CLAIM_LOST, m, t, aux=int(kind), target=target)

    def _act(self, cb: ChunkBuilder, d: _Deal, no: int, toks: list[str], p: int, act: str,
             tile: int) -> None:
        if act == "Draw":
            flags = EventFlag.REPLACEMENT if d.kong_by == p else 0
            d.kong_by = -1
            self._event(cb, d, no, EventKind.DRAW, p, tile, flags=flags)
            if tile >= 34:
                self._event(cb, d, no, EventKind.FLOWER, p, tile)
                d.kong_by = p                       # the next draw replaces the flower
            return
        if act == "Play":
            self._event(cb, d, no, EventKind.DISCARD, p, tile)
            d.live = (p, tile)
            return
        if act in ("Chi", "Peng", "Gang"):
            if d.live is None or d.live[0] == p:
                raise _Bad(f"{act} with no discard before it")
            dp, dt = d.live
            if act == "Chi":
                if tile >= 27 or tile % 9 in (0, 8):
                    raise _Bad(f"Chi names the chow's middle tile, not {toks[3]}")
                if not tile - 1 <= dt <= tile + 1 or dt // 9 != tile // 9:
                    raise _Bad(f"Chi {toks[3]} cannot use the discard {dt}")
                self._event(cb, d, no, EventKind.CHOW, p, dt, aux=tile - 1, target=dp)
            else:
                if tile != dt:
                    raise _Bad(f"{act} {toks[3]} but the last discard is another tile")
                kind = EventKind.PUNG if act == "Peng" else EventKind.KONG_EXPOSED
                self._event(cb, d, no, kind, p, tile, target=dp)
                if kind == EventKind.KONG_EXPOSED:
                    d.kong_by = p
            return
        if act in ("AnGang", "BuGang"):
            kind = EventKind.KONG_CONCEALED if act == "AnGang" else EventKind.KONG_ADDED
            self._event(cb, d, no, kind, p, tile)
            d.kong_by = p
            return
        if act == "Hu":
            last = d.last
            if last is not None and last[0] == EventKind.DRAW and last[1] == p and last[2] == tile:
                self._event(cb, d, no, EventKind.WIN, p, tile)
            elif d.live is not None and d.live[0] != p and d.live[1] == tile:
                self._event(cb, d, no, EventKind.WIN, p, tile, target=d.live[0])
            elif (last is not None and last[0] == EventKind.KONG_ADDED and last[1] != p
                  and last[2] == tile):
                self._event(cb, d, no, EventKind.WIN, p, tile, target=last[1],
                            flags=EventFlag.ROBBING)
            else:
                raise _Bad(f"Hu {toks[3]} with no such tile to win on (no draw, discard or "
                           "added kong of it)")
            d.phase = "fan"
            return
        raise _Bad(f"unknown action {act!r}")

    @staticmethod
    def _event(cb, d, no, kind, p, tile, aux=-1, target=-1, flags=0):
        cb.add(no, kind, p, tile, aux=aux, target=target, flags=int(flags))
        d.last = (kind, p, tile)
        if kind != EventKind.DISCARD:
            d.live = None


# ---------------------------------------------------------------------------------------
# pieces: a file cut at Match lines (a job's shards)
# ---------------------------------------------------------------------------------------
SCAN_BLOCK = 1 << 24


def _match_starts(work: bytes, line_start: bool = True):
    """Offsets of the lines of ``work`` that begin with ``Match ``."""
    if line_start and work.startswith(b"Match "):
        yield 0
    i = work.find(b"\nMatch ")
    while i >= 0:
        yield i + 1
        i = work.find(b"\nMatch ", i + 1)


def _match_id(line: bytes) -> bytes | None:
    toks = line.split()
    return toks[1] if len(toks) == 2 else None


def pieces(path: str | os.PathLike, chunk_deals: int, block: int = SCAN_BLOCK
           ) -> tuple[str, list[dict[str, Any]]]:
    """Cut a Botzone text file into pieces of ``chunk_deals`` deals by one streaming pass
    (memory: one block of ``block`` bytes, and 8 bytes per deal id). Returns the file's
    SHA-256 and, per piece, ``start`` / ``end`` (bytes; a piece starts at a ``Match``
    line, the first piece at 0), ``line0`` (lines before it), ``deals`` (its ``Match``
    lines) and ``seen``: the deal ids of the piece that an earlier piece already has (the
    reader quarantines their repeats, as it does within a piece)."""
    if isinstance(chunk_deals, bool) or not isinstance(chunk_deals, int) or chunk_deals < 1:
        from ..errors import ArgumentError
        raise ArgumentError(f"chunk_deals = {chunk_deals!r}", None, "a positive integer")
    digest = hashlib.sha256()
    pieces: list[dict[str, Any]] = []
    hashes, owner = array("q"), array("q")
    start = line0 = n = 0
    pos = lines = 0                # file offset / lines before ``work``
    carry = b""
    line_start = True              # ``work`` begins a line
    with open(path, "rb") as f:
        while True:
            data = f.read(block)
            digest.update(data)
            buf = carry + data
            cut = buf.rfind(b"\n") + 1
            if not data or (cut == 0 and len(buf) >= block):    # the end, or no line end
                cut = len(buf)
            work, carry = buf[:cut], buf[cut:]
            at = 0
            for a in _match_starts(work, line_start):
                lines += work.count(b"\n", at, a)
                at = a
                if n == chunk_deals:
                    pieces.append({"start": start, "end": pos + at, "line0": line0, "deals": n})
                    start, line0, n = pos + at, lines, 0
                n += 1
                did = _match_id(work[a:work.find(b"\n", a) % (len(work) + 1)])
                if did is not None:
                    hashes.append(hash(did))
                    owner.append(len(pieces))
            lines += work.count(b"\n", at)
            pos += len(work)
            if work:
                line_start = work.endswith(b"\n")
            if not data:
                break
    pieces.append({"start": start, "end": pos, "line0": line0, "deals": n})
    for p in pieces:
        p["seen"] = []
    if len(hashes) > 1:
        _repeats(path, pieces, hashes, owner)
    return digest.hexdigest(), pieces


def _repeats(path, pieces, hashes, owner) -> None:
    """Fill each piece's ``seen``: the ids it shares with an earlier piece (exact: the
    hash only picks the candidates, which a second read of their pieces confirms)."""
    import numpy as np
    h = np.frombuffer(hashes, np.int64)
    o = np.frombuffer(owner, np.int64)
    order = np.argsort(h, kind="stable")
    hs, os_ = h[order], o[order]
    same = hs[1:] == hs[:-1]
    cross = same & (os_[1:] != os_[:-1])
    if not cross.any():
        return
    cand = set(hs[1:][cross].tolist())
    where = sorted(set(os_[np.isin(hs, list(cand))].tolist()))
    first: dict[bytes, int] = {}
    with open(path, "rb") as f:
        for k in where:
            p = pieces[k]
            f.seek(p["start"])
            text = f.read(p["end"] - p["start"])
            for a in _match_starts(text):
                did = _match_id(text[a:text.find(b"\n", a) % (len(text) + 1)])
                if did is None or hash(did) not in cand:
                    continue
                j = first.setdefault(did, k)
                if j < k:
                    p["seen"].append(did.decode("utf-8", "replace"))
    for p in pieces:
        p["seen"] = sorted(set(p["seen"]))


# ---------------------------------------------------------------------------------------
# the format's entry points (the registry's interface, mjfast.formats)
# ---------------------------------------------------------------------------------------
def read(paths, ctx: "RuleContext | None" = None, *, chunk_deals: int = 2000,
         seen: set | None = None) -> Iterator[LogChunk]:
    """Chunks of ``chunk_deals`` deals of each file of ``paths`` (deal ids checked unique
    across them through ``seen``); ``ctx`` maps the judge's fan names (default: MCR
    ``botzone``, the rules the judge used)."""
    ctx = _context(ctx)
    seen = seen if seen is not None else set()
    for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths):
        yield from Reader(p, ctx, chunk_deals, seen=seen)


def read_piece(path: str | os.PathLike, piece: Mapping[str, Any],
               ctx: "RuleContext | None" = None) -> LogChunk:
    """The deals of one piece of :func:`pieces` as one chunk (memory bounded by the piece;
    a deal id the piece's ``seen`` lists repeats an earlier piece's and is quarantined)."""
    reader = Reader(path, _context(ctx), 1, seen=set(piece.get("seen", ())))
    return reader.read_range(int(piece["start"]), int(piece["end"]), int(piece.get("line0", 0)))


# ---------------------------------------------------------------------------------------
# the writer
# ---------------------------------------------------------------------------------------
K = EventKind
_CLAIMED = tuple(_CLAIMS.values())
_SKIP = (K.DEALER_CHANGE, K.WIN_PASSED, K.EXHAUSTIVE_DRAW)


def match_id(deal_id: str) -> str:
    """A 24-hex ``Match`` id for a deal id (the first 24 hex digits of its SHA-1)."""
    return hashlib.sha1(deal_id.encode()).hexdigest()[:24]


def fan_labels(ctx: "RuleContext | str | None" = None) -> dict[int, str]:
    """Fan id -> the judge's Chinese name (a row's first alias, else its ``zh``) under
    ``ctx`` (a rule context, or an MCR variant; None: ``botzone``, the judge's rules)."""
    from ..rules import rule_context
    profile = rule_context("mcr", ctx, source=SOURCE).profile
    return {r.id: (str(r.aliases[0]) if r.aliases else r.zh) for r in profile.rows}


def _fail(did: str, row: int, msg: str) -> LogParseError:
    return LogParseError(did, row, f"cannot write as Botzone text: {msg}")


def deal_block(ev: Events, start: int, stop: int, meta: Mapping[str, Any] | None,
               labels: Mapping[int, str], points: Mapping[int, int] | None = None) -> list[str]:
    """The lines of one deal (rows ``start:stop`` of ``ev``), without line ends."""
    did = ev.deal_ids[int(ev.deal[start])]
    meta = meta or {}
    if ev.players != 4:
        raise _fail(did, start, "Botzone MCR deals have 4 players")
    seats = [int(s) for s in meta.get("seats", range(4))]
    if sorted(seats) != [0, 1, 2, 3]:
        raise _fail(did, start, f"seats {seats} are not a permutation of 0..3")
    lines = [f"Match {match_id(did)}", f"Wind {int(meta.get('prevalent', 0))}"]
    hands: dict[int, list[str]] = {}
    order: list[int] = []
    claim_line = -1          # index in `lines` of the last claim, for Ignore clauses
    pending: list[str] = []  # Ignore clauses seen before their claim
    prev_claim = False
    result: np.ndarray | None = None
    win_seen = False
    for r in range(start, stop):
        k = K(int(ev.kind[r]))
        p = int(ev.player[r])
        n = seats[p] if 0 <= p < 4 else -1
        t = int(ev.tile[r])
        if k == K.DEAL:
            if t < 0 or t >= 34:
                raise _fail(did, r, "dealt tiles must be known and not flowers")
            if n not in hands:
                hands[n] = []
                order.append(n)
            hands[n].append(tile_code(t))
            continue
        if hands and order:
            for m in order:
                lines.append(f"Player {m} Deal {' '.join(hands[m])}")
            hands, order = {}, []
        if k in _SKIP:
            if k == K.EXHAUSTIVE_DRAW:
                lines.append("Huang")
            prev_claim = False
            continue
        if k == K.CLAIM_LOST:
            aux = int(ev.aux[r])
            if aux not in _IGNORE or t < 0:
                raise _fail(did, r, f"a lost claim of kind {aux} / tile {t}")
            clause = f"Ignore Player {n} {_IGNORE[K(aux)]} {tile_code(t)}"
            if prev_claim and claim_line >= 0:
                lines[claim_line] += " " + clause
            else:
                pending.append(clause)
            continue
        if k in (K.FLOWER, K.KONG_PAYMENT):
            raise _fail(did, r, f"{k.name} has no Botzone text form (use the botzone wall)")
        if t < 0 or t >= 34:
            raise _fail(did, r, f"{k.name} needs a known tile")
        shown = t
        if k == K.CHOW:
            low = int(ev.aux[r])
            if low < 0:
                raise _fail(did, r, "a chow without its lowest tile")
            shown = low + 1
        line = f"Player {n} {_VERB[k]} {tile_code(shown)}"
        if k in _CLAIMED:
            if pending:
                line += " " + " ".join(pending)
                pending = []
            lines.append(line)
            claim_line = len(lines) - 1
            prev_claim = True
        else:
            lines.append(line)
            prev_claim = False
        if k == K.WIN:
            if win_seen:
                raise _fail(did, r, "Botzone MCR deals have one winner")
            win_seen = True
            fans = sorted(ev.fans_of(r), key=lambda f: (-f[1] if points is None
                                                        else -points.get(f[0], f[1]), f[0]))
            names = "+".join(f"{labels.get(fid, str(fid))}*{cnt}" for fid, _, cnt in fans)
            lines.append(f"Fan {int(ev.total[r])} {names}".rstrip())
            result = np.zeros(4, np.int64)
            for p2 in range(4):
                result[seats[p2]] += int(ev.scores[r, p2])
    if hands and order:
        for m in order:
            lines.append(f"Player {m} Deal {' '.join(hands[m])}")
    if pending:
        raise _fail(did, stop - 1, "a lost claim without the claim that beat it")
    if result is None:
        if not lines or lines[-1] != "Huang":
            raise _fail(did, stop - 1, "a deal must end in a win or an exhaustive draw")
        result = np.zeros(4, np.int64)
    lines.append("Score " + " ".join(str(int(x)) for x in result))
    return lines


def botzone_text(ev: Events, headers: Mapping[str, Mapping[str, Any]] | None = None,
                 ctx: "RuleContext | str | None" = None) -> str:
    """The Botzone text of every deal in ``ev`` (CRLF, a blank line after each block).
    ``headers``: per deal id, ``prevalent`` and ``seats`` (a ``deals`` table row); ``ctx``
    names the fans (:func:`fan_labels`)."""
    labels = fan_labels(ctx)
    out = []
    for d, a, b in ev.deal_slices():
        did = ev.deal_ids[d]
        block = deal_block(ev, a, b, (headers or {}).get(did), labels)
        out.append("\r\n".join(block) + "\r\n\r\n")
    return "".join(out)


def encode(ev: Events, ctx: "RuleContext | None" = None,
           headers: Mapping[str, Mapping[str, Any]] | None = None) -> bytes:
    """The file's bytes for ``ev`` (:func:`botzone_text`, UTF-8)."""
    return botzone_text(ev, headers, ctx).encode("utf-8")


def write(path: str | os.PathLike, ev: Events, ctx: "RuleContext | None" = None,
          headers: Mapping[str, Mapping[str, Any]] | None = None) -> Path:
    """Write :func:`encode` to ``path``, atomically."""
    from ..datasets import atomic_write_bytes
    path = Path(path)
    atomic_write_bytes(path, encode(ev, ctx, headers))
    return path


__all__ = ["NAME", "SUFFIXES", "SOURCE", "ACTIONS", "CLAIM_WORDS", "tile_codes", "tile_code",
           "judge_names", "lex_block", "Reader", "read", "pieces", "read_piece", "match_id",
           "fan_labels", "deal_block", "botzone_text", "encode", "write"]
