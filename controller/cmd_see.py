"""Read a picture of the table: cards (or a backgammon board, a Tintar board, rummy tiles).

  masa see photo.jpg --json                      # Contract 2 JSON
  masa see photo.jpg --annotate seen.png         # draw what was read
  masa see board.jpg --kind tintar --calibration calibration.json

Without --json it prints a short summary (Romanian or English).  Exit codes:
0 read, 1 nothing of that kind in view (no board, no tiles) or the reader
not available, 2 unreadable image or calibration file.
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
    if "table" in result:
        lines += _table_summary(result["table"], ro)
    if "tintar" in result:
        lines += _tintar_summary(result["tintar"], ro)
    if "tiles" in result:
        tiles = result["tiles"]
        read = [t for t in tiles if t["tile"]]
        names = ", ".join(f"{t['tile']} ({t['confidence']:.2f})" for t in read)
        head = "Piese citite" if ro else "Tiles read"
        lines.append(f"{head}: {len(read)}" + (f": {names}" if names else ""))
        lines.append(("Piese văzute, necitite: " if ro else "Tiles seen, not read: ") + str(len(tiles) - len(read)))
    return "\n".join(lines)


def _table_summary(table: dict, ro: bool) -> list[str]:
    """A backgammon reading in words: each colour's points (white's numbering), bar, borne off; dice; gnubg ID."""
    lines = []
    for side, (name_ro, name_en) in enumerate((("alb", "white"), ("negru", "black"))):
        on = [f"{i + 1}:{pair[side]}" for i, pair in enumerate(table["points"]) if pair[side]]
        total = sum(p[side] for p in table["points"]) + table["bar"][side] + table["off"][side]
        if ro:
            lines.append(f"Table, {name_ro} ({total}): puncte {' '.join(on) or '-'}; bară {table['bar'][side]}; "
                         f"scoase {table['off'][side]}")
        else:
            lines.append(f"Backgammon, {name_en} ({total}): points {' '.join(on) or '-'}; bar {table['bar'][side]}; "
                         f"off {table['off'][side]}")
    dice = table.get("dice")
    if isinstance(dice, list):
        roll = "-".join(str(d) for d in dice)
    elif dice == "reroll":
        roll = ("se aruncă din nou (zar înclinat sau în afara tablei)" if ro
                else "roll again (a die leaning or off the board)")
    else:
        roll = "nevăzute clar" if ro else "not seen clearly"
    lines.append(("Zaruri: " if ro else "Dice: ") + roll)
    pid = table.get("position_id")
    if pid:
        lines.append(("ID poziție gnubg (alb la mutare): " if ro else "gnubg position ID (white on roll): ") + pid)
    else:
        lines.append("ID poziție gnubg: niciunul (nu sunt câte 15 piese)" if ro
                     else "gnubg position ID: none (not 15 checkers of each colour)")
    return lines


def _tintar_summary(tintar: dict, ro: bool) -> list[str]:
    """A Tintar reading in words: the points of each colour (a point empty or of unsure colour is in neither),
    pieces in hand and captured ("?" for a count the camera is not sure of)."""
    points = {k: v for k, v in tintar.items() if k not in ("in_hand", "captured")}
    lines = []
    for colour, name_ro in (("white", "alb"), ("black", "negru")):
        on = " ".join(sorted(k for k, v in points.items() if v == colour)) or "-"
        lines.append(f"Țintar, {name_ro}: {on}" if ro else f"Tintar, {colour}: {on}")

    def counts(d):
        d = d or {}
        white, black = ("?" if d.get(c) is None else d[c] for c in ("white", "black"))
        return f"alb {white}, negru {black}" if ro else f"white {white}, black {black}"

    lines.append(("În mână: " if ro else "In hand: ") + counts(tintar.get("in_hand")))
    lines.append(("Capturate: " if ro else "Captured: ") + counts(tintar.get("captured")))
    return lines


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
