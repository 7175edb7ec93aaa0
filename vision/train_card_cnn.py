"""Train the convolutional index reader (vision/models/card_cnn.npz) from rendered scenes.

    pip install '.[train]'                # PyTorch 2.13.0 (CPU); training only, the table never needs it
    python -m vision.train_card_cnn --jobs 2 --scenes 3600 --epochs 8 --seed 1 --data /tmp/patches.npz
    python -m vision.train_card_cnn --epochs 7 --seed 2 --data /tmp/patches.npz \
        --add-to vision/models/card_cnn.npz   # the shipped file's second network (docs/vision.md)

It renders the same kind of random training scenes as vision/train_cards.py (training decks
only, seeds below 3 000 000), takes every index hypothesis vision.cards generates, labels it
from the exact ground truth with ``train_cards.label_candidates``, adds two jittered copies of
each true index (the detector's frames are never exact), and keeps the raw patches (of the
"not an index" ones, those the MLPs would pass to the CNN and a tenth of the others).  The
network of vision/card_cnn.py is trained on them with PyTorch on the CPU and written as plain
arrays, which vision/card_cnn.py runs in NumPy.  ``--data FILE`` reuses (or, when missing,
writes) the collected patches; ``--add-to`` appends the network to an existing file's;
``--init FILE:K`` starts from network K of a file instead of random weights (training a shipped
network longer, usually with a lower ``--max-lr``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision import card_cnn
from vision import cards as cardlib
from vision import render
from vision import train_cards

CHANNELS = (24, 48, 64)
DENSE = 128
HARD_NEGATIVE = 0.02     # "not an index" hypotheses the MLP gives at least this p(index) are all kept ...
EASY_SHARE = 0.1         # ... and this share of the others (the CNN only reads what the MLP keeps)


# ------------------------------------------------------------ collection --

def scene_patches(seed: int, decks, rng) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(patches N x H x W x 3 uint8, rank labels 0-13, suit labels or -1) of one training scene."""
    if seed % 3 == 0:
        spec = train_cards.spread_spec(seed, decks)
    else:
        spec = render.random_scene_spec(seed, decks=decks)
    img, truth = render.render_card_scene(spec)
    cand = cardlib.index_candidates(img)
    if len(cand.scale) == 0:
        return None
    rank, suit, _ = train_cards.label_candidates(cand, truth)
    p_index = 1.0 - cardlib.load_model().predict(cand.features)[0][:, -1]
    keep = (rank >= 0) & ((rank < 13) | (p_index >= HARD_NEGATIVE) | (rng.random(len(rank)) < EASY_SHARE))
    centres, downs, scales = [cand.centre[keep]], [cand.down[keep]], [cand.scale[keep]]
    ranks, suits = [rank[keep]], [suit[keep]]
    for k in np.nonzero((rank >= 0) & (rank < 13))[0]:
        for _ in range(2):
            a = np.deg2rad(rng.normal(0, 6))
            d = cand.down[k]
            downs.append([[d[0] * np.cos(a) - d[1] * np.sin(a), d[0] * np.sin(a) + d[1] * np.cos(a)]])
            scales.append([cand.scale[k] * rng.uniform(0.88, 1.12)])
            centres.append([cand.centre[k] + rng.normal(0, 0.08, 2) * cand.scale[k]])
            ranks.append([rank[k]])
            suits.append([suit[k]])
    patches = cardlib._patches(img, np.vstack(centres), np.vstack(downs), np.concatenate(scales))
    return patches, np.concatenate(ranks).astype(np.int8), np.concatenate(suits).astype(np.int8)


def collect(seeds, decks, log=None):
    rng = np.random.default_rng(seeds[0] if len(seeds) else 0)
    parts = []
    for i, seed in enumerate(seeds):
        got = scene_patches(seed, decks, rng)
        if got is not None:
            parts.append(got)
        if log and (i + 1) % 100 == 0:
            log(f"  {i + 1}/{len(seeds)} scenes")
    if not parts:
        return (np.zeros((0, cardlib.PATCH_H, cardlib.PATCH_W, 3), np.uint8), np.zeros(0, np.int8),
                np.zeros(0, np.int8))
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(3))


def _collect_job(args):
    seeds, decks = args
    cv2.setNumThreads(1)
    return collect(seeds, decks)


