"""Finding a game board in a camera frame by its outline, and looking at it from straight above.

Used by the Table (backgammon) and Tintar readers.  The board is the largest
region of the frame whose colour differs from the table around it (the table
colours are learnt from the frame's border).  Its outline gives four corners;
a homography then maps board millimetres to pixels, so every reader works in
a flat, top-down "board picture" whatever the camera's tilt and turn.

When a ``Calibration`` (ArUco markers, vision.calibrate) is at hand, readers
may pass the frame already rectified; this module only needs the pixels.

Errors are ``BoardNotFound`` (no board in view) and ``BoardPartlyInView``
(the board runs off the picture), both ValueError subclasses (through
vision.see.SeeError) with an English and Romanian message.
"""

from __future__ import annotations

import cv2
import numpy as np

# SeeError (a ValueError) is what ``masa see`` reports as a message, not a traceback.
from vision.fast_stats import percentile_rows
from vision.see import SeeError


class BoardNotFound(SeeError):
    """No board could be found in the picture."""


class BoardPartlyInView(SeeError):
    """The board runs off the edge of the picture."""


WORK_WIDTH = 640          # the frame is searched at this width
BORDER_FRACTION = 0.035   # the frame's border strip that shows the table
TABLE_CLUSTER_SHARE = 0.2   # a border colour is table only if this share of the border has it
FOREGROUND_DISTANCE = 20.0  # shade-tolerant colour distance from every table colour
MIN_AREA_FRACTION = 0.06  # a board smaller than this share of the frame is "no board"


def _line_corners(lines) -> np.ndarray | None:
    """The four corners where consecutive fitted lines (point, direction)
    meet, or None when two neighbouring lines are parallel."""
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    return np.array(out)


def _order_corners(pts: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left (image axes)."""
    pts = np.asarray(pts, np.float64).reshape(4, 2)
    s = pts.sum(axis=1)
    d = pts[:, 1] - pts[:, 0]
    return np.array([pts[np.argmin(s)], pts[np.argmin(d)], pts[np.argmax(s)], pts[np.argmax(d)]])


SHADE_WEIGHT = 12.0       # weight of log-brightness against the colour axes a, b


_LOG_L = (SHADE_WEIGHT * np.log(np.arange(256, dtype=np.float32) + 16.0)).astype(np.float32)


def shade_tolerant(lab: np.ndarray) -> np.ndarray:
    """Lab pixels (OpenCV 8-bit scale) as (a, b, SHADE_WEIGHT * ln(L)): a shadow or a
    dimmer lamp moves a colour little in this space; a different material moves it a lot."""
    out = np.empty(np.shape(lab), np.float32)
    out[..., 0] = lab[..., 1]
    out[..., 1] = lab[..., 2]
    out[..., 2] = _LOG_L[np.asarray(lab)[..., 0].astype(np.uint8)]
    return out


def _table_model(lab: np.ndarray, border: int, seed: int = 0, colours: int = 3,
                 share: float = TABLE_CLUSTER_SHARE) -> np.ndarray:
    """Up to ``colours`` colour centres of the table (in the shade-tolerant space, shade_tolerant), from
    the frame's border strip of ``lab`` (OpenCV's 8-bit Lab), each the colour of at least ``share`` of
    the strip.  The k-means++ start is drawn from OpenCV's random generator, seeded with ``seed`` first:
    the same picture always gives the same centres, whatever ran before."""
    strips = [lab[:border].reshape(-1, 3), lab[-border:].reshape(-1, 3),
              lab[:, :border].reshape(-1, 3), lab[:, -border:].reshape(-1, 3)]
    samples = np.concatenate(strips)
    if len(samples) > 4000:
        samples = samples[:: len(samples) // 4000]
    samples = shade_tolerant(samples)          # the samples only: the whole picture may not need it
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(seed)
    _, labels, centres = cv2.kmeans(samples, colours, None, criteria, 2, cv2.KMEANS_PP_CENTERS,
                                    ) if len(samples) >= colours else (None, None, samples)
    if labels is not None:
        counts = np.bincount(labels.ravel(), minlength=colours)
        centres = centres[counts > share * len(samples)]
    return centres


def _nearest_distance2(lab: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Squared distance of every pixel of ``lab`` (h, w, 3: OpenCV's 8-bit Lab) in the shade-tolerant
    space (shade_tolerant) to the nearest of ``centres``, summed channel by channel: the same values as
    foreground_mask's sum over the last axis, several times faster.  A channel has 256 values, so its
    squared differences (float32, as the sum over the last axis takes them) are looked up in a table."""
    L, a, b = cv2.split(lab)
    levels = np.arange(256, dtype=np.float32)
    dist2 = np.full(lab.shape[:2], np.inf, np.float32)
    d = np.empty(lab.shape[:2], np.float32)
    d2 = np.empty(lab.shape[:2], np.float32)
    for c in np.asarray(centres, np.float32):
        # shade_tolerant's channels (a, b, SHADE_WEIGHT * ln(L)) less the centre's, squared; summed in that order
        cv2.LUT(a, (levels - c[0]) * (levels - c[0]), dst=d2)
        cv2.LUT(b, (levels - c[1]) * (levels - c[1]), dst=d)
        d2 += d
        cv2.LUT(L, (_LOG_L - c[2]) * (_LOG_L - c[2]), dst=d)
        d2 += d
        np.minimum(dist2, d2, out=dist2)
    return dist2


