"""mpsz notation: tiles (``123m456p789s11z``) and hand strings with melds and situation.

Tiles
-----
Digits followed by a suit letter: ``m`` characters, ``p`` dots, ``s`` bamboo, ``z``
honors.  **z digits follow the MCR calculators' order: 1z..7z = E S W N C F P, so 5z is
the RED dragon 中** (the riichi/tenhou world puts white at 5z; letters are unambiguous).
Honors may also be written as the letters ``E S W N C F P`` (red 中, green 發, white 白).
Rank 0 (riichi red fives) is not a tile.  :func:`parse_tiles` also reads the flower
letters ``a``..``h`` (ids 34..41) and, for a whitespace-separated string, Botzone codes.

Hand strings ("mpsz family": the ``mpsz`` and ``mcr`` formats share this grammar)
------------------------------------------------------------------------------------
::

    [melds] concealed-tiles [ '|' situation [ '|' flowers [ '|' extras ] ] ]

- melds first, each in brackets: the tiles (``[345m]``, ``[EEE]``, ``[111z]``, ``[CCCC]``)
  then an optional claim marker, ``,K`` or the bare digit ``K`` (``[345m3]``, ``[NNNN2]``).
  Chow: K = position 1..3 of the claimed tile (default 1); pung: K = 1 left, 2 across,
  3 right (default 1); kong: none or 0 = concealed, 1..3 exposed (claimed from K),
  5..7 added kong made from a pung claimed from K-4.  Chow tiles are written ascending.
- the concealed tiles; the LAST one written is the winning tile when the hand has
  14 tiles (17 in Taiwan; melds counted as 3), none when it has 13 (16): a waiting hand.
- situation: empty, or prevalent wind + seat wind (``E S W N``) + four 0/1 flags:
  self-drawn, fourth tile, last tile, kong-related (kong replacement on a self-draw,
  robbing the kong on a discard).  Missing = ``EE0000``.
- flowers: empty, a count ``0``..``8``, or flower letters ``a``..``h`` (each at most once).
- extras (an mjfast extension, printed only when needed): comma-separated
  ``dealer=W``, ``discarder=W`` (W = ``E S W N`` or ``0``..``3``), ``streak=N``,
  ``table_discards=N`` (0..32767), ``original_ready``, ``first_turn``.

No whitespace is allowed in this grammar.  Every error is a typed
:class:`mjfast.errors.MjfastError` carrying the text and the 0-based character position.

The batch kernel (``_parse.pyx``) implements exactly the same grammar and checks, in the
same order, and reports the same error codes; keep them in step.
"""
from __future__ import annotations

from ..errors import (HandSizeError, MeldError, RuleSetError, SituationError,
                      TileCountError, TileParseError)
from ..tiles import FLOWER_BASE, HONOR_LETTERS, N_KINDS, tile_name

# ---------------------------------------------------------------------------------
# Error codes shared with the Cython kernel: code -> (error class, message template).
# Templates may use {ch} (the character at the position), {tile} (tile name of arg),
# {arg} (the integer argument), {rules}, {sets}, {hs}, {ws}.
# ---------------------------------------------------------------------------------
E_CHAR, E_NO_SUIT, E_RANK0, E_ZRANK, E_MELD_AFTER, E_SECTIONS, E_WIND, E_FLAG, \
    E_SIT_LEN, E_FLOWER_SYNTAX, E_NULL, E_BZ_TILE, E_SEP, E_SUIT_ALONE = range(1, 15)
M_UNCLOSED, M_NESTED, M_SHAPE, M_TOO_MANY, M_CLAIM, M_CHOW_RULE, M_STRAY, M_KIND, \
    M_CHI_TILE, M_SYNTAX = range(20, 30)
C_FIFTH, C_FLOWER_DUP, C_FLOWERS_9 = range(40, 43)
S_MELDS, S_TOO_MANY, S_SIZE = range(50, 53)
R_TILE, R_FLOWERS = range(60, 62)
X_UNKNOWN, X_DUP, X_VALUE, X_SELF_DISC, X_DISC_SEAT = range(70, 75)

