"""Synthetic card scenes with exact ground truth, for tests, benchmarks, training and the demo.

Card artwork
    Real decks come from Debian's gnome-cards-data (``/usr/share/aisleriot/cards/*.svgz``,
    13 x 5 sheets: rows clubs, diamonds, hearts, spades, extras; columns A, 2..10, J, Q, K)
    and kdegames-card-data-kf5's xskat decks (``svg-xskat-french``, ``svg-xskat-german``).
    Each deck sheet is rendered once with ``rsvg-convert`` and cut into per-card PNGs
    cached under ``~/.cache/masa/cards/<deck>-<height>/`` (``$MASA_CACHE`` overrides
    ``~/.cache/masa``).  Deck ``"drawn"`` is drawn by OpenCV (rank text and pips) and
    needs nothing installed, so scenes render on a bare machine.

    German-suited xskat cards are named in Contract notation: ghindă (acorns) = S,
    verde (leaves) = C, roșu (hearts) = H, dubă (bells) = D; Unter = J, Ober = Q,
    König = K, Daus = A; the pack is 7 8 9 10 U O K D (32 cards).

    ``available_decks()``, ``deck_cards(deck)``, ``card_image(deck, card, height_px)``
    (BGRA), ``back_image(deck, height_px)``.  ``FRENCH_TRAIN_DECKS``,
    ``FRENCH_HELDOUT_DECKS`` and ``GERMAN_DECKS`` say which decks training may use;
    held-out decks are only for benchmarks.

Scenes
    ``render_card_scene(spec, ...) -> (image, truth)`` where ``spec`` is a seed (int),
    or a dict::

        {"cards": [{"card": "QH", "x": 300, "y": 200, "angle": 15, "face": "up"}, ...],
         # x, y: card centre in table mm; angle: degrees clockwise; later cards lie on top
         "deck": "anglo", "table_mm": [800, 450], "background": "felt",
         "lighting": "even", "tilt": 10, "rotation": 0, "noise": 2.0, "blur": 0.6,
         "jpeg": 90, "out_size": [1280, 720], "occluder": {"x": 400, "y": 450,
         "angle": -90, "length": 220} or None, "markers": False, "seed": 0}

    ``truth`` is a dict: ``cards`` (one per card, bottom to top: ``card``, ``face``,
    ``quad`` (4 x [x, y] image pixels: the card's top-left, top-right, bottom-right,
    bottom-left as printed), ``visible`` (fraction of the card not covered),
    ``index_visible`` (an index corner is entirely uncovered and inside the
    picture), ``index_corners_visible`` (the uncovered fraction of the top-left
    and bottom-right index boxes, ``index_box(deck)``: the rank and the suit sign),
    ``deck``), ``H_mm_to_px``, ``px_per_mm`` (mean scale), ``spec``.

    ``random_scene_spec(seed, condition=None, deck=None)`` builds a spec for one of
    ``CONDITIONS``: single, pile, trick, fan, meld, hand (a skin-coloured hand
    covering part of a card), facedown.  ``CARD_MM`` is the card size.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

from vision.calibrate import place_markers
from vision.imaging import LIGHTING_KINDS, TABLE_KINDS, apply_lighting, camera_view, sensor_effects, \
    table_background

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
CARDDECKS_DIR = Path("/usr/share/carddecks")
CARD_MM = (63.0, 88.0)
RANKS = "A23456789TJQK"
SUITS = "SHDC"
GERMAN_RANKS = "AKQJT987"
FRENCH_52 = [r + s for s in SUITS for r in RANKS]
GERMAN_32 = [r + s for s in SUITS for r in GERMAN_RANKS]
CONDITIONS = ("single", "pile", "trick", "fan", "meld", "hand", "facedown")
# Index box in card fractions (x0, y0, x1, y1) at the top-left; the bottom-right one is its 180° turn.
INDEX_BOX = (0.0, 0.0, 0.2, 0.3)
# Packs whose index is larger (measured on their artwork, every card's rank and suit sign inside, with
# a margin): with the common box their suit sign could lie under another card while the truth said the
# index was in view.
INDEX_BOXES = {"ornamental": (0.0, 0.0, 0.27, 0.45), "tango": (0.0, 0.0, 0.28, 0.39)}

# Decks training and tuning may use, and decks kept for benchmarks only.
FRENCH_TRAIN_DECKS = ("drawn", "anglo", "ornamental", "plastic", "neoclassical", "lattmann", "atlasnye",
                      "guyenne-classic", "tango", "rheinland", "gnomangelo", "anglo_poker", "xskat-french",
                      "ancient_french")
FRENCH_HELDOUT_DECKS = ("paris", "bellot", "dondorf", "simplistic", "berlin", "tigullio", "orell",
                        "anglo_modern")
GERMAN_DECKS = ("xskat-german",)
# Packs whose jacks, queens and kings print a suit sign in the corner and no rank letter: the
# figure alone tells the rank, so such a card cannot be named from its index corner.
RANKLESS_COURT_DECKS = ("guyenne-classic",)
# Sheets whose layout is not a French 52-card index pack (Swiss, tarot, image-only aces).
_NOT_FRENCH = {"swiss-xvii", "tarocco", "slavic_costumes", "tango_nuevo", "atlasnye_skat", "Атласные",
               "anglo_bitmap", "gnomangelo_bitmap", "anglo_modern_4_color", "neoclassical_4_color"}


def _cache_root() -> Path:
    return Path(os.environ.get("MASA_CACHE", Path.home() / ".cache" / "masa")) / "cards"


def _deck_source(deck: str):
    """(svg path, layout) for an installed deck, or None."""
    if deck == "xskat-german":
        p = CARDDECKS_DIR / "svg-xskat-german" / "german.svgz"
        return (p, "xskat-german") if p.exists() else None
    if deck == "xskat-french":
        p = CARDDECKS_DIR / "svg-xskat-french" / "french.svgz"
        return (p, "xskat-french") if p.exists() else None
    p = AISLERIOT_DIR / f"{deck}.svgz"
    return (p, "aisleriot") if p.exists() else None


def have_rsvg() -> bool:
    return shutil.which("rsvg-convert") is not None


def available_decks() -> list[str]:
    """Deck names that can be rendered here ("drawn" always)."""
    decks = ["drawn"]
    if have_rsvg():
        for d in FRENCH_TRAIN_DECKS + FRENCH_HELDOUT_DECKS + GERMAN_DECKS:
            if d != "drawn" and _deck_source(d) is not None:
                decks.append(d)
    return decks


def is_german(deck: str) -> bool:
    return deck in GERMAN_DECKS


def deck_cards(deck: str) -> list[str]:
    return list(GERMAN_32 if is_german(deck) else FRENCH_52)


def _layout_cell(layout: str, card: str) -> tuple[int, int]:
    """(row, column) of a card (or "back") on a 13 x 5 deck sheet."""
    if layout == "aisleriot":
        if card == "back":
            return 4, 2
        return "CDHS".index(card[1]), RANKS.index(card[0])
    order = "AKQJT98765432"
    if layout == "xskat-german":
        if card == "back":
            return 4, 0
        return "HDCS".index(card[1]), order.index(card[0])
    if card == "back":                      # xskat-french
        return 4, 0
    return "CSHD".index(card[1]), order.index(card[0])


def _render_sheet(svgz: Path, width_px: int) -> np.ndarray:
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "deck.svg"
        svg.write_bytes(gzip.decompress(svgz.read_bytes()))
        out = Path(tmp) / "sheet.png"
        subprocess.run(["rsvg-convert", "-w", str(width_px), "-o", str(out), str(svg)], check=True,
                       capture_output=True, timeout=300)
        img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise RuntimeError(f"rsvg-convert gave no RGBA sheet for {svgz}")
    return img


def _cut_cell(sheet: np.ndarray, row: int, col: int) -> np.ndarray:
    h, w = sheet.shape[:2]
    cw, ch = w / 13.0, h / 5.0
    x0, y0 = int(round(col * cw)), int(round(row * ch))
    cell = sheet[y0:int(round((row + 1) * ch)), x0:int(round((col + 1) * cw))]
    alpha = (cell[:, :, 3] > 128).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(alpha)
    if n < 2:
        raise RuntimeError("empty cell on the deck sheet")
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh = stats[k, :4]
    return cell[y:y + bh, x:x + bw].copy()


def _ensure_deck_cache(deck: str, height_px: int) -> Path:
    folder = _cache_root() / f"{deck}-{height_px}"
    marker = folder / "complete"
    if marker.exists():
        return folder
    src = _deck_source(deck)
    if src is None or not have_rsvg():
        raise FileNotFoundError(f"deck {deck!r} needs gnome-cards-data / kdegames-card-data-kf5 and "
                                f"librsvg2-bin (rsvg-convert)")
    path, layout = src
    # Cards are about 1.55 x as tall as wide; size the sheet so a card is height_px tall.
    sheet = _render_sheet(path, int(13 * height_px / 1.45))
    cell_h = sheet.shape[0] / 5.0
    scale = height_px / (cell_h * 0.985)
    if abs(scale - 1.0) > 0.02:
        sheet = _render_sheet(path, int(sheet.shape[1] * scale))
    folder.mkdir(parents=True, exist_ok=True)
    for card in deck_cards(deck) + ["back"]:
        img = _cut_cell(sheet, *_layout_cell(layout, card))
        cv2.imwrite(str(folder / f"{card}.png"), img)
    marker.write_text("ok\n")
    return folder


# ------------------------------------------------------- drawn (no artwork) --

def _suit_shape(img, suit: str, cx: float, cy: float, size: float, color, flip: bool = False) -> None:
    """Draw a suit symbol of height ``size`` centred at (cx, cy)."""
    s = size / 2.0
    sign = -1 if flip else 1
    def P(x, y):
        return (int(round((cx + x) * (1 << 4))), int(round((cy + sign * y) * (1 << 4))))

    def circle(x, y, r):
        cv2.circle(img, P(x, y), int(round(r * 16)), color, -1, cv2.LINE_AA, 4)

    def poly(points):
        cv2.fillPoly(img, [np.array([P(x, y) for x, y in points], np.int32)], color, cv2.LINE_AA, 4)

    if suit == "D":
        poly([(0, -s), (0.72 * s, 0), (0, s), (-0.72 * s, 0)])
    elif suit == "H":
        circle(-0.45 * s, -0.35 * s, 0.5 * s)
        circle(0.45 * s, -0.35 * s, 0.5 * s)
        poly([(-0.93 * s, -0.2 * s), (0.93 * s, -0.2 * s), (0, s)])
    elif suit == "S":
        circle(-0.45 * s, 0.2 * s, 0.48 * s)
        circle(0.45 * s, 0.2 * s, 0.48 * s)
        poly([(-0.9 * s, 0.08 * s), (0.9 * s, 0.08 * s), (0, -s)])
        poly([(0, 0.3 * s), (0.35 * s, s), (-0.35 * s, s)])
    else:  # C
        circle(0, -0.45 * s, 0.42 * s)
        circle(-0.48 * s, 0.15 * s, 0.42 * s)
        circle(0.48 * s, 0.15 * s, 0.42 * s)
        poly([(0, 0.0), (0.33 * s, s), (-0.33 * s, s)])


_DRAWN_STYLES = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
                 cv2.FONT_HERSHEY_COMPLEX]


def drawn_card(card: str, height_px: int, style: int = 0) -> np.ndarray:
    """A card drawn with OpenCV primitives (BGRA): index corners, pips or a court letter."""
    h = int(height_px)
    w = int(round(h * CARD_MM[0] / CARD_MM[1]))
    img = np.zeros((h, w, 4), np.uint8)
    r = int(0.05 * w)
    cv2.rectangle(img, (r, 0), (w - 1 - r, h - 1), (255, 255, 255, 255), -1)
    cv2.rectangle(img, (0, r), (w - 1, h - 1 - r), (255, 255, 255, 255), -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(img, (x, y), r, (255, 255, 255, 255), -1, cv2.LINE_AA)
    cv2.rectangle(img, (r, 0), (w - 1 - r, 1), (90, 90, 90, 255), -1)
    cv2.rectangle(img, (r, h - 2), (w - 1 - r, h - 1), (90, 90, 90, 255), -1)
    cv2.rectangle(img, (0, r), (1, h - 1 - r), (90, 90, 90, 255), -1)
    cv2.rectangle(img, (w - 2, r), (w - 1, h - 1 - r), (90, 90, 90, 255), -1)
    rank, suit = card[0], card[1]
    color = (30, 30, 200, 255) if suit in "HD" else (25, 25, 25, 255)
    font = _DRAWN_STYLES[style % len(_DRAWN_STYLES)]
    text = "10" if rank == "T" else rank
    face = np.zeros_like(img)
    th = 0.11 * h
    scale = cv2.getFontScaleFromHeight(font, int(th), 2)
    (tw, _), _ = cv2.getTextSize(text, font, scale, 2)
    cx = 0.09 * w
    cv2.putText(face, text, (int(cx - tw / 2), int(0.035 * h + th)), font, scale, color, max(1, h // 120),
                cv2.LINE_AA)
    _suit_shape(face, suit, cx, 0.035 * h + th + 0.07 * h, 0.075 * h, color)
    rotated = cv2.rotate(face, cv2.ROTATE_180)
    face = np.maximum(face, rotated)
    if rank in "JQK":
        big = cv2.getFontScaleFromHeight(font, int(0.3 * h), 4)
        (bw, _), _ = cv2.getTextSize(rank, font, big, 4)
        cv2.rectangle(face, (int(0.22 * w), int(0.18 * h)), (int(0.78 * w), int(0.82 * h)), color, 2)
        cv2.putText(face, rank, (int(w / 2 - bw / 2), int(0.65 * h)), font, big, color, 4, cv2.LINE_AA)
    else:
        n = 1 if rank == "A" else int(text)
        cols = 1 if n <= 3 else 2 if n <= 8 else 3
        rows_n = int(np.ceil(n / cols))
        size = (0.22 if n == 1 else 0.1) * h
        k = 0
        for i in range(rows_n):
            for j in range(cols):
                if k >= n:
                    break
                x = w * (0.5 if cols == 1 else 0.3 + 0.4 * j / (cols - 1))
                y = h * (0.5 if rows_n == 1 else 0.25 + 0.5 * i / (rows_n - 1))
                _suit_shape(face, suit, x, y, size, color, flip=y > h / 2)
                k += 1
    ink = face[:, :, 3] > 0
    img[ink] = face[ink]
    return img


def drawn_back(height_px: int, style: int = 0) -> np.ndarray:
    h = int(height_px)
    w = int(round(h * CARD_MM[0] / CARD_MM[1]))
    colors = [((150, 40, 30), (220, 200, 190)), ((30, 30, 160), (200, 200, 235)), ((40, 110, 40), (210, 230, 210))]
    dark, light = colors[style % len(colors)]
    img = drawn_card("AS", h)
    inner = np.zeros((h, w, 3), np.uint8)
    inner[:] = dark
    step = max(4, h // 30)
    for k in range(-h, w + h, step):
        cv2.line(inner, (k, 0), (k + h, h), light, 1, cv2.LINE_AA)
        cv2.line(inner, (k, h), (k + h, 0), light, 1, cv2.LINE_AA)
    m = int(0.05 * w)
    img[m:h - m, m:w - m, :3] = inner[m:h - m, m:w - m]
    return img


# -------------------------------------------------------------- card images --

_IMAGE_CACHE: dict = {}


def card_image(deck: str, card: str, height_px: int = 300) -> np.ndarray:
    """The card's face as a BGRA image ``height_px`` tall."""
    key = (deck, card, height_px)
    if key in _IMAGE_CACHE:
        return _IMAGE_CACHE[key]
    if deck == "drawn" or deck.startswith("drawn"):
        style = int(deck[5:]) if deck[5:].isdigit() else 0
        img = back_image(deck, height_px) if card == "back" else drawn_card(card, height_px, style)
    else:
        if card != "back" and card not in deck_cards(deck):
            raise ValueError(f"deck {deck!r} has no card {card!r}")
        folder = _ensure_deck_cache(deck, height_px)
        img = cv2.imread(str(folder / f"{card}.png"), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise FileNotFoundError(f"{folder / (card + '.png')} is missing; delete {folder} and retry")
        if img.ndim == 2 or img.shape[2] == 3:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA if img.ndim == 2 else cv2.COLOR_BGR2BGRA)
    _IMAGE_CACHE[key] = img
    return img


