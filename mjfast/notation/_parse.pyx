# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Batch hand-string parser: loops over the raw bytes of an Arrow string array.

It implements exactly the grammars of :mod:`mjfast.notation.mpsz` (mpsz / mcr) and
:mod:`mjfast.notation.botzone`, with the same checks in the same order and the same
error codes (see ``REASONS`` in ``mpsz.py``); positions are byte offsets, converted to
character offsets by the caller.  No Python object is touched inside the row loop.
"""
from libc.stdint cimport int8_t, uint8_t, int16_t, uint16_t, int32_t, int64_t
from libc.string cimport memset, memcmp

from .. import hand as _hand

# the situation and meld flag bits: C globals set once, at import, from their one
# definition (mjfast/hand.py); the row loop reads them without touching Python
cdef int F_SELF_DRAWN = _hand.SELF_DRAWN
cdef int F_FOURTH_TILE = _hand.FOURTH_TILE
cdef int F_LAST_TILE = _hand.LAST_TILE
cdef int F_KONG_REPLACEMENT = _hand.KONG_REPLACEMENT
cdef int F_ROBBING_KONG = _hand.ROBBING_KONG
cdef int F_ORIGINAL_READY = _hand.ORIGINAL_READY
cdef int F_FIRST_TURN = _hand.FIRST_TURN
cdef int MF_CONCEALED = _hand.MELD_CONCEALED
cdef int MF_ADDED = _hand.MELD_ADDED

# error codes (keep in step with mpsz.py)
cdef enum:
    E_CHAR = 1
    E_NO_SUIT = 2
    E_RANK0 = 3
    E_ZRANK = 4
    E_MELD_AFTER = 5
    E_SECTIONS = 6
    E_WIND = 7
    E_FLAG = 8
    E_SIT_LEN = 9
    E_FLOWER_SYNTAX = 10
    E_NULL = 11
    E_BZ_TILE = 12
    E_SEP = 13
    E_SUIT_ALONE = 14
    M_UNCLOSED = 20
    M_NESTED = 21
    M_SHAPE = 22
    M_TOO_MANY = 23
    M_CLAIM = 24
    M_CHOW_RULE = 25
    M_STRAY = 26
    M_KIND = 27
    M_CHI_TILE = 28
    M_SYNTAX = 29
    C_FIFTH = 40
    C_FLOWER_DUP = 41
    C_FLOWERS_9 = 42
    S_MELDS = 50
    S_TOO_MANY = 51
    S_SIZE = 52
    R_TILE = 60
    R_FLOWERS = 61
    X_UNKNOWN = 70
    X_DUP = 71
    X_VALUE = 72
    X_SELF_DISC = 73
    X_DISC_SEAT = 74

cdef enum:
    INT_MAX = 32767


cdef struct Ctx:
    const uint8_t* s
    Py_ssize_t n
    # rules
    const uint8_t* mask
    int hand_size
    int win_size
    int sets
    int flowers_ok
    int chow_ok
    # parsed facts
    int allc[34]
    int conc[34]
    int n_tiles
    int last_tile
    int n_melds
    int8_t melds[5][4]
    int flower_count
    int prevalent
    int seat
    int flags4[4]
    int extras_seen          # bit per extras item
    int dealer
    int discarder
    int streak
    int table_discards
    int discarder_pos
    # error
    int err
    Py_ssize_t epos
    int earg


cdef inline int fail(Ctx* c, int code, Py_ssize_t pos, int arg) noexcept nogil:
    c.err = code
    c.epos = pos
    c.earg = arg
    return 1


cdef inline int emit_tile(Ctx* c, int t, Py_ssize_t pos) noexcept nogil:
    if not c.mask[t]:
        return fail(c, R_TILE, pos, t)
    c.allc[t] += 1
    if c.allc[t] > 4:
        return fail(c, C_FIFTH, pos, t)
    return 0


cdef inline int emit_concealed(Ctx* c, int t, Py_ssize_t pos) noexcept nogil:
    if 3 * c.n_melds + c.n_tiles + 1 > c.win_size:
        return fail(c, S_TOO_MANY, pos, 0)
    if emit_tile(c, t, pos):
        return 1
    c.conc[t] += 1
    c.n_tiles += 1
    c.last_tile = t
    return 0


cdef inline int is_ws(uint8_t ch) noexcept nogil:
    return ch == 32 or ch == 9


cdef inline int honor_index(uint8_t ch) noexcept nogil:
    if ch == 69:    # E
        return 0
    if ch == 83:    # S
        return 1
    if ch == 87:    # W
        return 2
    if ch == 78:    # N
        return 3
    if ch == 67:    # C
        return 4
    if ch == 70:    # F
        return 5
    if ch == 80:    # P
        return 6
    return -1


cdef inline int wind_letter(uint8_t ch) noexcept nogil:
    if ch == 69:
        return 0
    if ch == 83:
        return 1
    if ch == 87:
        return 2
    if ch == 78:
        return 3
    return -1


cdef inline int classify(int* mt, int k) noexcept nogil:
    if k == 3 and mt[0] == mt[1] and mt[1] == mt[2]:
        return 1
    if k == 4 and mt[0] == mt[1] and mt[1] == mt[2] and mt[2] == mt[3]:
        return 2
    if k == 3 and mt[0] < 27 and mt[0] % 9 <= 6 and mt[1] == mt[0] + 1 and mt[2] == mt[0] + 2:
        return 0
    return -1


cdef inline int add_meld(Ctx* c, int kind, int tile, int flags, int claimed) noexcept nogil:
    cdef int j = c.n_melds
    c.melds[j][0] = kind
    c.melds[j][1] = tile
    c.melds[j][2] = flags
    c.melds[j][3] = claimed
    c.n_melds = j + 1
    return 0


# ------------------------------------------------------------------ extras items
cdef const char* X_NAMES[6]
X_NAMES[0] = b"dealer"
X_NAMES[1] = b"discarder"
X_NAMES[2] = b"streak"
X_NAMES[3] = b"table_discards"
X_NAMES[4] = b"original_ready"
X_NAMES[5] = b"first_turn"
cdef int X_LENS[6]
X_LENS[:] = [6, 9, 6, 14, 14, 10]


cdef int parse_extra_item(Ctx* c, Py_ssize_t p, Py_ssize_t q) noexcept nogil:
    cdef const uint8_t* s = c.s
    cdef Py_ssize_t eq = p, v, k
    cdef int idx = -1, i, val, w
    while eq < q and s[eq] != 61:   # '='
        eq += 1
    for i in range(6):
        if eq - p == X_LENS[i] and memcmp(s + p, X_NAMES[i], X_LENS[i]) == 0:
            idx = i
            break
    if idx < 0:
        return fail(c, X_UNKNOWN, p, 0)
    if c.extras_seen & (1 << idx):
        return fail(c, X_DUP, p, 0)
    c.extras_seen |= 1 << idx
    v = eq + 1
    if idx >= 4:
        if eq < q:
            return fail(c, X_VALUE, eq, 0)
        return 0
    if eq >= q:
        return fail(c, X_VALUE, eq, 0)
    if idx <= 1:
        if q != v + 1:
            return fail(c, X_VALUE, v, 0)
        w = wind_letter(s[v])
        if w < 0 and s[v] >= 48 and s[v] <= 51:
            w = s[v] - 48
        if w < 0:
            return fail(c, X_VALUE, v, 0)
        if idx == 0:
            c.dealer = w
        else:
            c.discarder = w
            c.discarder_pos = <int>p
        return 0
    if q == v or q - v > 5:
        return fail(c, X_VALUE, v, 0)
    val = 0
    for k in range(v, q):
        if s[k] < 48 or s[k] > 57:
            return fail(c, X_VALUE, v, 0)
        val = val * 10 + s[k] - 48
    if val > INT_MAX:
        return fail(c, X_VALUE, v, 0)
    if idx == 2:
        c.streak = val
    else:
        c.table_discards = val
    return 0


cdef int find_bars(Ctx* c, Py_ssize_t i, Py_ssize_t* bars, int* nb) noexcept nogil:
    cdef Py_ssize_t j
    bars[0] = i
    nb[0] = 1
    for j in range(i + 1, c.n):
        if c.s[j] == 124:
            if nb[0] == 3:
                return fail(c, E_SECTIONS, j, 0)
            bars[nb[0]] = j
            nb[0] += 1
    bars[nb[0]] = c.n
    return 0


cdef int finish(Ctx* c) noexcept nogil:
    cdef int size = 3 * c.n_melds + c.n_tiles
    if size != c.hand_size and size != c.hand_size + 1:
        return fail(c, S_SIZE, -1, size)
    if c.discarder >= 0:
        if c.flags4[0]:
            return fail(c, X_SELF_DISC, c.discarder_pos, 0)
        if c.discarder == c.seat:
            return fail(c, X_DISC_SEAT, c.discarder_pos, 0)
    return 0


# ------------------------------------------------------------------ mpsz family
cdef int mpsz_tail(Ctx* c, Py_ssize_t i) noexcept nogil:
    cdef const uint8_t* s = c.s
    cdef Py_ssize_t bars[4]
    cdef int nb = 0, k, d, seen, b
    cdef Py_ssize_t st, e, p, q
    cdef uint8_t ch
    if find_bars(c, i, bars, &nb):
        return 1
    # situation: bars[0]+1 .. bars[1]  (bars[nb] = n)
    st = bars[0] + 1
    e = bars[1]
    if st < e:
        for k in range(6):
            p = st + k
            if p >= e:
                return fail(c, E_SIT_LEN, p, 0)
            ch = s[p]
            if k < 2:
                if wind_letter(ch) < 0:
                    return fail(c, E_WIND, p, 0)
            elif ch != 48 and ch != 49:
                return fail(c, E_FLAG, p, 0)
        if e > st + 6:
            return fail(c, E_SIT_LEN, st + 6, 0)
        c.prevalent = wind_letter(s[st])
        c.seat = wind_letter(s[st + 1])
        for k in range(4):
            c.flags4[k] = s[st + 2 + k] - 48
    if nb > 1:
        st = bars[1] + 1
        e = bars[2]
        if st < e:
            ch = s[st]
            if ch >= 48 and ch <= 57:
                if e > st + 1:
                    return fail(c, E_FLOWER_SYNTAX, st + 1, 0)
                d = ch - 48
                if d > 8:
                    return fail(c, C_FLOWERS_9, st, d)
                c.flower_count = d
            else:
                seen = 0
                for p in range(st, e):
                    ch = s[p]
                    if ch < 97 or ch > 104:
                        return fail(c, E_FLOWER_SYNTAX, p, 0)
                    b = 1 << (ch - 97)
                    if seen & b:
                        return fail(c, C_FLOWER_DUP, p, 0)
                    seen |= b
                    c.flower_count += 1
            if c.flower_count and not c.flowers_ok:
                return fail(c, R_FLOWERS, st, 0)
    if nb > 2:
        st = bars[2] + 1
        e = bars[3]
        if st < e:
            p = st
            while True:
                q = p
                while q < e and s[q] != 44:
                    q += 1
                if parse_extra_item(c, p, q):
                    return 1
                if q >= e:
                    break
                p = q + 1
    return 0


cdef inline int meld_or_conc(Ctx* c, int in_meld, int* mt, int* nmt, int t, Py_ssize_t pos) noexcept nogil:
    if in_meld:
        if nmt[0] == 4:
            return fail(c, M_TOO_MANY, pos, 0)
        if emit_tile(c, t, pos):
            return 1
        mt[nmt[0]] = t
        nmt[0] += 1
        return 0
    return emit_concealed(c, t, pos)


cdef int parse_mpsz(Ctx* c) noexcept nogil:
    cdef const uint8_t* s = c.s
    cdef Py_ssize_t n = c.n, i = 0, p, pstart = 0, meld_start = 0, claim_pos
    cdef int pcount = 0, in_meld = 0, nmt = 0, d, t, h, kind, claim, flags, claimed
    cdef int mt[4]
    cdef uint8_t ch
    while i < n:
        ch = s[i]
        if ch >= 48 and ch <= 57:
            if pcount == 0:
                pstart = i
            pcount += 1
            i += 1
        elif ch == 109 or ch == 112 or ch == 115 or ch == 122:   # m p s z
            if pcount == 0:
                return fail(c, E_SUIT_ALONE, i, 0)
            for p in range(pstart, pstart + pcount):
                d = s[p] - 48
                if ch == 122:
                    if d < 1 or d > 7:
                        return fail(c, E_ZRANK, p, 0)
                    t = 26 + d
                else:
                    if d == 0:
                        return fail(c, E_RANK0, p, 0)
                    t = (0 if ch == 109 else (9 if ch == 112 else 18)) + d - 1
                if meld_or_conc(c, in_meld, mt, &nmt, t, p):
                    return 1
            pcount = 0
            i += 1
        elif honor_index(ch) >= 0:
            if pcount:
                return fail(c, E_NO_SUIT, pstart, 0)
            if meld_or_conc(c, in_meld, mt, &nmt, 27 + honor_index(ch), i):
                return 1
            i += 1
        elif ch == 91:   # [
            if in_meld:
                return fail(c, M_NESTED, i, 0)
            if pcount or c.n_tiles:
                return fail(c, E_MELD_AFTER, i, 0)
            if c.n_melds >= c.sets:
                return fail(c, S_MELDS, i, 0)
            in_meld = 1
            meld_start = i
            nmt = 0
            i += 1
        elif ch == 44 or ch == 93:   # , ]
            if not in_meld:
                return fail(c, E_CHAR if ch == 44 else M_STRAY, i, 0)
            claim = -1
            claim_pos = i
            if ch == 44:
                if pcount:
                    return fail(c, E_NO_SUIT, pstart, 0)
                if i + 1 < n and s[i + 1] >= 48 and s[i + 1] <= 57:
                    claim = s[i + 1] - 48
                    claim_pos = i + 1
                else:
                    return fail(c, M_CLAIM, i, 0)
                i += 2
                if i >= n:
                    return fail(c, M_UNCLOSED, meld_start, 0)
                if s[i] != 93:
                    return fail(c, M_CLAIM, i, 0)
            else:
                if pcount == 1 and nmt > 0:
                    claim = s[pstart] - 48
                    claim_pos = pstart
                    pcount = 0
                elif pcount:
                    return fail(c, E_NO_SUIT, pstart, 0)
            kind = classify(mt, nmt)
            if kind < 0:
                return fail(c, M_SHAPE, meld_start, 0)
            flags = 0
            if kind <= 1:
                claimed = 1 if claim < 0 else claim
                if claimed < 1 or claimed > 3:
                    return fail(c, M_CLAIM, claim_pos, 0)
            else:
                if claim <= 0:
                    flags = MF_CONCEALED
                    claimed = 0
                elif claim <= 3:
                    claimed = claim
                elif claim >= 5 and claim <= 7:
                    flags = MF_ADDED
                    claimed = claim - 4
                else:
                    return fail(c, M_CLAIM, claim_pos, 0)
            if kind == 0 and not c.chow_ok:
                return fail(c, M_CHOW_RULE, meld_start, 0)
            add_meld(c, kind, mt[0], flags, claimed)
            in_meld = 0
            i += 1
        elif ch == 124:   # |
            break
        else:
            return fail(c, E_CHAR, i, 0)
    if in_meld:
        return fail(c, M_UNCLOSED, meld_start, 0)
    if pcount:
        return fail(c, E_NO_SUIT, pstart, 0)
    if i < n:
        if mpsz_tail(c, i):
            return 1
    return finish(c)


# ------------------------------------------------------------------ Botzone
cdef inline int code_at(Ctx* c, Py_ssize_t i) noexcept nogil:
    cdef uint8_t a, d
    cdef int r, base, top
    if i + 1 >= c.n:
        return -1
    a = c.s[i]
    d = c.s[i + 1]
    if d < 49 or d > 57:
        return -1
    r = d - 48
    if a == 87:      # W
        base = 0
        top = 9
    elif a == 66:    # B
        base = 9
        top = 9
    elif a == 84:    # T
        base = 18
        top = 9
    elif a == 70:    # F
        base = 27
        top = 4
    elif a == 74:    # J
        base = 31
        top = 3
    else:
        return -1
    if r > top:
        return -1
    return base + r - 1


cdef int bz_meld(Ctx* c, Py_ssize_t i, Py_ssize_t* out_j) noexcept nogil:
    cdef const uint8_t* s = c.s
    cdef Py_ssize_t n = c.n, j = i + 1, w, tp, op
    cdef int kind = -1, t, offer, x, flags = 0, claimed, mtile, cnt
    while j < n and is_ws(s[j]):
        j += 1
    w = j
    while j < n and s[j] >= 65 and s[j] <= 90:
        j += 1
    if j - w == 3 and memcmp(s + w, b"CHI", 3) == 0:
        kind = 0
    elif j - w == 4 and memcmp(s + w, b"PENG", 4) == 0:
        kind = 1
    elif j - w == 4 and memcmp(s + w, b"GANG", 4) == 0:
        kind = 2
    elif j - w == 6 and memcmp(s + w, b"ANGANG", 6) == 0:
        kind = 3
    elif j - w == 6 and memcmp(s + w, b"BUGANG", 6) == 0:
        kind = 4
    if kind < 0:
        return fail(c, M_KIND, w, 0)
    if j >= n:
        return fail(c, M_UNCLOSED, i, 0)
    if not is_ws(s[j]):
        return fail(c, M_SYNTAX, j, 0)
    while j < n and is_ws(s[j]):
        j += 1
    tp = j
    t = code_at(c, tp)
    if t < 0:
        return fail(c, E_BZ_TILE, tp, 0)
    j = tp + 2
    offer = -1
    op = j
    if j < n and not is_ws(s[j]) and s[j] != 93:
        return fail(c, E_SEP, j, 0)
    while j < n and is_ws(s[j]):
        j += 1
    if j < n and s[j] >= 48 and s[j] <= 57:
        offer = s[j] - 48
        op = j
        j += 1
        if j < n and not is_ws(s[j]) and s[j] != 93:
            return fail(c, M_CLAIM, j, 0)
        while j < n and is_ws(s[j]):
            j += 1
    if j >= n:
        return fail(c, M_UNCLOSED, i, 0)
    if s[j] != 93:
        return fail(c, M_SYNTAX, j, 0)
    if offer < 0:
        op = j
    mtile = t
    cnt = 4
    if kind == 0:
        if offer < 1 or offer > 3:
            return fail(c, M_CLAIM, op, 0)
        if t >= 27 or t % 9 == 0 or t % 9 == 8:
            return fail(c, M_CHI_TILE, tp, 0)
        if not c.chow_ok:
            return fail(c, M_CHOW_RULE, i, 0)
        mtile = t - 1
        claimed = offer
        cnt = 3
    elif kind == 1:
        if offer < 1 or offer > 3:
            return fail(c, M_CLAIM, op, 0)
        claimed = offer
        cnt = 3
    elif kind == 2:
        if offer < 0 or offer > 3:
            return fail(c, M_CLAIM, op, 0)
        claimed = offer
        if offer == 0:
            flags = MF_CONCEALED
    elif kind == 3:
        if offer > 0:
            return fail(c, M_CLAIM, op, 0)
        claimed = 0
        flags = MF_CONCEALED
    else:
        if offer < 1 or offer > 3:
            return fail(c, M_CLAIM, op, 0)
        claimed = offer
        flags = MF_ADDED
    if kind == 0:
        for x in range(3):
            if emit_tile(c, mtile + x, tp):
                return 1
    else:
        for x in range(cnt):
            if emit_tile(c, t, tp):
                return 1
    add_meld(c, 0 if kind == 0 else (1 if kind == 1 else 2), mtile, flags, claimed)
    out_j[0] = j + 1
    return 0


cdef inline Py_ssize_t next_tok(Ctx* c, Py_ssize_t p, Py_ssize_t e, Py_ssize_t* q) noexcept nogil:
    """Start of the next token at or after p (e if none); q = its end."""
    while p < e and is_ws(c.s[p]):
        p += 1
    q[0] = p
    while q[0] < e and not is_ws(c.s[q[0]]):
        q[0] += 1
    return p


cdef int bz_tail(Ctx* c, Py_ssize_t i) noexcept nogil:
    cdef const uint8_t* s = c.s
    cdef Py_ssize_t bars[4]
    cdef Py_ssize_t st, e, p, q, p0, q0, p1, q1, p2, q2, p3, q3
    cdef int nb = 0, k, d, seen, b
    if find_bars(c, i, bars, &nb):
        return 1
    st = bars[0] + 1
    e = bars[1]
    p0 = next_tok(c, st, e, &q0)
    if p0 < e:
        p1 = next_tok(c, q0, e, &q1)
        # first two tokens: winds
        if q0 - p0 != 2 or s[p0] != 70 or s[p0 + 1] < 49 or s[p0 + 1] > 52:
            return fail(c, E_WIND, p0, 0)
        if p1 >= e:
            return fail(c, E_SIT_LEN, e, 0)
        if q1 - p1 != 2 or s[p1] != 70 or s[p1 + 1] < 49 or s[p1 + 1] > 52:
            return fail(c, E_WIND, p1, 0)
        p2 = next_tok(c, q1, e, &q2)
        if p2 >= e:
            return fail(c, E_SIT_LEN, e, 0)
        for k in range(4):
            if p2 + k >= q2:
                return fail(c, E_SIT_LEN, p2 + k, 0)
            if s[p2 + k] != 48 and s[p2 + k] != 49:
                return fail(c, E_FLAG, p2 + k, 0)
        if q2 > p2 + 4:
            return fail(c, E_SIT_LEN, p2 + 4, 0)
        p3 = next_tok(c, q2, e, &q3)
        if p3 < e:
            return fail(c, E_SIT_LEN, p3, 0)
        c.prevalent = s[p0 + 1] - 49
        c.seat = s[p1 + 1] - 49
        for k in range(4):
            c.flags4[k] = s[p2 + k] - 48
    if nb > 1:
        st = bars[1] + 1
        e = bars[2]
        p0 = next_tok(c, st, e, &q0)
        if p0 < e:
            if s[p0] >= 48 and s[p0] <= 57:
                if q0 > p0 + 1:
                    return fail(c, E_FLOWER_SYNTAX, p0 + 1, 0)
                d = s[p0] - 48
                if d > 8:
                    return fail(c, C_FLOWERS_9, p0, d)
                p1 = next_tok(c, q0, e, &q1)
                if p1 < e:
                    return fail(c, E_FLOWER_SYNTAX, p1, 0)
                c.flower_count = d
            else:
                seen = 0
                p = p0
                q = q0
                while p < e:
                    if q - p != 2 or s[p] != 72 or s[p + 1] < 49 or s[p + 1] > 56:
                        return fail(c, E_FLOWER_SYNTAX, p, 0)
                    b = 1 << (s[p + 1] - 49)
                    if seen & b:
                        return fail(c, C_FLOWER_DUP, p, 0)
                    seen |= b
                    c.flower_count += 1
                    p = next_tok(c, q, e, &q)
            if c.flower_count and not c.flowers_ok:
                return fail(c, R_FLOWERS, p0, 0)
    if nb > 2:
        st = bars[2] + 1
        e = bars[3]
        p = next_tok(c, st, e, &q)
        while p < e:
            if parse_extra_item(c, p, q):
                return 1
            p = next_tok(c, q, e, &q)
    return 0


cdef int parse_bz(Ctx* c) noexcept nogil:
    cdef const uint8_t* s = c.s
    cdef Py_ssize_t n = c.n, i = 0, j = 0
    cdef int t
    cdef uint8_t ch
    while i < n:
        ch = s[i]
        if is_ws(ch):
            i += 1
        elif ch == 91:
            if c.n_tiles:
                return fail(c, E_MELD_AFTER, i, 0)
            if c.n_melds >= c.sets:
                return fail(c, S_MELDS, i, 0)
            if bz_meld(c, i, &j):
                return 1
            i = j
        elif ch == 93:
            return fail(c, M_STRAY, i, 0)
        elif ch == 124:
            break
        else:
            t = code_at(c, i)
            if t < 0:
                return fail(c, E_BZ_TILE, i, 0)
            if i + 2 < n and not is_ws(s[i + 2]) and s[i + 2] != 124:
                return fail(c, E_SEP, i + 2, 0)
            if emit_concealed(c, t, i):
                return 1
            i += 2
    if i < n:
        if bz_tail(c, i):
            return 1
    return finish(c)


cdef int looks_botzone(const uint8_t* s, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t a = 0, b = n, k
    while a < b and is_ws(s[a]):
        a += 1
    while b > a and is_ws(s[b - 1]):
        b -= 1
    for k in range(a, b):
        if is_ws(s[k]):
            return 1
    if b - a == 2:
        if (s[a] == 87 or s[a] == 66 or s[a] == 84 or s[a] == 70 or s[a] == 74 or s[a] == 72) \
                and s[a + 1] >= 49 and s[a + 1] <= 57:
            return 1
    return 0


# ------------------------------------------------------------------ the row loop
def parse_rows(offsets, const uint8_t[::1] data, const uint8_t[::1] validity,
               Py_ssize_t arr_offset, Py_ssize_t nrows, int large, int fmt,
               const uint8_t[::1] mask, int hand_size, int sets, int flowers_ok, int chow_ok,
               uint8_t[:, ::1] counts, int8_t[::1] winning_tile, int8_t[:, :, ::1] melds,
               uint8_t[::1] n_melds, uint8_t[::1] flowers, uint16_t[::1] flags,
               int8_t[::1] seat, int8_t[::1] prevalent, int8_t[::1] dealer,
               int8_t[::1] discarder, int16_t[::1] streak, int16_t[::1] table_discards,
               int16_t[::1] code, int64_t[::1] epos, int32_t[::1] earg):
    """Parse rows [0, nrows) of an Arrow (large_)string array given as raw buffers."""
    cdef const int32_t[::1] off32
    cdef const int64_t[::1] off64
    cdef int has_validity = validity.shape[0] > 0
    cdef Ctx c
    cdef Py_ssize_t r, a, b, k
    cdef int j, fl, rc, bz
    if large:
        off64 = offsets
    else:
        off32 = offsets
    c.mask = &mask[0]
    c.hand_size = hand_size
    c.win_size = hand_size + 1
    c.sets = sets
    c.flowers_ok = flowers_ok
    c.chow_ok = chow_ok
    with nogil:
        for r in range(nrows):
            k = r + arr_offset
            if has_validity and not (validity[k >> 3] >> (k & 7)) & 1:
                code[r] = E_NULL
                epos[r] = -1
                continue
            if large:
                a = off64[k]
                b = off64[k + 1]
            else:
                a = off32[k]
                b = off32[k + 1]
            c.s = &data[0] + a
            c.n = b - a
            memset(c.allc, 0, sizeof(c.allc))
            memset(c.conc, 0, sizeof(c.conc))
            c.n_tiles = 0
            c.last_tile = -1
            c.n_melds = 0
            c.flower_count = 0
            c.prevalent = 0
            c.seat = 0
            c.flags4[0] = 0
            c.flags4[1] = 0
            c.flags4[2] = 0
            c.flags4[3] = 0
            c.extras_seen = 0
            c.dealer = 0
            c.discarder = -1
            c.streak = 0
            c.table_discards = -1
            c.discarder_pos = -1
            c.err = 0
            if fmt == 0:
                bz = looks_botzone(c.s, c.n)
            else:
                bz = fmt == 2
            if bz:
                rc = parse_bz(&c)
            else:
                rc = parse_mpsz(&c)
            if rc:
                code[r] = c.err
                epos[r] = c.epos
                earg[r] = c.earg
                continue
            for j in range(34):
                counts[r, j] = c.conc[j]
            winning_tile[r] = c.last_tile if 3 * c.n_melds + c.n_tiles == c.win_size else -1
            for j in range(c.n_melds):
                melds[r, j, 0] = c.melds[j][0]
                melds[r, j, 1] = c.melds[j][1]
                melds[r, j, 2] = c.melds[j][2]
                melds[r, j, 3] = c.melds[j][3]
            n_melds[r] = c.n_melds
            flowers[r] = c.flower_count
            fl = 0
            if c.flags4[0]:
                fl |= F_SELF_DRAWN
            if c.flags4[1]:
                fl |= F_FOURTH_TILE
            if c.flags4[2]:
                fl |= F_LAST_TILE
            if c.flags4[3]:
                fl |= F_KONG_REPLACEMENT if c.flags4[0] else F_ROBBING_KONG
            if c.extras_seen & 16:
                fl |= F_ORIGINAL_READY
            if c.extras_seen & 32:
                fl |= F_FIRST_TURN
            flags[r] = fl
            seat[r] = c.seat
            prevalent[r] = c.prevalent
            dealer[r] = c.dealer
            discarder[r] = c.discarder
            streak[r] = c.streak
            table_discards[r] = c.table_discards
