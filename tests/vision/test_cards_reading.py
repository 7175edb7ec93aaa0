"""vision.cards on rendered scenes: every condition of the brief, with exact expectations.

Each test renders a fixed scene (explicit cards, positions in table mm, angles,
cloth, light, tilt, noise) and checks the cards read.  The rule that matters
most at a real table: a card is read right or not named at all — never named
wrong; every test checks it.  Where the reader is known to leave a card
unread (a queen at some angles, the German König of bells), the test
asks for the others and accepts the abstention (docs/vision.md, limits)."""

import numpy as np
import pytest

from vision import render
from vision.cards import _overlap, find_cards


@pytest.fixture(scope="session")
def real_deck():
    """gnome-cards-data's anglo deck, rendered and cached once; skipped when not installed."""
    if "anglo" not in render.available_decks():
        pytest.skip("gnome-cards-data not installed (or librsvg2-bin missing): no real card artwork")
    render.card_image("anglo", "AS", 300)
    return "anglo"


@pytest.fixture(scope="session")
def german_deck():
    if "xskat-german" not in render.available_decks():
        pytest.skip("kdegames-card-data-kf5 not installed (or librsvg2-bin missing): no German pack artwork")
    render.card_image("xskat-german", "AS", 300)
    return "xskat-german"


def scene(cards, deck="anglo", **kw):
    spec = {"cards": cards, "deck": deck, "background": "felt", "lighting": "even", "tilt": 5.0,
            "rotation": 0.0, "noise": 1.5, "blur": 0.4, "jpeg": 90, "seed": 1}
    spec.update(kw)
    return render.render_card_scene(spec)


def named(found):
    return sorted(c["card"] for c in found if c["card"])


def assert_never_wrong(found, truth):
    ids = {c["card"] for c in truth["cards"]}
    wrong = [c["card"] for c in found if c["card"] and c["card"] not in ids]
    assert not wrong, f"named cards that are not on the table: {wrong}"


def near(found, centre, radius: float = 30.0) -> list[dict]:
    """The reports whose outline's centre lies within ``radius`` px of ``centre``."""
    return [c for c in found if np.hypot(*(np.mean(c["quad"], axis=0) - centre)) < radius]


def spaced(ids, angles, y=220.0):
    return [{"card": c, "x": 110.0 + 150.0 * i, "y": y, "angle": a} for i, (c, a) in enumerate(zip(ids, angles))]


# --------------------------------------------------------------- conditions --

@pytest.mark.parametrize("angles", [(0, 45, 90, 135, 180), (-30, -60, -120, -150, 270)])
def test_any_rotation(angles, real_deck):
    ids = ["AS", "TD", "QH", "7C", "KS"]
    img, truth = scene(spaced(ids, angles))
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert len(named(found)) >= 4              # at most one card left unread (null), none misread


@pytest.mark.parametrize("tilt", [0.0, 15.0, 30.0])
def test_perspective(tilt, real_deck):
    ids = ["2H", "9S", "JD", "5C"]
    img, truth = scene(spaced(ids, (10, 100, -70, 200)), tilt=tilt, seed=4)
    assert named(find_cards(img)) == sorted(ids)


@pytest.mark.parametrize("background", ["felt", "wood", "white", "pattern"])
def test_table_cloths(background, real_deck):
    ids = ["3D", "8C", "QS", "AH"]
    img, truth = scene(spaced(ids, (20, -40, 160, 95)), background=background, seed=7)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert {"3D", "8C", "AH"} <= set(named(found))


@pytest.mark.parametrize("lighting", ["warm", "daylight", "shadow", "glare"])
def test_lighting(lighting, real_deck):
    ids = ["4S", "TH", "KD", "6C"]
    img, truth = scene(spaced(ids, (0, 30, -25, 60)), lighting=lighting, seed=11)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert len(named(found)) >= 3 if lighting in ("shadow", "glare") else named(found) == sorted(ids)


def test_top_card_of_a_pile(real_deck):
    pile = [{"card": c, "x": 380 + dx, "y": 220 + dy, "angle": a}
            for c, dx, dy, a in (("2C", 0, 0, 10), ("9D", 4, -3, 80), ("JH", -3, 5, 150), ("7S", 2, 2, -20))]
    img, truth = scene(pile, seed=2)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "7S" in named(found)


def test_trick_overlap(real_deck):
    trick = [{"card": "QS", "x": 360, "y": 200, "angle": -90}, {"card": "KH", "x": 400, "y": 185, "angle": 0},
             {"card": "AD", "x": 430, "y": 225, "angle": 90}, {"card": "TC", "x": 395, "y": 255, "angle": 180}]
    img, truth = scene(trick, seed=3)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    visible = sorted(t["card"] for t in truth["cards"] if t["index_visible"])
    assert set(visible) <= set(named(found))


def test_fanned_hand(real_deck):
    ids = ["AS", "KS", "QH", "TD", "9C", "7H"]
    fan = []
    for k, c in enumerate(ids):
        a = (k - 2.5) * 12
        fan.append({"card": c, "x": 400 + 65 * np.sin(np.deg2rad(a)), "y": 300 - 65 * np.cos(np.deg2rad(a)),
                    "angle": a})
    img, truth = scene(fan, seed=5)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert named(found) == sorted(ids)


def test_meld_row_index_only(real_deck):
    ids = ["5H", "6H", "7H", "8H", "9H"]
    row = [{"card": c, "x": 250 + 20 * k, "y": 220, "angle": 8} for k, c in enumerate(ids)]
    img, truth = scene(row, background="wood", seed=6)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert named(found) == sorted(ids)


def test_hand_covering_a_card(real_deck):
    cards = [{"card": "8D", "x": 200, "y": 220, "angle": 15}, {"card": "JC", "x": 420, "y": 220, "angle": 0},
             {"card": "3S", "x": 620, "y": 230, "angle": -30}]
    hand = {"x": 420, "y": 460, "angle": -90, "length": 230}
    img, truth = scene(cards, occluder=hand, seed=8)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    covered = [t for t in truth["cards"] if t["card"] == "JC"][0]
    assert not covered["index_visible"]
    assert {"8D", "3S"} <= set(named(found))


def test_face_down_cards_are_counted(real_deck):
    cards = [{"card": "2S", "x": 200, "y": 200, "angle": 20, "face": "down"},
             {"card": "3S", "x": 420, "y": 240, "angle": -10, "face": "down"},
             {"card": "4H", "x": 620, "y": 200, "angle": 0}]
    img, truth = scene(cards, seed=9)
    found = find_cards(img)
    assert sum(1 for c in found if c["face"] == "down") == 2
    assert named(found) == ["4H"]


def test_real_deck_single_cards(real_deck):
    ids = ["AC", "TS", "JH", "QD", "KC"]
    img, truth = scene(spaced(ids, (0, 50, 110, 200, -80)), background="white", seed=10)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    # the queen upside down is read at 0.97, under the threshold: at most one abstention
    assert set(named(found)) <= set(ids) and len(named(found)) >= len(ids) - 1
    assert len(found) >= len(ids)


def test_german_pack(german_deck):
    # ghindă (acorns) = S, verde (leaves) = C, roșu (hearts) = H, dubă (bells) = D; Unter J, Ober Q, Daus A
    ids = ["AS", "JC", "QH", "KD", "TS"]
    img, truth = scene(spaced(ids, (0, 35, -60, 150, 95)), deck=german_deck, seed=12)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert {"AS", "JC", "QH", "TS"} <= set(named(found))


