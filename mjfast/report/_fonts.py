"""The CJK font: found in an installed package (``noto-cjk-sans-otc``, a dependency, ships
Noto Sans CJK), checked for glyphs, registered with matplotlib and subset for the HTML page.
Without one, the report falls back to English fan names."""
from __future__ import annotations

import base64
import functools
import io
from dataclasses import dataclass
from pathlib import Path

# packages that ship a CJK font file, tried in order: (module, attribute or file glob)
_PACKAGES = (("noto_cjk_sans_otc", "FONT_PATH"),)
_PREFERRED_FACE = "Noto Sans CJK SC"   # simplified Chinese shapes for the zh names


@dataclass(frozen=True)
class CJKFont:
    path: Path
    face: int          # index in a collection (.ttc), 0 for a single font
    family: str


def _faces(path: Path):
    from fontTools.ttLib import TTCollection, TTFont
    if path.suffix.lower() in (".ttc", ".otc"):
        for i, f in enumerate(TTCollection(str(path), lazy=True).fonts):
            yield i, f
    else:
        yield 0, TTFont(str(path), lazy=True)


def _family(font) -> str:
    return font["name"].getDebugName(1) or font["name"].getDebugName(4) or "CJK"


@functools.lru_cache(maxsize=1)
def find_cjk_font() -> CJKFont | None:
    """The first installed CJK font package's font (its simplified-Chinese face when it is a
    collection), or None."""
    import importlib
    for mod, attr in _PACKAGES:
        try:
            m = importlib.import_module(mod)
            path = Path(str(getattr(m, attr)))
        except Exception:
            continue
        if not path.is_file():
            continue
        try:
            faces = list(_faces(path))
        except Exception:
            continue
        pick = next(((i, f) for i, f in faces if _family(f) == _PREFERRED_FACE), faces[0])
        return CJKFont(path, pick[0], _family(pick[1]))
    return None


def missing_glyphs(font: CJKFont, text: str) -> list[str]:
    """Characters of ``text`` (spaces aside) that the font has no glyph for."""
    from fontTools.ttLib import TTFont
    f = TTFont(str(font.path), fontNumber=font.face, lazy=True)
    cmap = f.getBestCmap()
    return sorted({ch for ch in text if not ch.isspace() and ord(ch) not in cmap})


def register_matplotlib(font: CJKFont | None) -> str | None:
    """Make the font's family known to matplotlib; returns the family name to use."""
    if font is None:
        return None
    from matplotlib import font_manager
    fm = font_manager.fontManager
    if not any(f.name == font.family for f in fm.ttflist):
        try:
            fm.addfont(str(font.path))
        except Exception:
            return None
    if any(f.name == font.family for f in fm.ttflist):
        return font.family
    # an older matplotlib registers only a collection's first face: use that one
    # (the glyph check in the tests covers every face's cmap of the bundled font)
    same = [f.name for f in fm.ttflist if Path(f.fname) == font.path]
    return same[0] if same else None


def font_face_css(font: CJKFont | None, text: str, family: str = "mjfast-cjk") -> str:
    """An ``@font-face`` rule whose source is a data URI of the font subset to the
    characters of ``text`` (empty string when there is no font)."""
    if font is None:
        return ""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    f = TTFont(str(font.path), fontNumber=font.face)
    opts = subset.Options()
    # only the glyphs of the page's characters: no alternates reached through layout
    # features (vertical forms, localized shapes: four times the bytes), kerning kept
    opts.layout_features = ["kern"]
    opts.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    opts.notdef_outline = True
    opts.hinting = False
    opts.desubroutinize = True
    sub = subset.Subsetter(opts)
    chars = {ord(c) for c in text if not c.isspace()} | set(range(0x20, 0x7f))
    sub.populate(unicodes=sorted(chars))
    sub.subset(f)
    f.flavor = "woff"          # zlib-compressed (WOFF 1: no extra package)
    buf = io.BytesIO()
    f.save(buf)
    data = base64.b64encode(buf.getvalue()).decode()
    return (f"@font-face {{ font-family: '{family}'; "
            f"src: url(data:font/woff;base64,{data}) format('woff'); }}")
