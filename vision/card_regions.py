"""Card-shaped regions that no index reading explains: face-down cards, and face-up cards whose index
is hidden or unreadable.

``card_regions(work, known_quads, size_quads=None)`` is called by ``vision.cards.find_cards`` after
the index readings; it returns Contract 2 card dicts (``card: None``, ``face: "up" | "down"``,
``confidence: 0.0``, ``quad``) for regions that

- stand out from the table in one of six masks: a colour or brightness change from the table's local
  median (plain cloths, wood, shadows), a colour that is rare in the whole picture (a patterned
  cloth's colours are common everywhere, a card's cover a few per cent of the picture), an area
  enclosed by sharp edges (a card's outline, whatever its colours), (twice) a change of the colour
  and contrast averaged over a cloth's pattern period (dots, checks and stripes average to one
  colour, a back does not), or, on a cloth that repeats itself (stripes, checks), a break of its
  period: a neighbourhood that matches none of the cloth one period away (a back in the cloth's own
  colours, whose average is the cloth's);
- have a card's shape (a rectangle of aspect 1.15-1.95, at least 65 % filled) and size (when no
  two named cards agree on the size, or no card read at both corners measured it, larger regions of
  the first three, sharp, masks are looked at next: a stock pile, its lower cards joined to its top
  card, where cards lie larger than guessed or than the named cards' outlines;
  and last, with the size guessed, every mask opened for the smallest cards a picture can show,
  where cards lie smaller than guessed; a region new there is not a lamp's glare, brighter the
  further in, nor, on a repeating cloth, a window with other colours beyond a side, the floor
  beyond the cloth's border);
- show a colour step along all four sides of the rectangle that is a straight edge: larger across
  the side than along it (a card's edge; glare, shadows, hands and a cloth's dots and checks do not;
  a break of the period is allowed sides less straight, crossed by the cloth's own lines); a region
  with no such step near its sides (the masks made at small size, a shadow joined to a card, grow a
  region past its card) is fitted again further in, onto the outermost straight steps, and kept
  with a card's aspect, the same colours beyond all four sides, and no named card's centre inside;
  a region whose rectangle still does not fit is turned to the dominant direction of the edges in it
  (a roundish region's rectangle can lie turned against its card), unless that is the cloth's own
  direction (its checks and stripes), and fitted again;
- differ in their middle from the table averaged over the finer pattern period (a card-shaped window
  of a dotted cloth, whose rows of dots pass the edge test, does not), or, for a break of the
  period, break it in their middle too (over half of it, or a fifth: a back's fine dots repeat
  nearly as a check does);
- are not already covered by a reading that named a card (under one that named none, only a region
  that is clearly a back is kept: a back's ornament is often taken for an index).

A region of a card found already, in a later mask nearer the card's size or in a mask opened for
the smallest cards, is kept as the first region's ``alternative`` (with ``alternatives``).

Of two regions where one's centre lies inside the other (a back's inner frame inside its outline,
a window of cloth grown round a card), only the one nearer the typical card's size is returned.

A region is face up when it is mostly white paper with some blank cells (a pale pattern all over a
back has none), or when a band just inside its edge is the card's brightest colour (a face's margin
under any light) around a picture, again with some blank cells (a back's white frame round an
all-over pattern has none); face down otherwise.
All masks are made at 1/4 of the work picture's size (the averaged ones at 1/8), edges and faces are
checked at 1/2.
"""

from __future__ import annotations

import cv2
import numpy as np

SCALE = 4                          # masks are made at 1/SCALE of the work picture
MIN_FILL = 0.65
ASPECT = (1.15, 1.95)
SQUAT_ASPECT = 1.0                 # a blob down to this aspect is a card too (seen slanting, its blob grown) ...
SQUAT_FILL = 0.8                   # ... when it fills this much of its rectangle (a pile's blob is ragged), and on a
                                   # repeating cloth only when it breaks the cloth's period (_breaks_period)
AREA = (0.45, 1.8)                 # region area relative to the card area expected
AREA_UNSURE = 2.6                  # ... at most, when no two named cards agree on the card size
LARGER_THAN_FOUND = 2.0            # ... and such a region's card at most this times the largest card found
ONE_PER_CARD = True                # of two regions one inside the other, only the one of the typical size
OPEN_FRACTION = 0.55               # the mask is opened with a disc of this fraction of a card's length
CARD_LENGTH = (0.085, 0.145)       # plausible card length, as a fraction of the picture's width
DEFAULT_CARD_LENGTH = 0.11         # used unless two or more readings agree on the card size
SIZE_AGREEMENT = 1.3               # the largest named card's area over the smallest's, at most
CANNY = (60, 150)                  # edge thresholds of the third mask (areas enclosed by edges)
RARE_COLOUR = 0.08                 # a colour (with its neighbour bins) held by less than this share of pixels
EDGE_STEP = 20.0                   # largest channel difference between just inside and just outside a side
EDGE_ACROSS = 1.0                  # ... and at least this times the difference along the side
EDGE_SIDE_MIN = 0.6                # share of a side's points that must show the step
PAPER_INSET = 0.9                  # "mostly paper" is judged inside the outline shrunk this much
MARGIN_PAPER = 0.75                # face up also when this share of the margin band is paper ...
INSIDE_PAPER = 0.3                 # ... and this share of all but the outer frame
BLANK_CELLS = 0.02                 # mostly paper is a face only when more than this share of cells is blank
INK_STEP = 20.0                    # a cell is blank when no channel varies more than this in it
DOWN_MARGIN_PAPER = 0.3            # clearly face down: less paper than this in the margin band and inside
FACE_INK = 0.005                   # a face has more than this share of ink inside its frame (0: no such test)
INK_DARK, INK_COLOUR = 0.55, 0.35  # ink: darker than this share of the paper, or coloured this much of it
PATTERN_PERIODS = (0.08, 0.16)     # the averaged-colour masks average over these fractions of a card length
AVERAGED_DISTANCE = 3.0            # ... and keeps what is this many times the typical distance from the table
SHRINK_INWARD = 12                 # a region with no edge near its sides is searched this far in (half-size px)
SURROUNDINGS = 60.0                # ... and kept when the colours beyond its four sides differ at most this much
SURROUNDINGS_RATIO = 0.45          # ... or the darkest side is at least this share of the brightest (0: no such test)
SURROUNDINGS_HUE = 0.15            # ... and their channels' shares of their brightness differ at most this much
KNOWN_OVERLAP = 0.3                # a region this much covered by a reading is that reading's card
MIN_PICTURE = 16                   # pictures narrower or lower than this (pixels) hold no card region
STANDS_OUT = 1.5                   # a region's middle differs from the table by this many typical distances
PERIODIC = True                    # a sixth mask: where a patterned cloth does not repeat itself
PATTERN_CONTRAST = 10.0            # a cloth with a median 5 x 5 grey spread under this has no pattern to repeat
PERIOD_MIN = 0.4                   # the cloth's autocorrelation at its period, at least (1 at no shift)
PERIOD_SECOND = 0.3                # a second period, in another direction, at least this share of the first's
PERIOD_MAX = 0.6                   # periods shorter than this share of a card's length
PERIOD_SLACK = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))   # (the perspective changes the period)
PERIODIC_LEVEL = (8.0, 3.0)        # not cloth: a neighbourhood difference above both this and this x its median
PERIOD_BREAK_SHARE = 0.2           # ... or this share of its middle above the level (None: the median only)
TURN_REFIT = True                  # a region whose sides do not fit is turned to its edges' direction and fitted again
TURN_DOMINANCE = 0.3               # ... when one edge direction (modulo 90°) dominates this much (0-1)
TURN_MIN = 6.0                     # ... and lies this many degrees or more off its rectangle and the cloth's direction
TURN_CLOTH = 0.15                  # ... the cloth's direction: the whole picture's, when it dominates this much
PERIODIC_STRAIGHT = 0.4            # a region of that mask needs this share of each side straight (EDGE_SIDE_MIN)
UNMEASURED_LARGER = True           # the larger regions looked at too when the size comes from no card's two corners
SMALL_CARDS = True                 # with the card size guessed, the masks opened again for cards of CARD_LENGTH[0], last
GLARE_RISE = 1.05                  # ... where a new region brighter the further in by this at each step is glare
THREE_SIDES = True                 # ... one fitting three sides, the fourth on a named outline (_three_sided)
THREE_SIDES_NEAR = 6.0             # ... within this many half-size px of it
THREE_SIDES_ALIKE = (5.0, 0.25)    # ... not along one of its sides (degrees apart, middles apart / length)
CUT_NAMED = True                   # last, the sharp masks without the named cards' outlines (a card joined to one)
BESIDE_MARGIN = 6.0                # ... the table beyond a side lies this far (half-size px) outside those outlines
NEARER_SIZE = 0.22                 # a later mask's region of a card found already, its outline this much nearer the
                                   # card size (|log(area / card area)|), is that region's alternative (0: off)