def foreground_mask(image: np.ndarray, work_width: int = WORK_WIDTH,
                    fast_distance: bool = False, seed: int = 0, table_colours: int = 3,
                    table_share: float = TABLE_CLUSTER_SHARE) -> tuple[np.ndarray, float]:
    """(mask of what is not table, scale from full-size to the mask's pixels).

    ``seed``: of the k-means that finds the table's colours (_table_model); a picture always gives
    the same mask.  ``table_colours``, ``table_share``: how many colours the table may have, and the
    share of the border each needs (more, and rarer, for a checked cloth whose stripes cross in
    colours of their own).

    ``fast_distance``: the colour distances summed channel by channel (_nearest_distance2): the same
    mask, about 5 ms less at 640 px wide.  Off by default so that the readers measured with the sum
    over the last axis keep it until their owners switch."""
    h, w = image.shape[:2]
    scale = min(1.0, work_width / float(w))
    small = cv2.resize(image, (int(round(w * scale)), int(round(h * scale))), interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else image
    small = cv2.medianBlur(small, 5)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    border = max(3, int(min(small.shape[:2]) * BORDER_FRACTION))
    centres = _table_model(lab, border, seed, table_colours, table_share)
    if fast_distance:
        dist2 = _nearest_distance2(lab, centres)
    else:
        lab = shade_tolerant(lab)
        dist2 = np.full(lab.shape[:2], np.inf, np.float32)
        for c in centres:
            d = lab - c[None, None, :].astype(np.float32)
            dist2 = np.minimum(dist2, np.einsum("ijk,ijk->ij", d, d))
    mask = (dist2 > FOREGROUND_DISTANCE ** 2).astype(np.uint8) * 255
    k = np.ones((5, 5), np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return mask, scale


def _fit_side_lines(contour: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """Refine four rough corners by fitting a straight line to each side of the contour."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    lines = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        ab = b - a
        length = np.linalg.norm(ab)
        if length < 10:
            return None
        u = ab / length
        n = np.array([-u[1], u[0]])
        rel = pts - a
        t = rel @ u
        off = rel @ n
        sel = (t > 0.12 * length) & (t < 0.88 * length) & (np.abs(off) < max(3.0, 0.03 * length))
        if sel.sum() < 8:
            return None
        vx, vy, x0, y0 = cv2.fitLine(pts[sel].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    return _line_corners(lines)


def find_board(image: np.ndarray, what: str = "board") -> np.ndarray:
    """The board's four corners in pixels (TL, TR, BR, BL as seen in the picture).

    Raises BoardNotFound or BoardPartlyInView with a clear message.
    """
    mask, scale = foreground_mask(image)
    try:
        quad = _quad_from_mask(mask, what)
    except (BoardNotFound, BoardPartlyInView) as first:
        # A table in shadow can look like the board's frame: try the board's sharp outline instead.
        try:
            quad = _quad_from_mask(edge_enclosed_mask(image, scale), what)
        except (BoardNotFound, BoardPartlyInView):
            raise first from None
    quad = (quad + 0.5) / scale - 0.5
    return refine_corners(image, quad)


def board_candidates(image: np.ndarray, what: str = "board") -> list[np.ndarray]:
    """Every plausible outline of the board (corners as find_board gives them), best guess first:
    from the colour mask and from the sharp-edge mask.  A reader that knows its board's
    drawing (Tintar lines) picks among them; glare merged into the board or a board
    frame lost in shadow spoils one of the two, seldom both.

    Raises BoardNotFound or BoardPartlyInView when neither gives an outline.
    """
    mask, scale = foreground_mask(image)
    quads, first = [], None
    for make in (lambda: mask, lambda: edge_enclosed_mask(image, scale)):
        try:
            quad = _quad_from_mask(make(), what)
        except (BoardNotFound, BoardPartlyInView) as exc:
            first = first or exc
            continue
        quad = refine_corners(image, (quad + 0.5) / scale - 0.5)
        if all(np.max(np.linalg.norm(quad - q, axis=1)) > 3.0 for q in quads):
            quads.append(quad)
    if not quads:
        raise first
    return quads


def edge_enclosed_mask(image: np.ndarray, scale: float, colour: bool = False) -> np.ndarray:
    """What the table cannot reach from the picture's border without crossing a sharp edge.  With
    ``colour`` the edges of each colour channel count too (a dark blue frame against a dark green
    shadow: about the same grey, a sharp edge in blue and in green)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (int(round(w * scale)), int(round(h * scale))), interpolation=cv2.INTER_AREA)
    if colour:
        edges = None
        for channel in cv2.split(cv2.GaussianBlur(small, (0, 0), 1.0)):
            found = cv2.Canny(channel, 40, 100)
            edges = found if edges is None else cv2.max(edges, found)
    else:
        edges = cv2.Canny(cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (0, 0), 1.0), 40, 100)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    free = (edges == 0).astype(np.uint8)
    n, labels = cv2.connectedComponents(free, connectivity=4)
    border = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    from_border = np.zeros(n, bool)                 # per label: reached from the border (a lookup: np.isin
    from_border[border[border > 0]] = True          # and fancy indexing take 3 and 2 times as long)
    reached = np.take(from_border, labels)
    mask = (~reached).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))


