"""The row search: an index in a fan or a meld row, missed by the first look, read where its
neighbours, read sure, say it lies.

The first look (``vision.cards.index_candidates``) reads an index only where it finds two ink blobs
to pair, a rank and its suit.  In a fan or a meld row the next card's edge runs close beside each
index, a glare washes a corner out, a small index breaks up: the blobs are joined to a line, cut, or
too faint to pair, and the index gets no hypothesis at all, although the convolutional reader reads
its pixels well when its patch is placed on it.  In the dev fans that was the larger part of the
index-only cards missed.

The cards of a row lie at one step from each other: the next card's index is the last one moved by
that step, and turned by the fan's turn between them.  ``row_spots`` takes the sure index readings,
pairs those of one size lying side by side across their cards (``ROW_ACROSS``), turned
alike (``ROW_TURN``) and one step apart (``ROW_STEP``), and puts a spot one step beyond each end of
the pair; two readings two steps apart (``ROW_GAP``) put one between them.  The two ranges overlap:
a German pack's small index lies as many index sizes from the next as a French one two cards away,
and such a pair puts all three spots, the one between first.  A German pack's pair two steps apart
lies further still (about 6 index sizes): a pair of sure readings up to ``ROW_WIDE_GAP`` apart puts
a spot between them too (``row_spots(..., wide=True)``), searched after every other spot (in a curved
fan the middle of so wide a pair lies off the index, where a spot a step beyond a nearer pair lies
on it).  Only sure readings put such a spot: a bellot meld's unsure readings put one on a ten whose
"0" and heart the grid read as a queen (dev 3 127 974).  A spot where an index was read sure
already is dropped (``free_spots``), unless that reading, of crowded glyphs, named no card
(``vision.cards._keeping_spots_off``).

``vision.cards`` reads the patches of a small grid of frames round a spot (``spot_frames``: shifted
``SPOT_SHIFTS`` of the index size along and across it) with the convolutional reader alone: first
the five frames of its middle (``LOOK``), and the rest only where one of those reads a card at
``SPOT_LOOK`` or more (most spots lie beyond a row's end, on cloth or on the top card's face, and
stop there).  ``spot_reading`` names a card only when the grid is of one mind: every patch read
at ``SPOT_STRONG`` or more names the same card, at least ``SPOT_AGREE`` of them do, and the best
reaches ``SPOT_SURE``.  On the top card's face the grid's shifts read the picture's glyphs as
different cards, or nothing.  ``vision.cards`` adds the card only when it is named nowhere else in
the picture and its best frame lies a step from every sure reading (``free``; docs/vision.md,
pipeline step 9).  The cards it names join the sure readings and put spots of their own, searched in
a next round: a row's run of missed indices is followed one step at a time.  ``vision.cards`` also
lets readings too unsure to name their card put spots, after the sure ones' (``ROW_ANCHOR``).
"""

from __future__ import annotations

import numpy as np

ROW_TURN = 30.0           # two readings of one row are turned less than this from each other (degrees) ...
ROW_ACROSS = 0.7          # ... lie side by side: the cosine between the line joining them and their "right"
ROW_SIZE = 1.2            # ... are of one size (the larger index over the smaller, at most)
ROW_STEP = (1.2, 4.5)     # ... and one step apart, in index sizes (rank-suit distances): a spot beyond each
                          #     ((1.2, 3.2) until 2026-12-07: a German pack's small index lies 3-4.5 apart)
ROW_GAP = (3.0, 5.0)      # ... or two steps apart: a spot between them (a pair 3-4.5 apart puts both kinds)
ROW_WIDE_GAP = 7.0        # ... and a pair up to this far apart puts one between them, last (5.0: none)
SPOT_FREE = 1.0           # a spot this near (index sizes) a sure reading is not searched, nor named from a frame this near
SPOT_SAME = 0.4           # ... nor one this near another spot
SPOT_SHIFTS = (-0.3, -0.15, 0.0, 0.15, 0.3)   # the grid round a spot: shifts along and across (index sizes)
SPOT_LOOK = 0.3           # the rest of the grid is read only where one of its LOOK frames reads a card this sure
SPOT_STRONG = 0.9         # a patch read this sure has an opinion ...
SPOT_AGREE = 3            # ... at least this many patches must have it, all the same card ...
SPOT_SURE = 0.98          # ... and the surest of them this sure (0.99 until 2026-12-07)


