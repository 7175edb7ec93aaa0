"""Finding the two dice on a backgammon board or beside it, and reading their pips.

Works on the top-down picture made by vision.backgammon (table plane at a
known scale), so a die is a square of known size whatever the camera's tilt.

How: pips are small dark round spots (a morphological black-hat finds
them), grouped into would-be dice by distance.  A group is read as a flat
die only when everything agrees: its pips sit on a die's layout (which
gives the die's centre and turn), a die-sized square there has a sharp edge
on all four sides (edges of log-brightness, so a soft shadow or a glare
spot does not count and does not hide them), no other dark spot lies in
it, the die measured edge to edge is as wide both ways as a die, and no
band along a side is darker than the face (a leaning die shows its side
face beside its top: a darker band, and a die longer one way).  A die
whose shape alone is clearly flat (pips exactly on the layout, square,
well short of a leaning die's length) may fail one of the tests of light:
a band darkened by a shadow's soft edge across it, or (two pips or more)
sides softened by blur or glare.  A die of four pips or more lying exactly on
the layout is read although glare has washed out all its sides but one, or
although it is not square (its drop shadow blurred into a side); a two or
three, with one or two sides washed out, when two are sharp and its shape
is clearly flat (a one too, when its bright face cut is not a leaning
die's), and with more washed out when its pips, found to a fraction of a
pixel, lie exactly on the layout (a leaning two's or three's are squeezed
well off it); such a die off the board is dropped, not called off the
board (a dotted cloth's dots can lie on a two's layout).  Under a lamp's
spot that blows out the face and the board round it no side shows an edge
at all: a die of four pips or more is then read from its pips alone when
they lie exactly on the layout and the face is blown out (its pips, lifted
to grey, are found by a smaller step on such a face); a face cut there that
comes out square and a little too large has taken in the blown-out board,
and is neither called leaning nor read.
Every die is read only if its face is plain where other faces have pips
(a six whose middle pips the glare made too faint to find is not read as
a four, nor a three without its centre pip as a two).  A group that does
not pass is looked at the older way — the bright face around the pips cut
from what it lies on; a face that is oblong, too large or has a darker
band along one edge is a leaning ("cocked") die, and pips squeezed off the
layout are not read (a leaning die whose bright side the cut takes in with
its top).

``read_dice(view, px_per_mm, board_mm)`` returns [a, b] (left to
right in the picture), "reroll" when a die is cocked or lies off the board
(the rules make the player roll again; such a die is never read as a
number), or None when two dice are not both seen.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_outline import pixel_index
from vision.fast_stats import median_last_axis, percentile_rows
from vision.imaging import SATURATED

DIE_MM = 16.0
PIP_MIN_DARKNESS = 45       # black-hat value of a pip
PIP_DIM_DARKNESS = 0.35     # ...or, on a dim face (a die in shadow), a black-hat this share of the face's level
PIP_DIM_FLOOR = 30          # ... but at least this (a face dimmer than about 86 has no pips read)
PIP_DIM_SHARE = 0.65        # and darker than the face by twice PIP_MIN_DARKNESS or, on a dim face, this share of it
PIP_GLARE_DROP = 40         # ...or, on a face blown out by glare (SATURATED), darker than it by this much
PIP_GLARE_HAT = 30          # ... and its black-hat this much
PIP_GLARE_RING = 0.8        # ... and ringed by that face: a circle round it at least this share of the face's level
FACE_SHARE = 0.78           # face = at least this share of the face's brightness (a leaning die's side is ~0.67)
SIZE_TOLERANCE = 0.28       # a face's long side within this of the die's size
FLAT_MIN_ASPECT = 0.9       # short side / long side of a flat die's face
FLAT_SIZE_TOLERANCE = 0.12  # a flat die's face is no larger than this over the die's size
SIDE_FACE_SHARE = 0.76     # an edge band of the face darker than this share of its middle: a side face
PIP_PLACE_TOLERANCE = 0.28  # a pip within this (share of half the face) of where the layout puts it
FACE_MIN_FILL = 0.78        # face area / its rectangle
FACE_PIP_CENTRE = 0.16      # a face's pips centred on it within this share of half the face (a leaning die's
                            # face cut with part of its side: 0.24 off; flat dice on the tuning scenes: 0.1 at most)
LINK_MM = 12.8               # pips this close are one die's (two dice lie 26+ mm apart, centre to centre)
FLAT_PIP_TOLERANCE = 0.2     # a flat die's pips within this (share of half the face) of the layout
EDGE_MIN = 2.5               # log-brightness edge each side of a flat die's square must show
PIP_CLEAR_MM = 1.5           # samples of the face's brightness keep this far off the pips' rims
FLAT_SIDE_SHARE = 0.76       # every band inside a flat die's sides at least this share of its face
FLAT_WIDTH_MM = (13.0, 18.2) # a flat die measured edge to edge, both ways (a leaning one: 18.6+ one way)
PIP_RING_SHARE = 0.25        # a pip's surroundings come back at least this share of the way to the face's level
# a die whose shape alone is clearly flat, with margins no leaning die met on the tuning scenes, may have a band
# inside a side darker than FLAT_SIDE_SHARE (a shadow's soft edge across it) or, with two pips or more, sides
# softer than EDGE_MIN (blur, glare):
CLEAR_PIP_TOLERANCE = 0.1    # its pips within this (share of half the face) of the layout (a leaning die's: squeezed)
CLEAR_MAX_MM = 17.6          # no wider than this either way (a leaning die with its side face: 18.6+ one way)
CLEAR_SQUARE_MM = 1.0        # its two widths within this of each other (a leaning die's top alone: 14-15 by 16-17)
CLEAR_EDGE_MIN = 2.0         # the edge each side of such a die must show
PIP_R_MM = DIE_MM * 0.085    # a pip's radius
ONE_RING = 0.55              # a one's face is plain on a circle this share of half the face round its pip
ONE_RING_SLOPE_SHARE = 0.6   # ... or, across a shadow's edge, its darkest this share of its brightest ...
ONE_RING_RESIDUAL = 0.04     # ... and off a plane's brightness by at most this share of the mean
# a die of four pips or more sitting exactly on the layout is read although glare has washed out its sides' edges
# (a leaning die's four or five is squeezed 0.108 or more of half the face off the layout; flat ones, 0.054 at most)
PIPS_ALONE_MIN = 4           # at least this many round pips
PIPS_ALONE_TOLERANCE = 0.07  # within this (share of half the face) of the layout
PIPS_ALONE_EDGE = 1.5        # one side at least showing this edge (the die's shadow side, away from the glare; 2.0 read
                             # 1 + 3 fewer dev rolls, the same on 1 328 fresh scenes, no leaning die read either way)
# a die whose glare washed out one or two of its sides' edges is read when the other two show CLEAR_EDGE_MIN, its
# pips lie exactly on the layout and its shape is clearly flat (a leaning two lay 0.035 off); a one, which has no
# layout, also when its face cut does not say leaning
SHARP_SIDES = 2              # at least this many sides showing CLEAR_EDGE_MIN
SHARP_SIDES_MIN_PIPS = 1     # ... for a die of this many pips or more (a one since 2026-12-04: when its face cut does
                             # not say leaning, as the leaning one of 822 834's does; was 2)
SOFT_SIDE_MIN = 1.0          # every side showing at least this edge
SHARP_SIDES_TOLERANCE = 0.03 # its pips within this (share of half the face) of the layout (flat twos: up to 0.034)
# a die of two or three pips whose glare washed out its sides' edges is read when its pips, found to a fraction of a
# pixel (_pip_centres), lie exactly on the layout: a leaning two's or three's are squeezed 0.069 or more of half the
# face off it (0.094+ under a lamp's spot), a flat one's lie 0.022 off at most (dev scenes, 897 flat, 269 leaning).
# A die tilted less than about 23 degrees (top squeezed to 0.92) is within it: with its sides washed out it is read
EXACT_LAYOUT_TOLERANCE = 0.03
# a face cut blown out by glare (its level SATURATED) that is square within this share and no larger than this
# many dice is not called leaning for its size alone: flat dice under a lamp's spot were cut 1.12-1.16 of a die,
# 0.964+ square; leaning dice, blown out, 0.946 square at most (dev scenes)
BLOWN_SQUARE = 0.955
BLOWN_MAX_SIZE = 1.2
EMPTY_PLACE_SHARE = 0.95     # every die: where another face has a pip, its face this share of the face round it at
                             # least (flat dice read on 1 449 dev views: 0.981+; a drawn pip 6 % darker than the
                             # face: 0.94)


def _pip_window(px_per_mm: float) -> int:
    """A pip's diameter in pixels, odd: the size of the windows pips are looked for in."""
    return int(round(2 * PIP_R_MM * px_per_mm)) | 1


