#!/usr/bin/env python3
"""Trains an Ataxx NNUE on `bitsolve ataxx datagen` data and writes the quantised net file.

Two architectures (`--arch`); both end in SCReLU (clamp(x, 0, 1)^2) and one output logit y, and
the win probability of the side to move is modelled as sigmoid(y).

squares (the default; file format version 1, src/games/ataxx/nnue/mod.rs): 98 colour-relative
inputs per perspective (own stones on 49 squares, then the other side's), one shared input layer
of 128 units per perspective, side to move's half then the other's into the output.

tuples (file format version 2, src/games/ataxx/nnue/tuples.rs): one perspective, the side to
move. The 7x7 board (square s = 7 * rank + file) has 36 windows of 2x2 squares, w = 6 * r + f
for the window with lower left square rank r, file f (r, f in 0..6), covering (r, f), (r, f + 1),
(r + 1, f), (r + 1, f + 1) with base-3 digit weights 1, 3, 9, 27 in that order; a digit is 0 for
an empty square, 1 for a stone of the side to move, 2 for one of the other side. Feature
81 * w + state is on for each window, so 36 of the 2916 inputs are on (value 1). Hidden layer of
H units (`--hidden`, a multiple of 16 in 16..=512, default 256), then the output. Needs scipy
besides numpy (pip install scipy) for its sparse products.

tuples-blocked (file format version 3): the tuples net with 49 more inputs, 2916 + s on for each
blocked square s (the windows still see a blocked square as empty). Its blocked rows start at
zero, so `--init` with a version-2 net starts from exactly that net.

tuples-buckets (file format version 4): the tuples-blocked net with B output buckets
(`--buckets`, default 8): B sets of output weights and bias, of which a position uses the one
of its stage, bucket = min(E * B // 50, B - 1) for E empty playable squares (the engine's
`tuples::bucket`). `--init` with a version-3 net copies its output layer into every bucket, so
training starts from exactly that net; a version-4 net with as many buckets is read as it is.
File: the version-3 layout with u32 B after the 32-byte header, B sets of H i16 output weights
and B i32 output biases.

Target: LAMBDA * sigmoid(score / K) + (1 - LAMBDA) * result, with score the search score of the
data (engine units, side to move) and result 1 / 0.5 / 0 from the side to move's view; K is
fitted first, for each file on its own (each file's scores are in the units of the net that
played it), as the scale that best predicts the results from the scores (cross-entropy), and
the last file's K is written as the net's scale, so the net's evaluation y * K is in the same units as the
hand-made evaluation the search margins were tuned for. (`--scale S` writes S instead: the
search's margins play better with wider units, `scripts/ataxx_net_scale.py`.) Loss: cross-entropy of sigmoid(y)
against the target. Optimiser: Adam with a step-wise learning-rate drop; weights clipped so
the quantised net cannot overflow (squares: input weights and biases within +-2; tuples: within
+-1.5, as 36 rows and the bias are summed in i16; output weights within +-127/64).

File format version 2 (tuples), little-endian: magic `BSAXNNUE`; u32 version 2, inputs 2916,
hidden H, QA 255, QB 64; i32 scale round(K); input weights, 2916 rows (one per feature) of H i16
round(w * QA); input biases, H i16 round(b * QA); output weights, H i16 round(w * QB) within
+-127; output bias, i32 round(b * QA * QB). 32 + 2 * (2916 * H + 2 * H) + 4 bytes in all. The
engine's evaluation: acc = bias + the 36 rows, v = clamp(acc, 0, QA),
logit = (trunc(sum(v * v * w) / QA) + output bias) / (QA * QB).

Only numpy is needed for squares (pip install numpy), numpy and scipy for tuples. One BLAS
thread (set before numpy loads).

    nice -n 10 python3 scripts/ataxx_train.py /work/data/ataxx/gen1.bin --out nets/ataxx/net1.nnue
    nice -n 10 python3 scripts/ataxx_train.py /work/data/ataxx/gen2.bin --arch tuples --out nets/ataxx/tuples1.nnue

With `--augment` each batch is seen under one of the 8 symmetries of the square board (chosen at
random per batch; Ataxx rules are symmetric under all of them; the tuples net's window states are
computed from the transformed board). With `--checkpoint FILE` the weights, the optimiser state
and the random generator are saved after every epoch and a run started again with the same
arguments resumes after the last saved epoch.

Prints the fitted K, the train and validation loss per epoch (validation: the last 5% of
games), and the loss of the quantised net on the validation positions.
"""

