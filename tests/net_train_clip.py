#!/usr/bin/env python3
"""net_train_clip.py: scripts/net_train.py's clipping, at its limits.

    net_train_clip.py SCRIPT OUT

Parameters of a network for the standard board far beyond what the engine's integers hold
(+-1e6, and each tensor's extremes), clipped as the training clips them after each step and
exported as the file's numbers, written to OUT: `anywoli learn net-error` must load it (each
weight within int16, each bias within its bound once quantised, the first layer's sums of
any position within int16), and its largest numbers must be at the limits (so the clip is
not merely far inside them).
"""
import importlib.util
import sys

import numpy as np
import torch

script, out = sys.argv[1:3]
spec = importlib.util.spec_from_file_location("net_train", script)
t = importlib.util.module_from_spec(spec)
spec.loader.exec_module(t)

holes, buckets, h1, h2, scale = 12, 16, 4, 3, 3.7
inputs = 2 * holes * buckets + t.NET_EXTRA
shapes = {"w1": (inputs + 1, h1), "b1": (h1,), "w2": (h2, 2 * h1), "b2": (h2,), "w3": (h2,),
          "b3": ()}
p = {}
for k, shape in shapes.items():
    x = torch.full(shape, 1e6)
    if x.dim():
        x.view(-1)[::2] = -1e6
    else:
        x = torch.tensor(-1e6)
    p[k] = x
t.clip(torch, p, scale, inputs, holes)
net = t.exported(p, scale, inputs)
limits = dict(t.LIMIT, w1=t.first_layer_limit(holes), b1=t.first_layer_limit(holes))
for k, limit in limits.items():
    top = float(np.abs(net[k]).max())
    if not 0.999 * limit <= top <= limit:
        sys.exit(f"net_train_clip: {k}'s largest |x| is {top}, the limit {limit}")
board = {"holes": holes, "capture": 4}
with open(out, "wb") as f:
    f.write(t.net_text(net, board, buckets, "clipped", "the clip's limits"))
