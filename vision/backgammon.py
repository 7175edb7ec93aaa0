"""Reading a Table (backgammon) board: checkers on the 24 points, on the bar and borne off,
the dice, and the position as a gnubg Position ID.

Board conventions (docs/vision-boards.md, drawn by vision.render_boards):
white sits at the bottom of the picture; ``points[i] = [white, black]`` is
point ``i + 1`` in white's numbering (white's home, points 1-6, bottom right;
black's home, 19-24, top right; white moves 24 -> 1).  The bar is the middle
strip; the borne-off trays are at the right edge.  Checkers of either colour
are counted wherever they lie, so the bar half or tray a player uses does
not matter.

How: the board's outline is chosen among candidates from vision.board_outline's masks (convex
hull, and a straight line fitted to each side by RANSAC, so that glare or a shadow joined to the
board does not bend it) by how well the board's drawing (rim, inner frame, bar, trays) shows where
each puts it, refined side by side onto the rim, and the board is seen from straight above.  Along
each point a checker shows as the arc of its rim on the side towards the point's base (the next
checker of a stack lies on top of it, further out); arcs are found with an edge test that wants a
curve crossed at right angles all along, so triangle edges and wood grain do not count.  Each arc
is one checker; a stack of more than five, which fills the point evenly, is counted by the comb
of its arcs, also when only some of them show but those lie closer than touching; checkers seen where
no stack of the count read would have them tell the stack from the base they belong to, whose other
checkers a lamp's glare hid (blown out, or faint rims); a faint rim at a later place of a touching
stack, beyond blown-out places, is its top checker; on a point in a glare, the checkers' sides, which
stand against the field where the rims between white checkers wash out, tell a stack of two or more,
the far edge of a short stack's last checker (or half of it, where the stack is blown out) tells where
it ends, and faint rims closer than touching tell a tall stack read as five.  A checker's rim band,
lighter (a dark checker) or darker (a light one) than its face all round in grey levels, which a glare
leaves where it flattens the log-brightness edges, finds a touching stack on a point read empty, the
farther checkers of one read as four or fewer, and tells a stack's colour when its first checker's shows.
A bar half is read as a touching stack from the frame.  A stack's colour is the polarity of its
rims (darker than the face: white; lighter: black; in a glare, or with a brightness between the
clear stacks' of either colour, its sign; a stack whose first checker is blown out is white), else
its brightness split into the two colours over the whole board (between the stacks whose polarity
is clear); a side of 15 + k beside one of 15 - k
gives its one stack of k whose rims do not tell its colour, and lean the other way, to the other
side.  Borne-off checkers stand on edge in the trays: their count is the filled length, from the
first checker's outer face to the last one's, over a checker's thickness, their colour (two or more) the polarity
of the lines between them (their rims seen edge on); where a glare flattened those lines' log-brightness
steps, the run of lines in grey levels from the tray's outer end counts them and tells their colour.
A colour short of 15 gets the missing checkers on its one stack inside a blown-out glare where a
taller stack fits, if there is exactly one (and no point read empty lies in the glare); otherwise a
reading without 15 checkers a side has no Position ID.  Dice: vision.dice.

``read(image)`` returns the "table" value of Contract 2:
``{"points": [[w, b] x 24], "bar": [w, b], "off": [w, b], "dice": [a, b] |
"reroll" | None, "position_id": "<gnubg id, white on roll>" | None,
"position_id_black_on_roll": "..." | None}`` (None unless 15 checkers a side are seen).
"""

from __future__ import annotations

import base64
import functools
import math

import cv2
import numpy as np

from vision import dice as dice_reader
from vision import imaging
from vision.board_outline import (MIN_AREA_FRACTION, BoardNotFound, BoardPartlyInView, _line_corners,
                                  board_homography, edge_enclosed_mask, foreground_mask, mm_to_px,
                                  top_down)
from vision.fast_stats import median, median_last_axis
from vision.imaging import SATURATED
from vision.render_boards import (CHECKER_R, OFF_THICKNESS, TABLE_BAR_W, TABLE_DIVIDER, TABLE_FRAME, TABLE_H,
                                  TABLE_POINT_L, TABLE_POINT_W, TABLE_TRAY_SPLIT, TABLE_TRAY_W, TABLE_W,
                                  table_bar_axis, table_point_axis, table_tray_axis)

__all__ = ["read", "annotate", "position_id", "decode_position_id", "BoardNotFound", "BoardPartlyInView"]

PX_PER_MM = 2.0
MARGIN_X, MARGIN_Y = 70.0, 40.0     # mm of table around the board looked at (for dice)
ARC_HALF_ANGLE = np.deg2rad(70)     # the near half of a checker's rim that shows in a stack
ARC_PERCENTILE = 30.0
NEXT_ARC_MIN = 1.2                  # a checker touching the last one of a stack of at most five (glare)
TOUCH_FACE_SHARE = 0.5             # ... and where the picture is at least this share of its faces' brightness
TOUCH_TOLERANCE = 3.0               # mm: touching checkers' peaks lie this near 2 * CHECKER_R apart
ARC_MIN = 2.5                       # rim edge strength that makes a checker
FIRST_ARC_MIN = 2.0                 # ... the first one on a point, whose near arc meets the base's edge
FIRST_BREADTH = 0.75                # ... when broad: its mean over 1.5 mm either way is this share of it
STEP_MM = 0.75                      # checker centres tried every this far along a point
GAP_TOLERANCE = 0.2                 # a gap of m spacings is m - 1 missed checkers when within this share
MIN_SPACING_MM = 7.0                # checkers in a stack are at least this far apart
PEAK_DIP = 0.5                      # a checker's peak rises this far above the dip towards a stronger one
COLOUR_GAP = 0.5                    # log-brightness gap that separates white stacks from black ones
GLARE_COMB_MIN = 0.45               # comb score (_comb_fit) that reads a tall stack with no rim over ARC_MIN in glare
ARC_CENTRE_BIAS = 2.0               # mm: a near-arc peak lies this much beyond the checker's centre (measured)
GLARE_SHARE = 0.1                   # share of blown-out pixels along a point that puts it in the glare
FAINT_ARC = 1.0                     # a faint rim one checker beyond a stack's last: the glare fill abstains
FAINT_FIRST_ARC = 1.75              # ... or where a point read empty would have its first checker (the base's
                                    # edge alone gives up to about 1.7 there)
FAINT_REACH = 3.0                   # mm either way of where that checker would lie
FAR_ARC_MIN = 1.5                   # far-arc response of a touching stack's last checker in glare (_far_arc_count;
                                    # 908 empty dev points in glare gave 0.73 at most)
FAR_ARC_LAST = 4                    # ... up to this many: the fifth's far arc is where any stack filling the point ends
BLOWN_FAR_PERCENTILE = 50.0         # the far arc of a blown-out stack's last checker (_blown_stack_count): half of it
BLOWN_FAR_MIN = 0.5                 # ... showing this much
OVERLAP_OFF_TOUCHING = 2            # faint rims off a touching stack's places that show a stack in glare overlapping
OVERLAP_GAP_ARC = 0.7               # a place between the seen checkers of an overlapping stack shows this faint a rim
GRID_TOLERANCE = 4.0                # mm: the glare fill needs the checkers seen on a point this near the filled stack's
GLARE_DOMINANCE = 6.0               # ... and no other place that may hold the missing checkers has 1/6 of its share
GRID_SHARE = 0.25                   # a checker seen lies at a place of a stack within GRID_TOLERANCE and this share
                                    # of the stack's spacing (_on_places)
HIDDEN_BLOWN_SHARE = 0.5            # a checker's place this blown out (SATURATED) may hide its rim ...
HIDDEN_HALF_SIDE = 0.7              # ... looked at in a square this many radii either side of its centre
POINT_SIDE_EDGE = 4.0               # a point's side against its neighbour, both blown out by a glare, shows a
                                    # weaker edge (7-8 where daylight blows out a light point alone)
SIDE_REACH = 3.0                    # mm either way of the side looked at
SIDE_ARC_HALF_ANGLE = np.deg2rad(50)   # a checker's sides across the point, which show against the field around it
SIDE_ARC_MIN = 1.0                  # side-arc response of a checker in a stack of at most five (over 98 % of them;
                                    # an empty point gives at most 0.7 beyond SIDE_FROM)
SIDE_FROM = 24.0                    # mm from the base: nearer, the triangle's own sides fit a checker's side arcs
RIM_BAND_MM = 5.0                   # thin bands (a checker's rim, ~2 mm) are found by a top-hat this wide
RIM_POLARITY_MIN = 1.0              # rim polarity (top-hat minus black-hat) that tells the colour by itself
RIM_POLARITY_GLARE = 0.1            # ... for a stack in a lamp's glare (GLARE_SHARE), whose brightness it moves
RIM_POLARITY_BETWEEN = 0.5          # ... for one outside the glare whose brightness lies between the clear blacks'
                                    # and the clear whites' (tuning: its sign right for all 39 from 0.5, 4 of 9 below)
TRAY_LINE_MIN = 1.5                 # a fainter line still carries the run of borne-off checkers on
TRAY_BLOWN_SHARE = 0.9              # a stretch of a tray this much blown out may hide the lines between checkers
TRAY_EDGE_MIN = 3.0                 # log-brightness step of the line between two borne-off checkers
TRAY_BAND_MM = 3.0                  # those lines (~1.8 mm) are found by a top-hat this wide (rim polarity)
FLOOR_LIKE = 0.5                    # (_floor_before) the share of the way from the floor to the checkers
RING_RIM = 0.93                     # a checker's rim band (0.86-1 of its radius) and its face inside, sampled
RING_FACE = 0.72                    # ... on circles of these shares of CHECKER_R (_ring_contrasts)
RING_SAMPLES = 24
RING_PERCENTILE = 20.0              # ... the rim this much lighter (or darker) than the face at 80 % of the angles
RING_CONTRAST_MIN = 15.0            # grey levels: a checker's rim against its face that makes it (_ring_top)
RING_REACH = 3.0                    # mm along the point either way of a place where its checker is looked for
RING_ACROSS = 1.5                   # ... and across it
TRAY_LINE_CONTRAST = 15.0           # grey levels: a line between two borne-off checkers against their faces
TRAY_FACE_LIKE = 0.1                # ... whose faces differ by less than this in log-brightness (_tray_lines)
TRAY_SHIFT = 1.5                    # mm: the checkers' lines are looked for this far either way of their places
OFF_START = 1.0                     # mm: the first borne-off checker stands this far from the tray's outer end
OFF_HALF_WIDTH = CHECKER_R - 1.0    # mm: half the width of a borne-off checker on edge, across the tray


_LOG_GREY = (255.0 / np.log(256.0 + 8.0) * np.log(np.arange(256, dtype=np.float32) + 8.0)).astype(np.float32)


# ------------------------------------------------------------ Position ID --

def _bits_for(counts_25) -> str:
    return "".join("1" * int(n) + "0" for n in counts_25)


def position_id(points, bar, white_on_roll: bool = True) -> str:
    """The gnubg Position ID (14 characters) of a position in this module's convention.

    gnubg's key lists first the player NOT on roll, then the player on roll,
    each from their own ace point (1) to 24 and then the bar: n checkers as n
    ones and a zero; 80 bits, least significant bit first in each byte, base64.
    """
    white = [int(points[p - 1][0]) for p in range(1, 25)] + [int(bar[0])]
    black = [int(points[24 - p][1]) for p in range(1, 25)] + [int(bar[1])]
    for side, name in ((white, "white"), (black, "black")):
        if sum(side) > 15 or min(side) < 0:
            raise ValueError(f"{name} has {sum(side)} checkers; more than 15 a side cannot have a Position ID "
                             f"/ peste 15 piese de jucător: nu există Position ID")
    first, second = (black, white) if white_on_roll else (white, black)
    bits = _bits_for(first) + _bits_for(second)
    bits = bits.ljust(80, "0")
    data = bytes(int(bits[i * 8:(i + 1) * 8][::-1], 2) for i in range(10))
    return base64.b64encode(data).decode("ascii")[:14]


def decode_position_id(pid: str, white_on_roll: bool = True) -> tuple[list, list, list]:
    """(points, bar, off) from a gnubg Position ID; the inverse of ``position_id``."""
    pid = pid.strip()
    if len(pid) != 14:
        raise ValueError(f"a Position ID has 14 characters, not {len(pid)} / un Position ID are 14 caractere")
    try:
        data = base64.b64decode(pid + "==", validate=True)
    except ValueError as exc:
        raise ValueError(f"{pid!r} is not base64 / nu este base64") from exc
    bits = "".join(format(b, "08b")[::-1] for b in data)
    sides = []
    i = 0
    for _ in range(2):
        counts = []
        for _ in range(25):
            n = 0
            while i < 80 and bits[i] == "1":
                n += 1
                i += 1
            i += 1
            counts.append(n)
        sides.append(counts)
    first, second = sides
    white, black = (second, first) if white_on_roll else (first, second)
    points = [[white[p - 1], black[24 - p]] for p in range(1, 25)]
    bar = [white[24], black[24]]
    for side, name in ((white, "white"), (black, "black")):
        if sum(side) > 15:
            raise ValueError(f"{pid}: {name} has more than 15 checkers / peste 15 piese")
    off = [15 - sum(white), 15 - sum(black)]
    return points, bar, off


# ----------------------------------------------------------- the board --
# The outline of the region unlike the table (vision.board_outline) is spoilt when a lamp's glare or a
# shadow joins it, or when the frame is lost in a shadow of its own colour.  So several outlines are
# made (convex hull, and a straight line fitted to each side by RANSAC, from the colour mask and from
# the sharp-edge mask), each is judged by how well the board's drawing (rim, inner frame, bar, trays)
# shows where it puts it, and the best is refined side by side onto its rim and inner frame edge.