def collect_all(seeds, decks, jobs: int, log=print):
    if jobs <= 1:
        cv2.setNumThreads(1)            # one job, one core (as the pool's workers and torch's threads)
        return collect(seeds, decks, log=log)
    from multiprocessing import Pool
    chunks = [seeds[k::jobs * 8] for k in range(jobs * 8)]
    parts = []
    with Pool(jobs) as pool:
        for i, part in enumerate(pool.imap_unordered(_collect_job, [(c, decks) for c in chunks])):
            parts.append(part)
            log(f"  collected {i + 1}/{len(chunks)} parts")
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(3))


# -------------------------------------------------------------- training --

def build(torch, channels=CHANNELS, dense=DENSE):
    nn = torch.nn
    c1, c2, c3 = channels

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, c1, 3, padding=1)
            self.c2 = nn.Conv2d(c1, c2, 3, padding=1)
            self.c3 = nn.Conv2d(c2, c3, 3, padding=1)
            self.f = nn.Linear(c3 * (cardlib.PATCH_H // 4) * (cardlib.PATCH_W // 4), dense)
            self.r = nn.Linear(dense, 14)
            self.s = nn.Linear(dense, 4)
            self.drop = nn.Dropout(0.3)

        def forward(self, x):
            relu, pool = torch.relu, torch.nn.functional.max_pool2d
            h = pool(relu(self.c1(x)), 2)
            h = pool(relu(self.c2(h)), 2)
            h = relu(self.c3(h))
            h = self.drop(relu(self.f(h.flatten(1))))
            return self.r(h), self.s(h)

    return Net()


NET_LAYERS = ("c1", "c2", "c3", "f", "r", "s")   # the modules of ``build``; arrays "<layer>w", "<layer>b"


def export(net) -> dict:
    sd = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    out = {}
    for layer in NET_LAYERS:
        out[layer + "w"] = sd[f"{layer}.weight"]
        out[layer + "b"] = sd[f"{layer}.bias"]
    return out


def member_params(path, k: int = 0) -> dict:
    """The arrays of network ``k`` of a card CNN file (0: the first, under plain names)."""
    prefix = f"m{k}_" if k else ""
    with np.load(path) as data:
        if prefix + "c1w" not in data.files:
            raise ValueError(f"{path} holds no network {k}")
        return {name: data[prefix + name] for name in card_cnn.LAYERS}


def load_into(torch, net, params: dict) -> None:
    """Set a network's weights from exported arrays (the inverse of ``export``)."""
    state = {f"{layer}.{kind}": torch.from_numpy(np.asarray(params[layer + kind[0]], np.float32))
             for layer in NET_LAYERS for kind in ("weight", "bias")}
    net.load_state_dict(state)


def train(X: np.ndarray, R: np.ndarray, S: np.ndarray, epochs: int, seed: int, log=print,
          channels=CHANNELS, dense=DENSE, init: dict | None = None, max_lr: float = 3e-3):
    """Train a network (from ``init``, exported arrays, when given: longer training of a shipped
    network) with AdamW and a one-cycle learning rate peaking at ``max_lr``."""
    import torch
    torch.manual_seed(seed)
    net = build(torch, channels, dense)
    if init is not None:
        load_into(torch, net, init)
    Xt = torch.from_numpy(X)                      # float16 to keep memory low; cast per batch
    Rt = torch.from_numpy(R.astype(np.int64))
    St = torch.from_numpy(S.astype(np.int64))
    n_pos = int((R < 13).sum())
    w_pos = float(min(10.0, max(1.0, 0.5 * (R == 13).sum() / max(1, n_pos))))
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    batch = 512
    steps = epochs * ((len(X) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps, pct_start=0.15)
    gen = torch.Generator().manual_seed(seed)
    for ep in range(epochs):
        net.train()
        order = torch.randperm(len(X), generator=gen)
        total, t0 = 0.0, time.time()
        for start in range(0, len(X), batch):
            idx = order[start:start + batch]
            x = Xt[idx].float()
            # lighting the renderer may not cover: contrast and a little noise
            x = x * (0.85 + 0.3 * torch.rand(len(idx), 1, 1, 1, generator=gen))
            x = x + 0.03 * torch.randn(x.shape, generator=gen)
            r, s = Rt[idx], St[idx]
            zr, zs = net(x)
            wr = torch.where(r < 13, w_pos, 1.0)
            loss_r = (torch.nn.functional.cross_entropy(zr, r, reduction="none") * wr).mean()
            pos = s >= 0
            loss_s = (torch.nn.functional.cross_entropy(zs[pos], s[pos], reduction="sum") * w_pos / len(idx)
                      if pos.any() else zr.sum() * 0)
            loss = loss_r + loss_s
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        log(f"  epoch {ep + 1}/{epochs}: loss {total / len(X):.4f} ({time.time() - t0:.0f} s)")
    net.eval()
    return net


def inputs(P: np.ndarray, R: np.ndarray, S: np.ndarray):
    """Network inputs (float16) and labels of the patches ``cardlib.cnn_input`` keeps."""
    xs, keep = [], []
    for i in range(0, len(P), 20000):
        x, k = cardlib.cnn_input(P[i:i + 20000])
        xs.append(x.astype(np.float16))
        keep.append(k + i)
    keep = np.concatenate(keep)
    return np.concatenate(xs), R[keep], S[keep]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=3600)
    ap.add_argument("--first-scene", type=int, default=train_cards.TRAIN_SEED0)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=1, help="processes rendering scenes")
    ap.add_argument("--seed", type=int, default=0, help="seed of the starting weights and batches")
    ap.add_argument("--channels", type=int, nargs=3, default=list(CHANNELS), metavar=("C1", "C2", "C3"),
                    help="filters of the three convolutions (default %(default)s)")
    ap.add_argument("--dense", type=int, default=DENSE, help="units of the dense layer (default %(default)s)")
    ap.add_argument("--data", help="collected patches: read if the file exists, else written")
    ap.add_argument("--init", metavar="FILE[:K]",
                    help="start from network K (default 0, the first) of a card CNN file: train it longer")
    ap.add_argument("--max-lr", type=float, default=3e-3, help="peak learning rate (default %(default)s)")
    ap.add_argument("--add-to", metavar="FILE", help="append the network to the networks of FILE")
    ap.add_argument("--out", default=str(card_cnn.CNN_PATH))
    args = ap.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("training the card CNN needs PyTorch: pip install torch==2.13.0", file=sys.stderr)
        return 2
    if args.first_scene >= 3_000_000 or args.first_scene + args.scenes > 3_000_000:
        ap.error("training scenes must stay below seed 3 000 000 (tuning and benchmark seeds lie above)")
    t0 = time.time()
    decks = [d for d in render.available_decks() if d in render.FRENCH_TRAIN_DECKS + render.GERMAN_DECKS]
    seeds = list(range(args.first_scene, args.first_scene + args.scenes))
    if args.data and Path(args.data).exists():
        with np.load(args.data) as d:
            P, R, S = d["P"], d["R"], d["S"]
        print(f"{len(P)} patches from {args.data}")
    else:
        print(f"training decks: {', '.join(decks)}; scenes {seeds[0]}-{seeds[-1]}")
        P, R, S = collect_all(seeds, decks, args.jobs)
        if args.data:
            np.savez(args.data, P=P, R=R, S=S)
    print(f"{len(P)} patches ({int((R < 13).sum())} index corners); {time.time() - t0:.0f} s")
    X, R, S = inputs(P, R, S)
    del P
    rng = np.random.default_rng(args.seed)
    val = rng.random(len(X)) < 0.03
    torch.set_num_threads(max(1, args.jobs))
    init = None
    if args.init:
        path, _, k = args.init.partition(":")
        init = member_params(path, int(k or 0))
        print(f"starting from network {int(k or 0)} of {path}")
    net = train(X[~val], R[~val], S[~val], args.epochs, args.seed, channels=tuple(args.channels), dense=args.dense,
                init=init, max_lr=args.max_lr)
    params = export(net)
    cnn = card_cnn.CardCNN(params)
    with torch.no_grad():                           # the NumPy forward pass is the network's
        xs = X[val][:256].astype(np.float32)
        zr, _ = net(torch.from_numpy(xs))
        ref = torch.softmax(zr, 1).numpy()
    mine = cnn.predict(xs)[0]
    print(f"NumPy vs PyTorch, largest difference: {np.abs(ref - mine).max():.2e}")
    print("held-out patches:", train_cards.evaluate(cnn, X[val].astype(np.float32), R[val], S[val]))
    params["train_seeds"] = np.array([seeds[0], seeds[-1]])
    params["train_decks"] = np.array(decks)
    if args.add_to:
        with np.load(args.add_to) as base:
            old = {k: base[k] for k in base.files}
        k = 1
        while f"m{k}_c1w" in old:
            k += 1
        params = {**old, **{f"m{k}_{name}": v for name, v in params.items()}}
    np.savez_compressed(args.out, **params)
    print(f"wrote {args.out} in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
