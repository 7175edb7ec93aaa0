"""Table (backgammon) board reading and the gnubg Position ID, on rendered scenes with exact truth."""

import shutil
import subprocess

import cv2
import numpy as np
import pytest

from vision import backgammon, imaging, render_boards as rb
from vision.board_outline import (TABLE_CLUSTER_SHARE, BoardNotFound, BoardPartlyInView, edge_enclosed_mask,
                                  foreground_mask)

CLEAN = {"table": "felt", "lighting": "even", "tilt": 0.0, "rotation": 0.0, "noise": 0.0, "blur": 0.0, "jpeg": None}
CAMERA = {"table": "wood", "lighting": "daylight", "tilt": 10.0, "rotation": -4.0, "noise": 3.0, "blur": 0.5,
          "jpeg": 85}



def _read_entirely_right(seed: int):
    """The random scene of ``seed`` read entirely right, with its Position ID: (img, truth, reading)."""
    img, truth = rb.random_table_scene(np.random.default_rng(seed))
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
    assert got["position_id"] == backgammon.position_id(truth["points"], truth["bar"], True)
    return img, truth, got


def _checked_cloth_mask_as_the_first(monkeypatch):
    """The checked cloth's outline candidates' mask (the table's five colours) made as the colour mask
    (three of TABLE_CLUSTER_SHARE), and the last (the blurred picture's) left empty, so that the rules
    before them are tested alone."""
    monkeypatch.setattr(backgammon, "PLAID_COLOURS", 3)
    monkeypatch.setattr(backgammon, "PLAID_SHARE", TABLE_CLUSTER_SHARE)
    monkeypatch.setattr(backgammon, "_smoothed_mask", lambda image: np.zeros((8, 8), np.uint8))


def _top_down_view(img):
    """The reader's top-down view of the board found in ``img``, its edges made."""
    corners = backgammon.find_table_board(img)
    view = backgammon._View(backgammon._with_alpha(img),
                            backgammon.board_homography(corners, backgammon.TABLE_W, backgammon.TABLE_H))
    view.make_edges()
    return view

def test_starting_position_id():
    assert backgammon.position_id(rb.STARTING_POSITION, [0, 0], True) == "4HPwATDgc/ABMA"
    assert backgammon.position_id(rb.STARTING_POSITION, [0, 0], False) == "4HPwATDgc/ABMA"


def test_position_id_after_a_move_matches_gnubg():
    # gnubg 1.07: after the opening 41 played 24/23 13/9 by the other side, the player on roll sees 4HPhASjgc/ABMA
    points = [list(p) for p in rb.STARTING_POSITION]
    points[0] = [0, 1]        # black's 24 is white's 1: one checker left it ...
    points[1] = [0, 1]        # ... for black's 23 (white's 2)
    points[11] = [0, 4]       # black's 13 (white's 12) gave one ...
    points[15] = [0, 1]       # ... to black's 9 (white's 16)
    assert backgammon.position_id(points, [0, 0], white_on_roll=True) == "4HPhASjgc/ABMA"


def test_position_id_round_trip():
    for seed in range(40):
        points, bar, off = rb.random_table_position(seed)
        for white_on_roll in (True, False):
            pid = backgammon.position_id(points, bar, white_on_roll)
            assert len(pid) == 14
            assert backgammon.decode_position_id(pid, white_on_roll) == (points, bar, off)


def test_position_id_bad_input():
    with pytest.raises(ValueError):
        backgammon.decode_position_id("short")
    with pytest.raises(ValueError):
        backgammon.decode_position_id("!!!!!!!!!!!!!!")
    with pytest.raises(ValueError, match="15"):
        backgammon.position_id([[16, 0]] + [[0, 0]] * 23, [0, 0])


def test_position_id_known_to_gnubg():
    gnubg = shutil.which("gnubg") or ("/usr/games/gnubg" if shutil.os.path.exists("/usr/games/gnubg") else None)
    if not gnubg:
        pytest.skip("gnubg (Debian package gnubg) is not installed")
    points, bar, _ = rb.random_table_position(5)
    pid = backgammon.position_id(points, bar, True)
    out = subprocess.run([gnubg, "-t", "-q"], input=f"new game\nset board {pid}\nshow board\n", text=True,
                         capture_output=True, timeout=60).stdout
    assert f"Position ID: {pid}" in out


@pytest.mark.parametrize("scheme", [s[0] for s in rb.TABLE_SCHEMES])
def test_every_board_scheme_read_exactly(scheme):
    points, bar, off = rb.random_table_position(11)
    img, truth = rb.render_table(points, bar, off, [(4, False), (2, False)], rng=1, conditions=CLEAN, scheme=scheme)
    got = backgammon.read(img)
    assert got["points"] == points and got["bar"] == bar and got["off"] == off
    assert got["position_id"] == backgammon.position_id(points, bar, True)


def test_tall_overlapping_stacks_bar_and_trays():
    points = [[0, 0] for _ in range(24)]
    points[5] = [13, 0]       # 13 white checkers overlapping on one point
    points[18] = [0, 9]
    points[0] = [0, 2]
    img, _ = rb.render_table(points, [1, 1], [1, 3], None, rng=4, conditions=CLEAN, scheme="romanian-wood")
    got = backgammon.read(img)
    assert got["points"] == points and got["bar"] == [1, 1] and got["off"] == [1, 3]
    assert got["dice"] is None


def test_tilted_noisy_camera():
    for seed in (2, 3, 6):
        points, bar, off = rb.random_table_position(seed)
        img, _ = rb.render_table(points, bar, off, None, rng=seed, conditions=CAMERA, scheme="romanian-wood")
        got = backgammon.read(img)
        assert (got["points"], got["bar"], got["off"]) == (points, bar, off), seed


def test_no_board_in_view():
    with pytest.raises(BoardNotFound, match="no backgammon board"):
        backgammon.read(imaging.table_background("felt", (1280, 720), 3))


def test_half_a_board_in_view():
    img, truth = rb.render_table(rb.STARTING_POSITION, rng=2, conditions=CLEAN)
    centre_x = int(np.mean([c[0] for c in truth["corners_px"]]))
    with pytest.raises(BoardPartlyInView, match="only part"):
        backgammon.read(np.ascontiguousarray(img[:, :centre_x]))


def test_impossible_positions_are_refused_by_the_renderer():
    with pytest.raises(ValueError, match="15"):
        rb.render_table([[0, 0]] * 24)
    bad = [list(p) for p in rb.STARTING_POSITION]
    bad[5] = [5, 1]
    with pytest.raises(ValueError, match="point 6"):
        rb.render_table(bad)


def test_annotate_draws_counts():
    img, _ = rb.render_table(rb.STARTING_POSITION, rng=2, conditions=CLEAN)
    out = backgammon.annotate(img, backgammon.read(img))
    assert out.shape == img.shape and not np.array_equal(out, img)


def test_outline_with_a_lamps_glare_joined_to_the_board():
    # dev scene 700078: the glare beside the board merges with it, so the convex hull of the region
    # unlike the table is far off (about 270 px at one corner); the outline fitted side by side and
    # judged by the board's drawing is not
    img, truth = rb.random_table_scene(np.random.default_rng(700078))
    corners = backgammon.find_table_board(img)
    assert np.max(np.linalg.norm(corners - np.array(truth["corners_px"]), axis=1)) < 3.0
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])


@pytest.mark.parametrize("scheme", ["romanian-wood", "walnut"])
def test_fifteen_checker_stacks_counted_by_their_rims_comb(scheme):
    points = [[0, 0] for _ in range(24)]
    points[11] = [15, 0]      # white's 12, bottom left: 15 overlapping 8 mm apart
    points[18] = [0, 15]
    for conditions, rng in ((CLEAN, 1), (CAMERA, 6)):
        img, _ = rb.render_table(points, [0, 0], [0, 0], None, rng=rng, conditions=conditions, scheme=scheme)
        got = backgammon.read(img)
        assert got["points"] == points, (scheme, rng)
        assert got["position_id"] == backgammon.position_id(points, [0, 0], True)


def test_black_checkers_in_glare_keep_their_colour():
    # dev scene 700071: a lamp's glare makes a stack of five black checkers bright; their rims, lighter
    # than their faces, still say black
    img, truth = rb.random_table_scene(np.random.default_rng(700071))
    got = backgammon.read(img)
    assert got["points"] == truth["points"]


def test_no_position_id_when_a_side_does_not_have_fifteen():
    img, truth = rb.render_table(rb.STARTING_POSITION, rng=2, conditions=CLEAN, scheme="romanian-wood")
    # paint the top checker of white's 6-point (five there) over with the board's field colour
    # (flat camera: board mm -> pixels is a scale and a shift)
    x, base, d = rb.table_point_axis(6)
    board_origin = np.array(truth["corners_px"][0])
    k = (truth["corners_px"][1][0] - truth["corners_px"][0][0]) / rb.TABLE_W
    cx, cy = board_origin + k * np.array([x, base + d * (rb.CHECKER_R + 4 * 2 * rb.CHECKER_R)])
    field = tuple(int(v) for v in img[int(board_origin[1] + k * rb.TABLE_H / 2), int(board_origin[0] + k * 30)])
    painted = img.copy()
    cv2.circle(painted, (int(cx), int(cy)), int(k * (rb.CHECKER_R + 2)), field, -1)
    got = backgammon.read(painted)
    assert got["points"][5] == [4, 0]
    assert got["position_id"] is None and got["position_id_black_on_roll"] is None
    assert backgammon.read(img)["position_id"] == "4HPwATDgc/ABMA"


# ---- the faster forms give the values of the plain ones (they replaced them for speed) ----

