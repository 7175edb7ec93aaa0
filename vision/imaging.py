"""Image input and the scene conditions shared by every renderer in vision/.

Stable API (other modules build on it; keep the signatures):

Loading and checking
    ``ImageError(ValueError)``
        Raised for anything that is not a usable picture; the message says
        what is wrong (missing file, empty file, truncated JPEG/PNG, unknown
        format, too large ...), in English and Romanian.
    ``load_image(path, max_side=MAX_SIDE) -> np.ndarray``
        Reads any format OpenCV decodes (JPEG, PNG, BMP, TIFF, WebP, ...) and
        returns a contiguous BGR ``uint8`` array.  Greyscale is expanded to
        three channels, 16-bit and float images are scaled to 8 bits, an
        alpha channel is composed over white.  Images whose longest side is
        above ``max_side`` are rejected (checked from the file header before
        decoding, so a 20000-pixel picture costs no memory).
    ``check_frame(array, max_side=MAX_SIDE) -> np.ndarray``
        The same checks and conversions for an array that came from a camera.

Scene conditions (``rng`` is a ``numpy.random.Generator`` or an int seed)
    ``table_background(kind, size, rng) -> BGR image``
        ``kind`` in ``TABLE_KINDS``: "felt" (green baize), "wood", "white"
        (white cloth with folds) or "pattern" (checked / dotted cloth);
        ``size`` is ``(width, height)`` in pixels.
    ``apply_lighting(img, kind, rng, glare_centre=None) -> BGR image``
        ``kind`` in ``LIGHTING_KINDS``: "even", "warm" (tungsten lamp with
        fall-off), "daylight" (cool, bright), "shadow" (a soft dark region
        such as a head or arm) or "glare" (a specular hot spot, centred on
        ``glare_centre`` (x, y) pixels when given).
    ``camera_view(img_table, tilt_deg, rotation, out_size, rng, margin=0.04,
                  floor=(40, 40, 40)) -> (img, H_table_to_px)``
        Views the flat table picture with a pinhole camera tilted
        ``tilt_deg`` from overhead (towards a random direction) and turned
        ``rotation`` degrees about the vertical, scaled so the whole table
        fits in ``out_size`` = ``(width, height)`` with ``margin``.  Returns
        the picture and the 3x3 homography from table-image pixels to output
        pixels.
    ``sensor_effects(img, rng, noise=0.0, blur=0.0, jpeg_quality=None)``
        Gaussian sensor noise (sigma in grey levels), Gaussian defocus blur
        (sigma in pixels) and JPEG loss (quality 1-100); each off when 0/None.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

MAX_SIDE = 8000
SATURATED = 250          # grey level of a blown-out pixel (a lamp's glare): the board readers' one cut
TABLE_KINDS = ("felt", "wood", "white", "pattern")
LIGHTING_KINDS = ("even", "warm", "daylight", "shadow", "glare")


class ImageError(ValueError):
    """A file or array that is not a usable picture."""


def _rng(rng) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


# ---------------------------------------------------------------- loading --

def _header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) read from a PNG, JPEG, BMP or GIF header, or None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(w), abs(h)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return w, h
    if data[:2] == b"\xff\xd8":
        i = 2
        n = len(data)
        while i + 4 <= n:
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                i += 1 if marker == 0xFF else 2
                continue
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB,
                          0xCD, 0xCE, 0xCF) and i + 9 <= n:
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return w, h
            i += 2 + length
    return None


def _truncated(data: bytes) -> bool:
    """True when a JPEG lacks its end marker or a PNG lacks its IEND chunk."""
    if data[:2] == b"\xff\xd8":
        return b"\xff\xd9" not in data[-4096:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-64:]
    return False


def _too_large(w: int, h: int, max_side: int, what: str) -> ImageError:
    return ImageError(
        f"{what} is {w}x{h} pixels; the largest accepted side is {max_side} px — scale it down first "
        f"/ imaginea are {w}x{h} pixeli; latura maximă acceptată este {max_side} px — micșorați-o întâi")


def load_image(path, max_side: int = MAX_SIDE) -> np.ndarray:
    """Read a picture file and return it as a contiguous BGR uint8 array."""
    p = Path(path)
    if not p.exists():
        raise ImageError(f"{p}: no such file / fișierul nu există")
    if p.is_dir():
        raise ImageError(f"{p}: is a directory, not an image / este un director, nu o imagine")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ImageError(f"{p}: cannot be read ({exc.strerror}) / nu poate fi citit") from exc
    if not data:
        raise ImageError(f"{p}: the file is empty / fișierul este gol")
    size = _header_size(data)
    if size is not None:
        if size[0] <= 0 or size[1] <= 0:
            raise ImageError(f"{p}: the image has no pixels / imaginea nu are pixeli")
        if max(size) > max_side:
            raise _too_large(size[0], size[1], max_side, str(p))
    if _truncated(data):
        raise ImageError(f"{p}: the file is truncated (incomplete download or copy) "
                         f"/ fișierul este trunchiat (copiere incompletă)")
    buf = np.frombuffer(data, dtype=np.uint8)
    try:
        img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    except cv2.error as exc:
        raise ImageError(f"{p}: cannot be decoded ({exc.err}) / nu poate fi decodat") from exc
    if img is None:
        raise ImageError(f"{p}: not an image in a format OpenCV can read "
                         f"/ nu este o imagine într-un format cunoscut")
    return check_frame(img, max_side=max_side, what=str(p))


def check_frame(array, max_side: int = MAX_SIDE, what: str = "frame") -> np.ndarray:
    """Check a camera frame (or decoded picture) and return it as BGR uint8."""
    if not isinstance(array, np.ndarray):
        raise ImageError(f"{what}: expected a numpy image array, got {type(array).__name__} "
                         f"/ se aștepta o imagine (numpy array)")
    img = array
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[:, :, 0]
    if img.ndim not in (2, 3) or (img.ndim == 3 and img.shape[2] not in (3, 4)):
        raise ImageError(f"{what}: shape {img.shape} is not a picture (H x W, H x W x 3 or H x W x 4) "
                         f"/ forma {img.shape} nu este o imagine")
    h, w = img.shape[:2]
    if h == 0 or w == 0:
        raise ImageError(f"{what}: the image is empty (0 pixels) / imaginea este goală")
    if h < 8 or w < 8:
        raise ImageError(f"{what}: {w}x{h} pixels is too small to read / imaginea este prea mică")
    if max(h, w) > max_side:
        raise _too_large(w, h, max_side, what)
    if img.dtype == np.uint8:
        pass
    elif img.dtype == np.uint16:
        img = (img >> 8).astype(np.uint8)
    elif img.dtype in (np.int8, np.int16, np.int32, np.uint32):
        lo, hi = float(img.min()), float(img.max())
        img = np.zeros(img.shape, np.uint8) if hi <= lo else \
            ((img.astype(np.float32) - lo) * (255.0 / (hi - lo))).astype(np.uint8)
    elif img.dtype in (np.float16, np.float32, np.float64):
        f = img.astype(np.float32)
        if not np.all(np.isfinite(f)):
            raise ImageError(f"{what}: the image holds NaN or infinite values / imaginea conține valori invalide")
        scale = 255.0 if f.max() <= 1.0 else 1.0
        img = np.clip(f * scale, 0, 255).astype(np.uint8)
    elif img.dtype == np.bool_:
        img = img.astype(np.uint8) * 255
    else:
        raise ImageError(f"{what}: pixel type {img.dtype} is not supported / tip de pixel nesuportat")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        alpha = img[:, :, 3:4].astype(np.float32) / 255.0
        img = (img[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    return np.ascontiguousarray(img)


# ------------------------------------------------------- scene conditions --

def _smooth_noise(rng: np.random.Generator, size: tuple[int, int], cell: int) -> np.ndarray:
    """Float32 noise in [0, 1] of (h, w) with features about ``cell`` px large."""
    w, h = size
    sw, sh = max(2, w // max(1, cell) + 2), max(2, h // max(1, cell) + 2)
    small = rng.random((sh, sw), dtype=np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def table_background(kind: str, size: tuple[int, int], rng) -> np.ndarray:
    """A table surface of ``kind`` (see TABLE_KINDS), ``size`` = (width, height)."""
    rng = _rng(rng)
    w, h = int(size[0]), int(size[1])
    if w <= 0 or h <= 0:
        raise ValueError(f"table size must be positive, got {size}")
    if kind == "felt":
        base = np.array([rng.uniform(40, 80), rng.uniform(100, 150), rng.uniform(20, 60)], np.float32)
        tex = (_smooth_noise(rng, (w, h), 40) - 0.5) * 24 + rng.normal(0, 6, (h, w)).astype(np.float32)
        img = base[None, None, :] + tex[:, :, None]
    elif kind == "wood":
        base = np.array([rng.uniform(40, 90), rng.uniform(80, 130), rng.uniform(130, 190)], np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, np.pi)
        along = xx * np.cos(angle) + yy * np.sin(angle)
        across = -xx * np.sin(angle) + yy * np.cos(angle)
        warp = _smooth_noise(rng, (w, h), 120) * 40
        grain = np.sin((across + warp) * rng.uniform(0.08, 0.2)) * 0.5 + 0.5
        fine = _smooth_noise(rng, (w, h), 3)
        planks = (np.floor(across / rng.uniform(120, 220)) % 2) * rng.uniform(-15, 15)
        tex = grain * 30 + fine * 10 + planks - 20 + 0 * along
        img = base[None, None, :] * (1 + tex[:, :, None] / 120.0)
    elif kind == "white":
        base = np.array([rng.uniform(215, 245)] * 3, np.float32) + rng.uniform(-6, 6, 3).astype(np.float32)
        folds = (_smooth_noise(rng, (w, h), 150) - 0.5) * 30
        weave = rng.normal(0, 3, (h, w)).astype(np.float32)
        img = base[None, None, :] + (folds + weave)[:, :, None]
    elif kind == "pattern":
        c1 = rng.uniform(150, 250, 3).astype(np.float32)
        c2 = rng.uniform(30, 200, 3).astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(18, 60)
        style = rng.integers(0, 3)
        if style == 0:      # gingham
            a = (np.floor(xx / period) % 2) + (np.floor(yy / period) % 2)
            mix = (a / 2.0)[:, :, None]
        elif style == 1:    # stripes
            mix = ((np.floor((xx + yy) / period) % 2))[:, :, None].astype(np.float32)
        else:               # polka dots
            dx = (xx % period) - period / 2
            dy = (yy % period) - period / 2
            mix = ((dx * dx + dy * dy) < (period * 0.3) ** 2).astype(np.float32)[:, :, None]
        img = c1[None, None, :] * (1 - mix) + c2[None, None, :] * mix
        img += ((_smooth_noise(rng, (w, h), 150) - 0.5) * 20)[:, :, None]
    else:
        raise ValueError(f"unknown table kind {kind!r}; choose one of {TABLE_KINDS}")
    return np.clip(img, 0, 255).astype(np.uint8)


def apply_lighting(img: np.ndarray, kind: str, rng, glare_centre=None) -> np.ndarray:
    """The picture under lighting ``kind`` (see LIGHTING_KINDS); ``glare_centre`` puts a glare's spot there
    (the random numbers drawn are the same either way)."""
    rng = _rng(rng)
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    if kind == "even":
        return img.copy()
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "warm":
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        r = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / max(w, h)
        fall = (1.0 - rng.uniform(0.3, 0.6) * r ** 2)[:, :, None]
        tint = np.array([rng.uniform(0.6, 0.8), rng.uniform(0.85, 0.95), 1.05], np.float32)
        f = f * tint[None, None, :] * fall * rng.uniform(0.8, 1.0)
    elif kind == "daylight":
        tint = np.array([rng.uniform(1.02, 1.1), 1.0, rng.uniform(0.9, 0.98)], np.float32)
        gx = rng.uniform(-0.15, 0.15) * (xx / w - 0.5) + rng.uniform(-0.15, 0.15) * (yy / h - 0.5)
        f = f * tint[None, None, :] * (rng.uniform(1.0, 1.15) + gx)[:, :, None]
    elif kind == "shadow":
        mask = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        axes = (int(rng.uniform(0.15, 0.4) * w), int(rng.uniform(0.15, 0.4) * h))
        cv2.ellipse(mask, (int(cx), int(cy)), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        k = int(max(w, h) * 0.06) | 1
        mask = cv2.GaussianBlur(mask, (k, k), 0)
        depth = rng.uniform(0.35, 0.6)
        f = f * (1.0 - depth * mask)[:, :, None]
    elif kind == "glare":
        cx, cy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
        if glare_centre is not None:
            cx, cy = float(glare_centre[0]), float(glare_centre[1])
        sx, sy = rng.uniform(0.03, 0.1) * w, rng.uniform(0.03, 0.1) * h
        spot = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2.0)
        f = f + (rng.uniform(120, 220) * spot)[:, :, None]
    else:
        raise ValueError(f"unknown lighting {kind!r}; choose one of {LIGHTING_KINDS}")
    return np.clip(f, 0, 255).astype(np.uint8)


def camera_view(img_table: np.ndarray, tilt_deg: float, rotation: float, out_size: tuple[int, int],
                rng, margin: float = 0.04, floor=(40, 40, 40)) -> tuple[np.ndarray, np.ndarray]:
    """The table seen by a camera ``tilt_deg`` from overhead; returns (image, H_table_to_px)."""
    rng = _rng(rng)
    th, tw = img_table.shape[:2]
    ow, oh = int(out_size[0]), int(out_size[1])
    corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64)
    pts = np.c_[corners - [tw / 2, th / 2], np.zeros(4)]
    rot = np.deg2rad(rotation)
    rz = np.array([[np.cos(rot), -np.sin(rot), 0], [np.sin(rot), np.cos(rot), 0], [0, 0, 1]])
    direction = rng.uniform(0, 2 * np.pi)
    axis = np.array([np.cos(direction), np.sin(direction), 0.0])
    rt, _ = cv2.Rodrigues(axis * np.deg2rad(tilt_deg))
    cam = (rt @ rz @ pts.T).T
    dist = 1.6 * max(tw, th)
    z = cam[:, 2] + dist
    proj = cam[:, :2] / z[:, None] * dist
    proj -= proj.min(axis=0)
    span = proj.max(axis=0)
    scale = min(ow * (1 - 2 * margin) / span[0], oh * (1 - 2 * margin) / span[1])
    proj = proj * scale + [(ow - span[0] * scale) / 2, (oh - span[1] * scale) / 2]
    H = cv2.getPerspectiveTransform(corners.astype(np.float32), proj.astype(np.float32))
    out = cv2.warpPerspective(img_table, H, (ow, oh), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(int(c) for c in floor))
    return out, H


def sensor_effects(img: np.ndarray, rng, noise: float = 0.0, blur: float = 0.0,
                   jpeg_quality: int | None = None) -> np.ndarray:
    """Camera noise, defocus blur and JPEG loss applied to a BGR image."""
    rng = _rng(rng)
    out = img
    if blur and blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), float(blur))
    if noise and noise > 0:
        n = rng.normal(0, float(noise), out.shape).astype(np.float32)
        out = np.clip(out.astype(np.float32) + n, 0, 255).astype(np.uint8)
    if jpeg_quality is not None:
        q = int(np.clip(jpeg_quality, 1, 100))
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return np.ascontiguousarray(out)