REASONS: dict[int, tuple[type, str]] = {
    E_CHAR: (TileParseError, "unknown character {ch!r}"),
    E_NO_SUIT: (TileParseError, "digits without a suit letter"),
    E_RANK0: (TileParseError, "rank 0 is not a tile (no red fives)"),
    E_ZRANK: (TileParseError, "{ch}z is not a tile (honors are 1z..7z = E S W N C F P)"),
    E_MELD_AFTER: (TileParseError, "melds must come before the concealed tiles"),
    E_SECTIONS: (TileParseError, "too many '|' sections (situation|flowers|extras)"),
    E_WIND: (TileParseError, "expected a wind (E S W N; Botzone F1..F4)"),
    E_FLAG: (TileParseError, "expected a 0/1 flag"),
    E_SIT_LEN: (TileParseError, "the situation is 2 winds and 4 flags"),
    E_FLOWER_SYNTAX: (TileParseError, "bad flowers (a count 0..8 or flower letters a..h / H1..H8)"),
    E_NULL: (TileParseError, "missing value (null)"),
    E_BZ_TILE: (TileParseError, "unknown Botzone tile code (W1..W9 B1..B9 T1..T9 F1..F4 J1..J3)"),
    E_SEP: (TileParseError, "expected a space after a tile code"),
    E_SUIT_ALONE: (TileParseError, "suit letter {ch!r} without digits"),
    M_UNCLOSED: (MeldError, "unclosed '['"),
    M_NESTED: (MeldError, "'[' inside a meld"),
    M_SHAPE: (MeldError, "a meld must be a chow (ascending), a pung or a kong"),
    M_TOO_MANY: (MeldError, "a meld has at most 4 tiles"),
    M_CLAIM: (MeldError, "bad claim marker (chow 1..3, pung 1..3, kong 0..3 or 5..7)"),
    M_CHOW_RULE: (MeldError, "{rules} does not allow claimed chows"),
    M_STRAY: (MeldError, "']' without '['"),
    M_KIND: (MeldError, "unknown meld kind (CHI PENG GANG ANGANG BUGANG)"),
    M_CHI_TILE: (MeldError, "CHI takes the middle tile of the chow (a suited 2..8)"),
    M_SYNTAX: (MeldError, "malformed meld"),
    C_FIFTH: (TileCountError, "5 copies of {tile} (at most 4)"),
    C_FLOWER_DUP: (TileCountError, "a flower held twice"),
    C_FLOWERS_9: (TileCountError, "{arg} flowers (at most 8)"),
    S_MELDS: (HandSizeError, "more than {sets} melds"),
    S_TOO_MANY: (HandSizeError, "too many tiles: {arg} (melds counted as 3), expected {hs} (waiting) or {ws} (complete) for a {rules} hand"),
    S_SIZE: (HandSizeError, "{few} tiles: {arg} (melds counted as 3), expected {hs} (waiting) or {ws} (complete) for a {rules} hand"),
    R_TILE: (RuleSetError, "tile {tile} is not in the {rules} tile set"),
    R_FLOWERS: (RuleSetError, "{rules} has no flowers"),
    X_UNKNOWN: (SituationError, "unknown situation item (dealer discarder streak table_discards original_ready first_turn)"),
    X_DUP: (SituationError, "situation item given twice"),
    X_VALUE: (SituationError, "bad situation value"),
    X_SELF_DISC: (SituationError, "a self-drawn win has no discarder"),
    X_DISC_SEAT: (SituationError, "the winner cannot be the discarder"),
}
# (No string-level WinningTileError: the last concealed tile written IS the winning tile.)