def test_fast_colour_distance_gives_the_same_board_mask():
    from vision.board_outline import foreground_mask
    for seed in (700003, 700078):          # dev scenes: patterned cloth with glare; a glare joined to the board
        img, _ = rb.random_table_scene(np.random.default_rng(seed))
        cv2.setRNGSeed(0)
        plain, scale = foreground_mask(img, 640)
        cv2.setRNGSeed(0)
        fast, fast_scale = foreground_mask(img, 640, fast_distance=True)
        assert fast_scale == scale and np.array_equal(fast, plain) and plain.any()


def test_arc_response_is_board_outlines_ring_response():
    from vision.board_outline import ring_response
    img, _ = rb.render_table(rb.STARTING_POSITION, rng=2, conditions=CAMERA, scheme="walnut")
    view = _top_down_view(img)
    x, base, d = rb.table_point_axis(6)             # five white checkers in the starting position
    cx, cy = view.px(x, base)
    ts = np.arange(rb.CHECKER_R - 1.5, rb.TABLE_POINT_L - rb.CHECKER_R + 4.0, backgammon.STEP_MM)
    ys = cy + d * ts * backgammon.PX_PER_MM - view.board_y0
    columns = (cx - 1.5 - view.board_x0, cx + 1.5 - view.board_x0)
    mid = np.pi / 2 if d < 0 else 3 * np.pi / 2
    arc = (mid - backgammon.ARC_HALF_ANGLE, mid + backgammon.ARC_HALF_ANGLE)
    got = backgammon._arc_response(view.gx, view.gy, columns, ys, rb.CHECKER_R * backgammon.PX_PER_MM, arc)
    centres = np.r_[np.c_[np.full(len(ys), columns[0]), ys], np.c_[np.full(len(ys), columns[1]), ys]]
    want = ring_response(view.gx, view.gy, centres, rb.CHECKER_R * backgammon.PX_PER_MM, samples=24, arc=arc,
                         band=1.5, percentile=backgammon.ARC_PERCENTILE)
    assert got.shape == want.shape and (want > backgammon.ARC_MIN).sum() >= 5     # the checkers' rims
    assert np.allclose(got, want, rtol=0, atol=1e-4)              # float32 sums, float64 ones


def _overlapped_count_by_loops(response, ts):
    """vision.backgammon._overlapped_count as first written: shift by shift."""
    reach = int(round(1.0 / backgammon.STEP_MM))
    kernel = np.ones((1, 2 * reach + 1), np.uint8)
    row = response.astype(np.float32)[None, :]
    high, low = cv2.dilate(row, kernel)[0], cv2.erode(row, kernel)[0]
    best_n, best_score = 6, -np.inf
    for n in range(6, 16):
        spacing = (rb.TABLE_POINT_L - 2 * rb.CHECKER_R) / (n - 1)
        for shift in np.arange(-1.5, 3.1, backgammon.STEP_MM):
            centres = rb.CHECKER_R + shift + spacing * np.arange(n)
            score = float(np.mean(np.interp(centres[1:-1], ts, high))
                          - np.mean(np.interp(centres[:-1] + spacing / 2, ts, low)))
            if score > best_score:
                best_n, best_score = n, score
    return best_n


def test_comb_count_scored_at_once_equals_shift_by_shift():
    rng = np.random.default_rng(8)
    ts = np.arange(rb.CHECKER_R - 1.5, rb.TABLE_POINT_L - rb.CHECKER_R + 4.0, backgammon.STEP_MM)
    counts = []
    for _ in range(200):
        n = int(rng.integers(6, 16))
        spacing = (rb.TABLE_POINT_L - 2 * rb.CHECKER_R) / (n - 1)
        comb = 3.0 * (np.cos(2 * np.pi * (ts - rb.CHECKER_R - rng.uniform(-1, 2)) / spacing) > 0.3)
        response = comb + rng.normal(size=len(ts)) * rng.uniform(0.1, 2.0)
        got = backgammon._overlapped_count(response, ts)
        assert got == _overlapped_count_by_loops(response, ts)
        counts.append(got)
    assert len(set(counts)) == 10          # every count from 6 to 15 came up


def test_glare_fill_abstains_when_a_second_place_is_touched_by_the_glare(monkeypatch):
    # dev scene 700140: black reads two short; the top tray, empty, lies in a lamp's glare, but so does
    # a corner of point 23, whose stack of four read two: the fill must not put them in the tray.  (Its
    # farther two checkers are now counted where the glare hides them, _hidden_by_glare; without that
    # rule the scene reads as before.)
    img, truth = rb.random_table_scene(np.random.default_rng(700140))
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
    assert got["position_id"] == backgammon.position_id(truth["points"], truth["bar"], True)
    monkeypatch.setattr(backgammon, "_hidden_by_glare", lambda view, axis, ts, best, centres, count, most=15: count)
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)   # (the rim bands count them too since 2026-12-04)
    got = backgammon.read(img)
    assert got["off"] == truth["off"] == [0, 0]
    assert got["position_id"] is None and got["position_id_black_on_roll"] is None


def test_a_shoulder_of_a_checkers_rim_response_is_not_another_checker():
    # dev scene 700112: two black checkers touching on the bar; the first one's response has a weak bump
    # 7.5 mm further on (above the arc threshold, with no dip towards the checker's own peak): two, not three
    img, truth = rb.random_table_scene(np.random.default_rng(700112))
    got = backgammon.read(img)
    assert got["bar"] == truth["bar"] == [0, 2]
    assert (got["points"], got["off"]) == (truth["points"], truth["off"])


def test_outline_with_a_shadow_that_runs_out_of_the_picture():
    # dev scene 700288 (felt, shadow): the shadow is not the table's colour, joins the board's right
    # side and reaches the picture's edge, so the outline ran out of the picture (BoardPartlyInView);
    # cut to the board's proportions from its left side it is the board
    img, truth = rb.random_table_scene(np.random.default_rng(700288))
    corners = backgammon.find_table_board(img)
    assert np.max(np.linalg.norm(corners - np.array(truth["corners_px"]), axis=1)) < 3.0
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
    assert got["position_id"] is not None


def test_a_cut_off_outline_that_does_not_show_the_drawing_is_not_read(monkeypatch):
    # dev scene 700366 (shadow, checked cloth): from the first masks, an outline cut from one that runs
    # out of the picture lies about 210 px off and its drawing scores below CUT_OFF_LAYOUT_SCORE: the
    # board is reported partly in view, not read wrong (the checked-cloth mask made as the colour mask)
    img, _ = rb.random_table_scene(np.random.default_rng(700366))
    _checked_cloth_mask_as_the_first(monkeypatch)
    with pytest.raises(BoardPartlyInView, match="only part"):
        backgammon.read(img)
    # the mask that lets the table have the checked cloth's five colours outlines the board itself
    monkeypatch.undo()
    _read_entirely_right(700366)


def test_cut_off_variants_keep_one_side_and_the_boards_proportions():
    w, h = backgammon.TABLE_W, backgammon.TABLE_H
    wide = np.array([[0.0, 0.0], [2 * w, 0.0], [2 * w, h], [0.0, h]])
    keep_left, keep_right = backgammon._cut_off_variants(wide)
    assert np.allclose(keep_left, [[0, 0], [w, 0], [w, h], [0, h]])
    assert np.allclose(keep_right, [[w, 0], [2 * w, 0], [2 * w, h], [w, h]])
    tall = np.array([[0.0, 0.0], [w, 0.0], [w, 3 * h], [0.0, 3 * h]])
    keep_top, keep_bottom = backgammon._cut_off_variants(tall)
    assert np.allclose(keep_top, [[0, 0], [w, 0], [w, h], [0, h]])
    assert np.allclose(keep_bottom, [[0, 2 * h], [w, 2 * h], [w, 3 * h], [0, 3 * h]])
    assert backgammon._cut_off_variants(np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]])) == []


def test_glare_fill_abstains_when_a_stack_shows_a_faint_checker_beyond_its_last(monkeypatch):
    # dev scene 700585: the fifth red checker on point 2 shows only a faint rim (about 1.6, below
    # ARC_MIN); held to ARC_MIN (as before NEXT_ARC_MIN) it is missed, and the bottom tray, empty,
    # lies in a lamp's glare: the missing checker must not be put there (that gave a wrong Position
    # ID) — no Position ID instead.  (With NEXT_ARC_MIN it is counted: see the test below.)
    img, truth = rb.random_table_scene(np.random.default_rng(700585))
    monkeypatch.setattr(backgammon, "NEXT_ARC_MIN", backgammon.ARC_MIN)
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)   # (the rim bands count them too since 2026-12-04)
    got = backgammon.read(img)
    assert truth["points"][1] == [0, 5] and got["points"][1] == [0, 4]
    assert got["off"] == truth["off"] == [0, 0]
    assert got["position_id"] is None and got["position_id_black_on_roll"] is None


@pytest.mark.parametrize("seed", [701104, 701539])
def test_outline_without_the_trays_is_moved_out_to_the_boards_proportions(seed):
    # tuning scenes 701104, 701539 (patterned cloth, warm light): the trays' frame is lost in the
    # table's colours, so the best outline, refined, was the playing fields alone (about 0.9 of the
    # board's proportions) and every point was read one place off; the outlines tried again moved out
    # to the board's proportions and refined show the drawing better, and are the board
    img, truth = rb.random_table_scene(np.random.default_rng(seed))
    corners = backgammon.find_table_board(img)
    assert np.max(np.linalg.norm(corners - np.array(truth["corners_px"]), axis=1)) < 3.0
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
    assert got["position_id"] is not None


