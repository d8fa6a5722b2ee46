#!/usr/bin/env python3
"""Trains the Ataxx NNUE on `bitsolve ataxx datagen` data and writes the quantised net file.

Net (src/games/ataxx/nnue/mod.rs has the file format): 98 colour-relative inputs per
perspective (own stones on 49 squares, then the other side's), one shared input layer of
HIDDEN units per perspective, SCReLU (clamp(x, 0, 1)^2), side to move's half then the other's,
one output logit y; the win probability of the side to move is modelled as sigmoid(y).

Target: LAMBDA * sigmoid(score / K) + (1 - LAMBDA) * result, with score the search score of the
data (engine units, side to move) and result 1 / 0.5 / 0 from the side to move's view; K is
fitted first, as the scale that best predicts the results from the scores (cross-entropy), and
is written as the net's scale, so the net's evaluation y * K is in the same units as the
hand-made evaluation the search margins were tuned for. Loss: cross-entropy of sigmoid(y)
against the target. Optimiser: Adam with a step-wise learning-rate drop; weights clipped so
the quantised net cannot overflow (input weights within +-2, output weights within +-127/64).

Only numpy is needed (pip install numpy). One BLAS thread (set before numpy loads).

    nice -n 10 python3 scripts/ataxx_train.py /work/data/ataxx/gen1.bin --out nets/ataxx/net1.nnue

With `--augment` each batch is seen under one of the 8 symmetries of the square board (chosen at
random per batch; Ataxx rules are symmetric under all of them). With `--checkpoint FILE` the
weights, the optimiser state and the random generator are saved after every epoch and a run
started again with the same arguments resumes after the last saved epoch.

Prints the fitted K, the train and validation loss per epoch (validation: the last 5% of
games), and the loss of the quantised net on the validation positions.
"""

import argparse
import os
import struct
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402

HIDDEN = 128
INPUTS = 98
QA = 255
QB = 64
HEADER = 48
RECORD = 24
# Stride-8 bit of each of the 49 squares, in the order s = 7 * rank + file.
SQUARE_BITS = np.array([8 * r + f for r in range(7) for f in range(7)])


def load(paths):
    """Records of the data files, as a structured array, and the game index per record."""
    dtype = np.dtype([("x", "<u8"), ("o", "<u8"), ("score", "<i2"), ("side", "u1"),
                      ("result", "i1"), ("game", "<u4")])
    parts = []
    for n, path in enumerate(paths):
        raw = np.fromfile(path, dtype=np.uint8)
        if raw.size < HEADER or raw[:8].tobytes() != b"BSAXDATA":
            sys.exit(f"{path}: not a bitsolve Ataxx data file")
        version, size = struct.unpack("<II", raw[8:16].tobytes())
        if version != 1 or size != RECORD:
            sys.exit(f"{path}: data version {version}, record size {size}: expected 1, {RECORD}")
        body = raw[HEADER:]
        body = body[: body.size - body.size % RECORD]
        rec = body.view(dtype).copy()
        # Distinct games across files: the file's number in the high bits.
        rec["game"] = rec["game"] + np.uint32(n << 24) if len(paths) > 1 else rec["game"]
        parts.append(rec)
        print(f"{path}: {rec.size} positions, {np.unique(rec['game']).size} games", flush=True)
    return np.concatenate(parts)


def bits49(boards):
    """(N, 49) uint8 of the stride-8 bitboards, square order 7 * rank + file."""
    b = np.unpackbits(boards.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    return b[:, SQUARE_BITS]


def symmetries():
    """The 8 symmetries of the 7x7 board as permutations of the 98 inputs (identity first)."""
    out = []
    for k in range(8):
        perm = []
        for s in range(49):
            r, f = divmod(s, 7)
            if k & 1:
                f = 6 - f
            if k & 2:
                r = 6 - r
            if k & 4:
                r, f = f, r
            perm.append(7 * r + f)
        perm = np.array(perm)
        out.append(np.concatenate([perm, perm + 49]))
    return out


def features(rec):
    """Inputs of the side to move's and the other perspective, (N, 98) uint8 each."""
    x, o = bits49(rec["x"]), bits49(rec["o"])
    second = (rec["side"] == 1)[:, None]
    own = np.where(second, o, x)
    other = np.where(second, x, o)
    return np.concatenate([own, other], axis=1), np.concatenate([other, own], axis=1)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def cross_entropy(p, t):
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))


