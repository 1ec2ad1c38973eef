"""Notation (the functions :mod:`mjfast.notation` re-exports): hand strings in, :class:`~mjfast.Hand` / :class:`~mjfast.HandBatch` out, and back.

Formats (see each module's docstring for the grammar):

- ``mcr``: the MCR calculators' string ``[EEE,2][SSSS,1]WWWNN55pN|EE1000|3``
  (:mod:`mjfast.notation.mcr_string`);
- ``mpsz``: ``[111z,2]123m55p11z2z`` (:mod:`mjfast.notation.mpsz`), the same grammar as
  ``mcr`` (honors as letters or ``1z..7z`` = E S W N C F P, **5z = red**), printed with
  digits and without the situation when it is the default;
- ``botzone``: PyMahjongGB / Botzone codes ``[PENG F1 2] W1 W1 B2 ... | F1 F2 1000``
  (:mod:`mjfast.notation.botzone`).

Public functions::

    parse_tiles(text) -> list[int]
    tile_from_name(name) -> int
    parse_hand(text, rules="mcr", *, fmt=None, **situation) -> Hand
    format_hand(hand, fmt="mcr") -> str
    format_batch(batch, fmt="mcr") -> list[str]
    detect_format(text) -> "mcr" | "botzone"
    hands_to_counts(hands, rules="mcr") -> (N, 34) uint8
    parse_batch(strings, rules="mcr", errors="raise", *, fmt=None)
        -> HandBatch                                   (errors="raise")
        -> (HandBatch, ok: bool ndarray, messages)     (errors="mask")

Situation keywords (override what the string says): ``seat``, ``prevalent``, ``dealer``
(``"E" "S" "W" "N"``, either case, or 0..3), ``self_drawn``, ``discarder`` (wind or None),
``streak``, ``flowers`` (a count, a one-digit string, a string of flower letters ``a..h``,
or a list of ids 34..41),
``table_discards``, ``original_ready``, ``last_tile``, ``kong_replacement``,
``robbing_kong``, ``fourth_tile``, ``first_turn``.  Unknown or contradictory options raise
:class:`~mjfast.errors.SituationError`.  Every error is a
:class:`~mjfast.errors.MjfastError` naming the input and, where a character is at fault,
its 0-based position.
"""
from __future__ import annotations

import numpy as np

from ..errors import (InputError, MjfastError, RuleSetError, SituationError,
                      TileCountError, TileParseError)
from ..rules.registry import get_rules
from ..tiles import FLOWER_BASE
from . import botzone as _bz
from . import mpsz as _mp
from .botzone import format_botzone, looks_like_botzone
from .mcr_string import format_mcr
from .mpsz import Parts, ParseFail, Record, format_mpsz, make_error, parse_tiles

from .. import hand as _hand_module
from .. import hand as H
from ..hand import Hand

FORMATS = ("mcr", "mpsz", "botzone")

__all__ = ["parse_tiles", "parse_hand", "format_hand", "format_batch", "parse_batch",
           "detect_format", "hands_to_counts", "tile_from_name", "hand_with_options",
           "convert_hand", "FORMATS"]


def detect_format(text: str) -> str:
    """``"botzone"`` for whitespace-separated codes, else ``"mcr"`` (the mpsz family)."""
    return "botzone" if looks_like_botzone(text) else "mcr"


def _check_fmt(fmt):
    if fmt is not None and (not isinstance(fmt, str) or fmt not in FORMATS):
        raise TileParseError(str(fmt), None, f"unknown format (choose from {', '.join(FORMATS)})")


def parse_record(text: str, rs, fmt: str | None = None) -> Record:
    """Parse into the neutral :class:`Record`; raises the typed error."""
    if not isinstance(text, str):
        raise TileParseError(repr(text)[:120], None, "a hand string is needed")
    _check_fmt(fmt)
    detected = fmt is None
    if fmt is None:
        fmt = detect_format(text)
    try:
        if fmt == "botzone":
            return _bz.parse_record(text, rs)
        return _mp.parse_record(text, rs)
    except ParseFail as f:
        raise _noted(make_error(f.code, text, f.pos, f.arg, rs), text, detected) from None


BOTZONE_NOTE = ("(read as Botzone notation because the text contains spaces; "
                "mpsz/MCR hand strings have none)")


