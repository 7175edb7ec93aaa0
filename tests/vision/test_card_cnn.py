"""vision.card_cnn: the NumPy forward pass of the convolutional index reader, checked
against a plain loop-by-loop convolution, and its place in vision.cards (the input it is
given, the shipped weights, the MLP-only path)."""

import numpy as np
import pytest

from vision import card_cnn
from vision import cards as C


def _loop_conv_relu(x, w, b):
    """Textbook 'same' 3x3 convolution, N x H x W x C channels-last, then ReLU."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, wd, w.shape[0]), np.float64)
    for f in range(w.shape[0]):
        for i in range(h):
            for j in range(wd):
                # w is F x C x 3 x 3 (PyTorch); the window is 3 x 3 x C
                out[:, i, j, f] = np.einsum("nklc,ckl->n", xp[:, i:i + 3, j:j + 3, :], w[f]) + b[f]
    return np.maximum(out, 0)


def _params(rng, ch=(4, 5, 6), dense=7):
    h, w = C.PATCH_H // 4, C.PATCH_W // 4
    shapes = {"c1w": (ch[0], 3, 3, 3), "c1b": (ch[0],), "c2w": (ch[1], ch[0], 3, 3), "c2b": (ch[1],),
              "c3w": (ch[2], ch[1], 3, 3), "c3b": (ch[2],), "fw": (dense, ch[2] * h * w), "fb": (dense,),
              "rw": (14, dense), "rb": (14,), "sw": (4, dense), "sb": (4,)}
    return {k: rng.normal(0, 0.5, s).astype(np.float32) for k, s in shapes.items()}


def test_convolution_matches_the_textbook_loop():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 6, 5, 4)).astype(np.float32)
    w = rng.normal(size=(7, 4, 3, 3)).astype(np.float32)
    b = rng.normal(size=7).astype(np.float32)
    np.testing.assert_allclose(card_cnn._conv3x3_relu(x, w, b), _loop_conv_relu(x, w, b), rtol=1e-4, atol=1e-4)


def test_convolution_of_many_channels_matches_the_textbook_loop():
    """The layout of the second and third layers (window first, then channel) gives the same
    convolution, padding included, for odd and even sizes."""
    rng = np.random.default_rng(3)
    for shape in ((2, 7, 5, 24), (1, 4, 6, 9)):
        x = rng.normal(size=shape).astype(np.float32)
        w = rng.normal(size=(11, shape[3], 3, 3)).astype(np.float32)
        b = rng.normal(size=11).astype(np.float32)
        got = card_cnn._conv3x3_relu_wide(x, card_cnn._window_first(w), b)
        np.testing.assert_allclose(got, _loop_conv_relu(x, w, b), rtol=1e-4, atol=1e-4)


def test_forward_pass_matches_the_layers_done_by_hand():
    rng = np.random.default_rng(2)
    p = _params(rng)
    x = rng.normal(size=(2, 3, C.PATCH_H, C.PATCH_W)).astype(np.float32)
    h = _loop_conv_relu(x.transpose(0, 2, 3, 1), p["c1w"], p["c1b"])
    h = h.reshape(2, C.PATCH_H // 2, 2, C.PATCH_W // 2, 2, -1).max(axis=(2, 4))
    h = _loop_conv_relu(h, p["c2w"], p["c2b"])
    h = h.reshape(2, C.PATCH_H // 4, 2, C.PATCH_W // 4, 2, -1).max(axis=(2, 4))
    h = _loop_conv_relu(h, p["c3w"], p["c3b"])
    d = np.maximum(h.transpose(0, 3, 1, 2).reshape(2, -1) @ p["fw"].T + p["fb"], 0)
    zr = d @ p["rw"].T + p["rb"]
    want = np.exp(zr - zr.max(1, keepdims=True))
    want /= want.sum(1, keepdims=True)
    ranks, suits = card_cnn.CardCNN(p).predict(x)
    np.testing.assert_allclose(ranks, want, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(suits.sum(axis=1), 1.0, rtol=1e-5)


def test_several_networks_are_averaged():
    rng = np.random.default_rng(3)
    a, b = _params(rng), _params(rng, ch=(3, 4, 5), dense=6)
    both = card_cnn.CardCNN({**a, **{"m1_" + k: v for k, v in b.items()}})
    x = rng.normal(size=(4, 3, C.PATCH_H, C.PATCH_W)).astype(np.float32)
    want = (card_cnn.CardCNN(a).predict(x)[0] + card_cnn.CardCNN(b).predict(x)[0]) / 2
    np.testing.assert_allclose(both.predict(x)[0], want, rtol=1e-5)
    assert len(both.members) == 2


def test_the_gate_lets_the_first_network_rule_out_what_it_is_sure_is_no_index():
    """With a gate, inputs the first network gives p(index) under it keep its reading alone; the
    others are the average of both networks, as without the gate."""
    rng = np.random.default_rng(5)
    a, b = _params(rng), _params(rng, ch=(3, 4, 5), dense=6)
    a["rw"] *= 0.01                                          # p(index) spread out, not 0 or 1
    both = card_cnn.CardCNN({**a, **{"m1_" + k: v for k, v in b.items()}})
    x = rng.normal(size=(40, 3, C.PATCH_H, C.PATCH_W)).astype(np.float32)
    first = card_cnn.CardCNN(a).predict(x)
    gate = float(np.median(1.0 - first[0][:, -1]))          # half the inputs on each side
    ranks, suits = both.predict(x, gate=gate)
    ruled_out = (1.0 - first[0][:, -1]) < gate
    assert 0 < ruled_out.sum() < len(x)
    np.testing.assert_allclose(ranks[ruled_out], first[0][ruled_out], rtol=1e-6)
    np.testing.assert_allclose(suits[ruled_out], first[1][ruled_out], rtol=1e-6)
    assert (1.0 - ranks[ruled_out, -1] < gate).all()
    whole = both.predict(x)
    np.testing.assert_allclose(ranks[~ruled_out], whole[0][~ruled_out], rtol=1e-5)
    np.testing.assert_allclose(suits[~ruled_out], whole[1][~ruled_out], rtol=1e-5)


def test_empty_and_missing_inputs():
    with pytest.raises(ValueError, match="no network"):
        card_cnn.CardCNN({})
    ranks, suits = card_cnn.CardCNN(_params(np.random.default_rng(0))).predict(
        np.zeros((0, 3, C.PATCH_H, C.PATCH_W), np.float32))
    assert ranks.shape == (0, 14) and suits.shape == (0, 4)
    x, kept = C.cnn_input(np.zeros((0, C.PATCH_H, C.PATCH_W, 3), np.uint8))
    assert x.shape == (0, 3, C.PATCH_H, C.PATCH_W) and len(kept) == 0


def test_input_is_ink_on_paper_whatever_the_light():
    """The same glyph under a dim warm lamp and in bright daylight gives nearly the same input;
    a patch of bare cloth (no paper) is not read at all."""
    glyph = np.full((C.PATCH_H, C.PATCH_W), 1.0, np.float32)
    glyph[6:14, 5:15] = 0.1
    glyph[18:26, 7:13] = 0.1
    warm = (glyph[..., None] * np.array([90, 140, 180]) + 10).astype(np.uint8)
    day = (glyph[..., None] * np.array([235, 240, 238]) + 12).astype(np.uint8)
    cloth = np.full((C.PATCH_H, C.PATCH_W, 3), (40, 110, 30), np.uint8)
    x, kept = C.cnn_input(np.stack([warm, day, cloth]))
    assert list(kept) == [0, 1]
    assert np.abs(x[0] - x[1]).max() < 0.08


def test_shipped_network_loads():
    assert len(card_cnn.load_cnn().members) >= 1
    with pytest.raises(FileNotFoundError, match="train_card_cnn"):
        card_cnn.load_cnn("/nonexistent/card_cnn.npz")


def test_training_starts_from_any_network_of_a_file(tmp_path):
    """``train_card_cnn --init FILE:K`` (longer training of a shipped network) takes network K's
    arrays, and refuses a network the file does not hold."""
    from vision import train_card_cnn
    rng = np.random.default_rng(5)
    a, b = _params(rng), _params(rng, ch=(3, 4, 5), dense=6)
    path = tmp_path / "two.npz"
    np.savez(path, **a, **{"m1_" + k: v for k, v in b.items()})
    for k, want in ((0, a), (1, b)):
        got = train_card_cnn.member_params(path, k)
        assert set(got) == set(card_cnn.LAYERS)
        for name in card_cnn.LAYERS:
            np.testing.assert_array_equal(got[name], want[name])
    with pytest.raises(ValueError, match="no network 2"):
        train_card_cnn.member_params(path, 2)