def _ring_samples(gray: np.ndarray, xs, ys, radius: float, n: int) -> np.ndarray:
    """Grey levels at n points evenly round circles of ``radius`` about points (xs, ys), the first at
    angle 0: (points, n)."""
    h, w = gray.shape
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    rx = pixel_index(np.asarray(xs, np.float64).reshape(-1, 1) + radius * np.cos(a)[None, :], w)
    ry = pixel_index(np.asarray(ys, np.float64).reshape(-1, 1) + radius * np.sin(a)[None, :], h)
    return gray[ry, rx]


def _black_hat(gray: np.ndarray, px_per_mm: float) -> np.ndarray:
    """How much darker each pixel is than its surroundings at a pip's scale (a black-hat, lightly blurred)."""
    size = int(round(DIE_MM * 0.26 * px_per_mm)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return cv2.GaussianBlur(cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel), (0, 0), 1.0)


def _pips(gray: np.ndarray, px_per_mm: float):
    """Centres of small dark round spots (whole pixels): local peaks of a black-hat the size of a pip."""
    bh = _black_hat(gray, px_per_mm)
    pip_d = _pip_window(px_per_mm)
    peaks = (bh >= cv2.dilate(bh, np.ones((pip_d, pip_d), np.uint8))) & (bh > PIP_DIM_FLOOR)
    # row by row, as np.nonzero gives them; the flat indices are much faster to find than np.nonzero's pairs
    ys, xs = np.divmod(np.flatnonzero(peaks), peaks.shape[1])
    # a pip is much darker than the face round it: by a fixed step, or (a die in shadow, whose face is
    # dim) by most of the face's brightness; its black-hat likewise (a shadow dims the pip's contrast with
    # the face too: pips of a six on a face of 99 gave 42-47)
    bright = cv2.dilate(gray, np.ones((3 * pip_d, 3 * pip_d), np.uint8))
    face_level = bright[ys, xs].astype(np.int32)
    drop = face_level - gray[ys, xs].astype(np.int32)
    hat = bh[ys, xs].astype(np.int32)
    dark = (hat > PIP_MIN_DARKNESS) | (hat > PIP_DIM_DARKNESS * face_level)
    keep = dark & ((drop > 2 * PIP_MIN_DARKNESS) | (drop > PIP_DIM_SHARE * face_level))
    # a die's face blown out by a lamp's glare lifts its pips to grey: a smaller step, but the face is
    # blown out all round such a pip (a dark spot beside a blown-out patch of cloth or board is not)
    glare = np.flatnonzero(~keep & (hat > PIP_GLARE_HAT) & (face_level >= SATURATED) & (drop > PIP_GLARE_DROP))
    if len(glare):
        ring = _ring_samples(gray, xs[glare], ys[glare], 1.6 * (PIP_R_MM * px_per_mm), 16)
        ring_low = np.partition(ring, 1, axis=1)[:, 1].astype(np.int32)
        keep[glare] = ring_low >= PIP_GLARE_RING * face_level[glare]
    xs, ys = xs[keep], ys[keep]
    # the darkest first (ties row by row); each keeps off the later ones within 0.6 of a pip's diameter
    order = np.argsort(-bh[ys, xs].astype(np.int32), kind="stable")
    xs, ys = xs[order], ys[order]
    taken_near = np.zeros(len(xs), bool)
    out: list[tuple[float, float]] = []
    for i, (x, y) in enumerate(zip(xs.tolist(), ys.tolist())):
        if not taken_near[i]:
            out.append((float(x), float(y)))
            taken_near |= (xs - x) ** 2 + (ys - y) ** 2 <= (0.6 * pip_d) ** 2     # one row: memory stays O(n)
    return out