def _noted(err: InputError, text, detected: bool) -> InputError:
    """The error, saying which notation was assumed when the format was detected as
    Botzone (a hand with spaces is read as Botzone codes)."""
    if detected and isinstance(text, str) and looks_like_botzone(text):
        return type(err)(err.text, err.position, f"{err.reason} {BOTZONE_NOTE}")
    return err


# ---------------------------------------------------------------------------------
# situation keywords
# ---------------------------------------------------------------------------------
_BOOL_OPTS = ("self_drawn", "original_ready", "last_tile", "kong_replacement",
              "robbing_kong", "fourth_tile", "first_turn")
_WIND_OPTS = ("seat", "prevalent", "dealer", "discarder")
_INT_OPTS = ("streak", "table_discards")
OPTION_NAMES = _BOOL_OPTS + _WIND_OPTS + _INT_OPTS + ("flowers",)


def _wind(name, v, text):
    if name == "discarder" and v is None:
        return None
    if isinstance(v, str) and len(v) == 1 and v in "ESWNeswn0123":
        return "ESWNeswn0123".index(v) % 4
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and 0 <= v <= 3:
        return int(v)
    raise SituationError(text, None, f"{name}={v!r}: a wind is 'E' 'S' 'W' 'N' or 0..3")


def _flowers_option(v, text, rs):
    """(ids tuple, count) from a count, a string of letters or a list of ids."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        if not 0 <= v <= 8:
            raise TileCountError(text, None, f"flowers={v}: 0..8 flowers")
        ids, count = (), int(v)
    elif isinstance(v, str) and len(v) == 1 and "0" <= v <= "9":
        if v > "8":
            raise TileCountError(text, None, f"flowers={v}: 0..8 flowers")
        ids, count = (), int(v)
    elif isinstance(v, str):
        ids = []
        for ch in v:
            if not "a" <= ch <= "h":
                raise SituationError(text, None, f"flowers={v!r}: flower letters are a..h")
            ids.append(FLOWER_BASE + ord(ch) - 97)
        ids, count = tuple(ids), len(ids)
    elif isinstance(v, (list, tuple, np.ndarray)):
        try:
            ids = tuple(int(x) for x in v)
        except (TypeError, ValueError):
            raise SituationError(text, None, f"flowers={v!r}: ids 34..41 expected") from None
        if any(not FLOWER_BASE <= x < FLOWER_BASE + 8 for x in ids):
            raise SituationError(text, None, f"flowers={v!r}: ids 34..41 expected")
        count = len(ids)
    else:
        raise SituationError(text, None, f"flowers={v!r}: a count, letters a..h or ids")
    if len(set(ids)) != len(ids):
        raise TileCountError(text, None, "a flower held twice")
    if count and not rs.flowers:
        raise RuleSetError(text, None, f"{rs.name} has no flowers")
    return tuple(sorted(ids)), count


def _apply_options(sit: dict, flowers, fcount, options: dict, text, rs, kong: bool):
    """Apply situation keywords to ``sit`` (Situation fields) in place; -> (flowers, count).
    The one validation of the keyword vocabulary, for strings and Hands alike."""
    for k, v in options.items():
        if k not in OPTION_NAMES:
            raise SituationError(text, None, f"unknown situation option {k!r} "
                                 f"(known: {', '.join(sorted(OPTION_NAMES))})")
        if k in _BOOL_OPTS:
            if not isinstance(v, (bool, np.bool_, int, np.integer)) or v not in (0, 1):
                raise SituationError(text, None, f"{k}={v!r}: True or False expected")
            sit[k] = bool(v)
        elif k in _WIND_OPTS:
            sit[k] = _wind(k, v, text)
        elif k in _INT_OPTS:
            if k == "table_discards" and v is None:
                sit[k] = None
            elif (not isinstance(v, (int, np.integer)) or isinstance(v, (bool, np.bool_))
                    or not 0 <= v <= 32767):
                raise SituationError(text, None, f"{k}={v!r}: an integer 0..32767 expected")
            else:
                sit[k] = int(v)
        else:
            flowers, fcount = _flowers_option(v, text, rs)
    if "self_drawn" in options and "discarder" not in options and sit["self_drawn"]:
        sit["discarder"] = None
    if options.get("discarder") is not None and "self_drawn" not in options:
        sit["self_drawn"] = False
    if "kong_replacement" not in options and "robbing_kong" not in options:
        sit["kong_replacement"] = kong and sit["self_drawn"]
        sit["robbing_kong"] = kong and not sit["self_drawn"]
    return flowers, fcount


def record_to_hand(rec: Record, text: str, rs, options: dict):
    """Build the :class:`~mjfast.Hand` (string facts, then keyword overrides)."""
    from ..hand import Hand, Meld, MeldKind, Situation
    sd, fourth, last, kong = (bool(x) for x in rec.flags4)
    ex = rec.extras
    sit = dict(seat=rec.seat, prevalent=rec.prevalent, dealer=ex.get("dealer", 0),
               self_drawn=sd, discarder=ex.get("discarder"), streak=ex.get("streak", 0),
               table_discards=ex.get("table_discards"),
               original_ready=bool(ex.get("original_ready", False)), last_tile=last,
               kong_replacement=kong and sd, robbing_kong=kong and not sd,
               fourth_tile=fourth, first_turn=bool(ex.get("first_turn", False)))
    flowers, fcount = tuple(rec.flowers), rec.flower_count
    if options:
        flowers, fcount = _apply_options(sit, flowers, fcount, options, text, rs, kong)
    try:
        situation = Situation(**sit)
        melds = tuple(Meld(MeldKind(k), t, concealed=c, added=a,
                           claimed_from=(0 if c else cl) if k else 1,
                           claimed_index=cl if k == 0 else 0)
                      for k, t, c, a, cl in rec.melds)
        size = 3 * len(rec.melds) + len(rec.tiles)
        if size == rs.hand_size + 1:
            concealed, win = rec.tiles[:-1], rec.tiles[-1]
        else:
            concealed, win = rec.tiles, None
        return Hand(tuple(concealed), melds, win, flowers, fcount, situation, rs.name)
    except InputError as e:
        pos = e.position if isinstance(e, SituationError) and e.text == text else None
        raise type(e)(text, pos, e.reason) from None


def parse_hand(text: str, rules="mcr", *, fmt: str | None = None, **situation):
    """Parse a hand string (format autodetected unless ``fmt``) into a :class:`~mjfast.Hand`.

    Keyword options override what the string says (see the module docstring).
    """
    rs = get_rules(rules)
    rec = parse_record(text, rs, fmt)
    return record_to_hand(rec, text, rs, situation)


_PRINTERS = {"mcr": format_mcr, "mpsz": format_mpsz, "botzone": format_botzone}


def _printer(fmt):
    try:
        if not isinstance(fmt, str):
            raise TypeError
        return _PRINTERS[fmt]
    except (KeyError, TypeError):
        raise TileParseError(str(fmt), None,
                             f"unknown format (choose from {', '.join(FORMATS)})") from None


def hand_parts(hand) -> Parts:
    """The printer's view of a :class:`~mjfast.Hand`."""
    s = hand.situation
    melds = tuple((int(m.kind), m.tile, m.flags,
                   m.claimed_index if m.kind == 0 else m.claimed_from) for m in hand.melds)
    return Parts(melds, hand.concealed, hand.winning_tile, hand.flowers, hand.flower_count,
                 s.flags, s.prevalent, s.seat, s.dealer,
                 -1 if s.discarder is None else s.discarder, s.streak,
                 -1 if s.table_discards is None else s.table_discards)