def back_image(deck: str, height_px: int = 300) -> np.ndarray:
    if deck.startswith("drawn"):
        key = (deck, "back", height_px)
        if key not in _IMAGE_CACHE:
            style = int(deck[5:]) if deck[5:].isdigit() else 0
            _IMAGE_CACHE[key] = drawn_back(height_px, style)
        return _IMAGE_CACHE[key]
    return card_image(deck, "back", height_px)


# ------------------------------------------------------------------- scenes --

_SKIN = [(120, 160, 215), (95, 135, 190), (140, 180, 230), (70, 100, 150)]


def _card_corners_mm(x: float, y: float, angle: float, size=CARD_MM) -> np.ndarray:
    """Corners TL, TR, BR, BL of a card centred at (x, y) mm turned ``angle`` degrees clockwise."""
    w, h = size
    a = np.deg2rad(angle)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ R.T + [x, y]


def _composite(table: np.ndarray, labels: np.ndarray, rgba: np.ndarray, M: np.ndarray, label: int,
               shadow: float, rng) -> None:
    """Warp ``rgba`` by affine ``M`` onto ``table`` (in place) with a soft shadow; write ``label``."""
    th, tw = table.shape[:2]
    h, w = rgba.shape[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ M.T
    pad = int(6 + shadow * 3)
    x0 = max(0, int(np.floor(corners[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(corners[:, 1].min())) - pad)
    x1 = min(tw, int(np.ceil(corners[:, 0].max())) + pad)
    y1 = min(th, int(np.ceil(corners[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return
    Mr = M.copy()
    Mr[:, 2] -= [x0, y0]
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(rgba, Mr, size, flags=cv2.INTER_AREA if M[0, 0] ** 2 + M[0, 1] ** 2 < 1
                            else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    roi = table[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        sh = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), shadow)
        dx, dy = int(round(shadow * 0.6)), int(round(shadow * 0.8))
        sh = np.roll(np.roll(sh, dy, axis=0), dx, axis=1)
        roi *= (1.0 - 0.35 * sh)[:, :, None]
    roi = roi * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
    table[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    labels[y0:y1, x0:x1][alpha[:, :, 0] > 0.5] = label


def _draw_hand(table: np.ndarray, labels: np.ndarray, ppm: float, occ: dict, rng) -> None:
    """A skin-coloured forearm + hand reaching from (x, y) mm towards ``angle``."""
    colour = np.array(occ.get("colour", _SKIN[int(rng.integers(len(_SKIN)))]), np.float64)
    x, y = occ["x"] * ppm, occ["y"] * ppm
    a = np.deg2rad(occ.get("angle", -90))
    length = occ.get("length", 200) * ppm
    d = np.array([np.cos(a), np.sin(a)])
    n = np.array([-d[1], d[0]])
    mask = np.zeros(labels.shape, np.uint8)
    wrist = np.array([x, y]) + d * length * 0.7
    arm_w = 38 * ppm
    arm = np.array([[x, y] + n * arm_w, [x, y] - n * arm_w, wrist - n * arm_w * 0.85, wrist + n * arm_w * 0.85])
    cv2.fillPoly(mask, [np.round(arm).astype(np.int32)], 255, cv2.LINE_AA)
    palm = wrist + d * 40 * ppm
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(48 * ppm), int(42 * ppm)), float(np.rad2deg(a)), 0, 360,
                255, -1, cv2.LINE_AA)
    for k, off in enumerate((-30, -10, 10, 30)):
        base = palm + n * off * ppm + d * 30 * ppm
        tip = base + d * (55 + 10 * (k in (1, 2))) * ppm
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, int(17 * ppm), cv2.LINE_AA)
    thumb = palm + n * 45 * ppm
    cv2.line(mask, tuple(int(v) for v in palm), tuple(int(v) for v in (thumb + d * 25 * ppm + n * 20 * ppm)), 255,
             int(20 * ppm), cv2.LINE_AA)
    m = mask.astype(np.float32) / 255.0
    shade = 0.85 + 0.15 * cv2.GaussianBlur(m, (0, 0), 8 * ppm)
    sh = cv2.GaussianBlur(m, (0, 0), 6 * ppm)
    f = table.astype(np.float32) * (1 - 0.4 * np.roll(np.roll(sh, int(8 * ppm), 0), int(6 * ppm), 1))[:, :, None]
    skin = colour[None, None, :] * shade[:, :, None]
    f = f * (1 - m[:, :, None]) + skin * m[:, :, None]
    table[:] = np.clip(f, 0, 255).astype(np.uint8)
    labels[m > 0.5] = -1


DEFAULTS = {"deck": None, "table_mm": [800.0, 450.0], "background": "felt", "lighting": "even", "tilt": 0.0,
            "rotation": 0.0, "noise": 2.0, "blur": 0.5, "jpeg": 92, "out_size": [1280, 720], "occluder": None,
            "markers": False, "seed": 0, "px_per_mm": 2.5}


def render_card_scene(spec, **overrides) -> tuple[np.ndarray, dict]:
    """Render a scene (a spec dict or a seed for ``random_scene_spec``); returns (BGR image, truth)."""
    if isinstance(spec, (int, np.integer)):
        spec = random_scene_spec(int(spec))
    spec = {**DEFAULTS, **spec, **overrides}
    rng = np.random.default_rng(spec["seed"])
    deck = spec["deck"] or default_deck()
    ppm = float(spec["px_per_mm"])
    tw_mm, th_mm = float(spec["table_mm"][0]), float(spec["table_mm"][1])
    tw, th = int(round(tw_mm * ppm)), int(round(th_mm * ppm))
    table = table_background(spec["background"], (tw, th), rng)
    if spec["markers"]:
        table = place_markers(table, ppm, table_mm=(tw_mm, th_mm))
    labels = np.full((th, tw), 0, np.int16)
    card_h_px = int(np.clip(round(CARD_MM[1] * ppm * 1.3), 120, 400))
    card_h_px = 300 if card_h_px > 200 else 150
    entries = []
    for i, c in enumerate(spec["cards"]):
        face = c.get("face", "up")
        cdeck = c.get("deck", deck)
        img = back_image(cdeck, card_h_px) if face == "down" else card_image(cdeck, c["card"], card_h_px)
        h, w = img.shape[:2]
        size_mm = (CARD_MM[1] * w / h, CARD_MM[1])
        corners_mm = _card_corners_mm(c["x"], c["y"], c.get("angle", 0.0), size_mm)
        src = np.array([[0, 0], [w, 0], [w, h]], np.float32)
        M = cv2.getAffineTransform(src, (corners_mm[:3] * ppm).astype(np.float32))
        _composite(table, labels, img, M, i + 1, shadow=float(spec.get("shadow", 1.2)) * ppm, rng=rng)
        # the card's own footprint (rounded corners excluded) before anything covers it
        footprint = [_count_in_poly(labels, i + 1, corners_mm * ppm)]
        footprint += [_count_in_poly(labels, i + 1, box * ppm) for box in _index_boxes_mm(corners_mm, cdeck)]
        entries.append((c, face, cdeck, corners_mm, size_mm, footprint))
    if spec["occluder"]:
        _draw_hand(table, labels, ppm, spec["occluder"], rng)
    table = apply_lighting(table, spec["lighting"], rng)
    img, H_tpx = camera_view(table, float(spec["tilt"]), float(spec["rotation"]), tuple(spec["out_size"]), rng,
                             margin=float(spec.get("margin", -0.02)))
    img = sensor_effects(img, rng, noise=spec["noise"], blur=spec["blur"], jpeg_quality=spec["jpeg"])
    S = np.array([[ppm, 0, -0.5], [0, ppm, -0.5], [0, 0, 1.0]])
    H = H_tpx @ S
    ow, oh = spec["out_size"]
    truth_cards = []
    in_frame = _in_frame_mask(H_tpx, (tw, th), (ow, oh))
    seen_labels = np.where(in_frame, labels, 0)
    for i, (c, face, cdeck, corners_mm, size_mm, footprint) in enumerate(entries):
        quad = cv2.perspectiveTransform(corners_mm[None].astype(np.float64), H)[0]
        visible = _count_in_poly(seen_labels, i + 1, corners_mm * ppm) / max(1, footprint[0])
        corners_seen = [round(_count_in_poly(seen_labels, i + 1, box * ppm) / max(1, n), 3)
                        for box, n in zip(_index_boxes_mm(corners_mm, cdeck), footprint[1:])]
        index_ok = face == "up" and max(corners_seen) >= 0.97
        truth_cards.append({"card": c.get("card"), "face": face,
                            "quad": quad.round(2).tolist(), "visible": round(min(1.0, visible), 4),
                            "index_visible": index_ok, "index_corners_visible": corners_seen, "deck": cdeck})
    truth = {"cards": truth_cards, "H_mm_to_px": H.tolist(), "px_per_mm": _mean_scale(H, tw_mm, th_mm),
             "spec": spec}
    return img, truth


def _count_in_poly(labels: np.ndarray, label: int, poly_px: np.ndarray) -> int:
    """Pixels of ``label`` inside a polygon (table pixels), counted in its bounding box only."""
    h, w = labels.shape
    x0, y0 = np.maximum(0, np.floor(poly_px.min(axis=0)).astype(int))
    x1, y1 = np.minimum([w, h], np.ceil(poly_px.max(axis=0)).astype(int) + 1)
    if x1 <= x0 or y1 <= y0:
        return 0
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(m, [np.round(poly_px - [x0, y0]).astype(np.int32)], 1)
    return int(np.count_nonzero((labels[y0:y1, x0:x1] == label) & (m > 0)))


def _mean_scale(H: np.ndarray, w_mm: float, h_mm: float) -> float:
    c = np.array([[[w_mm / 2, h_mm / 2], [w_mm / 2 + 1, h_mm / 2], [w_mm / 2, h_mm / 2 + 1]]], np.float64)
    p = cv2.perspectiveTransform(c, H)[0]
    return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def _in_frame_mask(H_tpx: np.ndarray, table_size, out_size) -> np.ndarray:
    """Table pixels that land inside the output picture."""
    ow, oh = out_size
    frame = np.array([[[0, 0], [ow, 0], [ow, oh], [0, oh]]], np.float64)
    back = cv2.perspectiveTransform(frame, np.linalg.inv(H_tpx))[0]
    m = np.zeros((table_size[1], table_size[0]), np.uint8)
    cv2.fillPoly(m, [np.round(back).astype(np.int32)], 1)
    return m.astype(bool)


def index_box(deck: str) -> tuple[float, float, float, float]:
    """The top-left index box of a pack's cards, in card fractions (x0, y0, x1, y1)."""
    return INDEX_BOXES.get(deck, INDEX_BOX)


def _index_boxes_mm(corners_mm: np.ndarray, deck: str) -> list[np.ndarray]:
    tl, tr, br, bl = corners_mm
    ex, ey = tr - tl, bl - tl
    x0, y0, x1, y1 = index_box(deck)
    a = np.array([tl + ex * x0 + ey * y0, tl + ex * x1 + ey * y0, tl + ex * x1 + ey * y1, tl + ex * x0 + ey * y1])
    b = np.array([br - ex * x0 - ey * y0, br - ex * x1 - ey * y0, br - ex * x1 - ey * y1, br - ex * x0 - ey * y1])
    return [a, b]


def default_deck() -> str:
    decks = available_decks()
    return "anglo" if "anglo" in decks else "drawn"


# --------------------------------------------------------- random scenes ----

def _free_spot(rng, placed, table_mm, radius, tries=60):
    w, h = table_mm
    for _ in range(tries):
        x = rng.uniform(radius + 10, w - radius - 10)
        y = rng.uniform(radius + 10, h - radius - 10)
        if all((x - px) ** 2 + (y - py) ** 2 > (radius + pr) ** 2 for px, py, pr in placed):
            return x, y
    return None


def random_scene_spec(seed: int, condition: str | None = None, deck: str | None = None,
                      decks=None) -> dict:
    """A random scene for ``condition`` (see CONDITIONS); the same seed gives the same scene."""
    rng = np.random.default_rng(seed)
    if condition is None:
        condition = CONDITIONS[int(rng.integers(len(CONDITIONS)))]
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; choose one of {CONDITIONS}")
    if deck is None:
        pool = list(decks) if decks else available_decks()
        deck = pool[int(rng.integers(len(pool)))]
    pack = deck_cards(deck)
    order = list(rng.permutation(pack))
    table_mm = [float(rng.uniform(620, 820)), 0.0]
    table_mm[1] = round(table_mm[0] * 9 / 16, 1)
    W, H = table_mm
    cards: list[dict] = []
    occluder = None

    def take():
        return str(order.pop())

    if condition in ("single", "facedown"):
        placed = []
        n = int(rng.integers(1, 5))
        for _ in range(n):
            spot = _free_spot(rng, placed, table_mm, 58)
            if spot is None:
                break
            placed.append((*spot, 58))
            down = condition == "facedown" and rng.random() < 0.7
            cards.append({"card": take(), "x": spot[0], "y": spot[1], "angle": float(rng.uniform(-180, 180)),
                          "face": "down" if down else "up"})
        if condition == "facedown":            # a face-down stock pile as well
            spot = _free_spot(rng, placed, table_mm, 60)
            if spot is not None:
                base = float(rng.uniform(-180, 180))
                for _ in range(int(rng.integers(2, 6))):
                    cards.append({"card": take(), "x": spot[0] + rng.normal(0, 1.5), "y": spot[1] + rng.normal(0, 1.5),
                                  "angle": base + rng.normal(0, 3), "face": "down"})
    elif condition == "pile":
        cx, cy = rng.uniform(W * 0.3, W * 0.7), rng.uniform(H * 0.35, H * 0.65)
        for _ in range(int(rng.integers(2, 8))):
            cards.append({"card": take(), "x": cx + rng.normal(0, 6), "y": cy + rng.normal(0, 6),
                          "angle": float(rng.uniform(-180, 180)), "face": "up"})
    elif condition == "trick":
        cx, cy = rng.uniform(W * 0.35, W * 0.65), rng.uniform(H * 0.4, H * 0.6)
        n = int(rng.integers(2, 5))
        start = rng.uniform(0, 360)
        for k in range(n):
            a = np.deg2rad(start + k * 360 / n + rng.normal(0, 8))
            r = rng.uniform(22, 40)
            cards.append({"card": take(), "x": cx + r * np.cos(a), "y": cy + r * np.sin(a),
                          "angle": float(np.rad2deg(a) - 90 + rng.normal(0, 15)), "face": "up"})
    elif condition == "fan":
        n = int(rng.integers(4, 10))
        px, py = rng.uniform(W * 0.35, W * 0.65), rng.uniform(H * 0.55, H * 0.75)
        base = rng.uniform(-25, 25)
        spread = rng.uniform(9, 14)
        radius = rng.uniform(55, 75)
        for k in range(n):
            a = base + (k - (n - 1) / 2) * spread
            ar = np.deg2rad(a)
            cards.append({"card": take(), "x": px + radius * np.sin(ar), "y": py - radius * np.cos(ar),
                          "angle": float(a), "face": "up"})
    elif condition == "meld":
        n = int(rng.integers(3, 7))
        step = rng.uniform(16, 24)
        ang = float(rng.uniform(-20, 20))
        x0, y0 = rng.uniform(W * 0.15, W * 0.4), rng.uniform(H * 0.3, H * 0.7)
        d = np.array([np.cos(np.deg2rad(ang)), np.sin(np.deg2rad(ang))])
        for k in range(n):
            cards.append({"card": take(), "x": x0 + d[0] * step * k, "y": y0 + d[1] * step * k, "angle": ang,
                          "face": "up"})
    elif condition == "hand":
        placed = []
        for _ in range(int(rng.integers(2, 5))):
            spot = _free_spot(rng, placed, table_mm, 58)
            if spot is None:
                break
            placed.append((*spot, 58))
            cards.append({"card": take(), "x": spot[0], "y": spot[1], "angle": float(rng.uniform(-180, 180)),
                          "face": "up"})
        target = cards[int(rng.integers(len(cards)))]
        side = int(rng.integers(4))
        edge = [(target["x"], H + 5), (target["x"], -5), (-5, target["y"]), (W + 5, target["y"])][side]
        dist = np.hypot(target["x"] - edge[0], target["y"] - edge[1])
        ang = np.rad2deg(np.arctan2(target["y"] - edge[1], target["x"] - edge[0]))
        occluder = {"x": edge[0], "y": edge[1], "angle": float(ang + rng.normal(0, 10)),
                    "length": float(max(60.0, dist - rng.uniform(40, 110)))}
    spec = {"cards": cards, "deck": deck, "table_mm": table_mm,
            "background": TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))],
            "lighting": LIGHTING_KINDS[int(rng.integers(len(LIGHTING_KINDS)))],
            "tilt": float(rng.uniform(0, 30)), "rotation": float(rng.uniform(-8, 8)),
            "noise": float(rng.uniform(0.5, 5)), "blur": float(rng.uniform(0.0, 1.2)),
            "jpeg": int(rng.integers(60, 96)), "out_size": [1280, 720], "occluder": occluder,
            "markers": False, "seed": int(seed), "condition": condition}
    return spec