# ---------------------------------------------------------------- abstention --

def test_blurred_index_is_not_guessed(real_deck):
    ids = ["6D", "9H", "QC", "8S"]
    img, truth = scene(spaced(ids, (0, 40, 80, 120)), blur=3.2, noise=4.0, seed=13)
    found = find_cards(img)
    assert_never_wrong(found, truth)


def test_half_hidden_index_gives_null_not_a_wrong_card(real_deck):
    # the 9 of hearts lies under the queen so that only part of its index shows
    cards = [{"card": "9H", "x": 380, "y": 220, "angle": 0}, {"card": "QS", "x": 385.5, "y": 226, "angle": 0}]
    img, truth = scene(cards, seed=14)
    under = truth["cards"][0]
    assert not under["index_visible"] and 0.0 < max(under["index_corners_visible"]) < 0.97
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "9H" not in named(found)
    assert "QS" in named(found)


def test_threshold_one_names_nothing(real_deck):
    img, truth = scene(spaced(["AS", "2D"], (0, 30)), seed=15)
    found = find_cards(img, threshold=1.01)
    assert named(found) == []
    assert len(found) >= 2


def test_large_picture_quads_in_its_own_pixels(real_deck):
    cards = [{"card": "JH", "x": 250, "y": 220, "angle": 25}, {"card": "4C", "x": 520, "y": 230, "angle": -15}]
    img, truth = scene(cards, out_size=[1920, 1080], seed=16)
    found = find_cards(img)
    assert named(found) == ["4C", "JH"]
    for f in found:
        t = [tc for tc in truth["cards"] if tc["card"] == f["card"]][0]
        centre = np.mean(f["quad"], axis=0)
        assert np.linalg.norm(centre - np.mean(t["quad"], axis=0)) < 0.25 * np.linalg.norm(
            np.subtract(t["quad"][3], t["quad"][0]))


def test_court_index_set_wider_than_the_numbers_is_read(monkeypatch):
    """xskat-french prints a court card's index wider apart than a number's: in this hand (tuning
    scene 3 100 257) the king of clubs reads at a rank-suit distance of about 20.5 px against
    11-13 px for the others, more than MAX_SCALE_RATIO (1.5) times the picture's typical index.
    A jack, queen or king may be COURT_SCALE_RATIO (2.3) times larger: the fully visible king is
    named, and with the numbers' limit it was not (nor from its picture, FACE_NAMES, off here)."""
    from vision import cards as C
    img, truth = _tuning_scene(3_100_257, "xskat-french")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "KC" in named(found)
    monkeypatch.setattr(C, "COURT_SCALE_RATIO", C.MAX_SCALE_RATIO)
    monkeypatch.setattr(C, "FACE_NAMES", False)
    assert "KC" not in named(find_cards(img))


def _tuning_scene(seed: int, deck: str, condition: str | None = None):
    pool = render.available_decks()
    spec = render.random_scene_spec(seed, condition=condition, decks=pool)
    if spec["deck"] != deck:
        pytest.skip(f"scene {seed} draws {spec['deck']} from this machine's decks, not {deck} "
                    "(kdegames-card-data-kf5 / gnome-cards-data not installed)")
    return render.render_card_scene(spec)


def _named_unless(seed, deck, card, condition, monkeypatch, switches: dict):
    """A scene where ``card`` is named and no card is named wrong; with ``switches`` (dotted names
    of constants and their values) set, the card is not named."""
    img, truth = _tuning_scene(seed, deck, condition=condition)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert card in named(found)
    for name, value in switches.items():
        monkeypatch.setattr(name, value)
    assert card not in named(find_cards(img))


def _named_by_the_rule_alone(seed, deck, card, monkeypatch, switch, off):
    """A scene where ``card`` is named with the rule on, no card is named wrong, and with the
    rule's switch (a constant of vision.cards) set to ``off`` the card is not named.  For that
    last check the court-picture rules (``FACE_NAMES``, ``FACE_ON_READINGS``) are off too: they
    name some of these courts another way, from their picture; and so is ``CROWDED_SURE``, which
    names some crowded
    corners the CNN is all but certain of by themselves; and so is the small cards' pass of
    ``card_regions`` (``SMALL_CARDS``), whose region of the card the second look can name; and so
    is the pips' rule (``PIP_NAMES``), which names some of these number cards from their pips; and
    so is the row search (``ROW_SEARCH``), which reads some of these fans' and melds' indices again
    where their neighbours put them."""
    _named_unless(seed, deck, card, None, monkeypatch,
                  {"vision.cards.FACE_NAMES": False, "vision.cards.FACE_ON_READINGS": False,
                   "vision.cards.CROWDED_SURE": 0,
                   "vision.card_regions.SMALL_CARDS": False, "vision.cards.PIP_NAMES": False,
                   "vision.cards.ROW_SEARCH": False, f"vision.cards.{switch}": off})


def test_a_court_index_set_twice_as_wide_as_the_numbers_is_read(monkeypatch):
    """Dev scene 3 132 252 (xskat-french, one card each): the queen of clubs is read 0.999 and 0.997
    at its two corners at rank-suit distances of 29.9 and 28.6 px, 2.1 times the picture's typical
    13.98 px (the two and six of the scene).  Up to COURT_SCALE_RATIO 1.9 (before 2026-12-05)
    both readings were taken for glyphs of a picture and the queen was reported unnamed."""
    _named_by_the_rule_alone(3_132_252, "xskat-french", "QC", monkeypatch, "COURT_SCALE_RATIO", 1.9)


def test_a_card_read_sure_at_both_crowded_corners_is_named(monkeypatch):
    """Dev scene 3 132 626 (xskat-french, a meld row): the king of hearts is read 0.989 and 0.998 at
    its two corners, both from crowded glyphs, the MLPs giving it 0.36 and 0.49 (under
    CROWDED_CONFIRM) and the CNN's moved patches not keeping it.  Either corner alone could be a
    cut glyph misread; both corners read sure the same way name the card.  Without the rule
    (TWO_SURE_CORNERS) the king was reported unnamed."""
    _named_by_the_rule_alone(3_132_626, "xskat-french", "KH", monkeypatch, "TWO_SURE_CORNERS", False)


def test_a_region_read_sure_at_both_crowded_corners_is_named_by_the_second_look(monkeypatch):
    """Dev scene 3 131 556 (bellot, one card each, glare): the queen of diamonds is named by the second
    look at its region's corners, both read sure from crowded glyphs the MLPs do not confirm.  The
    second look follows the same rule as the first pass (TWO_SURE_CORNERS); without it the queen was
    reported unnamed, and called face down."""
    _named_by_the_rule_alone(3_131_556, "bellot", "QD", monkeypatch, "TWO_SURE_CORNERS", False)


@pytest.mark.parametrize("seed, card", [(3_100_148, "JS"), (3_100_100, "QD")])
def test_a_court_card_lying_on_a_named_card_is_read(seed, card):
    """In these xskat-french meld rows (tuning scenes) a jack or queen lies over a number card
    already named, its index read sure at 1.4-1.75 times that card's rank-suit distance: the
    pack sets its court index wider.  A sure reading inside a named card is a card lying on it
    only up to ON_TOP_RATIO (1.55) times its size; a court card's reading may be larger in the
    same proportion as MAX_SCALE_RATIO -> COURT_SCALE_RATIO.  Before, the court card was dropped."""
    img, truth = _tuning_scene(seed, "xskat-french")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert card in named(found)