def _turned(v: np.ndarray, a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def _right(down: np.ndarray) -> np.ndarray:
    return np.array([down[1], -down[0]])


def row_spots(anchors: list[dict], wide: bool = False) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """``(centre, down, scale)`` frames where a row of ``anchors`` (sure index readings: ``centre``,
    ``down``, ``scale``, ``card``) puts another index.  See the module's docstring.  With ``wide``
    only the spots between the wide pairs (``ROW_WIDE_GAP``), which the others do not list."""
    if len(anchors) < 2:
        return []
    centre = np.array([a["centre"] for a in anchors], float)
    down = np.array([a["down"] for a in anchors], float)
    scale = np.array([a["scale"] for a in anchors], float)
    names = np.array([a["card"] for a in anchors])
    i, j = np.triu_indices(len(anchors), 1)
    step = centre[j] - centre[i]
    gap = np.hypot(step[:, 0], step[:, 1])
    size = (scale[i] + scale[j]) / 2
    angle = np.arctan2(down[:, 1], down[:, 0])
    turn = (angle[j] - angle[i] + np.pi) % (2 * np.pi) - np.pi
    across = np.abs(step[:, 0] * down[i, 1] - step[:, 1] * down[i, 0]) / np.maximum(gap, 1e-9)   # |step . right|
    row = ((names[i] != names[j]) & (np.maximum(scale[i], scale[j]) <= ROW_SIZE * np.minimum(scale[i], scale[j]))
           & (np.abs(turn) <= np.deg2rad(ROW_TURN)) & (across >= ROW_ACROSS) & (gap > 0))
    def between(k):
        return (centre[i[k]] + centre[j[k]]) / 2, _turned(down[i[k]], turn[k] / 2), float(size[k])

    if wide:
        return [between(k) for k in np.nonzero(row & (gap > ROW_GAP[1] * size) & (gap <= ROW_WIDE_GAP * size))[0]]
    # a spot between two readings first: of two spots at one place (``free_spots`` keeps the first) it is
    # the surer, placed between two indices rather than a step beyond one
    spots = [between(k) for k in np.nonzero(row & (gap >= ROW_GAP[0] * size) & (gap <= ROW_GAP[1] * size))[0]]
    for k in np.nonzero(row & (gap >= ROW_STEP[0] * size) & (gap <= ROW_STEP[1] * size))[0]:
        a, b, t = i[k], j[k], turn[k]
        spots.append((centre[b] + _turned(step[k], t), _turned(down[b], t), float(size[k])))
        spots.append((centre[a] - _turned(step[k], -t), _turned(down[a], -t), float(size[k])))
    return spots


def free_spots(spots, readings: list[dict], searched=()):
    """``spots`` without those where an index was read sure already (``readings``, ``SPOT_FREE``) or
    that repeat another spot, kept before or ``searched`` already (``SPOT_SAME``)."""
    kept = []
    for c, d, s in spots:
        if not free(c, s, readings):
            continue
        if any(np.hypot(*(c - k[0])) < SPOT_SAME * s for k in (*searched, *kept)):
            continue
        kept.append((c, d / np.hypot(*d), s))
    return kept


def free(centre, size: float, readings: list[dict]) -> bool:
    """Whether no reading lies within ``SPOT_FREE`` index sizes of ``centre``: a frame nearer than a
    row's step to a sure reading is on that reading's index (a ten's 1 and 0 read as another ten)."""
    if not readings:
        return True
    at = np.array([r["centre"] for r in readings], float) - np.asarray(centre, float)
    return bool(np.hypot(at[:, 0], at[:, 1]).min() >= SPOT_FREE * size)


def spot_frames(spot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(centres, downs, scales) of the grid of frames round a spot, across-major: frame ``i * n + j``
    is shifted ``SPOT_SHIFTS[i]`` across the card and ``SPOT_SHIFTS[j]`` along it."""
    c0, d0, s = spot
    right = _right(d0)
    centres = [c0 + (u * right + w * d0) * s for u in SPOT_SHIFTS for w in SPOT_SHIFTS]
    return np.array(centres), np.tile(d0, (len(centres), 1)), np.full(len(centres), float(s))


_N = len(SPOT_SHIFTS)
_M = _N // 2
LOOK = [_M * _N + _M, (_M - 1) * _N + _M, (_M + 1) * _N + _M, _M * _N + _M - 1, _M * _N + _M + 1]
"""The grid's middle frame and the four shifted one step from it: read first."""


def spot_reading(names: list[str], confidence: np.ndarray):
    """``(index into names, confidence)`` of the card a grid of readings agrees on, or None: see
    ``SPOT_STRONG``, ``SPOT_AGREE``, ``SPOT_SURE``."""
    confidence = np.asarray(confidence, float)
    strong = np.nonzero(confidence >= SPOT_STRONG)[0]
    if len(strong) < SPOT_AGREE or len({names[k] for k in strong}) > 1:
        return None
    best = int(strong[np.argmax(confidence[strong])])
    return (best, float(confidence[best])) if confidence[best] >= SPOT_SURE else None
