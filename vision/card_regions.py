"""Card-shaped regions that no index reading explains: face-down cards, and face-up cards whose index
is hidden or unreadable.

``card_regions(work, known_quads, size_quads=None)`` is called by ``vision.cards.find_cards`` after
the index readings; it returns Contract 2 card dicts (``card: None``, ``face: "up" | "down"``,
``confidence: 0.0``, ``quad``) for regions that stand out from the table, have a card's shape and size,
and are not already covered by a reading.
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_FILL = 0.65
OPEN_FRACTION = 0.55


def _table_model(img: np.ndarray, card_px: float) -> np.ndarray:
    """The table's colour at every pixel: a median over about a card's length, from a small copy."""
    h, w = img.shape[:2]
    f = 4
    small = cv2.resize(img, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    k = int(max(5, round(1.4 * card_px / f))) | 1
    med = cv2.medianBlur(small, min(k, 255))
    return cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)


def foreground_mask(img: np.ndarray, card_px: float) -> np.ndarray:
    """Pixels that are not table: a colour change, or a brightness change a shadow cannot explain."""
    bg = _table_model(img, card_px).astype(np.float32) + 8.0
    f = cv2.GaussianBlur(img, (3, 3), 0).astype(np.float32) + 8.0
    ratio = f / bg
    lum = ratio.mean(axis=2)
    chroma = np.abs(ratio - lum[:, :, None]).max(axis=2) / lum
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(grey, (5, 5))
    std = np.sqrt(np.maximum(0, cv2.blur(grey * grey, (5, 5)) - mean * mean))
    k = int(max(5, round(1.4 * card_px))) | 1
    table_std = cv2.resize(cv2.medianBlur(cv2.resize(std, (std.shape[1] // 2, std.shape[0] // 2)).astype(np.uint8),
                                          min(255, k // 2 | 1)), (std.shape[1], std.shape[0])).astype(np.float32)
    textured = std - table_std > 10
    mask = (chroma > 0.15) | (lum > 1.3) | (lum < 0.35) | textured
    mask = mask.astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    k = int(max(5, OPEN_FRACTION * card_px)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return mask


def card_regions(work: np.ndarray, known_quads: list, size_quads: list | None = None) -> list[dict]:
    """Card-shaped regions not explained by a reading: face-down cards and unreadable face-up cards.
    The card size expected is the median of ``size_quads`` (default ``known_quads``)."""
    h, w = work.shape[:2]
    f = 4
    half = cv2.resize(work, (w // f, h // f), interpolation=cv2.INTER_AREA)
    expected = _expected_card_area(known_quads if size_quads is None else size_quads) / (f * f)
    card_px = np.sqrt(expected * 1.5) if expected else 0.11 * half.shape[1]
    mask = foreground_mask(half, card_px)
    known = np.zeros(mask.shape, np.uint8)
    for q in known_quads:
        cv2.fillPoly(known, [np.round(np.asarray(q) / f).astype(np.int32)], 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    lo_area = 0.45 * expected if expected else 0.002 * mask.size
    hi_area = 1.8 * expected if expected else 0.06 * mask.size
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if area < lo_area or area > hi_area:
            continue
        rect = cv2.minAreaRect(cnt)
        (rw, rh) = rect[1]
        if min(rw, rh) < 5:
            continue
        fill = area / (rw * rh)
        aspect = max(rw, rh) / min(rw, rh)
        if fill < MIN_FILL or not 1.15 <= aspect <= 1.95:
            continue
        region = np.zeros(mask.shape, np.uint8)
        cv2.drawContours(region, [cnt], -1, 255, -1)
        overlap = cv2.countNonZero(cv2.bitwise_and(region, known)) / max(1.0, area)
        if overlap > 0.3:
            continue
        pix = half[region > 0].astype(np.float32)
        low = pix.min(axis=1)
        chroma = pix.max(axis=1) - low
        top = np.percentile(low, 95)
        paper = top > 120 and float(np.mean((low > 0.8 * top) & (chroma < 0.25 * top))) > 0.6
        quad = _portrait_order(cv2.boxPoints(rect) * float(f))
        out.append({"card": None, "face": "up" if paper else "down", "confidence": 0.0, "quad": quad})
    return out


def _expected_card_area(quads) -> float:
    if not quads:
        return 0.0
    areas = [cv2.contourArea(np.asarray(q, np.float32)) for q in quads]
    return float(np.median(areas))


def _portrait_order(box: np.ndarray) -> np.ndarray:
    """Corners of a rectangle ordered TL, TR, BR, BL of the card held upright (short side on top)."""
    box = np.asarray(box, np.float64)
    c = box.mean(axis=0)
    ang = np.arctan2(box[:, 1] - c[1], box[:, 0] - c[0])
    box = box[np.argsort(ang)]                 # clockwise in image coordinates (y down)
    if np.linalg.norm(box[1] - box[0]) > np.linalg.norm(box[2] - box[1]):
        box = np.roll(box, -1, axis=0)
    return box
