"""Every cloth under every light, for each board reader: one rendered scene each, read exactly.

The scenes are the first ones drawn for each condition (seeds by condition, not picked): a tilted camera
(10°, turned -4°), sensor noise, blur and JPEG loss, on felt, wood, a white and a patterned cloth, under even,
warm, daylight, shadow and glare light.  What the readers do on hundreds of random scenes is measured by
`masa bench vision` (docs/benchmarks.md); these say each condition is handled at all.
"""

import itertools

import numpy as np
import pytest

from vision import backgammon, imaging, morris, render_boards as rb, tiles

CONDITIONS = list(itertools.product(imaging.TABLE_KINDS, imaging.LIGHTING_KINDS))


def _conditions(table: str, light: str) -> dict:
    return {"table": table, "lighting": light, "tilt": 10.0, "rotation": -4.0, "noise": 3.0, "blur": 0.5, "jpeg": 85}


def _position():
    """A middle-game position with checkers on the bar and borne off: 15 of each colour."""
    points = [[0, 0] for _ in range(24)]
    for point, white in ((1, 2), (6, 5), (8, 3), (13, 4)):
        points[point - 1][0] = white
    for point, black in ((12, 4), (17, 3), (19, 5), (24, 2)):
        points[point - 1][1] = black
    return points, [0, 1], [1, 0]


@pytest.mark.parametrize("table, light", CONDITIONS)
def test_backgammon_and_dice(table, light):
    points, bar, off = _position()
    k = CONDITIONS.index((table, light))
    img, truth = rb.render_table(points, bar, off, [(5, False), (3, False)], rng=k,
                                 conditions=_conditions(table, light))
    got = backgammon.read(img)
    assert (got["points"], got["bar"], got["off"]) == (points, bar, off)
    assert got["dice"] == truth["dice"] and sorted(got["dice"]) == [3, 5]
    assert got["position_id"] is not None


@pytest.mark.parametrize("table, light", CONDITIONS)
def test_tintar(table, light):
    k = CONDITIONS.index((table, light))
    img, truth = rb.random_tintar_scene(np.random.default_rng(500 + k), _conditions(table, light))
    got = morris.read(img)
    assert {p: got[p] for p in rb.TINTAR_POINTS} == {p: truth[p] for p in rb.TINTAR_POINTS}
    assert (got["in_hand"], got["captured"]) == (truth["in_hand"], truth["captured"])


@pytest.mark.parametrize("table, light", CONDITIONS)
def test_rummy_tiles(table, light):
    k = CONDITIONS.index((table, light))
    img, truth = rb.random_tiles_scene(np.random.default_rng(900 + k), _conditions(table, light))
    got = tiles.read(img)
    assert sorted(t["tile"] or "unread" for t in got) == sorted(t["tile"] for t in truth["tiles"])
