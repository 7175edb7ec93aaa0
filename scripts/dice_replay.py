"""Developer tool: replay the dice reader on cached top-down views of rendered backgammon scenes.

Reading a whole board takes about 0.4 s a scene; the dice alone about 15 ms.  To try a change to
vision/dice.py on thousands of scenes, first cache the rectified grey view the dice reader is given
(and the scene's true roll), once, then score the reader on the cache as often as needed:

    python scripts/dice_replay.py cache natural:885200:886000 glare:886500:887000 --dir /tmp/dice-cache
    python scripts/dice_replay.py score natural:885200:886000 glare:886500:887000 --dir /tmp/dice-cache -v

A set is MODE:FIRST:END (seeds FIRST..END-1).  Modes (vision.render_boards.random_table_scene):
  natural  the random conditions, one die leaning in 15 % of the scenes
  glare    the same with the lighting forced to a lamp's glare
  cglare   glare, one die leaning in half the scenes
  ondie    glare with its spot on or near a die (the leaning one when there is one), half leaning
  cocked   the random conditions, one die leaning in every scene
`score` prints, per set: flat pairs read right, read as a wrong number, and scenes with a leaning or
off-board die read as a number (which must stay 0).  Never tune on the benchmark's seeds (10 000-60 099).
"""

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import backgammon, dice, render_boards as rb  # noqa: E402

MODES = {"natural": (0.15, False, False), "glare": (0.15, True, False), "cglare": (0.5, True, False),
         "ondie": (0.5, True, True), "cocked": (1.0, False, False)}     # leaning share, glare, glare on a die


def scene(mode: str, seed: int):
    """The rendered scene (image, truth) of ``mode`` and ``seed``."""
    cocked_share, glare, on_die = MODES[mode]
    rng = np.random.default_rng(seed)
    if not glare:
        return rb.random_table_scene(rng, cocked_share=cocked_share)
    conditions = rb.random_conditions(rng)
    conditions["lighting"] = "glare"
    return rb.random_table_scene(rng, conditions, cocked_share=cocked_share, glare_on_die=on_die)


def _cache_one(job) -> None:
    mode, seed, folder = job
    base = Path(folder) / f"{mode}_{seed}"
    if base.with_suffix(".json").exists():
        return
    img, truth = scene(mode, seed)
    seen = {}
    read_dice = dice.read_dice

    def capture(view, px_per_mm, board_mm):
        seen["view"], seen["board"] = view.copy(), board_mm
        return read_dice(view, px_per_mm, board_mm)

    backgammon.dice_reader.read_dice = capture
    try:
        backgammon.read(img)
    except ValueError:
        pass                                            # no board found: cached as such
    finally:
        backgammon.dice_reader.read_dice = read_dice
    if "view" in seen:
        cv2.imwrite(str(base.with_suffix(".png")), seen["view"])
    base.with_suffix(".json").write_text(json.dumps({"truth": truth["dice"], "board": seen.get("board")}))


def _sets(specs: list[str]):
    for spec in specs:
        mode, first, end = spec.split(":")
        if mode not in MODES:
            raise SystemExit(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
        yield spec, mode, range(int(first), int(end))


def cache(specs: list[str], folder: str, workers: int) -> None:
    Path(folder).mkdir(parents=True, exist_ok=True)
    jobs = [(mode, seed, folder) for _, mode, seeds in _sets(specs) for seed in seeds]
    if workers <= 1:
        done_jobs = map(_cache_one, jobs)
    else:
        pool = Pool(workers)
        done_jobs = pool.imap_unordered(_cache_one, jobs, chunksize=4)
    for done, _ in enumerate(done_jobs, start=1):
        if done % 100 == 0 or done == len(jobs):
            print(f"cached {done} of {len(jobs)}", file=sys.stderr, flush=True)
    if workers > 1:
        pool.close()
        pool.join()


def score(specs: list[str], folder: str, verbose: bool = False) -> list[dict]:
    """Per set: {"set", "flat", "right", "wrong", "leaning_as_number", "reroll", "misses"}; printed too."""
    results = []
    for spec, mode, seeds in _sets(specs):
        row = {"set": spec, "flat": 0, "right": 0, "wrong": 0, "leaning_as_number": 0, "reroll": 0, "misses": []}
        for seed in seeds:
            base = Path(folder) / f"{mode}_{seed}"
            if not base.with_suffix(".json").exists():
                raise SystemExit(f"{base}.json not cached: run `cache {spec}` first")
            meta = json.loads(base.with_suffix(".json").read_text())
            truth = meta["truth"]
            got = "no board"
            if meta["board"] is not None:
                view = cv2.imread(str(base.with_suffix(".png")), cv2.IMREAD_GRAYSCALE)
                got = dice.read_dice(view, backgammon.PX_PER_MM, meta["board"])
            if isinstance(truth, list):
                row["flat"] += 1
                if isinstance(got, list) and sorted(got) == sorted(truth):
                    row["right"] += 1
                    continue
                row["wrong"] += isinstance(got, list)
            elif isinstance(got, list):
                row["leaning_as_number"] += 1
            else:
                row["reroll"] += got == "reroll"
                continue
            row["misses"].append((seed, truth, got))
        print(f"{spec}: right {row['right']}/{row['flat']} wrong {row['wrong']} "
              f"leaning-as-number {row['leaning_as_number']} reroll {row['reroll']}")
        if verbose:
            print("  misses:", row["misses"])
        results.append(row)
    return results


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("cache", "score"))
    parser.add_argument("sets", nargs="+", help="MODE:FIRST:END")
    parser.add_argument("--dir", required=True, help="folder of the cached views")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true", help="list the scenes missed")
    args = parser.parse_args(argv)
    if args.action == "cache":
        cache(args.sets, args.dir, args.workers)
    else:
        score(args.sets, args.dir, args.verbose)


if __name__ == "__main__":
    main()
