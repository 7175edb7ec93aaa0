"""Table calibration: four ArUco markers give the homography pixels <-> table millimetres.

Marker layout (OpenCV's own aruco module, dictionary DICT_4X4_50, ids 0-3)::

    table corner (0, 0)                         (W, 0)
        +--------+-----------------------+--------+
        | [ 0 ]  |                       |  [ 1 ] |
        +--------+                       +--------+
        |                                         |
        |              playing area               |
        |                                         |
        +--------+                       +--------+
        | [ 3 ]  |                       |  [ 2 ] |
        +--------+-----------------------+--------+
    (0, H)                                      (W, H)

Each marker is printed ``marker_mm`` wide (default 50 mm) on a white square of
paper with a ``border_mm`` margin (default 10 mm) all round; the paper square
is laid in its table corner, paper corner on table corner, printed upright
(the marker's label reads from the side of markers 0 and 1).  Table
coordinates are millimetres from the corner under marker 0, x towards marker
1, y towards marker 3.  All the marker corners found (16 with four markers)
fit the homography by least squares; at least two markers must be seen.

API: ``Calibration`` (``H_px_to_mm``, ``H_mm_to_px``, ``table_mm``,
``image_size``, ``markers``, ``reprojection_error_px``,
``reprojection_error_mm``; ``px_to_mm(points)``, ``mm_to_px(points)``,
``save(path)``, ``Calibration.load(path)``), ``calibrate(image,
table_mm=(900, 900), marker_mm=50, border_mm=10) -> Calibration``,
``detect_markers(image)``, ``marker_corners_mm(...)``, ``marker_image(id,
side_px)``, ``place_markers(table_img, px_per_mm, ...)`` (paints the markers
into a rendered table) and ``draw_markers(image, calibration)``.
``CalibrationError(ValueError)`` carries messages in English and Romanian.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.imaging import check_frame

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
DEFAULT_TABLE_MM = (900.0, 900.0)
DEFAULT_MARKER_MM = 50.0
DEFAULT_BORDER_MM = 10.0
FILE_VERSION = 1


class CalibrationError(ValueError):
    """Markers not found, or a calibration file that cannot be used."""


def _dictionary():
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICT)


def marker_corners_mm(marker_id: int, table_mm=DEFAULT_TABLE_MM, marker_mm: float = DEFAULT_MARKER_MM,
                      border_mm: float = DEFAULT_BORDER_MM) -> np.ndarray:
    """The four corners (TL, TR, BR, BL as ArUco orders them) of a marker in table mm."""
    w, h = float(table_mm[0]), float(table_mm[1])
    s, b = float(marker_mm), float(border_mm)
    origin = {0: (b, b), 1: (w - b - s, b), 2: (w - b - s, h - b - s), 3: (b, h - b - s)}[marker_id]
    x, y = origin
    return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The black-and-white marker ``marker_id`` as a ``side_px`` square (uint8 grey)."""
    return cv2.aruco.generateImageMarker(_dictionary(), int(marker_id), int(side_px))


def place_markers(table_img: np.ndarray, px_per_mm: float, table_mm=DEFAULT_TABLE_MM,
                  marker_mm: float = DEFAULT_MARKER_MM, border_mm: float = DEFAULT_BORDER_MM,
                  ids=MARKER_IDS) -> np.ndarray:
    """Paint the paper squares and markers into a table picture drawn at ``px_per_mm``."""
    out = table_img.copy()
    for mid in ids:
        c = marker_corners_mm(mid, table_mm, marker_mm, border_mm)
        x0, y0 = c[0]
        paper0 = np.array([x0 - border_mm, y0 - border_mm]) * px_per_mm
        paper_side = (marker_mm + 2 * border_mm) * px_per_mm
        p0 = np.round(paper0).astype(int)
        p1 = np.round(paper0 + paper_side).astype(int)
        cv2.rectangle(out, tuple(int(v) for v in p0), tuple(int(v) - 1 for v in p1), (245, 245, 245), -1)
        m0 = np.round(np.array([x0, y0]) * px_per_mm).astype(int)
        side = int(round(marker_mm * px_per_mm))
        mark = cv2.cvtColor(marker_image(mid, side), cv2.COLOR_GRAY2BGR)
        h, w = out.shape[:2]
        ys, xs = slice(m0[1], min(h, m0[1] + side)), slice(m0[0], min(w, m0[0] + side))
        out[ys, xs] = mark[: ys.stop - ys.start, : xs.stop - xs.start]
    return out


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """ArUco DICT_4X4_50 markers with ids 0-3 in a picture: {id: 4x2 corner pixels}."""
    img = check_frame(image)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(_dictionary(), params)
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel()):
        i = int(i)
        if i in MARKER_IDS and i not in found:
            found[i] = c.reshape(4, 2).astype(np.float64)
    return found


