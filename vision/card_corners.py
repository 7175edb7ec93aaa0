"""A second look at the index corners of card-shaped regions that no index reading named.

The first look (``vision.cards.read_indices``) reads index hypotheses anywhere in the picture, at
the picture's own resolution and with no idea where the cards are.  It misses indices printed
small (some packs set a rank only 5-6 px tall on a card 130 px long), and it leaves unnamed a card
whose corner readings disagree or whose only sure reading is two pips of its picture.

A card region (``vision.card_regions``) says where a card is.  Its two index corners are then
known: each is warped upright, the card ``CARD_W`` px wide (about twice a table card's size in a
1280 px picture), and the corners of all regions are read together, in one mosaic, by the same
readers.  A reading counts only where an index can be: inside the corner zone, upright (its rank
above its suit along the card's long side), at an index's size for that card.  The region is
named when one card is read sure there (``threshold``; its two corners agreeing combine), no other
card is read at its corners with ``DISAGREE_IGNORED`` or more, a reading of crowded glyphs is
confirmed by the MLPs, and the card is not named elsewhere in the picture (a pack has each card
once).  Otherwise the region stays unnamed.

On 1 920 tuning scenes (seeds 3 100 000-3 100 699, 3 101 000-3 101 399, 3 102 000-3 102 299,
3 400 000-3 400 319, 3 410 000-3 410 199) this named 24 fully visible cards the first look had
not, and no wrong card; on two held-out sets of 500 scenes (3 117 000-3 117 499,
3 118 000-3 118 499) 4 and 0 more, no wrong card (docs/vision.md, pipeline step 6).
"""

from __future__ import annotations

import cv2
import numpy as np

CARD_W = 192                     # a card's width in the warped corners, px
MARGIN = 16                      # table shown round the card's corner, px
CORNER = (0.45, 0.34)            # the corner warped: this share of the card's width and length
ZONE = (0.4, 0.32)               # an index reading's centre lies within this share of width, length
SCALE_RANGE = (0.3, 1.55)        # its rank-suit distance over the median index's for this card width
UPRIGHT = 0.85                   # cosine of its "down" with the card's long side, at least
ASPECT_RANGE = (1.25, 1.65)      # card length over width used for the warp
GAP = 8                          # px between the tiles of the mosaic
# every tile is padded to one height, whatever the regions read with it, and each tile starts at an even
# pixel: a region's reading does not depend on the other regions (their tiles' sizes, its place among them)
TILE_H = (int(CORNER[1] * round(CARD_W * ASPECT_RANGE[1])) + MARGIN + GAP + 1) // 2 * 2 - GAP


