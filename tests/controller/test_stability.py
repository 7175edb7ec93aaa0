"""Stable scenes: identical frames with no hand; volatile certainty fields."""

import pytest

from controller.stability import Observation, Stability


def obs(pile, unsure=(), unread=0):
    return Observation({"pile": list(pile), "unsure": list(unsure), "pile_unread": unread})


def feed(st, observations):
    return [s for s in (st.feed(o, i) for i, o in enumerate(observations)) if s is not None]


def test_three_agreeing_frames_make_a_stable_scene_once():
    st = Stability(3)
    out = feed(st, [obs(["7H"])] * 6)
    assert len(out) == 1 and out[0].scene["pile"] == ["7H"] and out[0].frame == 2


def test_a_hand_breaks_the_run_and_its_zones_are_kept():
    st = Stability(3)
    seq = [obs(["7H"])] * 3 + [Observation(None, True, ("seat1", "pile"))] + [obs(["7H"])] * 2 + \
        [Observation(None, True, ("seat1", "stock"))] + [obs(["7H"])] * 3
    out = feed(st, seq)
    assert len(out) == 2
    assert out[1].hand_zones == ("seat1", "pile", "stock") and out[1].hand_seen


def test_certainty_may_flicker_and_the_least_certain_reading_wins():
    st = Stability(3)
    out = feed(st, [obs(["6H"]), obs(["6H"], unsure=["6H"]), obs(["6H"], unread=1)])
    assert len(out) == 1
    assert out[0].scene == {"pile": ["6H"], "unsure": ["6H"], "pile_unread": 1}


def test_a_different_card_breaks_the_run():
    st = Stability(3)
    assert feed(st, [obs(["6H"]), obs(["6H", "KS"]), obs(["6H"]), obs(["6H"])]) == []


def test_bad_frames_setting():
    with pytest.raises(ValueError):
        Stability(0)


def test_a_table_still_for_hours_keeps_only_the_frames_it_needs():
    st = Stability(3)
    stable = [st.feed(Observation({"pile": ["7H"], "unsure": []}), i) for i in range(5000)]
    assert sum(s is not None for s in stable) == 1
    assert len(st._run) <= 3
