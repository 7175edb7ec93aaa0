"""masa see: Contract 2 JSON, the human summary, --annotate, and bad input (exit 2, never a crash)."""

import json

import cv2
import numpy as np
import pytest

from controller import cli
from vision import see as see_mod
from vision.imaging import table_background
from vision.render import render_card_scene


@pytest.fixture(scope="module")
def scene_file(tmp_path_factory):
    spec = {"cards": [{"card": "QH", "x": 200, "y": 180, "angle": 20},
                      {"card": "7C", "x": 420, "y": 220, "angle": -35},
                      {"card": "2S", "x": 600, "y": 200, "angle": 80, "face": "down"}],
            "deck": "drawn", "background": "felt", "tilt": 8, "noise": 1.5, "blur": 0.4, "jpeg": 92, "seed": 3}
    img, truth = render_card_scene(spec)
    p = tmp_path_factory.mktemp("see") / "scene.jpg"
    cv2.imwrite(str(p), img)
    return p, truth


def test_json_follows_contract_2(scene_file, capsys, tmp_path):
    path, truth = scene_file
    out = tmp_path / "seen.png"
    rc = cli.main(["see", str(path), "--json", "--annotate", str(out)])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["image"] == str(path) and doc["width"] == 1280 and doc["height"] == 720
    assert isinstance(doc["ms"], float)
    assert set(doc) == {"image", "width", "height", "ms", "cards"}
    read = sorted(c["card"] for c in doc["cards"] if c["card"])
    assert read == ["7C", "QH"]
    for c in doc["cards"]:
        assert set(c) == {"card", "face", "confidence", "quad"}
        assert c["face"] in ("up", "down")
        assert len(c["quad"]) == 4 and all(len(p) == 2 for p in c["quad"])
    assert [c["face"] for c in doc["cards"]].count("down") == 1
    drawn = cv2.imread(str(out))
    assert drawn.shape == (720, 1280, 3)


def test_summary_in_both_languages(scene_file, capsys):
    path, _ = scene_file
    assert cli.main(["see", str(path), "--lang", "ro"]) == 0
    ro = capsys.readouterr().out
    assert "Cărți citite: 2" in ro and "cu fața în jos: 1" in ro
    assert cli.main(["see", str(path), "--lang", "en"]) == 0
    assert "Cards read: 2" in capsys.readouterr().out


def _write(path, img, ext=".png", params=()):
    ok, enc = cv2.imencode(ext, img, list(params))
    assert ok
    path.write_bytes(enc.tobytes())
    return path


@pytest.mark.parametrize("make", ["empty", "garbage", "truncated", "huge", "missing"])
def test_bad_images_exit_2(tmp_path, capsys, make):
    p = tmp_path / f"{make}.jpg"
    if make == "empty":
        p.write_bytes(b"")
    elif make == "garbage":
        p.write_bytes(b"\x00\x01 not a picture")
    elif make == "truncated":
        ok, enc = cv2.imencode(".jpg", table_background("felt", (640, 360), 0))
        p.write_bytes(enc.tobytes()[:3000])
    elif make == "huge":
        p = _write(tmp_path / "huge.png", np.zeros((2, 20000, 3), np.uint8))
    rc = cli.main(["see", str(p), "--json"])
    captured = capsys.readouterr()
    assert rc == 2
    assert captured.out == ""
    assert "masa see:" in captured.err