def format_hand(hand, fmt: str = "mcr") -> str:
    """Print a :class:`~mjfast.Hand` as ``mcr``, ``mpsz`` or ``botzone``."""
    if not isinstance(hand, Hand):
        from ..errors import ArgumentError
        raise ArgumentError(repr(hand)[:120], None, "format_hand takes a Hand (N hands: format_batch)")
    return _printer(fmt)(hand_parts(hand))


def format_batch(batch, fmt: str = "mcr") -> list[str]:
    """Print every row of a :class:`~mjfast.HandBatch` (flowers as a count)."""
    pr = _printer(fmt)
    n = len(batch)
    counts = batch.counts.tolist()
    wins = batch.winning_tile.tolist()
    melds = batch.melds.tolist()
    nm = batch.n_melds.tolist()
    cols = [a.tolist() for a in (batch.flowers, batch.flags, batch.prevalent, batch.seat,
                                 batch.dealer, batch.discarder, batch.streak,
                                 batch.table_discards)]
    out = []
    for i in range(n):
        c = counts[i]
        w = wins[i]
        if w >= 0:
            c[w] -= 1
        concealed = [t for t in range(34) if c[t] for _ in range(c[t])]
        p = Parts([tuple(m) for m in melds[i][:nm[i]]], concealed, None if w < 0 else w, (),
                  *(col[i] for col in cols))
        out.append(pr(p))
    return out