def test_glare_fill_abstains_when_a_point_read_empty_shows_a_faint_first_checker(monkeypatch):
    # tuning scene 701187 (daylight, white cloth): the lone white checker on point 17 shows a rim of
    # about 2.4; with the first checker held to ARC_MIN (as before FIRST_ARC_MIN) it is missed, and
    # the white checkers of point 15's stack, blown out by themselves, drew the glare fill (a wrong
    # Position ID) — the faint first rim on point 17 makes the fill abstain: no Position ID
    img, truth = rb.random_table_scene(np.random.default_rng(701187))
    monkeypatch.setattr(backgammon, "FIRST_ARC_MIN", backgammon.ARC_MIN)
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)   # (the rim bands count them too since 2026-12-04)
    got = backgammon.read(img)
    assert truth["points"][16] == [1, 0] and got["points"][16] == [0, 0]
    assert truth["points"][14] == [12, 0] and got["points"][14] == [12, 0]
    assert got["position_id"] is None


@pytest.mark.parametrize("seed", [701187, 701248, 701475, 701561])
def test_a_first_checker_whose_rim_meets_the_points_base_is_counted(seed):
    # tuning scenes (daylight or shadow, white checkers on light points): the first checker's near arc
    # meets the base's edge and responds 2.3-2.5, below ARC_MIN; FIRST_ARC_MIN (2.0) counts it
    img, truth, got = _read_entirely_right(seed)


def test_glare_fill_abstains_when_the_seen_checkers_are_not_spaced_as_the_filled_stack(monkeypatch):
    # tuning scene 701391 (glare, patterned cloth): of point 2's nine white checkers (14 mm apart) three
    # are seen, and point 4's three are lost in the glare; the nine missing were all put on point 2,
    # whose twelve would lie 10.2 mm apart — the three seen are up to 4.8 mm off that: no Position ID.
    # (Point 2's nine are now counted where the glare hides them, _hidden_by_glare, and by the comb of
    # the overlapping checkers seen, _overlapping_in_part; point 4's three are still missed: no Position
    # ID either way; since 2026-12-04 point 4's three are counted by the last one's far edge, _far_arc_count,
    # (and by half of it, _blown_stack_count) and the board is read entirely right; the faint rims between
    # point 2's seen ones count its nine as well, _overlapping_in_glare.  The guard is checked with those
    # three missed again.)
    img, truth = rb.random_table_scene(np.random.default_rng(701391))
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
    monkeypatch.setattr(backgammon, "_far_arc_count", lambda *args: 0)
    monkeypatch.setattr(backgammon, "_blown_stack_count", lambda view, axis, ts, best: 0)
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)   # (the rim bands count them too since 2026-12-04)
    got = backgammon.read(img)
    assert truth["points"][1] == got["points"][1] == [9, 0]
    assert truth["points"][3] == [3, 0] and got["points"][3] == [0, 0]
    assert got["position_id"] is None
    monkeypatch.setattr(backgammon, "_hidden_by_glare", lambda view, axis, ts, best, centres, count, most=15: count)
    monkeypatch.setattr(backgammon, "_overlapping_in_part", lambda ts, best, peaks, count: count)
    monkeypatch.setattr(backgammon, "_overlapping_in_glare", lambda view, axis, ts, best, count: count)
    got = backgammon.read(img)
    assert truth["points"][1] == [9, 0] and got["points"][1] == [3, 0]
    assert got["position_id"] is None
    view_axis = rb.table_point_axis(2)
    view = _top_down_view(img)
    assert backgammon._fits_stack_of(view, view_axis, (9,))
    assert not backgammon._fits_stack_of(view, view_axis, (12,))


@pytest.mark.parametrize("seed", [701021, 701189, 700585])
def test_checkers_touching_a_stack_in_glare_count_from_a_fainter_rim(seed):
    # tuning scenes 701021, 701189 (glare): of five touching black checkers the two farthest from the
    # base show rims of only 1.6-2.3 (a lamp's glare; black is not blown out, so the glare fill cannot
    # place them); each one checker beyond the last counted one with a rim of NEXT_ARC_MIN counts
    img, truth = rb.random_table_scene(np.random.default_rng(seed))
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])


def test_touching_more_needs_touching_checkers_from_the_base():
    ts = np.arange(12.5, 130.0, 0.75)
    first = backgammon.CHECKER_R + backgammon.ARC_CENTRE_BIAS
    best = np.zeros_like(ts)
    for k, height in enumerate([3.0, 3.0, 1.6, 1.6, 1.0]):
        best[np.abs(ts - (first + 28.0 * k)) < 1.0] = height
    centres = np.array([ts[np.abs(ts - first) < 1.0][0], ts[np.abs(ts - first - 28.0) < 1.0][0]])
    assert backgammon._touching_more(ts, best, centres) == 2          # 1.6 counts, 1.0 does not
    assert backgammon._touching_more(ts, best, centres + 5.0) == 0    # not from the base
    assert backgammon._touching_more(ts, best, np.array([centres[0], centres[0] + 14.0])) == 0   # overlapping


def test_first_checkers_lower_bar_needs_a_broad_response():
    ts = np.arange(12.5, 130.0, 0.75)
    first = backgammon.CHECKER_R + backgammon.ARC_CENTRE_BIAS
    broad = np.where(np.abs(ts - first) <= 1.6, 2.3, 0.0)     # a rim's peak, about 3 mm wide
    spike = np.where(np.abs(ts - first) <= 0.3, 2.3, 0.0)     # one sample: a line crossing the arc
    assert len(backgammon._checker_peaks(ts, broad, backgammon.FIRST_ARC_MIN)) == 1
    assert backgammon._checker_peaks(ts, spike, backgammon.FIRST_ARC_MIN) == []
    assert backgammon._checker_peaks(ts, broad) == []          # ARC_MIN everywhere
    later = np.where(np.abs(ts - first - 28.0) <= 1.6, 2.3, 0.0)
    assert backgammon._checker_peaks(ts, later, backgammon.FIRST_ARC_MIN) == []   # not where the first lies


@pytest.mark.parametrize("seed, point, stack", [(754169, 24, [11, 0]), (754202, 5, [9, 0]), (754058, 18, [4, 0]),
                                                (754200, 9, [12, 0])])
def test_checkers_hidden_by_glare_are_counted_from_where_the_seen_ones_lie(seed, point, stack):
    # tuning scenes (glare): 754169, eleven white checkers whose five farthest from the base show (11.2 mm
    # apart: an overlapping stack, so it fills the point) and the six nearest are blown out; 754202, nine
    # whose farthest four are blown out or faint; 754058, four touching whose third shows only a faint rim;
    # 754200, twelve whose last rim is faint.  The seen checkers lie at places of only one stack from the
    # base whose other places are blown out or show a faint rim: that stack is counted
    img, truth, got = _read_entirely_right(seed)
    assert truth["points"][point - 1] == stack


def test_hidden_checkers_need_a_stack_from_the_base_whose_other_places_may_hide_them():
    assert np.allclose(backgammon._stack_places(3), [14.0, 42.0, 70.0])
    assert np.allclose(backgammon._stack_places(9), 14.0 + 14.0 * np.arange(9))
    seen = np.array([80.0, 92.0, 104.0, 114.0, 126.0])          # 754169: the far end of a stack of eleven
    assert backgammon._on_places(seen, 11)
    assert not backgammon._on_places(seen, 10)                 # 12.4 mm apart: up to 3.8 mm off (> a quarter)
    assert not backgammon._on_places(seen, 15)                 # every mm is within 4 mm of a place of fifteen


@pytest.mark.parametrize("seed", [754203, 754247])
def test_colours_under_glare_by_rim_polarity_and_the_clear_stacks_brightness(seed):
    # tuning scenes (glare): 754203, six white checkers in the glare whose rim polarity is -0.97 were read
    # black by their brightness (the glare lifts their frame too); in the glare the polarity's sign tells
    # (RIM_POLARITY_GLARE).  754247 (walnut), a black checker on the bar and seven black borne off, both of
    # unclear polarity, fell above the widest brightness gap (between two black stacks); the cut now lies
    # between the darkest white and the brightest black stack outside the glare whose polarity is clear
    img, truth, got = _read_entirely_right(seed)


def test_brightness_cut_lies_between_the_stacks_whose_polarity_is_clear():
    # (count, brightness over the frame, polarity): clear blacks at 0.4 and 1.4, clear whites at 3.4 and
    # 5.8, two stacks of unclear polarity at 1.1 and 1.7 (black, as in 754247)
    stacks = [(3, 0.4, 2.0), (2, 1.4, 1.1), (1, 1.1, 0.5), (1, 1.7, 0.2), (4, 3.4, -2.8), (5, 5.8, -3.0)]
    clear = [False] * 6
    # the widest gap over all (0.4 -> 1.1) would make both unclear stacks white; between the brightest
    # clear black (1.4) and the darkest clear white (3.4) the widest gap is 1.7 -> 3.4
    assert backgammon._split_colours(stacks, 1.0, clear) == ["black"] * 4 + ["white"] * 2
    # a stack in the glare counts by the sign of its polarity from RIM_POLARITY_GLARE on ...
    glared = backgammon._split_colours([(1, 1.7, -0.4)] + stacks, 1.0, [True] + clear)
    assert glared == ["white"] + ["black"] * 4 + ["white"] * 2
    # ... and does not bound the cut: a glared white darker than the unclear stacks leaves them black
    assert backgammon._split_colours([(2, 1.0, -1.5)] + stacks, 1.0, [True] + clear) == \
        ["white"] + ["black"] * 4 + ["white"] * 2


def test_glare_fill_puts_no_checker_beyond_the_last_one_seen_where_nothing_hides_it():
    # tuning scene 754702 (glare): white reads one short (a lone checker on point 12, blown out); point 10's
    # three checkers, of which the third shows and the nearer two are blown out or faint, was the only white
    # stack in the glare and got the fourth (a wrong Position ID); a fourth checker there would lie where
    # the board is clear and shows no rim: no Position ID
    img, truth = rb.random_table_scene(np.random.default_rng(754702))
    got = backgammon.read(img)
    assert truth["points"][9] == got["points"][9] == [3, 0]
    assert truth["points"][11] == [1, 0] and got["points"][11] == [0, 0]
    assert got["position_id"] is None and got["position_id_black_on_roll"] is None