def test_a_card_lying_on_one_whose_index_is_read_smaller_is_read(monkeypatch):
    """Dev scene 3 131 505 (plastic, a fan): the 7 of diamonds lies over the 6 of hearts, named
    before it.  Its index, read 1.0, spans 21.2 pixels from rank to suit, the 6's 14.8: a 7's ink
    lies high in its glyph and a 6's low, so one pack's indices differ by 1.43 times.  With the
    bar of a card lying on another at 1.4 times (ON_TOP_RATIO before 2026-12-05) the 7 was
    dropped as a glyph pair of the 6's picture."""
    _named_by_the_rule_alone(3_131_505, "plastic", "7D", monkeypatch, "ON_TOP_RATIO", 1.4)


@pytest.mark.parametrize("seed, deck, card", [(3_131_382, "xskat-french", "AD"), (3_132_644, "orell", "6H")])
def test_a_corner_sure_by_the_cnn_with_the_mlps_at_0_7_outweighs_an_unsure_one(seed, deck, card, monkeypatch):
    """Dev scenes, a pile and a trick: a card read 1.0 at one corner, the MLPs giving the same card
    0.94 and 0.71, and a different card read under the threshold where its other corner would be
    (in the pile, the index of the ace of hearts beside the ace of diamonds, 0.92; in the trick,
    the six's own other corner read as an 8 at 0.64, the MLPs at 0.07).  The sure corner names
    the card when the MLPs give it at least BOTH_MLP (0.7); with the bar at 0.95 (AGREE_MLP's,
    which served both rules before 2026-12-05) the card was reported unnamed.  The other corner's
    guess, which the MLPs give under 0.2, no longer vetoes since 2026-12-06 either (VETO_MLP):
    that rule is held off here, so that the scene shows what this one does."""
    monkeypatch.setattr("vision.cards.VETO_MLP", 0.0)
    _named_by_the_rule_alone(seed, deck, card, monkeypatch, "BOTH_MLP", 0.95)


def test_a_crowded_unconfirmed_reading_does_not_veto_a_card_sure_by_both_readers():
    """Tuning scene 3 100 048 (tigullio, a trick): the king of clubs is read 1.0 by the CNN and 1.0 by
    the MLPs at one corner; at its other corner, where another card's edge crowds the glyphs, the
    CNN reads an 8 of clubs at 0.975 and the MLPs give that 0.29.  That reading could not name a
    card on its own (crowded glyphs need the MLPs' agreement), so it does not make the king's two
    corners disagree: the king is named.  Before, the card was reported unnamed."""
    img, truth = _tuning_scene(3_100_048, "tigullio")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "KC" in named(found)


@pytest.mark.parametrize("seed, deck, card", [(3_100_482, "tango", "8S"), (3_100_447, "guyenne-classic", "6C")])
def test_a_guess_from_crowded_glyphs_at_the_other_corner_does_not_veto_a_sure_card(seed, deck, card):
    """Tuning scenes: a card read sure (1.0) at one corner, and at its other corner, where another
    card's edge or a pip crowds the glyphs, a different card at 0.43-0.47 that the MLPs give 0.0-0.19.
    Such a reading could not name a card (crowded glyphs need the MLPs' agreement), so it is a weak
    guess, not a second opinion: the sure corner names the card.  Before, the card was unnamed."""
    img, truth = _tuning_scene(seed, deck)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert card in named(found)


@pytest.mark.parametrize("seed, deck, card", [(3_124_842, "rheinland", "2H"), (3_125_018, "dondorf", "KS"),
                                              (3_124_821, "dondorf", "QS")])
def test_a_reading_of_a_card_named_elsewhere_does_not_veto(seed, deck, card, monkeypatch):
    """Tuning scenes, a meld and two fans: an index-only card read sure (0.996-1.0) at its corner was
    paired with a reading of the card lying beside it (its index, 0.94-1.0), as one card's two
    corners that disagree, and was not named.  That card is named by a group of its own, and a
    pack has each card once: the reading says nothing against this card, which is named.  With
    the rule off (CLAIMED_ELSEWHERE) the card is not named: the scene shows what the rule does.
    The sure-by-both bar is held at 0.95, as when the rule was made: at BOTH_MLP's 0.7 that rule
    alone names the king of 3 125 018 too (its MLPs give it 0.87).  The CNN's gate is held at 0.1,
    as then too: at 0.2 (fewer weak hypotheses read by the CNN) that king is named without the rule
    as well, and the scene no longer shows what the rule does.  For the same reason the rule of
    2026-12-06 that a guess the MLPs give under 0.2 does not veto (VETO_MLP) is held off, and the
    darker ink cut's own table (TABLE_PER_LEVEL, 2026-12-07): with it and the bars held, the queen of
    spades of 3 124 821 is not named at all (with today's bars she is)."""
    monkeypatch.setattr("vision.cards.TABLE_PER_LEVEL", False)
    monkeypatch.setattr("vision.cards.BOTH_MLP", 0.95)
    monkeypatch.setattr("vision.cards.VETO_MLP", 0.0)
    monkeypatch.setattr("vision.cards.CNN_GATE", 0.1)
    _named_by_the_rule_alone(seed, deck, card, monkeypatch, "CLAIMED_ELSEWHERE", False)


def test_one_card_placed_twice_is_reported_once(monkeypatch):
    """Tuning scene 3 124 842 (rheinland, a meld): the ten of hearts is placed from its index and again
    from the glyphs beside it, two outlines over one card.  It is reported once; every card named
    is on the table and no card is named twice.  Without the rule, the ten is reported twice."""
    img, truth = _tuning_scene(3_124_842, "rheinland")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert named(found).count("TH") == 1
    assert len(named(found)) == len(set(named(found)))
    monkeypatch.setattr("vision.cards._one_report_per_card", lambda cards: cards)
    assert named(find_cards(img)).count("TH") == 2


@pytest.mark.parametrize("seed, deck, card", [(3_128_620, "paris", "JS"), (3_128_724, "simplistic", "QC")])
def test_a_crowded_reading_the_cnn_keeps_under_small_moves_names_its_card(seed, deck, card, monkeypatch):
    """Dev scenes, two fans: an index-only card read sure by the CNN from glyphs another card's edge
    crowds, which the MLPs give 0.1-0.5 (under CROWDED_CONFIRM).  The CNN reads the same card, 0.95
    or more, in each of the eight patches moved a little (shifted, scaled, turned; STEADY_MOVES), so
    the reading is confirmed and the card named.  With the check off (STEADY) it is not named."""
    _named_by_the_rule_alone(seed, deck, card, monkeypatch, "STEADY", False)


def test_a_steady_misread_the_mlps_reject_outright_stays_unnamed(monkeypatch):
    """Dev scene 3 127 974 (bellot, a meld on a white cloth under glare): the ten of hearts' "0" and
    heart, apart from its "1", read as a queen of hearts by the CNN, 0.99 or more in every moved
    patch: a glyph misread the same way wherever the patch lies.  The MLPs give it 0.03; a reading
    they give less than STEADY_MLP (0.1) is not confirmed by steadiness, and no card is named wrong.
    With that bar at 0 the queen is named (the check alone would have let the misread through)."""
    img, truth = _tuning_scene(3_127_974, "bellot")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "QH" not in named(found)
    monkeypatch.setattr("vision.cards.STEADY_MLP", 0.0)
    assert "QH" in named(find_cards(img))


