"""Playing-card recognition: find cards, tell face up from face down, read rank and suit.

How it works (details and limits in docs/vision.md):

1. Index candidates.  A card's index is a rank glyph above a suit glyph, dark
   (black or red) on white paper, in a card corner.  The darkest channel of the
   picture is thresholded locally, at two cuts and, on bright paper, a third
   faint one (thin and outlined digits); the small blobs are paired with neighbours of
   similar size (a blob with some ink round it, such as a card's edge beside it,
   is kept but marked crowded).  Each pair, taken in both directions (which one is on top), is
   an index hypothesis with its own frame: ``v`` points from the rank to the
   suit (the card's "down"), ``u`` to the card's right, the pair distance gives
   the scale.  This works at any rotation, on any cloth, and for cards of which
   only the index corner shows.
2. Reading.  Each hypothesis is resampled into a small upright patch,
   described by HOG plus the ink colour (white-balanced on the paper around it),
   and given to small two-headed neural networks (rank or "not an index"; suit)
   trained apart on rendered scenes (vision/train_cards.py), their
   probabilities averaged.  The hypotheses they do not rule out (a few dozen a
   frame) are read again from their white-balanced pixels by a small
   convolutional network (vision/card_cnn.py, trained by
   vision/train_card_cnn.py), whose reading is the one kept (the MLPs' own
   probability of that card stays as a second opinion).  Confidence is
   p(rank) x p(suit); when the MLPs give the same card at least 0.95, both
   opinions count, and so do, for a reading under the threshold, the CNN's
   readings of its patch moved a little (``_read_moved``).
3. Cards.  Readings predict their card's outline from the index geometry; two
   readings of the same card (its two index corners) are merged — if they
   disagree the card is reported with ``card: None``, unless both are sure
   (then they are two cards whose outlines coincide, as in a meld row) and do
   not lie exactly at one card's two corners (then one of them is misread).
   Corners are paired best first: the same card, then the nearest.  A card read
   at both corners also measures this picture's card size, and its outline
   fitted out to its edges measures where the pack prints its index: every
   predicted outline is placed with that geometry (decks differ from the
   median geometry; ``_picture_geometry``).  A reading below
   ``threshold`` also gives ``card: None``: the camera abstains rather than
   guesses.  So does a card named only by readings of crowded glyphs (which may
   be cut by a card lying over them) that the MLPs do not confirm, nor the CNN
   reading the same card in patches moved a little (``_read_moved``), or whose
   suit glyph was parted from a straight line (the edge of a card lying over it)
   and the MLPs do not read the same suit (``_unconfirmed_cut_suit``), a card named
   by one reading only the CNN is sure of, not very sure, with no row of indices
   beside it (``_cnn_alone``, ``_in_a_row``), an ace the MLPs read as a king
   (``_ace_or_king``), a card read at two corners each under the threshold whose
   rank the MLPs read otherwise at one (``_weak_pair_doubted``), a card whose other
   corner reads the same rank and another suit from a cut suit glyph
   (``_suit_in_doubt``), and a card
   read sure at another place too (a pack has each card once): outside its
   outline, or turned against its only reading on the same long side (a deck
   printing four indices, the outline placed from the wrong one).
4. Regions.  Card-shaped regions that stand out from the table and hold no
   reading are reported too: face down when the region is not white paper,
   otherwise face up with ``card: None`` (the index is hidden).
5. Second look (vision/card_corners.py).  The two index corners of each region,
   and of each region lying under a reading that named no card, are warped
   upright at about twice a table card's size and read again, only where an
   index can be; a region read sure there, with no other card read at its
   corners, is named (and takes the place of the unnamed readings on it); a
   region called face down is not named by readings the CNN alone is sure of
   (a back's pattern read as an index).
   A region left unnamed whose card was found again in another mask,
   nearer a card's size (its alternative outline), takes that outline
   when it is named.  A region called face down that stays unnamed with an
   index read sure at a corner is face up (a court whose picture fills it).
6. A court card's picture (vision/card_faces.py).  A region its corners leave
   unnamed is matched against the faces of the packs the table knows; a sure
   match with a jack, queen or king names it (a pack printing no rank on its
   courts, a faint court index).  So is a face-up card its readings left
   unnamed, on the outline they placed (the top court of a pile, with no region
   of its own).

``find_cards(image, threshold=DEFAULT_THRESHOLD, model=None, cnn=None)`` returns a list of
dicts ``{"card": "QH" | None, "face": "up" | "down", "confidence": float,
"quad": [[x, y] x 4]}`` (Contract 2).  ``load_model(path=None)`` loads
``vision/models/cards.npz``, ``card_cnn.load_cnn(path=None)`` ``vision/models/card_cnn.npz``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import card_cnn
from vision.card_corners import corner_readings, name_from_corners
from vision.card_faces import name_from_face
from vision.card_pips import count_pips, outline_from_pips
from vision.card_regions import ASPECT, CARD_LENGTH, card_regions, moved_sides, side_offsets
from vision.card_rows import LOOK, SPOT_LOOK, free, free_spots, row_spots, spot_frames, spot_reading
from vision.imaging import check_frame

MODEL_PATH = Path(__file__).resolve().parent / "models" / "cards.npz"
RANK_CLASSES = list("A23456789TJQK") + [None]
SUIT_CLASSES = list("SHDC")
DEFAULT_THRESHOLD = 0.94
NMS_RADIUS = 0.9          # hypotheses closer than this (in rank-suit distances) read one index
MIN_REPORTED = 0.3        # weaker readings are not reported at all (a card region may still be)
DISAGREE_IGNORED = 0.4    # a reading this unsure does not veto the other corner's
VETO_MLP = 0.2            # ... nor does one under the threshold the MLPs give less than this, the sure one more (_idle_guess)
WEAK_PARTNER_LEFT = True  # ... nor keeps a card's two sure corners apart when paired with one of them (_group)
CUT_SAME_RANK = True      # a reading of the sure one's rank, another suit, from a cut suit glyph still vetoes (_suit_in_doubt)
CNN_GATE = 0.4            # hypotheses the MLP gives at least this p(index) are read by the CNN too (0.2 until 2026-12-08)
CNN_WEIGHT = 1.0          # the CNN's share of the combined probabilities (the MLP only chooses what it reads)
CNN_MEMBER_GATE = 0.3     # hypotheses the first CNN gives p(index) under this are not read by the second (0.01 until 2026-12-05)
MLP_GATE = ((2,), 0.0003)  # hypotheses these networks of the MLPs all give p(index) under this are not read by the others
AGREE_CNN, AGREE_MLP = 0.5, 0.95  # a reading the CNN gives this and the MLP this: both opinions count
BOTH_MLP = 0.7             # ... a sure reading the MLPs give this is sure by both when two corners disagree
CLAIMED_ELSEWHERE = True        # a reading naming a card another group names surely does not veto (see below)
SPLIT_CONFIDENT = 0.98    # two different readings both this sure are two cards, not one card's corners
CORNER_FIT = 0.13         # ... unless each lies this close to where the other puts the card's opposite corner
MAX_SCALE_RATIO = 1.5     # a reading this much larger than the picture's typical index is a picture's glyphs
COURT_SCALE_RATIO = 2.3   # ... of a jack, queen or king this much larger: some packs set their court index wider
ONE_COPY_MARGIN = 1.1     # a sure reading of a named card outside its outline grown this much: two places claim it
SAME_SIDE = 0.35          # ... as does one turned against it less than this share of the card's width across from it
FOUR_INDEX_SIDE = True    # ... and of two such readings along one long side, the one beside the card's edge keeps it
EDGE_DIP = 0.25           # ... (_edge_beside): a dip this deep (a share of the paper's brightness) is an edge
EDGE_FLAT = 0.1           # ... when the other side dips less than this
EDGE_REACH = 0.3          # ... looked for this many index sizes either way of the outline's distance
EDGE_ALONG = 1.5          # ... along this many either way of the reading's centre
BOTH_CORNERS_WIN = True   # ... unless the card is read at both corners sure by both readers, the other not (_outweighed)
LONE_MLP = 0.2            # a card named by one reading the MLPs give under this ...
LONE_SURE = 0.99          # ... and the CNN under this is not named (_cnn_alone; 0: off) ...
RANK_DOUBTED_ALONE = True  # ... nor one the MLPs doubt the rank of, under LONE_SURE, out of a row (_doubted_alone)
LONE_NO_VETO = True       # ... nor does it veto a card's other corner, sure by both readers (_lone_guess)
IDLE_PARTNER_ALONE = True  # ... nor does a corner neither reader stands by make it one of two (_idle_partner)
ROW_SPAN = 6.0            # ... unless another reading of the same size lies within this many rank-suit
ROW_PARALLEL = 0.9        # ... distances, turned less than this cosine from it: a fan's or meld's row (_in_a_row)
TWO_WEAK_MLP = True       # two corners, each under the threshold, name a card only when the MLPs' rank is its at both
ACE_OR_KING = True        # an ace read where the MLPs read a king (and give the ace under BOTH_MLP) is not named
SPOT_ACE_OR_KING = True   # ... nor by the row search (_spot_ace_or_king)
RANK_DOUBTED_CLAIM = True  # a card read in two places: the claim the MLPs doubt the rank of gives way to one sure by both
SECOND_LOOK_ACE_OR_KING = True  # ... nor by the second look at a region's corners (_second_look)
SECOND_LOOK_IDLE = True   # a guess neither reader stands by does not veto a region's sure corner either (_idle_guess)
UNDER_READING_DOWN = True  # a face-down region under unnamed readings, none of whose outlines matches it, is a back
UNDER_READING_IOU = 0.4    # ... "matches": overlap over union at least this (0.33 before the outlines were fitted)
UNDER_READING_WEAK = 0.5   # ... and none matches that is under this confident and turned against it by at
UNDER_READING_TURN = 10.0  # ... least this many degrees (a back's ornament's outline; 0: no such test)
UNDER_READING_EMPTY = 0.6  # ... or those that match it do so under this, unsure, and its corners read nothing (0: off)
FACE_NAMES = True         # a region its corners leave unnamed may be named from its court picture (_second_look)
ROW_SEARCH = True         # an index a fan's or meld's sure neighbours place is read there (_search_rows)
ROW_ROUNDS = 3            # ... the cards it names placing more, for this many rounds (1 until 2026-12-07)
ROW_ANCHOR = 0.5          # ... readings this sure place spots, the sure ones' spots kept first (0.94 until 2026-12-07)
ROW_RECHECK = True        # ... and a sure reading of crowded glyphs left unnamed, its card read sure nowhere else
                          #     and not an ace, does not keep a spot off it: the grid reads it again (_keeping_spots_off)
FACE_ON_READINGS = True   # an unnamed face-up reading's outline may be named from its court picture (_faces_of_readings)
PIP_NAMES = True          # an unnamed card whose pips count its rank, read at its index too, is named (_name_from_pips)
PIP_AGREE = 0.6           # ... by a reading on it of that rank and the pips' colour at least this confident
PIP_RANKS = "23456789T"   # ... (the ranks a card's pips count)
PIP_SURE = 0.95           # ... its confidence then 1 - (1 - the reading's) x (1 - this)
PIP_SAME_CARD = 0.5       # ... unless a card of that rank and colour is named with an outline overlapping its
                          # this much (over union): the same card, its pips (another corner read another suit)
DOWN_CNN_ALONE = True     # a region called face down is not named by readings sure by the CNN alone (_second_look)
INDEX_FACE_UP = 0.9       # a region called face down whose corners read an index this sure is face up, unnamed (0: off)
ON_TOP_RATIO = 1.55       # a sure reading inside a named card, up to this much larger than its index, lies on it
ON_TOP_SMALLER = 0.55     # ... and down to this much smaller (0.7 until 2026-12-06)
ON_TOP_TYPICAL = 0.7      # ... or of the picture's typical index, when the named card was read under this share of it (0: off)
ON_TOP_HIDES = 0.85       # ... unless its outline, shrunk by this, covers every index the named card was read at (0: off)
HIDES_ROW = True          # ... which a row of indices may (a fan's next card, _in_a_row)
PLACE_MIN = 0.5           # a card read at different sizes is placed by its smaller reading this confident (0: any)
SAME_SIZE = 1.3           # two readings of one card this close in rank-suit distance are the same size
SIZE_TRUSTED = 0.6        # a measured card size under this counts as unmeasured for the regions (see find_cards)
FIT_REACH = 0.6           # a card read at both corners is fitted out to its edges up to this share of its width
FIT_CARDS = 3             # ... at most this many cards, the surest first
FIT_SLACK = 0.05          # ... its opposite sides moving alike, within this share of its width (or 2 px) ...
FIT_MIN = True            # ... or else both moved to the nearer edge (a pip card; False: not fitted)
FIT_COURTS = True         # ... a court card fitted too (only when its opposite sides move alike)
CARD_SIZE_RANGE = (0.4, 2.0)  # plausible card size over the model geometry's, from cards read at both corners
FIT_SMALLEST = 0.3        # ... a fit to the card's edges (FIT_REACH) starts from a measured size down to this
SIZE_VOTE = 0.9           # readings at least this confident (both corners) measure the picture's card size
SCALE_VOTE = 0.5          # readings at least this confident vote for the picture's typical index size
WORK_WIDTH = 1280          # pictures wider than this are read at this width
PATCH_W, PATCH_H = 20, 32  # the upright index patch, pixels
PATCH_SPAN = (1.9, 3.0)    # its width and height in units of the rank-suit distance

HOG_CELL, HOG_BINS = 4, 9
INK_RATIOS = (0.62, 0.42)  # ink cuts, relative to the local paper brightness
TABLE_PER_LEVEL = True     # ... each with the table found at that cut cut away (the first cut's alone until 2026-12-07)
TABLE_RESCUE_PAPER = 120   # ... given back only on paper this bright (of 255) ...
TABLE_RESCUE_MAX = 200     # ... and only when it gives back at most this many pieces (_off_its_own_table)
FAINT_RATIO = 0.78         # ... and a last, faint one, only where the paper is brighter than FAINT_PAPER
FAINT_PAPER = 230
MIN_BLOB, MAX_BLOB = 5, 48
MAX_DENSITY = 0.3          # a blob with more ink than this round it (a share of a box twice its size) is pattern
CROWDED_DENSITY = 0.2      # ... one with more than this has something dark beside it (a card's edge, a pip)
CROWDED_CONFIRM = 0.5      # a reading resting on crowded glyphs needs at least this probability from the MLP too
TWO_SURE_CORNERS = True    # ... unless both of the card's corners read it sure (each at the threshold)
IDLE_PARTNER = True        # ... and a corner neither reader stands by does not lift it (_idle_partner)
STEADY = True              # ... or the CNN's reading of it kept under small shifts, turns and scalings (below)
STEADY_MIN = 0.95          # the CNN's probability of the card in each moved patch, at least
STEADY_MLP = 0.1           # ... and the MLPs' at least this (they do not read it as another card outright)
CROWDED_SURE = 0.999       # a reading of crowded glyphs the CNN is this sure of counts as steady unmoved, an ace not (0: off)
STEADY_MOVES = ((0.15, 0.0, 1.0, 0.0), (-0.15, 0.0, 1.0, 0.0), (0.0, 0.15, 1.0, 0.0), (0.0, -0.15, 1.0, 0.0),
                (0.0, 0.0, 0.88, 0.0), (0.0, 0.0, 1.12, 0.0), (0.0, 0.0, 1.0, -8.0), (0.0, 0.0, 1.0, 8.0))
#                          (across, along: shares of the rank-suit distance; scale factor; turn in degrees)
CUT_SUIT_MLP = 0.7         # a reading whose suit glyph was parted from a straight line needs the MLPs' suit this sure (0: off)
EDGE_WINDOW = 1.6          # ... as does one whose suit glyph, in a window this many rank-suit distances wide round it,
EDGE_FILL = 0.35           # ... is joined to ink reaching the window's rim and filling less than this of its box (0: off)
EDGE_SIDE = 48             # (the window's side in pixels)
MOVED_SURE = 0.85          # a reading under the threshold the CNN gives this in the mean of its moved patches ...
MOVED_UNSURE = 0.5         # ... from this confidence up, counts them as a second opinion (0: off; see _read_moved)
PAIR_SPAN = (0.55, 2.1)    # a rank and its suit lie this far apart, in units of the larger glyph
PAIR_SLACK = 3.0          # ... plus this many pixels (blur shrinks small glyphs at the ink cut)
PAIR_SIZE_RATIO = 0.35    # ... and the smaller glyph is at least this share of the larger one's size
FAINT_PAIRS = True         # two faint (or parted) blobs may pair too: a glare can wash a whole index out (_pairs)
REPEATED_SHAPE = 8         # a blob shape seen this often in one picture is a printed cloth
JOINED_SIZE = 20           # a blob at least this large, filling less than JOINED_FILL of its box, may be a
JOINED_FILL = 0.45         # ... suit glyph joined to a large corner pip: it is eroded once to part them
JOINED_PART = 0.6          # the parts kept are at most this share of the joined blob's size
LINE_WIDTH = 5             # a line opened off the glyphs it touches is thinner than this (a stroke this
                           # thick is a glyph's own, even where a straight line fits along it)


@dataclass
class Candidates:
    """Index hypotheses of one picture: frames and the patches they sample."""

    centre: np.ndarray     # N x 2, midpoint between rank and suit glyph, work pixels
    down: np.ndarray       # N x 2 unit vectors, rank -> suit
    scale: np.ndarray      # N, rank-suit distance in work pixels
    features: np.ndarray   # N x F float32
    blobs: np.ndarray      # N x 2, the two ink blobs (rank, suit) each hypothesis pairs
    crowded: np.ndarray    # N, whether either blob is crowded (see ``_blobs_in``) or faint (``_ink_blobs``)
    cut_suit: np.ndarray | None = None   # N, whether the suit blob was parted from a straight line (``_blobs_in``)


# ----------------------------------------------------------- candidates ----

def _line_kernels(length: int = 15, angles: int = 8) -> list[np.ndarray]:
    out = []
    for a in np.arange(angles) * np.pi / angles:
        k = np.zeros((length, length), np.uint8)
        c = (length - 1) / 2
        d = np.array([np.cos(a), np.sin(a)]) * c
        cv2.line(k, (int(round(c - d[0])), int(round(c - d[1]))), (int(round(c + d[0])), int(round(c + d[1]))), 1)
        out.append(k)
    return out


_LINE_KERNELS = _line_kernels()
_THICK = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LINE_WIDTH, LINE_WIDTH))


def _labels8(mask: np.ndarray):
    """``cv2.connectedComponentsWithStats`` with 8-connectivity, by the Grana (BBDT) algorithm: on one
    core it is about twice as fast as OpenCV's default choice."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)