@pytest.mark.parametrize("seed", [754710, 754219])
def test_glare_fill_abstains_when_a_point_read_empty_lies_in_the_glare(seed):
    # tuning scene 754710 (glare): nine white checkers on point 18 are blown out entirely (read empty), and
    # point 16's six (two seen, four blown out or faint) were the one white stack in the glare: the nine were
    # put there (a wrong Position ID).  An empty point whose first place is blown out and whose sides vanish
    # there may hold them: no Position ID.  754219 (daylight): the empty light points are blown out but keep
    # their sides against their darker neighbours; the ten missing of point 16's fifteen are put there
    img, truth = rb.random_table_scene(np.random.default_rng(seed))
    got = backgammon.read(img)
    if seed == 754710:
        assert truth["points"][15] == got["points"][15] == [6, 0]
        # (point 18's fifth place shows a faint rim beyond blown-out ones: counted to it, _top_beyond_glare;
        # a stack of five and one of nine both have a checker there, and the smaller is taken)
        assert truth["points"][17] == [9, 0] and got["points"][17] == [5, 0]
        assert got["position_id"] is None
    else:
        assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
        assert got["position_id"] == backgammon.position_id(truth["points"], truth["bar"], True)


@pytest.mark.parametrize("seed, point, stack, seen", [(870019, 17, [3, 0], 1), (870733, 4, [5, 0], 1)])
def test_the_top_of_a_touching_stack_beyond_blown_out_places_is_counted(seed, point, stack, seen, monkeypatch):
    # tuning scenes 870019, 870733 (glare): white checkers touching from the base whose farther ones lie in a
    # lamp's glare; the first is counted, the next places are blown out, and the farthest checker (the third,
    # the fifth) keeps a faint rim (1.3, 1.9): the stack runs to it.  (Since 2026-12-04 the far edge of
    # 870019's third checker counts it too, _far_arc_count: switched off with this rule below.)
    img, truth, got = _read_entirely_right(seed)
    assert truth["points"][point - 1] == stack
    monkeypatch.setattr(backgammon, "_top_beyond_glare", lambda view, axis, ts, best, centres, count: count)
    monkeypatch.setattr(backgammon, "_far_arc_count", lambda *args: 0)
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)   # (the rim bands count them too since 2026-12-04)
    got = backgammon.read(img)
    assert got["points"][point - 1] == [seen, 0]
    assert got["position_id"] is None


@pytest.mark.parametrize("seed, point, stack, other", [(870405, 6, [7, 0], 5), (870728, 11, [7, 0], 8)])
def test_glare_fill_passes_over_a_glared_stack_that_cannot_hold_more(seed, point, stack, other):
    # tuning scenes 870405, 870728 (glare): white reads short (two, six) and the glare lies on the stack
    # that hides them, but also touches another white stack (point 5's one, point 8's one) more than a sixth
    # as much; there a taller stack would lie where the board is clear and shows no rim, so it cannot hold
    # the missing checkers: they are put on the one stack that can
    img, truth, got = _read_entirely_right(seed)
    assert truth["points"][point - 1] == stack
    view = _top_down_view(img)
    shares = [backgammon._glare_share(view, rb.table_point_axis(p), rb.TABLE_POINT_L, rb.CHECKER_R)
              for p in (point, other)]
    assert shares[1] * backgammon.GLARE_DOMINANCE > shares[0]          # the other stack is touched by the glare
    n = truth["points"][other - 1][0]
    assert n and not backgammon._fits_stack_of(view, rb.table_point_axis(other), range(n + 1, 16))


@pytest.mark.parametrize("seed, point, stack", [(870238, 11, [0, 7]), (870995, 12, [0, 1])])
def test_a_stack_between_the_clear_blacks_and_whites_by_the_sign_of_its_polarity(seed, point, stack):
    # tuning scenes (glare): 870238, seven black checkers the edge of a glare lifts to 2.3 over their frame
    # (clear blacks 0.6, clear whites 5.3), polarity 0.996; 870995, a lone black checker at 0.46 (clear
    # blacks 0.13, clear whites 1.18), polarity 0.96.  Both fell above the widest brightness gap (white);
    # their brightness tells neither colour, the sign of their rims' polarity does (RIM_POLARITY_BETWEEN)
    img, truth, got = _read_entirely_right(seed)
    assert truth["points"][point - 1] == stack


def test_brightness_between_the_clear_stacks_leaves_the_colour_to_the_polaritys_sign():
    # (count, brightness over the frame, polarity): clear blacks at 0.4 and 0.6, clear whites at 5.3 and 5.8;
    # an unclear stack at 2.3 falls above the widest gap (0.6 -> 2.3) but its polarity is black's
    stacks = [(3, 0.4, 2.0), (2, 0.6, 3.0), (7, 2.3, 0.7), (4, 5.3, -2.8), (5, 5.8, -3.0)]
    clear = [False] * 5
    assert backgammon._split_colours(stacks, 1.0, clear) == ["black"] * 3 + ["white"] * 2
    # below RIM_POLARITY_BETWEEN the brightness cut still decides (outside the glare)
    weak = [(7, 2.3, 0.4) if s[0] == 7 else s for s in stacks]
    assert backgammon._split_colours(weak, 1.0, clear) == ["black", "black", "white", "white", "white"]
    # outside the clear stacks' range (darker than the clear blacks) the cut decides as before
    dark = [(7, 0.3, -0.5) if s[0] == 7 else s for s in stacks]
    assert backgammon._split_colours(dark, 1.0, clear) == ["black"] * 3 + ["white"] * 2


@pytest.mark.parametrize("seed, which, off", [(870136, "bottom", [6, 0]), (870542, "top", [0, 4]),
                                              (870595, "bottom", [4, 3])])
def test_borne_off_checkers_colour_by_the_polarity_of_the_lines_between_them(seed, which, off):
    # tuning scenes (glare): borne-off checkers whose tray a lamp's glare lifts (or a cloth's colours
    # darken) were coloured by their brightness alone, the wrong way; the lines between them (their rims
    # seen edge on) are darker than the faces for white checkers, lighter for black ones
    img, truth, got = _read_entirely_right(seed)
    assert truth["off"] == off
    view = _top_down_view(img)
    n, _, polarity = backgammon._tray(view, which)     # (870136: three seen, the glare fill adds three)
    assert n >= 2
    if which == "bottom":       # white's, in the renderer
        assert polarity <= -backgammon.RIM_POLARITY_MIN
    else:
        assert polarity >= backgammon.RIM_POLARITY_MIN


def test_a_lone_borne_off_checker_has_no_rim_polarity():
    # tuning scene 870264 (daylight): one black checker borne off; with no line between two checkers its
    # profile's ends (the tray's floor) gave a polarity of -0.76, read white with the between-clear rule:
    # a lone checker's colour is left to its brightness
    img, truth = rb.random_table_scene(np.random.default_rng(870264))
    got = backgammon.read(img)
    assert got["off"] == truth["off"] == [0, 1]
    assert (got["points"], got["bar"]) == (truth["points"], truth["bar"])
    view = _top_down_view(img)
    assert backgammon._tray(view, "top")[::2] == (1, 0.0)


def test_glare_fill_abstains_when_the_bar_lies_in_the_glare():
    # scene 872256 (glare, white cloth; it was in the held-out set of 2026-12-01, where the old fill gave the
    # only wrong Position ID): white's two checkers on the bar are blown out and missed, and the two missing
    # were put on point 20's thirteen, the one white stack in the glare.  A bar half in the glare may hold
    # them as well: no Position ID
    img, truth = rb.random_table_scene(np.random.default_rng(872256))
    got = backgammon.read(img)
    assert truth["bar"] == [2, 0] and got["bar"] == [0, 0]
    assert truth["points"][19] == got["points"][19] == [13, 0]
    assert got["position_id"] is None and got["position_id_black_on_roll"] is None


@pytest.mark.parametrize("seed, bar", [(874206, [1, 0]), (874686, [0, 1]), (874561, [2, 0]), (874751, [2, 1])])
def test_bar_checkers_are_counted_as_a_stack_from_the_frame(seed, bar):
    # tuning scenes (glare): checkers on a bar half lie from the frame as on a point, touching, and a lamp's
    # glare hides them the same way.  874206, 874686: a lone checker whose near arc meets the frame's edge
    # shows 2.4, 2.3 (FIRST_ARC_MIN; an empty bar half shows at most 0.73 there on 400 tuning scenes);
    # 874561: the second checker, touching the first, shows 1.9 (NEXT_ARC_MIN; at most 0.83 beyond a lone
    # one); 874751: the first of two blown out, the second seen at its place (_hidden_by_glare, touching only)
    img, truth, got = _read_entirely_right(seed)
    assert truth["bar"] == bar


@pytest.mark.parametrize("seed, point, stack", [(874368, 13, [0, 12]), (874497, 6, [0, 12]), (874618, 3, [0, 7]),
                                                (874937, 5, [15, 0])])
def test_an_overlapping_stack_seen_in_part_is_counted_by_its_comb(seed, point, stack):
    # tuning scenes (glare): the checkers seen lie closer than touching, so the stack holds more than five and
    # fills the point evenly, but the farther rims are too faint to count (874368: six of twelve seen, the
    # others 0.7-1.3; 874497: ten of twelve, whose peaks lie 2 mm nearer the base than a touching checker's,
    # off the places _hidden_by_glare wants; 874618: two of seven, 19.5 mm apart; 874937: five of fifteen,
    # the rest blown out or faint): the comb over the whole point counts them
    img, truth, got = _read_entirely_right(seed)
    assert truth["points"][point - 1] == stack