@pytest.mark.parametrize("seed, deck, card", [(3_127_698, "bellot", "6C"), (3_127_930, "ornamental", "4S")])
def test_moved_patches_make_an_unsure_index_reading_sure(seed, deck, card, monkeypatch):
    """Dev scenes, a meld and a fan: an index-only card the CNN reads under the threshold from its
    patch, and 0.85 or more in the mean over its patch and the eight moved ones (MOVED_SURE), the
    MLPs not rejecting it: the moved patches count as a second opinion and the card is named.
    With that off (MOVED_SURE 0) the card is not named."""
    _named_by_the_rule_alone(seed, deck, card, monkeypatch, "MOVED_SURE", 0)


def test_a_weak_reading_paired_with_one_corner_does_not_keep_the_two_corners_apart(monkeypatch):
    """Dev scene 3 148 061 (xskat-german, a pile): the ace of hearts on top is read 1.0 at both
    corners (the MLPs 0.996), but the pack's corners lie further apart than the index geometry
    says, so the two readings were not paired; one was paired with a reading of the queen of
    hearts at 0.17 instead.  Then each corner claimed the ace at another place than the other
    (a pack has each card once) and the ace was reported unnamed.  A reading under
    DISAGREE_IGNORED vetoes nothing, and now it does not keep the card's two corners apart either
    (WEAK_PARTNER_LEFT).  The CNN's gate is held at 0.2, as when the rule was made: at 0.4 (the
    fifty-fifth session) the CNN no longer reads the weak hypothesis, the ace is named without the
    rule as well, and the scene no longer shows what the rule does."""
    monkeypatch.setattr("vision.cards.CNN_GATE", 0.2)
    _named_by_the_rule_alone(3_148_061, "xskat-german", "AH", monkeypatch, "WEAK_PARTNER_LEFT", False)


def test_a_card_sure_at_both_corners_by_both_readers_outweighs_a_lone_misread_elsewhere(monkeypatch):
    """Dev scene 3 148 319 (neoclassical, a pile): the 3 of diamonds on top is read 1.0 at both
    corners by the CNN and the MLPs.  Outside its outline, among the cards beneath, the 3 of diamonds
    is read once more, 0.989 by the CNN and 0.0 by the MLPs.  A pack has each card once,
    and before, that claim at another place unnamed the card on top.  A card read at both corners
    sure by both readers now outweighs a rival the MLPs do not confirm (BOTH_CORNERS_WIN)."""
    _named_by_the_rule_alone(3_148_319, "neoclassical", "3D", monkeypatch, "BOTH_CORNERS_WIN", False)


@pytest.mark.parametrize("seed, deck, card", [(3_148_481, "simplistic", "QS"), (3_148_497, "drawn", "TC")])
def test_a_guess_neither_reader_stands_by_does_not_veto_a_sure_corner(seed, deck, card, monkeypatch):
    """Dev scenes, a trick and a meld row: a fully visible card is read sure at one corner (0.997 and
    0.971, the MLPs at 0.32 and 0.69) and as another card at its other corner, 0.52-0.54 by the CNN
    with the MLPs under 0.2 (0.0 and 0.195).  That guess vetoed the card.  Now a reading under the
    threshold that the MLPs give under VETO_MLP does not, when they give the sure corner at least
    that; with VETO_MLP 0 the card is not named."""
    _named_by_the_rule_alone(seed, deck, card, monkeypatch, "VETO_MLP", 0.0)


def test_a_guess_still_vetoes_a_corner_only_the_cnn_is_sure_of():
    """Dev scene 3 145 370 (paris, a trick): the king of spades is read as the ace 0.97 by the CNN at
    one corner, the MLPs giving it 0.12, and as the queen 0.53 at the other (MLPs 0.04).  The MLPs
    side with neither corner, so the guess still vetoes and the king is reported unnamed rather
    than as the ace of spades."""
    img, truth = _tuning_scene(3_145_370, "paris")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "AS" not in named(found)


@pytest.mark.parametrize("seed, deck, card", [(3_148_090, "plastic", "2H"), (3_148_317, "guyenne-classic", "AH")])
def test_a_card_whose_index_reads_much_smaller_than_the_card_it_lies_on_is_read(seed, deck, card, monkeypatch):
    """Dev scenes, two fans: the index of a card lying on a named one is read sure by both readers
    at about 0.6 of that card's rank-suit distance (the distance between a rank and its suit sign
    varies with the rank glyph's shape).  With the lower bar of a card lying on another at 0.7 (ON_TOP_SMALLER before
    2026-12-06) it was dropped as a glyph pair of the lower card's picture."""
    _named_by_the_rule_alone(seed, deck, card, monkeypatch, "ON_TOP_SMALLER", 0.7)


@pytest.mark.parametrize("seed, deck, misread", [(3_146_873, "berlin", "JH"), (3_146_979, "xskat-french", "JD"),
                                                  (3_148_545, "drawn", "7D")])
def test_a_card_only_the_cnn_reads_at_one_place_and_not_very_sure_is_not_named(seed, deck, misread, monkeypatch):
    """Dev scenes, three piles: a glyph of the pile (the top card's face, a lower card's edge) is
    read as a card that is not on the table, at one place only, by the CNN at 0.965-0.987 and by
    the MLPs at 0.013-0.064, with no row of indices beside it.  Since 2026-12-06 such a reading
    names nothing (LONE_MLP, LONE_SURE): these were 3 of the 13 fully visible cards named wrong on
    3 200 dev scenes.  With the rule off the misread is named."""
    img, truth = _tuning_scene(seed, deck)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert misread not in {c["card"] for c in truth["cards"]}
    monkeypatch.setattr("vision.cards.LONE_SURE", 0.0)
    assert misread in named(find_cards(img))


def test_two_unsure_corners_the_mlps_read_as_another_rank_at_one_do_not_name_a_card(monkeypatch):
    """Dev scene 3 162 310: a blurred neoclassical 6 of clubs on wood, read an 8 of clubs at both
    corners, 0.82 and 0.68, together 0.94, at the threshold; the MLPs read the 8 at the first corner
    and a 6 at the second.  Two corners under the threshold name their card only when the MLPs'
    likeliest rank is that card's at both (TWO_WEAK_MLP): the card is reported unnamed.  With the
    rule off the 8 of clubs was named."""
    img, truth = _tuning_scene(3_162_310, "neoclassical")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    centre = np.mean(next(c["quad"] for c in truth["cards"] if c["card"] == "6C"), axis=0)
    assert [c["card"] for c in near(found, centre)] == [None]
    monkeypatch.setattr("vision.cards.TWO_WEAK_MLP", False)
    assert "8C" in named(find_cards(img))


def test_a_corner_reading_another_suit_from_a_cut_glyph_still_vetoes(monkeypatch):
    """Dev scene 3 167 677: a gnomangelo ace of spades under a 3 of diamonds, the 3's edge across
    the spade at both of the ace's corners.  One corner reads the ace of clubs, 0.999 (the MLPs 0.63);
    the other the ace of spades, 0.78, its suit glyph parted from the edge (cut), the MLPs at 0.11.
    A reading of the same rank, another suit, from a cut suit glyph is not a guess to be ignored
    (CUT_SAME_RANK, _suit_in_doubt): the ace is reported unnamed.  With the rule off the ace of
    clubs was named."""
    img, truth = _tuning_scene(3_167_677, "gnomangelo")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "3D" in named(found)
    monkeypatch.setattr("vision.cards.CUT_SAME_RANK", False)
    assert "AC" in named(find_cards(img))


