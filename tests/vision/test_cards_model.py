"""vision.cards' model file and the pairing of index corners, without pictures.

The shipped model holds several networks whose probabilities are averaged;
train_cards.add_member writes that layout.  Corner readings are paired into
cards best first (same card, then nearest), and two sure readings of
different cards are two cards, not one misread card."""

import cv2
import numpy as np

from vision import cards as C
from vision import train_cards as T


def _network(rng, n_in=6, hidden=(5, 4)):
    p = {"W1": rng.normal(size=(n_in, hidden[0])), "b1": rng.normal(size=hidden[0]),
         "W2": rng.normal(size=hidden), "b2": rng.normal(size=hidden[1]),
         "Wr": rng.normal(size=(hidden[1], 14)), "br": rng.normal(size=14),
         "Ws": rng.normal(size=(hidden[1], 4)), "bs": rng.normal(size=4),
         "mean": rng.normal(size=n_in), "std": rng.uniform(0.5, 2, n_in)}
    return {k: v.astype(np.float32) for k, v in p.items()}


def test_networks_are_averaged_and_added_in_order():
    rng = np.random.default_rng(4)
    a, b, c = _network(rng), _network(rng, hidden=(7, 3)), _network(rng)
    a["geometry"] = np.array([-0.6, -1.4, 6.5, 9.6])
    model_file = T.add_member(T.add_member(dict(a), b), c)
    assert {"m1_W1", "m2_W1"} <= set(model_file) and "m3_W1" not in model_file
    together = C.CardModel(model_file)
    alone = [C.CardModel({**n, "geometry": a["geometry"]}) for n in (a, b, c)]
    x = rng.normal(size=(9, 6)).astype(np.float32)
    ranks, suits = together.predict(x)
    assert len(together.members) == 3
    np.testing.assert_allclose(ranks, np.mean([m.predict(x)[0] for m in alone], axis=0), rtol=1e-5)
    np.testing.assert_allclose(suits, np.mean([m.predict(x)[1] for m in alone], axis=0), rtol=1e-5)
    np.testing.assert_allclose(ranks.sum(axis=1), 1.0, rtol=1e-5)


def test_shipped_model_has_several_networks():
    assert len(C.load_model().members) >= 2


def _reading(card, centre, down, confidence=1.0, scale=10.0, blobs=()):
    geometry = np.array([-0.6, -1.4, 6.5, 9.6])
    centre, down = np.asarray(centre, float), np.asarray(down, float)
    return {"card": card, "centre": centre, "down": down, "scale": scale, "confidence": confidence,
            "blobs": set(blobs), "quad": C._card_quad(centre, down, scale, geometry)}


def _far_corner(r):
    """Where the same card's other index corner reads, turned by 180 degrees."""
    quad_centre = r["quad"].mean(axis=0)
    return 2 * quad_centre - r["centre"]


def test_corners_of_one_card_pair_before_a_neighbour_in_a_meld():
    top_left = _reading("7H", (100, 100), (0, 1), blobs=(1, 2))
    own = _reading("7H", _far_corner(top_left), (0, -1), confidence=0.99, blobs=(3, 4))
    # the neighbour of a meld row: its outline a little to the side, read earlier (more sure)
    neighbour = _reading("TD", _far_corner(top_left) + (6, 0), (0, -1), blobs=(5, 6))
    groups = C._group([neighbour, own, top_left])
    by_card = sorted(sorted(r["card"] for r in g) for g in groups)
    assert by_card == [["7H", "7H"], ["TD"]]


def test_nearer_corner_wins_between_two_different_cards():
    r = _reading("9C", (100, 100), (0, 1), blobs=(1, 2))
    near = _reading("5S", _far_corner(r) + (2, 0), (0, -1), confidence=0.6, blobs=(3, 4))
    far = _reading("6S", _far_corner(r) + (12, 0), (0, -1), confidence=0.9, blobs=(5, 6))
    groups = C._group([r, far, near])
    pair = next(g for g in groups if len(g) == 2)
    assert sorted(x["card"] for x in pair) == ["5S", "9C"]


