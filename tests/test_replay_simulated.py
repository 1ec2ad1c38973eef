"""Simulated MCR deals (Botzone wall, botzone variant) written as Botzone text and as the
project's events, replayed: the simulator's own events and results come back."""
from __future__ import annotations

import numpy as np
import pytest

from mjfast import simulation
from mjfast.datasets import Dataset, EventKind as K, events_from_arrow

pytestmark = pytest.mark.slow          # the simulator's bots compile on a cold cache


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim") / "ds"
    simulation.simulate("mcr", "efficiency", deals=24, seed=11, variant="botzone",
                        wall="botzone", out=str(out), botzone_text=True)
    return out


def _sim_events(out):
    ds = Dataset(out)
    return events_from_arrow(ds.read("events").drop(["rules", "variant"]).to_arrow())


def test_botzone_text_of_simulated_deals_replays_to_the_same_events(simulated):
    from mjfast.formats.botzone_text import match_id
    from mjfast.replay import replay
    texts = sorted(simulated.rglob("*.txt"))
    assert texts
    res = replay(texts, "botzone")
    sim = _sim_events(simulated)
    s = res.stats
    assert s.deals_in == len(sim.deal_ids) == s.replayed and s.quarantined == 0
    assert s.discrepancies == 0
    rep = events_from_arrow(res["events"])
    by_id = {did: i for i, did in enumerate(rep.deal_ids)}
    rs = {i: (a, b) for i, a, b in rep.deal_slices()}
    # the text numbers players by seat wind (the judge's "Player n"): map the simulator's
    # players through each deal's seats
    seats = {r["deal_id"]: r["seats"] for r in
             Dataset(simulated).read("deals").select("deal_id", "seats").to_dicts()}
    compared = 0
    for d, a, b in sim.deal_slices():
        did = sim.deal_ids[d]
        i = by_id[match_id(did)]
        x, y = rs[i]
        seat = np.array(list(seats[did]) + [-1], dtype=np.int64)   # index -1 -> -1
        keep = ~np.isin(sim.kind[a:b], [K.DEALER_CHANGE, K.KONG_PAYMENT])
        for c in ("kind", "tile", "aux", "flags", "total"):
            assert np.array_equal(getattr(sim, c)[a:b][keep], getattr(rep, c)[x:y]), c
        for c in ("player", "target"):
            mapped = seat[getattr(sim, c)[a:b][keep].astype(np.int64)]
            assert np.array_equal(mapped, getattr(rep, c)[x:y]), c
        for r, q in zip(np.flatnonzero(sim.kind[a:b] == K.WIN) + a,
                        np.flatnonzero(rep.kind[x:y] == K.WIN) + x):
            assert sim.fans_of(r) == rep.fans_of(q)
            by_seat = np.zeros(4, np.int64)
            by_seat[seat[:4]] = sim.scores[r]
            assert np.array_equal(by_seat, rep.scores[q])
            compared += 1
    assert compared > 0


def test_simulated_events_replay_without_discrepancy(simulated):
    from mjfast.replay import replay
    res = replay([simulated], "events")
    s = res.stats
    assert s.deals_in == s.replayed > 0 and s.quarantined == 0 and s.discrepancies == 0