import argparse
import os
import struct
import sys
import zlib

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402

HIDDEN = 128
INPUTS = 98
QA = 255
QB = 64
HEADER = 48
# Header bytes by data version (2: written with --max-opening-score, 8 more bytes).
HEADERS = {1: 48, 2: 56}
RECORD = 24
# Stride-8 bit of each of the 49 squares, in the order s = 7 * rank + file.
SQUARE_BITS = np.array([8 * r + f for r in range(7) for f in range(7)])
# The tuples net: 36 windows of 2x2 squares, 81 states each.
WINDOWS = 36
STATES = 81
TUPLE_INPUTS = WINDOWS * STATES
TUPLE_HIDDEN = 256
# Squares of window w = 6 * r + f, in digit order (weights 1, 3, 9, 27), shape (36, 4).
WINDOW_SQUARES = np.array([[7 * r + f, 7 * r + f + 1, 7 * (r + 1) + f, 7 * (r + 1) + f + 1]
                           for r in range(6) for f in range(6)])
# First feature of each window.
WINDOW_BASE = (STATES * np.arange(WINDOWS)).astype(np.int32)


DTYPE = np.dtype([("x", "<u8"), ("o", "<u8"), ("blocked", "<u8"), ("score", "<i2"),
                  ("side", "u1"), ("result", "i1"), ("game", "<u4")])


def load_file(path):
    """The records of one data file (any format version) as a DTYPE array. Version 3 files are
    checked: the header's CRC and every game's (a damaged file stops the run); an incomplete
    game at the end (a run still going or cut) is left out."""
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size < 16 or raw[:8].tobytes() != b"BSAXDATA":
        sys.exit(f"{path}: not a bitsolve Ataxx data file")
    version, size = struct.unpack("<II", raw[8:16].tobytes())
    if version in HEADERS and size == RECORD:
        old = np.dtype([("x", "<u8"), ("o", "<u8"), ("score", "<i2"), ("side", "u1"),
                        ("result", "i1"), ("game", "<u4")])
        body = raw[HEADERS[version]:]
        body = body[: body.size - body.size % RECORD]
        got = body.view(old)
        rec = np.zeros(got.size, DTYPE)
        for name in old.names:
            rec[name] = got[name]
        return rec
    if version != 3 or size != 32:
        sys.exit(f"{path}: data version {version}, record size {size}: expected 1 or 2 with "
                 f"{RECORD}, or 3 with 32")
    if raw.size < 64 or zlib.crc32(raw[:56].tobytes()) != struct.unpack("<I", raw[56:60].tobytes())[0]:
        sys.exit(f"{path}: header damaged (its CRC differs)")
    body = raw[64:]
    chunks = body[: body.size - body.size % 32].reshape(-1, 32)
    is_trailer = (chunks[:, 26] == 0xFF) & (chunks[:, :8] == np.frombuffer(b"BSAXGAME", np.uint8)).all(1)
    ends = np.flatnonzero(is_trailer)
    starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
    fields = chunks[ends].copy().view("<u4")  # (games, 8) words: count at 2, crc at 3, game at 7
    for s, e, count, crc, game in zip(starts, ends, fields[:, 2], fields[:, 3], fields[:, 7]):
        if e - s != count or zlib.crc32(chunks[s:e].tobytes()) != crc:
            sys.exit(f"{path}: byte {64 + 32 * int(e)}: game {int(game)} damaged (count or CRC "
                     "differs)")
    complete = ends[-1] + 1 if ends.size else 0
    keep = ~is_trailer[:complete]
    return chunks[:complete][keep].copy().reshape(-1).view(DTYPE)


def dedup(rec):
    """One record per distinct (stones, blocked squares, side to move), with the mean score and
    the mean result of its copies (rounded to the record's types: the result's mean is kept
    exactly in the returned float array)."""
    key = np.stack([rec["x"], rec["o"], rec["blocked"], rec["side"].astype(np.uint64)], axis=1)
    _, first, inverse, counts = np.unique(key, axis=0, return_index=True, return_inverse=True,
                                          return_counts=True)
    inverse = inverse.reshape(-1)
    score = np.bincount(inverse, weights=rec["score"].astype(np.float64)) / counts
    result = np.bincount(inverse, weights=rec["result"].astype(np.float64)) / counts
    out = rec[first].copy()
    out["score"] = np.round(score).astype(np.int16)
    return out, result.astype(np.float32)


