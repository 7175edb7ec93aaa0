"""`masa run` on a folder of rendered Tintar frames (real hand detection and
board reading), stopped and started again: the game continues."""

import cv2
import numpy as np
import pytest

from controller import demo
from controller.cli import main as masa
from controller.journal import Journal


@pytest.fixture(scope="module")
def tintar_pictures(tmp_path_factory):
    pytest.importorskip("vision.morris")
    plan = demo.tintar_frames()[:20]
    frames = demo.Frames(plan, "vision")
    first, second = tmp_path_factory.mktemp("run1"), tmp_path_factory.mktemp("run2")
    # The second run starts as a restarted camera would: on the still table.
    for i in range(20):
        if i < 12:
            cv2.imwrite(str(first / f"{i:03d}.png"), frames(i))
        if i >= 8:
            cv2.imwrite(str(second / f"{i:03d}.png"), frames(i))
    return first, second


def test_run_folder_then_resume(tintar_pictures, broker, subscriber_factory, tmp_path, capsys):
    first, second = tintar_pictures
    sub = subscriber_factory(broker.port)
    journal = tmp_path / "j.db"
    common = ["--game", "tintar", "--mqtt", broker.url, "--journal", str(journal), "--lang", "en"]
    assert masa(["run", "--camera", str(first), *common]) == 0
    assert [e["move"] for e in Journal(journal).entries("move")] == ["a1"]
    assert masa(["run", "--camera", str(second), *common]) == 0
    assert "resuming game #1 (1 moves played)" in capsys.readouterr().out
    j = Journal(journal)
    assert [e["move"] for e in j.entries("move")] == ["a1", "d2"]
    seqs = [e["seq"] for e in j.entries("event")]
    assert seqs == list(range(1, len(seqs) + 1))
    assert sub.wait_for(lambda s: [e["seq"] for e in s.events()] == seqs)
    assert sub.payloads("state")[-1]["engine"]["board"]["d2"] == "black"
    # --new: a new game in the same journal, the event numbers go on.
    assert masa(["run", "--camera", str(first), "--new", *common]) == 0
    j = Journal(journal)
    events = j.entries("event")
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert "new_game" in [e["kind"] for e in events]
    assert j.last_snapshot("tintar")["game_no"] == 2


def test_run_bad_options(tmp_path, capsys):
    assert masa(["run", "--camera", str(tmp_path / "none.mp4"), "--game", "tintar"]) == 2
    bad = tmp_path / "masa.toml"
    bad.write_text("[pins]\ngreen = 'x'\n")
    assert masa(["run", "--config", str(bad), "--camera", str(tmp_path)]) == 2
    assert "[pins] green must be a GPIO number" in capsys.readouterr().err
    few = tmp_path / "few.toml"
    few.write_text("[game]\nid = \"macao\"\nplayers = 4\n[pins]\nseat_leds = [5, 6]\n")
    assert masa(["run", "--config", str(few), "--camera", str(tmp_path)]) == 2
    assert "seat_leds" in capsys.readouterr().err


@pytest.mark.parametrize("text, words", [
    (None, "cannot be read"),                                        # a folder, not a file
    (b"\xff\xfe\x00junk", "not a text file"),
    ("[game]\nid = \"chess\"\n", "[game] id must be one of macao, tintar"),
    ("[camera]\nwidth = -5\n", "[camera] width must be from 16"),
    ("[camera]\ncalibration = \"/nonexistent/cal.json\"\n", "no such calibration file"),
    ("[game]\nlayout = \"LAYOUT\"\n", "table_mm must be [width, height]"),
    ("[game]\nlayout = \"ZONES\"\n", "zones must be a table"),
    ("[game]\nid = \"macao\"\noptions = { foo = 1 }\n", "[game] options: unknown option(s) for macao: foo"),
    ("[game]\nid = \"tintar\"\noptions = { foo = 1 }\n", "[game] options: unknown option(s) for tintar: foo"),
])
def test_run_broken_config_is_exit_2_with_the_reason(tmp_path, capsys, text, words):
    # Each broken masa.toml (or file it names) is a clear message and exit 2,
    # never a traceback, and nothing is started.
    (tmp_path / "l1.toml").write_text("game = \"macao\"\ntable_mm = 5\nzones = {}\n")
    (tmp_path / "l2.toml").write_text("game = \"macao\"\ntable_mm = [600, 600]\nzones = 3\n")
    pics = tmp_path / "pics"
    pics.mkdir()
    cv2.imwrite(str(pics / "a.png"), np.zeros((40, 40, 3), np.uint8))
    if text is None:
        cfg = tmp_path / "conf.d"
        cfg.mkdir()
    else:
        cfg = tmp_path / "masa.toml"
        if isinstance(text, bytes):
            cfg.write_bytes(text)
        else:
            cfg.write_text(text.replace("LAYOUT", str(tmp_path / "l1.toml"))
                           .replace("ZONES", str(tmp_path / "l2.toml")))
    assert masa(["run", "--config", str(cfg), "--camera", str(pics), "--mqtt", "mqtt://127.0.0.1:1",
                 "--journal", str(tmp_path / "j.db"), "--max-frames", "1"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize("damage", ["missing keys", "not json"])
def test_run_on_a_damaged_journal_is_exit_2_and_the_journal_is_kept(tmp_path, capsys, damage):
    import sqlite3

    path = tmp_path / "j.db"
    j = Journal(path)
    j.write(("snapshot", {"kind_of_game": "tintar", "players": 2}))
    j.close()
    if damage == "not json":
        with sqlite3.connect(path) as db:
            db.execute("UPDATE entries SET data = '{\"kind_of_game\": \"tintar\", broken'")
    pics = tmp_path / "pics"
    pics.mkdir()
    cv2.imwrite(str(pics / "a.png"), np.zeros((40, 40, 3), np.uint8))
    assert masa(["run", "--camera", str(pics), "--game", "tintar", "--mqtt", "mqtt://127.0.0.1:1",
                 "--journal", str(path), "--max-frames", "1"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and ("cannot be resumed" in err or "damaged" in err) and "Traceback" not in err
    assert Journal(path).count() == 1          # nothing was written to it
