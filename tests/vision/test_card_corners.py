"""vision.card_corners: the second look at the index corners of card regions no reading named.

The geometry (both corners warped upright, the far one turned) is checked on a rendered card whose
outline is known; the naming rules on readings made up for the purpose; the whole second look on
two tuning scenes where it names a card the first look left unnamed, and no other."""

import numpy as np
import pytest

from vision import card_cnn, render
from vision.card_corners import corner_readings, name_from_corners
from vision.cards import CROWDED_CONFIRM, DISAGREE_IGNORED, find_cards, load_model


@pytest.fixture(scope="module")
def real_deck():
    if "anglo" not in render.available_decks():
        pytest.skip("gnome-cards-data not installed (or librsvg2-bin missing): no real card artwork")
    return "anglo"


@pytest.mark.parametrize("angle", [0.0, 37.0, 90.0, 200.0])
def test_both_corners_are_read_upright_where_the_index_is(real_deck, angle):
    spec = {"cards": [{"card": "7C", "x": 300.0, "y": 200.0, "angle": angle}], "deck": real_deck,
            "background": "felt", "lighting": "even", "tilt": 8.0, "rotation": 0.0, "noise": 1.5,
            "blur": 0.4, "jpeg": 90, "seed": 3}
    img, truth = render.render_card_scene(spec)
    quad = np.asarray(truth["cards"][0]["quad"], float)     # TL, TR, BR, BL as printed
    # a region does not know which short side is the card's top: either order reads the same
    for box in (quad, np.roll(quad, 2, axis=0)):
        (reads,) = corner_readings(img, [box], load_model(), card_cnn.load_cnn())
        sure = {r["corner"] for r in reads if r["card"] == "7C" and r["confidence"] >= 0.94}
        assert sure == {0, 1}, [(r["card"], r["corner"], round(r["confidence"], 3)) for r in reads]
        assert all(r["down"][1] > 0.85 for r in reads)


def reading(card, conf, corner=0, crowded=False, mlp_p=1.0):
    return {"card": card, "confidence": conf, "corner": corner, "crowded": crowded, "mlp_p": mlp_p, "steady": False}


def name(readings, named=()):
    return name_from_corners(readings, 0.94, set(named), DISAGREE_IGNORED, CROWDED_CONFIRM)[0]


def test_one_sure_corner_names_the_card():
    assert name([reading("4D", 0.99)]) == "4D"
    assert name([]) is None


def test_two_agreeing_corners_combine_but_one_unsure_corner_does_not_name():
    assert name([reading("4D", 0.8, 0), reading("4D", 0.8, 1)]) == "4D"      # 1 - 0.2 * 0.2 = 0.96
    assert name([reading("4D", 0.8, 0)]) is None
    assert name([reading("4D", 0.8, 0), reading("4D", 0.7, 0)]) is None      # one corner read twice


def test_another_card_at_the_corners_leaves_the_region_unnamed():
    assert name([reading("4D", 1.0, 0), reading("4H", 0.5, 1)]) is None
    assert name([reading("4D", 1.0, 0), reading("4H", DISAGREE_IGNORED - 0.01, 1)]) == "4D"


def test_crowded_glyphs_need_the_mlps():
    assert name([reading("4D", 1.0, crowded=True, mlp_p=0.2)]) is None
    assert name([reading("4D", 1.0, crowded=True, mlp_p=0.9)]) == "4D"


def test_a_card_named_elsewhere_is_not_named_again():
    assert name([reading("4D", 1.0)], named={"4D"}) is None


def tuning_scene(seed, deck):
    spec = render.random_scene_spec(seed, decks=render.available_decks())
    if spec["deck"] != deck:
        pytest.skip(f"scene {seed} draws {spec['deck']} from this machine's decks, not {deck} "
                    "(gnome-cards-data / kdegames-card-data-kf5 not installed)")
    return render.render_card_scene(spec)


@pytest.mark.parametrize("seed, deck, card", [
    (3_100_037, "dondorf", "7C"),     # a club whose index touches the card's outline at this size
    (3_100_228, "bellot", "TH"),      # an index 5-6 px tall: the first look reads only two pips
])
def test_second_look_names_a_card_the_first_left_unnamed(seed, deck, card):
    img, truth = tuning_scene(seed, deck)
    ids = {c["card"] for c in truth["cards"]}
    before = find_cards(img, second_look=False)
    after = find_cards(img)
    assert card not in [c["card"] for c in before]
    assert card in [c["card"] for c in after]
    assert all(c["card"] in ids for c in after if c["card"]), "a card named that is not on the table"
    assert len(after) == len(before), "the named region takes the place of an unnamed card"


def test_a_doubted_reading_leaves_the_region_unnamed():
    doubted = lambda r: r["mlp_p"] < 0.1
    assert name_from_corners([reading("AS", 0.99, 0, mlp_p=0.9), reading("AS", 0.6, 1, mlp_p=0.05)], 0.94, set(),
                             DISAGREE_IGNORED, CROWDED_CONFIRM, doubted=doubted)[0] is None
    assert name_from_corners([reading("AS", 0.99, 0, mlp_p=0.9), reading("AS", 0.6, 1, mlp_p=0.5)], 0.94, set(),
                             DISAGREE_IGNORED, CROWDED_CONFIRM, doubted=doubted)[0] == "AS"