def make_error(code: int, text, pos: int | None, arg: int = 0, rs=None):
    """The typed error for an error code (shared by the Python path and the batch kernel)."""
    cls, template = REASONS[code]
    ch = text[pos] if isinstance(text, str) and pos is not None and 0 <= pos < len(text) else ""
    if code == S_TOO_MANY and isinstance(text, str):
        arg = written_size(text)   # the grammar stops at the first tile too many
    tile = tile_name(arg) if 0 <= arg < 42 else str(arg)
    few = "too few" if rs is not None and arg < rs.hand_size else "wrong number of"
    msg = template.format(ch=ch, tile=tile, arg=arg, few=few,
                          rules=getattr(rs, "name", "?"), sets=getattr(rs, "sets", "?"),
                          hs=getattr(rs, "hand_size", "?"),
                          ws=getattr(rs, "hand_size", 0) + 1 if rs is not None else "?")
    return cls(text, pos, msg)


def written_size(text: str) -> int:
    """Tiles written before the first ``|`` (each meld counted as 3), counted without the
    grammar's other checks: the number a "too many tiles" error reports."""
    head = text.split("|", 1)[0]
    melds = 0
    rest = []
    depth = 0
    for c in head:
        if c == "[":
            melds += depth == 0
            depth = 1
        elif c == "]":
            depth = 0
        elif not depth:
            rest.append(c)
    body = "".join(rest)
    if any(c in " \t" for c in body.strip(" \t")):       # Botzone codes
        n = sum(1 for tok in body.split() if len(tok) == 2 and tok[0] in "WBTFJ" and tok[1].isdigit())
    else:
        n = sum(1 for c in body if c.isdigit() or c in HONOR_LETTERS)
    return 3 * melds + n


class ParseFail(Exception):
    """Internal: carries an error code out of the grammar functions."""

    def __init__(self, code: int, pos: int | None, arg: int = 0):
        self.code, self.pos, self.arg = code, pos, arg


# ---------------------------------------------------------------------------------
# The parsed record: plain facts, turned into a Hand (or a batch row) by the caller.
# ---------------------------------------------------------------------------------
class Record:
    __slots__ = ("tiles", "melds", "flowers", "flower_count", "prevalent", "seat",
                 "flags4", "extras", "discarder_pos", "counts")

    def __init__(self):
        self.tiles: list[int] = []          # concealed tiles in written order (winning last)
        self.melds: list[tuple] = []        # (kind, tile, concealed, added, claimed)
        self.flowers: list[int] = []        # flower ids when given as letters
        self.flower_count = 0
        self.prevalent = 0
        self.seat = 0
        self.flags4 = (0, 0, 0, 0)          # self-drawn, fourth, last, kong-related
        self.extras: dict = {}
        self.discarder_pos = -1
        self.counts = [0] * N_KINDS


_SUIT_BASE = {"m": 0, "p": 9, "s": 18}
_WIND_VALUE = {"E": 0, "S": 1, "W": 2, "N": 3, "0": 0, "1": 1, "2": 2, "3": 3}
EXTRA_WIND = ("dealer", "discarder")
EXTRA_INT = ("streak", "table_discards")
EXTRA_BOOL = ("original_ready", "first_turn")
EXTRA_NAMES = EXTRA_WIND + EXTRA_INT + EXTRA_BOOL
INT_MAX = 32767


class _Emitter:
    """Tile bookkeeping shared by the grammars: rule-set mask, fifth copy, size."""
    __slots__ = ("rec", "mask", "win_size")

    def __init__(self, rec: Record, rs):
        self.rec, self.mask, self.win_size = rec, rs.kind_flags, rs.hand_size + 1

    def tile(self, t: int, pos: int) -> None:
        if not self.mask[t]:
            raise ParseFail(R_TILE, pos, t)
        c = self.rec.counts
        c[t] += 1
        if c[t] > 4:
            raise ParseFail(C_FIFTH, pos, t)

    def concealed(self, t: int, pos: int) -> None:
        rec = self.rec
        if 3 * len(rec.melds) + len(rec.tiles) + 1 > self.win_size:
            raise ParseFail(S_TOO_MANY, pos)
        self.tile(t, pos)
        rec.tiles.append(t)


