"""The voice queue and its dedupe; frame sources and a camera that goes away."""

import io
import shutil
import wave

import numpy as np
import pytest

from hardware.camera import (CameraLost, EndOfFrames, ImageFolderSource, Resilient, ScriptedSource,
                             VideoCaptureSource, open_source)
from hardware.voice import Voice


def test_print_voice_says_once_per_key():
    out = io.StringIO()
    v = Voice("ro", backend="print", out=out)
    assert v.say("Mutare ilegală: trebuie să dai culoare", key=("must_follow_suit", 1))
    assert not v.say("Mutare ilegală: trebuie să dai culoare", key=("must_follow_suit", 1))
    assert v.say("Mutare ilegală: trebuie să dai culoare", key=("must_follow_suit", 2))
    v.close()
    assert out.getvalue().count("Mutare ilegală") == 2
    assert "[voce] Mutare ilegală" in out.getvalue()


def test_voice_forget_allows_the_same_flag_again():
    v = Voice("en", backend="print", out=io.StringIO())
    v.say("x", key="k")
    v.forget()
    assert v.say("x", key="k")
    v.close()


def test_bad_voice_options():
    with pytest.raises(ValueError, match="language"):
        Voice("fr", backend="print")
    with pytest.raises(ValueError, match="backend"):
        Voice("ro", backend="radio")


def test_wav_sink_with_espeak(tmp_path):
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng not installed (apt-get install espeak-ng)")
    v = Voice("ro", backend="wav", wav_dir=tmp_path)
    v.say("Mutare ilegală")
    v.close()
    assert not v.errors
    assert len(v.wavs) == 1
    with wave.open(str(v.wavs[0])) as w:
        assert w.getnframes() / w.getframerate() > 0.3


def test_scripted_source_and_end():
    s = ScriptedSource([1, 2, 3])
    assert [s.read(), s.read(), s.read()] == [1, 2, 3]
    with pytest.raises(EndOfFrames):
        s.read()
    s = ScriptedSource(lambda i: i if i < 5 else None, start=3)
    assert [s.read(), s.read()] == [3, 4]
    with pytest.raises(EndOfFrames):
        s.read()


def test_camera_that_stalls_is_reported_and_comes_back():
    clock = [0.0]
    statuses = []
    frames = iter(["a", ScriptedSource.STALL, ScriptedSource.STALL, ScriptedSource.STALL, "b"])

    def script():
        for f in frames:
            clock[0] += 1.0
            yield f

    r = Resilient(ScriptedSource(script()), on_status=lambda k, t: statuses.append(k),
                  stall_seconds=1.5, min_backoff=0.0, clock=lambda: clock[0], sleep=lambda s: None)
    got = [r.read() for _ in range(5)]
    assert "a" in got and "b" in got
    assert statuses == ["lost", "back"]


def test_camera_lost_exception_retries_with_backoff():
    attempts = []

    class Flaky(ScriptedSource):
        def _open(self):
            attempts.append(1)
            if len(attempts) in (2, 3):
                raise CameraLost("unplugged")
            super()._open()

    def frames():
        yield "a"
        raise CameraLost("usb gone")

    src = Flaky(iter(["a", "b"]))
    src._frames = frames()
    clock = [0.0]
    statuses = []

    def sleep(s):
        clock[0] += s

    r = Resilient(src, on_status=lambda k, t: statuses.append((k, t)), min_backoff=0.5,
                  max_backoff=2.0, clock=lambda: clock[0], sleep=sleep)
    assert r.read() == "a"
    assert r.read() is None
    assert statuses == [("lost", "usb gone")]
    for _ in range(200):
        clock[0] += 0.05
        try:
            r.read()
        except EndOfFrames:
            break
    assert len(attempts) >= 3
    assert r.reconnects >= 2


def test_image_folder_and_video_file(tmp_path):
    import cv2

    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:02d}.png"), np.full((20, 30, 3), i * 50, np.uint8))
    src = open_source(str(tmp_path))
    assert isinstance(src, ImageFolderSource)
    assert [int(src.read()[0, 0, 0]) for _ in range(3)] == [0, 50, 100]
    with pytest.raises(EndOfFrames):
        src.read()
    video = tmp_path / "v.avi"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (32, 24))
    for i in range(4):
        w.write(np.full((24, 32, 3), 40 * i, np.uint8))
    w.release()
    v = open_source(str(video))
    assert isinstance(v, VideoCaptureSource)
    n = 0
    with pytest.raises(EndOfFrames):
        while True:
            assert v.read().shape == (24, 32, 3)
            n += 1
    assert n == 4


def test_bad_camera_specs(tmp_path):
    with pytest.raises(ValueError):
        open_source("")
    with pytest.raises(ValueError, match="not picamera"):
        open_source(str(tmp_path / "nothing.mp4"))
    with pytest.raises(ValueError, match="no images"):
        ImageFolderSource(tmp_path)


def test_pi_camera_without_picamera2_is_reported_as_lost():
    import importlib.util

    from hardware.camera import PiCameraSource

    if importlib.util.find_spec("picamera2") is not None:
        pytest.skip("picamera2 is installed here: this test is for machines without it")
    with pytest.raises(CameraLost, match="picamera2 is not installed"):
        PiCameraSource((640, 480)).open()


def test_no_frame_ready_waits_a_little_instead_of_spinning():
    # A source with no frame ready (before the stall limit) must not make the
    # loop spin a core of the Pi: each empty read waits a little.
    slept = []
    r = Resilient(ScriptedSource(iter([ScriptedSource.STALL] * 3 + ["a"])), stall_seconds=60.0,
                  clock=lambda: 0.0, sleep=slept.append)
    assert [r.read() for _ in range(4)] == [None, None, None, "a"]
    assert len(slept) == 3 and all(s > 0 for s in slept)


def test_a_long_session_keeps_only_the_recent_spoken_lines():
    import io

    from hardware.voice import KEEP, Voice
    voice = Voice("ro", backend="print", out=io.StringIO(), echo=False)
    for i in range(KEEP + 50):
        voice.say(f"linia {i}", key=i)
    voice.close()
    assert len(voice.spoken) == KEEP and voice.spoken[-1] == f"linia {KEEP + 49}"
