"""The demo: a scripted Macao game for three and a Tintar game, rendered frame by frame.

Each script is a list of steps (a card put down, a card drawn, an illegal
card taken back, a Jack's request sent as a command; a piece placed,
captured).  ``macao_frames`` / ``tintar_frames`` turn it into the frames a
camera would send: for every step a hand reaching in from the player's
side of the table (a skin-coloured arm painted over the picture, moving
from frame to frame, the card sliding in under it), then the still table
for a few frames; :class:`Frames` renders them when asked.  The table pictures come from the vision renderers
(vision.render.render_card_scene with ArUco markers, vision.render_boards.
render_tintar), so the demo runs through the real calibration, hand
detection, card and board reading.

``mode="script"`` gives Observations instead of pictures (the scene double
used by the fast tests): the same steps, no rendering, no vision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from controller.stability import Observation

TABLE_MM = (800.0, 450.0)
OUT_SIZE = (1280, 720)
STILL_FRAMES = 4            # frames of a still table after each step (stability needs 3)
SKIN_BGR = (120, 160, 215)

# Macao for three (seats 0 bottom, 1 left, 2 top), observed play, first out wins.
MACAO_OPTIONS = {"play_drawn_card": False, "end_rule": "first_out"}
MACAO_SCRIPT = [
    ("start", "7H"),
    ("play", 0, ["8H"]),
    ("play", 1, ["9C"]),          # illegal: 9C on 8H
    ("takeback", 1),
    ("play", 1, ["8C"]),
    ("play", 2, ["JC"]),
    ("request", 2, "5"),          # the Jack asks for a 5: a command over MQTT
    ("play", 0, ["5C"]),
    ("play", 1, ["5D"]),
    ("play", 2, ["5S"]),
    ("play", 0, ["6S"]),
    ("draw", 1),
    ("play", 2, ["6H"]),
    ("play", 0, ["QH", "QD"]),    # two queens at once: seat 0 is out
]

# Tintar: white (seat 0) makes a mill on the a-file and takes b4.
TINTAR_SCRIPT = [
    ("start",),
    ("place", 0, "a1"),
    ("place", 1, "d2"),
    ("place", 0, "a4"),
    ("place", 1, "d3"),
    ("place", 0, "d1"),
    ("place", 0, "g7"),           # illegal: white again, black is to move
    ("takeback", 0),
    ("place", 1, "b4"),
    ("place", 0, "a7"),           # a mill: the camera waits for the capture
    ("capture", 0, "b4"),
    ("place", 1, "f4"),
]

PILE_ANGLE = 6.0
SEAT_EDGE_MM = {0: (400.0, 560.0), 1: (-110.0, 225.0), 2: (400.0, -110.0)}
PILE_MM = (400.0, 225.0)
STOCK_MM = (615.0, 225.0)


# ----------------------------------------------------------------------------
# Table states

@dataclass(frozen=True)
class MacaoTable:
    pile: tuple[str, ...]
    fanned: frozenset = frozenset()     # indices of cards put down with the next one


def macao_states(script=MACAO_SCRIPT):
    """(step, state before, state after) for each step of a Macao script."""
    out = []
    state = None
    history = []
    for step in script:
        if step[0] == "start":
            new = MacaoTable((step[1],))
        elif step[0] == "play":
            n = len(state.pile)
            new = MacaoTable(state.pile + tuple(step[2]),
                             state.fanned | frozenset(range(n, n + len(step[2]) - 1)))
        elif step[0] == "takeback":
            new = history[-2]
        else:
            new = state
        out.append((step, state, new))
        history.append(new)
        state = new
    return out


def tintar_states(script=TINTAR_SCRIPT):
    out = []
    board: dict = {}
    history = []
    for step in script:
        if step[0] == "start":
            new = {}
        elif step[0] == "place":
            new = {**board, step[2]: "white" if step[1] == 0 else "black"}
        elif step[0] == "capture":
            new = {k: v for k, v in board.items() if k != step[2]}
        elif step[0] == "takeback":
            new = history[-2]
        else:
            raise ValueError(f"unknown Tintar step {step!r}")
        out.append((step, board, new))
        history.append(new)
        board = new
    return out


# ----------------------------------------------------------------------------
# Rendering

def _pile_cards(pile: tuple[str, ...], fanned: frozenset = frozenset()) -> list[dict]:
    """A neat pile: each card squarely on the one before, so that only the
    top card shows; cards put down together (``fanned``: their indices in
    the pile, all but the last) lie fanned out to the left so that both
    show."""
    cards = []
    for i, card in enumerate(pile):
        dx = -60.0 if i in fanned else 0.0
        cards.append({"card": card, "x": PILE_MM[0] + dx, "y": PILE_MM[1], "angle": PILE_ANGLE})
    return cards


@lru_cache(maxsize=64)
def render_macao(pile: tuple[str, ...], size: tuple[int, int] = OUT_SIZE, fanned: frozenset = frozenset(),
                 sliding: tuple = ()):
    """The Macao table: stock, pile and ``sliding`` cards ((card, x, y,
    angle), ...) on their way to the pile."""
    from vision.render import render_card_scene

    stock = [{"card": "AS", "x": STOCK_MM[0] + i * 1.5, "y": STOCK_MM[1] - i * 1.5, "angle": 90.0 + i,
              "face": "down"} for i in range(3)]
    moving = [{"card": c, "x": x, "y": y, "angle": a} for c, x, y, a in sliding]
    spec = {"cards": stock + _pile_cards(pile, fanned) + moving, "table_mm": list(TABLE_MM), "markers": True,
            "seed": 11,
            "noise": 1.5, "blur": 0.4, "jpeg": 92, "out_size": list(size), "margin": 0.04,
            "background": "felt", "lighting": "even", "tilt": 4.0}
    img, truth = render_card_scene(spec)
    return img, np.array(truth["H_mm_to_px"], np.float64)


TINTAR_CONDITIONS = {"table": "wood", "lighting": "even", "tilt": 5.0, "rotation": 0.0, "noise": 2.0,
                     "blur": 0.3, "jpeg": 92}


@lru_cache(maxsize=64)
def render_tintar_state(items: tuple, in_hand: tuple[int, int], captured: tuple[int, int]):
    from vision.render_boards import render_tintar

    from vision.render_boards import TINTAR_SIZE

    img, truth = render_tintar(dict(items), {"white": in_hand[0], "black": in_hand[1]},
                               {"white": captured[0], "black": captured[1]}, rng=7,
                               conditions=dict(TINTAR_CONDITIONS), scheme=None)
    # Board millimetres -> picture pixels, from the board's corners.
    S = TINTAR_SIZE
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [S, 0], [S, S], [0, S]]),
                                    np.float32(truth["corners_px"]))
    return img, H.astype(np.float64)


def paint_arm(img: np.ndarray, H: np.ndarray, start_mm, end_mm, reach: float, width_mm: float = 70.0):
    """A skin-coloured arm from ``start_mm`` towards ``end_mm`` (``reach`` of the way)."""
    out = img.copy()
    sx, sy = start_mm
    ex, ey = end_mm
    tx, ty = sx + (ex - sx) * reach, sy + (ey - sy) * reach
    d = np.array([tx - sx, ty - sy])
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
    w = width_mm / 2
    poly_mm = np.array([[sx, sy] + n * w, [tx, ty] + n * w * 0.8, [tx, ty] - n * w * 0.8, [sx, sy] - n * w])
    pts = cv2.perspectiveTransform(poly_mm[None], H)[0]
    cv2.fillPoly(out, [np.round(pts).astype(np.int32)], SKIN_BGR, cv2.LINE_AA)
    palm = cv2.perspectiveTransform(np.array([[[tx, ty]]], np.float64), H)[0, 0]
    r = abs(cv2.perspectiveTransform(np.array([[[tx + 45, ty]]], np.float64), H)[0, 0, 0] - palm[0])
    cv2.circle(out, (int(palm[0]), int(palm[1])), max(4, int(r)), SKIN_BGR, -1, cv2.LINE_AA)
    return out


# ----------------------------------------------------------------------------
# Frames

def _seat_zones(seat: int, target: str) -> tuple[str, ...]:
    zones = [f"seat{seat}", target]
    if seat == 1 and target == "stock":
        zones.insert(1, "pile")
    return tuple(zones)


def macao_frames() -> list:
    """The frame plan of the Macao script: plain tuples, made into pictures
    (or Observations) when asked for by :class:`Frames`."""
    plan = []
    for step, before, after in macao_states():
        kind = step[0]
        if kind == "request":
            plan.append(("cmd", "macao", after, {"cmd": "request", "value": step[2]}))
            continue
        if kind != "start":
            seat = step[1]
            target = "stock" if kind == "draw" else "pile"
            start = SEAT_EDGE_MM[seat] if kind != "draw" else (
                (STOCK_MM[0], SEAT_EDGE_MM[seat][1]) if seat != 1 else SEAT_EDGE_MM[1])
            end = STOCK_MM if kind == "draw" else PILE_MM
            for i, reach in enumerate((0.55, 0.8, 0.9, 0.5)):
                state = before if i < 2 else after
                sliding = ()
                if kind == "play" and i == 1:
                    # The card slides in under the hand on its way to the pile.
                    x = start[0] + (end[0] - start[0]) * 0.75
                    y = start[1] + (end[1] - start[1]) * 0.75
                    sliding = tuple((c, x + 12 * k, y, 20.0) for k, c in enumerate(step[2]))
                plan.append(("hand", "macao", state, start, end, reach, _seat_zones(seat, target), sliding))
        plan.extend([("still", "macao", after)] * STILL_FRAMES)
    return plan


def tintar_frames() -> list:
    """The frame plan of the Tintar script."""
    plan = []
    states = tintar_states()
    placed = [0, 0]
    last_placer = None
    for step, before, after in states:
        kind = step[0]
        if kind == "place":
            placed[step[1]] += 1
            last_placer = step[1]
        elif kind == "takeback":
            placed[last_placer] -= 1
        on = [sum(1 for v in after.values() if v == c) for c in ("white", "black")]
        in_hand = (9 - placed[0], 9 - placed[1])
        captured = (placed[0] - on[0], placed[1] - on[1])
        key_after = (tuple(sorted(after.items())), in_hand, captured)
        if kind != "start":
            seat = step[1]
            prev = plan[-1][2] if plan else key_after
            for i, reach in enumerate((0.55, 0.95, 0.9, 0.5)):
                plan.append(("hand", "tintar", prev if i < 2 else key_after, seat, reach))
        plan.extend([("still", "tintar", key_after)] * STILL_FRAMES)
    return plan


def _tintar_observation(key) -> Observation:
    from vision.render_boards import TINTAR_POINTS

    board = dict(key[0])
    return Observation({"board": {p: board.get(p) for p in TINTAR_POINTS}})


class Frames:
    """``frame_at(i)`` for a plan: a picture (mode "vision") or an
    Observation (mode "script"); None after the end."""

    def __init__(self, plan: list, mode: str = "vision", size=OUT_SIZE, on_command=None):
        if mode not in ("vision", "script"):
            raise ValueError(f"demo mode must be vision or script, not {mode!r}")
        self.on_command = on_command    # on_command(command, frame index) for a "cmd" item
        self.plan = plan
        self.mode = mode
        self.size = tuple(size)

    def __len__(self) -> int:
        return len(self.plan)

    def __call__(self, i: int):
        if i >= len(self.plan):
            return None
        item = self.plan[i]
        if item[0] == "cmd":
            # A command the camera cannot see (a Jack's request): sent, and
            # the table seen as it is meanwhile.
            if self.on_command is not None:
                self.on_command(item[3], i)
            item = ("still", item[1], item[2])
        if item[1] == "macao":
            return self._macao(item)
        return self._tintar(item)

    def _macao(self, item):
        if self.mode == "script":
            if item[0] == "hand":
                return Observation(None, True, item[6])
            return Observation({"pile": [item[2].pile[-1]] if item[2].fanned == frozenset() else
                                sorted(item[2].pile[i] for i in (*item[2].fanned, len(item[2].pile) - 1)),
                                "unsure": []})
        if item[0] == "hand":
            _, _, state, start, end, reach, _, sliding = item
            img, H = render_macao(state.pile, self.size, state.fanned, sliding)
            return paint_arm(img, H, start, end, reach)
        img, H = render_macao(item[2].pile, self.size, item[2].fanned)
        return img

    def _tintar(self, item):
        if self.mode == "script":
            if item[0] == "hand":
                return Observation(None, True, (f"seat{item[3]}",))
            return _tintar_observation(item[2])
        img, H = render_tintar_state(*item[2])
        if item[0] == "hand":
            from vision.render_boards import TINTAR_SIZE

            seat, reach = item[3], item[4]
            # Board millimetres: white sits at the bottom (rank 1), black at the top.
            start = (TINTAR_SIZE * 0.5, TINTAR_SIZE + 250) if seat == 0 else (TINTAR_SIZE * 0.5, -250)
            end = (TINTAR_SIZE * 0.5, TINTAR_SIZE * 0.5)
            return paint_arm(img, H, start, end, reach, width_mm=60)
        return img


def calibration_for(frame: np.ndarray):
    """Calibrate on the first picture of the Macao table (its ArUco markers)."""
    from vision.calibrate import calibrate

    return calibrate(frame, table_mm=TABLE_MM)