def classify_meld(tiles: list[int]) -> int:
    """0 chow, 1 pung, 2 kong, -1 not a meld."""
    k = len(tiles)
    if k == 3 and tiles[0] == tiles[1] == tiles[2]:
        return 1
    if k == 4 and tiles[0] == tiles[1] == tiles[2] == tiles[3]:
        return 2
    if k == 3 and tiles[0] < 27 and tiles[0] % 9 <= 6 and tiles[1] == tiles[0] + 1 \
            and tiles[2] == tiles[0] + 2:
        return 0
    return -1


def meld_from_claim(kind: int, tile: int, claim: int | None) -> tuple | None:
    """(kind, tile, concealed, added, claimed) or None when the claim marker is invalid."""
    if kind == 0:
        k = 1 if claim is None else claim
        return (0, tile, False, False, k) if 1 <= k <= 3 else None
    if kind == 1:
        k = 1 if claim is None else claim
        return (1, tile, False, False, k) if 1 <= k <= 3 else None
    if claim is None or claim == 0:
        return (2, tile, True, False, 0)
    if 1 <= claim <= 3:
        return (2, tile, False, False, claim)
    if 5 <= claim <= 7:
        return (2, tile, False, True, claim - 4)
    return None


# ---------------------------------------------------------------------------------
# the mpsz-family hand grammar
# ---------------------------------------------------------------------------------
def parse_record(text: str, rs) -> Record:
    """Parse an mpsz / mcr hand string into a :class:`Record` (raises :class:`ParseFail`)."""
    rec = Record()
    em = _Emitter(rec, rs)
    n = len(text)
    i = 0
    pend: list[int] = []
    in_meld = False
    meld_start = 0
    meld_tiles: list[int] = []
    while i < n:
        c = text[i]
        if "0" <= c <= "9":
            pend.append(i)
            i += 1
        elif c in "mpsz":
            if not pend:
                raise ParseFail(E_SUIT_ALONE, i)
            for p in pend:
                d = ord(text[p]) - 48
                if c == "z":
                    if d < 1 or d > 7:
                        raise ParseFail(E_ZRANK, p)
                    t = 26 + d
                else:
                    if d == 0:
                        raise ParseFail(E_RANK0, p)
                    t = _SUIT_BASE[c] + d - 1
                if in_meld:
                    if len(meld_tiles) == 4:
                        raise ParseFail(M_TOO_MANY, p)
                    em.tile(t, p)
                    meld_tiles.append(t)
                else:
                    em.concealed(t, p)
            pend = []
            i += 1
        elif c in HONOR_LETTERS:
            if pend:
                raise ParseFail(E_NO_SUIT, pend[0])
            t = 27 + HONOR_LETTERS.index(c)
            if in_meld:
                if len(meld_tiles) == 4:
                    raise ParseFail(M_TOO_MANY, i)
                em.tile(t, i)
                meld_tiles.append(t)
            else:
                em.concealed(t, i)
            i += 1
        elif c == "[":
            if in_meld:
                raise ParseFail(M_NESTED, i)
            if pend or rec.tiles:
                raise ParseFail(E_MELD_AFTER, i)
            if len(rec.melds) >= rs.sets:
                raise ParseFail(S_MELDS, i)
            in_meld, meld_start, meld_tiles = True, i, []
            i += 1
        elif c == "," or c == "]":
            if not in_meld:
                raise ParseFail(E_CHAR if c == "," else M_STRAY, i)
            claim, claim_pos = None, i
            if c == ",":
                if pend:
                    raise ParseFail(E_NO_SUIT, pend[0])
                if i + 1 < n and "0" <= text[i + 1] <= "9":
                    claim, claim_pos = ord(text[i + 1]) - 48, i + 1
                else:
                    raise ParseFail(M_CLAIM, i)
                i += 2
                if i >= n:
                    raise ParseFail(M_UNCLOSED, meld_start)
                if text[i] != "]":
                    raise ParseFail(M_CLAIM, i)
            else:
                if len(pend) == 1 and meld_tiles:
                    claim, claim_pos = ord(text[pend[0]]) - 48, pend[0]
                    pend = []
                elif pend:
                    raise ParseFail(E_NO_SUIT, pend[0])
            kind = classify_meld(meld_tiles)
            if kind < 0:
                raise ParseFail(M_SHAPE, meld_start)
            m = meld_from_claim(kind, meld_tiles[0], claim)
            if m is None:
                raise ParseFail(M_CLAIM, claim_pos)
            if kind == 0 and not rs.chow_allowed:
                raise ParseFail(M_CHOW_RULE, meld_start)
            rec.melds.append(m)
            in_meld = False
            i += 1
        elif c == "|":
            break
        else:
            raise ParseFail(E_CHAR, i)
    if in_meld:
        raise ParseFail(M_UNCLOSED, meld_start)
    if pend:
        raise ParseFail(E_NO_SUIT, pend[0])
    if i < n:
        _parse_tail(text, i, rec, rs)
    finish_record(rec, rs)
    return rec


