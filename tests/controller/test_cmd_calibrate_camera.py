"""`masa calibrate --camera`: one frame from any camera source (here a folder of frames)."""

import cv2

from controller import cli
from vision.calibrate import Calibration, place_markers
from vision.imaging import camera_view, table_background


def test_calibrate_from_a_camera_source(tmp_path, capsys):
    table = place_markers(table_background("felt", (1800, 1800), 9), 2.0, table_mm=(900.0, 900.0))
    img, _ = camera_view(table, 18, 5, (1920, 1080), 9)
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:03d}.png"), img)
    out = tmp_path / "c.json"
    assert cli.main(["calibrate", "--camera", str(frames), "--out", str(out), "--lang", "en"]) == 0
    assert "Markers found: [0, 1, 2, 3]" in capsys.readouterr().out
    assert Calibration.load(out).image_size == (1920, 1080)


def test_a_camera_that_does_not_exist_is_exit_2(tmp_path, capsys):
    assert cli.main(["calibrate", "--camera", str(tmp_path / "no-such-camera"), "--out",
                     str(tmp_path / "c.json")]) == 2
    assert "camera" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()
