"""The compiled fast path of the Botzone text reader (profiling: the Python reader was ~70%
of a replay).

The file is read in blocks cut at ``Match`` lines (never whole); :func:`lex_block` (Numba)
turns every well-formed deal of a block into event rows with the same meaning as
:class:`~mjfast.replay._read_botzone_text.BotzoneTextReader`. Anything else (a grammar
error, flowers, control bytes, an over-long line, a truncated deal, text outside a deal) is
left to the Python reader, which re-reads just that part of the block and gives the
quarantine reason: one grammar, one set of messages; the compiled path only accelerates
the common case. Tests check that both paths give the same events.
"""
from __future__ import annotations

import io
import os
from typing import Iterator

import numpy as np

from ..datasets import Events
from ..datasets._events import (K_DEAL, K_DRAW, K_DISCARD, K_CHOW, K_PUNG,
                                K_KONG_EXPOSED, K_KONG_CONCEALED, K_KONG_ADDED,
                                K_CLAIM_LOST, K_WIN, K_EXHAUSTIVE_DRAW)
from ..kernels import kernel
from ._log import CAN_HU_NONE, DealInfo, LogChunk, botzone_codes, fan_names

MAX_LINE = 4096
MAX_TOKENS = 64
_WORDS = ["Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu", "Deal", "Player",
          "Ignore", "Match", "Wind", "Fan", "Score", "Huang"]
W_DRAW, W_PLAY, W_CHI, W_PENG, W_GANG, W_ANGANG, W_BUGANG, W_HU, W_DEAL, W_PLAYER, \
    W_IGNORE, W_MATCH, W_WIND, W_FAN, W_SCORE, W_HUANG = range(1, 17)
WORDS = np.zeros((len(_WORDS), 8), np.uint8)
WORD_LEN = np.zeros(len(_WORDS), np.int64)
for _i, _w in enumerate(_WORDS):
    WORDS[_i, :len(_w)] = np.frombuffer(_w.encode(), np.uint8)
    WORD_LEN[_i] = len(_w)


OK, FALLBACK, STRAY = 0, 1, 2


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


class FastBotzoneTextReader:
    """Same chunks as :class:`BotzoneTextReader`, with the compiled lexer for every
    well-formed deal (see the module docstring). Deal order within a chunk: the lexed
    deals in file order, then the re-read ones."""

    def __init__(self, path: str | os.PathLike, chunk_deals: int = 2000,
                 rules: str = "mcr", variant: str | None = "botzone", seen: set | None = None):
        self.path = str(path)
        self.chunk_deals = max(1, int(chunk_deals))
        self.rules, self.variant = rules, variant
        self.fans = fan_names(rules, variant)
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
        from ._read_botzone_text import BotzoneTextReader
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
            slow = BotzoneTextReader(self.path, 10 ** 9, self.rules, self.variant,
                                     seen=self.seen)
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