def finish_record(rec: Record, rs) -> None:
    """The checks after the whole string is read: size, then the situation."""
    size = 3 * len(rec.melds) + len(rec.tiles)
    if size != rs.hand_size and size != rs.hand_size + 1:
        raise ParseFail(S_SIZE, None, size)
    d = rec.extras.get("discarder")
    if d is not None:
        if rec.flags4[0]:
            raise ParseFail(X_SELF_DISC, rec.discarder_pos)
        if d == rec.seat:
            raise ParseFail(X_DISC_SEAT, rec.discarder_pos)


def _parse_tail(text: str, i: int, rec: Record, rs) -> None:
    """Sections after the first '|' (text[i] == '|')."""
    n = len(text)
    bars = [i]
    j = i + 1
    while j < n:
        if text[j] == "|":
            if len(bars) == 3:
                raise ParseFail(E_SECTIONS, j)
            bars.append(j)
        j += 1
    ends = bars[1:] + [n]
    # situation
    s, e = bars[0] + 1, ends[0]
    if s < e:
        for k in range(6):
            p = s + k
            if p >= e:
                raise ParseFail(E_SIT_LEN, p)
            ch = text[p]
            if k < 2:
                if ch not in "ESWN":
                    raise ParseFail(E_WIND, p)
            elif ch not in "01":
                raise ParseFail(E_FLAG, p)
        if e > s + 6:
            raise ParseFail(E_SIT_LEN, s + 6)
        rec.prevalent = "ESWN".index(text[s])
        rec.seat = "ESWN".index(text[s + 1])
        rec.flags4 = tuple(ord(text[s + k]) - 48 for k in range(2, 6))
    if len(bars) > 1:
        s, e = bars[1] + 1, ends[1]
        if s < e:
            ch = text[s]
            if "0" <= ch <= "9":
                if e > s + 1:
                    raise ParseFail(E_FLOWER_SYNTAX, s + 1)
                d = ord(ch) - 48
                if d > 8:
                    raise ParseFail(C_FLOWERS_9, s, d)
                rec.flower_count = d
            else:
                seen = 0
                for p in range(s, e):
                    ch = text[p]
                    if not "a" <= ch <= "h":
                        raise ParseFail(E_FLOWER_SYNTAX, p)
                    b = 1 << (ord(ch) - 97)
                    if seen & b:
                        raise ParseFail(C_FLOWER_DUP, p)
                    seen |= b
                    rec.flowers.append(FLOWER_BASE + ord(ch) - 97)
                rec.flowers.sort()
                rec.flower_count = len(rec.flowers)
            if rec.flower_count and not rs.flowers:
                raise ParseFail(R_FLOWERS, s)
    if len(bars) > 2:
        s, e = bars[2] + 1, ends[2]
        if s < e:
            p = s
            while True:
                q = p
                while q < e and text[q] != ",":
                    q += 1
                parse_extra_item(text, p, q, rec)
                if q >= e:
                    break
                p = q + 1