def _tiles(work: np.ndarray, box: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The two index corners of a card region (portrait order TL, TR, BR, BL) warped upright,
    side by side (the far corner turned 180 degrees), and the card's length in the warp."""
    box = np.asarray(box, np.float64)
    short = (np.linalg.norm(box[1] - box[0]) + np.linalg.norm(box[2] - box[3])) / 2
    long_ = (np.linalg.norm(box[3] - box[0]) + np.linalg.norm(box[2] - box[1])) / 2
    length = int(round(CARD_W * np.clip(long_ / max(short, 1e-6), *ASPECT_RANGE)))
    tw, th = int(CORNER[0] * CARD_W) + MARGIN, int(CORNER[1] * length) + MARGIN
    dst = np.float32([[MARGIN, MARGIN], [MARGIN + CARD_W, MARGIN], [MARGIN + CARD_W, MARGIN + length],
                      [MARGIN, MARGIN + length]])
    near = cv2.getPerspectiveTransform(box.astype(np.float32), dst)
    turn = np.array([[-1, 0, 2 * MARGIN + CARD_W], [0, -1, 2 * MARGIN + length], [0, 0, 1]], float)
    out = [cv2.warpPerspective(work, h, (tw, th), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
           for h in (near, turn @ near)]
    return out[0], out[1], length


def _mosaic(tiles: list[np.ndarray]) -> tuple[np.ndarray, list[tuple[int, int]], tuple[int, int]]:
    """One picture holding every tile (a row of two per region), GAP px apart, each tile's
    top-left corner, and the step (x, y) from one tile to the next.  The gaps repeat the tiles'
    edge pixels, so no edge is drawn between them."""
    tw = max(t.shape[1] for t in tiles)
    th = max([TILE_H] + [t.shape[0] for t in tiles])
    rows = (len(tiles) + 1) // 2
    canvas = np.zeros((rows * (th + GAP), 2 * (tw + GAP), 3), np.uint8)
    origins = []
    for i, t in enumerate(tiles):
        x, y = (i % 2) * (tw + GAP), (i // 2) * (th + GAP)
        padded = cv2.copyMakeBorder(t, 0, th + GAP - t.shape[0], 0, tw + GAP - t.shape[1], cv2.BORDER_REPLICATE)
        canvas[y:y + th + GAP, x:x + tw + GAP] = padded
        origins.append((x, y))
    return canvas, origins, (tw + GAP, th + GAP)


def corner_readings(work: np.ndarray, boxes: list, model, cnn) -> list[list[dict]]:
    """For each card region (portrait-ordered box in work pixels), the index readings that lie
    where its index can be: each with ``corner`` (0 at the box's first corner, 1 at the opposite
    one) besides the fields of ``read_indices``.  Only such hypotheses are read at all."""
    from vision.cards import read_indices        # cards imports this module

    if not boxes:
        return []
    tiles, lengths = [], []
    for box in boxes:
        a, b, length = _tiles(work, box)
        tiles += [a, b]
        lengths += [length, length]
    canvas, origins, (step_x, step_y) = _mosaic(tiles)
    origins, lengths = np.asarray(origins, float), np.asarray(lengths, float)
    median_scale = CARD_W / model.geometry[2]       # the geometry's card width in rank-suit distances

    def tile_of(centre):
        return np.minimum((centre[:, 1] // step_y).astype(int) * 2 + (centre[:, 0] // step_x).astype(int),
                          len(tiles) - 1)

    def where_an_index_can_be(centre, down, scale):
        t = tile_of(centre)
        cx = centre[:, 0] - origins[t, 0] - MARGIN          # in the card's own frame, from its corner
        cy = centre[:, 1] - origins[t, 1] - MARGIN
        ratio = scale / median_scale
        return ((cx > 0) & (cx < ZONE[0] * CARD_W) & (cy > 0) & (cy < ZONE[1] * lengths[t])
                & (ratio >= SCALE_RANGE[0]) & (ratio <= SCALE_RANGE[1]) & (down[:, 1] >= UPRIGHT))

    readings = read_indices(canvas, model, cnn, keep=where_an_index_can_be)
    out: list[list[dict]] = [[] for _ in boxes]
    if readings:
        tiles_of = tile_of(np.array([r["centre"] for r in readings]))
        for r, t in zip(readings, tiles_of):
            out[t // 2].append(dict(r, corner=int(t % 2)))
    return out


def name_from_corners(readings: list[dict], threshold: float, named: set, disagree: float,
                      crowded_confirm: float, two_sure_corners: bool = False,
                      doubted=None, idle=None) -> tuple[str | None, float, int]:
    """(card or None, confidence, corner it was read at) from one region's corner readings.  Readings
    of crowded glyphs name a card only when the MLPs confirm one of them (``crowded_confirm``), the
    CNN keeps it in moved patches, or, with ``two_sure_corners``, both corners read it sure.  A card
    with any reading for which ``doubted(reading)`` is true is not named, and a reading of another
    card for which ``idle(reading, surest)`` is true does not veto it (the first look's rules on
    what the two readers disagree about, ``vision.cards``)."""
    if not readings:
        return None, 0.0, 0
    best = max(readings, key=lambda r: r["confidence"])
    same = [r for r in readings if r["card"] == best["card"]]
    corners = {r["corner"]: r["confidence"] for r in sorted(same, key=lambda r: r["confidence"])}
    conf = 1.0 - float(np.prod([1.0 - c for c in corners.values()]))
    card = best["card"]
    if any(r["card"] != card and r["confidence"] >= disagree and not (idle is not None and idle(r, best))
           for r in readings):
        card = None          # another card read at its corners: two opinions, no name
    elif best["confidence"] < threshold and not (len(corners) == 2 and conf >= threshold):
        card = None
    elif all(r["crowded"] and r["mlp_p"] < crowded_confirm and not r["steady"] for r in same) and not (
            two_sure_corners and len(corners) == 2 and min(corners.values()) >= threshold):
        card = None          # cut or misjoined glyphs the MLPs do not confirm (nor moved patches)
    elif card in named:
        card = None          # a pack has each card once: named elsewhere already
    elif doubted is not None and any(doubted(r) for r in same):
        card = None
    return card, round(conf, 4), best["corner"]