def _face_at(gray: np.ndarray, x: float, y: float, px_per_mm: float):
    """The bright face around a pip: (rotated rect, contour, the face's grey level round the pip) or None."""
    die = DIE_MM * px_per_mm
    R = int(die * 1.3)
    x0, y0 = max(0, int(x) - R), max(0, int(y) - R)
    x1, y1 = min(gray.shape[1], int(x) + R + 1), min(gray.shape[0], int(y) + R + 1)
    patch = gray[y0:y1, x0:x1]
    ring_r = PIP_R_MM * px_per_mm * 2.0
    # the ring round the pip, looked for in a window just wide enough (inside the patch)
    reach = int(ring_r + 3) + 2
    wx0, wy0 = max(x0, int(x) - reach), max(y0, int(y) - reach)
    wx1, wy1 = min(x1, int(x) + reach + 1), min(y1, int(y) + reach + 1)
    yy, xx = np.arange(wy0, wy1)[:, None], np.arange(wx0, wx1)[None, :]      # np.ogrid's, without its overhead
    d = np.hypot(xx - x, yy - y)
    around = gray[wy0:wy1, wx0:wx1][(d > ring_r) & (d < ring_r + 3)]
    if around.size == 0:
        return None
    level = float(percentile_rows(around[None, :], 75)[0])
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
    return cv2.minAreaRect(best.astype(np.float32)), best, level


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
        return float(percentile_rows(v[None, :], 75)[0])
    mid = level(face[16:32, 16:32])
    lo, hi = int(0.04 * size), int(0.13 * size)      # outside the pips (they start 15 % in)
    strips = [face[lo:hi, 8:-8], face[-hi:-lo, 8:-8], face[8:-8, lo:hi], face[8:-8, -hi:-lo]]
    return any(level(st) < SIDE_FACE_SHARE * mid for st in strips)


def _face_levels(gray: np.ndarray, cx: float, cy: float, angle: float, half: float, pips_local, lx, ly,
                 pct: float) -> float | None:
    """The ``pct`` percentile of the grey levels at points (lx, ly) of a face (pixels from its centre (cx, cy)
    along its sides, turned by ``angle``), the points on or near its pips (``pips_local``, likewise) left out;
    None when fewer than six points are left."""
    h, w = gray.shape
    pip_clear = PIP_R_MM * (half / (DIE_MM / 2)) + PIP_CLEAR_MM * (half / (DIE_MM / 2))
    keep = np.ones(lx.shape, bool)
    for px, py in pips_local:
        keep &= (lx - px) ** 2 + (ly - py) ** 2 > pip_clear ** 2
    if keep.sum() < 6:
        return None
    ux, uy = np.cos(angle), np.sin(angle)
    x = pixel_index(cx + lx * ux - ly * uy, w)
    y = pixel_index(cy + lx * uy + ly * ux, h)
    return float(percentile_rows(gray[y[keep], x[keep]][None, :], pct)[0])