def test_overlapping_in_part_needs_the_seen_checkers_on_consecutive_places_of_the_comb():
    ts = np.arange(rb.CHECKER_R - 1.5, rb.TABLE_POINT_L - rb.CHECKER_R + 4.0, backgammon.STEP_MM)
    spacing = (rb.TABLE_POINT_L - 2 * rb.CHECKER_R) / 11                   # twelve, evenly filling the point
    places = rb.CHECKER_R + spacing * np.arange(12)
    best = np.zeros_like(ts)
    for k, place in enumerate(places):
        best[np.abs(ts - place) <= 1.5] = 4.0 if k < 6 else 1.2          # the far six faint
    seen = places[:6]
    assert backgammon._overlapping_in_part(ts, best, seen, 6) == 12
    # a checker seen 5 mm off the comb's places leaves the count as read
    assert backgammon._overlapping_in_part(ts, best, np.r_[seen[:5], seen[5] + 5.0], 6) == 6
    # so does a place between two checkers seen where no rim shows
    gap = best.copy()
    gap[np.abs(ts - places[2]) <= 3.5] = 0.0
    assert backgammon._overlapping_in_part(ts, gap, seen[[0, 1, 3, 4, 5]], 5) == 5
    # (with a faint rim there, FAINT_ARC, the comb's count stands)
    gap[np.abs(ts - places[2]) <= 1.5] = backgammon.FAINT_ARC
    assert backgammon._overlapping_in_part(ts, gap, seen[[0, 1, 3, 4, 5]], 5) == 12
    # touching checkers (28 mm apart, one pair 24.75 as in 874029) lie at every other place of a comb of nine;
    # nothing shows at the places between them: five, not nine
    touching = np.array([15.5, 43.25, 72.5, 97.25, 126.5])
    best = np.zeros_like(ts)
    for peak in touching:
        best[np.abs(ts - peak) <= 1.5] = 5.0
    assert backgammon._overlapping_in_part(ts, best, touching, 5) == 5


def test_a_touching_stack_is_not_read_as_every_other_checker_of_a_comb():
    # tuning scene 874029 (shadow): point 3's five touching white checkers, two of whose rims peak 24.75 mm
    # apart (closer than touching); the comb of nine has a place at each, but nothing shows between them
    img, truth, got = _read_entirely_right(874029)
    assert truth["points"][2] == [5, 0]


@pytest.mark.parametrize("seed, which, missing", [(874300, "bottom", 4), (874375, "top", 2)])
def test_glare_on_a_tray_is_measured_where_the_missing_checkers_would_stand(seed, which, missing):
    # tuning scenes (glare): borne-off checkers stand from the tray's outer end.  874300: white's four are
    # blown out (the tray read empty) and the glare covers only 9.4 % of the whole tray, below GLARE_SHARE,
    # but where the four would stand it is blown out: they are put there.  874375: the glare touches black's
    # empty tray (13 % of it) far from its outer end, where no borne-off checker would stand, and no longer
    # stops point 22's two missing white checkers from being put on its stack in the glare
    img, truth, got = _read_entirely_right(seed)
    view = _top_down_view(img)
    tray_length = rb.TABLE_H / 2 - rb.TABLE_FRAME - rb.TABLE_TRAY_SPLIT / 2
    whole = backgammon._glare_share(view, rb.table_tray_axis(which), tray_length, rb.CHECKER_R)
    near = backgammon._glare_share(view, rb.table_tray_axis(which), backgammon.OFF_START + missing * rb.OFF_THICKNESS,
                                   backgammon.OFF_HALF_WIDTH, backgammon.OFF_START)
    if seed == 874300:          # 9.4 % of the whole tray, 59 % where the four would stand
        assert whole < backgammon.GLARE_SHARE <= near
    else:                       # 13 % of the whole tray, none where the two would stand
        assert near < whole and near * backgammon.GLARE_DOMINANCE < backgammon._glare_share(
            view, rb.table_point_axis(22), rb.TABLE_POINT_L, rb.CHECKER_R)


@pytest.mark.parametrize("seed", [874247, 874759])
def test_a_side_over_fifteen_gives_its_one_unclear_stack_of_the_excess_to_the_other(seed):
    # tuning scenes (glare): 874247, point 5's four white checkers, blown out, polarity -0.10, read black by
    # their brightness (black 19, white 11); 874759, white's checker on the bar, blown out, polarity -0.39
    # (its bar half just under GLARE_SHARE), read black (black 16, white 14): the one stack of the excess
    # whose rims do not tell its colour, and lean to white, is white
    img, truth, got = _read_entirely_right(seed)


def test_balance_colours_needs_one_unclear_stack_leaning_the_other_way():
    # (count, brightness over the frame, polarity); black reads 19, white 11
    stacks = [(4, 1.6, -0.1), (15, 0.3, 2.0), (11, 3.0, -2.0)]
    colours = ["black", "black", "white"]
    assert backgammon._balance_colours(stacks, colours) == ["white", "black", "white"]
    assert backgammon._balance_colours([(4, 1.6, 0.1)] + stacks[1:], colours) == colours      # leans black
    assert backgammon._balance_colours([(4, 1.6, -1.2)] + stacks[1:], colours) == colours     # its rims tell
    two = [(4, 1.6, -0.1), (11, 0.3, 2.0), (4, 1.5, -0.2), (11, 3.0, -2.0)]                     # two such stacks
    read_as = ["black", "black", "black", "white"]
    assert backgammon._balance_colours(two, read_as) == read_as
    assert backgammon._balance_colours([(3, 1.6, -0.1)] + stacks[1:], colours) == colours     # not the excess


def _outline_and_reading_right(seed: int, within_px: float = 3.0) -> None:
    img, truth = rb.random_table_scene(np.random.default_rng(seed))
    corners = backgammon.find_table_board(img)
    assert np.max(np.linalg.norm(corners - np.array(truth["corners_px"]), axis=1)) < within_px
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])


def test_an_outline_still_off_the_proportions_after_the_retry_is_moved_to_them_in_turn():
    # tuning scene 874827 (felt, shadow): the colour outline took in a shadow on the left (too wide);
    # tried again, the sharp-edge outline won but had lost the trays (too narrow): moved out to the
    # board's proportions in its turn it is the board (before: the trays read as points, 5 points wrong)
    _outline_and_reading_right(874827)


def test_an_outline_a_little_off_the_proportions_with_a_side_on_the_frames_inner_edge_is_tried_nearer(
        monkeypatch):
    # dev scene 895 961 (checked cloth, warm light): after the retry the outline's left side lay on the
    # frame's inner edge at the top and its outer edge at the bottom, 0.954 of the proportions (inside the
    # 5 % a camera's tilt allows) and the drawing shown poorly (70): points 6, 11 and 15 and the bar read
    # empty.  Tried once more, an outline nearer the proportions that shows the drawing better is the board
    _outline_and_reading_right(895961)
    monkeypatch.setattr(backgammon, "NEAR_ASPECT", backgammon.ASPECT_TOLERANCE)
    img, truth = rb.random_table_scene(np.random.default_rng(895961))
    assert backgammon.read(img)["points"] != truth["points"]


def test_a_true_outline_a_little_off_the_proportions_is_not_traded_for_one_further_off(monkeypatch):
    # glare dev scene 889 750: the board's own outline is 1.041 of the proportions (the camera's tilt) and
    # shows the drawing at 54; moved out to them an outline missing the trays' side scores 55 at 0.889.
    # The second look takes only outlines nearer the proportions: the board stays.  A plain 4 % tolerance
    # (the first retry, which takes the best score wherever it lies) loses it
    img, truth = _glare_scene(889750)

    def off_px():
        return np.max(np.linalg.norm(backgammon.find_table_board(img) - np.array(truth["corners_px"]), axis=1))

    assert off_px() < 3.0
    monkeypatch.setattr(backgammon, "ASPECT_TOLERANCE", 0.04)
    assert off_px() > 20.0


def test_a_shadow_joined_to_a_side_inside_the_picture_is_cut_to_the_proportions():
    # tuning scene 874731 (felt, shadow): a shadow joined the board's right side without reaching the
    # picture's edge (ratio 1.31); cut to the board's proportions from the left it is the board
    _outline_and_reading_right(874731, within_px=4.0)


def test_the_playing_field_inside_a_frame_lost_in_the_cloth_is_grown_by_the_frame():
    # tuning scene 874043 (checked cloth, warm light): the dark frame went with the dark checks, and the
    # outline found was the playing field inside it, in the board's proportions (layout score 34);
    # grown by the frame's width it shows the drawing at 160
    _outline_and_reading_right(874043)


def test_grown_by_frame_maps_the_playing_field_onto_the_boards_outline():
    _, truth = rb.random_table_scene(np.random.default_rng(5), {**CAMERA, "tilt": 15.0})
    f, w, h = rb.TABLE_FRAME, rb.TABLE_W, rb.TABLE_H
    H = backgammon.board_homography(np.array(truth["corners_px"]), w, h)
    field = backgammon.mm_to_px(H, [(f, f), (w - f, f), (w - f, h - f), (f, h - f)])
    assert np.allclose(backgammon._grown_by_frame(field), truth["corners_px"], atol=1e-6)


@pytest.mark.parametrize("seed", [874335, 874806])
def test_a_side_refined_onto_the_cloths_pattern_is_put_back(seed):
    # tuning scenes 874335, 874806 (dotted and checked cloths): refined, one side moved some 20 px out
    # onto the pattern beside a frame whose inner edge is faint (the other sides found the rim and the
    # score rose); that side put back where it started shows the drawing better, and is the board
    _outline_and_reading_right(seed, within_px=4.0)