def parse_extra_item(text: str, p: int, q: int, rec: Record) -> None:
    """One extras item in text[p:q] (shared by the mpsz and Botzone grammars)."""
    eq = p
    while eq < q and text[eq] != "=":
        eq += 1
    name = text[p:eq]
    if name not in EXTRA_NAMES:
        raise ParseFail(X_UNKNOWN, p)
    if name in rec.extras:
        raise ParseFail(X_DUP, p)
    v = eq + 1
    if name in EXTRA_BOOL:
        if eq < q:
            raise ParseFail(X_VALUE, eq)
        rec.extras[name] = True
        return
    if eq >= q:
        raise ParseFail(X_VALUE, eq)
    if name in EXTRA_WIND:
        if q != v + 1 or text[v] not in _WIND_VALUE:
            raise ParseFail(X_VALUE, v)
        rec.extras[name] = _WIND_VALUE[text[v]]
        if name == "discarder":
            rec.discarder_pos = p
        return
    if q == v or q - v > 5:
        raise ParseFail(X_VALUE, v)
    val = 0
    for k in range(v, q):
        ch = text[k]
        if not "0" <= ch <= "9":
            raise ParseFail(X_VALUE, v)
        val = val * 10 + ord(ch) - 48
    if val > INT_MAX:
        raise ParseFail(X_VALUE, v)
    rec.extras[name] = val


# ---------------------------------------------------------------------------------
# tiles only
# ---------------------------------------------------------------------------------
def parse_tiles(text: str) -> list[int]:
    """Tile ids of an mpsz tile string, in written order.

    ``"123m456p11z"`` -> ``[0, 1, 2, 12, 13, 14, 27, 27]``; honors as letters ``E S W N C
    F P`` or ``1z..7z`` (5z = RED), flowers as ``a``..``h``; spaces between groups are
    skipped.  A string starting with a Botzone code reads as whitespace-separated codes
    ``W1 B2 T3 F1 J1 H1``.
    Raises :class:`TileParseError` with the 0-based position of the bad character.
    """
    if not isinstance(text, str):
        raise TileParseError(repr(text), None, "tiles must be given as a string")
    from .botzone import parse_botzone_tiles
    s = text.lstrip(" \t")
    if len(s) >= 2 and s[0] in "WBTFJH" and "0" <= s[1] <= "9":
        return parse_botzone_tiles(text)
    out: list[int] = []
    pend: list[int] = []
    for i, c in enumerate(text):
        if c in " \t" and not pend:
            continue
        if "0" <= c <= "9":
            pend.append(i)
        elif c in "mpsz":
            if not pend:
                raise make_error(E_SUIT_ALONE, text, i)
            for p in pend:
                d = ord(text[p]) - 48
                if c == "z":
                    if d < 1 or d > 7:
                        raise make_error(E_ZRANK, text, p)
                    out.append(26 + d)
                else:
                    if d == 0:
                        raise make_error(E_RANK0, text, p)
                    out.append(_SUIT_BASE[c] + d - 1)
            pend = []
        elif c in HONOR_LETTERS or "a" <= c <= "h":
            if pend:
                raise make_error(E_NO_SUIT, text, pend[0])
            out.append(27 + HONOR_LETTERS.index(c) if c in HONOR_LETTERS
                       else FLOWER_BASE + ord(c) - 97)
        else:
            raise make_error(E_CHAR, text, i)
    if pend:
        raise make_error(E_NO_SUIT, text, pend[0])
    return out


