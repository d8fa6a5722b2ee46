#!/usr/bin/env python3
"""Experiment (a measurement, not a trainer the engine can use): the tuples-buckets net with a
second hidden layer of 16 SCReLU units before the bucketed output, trained in float by
ataxx_train.py's loop, to see whether the validation loss on the same data drops below the
one-layer net's. No file format: the run stops after its last epoch's validation loss. No
`--init` (there is no file to start from). Unlike the one-layer net, whose output weights are
kept within the quantisation's range, only the first layer is clipped here (float only).

    python3 scripts/ataxx_train_l2_experiment.py DATA... --arch tuples-buckets [trainer options]

takes ataxx_train.py's options and runs its loop with this net in place of the tuples-buckets
net. Measured 2026-11-30 (nets/ataxx/README.md): from random weights on gen15's first 34,130
games (2,981,295 distinct positions), `--augment --unique --epochs 8 --drop-every 3 --wdl 0.2
--scale 700`, validation loss 0.63106 with one hidden layer (ataxx_train.py itself), 0.63064
with this one.
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np
import ataxx_train as tr

L2 = 16


class L2Net(tr.BucketTupleNet):
    def __init__(self, rng, hidden=tr.TUPLE_HIDDEN, buckets=8):
        super().__init__(rng, hidden, buckets)
        self.v2 = (rng.standard_normal((hidden, L2)) / np.sqrt(hidden)).astype(np.float32)
        self.c2 = np.zeros(L2, np.float32)
        self.w2 = (rng.standard_normal((buckets, L2)) / np.sqrt(L2)).astype(np.float32)
        self.b2 = np.zeros(buckets, np.float32)

    def params(self):
        return [self.w1, self.b1, self.v2, self.c2, self.w2, self.b2]

    def forward(self, inputs):
        x, bk = inputs
        a = x @ self.w1 + self.b1
        c = np.clip(a, 0, 1)
        s = c * c
        z = s @ self.v2 + self.c2
        cz = np.clip(z, 0, 1)
        r = cz * cz
        y = np.einsum("ij,ij->i", r, self.w2[bk]) + self.b2[bk]
        return y, (a, c, s, z, cz, r, bk)

    def gradients(self, inputs, cache, dy):
        x, _ = inputs
        a, c, s, z, cz, r, bk = cache
        g_w2, g_b2 = self.output_gradients(r, bk, dy)
        dz = dy[:, None] * self.w2[bk] * 2 * cz * ((z > 0) & (z < 1))
        g_v2 = (s.T @ dz).astype(np.float32)
        g_c2 = dz.sum(0)
        da = (dz @ self.v2.T) * 2 * c * ((a > 0) & (a < 1))
        g_w1 = np.asarray(x.T @ da, dtype=np.float32)
        g_b1 = da.sum(0)
        return [g_w1, g_b1, g_v2, g_c2, g_w2, g_b2]

    def clip(self):
        np.clip(self.w1, -1.5, 1.5, out=self.w1)
        np.clip(self.b1, -1.5, 1.5, out=self.b1)

    def quantise(self, scale):
        sys.exit("experiment: no file format for this net; see the epochs' validation losses")


if "--init" in sys.argv:
    sys.exit("experiment: no --init (no net file holds this net)")
# The trainer builds its tuples-buckets net by this name.
tr.BucketTupleNet = L2Net
tr.main()
