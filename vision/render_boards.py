"""Synthetic scenes of board games and rummy tiles, with their exact ground truth.

Everything is drawn on a flat "table picture" in millimetres (``CANVAS_PX_PER_MM``
pixels per mm), then seen through ``vision.imaging.camera_view`` (tilt and
turn), lit with ``apply_lighting`` and spoilt with ``sensor_effects`` — the same
conditions as the card scenes.  Each ``render_*`` returns ``(image, truth)``;
``truth["H_mm_to_px"]`` maps table millimetres to picture pixels.

Scenes
    ``render_tintar(board, in_hand, captured, rng, conditions)``   Tintar (nine men's morris)
    ``render_table(points, bar, off, dice, rng, conditions)``      Table (backgammon) with dice
    ``render_tiles(rows, rng, conditions)``                         rummy tiles in rows / melds
and ``random_*_scene(rng)`` for a random legal-looking position of each.

Board conventions (also in docs/vision-boards.md)
    Tintar: the board is seen with rank 1 nearest the bottom of the picture;
    in-hand pieces lie left of the board, captured ones right of it.
    Table: white sits at the bottom of the picture; white's home (points 1-6)
    is bottom right, black's home (points 19-24) top right; the bar is the
    middle strip, the borne-off trays are at the right edge (white's bottom,
    black's top).  ``points[i] = [white, black]`` on point ``i+1`` counted
    from white's side.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import imaging
from vision.board_outline import shade_tolerant

CANVAS_PX_PER_MM = 2.0
OUT_SIZE = (1280, 720)
PAD = 0.2                      # table drawn beyond the scene on each side (fraction of its size)
CAMERA_MARGIN = -0.115         # camera_view margin: the scene fills the picture, the pad is cut off
SHIFT = 4                      # sub-pixel bits for cv2 drawing
_ONE = 1 << SHIFT

TINTAR_POINTS = ("a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7").split()
TINTAR_LINES = (("a1", "a7"), ("a7", "g7"), ("g7", "g1"), ("g1", "a1"),
                ("b2", "b6"), ("b6", "f6"), ("f6", "f2"), ("f2", "b2"),
                ("c3", "c5"), ("c5", "e5"), ("e5", "e3"), ("e3", "c3"),
                ("d1", "d3"), ("d5", "d7"), ("a4", "c4"), ("e4", "g4"))

# Tintar board geometry, mm
TINTAR_SIZE = 300.0            # the square plate, frame included
TINTAR_FRAME = 12.0
TINTAR_GRID0 = 36.0            # centre of file a / rank 1 from the plate's edge
TINTAR_STEP = 38.0
TINTAR_PIECE_R = 13.0


def tintar_point_mm(name: str) -> tuple[float, float]:
    """Centre of a Tintar point in board mm (origin top-left of the plate, y down)."""
    f = ord(name[0]) - ord("a")
    r = int(name[1]) - 1
    return TINTAR_GRID0 + f * TINTAR_STEP, TINTAR_SIZE - (TINTAR_GRID0 + r * TINTAR_STEP)


# ------------------------------------------------------------ conditions --

def random_conditions(rng, hard: bool = True) -> dict:
    """Camera, light and sensor conditions for one scene."""
    rng = imaging._rng(rng)
    if not hard:
        return {"table": "felt", "lighting": "even", "tilt": 0.0, "rotation": 0.0,
                "noise": 0.0, "blur": 0.0, "jpeg": None}
    return {"table": str(rng.choice(imaging.TABLE_KINDS)),
            "lighting": str(rng.choice(imaging.LIGHTING_KINDS)),
            "tilt": float(rng.uniform(0, 18)), "rotation": float(rng.uniform(-7, 7)),
            "noise": float(rng.uniform(0, 6)), "blur": float(rng.uniform(0, 1.0)),
            "jpeg": int(rng.integers(60, 96))}


def _lab(bgr) -> np.ndarray:
    px = np.uint8([[list(bgr)]])
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


def _pick_frame(rng, table_img: np.ndarray, choices, keep_first: bool = False) -> tuple:
    """A frame colour that stands out from every colour of the table.

    A board lost on a table of its own colour is found by the ArUco markers
    (vision.calibrate), not by its outline; the scenes here keep the outline visible.
    """
    flat = table_img.reshape(-1, 3)
    sample = flat[rng.integers(0, len(flat), 600)]
    table_f = shade_tolerant(cv2.cvtColor(sample[None, :, :].astype(np.uint8), cv2.COLOR_BGR2LAB)[0])
    order = rng.permutation(len(choices))
    if keep_first:
        order = [0] + [int(i) for i in order if i != 0]
    best, best_d = choices[order[0]], -1.0
    for i in order:
        d = float(np.percentile(np.linalg.norm(table_f - shade_tolerant(_lab(choices[i]))[None, :], axis=1), 3))
        if d > 36:
            return choices[i]
        if d > best_d:
            best, best_d = choices[i], d
    return best


class Canvas:
    """The table picture: drawing helpers in millimetres."""

    def __init__(self, width_mm: float, height_mm: float, table_kind: str, rng):
        """A scene of ``width_mm`` x ``height_mm`` (what the camera should show), on a
        table picture ``PAD`` larger on each side so that no floor shows at any tilt."""
        self.rng = rng
        self.w_mm, self.h_mm = width_mm, height_mm
        self.k = CANVAS_PX_PER_MM
        self.ox, self.oy = PAD * width_mm, PAD * height_mm
        size = (int(round(width_mm * (1 + 2 * PAD) * self.k)), int(round(height_mm * (1 + 2 * PAD) * self.k)))
        self.img = imaging.table_background(table_kind, size, rng)

    def p(self, x, y) -> tuple[int, int]:
        return int(round((x + self.ox) * self.k * _ONE)), int(round((y + self.oy) * self.k * _ONE))

    def r(self, v) -> int:
        return max(1, int(round(v * self.k * _ONE)))

    def poly(self, pts_mm, colour, filled=True, thickness_mm=1.0):
        pts = np.array([self.p(x, y) for x, y in pts_mm], np.int32)
        if filled:
            cv2.fillPoly(self.img, [pts], tuple(int(c) for c in colour), cv2.LINE_AA, SHIFT)
        else:
            cv2.polylines(self.img, [pts], True, tuple(int(c) for c in colour),
                          max(1, int(round(thickness_mm * self.k))), cv2.LINE_AA, SHIFT)

    def rect(self, x0, y0, x1, y1, colour):
        self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], colour)

    def line(self, a, b, colour, thickness_mm):
        cv2.line(self.img, self.p(*a), self.p(*b), tuple(int(c) for c in colour),
                 max(1, int(round(thickness_mm * self.k))), cv2.LINE_AA, SHIFT)

    def circle(self, c, r_mm, colour, thickness_mm=-1.0):
        t = -1 if thickness_mm < 0 else max(1, int(round(thickness_mm * self.k)))
        cv2.circle(self.img, self.p(*c), self.r(r_mm), tuple(int(c_) for c_ in colour), t, cv2.LINE_AA, SHIFT)

    def shadow(self, pts_mm_or_centre, r_mm=None, depth=0.45, offset=(1.2, 1.6), soft_mm=1.5):
        """Darken the table under a disc (centre + r_mm) or a polygon, softly, offset like a lamp's shadow."""
        k = self.k
        if r_mm is not None:
            cx, cy = pts_mm_or_centre
            cx, cy = cx + self.ox, cy + self.oy
            pts = np.array([[cx - r_mm, cy - r_mm], [cx + r_mm, cy + r_mm]])
        else:
            pts = np.asarray(pts_mm_or_centre, np.float64) + [self.ox, self.oy]
        pad = soft_mm * 3 + 3
        x0 = max(0, int((pts[:, 0].min() + offset[0] - pad) * k))
        y0 = max(0, int((pts[:, 1].min() + offset[1] - pad) * k))
        x1 = min(self.img.shape[1], int((pts[:, 0].max() + offset[0] + pad) * k) + 1)
        y1 = min(self.img.shape[0], int((pts[:, 1].max() + offset[1] + pad) * k) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        m = np.zeros((y1 - y0, x1 - x0), np.float32)
        if r_mm is not None:
            c = (int(round(((cx + offset[0]) * k - x0) * _ONE)), int(round(((cy + offset[1]) * k - y0) * _ONE)))
            cv2.circle(m, c, self.r(r_mm), 1.0, -1, cv2.LINE_AA, SHIFT)
        else:
            q = np.array([[round(((x + offset[0]) * k - x0) * _ONE), round(((y + offset[1]) * k - y0) * _ONE)]
                          for x, y in pts], np.int32)
            cv2.fillPoly(m, [q], 1.0, cv2.LINE_AA, SHIFT)
        m = cv2.GaussianBlur(m, (0, 0), max(0.5, soft_mm * k))
        roi = self.img[y0:y1, x0:x1].astype(np.float32)
        self.img[y0:y1, x0:x1] = np.clip(roi * (1 - depth * m[:, :, None]), 0, 255).astype(np.uint8)

    def disc(self, c, r_mm, face, light: bool, shadow=True):
        """A checker or morris piece seen from above: face, bevelled rim, shadow."""
        if shadow:
            self.shadow(c, r_mm, depth=0.5)
        face = np.clip(np.array(face, np.float32) + self.rng.uniform(-8, 8, 3), 0, 255)
        rim = face * 0.62 if light else np.clip(face + 70, 0, 255)
        self.circle(c, r_mm, rim)
        self.circle(c, r_mm * 0.86, face)
        self.circle(c, r_mm * 0.55, np.clip(face * (0.9 if light else 1.0) + (0 if light else 25), 0, 255),
                    thickness_mm=0.5)


def finish_scene(canvas: Canvas, conditions: dict, rng) -> tuple[np.ndarray, np.ndarray]:
    """Camera, lighting and sensor effects over a finished table picture; (image, H_mm_to_px).

    ``conditions["glare_centre_mm"]``, when there, puts a glare's spot on that point of the table (mm)."""
    # A negative margin: the camera sees table to the edges of the picture, as at a real table.
    # Beyond the drawn table the camera sees more of the same table (its median colour), not a floor.
    floor = tuple(int(v) for v in np.median(canvas.img[::8, ::8].reshape(-1, 3), axis=0))
    img, H = imaging.camera_view(canvas.img, conditions["tilt"], conditions["rotation"], OUT_SIZE, rng,
                                 margin=CAMERA_MARGIN, floor=floor)
    S = np.array([[canvas.k, 0, canvas.k * canvas.ox], [0, canvas.k, canvas.k * canvas.oy], [0, 0, 1.0]])
    glare_centre = conditions.get("glare_centre_mm")
    if glare_centre is not None:
        glare_centre = _to_px(H @ S, [glare_centre])[0]
    img = imaging.apply_lighting(img, conditions["lighting"], rng, glare_centre=glare_centre)
    img = imaging.sensor_effects(img, rng, noise=conditions["noise"], blur=conditions["blur"],
                                 jpeg_quality=conditions["jpeg"])
    return img, H @ S


def _to_px(H: np.ndarray, pts_mm) -> list[list[float]]:
    pts = np.asarray(pts_mm, np.float64).reshape(-1, 1, 2)
    return [[round(float(x), 2), round(float(y), 2)] for x, y in cv2.perspectiveTransform(pts, H).reshape(-1, 2)]


# ---------------------------------------------------------------- Tintar --

TINTAR_SCHEMES = (
    # (name, plate BGR, line BGR)
    ("light-wood", (140, 185, 220), (35, 45, 70)),
    ("dark-wood", (45, 75, 115), (185, 215, 235)),
    ("green", (55, 115, 45), (235, 240, 240)),
    ("cream", (200, 228, 238), (25, 25, 25)),
    ("red", (45, 55, 135), (205, 225, 235)),
)
FRAME_COLOURS = ((20, 35, 60), (60, 90, 130), (15, 15, 20), (90, 120, 160), (30, 30, 110), (150, 200, 230),
                 (120, 60, 20), (40, 20, 80))
WHITE_PIECE = (215, 230, 240)
BLACK_PIECE = (30, 30, 34)


def _scatter(rng, n, x0, y0, x1, y1, r, taken):
    """``n`` non-overlapping disc centres in a box (mm); appended to ``taken``."""
    out = []
    for _ in range(n):
        for _try in range(400):
            c = (float(rng.uniform(x0 + r, x1 - r)), float(rng.uniform(y0 + r, y1 - r)))
            if all((c[0] - t[0]) ** 2 + (c[1] - t[1]) ** 2 > (2 * r + 1.5) ** 2 for t in taken):
                break
        else:
            raise ValueError("no room beside the board for so many pieces / nu încap atâtea piese lângă tablă")
        taken.append(c)
        out.append(c)
    return out


def render_tintar(board: dict, in_hand: dict | None = None, captured: dict | None = None, rng=0,
                  conditions: dict | None = None, scheme: str | None = None) -> tuple[np.ndarray, dict]:
    """A Tintar board with pieces; ``board`` maps point names to "white"/"black"/None.

    ``in_hand`` / ``captured``: {"white": n, "black": n}, drawn left / right of the board.
    """
    rng = imaging._rng(rng)
    conditions = conditions or random_conditions(rng)
    in_hand = dict(in_hand or {"white": 0, "black": 0})
    captured = dict(captured or {"white": 0, "black": 0})
    for name, colour in board.items():
        if name not in TINTAR_POINTS or colour not in ("white", "black", None):
            raise ValueError(f"bad Tintar point {name!r}: {colour!r} / punct Tintar greșit")
    margin_y = float(rng.uniform(38, 60))
    h_mm = TINTAR_SIZE + 2 * margin_y
    w_mm = h_mm * OUT_SIZE[0] / OUT_SIZE[1]
    ox, oy = (w_mm - TINTAR_SIZE) / 2, margin_y
    cv = Canvas(w_mm, h_mm, conditions["table"], rng)
    names = [s[0] for s in TINTAR_SCHEMES]
    sch = TINTAR_SCHEMES[names.index(scheme)] if scheme else TINTAR_SCHEMES[int(rng.integers(len(TINTAR_SCHEMES)))]
    _, plate, ink = sch
    frame = _pick_frame(rng, cv.img, FRAME_COLOURS)
    corners = [(ox, oy), (ox + TINTAR_SIZE, oy), (ox + TINTAR_SIZE, oy + TINTAR_SIZE), (ox, oy + TINTAR_SIZE)]
    cv.shadow(corners, depth=0.4, offset=(2.0, 2.5), soft_mm=3)
    cv.poly(corners, frame)
    f = TINTAR_FRAME
    cv.rect(ox + f, oy + f, ox + TINTAR_SIZE - f, oy + TINTAR_SIZE - f, plate)

    def at(name):
        x, y = tintar_point_mm(name)
        return ox + x, oy + y

    for a, b in TINTAR_LINES:
        cv.line(at(a), at(b), ink, 2.0)
    for name in TINTAR_POINTS:
        cv.circle(at(name), 3.5, ink)
    truth_points = {}
    for name in TINTAR_POINTS:
        colour = board.get(name)
        truth_points[name] = colour
        if colour:
            c = at(name)
            c = (c[0] + rng.uniform(-3, 3), c[1] + rng.uniform(-3, 3))
            cv.disc(c, TINTAR_PIECE_R, WHITE_PIECE if colour == "white" else BLACK_PIECE, colour == "white")
    taken: list = []
    for zone, counts in (("left", in_hand), ("right", captured)):
        x0 = ox - 150 if zone == "left" else ox + TINTAR_SIZE + 12
        for colour in ("white", "black"):
            for c in _scatter(rng, int(counts.get(colour, 0)), x0, oy, x0 + 138,
                              oy + TINTAR_SIZE, TINTAR_PIECE_R, taken):
                cv.disc(c, TINTAR_PIECE_R, WHITE_PIECE if colour == "white" else BLACK_PIECE, colour == "white")
    img, H = finish_scene(cv, conditions, rng)
    truth = dict(truth_points)
    truth["in_hand"] = {"white": int(in_hand.get("white", 0)), "black": int(in_hand.get("black", 0))}
    truth["captured"] = {"white": int(captured.get("white", 0)), "black": int(captured.get("black", 0))}
    truth["corners_px"] = _to_px(H, corners)
    truth["H_mm_to_px"] = H
    truth["scheme"] = sch[0]
    truth["conditions"] = conditions
    return img, truth


def random_tintar_position(rng) -> tuple[dict, dict, dict]:
    """A random Tintar position: (board, in_hand, captured) with at most nine pieces a side."""
    rng = imaging._rng(rng)
    placed_w, placed_b = int(rng.integers(0, 10)), int(rng.integers(0, 10))
    lost_w, lost_b = int(rng.integers(0, 10 - placed_w)), int(rng.integers(0, 10 - placed_b))
    if lost_w > 6:
        lost_w = 6
    if lost_b > 6:
        lost_b = 6
    on_w = placed_w - min(placed_w, lost_w)
    on_b = placed_b - min(placed_b, lost_b)
    pts = list(rng.permutation(TINTAR_POINTS))
    board = {p: None for p in TINTAR_POINTS}
    for p in pts[:on_w]:
        board[p] = "white"
    for p in pts[on_w:on_w + on_b]:
        board[p] = "black"
    in_hand = {"white": 9 - placed_w, "black": 9 - placed_b}
    captured = {"white": placed_w - on_w, "black": placed_b - on_b}
    return board, in_hand, captured


def random_tintar_scene(rng, conditions: dict | None = None):
    rng = imaging._rng(rng)
    board, in_hand, captured = random_tintar_position(rng)
    return render_tintar(board, in_hand, captured, rng, conditions)


# ------------------------------------------------------ Table (backgammon) --
# Board millimetres, origin at the top-left corner of the outer frame, y down.
TABLE_FRAME = 15.0
TABLE_POINT_W = 30.0
TABLE_POINT_L = 140.0
TABLE_BAR_W = 34.0
TABLE_DIVIDER = 12.0           # frame strip between the right half and the trays
TABLE_TRAY_W = 36.0
TABLE_TRAY_SPLIT = 16.0        # strip between the two trays
TABLE_W = TABLE_FRAME * 2 + TABLE_POINT_W * 12 + TABLE_BAR_W + TABLE_DIVIDER + TABLE_TRAY_W
TABLE_H = TABLE_FRAME * 2 + TABLE_POINT_L * 2 + 40.0
CHECKER_R = 14.0
OFF_THICKNESS = 6.5            # a borne-off checker standing on its edge in the tray
DIE_MM = 16.0

TABLE_SCHEMES = (
    # name, frame, field, dark point, light point, white checker, black checker  (BGR)
    ("romanian-wood", (30, 55, 95), (120, 170, 210), (35, 65, 110), (175, 215, 240), (225, 235, 242), (38, 32, 30)),
    ("walnut", (20, 30, 45), (60, 100, 150), (30, 45, 70), (140, 190, 225), (200, 225, 235), (30, 30, 120)),
    ("green-felt", (40, 70, 110), (50, 110, 40), (40, 40, 170), (190, 225, 235), (235, 238, 240), (30, 30, 30)),
    ("blue", (80, 50, 20), (120, 70, 30), (220, 220, 220), (40, 40, 180), (240, 240, 240), (25, 25, 25)),
)


def table_point_axis(point: int) -> tuple[float, float, float]:
    """(x centre, y of the base, direction +1 down / -1 up) of point 1-24, white's numbering."""
    left, bar_x1 = TABLE_FRAME, TABLE_FRAME + 6 * TABLE_POINT_W + TABLE_BAR_W
    right_end = bar_x1 + 6 * TABLE_POINT_W
    if 1 <= point <= 6:
        return right_end - (point - 0.5) * TABLE_POINT_W, TABLE_H - TABLE_FRAME, -1.0
    if 7 <= point <= 12:
        return left + 6 * TABLE_POINT_W - (point - 6.5) * TABLE_POINT_W, TABLE_H - TABLE_FRAME, -1.0
    if 13 <= point <= 18:
        return left + (point - 12.5) * TABLE_POINT_W, TABLE_FRAME, 1.0
    if 19 <= point <= 24:
        return bar_x1 + (point - 18.5) * TABLE_POINT_W, TABLE_FRAME, 1.0
    raise ValueError(f"no point {point} on a backgammon board / punctul {point} nu există")


def table_bar_axis(half: str) -> tuple[float, float, float]:
    """Bar halves, stacked like points from the frame inwards: "top" (white's) and "bottom" (black's)."""
    x = TABLE_FRAME + 6 * TABLE_POINT_W + TABLE_BAR_W / 2
    return (x, TABLE_FRAME, 1.0) if half == "top" else (x, TABLE_H - TABLE_FRAME, -1.0)


def table_tray_axis(which: str) -> tuple[float, float, float]:
    """Off trays: "bottom" (white's borne-off checkers), "top" (black's); stacked from the outer end."""
    x = TABLE_W - TABLE_FRAME - TABLE_TRAY_W / 2
    return (x, TABLE_H - TABLE_FRAME, -1.0) if which == "bottom" else (x, TABLE_FRAME, 1.0)


def stack_spacing(n: int) -> float:
    """Distance between checker centres in a stack of n: touching, or overlapping to fit the point."""
    if n <= 5:
        return 2 * CHECKER_R
    return (TABLE_POINT_L - 2 * CHECKER_R) / (n - 1)


def _draw_die(cv: Canvas, c, value: int, angle: float, cocked: bool, rng):
    """A die seen from above; a cocked die leans, showing a side face and a skewed top."""
    s = DIE_MM / 2
    ca, sa = math.cos(angle), math.sin(angle)

    def rot(px, py):
        return c[0] + px * ca - py * sa, c[1] + px * sa + py * ca

    top = [(-s, -s), (s, -s), (s, s), (-s, s)]
    face = (232, 240, 245)
    if cocked:
        lean = float(rng.uniform(0.35, 0.6))          # share of the top face turned away
        shift = 2 * s * lean
        side = [(-s, s - shift), (s, s - shift), (s, s), (-s, s)]
        top = [(-s + 1.5, -s - shift * 0.4), (s + 1.5, -s - shift * 0.4), (s, s - shift), (-s, s - shift)]
        cv.shadow([rot(*p) for p in [(-s, -s), (s, -s), (s, s), (-s, s)]], depth=0.45, offset=(1.5, 2.0))
        cv.poly([rot(*p) for p in side], (150, 160, 170))
        cv.poly([rot(*p) for p in top], face)
        scale_y = (2 * s - shift * 0.6) / (2 * s)
    else:
        cv.shadow([rot(*p) for p in top], depth=0.45, offset=(1.5, 2.0))
        cv.poly([rot(*p) for p in top], face)
        cv.poly([rot(*p) for p in top], (170, 180, 185), filled=False, thickness_mm=0.4)
        scale_y = 1.0
    pip_r = DIE_MM * 0.085
    q = DIE_MM * 0.27
    layout = {1: [(0, 0)], 2: [(-q, -q), (q, q)], 3: [(-q, -q), (0, 0), (q, q)],
              4: [(-q, -q), (q, -q), (-q, q), (q, q)], 5: [(-q, -q), (q, -q), (0, 0), (-q, q), (q, q)],
              6: [(-q, -q), (q, -q), (-q, 0), (q, 0), (-q, q), (q, q)]}[value]
    offset_y = 0.0
    if cocked:
        offset_y = -(2 * s - 2 * s * scale_y) / 2 - 0.0
    for px, py in layout:
        cv.circle(rot(px, py * scale_y + offset_y), pip_r, (25, 25, 30))


def _draw_table_board(cv: Canvas, ox: float, oy: float, scheme) -> None:
    _, frame, field, dark, light, _, _ = scheme
    frame = _pick_frame(cv.rng, cv.img, (frame,) + FRAME_COLOURS, keep_first=True)
    W, Hh = TABLE_W, TABLE_H
    corners = [(ox, oy), (ox + W, oy), (ox + W, oy + Hh), (ox, oy + Hh)]
    cv.shadow(corners, depth=0.4, offset=(2.0, 2.5), soft_mm=3)
    cv.poly(corners, frame)
    f = TABLE_FRAME
    half_w = 6 * TABLE_POINT_W
    for x0 in (f, f + half_w + TABLE_BAR_W):
        cv.rect(ox + x0, oy + f, ox + x0 + half_w, oy + Hh - f, field)
    cv.rect(ox + f + half_w + 3, oy + f, ox + f + half_w + TABLE_BAR_W - 3, oy + Hh - f,
            np.clip(np.array(frame, np.float32) * 1.25, 0, 255))
    tray_x0 = W - f - TABLE_TRAY_W
    mid = Hh / 2
    tray_col = np.clip(np.array(field, np.float32) * 0.8, 0, 255)
    cv.rect(ox + tray_x0, oy + f, ox + tray_x0 + TABLE_TRAY_W, oy + mid - TABLE_TRAY_SPLIT / 2, tray_col)
    cv.rect(ox + tray_x0, oy + mid + TABLE_TRAY_SPLIT / 2, ox + tray_x0 + TABLE_TRAY_W, oy + Hh - f, tray_col)
    for p in range(1, 25):
        x, base, d = table_point_axis(p)
        colour = dark if p % 2 else light
        hw = TABLE_POINT_W / 2 - 1.0
        cv.poly([(ox + x - hw, oy + base), (ox + x + hw, oy + base), (ox + x, oy + base + d * TABLE_POINT_L)],
                colour)


def _draw_stack(cv: Canvas, ox, oy, axis, n, face, light, rng, max_len=TABLE_POINT_L):
    x, base, d = axis
    s = stack_spacing(n) if max_len == TABLE_POINT_L else min(2 * CHECKER_R, (max_len - 2 * CHECKER_R) / max(1, n - 1))
    for k in range(n):
        t = CHECKER_R + k * s
        cv.disc((ox + x + float(rng.uniform(-1.2, 1.2)), oy + base + d * t), CHECKER_R - 0.3, face, light)


def _draw_off(cv: Canvas, ox, oy, axis, n, face, light, rng):
    x, base, d = axis
    edge = np.array(face, np.float32) * (0.6 if light else 1.0) + (0 if light else 60)
    for k in range(n):
        t0 = 1.0 + k * OFF_THICKNESS
        y0, y1 = oy + base + d * t0, oy + base + d * (t0 + OFF_THICKNESS)
        x0, x1 = ox + x - CHECKER_R + 1, ox + x + CHECKER_R - 1
        cv.rect(x0, min(y0, y1), x1, max(y0, y1), np.clip(edge, 0, 255))
        cv.rect(x0 + 0.6, min(y0, y1) + 0.9, x1 - 0.6, max(y0, y1) - 0.9, face)


def check_table_position(points, bar, off) -> None:
    """ValueError unless this is a possible backgammon position (15 checkers a side, one colour a point)."""
    if len(points) != 24:
        raise ValueError("a backgammon position has 24 points / o poziție de table are 24 de puncte")
    for i, (w, b) in enumerate(points):
        if w < 0 or b < 0 or (w and b):
            raise ValueError(f"point {i + 1}: {w} white and {b} black / punctul {i + 1} greșit")
    for side in (0, 1):
        total = sum(p[side] for p in points) + bar[side] + off[side]
        if total != 15:
            raise ValueError(f"{('white', 'black')[side]} has {total} checkers, not 15 "
                             f"/ {('albul', 'negrul')[side]} are {total} piese, nu 15")


def render_table(points, bar=(0, 0), off=(0, 0), dice=None, rng=0, conditions: dict | None = None,
                 scheme: str | None = None, dice_place: str = "board",
                 glare_on_die: bool = False) -> tuple[np.ndarray, dict]:
    """A backgammon board: ``points[i] = [white, black]`` on point i+1 (white's numbering).

    ``dice``: None (no dice), or [(value, cocked), (value, cocked)]; ``dice_place``:
    "board" (in the middle strip of the right half) or "table" (one die beside the board).
    Truth ``dice`` is [a, b], "reroll" (a die cocked or off the board) or None.
    ``glare_on_die``: the light is a lamp's glare, its spot on or near a die (the cocked one if
    there is one): the hardest light for reading dice.
    """
    rng = imaging._rng(rng)
    conditions = conditions or random_conditions(rng)
    points = [list(map(int, p)) for p in points]
    bar, off = list(map(int, bar)), list(map(int, off))
    check_table_position(points, bar, off)
    margin_y = float(rng.uniform(28, 45))
    h_mm = TABLE_H + 2 * margin_y
    w_mm = max(h_mm * OUT_SIZE[0] / OUT_SIZE[1], TABLE_W + 160)
    h_mm = w_mm * OUT_SIZE[1] / OUT_SIZE[0]
    ox, oy = (w_mm - TABLE_W) / 2, (h_mm - TABLE_H) / 2
    cv = Canvas(w_mm, h_mm, conditions["table"], rng)
    names = [s[0] for s in TABLE_SCHEMES]
    sch = TABLE_SCHEMES[names.index(scheme)] if scheme else TABLE_SCHEMES[int(rng.integers(len(TABLE_SCHEMES)))]
    white, black = sch[5], sch[6]
    _draw_table_board(cv, ox, oy, sch)
    for i, (w, b) in enumerate(points):
        axis = table_point_axis(i + 1)
        if w:
            _draw_stack(cv, ox, oy, axis, w, white, True, rng)
        if b:
            _draw_stack(cv, ox, oy, axis, b, black, False, rng)
    bar_len = TABLE_H / 2 - TABLE_FRAME - 4
    if bar[0]:
        _draw_stack(cv, ox, oy, table_bar_axis("top"), bar[0], white, True, rng, max_len=bar_len)
    if bar[1]:
        _draw_stack(cv, ox, oy, table_bar_axis("bottom"), bar[1], black, False, rng, max_len=bar_len)
    if off[0]:
        _draw_off(cv, ox, oy, table_tray_axis("bottom"), off[0], white, True, rng)
    if off[1]:
        _draw_off(cv, ox, oy, table_tray_axis("top"), off[1], black, False, rng)
    truth_dice = None
    dice_boxes = []
    if dice:
        (v1, c1), (v2, c2) = dice
        strip_y = oy + TABLE_H / 2
        x_lo = ox + TABLE_FRAME + 6 * TABLE_POINT_W + TABLE_BAR_W + 14
        xs = sorted(rng.uniform(x_lo, x_lo + 6 * TABLE_POINT_W - 28, 2))
        if xs[1] - xs[0] < 26:
            xs = [x_lo + 10, x_lo + 6 * TABLE_POINT_W - 38]
        centres = [(xs[0], strip_y + rng.uniform(-6, 6)), (xs[1], strip_y + rng.uniform(-6, 6))]
        if dice_place == "table":
            centres[1] = (ox + TABLE_W + rng.uniform(25, 50), oy + rng.uniform(40, TABLE_H - 40))
        for (v, ck), c in zip(((v1, c1), (v2, c2)), centres):
            if not 1 <= int(v) <= 6:
                raise ValueError(f"a die shows 1-6, not {v} / un zar arată 1-6")
            _draw_die(cv, c, int(v), float(rng.uniform(0, math.pi / 2)), bool(ck), rng)
            dice_boxes.append(c)
        truth_dice = "reroll" if (c1 or c2 or dice_place == "table") else [int(v1), int(v2)]
        if glare_on_die:
            pick = [c for c, cocked in zip(dice_boxes, (c1, c2)) if cocked] or dice_boxes
            x, y = pick[int(rng.integers(len(pick)))]
            conditions = dict(conditions, lighting="glare",
                              glare_centre_mm=(x + float(rng.uniform(-15, 15)), y + float(rng.uniform(-15, 15))))
    img, H = finish_scene(cv, conditions, rng)
    corners = [(ox, oy), (ox + TABLE_W, oy), (ox + TABLE_W, oy + TABLE_H), (ox, oy + TABLE_H)]
    truth = {"points": points, "bar": bar, "off": off, "dice": truth_dice,
             "corners_px": _to_px(H, corners), "dice_px": _to_px(H, dice_boxes) if dice_boxes else [],
             "H_mm_to_px": H, "scheme": sch[0], "conditions": conditions}
    return img, truth


def random_table_position(rng) -> tuple[list, list, list]:
    """A random possible position: 15 checkers a side, some on the bar or borne off."""
    rng = imaging._rng(rng)
    points = [[0, 0] for _ in range(24)]
    bar, off = [0, 0], [0, 0]
    for side in (0, 1):
        left = 15
        off[side] = int(rng.choice([0, 0, 0, int(rng.integers(1, 8))]))
        bar[side] = int(rng.choice([0, 0, 0, 1, 2]))
        left -= off[side] + bar[side]
        while left > 0:
            free = [i for i in range(24) if points[i][1 - side] == 0]
            i = int(rng.choice(free))
            if points[i][side] == 0 and sum(1 for p in points if p[side]) >= 9:
                continue
            k = int(min(left, rng.choice([1, 1, 2, 2, 3, 4, 5, 6, 7, 9, 12, 15])))
            k = min(k, 15 - points[i][side])
            points[i][side] += k
            left -= k
    return points, bar, off


def random_table_scene(rng, conditions: dict | None = None, cocked_share: float = 0.15,
                       glare_on_die: bool = False):
    """A random position with two dice (sometimes one cocked or thrown off the board); ``glare_on_die``
    as for ``render_table``."""
    rng = imaging._rng(rng)
    points, bar, off = random_table_position(rng)
    u = rng.random()
    dice = [(int(rng.integers(1, 7)), False), (int(rng.integers(1, 7)), False)]
    place = "board"
    if u < cocked_share:
        dice[int(rng.integers(0, 2))] = (dice[0][0], True)
    elif u < cocked_share + 0.05:
        place = "table"
    return render_table(points, bar, off, dice, rng, conditions, dice_place=place, glare_on_die=glare_on_die)


STARTING_POSITION = [[0, 2] if i == 0 else [5, 0] if i == 5 else [3, 0] if i == 7 else [0, 5] if i == 11
                     else [5, 0] if i == 12 else [0, 3] if i == 16 else [0, 5] if i == 18 else [2, 0] if i == 23
                     else [0, 0] for i in range(24)]


# ---------------------------------------------------------- rummy tiles --
TILE_W, TILE_H = 26.0, 36.0
TILE_COLOURS = {"R": (40, 40, 200), "Y": (0, 140, 235), "B": (190, 95, 20), "K": (30, 30, 30)}
TILE_FACE = (222, 236, 244)
TILE_FONT = cv2.FONT_HERSHEY_DUPLEX
_SPRITE_PX_PER_MM = 4.0


def draw_tile_glyph(img: np.ndarray, tile: str, colour, px_per_mm: float, x0: float = 0.0, y0: float = 0.0):
    """The number (or joker face) of ``tile`` on a tile face whose top-left corner is (x0, y0) px."""
    k = px_per_mm
    cx = x0 + TILE_W * k / 2
    colour = tuple(int(c) for c in colour)
    if tile.startswith("J"):
        cy = y0 + TILE_H * k * 0.38
        r = TILE_W * k * 0.3
        cv2.circle(img, (int(cx), int(cy)), int(r), colour, max(1, int(0.09 * r)), cv2.LINE_AA)
        for dx in (-0.35, 0.35):
            cv2.circle(img, (int(cx + dx * r), int(cy - 0.25 * r)), max(1, int(0.12 * r)), colour, -1, cv2.LINE_AA)
        cv2.ellipse(img, (int(cx), int(cy + 0.1 * r)), (int(0.5 * r), int(0.4 * r)), 0, 20, 160, colour,
                    max(1, int(0.09 * r)), cv2.LINE_AA)
        return
    text = tile[1:]
    scale = 0.6 * k * (0.8 if len(text) == 2 else 1.0)
    thick = max(1, int(round(1.1 * k)))
    (tw, th), _ = cv2.getTextSize(text, TILE_FONT, scale, thick)
    org = (int(round(cx - tw / 2)), int(round(y0 + TILE_H * k * 0.38 + th / 2)))
    cv2.putText(img, text, org, TILE_FONT, scale, colour, thick, cv2.LINE_AA)
    # the small ring under the number that real tiles carry
    cv2.circle(img, (int(cx), int(y0 + TILE_H * k * 0.78)), int(TILE_W * k * 0.12), colour,
               max(1, int(0.4 * k)), cv2.LINE_AA)


def _tile_sprite(tile: str, rng) -> np.ndarray:
    k = _SPRITE_PX_PER_MM
    w, h = int(TILE_W * k), int(TILE_H * k)
    face = np.clip(np.array(TILE_FACE, np.float32) + rng.uniform(-6, 6, 3), 0, 255)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (face * 0.78).astype(np.uint8)                       # bevel
    b = int(1.3 * k)
    cv2.rectangle(img, (b, b), (w - 1 - b, h - 1 - b), tuple(int(c) for c in face), -1, cv2.LINE_AA)
    colour = TILE_COLOURS["R" if tile == "J1" else "K" if tile == "J2" else tile[0]]
    draw_tile_glyph(img, tile, colour, k)
    return img


def _place_sprite(cv: Canvas, sprite: np.ndarray, centre_mm, angle_deg: float):
    """Paste a tile sprite onto the table picture, turned by ``angle_deg``, centred at ``centre_mm``."""
    sh, sw = sprite.shape[:2]
    scale = cv.k / _SPRITE_PX_PER_MM
    c = ((centre_mm[0] + cv.ox) * cv.k, (centre_mm[1] + cv.oy) * cv.k)
    M = cv2.getRotationMatrix2D((sw / 2, sh / 2), -angle_deg, scale)
    M[0, 2] += c[0] - sw / 2
    M[1, 2] += c[1] - sh / 2
    H, W = cv.img.shape[:2]
    warped = cv2.warpAffine(sprite, M, (W, H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)
    mask = cv2.warpAffine(np.full((sh, sw), 255, np.uint8), M, (W, H), flags=cv2.INTER_LINEAR)
    a = (mask.astype(np.float32) / 255.0)[:, :, None]
    ys, xs = np.nonzero(mask)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    roi = cv.img[y0:y1, x0:x1].astype(np.float32)
    cv.img[y0:y1, x0:x1] = (roi * (1 - a[y0:y1, x0:x1]) + warped[y0:y1, x0:x1] * a[y0:y1, x0:x1]).astype(np.uint8)


def render_tiles(melds, rng=0, conditions: dict | None = None) -> tuple[np.ndarray, dict]:
    """Rummy tiles face up: ``melds`` is a list of rows of tile names ("R7", "K13", "J1").

    Each meld is laid as a row of touching tiles, a little turned; melds go in
    lines across the table.  Truth ``tiles``: [{"tile": name, "quad": [[x, y] x 4]}].
    """
    rng = imaging._rng(rng)
    conditions = conditions or random_conditions(rng)
    for meld in melds:
        for t in meld:
            if not (t in ("J1", "J2") or (len(t) >= 2 and t[0] in TILE_COLOURS and t[1:].isdigit()
                                           and 1 <= int(t[1:]) <= 13)):
                raise ValueError(f"not a rummy tile: {t!r} / nu este o piesă de remi")
    w_mm, h_mm = 440.0, 440.0 * OUT_SIZE[1] / OUT_SIZE[0]
    cv = Canvas(w_mm, h_mm, conditions["table"], rng)
    truth_tiles = []
    # lay the melds out in lines first, then spread the lines over the table
    lines, line, x = [], [], 25.0
    for meld in melds:
        width = len(meld) * (TILE_W + 0.6)
        if x + width > w_mm - 25 and line:
            lines.append(line)
            line, x = [], 25.0
        gap = float(rng.uniform(12, 30))
        line.append((meld, x))
        x += width + gap
    if line:
        lines.append(line)
    row_h = (h_mm - 50) / max(1, len(lines))
    if row_h < TILE_H + 10:
        raise ValueError("too many tiles for the table / prea multe piese pentru masă")
    placed = []
    for li, ln in enumerate(lines):
        y = 25 + li * row_h + float(rng.uniform(0, row_h - TILE_H - 10))
        for meld, x in ln:
            placed.append((meld, x, y))
    for meld, x, y in placed:
        width = len(meld) * (TILE_W + 0.6)
        angle = float(rng.uniform(-8, 8))
        ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        mcx, mcy = x + width / 2, y + TILE_H / 2
        for i, tile in enumerate(meld):
            dx = (i + 0.5) * (TILE_W + 0.6) - width / 2
            c = (mcx + dx * ca, mcy + dx * sa)
            corners = []
            for px_, py_ in ((-TILE_W / 2, -TILE_H / 2), (TILE_W / 2, -TILE_H / 2), (TILE_W / 2, TILE_H / 2),
                             (-TILE_W / 2, TILE_H / 2)):
                corners.append((c[0] + px_ * ca - py_ * sa, c[1] + px_ * sa + py_ * ca))
            cv.shadow(corners, depth=0.45, offset=(1.2, 1.6), soft_mm=1.2)
            truth_tiles.append({"tile": tile, "corners_mm": corners})
        for i, tile in enumerate(meld):
            dx = (i + 0.5) * (TILE_W + 0.6) - width / 2
            _place_sprite(cv, _tile_sprite(tile, rng), (mcx + dx * ca, mcy + dx * sa), angle)
    img, H = finish_scene(cv, conditions, rng)
    for t in truth_tiles:
        t["quad"] = _to_px(H, t.pop("corners_mm"))
    return img, {"tiles": truth_tiles, "H_mm_to_px": H, "conditions": conditions}


def random_melds(rng) -> list[list[str]]:
    """Runs (same colour, consecutive numbers) and groups (same number, different colours), jokers now and then."""
    rng = imaging._rng(rng)
    melds = []
    for _ in range(int(rng.integers(3, 7))):
        if rng.random() < 0.5:
            c = str(rng.choice(list(TILE_COLOURS)))
            n = int(rng.integers(3, 6))
            start = int(rng.integers(1, 14 - n + 1))
            meld = [f"{c}{v}" for v in range(start, start + n)]
        else:
            v = int(rng.integers(1, 14))
            cols = list(rng.permutation(list(TILE_COLOURS)))[:int(rng.integers(3, 5))]
            meld = [f"{c}{v}" for c in cols]
        if rng.random() < 0.2:
            meld[int(rng.integers(len(meld)))] = str(rng.choice(["J1", "J2"]))
        melds.append(meld)
    return melds


def random_tiles_scene(rng, conditions: dict | None = None):
    rng = imaging._rng(rng)
    return render_tiles(random_melds(rng), rng, conditions)
