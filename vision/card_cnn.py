"""The convolutional index reader: a second opinion on the index hypotheses the MLP keeps.

vision.cards reads every index hypothesis with small MLPs on HOG features, which are fast
enough for the thousands of hypotheses of a frame.  The few dozen it takes for an index are
then read again by this small convolutional network, which sees the white-balanced pixels
themselves and tells apart glyphs the HOG cells blur together at 10-14 pixels (5/6/8/9,
spade/club).  The network is trained with PyTorch by ``vision/train_card_cnn.py``; it runs
here in plain NumPy (3x3 convolutions as one matrix product each), so the table needs no
deep-learning package.

Layers: conv 3x3 (3 -> C1) ReLU, max-pool 2; conv 3x3 (C1 -> C2) ReLU, max-pool 2;
conv 3x3 (C2 -> C3) ReLU; dense (-> D) ReLU; two heads, rank-or-not-an-index (14) and suit (4).
The weights file is ``vision/models/card_cnn.npz`` (PyTorch layouts: conv F x C x 3 x 3,
dense out x in).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from threadpoolctl import ThreadpoolController

CNN_PATH = Path(__file__).resolve().parent / "models" / "card_cnn.npz"
LAYERS = ("c1w", "c1b", "c2w", "c2b", "c3w", "c3b", "fw", "fb", "rw", "rb", "sw", "sb")


def _conv3x3_relu(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """N x H x W x C (channels last) -> N x H x W x F, 'same' padding, then ReLU."""
    n, h, wd, c = x.shape
    f = w.shape[0]
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    # the 3 x 3 neighbourhood of every pixel, N H W C 9 (channel, then row and column of the window,
    # as the weights are laid out): nine shifted copies stacked, about 4 times faster than copying a
    # sliding-window view, to the same values
    cols = np.stack([xp[:, dy:dy + h, dx:dx + wd, :] for dy in range(3) for dx in range(3)],
                    axis=-1).reshape(n * h * wd, c * 9)
    out = cols @ w.reshape(f, c * 9).T + b
    return np.maximum(out, 0, out=out).reshape(n, h, wd, f)


def _conv3x3_relu_wide(x: np.ndarray, w9: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``_conv3x3_relu`` for inputs of many channels, with the weights laid out (9 C) x F, row and
    column of the window first, then channel (``_window_first``): the nine shifted copies are
    written as whole channel vectors into a zeroed N x H x W x 9 x C array (the zeros are the
    padding).  Faster than stacking by about a quarter for C = 24 and an eighth for C = 48 (for
    C = 3 slower); the same sums in another order (within about 1e-6)."""
    n, h, wd, c = x.shape
    cols = np.zeros((n, h, wd, 9, c), np.float32)
    for dy in range(3):
        y0, y1 = max(0, 1 - dy), min(h, h + 1 - dy)
        for dx in range(3):
            x0, x1 = max(0, 1 - dx), min(wd, wd + 1 - dx)
            cols[:, y0:y1, x0:x1, dy * 3 + dx, :] = x[:, y0 + dy - 1:y1 + dy - 1, x0 + dx - 1:x1 + dx - 1, :]
    out = cols.reshape(n * h * wd, 9 * c) @ w9 + b
    return np.maximum(out, 0, out=out).reshape(n, h, wd, w9.shape[1])


def _window_first(w: np.ndarray) -> np.ndarray:
    """F x C x 3 x 3 conv weights as the (9 C) x F matrix of ``_conv3x3_relu_wide``."""
    f, c = w.shape[:2]
    return np.ascontiguousarray(w.transpose(0, 2, 3, 1).reshape(f, 9 * c).T, np.float32)