def _quad_from_mask(mask: np.ndarray, what: str) -> np.ndarray:
    """Four corners (mask pixels) of the largest outline in ``mask``."""
    mh, mw = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise BoardNotFound(f"no {what} in view / nu se vede nicio tablă")
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour)       # holes (a plate the colour of the table) count as board
    if area < MIN_AREA_FRACTION * mh * mw:
        raise BoardNotFound(f"no {what} in view / nu se vede nicio tablă")
    x, y, bw, bh = cv2.boundingRect(contour)
    if x <= 1 or y <= 1 or x + bw >= mw - 1 or y + bh >= mh - 1:
        raise BoardPartlyInView(f"only part of the {what} is in view — move the camera or the board "
                                f"/ tabla se vede doar în parte — mutați camera sau tabla")
    hull = cv2.convexHull(contour)
    quad = None
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    if quad is None:
        raise BoardNotFound(f"no {what} in view (no four-sided outline) / nu se vede nicio tablă (contur fără patru laturi)")
    fill = area / max(1.0, cv2.contourArea(quad.astype(np.float32)))
    if fill < 0.8:
        raise BoardNotFound(f"no {what} in view (the largest shape is not a board) / nu se vede nicio tablă")
    quad = _order_corners(quad)
    refined = _fit_side_lines(contour, quad)
    if refined is not None and np.max(np.abs(refined - quad)) < 0.05 * peri:
        quad = _order_corners(refined)
    return quad


