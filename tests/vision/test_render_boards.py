"""The board, dice and tile renderer: exact, consistent ground truth."""

import numpy as np
import pytest

from vision import render_boards as rb

CLEAN = {"table": "felt", "lighting": "even", "tilt": 0.0, "rotation": 0.0, "noise": 0.0, "blur": 0.0, "jpeg": None}


def test_same_seed_same_picture():
    a, ta = rb.random_table_scene(9)
    b, tb = rb.random_table_scene(9)
    assert np.array_equal(a, b) and ta["points"] == tb["points"] and ta["dice"] == tb["dice"]


def test_random_positions_are_possible():
    for seed in range(60):
        points, bar, off = rb.random_table_position(seed)
        rb.check_table_position(points, bar, off)
        board, in_hand, captured = rb.random_tintar_position(seed)
        for colour in ("white", "black"):
            on_board = sum(1 for v in board.values() if v == colour)
            assert on_board + in_hand[colour] + captured[colour] == 9


def test_truth_corners_lie_on_the_board_edge():
    img, truth = rb.render_tintar({"a1": "white"}, rng=1, conditions=CLEAN)
    corners = np.array(truth["corners_px"])
    assert corners.shape == (4, 2)
    assert (corners[:, 0] > 0).all() and (corners[:, 0] < img.shape[1]).all()
    # just inside a corner is the board's frame, just outside is the table
    tl = corners[0]
    inside = img[int(tl[1]) + 6, int(tl[0]) + 6].astype(int)
    outside = img[int(tl[1]) - 6, int(tl[0]) - 6].astype(int)
    assert np.abs(inside - outside).sum() > 40


def test_point_geometry():
    xs = [rb.table_point_axis(p)[0] for p in range(1, 7)]
    assert xs == sorted(xs, reverse=True)            # white's home runs right to left
    assert rb.table_point_axis(1)[2] == -1.0 and rb.table_point_axis(24)[2] == 1.0
    assert rb.table_point_axis(12)[0] == rb.table_point_axis(13)[0]
    with pytest.raises(ValueError):
        rb.table_point_axis(25)
    assert rb.tintar_point_mm("a1")[1] > rb.tintar_point_mm("a7")[1]     # rank 1 at the bottom
    assert rb.stack_spacing(15) < rb.stack_spacing(5) == 2 * rb.CHECKER_R


def test_dice_truth():
    _, t = rb.render_table(rb.STARTING_POSITION, dice=[(3, False), (5, False)], rng=1, conditions=CLEAN)
    assert t["dice"] == [3, 5] and len(t["dice_px"]) == 2
    _, t = rb.render_table(rb.STARTING_POSITION, dice=[(3, True), (5, False)], rng=1, conditions=CLEAN)
    assert t["dice"] == "reroll"
    with pytest.raises(ValueError):
        rb.render_table(rb.STARTING_POSITION, dice=[(7, False), (5, False)])


def test_tiles_truth_quads_are_tile_shaped():
    img, t = rb.render_tiles([["R1", "R2", "R3"], ["J1"]], rng=2, conditions=CLEAN)
    assert [x["tile"] for x in t["tiles"]] == ["R1", "R2", "R3", "J1"]
    for x in t["tiles"]:
        q = np.array(x["quad"])
        w, h = np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[0])
        assert abs(w / h - rb.TILE_W / rb.TILE_H) < 0.03


def test_scene_conditions_change_the_picture():
    board = {"d2": "black"}
    a, _ = rb.render_tintar(board, rng=4, conditions=CLEAN)
    b, _ = rb.render_tintar(board, rng=4, conditions=dict(CLEAN, noise=6.0, lighting="warm"))
    assert a.shape == b.shape == (720, 1280, 3) and not np.array_equal(a, b)


def test_glare_on_a_die_lights_the_leaning_one():
    conditions = dict(CLEAN)
    img, truth = rb.render_table(rb.STARTING_POSITION, dice=[(4, False), (2, True)], rng=3, conditions=conditions,
                                 glare_on_die=True)
    assert truth["dice"] == "reroll" and truth["conditions"]["lighting"] == "glare"
    assert conditions["lighting"] == "even"                 # the caller's conditions are left as they were
    centre = np.array(truth["conditions"]["glare_centre_mm"])
    # the spot lights the leaning die (the second)
    plain, _ = rb.render_table(rb.STARTING_POSITION, dice=[(4, False), (2, True)], rng=3, conditions=CLEAN)
    x, y = (int(v) for v in truth["dice_px"][1])
    assert img[y - 5:y + 6, x - 5:x + 6].mean() > plain[y - 5:y + 6, x - 5:x + 6].mean() + 20
    # and its centre in mm is the brightest part of the added light
    H = truth["H_mm_to_px"]
    px = H @ np.array([centre[0], centre[1], 1.0])
    cx, cy = int(px[0] / px[2]), int(px[1] / px[2])
    gain = img.astype(np.float32).mean(axis=2) - plain.astype(np.float32).mean(axis=2)
    assert gain[cy, cx] > 100