@dataclass
class Calibration:
    """A homography between image pixels and table millimetres, with how well it fits."""

    H_px_to_mm: np.ndarray
    table_mm: tuple[float, float] = DEFAULT_TABLE_MM
    image_size: tuple[int, int] = (0, 0)
    markers: dict[int, list] = field(default_factory=dict)
    reprojection_error_px: float = 0.0
    reprojection_error_mm: float = 0.0
    marker_mm: float = DEFAULT_MARKER_MM
    border_mm: float = DEFAULT_BORDER_MM

    def __post_init__(self):
        H = np.asarray(self.H_px_to_mm, np.float64)
        if H.shape != (3, 3) or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
            raise CalibrationError("the homography must be an invertible 3x3 matrix "
                                   "/ omografia trebuie să fie o matrice 3x3 inversabilă")
        self.H_px_to_mm = H / H[2, 2]
        self.table_mm = (float(self.table_mm[0]), float(self.table_mm[1]))
        self.image_size = (int(self.image_size[0]), int(self.image_size[1]))

    @property
    def H_mm_to_px(self) -> np.ndarray:
        H = np.linalg.inv(self.H_px_to_mm)
        return H / H[2, 2]

    @staticmethod
    def _apply(H: np.ndarray, points) -> np.ndarray:
        pts = np.asarray(points, np.float64)
        single = pts.ndim == 1
        pts = pts.reshape(-1, 2)
        homog = np.c_[pts, np.ones(len(pts))] @ H.T
        out = homog[:, :2] / homog[:, 2:3]
        return out[0] if single else out

    def px_to_mm(self, points) -> np.ndarray:
        """Image pixels (x, y) -> table millimetres; one point or an N x 2 array."""
        return self._apply(self.H_px_to_mm, points)

    def mm_to_px(self, points) -> np.ndarray:
        """Table millimetres -> image pixels; one point or an N x 2 array."""
        return self._apply(self.H_mm_to_px, points)

    def to_dict(self) -> dict:
        return {
            "version": FILE_VERSION,
            "H_px_to_mm": self.H_px_to_mm.tolist(),
            "table_mm": list(self.table_mm),
            "image_size": list(self.image_size),
            "marker_mm": self.marker_mm,
            "border_mm": self.border_mm,
            "markers": {str(k): np.asarray(v).tolist() for k, v in sorted(self.markers.items())},
            "reprojection_error_px": self.reprojection_error_px,
            "reprojection_error_mm": self.reprojection_error_mm,
        }

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: dict) -> "Calibration":
        if not isinstance(data, dict) or "H_px_to_mm" not in data:
            raise CalibrationError("not a Masa calibration (no H_px_to_mm) / nu este o calibrare Masa")
        try:
            return cls(H_px_to_mm=np.array(data["H_px_to_mm"], np.float64),
                       table_mm=tuple(data.get("table_mm", DEFAULT_TABLE_MM)),
                       image_size=tuple(data.get("image_size", (0, 0))),
                       markers={int(k): v for k, v in data.get("markers", {}).items()},
                       reprojection_error_px=float(data.get("reprojection_error_px", 0.0)),
                       reprojection_error_mm=float(data.get("reprojection_error_mm", 0.0)),
                       marker_mm=float(data.get("marker_mm", DEFAULT_MARKER_MM)),
                       border_mm=float(data.get("border_mm", DEFAULT_BORDER_MM)))
        except CalibrationError:
            raise
        except (TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"malformed calibration ({exc}) / calibrare invalidă") from exc

    @classmethod
    def load(cls, path) -> "Calibration":
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise CalibrationError(f"{p}: no such calibration file / fișierul de calibrare nu există") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise CalibrationError(f"{p}: cannot be read ({exc}) / nu poate fi citit") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{p}: not valid JSON (line {exc.lineno}) / JSON invalid") from exc
        try:
            return cls.from_dict(data)
        except CalibrationError as exc:
            raise CalibrationError(f"{p}: {exc}") from exc