@pytest.mark.parametrize("seed, deck, card", [(3_144_975, "drawn", "TC"), (3_148_361, "tango", "2D"),
                                              (3_149_922, "bellot", "QS")])
def test_an_index_read_by_the_cnn_alone_in_a_row_of_indices_is_named(seed, deck, card, monkeypatch):
    """Dev scenes, two fans and a meld: an index-only card read at its one visible index by the CNN
    at 0.965-0.984 and by the MLPs at 0.13-0.19, beside its neighbours' indices (ROW_SPAN: within
    six rank-suit distances, the same size, turned by less than ROW_PARALLEL).  The rule that a
    card only the CNN reads, not very sure, is not named (LONE_SURE) leaves such rows alone: with
    its exception off (ROW_SPAN 0) the card is reported unnamed."""
    _named_by_the_rule_alone(seed, deck, card, monkeypatch, "ROW_SPAN", 0.0)


@pytest.mark.parametrize("seed, ace", [(3_145_557, "AC"), (3_149_907, "AS"), (3_150_327, "AS")])
def test_a_king_the_cnn_reads_as_an_ace_and_the_mlps_as_a_king_is_not_named(seed, ace, monkeypatch):
    """Dev scenes of the paris pack (held out from training; a meld, a pile, a trick): a king's serif
    K is read as an A by the CNN at 0.75-0.999 while the MLPs' own likeliest rank is the K at one of
    its readings at least (they give the ace 0.04-0.57).  Since 2026-12-06 (ACE_OR_KING) such a card
    is reported unnamed; with the rule off it is named as the ace, which is not on the table.
    (Since the forty-sixth session 3 145 557's king, read the ace at two corners each under the
    threshold, is also stopped by TWO_WEAK_MLP, the MLPs reading the K at one: it is off here too.)"""
    img, truth = _tuning_scene(seed, "paris")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert ace not in {c["card"] for c in truth["cards"]}
    monkeypatch.setattr("vision.cards.ACE_OR_KING", False)
    monkeypatch.setattr("vision.cards.TWO_WEAK_MLP", False)
    assert ace in named(find_cards(img))


@pytest.mark.parametrize("seed, deck, wrong", [(3_153_627, "ornamental", "5C"), (3_153_846, "ornamental", "2D")])
def test_a_card_that_would_hide_an_index_read_on_the_card_below_is_not_on_top(seed, deck, wrong, monkeypatch):
    """Dev scenes: a 6 of clubs alone, two of its pips read as the 5 of clubs, sure by both readers
    (0.996, MLPs 0.57); a 3 of hearts on the 2 of hearts, whose index beside it is read as the 2 of
    diamonds (0.966).  Each reading lies in the named card and is of its index's size, so it was
    taken for a card lying on it, though its outline covers every index the named card was read at.
    Since 2026-12-06 (ON_TOP_HIDES) such a reading is dropped; with the rule off the card, not on
    the table, is named."""
    img, truth = _tuning_scene(seed, deck)
    assert_never_wrong(find_cards(img), truth)
    monkeypatch.setattr("vision.cards.ON_TOP_HIDES", 0.0)
    assert wrong in named(find_cards(img))
    assert wrong not in {c["card"] for c in truth["cards"]}


@pytest.mark.parametrize("seed, deck, card", [(3_146_754, "paris", "9C"), (3_155_560, "xskat-german", "JS")])
def test_a_card_on_top_covering_one_of_the_lower_cards_two_indices_is_read(seed, deck, card):
    """Dev scenes, a trick and a pile: the top card's outline comes out larger than the card and
    covers the index of the card below it just beside its edge (12-14 px inside), while that
    card's other index lies well outside.  ON_TOP_HIDES drops a reading only when its card would
    cover every place the named card was read; covering one of two dropped these cards."""
    img, truth = _tuning_scene(seed, deck)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert card in named(found)


def test_a_fans_next_card_whose_outline_covers_the_named_ones_index_is_read(monkeypatch):
    """Dev fan 3 152 408: the 7 of diamonds' index lies inside the outline of the 9 of spades over
    it, and its own outline (the pack's median geometry) covers the 9's index, 24 px inside.  In a row of indices
    the rule of ON_TOP_HIDES does not apply (HIDES_ROW); without that exception the 7 is dropped."""
    _named_by_the_rule_alone(3_152_408, "ornamental", "7D", monkeypatch, "HIDES_ROW", False)


@pytest.mark.parametrize("seed, deck", [(3_530_059, "gnomangelo"), (3_530_013, "plastic"), (3_530_153, "xskat-french")])
def test_a_suit_cut_by_the_edge_of_the_card_on_top_does_not_name_another_suit(seed, deck, monkeypatch):
    """Dev pile scenes: the six of spades lies under the top card, whose edge runs across the
    spade of its visible index.  What shows of the spade is a club's lobes and stem, and the CNN
    reads 6C, sure (0.91-0.999), the MLPs giving clubs 0.02-0.56.  The suit glyph was parted from
    that edge's straight line, so the reading needs the MLPs' suit at CUT_SUIT_MLP (0.7): the six of
    clubs, not on the table, is not named.  With the rule off it is."""
    img, truth = _tuning_scene(seed, deck, condition="pile")
    assert "6C" not in {c["card"] for c in truth["cards"]}
    found = find_cards(img)
    assert_never_wrong(found, truth)
    monkeypatch.setattr("vision.cards.CUT_SUIT_MLP", 0.0)
    assert "6C" in named(find_cards(img))


def test_a_cut_suit_the_mlps_read_the_same_still_names_its_card():
    """Dev pile scene 3 530 035 (plastic): the nine of spades under the top card has its spade
    parted from the top card's edge too, but the MLPs read spades 1.0: it is named."""
    img, truth = _tuning_scene(3_530_035, "plastic", condition="pile")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "9S" in named(found)


@pytest.mark.parametrize("seed, deck, misread", [(3_530_303, "gnomangelo", "3C"), (3_530_592, "plastic", "JC")])
def test_a_suit_joined_to_the_edge_of_the_card_on_top_does_not_name_another_suit(seed, deck, misread, monkeypatch):
    """Dev pile scenes: a lower card's spade, cut by the top card's outline (the 3 of spades read
    3C at 0.987, the MLPs giving clubs 0.42; the jack of spades read JC at 1.0, clubs 0.64).  The
    outline stands off the glyph at the reader's own ink cuts, so the glyph was not parted from a
    line; in a window round the glyph, cut on its own paper, the two meet (``_suit_on_an_edge``),
    and the reading needs the MLPs' suit at CUT_SUIT_MLP.  With that test off the misread is named."""
    img, truth = _tuning_scene(seed, deck, condition="pile")
    assert misread not in {c["card"] for c in truth["cards"]}
    found = find_cards(img)
    assert_never_wrong(found, truth)
    monkeypatch.setattr("vision.cards.EDGE_FILL", 0.0)
    assert misread in named(find_cards(img))


@pytest.mark.parametrize("seed, deck, card, condition", [(3_161_981, "paris", "QD", None),
                                                         (3_540_100, "dondorf", "KS", "fan"),
                                                         (3_540_273, "paris", "QH", "fan")])