def _face_middle(half: float) -> tuple[np.ndarray, np.ndarray]:
    """Points over the middle of a face (7/10 of the way to its sides), for _face_levels."""
    return np.meshgrid(np.linspace(-0.7 * half, 0.7 * half, 15), np.linspace(-0.7 * half, 0.7 * half, 15))


def _side_share(gray: np.ndarray, cx: float, cy: float, angle: float, half: float, pips_local) -> float:
    """How dark the darkest band along a side of the face is, as a share of the face's bright level.

    The bands lie 2-4.5 pixels inside each side, the pips left out; the face's level is the brightest
    of the bands or of the face's middle.  A leaning die's side face is about 0.67 of its top.
    """
    def level(lx, ly, pct):
        return _face_levels(gray, cx, cy, angle, half, pips_local, lx, ly, pct)

    r, t = np.meshgrid(np.arange(half - 4.5, half - 1.9, 0.5), np.linspace(-0.75 * half, 0.75 * half, 17))
    levels = [v for v in (level(r, t, 75), level(-r, t, 75), level(t, r, 75), level(t, -r, 75)) if v is not None]
    middle = level(*_face_middle(half), 90)
    if not levels:
        return 0.0
    bright = max(levels + ([middle] if middle is not None else []))
    return min(levels) / max(bright, 1.0)


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


_LOG_GREY = (255.0 / np.log(256.0 + 8.0) * np.log(np.arange(256, dtype=np.float32) + 8.0)).astype(np.float32)


def _layout_points(n: int, q: float) -> np.ndarray:
    """A face of n pips as offsets from the face's centre (pixels), the face's sides along x and y."""
    return q * np.array(_LAYOUTS[n], np.float64)


def _pip_centres(gray: np.ndarray, pips: np.ndarray, px_per_mm: float) -> np.ndarray:
    """These pips' centres to a fraction of a pixel: each the centroid of its black-hat's upper half within a
    pip's radius of its peak.  Whole-pixel peaks put a flat two's or three's pips up to 0.047 of half the face
    off the layout, as far as a leaning one's squeezed pips lie (0.042+); these, 0.022 at most (dev scenes)."""
    r = max(1, int(round(PIP_R_MM * px_per_mm)))
    margin = r + int(round(DIE_MM * 0.26 * px_per_mm))
    h, w = gray.shape
    x0, y0 = max(0, int(pips[:, 0].min()) - margin), max(0, int(pips[:, 1].min()) - margin)
    x1, y1 = min(w, int(pips[:, 0].max()) + margin + 1), min(h, int(pips[:, 1].max()) + margin + 1)
    bh = _black_hat(gray[y0:y1, x0:x1], px_per_mm).astype(np.float64)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    inside_r = xx ** 2 + yy ** 2 <= r * r
    out = pips.astype(np.float64).copy()
    for k, (x, y) in enumerate(pips):
        cx, cy = int(x) - x0, int(y) - y0
        window = bh[cy - r:cy + r + 1, cx - r:cx + r + 1]
        if window.shape != inside_r.shape:
            continue                                    # at the picture's edge: the whole pixel stands
        weight = np.clip(window - 0.5 * window[r, r], 0, None) * inside_r
        total = weight.sum()
        if total > 0:
            out[k] = (x + (weight * xx).sum() / total, y + (weight * yy).sum() / total)
    return out


def _pose_from_pips(pips: np.ndarray, px_per_mm: float):
    """(centre, angle, error): the square that puts these pips best on a die's layout.

    The centre is the pips' mean (every layout is symmetric); the angle is searched.  error = the worst
    distance (pixels) between a pip and its place.  One pip fixes no angle: angle None.
    """
    n = len(pips)
    centre = pips.mean(axis=0)
    if n == 1:
        return centre, None, 0.0
    q = _Q * DIE_MM / 2 * px_per_mm
    layout = _layout_points(n, q)
    angles = np.deg2rad(np.arange(0.0, 180.0, 1.5))
    c, s = np.cos(angles)[:, None], np.sin(angles)[:, None]
    ex = centre[0] + layout[None, :, 0] * c - layout[None, :, 1] * s       # (angles, n)
    ey = centre[1] + layout[None, :, 0] * s + layout[None, :, 1] * c
    d = np.hypot(ex[:, :, None] - pips[None, None, :, 0], ey[:, :, None] - pips[None, None, :, 1])
    err = np.maximum(d.min(axis=1).max(axis=1), d.min(axis=2).max(axis=1))   # both ways: a matching
    best = int(np.argmin(err))
    return centre, float(angles[best]), float(err[best])


