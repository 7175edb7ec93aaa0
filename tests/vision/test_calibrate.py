"""vision.calibrate: ArUco corner markers -> pixel <-> table-mm homography, its file, its CLI."""

import json

import cv2
import numpy as np
import pytest

from controller import cli
from vision.calibrate import (Calibration, CalibrationError, calibrate, detect_markers, draw_markers,
                              marker_corners_mm, place_markers)
from vision.imaging import camera_view, sensor_effects, table_background

PX_PER_MM = 2.0
TABLE = (900.0, 900.0)


def _scene(tilt, seed, kind="felt", ids=(0, 1, 2, 3), out=(1920, 1080), table=TABLE):
    t = table_background(kind, (int(table[0] * PX_PER_MM), int(table[1] * PX_PER_MM)), seed)
    t = place_markers(t, PX_PER_MM, table_mm=table, ids=ids)
    img, H = camera_view(t, tilt, 5 + 40 * seed, out, seed)
    img = sensor_effects(img, seed, noise=2, blur=0.7, jpeg_quality=90)
    # table mm -> table-image pixel centres (pixel i covers [i, i+1) mm*PX_PER_MM)
    S = np.array([[PX_PER_MM, 0, -0.5], [0, PX_PER_MM, -0.5], [0, 0, 1]])
    return img, H @ S


def _grid(table=TABLE):
    return np.array([[x, y] for x in np.linspace(0, table[0], 10) for y in np.linspace(0, table[1], 10)])


@pytest.mark.parametrize("tilt, seed, kind", [(0, 1, "felt"), (15, 2, "wood"), (30, 3, "white"),
                                              (25, 4, "pattern")])
def test_round_trip_within_one_mm(tilt, seed, kind):
    img, H_mm_to_px = _scene(tilt, seed, kind)
    cal = calibrate(img, table_mm=TABLE)
    assert sorted(cal.markers) == [0, 1, 2, 3]
    g = _grid()
    px = cv2.perspectiveTransform(g[None].astype(np.float64), H_mm_to_px)[0]
    err = np.linalg.norm(cal.px_to_mm(px) - g, axis=1)
    assert err.max() < 1.0, err.max()
    back = cal.mm_to_px(cal.px_to_mm(px))
    assert np.abs(back - px).max() < 1e-6
    assert cal.reprojection_error_px < 1.0
    assert cal.image_size == (1920, 1080)


def test_three_markers_are_enough_and_rectangular_table():
    table = (1000.0, 700.0)
    img, H_mm_to_px = _scene(10, 5, ids=(0, 1, 3), table=table)
    cal = calibrate(img, table_mm=table)
    assert sorted(cal.markers) == [0, 1, 3]
    g = _grid(table)
    px = cv2.perspectiveTransform(g[None].astype(np.float64), H_mm_to_px)[0]
    assert np.linalg.norm(cal.px_to_mm(px) - g, axis=1).max() < 1.5


def test_too_few_markers_is_a_clear_error():
    img, _ = _scene(0, 6, ids=(2,))
    assert sorted(detect_markers(img)) == [2]
    with pytest.raises(CalibrationError, match="found 1 of the 4"):
        calibrate(img)
    with pytest.raises(CalibrationError, match="found 0"):
        calibrate(table_background("felt", (640, 480), 0))


def test_marker_layout_corners():
    c0 = marker_corners_mm(0, (900, 600), 50, 10)
    c2 = marker_corners_mm(2, (900, 600), 50, 10)
    assert c0.tolist() == [[10, 10], [60, 10], [60, 60], [10, 60]]
    assert c2.tolist() == [[840, 540], [890, 540], [890, 590], [840, 590]]


def test_save_load_round_trip_and_broken_files(tmp_path):
    img, _ = _scene(12, 7)
    cal = calibrate(img)
    p = tmp_path / "cal.json"
    cal.save(p)
    again = Calibration.load(p)
    assert np.allclose(again.H_px_to_mm, cal.H_px_to_mm)
    assert again.markers.keys() == cal.markers.keys() and again.table_mm == cal.table_mm
    assert abs(again.reprojection_error_px - cal.reprojection_error_px) < 1e-12
    with pytest.raises(CalibrationError, match="no such"):
        Calibration.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CalibrationError, match="not valid JSON"):
        Calibration.load(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text(json.dumps({"hello": 1}))
    with pytest.raises(CalibrationError, match="not a Masa calibration"):
        Calibration.load(tmp_path / "other.json")
    (tmp_path / "sing.json").write_text(json.dumps({"H_px_to_mm": [[0, 0, 0], [0, 0, 0], [0, 0, 1]]}))
    with pytest.raises(CalibrationError, match="invertible"):
        Calibration.load(tmp_path / "sing.json")
    (tmp_path / "shape.json").write_text(json.dumps({"H_px_to_mm": [[1, 2], [3]]}))
    with pytest.raises(CalibrationError):
        Calibration.load(tmp_path / "shape.json")


def test_draw_markers_changes_the_picture():
    img, _ = _scene(5, 8)
    cal = calibrate(img)
    out = draw_markers(img, cal)
    assert out.shape == img.shape and not np.array_equal(out, img)


def test_cli(tmp_path, capsys):
    img, _ = _scene(18, 9)
    src = tmp_path / "table.jpg"
    cv2.imwrite(str(src), img)
    out, ann = tmp_path / "c.json", tmp_path / "a.png"
    rc = cli.main(["calibrate", str(src), "--out", str(out), "--annotate", str(ann), "--lang", "en"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "Markers found: [0, 1, 2, 3]" in text and "Reprojection error" in text
    assert Calibration.load(out).image_size == (1920, 1080)
    assert cv2.imread(str(ann)).shape == (1080, 1920, 3)
    assert cli.main(["calibrate", str(tmp_path / "nope.jpg"), "--out", str(out)]) == 2
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), table_background("wood", (320, 240), 1))
    assert cli.main(["calibrate", str(blank), "--out", str(tmp_path / "x.json")]) == 2
    assert not (tmp_path / "x.json").exists()
    assert "markere" in capsys.readouterr().err