OUTLINE_WORK_WIDTH = 640           # the outline is searched at this width (refined at full size after)
SIDE_ANGLE = np.deg2rad(30)         # contour points whose tangent is within this of a side's direction
RANSAC_TRIES = 80
RANSAC_INLIER_PX = 1.5              # mask pixels (the mask is about half the frame's size)
LAYOUT_MARGIN = 20.0                # mm beside the board looked at when judging an outline
LAYOUT_BESIDE = 5.0                 # mm: a drawn line's edge is compared with the edges this far beside it
RIM_REACH = 16.0                    # mm: a side is searched this far either way when refined
RIM_SEGMENTS = 10
REFINE_ROUNDS = 2                   # an outline is refined onto its rim at most this many times
_SIDE_CORNERS = ((0, 3), (0, 1), (1, 2), (2, 3))   # the corners (TL, TR, BR, BL) of the left, top, right, bottom side
SIDE_MOVED_PX = 4.0                 # a refined side whose corners moved less than this is not put back
EDGE_CLEARANCE = 3.0                # mask pixels: an outline corner nearer the picture's edge is a board cut off
MIN_LAYOUT_SCORE = 5.0
LAYOUT_LINE_CAP = 10.0              # a drawn line's part of the layout score is capped at this either way
GOOD_LAYOUT_SCORE = 90.0            # an outline whose drawing shows this well needs no other candidates
ASPECT_TOLERANCE = 0.05            # an outline this far from the board's proportions may have lost a side
NEAR_ASPECT = 0.04                  # ... one this far off and showing the drawing poorly, tried nearer them
RETRY_ROUNDS = 2                    # ... and is moved out to them, and a winner still off them once more
PLAUSIBLE_RATIO = (0.7, 1.4)        # an outline's proportions against the board's beyond these are no board
CUT_OFF_LAYOUT_SCORE = 60.0         # a cut-off outline (_cut_off_variants) shows the drawing this well, refined
PLAID_COLOURS = 5                   # the table's colours for the last outline candidates (a checked cloth) ...
PLAID_SHARE = 0.08                  # ... each on this share of the picture's border
SAME_OUTLINE_PX = 4.0               # mask pixels: outlines whose corners all lie this close are one
SMOOTH_SIGMA = 6.0 / 1280           # the last candidates' blur (share of the picture's width): a cloth's stripes
SMOOTH_PART = 0.005                 # ... and the least share of the mask a part of the board covers there

_X_BAR0 = TABLE_FRAME + 6 * TABLE_POINT_W
_X_BAR1 = _X_BAR0 + TABLE_BAR_W
_X_RIGHT = _X_BAR1 + 6 * TABLE_POINT_W
_X_TRAY0 = _X_RIGHT + TABLE_DIVIDER
_X_TRAY1 = _X_TRAY0 + TABLE_TRAY_W
_F = TABLE_FRAME
# (vertical line?, its x or y, from, to), board mm: the outer rim, the playing fields' and trays' edges
_LAYOUT_LINES = (
    (True, 0.0, 0.0, TABLE_H), (True, TABLE_W, 0.0, TABLE_H), (False, 0.0, 0.0, TABLE_W),
    (False, TABLE_H, 0.0, TABLE_W),
    (True, _F, _F, TABLE_H - _F), (True, _X_BAR0, _F, TABLE_H - _F), (True, _X_BAR1, _F, TABLE_H - _F),
    (True, _X_RIGHT, _F, TABLE_H - _F), (True, _X_TRAY0, _F, TABLE_H - _F), (True, _X_TRAY1, _F, TABLE_H - _F),
    (False, _F, _F, _X_RIGHT), (False, TABLE_H - _F, _F, _X_RIGHT), (False, _F, _X_TRAY0, _X_TRAY1),
    (False, TABLE_H - _F, _X_TRAY0, _X_TRAY1),
    (False, TABLE_H / 2 - TABLE_TRAY_SPLIT / 2, _X_TRAY0, _X_TRAY1),
    (False, TABLE_H / 2 + TABLE_TRAY_SPLIT / 2, _X_TRAY0, _X_TRAY1),
)


MAX_LAYOUT_SCORE = LAYOUT_LINE_CAP * len(_LAYOUT_LINES)   # every drawn line shows at its cap


def _same_extent(lines) -> dict[tuple[bool, float, float], list[int]]:
    """The drawn lines (_LAYOUT_LINES) of one direction and extent: (vertical?, from, to) -> their indices."""
    groups: dict[tuple[bool, float, float], list[int]] = {}
    for i, (upright, _, a, b) in enumerate(lines):
        groups.setdefault((upright, a, b), []).append(i)
    return groups


_LAYOUT_LINE_GROUPS = _same_extent(_LAYOUT_LINES)     # looked at together (_layout_score)