def _components(mask: np.ndarray):
    n, _, stats, cents = _labels8(mask)
    return stats[1:], cents[1:]


def _ink_blobs(work: np.ndarray):
    """Small dark blobs standing alone on brighter surroundings: (centroids, sizes, crowded, faint,
    lined; see ``_blobs_in`` for the last).

    The ink is cut at INK_RATIOS of the local paper brightness, loosest first.  At this size a
    blurred index glyph often touches a pip or the card's outline at the loose cut; the darker
    cut separates them (the gap between two glyphs is lighter than their strokes).  A blob found
    again at a stricter cut (same place, same size) is kept once (crowded or not, see ``_blobs_in``,
    as at the looser cut).  Last, on bright paper only, the ink is cut again at FAINT_RATIO: thin or
    outlined digits and blurred glyphs show whole only there.  Blobs first found at that cut are
    marked ``faint``, and so are the small parts of blobs that may be two glyphs joined at the darker
    cut (``_joined_parts``); a reading resting on one needs the MLPs' agreement.  Until the
    forty-ninth session two faint blobs were not paired (two faint marks are mostly paper texture
    and shading); a glare that washes a whole index out leaves nothing else, and the readers turn
    the texture down (``FAINT_PAIRS``, docs/vision.md step 1)."""
    b, g, r = cv2.split(work)
    dark = cv2.min(cv2.min(b, g), r)
    k = max(15, int(round(work.shape[1] / 45)) | 1)
    paper = cv2.dilate(dark, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    # masks are 0/1, so that an AND with a 0/255 comparison gives the 0/1 ink at once
    valid = cv2.threshold(paper, 50, 1, cv2.THRESH_BINARY)[1]
    bright = cv2.threshold(paper, FAINT_PAPER, 1, cv2.THRESH_BINARY)[1]
    values = np.arange(256, dtype=np.uint8)[None, :]
    not_table = None
    levels = []
    for level, (ratio, where) in enumerate([(cut_ratio, valid) for cut_ratio in INK_RATIOS] + [(FAINT_RATIO, bright)]):
        cut = cv2.LUT(paper, cv2.multiply(values, ratio, dtype=cv2.CV_8U))      # paper x ratio, rounded
        ink = cv2.bitwise_and(cv2.compare(dark, cut, cv2.CMP_LT), where)
        if level == 0:
            table = _large_dark(ink)
            if table is not None:
                not_table = cv2.threshold(table, 0, 1, cv2.THRESH_BINARY_INV)[1]
                ink = cv2.bitwise_and(ink, not_table)
        elif not_table is not None:
            ink = (_off_its_own_table(ink, not_table, paper) if TABLE_PER_LEVEL and level < len(INK_RATIOS)
                   else cv2.bitwise_and(ink, not_table))
        if level < len(INK_RATIOS):
            levels.append(_blobs_in(ink, split_lines=level == 0, split_joined=level == 1))
            continue
        # the faint cut has ink on bright paper only: it is labelled within the box round that ink,
        # with a margin wider than any blob's density box (the same blobs, less picture to label)
        x, y, w, h = cv2.boundingRect(ink)
        x0, y0 = max(0, x - MAX_BLOB), max(0, y - MAX_BLOB)
        cents_f, sizes_f, crowded_f, parted_f, lined_f = _blobs_in(ink[y0:y + h + MAX_BLOB, x0:x + w + MAX_BLOB],
                                                                   split_lines=False)
        levels.append((cents_f + [x0, y0], sizes_f, crowded_f, parted_f, lined_f))
    cents, sizes, crowded, _, lined = levels[0]
    faint = np.zeros(len(cents), bool)
    for level, (c2, s2, cr2, parted, lined2) in enumerate(levels[1:], start=1):
        if len(c2) == 0:
            continue
        if len(cents):
            d = np.hypot(c2[:, None, 0] - cents[None, :, 0], c2[:, None, 1] - cents[None, :, 1])
            same = (d < 1.5) & (np.abs(s2[:, None] - sizes[None, :]) <= 0.25 * sizes[None, :] + 1)
            new = ~same.any(axis=1)
        else:
            new = np.ones(len(c2), bool)
        cents = np.vstack([cents, c2[new]])
        sizes = np.concatenate([sizes, s2[new]])
        crowded = np.concatenate([crowded, cr2[new]])
        faint = np.concatenate([faint, parted[new] | (level == len(INK_RATIOS))])
        lined = np.concatenate([lined, lined2[new]])
    return cents, sizes, crowded, faint, lined


def _off_its_own_table(ink: np.ndarray, not_table: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The darker cut's ink (0/1) with the large dark areas it finds itself cut away, not the first
    cut's (``TABLE_PER_LEVEL``).  A card's edge in shadow is ink at the first cut and joins the glyphs
    near it to the table; at the darker cut they stand apart.  Only on paper at least
    ``TABLE_RESCUE_PAPER`` bright is the first cut's table given back (on the felt itself the darker
    cut breaks the table's dim rim into specks), and only when it gives back at most
    ``TABLE_RESCUE_MAX`` pieces: a striped or printed cloth, one large dark area at the first cut,
    breaks into thousands at the darker one, none of them a glyph."""
    first = cv2.bitwise_and(ink, not_table)
    on_paper = cv2.threshold(paper, TABLE_RESCUE_PAPER - 1, 1, cv2.THRESH_BINARY)[1]
    ink = cv2.bitwise_and(ink, cv2.bitwise_or(not_table, on_paper))
    if cv2.countNonZero(cv2.subtract(ink, first)) == 0:
        return first
    table = _large_dark(ink)
    if table is not None:
        ink = cv2.bitwise_and(ink, cv2.threshold(table, 0, 1, cv2.THRESH_BINARY_INV)[1])
    freed = cv2.subtract(ink, first)
    x, y, w, h = cv2.boundingRect(freed)               # (labelled within the box round them; OpenCV
    if w == 0:                                         # crashes on an empty picture)
        return first
    if cv2.connectedComponents(freed[y:y + h, x:x + w], connectivity=8)[0] - 1 > TABLE_RESCUE_MAX:
        return first
    return ink


def _large_dark(ink: np.ndarray):
    """Where the table (or another large dark area) lies in an ink mask, as a 0/1 mask, or None.
    Glyphs near a card's edge touch it; cutting it off frees them."""
    h2, w2 = ink.shape[0] // 2, ink.shape[1] // 2
    half = cv2.resize(ink, (w2, h2), interpolation=cv2.INTER_NEAREST)
    bulk = cv2.morphologyEx(half, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    # the areas' bounding boxes from their pixels: OpenCV's 4-connected labelling with statistics
    # takes about three times as long as the labels alone and these few lines together (same boxes)
    nb, labels = cv2.connectedComponentsWithAlgorithm(bulk, 4, cv2.CV_32S, cv2.CCL_SAUF)
    points = cv2.findNonZero(bulk)
    if points is None:
        return None
    points = points.reshape(-1, 2)
    xs, ys = points[:, 0], points[:, 1]
    which = labels[ys, xs]
    x0, y0 = np.full(nb, 1 << 30, np.int32), np.full(nb, 1 << 30, np.int32)
    x1, y1 = np.full(nb, -1, np.int32), np.full(nb, -1, np.int32)
    np.minimum.at(x0, which, xs)
    np.maximum.at(x1, which, xs)
    np.minimum.at(y0, which, ys)
    np.maximum.at(y1, which, ys)
    large = np.nonzero(np.maximum(x1[1:] - x0[1:], y1[1:] - y0[1:]) + 1 > MAX_BLOB)[0] + 1
    if len(large) == 0:
        return None
    table = np.zeros(labels.shape, np.uint8)
    for i in large:                        # each large area within its own bounding box
        x, y, w, h = x0[i], y0[i], x1[i] + 1 - x0[i], y1[i] + 1 - y0[i]
        table[y:y + h, x:x + w] |= (labels[y:y + h, x:x + w] == i).view(np.uint8)
    table = cv2.resize(table, (ink.shape[1], ink.shape[0]), interpolation=cv2.INTER_NEAREST)
    return cv2.dilate(table, np.ones((3, 3), np.uint8))


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _joined_parts(labels: np.ndarray, stats: np.ndarray, size: np.ndarray):
    """(centroids, sizes) of the small parts of blobs that may be two glyphs joined (a suit glyph
    touching a large corner pip, which some packs print close beside the index): each such blob is
    eroded once, and the parts that split off, at most JOINED_PART of its size, are kept."""
    fill = stats[:, 4] / np.maximum(1, stats[:, 2] * stats[:, 3])
    out_c, out_s = [np.zeros((0, 2))], [np.zeros(0)]
    for i in np.nonzero((size >= JOINED_SIZE) & (size <= MAX_BLOB) & (fill < JOINED_FILL))[0]:
        x, y, w, h = stats[i, :4]
        crop = (labels[y:y + h, x:x + w] == i + 1).astype(np.uint8)
        s2, c2 = _components(cv2.erode(crop, _CROSS))
        part = np.maximum(s2[:, 2], s2[:, 3]) + 2            # its size before the erosion
        ok = (part >= MIN_BLOB) & (s2[:, 4] >= 6)
        if ok.sum() >= 2:
            small = ok & (part <= JOINED_PART * size[i])
            out_c.append(c2[small] + [x, y])
            out_s.append(part[small])
    return np.vstack(out_c), np.concatenate(out_s).astype(np.float64)


def _blobs_in(ink: np.ndarray, split_lines: bool = True, split_joined: bool = False):
    """(centroids, sizes, crowded, parted, lined) of the glyph-sized blobs of one ink mask (0/1);
    crowded blobs have more ink than CROWDED_DENSITY round them.  With ``split_joined`` the parts of
    blobs that may be two glyphs joined (``_joined_parts``) follow the others, marked ``parted`` and
    crowded (each by the other glyph it touched).  ``lined`` blobs were parted from a straight line
    they touched (``split_lines``): a card's outline, or the edge of a card lying over the glyph,
    which may have cut it."""
    n, labels, stats, cents = _labels8(ink)
    stats, cents = stats[1:], cents[1:]
    size = np.maximum(stats[:, 2], stats[:, 3])
    parts = _joined_parts(labels, stats, size) if split_joined else (np.zeros((0, 2)), np.zeros(0))
    big = (size > MAX_BLOB) & split_lines
    if big.any():
        # glyphs touching a thin line (a card outline, a picture frame, the edges of a fan's cards):
        # open the straight lines away, but not the glyphs' own thick strokes
        extra_s, extra_c = [], []
        for i in np.nonzero(big)[0]:
            x, y, w, h = stats[i, :4]
            crop = (labels[y:y + h, x:x + w] == i + 1).astype(np.uint8)
            lines = np.zeros_like(crop)
            for kern in _LINE_KERNELS:
                lines |= cv2.morphologyEx(crop, cv2.MORPH_OPEN, kern)
            lines &= 1 - cv2.morphologyEx(crop, cv2.MORPH_OPEN, _THICK)
            crop[cv2.dilate(lines, np.ones((3, 3), np.uint8)) > 0] = 0
            s2, c2 = _components(crop)
            s2[:, 0] += x
            s2[:, 1] += y
            extra_s.append(s2)
            extra_c.append(c2 + [x, y])
        lined = np.concatenate([np.zeros(int((~big).sum()), bool)] + [np.ones(len(e), bool) for e in extra_s])
        stats = np.vstack([stats[~big]] + extra_s)
        cents = np.vstack([cents[~big]] + extra_c)
    else:
        lined = np.zeros(len(stats), bool)
    x, y, w, h, area = stats.T
    size = np.maximum(w, h)
    k = (size >= MIN_BLOB) & (size <= MAX_BLOB) & (area >= 10) & (area >= 0.12 * w * h)
    stats, cents, size, lined = stats[k], cents[k], size[k], lined[k]
    # ink density in a box twice the blob's size: glyphs stand on paper, patterns do not
    integ = cv2.integral(ink)
    H, W = ink.shape
    x, y, w, h, area = stats.T
    x0 = np.clip(x - w // 2, 0, W)
    x1 = np.clip(x + w + w // 2, 0, W)
    y0 = np.clip(y - h // 2, 0, H)
    y1 = np.clip(y + h + h // 2, 0, H)
    total = integ[y1, x1] - integ[y0, x1] - integ[y1, x0] + integ[y0, x0]
    box = np.maximum(1, (x1 - x0) * (y1 - y0))
    density = (total - area) / box
    k = density < MAX_DENSITY
    # a printed cloth repeats one blob many times at one angle: drop shapes seen too often
    key = (w.astype(np.int64) * 64 + h) * 4096 + area // 6
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    k &= counts[inverse.ravel()] < REPEATED_SHAPE
    whole, n_parts = int(k.sum()), len(parts[1])
    return (np.vstack([cents[k].astype(np.float64), parts[0]]), np.concatenate([size[k].astype(np.float64), parts[1]]),
            np.concatenate([density[k] >= CROWDED_DENSITY, np.ones(n_parts, bool)]),
            np.concatenate([np.zeros(whole, bool), np.ones(n_parts, bool)]),
            np.concatenate([lined[k], np.zeros(n_parts, bool)]))


def _pairs(cents: np.ndarray, sizes: np.ndarray, faint: np.ndarray | None = None) -> np.ndarray:
    """Index pairs (i, j), i < j, in that order, of blobs that could be a rank above a suit: similar
    sizes, close together, and not both ``faint``.  Only blobs within reach of each other across x
    (the largest glyph's pairing distance) are compared: a window over the blobs sorted by x."""
    n = len(cents)
    if n < 2:
        return np.zeros((0, 2), int)
    reach = PAIR_SPAN[1] * float(sizes.max()) + PAIR_SLACK
    order = np.argsort(cents[:, 0], kind="stable")
    xs = cents[order, 0]
    start = np.arange(1, n + 1)                                  # each pair once: the later one in x order
    stop = np.searchsorted(xs, xs + reach, side="right")
    count = stop - start
    first = np.repeat(np.arange(n), count)
    second = start[first] + np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    i, j = np.minimum(order[first], order[second]), np.maximum(order[first], order[second])
    d = np.hypot(cents[i, 0] - cents[j, 0], cents[i, 1] - cents[j, 1])
    smax = np.maximum(sizes[i], sizes[j])
    smin = np.minimum(sizes[i], sizes[j])
    ok = ((d >= PAIR_SPAN[0] * smax) & (d <= PAIR_SPAN[1] * smax + PAIR_SLACK)
          & (smin >= PAIR_SIZE_RATIO * smax))
    if faint is not None:
        ok &= ~(faint[i] & faint[j])
    i, j = i[ok], j[ok]
    by_i = np.lexsort((j, i))
    return np.stack([i[by_i], j[by_i]], axis=1).astype(int)


def right_of(down) -> np.ndarray:
    """The card's "right" for a given "down" (image coordinates, y pointing down)."""
    return np.array([down[1], -down[0]])


def _patch_matrix(centre, down, scale, span=PATCH_SPAN, size=(PATCH_W, PATCH_H)) -> np.ndarray:
    """2x3 affine map from patch pixels to work pixels: an upright patch of ``size`` pixels spanning
    ``span`` rank-suit distances round ``centre`` (by default an index patch)."""
    right = right_of(down)
    sx = span[0] * scale / size[0]
    sy = span[1] * scale / size[1]
    M = np.empty((2, 3))
    M[:, 0] = right * sx
    M[:, 1] = down * sy
    M[:, 2] = centre - right * sx * (size[0] - 1) / 2 - down * sy * (size[1] - 1) / 2
    return M


def _patch(work: np.ndarray, centre, down, scale, span=PATCH_SPAN, size=(PATCH_W, PATCH_H)) -> np.ndarray:
    """The upright patch of ``_patch_matrix`` (by default an index patch), sampled from ``work``."""
    M = _patch_matrix(np.asarray(centre, float), np.asarray(down, float), float(scale), span, size)
    return cv2.warpAffine(work, M, tuple(size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def _patches(work: np.ndarray, centre: np.ndarray, down: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """N upright patches at once (one ``cv2.remap``): the same pixels as ``_patch`` for each."""
    n = len(scale)
    if n == 0:
        return np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8)
    sx = PATCH_SPAN[0] * scale / PATCH_W
    sy = PATCH_SPAN[1] * scale / PATCH_H
    px = np.arange(PATCH_W) - (PATCH_W - 1) / 2
    py = np.arange(PATCH_H) - (PATCH_H - 1) / 2
    right_sx = np.stack([down[:, 1], -down[:, 0]], axis=1) * sx[:, None]
    down_sy = down * sy[:, None]
    # work position = centre + right * sx * px + down * sy * py, x and y as two maps (N*H x W each):
    # no N x H x W x 2 intermediates, about twice as fast as one interleaved map, the same values
    maps = []
    for axis in (0, 1):
        m = centre[:, axis, None, None] + right_sx[:, axis, None, None] * px[None, None, :]
        m = m + down_sy[:, axis, None, None] * py[None, :, None]
        maps.append(m.astype(np.float32).reshape(n * PATCH_H, PATCH_W))
    rows = (32000 // PATCH_H) * PATCH_H           # remap takes fewer than 32767 rows at a time
    out = [cv2.remap(work, maps[0][r:r + rows], maps[1][r:r + rows], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
           for r in range(0, n * PATCH_H, rows)]
    return np.concatenate(out).reshape(n, PATCH_H, PATCH_W, 3)


_HOG_BASE: list = [np.zeros((0, 0, 0), np.intp)]     # first histogram slot of each pixel, for N patches


def _hog_cells(grey: np.ndarray) -> np.ndarray:
    """Cell histograms of oriented gradients of N x H x W patches: 4x4 cells, 9 unsigned bins."""
    g = np.pad(grey, ((0, 0), (1, 1), (1, 1)), mode="edge")
    gx = g[:, 1:-1, 2:] - g[:, 1:-1, :-2]
    gy = g[:, 2:, 1:-1] - g[:, :-2, 1:-1]
    n, h, w = grey.shape
    # OpenCV's polar form (angles to about 0.3 degree) is several times faster than np.arctan2
    mag, ang = cv2.cartToPolar(gx.reshape(-1, 1), gy.reshape(-1, 1))
    mag = mag.reshape(n, h, w)
    # the angle modulo pi (unsigned gradients), by subtracting pi from [pi, 2 pi]: exact, the same
    # bits as np.mod and ten times faster (at 2 pi itself the bin comes out 9, wrapped to 0 below
    # with no fraction, as np.mod's 0 gives; tests/vision/test_cards_model.py checks it)
    pi = np.float32(np.pi)
    ang = ang.reshape(n, h, w)
    ang = (ang - pi * (ang >= pi).astype(np.float32)) * np.float32(HOG_BINS / np.pi)
    b0 = ang.astype(np.intp)                   # truncation: the floor of a non-negative angle
    frac = ang - b0.astype(np.float32)
    b0[b0 == HOG_BINS] = 0                     # an angle rounded up to 180 degrees is 0
    b1 = b0 + 1
    b1[b1 == HOG_BINS] = 0
    ch, cw = h // HOG_CELL, w // HOG_CELL
    base = _HOG_BASE[0]
    if base.shape[0] < n or base.shape[1:] != (h, w):      # made for more patches than asked, kept
        cell = ((np.arange(h) // HOG_CELL)[:, None] * cw + (np.arange(w) // HOG_CELL)[None, :])
        base = ((np.arange(max(n, 1024))[:, None, None] * (ch * cw) + cell[None]) * HOG_BINS).astype(np.intp)
        _HOG_BASE[0] = base
    b0 += base[:n]
    b1 += base[:n]
    size = n * ch * cw * HOG_BINS
    hist = (np.bincount(b0.ravel(), (mag * (1 - frac)).ravel(), size)
            + np.bincount(b1.ravel(), (mag * frac).ravel(), size))
    return hist.reshape(n, ch, cw, HOG_BINS).astype(np.float32)


def _hog_blocks(hist: np.ndarray) -> np.ndarray:
    """2x2-cell blocks, L2-Hys normalised, from N x cells_y x cells_x x bins histograms."""
    n = len(hist)
    blocks = np.concatenate([hist[:, :-1, :-1], hist[:, 1:, :-1], hist[:, :-1, 1:], hist[:, 1:, 1:]], axis=3)
    norm = np.sqrt((blocks ** 2).sum(axis=3, keepdims=True) + 1e-3)
    blocks = np.minimum(blocks / norm, 0.2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=3, keepdims=True) + 1e-3)
    return blocks.reshape(n, -1)


def _balanced(patches: np.ndarray):
    """White balance of N x PATCH_H x PATCH_W x 3 BGR patches on their paper.

    Returns (balanced N' x P x 3 float32, ink N' x P bool, paper_share N', kept indices): patches
    that are not dark ink on light paper are dropped."""
    n = len(patches)
    if n == 0:
        return (np.zeros((0, PATCH_H * PATCH_W, 3), np.float32), np.zeros((0, PATCH_H * PATCH_W), bool),
                np.zeros(0, np.float32), np.zeros(0, np.int64))
    # (two element-wise minima: numpy's reduction over an axis of 3 is several times slower)
    lum8 = np.minimum(np.minimum(patches[..., 0], patches[..., 1]), patches[..., 2]).reshape(n, -1)
    k_hi, k_lo = int(0.85 * lum8.shape[1]), int(0.08 * lum8.shape[1])
    part = np.sort(lum8, axis=1, kind="stable")     # a radix sort on 8 bits: faster than np.partition here
    hi, lo = part[:, k_hi].astype(np.float32), part[:, k_lo].astype(np.float32)
    lum = lum8.astype(np.float32)
    ink = lum < ((hi + lo) / 2)[:, None]
    paper_share = 1.0 - ink.mean(axis=1)
    keep = (hi >= 60) & (hi - lo >= 35) & (paper_share >= 0.35) & ink.any(axis=1)
    idx = np.nonzero(keep)[0]
    if len(idx) == 0:
        return _balanced(patches[:0])
    pf, lum, ink = patches[idx].astype(np.float32), lum[idx], ink[idx]
    hi, lo = hi[idx], lo[idx]
    flat = pf.reshape(len(idx), -1, 3)
    pmask = (lum >= (hi - 0.15 * (hi - lo))[:, None]).astype(np.float32)
    # a weighted sum as N products of (1 x P) by (P x 3): BLAS, eight times faster than np.einsum
    paper = np.matmul(pmask[:, None, :], flat)[:, 0, :] / np.maximum(1.0, pmask.sum(axis=1))[:, None] + 1.0
    balanced = flat                     # divided in place (flat is this function's copy), one channel at
    for c in range(3):                  # a time: numpy broadcasts over a last axis of 3 slowly
        np.divide(flat[:, :, c], paper[:, c, None], out=flat[:, :, c])
    np.clip(balanced, 0, 1.2, out=balanced)
    return balanced, ink, paper_share[idx], idx


def _stretched_grey(balanced: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grey N x P stretched to 0..1, its minimum, its range) of white-balanced patches."""
    grey = (balanced[..., 0] + balanced[..., 1] + balanced[..., 2]) / 3.0
    gmin, gmax = grey.min(axis=1, keepdims=True), grey.max(axis=1, keepdims=True)
    span = np.maximum(0.05, gmax - gmin)
    return (grey - gmin) / span, gmin, span


def cnn_input(patches: np.ndarray):
    """(N' x 3 x PATCH_H x PATCH_W float32 input of the convolutional reader, kept indices):
    the white-balanced patch, its contrast stretched like the grey of ``batch_features``."""
    balanced, _, _, idx = _balanced(patches)
    if len(idx) == 0:
        return np.zeros((0, 3, PATCH_H, PATCH_W), np.float32), idx
    _, gmin, span = _stretched_grey(balanced)
    x = (balanced - gmin[:, :, None]) / span[:, :, None] - 0.5
    return np.ascontiguousarray(x.reshape(len(idx), PATCH_H, PATCH_W, 3).transpose(0, 3, 1, 2), np.float32), idx


def batch_features(patches: np.ndarray, turned: bool = False):
    """(features N' x F, kept indices) for N x PATCH_H x PATCH_W x 3 BGR patches; patches that are
    not dark ink on light paper are dropped.  With ``turned`` also the features of the same patches
    turned by 180 degrees (same pixels, so same statistics; cells and thumbnail flipped, unsigned
    gradient bins unchanged): (features, features_turned, kept indices)."""
    balanced, ink, paper_share, idx = _balanced(patches)
    if len(idx) == 0:
        empty = np.zeros((0, 0), np.float32)
        return (empty, empty, idx) if turned else (empty, idx)
    inkf = ink.astype(np.float32)
    ink_col = np.matmul(inkf[:, None, :], balanced)[:, 0, :] / np.maximum(1.0, inkf.sum(axis=1))[:, None]
    redness = ink_col[:, 2] - np.maximum(ink_col[:, 0], ink_col[:, 1])
    grey = _stretched_grey(balanced)[0].reshape(len(idx), PATCH_H, PATCH_W)
    # 2x2 means, summed as numpy's mean over the two axes sums them (the same bits), ten times faster
    thumb = ((grey[:, 0::2, 0::2] + grey[:, 0::2, 1::2]) + (grey[:, 1::2, 0::2] + grey[:, 1::2, 1::2])) / np.float32(4)
    extra = np.stack([redness * 4, ink_col.mean(axis=1) * 2, paper_share * 2], axis=1)
    cells = _hog_cells(grey)
    m = len(idx)
    blocks = _hog_blocks(cells)
    feats = np.concatenate([blocks, thumb.reshape(m, -1), extra], axis=1).astype(np.float32)
    if not turned:
        return feats, idx
    # turned by 180 degrees, block (i, j) is block (last - i, last - j) with its four cells in the
    # reverse order (each cell's bins in the same order): the same numbers, normalised the same
    ch, cw = cells.shape[1:3]
    blocks_turned = blocks.reshape(m, ch - 1, cw - 1, 4, HOG_BINS)[:, ::-1, ::-1, ::-1, :].reshape(m, -1)
    feats_turned = np.concatenate([blocks_turned, thumb[:, ::-1, ::-1].reshape(m, -1), extra], axis=1).astype(np.float32)
    return feats, feats_turned, idx


def index_candidates(work: np.ndarray, keep=None) -> Candidates:
    """All index hypotheses of a (work-size) BGR picture, with their features.  ``keep``, if
    given, is called with the hypotheses' (centre, down, scale) arrays and returns which of them
    to read (where an index can be): the others are dropped before their features are made."""
    cents, sizes, crowded, faint, lined = _ink_blobs(work)
    pairs = _pairs(cents, sizes, None if FAINT_PAIRS else faint)
    empty = Candidates(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), np.zeros((0, 0), np.float32),
                       np.zeros((0, 2), int), np.zeros(0, bool))
    if len(pairs) == 0:
        return empty
    unsure = crowded | faint           # a glyph that may be cut, misjoined, or only partly inked
    a = np.concatenate([pairs[:, 0], pairs[:, 1]])          # each pair both ways round
    b = np.concatenate([pairs[:, 1], pairs[:, 0]])
    vec = cents[b] - cents[a]
    scale = np.hypot(vec[:, 0], vec[:, 1])
    down = vec / scale[:, None]
    centre = (cents[a] + cents[b]) / 2
    if keep is not None:
        k = np.nonzero(keep(centre, down, scale))[0]
        if len(k) == 0:
            return empty
        feats, read = batch_features(_patches(work, centre[k], down[k], scale[k]))
        k = k[read]
        return Candidates(centre[k], down[k], scale[k], feats, np.stack([a[k], b[k]], axis=1),
                          unsure[a[k]] | unsure[b[k]], lined[b[k]])
    m = len(pairs)
    one_way = _patches(work, centre[:m], down[:m], scale[:m])
    # the other direction samples the same points turned by 180 degrees
    feats, feats_turned, read = batch_features(one_way, turned=True)
    both = np.concatenate([read, read + m])
    blobs = np.stack([a, b], axis=1)
    return Candidates(centre[both], down[both], scale[both], np.vstack([feats, feats_turned]), blobs[both],
                      unsure[a[both]] | unsure[b[both]], lined[b[both]])


# --------------------------------------------------------------- model -----

class CardModel:
    """The two-headed MLP (rank-or-none, suit) and the index -> card geometry.

    A model file may hold several networks trained apart (different data, sizes and starting
    weights): the first under plain names (``W1`` ...), the others prefixed ``m1_``, ``m2_`` ...
    Their probabilities are averaged: two networks rarely make the same mistake with the same
    confidence, so the average is sure less often when wrong than either network alone."""

    LAYERS = ("W1", "b1", "W2", "b2", "Wr", "br", "Ws", "bs", "mean", "std")

    def __init__(self, params: dict):
        self.p = {k: np.asarray(v) for k, v in params.items()}
        self.members = []
        for prefix in [""] + [f"m{k}_" for k in range(1, 100)]:
            if prefix + "W1" not in self.p:
                break
            m = {k: self.p[prefix + k].astype(np.float32) for k in self.LAYERS}
            self.members.append(m)
        # every network's first layer, its input standardisation folded in, as one matrix: one product
        # over the features instead of a standardised copy and a product per network
        w1 = [m["W1"].astype(np.float64) / m["std"].astype(np.float64)[:, None] for m in self.members]
        self.first_w = np.concatenate(w1, axis=1).astype(np.float32)
        self.first_b = np.concatenate([m["b1"] - m["mean"].astype(np.float64) @ w
                                       for m, w in zip(self.members, w1)]).astype(np.float32)
        self._widths = [m["W1"].shape[1] for m in self.members]
        # (networks) -> their columns of first_w, first_b; all of them are the matrices themselves
        self._first_of: dict = {tuple(range(len(self.members))): (self.first_w, self.first_b)}
        self.geometry = self.p["geometry"].astype(np.float64)   # corner_u, corner_v, width, height (in scale)

    def predict(self, features: np.ndarray, gate=None) -> tuple[np.ndarray, np.ndarray]:
        """(rank probabilities N x 14, suit probabilities N x 4), averaged over the networks.

        With ``gate`` = (networks, p): the listed networks read every hypothesis first, and those they
        all give p(index) under p keep their average alone (so p(index) stays under p); the other
        networks read only the rest, whose reading by the listed ones is kept from the first pass.
        Most hypotheses of a frame are plainly not an index: a quarter of the networks' work rules
        out about seven in ten of them (see MLP_GATE)."""
        n = len(self.members)
        if gate is None or len(features) == 0 or max(gate[0]) >= n:
            # (a file with fewer networks than the gate names, a network being trained: no gate)
            return self._average(features, range(n))
        first, below = gate
        gated = self._readings(features, first)
        ranks, suits = _mean_of(gated, first)
        rest = np.nonzero((1.0 - ranks[:, -1]) >= below)[0]
        if len(rest):
            read = {k: (r[rest], s[rest]) for k, (r, s) in gated.items()}
            read.update(self._readings(features[rest], [k for k in range(n) if k not in gated]))
            ranks[rest], suits[rest] = _mean_of(read, range(n))
        return ranks, suits

    def _average(self, features: np.ndarray, which) -> tuple[np.ndarray, np.ndarray]:
        """The averaged probabilities of the networks numbered in ``which``."""
        return _mean_of(self._readings(features, which), which)

    def _readings(self, features: np.ndarray, which) -> dict:
        """{network: (rank probabilities, suit probabilities)} of the networks numbered in ``which``,
        their first layers as one matrix product."""
        which = tuple(which)
        if which not in self._first_of:
            bounds = np.concatenate([[0], np.cumsum(self._widths)])
            cols = np.concatenate([np.arange(bounds[k], bounds[k + 1]) for k in which])
            self._first_of[which] = (np.ascontiguousarray(self.first_w[:, cols]), self.first_b[cols])
        w, b = self._first_of[which]
        first = np.maximum(0, features @ w + b)
        out = {}
        for k, h in zip(which, np.split(first, np.cumsum([self._widths[k] for k in which])[:-1], axis=1)):
            m = self.members[k]
            h = np.maximum(0, h @ m["W2"] + m["b2"])
            out[k] = (_softmax(h @ m["Wr"] + m["br"]), _softmax(h @ m["Ws"] + m["bs"]))
        return out


def _mean_of(readings: dict, which) -> tuple[np.ndarray, np.ndarray]:
    """The mean rank and suit probabilities of the networks numbered in ``which``, in that order."""
    return (np.mean([readings[k][0] for k in which], axis=0), np.mean([readings[k][1] for k in which], axis=0))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


_MODEL_CACHE: dict = {}


def load_model(path=None) -> CardModel:
    p = Path(path) if path else MODEL_PATH
    key = str(p)
    if key not in _MODEL_CACHE:
        if not p.exists():
            raise FileNotFoundError(f"card model {p} is missing; build it with `python -m vision.train_cards`")
        with np.load(p) as data:
            _MODEL_CACHE[key] = CardModel({k: data[k] for k in data.files})
    return _MODEL_CACHE[key]


# ---------------------------------------------------------------- cards -----

def _card_quad(centre, down, scale, geometry) -> np.ndarray:
    """The card outline (TL, TR, BR, BL) an index reading implies."""
    cu, cv, w, h = geometry
    right = right_of(down)
    tl = centre + right * cu * scale + down * cv * scale
    return np.array([tl, tl + right * w * scale, tl + right * w * scale + down * h * scale,
                     tl + down * h * scale])


def _framed_quad(centre, down, scale, geometry, longest: float) -> np.ndarray:
    """``_card_quad`` shrunk about the index to at most ``longest`` long: no card is longer than the
    camera's framing allows (a deck spacing its index wider than the geometry's median would put its
    outlines off the cards)."""
    quad = _card_quad(centre, down, scale, geometry)
    length = float(np.linalg.norm(quad[3] - quad[0]))
    return centre + (quad - centre) * min(1.0, longest / length)


def _confidence(p_rank, p_suit, p_index):
    """A reading's confidence: p(rank | index) x p(suit), damped when p(index) is under 0.9
    (scalars or arrays)."""
    return p_rank / np.maximum(1e-9, p_index) * p_suit * np.minimum(1.0, p_index / 0.9)


def _nms(readings: list[dict]) -> list[dict]:
    """One reading per index: the best of hypotheses that overlap or share a glyph."""
    readings.sort(key=lambda r: -r["confidence"])
    kept: list[dict] = []
    for r in readings:
        if any(r["blobs"] & k["blobs"] or np.hypot(*(r["centre"] - k["centre"])) < NMS_RADIUS * max(r["scale"], k["scale"])
               for k in kept):
            continue
        kept.append(r)
    return kept


def _group(readings: list[dict]) -> list[list[dict]]:
    """Readings of the same card (its two index corners) grouped together."""
    # pairs of readings that could be one card's two corners (opposite directions, the same
    # predicted outline); in a meld or a fan the neighbours' outlines nearly coincide too, so the
    # pairs that read the same card are taken first, then the closest ones
    readings = sorted(readings, key=lambda r: -r["confidence"])
    pairs = []
    for i, r in enumerate(readings):
        c = r["quad"].mean(axis=0)
        h = np.linalg.norm(r["quad"][3] - r["quad"][0])
        for j in range(i + 1, len(readings)):
            o = readings[j]
            if float(np.dot(r["down"], o["down"])) >= -0.85:
                continue
            d = np.hypot(*(o["quad"].mean(axis=0) - c))
            if d < 0.35 * h:
                pairs.append((r["card"] != o["card"], d / h, i, j))
    partner: dict[int, int] = {}
    for _, _, i, j in sorted(pairs):
        if i not in partner and j not in partner:
            partner[i], partner[j] = j, i
    groups: list[list[dict]] = []
    for i, r in enumerate(readings):
        if i not in partner:
            groups.append([r])
        elif partner[i] > i:
            groups.append([r, readings[partner[i]]])
    # one pack has each card once: the same card read twice nearby is one card seen at both corners
    # (a weak reading of another card paired with one of them is left out: it vetoes nothing)
    merged: list[list[dict]] = []
    for g in groups:
        for k, m in enumerate(merged):
            one, other = _without_weak_other(g), _without_weak_other(m)
            ids = {r["card"] for r in one}
            if len(ids) == 1 and {r["card"] for r in other} == ids and len(one) + len(other) <= 2:
                c = np.mean([r["quad"].mean(axis=0) for r in one], axis=0)
                cm = np.mean([r["quad"].mean(axis=0) for r in other], axis=0)
                h = np.linalg.norm(one[0]["quad"][3] - one[0]["quad"][0])
                if np.hypot(*(c - cm)) < 1.2 * h and float(np.dot(one[0]["down"], other[0]["down"])) < -0.5:
                    merged[k] = other + one
                    merged += [[r] for r in m + g if not any(r is o for o in other + one)]
                    break
        else:
            merged.append(g)
    return merged


def _without_weak_other(g: list[dict]) -> list[dict]:
    """A group of two readings without a reading of another card under ``DISAGREE_IGNORED`` (when
    ``WEAK_PARTNER_LEFT``), a group of one as it is."""
    if not WEAK_PARTNER_LEFT or len(g) < 2 or g[0]["card"] == g[1]["card"]:
        return g
    strong = [r for r in g if r["confidence"] >= DISAGREE_IGNORED]
    return strong if len(strong) == 1 else g


def _without_claimed_elsewhere(groups: list[list[dict]], threshold: float) -> list[list[dict]]:
    """Groups of two different readings with the one reading taken out that names a card another
    group names by itself, surely.  A pack has each card once: that reading is the other card's
    index lying beside this card's corner (a meld, a fan: the readings were paired as one card's two
    corners), or a misread; either way it says nothing against the card this group's other reading
    names, which is then named as any card read sure at one corner (when that reading is not sure,
    the group stays whole: two readings place an unnamed card better than one).  On 1 200 tuning
    scenes: five more index-only cards named, none wrongly."""
    claims = [(g[0]["card"], g) for g in groups if len({r["card"] for r in g}) == 1
              and _could_name(max(g, key=lambda r: r["confidence"]), threshold)]
    out = []
    for g in groups:
        if len(g) == 2 and g[0]["card"] != g[1]["card"]:
            claimed = [r for r in g if any(card == r["card"] and other is not g for card, other in claims)]
            rest = [r for r in g if r is not claimed[0]] if len(claimed) == 1 else []
            if rest and _could_name(rest[0], threshold):
                out.append(rest)
                continue
        out.append(g)
    return out


def _one_report_per_card(cards: list[dict]) -> list[dict]:
    """``cards`` without the less sure of two reports naming the same card whose outlines overlap
    (one's centre inside the other's): one card placed twice, from its index and from a glyph
    beside it (a pip, the other half of a ten).  Seen in 2 of 600 tuning scenes."""
    kept: list[dict] = []
    for c in sorted(cards, key=lambda c: -c["confidence"]):
        if c["card"] is None or not any(
                k["card"] == c["card"] and (_inside(k["quad"], np.mean(c["quad"], axis=0), shrink=1.0)
                                            or _inside(c["quad"], np.mean(k["quad"], axis=0), shrink=1.0))
                for k in kept):
            kept.append(c)
    return [c for c in cards if any(c is k for k in kept)]


def _corners_of_one_card(a: dict, b: dict, tolerance: float | None = None) -> bool:
    """Whether two readings sit each where the other's outline puts the card's opposite index
    (within ``tolerance``, default ``CORNER_FIT``, of the distance between them): one card's two
    corners, one of them misread, rather than two cards lying one on the other."""
    tolerance = CORNER_FIT if tolerance is None else tolerance
    seen = b["centre"] - a["centre"]
    for r, v in ((a, seen), (b, -seen)):
        predicted = 2 * (r["quad"].mean(axis=0) - r["centre"])
        if np.linalg.norm(v - predicted) > tolerance * np.linalg.norm(predicted):
            return False
    return True


def _both_corner_pairs(readings: list[dict]) -> list[tuple[dict, dict, float]]:
    """Cards read at both index corners: pairs of sure readings of one card, the same size, turned
    against each other, each lying where the other's outline puts the card's opposite index (its
    direction within about 10 degrees), with the distance seen over the distance the geometry
    predicts."""
    sure = [r for r in readings if r["confidence"] >= SIZE_VOTE]
    pairs = []
    for i, r in enumerate(sure):
        for o in sure[i + 1:]:
            if o["card"] != r["card"] or float(np.dot(r["down"], o["down"])) > -0.85:
                continue
            if not _same_size(r["scale"], o["scale"]):
                continue
            predicted = 2 * (r["quad"].mean(axis=0) - r["centre"])     # to the other corner's index
            seen = o["centre"] - r["centre"]
            cos = float(np.dot(predicted, seen)) / max(1e-9, float(np.linalg.norm(predicted) * np.linalg.norm(seen)))
            if cos >= 0.985:
                pairs.append((r, o, float(np.linalg.norm(seen) / np.linalg.norm(predicted))))
    return pairs


def _picture_card_size(pairs: list[tuple[dict, dict, float]], lowest: float | None = None) -> float:
    """How much larger this picture's cards are than the model's index -> card geometry says.

    The geometry is a median over the training decks; a deck whose index is set closer to the
    card's corner, or spaced wider, has other proportions.  A card read at both of its index
    corners shows its own: the other corner's reading lies where the geometry says, times
    this factor.  The median over such cards (``pairs``, from ``_both_corner_pairs``); 1.0 when
    there is none or it lies outside ``lowest`` (default ``CARD_SIZE_RANGE[0]``) ..
    ``CARD_SIZE_RANGE[1]``."""
    lowest = CARD_SIZE_RANGE[0] if lowest is None else lowest
    ratios = [ratio for _, _, ratio in pairs]
    if not ratios:
        return 1.0
    ratio = float(np.median(ratios))
    return ratio if lowest <= ratio <= CARD_SIZE_RANGE[1] else 1.0


def _picture_geometry(work: np.ndarray, readings: list[dict], geometry: np.ndarray):
    """This picture's index -> card geometry (corner_u, corner_v, width, height in units of the
    index's scale) and whether cards of the picture measured it.

    The distance between a card's two indices gives its size only where the index sits as far in
    from the corner as the geometry's median: a pack printing it further in (ornamental, tango,
    plastic) measures small, and its outlines fall inside its cards.  So a card read at both
    corners (the surest ``FIT_CARDS``) has its outline, centred between its indices at the measured
    size, fitted outward to its edges: each side to the first straight step met going out, up to
    ``FIT_REACH`` of its width (``card_regions.side_offsets``).  Opposite sides must move alike
    (``FIT_SLACK``); where they do not, one side went on past an edge that showed no step (white on
    white, a card of the pack beyond it): a pip card takes the nearer edge on both sides
    (``FIT_MIN``), a court is left out (its picture's frame is a straight step inside the card).
    An outline fitted to no card's shape (``ASPECT``) is left out too.  Where each index lies in
    the fitted outline is this pack's geometry: the median over the fitted cards, each corner one
    vote.  Without a fitted card, the geometry times the measured size (``_picture_card_size``,
    measured when at least ``SIZE_TRUSTED``); without that, the model's own, unmeasured."""
    pairs = _both_corner_pairs(readings)
    size = _picture_card_size(pairs, FIT_SMALLEST)
    if size == 1.0:
        return geometry, False
    measured = geometry * size
    plain = (measured, size >= SIZE_TRUSTED) if size >= CARD_SIZE_RANGE[0] else (geometry, False)
    if not FIT_REACH:
        return plain
    votes = []
    fitted_cards = 0
    for r, o, _ in sorted(pairs, key=lambda p: -min(p[0]["confidence"], p[1]["confidence"])):
        if fitted_cards == FIT_CARDS:
            break
        court = r["card"][0] in "JQK"
        if court and not FIT_COURTS:
            continue
        s = 0.5 * (r["scale"] + o["scale"])
        quad = _card_quad((r["centre"] + o["centre"]) / 2 - _card_quad(0, r["down"], s, measured).mean(axis=0),
                          r["down"], s, measured)
        width = float(np.linalg.norm(quad[1] - quad[0]))
        moves = side_offsets(work, quad, shift=2, outward=max(3, int(FIT_REACH * width)))
        if any(m is None for m in moves):
            continue
        # the outline is centred between the card's two indices: its opposite sides lie as far from
        # their edges (one that does not is cut off by a card lying on it, or met the edge of
        # another card beyond it where its own edge shows no step, white on white)
        if any(abs(moves[k] - moves[k + 2]) > max(FIT_SLACK * width, 2.0) for k in (0, 1)):
            if not FIT_MIN or court:
                continue
            moves = [min(moves[k % 2], moves[k % 2 + 2]) for k in range(4)]
        fitted = moved_sides(quad, [0.5 * (moves[k % 2] + moves[k % 2 + 2]) for k in range(4)])
        if fitted is None or not ASPECT[0] <= (np.linalg.norm(fitted[3] - fitted[0])
                                               / max(1e-6, np.linalg.norm(fitted[1] - fitted[0]))) <= ASPECT[1]:
            continue        # not a card's shape: a side went on past its edge (white on white)
        fitted_cards += 1
        for reading, corner in ((r, 0), (o, 2)):
            right, down = right_of(reading["down"]), reading["down"]
            tl = fitted[corner] - reading["centre"]
            tr, bl = fitted[(corner + 1) % 4], fitted[(corner + 3) % 4]
            votes.append(np.array([np.dot(tl, right), np.dot(tl, down), np.dot(tr - fitted[corner], right),
                                   np.dot(bl - fitted[corner], down)]) / reading["scale"])
    if not votes:
        return plain
    fitted_geometry = np.median(np.array(votes), axis=0)
    return fitted_geometry, True


def _work_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    img = check_frame(image)
    scale = 1.0
    if img.shape[1] > WORK_WIDTH * 1.1:
        scale = WORK_WIDTH / img.shape[1]
        img = cv2.resize(img, (WORK_WIDTH, int(round(img.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    return img, scale


def read_indices(work: np.ndarray, model: CardModel, cnn=None, keep=None) -> list[dict]:
    """Index readings (after suppression of overlapping hypotheses) in work pixels.
    ``cnn`` (vision.card_cnn.CardCNN) reads again the hypotheses the MLP does not rule out;
    ``keep`` limits the hypotheses read (see ``index_candidates``)."""
    cand = index_candidates(work, keep)
    if len(cand.scale) == 0:
        return []
    pr, ps = model.predict(cand.features, gate=MLP_GATE)
    mlp_rank, mlp_suit = pr.copy(), ps.copy()     # the MLP's own reading, a second opinion on the CNN's
    if cnn is not None:
        # the hypotheses the MLP does not rule out are read again, from their pixels
        again = np.nonzero(1.0 - pr[:, -1] >= CNN_GATE)[0]
        x, kept = cnn_input(_patches(work, cand.centre[again], cand.down[again], cand.scale[again]))
        if len(kept):
            cr, cs = cnn.predict(x, gate=CNN_MEMBER_GATE)
            k = again[kept]
            pr[k] = (1 - CNN_WEIGHT) * pr[k] + CNN_WEIGHT * cr
            ps[k] = (1 - CNN_WEIGHT) * ps[k] + CNN_WEIGHT * cs
    p_index = 1.0 - pr[:, -1]
    out = []
    for k in np.nonzero(p_index >= 0.5)[0]:
        rk = int(np.argmax(pr[k, :-1]))
        sk = int(np.argmax(ps[k]))
        conf = own = float(_confidence(pr[k, rk], ps[k, sk], p_index[k]))
        mlp_p = float(mlp_rank[k, rk] * mlp_suit[k, sk])
        mlp_rk = int(np.argmax(mlp_rank[k, :-1]))      # the MLPs' own likeliest rank
        cut_suit = cand.cut_suit is not None and bool(cand.cut_suit[k])
        if cnn is not None and conf >= AGREE_CNN and mlp_p >= AGREE_MLP:
            # two readers, one from the pixels and one from their gradients, name the same card
            conf = 1.0 - (1.0 - conf) * (1.0 - mlp_p)
        out.append({"centre": cand.centre[k], "down": cand.down[k], "scale": float(cand.scale[k]),
                    "blobs": set(int(v) for v in cand.blobs[k]),
                    "p_index": float(p_index[k]), "card": RANK_CLASSES[rk] + SUIT_CLASSES[sk],
                    "confidence": conf, "own_confidence": own, "mlp_p": mlp_p, "mlp_rank": RANK_CLASSES[mlp_rk],
                    "crowded": bool(cand.crowded[k]), "steady": False,
                    "cut_suit": cut_suit, "mlp_suit_p": float(mlp_suit[k, sk]),
                    "quad": _card_quad(cand.centre[k], cand.down[k], cand.scale[k], model.geometry)})
    out = _nms(out)
    if cnn is not None:
        _read_moved(work, out, cnn)
    if EDGE_FILL and CUT_SUIT_MLP:
        for r in out:
            if not r["cut_suit"] and r["mlp_suit_p"] < CUT_SUIT_MLP and r["confidence"] >= MIN_REPORTED:
                r["cut_suit"] = _suit_on_an_edge(work, r)
    return out


def _suit_on_an_edge(work: np.ndarray, reading: dict) -> bool:
    """Whether a reading's suit glyph is joined to an edge: in an upright window ``EDGE_WINDOW``
    rank-suit distances wide round it, the ink (darker than 0.62 of the window's paper) at its
    centre belongs to a blob that reaches the window's rim and fills less than ``EDGE_FILL`` of
    its box.  A card lying over the index below mostly leaves its outline a pixel or two off the
    glyph it cuts at the reader's own ink cuts, so the glyph is not parted from a line there
    (``_blobs_in``), but at this one, taken on the window's paper alone, glyph and outline meet."""
    down = np.asarray(reading["down"], float)
    n = EDGE_SIDE
    window = _patch(work, reading["centre"] + down * reading["scale"] / 2, down, reading["scale"],
                    span=(EDGE_WINDOW, EDGE_WINDOW), size=(n, n))
    dark = window.min(axis=2)
    ink = (dark < INK_RATIOS[0] * np.percentile(dark, 90)).astype(np.uint8)
    count, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count < 2:
        return False
    k = 1 + int(np.argmin(np.hypot(cents[1:, 0] - (n - 1) / 2, cents[1:, 1] - (n - 1) / 2)))
    x, y, w, h, area = stats[k]
    on_rim = x == 0 or y == 0 or x + w == n or y + h == n
    return bool(on_rim and area < EDGE_FILL * w * h)


def _read_moved(work: np.ndarray, readings: list[dict], cnn) -> None:
    """Read again, by the CNN, the patches of some readings moved a little (STEADY_MOVES: shifted
    across or along the index, scaled, turned), and from them:

    - mark ``steady`` a reading resting on crowded glyphs that the MLPs do not confirm (but do not
      reject outright, STEADY_MLP) when the CNN gives its card at least STEADY_MIN in every moved
      patch, or CROWDED_SURE in its own (then it is not moved: on 1 400 dev scenes, 800 mixed,
      300 piles and 300 hands, the 42 such readings at the threshold or more all named the card
      under them, 20 of them at 0.999 or more; the three crowded readings there that named another
      card, sure, had the MLPs under 0.06).  Not an ace: the CNN reads a serif K (paris) as an A,
      sure (dev 3 154 135: 0.999 at a king's corner read again by the second look).  Crowded
      glyphs (another card's edge across them, a pip joined to one) may be cut or misjoined and
      read as another card: such a misread mostly rests on the exact cut of the patch and changes
      when the patch moves, where a true index keeps its reading.  The MLPs' agreement
      (``CROWDED_CONFIRM``) is the other way to confirm it; on the held-out packs, whose glyphs
      the MLPs read less well, it often fails on a true index.
    - with ``MOVED_SURE``, count the moved patches as a second opinion on a reading under the
      default threshold (from ``MOVED_UNSURE``) that the MLPs do not reject outright: when the CNN's mean
      probability of its card over its own patch and the moved ones is MOVED_SURE or more, the
      confidence becomes 1 - (1 - confidence) x (1 - that mean).  A blurred or small index read
      a little off its centre is read better from some of the moved patches."""
    unconfirmed = [r for r in readings if STEADY and r["crowded"] and STEADY_MLP <= r["mlp_p"] < CROWDED_CONFIRM
                   and r["confidence"] >= MIN_REPORTED]
    for r in unconfirmed:
        if CROWDED_SURE and r["confidence"] >= CROWDED_SURE and r["card"][0] != "A":
            r["steady"] = True
    unconfirmed = [r for r in unconfirmed if not r["steady"]]
    unsure = [r for r in readings if MOVED_SURE and MOVED_UNSURE <= r["confidence"] < DEFAULT_THRESHOLD
              and r["mlp_p"] >= STEADY_MLP]
    chosen = list({id(r): r for r in unconfirmed + unsure}.values())
    if not chosen:
        return
    moves = ((0.0, 0.0, 1.0, 0.0),) + STEADY_MOVES
    centres, downs, scales = [], [], []
    for r in chosen:
        down, scale = np.asarray(r["down"], float), r["scale"]
        across = right_of(down)
        for shift_across, shift_along, factor, degrees in moves:
            t = np.deg2rad(degrees)
            centres.append(r["centre"] + scale * (shift_across * across + shift_along * down))
            downs.append([down[0] * np.cos(t) - down[1] * np.sin(t), down[0] * np.sin(t) + down[1] * np.cos(t)])
            scales.append(scale * factor)
    x, kept = cnn_input(_patches(work, np.array(centres), np.array(downs), np.array(scales)))
    p = np.zeros(len(scales))
    if len(kept):
        pr, ps = cnn.predict(x)
        rank = np.array([RANK_CLASSES.index(r["card"][0]) for r in chosen]).repeat(len(moves))[kept]
        suit = np.array([SUIT_CLASSES.index(r["card"][1]) for r in chosen]).repeat(len(moves))[kept]
        p[kept] = pr[np.arange(len(kept)), rank] * ps[np.arange(len(kept)), suit]
    p = p.reshape(len(chosen), len(moves))
    unconfirmed_ids, unsure_ids = {id(r) for r in unconfirmed}, {id(r) for r in unsure}
    for r, read in zip(chosen, p):
        if id(r) in unconfirmed_ids:
            r["steady"] = bool(read[1:].min() >= STEADY_MIN)
        if id(r) in unsure_ids and read.mean() >= MOVED_SURE:
            r["confidence"] = 1.0 - (1.0 - r["confidence"]) * (1.0 - float(read.mean()))


def find_cards(image: np.ndarray, threshold: float | None = None, model: CardModel | None = None,
               regions: bool = True, cnn=None, second_look: bool = True) -> list[dict]:
    """Cards in a BGR picture, per Contract 2 (card, face, confidence, quad in picture pixels).
    ``threshold`` defaults to ``DEFAULT_THRESHOLD``; ``cnn`` to the shipped convolutional reader
    (``False``: the MLP reads alone).  With ``regions`` card-shaped regions no reading explains are
    reported too, and with ``second_look`` their index corners are read again
    (``vision.card_corners``)."""
    threshold = DEFAULT_THRESHOLD if threshold is None else threshold
    model = model or load_model()
    if cnn is None:
        cnn = card_cnn.load_cnn()
    work, scale = _work_image(image)
    with card_cnn.one_blas_thread():
        readings = read_indices(work, model, cnn or None)
    # the cards of one table are the same size: a reading far larger than the typical index is
    # most often two pips of a card's picture read as a rank and a suit
    votes = [r["scale"] for r in readings if r["confidence"] >= SCALE_VOTE]
    typical = float(np.median(votes)) if votes else 0.0
    geometry, size_measured = _picture_geometry(work, readings, model.geometry)
    longest = CARD_LENGTH[1] * work.shape[1]
    for r in readings:
        r["quad"] = _framed_quad(r["centre"], r["down"], r["scale"], geometry, longest)
    cards = []
    named: list[tuple[np.ndarray, float, str, list[np.ndarray]]] = []
    supports: list[list[dict]] = []     # the readings that name each card of ``cards``
    groups = []
    for g in _group(readings):
        if (len(g) == 2 and g[0]["card"] != g[1]["card"] and min(r["own_confidence"] for r in g) >= SPLIT_CONFIDENT
                and not _corners_of_one_card(g[0], g[1])):
            # two sure, different readings whose outlines coincide: two cards of a meld or a fan
            # (each index seen), far more often than one card misread at one corner
            groups += [[g[0]], [g[1]]]
        else:
            groups.append(g)
    if CLAIMED_ELSEWHERE:
        groups = _without_claimed_elsewhere(groups, threshold)
    # surest first; at equal confidence a card read the same at both corners first
    for g in sorted(groups, key=lambda g: (-round(max(r["confidence"] for r in g), 3), -_agreeing(g))):
        # a weak or odd-sized reading inside a card already read (a pip and a corner glyph) is not
        # another card; a confident one of the right size is a card lying on top of it (even on a
        # card read at both corners: in a pile turned a little both corners of the card below
        # show), unless it names that same card (a pack has each card once: a glyph of its picture)
        if any(all(_inside(q, r["centre"]) and (r["confidence"] < threshold or r["card"] == name or
                                                _odd_sized(r, sc, typical)
                                                or _hides(r, seen, readings)) for r in g)
               for q, sc, name, seen in named):
            continue
        # a pack has each card once: a card already named, read again at another size, is a
        # glyph of a picture paired with something else, not a second copy
        if any(all(r["card"] == name and not _same_size(r["scale"], sc) for r in g)
               for q, sc, name, _ in named):
            continue
        best = max(g, key=lambda r: r["confidence"])
        if best["confidence"] < MIN_REPORTED:
            continue
        # a reading far larger than the typical index is two glyphs of a card's picture taken for
        # a rank and a suit: it neither names the card nor vetoes the reading of its index (a court
        # card is allowed more: some packs print a jack's, queen's or king's index wider apart)
        index = [r for r in g if not (typical and r["scale"] > _max_ratio(r) * typical)]
        ids = {r["card"] for r in index}
        surest = max(index, key=lambda r: r["confidence"]) if index else best
        if not index:
            card, conf = None, best["confidence"]
        elif len(ids) > 1 and (min(r["confidence"] for r in index) < DISAGREE_IGNORED or (
                _could_name(surest, threshold)
                and all(r["card"] == surest["card"] or (not _suit_in_doubt(r, surest) and (
                    _crowded_guess(r, threshold) or _idle_guess(r, surest, threshold))) for r in index))):
            # the other corner is a weak guess, not a second opinion: unsure, or read from crowded
            # glyphs the MLPs do not confirm (a cut or misjoined glyph; it could not name a card
            # either), or unsure by the CNN with the MLPs siding with the sure corner
            card = surest["card"] if surest["confidence"] >= threshold else None
            conf = surest["confidence"]
        elif (len(ids) > 1 and _sure_by_both(surest, threshold)
              and not any(_could_name(r, threshold) and not _lone_guess(r, readings) for r in index if r is not surest)):
            # one corner sure by both readers, the other unsure (or sure only from crowded glyphs the
            # MLPs do not confirm): on 1 400 tuning scenes the sure one was right 20 times of 20 (the
            # other was a misread, or another card's index beside it).  The MLPs' bar here is
            # BOTH_MLP, lower than AGREE_MLP's for lifting a confidence: the CNN is sure already
            card, conf = surest["card"], surest["confidence"]
        elif len(ids) > 1:
            card, conf = None, float(min(r["confidence"] for r in index))
        else:
            conf = 1.0 - float(np.prod([1.0 - r["confidence"] for r in index]))
            card = (surest["card"] if surest["confidence"] >= threshold or (len(index) == 2 and conf >= threshold
                                                                         and not _weak_pair_doubted(index))
                    else None)
        support = [r for r in index if r["card"] == card]
        if card is not None and all(_unconfirmed_crowded(r) or _idle_partner(r, threshold) for r in support) and any(
                _unconfirmed_crowded(r) for r in support) and not (
                TWO_SURE_CORNERS and len(support) == 2 and all(r["confidence"] >= threshold for r in support)):
            # a glyph with ink crowding it (another card's edge across it, a pip joined to it) may
            # be cut or misjoined: named only when the MLP, from other features, reads the same card,
            # or when the card's two corners, crowded each in its own way, both read it sure (a
            # corner neither reader stands by does not lift it: IDLE_PARTNER)
            card = None
        backed = [r for r in support if not (IDLE_PARTNER_ALONE and _idle_partner(r, threshold))] or support
        if card is not None and len(backed) == 1 and (_alone_out_of_a_row(backed[0], readings)
                                                       or _doubted_alone(backed[0], readings, threshold)):
            # one reading, sure by the CNN but not very sure, the MLPs reading another card, and no
            # row of indices beside it: in piles such a reading was a glyph of the top card's face or
            # of a lower card read as a card not on the table (3 of the 13 fully visible cards named
            # wrong on 3 200 dev scenes); the card is reported unnamed.  The same where the MLPs give
            # the card more but read another rank themselves: a lower card's ace in a pile, its heart
            # cut by the top card's edge, read a four of hearts at 0.958 by the CNN, the MLPs' rank
            # the 10 (fresh 3 175 169)
            card = None
        if card is not None and ACE_OR_KING and any(_ace_or_king(r) for r in support):
            # the two readers disagree on the rank: a serif K (paris) is read as an A by the CNN, sure,
            # where the MLPs, from the glyph's gradients, see the K
            card = None
        # a card read twice at very different sizes takes its outline from the smaller reading
        # that names it: the larger one is two pips of its picture, spaced wider than the index
        # (another corner's weak guess of a different card does not place it, nor one of the same
        # card under PLACE_MIN: a dondorf ace read 1.0 by both readers was placed by a 0.42 guess at
        # its third index, 1.31 times smaller, off the card, dev trick 3 560 146)
        placed_by = card if card is not None else best["card"]
        placing = [r for r in g if r["card"] == placed_by]
        placing = [r for r in placing if r["confidence"] >= PLACE_MIN] or placing
        ref = min(placing, key=lambda r: r["scale"])
        alike = [r for r in g if _same_size(r["scale"], ref["scale"])]
        quad = np.mean([_orient(r["quad"], ref["quad"]) for r in alike], axis=0)
        cards.append({"card": card, "face": "up", "confidence": round(conf, 4), "quad": quad})
        supports.append(support)
        if card is not None:
            named.append((quad, float(np.mean([r["scale"] for r in alike])), card, [r["centre"] for r in support]))
    # a pack has each card once: a card read sure, at its index size, at another place is claimed
    # in two places (a misread elsewhere; an outline placed from the third index of a deck printing
    # four), and either may be wrong
    # (unless the card is read at both corners, sure by both readers, and the reading elsewhere is
    # sure by the CNN alone: then that one is the misread)
    sure = [r for r in readings if r["confidence"] >= threshold]
    for c, support in zip(cards, supports):
        if c["card"] is not None and any(
                r["card"] == c["card"] and not any(r is o for o in support)
                and _same_size(r["scale"], support[0]["scale"])
                and _another_place(r, c, support, work) and not _outweighed(r, support, threshold) for r in sure):
            c["card"] = None
        elif (RANK_DOUBTED_CLAIM and c["card"] is not None and all(_rank_doubted(r, threshold) for r in support)
              # a card whose every reading's rank the MLPs doubt, read sure by both readers elsewhere:
              # the other place keeps the card (the real one's reading may lie inside its outline)
              and any(r["card"] == c["card"] and not any(r is o for o in support) and _sure_by_both(r, threshold)
                      for r in sure)):
            c["card"] = None
    cards = _one_report_per_card(cards)
    if ROW_SEARCH and cnn:
        _search_rows(work, cards, readings, model, cnn, threshold, geometry, longest)
    if PIP_NAMES:
        _check_pips(work, cards, readings, threshold, geometry)
    if FACE_ON_READINGS:
        _faces_of_readings(work, cards, threshold)
    if regions:
        # the size of a card comes from the cards named (an abstained reading may be a pip pair); it is
        # not measured when no card was read at both corners, nor when no such card was fitted to its
        # edges and the measure is under SIZE_TRUSTED: packs whose index sits far in from the corner
        # (ornamental, tango) measure 0.41-0.57, and the outlines of such a measure cover about 0.6 of
        # their cards (dev scenes), so the larger regions are looked at too
        found = card_regions(work, [c["quad"] for c in cards],
                             [c["quad"] for c in cards if c["card"] is not None], under_readings=second_look,
                             alternatives=second_look, size_measured=size_measured)
        if second_look and found:
            cards, found = _second_look(work, cards, found, model, cnn or None, threshold)
        # an unnamed reading on a card back (its ornament taken for an index: the outline it places
        # has its centre or its index on the back) is that back
        backs = [np.asarray(r["quad"], float) for r in found if r["face"] == "down"]
        cards = [c for c in cards if c["card"] is not None
                 or not any(_inside(q, np.mean(c["quad"], axis=0), shrink=1.0)
                            or _inside(q, _index_point(c["quad"]), shrink=1.0) for q in backs)]
        cards += found
    for c in cards:
        c["quad"] = [[round(float(x) / scale, 1), round(float(y) / scale, 1)] for x, y in c["quad"]]
    return cards


def _search_rows(work, cards: list[dict], readings: list[dict], model, cnn, threshold: float, geometry,
                 longest: float) -> None:
    """Add the cards of fans and meld rows whose index the first look missed (``vision.card_rows``):
    read by the CNN on a grid of frames where the row's sure readings put another index, and named
    nowhere else in the picture.  An unnamed report on the same place gives way to the card.  The
    cards named join the sure readings, and the spots they put are searched in the next round
    (``ROW_ROUNDS``): under a glare a meld's three lowest cards, washed grey, are found one step
    after another from the two named on top of them.  Readings too unsure to name a card
    (``ROW_ANCHOR``) place spots too, after the sure ones' (a bellot fan's sure readings lay too far
    apart to put a spot on a king between them); only the sure ones keep a spot off them, and not
    every one of those (``_keeping_spots_off``).  An ace the MLPs, at the frame the CNN read it,
    read as a king is not named (``SPOT_ACE_OR_KING``, as ``ACE_OR_KING`` for a reading)."""
    sure = [r for r in readings if r["confidence"] >= threshold]
    anchors = [r for r in readings if r["confidence"] >= min(ROW_ANCHOR, threshold)]
    keep_off = _keeping_spots_off(sure, cards)
    searched = []
    for _ in range(ROW_ROUNDS):
        # the spots the sure readings put first: of two spots at one place the first is kept
        spots = row_spots(sure) + (row_spots(anchors) if len(anchors) > len(sure) else [])
        spots = free_spots(spots, keep_off, searched)
        # the sure readings' wide pairs' spots last (card_rows.ROW_WIDE_GAP)
        spots += free_spots(row_spots(sure, wide=True), keep_off, searched + spots)
        searched += spots
        found = _name_row_spots(work, cards, spots, keep_off, model, cnn, geometry, longest)
        if not found:
            return
        sure, anchors, keep_off = sure + found, anchors + found, keep_off + found


def _keeping_spots_off(sure: list[dict], cards: list[dict]) -> list[dict]:
    """The sure readings that keep the row search's spots off them (``free_spots``): all of them,
    but for those of crowded glyphs the MLPs do not confirm (``_unconfirmed_crowded``) whose card is
    named nowhere and read sure nowhere else (``ROW_RECHECK``).  Such a reading names no card by
    itself: at a fan's end a sure queen of hearts, crowded by the cloth's edge beside it, was left
    unnamed, and since it kept the spot its neighbours put on it unsearched, so was the seven under
    it, a step further on (dev fan 3 540 917).  The grid of frames round the spot is a second
    reading of its own (its frames are shifted, and the grid must agree).  A card read sure at two
    places is left out: the grid would name it at one of them, perhaps the wrong one (a four-index
    jack of diamonds, dev meld 3 550 099).  So is a reading of an ace: the grid is the CNN alone, and
    the CNN takes a paris king's serif K for an A (a king of clubs read the ace 0.969, crowded, the
    MLPs 0.48, was named the ace by the grid at 0.992: fresh fan 3 542 686, the first fresh set
    this rule met)."""
    if not ROW_RECHECK:
        return sure
    names = {c["card"] for c in cards if c["card"] is not None}
    return [r for r in sure if r["card"] in names or not _unconfirmed_crowded(r) or r["card"][0] == "A"
            or sum(o["card"] == r["card"] for o in sure) > 1]


def _name_row_spots(work, cards: list[dict], spots: list, sure: list[dict], model, cnn, geometry,
                    longest: float) -> list[dict]:
    """One round of ``_search_rows``: the cards named at ``spots``, away from the ``sure`` readings,
    added to ``cards``; returned as readings (``centre``, ``down``, ``scale``, ``card``) for the
    next round."""
    if not spots:
        return []
    grids = [spot_frames(s) for s in spots]
    n = len(grids[0][2])
    centre, down, scale = (np.concatenate(g) for g in zip(*grids))
    label, conf = [""] * len(scale), np.zeros(len(scale))
    look = [i * n + k for i in range(len(spots)) for k in LOOK]
    _cnn_read(work, centre, down, scale, look, cnn, label, conf)
    keen = [i for i in range(len(spots)) if conf[[i * n + k for k in LOOK]].max() >= SPOT_LOOK]
    _cnn_read(work, centre, down, scale, [i * n + k for i in keen for k in range(n) if k not in LOOK],
              cnn, label, conf)
    names = {c["card"] for c in cards if c["card"] is not None}
    found = []
    for i in keen:
        got = spot_reading(label[i * n:(i + 1) * n], conf[i * n:(i + 1) * n])
        if got is None:
            continue
        k = i * n + got[0]
        if label[k] in names or not free(centre[k], scale[k], sure):
            continue
        if (SPOT_ACE_OR_KING and label[k][0] == "A"
                and _spot_ace_or_king(work, model, centre[k], down[k], scale[k], label[k])):
            continue
        quad = _framed_quad(centre[k], down[k], scale[k], geometry, longest)
        new = {"card": label[k], "face": "up", "confidence": round(float(conf[k]), 4), "quad": quad}
        at = [c for c in cards if c["card"] is None and c["face"] == "up"
              and _inside(quad, np.mean(c["quad"], axis=0), shrink=1.0)
              and _inside(np.asarray(c["quad"], float), np.mean(quad, axis=0), shrink=1.0)]
        if at:
            at[0].update(new)
        else:
            cards.append(new)
        names.add(label[k])
        found.append({"card": label[k], "centre": centre[k], "down": down[k], "scale": float(scale[k]),
                      "confidence": float(conf[k])})
    return found


def _spot_ace_or_king(work, model, centre, down, scale, card: str) -> bool:
    """Whether the MLPs, reading the frame where the row search's CNN read an ace, read a king and give
    the ace's card under ``BOTH_MLP`` (``_ace_or_king`` for a row spot's name)."""
    feats, _ = batch_features(_patches(work, np.array([centre]), np.array([down]), np.array([scale])))
    if len(feats) == 0:
        return False
    pr, ps = model.predict(feats)
    return _ace_or_king({"card": card, "mlp_rank": RANK_CLASSES[int(np.argmax(pr[0, :-1]))],
                         "mlp_p": float(pr[0, RANK_CLASSES.index(card[0])] * ps[0, SUIT_CLASSES.index(card[1])])})


def _faces_of_readings(work, cards: list[dict], threshold: float) -> None:
    """Name from its court picture (``vision.card_faces``) each face-up card left unnamed by its
    readings, on the outline they placed (``FACE_ON_READINGS``): the top court of a pile or a trick,
    whose index was read but not surely, and which has no region of its own (the cards under it join
    it).  A card named elsewhere in the picture is not named again."""
    names = {c["card"] for c in cards if c["card"] is not None}
    for c in cards:
        if c["card"] is None and c["face"] == "up":
            card, conf, quad = name_from_face(work, c["quad"], threshold)
            if card is not None and card not in names:
                c.update(card=card, confidence=round(conf, 4), quad=quad)
                names.add(card)


def _cnn_read(work, centre, down, scale, which: list[int], cnn, label: list[str], conf: np.ndarray) -> None:
    """The CNN's card and confidence (as ``read_indices`` makes it) of the frames numbered ``which``,
    written into ``label`` and ``conf`` (a patch that is not ink on paper keeps confidence 0)."""
    if not which:
        return
    which = np.asarray(which)
    x, kept = cnn_input(_patches(work, centre[which], down[which], scale[which]))
    if not len(kept):
        return
    pr, ps = cnn.predict(x, gate=CNN_MEMBER_GATE)
    p_index = 1.0 - pr[:, -1]
    rk, sk = np.argmax(pr[:, :-1], axis=1), np.argmax(ps, axis=1)
    m = np.arange(len(kept))
    conf[which[kept]] = _confidence(pr[m, rk], ps[m, sk], p_index)
    for k, r, s in zip(which[kept], rk, sk):
        label[k] = RANK_CLASSES[r] + SUIT_CLASSES[s]


def _name_from_pips(work, quad, on_card: list[dict], names: set, threshold: float, geometry=None):
    """``(card, confidence, outline)`` for a number card whose pips (``vision.card_pips``) count a rank
    that a reading on it (``on_card``) names too, at ``PIP_AGREE`` or more, with a suit of the pips'
    colour; else ``(None, 0.0, None)``.  The pips are counted inside ``quad``; with the picture's
    ``geometry``, where that fails, they are looked for round each such reading (``outline_from_pips``:
    an outline placed from an index of a pack whose index sits elsewhere lies off its card).  The
    pips tell the rank and the colour, the reading the suit's sign: a reading of that rank naming the
    other suit of the colour at ``PIP_AGREE`` too leaves it unnamed, as does a sure reading of another
    rank on it.  A pack has each card once (``names``)."""
    nothing = (None, 0.0, None)
    numbers = sorted((r for r in on_card if r["card"][0] in PIP_RANKS and r["confidence"] >= PIP_AGREE),
                     key=lambda r: -r["confidence"])
    if not numbers:
        return nothing
    pips, _ = count_pips(work, quad)
    if pips is not None:
        rank, red, outline = pips.rank, pips.red, np.asarray(quad, float)
    elif geometry is not None:
        cu, cv, w, h = geometry
        for r in numbers:
            right = right_of(r["down"])
            corner = r["centre"] + (right * cu + np.asarray(r["down"]) * cv) * r["scale"]
            outline, red = outline_from_pips(work, corner, right, r["down"], w * r["scale"], h * r["scale"],
                                             PIP_RANKS.index(r["card"][0]) + 2)
            if outline is not None:
                rank = r["card"][0]
                break
        else:
            return nothing
    else:
        return nothing
    if any(r["confidence"] >= threshold and r["card"][0] != rank for r in on_card):
        return nothing
    agree = [r for r in numbers if r["card"][0] == rank and (r["card"][1] in "HD") == red]
    if not agree or len({r["card"] for r in agree}) > 1 or agree[0]["card"] in names:
        return nothing
    conf = 1.0 - (1.0 - agree[0]["confidence"]) * (1.0 - PIP_SURE)
    return (agree[0]["card"], conf, outline) if conf >= threshold else nothing


def _check_pips(work, cards: list[dict], readings: list[dict], threshold: float, geometry) -> None:
    """Name the unnamed face-up cards the readings report from their pips (``_name_from_pips``).
    (Not the card regions' (step 5): on 350 dev scenes, piles, mixed and singles, the pips named no
    region its corners left unnamed; such regions are mostly courts and backs.)  (Not the other way: a
    card named from its index is not unnamed when the pips inside the outline it places count another
    rank.  That outline mostly lies off the card, on the card above it, whose pips it then counts: on
    dev scenes such a veto took the names of two cards, a fan's 10 and a pile's queen, and of no
    misread card.)"""
    names = {c["card"] for c in cards if c["card"] is not None}
    named = [(np.asarray(c["quad"], float), c["card"]) for c in cards if c["card"] is not None]
    for c in cards:
        if c["face"] != "up":
            continue
        if c["card"] is None:
            on_card = [r for r in readings if _inside(c["quad"], r["centre"], shrink=1.0)]
            card, conf, outline = _name_from_pips(work, c["quad"], on_card, names, threshold, geometry)
            if card is not None and any(name[0] == card[0] and (name[1] in "HD") == (card[1] in "HD")
                                        and _overlap(q, outline) >= PIP_SAME_CARD for q, name in named):
                card = None      # the pips of a card named already (its other corner read another suit)
            if card is not None:
                c.update(card=card, confidence=round(conf, 4), quad=outline)
                names.add(card)
                named.append((outline, card))


def _second_look(work, cards: list[dict], found: list[dict], model, cnn, threshold: float):
    """Card regions named by a second look at their index corners (``vision.card_corners``).
    A region named there takes the place of the unnamed readings on it; a region lying under an
    unnamed reading (``under_reading``) and still not named is left to that reading, unless it is
    called face down and no unnamed reading's outline matches it (``UNDER_READING_DOWN``: a back's
    stripes or ornament read as an index place a card half off the back, or turned against it,
    ``_weak_and_turned``; a face-up court card's own index, read but not named, places it on the
    card).  A region its corners leave unnamed may be named from its court picture
    (``FACE_NAMES``, ``vision.card_faces``).  A region left unnamed whose alternative outline
    (``card_regions``: the same card found nearer the card size in another mask) is named takes
    that name and outline.  The unnamed readings on backs are dropped by the caller."""
    alternatives = [i for i, r in enumerate(found) if "alternative" in r]
    boxes = [r["quad"] for r in found] + [found[i].pop("alternative")["quad"] for i in alternatives]
    reads = corner_readings(work, boxes, model, cnn)
    names = {c["card"] for c in cards if c["card"] is not None}
    doubted = _ace_or_king if ACE_OR_KING and SECOND_LOOK_ACE_OR_KING else None
    idle = (lambda r, surest: _idle_guess(r, surest, threshold)) if SECOND_LOOK_IDLE else None
    named = [name_from_corners(rs, threshold, names, DISAGREE_IGNORED, CROWDED_CONFIRM, TWO_SURE_CORNERS,
                               doubted, idle) for rs in reads]
    if DOWN_CNN_ALONE:
        # a region the face test called a back, named only by readings sure by the CNN alone, not very
        # sure (``_cnn_alone``): a back's pattern read as an index (a lattice's diamonds as a 7 and a club)
        faces_of = [r["face"] for r in found] + [found[i]["face"] for i in alternatives]
        named = [(None, conf, corner) if card is not None and face == "down"
                 and all(_cnn_alone(r) for r in rs if r["card"] == card) else (card, conf, corner)
                 for (card, conf, corner), rs, face in zip(named, reads, faces_of)]
    quads = [np.roll(np.asarray(box), -2 * corner, axis=0) if card is not None else None
             for box, (card, _, corner) in zip(boxes, named)]
    if FACE_NAMES:
        # a court card whose corners name nothing (a pack printing no rank there, a faint index):
        # its picture, matched against the packs the table knows (vision.card_faces)
        for i, box in enumerate(boxes):
            if named[i][0] is None:
                card, conf, quad = name_from_face(work, box, threshold)
                if card is not None and card not in names:
                    named[i], quads[i] = (card, conf, 0), quad
    for k, i in enumerate(alternatives):
        if named[i][0] is None:                      # only the alternative outline is named
            named[i], quads[i] = named[len(found) + k], quads[len(found) + k]
    named, quads = named[:len(found)], quads[:len(found)]
    twice = {card for card, _, _ in named if card is not None and sum(n[0] == card for n in named) > 1}
    for region, (card, conf, _), quad in zip(found, named, quads):
        if card is not None and card not in twice:       # a pack has each card once
            region.update(card=card, face="up", confidence=conf, quad=quad)
    faces = []
    if INDEX_FACE_UP:
        # an index read sure at a region's corner, though not named (its two corners disagree), is
        # a face: a court whose picture fills the card fails the paper test of the face.  The region
        # takes the place of the unnamed readings on it, as a named one does
        for region, rs in zip(found, reads):
            if region["card"] is None and region["face"] == "down" and any(
                    r["confidence"] >= INDEX_FACE_UP for r in rs):
                region["face"] = "up"
                faces.append(region)
    regions = [np.asarray(r["quad"], float) for r in found if r["card"] is not None or any(r is f for f in faces)]
    cards = [c for c in cards if c["card"] is not None or not any(
        _inside(q, np.mean(c["quad"], axis=0), shrink=1.0) or _inside(c["quad"], np.mean(q, axis=0), shrink=1.0)
        for q in regions)]
    unnamed = [c for c in cards if c["card"] is None]
    # what the second look read at each region's corners (its alternative outline's too)
    read_at = [list(rs) for rs in reads[:len(found)]]
    for k, i in enumerate(alternatives):
        read_at[i] += reads[len(found) + k]
    backs = [r for r, rs in zip(found, read_at) if r["card"] is None and r.get("under_reading") and UNDER_READING_DOWN
             and r["face"] == "down" and _a_back_under_readings(r["quad"], unnamed, rs)]
    found = [r for r in found if r["card"] is not None or not r.get("under_reading")
             or any(r is b for b in backs + faces)]
    for r in found:
        r.pop("under_reading", None)
    return cards, found


def _a_back_under_readings(quad, unnamed: list[dict], corner_reads: list[dict]) -> bool:
    """Whether a region called face down under unnamed readings is a back (``UNDER_READING_DOWN``): no
    unnamed reading's outline matches it (``UNDER_READING_IOU``; not one weak and turned against it,
    ``_weak_and_turned``), or those that do match it only loosely (overlap over union under
    ``UNDER_READING_EMPTY``), none of them at least ``INDEX_FACE_UP`` confident, and the second look
    reads nothing at all at its corners (``corner_reads``, none at ``MIN_REPORTED``): a back's
    pattern read as an index places an outline near the back, where a face-up card's own index,
    fitted to its edges, places it on the card, and would be read again at its corner."""
    matching = [(c, overlap) for c in unnamed if not _weak_and_turned(c, quad)
                and (overlap := _overlap(quad, c["quad"])) >= UNDER_READING_IOU]
    if not matching:
        return True
    return bool(UNDER_READING_EMPTY and not any(x["confidence"] >= MIN_REPORTED for x in corner_reads)
                and all(overlap < UNDER_READING_EMPTY and c["confidence"] < INDEX_FACE_UP for c, overlap in matching))


def _weak_and_turned(reading: dict, quad) -> bool:
    """Whether an unnamed reading is unsure (``UNDER_READING_WEAK``) and its outline turned against
    the region ``quad`` by ``UNDER_READING_TURN`` degrees or more: a back's ornament read as an index
    places its card at any turn; a face-up card's own index, read but not named, along its sides."""
    if not UNDER_READING_TURN or reading["confidence"] >= UNDER_READING_WEAK:
        return False
    def turn(q):
        q = np.asarray(q, float)
        return np.degrees(np.arctan2(q[3, 1] - q[0, 1], q[3, 0] - q[0, 0])) % 90.0
    d = abs(turn(reading["quad"]) - turn(quad))
    return min(d, 90.0 - d) >= UNDER_READING_TURN


def _overlap(a, b) -> float:
    """Overlap over union of two convex quads."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter / (cv2.contourArea(a) + cv2.contourArea(b) - inter)) if inter > 0 else 0.0


def _index_point(quad) -> np.ndarray:
    """Where the index lies in a card outline placed from a reading: near its first corner."""
    quad = np.asarray(quad, float)
    return quad[0] + 0.15 * (quad.mean(axis=0) - quad[0])


def _max_ratio(reading: dict) -> float:
    """How much larger than the picture's typical index a reading may be and still be an index."""
    return COURT_SCALE_RATIO if reading["card"][0] in "JQK" else MAX_SCALE_RATIO


def _on_top_ratio(reading: dict) -> float:
    """How much larger than a named card's index a sure reading inside it may be and still be a card
    lying on it (a court card's index may be set wider, as in ``_max_ratio``)."""
    return ON_TOP_RATIO * _max_ratio(reading) / MAX_SCALE_RATIO


def _odd_sized(reading: dict, scale: float, typical: float) -> bool:
    """Whether a sure reading inside a named card, whose index measured ``scale``, is too large or
    too small to be a card lying on it (``ON_TOP_RATIO``, ``ON_TOP_SMALLER``): glyphs of its face.
    A named card read at under ``ON_TOP_TYPICAL`` of the picture's typical index size may have been
    named from a patch placed smaller than its index (a bellot two of hearts read 1.0 at 8.7 px,
    its fan's indices 13-16 px, and the four of diamonds beside it, read 0.981 at 15 px, was taken
    for glyphs of the two's face; dev fan 3 540 871): then a reading of the typical size is not odd
    either.  (Measured against the typical size alone, a meld's six of diamonds, 10.2 px, lying on
    a two read at 10.5 px was dropped: the queen's index in that pack is set twice as wide, and the
    typical size was hers, 19 px; dev meld 3 550 266.)"""
    def fits(size: float) -> bool:
        return ON_TOP_SMALLER < reading["scale"] / size < _on_top_ratio(reading)
    return not (fits(scale) or (ON_TOP_TYPICAL and typical and scale < ON_TOP_TYPICAL * typical and fits(typical)))


def _hides(reading: dict, seen: list[np.ndarray], readings: list[dict]) -> bool:
    """Whether the card ``reading`` places (its outline shrunk by ``ON_TOP_HIDES``) would cover every
    point ``seen`` where the named card it lies in was read.  A card lying on top cannot hide all of
    what was seen of the card under it, so such a reading is two glyphs of the named card's face
    (pips of an ornamental 6 read as a 5, dev 3 153 627), or a lower card's index misread beside it,
    not a card on top.  (One index of two covered is not enough: a top card's outline can come out
    larger than the card, over the lower card's index beside its edge, dev 3 146 754.)  In a row
    of indices (``_in_a_row``, ``HIDES_ROW``) it is left to the other rules: there the card read
    may lie under the named one, its index just beside that card's edge, its outline under the named
    card's index (dev fans 3 152 408, 3 152 782)."""
    return (bool(ON_TOP_HIDES) and all(_inside(reading["quad"], p, shrink=ON_TOP_HIDES) for p in seen)
            and not (HIDES_ROW and _in_a_row(reading, readings)))


def _unconfirmed_crowded(reading: dict) -> bool:
    """Whether a reading rests on crowded glyphs (cut or misjoined) that neither the MLPs read the
    same way nor the CNN keeps in moved patches (``_read_moved``), or on a cut suit glyph whose
    suit the MLPs do not confirm (``_unconfirmed_cut_suit``): such a reading never names a card by
    itself."""
    crowded = reading["crowded"] and reading["mlp_p"] < CROWDED_CONFIRM and not reading["steady"]
    return crowded or _unconfirmed_cut_suit(reading)


def _unconfirmed_cut_suit(reading: dict) -> bool:
    """Whether a reading's suit glyph was parted from a straight line (``_blobs_in``), or is joined
    to an edge in a window of its own (``_suit_on_an_edge``), and the MLPs give its suit under
    ``CUT_SUIT_MLP``.  In a pile the edge of the card on top often runs across
    the suit glyph of the index below: what shows of a spade is a club's lobes and stem, what shows
    of a heart a diamond's point, and the CNN names the part, sure.  On 300 dev pile scenes 5 of the
    62 sure readings with a suit glyph parted from a line named the wrong suit (and 1 of 797 of the
    others)."""
    return bool(CUT_SUIT_MLP and reading.get("cut_suit") and reading["mlp_suit_p"] < CUT_SUIT_MLP)


def _same_size(a: float, b: float) -> bool:
    """Whether two rank-suit distances are of one size: the larger at most ``SAME_SIZE`` times the smaller."""
    return max(a, b) <= SAME_SIZE * min(a, b)


def _cnn_alone(reading: dict) -> bool:
    """Whether a reading is sure by the CNN alone, not very sure: the MLPs give its card under
    ``LONE_MLP`` and the CNN under ``LONE_SURE``.  Such a reading does not name a card by itself,
    unless it lies in a row of indices (``_in_a_row``)."""
    return reading["mlp_p"] < LONE_MLP and reading["confidence"] < LONE_SURE


def _alone_out_of_a_row(reading: dict, readings: list[dict]) -> bool:
    """Whether a reading cannot name its card by itself: sure by the CNN alone (``_cnn_alone``) with
    no row of indices beside it (``_in_a_row``)."""
    return _cnn_alone(reading) and not _in_a_row(reading, readings)


def _doubted_alone(reading: dict, readings: list[dict], threshold: float) -> bool:
    """Whether a reading cannot name its card by itself for the MLPs' doubt of its rank
    (``RANK_DOUBTED_ALONE``): their own likeliest rank another, the card under ``BOTH_MLP``
    (``_rank_doubted``), the CNN under ``LONE_SURE``, and no row of indices beside it."""
    return (RANK_DOUBTED_ALONE and reading["confidence"] < LONE_SURE and _rank_doubted(reading, threshold)
            and not _in_a_row(reading, readings))


def _lone_guess(reading: dict, readings: list[dict]) -> bool:
    """Whether a reading that cannot name its card by itself (``_alone_out_of_a_row``) is kept from
    vetoing the card's other corner, read sure by both readers (``LONE_NO_VETO``).  A trick's six of
    spades, read so at one corner, was read an ace at the other, 0.963 by the CNN and 0.009 by the
    MLPs (dev 3 560 073)."""
    return LONE_NO_VETO and _alone_out_of_a_row(reading, readings)


def _weak_pair_doubted(index: list[dict]) -> bool:
    """Whether two corners each under the threshold, sure together, are doubted: the MLPs' own
    likeliest rank at one of them is another rank (``TWO_WEAK_MLP``).  A blurred 6 of clubs was read
    an 8 at both corners, 0.82 and 0.68, the MLPs reading the 8 at the first and the 6 at the second."""
    return TWO_WEAK_MLP and any(r["mlp_rank"] != r["card"][0] for r in index)


def _ace_or_king(reading: dict) -> bool:
    """Whether the CNN reads an ace where the MLPs' own likeliest rank is a king, the MLPs giving the
    ace's card under ``BOTH_MLP``: a king whose serif K the CNN takes for an A."""
    return reading["card"][0] == "A" and reading["mlp_rank"] == "K" and reading["mlp_p"] < BOTH_MLP


def _in_a_row(reading: dict, readings: list[dict]) -> bool:
    """Whether another reading (at least ``SCALE_VOTE`` confident) lies beside ``reading`` as the
    indices of a fan or a meld row do: within ``ROW_SPAN`` rank-suit distances, turned little
    (``ROW_PARALLEL``), the same size.  There the held-out packs' indices, which the MLPs read
    less well, are often read by the CNN alone, and rightly: without this exception the rule of
    ``_cnn_alone`` took back 8 right index-only cards of fans and melds on 3 200 dev scenes."""
    for o in readings:
        if o is reading or o["confidence"] < SCALE_VOTE:
            continue
        if float(np.dot(o["down"], reading["down"])) < ROW_PARALLEL:
            continue
        if not _same_size(o["scale"], reading["scale"]):
            continue
        if np.hypot(*(o["centre"] - reading["centre"])) < ROW_SPAN * reading["scale"]:
            return True
    return False


def _could_name(reading: dict, threshold: float) -> bool:
    """Whether a reading could name its card on its own: sure, and not ``_unconfirmed_crowded``."""
    return reading["confidence"] >= threshold and not _unconfirmed_crowded(reading)


def _crowded_guess(reading: dict, threshold: float) -> bool:
    """Whether a reading is a guess from crowded glyphs: ``_unconfirmed_crowded`` and below the threshold."""
    return _unconfirmed_crowded(reading) and reading["confidence"] < threshold


def _suit_in_doubt(reading: dict, surest: dict) -> bool:
    """Whether a reading of the same rank as the sure one, another suit, rests on a cut suit glyph
    (``CUT_SAME_RANK``): both corners lie at the edge of the card on top, and the sure corner's suit may
    be cut as well (a spade cut by a card's edge was read a club at one corner, 0.999, a spade at
    the other, 0.78).  Such a reading still vetoes the sure one."""
    return (CUT_SAME_RANK and reading.get("cut_suit", False) and reading["card"][0] == surest["card"][0]
            and reading["card"] != surest["card"])


def _idle_partner(reading: dict, threshold: float) -> bool:
    """Whether a reading agreeing with a crowded one is a guess neither reader stands by (``IDLE_PARTNER``):
    under the threshold by the CNN, the MLPs giving its card under ``VETO_MLP``.  Such a corner does
    not lift an unconfirmed crowded reading (``_unconfirmed_crowded``) to a name: in a pile a lower
    card's two of spades, its suit glyph cut by the top card's edge, was read a two of clubs, 0.9999
    (the MLPs' suit 0.28), and its other corner, half hidden, a two of clubs at 0.42 (the MLPs 0.10);
    the two together made 0.99994 and named a card not on the table (dev pile 3 531 195)."""
    return IDLE_PARTNER and _unbacked(reading, threshold)


def _unbacked(reading: dict, threshold: float) -> bool:
    """Whether neither reader stands by a reading: the CNN under the threshold, the MLPs giving its
    card under ``VETO_MLP``."""
    return reading["confidence"] < threshold and reading["mlp_p"] < VETO_MLP


def _idle_guess(reading: dict, surest: dict, threshold: float) -> bool:
    """Whether a reading disagreeing with a sure one is a guess neither reader stands by: under the
    threshold by the CNN, the MLPs giving its card under ``VETO_MLP`` and the sure reading's at least
    that (the MLPs side with the sure corner: when they give both next to nothing, the CNN alone is
    sure, and its sure reading may be the misread one)."""
    return _unbacked(reading, threshold) and surest["mlp_p"] >= VETO_MLP


def _agreeing(g: list[dict]) -> int:
    """How many readings of a group name the card its surest reading names."""
    surest = max(g, key=lambda r: r["confidence"])
    return sum(r["card"] == surest["card"] for r in g)


def _sure_by_both(reading: dict, threshold: float) -> bool:
    """Whether the CNN's reading is sure and the MLPs, from their own features, agree."""
    return reading["confidence"] >= threshold and reading["mlp_p"] >= BOTH_MLP


def _outweighed(reading: dict, support: list[dict], threshold: float) -> bool:
    """Whether a sure reading claiming a card elsewhere is outweighed by the card's own readings:
    its two corners both sure by both readers, the rival sure by the CNN alone (``BOTH_CORNERS_WIN``);
    or one corner sure by both, the rival's rank doubted by the MLPs (``RANK_DOUBTED_CLAIM``)."""
    return ((BOTH_CORNERS_WIN and len(support) == 2 and all(_sure_by_both(r, threshold) for r in support)
             and not _sure_by_both(reading, threshold))
            or (RANK_DOUBTED_CLAIM and any(_sure_by_both(r, threshold) for r in support)
                and _rank_doubted(reading, threshold)))


def _rank_doubted(reading: dict, threshold: float) -> bool:
    """Whether the MLPs' own likeliest rank at a reading is another rank than the CNN's, and they do
    not stand by its card (under ``BOTH_MLP``)."""
    return reading.get("mlp_rank", reading["card"][0]) != reading["card"][0] and not _sure_by_both(reading, threshold)


def _inside(quad: np.ndarray, point, shrink: float = 0.9) -> bool:
    c = quad.mean(axis=0)
    q = (c + (quad - c) * shrink).astype(np.float32)
    return cv2.pointPolygonTest(q, (float(point[0]), float(point[1])), False) >= 0


def _another_place(reading: dict, card: dict, support: list[dict], work=None) -> bool:
    """Whether a sure ``reading`` of a named ``card`` (read by ``support``) puts it somewhere else:
    outside the card's outline, or, when one reading placed the card, turned against that reading
    while on the same long side of the card rather than at its opposite corner.  Then the two are
    two indices along one long side of a deck printing four, and which side the card lies on is not
    known from them: the one that placed it may be the third index, taken for the card's far corner.
    With ``work`` (``FOUR_INDEX_SIDE``) the card's edge beside them tells: see ``_edge_beside``."""
    if not _inside(card["quad"], reading["centre"], shrink=ONE_COPY_MARGIN):
        return True
    if len(support) > 1:
        return False
    one = support[0]
    width = np.linalg.norm(card["quad"][1] - card["quad"][0])
    if not (float(np.dot(reading["down"], one["down"])) < -0.85
            and abs(float(np.dot(reading["centre"] - one["centre"], right_of(one["down"])))) < SAME_SIDE * width):
        return False
    return not (FOUR_INDEX_SIDE and work is not None and _edge_beside(work, one, card["quad"]) > 0)


def _edge_beside(work, reading: dict, quad) -> int:
    """Which side of an index ``reading`` the edge of the card it placed (``quad``) lies on: 1 where
    the outline puts it (its "left": the card lies on its "right"), -1 on the other side, 0 when the
    picture does not tell.  Across the index column, as far from the reading's centre as the outline's
    nearest side, a card's edge shows as a dip from the paper's brightness (its border line, the cloth
    or the card under it); on the card's side, beside a corner index, lies blank paper.  Only a dip
    of ``EDGE_DIP`` of the paper's brightness on one side, with none over ``EDGE_FLAT`` on the other,
    tells (a fan's next card may lie that close on the card's side: then both dip)."""
    quad = np.asarray(quad, float)
    c = np.asarray(reading["centre"], float)
    d = np.asarray(reading["down"], float) / np.hypot(*reading["down"])
    s, r = float(reading["scale"]), right_of(d)
    m = min(_point_line(c, quad[k], quad[(k + 1) % 4]) for k in range(4))
    along = np.linspace(-EDGE_ALONG, EDGE_ALONG, 13) * s
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY) if work.ndim == 3 else work
    side = {}
    for sign in (-1, 1):
        t = sign * (m + np.linspace(-EDGE_REACH, EDGE_REACH, 7) * s)
        pts = (c + t[:, None, None] * r + along[None, :, None] * d).astype(np.float32)
        v = cv2.remap(grey, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        side[sign] = np.median(v.astype(float), axis=1)
    paper = max(side[-1].max(), side[1].max())
    dip = {k: (paper - v.min()) / max(paper, 1.0) for k, v in side.items()}
    if dip[-1] >= EDGE_DIP and dip[1] < EDGE_FLAT:
        return 1
    if dip[1] >= EDGE_DIP and dip[-1] < EDGE_FLAT:
        return -1
    return 0


def _point_line(p, a, b) -> float:
    """The distance from point ``p`` to the line through ``a`` and ``b``."""
    ab = b - a
    return float(abs(ab[0] * (p[1] - a[1]) - ab[1] * (p[0] - a[0])) / max(np.hypot(*ab), 1e-9))


def _orient(quad: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``quad`` with its corners cycled to match ``ref`` (a card read from its other corner is turned 180°)."""
    best = min(range(4), key=lambda k: float(np.sum((np.roll(quad, -k, axis=0) - ref) ** 2)))
    return np.roll(quad, -best, axis=0)
