"""Frame sources behind one interface, and a camera that comes back.

Every source has ``open()``, ``read() -> frame | None`` and ``close()``; a
frame is a BGR ``numpy`` image (or, for scripted sources, whatever the
script renders).  ``read`` returns None when no frame is ready yet, raises
:class:`CameraLost` when the device went away and :class:`EndOfFrames`
when a file, a folder or a script is finished.

* :class:`PiCameraSource` — the Pi camera through picamera2 (imported when
  opened, so nothing needs it elsewhere);
* :class:`VideoCaptureSource` — OpenCV VideoCapture: a USB webcam index,
  an RTSP / HTTP stream or a video file;
* :class:`ImageFolderSource` — the images of a folder in name order;
* :class:`ScriptedSource` — frames from a callable or an iterator (the demo
  renders a scripted game into it).

:class:`Resilient` wraps any source: a camera that stops sending frames
(no frame for ``stall_seconds``) or fails is reported through ``on_status``
and reopened with exponential backoff, while the game simply waits.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class CameraLost(RuntimeError):
    """The camera stopped answering (unplugged, stream dropped)."""


class EndOfFrames(Exception):
    """A finite source (file, folder, script) has no more frames."""


class FrameSource:
    """The interface; subclasses implement ``_open``, ``_read``, ``_close``."""

    name = "source"

    def __init__(self):
        self.index = 0          # frames delivered so far
        self.is_open = False

    def open(self) -> "FrameSource":
        if not self.is_open:
            self._open()
            self.is_open = True
        return self

    def read(self):
        if not self.is_open:
            self.open()
        frame = self._read()
        if frame is not None:
            self.index += 1
        return frame

    def close(self) -> None:
        if self.is_open:
            self._close()
            self.is_open = False

    def _open(self) -> None:
        pass

    def _close(self) -> None:
        pass

    def _read(self):
        raise EndOfFrames

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class PiCameraSource(FrameSource):
    """The Raspberry Pi camera (picamera2), BGR frames of ``size``."""

    def __init__(self, size: tuple[int, int] = (1920, 1080)):
        super().__init__()
        self.size = tuple(size)
        self.name = f"picamera {self.size[0]}x{self.size[1]}"
        self._cam = None

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraLost("picamera2 is not installed (on the Pi: pip install .[pi] "
                             "or apt-get install python3-picamera2)") from exc
        try:
            cam = Picamera2()
            # picamera2's "RGB888" is laid out B, G, R in memory: OpenCV's order.
            cam.configure(cam.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
            cam.start()
        except Exception as exc:  # libcamera raises many kinds
            raise CameraLost(f"the Pi camera did not start: {exc}") from exc
        self._cam = cam

    def _read(self):
        try:
            return self._cam.capture_array("main")
        except Exception as exc:
            raise CameraLost(f"the Pi camera stopped: {exc}") from exc

    def _close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


class VideoCaptureSource(FrameSource):
    """OpenCV VideoCapture: ``0`` (a webcam), ``rtsp://...``, or a video file."""

    def __init__(self, spec: int | str, size: tuple[int, int] | None = None):
        super().__init__()
        if isinstance(spec, str) and spec.isdigit():
            spec = int(spec)
        self.spec = spec
        self.size = size
        self.is_file = isinstance(spec, str) and "://" not in spec
        if self.is_file and not Path(spec).is_file():
            raise ValueError(f"camera: no video file {spec!r}")
        self.name = str(spec)
        self._cap = None

    def _open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.spec)
        if not cap.isOpened():
            cap.release()
            raise CameraLost(f"camera {self.spec!r} cannot be opened")
        if self.size and not self.is_file:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def _read(self):
        ok, frame = self._cap.read()
        if not ok or frame is None:
            if self.is_file:
                raise EndOfFrames
            raise CameraLost(f"camera {self.spec!r} sent no frame")
        return frame

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageFolderSource(FrameSource):
    """The images of a folder, in name order (``repeat`` each several times)."""

    def __init__(self, folder: str | Path, repeat: int = 1):
        super().__init__()
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise ValueError(f"camera: no folder {str(folder)!r}")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise ValueError(f"camera: no images ({', '.join(IMAGE_SUFFIXES)}) in {str(folder)!r}")
        self.repeat = max(1, int(repeat))
        self.name = str(self.folder)
        self._pos = 0

    def _read(self):
        import cv2

        i = self._pos // self.repeat
        if i >= len(self.files):
            raise EndOfFrames
        self._pos += 1
        frame = cv2.imread(str(self.files[i]), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraLost(f"cannot read image {self.files[i]}")
        return frame


class ScriptedSource(FrameSource):
    """Frames from ``frames``: an iterable, or a callable ``f(index) -> frame``
    returning None at the end.  A script may yield the marker ``STALL`` (no
    frame now) or raise CameraLost to play a failing camera.  ``start``
    skips the first frames (resuming a demo)."""

    STALL = object()

    def __init__(self, frames: Iterable | Callable[[int], object], name: str = "script", start: int = 0):
        super().__init__()
        self.name = name
        self._frames = frames
        self._it: Iterator | None = None
        self.start = start
        self.index = start

    def _open(self) -> None:
        if not callable(self._frames) and self._it is None:
            self._it = iter(self._frames)
            for _ in range(self.start):
                next(self._it, None)

    def _read(self):
        if callable(self._frames):
            frame = self._frames(self.index)
            if frame is None:
                raise EndOfFrames
        else:
            try:
                frame = next(self._it)
            except StopIteration:
                raise EndOfFrames from None
        if frame is ScriptedSource.STALL:
            return None
        return frame


class Resilient:
    """Wraps a source: reports a lost camera and reopens it with backoff.

    ``read()`` returns a frame or None (nothing this time: the loop waits);
    it raises EndOfFrames only at the end of a finite source.  ``on_status``
    gets ("lost", reason) once when the camera goes away and ("back", name)
    when frames flow again.
    """

    def __init__(self, source: FrameSource, on_status: Callable[[str, str], None] | None = None,
                 stall_seconds: float = 5.0, min_backoff: float = 0.5, max_backoff: float = 10.0,
                 poll_seconds: float = 0.005,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep):
        self.source = source
        self.on_status = on_status or (lambda kind, text: None)
        self.stall_seconds = stall_seconds
        self.poll_seconds = poll_seconds
        self.min_backoff = min_backoff
        self.max_backoff = max_backoff
        self.clock = clock
        self.sleep = sleep
        self.lost = False
        self.reconnects = 0
        self._backoff = min_backoff
        self._next_try = 0.0
        self._last_frame_at = clock()

    def _lose(self, reason: str) -> None:
        if not self.lost:
            self.lost = True
            self.on_status("lost", reason)
        try:
            self.source.close()
        except Exception:
            self.source.is_open = False
        self._next_try = self.clock() + self._backoff
        self._backoff = min(self.max_backoff, self._backoff * 2)

    def read(self):
        now = self.clock()
        if self.lost:
            if now < self._next_try:
                self.sleep(min(0.05, self._next_try - now))
                return None
            self.reconnects += 1
            try:
                self.source.open()
            except CameraLost as exc:
                self._lose(str(exc))
                return None
            self._last_frame_at = now
        try:
            frame = self.source.read()
        except CameraLost as exc:
            self._lose(str(exc))
            return None
        if frame is None:
            if now - self._last_frame_at > self.stall_seconds:
                self._lose(f"no frame from {self.source.name} for {self.stall_seconds:g} s")
            else:
                self.sleep(self.poll_seconds)   # no frame ready: wait a little, do not spin the CPU
            return None
        self._last_frame_at = now
        if self.lost:
            self.lost = False
            self._backoff = self.min_backoff
            self.on_status("back", self.source.name)
        return frame

    @property
    def index(self) -> int:
        return self.source.index

    def close(self) -> None:
        self.source.close()


def open_source(spec: str, size: tuple[int, int] | None = None) -> FrameSource:
    """A source from a ``--camera`` value: ``picamera``, a device index,
    ``rtsp://...``/``http://...``, a video file or a folder of images."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("camera: give picamera, a device number, a URL, a video file or a folder")
    spec = spec.strip()
    if spec == "picamera":
        return PiCameraSource(size or (1920, 1080))
    if spec.isdigit() or "://" in spec:
        return VideoCaptureSource(spec, size)
    p = Path(spec)
    if p.is_dir():
        return ImageFolderSource(p)
    if p.is_file():
        return VideoCaptureSource(spec)
    raise ValueError(f"camera: {spec!r} is not picamera, a device number, a URL, a file or a folder")