def test_grey_and_sixteen_bit_pictures_are_read(tmp_path, capsys):
    spec = {"cards": [{"card": "KS", "x": 300, "y": 200, "angle": 10}], "deck": "drawn", "background": "wood",
            "seed": 5, "blur": 0.3, "noise": 1.0}
    img, _ = render_card_scene(spec)
    grey = _write(tmp_path / "grey.png", cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    deep = _write(tmp_path / "deep.png", img.astype(np.uint16) * 257)
    for p in (grey, deep):
        assert cli.main(["see", str(p), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["width"] == 1280
    # colour matters for the suit, so only the 16-bit copy must still read the king of spades
    assert "KS" in [c["card"] for c in doc["cards"]]


def test_a_blank_table_has_no_cards(tmp_path, capsys):
    p = _write(tmp_path / "blank.png", table_background("white", (800, 450), 2))
    assert cli.main(["see", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == []


def test_broken_calibration_exit_2(scene_file, tmp_path, capsys):
    path, _ = scene_file
    bad = tmp_path / "cal.json"
    bad.write_text("{oops")
    assert cli.main(["see", str(path), "--calibration", str(bad)]) == 2
    assert "JSON" in capsys.readouterr().err


def test_unknown_or_missing_reader(monkeypatch):
    with pytest.raises(see_mod.SeeError, match="unknown kind"):
        see_mod.see(np.zeros((20, 20, 3), np.uint8), kind="chess")
    monkeypatch.setitem(see_mod.KINDS, "tiles", ("vision.no_such_reader_module", "tiles"))
    with pytest.raises(see_mod.SeeError, match="not available"):
        see_mod.see(np.zeros((20, 20, 3), np.uint8), kind="tiles")


@pytest.fixture(scope="module")
def board_files(tmp_path_factory):
    """One rendered scene of each board kind under kind conditions, with its truth."""
    from vision import render_boards as rb
    folder = tmp_path_factory.mktemp("boards")
    scenes = {"table": rb.random_table_scene(np.random.default_rng(70001), rb.random_conditions(
                  np.random.default_rng(1), False), cocked_share=0.0),
              "tintar": rb.random_tintar_scene(np.random.default_rng(70003), rb.random_conditions(
                  np.random.default_rng(1), False)),
              "tiles": rb.random_tiles_scene(np.random.default_rng(70004), rb.random_conditions(
                  np.random.default_rng(1), False))}
    out = {}
    for kind, (img, truth) in scenes.items():
        cv2.imwrite(str(folder / f"{kind}.png"), img)
        out[kind] = (folder / f"{kind}.png", truth)
    return out


@pytest.mark.parametrize("kind", ["table", "tintar", "tiles"])
def test_board_kinds_json_and_annotate(board_files, kind, capsys, tmp_path):
    path, truth = board_files[kind]
    out = tmp_path / "seen.png"
    assert cli.main(["see", str(path), "--kind", kind, "--json", "--annotate", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    got = doc[kind]
    if kind == "table":
        assert (got["points"], got["bar"], got["off"], got["dice"]) == (
            truth["points"], truth["bar"], truth["off"], truth["dice"])
        assert got["position_id"]
    elif kind == "tintar":
        assert (got["in_hand"], got["captured"]) == (truth["in_hand"], truth["captured"])
    else:
        assert sorted(t["tile"] for t in got) == sorted(t["tile"] for t in truth["tiles"])
    drawn = cv2.imread(str(out))
    assert drawn is not None and drawn.shape == cv2.imread(str(path)).shape
    assert np.abs(drawn.astype(int) - cv2.imread(str(path)).astype(int)).sum() > 0      # something drawn


def test_board_summaries_in_both_languages(board_files, capsys):
    path, truth = board_files["table"]
    assert cli.main(["see", str(path), "--kind", "table", "--lang", "ro"]) == 0
    ro = capsys.readouterr().out
    assert "Table, alb (15): puncte" in ro and "Zaruri: " + "-".join(map(str, truth["dice"])) in ro
    assert "ID poziție gnubg (alb la mutare): " in ro
    assert cli.main(["see", str(path), "--kind", "table", "--lang", "en"]) == 0
    en = capsys.readouterr().out
    white = " ".join(f"{i + 1}:{p[0]}" for i, p in enumerate(truth["points"]) if p[0])
    assert f"Backgammon, white (15): points {white};" in en
    path, truth = board_files["tintar"]
    assert cli.main(["see", str(path), "--kind", "tintar", "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert f"In hand: white {truth['in_hand']['white']}, black {truth['in_hand']['black']}" in en
    assert cli.main(["see", str(path), "--kind", "tintar", "--lang", "ro"]) == 0
    assert f"Capturate: alb {truth['captured']['white']}" in capsys.readouterr().out
    path, truth = board_files["tiles"]
    assert cli.main(["see", str(path), "--kind", "tiles", "--lang", "ro"]) == 0
    assert f"Piese citite: {len(truth['tiles'])}" in capsys.readouterr().out


@pytest.mark.parametrize("kind, words", [("table", "no backgammon board in view"),
                                         ("tintar", "no Tintar board in view"),
                                         ("tiles", "no rummy tiles in view")])
def test_no_board_in_view_exit_1_with_a_clear_message(kind, words, tmp_path, capsys):
    path = tmp_path / "cloth.png"
    cv2.imwrite(str(path), np.full((720, 1280, 3), 90, np.uint8))
    assert cli.main(["see", str(path), "--kind", kind]) == 1
    assert words in capsys.readouterr().err