def calibrate(image: np.ndarray, table_mm=DEFAULT_TABLE_MM, marker_mm: float = DEFAULT_MARKER_MM,
              border_mm: float = DEFAULT_BORDER_MM) -> Calibration:
    """Find the corner markers in ``image`` and fit the pixel <-> mm homography."""
    img = check_frame(image)
    if table_mm[0] <= 2 * (marker_mm + border_mm) or table_mm[1] <= 2 * (marker_mm + border_mm):
        raise CalibrationError(f"table {table_mm[0]:g} x {table_mm[1]:g} mm is too small for "
                               f"{marker_mm:g} mm markers / masa este prea mică pentru markere")
    found = detect_markers(img)
    if len(found) < 2:
        missing = [i for i in MARKER_IDS if i not in found]
        raise CalibrationError(
            f"found {len(found)} of the 4 corner markers (missing ids {missing}); at least 2 are needed "
            f"/ s-au găsit {len(found)} din cele 4 markere de colț (lipsesc {missing}); trebuie cel puțin 2")
    px = np.vstack([found[i] for i in sorted(found)])
    mm = np.vstack([marker_corners_mm(i, table_mm, marker_mm, border_mm) for i in sorted(found)])
    H, _ = cv2.findHomography(px, mm, 0)
    if H is None:
        raise CalibrationError("the markers do not define a plane (degenerate layout) "
                               "/ markerele nu definesc un plan")
    cal = Calibration(H_px_to_mm=H, table_mm=tuple(table_mm), image_size=(img.shape[1], img.shape[0]),
                      markers={i: found[i].tolist() for i in sorted(found)},
                      marker_mm=float(marker_mm), border_mm=float(border_mm))
    err_mm = np.linalg.norm(cal.px_to_mm(px) - mm, axis=1)
    err_px = np.linalg.norm(cal.mm_to_px(mm) - px, axis=1)
    cal.reprojection_error_mm = float(np.sqrt(np.mean(err_mm ** 2)))
    cal.reprojection_error_px = float(np.sqrt(np.mean(err_px ** 2)))
    return cal


def draw_markers(image: np.ndarray, calibration: Calibration, grid_mm: float = 100.0) -> np.ndarray:
    """The picture with the markers found, their ids, the table outline and a mm grid."""
    out = check_frame(image).copy()
    w, h = calibration.table_mm
    thick = max(1, out.shape[1] // 640)
    for x in np.arange(0.0, w + 1e-6, grid_mm):
        a, b = calibration.mm_to_px([[x, 0], [x, h]])
        cv2.line(out, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), (200, 200, 0), 1,
                 cv2.LINE_AA)
    for y in np.arange(0.0, h + 1e-6, grid_mm):
        a, b = calibration.mm_to_px([[0, y], [w, y]])
        cv2.line(out, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), (200, 200, 0), 1,
                 cv2.LINE_AA)
    outline = np.round(calibration.mm_to_px([[0, 0], [w, 0], [w, h], [0, h]])).astype(np.int32)
    cv2.polylines(out, [outline], True, (0, 255, 255), 2 * thick, cv2.LINE_AA)
    for mid, corners in calibration.markers.items():
        c = np.round(np.asarray(corners)).astype(np.int32)
        cv2.polylines(out, [c], True, (0, 0, 255), 2 * thick, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in c[0]), 3 * thick, (255, 0, 0), -1)
        cx, cy = c.mean(axis=0).astype(int)
        cv2.putText(out, str(mid), (int(cx) - 8 * thick, int(cy) + 8 * thick), cv2.FONT_HERSHEY_SIMPLEX,
                    0.8 * thick, (0, 0, 255), 2 * thick, cv2.LINE_AA)
    text = f"error {calibration.reprojection_error_px:.2f} px / {calibration.reprojection_error_mm:.2f} mm"
    cv2.putText(out, text, (10, 30 * thick), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * thick, (0, 0, 0), 4 * thick,
                cv2.LINE_AA)
    cv2.putText(out, text, (10, 30 * thick), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * thick, (255, 255, 255), thick,
                cv2.LINE_AA)
    return out


