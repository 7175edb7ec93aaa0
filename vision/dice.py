"""Finding the two dice on a backgammon board or beside it, and reading their pips.

Works on the top-down picture made by vision.backgammon (table plane at a
known scale), so a die is a bright square of known size whatever the
camera's tilt.

How: pips are small dark round spots (a morphological black-hat finds
them); the die's face is the bright region around them, cut at a share of
the face's own brightness; the face's outline gives the die's size and
shape.  A flat die's face is a square of the die's size; a die that leans
on something shows a foreshortened (oblong) face — that die is "cocked".
Pips are counted inside the face, at any rotation.

``read_dice(view, px_per_mm, board_mm)`` returns [a, b] (left to
right in the picture), "reroll" when a die is cocked or lies off the board
(the rules make the player roll again; such a die is never read as a
number), or None when two dice are not both seen.
"""

from __future__ import annotations

import cv2
import numpy as np

DIE_MM = 16.0
PIP_MIN_DARKNESS = 45       # black-hat value of a pip
FACE_SHARE = 0.78           # face = at least this share of the face's brightness (a leaning die's side is ~0.67)
SIZE_TOLERANCE = 0.28       # a face's long side within this of the die's size
FLAT_MIN_ASPECT = 0.9       # short side / long side of a flat die's face
FLAT_SIZE_TOLERANCE = 0.12  # a flat die's face is no larger than this over the die's size
SIDE_FACE_SHARE = 0.76     # an edge band of the face darker than this share of its middle: a side face
PIP_PLACE_TOLERANCE = 0.28  # a pip within this (share of half the face) of where the layout puts it
FACE_MIN_FILL = 0.78        # face area / its rectangle


def _pips(gray: np.ndarray, px_per_mm: float):
    """Centres of small dark round spots: local peaks of a black-hat the size of a pip."""
    size = int(round(DIE_MM * 0.26 * px_per_mm)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    bh = cv2.GaussianBlur(cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel), (0, 0), 1.0)
    pip_d = int(round(DIE_MM * 0.17 * px_per_mm)) | 1
    peaks = (bh >= cv2.dilate(bh, np.ones((pip_d, pip_d), np.uint8))) & (bh > PIP_MIN_DARKNESS)
    ys, xs = np.nonzero(peaks)
    out: list[tuple[float, float]] = []
    # a pip is much darker than the face round it
    bright = cv2.dilate(gray, np.ones((3 * pip_d, 3 * pip_d), np.uint8))
    keep = bright[ys, xs].astype(np.int32) - gray[ys, xs].astype(np.int32) > 2 * PIP_MIN_DARKNESS
    xs, ys = xs[keep], ys[keep]
    for x, y in sorted(zip(xs.tolist(), ys.tolist()), key=lambda p: -int(bh[p[1], p[0]])):
        if all((x - a) ** 2 + (y - b) ** 2 > (0.6 * pip_d) ** 2 for a, b in out):
            out.append((float(x), float(y)))
    return out


