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


def _pick_frame(rng, table_img: np.ndarray, choices) -> tuple:
    """A frame colour that stands out from every colour of the table.

    A board lost on a table of its own colour is found by the ArUco markers
    (vision.calibrate), not by its outline; the scenes here keep the outline visible.
    """
    flat = table_img.reshape(-1, 3)
    sample = flat[rng.integers(0, len(flat), 600)]
    table_f = shade_tolerant(cv2.cvtColor(sample[None, :, :].astype(np.uint8), cv2.COLOR_BGR2LAB)[0])
    order = rng.permutation(len(choices))
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
    """Camera, lighting and sensor effects over a finished table picture; (image, H_mm_to_px)."""
    # A negative margin: the camera sees table to the edges of the picture, as at a real table.
    # Beyond the drawn table the camera sees more of the same table (its median colour), not a floor.
    floor = tuple(int(v) for v in np.median(canvas.img[::8, ::8].reshape(-1, 3), axis=0))
    img, H = imaging.camera_view(canvas.img, conditions["tilt"], conditions["rotation"], OUT_SIZE, rng,
                                 margin=CAMERA_MARGIN, floor=floor)
    img = imaging.apply_lighting(img, conditions["lighting"], rng)
    img = imaging.sensor_effects(img, rng, noise=conditions["noise"], blur=conditions["blur"],
                                 jpeg_quality=conditions["jpeg"])
    S = np.array([[canvas.k, 0, canvas.k * canvas.ox], [0, canvas.k, canvas.k * canvas.oy], [0, 0, 1.0]])
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