def _order_corners(pts: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left (image axes)."""
    pts = np.asarray(pts, np.float64).reshape(4, 2)
    s = pts.sum(axis=1)
    d = pts[:, 1] - pts[:, 0]
    return np.array([pts[np.argmin(s)], pts[np.argmin(d)], pts[np.argmax(s)], pts[np.argmax(d)]])


def _meet(lines) -> np.ndarray | None:
    """Corners (ordered) where the lines left, top, right, bottom (point, direction) meet."""
    corners = _line_corners(lines)
    return None if corners is None else _order_corners(corners)


def _fit_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)


def _hull_quad(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return _order_corners(approx.reshape(4, 2))
    return None


def _ransac_line(pts: np.ndarray, rng: np.random.Generator):
    """The straight line through most of ``pts`` (point, direction), or None."""
    if len(pts) < 10:
        return None
    pick = rng.integers(0, len(pts), (RANSAC_TRIES, 2))
    a, d = pts[pick[:, 0]], pts[pick[:, 1]] - pts[pick[:, 0]]
    length = np.linalg.norm(d, axis=1)
    keep = length > 8
    if not keep.any():
        return None
    a, d, length = a[keep], d[keep], length[keep]
    normal = np.c_[-d[:, 1], d[:, 0]] / length[:, None]
    dist = np.abs((pts[None, :, 0] - a[:, :1]) * normal[:, :1] + (pts[None, :, 1] - a[:, 1:]) * normal[:, 1:])
    best = int(np.argmax((dist < RANSAC_INLIER_PX).sum(axis=1)))
    return _fit_line(pts[dist[best] < RANSAC_INLIER_PX])


def _side_lines_quad(contour: np.ndarray) -> np.ndarray | None:
    """Four corners from a line fitted to each side of the contour: a blob of glare or shadow joined
    to one side bends the convex hull, but most of the side stays one straight line."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    if len(pts) < 40:
        return None
    tangent = np.roll(pts, -4, axis=0) - np.roll(pts, 4, axis=0)
    angle = np.arctan2(tangent[:, 1], tangent[:, 0])
    across = np.abs(np.sin(angle)) < np.sin(SIDE_ANGLE)
    upright = np.abs(np.cos(angle)) < np.sin(SIDE_ANGLE)
    cx, cy = pts.mean(axis=0)
    rng = np.random.default_rng(0)
    lines = []
    for side in (upright & (pts[:, 0] < cx), across & (pts[:, 1] < cy), upright & (pts[:, 0] > cx),
                 across & (pts[:, 1] > cy)):
        line = _ransac_line(pts[side], rng)
        if line is None:
            return None
        lines.append(line)
    return _meet(lines)


def _ratio(quad: np.ndarray) -> float:
    """An outline's width over its height (mean of opposite sides) against the board's."""
    tl, tr, br, bl = quad
    across = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
    down = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    return across / max(down, 1.0) / (TABLE_W / TABLE_H)


def _to_proportions(quad: np.ndarray, across: bool) -> list[np.ndarray]:
    """The outline brought to the board's proportions by moving one side (``across``: a left or
    right side, else the top or the bottom), the two ways it can be: each keeps the opposite side."""
    tl, tr, br, bl = quad
    r = _ratio(quad)
    if across:
        f = 1.0 / r
        return [np.array([tl, tl + (tr - tl) * f, bl + (br - bl) * f, bl]),
                np.array([tr + (tl - tr) * f, tr, br, br + (bl - br) * f])]
    f = r
    return [np.array([tl, tr, tr + (br - tr) * f, tl + (bl - tl) * f]),
            np.array([bl + (tl - bl) * f, br + (tr - br) * f, br, bl])]


def _aspect_variants(quad: np.ndarray, tolerance: float | None = None) -> list[np.ndarray]:
    """When an outline's proportions are not the board's (a frame side or the trays lost in a
    shadow of the table's colour), the outline with one side moved out to the board's proportions:
    the two ways it can be."""
    r = _ratio(quad)
    if abs(r - 1.0) < (ASPECT_TOLERANCE if tolerance is None else tolerance):
        return []
    return _to_proportions(quad, across=r < 1.0)


def _inside(quad: np.ndarray, mw: int, mh: int) -> bool:
    """Whether all four corners lie EDGE_CLEARANCE inside a mask (or picture) ``mw`` x ``mh``."""
    return bool(np.all((quad[:, 0] > EDGE_CLEARANCE) & (quad[:, 0] < mw - 1 - EDGE_CLEARANCE)
                       & (quad[:, 1] > EDGE_CLEARANCE) & (quad[:, 1] < mh - 1 - EDGE_CLEARANCE)))


def _cut_off_variants(quad: np.ndarray, tolerance: float | None = None) -> list[np.ndarray]:
    """For an outline longer than the board's proportions (a shadow of another colour than the
    table's joined to the board; tried for every outline that runs out of the picture, and again
    by _retry_off_proportions): the outline with one side moved in to the board's proportions, the
    two ways it can be."""
    r = _ratio(quad)
    if abs(r - 1.0) < (ASPECT_TOLERANCE if tolerance is None else tolerance):
        return []
    return _to_proportions(quad, across=r > 1.0)


def _partly_in_view() -> BoardPartlyInView:
    return BoardPartlyInView("only part of the backgammon board is in view — move the camera or the board "
                             "/ tabla se vede doar în parte — mutați camera sau tabla")


def _smoothed_mask(image: np.ndarray) -> np.ndarray:
    """The colour mask of the picture blurred over a striped cloth's pattern, its larger parts joined by
    their convex hull.  On a cloth striped in the colours of the board's wood and frame, the plain colour
    mask takes the whole board for table; blurred, the stripes become one colour and the playing fields
    and trays stand out, but the frame and the bar, of the stripes' darker colour, still do not: the hull
    of the parts is the board inside its frame, which find_table_board grows by the frame
    (_grown_by_frame) when the drawing shows poorly there."""
    sigma = SMOOTH_SIGMA * image.shape[1]
    m, _ = foreground_mask(cv2.GaussianBlur(image, (0, 0), sigma), OUTLINE_WORK_WIDTH, fast_distance=True, seed=0)
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    parts = [c for c in contours if cv2.contourArea(c) >= SMOOTH_PART * m.size]
    joined = np.zeros_like(m)
    if parts:
        cv2.drawContours(joined, [cv2.convexHull(np.concatenate(parts))], -1, 255, -1)
    return joined


def _outline_candidates(image: np.ndarray, edges_wanted, ran_out: list | None = None, smoothed_wanted=None):
    """Possible board outlines, yielded as (kind, corners in picture pixels): those of the colour
    mask first ("colour"), then those of the sharp-edge mask ("edges", made only when
    ``edges_wanted()`` says so once the colour mask's have been looked at), then, asked the same way,
    those of the colour channels' sharp edges ("colour edges"), then those of the colour mask that
    lets the table have more colours ("checked cloth", PLAID_COLOURS), then those of the colour mask
    of the picture blurred over a cloth's stripes, its parts taken together ("smoothed",
    _smoothed_mask; only when ``smoothed_wanted()`` says so: the blur and its mask take 10-60 ms);
    "cut off" for an outline cut out of one that runs out of the picture (_cut_off_variants).  BoardNotFound /
    BoardPartlyInView when there is none.  ``ran_out`` (a list) gets an entry for every outline that
    runs out of the picture."""
    mask, scale = foreground_mask(image, OUTLINE_WORK_WIDTH, fast_distance=True, seed=0)
    mh, mw = mask.shape
    quads, cut_off = [], False
    for source in ("colour", "edges", "colour edges", "checked cloth", "smoothed"):
        if source != "colour" and not edges_wanted():
            break
        if source == "smoothed":
            if smoothed_wanted is None or not smoothed_wanted():
                break
            m = _smoothed_mask(image)
        elif source == "checked cloth":
            # a checked cloth's crossing stripes have colours of their own, rarer on the border than
            # TABLE_CLUSTER_SHARE: the mask joined them to the board
            m, _ = foreground_mask(image, OUTLINE_WORK_WIDTH, fast_distance=True, seed=0,
                                   table_colours=PLAID_COLOURS, table_share=PLAID_SHARE)
        else:
            m = mask if source == "colour" else edge_enclosed_mask(image, scale, colour=source == "colour edges")
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            continue
        contour = max(contours, key=cv2.contourArea)
        if cv2.contourArea(contour) < MIN_AREA_FRACTION * mh * mw:
            continue
        lined, hull = _side_lines_quad(contour), _hull_quad(contour)
        if lined is not None and hull is not None and np.max(np.abs(hull - lined)) < SAME_OUTLINE_PX:
            hull = None                  # the hull only helps where the fitted side lines went astray
        tried = []
        for base in (lined, hull):
            if base is None:
                continue
            tried += [(source, q) for q in [base] + _aspect_variants(base)]
            if not _inside(base, mw, mh):
                # a shadow joined to the board runs out of the picture: the board may be its part
                # that keeps the board's proportions
                tried += [("cut off", q) for q in _cut_off_variants(base)]
        for kind, quad in tried:
            if not _inside(quad, mw, mh):
                cut_off = True
                if ran_out is not None:
                    ran_out.append(kind)
                continue
            quad = (quad + 0.5) / scale - 0.5
            if all(np.max(np.abs(quad - q)) > SAME_OUTLINE_PX / scale for q in quads):
                quads.append(quad)
                yield kind, quad
    if not quads:
        if cut_off:
            raise _partly_in_view()
        raise BoardNotFound("no backgammon board in view / nu se vede tabla de table")


def _layout_edges(image_bgra: np.ndarray, quad: np.ndarray):
    """(H board mm -> pixels, |d/dx|, |d/dy|) of the board as ``quad`` puts it, seen from above at
    1 px/mm with LAYOUT_MARGIN around; edges of log-brightness, strongest over the colour channels
    (a frame of the table's brightness but another colour still shows).  ``image_bgra``: the picture
    with a fourth channel (see _with_alpha)."""
    H = board_homography(quad, TABLE_W, TABLE_H)
    m = LAYOUT_MARGIN
    S = np.array([[1.0, 0, -m], [0, 1.0, -m], [0, 0, 1]])
    size = (int(TABLE_W + 2 * m), int(TABLE_H + 2 * m))
    top = cv2.warpPerspective(image_bgra, H @ S, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    # channel by channel (B, G, R; not the fourth): few large pictures alive at once
    gx_max = gy_max = None
    for channel in cv2.split(top)[:3]:
        log = cv2.LUT(channel, _LOG_GREY)
        gx = cv2.Sobel(log, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        gy = cv2.Sobel(log, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
        np.abs(gx, out=gx)              # in place: fewer large pictures made
        np.abs(gy, out=gy)
        gx_max = gx if gx_max is None else cv2.max(gx_max, gx, dst=gx_max)
        gy_max = gy if gy_max is None else cv2.max(gy_max, gy, dst=gy_max)
    return H, gx_max, gy_max


def _layout_score(gx: np.ndarray, gy: np.ndarray) -> float:
    """How well the drawn lines show: per line, the median of its edge strength (within 1 mm) over
    the strongest edge LAYOUT_BESIDE to either side; summed over the lines, each capped.  The lines
    of one direction and extent are taken together (_LAYOUT_LINE_GROUPS), and the edges within 1 mm
    (the largest of three pixels across the line) only where they are looked at."""
    m = LAYOUT_MARGIN
    off = int(LAYOUT_BESIDE)
    medians = [0.0] * len(_LAYOUT_LINES)
    for (upright, a, b), lines in _LAYOUT_LINE_GROUPS.items():
        across = gx if upright else gy.T         # rows along the lines, columns across them
        along = slice(int(a + m + 3), int(b + m - 3))
        p = np.array([int(round(_LAYOUT_LINES[i][1] + m)) for i in lines])
        q = np.concatenate([p - off, p, p + off])
        # within 1 mm: the largest of three pixels across the line
        near = np.maximum(np.maximum(across[along, q - 1], across[along, q]), across[along, q + 1])
        before, on, after = np.split(near, 3, axis=1)
        for i, v in zip(lines, median_last_axis((on - np.maximum(before, after)).T)):
            medians[i] = float(v)
    total = 0.0
    for v in medians:
        total += min(max(v, -LAYOUT_LINE_CAP), LAYOUT_LINE_CAP)
    return total


def _refine_outline(H: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> np.ndarray | None:
    """Each side moved onto the place within RIM_REACH where the rim and the inner edge of the frame,
    TABLE_FRAME inside it, are strongest together (piecewise along the side; a line is fitted)."""
    m = LAYOUT_MARGIN
    reach = np.arange(-RIM_REACH, RIM_REACH + 1.0)
    lines = []
    for side in ("left", "top", "right", "bottom"):
        upright = side in ("left", "right")
        edges = gx.T if upright else gy          # rows run across the side, columns along it
        pos = {"left": 0.0, "top": 0.0, "right": TABLE_W, "bottom": TABLE_H}[side]
        inward = 1.0 if side in ("left", "top") else -1.0
        length = TABLE_H if upright else TABLE_W
        cuts = np.linspace(18.0, length - 18.0, RIM_SEGMENTS + 1)
        pts = []
        rows = (pos + reach + m).astype(int)
        lo, hi = min(rows[0], rows[0] + int(inward * _F)), max(rows[-1], rows[-1] + int(inward * _F)) + 1
        rim_rows, inner_rows = rows - lo, rows + int(inward * _F) - lo
        band = np.ascontiguousarray(edges[lo:hi])
        for a, b in zip(cuts[:-1], cuts[1:]):
            profile = median_last_axis(band[:, int(a + m):int(b + m)])
            fit = profile[rim_rows] + profile[inner_rows]
            k = int(np.argmax(fit))
            d = float(reach[k])
            if 0 < k < len(fit) - 1:
                curve = fit[k - 1] - 2 * fit[k] + fit[k + 1]
                if curve < 0:
                    d += 0.5 * (fit[k - 1] - fit[k + 1]) / curve
            along = (a + b) / 2
            pts.append((pos + d, along) if upright else (along, pos + d))
        lines.append(_fit_line(mm_to_px(H, pts)))
    return _meet(lines)


def _with_alpha(image: np.ndarray) -> np.ndarray:
    """The BGR picture as BGRA: OpenCV turns a four-channel picture (warpPerspective) in less than half
    the time of a three-channel one, to the same values."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)


def find_table_board(image: np.ndarray, image_bgra: np.ndarray | None = None) -> np.ndarray:
    """The board's four corners in pixels (TL, TR, BR, BL): the outline candidate whose layout shows
    best, refined twice onto its rim (a refinement is kept only when the layout shows better); an
    outline off the board's proportions tried again moved to them (_retry_off_proportions), and one
    whose drawing shows poorly grown by the frame (_grown_by_frame).
    ``image_bgra``: _with_alpha(image) when the caller has it already."""
    if image_bgra is None:
        image_bgra = _with_alpha(image)
    scored = []

    def edges_wanted() -> bool:
        # not when the colour mask's outline shows the board clearly
        return not scored or max(s[0] for s in scored) < GOOD_LAYOUT_SCORE

    def smoothed_wanted() -> bool:
        # a last resort: only when no outline so far could be taken for the board at all
        return not any(s[0] >= (CUT_OFF_LAYOUT_SCORE if s[5] == "cut off" else MIN_LAYOUT_SCORE) for s in scored)

    ran_out = []
    for kind, quad in _outline_candidates(image, edges_wanted, ran_out, smoothed_wanted):
        H, gx, gy = _layout_edges(image_bgra, quad)
        scored.append((_layout_score(gx, gy), quad, H, gx, gy, kind))
        if scored[-1][0] >= MAX_LAYOUT_SCORE:
            break                        # no later outline can show the drawing better (the first best is kept)
    score, quad = _best_refined(image_bgra, scored, put_back=True)
    if scored and scored[-1][5] == "cut off" and score < CUT_OFF_LAYOUT_SCORE:
        # a part cut out of a shadowed outline that does not show the drawing clearly: not trusted
        scored = [s for s in scored if s[5] != "cut off"]
        if not scored:
            raise _partly_in_view()
        score, quad = _best_refined(image_bgra, scored, put_back=True)
    if abs(_ratio(quad) - 1.0) >= ASPECT_TOLERANCE:
        score, quad = _retry_off_proportions(image_bgra, scored, score, quad)
    if NEAR_ASPECT <= abs(_ratio(quad) - 1.0) < ASPECT_TOLERANCE and score < GOOD_LAYOUT_SCORE:
        score, quad = _retry_off_proportions(image_bgra, scored, score, quad, nearer_only=True)
    if score < GOOD_LAYOUT_SCORE:
        # the outline may be the playing field inside a frame lost in the table's colours: grown by the
        # frame, the drawing then shows clearly
        grown = _grown_by_frame(quad)
        H, gx, gy = _layout_edges(image_bgra, grown)
        s2 = _layout_score(gx, gy)
        if s2 > score:
            s2, q2 = _best_refined(image_bgra, [(s2, grown, H, gx, gy, "grown")])
            if s2 >= GOOD_LAYOUT_SCORE and abs(_ratio(q2) - 1.0) < ASPECT_TOLERANCE:
                score, quad = s2, q2
    h, w = image.shape[:2]
    # every candidate lay inside the picture: one that ran out of it on the way is not the board
    if score < MIN_LAYOUT_SCORE or not _inside(quad, w, h):
        if ran_out:
            raise _partly_in_view()
        raise BoardNotFound("no backgammon board in view (no outline shows the board's drawing) "
                            "/ nu se vede tabla de table")
    return quad


def _grown_by_frame(quad: np.ndarray) -> np.ndarray:
    """The outline of a board whose playing field, inside its frame (TABLE_FRAME wide), is ``quad``."""
    inner_w, inner_h = TABLE_W - 2 * _F, TABLE_H - 2 * _F
    H = board_homography(quad, inner_w, inner_h)
    return mm_to_px(H, [(-_F, -_F), (inner_w + _F, -_F), (inner_w + _F, inner_h + _F), (-_F, inner_h + _F)])


def _retry_off_proportions(image_bgra: np.ndarray, scored: list, score: float, quad: np.ndarray,
                           nearer_only: bool = False) -> tuple[float, np.ndarray]:
    """The chosen outline, refined, is off the board's proportions (often the playing fields
    without the trays, whose frame was lost in the table's colours): each other candidate and the
    chosen one moved out to the board's proportions (_aspect_variants), refined as well; the
    best-scored of all is kept (the chosen one when none shows the drawing better).  A candidate
    that wins while off the proportions itself (a shadow joined to one side of the board first, the
    frame lost on the other side next) is moved out to them in turn, at most RETRY_ROUNDS times.

    ``nearer_only``: the chosen outline is within ASPECT_TOLERANCE of the proportions but not within
    NEAR_ASPECT, and shows the drawing poorly (one side may lie on the frame's inner edge); one round,
    and an outline wins only if it is also nearer the proportions (a camera's tilt alone can make the
    true outline 4 % off them, and a poorly shown drawing can score an outline with a side lost higher)."""
    others = [(s[1], s[2], s[3], s[4]) for s in scored[:-1]]
    varied = quad
    tolerance = NEAR_ASPECT if nearer_only else ASPECT_TOLERANCE
    for _ in range(1 if nearer_only else RETRY_ROUNDS):
        # moved out to the proportions (a side lost), or in (a shadow joined to one side)
        for variant in _aspect_variants(varied, tolerance) + _cut_off_variants(varied, tolerance):
            others.append((variant, *_layout_edges(image_bgra, variant)))
        for q, H, gx, gy in others:
            entry = [(_layout_score(gx, gy), q, H, gx, gy, "retry")]
            s2, q2 = _best_refined(image_bgra, entry)
            if s2 > score and (not nearer_only or abs(_ratio(q2) - 1.0) < abs(_ratio(quad) - 1.0)):
                score, quad = s2, q2
        if nearer_only or (quad is varied or abs(_ratio(quad) - 1.0) < ASPECT_TOLERANCE
                or not PLAUSIBLE_RATIO[0] < _ratio(quad) < PLAUSIBLE_RATIO[1]):
            break
        others, varied = [], quad
    return score, quad


def _best_refined(image_bgra: np.ndarray, scored: list, put_back: bool = False) -> tuple[float, np.ndarray]:
    """(layout score, corners) of the best-scored outline of ``scored`` [(score, quad, H, gx, gy,
    kind)], refined twice onto its rim (a refinement is kept only when the layout shows better).
    With ``put_back`` (the first choice among the candidates), a refined side may be put back where
    it started when the drawing shows poorly.  The chosen entry is moved to the end of ``scored`` so
    the caller can see its kind."""
    best = max(range(len(scored)), key=lambda i: scored[i][0])
    scored.append(scored.pop(best))
    score, quad, H, gx, gy, _ = scored[-1]
    start = quad
    for _ in range(REFINE_ROUNDS):
        refined = _refine_outline(H, gx, gy)
        if refined is None:
            break
        if np.max(np.abs(refined - quad)) < 0.5:
            break
        H2, gx2, gy2 = _layout_edges(image_bgra, refined)
        score2 = _layout_score(gx2, gy2)
        if score2 < score:
            break
        score, quad, H, gx, gy = score2, refined, H2, gx2, gy2
    if put_back and score < GOOD_LAYOUT_SCORE and quad is not start:
        # a side may have been pulled onto the wrong edge while the others found theirs (a patterned
        # cloth beside a frame whose inner edge is faint): one side put back where it started, the
        # best of the four when it shows the drawing better
        refined = quad
        moved = np.linalg.norm(refined - start, axis=1)
        for i, j in _SIDE_CORNERS:
            if max(moved[i], moved[j]) < SIDE_MOVED_PX:
                continue
            back = refined.copy()
            back[i], back[j] = start[i], start[j]
            score2 = _layout_score(*_layout_edges(image_bgra, back)[1:])
            if score2 > score:
                score, quad = score2, back
    return score, quad


# ---------------------------------------------------------------- reading --

class _View:
    """The board from straight above in grey (and, after make_edges, the gradients of its board part);
    board mm <-> pixels of that picture."""

    def __init__(self, image_bgra: np.ndarray, H: np.ndarray):
        self.x0, self.y0 = -MARGIN_X, -MARGIN_Y
        top, _ = top_down(image_bgra, H, self.x0, self.y0, TABLE_W + MARGIN_X, TABLE_H + MARGIN_Y, PX_PER_MM,
                          with_inside=False)
        self.gray = cv2.cvtColor(top, cv2.COLOR_BGRA2GRAY)
        self.gx = self.gy = None
        self.board_x0 = self.board_y0 = 0
        self.rings = None               # {axis: rim bands at a touching stack's places} (_touching_rings)

    def make_edges(self) -> None:
        """The gradients the checkers' rims are found by (``gx``, ``gy``), made when needed: a picture
        alive for less of the reading is memory the process need not map again (page faults cost)."""
        # checkers lie on the board: log-brightness and its edges are needed there only (the margin is for
        # the dice); (board_x0, board_y0) is that part's top-left corner in the view
        x0, y0 = (int(v) for v in self.px(-4.0, -4.0))
        x1, y1 = (int(v) for v in self.px(TABLE_W + 4.0, TABLE_H + 4.0))
        self.board_x0, self.board_y0 = x0, y0
        # edges of log-brightness: a shadow or a dim corner scales contrast, log makes it equal;
        # vision.board_outline.gradients(log), with fewer pictures made on the way (the same values)
        smooth = cv2.GaussianBlur(cv2.LUT(self.gray[y0:y1, x0:x1], _LOG_GREY), (0, 0), 1.2)
        self.gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        self.gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)

    def px(self, x_mm, y_mm):
        return (x_mm - self.x0) * PX_PER_MM, (y_mm - self.y0) * PX_PER_MM


def _rim_polarity(view: _View, x_mm: float, base_mm: float, d: float, end_mm: float,
                  band_mm: float = RIM_BAND_MM) -> float:
    """Whether the thin rims along a stack are lighter (> 0) or darker (< 0) than the faces between.

    Along the stack's axis, from the point's base to ``end_mm``, every checker shows its rim as a
    band about 2 mm wide: the renderer's (and a real set's bevelled) light checkers have a rim
    darker than their face, dark ones a lighter rim.  The sign survives a lamp's glare that makes
    a black checker bright (an added light keeps the step).  Mean white-top-hat minus mean
    black-hat of the log-brightness profile, bands narrower than ``band_mm``.
    """
    k = PX_PER_MM
    ts = np.arange(0.0, max(end_mm, 2.0), 1.0 / k)
    h, w = view.gx.shape               # the board part of the view
    # five lines along the axis, 1 mm apart: the same rows, a column each
    _, py = view.px(x_mm, base_mm + d * ts)
    rows = view.board_y0 + np.minimum(np.maximum((py - view.board_y0).astype(int), 0), h - 1)
    columns = [view.board_x0 + min(max(int(view.px(x_mm + dx, 0.0)[0] - view.board_x0), 0), w - 1)
               for dx in np.arange(-2.0, 2.5, 1.0)]
    lines = _LOG_GREY[view.gray[rows[None, :], np.array(columns)[:, None]]]
    profile = np.partition(lines, 2, axis=0)[2][None, :]      # the median of the five
    kernel = np.ones((1, int(band_mm * k) | 1), np.uint8)
    light = profile - cv2.morphologyEx(profile, cv2.MORPH_OPEN, kernel)
    dark = cv2.morphologyEx(profile, cv2.MORPH_CLOSE, kernel) - profile
    return float(np.mean(light) - np.mean(dark))


@functools.lru_cache(maxsize=8)
def _arc_samples(start: float, end: float, samples: int, radius: float):
    """(x offsets, y offsets) from a centre of _arc_response's samples, (radius, 1, angle) for the three
    radii, and their directions in float32 (x, y): the same for every stack growing the same way, so
    made once (read-only)."""
    ang = np.linspace(start, end, samples, endpoint=False)
    nx, ny = np.cos(ang), np.sin(ang)
    radii = np.array([radius - 1.5, radius, radius + 1.5])[:, None, None]
    out = (radii * nx[None, None, :], radii * ny[None, None, :], nx.astype(np.float32), ny.astype(np.float32))
    for a in out:
        a.flags.writeable = False
    return out


def _arc_response(gx: np.ndarray, gy: np.ndarray, columns_x, centres_y: np.ndarray, radius: float,
                  arc, percentile: float = ARC_PERCENTILE) -> np.ndarray:
    """vision.board_outline.ring_response(..., samples=24, arc=arc, band=1.5, percentile=ARC_PERCENTILE)
    at the centres (x, y) for every x in ``columns_x`` and y in ``centres_y`` (all of the first column,
    then all of the next), in float32: the three radii and the columns in one go, gradients read by flat
    index (32-bit: the board part has far fewer than 2**31 pixels) and the percentile's two order
    statistics read off each row sorted (NumPy's vectorised sort of many short rows is several times
    faster than its partial sort of each; the same values)."""
    samples = 24
    across_x, across_y, nx32, ny32 = _arc_samples(float(arc[0]), float(arc[1]), samples, float(radius))
    h, w = gx.shape
    rows = np.rint(centres_y[None, :, None] + across_y).astype(np.int32)                 # radius, y, angle
    columns = np.rint(np.asarray(columns_x, np.float64)[None, :, None] + across_x).astype(np.int32)
    index = (np.minimum(np.maximum(rows, 0), h - 1) * w)[:, None, :, :] \
        + np.minimum(np.maximum(columns, 0), w - 1)[:, :, None, :]                           # radius, x, y, angle
    gxs, gys = gx.ravel().take(index), gy.ravel().take(index)
    radial = np.abs(gxs * nx32 + gys * ny32) - np.abs(gys * nx32 - gxs * ny32)
    best = radial.max(axis=0).reshape(-1, samples)
    rank = percentile / 100.0 * (samples - 1)
    lo = int(np.floor(rank))
    ordered = np.sort(best, axis=1)
    return ordered[:, lo] + (rank - lo) * (ordered[:, lo + 1] - ordered[:, lo])


def _stack_response(view: _View, axis, max_len_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """(distances from the base in mm, near-arc rim response there) along one point or bar half:
    the stronger of two columns of checker centres 1.5 px either side of its axis."""
    ts = np.arange(CHECKER_R - 1.5, max_len_mm - CHECKER_R + 4.0, STEP_MM)
    return ts, _rim_along(view, axis, ts, towards_base=True)


def _rim_along(view: _View, axis, ts: np.ndarray, towards_base: bool,
               percentile: float = ARC_PERCENTILE) -> np.ndarray:
    """The rim response of the half of a checker's rim facing the base (``towards_base``, the near arc)
    or the tip (the far arc) at checker centres ``ts`` mm from the base along one point or bar half:
    the stronger of two columns of centres 1.5 px either side of its axis (_arc_response's
    ``percentile`` of the arc's samples)."""
    x, base, d = axis
    cx, cy = view.px(x, base)
    # the near arc faces the base: +y (down) for a stack growing upwards (d < 0); the far arc the other way
    mid = np.pi / 2 if (d < 0) == towards_base else 3 * np.pi / 2
    arc = (mid - ARC_HALF_ANGLE, mid + ARC_HALF_ANGLE)
    n = len(ts)
    resp = _arc_response(view.gx, view.gy, (cx - 1.5 - view.board_x0, cx + 1.5 - view.board_x0),
                         cy + d * ts * PX_PER_MM - view.board_y0, CHECKER_R * PX_PER_MM, arc, percentile)
    return np.maximum(resp[:n], resp[n:])


def _faint_checker_beyond(view: _View, axis) -> bool:
    """Whether a stack of at most five shows a faint rim (FAINT_ARC, below ARC_MIN) one checker
    beyond its last counted one, or a point read empty one (FAINT_FIRST_ARC) where its first checker
    would lie: a checker that may have been missed there."""
    ts, best = _stack_response(view, axis, TABLE_POINT_L)
    clear = np.flatnonzero(best >= ARC_MIN)
    # a checker's near-arc peak lies ARC_CENTRE_BIAS beyond its centre; the first one's centre is CHECKER_R out
    if len(clear):
        centres = np.sort(ts[_checker_peaks(ts, best, FIRST_ARC_MIN)])
        # beyond the last checker counted (_touching_more may count some beyond the last clear one)
        last = max(float(ts[clear[-1]]), float(centres[-1]) + 2 * CHECKER_R * _touching_more(ts, best, centres))
        expected, faint = last + 2 * CHECKER_R, FAINT_ARC
    else:
        expected, faint = CHECKER_R + ARC_CENTRE_BIAS, FAINT_FIRST_ARC
    beyond = np.abs(ts - expected) <= FAINT_REACH
    return bool(beyond.any() and best[beyond].max() >= faint)


def _stack(view: _View, axis, max_len_mm: float) -> tuple[int, float, float]:
    """(number of checkers, mean brightness of their visible parts, rim polarity) along one point
    or bar half (whose checkers lie touching from the frame, as a point's first five from its base)."""
    x, base, d = axis
    k = PX_PER_MM
    on_point = max_len_mm == TABLE_POINT_L
    ts, best = _stack_response(view, axis, max_len_mm)
    # the first checker's near arc meets the base's edge (a point's, or the frame's at the bar's end) and
    # shows weaker: a lower bar there
    peaks = _checker_peaks(ts, best, FIRST_ARC_MIN)
    tk = np.sort(ts[peaks])
    if not len(tk):
        # every checker of the stack lost in a glare but the farthest one's faint rim: their rims' peaks
        tk = _stack_places(_top_beyond_glare(view, axis, ts, best, tk, 0)) + ARC_CENTRE_BIAS
    # in a lamp's glare a white stack's rims wash out on a light point, while its sides still show
    # against the field around the point
    in_glare = on_point and _glare_share(view, axis, TABLE_POINT_L, CHECKER_R) >= GLARE_SHARE
    by_sides = _side_count(view, axis, ts) if in_glare else 0
    if not len(tk) and not by_sides and in_glare:
        # a tall stack in a lamp's glare whose every rim washed out under ARC_MIN, the comb of its rims still
        # plain along the point (a point read empty in glare scores 0.18 at most)
        n, shift, score = _comb_fit(best, ts)
        if score >= GLARE_COMB_MIN:
            tk = CHECKER_R + shift + _stack_spacing(n) * np.arange(n)
    by_far = None
    if not len(tk) and not by_sides and in_glare:
        # every rim of a short stack blown out but the last checker's far edge
        by_far = _far_arc_count(view, axis, ts, best, tk)
        if not by_far and _blown_out(view, axis, CHECKER_R):
            # ... or but half of that edge (a lone checker's, mostly)
            by_far = _blown_stack_count(view, axis, ts, best)
        if by_far:
            tk = _stack_places(by_far) + ARC_CENTRE_BIAS
    ring_sign, rings = 0.0, None        # rings: the rim bands at a touching stack's places (_touching_rings)
    if not len(tk) and not by_sides:
        # checkers whose rims make no edge in the log-brightness a glare flattens, their rim band still
        # lighter or darker than their face (_ring_top)
        rings = _touching_rings(view, axis, max_len_mm)
        by_ring, ring_sign = _ring_top(rings, 0, 0.0)
        if by_ring:
            tk = _stack_places(by_ring) + ARC_CENTRE_BIAS
    if not len(tk):
        if not by_sides:
            return 0, 0.0, 0.0
        tk = _stack_places(by_sides) + ARC_CENTRE_BIAS
    # the frame just beyond the point's base, lit as the stack is: the checkers' brightness is taken against it
    fx, fy = view.px(x, base - d * TABLE_FRAME * 0.5)
    frame = view.gray[int(fy) - 4:int(fy) + 5, int(fx) - 12:int(fx) + 13]
    frame_level = max(8.0, median(frame)) if frame.size else 128.0
    vals = []
    for j, t in enumerate(tk):
        vis = min((tk[j + 1] - t) if j + 1 < len(tk) else 2 * CHECKER_R, 2 * CHECKER_R)
        tt = t - CHECKER_R + vis / 2
        half = max(1, int(min(vis / 2 - 1.0, 5.0) * k))
        sx, sy = view.px(x, base + d * tt)
        patch = view.gray[int(sy) - half:int(sy) + half + 1, int(sx) - half:int(sx) + half + 1]
        if patch.size:
            vals.append(median(patch))
    more = _touching_more(ts, best, tk)
    if more and vals:
        # a faint rim one checker beyond the last is a checker only where a face like the stack's lies
        # beyond it (a glare brightens it); a light checker's own far edge against a dark bar or point
        # makes such a rim too, with the dark field there
        sx, sy = view.px(x, base + d * (float(tk[-1]) - ARC_CENTRE_BIAS + 2 * CHECKER_R))
        half = int(4.0 * k)
        patch = view.gray[int(sy) - half:int(sy) + half + 1, int(sx) - half:int(sx) + half + 1]
        if patch.size and median(patch) < TOUCH_FACE_SHARE * float(np.mean(vals)):
            more = 0
    count = len(tk) + _missed_in_gaps(tk) + more
    if on_point and count > 5 and tk[-1] - tk[0] > TABLE_POINT_L - 2 * CHECKER_R - 2 * CHECKER_R / 2:
        count = _overlapped_count(best, ts)
    else:
        seen = count
        if on_point:
            count = _overlapping_in_part(ts, best, tk, count)
        if count == seen:
            # on a bar half at most five, touching from the frame (never the even stack that fills a point)
            count = _hidden_by_glare(view, axis, ts, best, tk - ARC_CENTRE_BIAS, count, 15 if on_point else 5)
            count = _top_beyond_glare(view, axis, ts, best, tk - ARC_CENTRE_BIAS, count)
    if by_sides > count and _on_places(tk - ARC_CENTRE_BIAS, by_sides):
        count = by_sides
    if rings is None:
        rings = _touching_rings(view, axis, max_len_mm)
    if not ring_sign and abs(rings[0]) >= RING_CONTRAST_MIN:
        ring_sign = float(np.sign(rings[0]))
    if 1 <= count <= 4:
        # a touching stack's farther checkers whose rim edges a glare flattened, their rim bands still showing
        count, ring_sign = _ring_top(rings, count, ring_sign)
    if in_glare and count < FAR_ARC_LAST:
        # (a stack placed by the far edge above is on its own places: the same count again)
        count = max(count, by_far if by_far is not None else _far_arc_count(view, axis, ts, best, tk - ARC_CENTRE_BIAS))
    if in_glare and count <= 5:
        count = _overlapping_in_glare(view, axis, ts, best, count)
    polarity = _rim_polarity(view, x, base, d, float(tk[-1]) - ARC_CENTRE_BIAS + CHECKER_R)
    if ring_sign:
        # a checker's rim band lighter (black) or darker (white) than its face all round tells the colour:
        # its sign is the rims' polarity, clear (of 7 135 stacks whose first checker's band showed, in 800
        # glare and 800 natural dev scenes, none was of the other colour; the profile along the stack had
        # read 3 of them wrongly)
        polarity = math.copysign(max(abs(polarity), RIM_POLARITY_MIN), ring_sign)
    return count, (float(np.mean(vals)) / frame_level if vals else 0.0), polarity


@functools.lru_cache(maxsize=4)
def _ring_offsets(radius_px: float) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) offsets in whole pixels of RING_SAMPLES points on a circle round a checker's centre."""
    angles = np.linspace(0.0, 2 * np.pi, RING_SAMPLES, endpoint=False)
    return (np.rint(radius_px * np.cos(angles)).astype(np.int32)[None, :],
            np.rint(radius_px * np.sin(angles)).astype(np.int32)[None, :])


def _ring_contrast(view: _View, axis, place: float) -> float:
    """_ring_contrasts at one place."""
    return float(_ring_contrasts(view, axis, np.array([place]))[0])


_RING_AXES = tuple([table_point_axis(p) for p in range(1, 25)] + [table_bar_axis(h) for h in ("top", "bottom")])
_RING_ALONG, _RING_ACROSS = (a.ravel() for a in np.meshgrid(np.arange(-RING_REACH, RING_REACH + 0.01, RING_REACH / 2),
                                                              (-RING_ACROSS, 0.0, RING_ACROSS)))


def _ring_contrasts(view: _View, axis, places: np.ndarray) -> np.ndarray:
    """How much lighter (> 0) or darker (< 0) a checker's rim band is than its face, angle by angle, for a
    checker centred near each of ``places`` (mm from the base of a point or bar half): the best over
    centres within RING_REACH along and RING_ACROSS across of the RING_PERCENTILE-th of (rim - face), or
    of (face - rim), in grey levels (0 where neither shows).

    A dark checker's rim band is lighter than its face, a light one's darker (the renderer's and a real
    set's bevel), all round.  A lamp's glare adds light to both, so the difference in grey levels
    stays, while the log-brightness edges the rims are found by shrink to nothing on a checker it
    makes as bright as the point under it.  On a point with no checker the two circles lie on the
    same triangle at most angles and differ only where they cross its sides: of 14 574 places read
    empty in 800 glare scenes none showed more than 3 grey levels; checkers read there show 64 (median).
    Those counts were taken with 48 samples and centres 1 mm apart along; the 24 samples and 1.5 mm
    used now (a third of the samples) read those 800 scenes the same."""
    return _ring_contrasts_along(view, [axis], places)[0]


def _ring_contrasts_along(view: _View, axes, places: np.ndarray) -> np.ndarray:
    """_ring_contrasts for each of ``axes`` (a row each) at the same ``places``, in one go."""
    x, base, d = (np.array(v, np.float64)[:, None, None] for v in zip(*axes))
    h, w = view.gray.shape
    places = np.asarray(places, np.float64)
    cx, cy = view.px(x + _RING_ACROSS, base + d * (places[None, :, None] + _RING_ALONG))
    cx, cy = np.broadcast_to(cx, cy.shape).reshape(-1, 1), cy.reshape(-1, 1)   # a row per axis, place and centre
    cx, cy = np.rint(cx).astype(np.int32), np.rint(cy).astype(np.int32)
    flat = view.gray.ravel()

    def at(share: float) -> np.ndarray:
        """Grey levels on the circle of ``share`` of CHECKER_R round every centre tried (a row each)."""
        ox, oy = _ring_offsets(share * CHECKER_R * PX_PER_MM)
        rows = cy + oy
        columns = cx + ox
        np.clip(rows, 0, h - 1, out=rows)
        np.clip(columns, 0, w - 1, out=columns)
        rows *= w
        rows += columns
        return flat.take(rows)

    diff = at(RING_RIM).astype(np.float32) - at(RING_FACE)
    # the RING_PERCENTILE-th of diff and of -diff (NumPy's linear percentile, from the order statistics)
    low_rank, high_rank = RING_PERCENTILE / 100.0 * (RING_SAMPLES - 1), (1 - RING_PERCENTILE / 100.0) * (RING_SAMPLES - 1)
    lo, hi = int(np.floor(low_rank)), int(np.floor(high_rank))
    ordered = np.partition(diff, (lo, lo + 1, hi, hi + 1), axis=1)
    lighter = ordered[:, lo] + (low_rank - lo) * (ordered[:, lo + 1] - ordered[:, lo])
    darker = -(ordered[:, hi] + (high_rank - hi) * (ordered[:, hi + 1] - ordered[:, hi]))
    lighter = lighter.reshape(len(axes), len(places), -1).max(axis=2)
    darker = darker.reshape(len(axes), len(places), -1).max(axis=2)
    return np.where(np.maximum(lighter, darker) <= 0, 0.0, np.where(lighter >= darker, lighter, -darker))


def _touching_rings(view: _View, axis, max_len_mm: float) -> np.ndarray:
    """_ring_contrasts at the places of a touching stack of five from the base of a point or bar half (those
    that fit in ``max_len_mm``)."""
    if view.rings is None:
        # every point's and bar half's at once (one pass of NumPy over them all costs less than 26)
        view.rings = dict(zip(_RING_AXES, _ring_contrasts_along(view, _RING_AXES, _stack_places(5))))
    places = _stack_places(5)
    return view.rings[axis][places + CHECKER_R <= max_len_mm + 1.0]


def _ring_top(rings: np.ndarray, count: int, sign: float) -> tuple[int, float]:
    """(the number of checkers, the sign of their rim bands) of a touching stack of at most five from the base
    of a point or bar half read as ``count`` (four or fewer, maybe none), told by the farthest place beyond
    them whose checker's rim band shows (``rings``: _touching_rings; RING_CONTRAST_MIN): a checker lies on the
    one before it.  Every band that shows there must have one sign, ``sign`` when not 0 (the stack's first checker's).
    (``count``, ``sign``) when none shows or the signs differ.

    Of 161 000 places beyond a touching stack or on an empty point (800 glare and 800 natural dev scenes,
    the board found), none showed more than 7.4 grey levels; of 15 295 checkers of touching stacks, 98.8 %
    showed 15 or more, none with the other colour's sign (48 samples, see _ring_contrasts)."""
    contrasts = rings[count:]
    shows = np.flatnonzero(np.abs(contrasts) >= RING_CONTRAST_MIN)
    if not len(shows):
        return count, sign
    signs = np.sign(contrasts[shows])
    if np.any(signs != signs[0]) or (sign and signs[0] != sign):
        return count, sign
    return count + int(shows[-1]) + 1, float(signs[0])


def _far_arc_count(view: _View, axis, ts: np.ndarray, best: np.ndarray, centres: np.ndarray,
                   percentile: float = ARC_PERCENTILE, least: float = FAR_ARC_MIN) -> int:
    """The number of checkers of a short stack in a lamp's glare told by the far edge of its last one,
    or 0 when it does not tell it.

    In a glare a white checker's face, its rim and the light point under it saturate alike, so the
    near arcs between touching checkers vanish; the last checker's far arc (facing the point's tip)
    still shows where the stack ends against the darker point or field beyond it.  The largest n up
    to FAR_ARC_LAST whose last place (_stack_places) shows a far arc of ``least`` or more (within
    FAINT_REACH), nothing beyond the shoulder of that peak (2 FAINT_REACH past the place) up to the
    point's end showing FAINT_ARC (a taller stack's checkers lie there; the fifth's place is where the
    last checker of any stack filling the point lies, so it is never counted so), the checkers seen
    (``centres``, mm from the base) at places of that stack (_on_places) and each place before its last
    with no checker seen hidden (_unseen_places_hidden).
    ``ts``, ``best``: the point's near-arc response (_stack_response); ``percentile``: of the far arc's
    samples (_arc_response)."""
    far = _rim_along(view, axis, ts, towards_base=False, percentile=percentile)
    places = _stack_places(5)
    at = [float(far[np.abs(ts - t) <= FAINT_REACH].max(initial=-np.inf)) for t in places]
    for n in range(FAR_ARC_LAST, 0, -1):
        if at[n - 1] < least:
            continue
        # beyond the shoulder of its own peak (which runs up to 5 mm past the place)
        if far[ts > places[n - 1] + 2 * FAINT_REACH].max(initial=-np.inf) >= FAINT_ARC:
            return 0
        if len(centres) and not _on_places(centres, n):
            return 0
        # the last checker shows (its far edge): the places before it must hide theirs
        return n if _unseen_places_hidden(view, axis, ts, best, centres, n - 1) else 0
    return 0


def _overlapping_in_glare(view: _View, axis, ts: np.ndarray, best: np.ndarray, count: int) -> int:
    """The count of a stack read as ``count`` (five or fewer) on a point in a lamp's glare whose faint
    rims show it overlapping: the comb's count (_comb_fit) when it is larger, every faint rim along the
    point (a peak of FAINT_ARC or more, the largest within FAINT_REACH) lies at a place of the comb's
    stack (shifted as it fits; within GRID_TOLERANCE and GRID_SHARE of its spacing), at least
    OVERLAP_OFF_TOUCHING of them lie farther than TOUCH_TOLERANCE from every place of a touching stack,
    and two neighbouring ones lie closer than touching checkers would (by TOUCH_TOLERANCE).

    A glare washes out the rims of a tall white stack under ARC_MIN but those nearest the glare's edge;
    the few seen then lie at the first and the last place of the point, which a stack of five shares with
    every taller one, and the count stayed five.  The faint rims between tell the spacing: a touching
    stack's lie 28 mm apart, an overlapping one's nearer.  ``ts``, ``best``: the point's near-arc
    response (_stack_response)."""
    n, shift, _ = _comb_fit(best, ts)
    if n <= count:
        return count
    reach = int(round(FAINT_REACH / STEP_MM))
    rims = np.array([float(ts[i]) for i in range(len(ts))
                     if best[i] >= FAINT_ARC and best[i] == best[max(0, i - reach):i + reach + 1].max()])
    if len(rims) < OVERLAP_OFF_TOUCHING:
        return count
    off_comb = np.min(np.abs(rims[:, None] - (_stack_places(n) + shift)[None, :]), axis=1)
    if np.any(off_comb > min(GRID_TOLERANCE, GRID_SHARE * _stack_spacing(n))):
        return count
    off_touching = np.min(np.abs(rims[:, None] - (_stack_places(5) + ARC_CENTRE_BIAS)[None, :]), axis=1)
    if np.sum(off_touching > TOUCH_TOLERANCE) < OVERLAP_OFF_TOUCHING:
        return count
    # (a touching stack's rims, a little off its places, may each lie as near one of the comb's: two
    # neighbouring ones closer than touching show the overlap itself)
    return n if np.min(np.diff(np.sort(rims))) < 2 * CHECKER_R - TOUCH_TOLERANCE else count


def _blown_stack_count(view: _View, axis, ts: np.ndarray, best: np.ndarray) -> int:
    """The number of checkers of a short stack from a point's base blown out by a lamp's glare, told by
    half of its last checker's far edge, or 0 when it does not tell it: _far_arc_count with the median
    of the far arc's samples (BLOWN_FAR_PERCENTILE) from BLOWN_FAR_MIN.

    A glare that blows out a white checker and the light point under it leaves of the checker's
    outline only a part of its far arc (where the point beyond, or the checker's own shadow on it, is
    a little darker): too little for the far-arc count's 30th percentile.  Only for a point read empty
    whose first place is blown out (_stack asks): of 2 289 such points that are empty in dev glare
    scenes, none shows over 0.40 at a place, while 19 of 43 holding checkers show 0.5 or more."""
    return _far_arc_count(view, axis, ts, best, np.zeros(0), BLOWN_FAR_PERCENTILE, BLOWN_FAR_MIN)


def _side_count(view: _View, axis, ts: np.ndarray) -> int:
    """The number of checkers on a point told by their sides, or 0 when they do not tell it.

    A checker is wider than the point under it beyond its base, so its two sides across the point
    show against the field (or the neighbouring points) as arcs, also where a lamp's glare washes out
    the rims between the checkers of a white stack on a light point.  The response of both side arcs
    (the weaker of the two, so that a neighbour's checker alone does not count) at distances ``ts``
    from the base; its peaks are its largest values within FAINT_REACH, of SIDE_ARC_MIN or more, from
    SIDE_FROM on.  The stack is the smallest n from two with a peak within FAINT_REACH of each of its
    places beyond the first and every peak within GRID_TOLERANCE of one of them (peaks, not levels:
    an overlapping stack's sides show between its places too).  The first place is not looked at:
    near the base the triangle's own sides fit the arcs.  Stacks whose sides are hidden (a field
    blown out as well) give 0."""
    x, base, d = axis
    cx, cy = view.px(x, base)
    columns, centres = (cx - view.board_x0,), cy + d * ts * PX_PER_MM - view.board_y0
    radius = CHECKER_R * PX_PER_MM
    side = np.minimum(
        _arc_response(view.gx, view.gy, columns, centres, radius, (-SIDE_ARC_HALF_ANGLE, SIDE_ARC_HALF_ANGLE)),
        _arc_response(view.gx, view.gy, columns, centres, radius,
                      (np.pi - SIDE_ARC_HALF_ANGLE, np.pi + SIDE_ARC_HALF_ANGLE)))
    reach = int(round(FAINT_REACH / STEP_MM))
    peaks = [float(ts[i]) for i in range(len(ts))
             if ts[i] >= SIDE_FROM and side[i] >= SIDE_ARC_MIN
             and side[i] == side[max(0, i - reach):i + reach + 1].max()]
    if not peaks:
        return 0
    peaks = np.array(peaks)
    for n in range(2, 16):
        places = _stack_places(n)[1:]
        if (np.all(np.min(np.abs(places[None, :] - peaks[:, None]), axis=1) <= GRID_TOLERANCE)
                and np.all(np.min(np.abs(places[:, None] - peaks[None, :]), axis=1) <= FAINT_REACH)):
            return n
    return 0


def _stack_spacing(n: int) -> float:
    """mm between the centres of neighbouring checkers in a stack of ``n`` on a point: touching (five or
    fewer), else evenly filling the point."""
    return 2 * CHECKER_R if n <= 5 else (TABLE_POINT_L - 2 * CHECKER_R) / (n - 1)


def _stack_places(n: int) -> np.ndarray:
    """Distances from a point's base (mm) of the checkers' centres in a stack of ``n`` (_stack_spacing)."""
    return CHECKER_R + _stack_spacing(n) * np.arange(n)


def _on_places(centres: np.ndarray, n: int) -> bool:
    """Whether each checker seen on a point (``centres``, mm from the base) lies at a place of a stack of
    ``n`` (_stack_places): within GRID_TOLERANCE and GRID_SHARE of the stack's spacing (every mm lies
    within 4 mm of a place of a stack of 15, 8 mm apart)."""
    off = np.min(np.abs(centres[:, None] - _stack_places(n)[None, :]), axis=1)
    return bool(np.all(off <= min(GRID_TOLERANCE, GRID_SHARE * _stack_spacing(n))))


def _unseen_places_hidden(view: _View, axis, ts: np.ndarray, best: np.ndarray, centres: np.ndarray,
                          n: int, beyond: float = -np.inf) -> bool:
    """Whether every place of a stack of ``n`` on a point (_stack_places) farther than ``beyond`` from
    the base and with no checker seen within GRID_TOLERANCE of it (``centres``, mm from the base) may
    hide one there: a lamp's glare blows it out (HIDDEN_BLOWN_SHARE of the checker's middle at
    SATURATED), or a faint rim (FAINT_ARC) shows there.  ``ts``, ``best``: the point's near-arc
    response (_stack_response)."""
    for place in _stack_places(n):
        if place <= beyond or (len(centres) and np.min(np.abs(centres - place)) <= GRID_TOLERANCE):
            continue
        near = np.abs(ts - (place + ARC_CENTRE_BIAS)) <= FAINT_REACH
        if near.any() and best[near].max() >= FAINT_ARC:
            continue
        if not _blown_out(view, axis, place):
            return False
    return True


def _blown_out(view: _View, axis, place: float) -> bool:
    """Whether a lamp's glare blows out the middle of a checker centred ``place`` mm from a point's base
    (HIDDEN_BLOWN_SHARE of a square HIDDEN_HALF_SIDE radii either side at SATURATED)."""
    x, base, d = axis
    half = int(HIDDEN_HALF_SIDE * CHECKER_R * PX_PER_MM)
    sx, sy = (int(v) for v in view.px(x, base + d * place))
    patch = view.gray[sy - half:sy + half + 1, sx - half:sx + half + 1]
    return bool(patch.size) and float(np.mean(patch >= SATURATED)) >= HIDDEN_BLOWN_SHARE


def _hidden_by_glare(view: _View, axis, ts: np.ndarray, best: np.ndarray, centres: np.ndarray,
                     count: int, most: int = 15) -> int:
    """The count of a point whose checkers seen (near-arc peaks at ``centres``, mm from the base, less
    ARC_CENTRE_BIAS) do not lie where a stack of ``count`` would have them (_on_places), and whose
    stack does not span the point (that one is counted by its comb).

    Checkers lie in a stack from the point's base, touching (five or fewer) or evenly filling the point,
    so where the seen ones lie tells the stack; a lamp's glare washes out the rims of the others.  The
    smallest n whose stack has a place at every checker seen and whose other places may each hide one
    (_unseen_places_hidden); for more than five the comb's count (_overlapped_count) when it fits as
    well, as the spacing of overlapping checkers tells n more closely than the places' tolerance.
    ``count`` when none fits.
    """
    if not len(centres) or _on_places(centres, count):
        return count

    def stack_of(n: int) -> bool:
        return _on_places(centres, n) and _unseen_places_hidden(view, axis, ts, best, centres, n)

    for n in range(count + 1, most + 1):
        if stack_of(n):
            if n > 5:
                comb = _overlapped_count(best, ts)
                if comb != n and stack_of(comb):
                    return comb
            return n
    return count


def _top_beyond_glare(view: _View, axis, ts: np.ndarray, best: np.ndarray, centres: np.ndarray,
                      count: int) -> int:
    """The count of a stack of fewer than five touching checkers from a point's base (``count`` of them
    counted, maybe none, their near-arc peaks at ``centres`` less ARC_CENTRE_BIAS) that goes on under a
    lamp's glare: the farthest place of a touching stack (at most five) beyond the last counted checker
    that shows a faint rim (FAINT_ARC) and whose middle, as every place between, is blown out
    (_blown_out).  In a glare a white checker's face and the point under it saturate alike; the rim,
    darker than the face, keeps a trace, and a checker lies on the one before it, so the places between
    hold checkers too.  Not the first place (where the base's edge alone shows a faint arc).  ``count``
    when there is none, or when the checkers seen do not lie at the places of ``count`` (_on_places)."""
    t0 = float(ts[0])                   # ts: evenly STEP_MM apart

    def near(first: int, last: int) -> np.ndarray:
        """The response from FAINT_REACH before where the first-th checker's near-arc peak would lie to
        FAINT_REACH beyond the last-th's."""
        lo = CHECKER_R + 2 * CHECKER_R * (first - 1) + ARC_CENTRE_BIAS - FAINT_REACH
        hi = CHECKER_R + 2 * CHECKER_R * (last - 1) + ARC_CENTRE_BIAS + FAINT_REACH
        return best[max(0, math.ceil((lo - t0) / STEP_MM - 1e-6)):math.floor((hi - t0) / STEP_MM + 1e-6) + 1]

    first = max(count, 1) + 1
    if count >= 5 or near(first, 5).max(initial=-np.inf) < FAINT_ARC:
        return count                    # no faint rim anywhere beyond (most points)
    if count and not _on_places(centres, count):
        return count
    for n in range(5, first - 1, -1):
        if near(n, n).max(initial=-np.inf) < FAINT_ARC:
            continue
        if all(_blown_out(view, axis, CHECKER_R + 2 * CHECKER_R * j) for j in range(count, n)):
            return n
    return count


def _empty_point_in_glare(view: _View, axis) -> bool:
    """Whether a point read empty lies inside a lamp's glare, where it may hide checkers: its first
    checker's place is blown out (_blown_out) and the sides of its triangle there show edges weaker
    than POINT_SIDE_EDGE (a light point blown out by daylight keeps its sides against its darker
    neighbours; a glare blows out the neighbours too)."""
    if not _blown_out(view, axis, CHECKER_R):
        return False
    x, base, d = axis
    half_width = TABLE_POINT_W / 2 * (1 - CHECKER_R / TABLE_POINT_L)       # the triangle's, at that place
    for side in (-1.0, 1.0):
        x0, y0 = view.px(x + side * half_width - SIDE_REACH, base + d * (CHECKER_R - SIDE_REACH))
        x1, y1 = view.px(x + side * half_width + SIDE_REACH, base + d * (CHECKER_R + SIDE_REACH))
        rows = slice(int(min(y0, y1)) - view.board_y0, int(max(y0, y1)) - view.board_y0)
        columns = slice(int(x0) - view.board_x0, int(x1) - view.board_x0)
        edge = np.hypot(view.gx[rows, columns], view.gy[rows, columns])
        if edge.size and median(edge.max(axis=1)) >= POINT_SIDE_EDGE:
            return False
    return True


def _touching_more(ts: np.ndarray, best: np.ndarray, centres: np.ndarray) -> int:
    """How many more checkers continue a stack of at most four touching ones from a point's base
    (their rim peaks at ``centres``, sorted): each one checker beyond the last, with a rim of at
    least NEXT_ARC_MIN (a lamp's glare washes out the rims of the checkers farther from the base)."""
    centres = [float(c) for c in centres]
    if not 1 <= len(centres) <= 4 or abs(centres[0] - (CHECKER_R + ARC_CENTRE_BIAS)) > TOUCH_TOLERANCE:
        return 0
    if any(abs(b - a - 2 * CHECKER_R) > TOUCH_TOLERANCE for a, b in zip(centres, centres[1:])):
        return 0
    more, last = 0, float(centres[-1])
    while len(centres) + more < 5:
        near = np.abs(ts - (last + 2 * CHECKER_R)) <= TOUCH_TOLERANCE
        if not near.any() or best[near].max() < NEXT_ARC_MIN:
            break
        last = float(ts[near][np.argmax(best[near])])
        more += 1
    return more


def _checker_peaks(ts: np.ndarray, best: np.ndarray, first_arc_min: float = ARC_MIN) -> list[int]:
    """Indices of the checkers' peaks in a stack's rim response ``best`` at distances ``ts`` from
    the base (_stack_response), unsorted; where the first checker's peak would lie, a response of
    ``first_arc_min`` is enough."""
    win = int(round(MIN_SPACING_MM / STEP_MM))
    strong_enough = best >= ARC_MIN
    if first_arc_min < ARC_MIN:
        # ... when the response there is broad as a rim's (a board line crossing the arc makes a narrow
        # spike): its mean over 1.5 mm (2 steps) either way, beyond the ends taken as 0, at least FIRST_BREADTH of it
        centre, t0 = CHECKER_R + ARC_CENTRE_BIAS, float(ts[0])          # ts: evenly STEP_MM apart
        lo = max(0, int(np.ceil((centre - FAINT_REACH - t0) / STEP_MM - 1e-6)))
        hi = int(np.floor((centre + FAINT_REACH - t0) / STEP_MM + 1e-6)) + 1
        window = best[lo:hi]
        maybe = (window >= first_arc_min) & ~strong_enough[lo:hi]
        if maybe.any():
            zeros = np.zeros(2, best.dtype)
            padded = np.concatenate((zeros, best[:hi + 2], zeros))      # padded[j] = best[j - 2]
            sums = sum(padded[lo + j:hi + j] for j in range(5))         # best[i - 2] + ... + best[i + 2]
            strong_enough[lo:hi] |= maybe & (sums / 5 >= FIRST_BREADTH * window)
    # the strongest responses first; each keeps off others within win steps
    order = np.argsort(-best)
    strong = order[strong_enough[order]]
    taken_near = np.zeros(len(best), bool)
    peaks = []
    for i in strong.tolist():
        if taken_near[i]:
            continue
        # a shoulder of a stronger peak (the response does not dip between them) is not a checker
        left = [j for j in peaks if j < i]
        right = [j for j in peaks if j > i]
        if left and best[max(left):i].min() > best[i] - PEAK_DIP:
            continue
        if right and best[i:min(right)].min() > best[i] - PEAK_DIP:
            continue
        peaks.append(i)
        taken_near[max(0, i - win + 1):i + win] = True
    return peaks


def _fits_stack_of(view: _View, axis, totals) -> bool:
    """Whether, for one of ``totals``, the checkers seen along a point lie where a stack of that many
    would have them: touching from the base (five or fewer) or evenly filling the point (more), each
    within GRID_TOLERANCE; and whether each place of that stack beyond the last checker seen may hide
    one (_unseen_places_hidden: blown out, or a faint rim) — the missing checkers go only where the
    glare can hide them."""
    ts, best = _stack_response(view, axis, TABLE_POINT_L)
    centres = ts[_checker_peaks(ts, best, FIRST_ARC_MIN)] - ARC_CENTRE_BIAS
    beyond = float(centres.max()) if len(centres) else -np.inf
    for total in totals:
        spacing = _stack_spacing(total)
        slots = np.round((centres - CHECKER_R) / spacing)
        if (np.all(np.abs(centres - CHECKER_R - slots * spacing) <= GRID_TOLERANCE)
                and _unseen_places_hidden(view, axis, ts, best, centres, total, beyond=beyond)):
            return True
    return False


_COMB_SHIFTS = np.arange(-1.5, 3.1, STEP_MM)    # mm: a comb's rims may lie this far beyond its centres' places


def _comb(n: int) -> tuple[np.ndarray, np.ndarray]:
    """A stack of n evenly filling a point (_overlapped_count), a row per shift of it (_COMB_SHIFTS):
    its inner checkers' centres and the places where neighbouring checkers' rims meet (mm from the base)."""
    spacing = (TABLE_POINT_L - 2 * CHECKER_R) / (n - 1)
    centres = CHECKER_R + _COMB_SHIFTS[:, None] + spacing * np.arange(n)[None, :]
    return centres[:, 1:-1], centres[:, :-1] + spacing / 2


_COMBS = {n: _comb(n) for n in range(6, 16)}     # the stacks of more than five a point may hold


def _comb_fit(response: np.ndarray, ts: np.ndarray) -> tuple[int, float, float]:
    """(n, shift in mm, score) of the comb that fits a point's near-arc response best (_overlapped_count);
    the score is the response's mean over the comb's inner checkers less its mean where their rims meet."""
    reach = int(round(1.0 / STEP_MM))
    kernel = np.ones((1, 2 * reach + 1), np.uint8)
    row = response.astype(np.float32)[None, :]
    high, low = cv2.dilate(row, kernel)[0], cv2.erode(row, kernel)[0]
    best_n, best_shift, best_score = 6, 0.0, -np.inf
    for n, (inner, between) in _COMBS.items():
        scores = (np.interp(inner.ravel(), ts, high).reshape(inner.shape).mean(axis=1)
                  - np.interp(between.ravel(), ts, low).reshape(between.shape).mean(axis=1))
        i = int(np.argmax(scores))
        if scores[i] > best_score:
            best_n, best_shift, best_score = n, float(_COMB_SHIFTS[i]), float(scores[i])
    return best_n, best_shift, best_score


def _overlapped_count(response: np.ndarray, ts: np.ndarray) -> int:
    """The count of a stack of more than five, which overlaps evenly to fill the point (the
    renderer's and the usual way to fit them).  Along such a stack the near-arc response is high
    over each checker and drops sharply where one checker's rim meets the next: a comb.  The n
    (and a small shift) whose drops fall on the response's dips and whose checkers on its highs
    wins; half the true spacing would put its highs on dips, so it loses.
    """
    return _comb_fit(response, ts)[0]


def _overlapping_in_part(ts: np.ndarray, best: np.ndarray, peaks: np.ndarray, count: int) -> int:
    """The count of a point whose checkers seen (near-arc ``peaks``, mm from the base, sorted) overlap —
    two neighbours closer than touching, so the stack holds more than five and fills the point evenly —
    but do not span it (the farther rims washed out by a lamp's glare, or too faint in its lifted light
    to pass ARC_MIN): the comb's count (_comb_fit, which scores the whole point, faint rims too) when
    every checker seen lies at a place of the comb's stack (shifted to fit them best; within
    GRID_TOLERANCE and GRID_SHARE of its spacing), every place between the first and the last seen
    holds a checker seen or shows a faint rim (OVERLAP_GAP_ARC; a touching stack's checkers lie at every
    other place of a comb of twice as many, and nothing shows between them) and it holds at least
    ``count``; else ``count``."""
    if len(peaks) < 2 or np.min(np.diff(peaks)) >= 2 * CHECKER_R - TOUCH_TOLERANCE:
        return count
    n, _, _ = _comb_fit(best, ts)
    # the comb's shift that puts the checkers seen nearest its places (the best-scored one may put the
    # farthest seen, in a glare's fringe, a little off)
    shift = min(_COMB_SHIFTS, key=lambda sh: float(
        np.abs(peaks[:, None] - (_stack_places(n) + sh)[None, :]).min(axis=1).max()))
    places = _stack_places(n) + shift
    off = np.abs(peaks[:, None] - places[None, :])
    at = np.argmin(off, axis=1)
    if n < count or np.any(off[np.arange(len(peaks)), at] > min(GRID_TOLERANCE, GRID_SHARE * _stack_spacing(n))):
        return count
    for j in range(at.min() + 1, at.max()):
        near = np.abs(ts - places[j]) <= FAINT_REACH
        if j not in at and (not near.any() or best[near].max() < OVERLAP_GAP_ARC):
            return count
    return n


def _missed_in_gaps(centres_mm: np.ndarray) -> int:
    """Checkers missed inside an overlapping stack: its checkers are evenly spaced, so a gap of
    about twice (three times ...) the usual spacing holds one (two ...) whose rim did not show."""
    if len(centres_mm) < 4:
        return 0
    gaps = np.diff(centres_mm)
    usual = median(gaps)
    if usual >= 2 * CHECKER_R - 2.0:
        return 0                        # touching checkers: a gap is an empty stretch, not a missed rim
    missed = 0
    for gap in gaps:
        m = int(round(gap / usual))
        if m >= 2 and abs(gap / m - usual) < GAP_TOLERANCE * usual:
            missed += m - 1
    return missed


def _blown_out_stretch(grey: np.ndarray) -> bool:
    """Whether a stretch of a profile is blown out by a lamp's glare: TRAY_BLOWN_SHARE of it at SATURATED."""
    return bool(len(grey)) and float(np.mean(grey >= SATURATED)) >= TRAY_BLOWN_SHARE


def _floor_before(grey: np.ndarray, first: int, end: int) -> bool:
    """Whether the tray before a run's first step (samples ``first``, ``end``: its first and last step,
    along the tray's grey profile ``grey``) is empty floor: as bright as the floor after the run, much
    nearer it than the checkers between (in log-brightness, FLOOR_LIKE of the way).  The first step is
    then the first checker's outer face, though further from the tray's end than OFF_START allows for (a
    board outline a few mm short at that end); otherwise it may be the line after a first checker as dark
    as the frame."""
    if first < 4 or end - first <= 4 or end + 9 > len(grey):
        return False
    before, inside, after = (max(1.0, float(np.median(v))) for v in
                             (grey[max(0, first - 6):first - 2], grey[first + 2:end - 1], grey[end + 3:end + 9]))
    return abs(np.log(before / after)) < FLOOR_LIKE * abs(np.log(before / inside))


def _tray(view: _View, which: str) -> tuple[int, float, float]:
    """(number of borne-off checkers, their mean brightness, rim polarity) in one tray.

    Checkers standing on edge make a sharp line every OFF_THICKNESS along the
    tray; the empty floor makes none (a lamp's glare or a shadow changes it
    only slowly).  The filled length runs from the first strong step (the first
    checker's outer face, when it shows within half a checker of OFF_START) to
    the last, each where its response peaks; one step alone is no checker.  The
    lines between two checkers are their rims seen edge on: darker than the faces for
    light checkers, lighter for dark ones (_rim_polarity, bands narrower than
    TRAY_BAND_MM: the faces, 4.7 mm, are not such a band).  A lone checker has
    no such line (its ends meet the tray's floor): polarity 0.  Where a lamp's
    glare blows the checkers out (_blown_out_stretch), the lines between them are gone:
    the run goes on across the blown-out stretch to a strong step beyond it (the
    run's end; a glare alone on the floor fades out far too slowly for one).
    """
    x, base, d = table_tray_axis(which)
    length = TABLE_H / 2 - TABLE_FRAME - TABLE_TRAY_SPLIT / 2
    step = 0.5
    ts = np.arange(0.5, length - 0.5, step)
    # fifteen lines along the tray, 1 mm apart: the same rows, a column each; their median
    h, w = view.gray.shape
    _, py = view.px(x, base + d * ts)
    rows = np.minimum(np.maximum(py.astype(int), 0), h - 1)
    columns = [min(max(int(view.px(x + dx, 0.0)[0]), 0), w - 1) for dx in np.arange(-7.0, 7.5, 1.0)]
    grey = np.partition(view.gray[rows[None, :], np.array(columns)[:, None]].astype(np.float32), 7, axis=0)[7]
    prof = _LOG_GREY[np.clip(grey, 0, 255).astype(np.uint8)]
    edge = np.abs(np.convolve(prof, [1, 1, 0, -1, -1], mode="same")) / 4
    edge[:2] = edge[-2:] = 0
    # the run of lines from the base: a line between two checkers may be faint (dim light), the end
    # of the run (checker to empty floor) is a clear step
    lines = np.nonzero(edge > TRAY_LINE_MIN)[0]
    first, end, last, max_gap = None, 0, 0, int(1.6 * OFF_THICKNESS / step)
    for i in lines:
        if i - last > max_gap and last > 0 and not (edge[i:i + 3].max() > TRAY_EDGE_MIN
                                                      and _blown_out_stretch(grey[last + 1:i])):
            break
        if last == 0 and i > max_gap:
            break
        last = i
        if edge[i] > TRAY_EDGE_MIN:
            end = i
            first = i if first is None else first
    by_lines, sign = _tray_lines(ts, grey)
    if first is None and not by_lines:
        return 0, 0.0, 0.0
    if first is None:
        first = end = int(round((OFF_START + by_lines * OFF_THICKNESS - 0.5) / step))
    # each step where its response peaks (a step's response is 2 mm wide, its far shoulder was taken for
    # it); the run measured from its first step, the outer face of the first checker, when that shows
    # near the tray's end: an outline a few pixels off moves both ends alike
    reach = int(round(1.0 / step))
    end = max(range(max(0, end - reach), end + 1), key=lambda i: edge[i])
    first = max(range(first, min(len(edge), first + reach + 1)), key=lambda i: edge[i])
    extent = end * step + 0.5
    start = first * step + 0.5
    if start > OFF_START + OFF_THICKNESS / 2 and not _floor_before(grey, first, end):
        start = OFF_START                # no step at the outer end (a checker as dark as the frame)
    n = min(int(round((extent - start) / OFF_THICKNESS)), 15)
    if by_lines > n:
        # the lines between checkers a glare lit show in grey levels where their log-brightness steps did not
        n, extent = by_lines, OFF_START + by_lines * OFF_THICKNESS
        end = min(len(grey), int(round((extent - 0.5) / step)))
    fx, fy = view.px(x, base - d * TABLE_FRAME * 0.5)
    frame = view.gray[int(fy) - 4:int(fy) + 5, int(fx) - 12:int(fx) + 13]
    frame_level = max(8.0, median(frame)) if frame.size else 128.0
    polarity = _rim_polarity(view, x, base, d, extent, TRAY_BAND_MM) if n >= 2 else 0.0
    if by_lines >= 2 and by_lines == n:
        polarity = math.copysign(max(abs(polarity), RIM_POLARITY_MIN), sign)   # light lines: black checkers
    return n, (float(np.mean(grey[:end])) / frame_level if end else 0.0), polarity


def _tray_lines(ts: np.ndarray, grey: np.ndarray) -> tuple[int, float]:
    """(number of borne-off checkers, the sign of the lines between them: + lighter than their faces) told
    by those lines in grey levels, or (0, 0.0): along a tray's grey profile ``grey`` (at ``ts`` mm from its
    outer end), the lines where a stack of checkers from OFF_START would have them (shifted up to
    TRAY_SHIFT), each TRAY_LINE_CONTRAST lighter (or, all of them, darker) than the faces either side of it
    and those faces alike (TRAY_FACE_LIKE); the checkers are one more than the run of such lines from the
    first.

    A light checker's rim is darker than its face, a dark one's lighter; a lamp's glare adds light to both,
    so the difference in grey levels stays while the log-brightness steps the run is found by shrink.
    Of 41 557 places of a line on a tray's floor (800 glare and 800 natural dev scenes) 99.9 % differed
    from the floor either side by at most 6 grey levels; of 2 419 lines between two checkers 99 % showed
    15 or more.  The last checker's far edge has the floor beyond it, no face: of 820 such edges none
    passed both tests; a floor a glare lit like the faces beyond it may pass (dev scene 889 480), so the
    edge after the run's last checker must show against its face (half TRAY_LINE_CONTRAST, the same
    sign), else that checker was the floor.  Of the shifts, the one whose run of lines shows most in all (summed)."""
    step = float(ts[1] - ts[0])                     # ts: evenly spaced
    index = lambda mm: (mm - float(ts[0])) / step   # noqa: E731  (samples from the first)
    shifts = np.arange(-TRAY_SHIFT, TRAY_SHIFT + 0.01, 0.5)
    lines = OFF_START + shifts[:, None] + OFF_THICKNESS * np.arange(1, 16)[None, :]     # shift, k
    # a line's samples within 1 mm of it, a face's within 1.5 mm of its middle (half a checker either side)
    usable = (np.ceil(index(lines - OFF_THICKNESS / 2 - 1.5) - 1e-6) >= 0) \
        & (np.floor(index(lines + OFF_THICKNESS / 2 + 1.5) + 1e-6) < len(ts))

    def windows(mm_lo: np.ndarray, mm_hi: np.ndarray):
        """(first sample, samples) of the windows from mm_lo to mm_hi (all as long: the lines lie on the grid)."""
        lo = np.ceil(index(mm_lo) - 1e-6).astype(int)
        size = int(np.floor(index(mm_hi) + 1e-6).astype(int).flat[0] - lo.flat[0]) + 1
        return np.clip(lo, 0, len(ts) - size), size

    lo, size = windows(lines - 1.0, lines + 1.0)
    span = grey[lo[..., None] + np.arange(size)]
    brightest, darkest = span.max(axis=-1), span.min(axis=-1)
    lo, size = windows(lines - OFF_THICKNESS / 2 - 1.5, lines - OFF_THICKNESS / 2 + 1.5)
    before = median_last_axis(grey[lo[..., None] + np.arange(size)])
    lo, size = windows(lines + OFF_THICKNESS / 2 - 1.5, lines + OFF_THICKNESS / 2 + 1.5)
    after = median_last_axis(grey[lo[..., None] + np.arange(size)])
    face = (before + after) / 2
    lighter, darker = brightest - face, face - darkest
    alike = np.abs(np.log(np.maximum(after, 1.0) / np.maximum(before, 1.0))) < TRAY_FACE_LIKE
    sign = np.where(np.maximum(lighter, darker) >= TRAY_LINE_CONTRAST, np.sign(lighter - darker), 0.0)
    sign[~(usable & alike)] = 0.0
    # the last checker's far edge, the floor beyond it: the edge (or the floor) against that checker's face
    edge_lighter, edge_darker = brightest - before, before - darkest
    best, best_sign, best_score = 0, 0.0, 0.0
    for row in range(len(shifts)):
        first = sign[row, 0]
        if not first:
            continue
        run = np.flatnonzero(sign[row, :14] != first)
        count = int(run[0]) if len(run) else 14
        far = edge_lighter[row, count] if first > 0 else edge_darker[row, count]
        if far < TRAY_LINE_CONTRAST / 2:
            # no far edge after the last line's checker: that line was the far edge (a floor lit as bright
            # as the faces beyond it)
            count -= 1
            if not count:
                continue
        # a shift half-way between the lines puts them in the faces' windows and may pass too, less clearly:
        # the shift whose lines show the most in all
        score = float(np.maximum(lighter, darker)[row, :count].sum())
        if score > best_score:
            best, best_sign, best_score = count + 1, float(first), score
    return best, best_sign


def _split_colours(stacks: list[tuple[int, float, float]], field: float, glared: list[bool],
                   blown: list[bool] | None = None) -> list[str]:
    """White / black for each (count, brightness over the frame beside it, rim polarity), ``glared``
    saying which lie in a lamp's glare (GLARE_SHARE of them blown out), ``blown`` which have their first
    checker's middle blown out (_blown_out): those are white (a black checker's face stays darker than
    a glare: of 576 stacks on points whose first place was blown out, in 1 600 dev glare scenes and 800
    natural ones, none was black; their rims' polarity is near 0 and their brightness over a glared
    frame like a black's).  The others by the polarity when it is
    clear (RIM_POLARITY_MIN; RIM_POLARITY_GLARE in the glare, which moves a stack's brightness and its
    frame's but keeps the step of its rims; RIM_POLARITY_BETWEEN for a stack brighter than every clear
    black and darker than every clear white outside the glare, whose brightness something — the edge
    of a glare, a shadow — moved too), else by the brightness split at the widest gap (on a log
    scale) — between the darkest white and the brightest black stack outside the glare whose polarity
    is clear, when there are both — else against the field's brightness over the frame."""
    def by_polarity(polarity: float, clear: float) -> str | None:
        return "white" if polarity <= -clear else "black" if polarity >= clear else None

    logs = [(np.log(max(v, 1e-3)), None if g else by_polarity(polarity, RIM_POLARITY_MIN))
            for (n, v, polarity), g in zip(stacks, glared) if n]
    vals = sorted(v for v, _ in logs)
    darkest_white = min((v for v, c in logs if c == "white"), default=None)
    brightest_black = max((v for v, c in logs if c == "black"), default=None)
    cut = None
    if darkest_white is not None and brightest_black is not None and brightest_black < darkest_white:
        between = [v for v in vals if brightest_black <= v <= darkest_white]
        i = int(np.argmax(np.diff(between)))
        cut = float(np.exp((between[i] + between[i + 1]) / 2))
    elif len(vals) >= 2:
        gaps = np.diff(vals)
        i = int(np.argmax(gaps))
        if gaps[i] > COLOUR_GAP:
            cut = float(np.exp((vals[i] + vals[i + 1]) / 2))
    if cut is None:
        cut = 0.75 * field

    def clear_from(v: float, in_glare: bool) -> float:
        """The polarity that tells the colour of a stack of brightness ``v``."""
        if in_glare:
            return RIM_POLARITY_GLARE
        if (darkest_white is not None and brightest_black is not None
                and brightest_black < np.log(max(v, 1e-3)) < darkest_white):
            return RIM_POLARITY_BETWEEN         # its brightness tells neither colour
        return RIM_POLARITY_MIN

    blown = blown or [False] * len(stacks)
    return ["white" if b else by_polarity(polarity, clear_from(v, g)) or ("white" if v > cut else "black")
            for (n, v, polarity), g, b in zip(stacks, glared, blown)]


def _balance_colours(stacks: list[tuple[int, float, float]], colours: list[str]) -> list[str]:
    """``colours`` (_split_colours) with one stack given the other colour when one colour counts 15 + k
    checkers and the other 15 - k: a side cannot have more than 15, so some stack of k was given the
    wrong colour.  Only when exactly one stack of that colour holds k checkers, its rims do not tell
    its colour (polarity below RIM_POLARITY_MIN: its brightness, or a weaker sign, decided) and its
    polarity, however weak, leans to the other colour (a lamp's glare lifts a white checker to a
    black one's brightness over its frame, or moves its frame; the step of its rims keeps a trace)."""
    totals = {c: sum(n for (n, _, _), c2 in zip(stacks, colours) if c2 == c) for c in ("white", "black")}
    over = "white" if totals["white"] > 15 else "black" if totals["black"] > 15 else None
    if over is None:
        return colours
    other = "black" if over == "white" else "white"
    k = totals[over] - 15
    if totals[other] != 15 - k:
        return colours
    leans = (lambda p: p < 0) if other == "white" else (lambda p: p > 0)
    unclear = [i for i, ((n, _, polarity), c) in enumerate(zip(stacks, colours))
               if c == over and n == k and abs(polarity) < RIM_POLARITY_MIN and leans(polarity)]
    if len(unclear) != 1:
        return colours
    return [other if i == unclear[0] else c for i, c in enumerate(colours)]


def read(image, calibration=None) -> dict:
    """The backgammon position in ``image`` (BGR); see the module docstring for the result."""
    image = imaging.check_frame(image)
    image_bgra = _with_alpha(image)
    corners = find_table_board(image, image_bgra)
    top_len = np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])
    side_len = np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1])
    ratio = top_len / max(1.0, side_len)
    expected = TABLE_W / TABLE_H
    if not PLAUSIBLE_RATIO[0] * expected < ratio < PLAUSIBLE_RATIO[1] * expected:
        raise BoardNotFound(f"no backgammon board in view (outline {ratio:.2f}:1, expected {expected:.2f}:1, "
                            f"long side across the picture) / nu se vede tabla de table")
    H = board_homography(corners, TABLE_W, TABLE_H)
    view = _View(image_bgra, H)
    del image_bgra
    dice = dice_reader.read_dice(view.gray, PX_PER_MM, (-view.x0, -view.y0, TABLE_W, TABLE_H))
    view.make_edges()                  # after the dice: their pictures are freed by then
    stacks = [_stack(view, table_point_axis(p), TABLE_POINT_L) for p in range(1, 25)]
    bar_len = TABLE_H / 2 - TABLE_FRAME - 4
    bars = [_stack(view, table_bar_axis(h), bar_len) for h in ("top", "bottom")]
    trays = [_tray(view, w) for w in ("bottom", "top")]
    fx, fy = view.px(TABLE_FRAME + 60, TABLE_H / 2)
    field = median(view.gray[int(fy) - 10:int(fy) + 10, int(fx) - 40:int(fx) + 40])
    fx, fy = view.px(TABLE_FRAME + 60, TABLE_FRAME * 0.5)
    field /= max(8.0, median(view.gray[int(fy) - 4:int(fy) + 5, int(fx) - 40:int(fx) + 40]))
    glared = ([_glare_share(view, table_point_axis(p), TABLE_POINT_L, CHECKER_R) >= GLARE_SHARE if n else False
               for p, (n, _, _) in zip(range(1, 25), stacks)]
              + [_glare_share(view, table_bar_axis(h), bar_len, CHECKER_R) >= GLARE_SHARE if n else False
                 for h, (n, _, _) in zip(("top", "bottom"), bars)]
              + [False, False])         # trays: no glare rule for their checkers on edge
    blown = [bool(n) and _blown_out(view, table_point_axis(p), CHECKER_R)
             for p, (n, _, _) in zip(range(1, 25), stacks)]
    colours = _balance_colours(stacks + bars + trays,
                               _split_colours(stacks + bars + trays, field, glared, blown + [False] * 4))
    points = []
    for (n, _, _), c in zip(stacks, colours[:24]):
        points.append([n, 0] if c == "white" else [0, n])
    bar, off = [0, 0], [0, 0]
    for (n, _, _), c in zip(bars, colours[24:26]):
        bar[0 if c == "white" else 1] += n
    for (n, _, _), c in zip(trays, colours[26:28]):
        off[0 if c == "white" else 1] += n
    _fill_glare_deficit(view, points, bar, off,
                        [(which, n, c) for which, (n, _, _), c in zip(("bottom", "top"), trays, colours[26:28])],
                        [(half, n, c) for half, (n, _, _), c in zip(("top", "bottom"), bars, colours[24:26])])
    result = {"points": points, "bar": bar, "off": off, "dice": dice}
    totals = [sum(p[side] for p in points) + bar[side] + off[side] for side in (0, 1)]
    if totals == [15, 15]:
        result["position_id"] = position_id(points, bar, True)
        result["position_id_black_on_roll"] = position_id(points, bar, False)
    else:
        # not 15 checkers a side: something was misread, so no position is claimed
        result["position_id"] = None
        result["position_id_black_on_roll"] = None
    return result


def _glare_share(view: _View, axis, length_mm: float, half_width_mm: float, start_mm: float = 0.0) -> float:
    """Share of the picture along a point or tray (``axis``, from ``start_mm`` to ``length_mm`` from its
    base, ``half_width_mm`` either side) that is blown out to white."""
    x, base, d = axis
    x0, y0 = view.px(x - half_width_mm, base + d * start_mm)
    x1, y1 = view.px(x + half_width_mm, base + d * length_mm)
    patch = view.gray[int(min(y0, y1)):int(max(y0, y1)), int(x0):int(x1)]
    return float(np.mean(patch >= SATURATED)) if patch.size else 0.0


def _fill_glare_deficit(view: _View, points: list, bar: list, off: list, trays: list, bars: list) -> None:
    """A colour with fewer than 15 checkers (points, bar and trays) while the other has exactly 15:
    if exactly one place that may hold it lies in a lamp's blown-out glare (there rims and the lines
    between borne-off checkers are washed out, and checkers are missed) — a stack of that colour where
    a taller stack fits (_fits_stack_of), or a tray read empty or with that colour, whose blown-out share
    is taken where the missing checkers would stand, beyond those seen from its outer end — and no other
    such place is touched by the glare (a sixth of its blown-out share), the missing checkers are put there.
    A bar half read empty or with that colour may hold them as well (a glare hides checkers on the bar
    too) but is never filled: the fill abstains when it is the place in the glare or competes with it.
    ``trays`` is [(which, count, colour)], ``bars`` [(half, count, colour)].  Changes ``points`` and
    ``off`` in place; anything less clear is left as read (and gets no Position ID).
    """
    totals = [sum(p[side] for p in points) + bar[side] + off[side] for side in (0, 1)]
    tray_length = TABLE_H / 2 - TABLE_FRAME - TABLE_TRAY_SPLIT / 2
    bar_length = TABLE_H / 2 - TABLE_FRAME - 4          # as read() looks along a bar half
    for side in (0, 1):
        deficit = 15 - totals[side]
        if deficit <= 0 or totals[1 - side] != 15:
            continue
        colour = ("white", "black")[side]
        candidates = [(_glare_share(view, table_point_axis(i + 1), TABLE_POINT_L, CHECKER_R), "point", i)
                      for i, p in enumerate(points) if p[side]]
        # borne-off checkers stand from the tray's outer end: the missing ones would stand beyond those seen
        candidates += [(_glare_share(view, table_tray_axis(which),
                                     min(tray_length, OFF_START + (n + deficit) * OFF_THICKNESS), OFF_HALF_WIDTH,
                                     OFF_START + n * OFF_THICKNESS), "tray", which)
                       for which, n, c in trays if n == 0 or c == colour]
        candidates += [(_glare_share(view, table_bar_axis(half), bar_length, CHECKER_R), "bar", half)
                       for half, n, c in bars if n == 0 or c == colour]
        # a stack touched by the glare may hold missing checkers only where a taller stack fits (the checkers
        # seen at its places, its places beyond them blown out or faint): one that cannot is no candidate
        candidates = [c for c in candidates if c[1] != "point" or c[0] == 0.0 or _fits_stack_of(
            view, table_point_axis(c[2] + 1), range(points[c[2]][side] + 1, points[c[2]][side] + deficit + 1))]
        candidates.sort(key=lambda c: -c[0])
        if not candidates or candidates[0][0] < GLARE_SHARE:
            continue
        if len(candidates) > 1 and candidates[1][0] * GLARE_DOMINANCE > candidates[0][0]:
            continue                    # another place is in the glare too: its checkers may be the missing ones
        _, kind, where = candidates[0]
        if kind == "bar":
            continue                    # the missing checkers may lie on the bar, blown out: not filled
        if any((1 <= p[side] <= 5 or p == [0, 0]) and (kind, where) != ("point", i)
               and _faint_checker_beyond(view, table_point_axis(i + 1)) for i, p in enumerate(points)):
            continue                    # a stack outside the glare, or a point read empty, may hold a missed checker
        if any(p == [0, 0] and _empty_point_in_glare(view, table_point_axis(i + 1)) for i, p in enumerate(points)):
            continue                    # a point read empty inside the glare may hold them
        if kind == "point" and not _fits_stack_of(view, table_point_axis(where + 1), (points[where][side] + deficit,)):
            continue                    # the checkers seen there are not spaced as that many would be
        if kind == "point":
            points[where][side] += deficit
        else:
            off[side] += deficit


def annotate(image: np.ndarray, result: dict) -> np.ndarray:
    """The picture with the board outline and the count read on every point, the bar and the trays."""
    out = imaging.check_frame(image).copy()
    try:
        corners = find_table_board(out)
    except ValueError:
        return out
    H = board_homography(corners, TABLE_W, TABLE_H)
    cv2.polylines(out, [np.rint(corners).astype(np.int32)], True, (0, 200, 255), 2, cv2.LINE_AA)

    def label(text, x_mm, y_mm, colour):
        (x, y), = mm_to_px(H, [(x_mm, y_mm)])
        org = (int(x) - 8, int(y) + 6)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)

    white, black = (255, 255, 255), (60, 60, 255)
    for p, (w, b) in enumerate(result.get("points", []), start=1):
        x, base, d = table_point_axis(p)
        if w or b:
            label(str(w or b), x, base + d * (TABLE_POINT_L + 8), white if w else black)
    for half, side in (("top", 0), ("bottom", 1)):
        x, base, d = table_bar_axis(half)
        n = result.get("bar", [0, 0])[side]
        if n:
            label(str(n), x, base + d * 60, white if side == 0 else black)
    for which, side in (("bottom", 0), ("top", 1)):
        x, base, d = table_tray_axis(which)
        n = result.get("off", [0, 0])[side]
        if n:
            label(str(n), x, base + d * 120, white if side == 0 else black)
    dice = result.get("dice")
    text = f"dice / zaruri: {dice}   id: {result.get('position_id')}"
    cv2.putText(out, text, (10, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(out, text, (10, 26), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2, cv2.LINE_AA)
    return out