def test_a_crowded_index_the_cnn_is_all_but_certain_of_names_its_card(seed, deck, card, condition, monkeypatch):
    """Dev scenes (a meld row; two fans): a court index of a held-out pack with the next card's edge
    beside it, read 0.999 or more by the CNN, the MLPs giving it 0.1-0.5 (they read those packs'
    glyphs less well), and not steady in every moved patch.  Such a reading counts as steady
    unmoved (CROWDED_SURE, since 2026-12-06) and names its card; no card is named wrong.  With the
    rule off the card is not named (the row search's second reading of a crowded sure index,
    ``ROW_RECHECK``, which names these cards too since 2026-12-07, held off as well)."""
    _named_unless(seed, deck, card, condition, monkeypatch,
                  {"vision.cards.FACE_NAMES": False, "vision.cards.CROWDED_SURE": 0,
                   "vision.cards.ROW_RECHECK": False})


@pytest.mark.parametrize("seed, deck, card", [(3_166_412, "bellot", "KS"), (3_166_597, "guyenne-classic", "QS")])
def test_a_court_whose_picture_alone_stood_out_is_named_from_the_whole_card(seed, deck, card, monkeypatch):
    """Dev scenes on striped cloths: a court card's pale margins blend into the stripes, and the
    first mask that finds it finds its picture alone, 0.7 of a card, called face down, its corners
    outside the region.  A later mask finds the whole card.  That region is kept as the first one's
    alternative (card_regions.NEARER_SIZE, since 2026-12-06), and names the card when the first
    region names nothing; no card is named wrong.  Without the alternative (and without the one
    the small cards' masks give, SMALL_CARDS) the card is reported face down."""
    img, truth = _tuning_scene(seed, deck)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert card in named(found)
    assert all(set(c) == {"card", "face", "confidence", "quad"} for c in found)     # Contract 2 only
    monkeypatch.setattr("vision.card_regions.NEARER_SIZE", 0)
    monkeypatch.setattr("vision.card_regions.SMALL_CARDS", False)
    found = find_cards(img)
    assert card not in named(found)
    quad = next(c["quad"] for c in truth["cards"] if c["card"] == card)
    centre = np.mean(quad, axis=0)
    assert any(c["face"] == "down" for c in near(found, centre))


@pytest.mark.parametrize("seed, condition, card", [(3_166_157, None, "KC"), (3_418_762, "facedown", "KS")])
def test_a_court_whose_picture_fills_the_card_is_face_up_when_its_corner_reads_an_index(seed, condition, card,
                                                                                      monkeypatch):
    """Dev scenes: a paris king, its picture filling the card, fails the paper test of the face and
    was called face down.  The second look reads a king at one corner, sure (0.95-0.96), and another
    card at the other (a 2 or an ace, 0.72-0.84), so it names nothing; an index read that sure is a
    face (INDEX_FACE_UP, since 2026-12-06): the king is reported face up, unnamed, once, and the
    other cards keep their faces.  With the rule off it is reported face down.  (Since the small
    cards' pass of card_regions, SMALL_CARDS, the kings are named: the next test; it is off here.)"""
    monkeypatch.setattr("vision.card_regions.SMALL_CARDS", False)
    img, truth = _tuning_scene(seed, "paris", condition=condition)
    quad = next(c["quad"] for c in truth["cards"] if c["card"] == card)
    centre = np.mean(quad, axis=0)

    def on_the_king(found):
        return near(found, centre)

    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert [(c["card"], c["face"]) for c in on_the_king(found)] == [(None, "up")]
    faces = [c["face"] for c in found]
    monkeypatch.setattr("vision.cards.INDEX_FACE_UP", 0)
    before = find_cards(img)
    assert [(c["card"], c["face"]) for c in on_the_king(before)] == [(None, "down")]
    assert faces.count("down") == [c["face"] for c in before].count("down") - 1


def test_a_back_read_as_an_index_by_the_cnn_alone_stays_a_back(monkeypatch):
    """Dev scene 3 421 042: a lattmann pile of two backs, a lattice of diamonds and rings.  The card
    regions call it face down; the second look at its corners reads a 7 of clubs in the lattice, the
    CNN at 0.96 and the MLPs at 0.08.  A region called face down is not named by readings sure by
    the CNN alone (DOWN_CNN_ALONE, the first look's LONE_MLP and LONE_SURE): the pile is reported
    unnamed.  With the rule off it was named the 7 of clubs.  (It is still reported face up: an
    index read that sure at a region's corner is a face, INDEX_FACE_UP, and a paris king's index,
    read by the CNN alone as sure, needs that rule: 3 166 157 in the test above.)"""
    img, truth = _tuning_scene(3_421_042, "lattmann", condition="facedown")
    centre = np.mean(next(c["quad"] for c in truth["cards"] if c["card"] == "JC"), axis=0)

    def on_the_pile(found):
        return [(c["card"], c["face"]) for c in near(found, centre)]

    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert on_the_pile(found) == [(None, "up")]
    monkeypatch.setattr("vision.cards.DOWN_CNN_ALONE", False)
    assert on_the_pile(find_cards(img)) == [("7C", "up")]


@pytest.mark.parametrize("seed, condition, deck, card", [(3_166_157, None, "paris", "KC"),
                                                         (3_418_762, "facedown", "paris", "KS"),
                                                         (3_418_813, "facedown", "xskat-german", "KD")])
def test_a_court_whose_index_columns_the_first_opening_cut_off_is_named_from_the_small_cards_region(
        seed, condition, deck, card, monkeypatch):
    """Dev scenes: a court card on a pale cloth, no two cards named to tell the size.  Its white
    margins blend into the cloth; the masks, opened for the size guessed, keep its picture alone
    (the thin columns of its indices cut off), and its corners lie outside that region.  The masks
    opened for the smallest cards (card_regions.SMALL_CARDS, since 2026-12-06) keep the whole
    card, and that region, the first one's alternative, names it; no card is named wrong.
    Without it the card is not named.  (Since the forty-fifth session a region of the first pass's
    other masks can be that alternative when its outline alone lies nearer the card's size, and it
    names 3 418 813's king too: the test switches that off as well, NEARER_SIZE 0, which leaves the
    small cards' alternatives.)"""
    monkeypatch.setattr("vision.card_regions.NEARER_SIZE", 0)
    _named_unless(seed, deck, card, condition, monkeypatch, {"vision.card_regions.SMALL_CARDS": False})


def _outlines(found, truth) -> dict:
    """Each fully visible card named: its outline's overlap over union with its card's."""
    return {t["card"]: round(_overlap(c["quad"], t["quad"]), 3) for t in truth["cards"]
            if t["face"] == "up" and t["visible"] >= 0.98 for c in found if c["card"] == t["card"]}


@pytest.mark.parametrize("seed, deck, cards", [(3_161_606, "ornamental", ["TC"]),
                                               (3_161_651, "ornamental", ["6C", "AD", "KD"]),
                                               (3_161_832, "tango", ["6C", "8S", "QD"])])
def test_outlines_fit_packs_whose_index_sits_far_in(seed, deck, cards, monkeypatch):
    """Dev scenes: ornamental and tango print their index far in from the card's corner, so the
    distance between a card's two indices measured the card at 0.4-0.5 of the geometry's size and
    every outline covered about 0.6 of its card (overlap over union 0.62-0.72 on these scenes).
    A card read at both corners now has its outline fitted out to its edges, and the index's place
    in it is the picture's geometry (``_picture_geometry``): each named card's outline overlaps
    its card 0.85 or more; with the fit off (FIT_REACH 0) under 0.75."""
    img, truth = _tuning_scene(seed, deck)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    fitted = _outlines(found, truth)
    assert sorted(fitted) == sorted(cards) and min(fitted.values()) >= 0.85, fitted
    monkeypatch.setattr("vision.cards.FIT_REACH", 0)
    plain = _outlines(find_cards(img), truth)
    assert sorted(plain) == sorted(cards) and max(plain.values()) < 0.75, plain