def test_an_outline_that_ran_out_of_the_picture_is_not_read(monkeypatch):
    # tuning scene 874033 (felt, shadow over the board's left half, the same grey as its dark blue
    # frame), its edges seen in grey only (as before the colour edges): no outline shows the drawing
    # well, and the best of them, moved to the proportions, ran out of the picture (a white 9 and five
    # more points read wrong before): not a reading but an error — "partly in view", since the
    # colour mask's outline (the board and the shadow) runs out of the picture.  The checked-cloth
    # mask is made as the colour mask (three table colours of 20 %): with five it outlines the board
    grey_only = edge_enclosed_mask
    monkeypatch.setattr(backgammon, "edge_enclosed_mask", lambda image, scale, colour=False: grey_only(image, scale))
    _checked_cloth_mask_as_the_first(monkeypatch)
    img, _ = rb.random_table_scene(np.random.default_rng(874033))
    with pytest.raises(BoardPartlyInView, match="only part"):
        backgammon.find_table_board(img)


@pytest.mark.parametrize("seed", [874033, 874007])
def test_a_board_as_grey_as_the_shadow_on_it_is_outlined_by_its_colour_edges(seed):
    # tuning scenes 874033, 874007 (felt, a large shadow joined to the dark blue board, about the same
    # grey as its frame): the colour and grey-edge masks ran out of the picture or missed the frame
    # (874033: no board, 874007: "partly in view"); the edges of the colour channels enclose the board
    _outline_and_reading_right(seed)


def test_colour_edges_enclose_a_board_as_grey_as_the_shadow_beside_it():
    # a dark blue board on a dark green shadow of the same grey: Canny on grey sees no edge, on the
    # colour channels it does
    img = np.zeros((360, 640, 3), np.uint8)
    img[:] = (40, 90, 40)                                   # dark green (B, G, R)
    img[100:260, 200:440] = (180, 72, 20)                   # blue
    grey = int(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[10, 10])
    assert abs(int(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[180, 320]) - grey) <= 2
    assert edge_enclosed_mask(img, 1.0)[180, 320] == 0
    assert edge_enclosed_mask(img, 1.0, colour=True)[180, 320] == 255


def test_a_white_stack_whose_rims_a_glare_washes_out_is_counted_by_its_sides():
    # tuning scene 878326 (glare over the board's lower left quarter, white checkers on white points):
    # the rims between the checkers of point 11 (three) and point 9 (seven) are washed out, so point 11
    # read empty and point 9 five (its top checker only); the glare fill then put the missing five on
    # point 9, a wrong Position ID.  Each checker's sides still show against the blue field, where it is
    # wider than its point: they tell both stacks
    img, truth, got = _read_entirely_right(878326)
    assert truth["points"][8] == [7, 0] and truth["points"][10] == [3, 0]


def test_side_count_needs_a_side_peak_at_each_place_beyond_the_first(monkeypatch):
    # the weaker of the two side arcs along a point, made up: peaks where a stack's places are
    view = _top_down_view(rb.random_table_scene(np.random.default_rng(878326))[0])
    axis = rb.table_point_axis(10)
    ts = np.arange(backgammon.CHECKER_R - 1.5, backgammon.TABLE_POINT_L - backgammon.CHECKER_R + 4.0,
                   backgammon.STEP_MM)

    def sides(*places):
        monkeypatch.setattr(backgammon, "_arc_response", lambda gx, gy, columns, centres, radius, arc: sum(
            (np.where(np.abs(ts - p) <= 1.6, 3.0 - np.abs(ts - p), 0.0) for p in places), np.full(len(ts), 0.2)))
        return backgammon._side_count(view, axis, ts)

    assert sides(42.0, 70.0) == 3
    assert sides(*backgammon._stack_places(7)[1:]) == 7
    assert sides(42.0, 70.0, 98.0, 126.0) == 5
    assert sides() == 0                                   # no checker's sides: no count
    assert sides(42.0, 84.0) == 0                         # 84 mm is no place of a stack holding one at 42
    assert sides(14.0) == 0                               # the first place is not looked at (the triangle's sides)
    # every other place of a stack of fifteen lies between those of eight: its places need a peak each
    assert sides(*backgammon._stack_places(8)[1:]) == 8


def test_a_stack_seen_in_part_is_fitted_to_the_combs_places_at_its_own_shift():
    # tuning scene 878316 (glare, walnut board): twelve black checkers on point 12, the farthest two
    # faint; the ten seen lie 10 mm apart, so the stack fills the point.  The comb's best-scored shift
    # put the farthest seen 2.7 mm off its place (more than a quarter of the spacing, 2.55) and the
    # point read ten; at the shift that fits the seen checkers best all lie within 2.4 mm
    img, truth, got = _read_entirely_right(878316)
    assert truth["points"][11] == [0, 12]


def test_a_checked_cloths_rarer_colours_are_table_when_the_table_may_have_more_colours():
    # a light cloth with blue (upright) and yellow (across) stripes 14 px wide every 40 px, dark where
    # they cross: on the picture's border the yellow is rarer than the 20 % a table colour needs by
    # default, so it is "not table" and can join a board in the mask; with five colours of 8 % the
    # whole cloth is table
    img = np.full((360, 640, 3), (225, 225, 225), np.uint8)
    for x in range(13, 640, 40):
        img[:, x:x + 14] = (190, 90, 30)
    for y in range(13, 360, 40):
        img[y:y + 14] = (40, 190, 230)
    for x in range(13, 640, 40):
        for y in range(13, 360, 40):
            img[y:y + 14, x:x + 14] = (60, 50, 50)
    yellow = (13 + 7 + 120, 13 + 27 + 240)
    default, _ = foreground_mask(img, 640, fast_distance=True)
    more, _ = foreground_mask(img, 640, fast_distance=True, table_colours=backgammon.PLAID_COLOURS,
                              table_share=backgammon.PLAID_SHARE)
    assert default[yellow] == 255
    assert not more.any()


def test_a_board_on_a_checked_cloth_is_outlined_with_the_cloths_every_colour():
    # tuning scene 874316 (daylight, a blue and white checked cloth, 17° tilt): the colour mask joined
    # the cloth's rarer colours to the board and every outline ran out of the picture ("only part of
    # the board is in view"); with the table's five colours the board stands alone
    _read_entirely_right(874316)


@pytest.mark.parametrize("seed", [885335, 880205])
def test_a_board_on_a_cloth_striped_in_its_frames_colour_is_found_blurred(seed):
    # dev scene 885335 (warm light, a cloth of magenta and cream stripes; the frame and bar dark magenta,
    # the wood light): the colour mask took the whole board for table and every other outline ran out of
    # the picture along the stripes ("only part of the board is in view", the board wholly in view).
    # Blurred over the stripes, the playing fields and trays stand out; their hull grown by the frame is
    # the board.  880205 (diagonal stripes of the board's colours) was left so by the checked-cloth mask
    _read_entirely_right(seed)


def test_borne_off_checkers_blown_out_by_a_glare_are_counted_to_the_step_beyond():
    # dev scene 885418 (glare on the bottom tray): seven white checkers on edge blown out to 252-254, no
    # line between them left; the run went no further than the tray's outer end (one step: no checker)
    # and the glare fill did not add them (points read empty lie in the glare too).  The run crosses
    # the blown-out stretch to the strong step at its end, 46.5 mm: seven checkers
    img, truth, got = _read_entirely_right(885418)
    assert truth["off"] == [7, 0]


def test_a_light_checkers_far_edge_on_a_dark_bar_is_not_a_second_checker():
    # dev scene 885269 (shadow): one white checker on the black bar; its far edge against the bar made a
    # faint rim (1.6) one checker beyond it, which the touching-checkers rule (for rims a glare washes
    # out) counted as a second.  Beyond that rim lies the dark bar, not a face like the checker's
    img, truth, got = _read_entirely_right(885269)
    assert truth["bar"] == [1, 1]


def test_a_cloths_stripes_blurred_leave_the_boards_parts_joined():
    img, truth = rb.random_table_scene(np.random.default_rng(885335))
    mask = backgammon._smoothed_mask(img)
    scale = mask.shape[1] / img.shape[1]
    # the board's middle is inside the joined parts, the picture's corners are not
    cx, cy = np.mean(truth["corners_px"], axis=0) * scale
    assert mask[int(cy), int(cx)] == 255
    assert mask[0, 0] == mask[-1, -1] == mask[0, -1] == mask[-1, 0] == 0


@pytest.mark.parametrize("seed, off", [(874580, [3, 1]), (879036, [4, 1]), (880216, [0, 7])])
def test_borne_off_checkers_are_counted_from_the_trays_first_step_to_its_last(seed, off):
    # tuning scenes: 874580 and 879036, the outline a few pixels off at the trays, so the white checkers
    # showed from 3.5 mm instead of 1.5 mm, and their run's end, taken at its response's far shoulder,
    # went past half a checker more: four and five read; 880216, an empty tray whose floor brightens
    # once near its end (warm light), read as a lone checker.  Measured from its first step to its last,
    # each at its peak, the run holds its true count, and one step alone is no checker
    img, truth, got = _read_entirely_right(seed)
    assert truth["off"] == off


def test_borne_off_checkers_whose_first_step_lies_past_half_a_checker_are_counted_from_it(monkeypatch):
    # dev scene 896 408 (shadow on felt): the outline is 3.5 mm short at the bottom tray, so the first white
    # checker's outer face steps up from the floor at 4.5 mm, past OFF_START + half a checker, and the run
    # was measured from OFF_START (as for a first checker as dark as the frame, whose outer face makes no
    # step): four read for three.  The tray before that step is as dark as the floor after the run (25 and 30
    # against 134 between): it is the first checker's face
    img, truth, got = _read_entirely_right(896408)
    assert truth["off"] == [3, 0]
    monkeypatch.setattr(backgammon, "FLOOR_LIKE", 0.0)
    assert backgammon.read(img)["off"] == [4, 0]


