"""Reading a Tintar (nine men's morris) board: the piece on each of the 24 points, and the
pieces lying beside the board (not yet placed on the left, captured on the right).

How: the plate's rough outline (vision.board_outline masks) is snapped onto
the 16 drawn lines it shows (an affine correction, then a perspective one for
an outline tilted in depth), and the board is seen from straight above at
``PX_PER_MM``.  A piece is a disc: around each point we look for a ring of
strong edges of the piece's radius, crossed at right angles all the way round
(straight board lines crossing the ring add little).  Its colour is its
brightness between two references under the same local light, the plate
round it and the ink of the lines beside it, so shade, warm light and glare
do not swap black and white.  Beside the board, candidates come from a circle
map (edges across a ring of the piece's radius) and a quick ring test, and
pass the same ring test; a weak rim must also be round (a square cell of a
checked cloth has no edge at its corners).  An unsure colour on a point gives
``None`` (as if empty).  A white piece in a blown-out glare spot may show no
rim: on a point it is still seen by the lines it hides.  Beside the board
each colour's nine pieces (on the board, in hand, captured) settle what is
unsure: pieces of unsure colour, weak rims that may be cloth cells, and
blown-out spots where a white piece may hide; counts are given only when
exactly one pair of side counts makes nine of each.  When the board merges
with a checked cloth in both masks, the plate's bare strip (one large region
no sharp edge crosses) gives its outline.

Conventions (docs/vision-boards.md): files a-g left to right and ranks 1-7
bottom to top as the camera sees the board; the board picture is assumed
upright (turned less than 45 degrees).  The result is the "tintar" value of
Contract 2: ``{"a1": "white"|"black"|None, ... 24 points, "in_hand":
{"white": n, "black": n}, "captured": {"white": n, "black": n}}``; with both
sides in view, counts that do not settle to nine pieces of each colour give
``None`` for both sides; a side zone that runs off the picture gives ``None``
(the other side then its sure counts, unless over nine).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import imaging
from vision.board_outline import (BoardNotFound, BoardPartlyInView, _quad_from_mask, board_homography,
                                  edge_enclosed_mask, foreground_mask, gradients, mm_to_px, pixel_index,
                                  ring_response, top_down)
from vision.fast_stats import median, median_last_axis, percentile_rows
from vision.render_boards import (TINTAR_FRAME, TINTAR_LINES, TINTAR_PIECE_R, TINTAR_POINTS, TINTAR_SIZE, TINTAR_STEP,
                                  TINTAR_GRID0, tintar_point_mm)

__all__ = ["read", "annotate", "BoardNotFound", "BoardPartlyInView"]

PX_PER_MM = 1.5             # the top-down picture's resolution (edge strengths below: grey levels per pixel)
PIECES_PER_SIDE = 9         # nine men's morris
SIDE_ZONE = 160.0           # mm left and right of the board searched for loose pieces
SIDE_GAP = 6.0
LOOSE_CLEARANCE = TINTAR_PIECE_R + 1.0  # mm: a loose piece's centre is at least this far from the plate
COARSE_STEP = 4.0           # px between the positions a piece is first looked for at (then +-2 px finely)
RING_PERCENTILE = 25.0      # the rim must show nearly all the way round
MAX_LOOSE_CANDIDATES = 40   # rings looked at beside the board, strongest first
CANDIDATE_MIN = 1.0         # circle map response (vision.morris._circle_map) that makes a candidate
TEXTURE_FACTOR = 1.0        # beside the board the rim must also beat the cloth's own pattern
STRONG_RIM = 2.2           # beside the board a rim weaker than this must beat the cloth's pattern
WEAK_RIM_TEXTURE = 2.0     # this many times over
PRESENCE_MIN = 1.5          # ring edge strength (grey levels per pixel) that makes a piece
FACE_SPREAD_MAX = 22.0      # a piece's face is plain: brightness spread (std) inside it below this
WHITE_RATIO = 0.62          # loose piece brightness / brighter cloth around below this: black
DARKER_BLACK = 0.13         # loose piece darker than the cloth right round it by this share of it: black
DARKER_WHITE = 0.11         # by less than this: white (in between: unsure, the side's counts are not given)
LOOSE_AROUND_PERCENTILE = 75.0  # beside the board: the cloth's brighter part is the reference
CELL_RIM = 10.0             # beside the board a rim weaker than this is also checked for a square cloth cell:
FOURFOLD_MIN = 0.4          # its edge round the ring, folded onto a quarter turn, must not dip below this share
DOUBT_FOURFOLD = 0.6        # and below this share it may still be a cell (cells seen 0.41-0.56, pieces from 0.4)
PROFILE_SAMPLES = 64        # angles the rim's edge is sampled at for that check (a multiple of four)
BLOWN_FACE = 235.0          # beside the board, a candidate too weak to count with a face this bright and plain
BLOWN_FACE_SPREAD = 3.0     # (a white piece inside a glare spot, its rim washed out) and a round trace of a
BLOWN_LEVEL = 245.0         # grey level of a blown-out glare spot (a white piece's face is about 230 in plain light)
FAINT_RIM = 1.0             # beside the board a round rim (fold >= DOUBT_FOURFOLD) this strong and
FAINT_TEXTURE = 0.8         # this share of the cloth's texture, too faint to count: that piece or nothing
GLARE_AROUND = 240.0        # cloth or plate right round a piece this bright is blown out by glare
HIDDEN_RIM = (0.3, 0.45)    # rim (ring, four-fold share at least these) makes the side's counts unsure


def _disc_offsets(r_in: float, r_out0: float, r_out1: float) -> tuple:
    """Integer pixel offsets (dy, dx) of a disc of radius r_in and of a ring r_out0..r_out1, and
    the same as masks of the (2R+1)-square window round the centre (R, the window's half size,
    last): in row order both ways, so a window inside the picture gives the same values as the
    offsets."""
    R = int(r_out1) + 1
    dy, dx = np.mgrid[-R:R + 1, -R:R + 1]
    d = np.hypot(dx, dy)
    inner = d <= r_in
    ring = (d >= r_out0) & (d <= r_out1)
    return np.c_[dy[inner], dx[inner]], np.c_[dy[ring], dx[ring]], inner, ring, R


_DISC_OFFSETS: dict = {}


def _disc_stats(lum: np.ndarray, cx: float, cy: float, r_in: float, r_out0: float, r_out1: float,
                around_percentile: float = 50.0):
    """(mean brightness inside r_in, around_percentile of the ring r_out0..r_out1, spread (std)
    inside) round (cx, cy), on whole pixels; pixels outside the picture are left out."""
    key = (r_in, r_out0, r_out1)
    if key not in _DISC_OFFSETS:
        _DISC_OFFSETS[key] = _disc_offsets(r_in, r_out0, r_out1)
    inner_offs, ring_offs, inner_mask, ring_mask, R = _DISC_OFFSETS[key]
    h, w = lum.shape
    x, y = int(round(cx)), int(round(cy))

    def values(offs):
        ys, xs = offs[:, 0] + y, offs[:, 1] + x
        keep = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
        return lum[ys[keep], xs[keep]]

    if R <= x < w - R and R <= y < h - R:
        window = lum[y - R:y + R + 1, x - R:x + R + 1]      # all inside: masks instead of offsets (faster)
        inner, ring = window[inner_mask], window[ring_mask]
    else:
        inner, ring = values(inner_offs), values(ring_offs)
    if inner.size == 0 or ring.size == 0:
        return 0.0, 1.0, 255.0
    return float(inner.mean()), float(percentile_rows(ring[None, :], around_percentile)[0]), float(inner.std())


def _best_rings(gx, gy, centres, r, search, radii=(0.86, 1.0)):
    """For each rough centre: (strength, x, y) of the strongest piece-sized ring near it.

    Coarse: the mean rim edge on a 2-pixel grid; fine: around the best spot,
    the RING_PERCENTILE of the edge round the rim (a rim shows all the way round).
    """
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    n = len(centres)
    if n == 0:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    offs = np.arange(-search, search + 1, COARSE_STEP)
    ox, oy = np.meshgrid(offs, offs)
    grid = np.c_[ox.ravel(), oy.ravel()]
    if len(grid) == 1:
        best_c = centres                # no search (search 0): the fine step starts at the centres
    else:
        cand = (centres[:, None, :] + grid[None, :, :]).reshape(-1, 2)
        coarse = np.zeros(len(cand))
        for k in radii:
            coarse = np.maximum(coarse, ring_response(gx, gy, cand, k * r, samples=24, band=0))
        pick = np.argmax(coarse.reshape(n, len(grid)), axis=1)
        best_c = cand.reshape(n, len(grid), 2)[np.arange(n), pick]
    fx, fy = np.meshgrid(np.arange(-2.0, 3.0), np.arange(-2.0, 3.0))
    fine = np.c_[fx.ravel(), fy.ravel()]
    cand = (best_c[:, None, :] + fine[None, :, :]).reshape(-1, 2)
    score = np.zeros(len(cand))
    for k in radii:
        score = np.maximum(score, ring_response(gx, gy, cand, k * r, samples=32, band=1.5,
                                                percentile=RING_PERCENTILE))
    score = score.reshape(n, len(fine))
    j = np.argmax(score, axis=1)
    xy = cand.reshape(n, len(fine), 2)[np.arange(n), j]
    return score[np.arange(n), j], xy[:, 0], xy[:, 1]


def _rings_refined_twice(gx, gy, centres, r):
    """(strength, x, y) of the strongest ring of radius r within 2 px of each centre (whole pixels),
    then once more within 2 px of that spot: a rim in shade is sharp, and 1 px off-centre can halve
    its strength.  The same as _best_rings without search run twice, but a spot both passes look at
    is measured once (most centres move by a pixel or not at all)."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    n = len(centres)
    if n == 0:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    span = np.arange(-4.0, 5.0)                     # both passes stay within 4 px: a 9x9 grid of spots
    score = np.full((n, 9, 9), np.nan)

    def measure(needed):
        k, iy, ix = np.nonzero(needed)
        spots = centres[k] + np.c_[span[ix], span[iy]]
        score[k, iy, ix] = np.maximum(0.0, ring_response(gx, gy, spots, r, samples=32, band=1.5,
                                                         percentile=RING_PERCENTILE))

    window = np.arange(-2, 3)
    rows, cols = np.full((n, 1), 4) + window, np.full((n, 1), 4) + window
    for _ in range(2):
        cells = (np.arange(n)[:, None, None], rows[:, :, None], cols[:, None, :])
        needed = np.zeros(score.shape, bool)
        needed[cells] = True
        measure(needed & np.isnan(score))
        j = np.argmax(score[cells].reshape(n, 25), axis=1)
        best_row, best_col = rows[np.arange(n), j // 5], cols[np.arange(n), j % 5]
        rows, cols = best_row[:, None] + window, best_col[:, None] + window
    return score[np.arange(n), best_row, best_col], centres[:, 0] + span[best_col], centres[:, 1] + span[best_row]


def _rim_profile(gx, gy, x: float, y: float, radius: float) -> np.ndarray:
    """Edge strength across a circle round (x, y) at PROFILE_SAMPLES angles from the picture's
    x axis: the radial minus the tangential gradient, the strongest within 3 px of the radius
    (so a centre found 2 px off still meets the rim all round); vision.board_outline.ring_response
    before it takes a percentile."""
    h, w = gx.shape
    ang = np.linspace(0.0, 2 * np.pi, PROFILE_SAMPLES, endpoint=False)
    nx, ny = np.cos(ang), np.sin(ang)
    best = np.full(PROFILE_SAMPLES, -np.inf)
    for dr in (-3.0, -1.5, 0.0, 1.5, 3.0):
        xi = pixel_index(x + (radius + dr) * nx, w)
        yi = pixel_index(y + (radius + dr) * ny, h)
        gxs, gys = gx[yi, xi], gy[yi, xi]
        best = np.maximum(best, np.abs(gxs * nx + gys * ny) - np.abs(gys * nx - gxs * ny))
    return best


def _fourfold_share(profile: np.ndarray) -> float:
    """The rim profile folded onto a quarter turn (the four quarters averaged): its weakest
    angle over its strongest.  A disc's rim is even all round (near 1); a square cell of a
    checked cloth has edges across the ring only near its sides, and none at its four
    corners, which all fall at the same angle of the fold (near 0)."""
    folded = profile.reshape(4, -1).mean(axis=0)
    return float(folded.min() / max(float(folded.max()), 1e-3))


def _texture(gx, gy, xs, ys, r) -> np.ndarray:
    """Mean edge strength in a ring just outside each piece: how busy the cloth or board is there."""
    centres = np.c_[xs, ys]
    vals = [ring_response(gx, gy, centres, rr, samples=32, band=0) for rr in (1.35 * r, 1.55 * r, 1.75 * r)]
    return np.mean(vals, axis=0)


def _loose_colour(lum, x, y, r) -> str | None:
    """"white" / "black" / "unsure" for a piece beside the board at (x, y); None when the
    inside is not a plain face (not a piece).

    Dark: the face below WHITE_RATIO of the brighter part (75th percentile) of a
    wide ring of cloth around it (so a black piece on the dark stripe of a patterned
    cloth still reads dark), or darker than the cloth's median right round it by
    more than DARKER_BLACK of it (a glare spot adds light: it lifts the wide ratio
    of a black piece, but the piece stays clearly darker than the cloth at its
    rim, while a white piece on a white cloth is only a little darker).  Darker by
    less than DARKER_WHITE: white.  In between: unsure.  A face brighter than the cloth
    right round it is white whatever the wide ring says (a white piece in a shadow on a
    white cloth lit beyond it; black pieces were at least 15 % darker than that cloth)."""
    inner, around, spread = _disc_stats(lum, x, y, 0.42 * r, 1.3 * r, 1.9 * r, LOOSE_AROUND_PERCENTILE)
    if spread > FACE_SPREAD_MAX:
        return None
    _, near, _ = _disc_stats(lum, x, y, 0.42 * r, 1.12 * r, 1.4 * r)
    darker = (near - inner) / max(8.0, near)
    if darker < 0.0:
        # Brighter than the cloth right round it, yet dark against the wider cloth: a white piece
        # in a shadow, or a black one on a dark stripe of the cloth.  Either; the counts settle it.
        return "either" if inner / max(8.0, around) < WHITE_RATIO else "white"
    if inner / max(8.0, around) < WHITE_RATIO:
        return "black"
    if darker > DARKER_BLACK:
        return "black"
    if near >= GLARE_AROUND and inner < BLOWN_LEVEL:
        # The cloth right round is blown out by glare, the face is not: a black face can be lifted
        # to a white piece's brightness there.  A piece all the same: white or black.
        return "either"
    return "white" if darker < DARKER_WHITE else "unsure"


def _zone_in_view(image_shape, H, x0_mm, x1_mm, y0_mm, y1_mm) -> bool:
    """True when the zone's corners (board mm) all fall inside the picture (a little slack)."""
    h, w = image_shape[:2]
    pts = mm_to_px(H, [(x0_mm, y0_mm), (x1_mm, y0_mm), (x1_mm, y1_mm), (x0_mm, y1_mm)])
    slack = 0.03 * (x1_mm - x0_mm)
    return bool(((pts[:, 0] >= -slack) & (pts[:, 0] <= w + slack) & (pts[:, 1] >= -slack)
                 & (pts[:, 1] <= h + slack)).all())


def _ring_kernels(radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Kernels that weigh a thin ring of ``radius`` by cos 2a and sin 2a (a the angle round it)."""
    size = 2 * int(radius + 3) + 1
    c = size // 2
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - c
    d = np.hypot(xx, yy)
    weight = np.clip(1.0 - np.abs(d - radius), 0.0, 1.0)
    a = np.arctan2(yy, xx)
    norm = weight.sum()
    return (weight * np.cos(2 * a) / norm).astype(np.float32), (weight * np.sin(2 * a) / norm).astype(np.float32)


def _circle_map(gray: np.ndarray, r: float) -> np.ndarray:
    """For every pixel: the mean over a circle of radius r around it of the edge strength
    times cos 2(edge direction - radial direction): + for an edge across the circle, - for one
    along it.  A disc's rim, crossed at right angles all the way
    round, gives a strong peak at the disc's centre; straight edges and cloth patterns
    crossing the circle give radial and tangential parts alike.  Computed at half
    resolution with two filters: (gx^2 - gy^2)/|g| against cos 2a and 2 gx gy/|g| against sin 2a."""
    half = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    hx, hy = gradients(half, blur=0.8)
    k_cos, k_sin = _ring_kernels(r / 2)
    mag = np.sqrt(hx * hx + hy * hy) + 1e-3
    resp = cv2.filter2D((hx * hx - hy * hy) / mag, cv2.CV_32F, k_cos) + cv2.filter2D(2 * hx * hy / mag, cv2.CV_32F, k_sin)
    resp *= 0.5                                     # per full-resolution pixel, like ring_response
    return cv2.resize(resp, (gray.shape[1], gray.shape[0]), interpolation=cv2.INTER_LINEAR)


def _side_pieces(gray, lum, gx, gy, in_view, x0_px, x1_px, r):
    """Loose pieces in a column of the top-down picture: list of (x, y, colour), colour "white",
    "black", "unsure" (a piece of unsure colour), "white?" / "black?" (a weak, only fairly round
    rim: that piece or a cloth cell) or "hidden" (a faint round trace in a blown-out glare spot: a
    washed-out white piece, or nothing); None if out of view."""
    x0_px, x1_px = max(0, int(x0_px)), min(gray.shape[1], int(x1_px))
    if not in_view or x1_px <= x0_px:
        return None
    # The circle map is made a little wider than the column (a cut through the cloth would make
    # rings of its own there), then its peaks are taken inside the column only.
    pad = int(1.5 * r)
    m0, m1 = max(0, x0_px - pad), min(gray.shape[1], x1_px + pad)
    resp = _circle_map(gray[:, m0:m1], r)
    peaks = (resp >= cv2.dilate(resp, np.ones((int(r), int(r)), np.uint8))) & (resp > CANDIDATE_MIN)
    # A piece's whole rim must be in the picture: centres at the picture's edge are filter artefacts.
    edge = int(0.8 * r)
    peaks[:edge] = peaks[-edge:] = False
    if m0 == 0:
        peaks[:, :edge] = False
    if m1 >= gray.shape[1]:
        peaks[:, -edge:] = False
    peaks[:, :x0_px - m0] = False
    peaks[:, x1_px - m0:] = False
    ys, xs = np.nonzero(peaks)
    peak_strength = resp[ys, xs]
    xs = xs + m0                                    # columns of the top-down picture
    # A dotted cloth gives hundreds of peaks (a ring of dots looks like a rim to the circle map),
    # a checked one many cells: the candidates are the strongest peaks and, besides, those whose
    # rim shows nearly all the way round in a quick ring test.
    quick = ring_response(gx, gy, np.c_[xs, ys], r, samples=24, band=1.5, percentile=RING_PERCENTILE)
    order = np.union1d(np.argsort(-peak_strength)[:MAX_LOOSE_CANDIDATES], np.argsort(-quick)[:MAX_LOOSE_CANDIDATES])
    found = []
    cands = []
    strength, bx, by = _rings_refined_twice(gx, gy, np.c_[xs[order], ys[order]], r)
    hidden = []
    faint = []
    for s, x, y, texture in zip(strength, bx, by, _texture(gx, gy, bx, by, r)):
        if s >= PRESENCE_MIN and s >= TEXTURE_FACTOR * texture \
                and (s >= STRONG_RIM or s >= WEAK_RIM_TEXTURE * texture):
            fourfold = _fourfold_share(_rim_profile(gx, gy, x, y, r)) if s < CELL_RIM else 1.0
            if fourfold < FOURFOLD_MIN:
                continue            # a square cell of a checked cloth, not a round piece
            cands.append((float(s), float(x), float(y), fourfold < DOUBT_FOURFOLD))
        elif s >= FAINT_RIM and s >= FAINT_TEXTURE * texture \
                and _fourfold_share(_rim_profile(gx, gy, x, y, r)) >= DOUBT_FOURFOLD:
            faint.append((float(x), float(y)))
        elif s >= HIDDEN_RIM[0] and lum[int(round(y)), int(round(x))] >= BLOWN_FACE:
            inner, _, spread = _disc_stats(lum, x, y, 0.42 * r, 1.12 * r, 1.4 * r)
            if inner >= BLOWN_FACE and spread < BLOWN_FACE_SPREAD \
                    and _fourfold_share(_rim_profile(gx, gy, x, y, r)) >= HIDDEN_RIM[1]:
                hidden.append((float(x), float(y)))
    cands.sort(reverse=True)
    for s, x, y, doubtful in cands:
        if any((x - fx) ** 2 + (y - fy) ** 2 < (1.6 * r) ** 2 for fx, fy, _ in found):
            continue
        colour = _loose_colour(lum, x, y, r)
        if colour:
            # A weak rim that is only fairly round may be a cloth cell: "white?" / "black?" (that
            # piece or nothing), left out by read() when the nine pieces a side say so.
            found.append((x, y, colour + "?" if doubtful and colour in ("white", "black") else colour))
    # A round rim too faint to count (a black piece in deep shade, a piece on a busy cloth): that
    # piece or nothing, settled by the counts.
    for x, y in faint:
        if not any((x - fx) ** 2 + (y - fy) ** 2 < (1.6 * r) ** 2 for fx, fy, _ in found):
            colour = _loose_colour(lum, x, y, r)
            if colour in ("white", "black"):
                found.append((x, y, colour + "?"))
    # A white piece in a blown-out glare spot may show only a faint round trace: counting without
    # it could give a wrong number, so such a trace away from the pieces found is kept as "hidden"
    # (read() counts it only when the nine pieces a side settle it).
    for x, y in hidden:
        if not any((x - fx) ** 2 + (y - fy) ** 2 < (1.6 * r) ** 2 for fx, fy, _ in found):
            found.append((x, y, "hidden"))
    return found


BLOWN_SHARE = 0.9           # share of a piece's disc that must be blown out for a white piece to hide there
MAX_BLOWN_SPOTS = 3         # blown-out spots beside the board kept per side as places a white piece may hide


def _blown_disc_share(lum: np.ndarray, r: float) -> np.ndarray | None:
    """For every pixel: the share of the square inside a piece's disc round it (side 1.6 r) that is
    blown out (>= BLOWN_LEVEL); None when nothing in the picture is blown out."""
    blown = lum >= BLOWN_LEVEL
    if not blown.any():
        return None
    size = int(1.6 * r) | 1
    return cv2.boxFilter(blown.astype(np.float32), cv2.CV_32F, (size, size), borderType=cv2.BORDER_CONSTANT)


def _blown_spots(blown_share: np.ndarray, x0_px, x1_px, r, found) -> list[tuple[float, float, str]]:
    """Places in a column of the top-down picture where a white piece would not be seen at all: a
    disc blown out by glare (BLOWN_SHARE of it), clear of the pieces found; at most MAX_BLOWN_SPOTS,
    each as (x, y, "hidden") - a white piece or nothing, which only the nine pieces a side settle."""
    x0_px, x1_px = max(0, int(x0_px)), min(blown_share.shape[1], int(x1_px))
    edge = int(r) + 1
    share = blown_share[edge:-edge, x0_px:x1_px].copy()
    if share.size == 0:
        return []
    taken = np.zeros(share.shape, np.uint8)
    for x, y, _ in found:
        cv2.circle(taken, (int(round(x)) - x0_px, int(round(y)) - edge), int(1.8 * r), 1, -1)
    share[taken > 0] = 0.0
    spots = []
    for _ in range(MAX_BLOWN_SPOTS):
        y, x = np.unravel_index(int(np.argmax(share)), share.shape)
        if share[y, x] < BLOWN_SHARE:
            break
        spots.append((float(x + x0_px), float(y + edge), "hidden"))
        cv2.circle(share, (int(x), int(y)), int(2 * r), 0.0, -1)
    return spots


def _line_samples() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Board-mm points on the drawn lines away from the 24 points (where pieces hide them), the
    same points moved half a step across their line (bare plate), and each line's unit normal."""
    pts = np.array([tintar_point_mm(n) for n in TINTAR_POINTS])
    on, off, normal = [], [], []
    for a, b in TINTAR_LINES:
        pa, pb = np.array(tintar_point_mm(a)), np.array(tintar_point_mm(b))
        u = (pb - pa) / np.linalg.norm(pb - pa)
        across = np.array([-u[1], u[0]])
        for t in np.linspace(0.0, 1.0, 49):
            p = pa + t * (pb - pa)
            if np.min(np.linalg.norm(pts - p, axis=1)) < 1.3 * TINTAR_PIECE_R:
                continue
            on.append(p)
            normal.append(across)
            off += [p + 0.5 * TINTAR_STEP * across, p - 0.5 * TINTAR_STEP * across]
    return np.array(on), np.array(off), np.array(normal)


_LINES_ON, _LINES_OFF, _LINES_NORMAL = _line_samples()
_VERTICAL_SAMPLES = np.abs(_LINES_NORMAL[:, 0]) > 0.5      # samples on the lines that fix x


def _point_directions() -> dict[str, list[tuple[float, float]]]:
    """For each point, the unit directions (board mm) of the drawn lines leaving it."""
    out: dict[str, list[tuple[float, float]]] = {n: [] for n in TINTAR_POINTS}
    for a, b in TINTAR_LINES:
        pa, pb = np.array(tintar_point_mm(a)), np.array(tintar_point_mm(b))
        length = float(np.linalg.norm(pb - pa))
        u = (pb - pa) / length
        for name in TINTAR_POINTS:
            p = np.array(tintar_point_mm(name))
            t = float((p - pa) @ u)
            off_line = u[0] * (p - pa)[1] - u[1] * (p - pa)[0]
            if abs(float(off_line)) > 1e-6 or t < -1e-6 or t > length + 1e-6:
                continue
            if t > 1e-6:
                out[name].append((-float(u[0]), -float(u[1])))
            if t < length - 1e-6:
                out[name].append((float(u[0]), float(u[1])))
    return out


_POINT_DIRECTIONS = _point_directions()
INK_FROM, INK_TO = 17.0, 20.0   # mm from a point: where its lines are sampled (clear of this and the next piece)
INK_ACROSS = 2.5                # mm either side of the line searched for the ink (registration slack)
MIN_INK_CONTRAST = 12.0         # grey levels between ink and plate below which the point's colour is unsure
UNSURE_SHARE = (0.4, 0.7)       # piece brightness from the dark to the light reference: black below, white above
SURE_BLACK_RATIO = 0.45         # without ink: piece / plate brightness below this is black,
SURE_WHITE_RATIO = 0.95         # above this white, between unsure
CLEARLY_BRIGHTER = 1.5          # with ink that contradicts: piece / plate above this is white


def _ink_offsets(directions) -> np.ndarray:
    """Sample offsets (mm) from a point along its lines: (positions along, positions across, 2)."""
    along = np.arange(INK_FROM, INK_TO + 0.01, 0.5)
    across = np.arange(-INK_ACROSS, INK_ACROSS + 0.01, 0.5)
    rows = []
    for ux, uy in directions:
        x = along[:, None] * ux - across[None, :] * uy
        y = along[:, None] * uy + across[None, :] * ux
        rows.append(np.stack([x, y], axis=-1))
    return np.concatenate(rows)


_INK_OFFSETS = {name: _ink_offsets(dirs) for name, dirs in _POINT_DIRECTIONS.items()}


def _ink_level(lum, point_px, offsets_mm, ink_light: bool) -> float | None:
    """Brightness of the drawn lines just beside a point (None when they fall outside the picture)."""
    h, w = lum.shape
    xi = np.rint(point_px[0] + offsets_mm[..., 0] * PX_PER_MM).astype(int)
    yi = np.rint(point_px[1] + offsets_mm[..., 1] * PX_PER_MM).astype(int)
    if xi.min() < 0 or yi.min() < 0 or xi.max() >= w or yi.max() >= h:
        return None
    values = lum[yi, xi]
    return median(values.max(axis=1) if ink_light else values.min(axis=1))


COVER_NEAR = (4.5, 8.0)     # mm from a point along its lines: under a piece put down on it (up to 4 mm off-centre)
COVER_FAR = (17.0, 20.0)    # mm: clear of this piece and the next one
COVER_PLATE = 5.5           # mm across the line: the bare plate the line's contrast is taken against
COVER_SHARE = 0.2           # a line near the point showing less than this share of its contrast farther out: covered
COVER_SAMPLES = 8           # distances sampled along each line in each span


def _cover_offsets(directions) -> tuple[np.ndarray, np.ndarray]:
    """Sample offsets (mm) from a point for the cover test: on each of its lines (within INK_ACROSS
    of it) and on the plate COVER_PLATE either side, at COVER_SAMPLES distances in COVER_NEAR and
    in COVER_FAR; shapes (lines, 2 spans, distances, across, 2) and (lines, 2 spans, distances, 2 sides, 2)."""
    across = np.arange(-INK_ACROSS, INK_ACROSS + 0.01, 0.5)
    sides = np.array([-COVER_PLATE, COVER_PLATE])
    ink, plate = [], []
    for ux, uy in directions:
        along = np.stack([np.linspace(*COVER_NEAR, COVER_SAMPLES), np.linspace(*COVER_FAR, COVER_SAMPLES)])
        ink.append(np.stack([along[:, :, None] * ux - across * uy, along[:, :, None] * uy + across * ux], axis=-1))
        plate.append(np.stack([along[:, :, None] * ux - sides * uy, along[:, :, None] * uy + sides * ux], axis=-1))
    return np.array(ink), np.array(plate)


_COVER_OFFSETS = {name: _cover_offsets(dirs) for name, dirs in _POINT_DIRECTIONS.items()}


def _at(lum: np.ndarray, point_px, offsets_mm: np.ndarray) -> np.ndarray:
    """lum at offsets (mm, last axis x y) from a point of the top-down picture (clipped to it)."""
    h, w = lum.shape
    xi = pixel_index(point_px[0] + offsets_mm[..., 0] * PX_PER_MM, w)
    yi = pixel_index(point_px[1] + offsets_mm[..., 1] * PX_PER_MM, h)
    return lum[yi, xi]


def _lines_covered(lum, point_px, name: str, ink_light: bool) -> bool:
    """True when something lies on the point: at least two of its lines stand out clearly farther
    out (COVER_FAR) and every such line vanishes near the point (COVER_NEAR).  A line's contrast:
    its ink (the darkest or lightest within INK_ACROSS of it) against the plate either side, median
    along it.  A white piece in a blown-out glare spot shows no rim, but it still hides the lines it
    lies on; glare on an empty point fades the lines gradually, and they still show near it (on the
    tuning scenes such lines kept at least half their contrast there, covered ones at most 5 %)."""
    ink_mm, plate_mm = _COVER_OFFSETS[name]
    band = _at(lum, point_px, ink_mm)
    ink = band.max(axis=-1) if ink_light else band.min(axis=-1)
    plate = _at(lum, point_px, plate_mm).mean(axis=-1)
    contrast = median_last_axis(ink - plate if ink_light else plate - ink)     # (lines, near / far)
    near, far = contrast[:, 0], contrast[:, 1]
    clear = far >= MIN_INK_CONTRAST
    return bool(clear.sum() >= 2 and (near[clear] < COVER_SHARE * far[clear]).all())


def _point_colour(lum, x, y, r, point_px, ink_offsets_mm, ink_light: bool) -> tuple[str | None, float]:
    """"white" / "black" / None for a piece at (x, y) on the plate, and its brightness share u.

    The plate around the piece and the ink of the lines beside it are two
    known references under the same local light: u = (piece - darker) /
    (lighter - darker) is 0 for a piece as dark as the darker of the two, 1
    for one as light as the lighter.  A shadow (a gain) and a glare spot (an
    added brightness) both cancel out.  None when the face is not plain or the
    ink does not stand out from the plate there (a burnt-out glare spot)."""
    inner, around, spread = _disc_stats(lum, x, y, 0.42 * r, 1.3 * r, 1.6 * r)
    if spread > FACE_SPREAD_MAX:
        return None, float("nan")
    ink = _ink_level(lum, point_px, ink_offsets_mm, ink_light)
    light, dark = (ink, around) if ink_light else (around, ink)
    if ink is None or light - dark < MIN_INK_CONTRAST:
        # No usable ink beside the point (burnt-out glare, lines not where expected): only a
        # piece clearly darker or clearly not darker than the plate is named.  On a plate blown out
        # by glare nothing is named white: the glare lifts a black face to the plate's brightness,
        # and its edge can ring an empty point.
        ratio = inner / max(8.0, around)
        if ratio > SURE_WHITE_RATIO and around < GLARE_AROUND:
            return "white", float("nan")
        return ("black" if ratio < SURE_BLACK_RATIO else None), float("nan")
    u = (inner - dark) / (light - dark)
    if UNSURE_SHARE[0] < u < UNSURE_SHARE[1]:
        # The ink sampled beside the point may lie under other light (a shadow's edge): a
        # face much brighter or much darker than the plate right round it still tells.
        ratio = inner / max(8.0, around)
        return ("black" if ratio < SURE_BLACK_RATIO else "white" if ratio > CLEARLY_BRIGHTER else None), u
    return ("white" if u >= UNSURE_SHARE[1] else "black"), u


LINE_MAP_SCALE = 0.5      # the drawn lines are looked for at half the picture's resolution
LINE_MAP_BLUR = 4.0       # px (about 4 mm there): the background the thin lines stand out from
SNAP_REACH = (14.0, 6.0, 3.0)  # mm searched across each drawn line, one pass each
MIN_LINE_SCORE = 10.0     # below this no plate is trusted (BoardNotFound)
SURE_LINE_SCORE = 12.0    # line score that confirms a plate (right ones scored 18 and more, wrong ones 7 and less)
SNAPPED_HYPOTHESES = 3    # the rough plate hypotheses (best line scores first) snapped onto the lines
WELL_POSED = 1e-6         # determinant over the diagonal's product above which the normal equations are used
PERSPECTIVE_REACH = 3.0   # mm searched across each drawn line by the perspective pass
PERSPECTIVE_PASSES = 2    # the second corrects what the first's fit leaves (it takes each sample's place
                          # along its line from the H it starts from)
SNAP_KEEP = 2.5           # mm: a line sample further than this from the fitted correction is an outlier


def _line_map(gray: np.ndarray) -> np.ndarray:
    """Thin-line contrast of the grey picture at LINE_MAP_SCALE: |grey - its blur|."""
    small = cv2.resize(gray, None, fx=LINE_MAP_SCALE, fy=LINE_MAP_SCALE, interpolation=cv2.INTER_AREA).astype(np.float32)
    return np.abs(small - cv2.GaussianBlur(small, (0, 0), LINE_MAP_BLUR))


def _sample(line_map: np.ndarray, H: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    """line_map at board-mm points (nearest pixel; outside the picture -> 0)."""
    xy = mm_to_px(H, pts_mm) * LINE_MAP_SCALE
    h, w = line_map.shape
    xi, yi = np.rint(xy[:, 0]).astype(int), np.rint(xy[:, 1]).astype(int)
    inside = (xi >= 0) & (yi >= 0) & (xi < w) & (yi < h)
    out = np.zeros(len(xy), np.float32)
    out[inside] = line_map[yi[inside], xi[inside]]
    return out


def _line_score(line_map: np.ndarray, H: np.ndarray) -> float:
    """How well the Tintar drawing (its 16 lines) sits where homography H puts it: the thin-line
    contrast on the lines over that half a step beside them."""
    return float(np.median(_sample(line_map, H, _LINES_ON)) / (np.median(_sample(line_map, H, _LINES_OFF)) + 1.0))


def _line_scores_by_direction(line_map: np.ndarray, H: np.ndarray) -> tuple[float, float]:
    """_line_score of the vertical lines' samples and of the horizontal lines' samples apart."""
    on = _sample(line_map, H, _LINES_ON)
    off = _sample(line_map, H, _LINES_OFF).reshape(-1, 2)       # two off samples per on sample
    return tuple(float(np.median(on[sel]) / (np.median(off[sel]) + 1.0))
                 for sel in (_VERTICAL_SAMPLES, ~_VERTICAL_SAMPLES))


# For x and for y: the line samples that fix it (the lines across that axis) and the affine fit's
# design matrix on them (1, x, y of each sample), made once.
_SNAP_DESIGNS = [(sel, np.c_[np.ones(sel.sum()), _LINES_ON[sel]])
                 for sel in (_VERTICAL_SAMPLES, ~_VERTICAL_SAMPLES)]


def _least_squares(design: np.ndarray, target: np.ndarray) -> np.ndarray:
    """np.linalg.lstsq's solution for three unknowns: by the normal equations and Cramer's rule
    (much faster than lstsq on a few hundred samples) unless the samples nearly lie on one line,
    where lstsq handles the degenerate case."""
    (a, b, c), (_, e, f), (_, _, i) = (design.T @ design).tolist()
    p, q, t = (design.T @ target).tolist()
    co_a, co_b, co_c = e * i - f * f, c * f - b * i, b * f - c * e      # first column of the adjugate
    det = a * co_a + b * co_b + c * co_c
    if det > WELL_POSED * a * e * i:
        return np.array([(co_a * p + co_b * q + co_c * t) / det,
                         (co_b * p + (a * i - c * c) * q + (b * c - a * f) * t) / det,
                         (co_c * p + (b * c - a * f) * q + (a * e - b * b) * t) / det])
    return np.linalg.lstsq(design, target, rcond=None)[0]


def _lines_found(line_map: np.ndarray, H: np.ndarray, reach: float, step: float) -> np.ndarray:
    """Each line sample (board mm) moved across its line, in ``step`` mm within ``reach``, to the
    strongest thin-line contrast where H puts it: where the picture shows that line."""
    offs = np.arange(-reach, reach + 0.01, step)
    moved = _LINES_ON[:, None, :] + offs[None, :, None] * _LINES_NORMAL[:, None, :]
    vals = _sample(line_map, H, moved.reshape(-1, 2)).reshape(len(_LINES_ON), len(offs))
    return _LINES_ON + offs[np.argmax(vals, axis=1)][:, None] * _LINES_NORMAL


def _snap_to_lines(line_map: np.ndarray, H: np.ndarray) -> np.ndarray:
    """H corrected so that the drawn lines fall where the picture shows them.

    Each sample on a line is moved across the line to the strongest thin-line
    contrast within the reach; an affine correction of board mm is fitted to
    the moves (x from the vertical lines, y from the horizontal ones), outliers
    dropped, in passes of shrinking reach."""
    for reach in SNAP_REACH:
        found = _lines_found(line_map, H, reach, 1.0)
        A = np.eye(3)
        for axis, (sel, design) in enumerate(_SNAP_DESIGNS):
            target = found[sel, axis]
            keep = np.ones(sel.sum(), bool)
            for _ in range(3):
                if keep.sum() < 6:
                    return H
                coef = _least_squares(design[keep], target[keep])
                kept, keep = keep, np.abs(design @ coef - target) < max(SNAP_KEEP, 0.3 * reach)
                if np.array_equal(keep, kept):
                    break               # the same samples again would give the same fit
            A[axis] = [coef[1], coef[2], coef[0]]
        H = H @ A
    return H


# The perspective fit's columns for a, b, c (1, x, y on the vertical lines' samples, else 0) and
# d, e, f (the same on the horizontal lines' samples).
_PERSPECTIVE_AFFINE_PART = np.c_[np.c_[np.ones(len(_LINES_ON)), _LINES_ON] * _VERTICAL_SAMPLES[:, None],
                                 np.c_[np.ones(len(_LINES_ON)), _LINES_ON] * ~_VERTICAL_SAMPLES[:, None]]


def _perspective_refined(image: np.ndarray, line_map: np.ndarray, H: np.ndarray, score: float) -> np.ndarray:
    """The chosen plate's H after PERSPECTIVE_PASSES perspective snaps, if its drawn lines then sit
    at least as well where the picture shows them and the plate stays in view; else H as it was.
    A rough outline with one side too long (a corner pulled off by glare or the cloth) tilts the
    plate in depth, which the affine snap cannot undo: the points are still found (the ring test
    looks 4 mm round each), but the board's edges end up millimetres off where loose pieces lie."""
    refined = H
    for _ in range(PERSPECTIVE_PASSES):
        refined = _snap_perspective(line_map, refined)
    if _plate_in_view(image.shape, refined) and _line_score(line_map, refined) >= score:
        return refined
    return H


def _snap_perspective(line_map: np.ndarray, H: np.ndarray) -> np.ndarray:
    """H corrected by a perspective correction of board mm fitted to the drawn lines: each line
    sample moved across its line to the strongest line contrast within PERSPECTIVE_REACH, and
    the eight parameters fitted to the moves (outliers dropped)."""
    found = _lines_found(line_map, H, PERSPECTIVE_REACH, 0.5)
    # A sample on a vertical line fixes x: found x = (a + b x + c y) / (g x + h y + 1), on a
    # horizontal one y = (d + e x + f y) / (same); linear in a-h once multiplied out.
    target = np.where(_VERTICAL_SAMPLES, found[:, 0], found[:, 1])
    x, y = _LINES_ON[:, 0], _LINES_ON[:, 1]
    design = np.c_[_PERSPECTIVE_AFFINE_PART, -target * x, -target * y]
    keep = np.ones(len(x), bool)
    for _ in range(3):
        if keep[_VERTICAL_SAMPLES].sum() < 6 or keep[~_VERTICAL_SAMPLES].sum() < 6:
            return H
        coef = np.linalg.lstsq(design[keep], target[keep], rcond=None)[0]
        fitted = (_PERSPECTIVE_AFFINE_PART @ coef[:6]) / (coef[6] * x + coef[7] * y + 1.0)
        kept, keep = keep, np.abs(fitted - target) < SNAP_KEEP
        if np.array_equal(keep, kept):
            break
    a, b, c, d, e, f, g, h = coef
    C = np.array([[b, c, a], [e, f, d], [g, h, 1.0]])
    return H @ C


KMEANS_SEED = 12345       # seed of the colour mask's k-means (foreground_mask)
PLATE_WORK_WIDTH = 640    # px: the outlines are looked for at this width (the lines then place the plate)
OPEN_FRACTION = 0.065     # of the mask's width: bumps narrower than this (pieces, glare, cloth cells) are cut off


def _mask_outlines(mask: np.ndarray, scale: float) -> tuple[list[np.ndarray], Exception | None]:
    """Rough plate outlines (corners in pixels) in a mask of the frame at ``scale``: its
    largest region, and the same after cutting off what clings to it (loose pieces, a glare
    spot, cloth cells of the board's colour) by an opening wider than those; and the error
    that explains an empty list (BoardPartlyInView before BoardNotFound)."""
    k = int(OPEN_FRACTION * mask.shape[1]) | 1
    quads, error = [], None
    for m in (mask, cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))):
        try:
            quad = (_quad_from_mask(m, "Tintar board") + 0.5) / scale - 0.5
        except BoardPartlyInView as exc:
            error = exc
            continue
        except BoardNotFound as exc:
            error = error or exc
            continue
        if all(np.max(np.linalg.norm(quad - q, axis=1)) > 3.0 for q in quads):
            quads.append(quad)
    return quads, error


OPEN_SPACE_MIN = 0.01     # of the picture: a region no sharp edge crosses this large may be part of the plate


def _open_space_mask(image: np.ndarray, scale: float) -> np.ndarray:
    """The large regions (OPEN_SPACE_MIN of the picture or more) that no sharp edge crosses and
    that do not reach the picture's border, at ``scale``.  On a checked cloth every cell is closed
    by edges and small, and the board merges with the cloth in the other masks; the bare strip of
    the plate between its frame and the outer square of lines is one large region whose outline
    is the plate's (the squares of lines inside it are its holes)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (int(round(w * scale)), int(round(h * scale))), interpolation=cv2.INTER_AREA)
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    free = (cv2.dilate(cv2.Canny(gray, 40, 100), np.ones((3, 3), np.uint8)) == 0).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    mh, mw = free.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    keep = (area >= OPEN_SPACE_MIN * mh * mw) & (x > 1) & (y > 1) & (x + bw < mw - 1) & (y + bh < mh - 1)
    keep[0] = False
    return keep[labels].astype(np.uint8) * 255


def _one_corner_redrawn(corners: np.ndarray) -> list[np.ndarray]:
    """The four outlines with one corner moved to complete a parallelogram on the other three
    (the camera's slight tilt keeps the plate nearly a parallelogram; the snap onto the drawn
    lines corrects what is left)."""
    out = []
    for i in range(4):
        redrawn = corners.copy()
        redrawn[i] = corners[i - 1] + corners[(i + 1) % 4] - corners[(i + 2) % 4]
        out.append(redrawn)
    return out


def _best_plate(image: np.ndarray, line_map: np.ndarray, outlines) -> tuple[float, np.ndarray | None, bool]:
    """(line score, homography, whether some hypothesis ran off the picture) of the best plate
    hypothesis: each outline as the plate, as the plate inside its frame and as the square of
    the outer lines; the SNAPPED_HYPOTHESES best of them also snapped onto the lines."""
    rough = []
    for corners in outlines:
        sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
        if sides.max() > 1.8 * sides.min():
            continue
        for inset in (0.0, TINTAR_FRAME, TINTAR_GRID0):
            shift = np.array([[1.0, 0.0, -inset], [0.0, 1.0, -inset], [0.0, 0.0, 1.0]])
            H = board_homography(corners, TINTAR_SIZE - 2 * inset, TINTAR_SIZE - 2 * inset) @ shift
            rough.append((_line_score(line_map, H), H))
    rough.sort(key=lambda sh: -sh[0])
    best_score, best_H, partly = 0.0, None, False
    for score, H in rough[:SNAPPED_HYPOTHESES]:
        snapped = _snap_to_lines(line_map, H)
        for candidate_score, candidate in ((score, H), (_line_score(line_map, snapped), snapped)):
            if not _plate_in_view(image.shape, candidate):
                partly = True
            elif best_H is None or candidate_score > best_score:
                best_score, best_H = candidate_score, candidate
    return best_score, best_H, partly


def _find_plate(image: np.ndarray, gray: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(corners of the plate in pixels, board-mm -> pixel homography).

    Outlines come first from the region closed by sharp edges
    (vision.board_outline.edge_enclosed_mask); when the drawn lines do not
    clearly confirm any (line score below SURE_LINE_SCORE) the largest region
    unlike the table (foreground_mask) is tried as well.  Each outline is tried
    as the plate, as the plate inside its frame and as the square of the outer
    lines (a frame lost in shadow or the colour of the cloth leaves only the
    inner plate, a plate the colour of the cloth only the lines), then snapped
    onto the drawn lines it shows; the one whose drawn lines sit best where the
    Tintar drawing puts them wins.  ``gray``: the picture in grey, when the caller has made it.
    """
    line_map = _line_map(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray is None else gray)
    scale = min(1.0, PLATE_WORK_WIDTH / float(image.shape[1]))
    edge_outlines, edge_error = _mask_outlines(edge_enclosed_mask(image, scale), scale)
    score, H, partly = _best_plate(image, line_map, edge_outlines)
    if H is None or score < SURE_LINE_SCORE:
        mask, _ = foreground_mask(image, PLATE_WORK_WIDTH, seed=KMEANS_SEED)
        colour_outlines, colour_error = _mask_outlines(mask, scale)
        score, H, partly = _best_plate(image, line_map, colour_outlines + edge_outlines)

        def unsure() -> bool:
            # no plate yet, or one whose lines do not sit on the drawing (its score, or its weaker
            # direction's: see the end of this function) — the next outlines are tried
            return H is None or score < MIN_LINE_SCORE or not _both_directions_on(line_map, H)

        def better(retry) -> bool:
            return retry[1] is not None and (H is None or retry[0] > score or (
                not _both_directions_on(line_map, H) and _both_directions_on(line_map, retry[1])))

        if unsure():
            # A cloth cell or a shadow merged into one corner of the mask pulls that corner off while
            # the other three stay: each outline with one corner redrawn from the other three.
            redrawn = [c for outline in colour_outlines + edge_outlines for c in _one_corner_redrawn(outline)]
            retry = _best_plate(image, line_map, redrawn)
            if better(retry):
                score, H, partly = retry
        free_outlines = []
        if unsure():
            # A checked cloth merges with the board in both masks; the plate's bare strip inside its
            # frame is still one large region no sharp edge crosses.
            free_outlines, _ = _mask_outlines(_open_space_mask(image, scale), scale)
            retry = _best_plate(image, line_map, free_outlines)
            if better(retry):
                score, H, partly = retry
        if H is None and not colour_outlines and not edge_outlines and not free_outlines:
            raise colour_error if isinstance(colour_error, BoardPartlyInView) else (edge_error or colour_error)
    if H is None and partly:
        raise BoardPartlyInView("only part of the Tintar board is in view — move the camera or the board "
                                "/ tabla se vede doar în parte — mutați camera sau tabla")
    if H is None:
        raise BoardNotFound("no Tintar board in view (the outline is not square) "
                            "/ nu se vede tabla de Tintar (conturul nu este pătrat)")
    if score < MIN_LINE_SCORE:
        # No hypothesis puts the drawn lines where the picture shows them: reading pieces off a
        # misplaced board would name wrong points, so nothing is read.
        raise BoardNotFound("the Tintar board's lines are not clearly seen — check the light and the view "
                            "/ liniile tablei de Tintar nu se văd clar — verificați lumina și imaginea")
    H = _perspective_refined(image, line_map, H, score)
    if not _both_directions_on(line_map, H):
        # The line score is a median: a plate stretched along one axis can keep every line of the
        # other direction on the drawing (half the samples) while its own lines fall on the plate
        # beside them.  Both directions must sit on the drawing (right plates: 15.5 and more, 1 796 scenes).
        raise BoardNotFound("the Tintar board's lines are not clearly seen — check the light and the view "
                            "/ liniile tablei de Tintar nu se văd clar — verificați lumina și imaginea")
    return mm_to_px(H, _PLATE_CORNERS_MM), H


_PLATE_CORNERS_MM = [(0, 0), (TINTAR_SIZE, 0), (TINTAR_SIZE, TINTAR_SIZE), (0, TINTAR_SIZE)]


def _both_directions_on(line_map: np.ndarray, H: np.ndarray) -> bool:
    """Whether the drawn lines of both directions sit on the drawing where H puts them (each
    direction's line score at least MIN_LINE_SCORE)."""
    return min(_line_scores_by_direction(line_map, H)) >= MIN_LINE_SCORE


def _plate_in_view(image_shape, H) -> bool:
    """True when the whole plate (board mm -> pixels by H) lies inside the picture."""
    corners = mm_to_px(H, _PLATE_CORNERS_MM)
    h, w = image_shape[:2]
    return bool((corners[:, 0] >= 0).all() and (corners[:, 1] >= 0).all() and (corners[:, 0] <= w - 1).all()
                and (corners[:, 1] <= h - 1).all())


def _ink_is_light(lum, px) -> bool:
    """True when the board's drawn lines are lighter than its plate."""
    h, w = lum.shape

    def at(pts_mm):
        x, y = px(pts_mm[:, 0], pts_mm[:, 1])
        xi = pixel_index(x, w)
        yi = pixel_index(y, h)
        return lum[yi, xi]

    return median(at(_LINES_ON)) > median(at(_LINES_OFF))


def _possible_counts(pieces) -> set[tuple[int, int]]:
    """Every (white, black) count a side's pieces may come to: the sure ones as read, each piece of
    unsure colour white, black or none (a cloth ring), each hidden place or "white?" a white piece
    or none, each "black?" a black piece or none."""
    white = sum(1 for p in pieces if p[2] == "white")
    black = sum(1 for p in pieces if p[2] == "black")
    unsure = sum(1 for p in pieces if p[2] == "unsure")
    either = sum(1 for p in pieces if p[2] == "either")
    maybe_white = sum(1 for p in pieces if p[2] in ("hidden", "white?"))
    maybe_black = sum(1 for p in pieces if p[2] == "black?")
    return {(white + as_white + more_white + either_white, black + as_black + more_black + either - either_white)
            for as_white in range(unsure + 1) for as_black in range(unsure + 1 - as_white)
            for more_white in range(maybe_white + 1) for more_black in range(maybe_black + 1)
            for either_white in range(either + 1)}


def _side_counts(left, right, on_board: dict, board_hidden: int = 0) -> tuple[dict | None, dict | None]:
    """(in_hand, captured) counts from the pieces found left and right of the board (None for a
    side out of view), given how many of each colour the points hold.

    Each colour has PIECES_PER_SIDE pieces, each on the board, in hand or captured.  With both
    sides in view, the pieces of unsure colour (white, black, or a cloth ring: none) and the
    hidden places (a faint round trace or a blown-out spot: a washed-out white piece, or none; on
    the board board_hidden empty points blown out by glare) are settled when exactly one set of counts
    gives both colours nine pieces in all; without one, or when counts come out short (a piece
    missed, e.g. in deep shade) or over (the cloth made rings that look like pieces), no counts
    are given.  With a side out of view only the other side's sure counts are given, and not when
    they would give a colour more than nine pieces."""
    if left is not None and right is not None:
        settled = set()
        for lw, lb in _possible_counts(left):
            for rw, rb in _possible_counts(right):
                white_short = PIECES_PER_SIDE - on_board["white"] - lw - rw
                if 0 <= white_short <= board_hidden and on_board["black"] + lb + rb == PIECES_PER_SIDE:
                    settled.add((lw, lb, rw, rb))
        if len(settled) == 1:
            lw, lb, rw, rb = next(iter(settled))
            return {"white": lw, "black": lb}, {"white": rw, "black": rb}
        return None, None
    sides = []
    for pieces in (left, right):
        sure = pieces is not None and not any(p[2] in ("unsure", "either", "hidden") for p in pieces)
        sides.append({c: sum(1 for p in pieces if p[2] in (c, c + "?")) for c in ("white", "black")} if sure else None)
    seen = [side for side in sides if side is not None]
    if any(on_board[c] + sum(side[c] for side in seen) > PIECES_PER_SIDE for c in ("white", "black")):
        return None, None
    return sides[0], sides[1]


def read(image, calibration=None) -> dict:
    """The Tintar position in ``image`` (BGR); see the module docstring for the result."""
    image = imaging.check_frame(image)
    picture_gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    _, H = _find_plate(image, picture_gray)
    x0 = -SIDE_ZONE - SIDE_GAP
    gray, _ = top_down(picture_gray, H, x0, -8.0, TINTAR_SIZE + SIDE_ZONE + SIDE_GAP,
                       TINTAR_SIZE + 8.0, PX_PER_MM, with_inside=False)
    lum = gray.astype(np.float32)
    gx, gy = gradients(gray)
    r = TINTAR_PIECE_R * PX_PER_MM

    def px(xm, ym):
        return (xm - x0) * PX_PER_MM, (ym + 8.0) * PX_PER_MM

    result: dict = {}
    strength, bx, by = _best_rings(gx, gy, [px(*tintar_point_mm(n)) for n in TINTAR_POINTS], r,
                                   int(4 * PX_PER_MM))
    ink_light = _ink_is_light(lum, px)
    for name, s, x, y in zip(TINTAR_POINTS, strength, bx, by):
        point_px = px(*tintar_point_mm(name))
        if s >= PRESENCE_MIN:
            result[name] = _point_colour(lum, x, y, r, point_px, _INK_OFFSETS[name], ink_light)[0]
        elif _lines_covered(lum, point_px, name, ink_light):
            # No rim seen (a white piece in a blown-out glare spot), but its lines are hidden near it.
            result[name] = _point_colour(lum, *point_px, r, point_px, _INK_OFFSETS[name], ink_light)[0]
        else:
            result[name] = None
    left_in = _zone_in_view(image.shape, H, x0, -SIDE_GAP, 0.0, TINTAR_SIZE)
    right_in = _zone_in_view(image.shape, H, TINTAR_SIZE + SIDE_GAP, TINTAR_SIZE + SIDE_GAP + SIDE_ZONE, 0.0,
                             TINTAR_SIZE)
    # Loose pieces lie beside the plate: a centre closer to it than a piece's radius would put the
    # piece on the board's frame (rings there are the frame's edge and its shadow on the cloth).
    left_columns = (0, (-LOOSE_CLEARANCE - x0) * PX_PER_MM)
    right_columns = ((TINTAR_SIZE + LOOSE_CLEARANCE - x0) * PX_PER_MM, gray.shape[1])
    left = _side_pieces(gray, lum, gx, gy, left_in, *left_columns, r)
    right = _side_pieces(gray, lum, gx, gy, right_in, *right_columns, r)
    # A white piece inside a blown-out glare spot may leave no trace at all: such spots beside the
    # board, and empty points blown out on it, are places where one may hide (settled by the counts).
    blown_share = _blown_disc_share(lum, r)
    board_hidden = 0
    if blown_share is not None:
        if left is not None:
            left += _blown_spots(blown_share, *left_columns, r, left)
        if right is not None:
            right += _blown_spots(blown_share, *right_columns, r, right)
        for name in TINTAR_POINTS:
            x, y = px(*tintar_point_mm(name))
            board_hidden += result[name] is None and blown_share[int(round(y)), int(round(x))] >= BLOWN_SHARE
    on_board = {colour: sum(1 for n in TINTAR_POINTS if result[n] == colour) for colour in ("white", "black")}
    result["in_hand"], result["captured"] = _side_counts(left, right, on_board, board_hidden)
    return result


def annotate(image: np.ndarray, result: dict) -> np.ndarray:
    """The picture with the board outline and each piece read (a ring in the piece's colour)."""
    out = imaging.check_frame(image).copy()
    try:
        corners, H = _find_plate(out)
    except ValueError:
        return out
    cv2.polylines(out, [np.rint(corners).astype(np.int32)], True, (0, 200, 255), 2, cv2.LINE_AA)
    for name in TINTAR_POINTS:
        (x, y), = mm_to_px(H, [tintar_point_mm(name)])
        colour = result.get(name)
        if colour:
            cv2.circle(out, (int(x), int(y)), 14, (0, 200, 255), 3, cv2.LINE_AA)
            cv2.circle(out, (int(x), int(y)), 9, (255, 255, 255) if colour == "white" else (0, 0, 0), 3,
                        cv2.LINE_AA)
        else:
            cv2.drawMarker(out, (int(x), int(y)), (0, 200, 255), cv2.MARKER_CROSS, 10, 1, cv2.LINE_AA)
    lines = [f"in hand / in mana: {result.get('in_hand')}", f"captured / capturate: {result.get('captured')}"]
    for i, text in enumerate(lines):
        cv2.putText(out, text, (10, 24 + 22 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, (10, 24 + 22 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    return out
