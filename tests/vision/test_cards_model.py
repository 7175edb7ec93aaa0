"""vision.cards' model file and the pairing of index corners, without pictures.

The shipped model holds several networks whose probabilities are averaged;
train_cards.add_member writes that layout.  Corner readings are paired into
cards best first (same card, then nearest), and two sure readings of
different cards are two cards, not one misread card."""

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
