"""Tintar board reading on rendered scenes with exact ground truth."""

import numpy as np
import pytest

from vision import imaging, morris, render_boards as rb
from vision.board_outline import BoardNotFound, BoardPartlyInView

CLEAN = {"table": "felt", "lighting": "even", "tilt": 0.0, "rotation": 0.0, "noise": 0.0, "blur": 0.0, "jpeg": None}
CAMERA = {"table": "wood", "lighting": "daylight", "tilt": 12.0, "rotation": 5.0, "noise": 4.0, "blur": 0.6,
          "jpeg": 80}


def _position():
    board = {p: None for p in rb.TINTAR_POINTS}
    board.update({"a1": "white", "d1": "white", "g1": "black", "b4": "black", "d5": "white", "g7": "black",
                  "c3": "black", "e4": "white"})
    return board, {"white": 5, "black": 4}, {"white": 0, "black": 1}   # nine pieces a side


@pytest.mark.parametrize("scheme", [s[0] for s in rb.TINTAR_SCHEMES])
def test_every_board_scheme_read_exactly(scheme):
    board, in_hand, captured = _position()
    img, truth = rb.render_tintar(board, in_hand, captured, rng=3, conditions=CLEAN, scheme=scheme)
    got = morris.read(img)
    assert {p: got[p] for p in rb.TINTAR_POINTS} == board
    assert got["in_hand"] == in_hand
    assert got["captured"] == captured


def test_tilted_noisy_camera_read_exactly():
    for seed in range(4):
        board, in_hand, captured = rb.random_tintar_position(seed)
        img, truth = rb.render_tintar(board, in_hand, captured, rng=seed, conditions=CAMERA)
        got = morris.read(img)
        assert {p: got[p] for p in rb.TINTAR_POINTS} == {p: truth[p] for p in rb.TINTAR_POINTS}, seed
        assert got["in_hand"] == truth["in_hand"] and got["captured"] == truth["captured"], seed


def test_result_has_contract_keys_only():
    board, in_hand, captured = _position()
    img, _ = rb.render_tintar(board, in_hand, captured, rng=1, conditions=CLEAN)
    got = morris.read(img)
    assert set(got) == set(rb.TINTAR_POINTS) | {"in_hand", "captured"}


def test_no_board_in_view():
    table = imaging.table_background("felt", (1280, 720), 5)
    with pytest.raises(BoardNotFound, match="no Tintar board"):
        morris.read(table)


def test_half_a_board_in_view():
    board, in_hand, captured = _position()
    img, truth = rb.render_tintar(board, in_hand, captured, rng=2, conditions=CLEAN)
    centre_x = int(np.mean([c[0] for c in truth["corners_px"]]))
    with pytest.raises(BoardPartlyInView, match="only part"):
        morris.read(np.ascontiguousarray(img[:, centre_x:]))


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError):
        morris.read(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ValueError, match="Tintar"):
        rb.render_tintar({"z9": "white"})


def test_annotate_draws_on_a_copy():
    board, in_hand, captured = _position()
    img, _ = rb.render_tintar(board, in_hand, captured, rng=1, conditions=CLEAN)
    got = morris.read(img)
    out = morris.annotate(img, got)
    assert out.shape == img.shape and not np.array_equal(out, img)


def test_masa_see_dispatch_and_clear_error():
    from vision.see import SeeError, see
    board, in_hand, captured = _position()
    img, _ = rb.render_tintar(board, in_hand, captured, rng=1, conditions=CLEAN)
    assert see(img, kind="tintar")["tintar"]["a1"] == "white"
    with pytest.raises(SeeError, match="nu se vede"):
        see(imaging.table_background("wood", (1280, 720), 2), kind="tintar")
