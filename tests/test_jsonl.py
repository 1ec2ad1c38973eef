"""JSON-lines events: writer and reader give back the same Events; bad lines are typed."""
import json

import numpy as np
import pytest

from mjfast.datasets import EventBuilder, EventFlag, EventKind as K, Events
from mjfast.datasets import events_from_arrow, events_to_arrow
from mjfast.formats.jsonl import iter_jsonl, read_jsonl
from mjfast.formats.jsonl import write as write_jsonl
from mjfast.errors import LogParseError, MjfastError


def assert_same_events(a: Events, b: Events):
    assert a.deal_ids == b.deal_ids
    assert a.players == b.players
    for c in ("deal", "seq", "kind", "player", "tile", "aux", "target", "flags", "total",
              "fan_offsets", "fan_id", "fan_points", "fan_count"):
        np.testing.assert_array_equal(getattr(a, c), getattr(b, c), err_msg=c)
    keep = np.isin(a.kind, (K.WIN, K.KONG_PAYMENT))
    np.testing.assert_array_equal(a.scores[keep], b.scores[keep])


def sample_events() -> Events:
    b = EventBuilder(4)
    b.start_deal("mcr-s1-g0-d0")
    for p in range(4):
        for t in (0, 1, 2, 34 + p):
            b.add(K.DEAL, player=p, tile=t)
    b.add(K.FLOWER, player=0, tile=34)
    b.add(K.DRAW, player=0, tile=5, flags=EventFlag.REPLACEMENT)
    b.add(K.DISCARD, player=0, tile=3)
    b.add(K.CLAIM_LOST, player=2, tile=3, aux=int(K.PUNG), target=0)
    b.add(K.CHOW, player=1, tile=3, aux=1, target=0)
    b.add(K.KONG_CONCEALED, player=1, tile=-1, flags=EventFlag.HIDDEN)
    b.add(K.KONG_PAYMENT, player=1, scores=[-2, 6, -2, -2])
    b.add(K.WIN_PASSED, player=3, tile=3, target=0)
    b.add(K.DRAW, player=2, tile=33, flags=EventFlag.LAST_TILE)
    b.add(K.WIN, player=2, tile=33, total=12, scores=[-20, -8, 36, -8],
          fans=[(49, 6, 1), (76, 1, 2)], flags=EventFlag.ROBBING, target=0)
    b.add(K.DEALER_CHANGE, player=1, aux=0)
    b.start_deal("mcr-s1-g0-d1")
    b.add(K.DEAL, player=1, tile=7)
    b.add(K.DEAL, player=1, tile=7, aux=3)       # an odd row the grouping must keep
    b.add(K.EXHAUSTIVE_DRAW)
    return b.build()


def test_roundtrip(tmp_path):
    ev = sample_events()
    p = write_jsonl(tmp_path / "e.jsonl", ev, "mcr", headers={"mcr-s1-g0-d0": {"dealer": 0}})
    back, heads = read_jsonl(p, with_headers=True)
    assert_same_events(ev, back)
    assert heads[0]["dealer"] == 0 and heads[0]["rules"] == "mcr"
    # the same as the Parquet path
    assert_same_events(events_from_arrow(events_to_arrow(ev)), back)


def test_shape_is_readable():
    lines = [json.loads(x) for x in iter_jsonl(sample_events(), "mcr")]
    deals = [o for o in lines if o["type"] == "deal"]
    assert deals[0] == {"type": "deal", "actor": 0, "tiles": ["1m", "2m", "3m", "a"]}
    win = next(o for o in lines if o["type"] == "win")
    assert win["fans"][0]["id"] == 49 and win["fans"][0]["name"] and win["fans"][0]["zh"]
    assert win["scores"] == [-20, -8, 36, -8] and win["flags"] == ["robbing"]
    assert next(o for o in lines if o["type"] == "chow")["chow"] == "2m"
    assert next(o for o in lines if o["type"] == "claim_lost")["claim"] == "pung"
    assert next(o for o in lines if o["type"] == "concealed_kong").get("tile") is None


@pytest.mark.parametrize("bad, where", [
    ('{"type":"start_deal","deal_id":"x"}\nnot json', 2),
    ('{"type":"discard","actor":0,"tile":"5m"}', 1),
    ('{"type":"start_deal","deal_id":"x"}\n{"type":"discard","actor":0,"tile":"5x"}', 2),
    ('{"type":"start_deal","deal_id":"x"}\n{"type":"teleport"}', 2),
    ('{"type":"start_deal","deal_id":"x"}\n{"type":"win","actor":0,"scores":[1]}', 2),
])
def test_bad_lines(bad, where):
    with pytest.raises(LogParseError) as e:
        read_jsonl(bad.splitlines())
    assert isinstance(e.value, MjfastError) and e.value.position == where