# ---------------------------------------------------------------------------------
# batch parsing
# ---------------------------------------------------------------------------------
_FMT_CODE = {None: 0, "mcr": 1, "mpsz": 1, "botzone": 2}


def _to_arrow(strings):
    """(arrow string / large_string array, {row: str} of rows the kernel cannot take)."""
    import pyarrow as pa
    special: dict[int, object] = {}
    arr = None
    if isinstance(strings, pa.ChunkedArray):
        arr = strings.combine_chunks() if strings.num_chunks != 1 else strings.chunk(0)
    elif isinstance(strings, pa.Array):
        arr = strings
    else:
        try:
            import polars as pl
            if isinstance(strings, pl.Series):
                if strings.dtype != pl.String:
                    raise TileParseError(f"Series {strings.name!r} ({strings.dtype})", None,
                                         "parse_batch needs a String column")
                arr = strings.to_arrow()
                if isinstance(arr, pa.ChunkedArray):
                    arr = arr.combine_chunks()
        except ImportError:  # pragma: no cover
            pass
    if arr is None:
        if isinstance(strings, (str, bytes)):
            raise TileParseError(repr(strings)[:120], None,
                                 "parse_batch needs a list / Series / Arrow array of strings")
        try:
            items = list(strings)
        except TypeError:
            raise TileParseError(repr(strings)[:120], None,
                                 "parse_batch needs a list / Series / Arrow array of strings") from None
        try:
            if any(type(x) is not str and x is not None for x in items):
                raise TypeError("not all strings")
            arr = pa.array(items, type=pa.large_string())
        except (TypeError, ValueError, pa.ArrowException):
            clean = []
            for i, s in enumerate(items):
                if s is None:
                    clean.append(None)
                    continue
                if isinstance(s, np.str_):
                    s = str(s)
                ok = isinstance(s, str)
                if ok:
                    try:
                        s.encode("utf-8")
                    except UnicodeEncodeError:
                        ok = False
                if ok:
                    clean.append(s)
                else:
                    special[i] = s
                    clean.append("")
            arr = pa.array(clean, type=pa.large_string())
    t = arr.type
    if pa.types.is_string_view(t):
        arr = arr.cast(pa.large_string())
    elif pa.types.is_null(t):
        arr = arr.cast(pa.large_string())
    elif not (pa.types.is_string(t) or pa.types.is_large_string(t)):
        raise TileParseError(f"arrow array of type {t}", None, "parse_batch needs strings")
    return arr, special