def test_picture_card_size_from_a_card_read_at_both_corners():
    """A deck with other proportions than the model's median geometry: the card read at both
    corners shows how much smaller its outline is, and only sure, same-sized, aligned pairs count."""
    top_left = _reading("2H", (100, 100), (0, 1), scale=20.0)
    far = _far_corner(top_left)
    other = _reading("2H", top_left["centre"] + 0.6 * (far - top_left["centre"]), (0, -1), scale=20.0)
    assert abs(C._picture_card_size([top_left, other]) - 0.6) < 1e-6
    # unsure, of another size, pointing the same way, or another card: no measure
    assert C._picture_card_size([top_left, {**other, "confidence": 0.6}]) == 1.0
    assert C._picture_card_size([top_left, _reading("2H", other["centre"], (0, -1), scale=35.0)]) == 1.0
    assert C._picture_card_size([top_left, _reading("2H", other["centre"], (0, 1), scale=20.0)]) == 1.0
    assert C._picture_card_size([top_left, {**other, "card": "3H"}]) == 1.0
    # off the card's diagonal by more than about 10 degrees: not this card's other corner
    turned = top_left["centre"] + 0.6 * np.array([[0.9, -0.44], [0.44, 0.9]]) @ (far - top_left["centre"])
    assert C._picture_card_size([top_left, _reading("2H", turned, (0, -1), scale=20.0)]) == 1.0
    # implausible proportions are not believed
    tiny = _reading("2H", top_left["centre"] + 0.2 * (far - top_left["centre"]), (0, -1), scale=20.0)
    assert C._picture_card_size([top_left, tiny]) == 1.0


def test_two_sure_different_readings_at_one_cards_corners_are_one_card():
    """A king's far corner misread as an eight, both sure: the two readings lie exactly where
    each other's outline puts the card's opposite corner, so they are one card (abstained on),
    while a card of a meld beside it, its outline shifted, stays a second card."""
    top_left = _reading("KC", (100, 100), (0, 1))
    misread = _reading("8C", _far_corner(top_left), (0, -1))
    assert C._corners_of_one_card(top_left, misread) and C._corners_of_one_card(misread, top_left)
    neighbour = _reading("8C", _far_corner(top_left) + (14, 0), (0, -1))
    assert not C._corners_of_one_card(top_left, neighbour)


def _paper_with(draw) -> np.ndarray:
    img = np.full((400, 400, 3), 235, np.uint8)
    draw(img)
    return img


def _blob_near(cents, sizes, point, size, tolerance=2.0):
    d = np.hypot(cents[:, 0] - point[0], cents[:, 1] - point[1])
    return bool(np.any((d < tolerance) & (np.abs(sizes - size) <= 3)))


def test_a_glyph_touching_a_fans_outlines_is_still_a_blob():
    """In a fan every card's outline joins one thin network of lines, larger than anything the
    line-splitting looks into; a suit glyph touching it is found once the thin lines are opened."""
    def draw(img):
        for k in range(6):   # six overlapping card outlines, 1 px lines
            cv2.rectangle(img, (40 + 30 * k, 40 + 8 * k), (240 + 30 * k, 330 + 8 * k), (30, 30, 30), 1)
        cv2.circle(img, (107, 90), 7, (20, 20, 200), -1)        # its left edge on the line x = 100
    cents, sizes, _ = C._ink_blobs(_paper_with(draw))
    assert _blob_near(cents, sizes, (107, 90), 15)


def test_a_rank_and_suit_joined_by_a_thin_bridge_are_two_blobs():
    def draw(img):
        cv2.rectangle(img, (200, 100), (210, 116), (30, 30, 30), -1)     # rank
        cv2.circle(img, (205, 131), 6, (30, 30, 30), -1)                  # suit
        cv2.line(img, (205, 116), (205, 125), (30, 30, 30), 1)            # blur's bridge
    cents, sizes, _ = C._ink_blobs(_paper_with(draw))
    assert _blob_near(cents, sizes, (205, 108), 16) and _blob_near(cents, sizes, (205, 131), 13)
