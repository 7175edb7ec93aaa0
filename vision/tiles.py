"""Reading rummy tiles (Remi, Rummy) laid face up on the table, in rows and melds.

Tile names as in the architecture's notation: colour R (red), Y (yellow),
B (blue), K (black) + number 1-13 (``R7``, ``K13``); jokers ``J1`` (red face)
and ``J2`` (black face).  Vision does not import the engine; it only emits
these strings.

How: each tile is found by its face: a region that is its own
neighbourhood's brightest, closed all round by the tile's darker bevel
(which also parts the touching tiles of a meld, and the tile from a white
cloth), shaped like a face and with printed ink inside; a second, finer look
finds faces whose bevel glare has washed faint.  Each tile is seen straight
on (both ways up are tried) with its light made even (a shadow's edge is not
ink); its ink is what differs from the face colour; the ink's colour is the
direction in which it departs from the face, taken relative to the face (so
a warm lamp does not turn yellow into red, and a thin stroke blurred into
the face keeps its hue); the glyph is matched against the set's numerals and
joker face drawn in the set's font, and must have the matched glyph's height
and sit centred (a "1" left of a "0" lost to glare is not a 1).

Abstention (as for cards): a tile whose best match is weak or close to the
second best is reported with ``"tile": None`` — a missed tile is better
than a wrong one at a real table.

``read(image)`` returns the "tiles" value of Contract 2:
``[{"tile": "R7" | None, "confidence": 0.97, "quad": [[x, y] x 4]}, ...]``
(quad: top-left, top-right, bottom-right, bottom-left of the tile as it reads).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import imaging
from vision.fast_stats import median, median_last_axis, percentile_rows
from vision.see import SeeError
from vision.render_boards import TILE_COLOURS, TILE_FACE, TILE_H, TILE_W, draw_tile_glyph

__all__ = ["read", "annotate", "NoTilesFound"]

PX_PER_MM = 3.0                   # a tile is looked at this sharp
MIN_CONFIDENCE = 0.5              # below this the tile is reported unread (None)
INK_DISTANCE = 45.0               # Lab distance from the face that surely is ink
INK_DISTANCE_MIN = 16.0           # ... and below which it surely is not
GLYPH_SIZE = (56, 44)             # (width, height) glyph masks are compared at
GLYPH_AHEAD = 2.0                 # a glyph whose mismatch is this many times smaller than the next one's is sure
COLOUR_MARGIN_DEG = 8.0           # likewise for the colour: its direction from the face is this much closer
GLYPH_HEIGHT_TOLERANCE = 0.12     # the ink's height within this share of the matched glyph's
SPECK_SHARE = 0.04                # ink smaller than this share of the glyph's largest stroke is a speck
GLYPH_OFF_CENTRE_MAX = 0.1        # the ink's centre at most this share of the tile's width off its middle
EVEN_LIGHT_PX = 9                 # px (reading scale): wider than a stroke, so the face's light is seen around ink
FACE_W, FACE_H = 23.4, 33.4       # a tile's face inside its bevel (mm)
FACE_NEIGHBOURHOOD = 7            # px: a face pixel is (nearly) the brightest this close around it
FACE_DARKER = (0.10, 0.04)        # a pixel this much darker than its neighbourhood's brightest is not face
                                  # (first look; second look for bevels glare washed faint)
FACE_AREA = (600, 30000)          # px, a face's size in a 1280x720 frame
FACE_ASPECT = (0.55, 0.85)        # short / long side of a face's rectangle
FACE_FILL = 0.85                  # a face fills its rotated rectangle at least this much
FACE_INK_MIN = 0.03               # share of a face's outline taken by its printed glyph (holes)
FACE_MARGIN_PX = 2.0              # the face is taken this much larger for the tile's outline (reads surer)
FACE_SIZE_SPREAD = 0.3            # a face's long side within this share of the typical one
ROW_GAP_MM = 0.6                  # between touching tiles of a meld
ROW_NEIGHBOUR_NEAR = 0.6          # a guessed neighbour this close (share of a face's width) to a tile is that tile
ROW_NEIGHBOUR_BRIGHTNESS = 0.9    # a guessed neighbour is looked at only when about as bright as its tile's face


class NoTilesFound(SeeError):
    """No rummy tile could be found in the picture."""


def _glyph_mask(ink: np.ndarray) -> np.ndarray | None:
    """The ink of a glyph cropped to its box and scaled to GLYPH_SIZE (keeping its width share)."""
    ys, xs = np.nonzero(ink)
    if len(xs) < 12:
        return None
    crop = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    h, w = crop.shape
    gw, gh = GLYPH_SIZE
    new_w = max(1, min(gw, int(round(w * gh / h))))
    crop = cv2.resize(crop, (new_w, gh), interpolation=cv2.INTER_AREA)
    out = np.zeros((gh, gw), np.float32)
    x0 = (gw - new_w) // 2
    out[:, x0:x0 + new_w] = crop
    out = _unit(cv2.GaussianBlur(out, (0, 0), 0.8))
    return out if out.any() else None


def _unit(mask: np.ndarray) -> np.ndarray:
    """``mask`` less its mean, scaled to length 1 (so a sum of products is a correlation)."""
    out = mask - mask.mean()
    n = np.linalg.norm(out)
    return out / n if n > 0 else out


def _glyph_band(face_img: np.ndarray) -> np.ndarray:
    """The part of an upright tile that carries the number (above the small ring)."""
    h = face_img.shape[0]
    return face_img[int(0.12 * h):int(0.64 * h)]


def _clean_band(band: np.ndarray) -> np.ndarray:
    """The glyph band without ink touching its sides or ends (the tile's edge, a shadow, a neighbour)
    and without specks far smaller than its largest stroke (bits of a bevel would widen the glyph)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(band.astype(np.uint8), 8)
    h, w = band.shape
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, a = stats[i]
        if x <= 0 or y <= 0 or x + bw >= w or y + bh >= h or a < 4:
            continue
        keep[i] = True
    if keep.any():
        largest = stats[keep, cv2.CC_STAT_AREA].max()
        keep &= stats[:, cv2.CC_STAT_AREA] >= SPECK_SHARE * largest
    return keep[labels]


_TEMPLATES: dict[str, np.ndarray] | None = None
_TEMPLATE_HEIGHTS: dict[str, float] = {}    # glyph -> its ink's height as a share of the tile's


def _templates() -> dict[str, np.ndarray]:
    """Glyph masks of 1-13 and the joker face, drawn in the set's font at the reading scale."""
    global _TEMPLATES
    if _TEMPLATES is None:
        k = PX_PER_MM
        out = {}
        for name in [f"K{n}" for n in range(1, 14)] + ["J2"]:
            img = np.full((int(TILE_H * k), int(TILE_W * k)), 255, np.uint8)
            draw_tile_glyph(img, name, (0,), k)
            ink = _glyph_band(img) < 128
            m = _glyph_mask(ink)
            if m is not None:
                glyph = "J" if name == "J2" else name[1:]
                out[glyph] = m
                rows = np.nonzero(ink.any(axis=1))[0]
                _TEMPLATE_HEIGHTS[glyph] = (rows.max() - rows.min() + 1) / img.shape[0]
        _TEMPLATES = out
    return _TEMPLATES


_TEMPLATE_STACKS: tuple | None = None


def _template_stacks() -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """The templates as rows of one array, (names, rows), and the right halves of the two-digit
    ones (10-13) made unit, (names, rows): one product and one sum per row scores them all (the
    same sums, bit for bit, as template by template)."""
    global _TEMPLATE_STACKS
    if _TEMPLATE_STACKS is None:
        templates = _templates()
        names = list(templates)
        two_digit = [n for n in names if len(n) == 2]
        _TEMPLATE_STACKS = (names, np.array([templates[n].ravel() for n in names]), two_digit,
                            np.array([_unit(templates[n][:, GLYPH_SIZE[0] // 2:]).ravel() for n in two_digit]))
    return _TEMPLATE_STACKS


def _glyph_in_place(glyph: str, band: np.ndarray, tile_h: int, tile_w: int) -> bool:
    """Whether the ink read as ``glyph`` has that glyph's height and sits centred across the tile:
    a "1" left of centre and short is the rest of a "10" whose "0" was lost to glare."""
    ys, xs = np.nonzero(band)
    height = (ys.max() - ys.min() + 1) / tile_h
    off_centre = (xs.min() + xs.max() + 1) / 2.0 / tile_w - 0.5
    return (abs(height / _TEMPLATE_HEIGHTS[glyph] - 1.0) <= GLYPH_HEIGHT_TOLERANCE
            and abs(off_centre) <= GLYPH_OFF_CENTRE_MAX)


_FACE_BGR = np.array(TILE_FACE, np.float32)
# each tile colour's departure from the face, and its length: (name, direction, length)
_COLOUR_DIRECTIONS = [(name, d, float(np.linalg.norm(d)))
                      for name, d in ((n, np.array(bgr, np.float32) - _FACE_BGR) for n, bgr in TILE_COLOURS.items())]


def _colour_name(ink_bgr: np.ndarray, face_bgr: np.ndarray) -> tuple[str, float]:
    """The tile colour of ink (mean BGR); (name, margin in degrees).

    The ink is first taken relative to the face (white balance: a warm lamp does
    not turn yellow into red); then only the direction in which it departs from
    the face counts, not how far: a thin or blurred stroke is ink mixed with
    face, which lies on the line from the face to the ink's true colour."""
    face = _FACE_BGR
    step = ink_bgr / np.maximum(face_bgr, 1.0) * face - face
    length = float(np.linalg.norm(step))
    if length < 1e-6:
        return "K", 0.0
    angles = {}
    for name, ref, ref_length in _COLOUR_DIRECTIONS:
        cos = float(step @ ref) / (length * ref_length)
        angles[name] = float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))
    order = sorted(angles, key=angles.get)
    return order[0], angles[order[1]] - angles[order[0]]


def _even_light(tile_img: np.ndarray) -> np.ndarray:
    """The tile with its light made even: each pixel is scaled by the brightness of the face
    around it (the brightest nearby, smoothed), so a shadow's edge or a glare's slope across the
    tile does not read as ink."""
    h, w = tile_img.shape[:2]
    k = EVEN_LIGHT_PX
    gray = cv2.cvtColor(tile_img, cv2.COLOR_BGR2GRAY)
    face_light = cv2.blur(cv2.dilate(gray, np.ones((k, k), np.uint8)), (k, k)).astype(np.float32)
    typical = median(face_light[int(0.08 * h):int(0.92 * h):2, int(0.1 * w):int(0.9 * w):2])
    gain = typical / np.maximum(face_light, 1.0)
    return np.clip(tile_img.astype(np.float32) * gain[:, :, None], 0, 255).astype(np.uint8)


def _confidence(top: float, second: float, colour_margin: float) -> float:
    """How sure a tile's reading is, 0-1: the glyph's match, how far it is ahead of the next
    numeral (measured against what is left to match perfectly), and how clear the colour is."""
    ahead = (1.0 - second) / max(1e-3, 1.0 - top)
    return float(np.clip(top, 0, 1) * min(1.0, (ahead - 1.0) / (GLYPH_AHEAD - 1.0))
                 * min(1.0, colour_margin / COLOUR_MARGIN_DEG))


def read_tile(tile_img: np.ndarray) -> tuple[str | None, float]:
    """(name or None, confidence) of one tile seen straight on (upright or upside down)."""
    best = (None, 0.0, -1.0, None)
    tile_img = _even_light(tile_img)
    lab = cv2.cvtColor(tile_img, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = tile_img.shape[:2]
    # the face's colour: the brighter part of the tile's inside (every other pixel is plenty)
    inner = lab[int(0.08 * h):int(0.92 * h):2, int(0.1 * w):int(0.9 * w):2].reshape(-1, 3)
    bright = inner[:, 0] >= percentile_rows(inner[None, :, 0], 60)[0]
    face_lab = median_last_axis(inner[bright].T)
    inner_bgr = tile_img[int(0.08 * h):int(0.92 * h):2, int(0.1 * w):int(0.9 * w):2].reshape(-1, 3)
    face_bgr = median_last_axis(inner_bgr[bright].T).astype(np.float32)
    # the Lab distance from the face: np.linalg.norm(axis=2)'s sum, ((L + a) + b), written out (faster)
    sq = np.square(lab - face_lab[None, None, :])
    dist = np.sqrt(sq[:, :, 0] + sq[:, :, 1] + sq[:, :, 2])
    # ink against face: Otsu's cut on the distance, within sane bounds (dim light lowers the contrast)
    otsu, _ = cv2.threshold(np.clip(dist, 0, 255).astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink_all = dist > float(np.clip(otsu, INK_DISTANCE_MIN, INK_DISTANCE))
    ink_all[:int(0.06 * h)] = False
    ink_all[-int(0.06 * h):] = False
    ink_all[:, :int(0.08 * w)] = False
    ink_all[:, -int(0.08 * w):] = False
    names, rows, two_digit, right_rows = _template_stacks()
    for flip in (False, True):
        ink = ink_all[::-1, ::-1] if flip else ink_all
        img = tile_img[::-1, ::-1] if flip else tile_img
        band = _clean_band(_glyph_band(ink))
        mask = _glyph_mask(band)
        if mask is None:
            continue
        scores = dict(zip(names, (rows * mask.ravel()).sum(axis=1).tolist()))
        order = sorted(scores, key=scores.get, reverse=True)
        top, second = scores[order[0]], scores[order[1]]
        if len(order[0]) == 2 and len(order[1]) == 2:
            # 10-13 share their "1": how sure the reading is shows in the second digit alone
            right = _unit(mask[:, GLYPH_SIZE[0] // 2:])
            unit_scores = dict(zip(two_digit, (right_rows * right.ravel()).sum(axis=1).tolist()))
            unit_order = sorted(unit_scores, key=unit_scores.get, reverse=True)
            if unit_order[0] != order[0]:
                top = second = 0.0
            else:
                top, second = unit_scores[unit_order[0]], unit_scores[unit_order[1]]
        if top > best[2]:
            # the ink's colour from its core (the strongest half), not its blurred rim
            d = _glyph_band(dist[::-1, ::-1] if flip else dist)[band]
            ink_px = _glyph_band(img)[band][d >= median(d)]
            if not _glyph_in_place(order[0], band, h, w):
                top = second = 0.0           # counts as no reading (a part of a glyph, or a stray)
            best = (order[0], top - second, top, ink_px)
    glyph, margin, score, ink_px = best
    if glyph is None or ink_px is None or len(ink_px) == 0:
        return None, 0.0
    colour, colour_margin = _colour_name(ink_px.reshape(-1, 3).astype(np.float32).mean(axis=0), face_bgr)
    confidence = _confidence(score, score - margin, colour_margin)
    if glyph == "J":
        if colour not in ("R", "K"):
            return None, confidence
        name = "J1" if colour == "R" else "J2"
    else:
        name = f"{colour}{glyph}"
    return name, confidence


def _face_candidates(gray: np.ndarray, local_max: np.ndarray, darker_share: float) -> list:
    """Rotated rectangles (full-size pixels) of regions that are within ``darker_share`` of their
    neighbourhood's brightest, closed all round, shaped like a tile's face and with ink (holes) inside.

    The regions are told apart at half size (fast): a 2x2 block is free only when all four of its
    pixels are, so a bevel one pixel thin still parts two faces."""
    h, w = gray.shape
    limit = cv2.convertScaleAbs(local_max, alpha=1.0 - darker_share, beta=-2.0)
    free = cv2.erode(cv2.compare(gray, limit, cv2.CMP_GE), np.ones((2, 2), np.uint8), anchor=(0, 0))
    free = np.ascontiguousarray(free[0:h - 1:2, 0:w - 1:2])
    n, labels, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    x, y, bw, bh, area = stats.T
    sizeable = np.nonzero((area >= FACE_AREA[0] / 4) & (area <= FACE_AREA[1] / 4) & (bw >= 8) & (bh >= 8))[0]
    found = []
    for i in sizeable:
        if i == 0:
            continue
        x0, y0 = int(x[i]), int(y[i])
        comp = (labels[y0:y0 + int(bh[i]), x0:x0 + int(bw[i])] == i).astype(np.uint8)
        contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(outline)
        outline_area = cv2.contourArea(outline)
        if rw * rh <= 0 or outline_area <= 0:
            continue
        aspect = min(rw, rh) / max(rw, rh)
        fill = outline_area / (rw * rh)
        holes = 1.0 - area[i] / outline_area          # the glyph and ring printed on the face
        if FACE_ASPECT[0] < aspect < FACE_ASPECT[1] and fill > FACE_FILL and holes > FACE_INK_MIN:
            # back to full size (the outline runs through the border blocks' centres: measured on
            # rendered tiles, half a pixel more all round gives the face's true size)
            found.append((((cx + x0) * 2 + 0.5, (cy + y0) * 2 + 0.5), (rw * 2 + 1.0, rh * 2 + 1.0), ang))
    return found


def _face_rects(gray: np.ndarray) -> list:
    """Rotated rectangles (pixels of the grey frame ``gray``) of tile faces, each found on its own: a face is a
    region that is its own neighbourhood's brightest, closed all round by its darker bevel
    (which also parts touching tiles), shaped like a tile, with ink (holes) inside.  A second,
    finer look finds faces whose bevel glare has washed faint (only where no face was yet)."""
    gray = cv2.GaussianBlur(gray, (0, 0), 0.8)
    local_max = cv2.dilate(gray, np.ones((FACE_NEIGHBOURHOOD, FACE_NEIGHBOURHOOD), np.uint8))
    found, typical = [], None
    for darker_share in FACE_DARKER:
        candidates = _face_candidates(gray, local_max, darker_share)
        if typical is None and candidates:
            typical = float(np.median([max(r[1]) for r in candidates]))
        for r in candidates:
            # a tile's face is as big as the others' (a cloth square or a glare patch is not)
            if abs(max(r[1]) / typical - 1.0) >= FACE_SIZE_SPREAD:
                continue
            if any(np.hypot(r[0][0] - f[0][0], r[0][1] - f[0][1]) < 0.5 * min(f[1]) for f in found):
                continue
            found.append(r)
    return found


def _tile_quad_from_face(rect) -> np.ndarray:
    """The tile's four corners (as it reads) around its face's rotated rectangle."""
    (cx, cy), (w, h), ang = rect
    w, h = w + FACE_MARGIN_PX, h + FACE_MARGIN_PX
    if w < h:
        w, h = w * TILE_W / FACE_W, h * TILE_H / FACE_H
    else:
        w, h = w * TILE_H / FACE_H, h * TILE_W / FACE_W
    return _upright(cv2.boxPoints(((cx, cy), (w, h), ang)).astype(np.float32))


def _read_quad(image: np.ndarray, quad: np.ndarray) -> tuple[str | None, float]:
    """Warp one tile straight on and read it."""
    k = PX_PER_MM
    dst = np.array([[0, 0], [TILE_W * k, 0], [TILE_W * k, TILE_H * k], [0, TILE_H * k]], np.float32)
    M = cv2.getPerspectiveTransform(quad, dst)
    tile_img = cv2.warpPerspective(image, M, (int(TILE_W * k), int(TILE_H * k)), flags=cv2.INTER_LINEAR)
    return read_tile(tile_img)


def _row_neighbours(rect, pitch_share: float) -> list:
    """The face rectangles one tile to either side along the row of the tile whose face is ``rect``."""
    (cx, cy), (w, h), ang = rect
    a = np.radians(ang)
    along = np.array([np.cos(a), np.sin(a)]) * w if w < h else np.array([-np.sin(a), np.cos(a)]) * h
    step = along * pitch_share
    return [((cx + sign * step[0], cy + sign * step[1]), (w, h), ang) for sign in (-1, 1)]


def _face_brightness(gray: np.ndarray, rect) -> float:
    """Median grey inside a face rectangle's inner box (the face's colour where it is a face)."""
    (cx, cy), (w, h), _ = rect
    r = 0.3 * min(w, h)
    y0, y1 = int(max(0, cy - r)), int(min(gray.shape[0], cy + r))
    x0, x1 = int(max(0, cx - r)), int(min(gray.shape[1], cx + r))
    return median(gray[y0:y1, x0:x1]) if y1 > y0 and x1 > x0 else 0.0


def read(image, calibration=None) -> list[dict]:
    """Every rummy tile in ``image`` (BGR); see the module docstring for the result."""
    image = imaging.check_frame(image)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    faces = _face_rects(gray)
    out = []
    for rect in faces:
        quad = _tile_quad_from_face(rect)
        name, conf = _read_quad(image, quad)
        out.append({"tile": name if conf >= MIN_CONFIDENCE else None, "confidence": round(conf, 3),
                    "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad]})
    # a tile whose bevel glare washed away entirely still lies in its meld's row: look one tile
    # beside each tile found, and keep what is there only when it reads surely
    centres = [r[0] for r in faces]
    pending = list(faces)
    while pending:
        rect = pending.pop()
        for guess in _row_neighbours(rect, (TILE_W + ROW_GAP_MM) / FACE_W):
            spacing = ROW_NEIGHBOUR_NEAR * min(guess[1])
            if any(np.hypot(guess[0][0] - c[0], guess[0][1] - c[1]) < spacing for c in centres):
                continue
            if _face_brightness(gray, guess) < ROW_NEIGHBOUR_BRIGHTNESS * _face_brightness(gray, rect):
                continue
            centres.append(guess[0])                 # looked at once, from whichever side
            quad = _tile_quad_from_face(guess)
            name, conf = _read_quad(image, quad)
            if name is None or conf < MIN_CONFIDENCE:
                continue
            out.append({"tile": name, "confidence": round(conf, 3),
                        "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad]})
            pending.append(guess)
    if not out:
        raise NoTilesFound("no rummy tiles in view / nu se vede nicio piesă de remi")
    out.sort(key=lambda t: (round(t["quad"][0][1] / 60), t["quad"][0][0]))
    return out


def _upright(quad: np.ndarray) -> np.ndarray:
    """Tile corners starting at the top-left as seen in the picture, clockwise, long side vertical."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]                 # clockwise in image axes (y down), starting anywhere
    # start at the corner whose next edge is the short (top) edge and that lies highest
    edge = np.sqrt(np.square(np.roll(q, -1, axis=0) - q).sum(axis=1))     # edge s runs from corner s to s + 1
    best = None
    for s in range(4):
        if edge[s] <= edge[(s + 1) % 4]:
            key = q[s][1] + q[(s + 1) % 4][1]
            if best is None or key < best[0]:
                best = (key, s)
    return np.roll(q, -best[1], axis=0) if best is not None else q


def annotate(image: np.ndarray, result: list) -> np.ndarray:
    """The picture with each tile's outline and the name read (red outline: not read)."""
    out = imaging.check_frame(image).copy()
    for t in result:
        q = np.array(t["quad"], np.int32)
        ok = t["tile"] is not None
        cv2.polylines(out, [q], True, (0, 200, 0) if ok else (0, 0, 255), 2, cv2.LINE_AA)
        label = t["tile"] or "?"
        org = (int(q[:, 0].min()), int(q[:, 1].min()) - 4)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2, cv2.LINE_AA)
    return out