def _face_at(gray: np.ndarray, x: float, y: float, px_per_mm: float):
    """The bright face around a pip: (rotated rect, contour) or None."""
    die = DIE_MM * px_per_mm
    R = int(die * 1.3)
    x0, y0 = max(0, int(x) - R), max(0, int(y) - R)
    x1, y1 = min(gray.shape[1], int(x) + R + 1), min(gray.shape[0], int(y) + R + 1)
    patch = gray[y0:y1, x0:x1]
    ring_r = DIE_MM * 0.085 * px_per_mm * 2.0
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot(xx - x, yy - y)
    around = patch[(d > ring_r) & (d < ring_r + 3)]
    if around.size == 0:
        return None
    level = float(np.percentile(around, 75))
    # the face against what it lies on: Otsu's cut within the patch, kept near the face's own level
    otsu, _ = cv2.threshold(patch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    cut = min(max(float(otsu), FACE_SHARE * level), 0.95 * level)
    mask = (patch > cut).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # the pips are holes in the face: fill them by taking the outer contour
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    for c in contours:
        if cv2.pointPolygonTest(c, (x - x0, y - y0), True) >= -ring_r:
            if best is None or cv2.contourArea(c) > cv2.contourArea(best):
                best = c
    if best is None:
        return None
    best = best + np.array([x0, y0])
    return cv2.minAreaRect(best.astype(np.float32)), best


_Q = 0.54      # a pip's offset from the face's centre, as a share of half the face
_LAYOUTS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _has_side_face(gray: np.ndarray, rect) -> bool:
    """True when a band along one edge of the face is clearly darker than its middle: the side
    of a leaning die, seen together with its top."""
    size = 48
    box = cv2.boxPoints(rect).astype(np.float32)
    dst = np.array([[0, size], [0, 0], [size, 0], [size, size]], np.float32)
    M = cv2.getPerspectiveTransform(box, dst)
    face = cv2.warpPerspective(gray, M, (size, size)).astype(np.float32)
    # ignore the pips: the brightest half of each strip
    def level(a):
        v = a.ravel()
        return float(np.percentile(v, 75))
    mid = level(face[16:32, 16:32])
    lo, hi = int(0.04 * size), int(0.13 * size)      # outside the pips (they start 15 % in)
    strips = [face[lo:hi, 8:-8], face[-hi:-lo, 8:-8], face[8:-8, lo:hi], face[8:-8, -hi:-lo]]
    return any(level(st) < SIDE_FACE_SHARE * mid for st in strips)


def _layout_fits(rect, pips) -> bool:
    """True when the pips sit where a die's pips sit (a leaning die's squeezed face does not fit)."""
    n = len(pips)
    if n not in _LAYOUTS:
        return False
    (cx, cy), (w, h), ang = rect
    a = np.deg2rad(ang)
    ux, uy = np.cos(a), np.sin(a)
    local = []
    for x, y in pips:
        dx, dy = x - cx, y - cy
        local.append(((dx * ux + dy * uy) / (w / 2), (-dx * uy + dy * ux) / (h / 2)))
    for turn in range(2):
        expected = [(_Q * (-v if turn else u), _Q * (u if turn else v)) for u, v in _LAYOUTS[n]]
        left = list(expected)
        ok = True
        for lx, ly in local:
            d = [np.hypot(lx - ex, ly - ey) for ex, ey in left]
            if not d or min(d) > PIP_PLACE_TOLERANCE:
                ok = False
                break
            left.pop(int(np.argmin(d)))
        if ok:
            return True
    return False


def find_dice(view: np.ndarray, px_per_mm: float) -> list[dict]:
    """Dice in a top-down picture: [{"centre": (x, y), "pips": n, "cocked": bool}, ...]."""
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY) if view.ndim == 3 else view
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    die = DIE_MM * px_per_mm
    pips = _pips(gray, px_per_mm)
    dice: list[dict] = []
    used = [False] * len(pips)
    for i, (x, y) in enumerate(pips):
        if used[i]:
            continue
        face = _face_at(gray, x, y, px_per_mm)
        if face is None:
            continue
        (cx, cy), (w, h), _ = face[0]
        long_side, short_side = max(w, h), min(w, h)
        if not (1 - SIZE_TOLERANCE) * die <= long_side <= (1 + SIZE_TOLERANCE) * die:
            continue
        area = cv2.contourArea(face[1].astype(np.float32))
        if area < FACE_MIN_FILL * w * h:
            continue
        inside = []
        for j, (px, py) in enumerate(pips):
            if cv2.pointPolygonTest(face[1].astype(np.float32), (px, py), False) >= 0:
                inside.append(j)
        if i not in inside:
            continue
        for j in inside:
            used[j] = True
        cocked = short_side < FLAT_MIN_ASPECT * long_side or long_side > (1 + FLAT_SIZE_TOLERANCE) * die
        cocked = cocked or _has_side_face(gray, face[0])
        layout_ok = _layout_fits(face[0], [pips[j] for j in inside])
        dice.append({"centre": (float(cx), float(cy)), "pips": len(inside), "cocked": bool(cocked),
                     "layout_ok": layout_ok, "size": (float(long_side), float(short_side))})
    return dice


def read_dice(view: np.ndarray, px_per_mm: float, board_mm) -> list | str | None:
    """The roll shown by the dice: [a, b], "reroll", or None (see the module docstring).

    ``board_mm`` = (x, y, width, height) of the board in the view's millimetres.
    """
    dice = find_dice(view, px_per_mm)
    if not dice:
        return None
    bx, by, bw, bh = (v * px_per_mm for v in board_mm)
    for d in dice:
        x, y = d["centre"]
        d["off_board"] = not (bx <= x <= bx + bw and by <= y <= by + bh)
    if any(d["cocked"] or d["off_board"] for d in dice):
        return "reroll"
    if len(dice) != 2 or any(not d["layout_ok"] for d in dice):
        return None
    dice.sort(key=lambda d: d["centre"][0])
    return [d["pips"] for d in dice]