def test_a_first_step_with_checkers_before_it_is_not_taken_for_the_first_checkers_face():
    grey = np.r_[np.full(10, 198.0), np.full(30, 196.0), np.full(20, 79.0)]   # dev scene 885 672's bottom tray
    assert not backgammon._floor_before(grey, 10, 40)
    grey = np.r_[np.full(10, 25.0), np.full(30, 134.0), np.full(20, 30.0)]    # 896 408's
    assert backgammon._floor_before(grey, 10, 40)


def _glare_scene(seed: int):
    """The random scene of ``seed`` with its lighting forced to a lamp's glare (dev scenes 886 500+)."""
    rng = np.random.default_rng(seed)
    conditions = rb.random_conditions(rng)
    conditions["lighting"] = "glare"
    return rb.random_table_scene(rng, conditions)


@pytest.mark.parametrize("seed", [886608, 886976])
def test_a_touching_checker_in_glare_counts_from_a_rim_of_1_2(seed):
    # dev scenes (glare forced): the farther checkers of a touching stack show rims of 1.2-1.5 in the glare
    # (two black on point 7 of 886 608; white on point 13 of 886 976), below the old NEXT_ARC_MIN of 1.5.
    # Beyond the last checker of a touching stack of one to four, the rim response one checker farther
    # was at most 1.0 over 1 900 such stacks of the dev sets (a shadow on wood), so 1.2 still tells them
    img, truth = _glare_scene(seed)
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])


def test_a_faint_edge_one_checker_beyond_a_lone_checker_in_shadow_is_not_a_second():
    # fresh scene 887 283 (shadow, wood): one black checker on point 7, and a response of 1.00 where a
    # second touching one would lie (the strongest seen beyond a touching stack): below NEXT_ARC_MIN
    _read_entirely_right(887283)


def test_an_overlapping_stack_in_glare_counts_from_its_faint_middle_rims():
    # dev scene 886 556 (glare forced): seven black checkers fill point 14 under a lamp's glare; rims show
    # at the base (5.4), the second checker (2.8) and the tip (3.1), the four between only 0.8-1.9.  The
    # two seen at the base overlap (18 mm apart), so the stack holds more than five, and the comb fits 7;
    # the places between must each show a faint rim, 0.77 and 0.94 at two of them, below FAINT_ARC (1.0)
    # and above OVERLAP_GAP_ARC (0.7).  Read as 3 before
    img, truth = _glare_scene(886556)
    got = backgammon.read(img)
    assert truth["points"][13] == [0, 7]
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])


def test_a_tall_white_stack_whose_rims_glare_washed_out_is_counted_by_its_comb():
    # dev scene 890929: a lamp's glare on eleven white checkers filling point 14; no rim reaches ARC_MIN (2.27 at
    # most) and their sides do not show on the light point, but the comb of their rims still scores 0.66 where
    # points read empty in glare score 0.18 at most (1 300 dev points): read as an empty point before 2026-12-04
    _read_entirely_right(890929)


def test_an_empty_point_in_glare_is_not_given_a_comb():
    # the same rule does not fill an empty point: on these dev glare scenes every empty point stays empty
    for seed in (886565, 886824, 886763):       # the highest comb scores of points read empty in glare: 0.15-0.18
        rng = np.random.default_rng(seed)
        conditions = rb.random_conditions(rng)
        conditions["lighting"] = "glare"
        img, truth = rb.random_table_scene(rng, conditions)
        got = backgammon.read(img)
        for p, (want, read) in enumerate(zip(truth["points"], got["points"]), start=1):
            if want == [0, 0]:
                assert read == [0, 0], (seed, p, read)


@pytest.mark.parametrize("seed", [889059, 889590])
def test_a_lone_white_checker_blown_out_by_glare_is_counted_by_its_far_edge(seed):
    # dev scenes (glare forced): a lone white checker whose face, rim and point a lamp's glare saturate alike
    # (no near arc, read as an empty point before 2026-12-04); its far edge, against the darker tip of the point,
    # shows a far arc of 5.8 (889 059, point 14) and 3.0 (889 590, point 3) where empty points in glare show
    # 0.73 at most (908 dev points)
    _read_entirely_right_in_glare(seed)


def _read_entirely_right_in_glare(seed: int):
    img, truth = _glare_scene(seed)
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
    return truth


def test_a_short_white_stack_blown_out_by_glare_is_counted_by_its_last_checkers_far_edge():
    # scene 893 312 (glare forced): three white checkers on point 20, the first two blown out, the third's far
    # edge plain against the dark point (far arc 3.7); read as an empty point before 2026-12-04
    truth = _read_entirely_right_in_glare(893312)
    assert truth["points"][19] == [3, 0]


def _view_and_point(seed: int, point: int):
    """The top-down view of a glare scene's board, one point's axis and near-arc response, and its truth."""
    img, truth = _glare_scene(seed)
    view, axis = _top_down_view(img), backgammon.table_point_axis(point)
    ts, best = backgammon._stack_response(view, axis, backgammon.TABLE_POINT_L)
    return view, axis, ts, best, truth["points"][point - 1]


def test_the_far_edge_at_the_fifth_place_is_no_count(monkeypatch):
    # dev scene 889 120 (glare forced): nine white checkers fill point 18, only the last one's far edge plain
    # (5.2, at the fifth place of a touching stack: the last checker of any stack filling the point lies there)
    view, axis, ts, best, want = _view_and_point(889120, 18)
    assert want == [9, 0]
    monkeypatch.setattr(backgammon, "_unseen_places_hidden", lambda *args, **kw: True)   # the far edge alone
    assert backgammon._far_arc_count(view, axis, ts, best, np.zeros(0)) == 0


def test_a_far_edge_with_another_beyond_it_is_no_count(monkeypatch):
    # dev scene 889 734 (glare forced): six black checkers fill point 4; the fifth's far edge lies 5.6 mm from
    # the fourth place of a touching stack (2.9 there), the sixth's beyond it (6.4): a taller stack, not four
    view, axis, ts, best, want = _view_and_point(889734, 4)
    assert want == [0, 6]
    monkeypatch.setattr(backgammon, "_unseen_places_hidden", lambda *args, **kw: True)   # the far edges alone
    assert backgammon._far_arc_count(view, axis, ts, best, np.zeros(0)) == 0


@pytest.mark.parametrize("seed, point", [(889779, 17), (889699, 13), (889513, 1)])
def test_an_empty_point_in_glare_has_no_far_edge_count(seed, point, monkeypatch):
    # the empty points in glare with the strongest far arcs at a touching stack's places (0.58-0.73 of 908 dev
    # points), where FAR_ARC_MIN is 1.5
    view, axis, ts, best, want = _view_and_point(seed, point)
    assert want == [0, 0]
    monkeypatch.setattr(backgammon, "_unseen_places_hidden", lambda *args, **kw: True)   # the far edge alone
    assert backgammon._far_arc_count(view, axis, ts, best, np.zeros(0)) == 0


def test_white_stacks_in_glare_with_faint_rims_are_told_white_by_the_rims_sign():
    # scene 894 075 (glare forced): white stacks of three and two on points 21 and 23 whose rims the
    # glare nearly washed out (polarity -0.18 and -0.22, under the old RIM_POLARITY_GLARE of 0.3); their
    # brightness over their glared frame (1.4, 1.5) lay among the blacks', so they were read black.  In glare
    # 36 of 36 stacks with polarity from -0.3 to 0 were white (1 405 glared stacks of dev scenes)
    truth = _read_entirely_right_in_glare(894075)
    assert truth["points"][20] == [3, 0] and truth["points"][22] == [2, 0]


@pytest.mark.parametrize("seed, point, want", [(895881, 17, [8, 0]), (896076, 24, [7, 0]), (893554, 18, [9, 0])])
def test_a_tall_stack_in_glare_is_counted_by_the_faint_rims_between(seed, point, want, monkeypatch):
    # dev scenes (glare forced): a tall white stack whose rims the glare washed out under ARC_MIN but the
    # first or last (the places a touching stack of five shares with every taller one); its faint rims
    # (1.0 or more) lie at the overlapping stack's places, two or more off a touching stack's.  Read as five
    # (or two) before 2026-12-04
    truth = _read_entirely_right_in_glare(seed)
    assert truth["points"][point - 1] == want
    monkeypatch.setattr(backgammon, "_overlapping_in_glare", lambda view, axis, ts, best, count: count)
    img, _ = _glare_scene(seed)
    assert backgammon.read(img)["points"][point - 1] != want


@pytest.mark.parametrize("seed, point, want", [(893788, 22, 3), (889241, 10, 4)])
def test_a_touching_stack_in_glare_is_not_read_overlapping_by_one_faint_rim(seed, point, want, monkeypatch):
    # dev scenes (glare forced): touching white stacks whose comb fits a stack of nine (score 1.3-1.6: a
    # touching stack's rims lie at every other place of it) with one faint rim off a touching stack's
    # places; one is not enough (OVERLAP_OFF_TOUCHING 2: in 2 000 dev glare scenes 14 of 598 stacks of one to
    # five in the glare have one such rim, none has two; 11 of the 42 taller stacks read five or fewer have two;
    # on 800 fresh ones a stack of three had two, which the next test guards)
    view, axis, ts, best, truth = _view_and_point(seed, point)
    assert truth[0] == want
    assert backgammon._overlapping_in_glare(view, axis, ts, best, want) == want
    monkeypatch.setattr(backgammon, "OVERLAP_OFF_TOUCHING", 1)
    assert backgammon._overlapping_in_glare(view, axis, ts, best, want) > want


def test_a_touching_stack_in_glare_whose_rims_lie_off_its_places_is_not_read_overlapping():
    # fresh scene 897 528 (glare forced): three touching white checkers on point 8 whose rims (12.5, 42.5 and
    # 68.75 mm from the base) lie 3.5 and 3.25 mm off a touching stack's places and on a comb of nine's; they
    # lie 30 and 26 mm apart, no two closer than touching checkers.  Read as nine with the off-places test alone
    view, axis, ts, best, truth = _view_and_point(897528, 8)
    assert truth == [3, 0]
    assert backgammon._comb_fit(best, ts)[0] == 9
    assert backgammon._overlapping_in_glare(view, axis, ts, best, 3) == 3


