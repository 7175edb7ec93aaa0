"""scripts/dice_replay.py: the cached views replay the dice reader exactly as a whole board read gives it."""

import importlib.util
from pathlib import Path

from vision import backgammon

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "dice_replay.py"


def _load():
    spec = importlib.util.spec_from_file_location("dice_replay", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cached_views_score_as_the_whole_reader_reads(tmp_path):
    replay = _load()
    seeds = (890605, 890513, 885415)          # a pair read right, a pair missed (None), a die off the board
    replay.cache([f"natural:{s}:{s + 1}" for s in seeds], str(tmp_path), workers=1)
    rows = replay.score([f"natural:{s}:{s + 1}" for s in seeds], str(tmp_path))
    for seed, row in zip(seeds, rows):
        img, truth = replay.scene("natural", seed)
        got = backgammon.read(img)["dice"]
        right = isinstance(truth["dice"], list) and isinstance(got, list) and sorted(got) == sorted(truth["dice"])
        assert row["flat"] == int(isinstance(truth["dice"], list)), seed
        assert row["right"] == int(right), (seed, got)
        assert row["reroll"] == int(not isinstance(truth["dice"], list) and got == "reroll"), (seed, got)
    assert [r["right"] for r in rows] == [1, 0, 0]          # what these scenes read now (test_dice.py)
    assert rows[2]["reroll"] == 1