# ---------------------------------------------------------------------------------
# printing
# ---------------------------------------------------------------------------------
def tiles_to_mpsz(tiles, honors_as_letters: bool) -> str:
    """Sorted tiles grouped by suit: ``123m55pEE`` (letters) or ``123m55p11z`` (digits)."""
    groups = {0: [], 1: [], 2: [], 3: []}
    for t in sorted(tiles):
        groups[t // 9 if t < 27 else 3].append(t)
    out = []
    for s, letter in ((0, "m"), (1, "p"), (2, "s")):
        if groups[s]:
            out.append("".join(str(t % 9 + 1) for t in groups[s]) + letter)
    if groups[3]:
        if honors_as_letters:
            out.append("".join(HONOR_LETTERS[t - 27] for t in groups[3]))
        else:
            out.append("".join(str(t - 26) for t in groups[3]) + "z")
    return "".join(out)


class Parts:
    """What a printer needs, as plain values (built from a Hand or from a HandBatch row).

    ``melds``: (kind 0 chow / 1 pung / 2 kong, lowest tile, flags 1 concealed | 2 added,
    claimed: chow position or claimed-from); ``flags``: the HandBatch flag bits;
    ``discarder`` / ``table_discards``: -1 when not given.
    """
    __slots__ = ("melds", "concealed", "winning_tile", "flowers", "flower_count", "flags",
                 "prevalent", "seat", "dealer", "discarder", "streak", "table_discards")

    def __init__(self, melds, concealed, winning_tile, flowers, flower_count, flags,
                 prevalent, seat, dealer, discarder, streak, table_discards):
        self.melds, self.concealed, self.winning_tile = melds, concealed, winning_tile
        self.flowers, self.flower_count, self.flags = flowers, flower_count, flags
        self.prevalent, self.seat, self.dealer = prevalent, seat, dealer
        self.discarder, self.streak, self.table_discards = discarder, streak, table_discards


def meld_to_bracket(m, honors_as_letters: bool) -> str:
    kind, tile, flags, claimed = m
    if kind == 0:
        return f"[{tiles_to_mpsz((tile, tile + 1, tile + 2), honors_as_letters)},{claimed}]"
    body = tiles_to_mpsz((tile,) * (3 if kind == 1 else 4), honors_as_letters)
    if flags & 1:
        return f"[{body}]"
    return f"[{body},{claimed + (4 if flags & 2 else 0)}]"


def flags4_text(fl: int) -> str:
    """self-drawn, fourth tile, last tile, kong-related (replacement or robbing)."""
    return ("1" if fl & 1 else "0") + ("1" if fl & 2 else "0") + ("1" if fl & 4 else "0") + \
        ("1" if fl & 24 else "0")


def situation_tail(p: Parts, always: bool) -> str:
    """``|PS####[|flowers[|extras]]``; empty when not ``always`` and all defaults."""
    sit = "ESWN"[p.prevalent] + "ESWN"[p.seat] + flags4_text(p.flags)
    if p.flowers:
        fl = "".join(chr(97 + f - FLOWER_BASE) for f in p.flowers)
    elif p.flower_count:
        fl = str(p.flower_count)
    else:
        fl = ""
    ex = ",".join(extras_items(p))
    if ex:
        return f"|{sit}|{fl}|{ex}"
    if fl:
        return f"|{sit}|{fl}"
    if always or sit != "EE0000":
        return f"|{sit}"
    return ""


def extras_items(p: Parts) -> list[str]:
    items = []
    if p.dealer != 0:
        items.append(f"dealer={'ESWN'[p.dealer]}")
    if p.discarder >= 0:
        items.append(f"discarder={'ESWN'[p.discarder]}")
    if p.streak:
        items.append(f"streak={p.streak}")
    if p.table_discards >= 0:
        items.append(f"table_discards={p.table_discards}")
    if p.flags & 32:
        items.append("original_ready")
    if p.flags & 64:
        items.append("first_turn")
    return items


def format_family(p: Parts, letters: bool) -> str:
    """Print the mcr/mpsz grammar: ``letters`` selects the calculators' form (honors as
    letters, situation always printed) over mpsz (z digits, tail only when not default)."""
    melds = "".join(meld_to_bracket(m, letters) for m in p.melds)
    body = tiles_to_mpsz(p.concealed, letters)
    if p.winning_tile is not None:
        body += tiles_to_mpsz((p.winning_tile,), letters)
    return melds + body + situation_tail(p, always=letters)


def format_mpsz(p: Parts) -> str:
    """``[111z,2]123m55p11z2z|...``: honors as z digits; tail only when not default."""
    return format_family(p, letters=False)


