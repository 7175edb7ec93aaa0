"""Scene readers with a stand-in card reader: zones, certainty, hands, the frame cache."""

import numpy as np

from controller.config import load_layout
from controller.readers import CardTableReader, TintarReader


class Scale:
    """A calibration of 2 pixels per mm, no perspective."""

    def px_to_mm(self, pts):
        return np.asarray(pts, float) / 2.0

    def mm_to_px(self, pts):
        return np.asarray(pts, float) * 2.0


def card_at(name, x_mm, y_mm, conf=1.0, face="up"):
    q = [[x_mm - 30, y_mm - 44], [x_mm + 30, y_mm - 44], [x_mm + 30, y_mm + 44], [x_mm - 30, y_mm + 44]]
    return {"card": name, "face": face, "confidence": conf, "quad": (np.array(q) * 2).tolist()}


def test_card_reader_keeps_the_pile_and_marks_unsure_cards():
    calls = []

    def see(frame, kind):
        calls.append(kind)
        return {"cards": [card_at("7H", 400, 225), card_at("7H", 405, 230, 0.7),   # two corners: sure
                          card_at("9C", 390, 220, 0.9),                           # once, 0.9: unsure
                          card_at("KS", 615, 225, face="down"),                   # the stock
                          card_at("QD", 100, 100),                                # outside the pile
                          card_at(None, 400, 225)]}                               # no reading
    reader = CardTableReader(load_layout("macao-3"), Scale(), see=see)
    table = np.full((900, 1600, 3), (40, 120, 40), np.uint8)
    obs = reader(table)
    assert not obs.hand
    assert obs.scene == {"pile": ["7H", "9C"], "unsure": ["9C"], "pile_unread": 1}
    assert reader(table.copy()) == obs and calls == ["cards"]     # the same picture is read once


def test_an_arm_from_the_bottom_edge_is_a_hand_at_seat_0():
    reader = CardTableReader(load_layout("macao-3"), Scale(), see=lambda f, k: {"cards": []})
    table = np.full((900, 1600, 3), (40, 120, 40), np.uint8)
    reader(table)
    arm = table.copy()
    arm[500:900, 760:880] = (120, 160, 215)          # skin, from the bottom edge up to the pile
    obs = reader(arm)
    assert obs.hand and obs.scene is None
    assert set(obs.hand_zones) >= {"seat0", "pile"} and "seat1" not in obs.hand_zones
    # A skin-coloured thing in the middle that does not reach the edge is not a hand,
    # once it lies still.
    still = table.copy()
    still[400:480, 700:760] = (120, 160, 215)
    results = [reader(still).hand for _ in range(8)]
    assert results[-1] is False


def test_tintar_reader_unreadable_board_is_no_scene():
    from vision.board_outline import BoardNotFound

    def read(frame):
        raise BoardNotFound("no board")

    reader = TintarReader(read=read)
    obs = reader(np.full((720, 1280, 3), 90, np.uint8))
    assert obs.scene is None and not obs.hand


def test_zones_touched_draws_each_zone_once_and_agrees_without_the_cache():
    from vision.hands import zones_touched

    zones = {"seat0": np.array([[0, 0], [50, 0], [50, 40], [0, 40]], float),
             "pile": np.array([[60, 10], [90, 10], [90, 40], [60, 40]], float)}
    mask = np.zeros((60, 100), np.uint8)
    mask[0:30, 0:30] = 255
    cache: dict = {}
    for _ in range(3):
        assert zones_touched(mask, zones, cache=cache) == zones_touched(mask, zones) == ("seat0",)
    assert sorted(cache) == [("pile", (60, 100)), ("seat0", (60, 100))]
    mask[10:40, 60:90] = 255
    assert zones_touched(mask, zones, cache=cache) == ("seat0", "pile")