def marker_sheet(dpi: int = 300, marker_mm: float = DEFAULT_MARKER_MM,
                 border_mm: float = DEFAULT_BORDER_MM) -> np.ndarray:
    """An A4 page (grey image at ``dpi``) with the four markers, cut lines and labels."""
    px_mm = dpi / 25.4
    page = np.full((int(round(297 * px_mm)), int(round(210 * px_mm))), 255, np.uint8)
    paper = marker_mm + 2 * border_mm
    labels = {0: "0: top-left / stanga-sus", 1: "1: top-right / dreapta-sus",
              2: "2: bottom-right / dreapta-jos", 3: "3: bottom-left / stanga-jos"}
    for mid in MARKER_IDS:
        col, row = {0: (0, 0), 1: (1, 0), 2: (1, 1), 3: (0, 1)}[mid]
        x0 = (25 + col * (paper + 30)) * px_mm
        y0 = (40 + row * (paper + 45)) * px_mm
        side = int(round(marker_mm * px_mm))
        mx, my = int(round(x0 + border_mm * px_mm)), int(round(y0 + border_mm * px_mm))
        page[my:my + side, mx:mx + side] = marker_image(mid, side)
        p0 = (int(round(x0)), int(round(y0)))
        p1 = (int(round(x0 + paper * px_mm)), int(round(y0 + paper * px_mm)))
        for t in range(0, p1[0] - p0[0], 24):      # dashed cut line
            cv2.line(page, (p0[0] + t, p0[1]), (min(p1[0], p0[0] + t + 12), p0[1]), 120, 2)
            cv2.line(page, (p0[0] + t, p1[1]), (min(p1[0], p0[0] + t + 12), p1[1]), 120, 2)
        for t in range(0, p1[1] - p0[1], 24):
            cv2.line(page, (p0[0], p0[1] + t), (p0[0], min(p1[1], p0[1] + t + 12)), 120, 2)
            cv2.line(page, (p1[0], p0[1] + t), (p1[0], min(p1[1], p0[1] + t + 12)), 120, 2)
        cv2.putText(page, labels[mid], (p0[0], p1[1] + int(8 * px_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    dpi / 300 * 1.0, 0, 2, cv2.LINE_AA)
    lines = ["Masa table markers (ArUco DICT_4X4_50). Print at 100% (actual size), A4.",
             f"Each black square must measure {marker_mm:g} mm. Cut on the dashed lines;",
             "lay each paper square in its table corner, printed side up, text towards you.",
             "Tipariti la 100% (marime reala). Decupati pe liniile punctate; asezati fiecare",
             "patrat in coltul lui de masa."]
    for i, line in enumerate(lines):
        cv2.putText(page, line, (int(20 * px_mm), int((240 + 7 * i) * px_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    dpi / 300 * 1.1, 0, 2, cv2.LINE_AA)
    cv2.line(page, (int(20 * px_mm), int(283 * px_mm)), (int(120 * px_mm), int(283 * px_mm)), 0, 3)
    cv2.putText(page, "100 mm check", (int(125 * px_mm), int(285 * px_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                dpi / 300 * 1.0, 0, 2, cv2.LINE_AA)
    return page


def write_png_with_dpi(path, image: np.ndarray, dpi: int) -> None:
    """Write a PNG whose pHYs chunk says ``dpi`` so it prints at true size."""
    import struct
    import zlib
    ok, enc = cv2.imencode(".png", image)
    if not ok:
        raise CalibrationError("could not encode the PNG / nu s-a putut codifica PNG-ul")
    data = enc.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4
    Path(path).write_bytes(data[:ihdr_end] + chunk + data[ihdr_end:])