def load(paths, unique=False, skip_blocked=False, only_blocked=False):
    """Records of the data files, as a DTYPE array (the file's number in the high bits of the
    game index when there are several), and the result of each record in -1..1 (a mean over
    copies with `unique`)."""
    parts, results = [], []
    for n, path in enumerate(paths):
        rec = load_file(path)
        games = np.unique(rec["game"]).size
        if skip_blocked:
            rec = rec[rec["blocked"] == 0]
        if only_blocked:
            rec = rec[rec["blocked"] != 0]
        size = rec.size
        if unique:
            rec, result = dedup(rec)
        else:
            result = rec["result"].astype(np.float32)
        # Distinct games across files: the file's number in the high bits.
        rec["game"] = rec["game"] + np.uint32(n << 24) if len(paths) > 1 else rec["game"]
        parts.append(rec)
        results.append(result)
        print(f"{path}: {size} positions ({rec.size} distinct kept)" if unique else
              f"{path}: {size} positions", f"{games} games, "
              f"{int((rec['blocked'] != 0).sum())} with blocked squares", flush=True)
    return np.concatenate(parts), np.concatenate(results)


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


def own_other(rec):
    """Stones of the side to move and of the other side, (N, 49) uint8 each."""
    x, o = bits49(rec["x"]), bits49(rec["o"])
    second = (rec["side"] == 1)[:, None]
    return np.where(second, o, x), np.where(second, x, o)


def features(rec):
    """Inputs of the side to move's and the other perspective, (N, 98) uint8 each."""
    own, other = own_other(rec)
    return np.concatenate([own, other], axis=1), np.concatenate([other, own], axis=1)


def square_digits(rec):
    """(N, 49) uint8 digit per square: 0 empty, 1 side to move's stone, 2 the other side's."""
    own, other = own_other(rec)
    return own + 2 * other


def window_states(digits, squares=WINDOW_SQUARES):
    """(N, 36) uint8 state (0..80) of each window from the square digits.

    `squares` gives the squares of each window in digit order; `perm[WINDOW_SQUARES]` gives
    the states of the board transformed by a symmetry `perm` (square s of it is square perm[s]
    of the original board, as in `symmetries()`).
    """
    st = digits[:, squares[:, 0]].copy()
    for i, weight in ((1, 3), (2, 9), (3, 27)):
        st += weight * digits[:, squares[:, i]]
    return st


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


def clip_weights(net, limit):
    """Keeps the input weights and biases within +-limit and the output weights within
    +-127 / QB, so that the quantised net cannot overflow."""
    np.clip(net.w1, -limit, limit, out=net.w1)
    np.clip(net.b1, -limit, limit, out=net.b1)
    np.clip(net.w2, -127 / QB, 127 / QB, out=net.w2)


def net_bytes(net, version, inputs, hidden, scale, buckets=None):
    """The net file's bytes: the header, then the weights quantised (the layout versions 2-4
    share; with `buckets` (version 4) the bucket count follows the header, and the output
    layer is one row of weights and one i32 bias per bucket)."""
    w1 = np.round(net.w1 * QA).astype("<i2")
    b1 = np.round(net.b1 * QA).astype("<i2")
    w2 = np.clip(np.round(net.w2 * QB), -127, 127).astype("<i2")
    b2 = np.round(np.asarray(net.b2) * QA * QB).astype("<i4")
    head = b"BSAXNNUE" + struct.pack("<5Ii", version, inputs, hidden, QA, QB, int(round(scale)))
    if buckets is None:
        return head + w1.tobytes() + b1.tobytes() + w2.tobytes() + b2[:1].tobytes()
    return head + struct.pack("<I", buckets) + w1.tobytes() + b1.tobytes() + w2.tobytes() + b2.tobytes()


def read_net(data):
    """The integer weights of a version 2-4 net file: (w1 (inputs, H), b1 (H,), w2 (B, H),
    b2 (B,)), B = 1 below version 4; the inverse of net_bytes."""
    version, inputs, hidden = struct.unpack("<III", data[8:20])
    buckets, off = (struct.unpack("<I", data[32:36])[0], 36) if version >= 4 else (1, 32)
    w1 = np.frombuffer(data, "<i2", inputs * hidden, off).reshape(inputs, hidden)
    off += 2 * inputs * hidden
    b1 = np.frombuffer(data, "<i2", hidden, off).astype(np.int64)
    off += 2 * hidden
    w2 = np.frombuffer(data, "<i2", buckets * hidden, off).reshape(buckets, hidden).astype(np.int64)
    off += 2 * buckets * hidden
    b2 = np.frombuffer(data, "<i4", buckets, off).astype(np.int64)
    return w1, b1, w2, b2


