"""rules.without_fans: a profile with rows switched off in memory scores exactly like the
same change made by a variant file, through the public scoring API."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.errors import MjfastError
from mjfast.rules import get_profile, without_fans


@pytest.fixture(scope="module")
def hands():
    return mjfast.random_hands(1500, rules="mcr", kind="complete", seed=7)


@pytest.mark.parametrize("fan", [63, 49, 70, 48])
def test_same_as_a_variant_file(hands, tmp_path, fan):
    base = get_profile("mcr")
    path = tmp_path / f"mcr.off{fan}.toml"
    path.write_text(f"[rows.{fan}]\nenabled = false\n")
    mem = mjfast.score_batch(hands, variant=without_fans(base, [fan]))
    file = mjfast.score_batch(hands, variant=str(path))
    assert (mem.totals == file.totals).all() and (mem.legal == file.legal).all()
    assert (mem.fan_counts == file.fan_counts).all()
    assert not mem.fan_counts[:, fan].any()
    before = mjfast.score_batch(hands)
    held = before.fan_counts[:, fan] > 0
    assert held.any()
    # the best reading is recomputed: a hand never scores more without a fan
    assert (mem.totals <= before.totals).all()
    assert (mem.totals[held] < before.totals[held]).any()


def test_keeps_the_variant_and_caches():
    six = get_profile("mcr", "min6")
    q = without_fans(six, ["all_chows"])
    assert q.params["minimum"] == 6 and not q.row(63).enabled
    assert without_fans(six, [63]) is q                  # cached: one object per change
    assert without_fans(six, []) is six
    assert q.content_hash() != six.content_hash()
    with pytest.raises(MjfastError):
        without_fans(six, [999])


def test_profile_variant_only_for_mcr():
    b = mjfast.random_hands(4, rules="tuidaohu", kind="complete", seed=1)
    with pytest.raises(MjfastError):
        mjfast.score_batch(b, variant=without_fans(get_profile("tuidaohu"), ["self_drawn"]))
    with pytest.raises(MjfastError):
        mjfast.score_batch(b, variant=3)