def _pool2(x: np.ndarray) -> np.ndarray:
    """2 x 2 max-pooling of N x H x W x C (an odd last row or column dropped): the larger of four
    strided views, element by element (several times faster than a max over reshaped axes)."""
    h2, w2 = x.shape[1] // 2 * 2, x.shape[2] // 2 * 2
    return np.maximum(np.maximum(x[:, 0:h2:2, 0:w2:2], x[:, 0:h2:2, 1:w2:2]),
                      np.maximum(x[:, 1:h2:2, 0:w2:2], x[:, 1:h2:2, 1:w2:2]))


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class CardCNN:
    """One or more networks (``m1_``... prefixes for the others), probabilities averaged."""

    def __init__(self, params: dict):
        self.members = []
        for prefix in [""] + [f"m{k}_" for k in range(1, 100)]:
            if prefix + "c1w" not in params:
                break
            m = {k: np.asarray(params[prefix + k], np.float32) for k in LAYERS}
            m["c2w9"], m["c3w9"] = _window_first(m["c2w"]), _window_first(m["c3w"])
            self.members.append(m)
        if not self.members:
            raise ValueError("card CNN file holds no network")

    @staticmethod
    def _forward(m: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = _pool2(_conv3x3_relu(x, m["c1w"], m["c1b"]))
        h = _pool2(_conv3x3_relu_wide(h, m["c2w9"], m["c2b"]))
        h = _conv3x3_relu_wide(h, m["c3w9"], m["c3b"])
        flat = h.transpose(0, 3, 1, 2).reshape(len(h), -1)          # PyTorch's flatten order (C, H, W)
        d = np.maximum(flat @ m["fw"].T + m["fb"], 0)
        return _softmax(d @ m["rw"].T + m["rb"]), _softmax(d @ m["sw"].T + m["sb"])

    def predict(self, x: np.ndarray, batch: int = 256, gate: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(rank probabilities N x 14, suit probabilities N x 4) of N x 3 x H x W inputs
        (vision.cards.cnn_input).  With ``gate``, the first network reads every input, and those it
        gives p(index) under ``gate`` keep its reading alone (p(index) stays under the gate); the
        other networks read only the rest."""
        if len(x) == 0:
            return np.zeros((0, 14), np.float32), np.zeros((0, 4), np.float32)
        xl = np.ascontiguousarray(x.transpose(0, 2, 3, 1), np.float32)
        with one_blas_thread():
            if gate is None or len(self.members) == 1:
                return self._average(xl, self.members, batch)
            ranks, suits = self._average(xl, self.members[:1], batch)
            rest = np.nonzero((1.0 - ranks[:, -1]) >= gate)[0]
            if len(rest):
                r, s = self._average(xl[rest], self.members[1:], batch)
                n = len(self.members)
                ranks[rest] = (ranks[rest] + (n - 1) * r) / n
                suits[rest] = (suits[rest] + (n - 1) * s) / n
            return ranks, suits

    def _average(self, xl: np.ndarray, members: list, batch: int) -> tuple[np.ndarray, np.ndarray]:
        ranks, suits = [], []
        for m in members:
            r, s = zip(*(self._forward(m, xl[i:i + batch]) for i in range(0, len(xl), batch)))
            ranks.append(np.concatenate(r))
            suits.append(np.concatenate(s))
        return np.mean(ranks, axis=0), np.mean(suits, axis=0)


_CACHE: dict = {}
_BLAS: list = []          # one ThreadpoolController, made on first use (it lists the loaded BLAS)


def one_blas_thread():
    """A context in which numpy's BLAS runs on the calling thread only.  The readers' matrix products
    are small: extra BLAS threads only fight the rest of the loop (and each other on a busy Pi)."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=1, user_api="blas")


def load_cnn(path=None) -> CardCNN:
    """The shipped network (``vision/models/card_cnn.npz``) or the one at ``path``."""
    p = Path(path) if path else CNN_PATH
    key = str(p)
    if key not in _CACHE:
        if not p.exists():
            raise FileNotFoundError(f"card CNN {p} is missing; build it with `python -m vision.train_card_cnn`")
        with np.load(p) as data:
            _CACHE[key] = CardCNN({k: data[k] for k in data.files})
    return _CACHE[key]