def fit_k(score, result):
    """The K minimising the cross-entropy of results against sigmoid(score / K)."""
    best = None
    for k in np.exp(np.linspace(np.log(20), np.log(2000), 200)):
        loss = cross_entropy(sigmoid(score / k), result)
        if best is None or loss < best[1]:
            best = (k, loss)
    return best


class Net:
    def __init__(self, rng):
        self.w1 = (rng.standard_normal((INPUTS, HIDDEN)) * 0.1).astype(np.float32)
        self.b1 = np.full(HIDDEN, 0.2, dtype=np.float32)
        self.w2 = (rng.standard_normal(2 * HIDDEN) * 0.05).astype(np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)

    def params(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, xs, xn):
        a_s = xs @ self.w1 + self.b1
        a_n = xn @ self.w1 + self.b1
        c_s, c_n = np.clip(a_s, 0, 1), np.clip(a_n, 0, 1)
        y = (c_s * c_s) @ self.w2[:HIDDEN] + (c_n * c_n) @ self.w2[HIDDEN:] + self.b2[0]
        return y, (a_s, a_n, c_s, c_n)

    def gradients(self, xs, xn, cache, dy):
        a_s, a_n, c_s, c_n = cache
        g_w2 = np.concatenate([(c_s * c_s).T @ dy, (c_n * c_n).T @ dy])
        g_b2 = np.array([dy.sum()], dtype=np.float32)
        d_s = dy[:, None] * self.w2[:HIDDEN] * 2 * c_s * ((a_s > 0) & (a_s < 1))
        d_n = dy[:, None] * self.w2[HIDDEN:] * 2 * c_n * ((a_n > 0) & (a_n < 1))
        g_w1 = xs.T @ d_s + xn.T @ d_n
        g_b1 = d_s.sum(0) + d_n.sum(0)
        return [g_w1, g_b1, g_w2, g_b2]

    def clip(self):
        np.clip(self.w1, -2.0, 2.0, out=self.w1)
        np.clip(self.b1, -2.0, 2.0, out=self.b1)
        np.clip(self.w2, -127 / QB, 127 / QB, out=self.w2)


def quantise(net, scale):
    """The net file's bytes (format version 1)."""
    w1 = np.round(net.w1 * QA).astype("<i2")
    b1 = np.round(net.b1 * QA).astype("<i2")
    w2 = np.clip(np.round(net.w2 * QB), -127, 127).astype("<i2")
    b2 = int(np.round(net.b2[0] * QA * QB))
    head = b"BSAXNNUE" + struct.pack("<5Ii", 1, INPUTS, HIDDEN, QA, QB, int(round(scale)))
    return head + w1.tobytes() + b1.tobytes() + w2.tobytes() + struct.pack("<i", b2)