@pytest.mark.parametrize("seed, deck, card, switch, off", [
    (3_161_638, "ornamental", "9S", "FIT_MIN", False), (3_161_738, "ornamental", "4S", "FIT_MIN", False),
    (3_161_751, "orell", "7D", "ASPECT", (0.0, 99.0)),
    (3_161_605, "tango", "JC", "FIT_COURTS", False), (3_161_827, "ornamental", "KH", "FIT_COURTS", False)])
def test_the_rules_of_the_outline_fit(seed, deck, card, switch, off, monkeypatch):
    """Dev scenes, the rules of ``_picture_geometry``'s fit, each shown by a card whose outline
    overlaps its card 0.9 or more with the rule and under 0.75 without it:
    - FIT_MIN: a pip card whose opposite sides meet their edges at different distances (a side whose
      edge shows no step went on to something beyond) is fitted at the nearer edge on both sides;
    - ASPECT: a fitted outline that is no card's shape (both sides across gone past their edges, a
      card of the same pack lying there, white on white) gives no geometry;
    - FIT_COURTS: a court card is fitted too, when its opposite sides agree (the frame of its
      picture would be met first only from an outline inside the frame)."""
    img, truth = _tuning_scene(seed, deck)
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert _outlines(found, truth)[card] >= 0.9
    monkeypatch.setattr(f"vision.cards.{switch}", off)
    assert _outlines(find_cards(img), truth)[card] < 0.75


def test_an_index_washed_out_by_glare_pairs_its_faint_glyphs(monkeypatch):
    """Dev fan 3 541 278 (rheinland, glare): the queen of hearts, the 7 and the 5 of clubs show their
    rank and suit only at the faint ink cut.  Two faint blobs pair (``FAINT_PAIRS``), and the three
    are named, every name right; when a faint blob paired only with a clear one, none of the three
    was with the row search as it was then.  Since the fiftieth session's wider step of the row
    search (``card_rows.ROW_STEP``) the 7 is found by the search too, and since the fifty-first
    session's rounds (``ROW_ROUNDS``) the 7, once named, places the other two: all three are found
    without the faint pairs; with one round of the search, the 7 alone."""
    img, truth = _tuning_scene(3_541_278, "rheinland", condition="fan")
    lost = {"QH", "7C", "5C"}
    found = [f["card"] for f in find_cards(img) if f["card"]]
    assert lost <= set(found)
    assert set(found) <= {t["card"] for t in truth["cards"]}
    monkeypatch.setattr("vision.cards.FAINT_PAIRS", False)
    found = {f["card"] for f in find_cards(img) if f["card"]}
    assert lost <= found <= {t["card"] for t in truth["cards"]}
    monkeypatch.setattr("vision.cards.ROW_ROUNDS", 1)
    assert lost & {f["card"] for f in find_cards(img)} == {"7C"}
    monkeypatch.setattr("vision.cards.ROW_SEARCH", False)
    assert not lost & {f["card"] for f in find_cards(img)}


def test_a_four_index_meld_s_lowest_card_is_named_on_its_side_of_its_index_column(monkeypatch):
    """Dev meld 3 550 122 (dondorf, which prints four indices): its lowest card, the ten of hearts,
    is read sure at its top-left index and, turned, at its bottom-left one.  The second, taken for a
    top-left index, puts a card a width to the left, on the cloth; so the ten was claimed at two
    places and not named.  Its edge shows beside the upright index only (``FOUR_INDEX_SIDE``): it is
    named there, on its own card, and nothing is named wrong; with the rule off, not named.  The
    off-check holds ``RANK_DOUBTED_CLAIM`` off too: the turned reading's rank is one the MLPs doubt,
    and that rule (of a later session) lets the sure claim keep the card by itself; and it holds the
    CNN's gate at 0.2, as when the rule was made (at 0.4, since the fifty-fifth session, the ten is
    named without the rule as well)."""
    from vision import cards as C
    _named_unless(3_550_122, "dondorf", "TH", "meld", monkeypatch,
                  {"vision.cards.FOUR_INDEX_SIDE": False, "vision.cards.RANK_DOUBTED_CLAIM": False,
                   "vision.cards.CNN_GATE": 0.2})
    img, truth = _tuning_scene(3_550_122, "dondorf", condition="meld")
    monkeypatch.setattr(C, "FOUR_INDEX_SIDE", True)
    ten = next(f for f in find_cards(img) if f["card"] == "TH")
    quad = next(np.asarray(t["quad"], float) for t in truth["cards"] if t["card"] == "TH")
    assert C._inside(quad, np.mean(np.asarray(ten["quad"], float), axis=0), shrink=1.0)


def test_a_reading_sure_by_the_cnn_alone_does_not_veto_a_card_sure_by_both_readers(monkeypatch):
    """Dev trick 3 560 073 (plastic): the six of spades is read 1.0 at one corner, the MLPs giving
    it 0.94; at its other corner the CNN reads an ace of spades at 0.963 and the MLPs give that
    0.009, with no row of indices beside it.  Such a reading could not name a card by itself
    (``_cnn_alone``), so it does not make the six's corners disagree (``LONE_NO_VETO``): the six is
    named, every name in the trick right; with the rule off it was reported unnamed.  The off-check
    holds the CNN's gate at 0.2, as when the rule was made (at 0.4, since the fifty-fifth session,
    the six is named without the rule as well)."""
    _named_unless(3_560_073, "plastic", "6S", "trick", monkeypatch,
                  {"vision.cards.FACE_NAMES": False, "vision.cards.FACE_ON_READINGS": False,
                   "vision.cards.PIP_NAMES": False, "vision.cards.ROW_SEARCH": False,
                   "vision.cards.LONE_NO_VETO": False, "vision.cards.CNN_GATE": 0.2})


def test_a_card_in_a_named_card_read_small_is_measured_against_the_typical_index(monkeypatch):
    """Dev fan 3 540 871 (bellot): the two of hearts is named 1.0 from a patch placed at 8.7 px,
    where the fan's indices measure 13-16 px.  The four of diamonds beside it, read 0.981 at 15 px
    with its reading's centre inside the two's outline, was 1.7 times the two's size and taken for
    glyphs of the two's face.  When a named card was read under ``ON_TOP_TYPICAL`` of the picture's
    typical index size, a reading of the typical size is not odd either: the four is named, every
    name in the fan right; with the rule off it is not."""
    _named_unless(3_540_871, "bellot", "4D", "fan", monkeypatch,
                  {"vision.cards.ROW_SEARCH": False, "vision.cards.ON_TOP_TYPICAL": 0})


def test_a_crowded_reading_is_not_lifted_by_a_corner_neither_reader_stands_by(monkeypatch):
    """Dev pile 3 531 195 (anglo_poker): a lower card's two of spades, its suit glyph cut by the top
    card's edge, is read a two of clubs at 0.9999, the MLPs giving that suit 0.28; its other corner,
    half hidden, reads a two of clubs at 0.42, the MLPs giving it 0.10.  That corner does not lift the
    unconfirmed cut reading to a name (``IDLE_PARTNER``): the queen of clubs on top is named, no card
    named wrong; with the rule off the two corners together named the two of clubs, not on the table."""
    img, truth = _tuning_scene(3_531_195, "anglo_poker", condition="pile")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert "QC" in named(found)
    monkeypatch.setattr("vision.cards.IDLE_PARTNER", False)
    assert "2C" in named(find_cards(img))