def parse_batch(strings, rules="mcr", errors: str = "raise", *, fmt: str | None = None):
    """Parse many hand strings at once into a :class:`~mjfast.HandBatch` (Cython kernel).

    ``strings``: a list, a Polars ``String`` Series or a PyArrow string array (chunked too).
    ``errors="raise"``: the first bad row raises its typed error, the reason starting with
    ``row i:`` (the error also has ``.row``).  ``errors="mask"``: returns
    ``(batch, ok, messages)``; bad rows are left empty (``ok[i]`` False) and
    ``messages[i]`` is the error text (with the position), None for good rows.
    The format is detected per row unless ``fmt`` is given.  Flower letters become a count.
    """
    from ..hand import HandBatch
    rs = get_rules(rules)
    _check_fmt(fmt)
    if not isinstance(errors, str) or errors not in ("raise", "mask"):
        raise InputError(str(errors), None, "errors must be 'raise' or 'mask'")
    arr, special = _to_arrow(strings)
    n = len(arr)
    b = HandBatch.empty(n, rs.name)
    code = np.zeros(n, np.int16)
    epos = np.zeros(n, np.int64)
    earg = np.zeros(n, np.int32)
    bufs = arr.buffers()
    large = 1 if str(arr.type) == "large_string" else 0
    offsets = np.frombuffer(bufs[1], dtype=np.int64 if large else np.int32) if n else \
        np.zeros(1, np.int64 if large else np.int32)
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None and bufs[2].size \
        else np.zeros(1, np.uint8)
    validity = (np.frombuffer(bufs[0], dtype=np.uint8) if bufs[0] is not None and arr.null_count
                else np.zeros(0, np.uint8))
    kernel = _kernel()
    char_positions = kernel is None
    if n and kernel is not None:
        kernel.parse_rows(offsets, data, validity, int(arr.offset), n, large, _FMT_CODE[fmt],
                          rs.kind_mask.astype(np.uint8), rs.hand_size, rs.sets,
                          int(rs.flowers), int(rs.chow_allowed),
                          b.counts, b.winning_tile, b.melds, b.n_melds, b.flowers, b.flags,
                          b.seat, b.prevalent, b.dealer, b.discarder, b.streak,
                          b.table_discards, code, epos, earg)
    elif n:
        _parse_rows_python(arr, rs, fmt, b, code, epos, earg)
    ok = code == 0
    bad_rows = np.flatnonzero(~ok).tolist() + sorted(special)
    messages = None
    first_err = None
    if bad_rows:
        messages = [None] * n
        for i in sorted(set(bad_rows)):
            if i in special:
                text = special[i]
                try:
                    parse_record(text, rs, fmt)   # raises: not a str, or not UTF-8 encodable
                    err = InputError(repr(text), None, "unparsable row")  # pragma: no cover
                except MjfastError as e:
                    err = e
                _reset_row(b, i)
            else:
                text = arr[i].as_py()
                c = int(code[i])
                if text is None:
                    err = make_error(c, None, None, 0, rs)
                else:
                    bpos = int(epos[i])
                    pos = None if bpos < 0 else (bpos if char_positions else _char_pos(text, bpos))
                    err = _noted(make_error(c, text, pos, int(earg[i]), rs), text, fmt is None)
            ok[i] = False
            if errors == "raise":
                first_err = (i, err)
                break
            messages[i] = str(err)
    if errors == "raise":
        if first_err is not None:
            i, err = first_err
            e2 = type(err)(err.text, err.position, f"row {i}: {err.reason}")
            e2.row = i
            raise e2
        return b
    if messages is None:
        messages = [None] * n
    return b, ok, messages


_KERNEL = []


def _kernel():
    """The compiled batch kernel, or None (then parse_batch runs the Python grammar per row,
    slowly, with the same results) when the extension is not built."""
    if not _KERNEL:
        try:
            from . import _parse
        except ImportError:  # pragma: no cover  (source checkout without build_ext)
            import warnings
            warnings.warn("mjfast.notation._parse is not built (python setup.py build_ext "
                          "--inplace): parse_batch falls back to pure Python", RuntimeWarning)
            _parse = None
        _KERNEL.append(_parse)
    return _KERNEL[0]


def _parse_rows_python(arr, rs, fmt, b, code, epos, earg) -> None:
    """The batch kernel's contract in pure Python (positions are character positions)."""
    for i, text in enumerate(arr.to_pylist()):
        if text is None:
            code[i], epos[i] = _mp.E_NULL, -1
            continue
        try:
            f = fmt or detect_format(text)
            rec = (_bz if f == "botzone" else _mp).parse_record(text, rs)
        except ParseFail as e:
            code[i], epos[i], earg[i] = e.code, -1 if e.pos is None else e.pos, e.arg
            continue
        win = 3 * len(rec.melds) + len(rec.tiles) == rs.hand_size + 1
        for t in rec.tiles:
            b.counts[i, t] += 1
        b.winning_tile[i] = rec.tiles[-1] if win else -1
        for j, (k, t, conc, added, cl) in enumerate(rec.melds):
            b.melds[i, j] = (k, t, (H.MELD_CONCEALED if conc else 0) | (H.MELD_ADDED if added else 0), cl)
        b.n_melds[i] = len(rec.melds)
        b.flowers[i] = rec.flower_count
        sd, fourth, last, kong = rec.flags4
        ex = rec.extras
        b.flags[i] = (sd * H.SELF_DRAWN | fourth * H.FOURTH_TILE | last * H.LAST_TILE
                      | (kong and sd) * H.KONG_REPLACEMENT | (kong and not sd) * H.ROBBING_KONG
                      | ("original_ready" in ex) * H.ORIGINAL_READY
                      | ("first_turn" in ex) * H.FIRST_TURN)
        b.seat[i], b.prevalent[i] = rec.seat, rec.prevalent
        b.dealer[i] = ex.get("dealer", 0)
        b.discarder[i] = ex.get("discarder", -1)
        b.streak[i] = ex.get("streak", 0)
        b.table_discards[i] = ex.get("table_discards", -1)