def quantised_logits(data, xs, xn):
    """The logits the engine computes from the file's integers (mirrors nnue/mod.rs)."""
    off = 32
    w1 = np.frombuffer(data, "<i2", INPUTS * HIDDEN, off).reshape(INPUTS, HIDDEN).astype(np.int64)
    off += 2 * INPUTS * HIDDEN
    b1 = np.frombuffer(data, "<i2", HIDDEN, off).astype(np.int64)
    off += 2 * HIDDEN
    w2 = np.frombuffer(data, "<i2", 2 * HIDDEN, off).astype(np.int64)
    off += 4 * HIDDEN
    b2 = struct.unpack("<i", data[off:off + 4])[0]
    a_s = np.clip(xs.astype(np.int64) @ w1 + b1, 0, QA)
    a_n = np.clip(xn.astype(np.int64) @ w1 + b1, 0, QA)
    s = (a_s * a_s) @ w2[:HIDDEN] + (a_n * a_n) @ w2[HIDDEN:]
    raw = np.floor_divide(s, QA)  # Rust's division truncates; the difference is at most one unit
    return (raw + b2) / (QA * QB)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="datagen files")
    ap.add_argument("--out", required=True, help="net file to write")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=8192)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--drop-every", type=int, default=8, help="epochs between lr drops (x0.3)")
    ap.add_argument("--wdl", type=float, default=0.5, help="weight of the game result in the target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-positions", type=int, default=0, help="use at most this many (0: all)")
    ap.add_argument("--augment", action="store_true", help="a random board symmetry per batch")
    ap.add_argument("--checkpoint", help="save after each epoch here; resume from it")
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    rec = load(args.data)
    if args.max_positions:
        rec = rec[: args.max_positions]
    games = np.unique(rec["game"])
    val_games = games[int(len(games) * 0.95):]
    is_val = np.isin(rec["game"], val_games)
    score = rec["score"].astype(np.float32)
    result = (rec["result"].astype(np.float32) + 1) / 2
    k, k_loss = fit_k(score[~is_val], result[~is_val])
    print(f"K = {k:.1f} (result cross-entropy from scores {k_loss:.4f}; "
          f"constant {cross_entropy(np.full(result.size, result.mean()), result):.4f})", flush=True)
    target = (args.wdl * result + (1 - args.wdl) * sigmoid(score / k)).astype(np.float32)
    xs_all, xn_all = features(rec)
    train = np.flatnonzero(~is_val)
    val = np.flatnonzero(is_val)
    print(f"train {train.size} positions, validation {val.size}", flush=True)

    net = Net(rng)
    m = [np.zeros_like(p) for p in net.params()]
    v = [np.zeros_like(p) for p in net.params()]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    first = 0
    if args.checkpoint and os.path.exists(args.checkpoint):
        ck = np.load(args.checkpoint, allow_pickle=True)
        for q, param in enumerate(net.params()):
            param[...] = ck[f"p{q}"]
            m[q][...] = ck[f"m{q}"]
            v[q][...] = ck[f"v{q}"]
        step, first = int(ck["step"]), int(ck["epoch"])
        rng.bit_generator.state = ck["rng"].item()
        print(f"resumed from {args.checkpoint} after epoch {first}", flush=True)
    perms = symmetries()

    def evaluate(idx):
        losses, n = 0.0, 0
        for i in range(0, idx.size, 65536):
            j = idx[i:i + 65536]
            y, _ = net.forward(xs_all[j].astype(np.float32), xn_all[j].astype(np.float32))
            losses += cross_entropy(sigmoid(y), target[j]) * j.size
            n += j.size
        return losses / max(n, 1)

    for epoch in range(first, args.epochs):
        lr = args.lr * (0.3 ** (epoch // args.drop_every))
        order = rng.permutation(train)
        total = 0.0
        for i in range(0, order.size, args.batch):
            j = order[i:i + args.batch]
            xs = xs_all[j].astype(np.float32)
            xn = xn_all[j].astype(np.float32)
            if args.augment:
                perm = perms[rng.integers(8)]
                xs, xn = xs[:, perm], xn[:, perm]
            y, cache = net.forward(xs, xn)
            p = sigmoid(y)
            total += cross_entropy(p, target[j]) * j.size
            dy = ((p - target[j]) / j.size).astype(np.float32)
            grads = net.gradients(xs, xn, cache, dy)
            step += 1
            for q, (param, g) in enumerate(zip(net.params(), grads)):
                m[q] = beta1 * m[q] + (1 - beta1) * g
                v[q] = beta2 * v[q] + (1 - beta2) * g * g
                mh = m[q] / (1 - beta1 ** step)
                vh = v[q] / (1 - beta2 ** step)
                param -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
            net.clip()
        print(f"epoch {epoch + 1}: lr {lr:.2e} train loss {total / order.size:.5f} "
              f"validation loss {evaluate(val):.5f}", flush=True)
        if args.checkpoint:
            state = {f"p{q}": p for q, p in enumerate(net.params())}
            state.update({f"m{q}": a for q, a in enumerate(m)})
            state.update({f"v{q}": a for q, a in enumerate(v)})
            tmp = args.checkpoint + ".tmp.npz"
            np.savez(tmp, step=step, epoch=epoch + 1, rng=np.array(rng.bit_generator.state, dtype=object), **state)
            os.replace(tmp, args.checkpoint)

    data = quantise(net, k)
    with open(args.out, "wb") as f:
        f.write(data)
    j = val[:100000]
    yq = quantised_logits(data, xs_all[j], xn_all[j])
    yf, _ = net.forward(xs_all[j].astype(np.float32), xn_all[j].astype(np.float32))
    print(f"wrote {args.out} ({len(data)} bytes, scale {int(round(k))}): quantised validation "
          f"loss {cross_entropy(sigmoid(yq), target[j]):.5f}, float {cross_entropy(sigmoid(yf), target[j]):.5f}, "
          f"largest logit difference {np.abs(yq - yf).max():.4f}", flush=True)


if __name__ == "__main__":
    main()