def quantised_logits_of(data, states, blocked=None, bk=None):
    """The logits the engine computes from a version 2-4 net file's integers (mirrors
    nnue/tuples.rs): the accumulators from the bias, the window rows of `states` (N, 36) and
    the rows of the `blocked` squares (N, 49), then the output layer of each position's bucket
    `bk` (bucket 0 without)."""
    w1, b1, w2, b2 = read_net(data)
    idx = states.astype(np.int64) + WINDOW_BASE
    acc = np.broadcast_to(b1, (idx.shape[0], b1.size)).copy()
    for w in range(WINDOWS):
        acc += w1[idx[:, w]]
    if blocked is not None:
        for b, sq in zip(*np.nonzero(blocked)):
            acc[b] += w1[TUPLE_INPUTS + sq]
    bk = np.zeros(idx.shape[0], np.int64) if bk is None else bk
    v = np.clip(acc, 0, QA)
    s = (v * v * w2[bk]).sum(1)
    raw = np.sign(s) * (np.abs(s) // QA)  # Rust's division truncates toward zero
    return (raw + b2[bk]) / (QA * QB)


class SquareNet:
    """The squares net: 98 inputs per perspective, two perspectives (file format version 1)."""

    def __init__(self, rng, hidden=HIDDEN):
        assert hidden == HIDDEN
        self.w1 = (rng.standard_normal((INPUTS, HIDDEN)) * 0.1).astype(np.float32)
        self.b1 = np.full(HIDDEN, 0.2, dtype=np.float32)
        self.w2 = (rng.standard_normal(2 * HIDDEN) * 0.05).astype(np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)

    @staticmethod
    def encode(rec):
        """Per-position inputs of all records, kept for the whole run."""
        return features(rec)

    @staticmethod
    def batch(enc, j, perm=None):
        """Float inputs (xs, xn) of positions j, under the symmetry perm (98 inputs) if given."""
        xs_all, xn_all = enc
        xs = xs_all[j].astype(np.float32)
        xn = xn_all[j].astype(np.float32)
        if perm is not None:
            xs, xn = xs[:, perm], xn[:, perm]
        return xs, xn

    def params(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, inputs):
        xs, xn = inputs
        a_s = xs @ self.w1 + self.b1
        a_n = xn @ self.w1 + self.b1
        c_s, c_n = np.clip(a_s, 0, 1), np.clip(a_n, 0, 1)
        y = (c_s * c_s) @ self.w2[:HIDDEN] + (c_n * c_n) @ self.w2[HIDDEN:] + self.b2[0]
        return y, (a_s, a_n, c_s, c_n)

    def gradients(self, inputs, cache, dy):
        xs, xn = inputs
        a_s, a_n, c_s, c_n = cache
        g_w2 = np.concatenate([(c_s * c_s).T @ dy, (c_n * c_n).T @ dy])
        g_b2 = np.array([dy.sum()], dtype=np.float32)
        d_s = dy[:, None] * self.w2[:HIDDEN] * 2 * c_s * ((a_s > 0) & (a_s < 1))
        d_n = dy[:, None] * self.w2[HIDDEN:] * 2 * c_n * ((a_n > 0) & (a_n < 1))
        g_w1 = xs.T @ d_s + xn.T @ d_n
        g_b1 = d_s.sum(0) + d_n.sum(0)
        return [g_w1, g_b1, g_w2, g_b2]

    def clip(self):
        clip_weights(self, 2.0)

    def quantise(self, scale):
        """The net file's bytes (format version 1)."""
        return net_bytes(self, 1, INPUTS, HIDDEN, scale)

    @staticmethod
    def quantised_logits(data, enc, j):
        """The logits the engine computes from the file's integers (mirrors nnue/mod.rs)."""
        xs, xn = enc[0][j], enc[1][j]
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


def scipy_sparse():
    """scipy.sparse, which the tuples net needs; exits with a message if scipy is missing."""
    try:
        import scipy.sparse
    except ImportError:
        sys.exit("--arch tuples needs scipy for its sparse products: pip install scipy")
    return scipy.sparse


class TupleNet:
    """The tuples net: 2916 window-state inputs, the side to move's view (file format version 2).

    A batch is a sparse (B, 2916) matrix with 36 ones per row, so the input layer is a sparse
    product (scipy) and no dense input matrix is built.
    """

    def __init__(self, rng, hidden=TUPLE_HIDDEN):
        self.sparse = scipy_sparse()
        self.hidden = hidden
        # 36 rows are summed: a spread of 0.05 per row gives accumulators of spread ~0.3.
        self.w1 = (rng.standard_normal((TUPLE_INPUTS, hidden)) * 0.05).astype(np.float32)
        self.b1 = np.full(hidden, 0.2, dtype=np.float32)
        self.w2 = (rng.standard_normal(hidden) * 0.05).astype(np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)

    @staticmethod
    def encode(rec):
        """Square digits (N, 49) and window states under the identity (N, 36), uint8 each."""
        digits = square_digits(rec)
        return digits, window_states(digits)

    def batch(self, enc, j, perm=None):
        """Sparse inputs of positions j, under the symmetry perm (98 inputs, as for squares).

        Under a symmetry the window states are recomputed from the transformed board: windows
        map to windows, but the order of the squares inside a window changes.
        """
        digits, states = enc
        if perm is None:
            st = states[j]
        else:
            st = window_states(digits[j], perm[:49][WINDOW_SQUARES])
        return self.sparse_rows(st)

    def sparse_rows(self, st):
        """CSR matrix (B, 2916) with a one at 81 * w + st[b, w] for each row b and window w."""
        n = st.shape[0]
        cols = (st.astype(np.int32) + WINDOW_BASE).ravel()
        indptr = np.arange(0, WINDOWS * n + 1, WINDOWS, dtype=np.int32)
        ones = np.ones(cols.size, dtype=np.float32)
        return self.sparse.csr_matrix((ones, cols, indptr), shape=(n, TUPLE_INPUTS))

    def params(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, x):
        a = x @ self.w1 + self.b1
        c = np.clip(a, 0, 1)
        y = (c * c) @ self.w2 + self.b2[0]
        return y, (a, c)

    def gradients(self, x, cache, dy):
        a, c = cache
        g_w2 = (c * c).T @ dy
        g_b2 = np.array([dy.sum()], dtype=np.float32)
        d = dy[:, None] * self.w2 * 2 * c * ((a > 0) & (a < 1))
        g_w1 = np.asarray(x.T @ d, dtype=np.float32)
        g_b1 = d.sum(0)
        return [g_w1, g_b1, g_w2, g_b2]

    def clip(self):
        clip_weights(self, 1.5)

    def quantise(self, scale):
        """The net file's bytes (format version 2)."""
        return net_bytes(self, 2, TUPLE_INPUTS, self.hidden, scale)

    @staticmethod
    def quantised_logits(data, enc, j):
        """The logits the engine computes from the file's integers (mirrors nnue/tuples.rs)."""
        return quantised_logits_of(data, enc[1][j])


class BlockedTupleNet(TupleNet):
    """The tuples net with an input per blocked square (file format version 3): the 2916 window
    inputs (a blocked square still counts as empty there), then input 2916 + 7 * rank + file on
    for each blocked square. Its 49 extra rows start at zero, so a version-2 net read by --init
    starts out computing exactly what it computed before."""

    VERSION = 3
    INPUTS = TUPLE_INPUTS + 49

    def __init__(self, rng, hidden=TUPLE_HIDDEN):
        super().__init__(rng, hidden)
        self.w1 = np.concatenate([self.w1, np.zeros((49, hidden), np.float32)])

    @staticmethod
    def encode(rec):
        """Square digits (N, 49), window states (N, 36) and blocked squares (N, 49), uint8."""
        digits = square_digits(rec)
        return digits, window_states(digits), bits49(rec["blocked"])

    def batch(self, enc, j, perm=None):
        digits, states, blocked = enc
        if perm is None:
            st, bl = states[j], blocked[j]
        else:
            st, bl = window_states(digits[j], perm[:49][WINDOW_SQUARES]), blocked[j][:, perm[:49]]
        return self.sparse_rows(st, bl)

    def sparse_rows(self, st, bl):
        """CSR matrix (B, 2965): the window states' ones and one per blocked square."""
        n = st.shape[0]
        rows = np.repeat(np.arange(n, dtype=np.int32), WINDOWS)
        cols = (st.astype(np.int32) + WINDOW_BASE).ravel()
        br, bc = np.nonzero(bl)
        rows = np.concatenate([rows, br.astype(np.int32)])
        cols = np.concatenate([cols, (TUPLE_INPUTS + bc).astype(np.int32)])
        ones = np.ones(cols.size, dtype=np.float32)
        return self.sparse.csr_matrix((ones, (rows, cols)), shape=(n, self.INPUTS))

    def quantise(self, scale):
        """The net file's bytes (format version 3)."""
        return net_bytes(self, self.VERSION, self.INPUTS, self.hidden, scale)

    @staticmethod
    def quantised_logits(data, enc, j):
        """The logits the engine computes from the file's integers (mirrors nnue/tuples.rs)."""
        return quantised_logits_of(data, enc[1][j], enc[2][j])


def buckets_of(rec, buckets):
    """Output bucket of each record (mirrors tuples::bucket): E * buckets // 50, at most
    buckets - 1, for E empty playable squares."""
    filled = bits49(rec["x"]) | bits49(rec["o"]) | bits49(rec["blocked"])
    empties = 49 - filled.sum(1, dtype=np.int64)
    return np.minimum(empties * buckets // 50, buckets - 1)


class BucketTupleNet(BlockedTupleNet):
    """The tuples-blocked net with output buckets by the stage of the game (file format version
    4): one hidden layer, `buckets` output layers, a position's bucket picks one."""

    VERSION = 4

    def __init__(self, rng, hidden=TUPLE_HIDDEN, buckets=8):
        super().__init__(rng, hidden)
        self.buckets = buckets
        self.w2 = np.tile(self.w2, (buckets, 1))
        self.b2 = np.zeros(buckets, dtype=np.float32)

    def encode(self, rec):
        """BlockedTupleNet's encoding and each record's bucket."""
        return (*BlockedTupleNet.encode(rec), buckets_of(rec, self.buckets))

    def batch(self, enc, j, perm=None):
        """The sparse inputs and the buckets of positions j (a symmetry keeps the bucket)."""
        return BlockedTupleNet.batch(self, enc[:3], j, perm), enc[3][j]

    def forward(self, inputs):
        x, bk = inputs
        a = x @ self.w1 + self.b1
        c = np.clip(a, 0, 1)
        s = c * c
        y = np.einsum("ij,ij->i", s, self.w2[bk]) + self.b2[bk]
        return y, (a, c, s, bk)

    def output_gradients(self, s, bk, dy):
        """The gradients of the bucketed output layer's weights and biases, whose inputs are
        `s` and buckets `bk`, from the logits' gradients `dy`."""
        g_w2 = np.zeros_like(self.w2)
        for b in range(self.buckets):
            m = bk == b
            if m.any():
                g_w2[b] = s[m].T @ dy[m]
        return g_w2, np.bincount(bk, weights=dy, minlength=self.buckets).astype(np.float32)

    def gradients(self, inputs, cache, dy):
        x, _ = inputs
        a, c, s, bk = cache
        g_w2, g_b2 = self.output_gradients(s, bk, dy)
        d = dy[:, None] * self.w2[bk] * 2 * c * ((a > 0) & (a < 1))
        g_w1 = np.asarray(x.T @ d, dtype=np.float32)
        g_b1 = d.sum(0)
        return [g_w1, g_b1, g_w2, g_b2]

    def quantise(self, scale):
        """The net file's bytes (format version 4)."""
        return net_bytes(self, self.VERSION, self.INPUTS, self.hidden, scale, self.buckets)

    @staticmethod
    def quantised_logits(data, enc, j):
        """The logits the engine computes from the file's integers (mirrors nnue/tuples.rs)."""
        return quantised_logits_of(data, enc[1][j], enc[2][j], enc[3][j])


ARCHS = {"squares": SquareNet, "tuples": TupleNet, "tuples-blocked": BlockedTupleNet,
         "tuples-buckets": BucketTupleNet}


def init_from_file(net, path):
    """Sets a tuples net's float weights from a net file (format version 2, or 3 for a net with
    blocked-square inputs; a version-2 file leaves those rows at zero): the quantised integers
    divided by their factors, so the float net computes the file's logits up to rounding. Exits
    with a message when the file is not such a net of the same hidden size."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit(f"--init {path}: {e}")
    if len(data) < 32 or data[:8] != b"BSAXNNUE":
        sys.exit(f"--init {path}: not a bitsolve net file (no BSAXNNUE magic)")
    version, inputs, hidden = struct.unpack("<III", data[8:20])
    readable = [(2, TUPLE_INPUTS)]
    if isinstance(net, BlockedTupleNet):
        readable.append((3, BlockedTupleNet.INPUTS))
    buckets, off = 1, 32
    if isinstance(net, BucketTupleNet):
        readable.append((4, BlockedTupleNet.INPUTS))
        if version == 4 and len(data) >= 36:
            buckets, off = struct.unpack("<I", data[32:36])[0], 36
    want = off + 2 * (inputs * hidden + hidden + buckets * hidden) + 4 * buckets
    if (version, inputs) not in readable or not 0 < hidden <= net.hidden or len(data) != want or \
            buckets not in (1, getattr(net, "buckets", 1)):
        sys.exit(f"--init {path}: version {version}, {inputs} inputs, {hidden} hidden units, "
                 f"{buckets} output buckets, {len(data)} bytes; want (version, inputs) in "
                 f"{readable}, at most {net.hidden} hidden, {getattr(net, 'buckets', 1)} buckets "
                 f"(or a version-3 net), {want} bytes")
    w1, b1, w2, b2 = read_net(data)
    h = hidden
    net.w1[:inputs, :h] = w1 / QA
    net.b1[:h] = b1 / QA
    # A version-3 net's one output layer goes into every bucket (numpy broadcasting).
    net.w2[..., :h] = (w2 if buckets > 1 else w2[0]) / QB
    net.b2[...] = b2 / (QA * QB)
    # Widening (h < net.hidden): the new units keep their random input weights but get output
    # weights of zero, so the wider net computes exactly the file's logits at the start.
    net.w2[..., h:] = 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="datagen files")
    ap.add_argument("--out", required=True, help="net file to write")
    ap.add_argument("--arch", choices=list(ARCHS), default="squares", help="net architecture")
    ap.add_argument("--buckets", type=int, help="tuples-buckets: output buckets, 1..=16 "
                    "(default 8)")
    ap.add_argument("--hidden", type=int, help="hidden units (squares: 128 only; tuples: a "
                    f"multiple of 16 in 16..=512, default {TUPLE_HIDDEN})")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=8192)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--drop-every", type=int, default=8, help="epochs between lr drops (x0.3)")
    ap.add_argument("--wdl", type=float, default=0.5, help="weight of the game result in the target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-positions", type=int, default=0, help="use at most this many (0: all)")
    ap.add_argument("--unique", action="store_true", help="one record per distinct position and "
                    "side to move in each file, with the mean score and result of its copies")
    ap.add_argument("--skip-blocked", action="store_true", help="leave out the positions with "
                    "blocked squares (the tuples net sees a blocked square as an empty one; "
                    "tuples-blocked has an input per blocked square)")
    ap.add_argument("--blocked-rows-only", action="store_true", help="tuples-blocked: train only "
                    "the 49 blocked-square rows, on the positions with blocked squares (the others "
                    "give those rows no gradient), so the net evaluates every board without "
                    "blocked squares exactly as the --init net does")
    ap.add_argument("--augment", action="store_true", help="a random board symmetry per batch")
    ap.add_argument("--checkpoint", help="save after each epoch here; resume from it")
    ap.add_argument("--init", help="start from this net file's weights (tuples, format version 2, "
                    "or 3 for tuples-blocked, or 4 for tuples-buckets; the same hidden size, or "
                    "fewer units: the net is widened, the new units' output weights zero) instead "
                    "of random ones: fine-tuning on new data")
    ap.add_argument("--scale", type=int, help="evaluation scale written to the net (default: the "
                    "fitted K); the search plays better with larger units than K, about 700 for "
                    "net6a (results/ataxx/sprt/README.md)")
    args = ap.parse_args()
    if args.arch == "squares":
        hidden = HIDDEN if args.hidden is None else args.hidden
        if hidden != HIDDEN:
            ap.error(f"the squares net has {HIDDEN} hidden units")
    else:
        hidden = TUPLE_HIDDEN if args.hidden is None else args.hidden
        if hidden % 16 or not 16 <= hidden <= 512:
            ap.error("the tuples net's hidden units must be a multiple of 16 in 16..=512")
        scipy_sparse()

    if args.buckets is not None and args.arch != "tuples-buckets":
        ap.error("--buckets needs --arch tuples-buckets")
    buckets = 8 if args.buckets is None else args.buckets
    if not 1 <= buckets <= 16:
        ap.error("--buckets must be in 1..=16")
    if args.blocked_rows_only and (args.arch != "tuples-blocked" or args.skip_blocked):
        ap.error("--blocked-rows-only needs --arch tuples-blocked and the blocked positions")
    rng = np.random.default_rng(args.seed)
    rec, wdl = load(args.data, args.unique, args.skip_blocked, args.blocked_rows_only)
    if args.max_positions:
        rec, wdl = rec[: args.max_positions], wdl[: args.max_positions]
    games = np.unique(rec["game"])
    val_games = games[int(len(games) * 0.95):]
    is_val = np.isin(rec["game"], val_games)
    score = rec["score"].astype(np.float32)
    result = (wdl + 1) / 2
    # K per file: each file's scores are in the units of the net that played its games.
    file_of = (rec["game"] >> np.uint32(24)) if len(args.data) > 1 else np.zeros(rec.size, np.uint32)
    k_of = np.zeros(rec.size, dtype=np.float32)
    for n, path in enumerate(args.data):
        in_file = file_of == n
        k, k_loss = fit_k(score[in_file & ~is_val], result[in_file & ~is_val])
        k_of[in_file] = k
        print(f"{path}: K = {k:.1f} (result cross-entropy from scores {k_loss:.4f}; constant "
              f"{cross_entropy(np.full(result.size, result.mean()), result):.4f})", flush=True)
    target = (args.wdl * result + (1 - args.wdl) * sigmoid(score / k_of)).astype(np.float32)
    net = BucketTupleNet(rng, hidden, buckets) if args.arch == "tuples-buckets" else \
        ARCHS[args.arch](rng, hidden)
    if args.init:
        if args.arch == "squares":
            ap.error("--init reads tuples nets (format version 2, or 3 for tuples-blocked) only")
        init_from_file(net, args.init)
        print(f"initial weights from {args.init}", flush=True)
    enc = net.encode(rec)
    train = np.flatnonzero(~is_val)
    val = np.flatnonzero(is_val)
    print(f"train {train.size} positions, validation {val.size}", flush=True)

    m = [np.zeros_like(p) for p in net.params()]
    v = [np.zeros_like(p) for p in net.params()]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    first = 0
    if args.checkpoint and os.path.exists(args.checkpoint):
        ck = np.load(args.checkpoint, allow_pickle=True)
        # Checkpoints without these keys are of the squares net.
        saved = (str(ck["arch"]) if "arch" in ck else "squares",
                 int(ck["hidden"]) if "hidden" in ck else HIDDEN)
        if saved != (args.arch, hidden):
            sys.exit(f"{args.checkpoint}: a {saved[0]} net with {saved[1]} hidden units, "
                     f"not {args.arch} with {hidden}")
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
            y, _ = net.forward(net.batch(enc, j))
            losses += cross_entropy(sigmoid(y), target[j]) * j.size
            n += j.size
        return losses / max(n, 1)

    if args.init and first == 0:
        print(f"epoch 0 (the initial net): validation loss {evaluate(val):.5f}", flush=True)
    for epoch in range(first, args.epochs):
        lr = args.lr * (0.3 ** (epoch // args.drop_every))
        order = rng.permutation(train)
        total = 0.0
        for i in range(0, order.size, args.batch):
            j = order[i:i + args.batch]
            perm = perms[rng.integers(8)] if args.augment else None
            inputs = net.batch(enc, j, perm)
            y, cache = net.forward(inputs)
            p = sigmoid(y)
            total += cross_entropy(p, target[j]) * j.size
            dy = ((p - target[j]) / j.size).astype(np.float32)
            grads = net.gradients(inputs, cache, dy)
            if args.blocked_rows_only:
                # Adam moves a parameter whose gradients were all zero by 0 / (0 + eps).
                grads[0][:TUPLE_INPUTS] = 0
                for g in grads[1:]:
                    g[...] = 0
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
            np.savez(tmp, step=step, epoch=epoch + 1, rng=np.array(rng.bit_generator.state, dtype=object),
                     arch=args.arch, hidden=hidden, **state)
            os.replace(tmp, args.checkpoint)

    scale = k if args.scale is None else args.scale  # k: the last file's
    data = net.quantise(scale)
    with open(args.out, "wb") as f:
        f.write(data)
    j = val[:100000]
    yq = net.quantised_logits(data, enc, j)
    yf, _ = net.forward(net.batch(enc, j))
    print(f"wrote {args.out} ({len(data)} bytes, scale {int(round(scale))}): quantised validation "
          f"loss {cross_entropy(sigmoid(yq), target[j]):.5f}, float {cross_entropy(sigmoid(yf), target[j]):.5f}, "
          f"largest logit difference {np.abs(yq - yf).max():.4f}", flush=True)


if __name__ == "__main__":
    main()