def _side_support(gx: np.ndarray, gy: np.ndarray, poses: np.ndarray, half: float, band: int = 2) -> np.ndarray:
    """Edge strength along each of the four sides of squares (cx, cy, angle) of half-side ``half``.

    At points along the middle 3/4 of a side the log-brightness gradient across the side minus along it,
    the strongest within ``band`` pixels of the side; a side's value is the median over its points.
    Returns (poses, 4).
    """
    h, w = gx.shape
    ts = np.linspace(-0.75 * half, 0.75 * half, 9)
    offs = np.arange(-band, band + 1, dtype=np.float64)
    cx, cy, ang = poses[:, 0], poses[:, 1], poses[:, 2]
    out = np.empty((len(poses), 4), np.float32)
    for k in range(4):
        a = ang + k * np.pi / 2
        nx, ny = np.cos(a)[:, None, None], np.sin(a)[:, None, None]
        r = half + offs[None, :, None]
        t = ts[None, None, :]
        x = cx[:, None, None] + r * nx - t * ny
        y = cy[:, None, None] + r * ny + t * nx
        xi = pixel_index(x, w)
        yi = pixel_index(y, h)
        gxs, gys = gx[yi, xi], gy[yi, xi]
        across = np.abs(gxs * nx + gys * ny)
        along = np.abs(-gxs * ny + gys * nx)
        out[:, k] = median_last_axis((across - along).max(axis=1))
    return out


def _extent(gx, gy, cx: float, cy: float, angle: float, half: float) -> tuple[float, float]:
    """The die's width along each of the square's two axes: where the sharpest edge lies beyond
    each side (searched from 0.85 to 1.7 half-sides out, past the pips), both sides summed.

    A flat die is as wide as it is long, its size; a leaning die shows its top and a side face and
    is longer one way.
    """
    h, w = gx.shape
    rs = np.arange(0.85 * half, 1.7 * half + 0.1, 0.5)
    ts = np.linspace(-0.6 * half, 0.6 * half, 13)
    r, t = np.meshgrid(rs, ts, indexing="ij")
    edge = []
    for k in range(4):
        a = angle + k * np.pi / 2
        nx, ny = np.cos(a), np.sin(a)
        x = pixel_index(cx + r * nx - t * ny, w)
        y = pixel_index(cy + r * ny + t * nx, h)
        across = np.abs(gx[y, x] * nx + gy[y, x] * ny)
        edge.append(float(rs[int(np.argmax(median_last_axis(across)))]))
    return edge[0] + edge[2], edge[1] + edge[3]


def _fit_square(gx, gy, centre, angle, px_per_mm: float):
    """(cx, cy, angle, side supports): the die-sized square near this pose whose sides are the sharpest."""
    half = DIE_MM / 2 * px_per_mm

    def best_of(shifts, angles):
        dx, dy, da = np.meshgrid(shifts, shifts, angles, indexing="ij")
        poses = np.c_[centre[0] + dx.ravel(), centre[1] + dy.ravel(), da.ravel()]
        support = _side_support(gx, gy, poses, half)
        best = int(np.argmax(support.min(axis=1)))
        return poses[best], support[best]

    if angle is None:       # one pip: any angle, then a finer look round the best one
        pose, _ = best_of(np.array([-2.0, 0.0, 2.0]), np.deg2rad(np.arange(0.0, 90.0, 5.0)))
        centre = pose[:2]
        pose, support = best_of(np.array([-1.0, 0.0, 1.0]), pose[2] + np.deg2rad(np.arange(-2.5, 2.6, 1.25)))
    else:
        pose, support = best_of(np.arange(-2.0, 2.1, 1.0), angle + np.deg2rad(np.arange(-3.0, 3.1, 1.5)))
    return float(pose[0]), float(pose[1]), float(pose[2]), support


def _clusters(pips: list, px_per_mm: float) -> list[list[int]]:
    """Pips grouped into would-be dice: pips closer than a die's pips can be to another die's."""
    link = LINK_MM * px_per_mm
    n = len(pips)
    group = list(range(n))

    def root(i):
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    xy = np.array(pips, np.float64).reshape(-1, 2)
    for i in range(n - 1):
        # the later pips within ``link`` of this one, a row at a time (memory stays O(n))
        close = (xy[i + 1:, 0] - xy[i, 0]) ** 2 + (xy[i + 1:, 1] - xy[i, 1]) ** 2 <= link ** 2
        for j in np.flatnonzero(close):
            group[root(i)] = root(i + 1 + int(j))
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(root(i), []).append(i)
    return list(out.values())


def _plain_round(gray: np.ndarray, centre, radius: float) -> bool:
    """True when a circle round a lone pip is plain face (a one's face is): its darkest point at least
    FLAT_SIDE_SHARE of its brightest.  Most lone dark spots (cloth, wood, checkers' rims) fail."""
    ring = _ring_samples(gray, centre[0], centre[1], radius, 16)[0].astype(np.float32)
    if float(ring.min()) >= FLAT_SIDE_SHARE * float(ring.max()):
        return True
    # a shadow's soft edge across the die: brightness rising steadily from one side of the circle to the
    # other, which a plane (the circle's mean and first harmonic) follows closely; clutter does not
    if float(ring.min()) < ONE_RING_SLOPE_SHARE * float(ring.max()):
        return False
    a = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    mean = float(ring.mean())
    b = 2.0 * float(np.mean(ring * np.cos(a)))
    c = 2.0 * float(np.mean(ring * np.sin(a)))
    residual = ring - (mean + b * np.cos(a) + c * np.sin(a))
    return float(np.abs(residual).max()) <= ONE_RING_RESIDUAL * mean


