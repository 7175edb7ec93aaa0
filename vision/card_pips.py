"""Counting the pips of a number card whose whole face is in view: a second reader of its rank.

The index readers (``vision.cards``) read a card from its corner.  A corner printed in a style
they have not learned, or crowded by another card's edge, may read unsure, and the card is then
reported without a name although its face shows plainly what it is: a 2 to 10 carries that many
pips, of its suit's colour, laid out in the same few ways by every French pack.

``count_pips(image, quad)`` warps the face inside ``quad`` upright (``SIZE``), measures the paper
round every pixel (the brightest within ``PAPER_KERNEL``, so a shadow or a glare across the card
does not move the bar), takes the ink (darker than ``INK_RATIO`` of that paper in the darkest
channel, which keeps red ink), leaves out the four index corners, and looks for the pips: the
largest group of blobs of one size.  It answers only when the face reads as a number card and
nothing else:

- no blob much larger than a pip (a court's picture), no pip larger than ``PIP_LARGEST`` of the
  face (pips run together by blur), and no blob of a pip's size cut by the outline (a card beside
  it, or the outline placed off the card);
- little other ink (``OTHER_INK``: a court's picture broken into small pieces, an ace's ornament);
- the pips laid out as a pack lays them: the same after a half turn about the card's centre (a 7
  or a 9 may leave one pip of its middle column alone, unless a washed-out pip lies where its
  partner would be), as many in the middle column as a pack prints there (``MIDDLE_PIPS``), and
  reaching from the upper to the lower part of the card (``SPAN``);
- one colour: red or black, each with a clear margin (``RED_MARGIN``, ``BLACK_MARGIN``,
  ``BLACK_CHROMA``).  A German pack's green leaves and yellow bells are neither: its cards get no
  count, and are left to the index readers.

``outline_from_pips`` finds such a card round an index reading whose outline, placed from the pack
geometry, lies off the card: the pips' centre of turn is the card's centre.

It never names the suit's sign (a club and a spade, a heart and a diamond, are alike at this size
on some packs): ``vision.cards`` names a card from its pips only together with an index reading of
the same rank and colour (docs/vision.md, pipeline step 8).  Aces and courts get no count.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_faces import portrait

SIZE = (80, 120)                 # the face warped upright, px (width, length)
RIM = 3                          # px of the face's rim left out (the outline, the table past it)
PAPER_KERNEL = 31                # px: the paper round a pixel is the brightest within this (> a pip;
                                 # taken on the face at a quarter of its size, then smoothed)
INK_RATIO = 0.62                 # ink: darker than this share of the paper round it
MIN_BLOB = 12                    # px: smaller specks are noise
INDEX_CORNER = (0.17, 0.27)      # a blob centred within these shares of a corner's two sides is an index
PIP_SIZES = (0.6, 1.0)           # the pips: blobs from this share of the largest of them, up to it
PIP_LARGEST = 0.06               # a pip covers at most this share of the face (pips run together cover more)
LARGER = 1.5                     # a blob this many times a pip's area is not a pip: no count
OTHER_INK = 0.3                  # ink outside the pips at most this share of theirs
HALF_TURN = 0.06                 # a pip and its partner after a half turn this share of the length apart
MIDDLE_PIPS = {2: (2,), 3: (3,), 4: (0,), 5: (1,), 6: (0,), 7: (1, 3), 8: (0, 2), 9: (1, 3), 10: (2,)}
#                                  pips in the middle column, by count (an 8 prints 3-2-3 or 4-4; a 7
#                                  2-1-2 with one more in the middle, or 1-2-1-2-1; a 9 4-1-4 or 3-3-3)
LONE_MIDDLE = (7, 9)             # a 7 (and in some packs a 9) has one pip in its middle column off the centre
CENTRE_COLUMN = 0.08             # ... that lies within this share of the width of the middle
FAINT_RATIO, FAINT_SHARE = 0.85, 0.2   # a lone pip's partner place holding faint ink: washed out
SPAN = 0.45                      # the pips reach over this share of the card's length at least
RED_MARGIN = 45.0                # red minus the larger of green and blue, mean over the pips, at least
BLACK_MARGIN = 35.0              # ... or at most this for black, ...
BLACK_CHROMA = 0.5               # ... its channels' spread at most this share of its brightest channel
LOWEST, HIGHEST = 2, 10
SEARCH_WIDTH = 60                # outline_from_pips: the pack geometry's card width in window px ...
SEARCH_SPAN = 2.4                # ... the window this many card sizes across ...
SEARCH_BEFORE = 0.3              # ... starting this share of one before the card's corner
MAX_GROUP = 30                   # ... groups of like blobs of at most this many (more: a cloth's print)
PIP_CENTRES = 3                  # ... centres of turn tried per group (the most voted)
CARD_SPAN = (0.5, 2.0)           # the card found reaches this share of the geometry's size


@dataclass
class PipCount:
    count: int                   # pips, 2-10
    red: bool                    # the pips' colour: hearts and diamonds, or spades and clubs
    pip_area: float              # one pip's share of the face

    @property
    def rank(self) -> str:
        return "T" if self.count == 10 else str(self.count)


def face_upright(image: np.ndarray, quad) -> np.ndarray:
    """The face inside ``quad`` warped to ``SIZE`` (its long side down), BGR uint8."""
    w, h = SIZE
    q = portrait(quad)
    M = cv2.getPerspectiveTransform(q.astype(np.float32), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(image, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _ink(face: np.ndarray):
    """(darkest channel, the paper round each pixel, ink mask) of an upright BGR uint8 picture."""
    b, g, r = cv2.split(face)
    dark = cv2.min(cv2.min(b, g), r)
    small = cv2.dilate(cv2.resize(dark, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA),
                       np.ones((PAPER_KERNEL // 4, PAPER_KERNEL // 4), np.uint8))
    paper = cv2.resize(cv2.blur(small, (3, 3)), dark.shape[::-1], interpolation=cv2.INTER_LINEAR)
    return dark, paper, (dark < INK_RATIO * paper.astype(np.float32)).astype(np.uint8)


def _colours(face: np.ndarray, labels: np.ndarray, n: int) -> np.ndarray:
    """Per label: 1 red (its mean red above green and blue by ``RED_MARGIN``), 0 black (red at most
    ``BLACK_MARGIN`` above them, its channels within ``BLACK_CHROMA`` of the brightest's), -1
    neither (a German pack's green leaves and yellow bells, a colour in between)."""
    flat = labels.ravel()
    counts = np.maximum(np.bincount(flat, minlength=n), 1)
    b, g, r = (np.bincount(flat, weights=face[..., i].ravel(), minlength=n) / counts for i in range(3))
    top = np.maximum(np.maximum(b, g), r)
    redness = r - np.maximum(g, b)
    black = (redness <= BLACK_MARGIN) & (top - np.minimum(np.minimum(b, g), r) <= BLACK_CHROMA * np.maximum(top, 1))
    return np.where(redness >= RED_MARGIN, 1, np.where(black, 0, -1))


def count_pips(image: np.ndarray, quad) -> tuple[PipCount | None, str]:
    """``(PipCount, "ok")`` for a number card whose face fills ``quad``, or ``(None, why not)``."""
    face = face_upright(image, quad)[RIM:-RIM, RIM:-RIM]
    hh, ww = face.shape[:2]
    dark, paper, ink = _ink(face)
    if float(paper.mean()) < 60:
        return None, "no paper"
    n, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, w, h, area = stats.T
    u, v = centres[:, 0] / ww, centres[:, 1] / hh
    corner = (np.minimum(u, 1 - u) < INDEX_CORNER[0]) & (np.minimum(v, 1 - v) < INDEX_CORNER[1])
    rim = (x == 0) | (y == 0) | (x + w == ww) | (y + h == hh)
    blob = (area >= MIN_BLOB) & ~corner      # an index (some packs print one in every corner) left out
    blob[0] = False
    inside = np.nonzero(blob & ~rim)[0]
    if len(inside) < LOWEST:
        return None, "no pips"
    sizes = area[inside].astype(float)
    # the pips: the largest group of blobs of like size
    members = (sizes[None, :] >= PIP_SIZES[0] * sizes[:, None]) & (sizes[None, :] <= sizes[:, None])
    best = int(np.argmax(members.sum(axis=1) + sizes / (1 + sizes.max())))   # ties: the larger pips
    pips = inside[members[best]]
    pip = float(np.median(area[pips]))
    if pip > PIP_LARGEST * ww * hh:
        return None, "blobs too large for pips"
    if np.any(sizes > LARGER * pip) or np.any(blob & rim & (area >= 0.5 * pip)):
        return None, "ink larger than a pip, or cut by the outline"
    if sizes.sum() - area[pips].sum() > OTHER_INK * pip * len(pips):
        return None, "ink besides the pips"
    count = len(pips)
    if not LOWEST <= count <= HIGHEST:
        return None, f"{count} pips"
    c = centres[pips] - [(ww - 1) / 2, (hh - 1) / 2]
    alone = _alone(c, hh)
    if alone.sum() > (1 if count in LONE_MIDDLE else 0) or (alone.any() and abs(c[alone][0, 0]) > CENTRE_COLUMN * ww):
        # every pip has a partner after a half turn, but a 7's or 9's one in its middle column
        return None, "pips not laid out as a pack lays them"
    if not _columns_and_span(c, count, ww, hh):
        return None, "pips not laid out as a pack lays them"
    if _washed_out(dark, paper, -c[alone] + [(ww - 1) / 2, (hh - 1) / 2], pip):
        return None, "a pip washed out"
    colours = _colours(face, labels, n)[pips]
    if colours[0] < 0 or np.any(colours != colours[0]):
        return None, "colour unclear"
    return PipCount(count, bool(colours[0] == 1), pip / (ww * hh)), "ok"


def _columns_and_span(c: np.ndarray, count: int, width: float, length: float) -> bool:
    """Whether pips at ``c`` (from the card's centre) hold as many in the middle column as a pack
    prints there (``MIDDLE_PIPS``) and reach over ``SPAN`` of the card's ``length``."""
    middle = int((np.abs(c[:, 0]) < CENTRE_COLUMN * width).sum())
    return middle in MIDDLE_PIPS[count] and np.ptp(c[:, 1]) >= SPAN * length


def _alone(c: np.ndarray, length: float) -> np.ndarray:
    """Which of the points ``c`` (about their centre of turn) have no partner after a half turn."""
    partner = np.hypot(*(c[:, None, :] + c[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    return partner > HALF_TURN * length


def outline_from_pips(image: np.ndarray, corner, right, down, width: float, length: float,
                      count: int, red: bool | None = None):
    """``(outline, red)`` of a card read at one index whose face shows ``count`` pips of one colour
    (``red``; None: either), or ``(None, None)``.

    ``corner`` is where the card's corner lies by the index reading (picture px), ``right`` and
    ``down`` the card's axes there, ``width`` and ``length`` its size by the pack geometry.  A pack
    whose index sits further in, or whose cards are larger against their index, puts its card
    elsewhere round the reading, so the card is found from its pips instead.  A window round the
    card, upright in the reading's axes, is searched for ``count`` blobs of one size and of that
    colour laid out the same after a half turn about one point (the midpoints of their pairs vote
    for it; a 7 or 9 may leave one pip of its middle column alone): that point is the card's centre,
    and the card reaches from ``corner`` to as far beyond it.  Inside the box the pips span (grown
    by a pip), nothing else may be printed but a little ink (``OTHER_INK``): no other blob of a
    pip's size or larger, of either colour, and no washed-out pip where a lone one's partner would
    be; the pips reach over ``SPAN`` of the card's length."""
    right, down = np.asarray(right, float), np.asarray(down, float)
    ppu = SEARCH_WIDTH / width                       # window px per picture px
    w, h = int(SEARCH_SPAN * SEARCH_WIDTH), int(SEARCH_SPAN * SEARCH_WIDTH * length / width)
    corner = np.asarray(corner, float)
    origin = corner - (right * width + down * length) * SEARCH_BEFORE
    src = np.float32([origin, origin + right * w / ppu, origin + down * h / ppu])
    M = cv2.getAffineTransform(src, np.float32([[0, 0], [w, 0], [0, h]]))
    face = cv2.warpAffine(image, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    dark, paper, ink = _ink(face)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(ink, connectivity=8)
    colours = _colours(face, labels, n)
    x, y, bw, bh, area = stats.T
    whole = (area >= MIN_BLOB) & (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    whole[0] = False
    for colour in ((red,) if red is not None else (True, False)):
        idx = np.nonzero(whole & (colours == int(colour)))[0]
        if len(idx) >= count:
            quad = _laid_out(count, idx, whole, area, centres, dark, paper, corner, origin, right, down,
                             ppu, SEARCH_WIDTH * length / width)
            if quad is not None:
                return quad, colour
    return None, None


def _laid_out(count, idx, whole, area, centres, dark, paper, corner, origin, right, down, ppu, length_px):
    """The outline of a card showing ``count`` of the blobs ``idx`` as its pips (see
    ``outline_from_pips``), in picture px, or None."""
    card_corner = (corner - origin) @ np.array([right, down]).T * ppu      # in the window
    tol = HALF_TURN * length_px
    tried = set()
    for largest in sorted(set(area[idx].tolist()), reverse=True):
        group = idx[(area[idx] >= PIP_SIZES[0] * largest) & (area[idx] <= largest)]
        if not count <= len(group) <= MAX_GROUP or tuple(group) in tried:
            continue
        tried.add(tuple(group))
        c = centres[group]
        mids = ((c[:, None, :] + c[None, :, :]) / 2)[np.triu_indices(len(c))]
        votes = (np.hypot(*(mids[:, None, :] - mids[None, :, :]).transpose(2, 0, 1)) < tol / 2).sum(axis=1)
        for m in mids[np.argsort(-votes, kind="stable")][:PIP_CENTRES]:
            half = m - card_corner
            if not (CARD_SPAN[0] * SEARCH_WIDTH < 2 * half[0] < CARD_SPAN[1] * SEARCH_WIDTH
                    and CARD_SPAN[0] * length_px < 2 * half[1] < CARD_SPAN[1] * length_px):
                continue
            inside = np.all(np.abs(c - m) < 0.95 * half, axis=1)
            alone = _alone(c - m, length_px)
            pips = group[inside & ~alone]
            lone = group[inside & alone & (np.abs(c[:, 0] - m[0]) < CENTRE_COLUMN * 2 * half[0])]
            if count in LONE_MIDDLE and len(pips) == count - 1 and len(lone) == 1:
                pips = np.concatenate([pips, lone])
            if (len(pips) != count or not _columns_and_span(centres[pips] - m, count, 2 * half[0], 2 * half[1])
                    or np.median(area[pips]) > PIP_LARGEST * 4 * half[0] * half[1]):
                continue
            if _more_than_pips(pips, m, half, whole, area, centres, dark, paper):
                continue
            quad = np.array([corner + (right * k[0] + down * k[1]) * 2 for k in
                             ((0, 0), (half[0] / ppu, 0), (half[0] / ppu, half[1] / ppu), (0, half[1] / ppu))])
            return quad
    return None


def _more_than_pips(pips, m, half, whole, area, centres, dark, paper) -> bool:
    """Whether the box the pips span (grown by a pip), in the card centred at ``m`` reaching ``half``
    each way, holds a blob of a pip's size or more besides them, a washed-out pip where a lone
    pip's partner would be, or more other ink than ``OTHER_INK`` of theirs (index corners left out)."""
    pip = float(np.median(area[pips]))
    grow = np.sqrt(pip)
    p = centres[pips]
    lo, hi = p.min(axis=0) - grow, p.max(axis=0) + grow
    rel = (centres - m) / half                                  # -1..1 across the card
    in_corner = np.all(1 - np.abs(rel) < 2 * np.array(INDEX_CORNER), axis=1)
    near = whole & np.all((centres > lo) & (centres < hi), axis=1) & ~in_corner
    near[pips] = False
    if np.any(area[near] >= 0.5 * pip):
        return True
    if area[near].sum() > OTHER_INK * pip * len(pips):
        return True
    return _washed_out(dark, paper, 2 * m - p[_alone(p - m, 2 * half[1])], pip)


def _washed_out(dark, paper, places, pip: float) -> bool:
    """Whether faint ink (``FAINT_RATIO``) fills more than ``FAINT_SHARE`` of a pip-sized window at
    any of ``places``: where a lone pip's partner would be, a pip washed out by glare."""
    faint = dark < FAINT_RATIO * paper
    r = max(2, int(round(np.sqrt(pip) / 2)))
    for x, y in places:
        x, y = int(round(x)), int(round(y))
        if faint[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].mean() > FAINT_SHARE:
            return True
    return False
