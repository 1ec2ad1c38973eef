"""Replayed ``turns`` carry each wait's fan lists (so the analytics' MCR deciding fans work
on replays), a user variant file outside the package replays by path, an added kong that
two players could rob reads as one deal, and drawn flowers replay as the judge scores them."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from mjfast.data import botzone_text_sample
from mjfast.datasets import Dataset, EventFlag, EventKind as K
from mjfast.replay import replay
from mjfast.rules._profile import get_profile

TEXT = botzone_text_sample()
DATA = Path(__file__).parent / "data"
SITUATION = ("和绝张", "妙手回春", "海底捞月", "杠上开花", "抢杠和")


@pytest.fixture(scope="module")
def result():
    return replay([TEXT], "botzone", candidates=True)


def _waits(res, table: str) -> pl.DataFrame:
    pts = (pl.element().struct.field("points").cast(pl.Int64)
           * pl.element().struct.field("count").cast(pl.Int64))
    w = (pl.from_arrow(res[table]).select("deal_id", "step", "player", "waits")
         .explode("waits").drop_nulls("waits").unnest("waits"))
    return w.with_columns(d=pl.col("fans_discard").list.eval(pts).list.sum(),
                          s=pl.col("fans_self_drawn").list.eval(pts).list.sum())


@pytest.mark.parametrize("table", ["turns", "candidates"])
def test_every_wait_has_fan_lists_that_add_up_to_its_totals(result, table):
    """The fan lists (``score_batch`` on each wait's complete hand) add up to the totals of
    the waits kernel (``score_waits_batch``), both ways; legal = 8 or more (no flowers)."""
    w = _waits(result, table)
    assert w.height > 200
    assert w["fans_discard"].null_count() == 0 and w["fans_self_drawn"].null_count() == 0
    assert (w["d"] == w["total_discard"]).all() and (w["s"] == w["total_self_drawn"]).all()
    assert (w["legal_discard"] == (w["d"] >= 8)).all()
    assert (w["legal_self_drawn"] == (w["s"] >= 8)).all()


def test_wait_fans_equal_the_win_that_followed(result):
    """Each logged win re-scored: the winner's last decision before it listed the winning
    tile, and that wait's fan list (discard or self-draw) is the win's fan list, up to the
    fans of the moment (和绝张, last tile, kong replacement, robbing)."""
    table = get_profile("mcr", "botzone").table
    moment = {r.id for r in table.rows if r.zh in SITUATION}
    turns = pl.from_arrow(result["turns"])
    events = pl.from_arrow(result["events"])
    checked = 0
    for win in pl.from_arrow(result["wins"]).iter_rows(named=True):
        mine = turns.filter((pl.col("deal_id") == win["deal_id"]) & (pl.col("step") < win["step"])
                            & (pl.col("player") == win["winner"])).sort("step")
        last = mine.row(-1, named=True)
        between = events.filter((pl.col("deal_id") == win["deal_id"])
                                & pl.col("seq").is_between(last["step"] + 1, win["step"] - 1)
                                & (pl.col("player") == win["winner"])
                                & pl.col("kind").is_in([K.KONG_CONCEALED, K.KONG_ADDED]))
        if between.height:          # the hand changed after the decision
            continue
        wait = [w for w in last["waits"] if w["tile"] == win["tile"]]
        assert len(wait) == 1, win
        listed = wait[0]["fans_self_drawn" if win["self_drawn"] else "fans_discard"]

        def core(fans):
            return Counter({f["id"]: f["count"] for f in fans if f["id"] not in moment})
        assert core(listed) == core(win["fans"]), win["deal_id"]
        checked += 1
    assert checked >= 10


def test_deciding_fans_are_not_empty_on_a_replay(result, tmp_path):
    from mjfast.analytics import run
    ds = Dataset(tmp_path / "bz")
    for name, t in result.tables.items():
        ds.write(name, t, rules="mcr", variant="botzone")
    ds.write_manifest({"job": "test"})
    fans = run("high-low-fans", ds.path)
    assert set(fans["split_hands_without_fans"]) == {0}
    assert fans["split_hands_with_fans"][0] > 0
    assert fans.filter(pl.col("decides") > 0).height > 0


def test_user_variant_file_by_path(tmp_path):
    """A variant file outside the package, by path: each win's total moves by the changed
    fan's points x its count (against the bundled variant it is built on)."""
    base = replay([TEXT], "botzone", variant="botzone")
    wins = pl.from_arrow(base["wins"])
    fid = Counter(f["id"] for fans in wins["fans"] for f in fans).most_common(1)[0][0]
    old = get_profile("mcr", "botzone").table.row(fid).points
    (tmp_path / "My Rules").mkdir()
    user = tmp_path / "My Rules" / "mcr.house.toml"        # capitals and a space in the path
    user.write_text(f'[variant]\nname = "house"\n[rows.82]\nenabled = true\n'
                    f'[rows.{fid}]\npoints = {old + 3}\n', encoding="utf-8")
    res = replay([TEXT], "botzone", variant=str(user))
    assert res.stats.replayed == 16 and res.stats.quarantined == 0
    got = pl.from_arrow(res["wins"])
    n_with = 0
    for a, b in zip(wins.iter_rows(named=True), got.iter_rows(named=True)):
        k = sum(f["count"] for f in a["fans"] if f["id"] == fid)
        n_with += k > 0
        assert b["total"] - a["total"] == 3 * k
    disc = pl.from_arrow(res["discrepancies"])
    assert disc.filter(pl.col("what") == "fan_total").height == n_with > 0
    # the job takes it by path too (partition named after the file)
    from mjfast.pipelines import run_job
    from mjfast.pipelines import replay as replay_job
    s = run_job(replay_job.job_from_spec(None, files=[str(TEXT)], variants=[str(user)]),
                tmp_path / "out")
    assert s.n_out == 16
    w = Dataset(tmp_path / "out").read("wins")
    assert set(w["variant"]) == {"house"} and sorted(w["total"]) == sorted(got["total"])


def test_two_players_could_rob_the_added_kong():
    """``Player 2 Hu B8 Ignore Player 3 Hu B8`` right after a ``BuGang``: the lost claim is
    a CLAIM_LOST on the robbed kong (simulated deal, ``mjfast simulate`` seed 7)."""
    res = replay([DATA / "botzone_rob_kong_two_claims.txt"], "botzone")
    st = res.stats
    assert (st.deals_in, st.replayed, st.quarantined, st.wins, st.discrepancies) == (1, 1, 0, 1, 0)
    ev = pl.from_arrow(res["events"])
    kong = ev.filter(pl.col("kind") == K.KONG_ADDED).row(-1, named=True)
    win = ev.filter(pl.col("kind") == K.WIN).row(0, named=True)
    lost = ev.filter(pl.col("kind") == K.CLAIM_LOST).row(-1, named=True)
    assert win["flags"] & EventFlag.ROBBING and win["target"] == kong["player"]
    assert (lost["seq"], lost["aux"], lost["target"]) == (win["seq"] + 1, K.WIN, kong["player"])


def _with_flower(block: list[bytes], player: bytes, flower: bytes) -> list[bytes]:
    """``player`` draws ``flower`` (then the replacement tile) at his second draw."""
    out, seen = list(block), 0
    for i, line in enumerate(out):
        t = line.split()
        if len(t) == 4 and t[0] == b"Player" and t[1] == player and t[2] == b"Draw":
            seen += 1
            if seen == 2:
                out.insert(i, b"Player " + player + b" Draw " + flower)
                return out
    raise AssertionError("no second draw")


def test_flowers_drawn_in_botzone_text(tmp_path):
    """A flower drawn (``Player n Draw H3``; ``H1..H8``) is a FLOWER and the next draw its replacement;
    the winner's flower is the 花牌 fan: with the Fan and Score lines the judge would write
    (one more point, paid as 8 + F), the replay agrees with the log."""
    raw = TEXT.read_bytes()
    block = raw.split(b"\r\n\r\n")[0].split(b"\r\n")
    hu = next(i for i, line in enumerate(block) if b" Hu " in line)
    winner = block[hu].split()[1]
    other = next(p for p in (b"0", b"1", b"2", b"3") if p != winner)
    fan_i = next(i for i, line in enumerate(block) if line.startswith(b"Fan "))
    score_i = fan_i + 1
    t = block[fan_i].split(b" ", 2)
    block[fan_i] = b"Fan " + str(int(t[1]) + 1).encode() + b" " + t[2] + "+花牌*1".encode()
    scores = [int(x) for x in block[score_i].split()[1:]]
    self_drawn = block[hu - 1].split()[1:3] == [winner, b"Draw"]
    w = int(winner)
    if self_drawn:
        scores = [s + 3 if p == w else s - 1 for p, s in enumerate(scores)]
    else:
        payer = int(block[hu - 1].split()[1])
        scores[w] += 1
        scores[payer] -= 1
    block[score_i] = b"Score " + " ".join(map(str, scores)).encode()
    f = tmp_path / "flowers.txt"
    f.write_bytes(b"\r\n".join(_with_flower(_with_flower(block, other, b"H3"), winner, b"H5")) + b"\r\n\r\n")
    res = replay([f], "botzone")
    st = res.stats
    assert (st.deals_in, st.replayed, st.quarantined, st.wins, st.discrepancies) == (1, 1, 0, 1, 0)
    ev = pl.from_arrow(res["events"])
    flowers = ev.filter(pl.col("kind") == K.FLOWER)
    assert sorted(flowers["player"].to_list()) == sorted([int(other), w])
    for seq in flowers["seq"]:
        nxt = ev.filter(pl.col("seq") == seq + 1).row(0, named=True)
        assert nxt["kind"] == K.DRAW and nxt["flags"] & EventFlag.REPLACEMENT
    flower_fan = next(r.id for r in get_profile("mcr", "botzone").table.rows if r.zh == "花牌")
    win = pl.from_arrow(res["wins"]).row(0, named=True)
    assert {f["id"]: f["count"] for f in win["fans"]}[flower_fan] == 1