# the face test looks at the card flattened to _FLAT_W x _FLAT_H; inset from the edge in card widths:
_FLAT_W, _FLAT_H = 40, 60
_ys, _xs = np.mgrid[0:_FLAT_H, 0:_FLAT_W]
_INSET = np.minimum(np.minimum(_xs + 0.5, _FLAT_W - _xs - 0.5), np.minimum(_ys + 0.5, _FLAT_H - _ys - 0.5)) / _FLAT_W
MARGIN_BAND = (_INSET >= 0.05) & (_INSET < 0.12)    # a face's white margin, a back's pattern
INSIDE = _INSET >= 0.05                               # all but a back's white frame


def _table_model(img: np.ndarray, card_px: float) -> np.ndarray:
    """The table's colour at every pixel: a median over about a card's length, from a small copy."""
    h, w = img.shape[:2]
    f = 4
    small = cv2.resize(img, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    k = int(max(5, round(1.4 * card_px / f))) | 1
    med = cv2.medianBlur(small, min(k, 255))
    return cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)


def foreground_mask(img: np.ndarray, card_px: float) -> np.ndarray:
    """Pixels that are not table: a colour change, or a brightness change a shadow cannot explain
    (not yet opened: ``_opened``)."""
    bg = _table_model(img, card_px).astype(np.float32) + 8.0
    f = cv2.GaussianBlur(img, (3, 3), 0).astype(np.float32) + 8.0
    b, g, r = cv2.split(cv2.divide(f, bg))
    lum = (b + g + r) / 3.0
    chroma = cv2.max(cv2.max(cv2.absdiff(b, lum), cv2.absdiff(g, lum)), cv2.absdiff(r, lum)) / lum
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(grey, (5, 5))
    std = cv2.sqrt(cv2.max(cv2.blur(grey * grey, (5, 5)) - mean * mean, 0.0))
    k = int(max(5, round(1.4 * card_px))) | 1
    table_std = cv2.resize(cv2.medianBlur(cv2.resize(std, (std.shape[1] // 2, std.shape[0] // 2)).astype(np.uint8),
                                          min(255, k // 2 | 1)), (std.shape[1], std.shape[0])).astype(np.float32)
    textured = std - table_std > 10
    mask = (chroma > 0.15) | (lum > 1.3) | (lum < 0.35) | textured
    return mask.astype(np.uint8) * 255


def averaged_colour_distance(img: np.ndarray, card_px: float, period: float) -> np.ndarray:
    """How far each pixel's neighbourhood (a Gaussian of ``period`` card lengths) is from the table's,
    in units of the picture's typical such distance: averaging over a cloth's pattern period makes a
    dotted or checked cloth one even colour, and a card's cover stands out from it. The neighbourhood
    is told by its mean colour and the spread of its brightness (a pattern's contrast)."""
    h, w = img.shape[:2]
    img = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)      # smooth enough to halve
    card_px = card_px / 2
    sigma = period * card_px
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    colour_and_grey = cv2.GaussianBlur(cv2.merge([*cv2.split(img.astype(np.float32)), grey]), (0, 0), sigma)
    b, g, r, grey_mean = cv2.split(colour_and_grey)
    spread = cv2.sqrt(cv2.max(cv2.GaussianBlur(grey * grey, (0, 0), sigma) - grey_mean * grey_mean, 0.0))
    features = cv2.convertScaleAbs(cv2.merge([b, g, r, spread]))
    # the table is the local median, or (where the cloth ends in a corner of the picture, and a
    # local median is mostly the floor) the whole picture's median
    distances = []
    whole = np.array([median_u8(features[:, :, k]) for k in range(4)])
    for table in (_table_model(features, card_px), whole):
        channels = cv2.split(cv2.absdiff(features, np.broadcast_to(table, features.shape).astype(np.uint8)))
        distances.append(cv2.max(cv2.max(channels[0], channels[1]), cv2.max(channels[2], channels[3])))
    distance = cv2.min(distances[0], distances[1])
    typical = max(1.0, median_u8(distance))
    return cv2.resize(distance.astype(np.float32) / typical, (w, h), interpolation=cv2.INTER_LINEAR)


def median_u8(values: np.ndarray) -> float:
    """``float(np.median(values))`` of 8-bit values, from their histogram: the mean of the two middle
    values (one value, of an odd count), about four times faster on a picture's channel."""
    values = np.ascontiguousarray(values).ravel()
    below = np.cumsum(np.bincount(values, minlength=256))     # how many values lie at or under each level
    n = values.size
    return (float(np.searchsorted(below, (n - 1) // 2, side="right"))
            + float(np.searchsorted(below, n // 2, side="right"))) / 2


def averaged_colour_mask(distance: np.ndarray, open_px: float) -> np.ndarray:
    """Pixels whose neighbourhood, averaged over a pattern's period, differs from the table's
    (``distance``: ``averaged_colour_distance``), opened for cards of ``open_px`` (``_opened``)."""
    mask = _opened((distance > AVERAGED_DISTANCE).astype(np.uint8) * 255, open_px)
    # the average blurs a card's outline outwards by more the more the card stands out: each blob is
    # cut again at half its own level, where a blurred step has its edge
    count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    out = np.zeros_like(mask)
    for i in range(1, count):
        x, y, w, h = stats[i, :4]
        blob = labels[y:y + h, x:x + w] == i
        level = max(AVERAGED_DISTANCE, 0.5 * float(np.median(distance[y:y + h, x:x + w][blob])))
        out[y:y + h, x:x + w][blob & (distance[y:y + h, x:x + w] > level)] = 255
    return out


def rare_colour_mask(img: np.ndarray) -> np.ndarray:
    """Pixels whose colour is rare in the picture (Lab histogram of 8 x 16 x 16 bins, each bin counted
    with its six neighbours): on a patterned cloth the cloth's colours are the common ones (not yet
    opened: ``_opened``)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (3, 3), 0), cv2.COLOR_BGR2Lab)
    hist = cv2.calcHist([lab], [0, 1, 2], None, [8, 16, 16], [0, 256, 0, 256, 0, 256])
    with_neighbours = hist.copy()
    for axis in range(3):
        with_neighbours += np.roll(hist, 1, axis) + np.roll(hist, -1, axis)
    rare_bins = np.where(with_neighbours < RARE_COLOUR * lab.shape[0] * lab.shape[1], 255, 0).astype(np.uint8)
    l, a, b = cv2.split(lab)
    bin_index = (l.astype(np.int32) >> 5 << 8) | (a.astype(np.int32) >> 4 << 4) | (b.astype(np.int32) >> 4)
    return rare_bins.reshape(-1)[bin_index]


def edge_enclosed_mask(half: np.ndarray, size) -> np.ndarray:
    """Areas enclosed by sharp edges (Canny on the half-size picture, each outline filled), at ``size``:
    a card's outline closes even where its colours are the table's or the cloth's (not yet opened:
    ``_opened``)."""
    edges = cv2.Canny(cv2.cvtColor(half, cv2.COLOR_BGR2GRAY), CANNY[0], CANNY[1])
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    outlines, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(edges.shape, np.uint8)
    cv2.drawContours(filled, outlines, -1, 255, -1)
    return cv2.resize(filled, size, interpolation=cv2.INTER_NEAREST)


def pattern_periods(img: np.ndarray, card_px: float) -> list[np.ndarray]:
    """The shifts (x, y pixels) that map a patterned cloth onto itself: the highest peak of the grey
    picture's autocorrelation away from zero shift (a stripe's or check's period, shorter than
    PERIOD_MAX of a card), and the highest one in another direction (the second axis of checks and
    dots), if it is at least PERIOD_SECOND of the first.  No shift when the picture has little fine
    contrast (PATTERN_CONTRAST: plain cloths, felt, most wood) or does not repeat itself (PERIOD_MIN
    at the first peak)."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(grey, (5, 5))
    spread = cv2.sqrt(cv2.max(cv2.blur(grey * grey, (5, 5)) - mean * mean, 0.0))
    if float(np.median(spread[::2, ::2])) < PATTERN_CONTRAST:
        return []
    grey -= float(grey.mean())
    spectrum = cv2.dft(grey, flags=cv2.DFT_COMPLEX_OUTPUT)
    corr = cv2.idft(cv2.mulSpectrums(spectrum, spectrum, 0, conjB=True), flags=cv2.DFT_REAL_OUTPUT)
    if corr[0, 0] <= 0:
        return []
    # the shifts within reach, as a window round zero shift of the (cyclic) correlation
    r = int(np.ceil(PERIOD_MAX * card_px)) + 2          # (+ 2: the peak test's 5 x 5 neighbourhood)
    h, w = corr.shape
    if 2 * r + 1 > min(h, w):
        return []
    rows = np.r_[h - r:h, 0:r + 1]
    cols = np.r_[w - r:w, 0:r + 1]
    window = np.ascontiguousarray(corr[np.ix_(rows, cols)] / corr[0, 0])
    dy, dx = np.mgrid[-r:r + 1, -r:r + 1]
    radius = np.hypot(dy, dx)
    peak = (window >= cv2.dilate(window, np.ones((5, 5), np.uint8))) & (radius > 3) & (radius < PERIOD_MAX * card_px)
    ys, xs = np.nonzero(peak)
    if len(ys) == 0:
        return []
    values = window[ys, xs]
    order = np.argsort(-values, kind="stable")
    if values[order[0]] < PERIOD_MIN:
        return []
    first = np.array([dx[ys[order[0]], xs[order[0]]], dy[ys[order[0]], xs[order[0]]]], np.float64)
    shifts = [first]
    for k in order[1:]:
        if values[k] < PERIOD_SECOND * values[order[0]]:
            break
        v = np.array([dx[ys[k], xs[k]], dy[ys[k], xs[k]]], np.float64)
        if abs(first[0] * v[1] - first[1] * v[0]) > 0.35 * np.hypot(*first) * np.hypot(*v):
            shifts.append(v)
            break
    return shifts


def periodic_difference(img: np.ndarray, card_px: float):
    """(difference, level) where a patterned cloth does not repeat itself, or None on a cloth that
    does not repeat (``pattern_periods``): each pixel's 5 x 5 neighbourhood is compared with the
    neighbourhoods one period away (both ways, give or take a pixel for the perspective's change of
    period), and the smallest of the differences is kept.  Cloth matches itself somewhere; a card's
    back breaks the period wherever its colours are the cloth's own.  ``level``: the difference that
    is not cloth (PERIODIC_LEVEL)."""
    shifts = pattern_periods(img, card_px)
    if not shifts:
        return None
    h, w = img.shape[:2]
    # every shift, a pixel of slack included, is a window of one padded copy (edges replicated)
    pad = int(max(np.abs(v).max() for v in shifts)) + 1
    padded = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    best = None
    for v in shifts:
        for sign in (1, -1):
            for dx, dy in PERIOD_SLACK:
                x0, y0 = pad + int(sign * v[0]) + dx, pad + int(sign * v[1]) + dy
                b, g, r = cv2.split(cv2.absdiff(img, padded[y0:y0 + h, x0:x0 + w]))
                diff = cv2.blur(cv2.max(cv2.max(b, g), r), (5, 5))
                best = diff if best is None else cv2.min(best, diff)
    return best, max(PERIODIC_LEVEL[0], PERIODIC_LEVEL[1] * float(np.median(best)))


def periodic_mask(periodic, card_px: float, shape, open_px: float | None = None) -> np.ndarray:
    """The blobs of ``periodic_difference`` above its level, closed and filled to the cards' outlines,
    opened for cards of ``open_px`` (default ``card_px``)."""
    if periodic is None:
        return np.zeros(shape[:2], np.uint8)
    difference, level = periodic
    mask = cv2.compare(difference, level, cv2.CMP_GT)
    k = int(0.2 * card_px) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, outlines, -1, 255, -1)
    return _opened(filled, open_px or card_px)


def _opened(mask: np.ndarray, card_px: float) -> np.ndarray:
    """The mask with pinholes closed and everything narrower than about a card's width removed."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    k = int(max(5, OPEN_FRACTION * card_px)) | 1
    return disc_opening(mask, k)


_DISC_STEPS: dict = {}


def _disc_steps(k: int) -> list[np.ndarray]:
    """OpenCV's k x k ellipse as the union of the rectangles of its staircase: one per half-width of
    its rows, as tall as the rows at least that wide reach."""
    if k not in _DISC_STEPS:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        r = k // 2
        half = [int(np.count_nonzero(row)) // 2 if row.any() else -1 for row in disc]
        _DISC_STEPS[k] = [np.ones((2 * max(abs(dy - r) for dy, x in enumerate(half) if x >= h) + 1, 2 * h + 1),
                                  np.uint8) for h in sorted({x for x in half if x >= 0})]
    return _DISC_STEPS[k]


def disc_opening(mask: np.ndarray, k: int) -> np.ndarray:
    """``cv2.morphologyEx(mask, MORPH_OPEN, the k x k ellipse)``, pixel for pixel, about a third faster
    for the sizes the masks are opened with: an erosion (dilation) by a union of rectangles is the
    minimum (maximum) of the erosions (dilations) by each, and OpenCV erodes by a rectangle in two
    one-dimensional passes where it takes every one of the ellipse's pixels in turn."""
    steps = _disc_steps(k)
    eroded = cv2.erode(mask, steps[0])
    for step in steps[1:]:
        eroded = cv2.min(eroded, cv2.erode(mask, step))
    opened = cv2.dilate(eroded, steps[0])
    for step in steps[1:]:
        opened = cv2.max(opened, cv2.dilate(eroded, step))
    return opened


def card_regions(work: np.ndarray, known_quads: list, size_quads: list | None = None,
                 under_readings: bool = False, alternatives: bool = False, size_measured: bool = True) -> list[dict]:
    """Card-shaped regions not explained by a reading: face-down cards and unreadable face-up cards.
    The card size expected is the median of ``size_quads`` (default ``known_quads``) when there are
    two or more that agree within ``SIZE_AGREEMENT`` (one reading's quad can be far off), otherwise
    ``DEFAULT_CARD_LENGTH``; either is kept within ``CARD_LENGTH`` of the picture's width.
    A region under a known quad that is not in ``size_quads`` (a reading that named no card) is
    left to that reading unless it is clearly a back; with ``under_readings`` it is returned
    too, marked ``"under_reading": True`` (the caller may read its corners again).
    ``size_measured`` False: the named cards' outlines come from the index geometry's median alone
    (no card read at both corners measured this pack's proportions), and a pack whose index is set
    further from its corner has cards larger than those outlines: the larger regions are looked at
    too (``UNMEASURED_LARGER``).
    With ``alternatives`` a region may carry an ``"alternative"`` region of the same card, found in a
    later mask with a size nearer the card's (``NEARER_SIZE``): a court card's picture can stand out
    from a patterned cloth in one mask, its white margins blending in, and the whole card in
    another.  The caller chooses between the two (``vision.cards``: the alternative when only it is
    named by its corners or picture)."""
    h, w = work.shape[:2]
    if min(h, w) < MIN_PICTURE:
        return []                                # (the masks' small copies would be empty)
    half = cv2.resize(work, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    small = cv2.resize(half, (w // SCALE, h // SCALE), interpolation=cv2.INTER_AREA)
    card_area = _agreed_area(known_quads if size_quads is None else size_quads) / (SCALE * SCALE)
    size_known = card_area > 0
    card_px = np.sqrt(card_area * 1.5) if card_area else DEFAULT_CARD_LENGTH * small.shape[1]
    card_px = float(np.clip(card_px, CARD_LENGTH[0] * small.shape[1], CARD_LENGTH[1] * small.shape[1]))
    card_area = card_px * card_px / 1.5
    named_quads = known_quads if size_quads is None else size_quads
    named_half = [np.asarray(q, float) / 2.0 for q in named_quads]     # (in the half-size picture)
    named = np.zeros(small.shape[:2], np.uint8)         # cards read by their index
    unnamed = np.zeros(small.shape[:2], np.uint8)       # index-like marks no card was read from
    for q in known_quads:
        is_named = any(np.array_equal(np.asarray(q), np.asarray(n)) for n in named_quads)
        cv2.fillPoly(named if is_named else unnamed, [np.round(np.asarray(q) / SCALE).astype(np.int32)], 255)
    out = []
    centres = []
    offs = []                    # each region's (or its alternative's) outline size off the card's, |log ratio|
    distances = [averaged_colour_distance(small, card_px, period) for period in PATTERN_PERIODS]
    periodic = periodic_difference(small, card_px) if PERIODIC else None
    sharp = [foreground_mask(small, card_px), rare_colour_mask(small),
             edge_enclosed_mask(half, (small.shape[1], small.shape[0]))]

    def opened_masks(open_px):
        """The six masks (the sixth on a repeating cloth only) opened for cards of ``open_px``."""
        return ([_opened(m, open_px) for m in sharp] + [averaged_colour_mask(d, open_px) for d in distances]
                + ([periodic_mask(periodic, card_px, small.shape, open_px)] if periodic is not None else []))

    masks = opened_masks(card_px)
    breaking = [periodic is not None and k == len(masks) - 1 for k in range(len(masks))]
    # with the card size unsure (guessed, or measured by no card), larger regions of the sharp masks are
    # looked at too, after all the others: a stock pile's top card with the pile's lower cards grown
    # onto it, on a table where the cards lie larger than guessed (the averaged masks, blurred outwards,
    # grow glare spots to that size); and last, with the size guessed, every mask opened for the
    # smallest cards a picture can show (SMALL_CARDS)
    passes = [(AREA, range(len(masks)), "first")]
    if not size_known or (UNMEASURED_LARGER and not size_measured):
        passes.append(((AREA[1], AREA_UNSURE), range(len(sharp)), "larger"))
        if SMALL_CARDS and not size_known:
            first = len(masks)
            masks += opened_masks(CARD_LENGTH[0] * small.shape[1])
            breaking += breaking[:first]
            passes.append((AREA, range(first, len(masks)), "small"))
    if CUT_NAMED and cv2.countNonZero(named):
        # a card touching a named one joins its blob in the sharp masks (a trick's second card, a court
        # beside the pip card read on it): without the named outlines the rest is that card's own.
        # Looked at last, where no region was found: a named outline can also cover a card on it
        keep = cv2.bitwise_not(cv2.dilate(named, np.ones((3, 3), np.uint8)))
        first = len(masks)
        masks += [_opened(cv2.bitwise_and(m, keep), card_px) for m in sharp]
        breaking += [False] * len(sharp)
        passes.append((AREA, range(first, len(masks)), "cut"))
    cloth_direction = None
    for area_range, which, kind in [(r, k, kind) for r, ks, kind in passes for k in ks]:
        mask = masks[which]
        # a region of the periodic mask broke the cloth's period already: its sides may be crossed by
        # the cloth's checks and stripes (less of each side straight), and its middle may average to
        # the cloth's colour (it breaks the period instead)
        breaks_period = breaking[which]
        for rect, region in _card_shaped(mask, card_area, area_range):
            area = cv2.countNonZero(region)
            if cv2.countNonZero(cv2.bitwise_and(region, named)) > KNOWN_OVERLAP * area:
                continue
            # an unnamed reading is often a back's ornament taken for an index: the region is kept
            # when it is a face-down card, and left to the reading otherwise
            on_unnamed = cv2.countNonZero(cv2.bitwise_and(region, unnamed)) > KNOWN_OVERLAP * area
            if on_unnamed and kind == "cut":
                continue                         # (left to that reading: the rest of a court's picture)
            centre = np.array(rect[0]) * SCALE
            near = [k for k, c in enumerate(centres) if np.hypot(*(centre - c)) < 0.3 * card_px * SCALE]
            # a card found already, with no alternative yet, may take one from the small cards' masks
            # (the index columns of a court on a white cloth, cut off by the first opening, join its picture)
            late = [k for k in near if kind == "small" and alternatives and "alternative" not in out[k]]
            if near and (kind == "cut" or (not late and not (alternatives and NEARER_SIZE))):
                continue                         # found in another mask already
            straight_min = PERIODIC_STRAIGHT if breaks_period else EDGE_SIDE_MIN
            guess = cv2.boxPoints(rect) * (SCALE / 2.0)
            moves = side_offsets(half, guess, straight_min=straight_min)      # (edge_fitted's, kept for THREE_SIDES)
            box = None if any(m is None for m in moves) else moved_sides(guess, moves)
            if box is None and kind == "cut" and THREE_SIDES and named_half:
                box = _three_sided(guess, moves, named_half)
            if box is None:
                box = _shrunk_to_edges(half, guess, straight_min)
                if box is None and TURN_REFIT:
                    # a roundish region's rectangle can lie turned against its card: turned onto the
                    # edges' own direction and fitted again
                    if cloth_direction is None:
                        cloth_direction = [_edge_direction(half)]
                    turned = _turned_to_edges(half, region, rect, cloth_direction[0])
                    if turned is not None:
                        box = edge_fitted(half, turned, straight_min=straight_min)
                        if box is None:
                            box = _shrunk_to_edges(half, turned, straight_min)
                # a region grown round a named card whose outline came out too small is that card
                if box is not None and _holds_a_centre(box, named_half):
                    box = None
            if box is None:
                continue
            box = _portrait_order(box)
            if (_aspect(rect) < ASPECT[0] and periodic is not None
                    and not _breaks_period(periodic, box * (2.0 / SCALE))):
                # a squat window of a check or stripes at the cloth's border passes the edge test
                # (the border and the cloth's rows) and stands out (the floor's colour averaged in)
                continue
            if not (_stands_out(distances[0], box * (2.0 / SCALE))
                    or (breaks_period and _breaks_period(periodic, box * (2.0 / SCALE)))):
                continue                         # a card-shaped window of a patterned cloth
            quad = box * 2.0                     # in the full picture, where paper and backs are told apart
            if late:
                k_late = min(late, key=lambda k: offs[k])
                if _corner_shift(quad, out[k_late]["quad"]) <= 1.0:
                    continue                     # the same outline as that region's: nothing to read again
            if kind == "larger":
                # a larger region round a card found or named already is that card; one far larger than the
                # cards found is not a card (a glare spot on a dotted cloth, its rows of dots straight)
                cards_here = [r["quad"] for r in out] + [np.asarray(q, float) for q in named_quads]
                largest = max([cv2.contourArea(np.float32(r["quad"])) for r in out], default=np.inf)
                if _holds_a_centre(quad, cards_here) or cv2.contourArea(np.float32(quad)) > LARGER_THAN_FOUND * largest:
                    continue
            under = on_unnamed and not _is_clearly_face_down(work, quad)
            if under and not under_readings:
                continue
            quad_off = _size_off(cv2.contourArea(np.float32(quad)), card_area * SCALE * SCALE)
            if near and not late and quad_off >= min(offs[k] for k in near) - NEARER_SIZE:
                continue                         # (its outline is not nearer the card's size)
            if kind == "small" and not near and (_glare_spot(half, box) or (
                    periodic is not None and not _same_surroundings(half, box))):
                continue                         # a glare spot; a window of a check at the cloth's border
            if kind == "cut" and not (
                    _same_surroundings(half, box, beside=named_half)
                    or _breaks_period(periodic, box * (2.0 / SCALE))):
                # a window of table between a named card and the floor; on a cloth that repeats itself
                # the sides' medians can fall on different squares: a card there breaks its period
                continue
            face = "up" if _is_face_up(work, quad) else "down"
            region = {"card": None, "face": face, "confidence": 0.0, "quad": quad}
            if under:
                region["under_reading"] = True
            if late:
                out[k_late]["alternative"] = region
            elif near:
                k = min(near, key=lambda k: offs[k])
                out[k]["alternative"], offs[k] = region, quad_off
            else:
                centres.append(centre)
                offs.append(quad_off)
                out.append(region)
    return _one_region_per_card(out, card_area * SCALE * SCALE) if ONE_PER_CARD else out


def _size_off(area: float, expected: float) -> float:
    """How far an area lies from the expected card area: |log(area / expected)|."""
    return abs(float(np.log(max(area, 1.0) / expected)))


def _one_region_per_card(regions: list[dict], card_area: float) -> list[dict]:
    """The regions with, of two where one's centre lies inside the other, only the one whose area is
    nearer the typical card's: a back's inner frame or figure, found in one mask, lies inside the
    card's outline found in another, and a window of cloth grown round a card holds that card.  The
    typical area is the median of the regions in no such pair (the cards of a table are one size),
    or, without any, ``card_area`` (the size expected)."""
    nested = [(i, j) for i in range(len(regions)) for j in range(i + 1, len(regions))
              if _holds_a_centre(regions[i]["quad"], [regions[j]["quad"]])
              or _holds_a_centre(regions[j]["quad"], [regions[i]["quad"]])]
    if not nested:
        return regions
    areas = np.array([cv2.contourArea(np.float32(r["quad"])) for r in regions])
    alone = [a for k, a in enumerate(areas) if not any(k in pair for pair in nested)]
    typical = float(np.median(alone)) if alone else card_area
    off = np.abs(np.log(np.maximum(areas, 1.0) / max(1.0, typical)))
    dropped: set[int] = set()
    for i in np.argsort(off, kind="stable"):           # nearest the typical size first
        if i not in dropped:
            dropped |= {j for pair in nested if i in pair for j in pair if j != i}
    return [r for k, r in enumerate(regions) if k not in dropped]


def _holds_a_centre(box: np.ndarray, quads: list) -> bool:
    """Whether the centre of any of ``quads`` lies inside ``box`` (or on its outline)."""
    return any(cv2.pointPolygonTest(np.float32(box), tuple(float(v) for v in np.mean(np.asarray(q, float), axis=0)),
                                    False) >= 0 for q in quads)


def _card_shaped(mask: np.ndarray, card_area: float, area_range=AREA):
    """(minAreaRect, filled region) of each blob in ``mask`` with a card's size (``area_range``: its
    area from the first to the second of these times ``card_area``) and shape.  A card lying across
    the line of sight of a slanting camera looks shorter, and at 1/8 of the picture its blob grows by
    a pixel on every side: such a blob can be nearly square (``SQUAT_ASPECT``), and is kept when it
    fills its rectangle as a card's does (``SQUAT_FILL``; a pile's or a trick's blob does not)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if not area_range[0] * card_area <= area <= area_range[1] * card_area:
            continue
        rect = cv2.minAreaRect(cnt)
        (rw, rh) = rect[1]
        if min(rw, rh) < 5:
            continue
        fill = area / (rw * rh)
        aspect = _aspect(rect)
        if fill < MIN_FILL or not min(ASPECT[0], SQUAT_ASPECT) <= aspect <= ASPECT[1]:
            continue
        if aspect < ASPECT[0] and fill < SQUAT_FILL:
            continue
        region = np.zeros(mask.shape, np.uint8)
        cv2.drawContours(region, [cnt], -1, 255, -1)
        yield rect, region


def _aspect(rect) -> float:
    """A minAreaRect's long side over its short one."""
    (rw, rh) = rect[1]
    return max(rw, rh) / max(1e-6, min(rw, rh))


def _is_face_up(img: np.ndarray, box: np.ndarray) -> bool:
    """A face-up card: mostly white paper, or a margin of paper (the colour of the card's brightest
    pixels, whatever the light's colour) around a picture, with blank paper somewhere (between the
    index and the picture; a back framed in white has its pattern everywhere inside the frame),
    and in either case some ink (``_ink_share``: a pale back's fine pattern has none).
    ``box`` in portrait order."""
    mostly_paper, margin_paper, inside_paper, blank, ink = _paper_shares(img, box)
    return (mostly_paper or (margin_paper > MARGIN_PAPER and inside_paper > INSIDE_PAPER and blank > BLANK_CELLS)) and (
        not FACE_INK or ink > FACE_INK)


def _is_clearly_face_down(img: np.ndarray, box: np.ndarray) -> bool:
    """Little paper in the margin band and inside: no face, whether a picture card or pips, looks
    like this (used where a reading saw an index-like mark but named no card)."""
    mostly_paper, margin_paper, inside_paper, _, _ = _paper_shares(img, box)
    return not mostly_paper and margin_paper < DOWN_MARGIN_PAPER and inside_paper < DOWN_MARGIN_PAPER


def _paper_shares(img: np.ndarray, box: np.ndarray) -> tuple[bool, float, float, float, float]:
    """(mostly white paper, share of the margin band that is paper, share of all but the outer frame
    that is paper, share of blank cells (``_blank_share``), share of ink (``_ink_share``)); paper is
    the colour of the card's brightest pixels, whatever the light's colour."""
    middle = box.mean(axis=0)
    poly = np.round(middle + PAPER_INSET * (box - middle)).astype(np.int32)
    x0, y0 = np.maximum(poly.min(axis=0), 0)
    x1, y1 = poly.max(axis=0) + 1
    inner_mask = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
    cv2.fillPoly(inner_mask, [poly - [x0, y0]], 255)
    inner = img[y0:y1, x0:x1][inner_mask[:img.shape[0] - y0, :img.shape[1] - x0] > 0].astype(np.float32)
    if len(inner) == 0:
        return False, 0.0, 0.0, 0.0, 0.0
    low = inner.min(axis=1)
    chroma = inner.max(axis=1) - low
    top = np.percentile(low, 95)
    m = cv2.getPerspectiveTransform(np.float32(box), np.float32([[0, 0], [_FLAT_W, 0], [_FLAT_W, _FLAT_H],
                                                                  [0, _FLAT_H]]))
    flat = cv2.warpPerspective(img, m, (_FLAT_W, _FLAT_H), flags=cv2.INTER_AREA).astype(np.float32)
    blank = _blank_share(flat)
    ink = _ink_share(flat)
    if top > 120 and float(np.mean((low > 0.8 * top) & (chroma < 0.25 * top))) > 0.6:
        # white paper, or a pale pattern all over a back: a face has blank paper somewhere
        if blank > BLANK_CELLS:
            return True, 1.0, 1.0, blank, ink
        return False, 0.0, 0.0, blank, ink
    brightest = np.percentile(flat.reshape(-1, 3), 95, axis=0)
    paper = np.all(flat >= 0.8 * brightest, axis=2) & (brightest.min() > 90)
    return False, float(paper[MARGIN_BAND].mean()), float(paper[INSIDE].mean()), blank, ink


def _ink_share(flat: np.ndarray) -> float:
    """Share of the flattened card inside its outer frame that is ink: darker than ``INK_DARK`` of
    the paper (the 95th percentile of the darkest channel) or coloured by more than ``INK_COLOUR``
    of it.  Every face has some: an ace's two indices and its pip are about 2 % of it (1 % the
    least seen, a court washed by a lamp's glare); a back of a pale fine pattern has none
    (dev 3 415 040: two pale blue backs with blank-looking cells, called face up)."""
    low = flat.min(axis=2)[INSIDE]
    chroma = flat.max(axis=2)[INSIDE] - low
    paper = float(np.percentile(low, 95))
    return float(np.mean((low < INK_DARK * paper) | (chroma > INK_COLOUR * paper)))


def _blank_share(flat: np.ndarray) -> float:
    """Share of the cells (5 x 6 px of the flattened card, inside its outer frame) with no ink: no
    channel varies by more than INK_STEP within the cell."""
    cells = flat[3:_FLAT_H - 3, 3:_FLAT_W - 2].reshape((_FLAT_H - 6) // 6, 6, (_FLAT_W - 5) // 5, 5, 3)
    spread = (cells.max(axis=(1, 3)) - cells.min(axis=(1, 3))).max(axis=2)
    return float(np.mean(spread < INK_STEP))


def edge_fitted(img: np.ndarray, box: np.ndarray, shift: int = 4, depth: float = 2.0, points: int = 14,
                 straight_min: float = EDGE_SIDE_MIN, inward: int | None = None):
    """The rectangle ``box`` (in ``img`` pixels) with each side moved, up to ``shift`` px along its
    normal, onto the strongest colour step; None when a side shows no step over most of its length,
    or no step that is a straight edge: one across the side larger than the change along it (a card's
    side; the dots, checks and stripes of a cloth change as much along any line through them).
    With ``inward`` each side is searched from ``inward`` px inside to 1 px outside instead, and
    moves onto the outermost peak of the outermost run of offsets where the step is a straight edge
    over enough of the side: for a region grown past its card, the card's edge is the first such
    step met going in (the frame of a back's pattern or of a court card's picture lies further in)."""
    moves = side_offsets(img, box, shift, depth, points, straight_min, inward=inward)
    return None if any(m is None for m in moves) else moved_sides(box, moves)


def side_offsets(img: np.ndarray, box: np.ndarray, shift: int = 4, depth: float = 2.0, points: int = 14,
                 straight_min: float = EDGE_SIDE_MIN, inward: int | None = None,
                 outward: int | None = None) -> list[float | None]:
    """How far each side of ``box`` lies from the edge ``edge_fitted`` moves it onto (px along the
    side's outward normal; None for a side with no such edge).  With ``outward`` each side is
    searched from ``shift`` px inside to ``outward`` px outside, and the edge is the middle of the
    strongest steps of the innermost run of offsets where the step is a straight edge over enough of
    the side: for an outline set inside its card, the card's edge is the first such step met going
    out."""
    t = np.linspace(0.15, 0.85, points, dtype=np.float32)[:, None]
    if inward is not None:
        offsets = np.arange(-inward, 2, dtype=np.float32)
    elif outward is not None:
        offsets = np.arange(-shift, outward + 1, dtype=np.float32)
    else:
        offsets = np.arange(-shift, shift + 1, dtype=np.float32)
    p0, along, tangent, normal = (np.array(v, np.float32) for v in zip(*_sides(box)))     # 4 x 2 each
    on_side = ((p0[:, None, :] + t[None] * along[:, None, :])[:, None]
               + offsets[None, :, None, None] * normal[:, None, None, :])     # sides x offsets x points x 2
    n, d = normal[:, None, None, :] * depth, tangent[:, None, None, :] * depth
    # one row per (kind, side, offset): remap takes maps under 32 767 wide
    xy = np.stack([on_side - n, on_side + n, on_side - d, on_side + d]).reshape(-1, points, 2)
    samples = cv2.remap(img, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside, outside, before, after = samples.reshape(4, 4, len(offsets), points, 3).astype(np.float32)
    steps = np.abs(inside - outside).max(axis=3)                               # sides x offsets x points
    stepping = steps > EDGE_STEP
    scores = stepping.mean(axis=2)
    straights = (stepping & (steps > EDGE_ACROSS * np.abs(before - after).max(axis=3))).mean(axis=2)
    moves: list[float | None] = []
    for score, straight, step in zip(scores, straights, steps):
        if inward is not None or outward is not None:
            edges = np.nonzero((score >= EDGE_SIDE_MIN) & (straight >= straight_min))[0]
            if len(edges) == 0:
                moves.append(None)
                continue
            strength = step.mean(axis=1)
            if inward is not None:
                # the outermost run of such offsets, and in it the outermost peak of the step (a back's
                # thin white frame joins the steps of its two edges in one run)
                first, best = int(edges[-1]), int(edges[-1])
                while first - 1 in edges:
                    first -= 1
                while best > first and strength[best - 1] > strength[best]:
                    best -= 1
            else:
                last = int(edges[0])
                while last + 1 in edges:
                    last += 1
                # the middle of the run's strongest steps (a sharp edge steps as much over depth x 2 px)
                run = strength[edges[0]:last + 1]
                moves.append(float(np.mean(offsets[edges[0]:last + 1][run >= 0.95 * run.max()])))
                continue
        else:
            best = int(np.argmax(score))
            if score[best] < EDGE_SIDE_MIN or straight.max() < straight_min:
                moves.append(None)
                continue
        moves.append(float(offsets[best]))
    return moves


def moved_sides(box: np.ndarray, moves) -> np.ndarray | None:
    """The quad whose sides are ``box``'s moved each by ``moves`` px along its outward normal
    (None when two neighbouring sides are parallel)."""
    sides = [(p0 + move * normal, along) for (p0, along, _, normal), move in zip(_sides(box), moves)]
    corners = []
    for k in range(4):
        (a, da), (b, db) = sides[k - 1], sides[k]
        m = np.array([[da[0], -db[0]], [da[1], -db[1]]], np.float64)
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        s = np.linalg.solve(m, b - a)
        corners.append(a + s[0] * da)
    return np.array(corners, np.float64)


def _sides(box):
    """Each side of a quad (as float32): its start, its vector, its unit tangent, its unit normal
    pointing out of the quad."""
    box = np.asarray(box, np.float32)
    centre = box.mean(axis=0)
    for k in range(4):
        p0, p1 = box[k], box[(k + 1) % 4]
        along = p1 - p0
        tangent = along / max(1e-6, float(np.hypot(*along)))
        normal = np.array([tangent[1], -tangent[0]], np.float32)
        if np.dot(normal, (p0 + p1) / 2 - centre) < 0:
            normal = -normal
        yield p0, along, tangent, normal


def _three_sided(box: np.ndarray, moves: list, named: list):
    """A region of the "cut" masks (the named cards' outlines taken out) whose sides fit straight edges
    (``moves``: ``side_offsets``) but one, that one lying on a named card's outline: a card lying over
    the named one, its side there over the named card's paper, paper against paper, with no step to
    fit.  The three sides are fitted and the fourth kept where the region puts it, when the rectangle
    has a card's aspect (``ASPECT``), does not continue a named outline (``_continues``) and holds no
    named card's centre (both: the rest of a named card whose outline came out too small).  None
    otherwise."""
    missing = [k for k, m in enumerate(moves) if m is None]
    if len(missing) != 1:
        return None
    k = missing[0]
    p0, along, _, _ = list(_sides(box))[k]
    middle = p0 + 0.5 * along
    if not any(cv2.pointPolygonTest(np.float32(q), (float(middle[0]), float(middle[1])), True) > -THREE_SIDES_NEAR
               for q in named):
        return None
    fitted = moved_sides(box, [0.0 if m is None else m for m in moves])
    if fitted is None or _continues(fitted, k, named) or _holds_a_centre(fitted, named):
        return None
    lengths = np.hypot(*np.diff(np.vstack([fitted, fitted[:1]]), axis=0).T)
    across, along_sides = lengths[0] + lengths[2], lengths[1] + lengths[3]
    return fitted if ASPECT[0] <= max(across, along_sides) / max(1e-6, min(across, along_sides)) <= ASPECT[1] else None


def _continues(box: np.ndarray, k: int, named: list) -> bool:
    """Whether side ``k`` of ``box`` lies along a side of a named outline: turned alike within
    ``THREE_SIDES_ALIKE[0]`` degrees, the two sides' middles apart by at most ``THREE_SIDES_ALIKE[1]`` of
    its length.  The box is then the rest of that card, its outline placed from its index too small (a pack
    whose index sits further in than the geometry's median; dev face-down 3 418 163, an atlasnye two of
    hearts, 2.5 degrees), not a card lying over it (dev 3 161 670, the king 10 degrees off the ace)."""
    p0, along, tangent, _ = list(_sides(box))[k]
    middle, length = p0 + 0.5 * along, float(np.hypot(*along))
    return any(abs(float(np.dot(tangent, q_tangent))) >= np.cos(np.deg2rad(THREE_SIDES_ALIKE[0]))
               and float(np.hypot(*(q0 + 0.5 * q_along - middle))) <= THREE_SIDES_ALIKE[1] * length
               for q in named for q0, q_along, q_tangent, _ in _sides(q))


def _shrunk_to_edges(img: np.ndarray, box: np.ndarray, straight_min: float):
    """A region whose sides show no edge within a few pixels, fitted again further in
    (``edge_fitted`` with ``inward``): the masks made at 1/8 size, and a shadow or a neighbour
    joined to a card, grow a region well past its card's edges.  Kept only with a card's aspect and
    the same surroundings on all four sides (``_same_surroundings``): a window of a checked cloth
    whose side is the table's edge has the floor beyond that side."""
    fitted = edge_fitted(img, box, straight_min=straight_min, inward=SHRINK_INWARD)
    if fitted is None:
        return None
    (w, h) = cv2.minAreaRect(fitted.astype(np.float32))[1]
    if not ASPECT[0] <= max(w, h) / max(1e-3, min(w, h)) <= ASPECT[1] or not _same_surroundings(img, fitted):
        return None
    return fitted


def _edge_direction(img: np.ndarray, mask=None):
    """(direction in radians of the dominant edge normal modulo 90°, its dominance 0-1) of ``img``'s
    colour edges (within ``mask``): the mean of four times the gradient's angle, weighted by its
    magnitude (per pixel the channel with the largest step, signed by the channels' sum)."""
    gradients = []
    for dx, dy in ((1, 0), (0, 1)):
        channels = cv2.split(cv2.Sobel(img.astype(np.float32), cv2.CV_32F, dx, dy, ksize=3))
        largest = np.abs(channels[0])
        for c in channels[1:]:
            largest = cv2.max(largest, np.abs(c))
        gradients.append(largest * np.sign(sum(channels)))
    gx, gy = gradients
    if mask is not None:
        gx, gy = gx[mask], gy[mask]
    # with the angle t and the magnitude m: a = m² cos 2t, b = m² sin 2t, a² - b² = m⁴ cos 4t, 2ab = m⁴ sin 4t
    a = gx * gx - gy * gy
    b = 2.0 * gx * gy
    m = np.sqrt(np.sqrt(a * a + b * b))
    total = float(m.sum())
    if total <= 0:
        return 0.0, 0.0
    weight = 1.0 / np.maximum(m * m * m, 1e-12)
    z = complex(float(np.sum((a * a - b * b) * weight)), float(np.sum(2.0 * a * b * weight))) / total
    return float(np.angle(z)) / 4.0, float(abs(z))


def _turned_to_edges(half: np.ndarray, region: np.ndarray, rect, cloth=(0.0, 0.0)):
    """The rectangle (in ``half`` pixels) of the region ``region`` (a mask at 1/SCALE) turned to the
    dominant direction of the colour edges in it (a card's sides and frame, modulo 90°), spanning
    the region's extent along that direction and across; None when no edge direction dominates
    (TURN_DOMINANCE), or that direction is, within TURN_MIN degrees, the region's own rectangle's
    (``rect``, which did not fit) or the cloth's (``cloth``: the whole picture's ``_edge_direction``,
    when it dominates at least TURN_CLOTH)."""
    k = SCALE // 2
    grown = cv2.dilate(region, np.ones((3, 3), np.uint8))
    x, y, w, h = cv2.boundingRect(grown)
    win = half[y * k:(y + h) * k, x * k:(x + w) * k]
    if win.size == 0:
        return None
    inside = cv2.resize(grown[y:y + h, x:x + w], (win.shape[1], win.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    theta, dominance = _edge_direction(win, inside)
    if dominance < TURN_DOMINANCE:
        return None

    def turned_by(a, b):
        return abs(np.rad2deg((a - b + np.pi / 4) % (np.pi / 2) - np.pi / 4))

    if turned_by(theta, np.deg2rad(rect[2])) < TURN_MIN:
        return None                                   # the region's own rectangle, which did not fit
    if cloth[1] >= TURN_CLOTH and turned_by(theta, cloth[0]) < TURN_MIN:
        return None                                   # the cloth's checks or stripes
    pts = cv2.findNonZero(region).reshape(-1, 2).astype(np.float64)
    c, s_ = np.cos(theta), np.sin(theta)
    u = pts @ np.array([c, s_])
    v = pts @ np.array([-s_, c])
    u0, u1 = u.min(), u.max() + 1
    v0, v1 = v.min(), v.max() + 1
    corners = [(a * c - b * s_, a * s_ + b * c) for a, b in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))]
    box = np.array(corners) * k
    (bw, bh) = cv2.minAreaRect(box.astype(np.float32))[1]
    if not ASPECT[0] <= max(bw, bh) / max(1e-3, min(bw, bh)) <= ASPECT[1]:
        return None
    return box


def _same_surroundings(img: np.ndarray, box: np.ndarray, gap: float = 4.0, points: int = 14,
                       beside: list | None = None) -> bool:
    """Whether the median colours just outside the four sides of ``box`` (``gap`` px out) lie
    within SURROUNDINGS of each other (every channel), or are one colour in a shadow's or a lamp's
    fall-off (SURROUNDINGS_RATIO, SURROUNDINGS_HUE): a card lies on one table.  (A check of two
    shades of one colour in a shadow passes that test too: a window of it was reported as a back
    on a pile dev scene, 3 530 306.)  Points inside one of the quads ``beside`` (cards named already),
    or within ``BESIDE_MARGIN`` of it, are left out, and so is a side with less than a third of its
    points left: those sides lie against another card, not the table."""
    t = np.linspace(0.15, 0.85, points, dtype=np.float32)[:, None]
    xy = np.stack([p0 + t * along + gap * normal for p0, along, _, normal in _sides(box)]).reshape(1, -1, 2)
    samples = cv2.remap(img, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    samples = samples.reshape(4, points, 3).astype(np.float32)
    if beside:
        free = np.ones((4, points), bool)
        for q in beside:
            q = np.float32(q)
            free &= np.array([cv2.pointPolygonTest(q, (float(x), float(y)), True) < -BESIDE_MARGIN
                              for x, y in xy.reshape(-1, 2)]).reshape(4, points)
        sides = [np.median(samples[k][free[k]], axis=0) for k in range(4) if free[k].sum() * 3 >= points]
        if len(sides) < 2:
            return True
        medians = np.array(sides)
    else:
        medians = np.median(samples, axis=1)
    if float(np.ptp(medians, axis=0).max()) <= SURROUNDINGS:
        return True
    # a shadow, or a lamp's fall-off, darkens the table on one side: the same colour, only darker (the
    # floor beyond the cloth's edge is far darker; a cloth's checks of two colours differ in their
    # channels' shares)
    brightness = medians.mean(axis=1)
    shares = medians / np.maximum(brightness[:, None], 1.0)
    return bool(SURROUNDINGS_RATIO and brightness.min() >= SURROUNDINGS_RATIO * brightness.max()
                and float(np.ptp(shares, axis=0).max()) <= SURROUNDINGS_HUE)


def _corner_shift(quad: np.ndarray, other: np.ndarray) -> float:
    """The largest distance from a corner of ``quad`` to the nearest corner of ``other`` (px)."""
    d = np.linalg.norm(np.asarray(quad, float)[:, None] - np.asarray(other, float)[None], axis=2)
    return float(d.min(axis=1).max())


def _glare_spot(img: np.ndarray, box: np.ndarray) -> bool:
    """Whether ``box`` is brighter the further in, by GLARE_RISE at each step: the median grey of
    a ring just outside it (1.1-1.3 of its size about its centre), of a band just inside its sides
    (0.8-0.95) and of its middle (0.4).  A lamp's glare on the cloth falls off from its middle; a
    card's back has its own pattern and colour to its edge."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    centre = box.mean(axis=0)
    medians = []
    for inner, outer in ((1.1, 1.3), (0.8, 0.95), (0.0, 0.4)):
        ring = np.zeros(grey.shape, np.uint8)
        cv2.fillPoly(ring, [np.round(centre + outer * (box - centre)).astype(np.int32)], 1)
        if inner:
            cv2.fillPoly(ring, [np.round(centre + inner * (box - centre)).astype(np.int32)], 0)
        if not ring.any():
            return False
        medians.append(max(1.0, float(np.median(grey[ring > 0]))))
    return medians[1] > GLARE_RISE * medians[0] and medians[2] > GLARE_RISE * medians[1]


def _stands_out(distance: np.ndarray, box: np.ndarray) -> bool:
    """Whether the middle of ``box`` (the box shrunk to 0.6, in ``distance`` pixels) differs from the
    table, averaged over the finer pattern period, by STANDS_OUT typical distances or more: a card's
    face or back does, a card-shaped window of a dotted or striped cloth (whose straight rows of
    dots the edge test can take for a card's sides) does not."""
    middle = _middle(distance.shape, box)
    return not middle.any() or float(np.median(distance[middle])) >= STANDS_OUT


def _middle(shape, box: np.ndarray) -> np.ndarray:
    """The pixels of a picture of ``shape`` inside ``box`` shrunk to 0.6 about its centre (bool)."""
    centre = box.mean(axis=0)
    inner = np.round(centre + 0.6 * (box - centre)).astype(np.int32)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [inner], 1)
    return mask > 0


def _breaks_period(periodic, box: np.ndarray) -> bool:
    """Whether the middle of ``box`` (shrunk to 0.6, in ``periodic_difference`` pixels) is not the
    cloth: its median difference from the cloth one period away is above the level, or at least
    PERIOD_BREAK_SHARE of it is (a back's fine dots repeat nearly as a check does, where its
    ornament and frame do not; a window of the cloth has next to none of it above the level).  A
    back whose colours average to the cloth's (navy and gold on a brown check) does not stand out
    by its averaged colour, but it does not repeat the cloth either."""
    if periodic is None:
        return False
    difference, level = periodic
    middle = _middle(difference.shape, box)
    if not middle.any():
        return False
    if PERIOD_BREAK_SHARE is not None and float((difference[middle] > level).mean()) >= PERIOD_BREAK_SHARE:
        return True
    return float(np.median(difference[middle])) > level


def _agreed_area(quads) -> float:
    """Median area of ``quads`` if there are two or more agreeing within SIZE_AGREEMENT, else 0."""
    areas = sorted(cv2.contourArea(np.asarray(q, np.float32)) for q in quads)
    if len(areas) < 2 or areas[-1] > SIZE_AGREEMENT * max(1.0, areas[0]):
        return 0.0
    return float(np.median(areas))


def _portrait_order(box: np.ndarray) -> np.ndarray:
    """Corners of a rectangle ordered TL, TR, BR, BL of the card held upright (short side on top)."""
    box = np.asarray(box, np.float64)
    c = box.mean(axis=0)
    ang = np.arctan2(box[:, 1] - c[1], box[:, 0] - c[0])
    box = box[np.argsort(ang)]                 # clockwise in image coordinates (y down)
    if np.linalg.norm(box[1] - box[0]) > np.linalg.norm(box[2] - box[1]):
        box = np.roll(box, -1, axis=0)
    return box
