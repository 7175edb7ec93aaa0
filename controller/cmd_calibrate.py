"""Calibrate the table: find the four corner ArUco markers and save the pixel <-> mm homography.

  masa calibrate photo.jpg --table-mm 900 900 --out calibration.json --annotate check.png
  masa calibrate --camera 0
  masa calibrate --camera picamera

Prints the markers found and the reprojection error; exit 2 on an unreadable
image or when fewer than two markers are visible.  The printable marker sheet
is docs/markers.png (see docs/calibration.md).
"""

from __future__ import annotations

import argparse
import os
import sys

import cv2

from vision.calibrate import (DEFAULT_BORDER_MM, DEFAULT_MARKER_MM, DEFAULT_TABLE_MM, CalibrationError,
                              calibrate, draw_markers)
from hardware.camera import CameraLost, EndOfFrames, open_source
from vision.imaging import ImageError, check_frame, load_image


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("image", nargs="?", help="a photo of the table with the four markers")
    src.add_argument("--camera", metavar="SOURCE",
                     help="grab one frame from a camera instead: picamera, a webcam number, rtsp://..., a video")
    p.add_argument("--out", default="calibration.json", help="where to write the calibration (JSON)")
    p.add_argument("--annotate", metavar="OUT.png", help="also write the picture with markers and grid drawn")
    p.add_argument("--table-mm", nargs=2, type=float, metavar=("W", "H"), default=list(DEFAULT_TABLE_MM),
                   help="table width and height in mm, paper corner to paper corner (default 900 900)")
    p.add_argument("--marker-mm", type=float, default=DEFAULT_MARKER_MM,
                   help="printed size of the black marker squares (default 50)")
    p.add_argument("--border-mm", type=float, default=DEFAULT_BORDER_MM,
                   help="white paper margin around each marker (default 10)")
    p.add_argument("--lang", choices=("ro", "en"), default=os.environ.get("MASA_LANG", "ro"),
                   help="language of the messages (default: $MASA_LANG or ro)")


def grab_camera_frame(spec: str):
    """One frame from a camera source (``picamera``, a webcam number, a URL, a
    video or a folder), a few frames in so that the exposure has settled."""
    try:
        source = open_source(spec)
    except ValueError as exc:
        raise ImageError(str(exc)) from None
    frame = None
    try:
        for _ in range(5):
            try:
                f = source.read()
            except EndOfFrames:
                break
            if f is not None:
                frame = f
    except CameraLost as exc:
        raise ImageError(f"camera {spec}: {exc} / camera {spec} nu merge") from None
    finally:
        source.close()
    if frame is None:
        raise ImageError(f"camera {spec} gave no frame / camera {spec} nu a dat niciun cadru")
    return check_frame(frame, what=f"camera {spec}")


def main(args) -> int:
    ro = args.lang == "ro"
    try:
        image = grab_camera_frame(args.camera) if args.camera is not None else load_image(args.image)
    except ImageError as exc:
        print(f"masa calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        cal = calibrate(image, table_mm=tuple(args.table_mm), marker_mm=args.marker_mm,
                        border_mm=args.border_mm)
    except CalibrationError as exc:
        print(f"masa calibrate: {exc}", file=sys.stderr)
        if args.annotate:
            cv2.imwrite(args.annotate, image)
        return 2
    try:
        cal.save(args.out)
    except OSError as exc:
        print(f"masa calibrate: {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    found = sorted(cal.markers)
    missing = [i for i in range(4) if i not in cal.markers]
    if ro:
        print(f"Markere găsite: {found}" + (f" (lipsesc: {missing})" if missing else ""))
        print(f"Eroare de reproiecție: {cal.reprojection_error_px:.2f} px ({cal.reprojection_error_mm:.2f} mm)")
        print(f"Masă {cal.table_mm[0]:g} x {cal.table_mm[1]:g} mm; calibrare scrisă în {args.out}")
    else:
        print(f"Markers found: {found}" + (f" (missing: {missing})" if missing else ""))
        print(f"Reprojection error: {cal.reprojection_error_px:.2f} px ({cal.reprojection_error_mm:.2f} mm)")
        print(f"Table {cal.table_mm[0]:g} x {cal.table_mm[1]:g} mm; calibration written to {args.out}")
    if args.annotate:
        if not cv2.imwrite(args.annotate, draw_markers(image, cal)):
            print(f"masa calibrate: cannot write {args.annotate} / nu pot scrie {args.annotate}", file=sys.stderr)
            return 2
    return 0
