"""One definition of each shared constant: the situation flag bits and meld flag bits
(mjfast/hand.py), the winning-form codes (mjfast/rules/registry.py) and the knitted
permutations (mjfast/kernels/_decompose.py). Every other module of the base layers imports
them; none writes the numbers again. (The Cython parser reads the flag bits from
mjfast.hand into C globals at import; tests/test_notation_props.py holds its arrays equal
to the Hand path's.)"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

import mjfast
from mjfast import hand as H
from mjfast.rules import registry as R

PKG = Path(mjfast.__file__).resolve().parent
# the base layers of issue 9 (the engine and what sits above it keep their own checks)
BASE = ["*.py", "kernels/*.py", "notation/*.py", "scoring/*.py", "rules/*.py"]
FLAG_NAMES = ("SELF_DRAWN", "FOURTH_TILE", "LAST_TILE", "KONG_REPLACEMENT", "ROBBING_KONG",
              "ORIGINAL_READY", "FIRST_TURN", "MELD_CONCEALED", "MELD_ADDED")
ASSIGN = re.compile(r"^\s*(\w+)\s*=\s*(?:np\.\w+\()?\s*\d+\s*\)?\s*(?:#.*)?$")


def _sources():
    for pattern in BASE:
        for p in sorted(PKG.glob(pattern)):
            yield p, p.read_text(encoding="utf-8")


def test_flag_bits_are_defined_once():
    offenders = []
    for p, text in _sources():
        if p.name == "hand.py":
            continue
        for i, line in enumerate(text.splitlines(), 1):
            m = ASSIGN.match(line)
            name = m.group(1) if m else ""
            if m and (name.startswith(("MELD_", "_MELD_")) or any(
                    name in (f"F_{f}", f"_F_{f}", f"_{f}", f"M_{f.removeprefix('MELD_')}")
                    for f in FLAG_NAMES)):
                offenders.append(f"{p.relative_to(PKG)}:{i}: {line.strip()}")
    assert not offenders, "flag bits written again (import them from mjfast.hand):\n" + "\n".join(offenders)


def test_form_codes_are_defined_once():
    offenders = []
    for p, text in _sources():
        if p.name == "registry.py":
            continue
        for i, line in enumerate(text.splitlines(), 1):
            m = ASSIGN.match(line)
            if m and m.group(1).lstrip("_").startswith("FORM_"):
                offenders.append(f"{p.relative_to(PKG)}:{i}: {line.strip()}")
    assert not offenders, "form codes written again:\n" + "\n".join(offenders)


def test_knitted_permutations_are_defined_once():
    literal = re.compile(r"\[\s*0\s*,\s*2\s*,\s*1\s*\]|\(\s*0\s*,\s*2\s*,\s*1\s*\)")
    owners = [str(p.relative_to(PKG)) for p, text in _sources() if literal.search(text)]
    assert owners == ["kernels/_decompose.py"], owners
    from mjfast.kernels import _decompose, _mcr_fans, _shanten
    assert _mcr_fans.KNITTED is _decompose.KNITTED_PERMS
    assert _shanten.PERMS is _decompose.KNITTED_PERMS
    assert sorted(map(tuple, _decompose.KNITTED_PERMS.tolist())) == \
        sorted({(a, b, c) for a in range(3) for b in range(3) for c in range(3)
                if len({a, b, c}) == 3})


def test_flag_names_match_the_bits():
    bits = [getattr(H, n.upper()) for n in H.FLAG_NAMES]
    assert bits == [1 << i for i in range(len(bits))]
    assert (H.MELD_CONCEALED, H.MELD_ADDED) == (1, 2)
    assert len(set(R.FORM_NAMES)) == len(R.FORM_NAMES) == R.FORM_SEVEN_PAIRS_TRIPLET + 1
    assert np.array_equal(np.unique([R.FORM_REGULAR, R.FORM_SEVEN_PAIRS, R.FORM_THIRTEEN_ORPHANS,
                                     R.FORM_HONORS_KNITTED, R.FORM_KNITTED_STRAIGHT,
                                     R.FORM_SEVEN_PAIRS_TRIPLET]), np.arange(6))


def test_cython_parser_reads_the_flag_bits_from_hand():
    pyx = (PKG / "notation" / "_parse.pyx").read_text(encoding="utf-8")
    for name in FLAG_NAMES:
        assert f"_hand.{name}" in pyx, name
    # no flag or meld-flag literal: `fl |= 8`, `flags = 1` ...
    literal = re.compile(r"^\s*(?:fl\s*\|=|flags\s*=)\s*[1-9]", re.M)
    assert not literal.findall(pyx), literal.findall(pyx)
    # the compiled parser and the Hand path agree on the bits (concealed kong, every flag)
    texts = ["[1111m]234m456p789s5s5s", "[EEE,2][SSSS,1]WWWNN55pN|EE1111|3",
             "[EEE,2][SSSS,5]WWWNN55pN|EE1011|3"]
    b = mjfast.parse_batch(texts)
    ref = mjfast.HandBatch.from_hands([mjfast.parse_hand(t) for t in texts])
    assert np.array_equal(b.flags, ref.flags) and np.array_equal(b.melds, ref.melds)
    assert b.melds[0, 0, 2] == H.MELD_CONCEALED and b.melds[2, 1, 2] == H.MELD_ADDED
