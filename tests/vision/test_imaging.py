"""vision.imaging: loading pictures safely and the shared scene conditions."""

import cv2
import numpy as np
import pytest

from vision.imaging import (LIGHTING_KINDS, TABLE_KINDS, ImageError, apply_lighting, camera_view,
                            check_frame, load_image, sensor_effects, table_background)


def _write(path, img, ext=".png"):
    ok, enc = cv2.imencode(ext, img)
    assert ok
    path.write_bytes(enc.tobytes())
    return path


def test_colour_png_round_trip(tmp_path):
    img = np.random.default_rng(0).integers(0, 255, (40, 60, 3), dtype=np.uint8)
    out = load_image(_write(tmp_path / "a.png", img))
    assert out.dtype == np.uint8 and out.shape == (40, 60, 3)
    assert np.array_equal(out, img)


def test_greyscale_becomes_bgr(tmp_path):
    grey = np.full((30, 30), 77, np.uint8)
    out = load_image(_write(tmp_path / "g.png", grey))
    assert out.shape == (30, 30, 3) and int(out[5, 5, 2]) == 77


def test_sixteen_bit_scaled_to_eight(tmp_path):
    img = np.full((20, 20, 3), 65535, np.uint16)
    img[:, :, 0] = 256 * 10
    out = load_image(_write(tmp_path / "d.png", img))
    assert out.dtype == np.uint8
    assert int(out[0, 0, 0]) == 10 and int(out[0, 0, 2]) == 255


def test_alpha_composed_over_white(tmp_path):
    img = np.zeros((20, 20, 4), np.uint8)
    img[:, :10, 3] = 255          # left half opaque black, right half transparent
    out = load_image(_write(tmp_path / "t.png", img))
    assert out.shape == (20, 20, 3)
    assert int(out[0, 0, 0]) == 0 and int(out[0, 15, 0]) == 255


@pytest.mark.parametrize("content, words", [
    (b"", "empty"),
    (b"this is not a picture at all", "not an image"),
])
def test_bad_files_give_clear_errors(tmp_path, content, words):
    p = tmp_path / "x.jpg"
    p.write_bytes(content)
    with pytest.raises(ImageError, match=words):
        load_image(p)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.png")
    with pytest.raises(ImageError, match="directory"):
        load_image(tmp_path)


def test_truncated_jpeg(tmp_path):
    img = table_background("felt", (200, 150), 1)
    ok, enc = cv2.imencode(".jpg", img)
    p = tmp_path / "cut.jpg"
    p.write_bytes(enc.tobytes()[: len(enc) // 2])
    with pytest.raises(ImageError, match="truncated"):
        load_image(p)


def test_huge_image_rejected_before_decoding(tmp_path):
    p = _write(tmp_path / "wide.png", np.zeros((4, 20000, 3), np.uint8))
    with pytest.raises(ImageError, match="20000x4"):
        load_image(p)


def test_check_frame_rejects_non_pictures():
    with pytest.raises(ImageError, match="empty"):
        check_frame(np.zeros((0, 10, 3), np.uint8))
    with pytest.raises(ImageError, match="shape"):
        check_frame(np.zeros((10, 10, 2), np.uint8))
    with pytest.raises(ImageError, match="numpy"):
        check_frame([[1, 2], [3, 4]])
    with pytest.raises(ImageError, match="NaN"):
        check_frame(np.full((10, 10), np.nan, np.float32))
    out = check_frame(np.ones((10, 10), np.float32) * 0.5)
    assert out.shape == (10, 10, 3) and int(out[0, 0, 0]) == 127


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_table_backgrounds(kind):
    a = table_background(kind, (160, 90), 3)
    b = table_background(kind, (160, 90), 3)
    assert a.shape == (90, 160, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)                   # same seed, same cloth
    assert a.std() > 1.0                          # has texture
    with pytest.raises(ValueError):
        table_background("marble", (10, 10), 0)


def test_felt_is_green_and_white_is_bright():
    felt = table_background("felt", (100, 100), 0).reshape(-1, 3).mean(axis=0)
    assert felt[1] > felt[0] and felt[1] > felt[2]
    assert table_background("white", (100, 100), 0).mean() > 190


@pytest.mark.parametrize("kind", LIGHTING_KINDS)
def test_lighting(kind):
    base = np.full((80, 120, 3), 128, np.uint8)
    out = apply_lighting(base, kind, 5)
    assert out.shape == base.shape
    if kind == "warm":
        m = out.reshape(-1, 3).mean(axis=0)
        assert m[2] > m[0]                        # redder than blue
    if kind == "shadow":
        assert out.min() < 100
    if kind == "glare":
        assert out.max() > 200


@pytest.mark.parametrize("tilt", [0, 15, 30])
def test_camera_view_homography_maps_corners(tilt):
    table = table_background("felt", (300, 200), 1)
    table[:20, :20] = (0, 0, 255)                 # a red patch at the table's top-left
    img, H = camera_view(table, tilt, 10, (320, 240), 2)
    assert img.shape == (240, 320, 3)
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [300, 0], [300, 200], [0, 200]]], np.float32), H)[0]
    assert (corners[:, 0] >= -0.5).all() and (corners[:, 0] <= 320.5).all()
    assert (corners[:, 1] >= -0.5).all() and (corners[:, 1] <= 240.5).all()
    x, y = cv2.perspectiveTransform(np.array([[[10, 10]]], np.float32), H)[0, 0]
    b, g, r = img[int(round(y)), int(round(x))]
    assert r > 200 and g < 60


def test_sensor_effects():
    img = table_background("white", (100, 80), 0)
    same = sensor_effects(img, 0)
    assert np.array_equal(same, img)
    noisy = sensor_effects(img, 0, noise=8)
    assert 4 < np.abs(noisy.astype(int) - img.astype(int)).mean() < 10
    blurred = sensor_effects(img, 0, blur=3)
    assert blurred.std() < img.std()
    jpg = sensor_effects(img, 0, jpeg_quality=20)
    assert jpg.shape == img.shape and not np.array_equal(jpg, img)
