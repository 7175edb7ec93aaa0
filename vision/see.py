"""One picture in, Contract 2 out: ``see(image, kind, calibration)`` and ``annotate(image, result)``.

``see`` returns the Contract 2 object without the file-level keys (image,
width, height, ms, which ``masa see`` adds): ``{"cards": [...]}`` for
kind "cards" (vision.cards), ``{"table": {...}}`` for "table"
(vision.backgammon), ``{"tintar": {...}}`` for "tintar" (vision.morris),
``{"tiles": [...]}`` for "tiles" (vision.tiles).  The board and tile readers
are imported only when asked for; one that is not installed gives
``SeeError("... not available")``.

``annotate`` draws what was read onto a copy of the picture: every card quad
with its card and confidence (green: read; orange: face up, not read; blue:
face down), or the board reader's own drawing.
"""

from __future__ import annotations

import importlib

import cv2
import numpy as np

from vision.imaging import check_frame

KINDS = {"cards": ("vision.cards", "cards"), "table": ("vision.backgammon", "table"),
         "tintar": ("vision.morris", "tintar"), "tiles": ("vision.tiles", "tiles")}


class SeeError(ValueError):
    """A kind that is unknown or whose reader is not available."""


def _reader(kind: str):
    if kind not in KINDS:
        raise SeeError(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)} "
                       f"/ tip necunoscut {kind!r}")
    module_name, key = KINDS[kind]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise SeeError(f"reading {kind!r} is not available ({module_name} is not installed) "
                       f"/ citirea {kind!r} nu este disponibilă") from exc
    return module, key


def see(image: np.ndarray, kind: str = "cards", calibration=None, threshold: float | None = None) -> dict:
    """Read one picture; returns {"cards": [...]} or {"table"|"tintar"|"tiles": ...}."""
    img = check_frame(image)
    module, key = _reader(kind)
    if kind == "cards":
        kwargs = {} if threshold is None else {"threshold": threshold}
        return {"cards": module.find_cards(img, **kwargs)}
    return {key: module.read(img, calibration=calibration)}


_COLOURS = {"read": (60, 200, 60), "unread": (0, 150, 255), "down": (255, 120, 0)}


def annotate(image: np.ndarray, result: dict) -> np.ndarray:
    """A copy of the picture with what ``see`` found drawn on it."""
    out = check_frame(image).copy()
    for kind, (module_name, key) in KINDS.items():
        if key in result and kind != "cards":
            module, _ = _reader(kind)
            out = module.annotate(out, result[key])
    thick = max(1, round(out.shape[1] / 900))
    font_scale = max(0.4, out.shape[1] / 2400)
    for c in result.get("cards", []):
        quad = np.round(np.asarray(c["quad"], np.float64)).astype(np.int32)
        if c.get("face") == "down":
            colour, label = _COLOURS["down"], "down"
        elif c.get("card"):
            colour, label = _COLOURS["read"], f"{c['card']} {c.get('confidence', 0):.2f}"
        else:
            colour, label = _COLOURS["unread"], f"? {c.get('confidence', 0):.2f}"
        cv2.polylines(out, [quad], True, colour, 2 * thick, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in quad[0]), 3 * thick, colour, -1, cv2.LINE_AA)
        cx, cy = quad.mean(axis=0).astype(int)
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)
        org = (int(cx - tw / 2), int(cy + th / 2))
        cv2.rectangle(out, (org[0] - 2, org[1] - th - 3), (org[0] + tw + 2, org[1] + 4), (0, 0, 0), -1)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour, thick, cv2.LINE_AA)
    return out