def refine_corners(image: np.ndarray, quad: np.ndarray, reach: float = 10.0) -> np.ndarray:
    """Move each side of a rough outline onto the sharpest colour edge within ``reach`` pixels.

    A soft shadow around the board makes a wide, weak edge; the board's own
    rim is sharp, so the strongest gradient across each side marks it.
    """
    img = cv2.GaussianBlur(image, (0, 0), 0.8).astype(np.float32)
    h, w = img.shape[:2]
    lines = []
    offs = np.arange(-reach, reach + 1.0, 1.0)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        u = ab / length
        n = np.array([u[1], -u[0]])            # points out of the board for TL->TR->BR->BL order
        ts = np.linspace(0.1, 0.9, 40)
        base = a[None, :] + ts[:, None] * ab[None, :]
        pts = base[:, None, :] + offs[None, :, None] * n[None, None, :]
        xi = np.clip(np.rint(pts[..., 0]).astype(int), 0, w - 1)
        yi = np.clip(np.rint(pts[..., 1]).astype(int), 0, h - 1)
        prof = img[yi, xi]                       # (40, len(offs), 3)
        grad = np.linalg.norm(np.diff(prof, axis=1), axis=2)
        k = np.argmax(grad, axis=1)
        strong = grad[np.arange(len(k)), k] > 12
        if strong.sum() < 10:
            return quad
        edge = base[strong] + (offs[k[strong]] + 0.5)[:, None] * n[None, :]
        vx, vy, x0, y0 = cv2.fitLine(edge.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = _line_corners(lines)
    if out is None:
        return quad
    if np.max(np.linalg.norm(out - quad, axis=1)) > 3 * reach:
        return quad
    return out


def board_homography(corners_px: np.ndarray, width_mm: float, height_mm: float) -> np.ndarray:
    """Homography from board millimetres (origin top-left, y down) to picture pixels."""
    src = np.array([[0, 0], [width_mm, 0], [width_mm, height_mm], [0, height_mm]], np.float32)
    return cv2.getPerspectiveTransform(src, np.asarray(corners_px, np.float32))


def top_down(image: np.ndarray, H_mm_to_px: np.ndarray, x0_mm: float, y0_mm: float, x1_mm: float,
             y1_mm: float, px_per_mm: float, with_inside: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """The region [x0,x1]x[y0,y1] (board mm) seen from above at ``px_per_mm``; and its in-frame mask
    (None unless ``with_inside``)."""
    S = np.array([[1 / px_per_mm, 0, x0_mm], [0, 1 / px_per_mm, y0_mm], [0, 0, 1]], np.float64)
    M = H_mm_to_px @ S
    size = (int(round((x1_mm - x0_mm) * px_per_mm)), int(round((y1_mm - y0_mm) * px_per_mm)))
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = cv2.warpPerspective(image, M, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)
    if not with_inside:
        return out, None
    inside = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), M, size, flags=flags,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out, inside


def mm_to_px(H_mm_to_px: np.ndarray, pts_mm) -> np.ndarray:
    pts = np.asarray(pts_mm, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, H_mm_to_px).reshape(-1, 2)


def pixel_index(coords, size: int) -> np.ndarray:
    """Coordinates rounded to whole pixels and kept inside 0..size-1 (np.clip's checks cost more
    than this, and the readers call it thousands of times a frame)."""
    return np.minimum(np.maximum(np.rint(coords).astype(np.int64), 0), size - 1)


def ring_response(gx: np.ndarray, gy: np.ndarray, centres: np.ndarray, radius: float,
                  samples: int = 36, arc: tuple[float, float] = (0.0, 2 * np.pi), band: float = 2.0,
                  percentile: float | None = None) -> np.ndarray:
    """Edge strength across a circle (or arc) of ``radius`` around each centre.

    ``gx, gy`` are image gradients; only the part normal to the circle counts,
    so straight lines crossing the circle add little while a disc's rim adds
    a lot.  At each angle the strongest value within ``band`` pixels of the
    radius is taken; the result is the mean over the angles, or the given
    ``percentile`` (a low one demands an edge all the way round) of the
    radial minus the tangential part (a rim crosses the circle at right angles).
    ``centres`` is (N, 2) in pixels (x, y).
    """
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    ang = np.linspace(arc[0], arc[1], samples, endpoint=False)
    nx, ny = np.cos(ang), np.sin(ang)
    h, w = gx.shape
    flat_gx, flat_gy = gx.ravel(), gy.ravel()
    best = None
    for dr in ((-band, 0.0, band) if band else (0.0,)):
        xs = centres[:, :1] + (radius + dr) * nx[None, :]
        ys = centres[:, 1:] + (radius + dr) * ny[None, :]
        xi, yi = pixel_index(xs, w), pixel_index(ys, h)
        flat = yi * w + xi
        gxs, gys = flat_gx.take(flat), flat_gy.take(flat)
        radial = np.abs(gxs * nx[None, :] + gys * ny[None, :])
        if percentile is not None:
            # A disc's rim is crossed at right angles all the way round; a
            # cloth pattern or a board line crossing the circle is not.
            radial = radial - np.abs(gys * nx[None, :] - gxs * ny[None, :])
        best = radial if best is None else np.maximum(best, radial)
    if percentile is None:
        return best.mean(axis=1)
    return percentile_rows(best, percentile)


def gradients(gray: np.ndarray, blur: float = 1.2) -> tuple[np.ndarray, np.ndarray]:
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), blur) if blur else gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    return gx, gy
