"""Hand in view: skin colour plus frame difference, and where the hand reaches.

``HandDetector.detect(frame)`` says whether a hand (or any large moving
thing) is over the table and returns its mask.  Skin is found in YCrCb
(the usual Cr 135-175, Cb 85-135 box, lightness above a floor), cleaned by
an opening and kept only as blobs of at least ``min_area`` of the picture.
Because a wooden table is skin-coloured too, a pixel counts only where the
picture also differs from the background: the table as it was last seen
still (``still_frames`` frames in a row without motion), and only in a
blob that reaches the edge of the picture: a hand over the table comes
with its arm, from outside the camera's view.  Motion is the
difference to the previous frame above ``motion_threshold`` grey levels
over ``motion_area`` of the picture.  Either counts as "hand".
Known limit: a hand held perfectly still for ``still_frames`` frames
becomes background until it moves again.

``zones_touched(mask, zones_px)`` tells which zones (polygons in pixels)
the hand covers, so the controller knows which seat reached in.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CR_RANGE = (135, 175)
CB_RANGE = (85, 135)
Y_MIN = 50


@dataclass
class HandResult:
    hand: bool
    skin_fraction: float
    motion_fraction: float
    mask: np.ndarray            # uint8, 255 where the hand (skin) is


def skin_mask(frame: np.ndarray) -> np.ndarray:
    ycrcb = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)
    lo = np.array([Y_MIN, CR_RANGE[0], CB_RANGE[0]], np.uint8)
    hi = np.array([255, CR_RANGE[1], CB_RANGE[1]], np.uint8)
    mask = cv2.inRange(ycrcb, lo, hi)
    k = max(3, (min(frame.shape[:2]) // 120) | 1)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))


def check_frame(frame) -> None:
    """ValueError unless ``frame`` is a BGR picture: uint8, height x width x 3."""
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"a frame must be a BGR picture (numpy uint8, height x width x 3), "
                         f"not {type(frame).__name__}")
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3 or min(frame.shape[:2]) < 8:
        raise ValueError(f"a frame must be a BGR picture (uint8, height x width x 3, at least 8x8), "
                         f"not {frame.dtype} {'x'.join(map(str, frame.shape))}")


class HandDetector:
    def __init__(self, min_area: float = 0.01, motion_threshold: int = 40, motion_area: float = 0.02,
                 scale: int = 320, still_frames: int = 5, background_threshold: int = 30):
        self.still_frames = still_frames
        self.background_threshold = background_threshold
        self._background: np.ndarray | None = None
        self._still = 0
        self.min_area = min_area
        self.motion_threshold = motion_threshold
        self.motion_area = motion_area
        self.scale = scale
        self._prev: np.ndarray | None = None

    def _small(self, frame: np.ndarray) -> tuple[np.ndarray, float]:
        h, w = frame.shape[:2]
        f = self.scale / max(h, w)
        if f >= 1:
            return frame, 1.0
        return cv2.resize(frame, (int(w * f), int(h * f)), interpolation=cv2.INTER_AREA), f

    def detect(self, frame: np.ndarray) -> HandResult:
        check_frame(frame)
        small, f = self._small(frame)
        mask = skin_mask(small)
        if self._background is None or self._background.shape != small.shape:
            self._background = small.copy()
        changed = cv2.absdiff(small, self._background).max(axis=2) > self.background_threshold
        mask[~changed] = 0
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        total = small.shape[0] * small.shape[1]
        keep = np.zeros_like(mask)
        hgt, wid = mask.shape[:2]
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            at_edge = x <= 1 or y <= 1 or x + w >= wid - 1 or y + h >= hgt - 1
            if area >= self.min_area * total and at_edge:
                keep[labels == i] = 255
        skin = float(np.count_nonzero(keep)) / total
        gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
        motion = 0.0
        if self._prev is not None and self._prev.shape == gray.shape:
            diff = cv2.absdiff(gray, self._prev)
            motion = float(np.count_nonzero(diff > self.motion_threshold)) / total
        self._prev = gray
        self._still = self._still + 1 if motion <= self.motion_area / 4 else 0
        if self._still >= self.still_frames:
            self._background = small.copy()
        if f != 1.0:
            keep = cv2.resize(keep, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_NEAREST)
        hand = skin > 0 or motion > self.motion_area
        return HandResult(hand, skin, motion, keep)


def zones_touched(mask: np.ndarray, zones_px: dict[str, np.ndarray], min_pixels: int = 50,
                  cache: dict | None = None) -> tuple[str, ...]:
    """Names of the zones (polygons in picture pixels) the mask covers.
    ``cache`` (a dict the caller keeps) holds the zones drawn as masks, so a
    loop that asks every frame draws each zone once, not once a frame."""
    touched = []
    for name, poly in zones_px.items():
        key = (name, mask.shape[:2])
        zmask = cache.get(key) if cache is not None else None
        if zmask is None:
            zmask = np.zeros(mask.shape[:2], np.uint8)
            cv2.fillPoly(zmask, [np.round(np.asarray(poly)).astype(np.int32)], 255)
            if cache is not None:
                cache[key] = zmask
        if np.count_nonzero(cv2.bitwise_and(zmask, mask)) >= min_pixels:
            touched.append(name)
    return tuple(touched)
