"""Train the card-index reader (vision/models/cards.npz) from rendered scenes.

    python -m vision.train_cards --jobs 2        # the first network of the shipped model
    python -m vision.train_cards --jobs 2 --scenes 640 --hidden 160 80 \
        --add-to vision/models/cards.npz         # its second network (see docs/vision.md)
    python -m vision.train_cards --scenes 60     # a quick smoke run

It renders random scenes (vision.render) with the training decks only
(``render.FRENCH_TRAIN_DECKS`` and ``render.GERMAN_DECKS``; seeds from
``TRAIN_SEED0`` up, never the benchmark seeds), collects every index
hypothesis vision.cards generates, labels each from the exact ground truth
(the rank and suit when it sits on an uncovered index corner pointing the
right way, "not an index" otherwise), trains a small two-headed MLP in numpy
and writes the weights, the feature normalisation and the index -> card
geometry to ``vision/models/cards.npz``.  A tenth of the scenes is kept for a
validation score printed at the end.  With ``--add-to MODEL`` the network
trained is added to the networks of MODEL (vision.cards averages them).
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from vision import cards as cardlib
from vision import render

TRAIN_SEED0 = 1_000_000
HIDDEN = (128, 64)


def index_boxes_px(quad: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For the TL and BR index corners of a card quad: (box polygon, down vector, corner point)."""
    tl, tr, br, bl = [np.asarray(p, float) for p in quad]
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    H = cv2.getPerspectiveTransform(src, np.array([tl, tr, br, bl], np.float32))
    x0, y0, x1, y1 = render.INDEX_BOX
    out = []
    for box, down, corner in (
            ([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], bl - tl, tl),
            ([[1 - x0, 1 - y0], [1 - x1, 1 - y0], [1 - x1, 1 - y1], [1 - x0, 1 - y1]], tr - br, br)):
        poly = cv2.perspectiveTransform(np.array([box], np.float32), H)[0]
        out.append((poly, down / np.linalg.norm(down), corner))
    return out


def label_candidates(cand: cardlib.Candidates, truth: dict):
    """Per candidate: rank index (0-12), 13 for "not an index", -1 to leave out; suit index or -1;
    and geometry samples (corner_u, corner_v, width, height) for well-aligned positives."""
    n = len(cand.scale)
    rank = np.full(n, 13, int)
    suit = np.full(n, -1, int)
    geom = []
    for tc in truth["cards"]:
        if tc["face"] != "up":
            continue
        quad = np.asarray(tc["quad"], float)
        for (poly, down, corner), seen in zip(index_boxes_px(quad), tc["index_corners_visible"]):
            for k in range(n):
                if cv2.pointPolygonTest(poly, (float(cand.centre[k, 0]), float(cand.centre[k, 1])), False) < 0:
                    continue
                cos = float(np.dot(cand.down[k], down))
                if seen >= 0.97 and cos > np.cos(np.deg2rad(30)):
                    rank[k] = cardlib.RANK_CLASSES.index(tc["card"][0])
                    suit[k] = cardlib.SUIT_CLASSES.index(tc["card"][1])
                    if cos > np.cos(np.deg2rad(12)):
                        right = cardlib.right_of(cand.down[k])
                        rel = corner - cand.centre[k]
                        s = cand.scale[k]
                        w = np.linalg.norm(quad[1] - quad[0])
                        h = np.linalg.norm(quad[3] - quad[0])
                        geom.append((rel @ right / s, rel @ cand.down[k] / s, w / s, h / s))
                elif 0.5 <= seen < 0.97 and rank[k] == 13:
                    rank[k] = -1
    return rank, suit, geom