def _round_spots(gray: np.ndarray, pips: list, members: list[int], px_per_mm: float) -> list[int]:
    """The members that are dark spots with bright face all round them, as a pip is.

    On a ring 1.6 pip radii from the spot, the second darkest of 24 samples must have come back at least
    PIP_RING_SHARE of the way from the spot's darkness to the brightest face near it.  A die's drop
    shadow beside its edge also makes dark spots for the black-hat, but they lie on a dark band that
    the ring crosses twice, where it stays about as dark as the spot (on the tuning scenes a flat die's
    pips came back 0.42 of the way or more, shadow spots 0.07 at most).
    """
    pip_r = PIP_R_MM * px_per_mm
    reach = 3 * _pip_window(px_per_mm) // 2     # _pips takes the face's level as near
    keep = []
    for j in members:
        x, y = pips[j]
        xi, yi = int(x), int(y)
        face = float(gray[max(0, yi - reach):yi + reach + 1, max(0, xi - reach):xi + reach + 1].max())
        spot = float(gray[yi, xi])
        second_darkest = float(np.partition(_ring_samples(gray, x, y, 1.6 * pip_r, 24)[0], 1)[1])
        if second_darkest - spot >= PIP_RING_SHARE * max(1.0, face - spot):
            keep.append(j)
    return keep


_EDGE_WINDOW_MM = 30.0      # a flat die's edges are looked at within this of its pips' centre (they reach ~15 mm)


class _EdgesNear:
    """An edge picture (d/dx or d/dy of log-brightness) made for a window of the picture only, read
    with the whole picture's pixel indices: ``edges[yi, xi]`` as the whole picture's edges would give
    (``shape`` is the whole picture's).  Indices outside the window are not allowed for."""

    def __init__(self, values: np.ndarray, x0: int, y0: int, shape: tuple):
        self.values, self.x0, self.y0, self.shape = values, x0, y0, shape

    def __getitem__(self, index):
        yi, xi = index
        # by flat index: NumPy's take is about twice as fast as its indexing by a pair of index arrays
        return self.values.take((yi - self.y0) * self.values.shape[1] + (xi - self.x0))