def _char_pos(text: str, bpos: int) -> int:
    raw = text.encode("utf-8", "surrogatepass")
    return len(raw[:bpos].decode("utf-8", "ignore"))


def _reset_row(b, i: int) -> None:
    b.counts[i] = 0
    b.winning_tile[i] = -1
    b.melds[i, :, 0] = -1
    b.melds[i, :, 1:] = 0
    b.n_melds[i] = 0
    b.flowers[i] = 0
    b.flags[i] = 0
    b.seat[i] = b.prevalent[i] = b.dealer[i] = 0
    b.discarder[i] = -1
    b.streak[i] = 0
    b.table_discards[i] = -1


def hand_with_options(hand: Hand, options: dict) -> Hand:
    """``hand`` with situation keywords applied: the same vocabulary and checks as
    :func:`parse_hand`'s keywords (flowers included)."""
    if not options:
        return hand
    from dataclasses import fields, replace
    from ..hand import Situation
    text = hand.describe()
    s = hand.situation
    sit = {f.name: getattr(s, f.name) for f in fields(s)}
    kong = s.kong_replacement or s.robbing_kong
    flowers, fcount = _apply_options(sit, hand.flowers, hand.flower_count, options, text,
                                     get_rules(hand.rules), kong)
    try:
        return replace(hand, situation=Situation(**sit), flowers=flowers, flower_count=fcount)
    except InputError as e:
        raise type(e)(text, None, e.reason) from None


def convert_hand(hand: Hand, rules) -> Hand:
    """The same hand under another rule set (``rules=`` given with a Hand of another
    rule set): converted when its tiles, melds and flowers fit that rule set, else a
    :class:`~mjfast.errors.RuleSetError` saying why."""
    rs = get_rules(rules)
    if rs.name == hand.rules:
        return hand
    from dataclasses import replace
    try:
        return replace(hand, rules=rs.name)
    except InputError as e:
        raise RuleSetError(hand.describe(), None,
                           f"rules={rs.name!r} contradicts the hand's own rule set "
                           f"{hand.rules!r} and the hand cannot be read as {rs.name}: "
                           f"{e.reason}") from None


# ---------------------------------------------------------------------------------
# small helpers built on the grammar
# ---------------------------------------------------------------------------------
def tile_from_name(name: str) -> int:
    """Inverse of :func:`mjfast.tiles.tile_name`; also accepts ``1z..7z`` and Botzone
    codes. Raises :class:`~mjfast.errors.TileParseError`."""
    tiles = parse_tiles(name)
    if len(tiles) != 1:
        raise TileParseError(name, None, f"expected exactly one tile, got {len(tiles)}")
    return tiles[0]


def hands_to_counts(hands, rules="mcr") -> np.ndarray:
    """(N, 34) uint8 concealed counts (winning tile included) of :class:`~mjfast.Hand`
    objects or hand strings."""
    from ..tiles import N_KINDS
    try:
        if isinstance(hands, (str, bytes, Hand)):
            raise TypeError
        n = len(hands)
        hands = list(hands)
    except TypeError:
        raise TileParseError(repr(hands)[:120], None,
                             "hands_to_counts needs a list of Hands or hand strings") from None
    rs = get_rules(rules)
    out = np.zeros((n, N_KINDS), dtype=np.uint8)
    for i, h in enumerate(hands):
        if isinstance(h, str):
            try:
                h = parse_hand(h, rules=rs)
            except InputError as e:
                err = type(e)(e.text, e.position, f"item {i}: {e.reason}")
                err.row = i
                raise err from None
        elif not isinstance(h, Hand):
            raise TileParseError(repr(h)[:120], i, f"item {i}: a Hand or a hand string is needed")
        out[i] = h.counts()
    return out


# The hand model sits below this layer: its printing methods call what is registered here.
_hand_module.register_layer_function("format_hand", format_hand)