def spread_spec(seed: int, decks) -> dict:
    """A training scene rich in index corners: 8-14 loose cards at any angle (some touching)."""
    spec = render.random_scene_spec(seed, condition="single", decks=decks)
    rng = np.random.default_rng(seed + 7)
    order = list(rng.permutation(render.deck_cards(spec["deck"])))
    W, H = spec["table_mm"]
    cols, rows = 5, 3
    cards = []
    for k in range(int(rng.integers(8, cols * rows + 1))):
        cx = (k % cols + 0.5) * W / cols + rng.normal(0, 8)
        cy = (k // cols + 0.5) * H / rows + rng.normal(0, 8)
        cards.append({"card": str(order.pop()), "x": cx, "y": cy, "angle": float(rng.uniform(-180, 180)),
                      "face": "up"})
    spec["cards"] = cards
    return spec


def jittered(img, cand: cardlib.Candidates, rank, suit, rng, copies: int = 2):
    """Extra samples of the positives, their frames moved a little (as the detector's would be)."""
    X, R, S = [], [], []
    for k in np.nonzero((rank >= 0) & (rank < 13))[0]:
        for _ in range(copies):
            a = np.deg2rad(rng.normal(0, 6))
            d = cand.down[k]
            down = np.array([d[0] * np.cos(a) - d[1] * np.sin(a), d[0] * np.sin(a) + d[1] * np.cos(a)])
            scale = cand.scale[k] * rng.uniform(0.88, 1.12)
            centre = cand.centre[k] + rng.normal(0, 0.08, 2) * cand.scale[k]
            f, keep = cardlib.batch_features(cardlib._patch(img, centre, down, scale)[None])
            if len(keep):
                X.append(f[0])
                R.append(rank[k])
                S.append(suit[k])
    return X, R, S


def collect(seeds, decks, log=None, augment=True):
    X, R, S, G = [], [], [], []
    rng = np.random.default_rng(seeds[0] if len(seeds) else 0)
    for i, seed in enumerate(seeds):
        spec = spread_spec(seed, decks) if augment and seed % 3 == 0 else render.random_scene_spec(seed, decks=decks)
        img, truth = render.render_card_scene(spec)
        cand = cardlib.index_candidates(img)
        if len(cand.scale) == 0:
            continue
        r, s, g = label_candidates(cand, truth)
        keep = r >= 0
        X.append(cand.features[keep])
        R.append(r[keep])
        S.append(s[keep])
        G += g
        if augment:
            jx, jr, js = jittered(img, cand, r, s, rng)
            if jx:
                X.append(np.vstack(jx))
                R.append(np.array(jr))
                S.append(np.array(js))
        if log and (i + 1) % 50 == 0:
            log(f"  {i + 1}/{len(seeds)} scenes, {sum(len(x) for x in R)} samples")
    return np.vstack(X), np.concatenate(R), np.concatenate(S), np.array(G)


def candidate_recall(seeds, decks) -> tuple[int, int]:
    """How many uncovered index corners get at least one correctly aligned hypothesis."""
    hit = total = 0
    for seed in seeds:
        img, truth = render.render_card_scene(render.random_scene_spec(seed, decks=decks))
        cand = cardlib.index_candidates(img)
        for tc in truth["cards"]:
            if tc["face"] != "up":
                continue
            for (poly, down, _), seen in zip(index_boxes_px(np.asarray(tc["quad"])), tc["index_corners_visible"]):
                if seen < 0.97:
                    continue
                total += 1
                for k in range(len(cand.scale)):
                    if (cv2.pointPolygonTest(poly, (float(cand.centre[k, 0]), float(cand.centre[k, 1])), False) >= 0
                            and float(np.dot(cand.down[k], down)) > np.cos(np.deg2rad(30))):
                        hit += 1
                        break
    return hit, total


# ---------------------------------------------------------------- the MLP --

def _init(rng, n_in, n_out):
    return (rng.normal(0, np.sqrt(2.0 / n_in), (n_in, n_out)).astype(np.float32), np.zeros(n_out, np.float32))


def train_mlp(X, R, S, epochs=30, seed=0, log=None, hidden=HIDDEN) -> dict:
    rng = np.random.default_rng(seed)
    mean = X.mean(axis=0)
    std = X.std(axis=0) + 1e-3
    Xn = ((X - mean) / std).astype(np.float32)
    n_in = X.shape[1]
    P = {}
    P["W1"], P["b1"] = _init(rng, n_in, hidden[0])
    P["W2"], P["b2"] = _init(rng, hidden[0], hidden[1])
    P["Wr"], P["br"] = _init(rng, hidden[1], 14)
    P["Ws"], P["bs"] = _init(rng, hidden[1], 4)
    m = {k: np.zeros_like(v) for k, v in P.items()}
    v = {k: np.zeros_like(v) for k, v in P.items()}
    # weigh positives up: they are rarer than "not an index"
    n_pos = max(1, int((R < 13).sum()))
    w_pos = min(10.0, max(1.0, 0.5 * (R == 13).sum() / n_pos))
    lr, b1, b2, eps, t = 2e-3, 0.9, 0.999, 1e-8, 0
    batch = 256
    for ep in range(epochs):
        order = rng.permutation(len(Xn))
        lr_ep = lr * (0.5 ** (ep // 10))
        total = 0.0
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            x = Xn[idx]
            if ep < epochs - 3:
                x = x + rng.normal(0, 0.3, x.shape).astype(np.float32)
            r, s = R[idx], S[idx]
            h1p = x @ P["W1"] + P["b1"]
            h1 = np.maximum(0, h1p)
            h2p = h1 @ P["W2"] + P["b2"]
            h2 = np.maximum(0, h2p)
            zr = h2 @ P["Wr"] + P["br"]
            zs = h2 @ P["Ws"] + P["bs"]
            pr = cardlib._softmax(zr)
            ps = cardlib._softmax(zs)
            wr = np.where(r < 13, w_pos, 1.0).astype(np.float32)
            pos = (s >= 0).astype(np.float32) * w_pos
            nb = len(idx)
            total += float(-(wr * np.log(pr[np.arange(nb), r] + 1e-9)).sum())
            gr = pr.copy()
            gr[np.arange(nb), r] -= 1
            gr *= wr[:, None] / nb
            gs = ps.copy()
            gs[np.arange(nb), np.maximum(s, 0)] -= 1
            gs *= pos[:, None] / nb
            g = {"Wr": h2.T @ gr, "br": gr.sum(0), "Ws": h2.T @ gs, "bs": gs.sum(0)}
            dh2 = (gr @ P["Wr"].T + gs @ P["Ws"].T) * (h2p > 0)
            g["W2"], g["b2"] = h1.T @ dh2, dh2.sum(0)
            dh1 = (dh2 @ P["W2"].T) * (h1p > 0)
            g["W1"], g["b1"] = x.T @ dh1, dh1.sum(0)
            t += 1
            for k in P:
                gk = g[k] + (5e-4 * P[k] if k.startswith("W") else 0)
                m[k] = b1 * m[k] + (1 - b1) * gk
                v[k] = b2 * v[k] + (1 - b2) * gk * gk
                mh = m[k] / (1 - b1 ** t)
                vh = v[k] / (1 - b2 ** t)
                P[k] -= (lr_ep * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if log:
            log(f"  epoch {ep + 1}/{epochs}: loss {total / len(order):.4f}")
    P["mean"], P["std"] = mean.astype(np.float32), std.astype(np.float32)
    return P


def add_member(base: dict, new: dict) -> dict:
    """The arrays of model file ``base`` with the network of ``new`` added as its next member
    (``m1_``, ``m2_`` ... names); the geometry and training record of ``base`` are kept, the new
    network's training record is kept under its prefix."""
    out = dict(base)
    k = 1
    while f"m{k}_W1" in out:
        k += 1
    for name in cardlib.CardModel.LAYERS + ("train_decks", "train_seeds"):
        if name in new:
            out[f"m{k}_{name}"] = new[name]
    return out


def evaluate(model, X, R, S) -> str:
    """How a reader (anything with ``predict(X) -> (rank probabilities, suit probabilities)``: the
    MLPs' CardModel, the CNN) does on labelled samples, before any threshold."""
    pr, ps = model.predict(X)
    pred_r = pr.argmax(axis=1)
    pos = R < 13
    det = pred_r < 13
    both = pos & det
    right = both & (pred_r == R) & (ps.argmax(axis=1) == np.maximum(S, 0))
    return (f"positives {pos.sum()}, found {both.sum()} ({both.sum() / max(1, pos.sum()):.3%}), "
            f"right card {right.sum() / max(1, both.sum()):.3%} of found; "
            f"false index on negatives {(det & ~pos).sum() / max(1, (~pos).sum()):.3%}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=800)
    ap.add_argument("--epochs", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=1, help="processes rendering scenes")
    ap.add_argument("--out", default=str(cardlib.MODEL_PATH))
    ap.add_argument("--recall-only", action="store_true", help="only measure candidate recall")
    ap.add_argument("--hidden", type=int, nargs=2, default=list(HIDDEN), metavar=("H1", "H2"),
                    help="units of the two hidden layers (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the starting weights")
    ap.add_argument("--first-scene", type=int, default=TRAIN_SEED0,
                    help="seed of the first scene rendered (default %(default)s; keep clear of the "
                         "tuning seeds from 3 000 000 and the benchmark's from 5 000 000)")
    ap.add_argument("--add-to", metavar="MODEL",
                    help="add the trained network to the networks of MODEL (written to --out)")
    args = ap.parse_args(argv)
    decks = [d for d in render.available_decks() if d in render.FRENCH_TRAIN_DECKS + render.GERMAN_DECKS]
    print(f"training decks: {', '.join(decks)}")
    t0 = time.time()
    if args.first_scene < 3_000_000 < args.first_scene + args.scenes or args.first_scene >= 3_000_000:
        ap.error("training scenes must stay below seed 3 000 000 (tuning and benchmark seeds lie above)")
    seeds = list(range(args.first_scene, args.first_scene + args.scenes))
    if args.recall_only:
        hit, total = candidate_recall(seeds, decks)
        print(f"candidate recall {hit}/{total} = {hit / max(1, total):.3%} ({time.time() - t0:.0f} s)")
        return 0
    n_val = max(10, args.scenes // 10)
    if args.jobs > 1:
        from multiprocessing import Pool
        chunks = [seeds[n_val:][k::args.jobs] for k in range(args.jobs)]
        with Pool(args.jobs) as pool:
            parts = pool.starmap(collect, [(c, decks) for c in chunks])
        X = np.vstack([p[0] for p in parts])
        R = np.concatenate([p[1] for p in parts])
        S = np.concatenate([p[2] for p in parts])
        G = np.vstack([p[3] for p in parts if len(p[3])])
    else:
        X, R, S, G = collect(seeds[n_val:], decks, log=print)
    Xv, Rv, Sv, _ = collect(seeds[:n_val], decks, augment=False)
    print(f"{len(X)} training samples ({(R < 13).sum()} index corners), {len(Xv)} validation; "
          f"{time.time() - t0:.0f} s")
    P = train_mlp(X, R, S, epochs=args.epochs, log=print, seed=args.seed, hidden=tuple(args.hidden))
    P["geometry"] = np.median(G, axis=0).astype(np.float64) if len(G) else np.array([-0.6, -1.4, 7.0, 10.0])
    P["train_decks"] = np.array(decks)
    P["train_seeds"] = np.array([seeds[0], seeds[-1]])
    model = cardlib.CardModel({k: P[k] for k in P if k not in ("train_decks", "train_seeds")})
    print("train:", evaluate(model, X, R, S))
    print("validation:", evaluate(model, Xv, Rv, Sv))
    if args.add_to:
        with np.load(args.add_to) as base:
            P = add_member({k: base[k] for k in base.files}, P)
        together = cardlib.CardModel(P)
        print(f"validation, {len(together.members)} networks together:", evaluate(together, Xv, Rv, Sv))
    np.savez_compressed(args.out, **P)
    print(f"geometry (corner u, v, width, height in index units): {np.round(P['geometry'], 3).tolist()}")
    print(f"wrote {args.out} in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
