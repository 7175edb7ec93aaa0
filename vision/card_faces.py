"""Naming a jack, queen or king from its whole picture, matched against the packs the table knows.

The index readers (``vision.cards``, ``vision.card_corners``) read a card from its corner.  Some
packs print no rank there on their court cards (guyenne-classic: a suit sign only), and some court
indices are faint or crowded by the figure's frame; a court's picture, filling the card, also makes
the region look like a back (``vision.card_regions``).  Such a card lying on its own is found as a
region, and its outline is then known: the face inside it is warped upright, small (``SIZE``), and
compared with every face and back of the packs the table knows (``vision/models/card_faces.npz``,
built from the card artwork by ``python -m vision.card_faces``).

The comparison is a normalised correlation of the colours (each channel white-balanced on its own
brightest twentieth), over the face without its rim, at both ends up (the outline does not say which),
at three sizes and nine small shifts (a found outline sits a little off the card).  A region is
named only when the best match is a jack, queen or king, correlates ``FACE_SURE`` or more, and
stands clear of the best match of every other card (another rank, another suit, a back):
``confidence`` is the best match's share when each card weighs ``exp(score / FACE_TEMPERATURE)``,
and it must reach the caller's threshold.  Number cards are left to the index readers: their
faces differ from the next rank's by one pip.

A pack the table does not know gets no name from its picture unless its figures are drawn like a
known pack's (the French-pattern courts of several packs are near copies); on the dev scenes the
rule named no card wrong (docs/vision.md, pipeline step 7).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

FACES_PATH = Path(__file__).resolve().parent / "models" / "card_faces.npz"
SIZE = (32, 48)                  # a face warped upright, px (width, length)
RIM = 4                          # px of the face's rim left out of the comparison
SHIFTS = (-2, 0, 2)              # px the face is moved across and along
SCALES = (0.95, 1.0, 1.05)       # sizes of the outline tried
SHORTLIST = 24                   # faces compared at every shift, from a first look at the centre
FACE_SURE = 0.8                  # the best face's correlation, at least (0.85 at first: docs/vision.md, step 7)
FIRST_LOOK_COURT = 0.45          # no court face correlating this much at the first look: no second
FACE_TEMPERATURE = 0.02          # correlation units: 0.1 over the next card weighs about 150 times
COURTS = "JQK"
_BLUR = 0.8                      # Gaussian sigma, px at SIZE, on both sides of the comparison


class FaceBook:
    """The faces of the known packs, prepared for matching: ``vectors`` (one unit row per face;
    ``coarse`` at half the resolution), ``cards`` (its card, ``"back"`` for a back) and ``decks``."""

    def __init__(self, faces: np.ndarray, names: list[str]):
        self.decks = [n.split(":")[0] for n in names]
        self.cards = [n.split(":")[1] for n in names]
        rimless = np.array([_blurred(f) for f in faces])[:, RIM:SIZE[1] - RIM, RIM:SIZE[0] - RIM]
        self.vectors = _unit(rimless)
        self.coarse = _unit(rimless[:, ::2, ::2])
        self.card_ids = sorted(set(self.cards))
        self.card_of = np.array([self.card_ids.index(c) for c in self.cards])
        self.is_court = np.array([c[0] in COURTS and c != "back" for c in self.cards], bool)


_BOOK: dict[str, FaceBook] = {}


def load_faces(path=None) -> FaceBook | None:
    """The shipped face book (cached), or None when the file is missing."""
    path = Path(path or FACES_PATH)
    key = str(path)
    if key not in _BOOK:
        if not path.exists():
            return None
        with np.load(path) as z:
            _BOOK[key] = FaceBook(z["faces"], [str(n) for n in z["names"]])
    return _BOOK[key]


def _blurred(face: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(face.astype(np.float32), (0, 0), _BLUR)


def _unit(faces: np.ndarray, paper: np.ndarray | None = None) -> np.ndarray:
    """Each face white-balanced per channel (on ``paper``, one BGR row per face, by default its
    brightest twentieth), centred and scaled to a unit vector."""
    v = faces.reshape(len(faces), -1, 3).astype(np.float32)
    if paper is None:
        paper = np.percentile(v, 95, axis=1)
    v = v / np.maximum(paper, 1.0).astype(np.float32)[:, None, :]
    v = v.reshape(len(v), -1)
    v = v - v.mean(axis=1, keepdims=True)
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)


def portrait(quad) -> np.ndarray:
    """The quad's corners clockwise (in picture coordinates, y down) from a short side's start."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    x, y = q[:, 0], q[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
        q = q[::-1].copy()
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)
    return q