@pytest.mark.parametrize("seed, point, want", [(896016, 10, [1, 0]), (896027, 2, [1, 0]), (893618, 22, [2, 0])])
def test_a_blown_out_white_stack_is_counted_by_half_its_last_checkers_far_edge(seed, point, want, monkeypatch):
    # dev scenes (glare forced): a lone white checker (two on 893 618) blown out with the light point under it;
    # of its outline only part of the far arc shows (its 30th percentile 0.5-0.8, under FAR_ARC_MIN), its
    # median 0.6-1.0 (BLOWN_FAR_MIN 0.5).  Read as an empty point before 2026-12-04
    truth = _read_entirely_right_in_glare(seed)
    assert truth["points"][point - 1] == want
    monkeypatch.setattr(backgammon, "_blown_stack_count", lambda view, axis, ts, best: 0)
    img, _ = _glare_scene(seed)
    assert backgammon.read(img)["points"][point - 1] == [0, 0]


@pytest.mark.parametrize("seed, point", [(893477, 12), (893658, 24), (893753, 9)])
def test_an_empty_blown_out_point_has_no_half_far_edge_count(seed, point, monkeypatch):
    # the empty points with blown-out first places whose far arcs' medians are highest at a place (0.33-0.40 of
    # 2 289 such points in 2 000 dev glare scenes), where BLOWN_FAR_MIN is 0.5
    view, axis, ts, best, want = _view_and_point(seed, point)
    assert want == [0, 0] and backgammon._blown_out(view, axis, backgammon.CHECKER_R)
    assert backgammon._blown_stack_count(view, axis, ts, best) == 0
    monkeypatch.setattr(backgammon, "BLOWN_FAR_MIN", 0.3)
    assert backgammon._blown_stack_count(view, axis, ts, best) > 0


def test_a_stack_whose_first_checker_is_blown_out_is_white():
    # dev scene 889 272 (glare forced): three white checkers on point 23 blown out (counted by half the last
    # one's far edge), their rims' polarity -0.03 and their brightness over the glared frame (1.8) like a
    # black's: read black.  A black checker's face stays darker than a glare: of 576 stacks whose first
    # place was blown out (1 600 dev glare scenes, 800 natural) none was black
    truth = _read_entirely_right_in_glare(889272)
    assert truth["points"][22] == [3, 0]
    stacks = [(3, 0.9, -0.03), (2, 0.5, 1.5), (4, 4.0, -2.0)]
    assert backgammon._split_colours(stacks, 1.0, [True, False, False]) == ["black", "black", "white"]
    assert backgammon._split_colours(stacks, 1.0, [True, False, False], [True, False, False]) == \
        ["white", "black", "white"]


def test_a_black_stack_in_glare_whose_rims_lean_light_stays_black():
    # dev scene 896 893 (glare forced): two black checkers on point 6 in the glare whose rims' polarity is
    # -0.07 (a lamp's glare on a black checker's face); its sign alone would make them white (RIM_POLARITY_GLARE
    # stays 0.1: lowered to 0.01 it made this stack and one more of 1 600 scenes white)
    truth = _read_entirely_right_in_glare(896893)
    assert truth["points"][5] == [0, 2]


@pytest.mark.parametrize("seed, where, want", [(899351, 15, [0, 1]), (898691, 2, [1, 0]), (898815, "bar", [0, 1])])
def test_a_checker_whose_rims_glare_flattened_is_found_by_its_rim_band(seed, where, want, monkeypatch):
    # dev scenes (glare forced): a lone black checker the glare made as light as the point round it (899 351,
    # point 15; 898 815, on the bar) and a lone white one on a light point (898 691, point 2) showed no rim
    # edge in log-brightness (near arc 1.6 at most) and were read as nothing; their rim bands differ from their
    # faces by 35, 33 (bar) and 52 grey levels at 80 % of the angles, places read empty by 3 at most
    truth = _read_entirely_right_in_glare(seed)
    assert (truth["bar"] if where == "bar" else truth["points"][where - 1]) == want
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)
    img, _ = _glare_scene(seed)
    got = backgammon.read(img)
    assert (got["bar"] if where == "bar" else got["points"][where - 1]) != want


def test_an_empty_point_shows_no_rim_band():
    img, truth = _glare_scene(899351)
    view = _top_down_view(img)
    empty = [p for p in range(1, 25) if truth["points"][p - 1] == [0, 0]]
    assert len(empty) >= 10
    for p in empty:
        assert abs(backgammon._ring_contrast(view, backgammon.table_point_axis(p), backgammon.CHECKER_R)) < 5.0
    # and the black checker on point 15 shows its light rim band
    assert backgammon._ring_contrast(view, backgammon.table_point_axis(15), backgammon.CHECKER_R) > 25.0


@pytest.mark.parametrize("seed, glare, where, want", [(898856, True, 16, [0, 1]), (898920, True, 7, [0, 1]),
                                                      (897746, False, "bar", [0, 1])])
def test_a_checkers_rim_band_lighter_than_its_face_makes_it_black(seed, glare, where, want, monkeypatch):
    # dev scenes: a lone black checker whose rims' profile along the point leaned light-face (polarity -1.35,
    # -0.39; -1.08 on the bar of natural scene 897 746, even light) was read white; its rim band is lighter than
    # its face by 65, 43 and 51 grey levels all round.  Of 7 135 stacks whose first checker's band shows 15 or
    # more (800 glare and 800 natural dev scenes), none was of the colour the band's sign does not give
    img, truth = _glare_scene(seed) if glare else rb.random_table_scene(np.random.default_rng(seed))

    def where_of(result):
        return result["bar"] if where == "bar" else result["points"][where - 1]

    assert where_of(truth) == want
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (truth["points"], truth["bar"], truth["off"])
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)
    assert where_of(backgammon.read(img)) == want[::-1]


@pytest.mark.parametrize("seed, point, want", [(898817, 21, [0, 3]), (899388, 12, [0, 2])])
def test_a_touching_stacks_farther_checkers_are_counted_by_their_rim_bands(seed, point, want, monkeypatch):
    # dev scenes (glare forced): black stacks the glare lit, their farther checkers' rim edges flattened (898 817,
    # point 21, read one of three: bands 9, 22 and 52 grey levels; 899 388, point 12, read one of two: 51, 27).
    # Beyond touching stacks and on empty points no band showed over 7.4 (161 000 places, 1 600 dev scenes)
    truth = _read_entirely_right_in_glare(seed)
    assert truth["points"][point - 1] == want
    monkeypatch.setattr(backgammon, "RING_CONTRAST_MIN", np.inf)
    img, _ = _glare_scene(seed)
    assert backgammon.read(img)["points"][point - 1] != want


def test_a_stack_whose_rim_bands_differ_in_sign_is_not_raised():
    # _ring_top: bands of both signs beyond a stack are not one stack's checkers
    img, _ = _glare_scene(898817)
    view = _top_down_view(img)
    rings = backgammon._touching_rings(view, backgammon.table_point_axis(21), backgammon.TABLE_POINT_L)
    assert backgammon._ring_top(rings, 1, 1.0) == (3, 1.0)
    assert backgammon._ring_top(rings, 1, -1.0) == (1, -1.0)
    assert backgammon._ring_top(rings, 3, 1.0) == (3, 1.0)
    assert backgammon._ring_top(np.array([20.0, -20.0, 0.0, 0.0, 0.0]), 0, 0.0) == (0, 0.0)
    assert backgammon._ring_top(np.array([0.0, 0.0, -30.0, 0.0, 0.0]), 0, 0.0) == (3, -1.0)


def test_borne_off_checkers_a_glare_lit_are_counted_by_the_lines_between_them(monkeypatch):
    # dev scene 898 964 (glare forced): four black checkers in the top tray, lit by the glare, the lines
    # between them 26-29 grey levels lighter than their faces but steps of 1.0-1.4 in log-brightness (under
    # TRAY_LINE_MIN): read as one
    truth = _read_entirely_right_in_glare(898964)
    assert truth["off"] == [6, 4]
    monkeypatch.setattr(backgammon, "TRAY_LINE_CONTRAST", np.inf)
    img, _ = _glare_scene(898964)
    assert backgammon.read(img)["off"] == [6, 1]


def test_tray_lines_take_the_shift_that_shows_them_best():
    # a white run of five: dark lines every OFF_THICKNESS from OFF_START; a shift half-way puts the lines in
    # the faces' windows, which passes too with the other sign, less clearly
    ts = np.arange(0.5, 120.0, 0.5)
    grey = np.full(len(ts), 60.0)
    run = (ts >= backgammon.OFF_START) & (ts <= backgammon.OFF_START + 5 * backgammon.OFF_THICKNESS)
    grey[run] = 238.0
    for k in range(1, 5):
        grey[np.abs(ts - (backgammon.OFF_START + k * backgammon.OFF_THICKNESS)) <= 0.9] = 203.0
    assert backgammon._tray_lines(ts, grey) == (5, -1.0)
    grey[run] = 238.0                   # no lines: nothing
    assert backgammon._tray_lines(ts, grey) == (0, 0.0)


def test_a_floor_lit_like_the_faces_beyond_the_last_tray_line_is_no_checker():
    # dev scene 889 480 (glare forced): four black checkers in the top tray under a glare that lights the
    # floor beyond them as bright as their faces, so the last checker's far edge passed for a line between two
    # checkers and the lines read five; the edge after a run's last checker must show against its face
    truth = _read_entirely_right_in_glare(889480)
    assert truth["off"] == [0, 4]