@pytest.mark.parametrize("seed, ace", [(3_152_742, "AS"), (3_153_525, "AC")])
def test_second_look_does_not_name_a_king_the_cnn_reads_as_an_ace(seed, ace, monkeypatch):
    """Dev scenes of the paris pack (held out from training), a lone king in each: the first look
    leaves it unnamed, and the second look at its region's corners read its serif K as an A (the CNN
    at 0.91-0.99 at one corner) where the MLPs' likeliest rank is the K at one corner at least.  The
    first look's rule (ACE_OR_KING) holds there too since 2026-12-06; without it the ace, not on the
    table, is named.  (Dev 3 154 135 was a third such scene until the squat regions of card_regions,
    2026-12-06: its king's region is now found 7 px higher, from another mask, and the second look
    there reads no ace with the rule or without it.  Since the forty-sixth session a region called
    face down, as 3 152 742's king is, is not named by the CNN alone either, DOWN_CNN_ALONE: it is
    off here too.  Since the fiftieth session 3 153 525's king, left unnamed by its readings, is named
    from its picture on the outline they place, FACE_ON_READINGS, before the second look: off here
    too.)"""
    img, truth = tuning_scene(seed, "paris")
    assert ace not in {c["card"] for c in truth["cards"]}
    assert ace not in [c["card"] for c in find_cards(img)]
    monkeypatch.setattr("vision.cards.SECOND_LOOK_ACE_OR_KING", False)
    monkeypatch.setattr("vision.cards.DOWN_CNN_ALONE", False)
    monkeypatch.setattr("vision.cards.FACE_ON_READINGS", False)
    assert ace in [c["card"] for c in find_cards(img)]


def test_a_tile_of_the_mosaic_does_not_depend_on_the_other_regions():
    """The readers' ink cuts and blob tests look at a tile's surroundings in the mosaic: a region's
    tile is padded to one height (TILE_H, not the tallest tile read with it) and starts at an even
    pixel (the table mask is made at half size), so the same region reads the same whatever other
    regions are read with it.  (Before 2026-12-06 the padding followed the tallest tile: in dev
    scene 3 166 412 a ten of hearts read TH 0.93 / 0.76 at its corners beside the region of a king's
    picture, TH 0.90 / QH 0.82 beside the whole king's region, a tile of another height.)"""
    from vision.card_corners import GAP, TILE_H, _mosaic, _tiles

    rng = np.random.default_rng(5)
    work = rng.integers(0, 255, (400, 600, 3), dtype=np.uint8)
    squat = np.array([[50, 50], [150, 50], [150, 175], [50, 175]], float)        # aspect 1.25
    tall = np.array([[300, 40], [400, 40], [400, 205], [300, 205]], float)       # aspect 1.65
    a, b, _ = _tiles(work, squat)
    c, d, _ = _tiles(work, tall)
    assert a.shape[0] < c.shape[0] <= TILE_H
    alone, _, _ = _mosaic([a, b])
    for tiles in ([c, d, a, b], [a, b, c, d]):
        canvas, origins, (step_x, step_y) = _mosaic(tiles)
        assert step_y == TILE_H + GAP and step_y % 2 == 0 and step_x % 2 == 0
        x, y = origins[0 if tiles[0] is a else 2]
        np.testing.assert_array_equal(canvas[y:y + step_y, x:x + 2 * step_x], alone[:step_y, :2 * step_x])


def test_a_guess_neither_reader_stands_by_does_not_veto_a_regions_sure_corner():
    from vision.cards import _idle_guess

    idle = lambda r, surest: _idle_guess(r, surest, 0.94)
    sure = reading("7C", 1.0, 1, mlp_p=0.998)
    guess = reading("4C", 0.637, 0, mlp_p=0.0)
    args = (0.94, set(), DISAGREE_IGNORED, CROWDED_CONFIRM)
    assert name_from_corners([sure, guess], *args)[0] is None
    assert name_from_corners([sure, guess], *args, idle=idle)[0] == "7C"
    # the MLPs give the guess 0.2 or more, or the sure corner under 0.2, or the guess is sure: a veto
    assert name_from_corners([sure, reading("4C", 0.637, 0, mlp_p=0.3)], *args, idle=idle)[0] is None
    assert name_from_corners([reading("7C", 1.0, 1, mlp_p=0.1), guess], *args, idle=idle)[0] is None
    assert name_from_corners([sure, reading("4C", 0.95, 0, mlp_p=0.0)], *args, idle=idle)[0] is None


def test_second_look_names_a_card_whose_other_corner_is_an_idle_guess(monkeypatch):
    """Fresh mixed scene 3 166 685 (bellot, held out; a seven of clubs among three cards on a
    white cloth, its index too small for the first look): the second look reads 7C at one corner, 1.0
    by the CNN and 0.998 by the MLPs, and 4C at the other, 0.64 by the CNN and 0.0 by the MLPs.  The
    first look's rule (a guess neither reader stands by does not veto, ``_idle_guess``) holds at the
    second look too since 2026-12-06 (SECOND_LOOK_IDLE): the seven is named; without it, not."""
    img, truth = tuning_scene(3_166_685, "bellot")
    found = find_cards(img)
    ids = {c["card"] for c in truth["cards"]}
    assert "7C" in [c["card"] for c in found]
    assert all(c["card"] in ids for c in found if c["card"])
    monkeypatch.setattr("vision.cards.SECOND_LOOK_IDLE", False)
    assert "7C" not in [c["card"] for c in find_cards(img)]