def _canvases(image: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face inside portrait quad ``q`` warped upright at each size of ``SCALES``, then each
    turned end over end, with room round it for the shifts; and each one's paper colour (the
    brightest twentieth of its rim-less face, per channel)."""
    w, h = SIZE
    pad = max(abs(s) for s in SHIFTS)
    dst = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
    centre = q.mean(axis=0)
    canvases = []
    for s in SCALES:
        src = (centre + (q - centre) / s).astype(np.float32)
        P = cv2.getPerspectiveTransform(src, dst)
        canvases.append(_blurred(cv2.warpPerspective(image, P, (w + 2 * pad, h + 2 * pad), flags=cv2.INTER_LINEAR)))
    canvases = np.array(canvases + [c[::-1, ::-1] for c in canvases])
    inner = canvases[:, pad + RIM:pad + h - RIM, pad + RIM:pad + w - RIM].reshape(len(canvases), -1, 3)
    return canvases, np.percentile(inner, 95, axis=1)


def _shifted(canvases: np.ndarray, papers: np.ndarray) -> np.ndarray:
    """Every canvas's rim-less face at every shift (canvas, then shift across, then along), as
    unit vectors."""
    w, h = SIZE
    pad = max(abs(s) for s in SHIFTS)
    views = np.array([c[pad + RIM + dy:pad + h - RIM + dy, pad + RIM + dx:pad + w - RIM + dx]
                      for c in canvases for dy in SHIFTS for dx in SHIFTS])
    return _unit(views, np.repeat(papers, len(SHIFTS) ** 2, axis=0))


def face_scores(image: np.ndarray, quad, book: FaceBook, court_at_least: float = -1.0):
    """For each card of the book (``book.card_ids``), the best correlation of its faces with the
    face inside ``quad`` of BGR ``image``, and the index of the best view (its end:
    ``index // (len(SCALES) * len(SHIFTS) ** 2)``).  The faces are first compared unshifted at
    half the resolution; the ``SHORTLIST`` best are compared at every shift and size, unless no
    court face reached ``court_at_least`` at that first look.  A card with no face compared
    again keeps its first score, and -1 for its view."""
    w, h = SIZE
    pad = max(abs(s) for s in SHIFTS)
    canvases, papers = _canvases(image, portrait(quad))
    centres = _unit(canvases[:, pad + RIM:pad + h - RIM:2, pad + RIM:pad + w - RIM:2], papers)
    first = (centres @ book.coarse.T).max(axis=0)
    per_card = np.full(len(book.card_ids), -1.0, np.float32)
    np.maximum.at(per_card, book.card_of, first)
    best_at = np.full(len(book.card_ids), -1)
    if first[book.is_court].max(initial=-1.0) < court_at_least:
        return per_card, best_at
    short = np.argsort(-first)[:SHORTLIST]
    s = _shifted(canvases, papers) @ book.vectors[short].T   # views x shortlisted faces
    best_view, score = s.argmax(axis=0), s.max(axis=0)
    for j in np.argsort(score):                              # each card's best face last
        c = book.card_of[short[j]]
        per_card[c], best_at[c] = score[j], best_view[j]
    return per_card, best_at


def name_from_face(image: np.ndarray, quad, threshold: float, book: FaceBook | None = None):
    """``(card, confidence, quad)`` for a court card whose face fills ``quad`` (``quad`` reordered
    so that its first corner is the card's top-left), or ``(None, confidence, None)``."""
    book = book or load_faces()
    if book is None:
        return None, 0.0, None
    per_card, best_at = face_scores(image, quad, book, FIRST_LOOK_COURT)
    c = int(np.argmax(per_card))
    card = book.card_ids[c]
    weights = np.exp((per_card - per_card[c]) / FACE_TEMPERATURE)
    conf = float(1.0 / weights.sum())
    if (card == "back" or card[0] not in COURTS or best_at[c] < 0 or per_card[c] < FACE_SURE
            or conf < threshold):
        return None, conf, None
    q = portrait(quad)
    views_per_end = len(SCALES) * len(SHIFTS) ** 2
    if best_at[c] >= views_per_end:
        q = np.roll(q, -2, axis=0)
    return card, conf, q


# ------------------------------------------------------------------ building --

def build_faces(decks, height_px: int = 300) -> tuple[np.ndarray, list[str]]:
    """Every face and the back of each deck, warped to ``SIZE`` on white (BGR uint8)."""
    from vision import render
    faces, names = [], []
    for deck in decks:
        for card in render.deck_cards(deck) + ["back"]:
            img = render.card_image(deck, card, height_px)
            alpha = img[..., 3:4].astype(np.float32) / 255.0
            bgr = img[..., :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
            faces.append(np.clip(cv2.resize(bgr, SIZE, interpolation=cv2.INTER_AREA).round(), 0, 255).astype(np.uint8))
            names.append(f"{deck}:{card}")
    return np.array(faces), names


def main(argv=None) -> int:
    """``python -m vision.card_faces [--out FILE]``: rebuild the face book from the training packs'
    artwork (gnome-cards-data, kdegames-card-data-kf5; the drawn pack's courts carry a full index)."""
    from vision import render
    ap = argparse.ArgumentParser(prog="python -m vision.card_faces", description=main.__doc__)
    ap.add_argument("--out", default=str(FACES_PATH))
    args = ap.parse_args(argv)
    wanted = [d for d in render.FRENCH_TRAIN_DECKS + render.GERMAN_DECKS if d != "drawn"]
    decks = [d for d in wanted if d in render.available_decks()]
    missing = sorted(set(wanted) - set(decks))
    if missing:
        print(f"card artwork missing for {', '.join(missing)}: install gnome-cards-data, "
              "kdegames-card-data-kf5 and librsvg2-bin (make system-packages)", file=sys.stderr)
        return 2
    faces, names = build_faces(decks)
    np.savez_compressed(args.out, faces=faces, names=np.array(names))
    print(f"{len(names)} faces of {len(decks)} packs written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
