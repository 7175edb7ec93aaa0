"""Read a picture of the table: cards (or a backgammon board, a Tintar board, rummy tiles).

  masa see photo.jpg --json                      # Contract 2 JSON
  masa see photo.jpg --annotate seen.png         # draw what was read
  masa see board.jpg --kind tintar --calibration calibration.json

Without --json it prints a short summary.  Exit codes: 0 read, 1 the reader
is not available, 2 unreadable image or calibration file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import cv2

from vision.calibrate import Calibration, CalibrationError
from vision.cards import DEFAULT_THRESHOLD
from vision.imaging import ImageError, load_image
from vision.see import KINDS, SeeError, annotate, see


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("image", help="the picture (JPEG, PNG, BMP, TIFF, WebP ...)")
    p.add_argument("--kind", choices=list(KINDS), default="cards", help="what to read (default cards)")
    p.add_argument("--calibration", metavar="FILE", help="a calibration file from `masa calibrate`")
    p.add_argument("--json", action="store_true", help="print Contract 2 JSON")
    p.add_argument("--annotate", metavar="OUT.png", help="write the picture with what was read drawn on it")
    p.add_argument("--threshold", type=float, default=None,
                   help=f"card confidence below which a card is reported as unread (default {DEFAULT_THRESHOLD})")
    p.add_argument("--lang", choices=("ro", "en"), default=os.environ.get("MASA_LANG", "ro"),
                   help="language of the summary (default: $MASA_LANG or ro)")


def summary(result: dict, lang: str) -> str:
    ro = lang == "ro"
    lines = []
    if "cards" in result:
        cards = result["cards"]
        read = [c for c in cards if c["card"]]
        unread = [c for c in cards if not c["card"] and c["face"] == "up"]
        down = [c for c in cards if c["face"] == "down"]
        names = ", ".join(f"{c['card']} ({c['confidence']:.2f})" for c in read)
        if ro:
            lines.append(f"Cărți citite: {len(read)}" + (f": {names}" if names else ""))
            lines.append(f"Cu fața în sus, necitite: {len(unread)}; cu fața în jos: {len(down)}")
        else:
            lines.append(f"Cards read: {len(read)}" + (f": {names}" if names else ""))
            lines.append(f"Face up, not read: {len(unread)}; face down: {len(down)}")
    for key in ("table", "tintar", "tiles"):
        if key in result:
            lines.append(json.dumps(result[key], ensure_ascii=False))
    return "\n".join(lines)


def main(args) -> int:
    try:
        image = load_image(args.image)
    except ImageError as exc:
        print(f"masa see: {exc}", file=sys.stderr)
        return 2
    calibration = None
    if args.calibration:
        try:
            calibration = Calibration.load(args.calibration)
        except CalibrationError as exc:
            print(f"masa see: {exc}", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    try:
        result = see(image, kind=args.kind, calibration=calibration, threshold=args.threshold)
    except SeeError as exc:
        print(f"masa see: {exc}", file=sys.stderr)
        return 1
    ms = (time.perf_counter() - t0) * 1000.0
    doc = {"image": args.image, "width": int(image.shape[1]), "height": int(image.shape[0]), "ms": round(ms, 1)}
    doc.update(result)
    if args.json:
        print(json.dumps(doc, ensure_ascii=False))
    else:
        print(summary(result, args.lang))
    if args.annotate:
        ok = cv2.imwrite(args.annotate, annotate(image, result))
        if not ok:
            print(f"masa see: cannot write {args.annotate} / nu pot scrie {args.annotate}", file=sys.stderr)
            return 2
    return 0