def test_a_weak_guess_of_a_named_card_does_not_place_its_outline(monkeypatch):
    """Dev trick 3 560 146 (dondorf, four indices): the ace of hearts is read 1.0 by both readers at
    its index, and guessed 0.42 (the MLPs 0.001) at its third index, 1.31 times smaller.  A card read
    at very different sizes is placed by its smaller reading, but only by one at least ``PLACE_MIN``
    confident: the ace's outline has its centre on the ace, and every name in the trick is on its
    own card.  With the guess placing it, the outline lay off the card, on the table."""
    img, truth = _tuning_scene(3_560_146, "dondorf", condition="trick")

    from vision import cards as C
    ace = next(np.asarray(t["quad"], float) for t in truth["cards"] if t["card"] == "AH")

    def aces_on_the_ace(found):
        return [C._inside(ace, np.mean(np.asarray(c["quad"], float), axis=0), shrink=1.0)
                for c in found if c["card"] == "AH"]

    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert aces_on_the_ace(found) == [True]
    monkeypatch.setattr("vision.cards.PLACE_MIN", 0.0)
    assert aces_on_the_ace(find_cards(img)) == [False]


def test_a_glyph_joined_to_the_table_at_the_loose_cut_is_read_at_the_darker_one(monkeypatch):
    """Dev fan 3 540 824 (berlin): the first card's "8", near its top edge, is joined to the felt by the
    card's shaded edge at the loose ink cut, and is cut away with the table there.  The darker cut
    finds its own table (``TABLE_PER_LEVEL``), which the 8 does not touch: the eight of diamonds is
    named.  With the first cut's table used at both, it was lost at both."""
    _named_unless(3_540_824, "berlin", "8D", "fan", monkeypatch, {"vision.cards.TABLE_PER_LEVEL": False})


def test_a_corner_neither_reader_stands_by_does_not_make_a_lone_reading_a_pair(monkeypatch):
    """Dev pile 3 530 559 (bellot): the top queen of clubs' "Q" is paired with a blob beside it and
    read a queen of spades, 0.945 by the CNN, 0.013 by the MLPs; her other corner reads the queen of
    spades at 0.63 (the MLPs 0.07).  Alone, the first reading would not name a card (sure by the CNN
    alone, no row beside it); the guess at the other corner does not count as a second reading
    (``IDLE_PARTNER_ALONE``): no card is named wrong.  With the rule off the two named the queen of
    spades, not on the table."""
    img, truth = _tuning_scene(3_530_559, "bellot", condition="pile")
    assert_never_wrong(find_cards(img), truth)
    monkeypatch.setattr("vision.cards.IDLE_PARTNER_ALONE", False)
    assert "QS" in named(find_cards(img))


def test_the_row_search_names_no_ace_where_the_mlps_read_a_king(monkeypatch):
    """Dev fan 3 540 818 (paris): the row search reads the king of spades' index, its K cut by the next
    card's edge, an ace of spades at 0.98 (the CNN); the MLPs, at the same frame, read a king and give
    the ace 0.11.  As a reading's (``ACE_OR_KING``), the row spot's ace is not named then
    (``SPOT_ACE_OR_KING``): no card is named wrong.  With the rule off the fan had an ace of spades."""
    img, truth = _tuning_scene(3_540_818, "paris", condition="fan")
    assert_never_wrong(find_cards(img), truth)
    monkeypatch.setattr("vision.cards.SPOT_ACE_OR_KING", False)
    assert "AS" in named(find_cards(img))


def test_a_striped_cloth_broken_up_at_the_darker_cut_is_not_given_back(monkeypatch):
    """Dev scene 3 161 649 (anglo_modern, a trick on a striped cloth): at the first ink cut the dark
    stripes are one large area, the table; at the darker cut they break into over a thousand pieces,
    none of them a glyph.  More than ``TABLE_RESCUE_MAX`` pieces given back: the darker cut keeps the
    first cut's table, and the blobs are those of the first cut's table at both cuts; with no bar,
    over a thousand blobs more (each a hypothesis to read)."""
    from vision import cards as C
    img, _ = _tuning_scene(3_161_649, "anglo_modern")
    work, _ = C._work_image(img)
    blobs = C._ink_blobs(work)
    monkeypatch.setattr("vision.cards.TABLE_PER_LEVEL", False)
    first_table = C._ink_blobs(work)
    assert all(np.array_equal(a, b) for a, b in zip(blobs, first_table))
    monkeypatch.setattr("vision.cards.TABLE_PER_LEVEL", True)
    monkeypatch.setattr("vision.cards.TABLE_RESCUE_MAX", 10 ** 6)
    assert len(C._ink_blobs(work)[0]) > len(blobs[0]) + 1000


def test_a_claim_whose_rank_the_mlps_doubt_gives_way_to_one_sure_by_both(monkeypatch):
    """Scene 3 173 606 (bellot, a fan; fresh in the fifty-fourth session, used since): a three of
    clubs' index is read a jack of clubs, 0.991 by the CNN, the MLPs' likeliest rank the 3 (0.37 for
    the jack); the fan's jack is read 1.0 by both readers at her own index.  A card read sure in two
    places was unnamed at both only where the other reading lay outside its outline: the real jack
    was unnamed, the misread (her reading inside its outline grown by 10 %) named, its outline on
    the five of hearts.  Now the claim whose rank the MLPs doubt gives way to the one sure by both
    (``RANK_DOUBTED_CLAIM``): the jack is named on her own card and no card is named wrong."""
    img, truth = _tuning_scene(3_173_606, "bellot")
    from vision import cards as C
    jack = next(np.asarray(t["quad"], float) for t in truth["cards"] if t["card"] == "JC")

    def jacks_on_the_jack(found):
        return [C._inside(jack, np.mean(np.asarray(c["quad"], float), axis=0), shrink=1.0)
                for c in found if c["card"] == "JC"]

    assert jacks_on_the_jack(find_cards(img)) == [True]
    monkeypatch.setattr("vision.cards.RANK_DOUBTED_CLAIM", False)
    assert jacks_on_the_jack(find_cards(img)) == [False]


def test_a_lone_reading_whose_rank_the_mlps_doubt_does_not_name_a_card(monkeypatch):
    """Scene 3 175 169 (lattmann, a pile; fresh in the fifty-fifth session, used since): a lower
    card's ace of hearts, its heart cut by the nine of hearts lying over it, is read a four of hearts,
    0.958 by the CNN; the MLPs give that card 0.27, their own likeliest rank the 10.  The MLPs gave
    the card more than ``LONE_MLP``, so the rule for readings sure by the CNN alone let it through,
    and a card not on the table was named.  A lone reading out of a row whose rank the MLPs doubt
    (``RANK_DOUBTED_ALONE``) names no card: the pile's named cards are all right; with the rule off,
    the four of hearts is named."""
    img, truth = _tuning_scene(3_175_169, "lattmann")
    found = find_cards(img)
    assert_never_wrong(found, truth)
    assert {"9H", "2S"} <= set(named(found))
    monkeypatch.setattr("vision.cards.RANK_DOUBTED_ALONE", False)
    assert "4H" in named(find_cards(img))