def _log_edges_near(gray: np.ndarray, x: float, y: float, reach: int) -> tuple[_EdgesNear, _EdgesNear]:
    """d/dx, d/dy of log-brightness within ``reach`` pixels of (x, y): the values the whole picture's
    Sobel has there (the window is made a pixel wider than asked for, and where it meets the picture's
    edge, so does the picture's)."""
    h, w = gray.shape
    x0, y0 = max(0, int(x) - reach - 1), max(0, int(y) - reach - 1)
    x1, y1 = min(w, int(x) + reach + 2), min(h, int(y) + reach + 2)
    log_grey = cv2.LUT(gray[y0:y1, x0:x1], _LOG_GREY)
    gx = cv2.Sobel(log_grey, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    gy = cv2.Sobel(log_grey, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    return _EdgesNear(gx, x0, y0, gray.shape), _EdgesNear(gy, x0, y0, gray.shape)


def _clearly_flat(pip_error: float, widths, px_per_mm: float) -> bool:
    """True when a die's shape alone says it lies flat: its pips lie exactly on the layout (``pip_error``,
    a share of half the face, at most CLEAR_PIP_TOLERANCE), and it is square and no longer than CLEAR_MAX_MM
    both ways (a leaning die's pips are squeezed towards its top's far edge; its top alone is short one
    way, and with its side face long).

    Such a die is read although one test of its face is spoilt by the light:
    - a shadow's soft edge across it (its brightness falling over about the die's width) can make one
      side of the face as much darker than the other as a leaning die's side face is than its top;
    - blur spreads an edge's step over more pixels and glare's added light flattens its log-brightness
      step, so a flat die's sides can show less edge than EDGE_MIN (with two pips or more: one pip has
      no layout to check, and its square's edges are all the evidence there is).
    """
    w0, w1 = widths[0] / px_per_mm, widths[1] / px_per_mm
    return pip_error <= CLEAR_PIP_TOLERANCE and max(w0, w1) <= CLEAR_MAX_MM and abs(w0 - w1) <= CLEAR_SQUARE_MM


def _empty_places_share(gray: np.ndarray, centre, angle: float, n: int, px_per_mm: float) -> float:
    """How plain a face of n pips is where other faces have a pip (the centre, the middles of the sides):
    at each such place, the mean brightness of a disc 0.6 of a pip's size as a share of a circle round it (two
    pip radii; its median), the darkest place's share.  Near 1 on plain face, also across a shadow's soft edge or a
    glare's slope; lower where a pip lies that was too faint to be found (a six whose middle pips the glare
    washed out, a three whose centre pip it did, would otherwise read as a four or a two)."""
    h, w = gray.shape
    q = _Q * DIE_MM / 2 * px_per_mm
    pip_r = PIP_R_MM * px_per_mm
    c, s = np.cos(angle), np.sin(angle)
    disc = np.array([(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if dx * dx + dy * dy <= 4], np.float64)
    disc *= 0.6 * pip_r / 2
    used = set(_LAYOUTS[n])
    shares = []
    for u in (-1, 0, 1):
        for v in (-1, 0, 1):
            if (u, v) in used:
                continue
            px, py = centre[0] + q * (u * c - v * s), centre[1] + q * (u * s + v * c)
            spot = gray[pixel_index(py + disc[:, 1], h), pixel_index(px + disc[:, 0], w)].astype(np.float32)
            ring = _ring_samples(gray, px, py, 2.0 * pip_r, 16)[0].astype(np.float32)
            shares.append(float(spot.mean()) / max(1.0, float(np.median(ring))))
    return min(shares)


def _face_blown_out(gray: np.ndarray, centre, angle: float, pips: np.ndarray, half: float) -> bool:
    """True when the middle of the face round these pips (the die's pose from them) is blown out by glare:
    its median, off the pips, SATURATED or brighter.  Such a face shows no edge against a board the glare
    blew out too; its pips (faint, found by _pips' glare rule) are all there is to read."""
    c, s = np.cos(angle), np.sin(angle)
    dx, dy = pips[:, 0] - centre[0], pips[:, 1] - centre[1]
    local = np.c_[dx * c + dy * s, -dx * s + dy * c]
    middle = _face_levels(gray, centre[0], centre[1], angle, half, local, *_face_middle(half), 50)
    return middle is not None and middle >= SATURATED


def _cut_says_leaning(gray, pips: list, members: list[int], px_per_mm: float) -> bool:
    """True when the bright face round these pips, cut from what it lies on, is a leaning die's (oblong, too
    large, or with a darker band).  A one has no layout to check: a leaning one's top can measure square by its
    edges, its side face lost in its shadow (822 834: 15.6 by 16.1 mm, sides 2.2-6.1), where its cut is 17 by
    13.5 mm."""
    cut = _die_by_face_cut(gray, pips, members, px_per_mm, [False] * len(pips))
    return cut is not None and cut["cocked"]


def _flat_die(gray, pips: list, members: list[int], px_per_mm: float):
    """The flat die these pips belong to, as a dict, or None when they do not make one clearly.

    A flat die: the pips sit on a die's layout; a die-sized square round them has a sharp edge on all
    four sides; no other dark spot lies on that square; no band inside a side is darker than the face
    (a side face); measured edge to edge it is a die's width both ways (a leaning die is longer).  A die
    whose shape is clearly flat (``_clearly_flat``) may have a dark band or, with two pips or more, softer
    edges, not both.
    """
    pts = np.array([pips[j] for j in members], np.float64)
    if not 1 <= len(members) <= 6:
        return None
    centre, angle, err = _pose_from_pips(pts, px_per_mm)
    half = DIE_MM / 2 * px_per_mm
    if angle is None and not _plain_round(gray, centre, ONE_RING * half):
        return None
    if err > FLAT_PIP_TOLERANCE * half:
        return None
    gx, gy = _log_edges_near(gray, centre[0], centre[1], int(_EDGE_WINDOW_MM * px_per_mm))
    cx, cy, a, support = _fit_square(gx, gy, centre, angle, px_per_mm)
    weakest_edge = float(support.min())
    pips_alone = len(members) >= PIPS_ALONE_MIN and err <= PIPS_ALONE_TOLERANCE * half
    washed_out = weakest_edge < (CLEAR_EDGE_MIN if len(members) >= 2 else EDGE_MIN)
    two_sides_sharp = (washed_out and len(members) >= SHARP_SIDES_MIN_PIPS and weakest_edge >= SOFT_SIDE_MIN
                       and float(np.sort(support)[-SHARP_SIDES]) >= CLEAR_EDGE_MIN
                       and err <= SHARP_SIDES_TOLERANCE * half)
    if washed_out and pips_alone and float(support.max()) < PIPS_ALONE_EDGE:
        # no side shows an edge: read only when the glare that took them has blown out the face itself
        pips_alone = _face_blown_out(gray, centre, angle, pts, half)
    exact_layout = (washed_out and len(members) in (2, 3) and not two_sides_sharp
                    and _pose_from_pips(_pip_centres(gray, pts, px_per_mm), px_per_mm)[2]
                    <= EXACT_LAYOUT_TOLERANCE * half)
    if washed_out and not pips_alone and not two_sides_sharp and not exact_layout:
        return None
    if _empty_places_share(gray, centre, a if angle is None else angle, len(members), px_per_mm) < EMPTY_PLACE_SHARE:
        return None
    soft_edge = weakest_edge < EDGE_MIN
    ux, uy = np.cos(a), np.sin(a)
    inside = []
    for j, (x, y) in enumerate(pips):
        lx, ly = (x - cx) * ux + (y - cy) * uy, -(x - cx) * uy + (y - cy) * ux
        if max(abs(lx), abs(ly)) < 0.95 * half:
            inside.append((lx, ly))
    if len(inside) != len(members):
        return None
    if np.hypot(cx - centre[0], cy - centre[1]) > FLAT_PIP_TOLERANCE * half:
        return None
    side = _side_share(gray, cx, cy, a, half, np.array(inside))
    widths = _extent(gx, gy, cx, cy, a, half)
    clearly_flat = _clearly_flat(err / half, widths, px_per_mm)
    if washed_out and side < FLAT_SIDE_SHARE:
        return None
    if two_sides_sharp and not pips_alone and not clearly_flat:
        return None
    if two_sides_sharp and len(members) == 1 and _cut_says_leaning(gray, pips, members, px_per_mm):
        return None
    # a soft edge or a dark band is let pass for a clearly flat die (or one of four pips or more exactly on the
    # layout), but not both at once
    if not washed_out and (soft_edge or side < FLAT_SIDE_SHARE) and not (pips_alone or clearly_flat):
        return None
    if soft_edge and side < FLAT_SIDE_SHARE:
        return None
    if not FLAT_WIDTH_MM[0] * px_per_mm <= min(widths) <= max(widths) <= FLAT_WIDTH_MM[1] * px_per_mm:
        return None
    return {"centre": (cx, cy), "pips": len(inside), "cocked": False, "layout_ok": True,
            "size": (float(widths[0]), float(widths[1])),
            "by_layout_alone": bool(exact_layout)}


def _die_by_face_cut(gray, pips, members, px_per_mm, used):
    """The die round these pips found by its bright face (cut from what it lies on); None if none."""
    die = DIE_MM * px_per_mm
    for i in members:
        x, y = pips[i]
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
        side_face = _has_side_face(gray, face[0])
        cocked = short_side < FLAT_MIN_ASPECT * long_side or long_side > (1 + FLAT_SIZE_TOLERANCE) * die or side_face
        layout_ok = _layout_fits(face[0], [pips[j] for j in inside])
        if (cocked and not side_face and face[2] >= SATURATED and short_side >= BLOWN_SQUARE * long_side
                and long_side <= BLOWN_MAX_SIZE * die):
            # a square face blown out by glare, cut a little too large: the cut took in the blown-out board
            # round it.  Neither cocked nor read
            cocked = layout_ok = False
        # every layout is symmetric about the face's centre: pips off it say the cut took in more than the
        # face (a leaning die's side face as bright as its top in warm light): its number is not read
        pip_centre = np.mean([pips[j] for j in inside], axis=0)
        if np.hypot(pip_centre[0] - cx, pip_centre[1] - cy) > FACE_PIP_CENTRE * die / 2:
            layout_ok = False
        if layout_ok:
            # plain face where other faces have pips, as _flat_die asks: a three whose centre pip is too faint
            # to be found is not read as a two
            pts = np.array([pips[j] for j in inside], np.float64)
            pose_centre, pose_angle, pose_error = _pose_from_pips(pts, px_per_mm)
            if pose_angle is None:
                pose_angle = float(np.deg2rad(face[0][2]))
            elif pose_error > CLEAR_PIP_TOLERANCE * die / 2:
                # pips squeezed off the layout: a leaning die whose side face is as bright as its top, the two
                # cut as one square face (fresh scene 9 600 564: a four 0.144 off, read as a number before 2026-12-04;
                # flat dice this path read lay 0.038 off at most)
                layout_ok = False
            if _empty_places_share(gray, pose_centre, pose_angle, len(inside), px_per_mm) < EMPTY_PLACE_SHARE:
                layout_ok = False
        if len(inside) == 1 and not _plain_round(gray, pips[inside[0]], ONE_RING * die / 2):
            # a lone pip without plain face round it, as _flat_die asks of a one, may be the only pip
            # found of several (a five deep in shade): the die is seen, its number is not read
            layout_ok = False
        return {"centre": (float(cx), float(cy)), "pips": len(inside), "cocked": bool(cocked),
                "layout_ok": layout_ok, "size": (float(long_side), float(short_side)), "by_layout_alone": False}
    return None


def find_dice(view: np.ndarray, px_per_mm: float) -> list[dict]:
    """Dice in a top-down picture: [{"centre": (x, y), "pips": n, "cocked": bool, "layout_ok": bool,
    "size": (w, h), "by_layout_alone": bool}, ...]; ``by_layout_alone``: a two or three read with its sides
    washed out, from its pips' exact layout only."""
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY) if view.ndim == 3 else view
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    pips = _pips(gray, px_per_mm)
    dice: list[dict] = []
    used = [False] * len(pips)
    groups = _clusters(pips, px_per_mm)
    for members in groups:
        # a flat die is read from round spots only: a die's drop shadow beside it adds dark spots that are
        # not round (any of them left out that lies on the die's square still fails it), and so do the
        # crevices between touching checkers' rims, which under glare can look like a two or a three
        round_members = _round_spots(gray, pips, members, px_per_mm)
        die = _flat_die(gray, pips, round_members, px_per_mm) if round_members else None
        if die is not None:
            for j in members:
                used[j] = True
            dice.append(die)
    for members in groups:
        if any(used[j] for j in members):
            continue
        die = _die_by_face_cut(gray, pips, members, px_per_mm, used)
        if die is not None:
            dice.append(die)
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
    # two or three dark spots exactly on a die's layout, with no die's edge round them, are a die only on the
    # board, where the lamp's glare washed its sides out: off it they may be a dotted cloth's dots (dev 889 417)
    dice = [d for d in dice if not (d["by_layout_alone"] and d["off_board"])]
    if not dice:
        return None
    if any(d["cocked"] or d["off_board"] for d in dice):
        return "reroll"
    if len(dice) != 2 or any(not d["layout_ok"] for d in dice):
        return None
    dice.sort(key=lambda d: d["centre"][0])
    return [d["pips"] for d in dice]
