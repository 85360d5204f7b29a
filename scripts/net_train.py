#!/usr/bin/env python3
"""net_train.py: train the network evaluation (weights=net) on `anywoli learn sample` data.

    /usr/bin/python3 scripts/net_train.py DATA... --out FILE [--seed N] [--epochs N]
        [--hidden H1,H2] [--buckets B] [--lr X] [--batch N] [--weight-decay X] [--name NAME]
        [--base FILE] [--features FILE] [--dense GROUPS] [--force] [--quiet]

Each row of the DATA files (docs/learned.md, "The data") becomes the network's inputs exactly
as agents/net.h defines them: for the side to move and for the other side, the one-hot
buckets of the 2H holes seen from that side, then the convention, who stands to receive the
seeds left (eval_final_recipient) and first-final's open flag. The target is what the mover
gains from here on, in seeds: the label less the store difference (as `learn fit`'s). Games
0-2 mod 5 are trained on, 3 mod 5 choose the epoch, 4 mod 5 test, as in `learn fit`.

With --base FILE (`anywoli learn base DATA... > FILE`: the compiled-in learned set's value of
each row, in the same order), the network is trained on what that set leaves (the target less
the base) and written as version 2 with the set's digest on its base line: the engine adds its
output to the set's value. The errors printed are of the whole value, the base's included.

With --features FILE (`anywoli learn base DATA... --features > FILE`, which may be the --base
file too) and --dense GROUPS (a comma list of seeds, moves.me, moves.op, laps.me, laps.op and
convention, or all), the learned features of those groups become dense inputs of the mover's
first-layer sums (agents/net.h, version 3): trained on their values standardised by the
training rows' mean and spread, written with the standardisation folded into their weights
and l1d.bias, so that the engine weighs the features' whole-number values.

The network (agents/net.h): a first layer shared by both sides, h1 = crelu(a_mover) followed
by crelu(a_other), h2 = crelu(W2 h1 + b2), y = w3 . h2 + b3, crelu clamping to [0, 1]. It is
trained with Adam (AdamW's decoupled weight decay, --weight-decay) on the mean squared error,
the quantity whose root the evaluation is judged by and `learn fit` minimises, for --epochs
passes over the training rows in batches of --batch; the epoch with the least error on the
validation games is kept. After each step the weights are clipped to what the engine's
integers hold (W1 and b1 times 127, W2 and w3 times 64, in int16; b2 and b3 times 127 x 64,
within 2^24).

The run is a pure function of the data, the options and the program: one thread, a seeded
generator for the initial weights and the shuffling, deterministic algorithms, float32, no
BLAS (the products are written as sums over elements, so the result does not depend on which
BLAS library is installed) and ATen's portable kernels (ATEN_CPU_CAPABILITY=default, set
before torch loads: the vectorised kernels, chosen by the CPU, sum in other orders and give
other bytes). Two runs of one command write the same bytes (the net_train test checks it);
the portable kernels are meant to give them on any x86-64 machine with Debian 12's torch.

The file is agents/net.h's text format, every number written so that strtod reads back its
float32 exactly, and its `end` line the FNV-1a checksum of the bytes before it. It is written
as FILE.PID.partial and renamed; an existing FILE is kept unless --force. Printed: the root mean
square error in seeds of the written network on each split (computed from the file's
numbers, in double), and last the lines `train_rmse X`, `validation_rmse X` and
`test_rmse X`. Bad input (a missing file, a file that is not learn data, files of different
boards, a bad option) is one line on stderr and exit status 2.
"""
import argparse
import os
import sys
import time
import warnings

# ATen picks its vectorised kernels by the CPU it runs on (AVX2, AVX-512), and they sum in
# different orders: the portable ones make the float32 results the same on every x86-64
# machine. Set before torch is imported, which reads it once.
os.environ["ATEN_CPU_CAPABILITY"] = "default"

PROG = "net_train.py"

# agents/net.h
NET_EXTRA = 6
NET_MAX_BUCKETS = 64
NET_MAX_H1 = 256
NET_MAX_H2 = 64
NET_QA = 127
NET_QB = 64
NET_QO = 64
NET_QD = 64
NET_MAX_DENSE = 64
INT32_MAX = (1 << 31) - 1
DENSE_GROUPS = {   # learn_features.h's groups, by the names of their features
    "seeds": lambda n: n in ("me.seeds", "op.seeds"),
    "moves.me": lambda n: n.startswith("me.") and not n.startswith("me.lap") and n != "me.seeds",
    "moves.op": lambda n: n.startswith("op.") and not n.startswith("op.lap") and n != "op.seeds",
    "laps.me": lambda n: n.startswith("me.lap."),
    "laps.op": lambda n: n.startswith("op.lap."),
    "convention": lambda n: n in ("pen.final", "ff.final", "ff.open"),
}
INT16_MAX = 32767
LEARN_FORMAT = "anywoli-learn-data"
BOARD_ATTRIBUTES = ("holes", "seeds", "capture", "extra_turn", "skip_origin")
PENULTIMATE, FIRST_FINAL, LOTTERY = 0, 1, 2
NOBODY = -1

NET_MAX_BIAS = 1 << 24    # agents/net.c: the largest quantised b2 and b3 (int32)



def float32_below(x):
    """The largest float32 not above x (a clamp to x in float32 could round above it)."""
    import struct
    f = struct.unpack("f", struct.pack("f", x))[0]
    if f > x:
        f = struct.unpack("f", struct.pack("I", struct.unpack("I", struct.pack("f", f))[0] - 1))[0]
    return f


# The largest magnitude of each tensor that net_prepare quantises (rounding to the nearest):
# the weights to int16, the second layer's and the output's biases to NET_MAX_BIAS; one unit
# less, and a float32, so that rounding never crosses the limit. The first layer's are the
# board's (first_layer_limit).
LIMIT = {k: float32_below(x) for k, x in {
    "w2": (INT16_MAX - 1) / NET_QB,
    "b2": (NET_MAX_BIAS - 1) / (NET_QA * NET_QB),
    "w3": (INT16_MAX - 1) / NET_QO,
    "b3": (NET_MAX_BIAS - 1) / (NET_QA * NET_QO),
}.items()}


def first_layer_limit(holes):
    """The largest magnitude of W1 and b1 on a board of `holes`: the engine keeps a position's
    first-layer sums in int16 and refuses a network whose bias plus, per hole, its largest
    bucket weight plus every extra input's weight could leave it (agents/net.c,
    sums_fit_16); each of those 2H + NET_EXTRA + 1 terms within an equal share, one unit
    less, so that rounding to the nearest never crosses it. Trained networks lie far inside
    (the shipped one's largest weight is 77 of the 1,056 units the standard board allows)."""
    terms = 2 * holes + NET_EXTRA + 1
    return float32_below((INT16_MAX // terms - 1) / NET_QA)


# Rows evaluated at once outside training (the validation error, the errors printed): bounds
# the memory of their intermediate tensors.
CHUNK = 2048


class BadInput(Exception):
    """A fault of the command's input: one line, exit status 2."""


def die(message, status=2):
    print(f"{PROG}: {message}", file=sys.stderr)
    sys.exit(status)


class Parser(argparse.ArgumentParser):
    def error(self, message):   # one line, not argparse's usage and message
        die(f"{message} (see --help)")


def parse_args(argv):
    p = Parser(prog=PROG, description=__doc__.split("\n\n", 2)[2],
               formatter_class=argparse.RawDescriptionHelpFormatter,
               usage="%(prog)s DATA... --out FILE [options]")
    p.add_argument("data", nargs="+", metavar="DATA", help="anywoli learn sample files (HDF5)")
    p.add_argument("--out", "-o", required=True, metavar="FILE", help="the network file")
    p.add_argument("--force", action="store_true", help="replace an existing FILE")
    p.add_argument("--seed", type=int, default=1, metavar="N",
                   help="initial weights and shuffling (1)")
    p.add_argument("--epochs", type=int, default=200, metavar="N",
                   help="passes over the training rows (200)")
    p.add_argument("--hidden", default="64,16", metavar="H1,H2",
                   help="units of the first and second hidden layers (64,16)")
    p.add_argument("--buckets", type=int, default=16, metavar="B",
                   help="one-hot buckets of a hole's seeds, the last one for B or more (16)")
    p.add_argument("--lr", type=float, default=1e-3, metavar="X",
                   help="Adam's learning rate (0.001)")
    p.add_argument("--weight-decay", type=float, default=0.0, metavar="X",
                   help="AdamW's decoupled weight decay (0)")
    p.add_argument("--batch", type=int, default=256, metavar="N", help="rows per step (256)")
    p.add_argument("--name", default="net", metavar="NAME", help="the file's name line (net)")
    p.add_argument("--base", metavar="FILE",
                   help="each row's base value (anywoli learn base DATA... > FILE)")
    p.add_argument("--features", metavar="FILE",
                   help="each row's dense features (anywoli learn base DATA... --features)")
    p.add_argument("--dense", metavar="GROUPS",
                   help="the feature groups of --features taken as dense inputs (or all)")
    p.add_argument("--quiet", action="store_true", help="print the errors only")
    a = p.parse_args(argv)
    if (a.features is None) != (a.dense is None):
        die("--features FILE and --dense GROUPS go together")
    if a.dense is not None:
        groups = list(DENSE_GROUPS) if a.dense == "all" else a.dense.split(",")
        for g in groups:
            if g not in DENSE_GROUPS:
                die(f"--dense: unknown group '{g}' (expected all or a comma list of "
                    f"{', '.join(DENSE_GROUPS)})")
        a.dense_groups = groups
    try:
        h1, h2 = (int(x) for x in a.hidden.split(","))
    except ValueError:
        die(f"--hidden '{a.hidden}': expected two numbers H1,H2")
    if not 1 <= h1 <= NET_MAX_H1 or not 1 <= h2 <= NET_MAX_H2:
        die(f"--hidden '{a.hidden}': expected 1 <= H1 <= {NET_MAX_H1}, 1 <= H2 <= {NET_MAX_H2}")
    a.h1, a.h2 = h1, h2
    if not 1 <= a.buckets <= NET_MAX_BUCKETS:
        die(f"--buckets {a.buckets}: expected 1 .. {NET_MAX_BUCKETS}")
    if not 1 <= a.epochs <= 1000000:
        die(f"--epochs {a.epochs}: expected 1 .. 1000000")
    if not 1 <= a.batch <= 1 << 20:
        die(f"--batch {a.batch}: expected 1 .. {1 << 20}")
    if not 0 < a.lr < 10:
        die(f"--lr {a.lr}: expected a number between 0 and 10")
    if not 0 <= a.weight_decay < 10:
        die(f"--weight-decay {a.weight_decay}: expected a number from 0 to 10")
    if not 0 <= a.seed < 1 << 63:
        die(f"--seed {a.seed}: expected 0 .. 2^63 - 1")
    if not a.name or len(a.name) > 60 or any(c in a.name for c in " \t\n\"\\"):
        die(f"--name '{a.name}': expected a word of at most 60 characters")
    return a


# -- The data ---------------------------------------------------------------------------------

def read_data(paths):
    """The rows of every file, concatenated, and the board (the first file's attributes):
    BadInput on a file that cannot be read, is not learn data or is of another board."""
    import h5py
    import numpy as np
    board, parts = None, []
    for path in paths:
        if not os.path.isfile(path):
            raise BadInput(f"{path}: no such file" if not os.path.exists(path) else
                           f"{path}: not a regular file")
        try:
            f = h5py.File(path, "r")
        except OSError:
            raise BadInput(f"{path}: cannot open it as an HDF5 file") from None
        with f:
            fmt = f.attrs.get("format")
            if isinstance(fmt, bytes):
                fmt = fmt.decode("utf-8", "replace")
            if fmt != LEARN_FORMAT:
                raise BadInput(f"{path}: not a learn data file (its format is not "
                               f"'{LEARN_FORMAT}')")
            try:
                this = {k: int(f.attrs[k]) for k in BOARD_ATTRIBUTES}
                rows = f["positions"][:]
                fields = ("game", "convention", "side", "last_capturer", "first_final",
                          "store_south", "store_north", "pits", "label")
                part = {k: rows[k] for k in fields}
            except (KeyError, ValueError, TypeError, OSError) as e:
                raise BadInput(f"{path}: not a learn data file ({e})") from None
        if board is None:
            board, first = this, path
        elif this != board:
            raise BadInput(f"{path}: another board than {first}'s ("
                           + ", ".join(f"{k} {this[k]} against {board[k]}"
                                       for k in BOARD_ATTRIBUTES if this[k] != board[k]) + ")")
        if part["pits"].ndim != 2 or part["pits"].shape[1] != 2 * board["holes"]:
            raise BadInput(f"{path}: its rows do not hold {2 * board['holes']} holes")
        if not (np.isin(part["convention"], (0, 1, 2)).all() and np.isin(part["side"], (0, 1)).all()
                and np.isin(part["last_capturer"], (-1, 0, 1)).all()
                and np.isin(part["first_final"], (-1, 0, 1)).all()):
            raise BadInput(f"{path}: a row's convention or side is out of range")
        parts.append(part)
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return board, data


def final_recipient(conv, first_final, last_capturer):
    """eval_final_recipient (agents/eval.h), row by row: nobody under the lottery; under
    first-final the first final-seed capturer where there is one; else the last capturer."""
    import numpy as np
    r = np.where((conv == FIRST_FINAL) & (first_final != NOBODY), first_final, last_capturer)
    return np.where(conv == LOTTERY, NOBODY, r)


def inputs_of(data, holes, buckets, q):
    """The active inputs of each row for perspective q (an array of 0 or 1 per row), as
    agents/net.h defines them; each row padded with the index `inputs` (no input)."""
    import numpy as np
    H, B = holes, buckets
    n = len(q)
    pad = 2 * H * B + NET_EXTRA
    extra = 2 * H * B
    # Hole r seen from q: q's own row first (index q H + r), then the other row's.
    r = np.arange(2 * H)
    seen_south = r                                   # q = South: indices 0 .. 2H-1
    seen_north = np.where(r < H, H + r, r - H)       # q = North: its row H.. first
    order = np.where(q[:, None] == 0, seen_south[None, :], seen_north[None, :])
    c = np.take_along_axis(data["pits"].astype(np.int64), order, axis=1)
    idx = np.where(c >= 1, r[None, :] * B + np.minimum(c, B) - 1, pad)
    conv = data["convention"].astype(np.int64)
    recipient = final_recipient(conv, data["first_final"].astype(np.int64),
                                data["last_capturer"].astype(np.int64))
    convention_input = extra + conv
    recipient_input = np.where(recipient == q, extra + 3,
                               np.where(recipient == 1 - q, extra + 4, pad))
    open_input = np.where((conv == FIRST_FINAL) & (data["first_final"] == NOBODY), extra + 5, pad)
    out = np.concatenate([idx, convention_input[:, None], recipient_input[:, None],
                          open_input[:, None]], axis=1)
    assert out.shape == (n, 2 * H + 3)
    return out


def encode(data, holes, buckets):
    """(mover's inputs, other side's inputs, target in seeds, split) of every row."""
    import numpy as np
    side = data["side"].astype(np.int64)
    mover = inputs_of(data, holes, buckets, side)
    other = inputs_of(data, holes, buckets, 1 - side)
    south = data["store_south"].astype(np.int64)
    north = data["store_north"].astype(np.int64)
    store_diff = np.where(side == 0, south - north, north - south)
    target = (data["label"].astype(np.int64) - 100 * store_diff) / 100.0
    split = (data["game"] % 5).astype(np.int64)
    split = np.where(split <= 2, 0, split - 2)       # 0 train, 1 validation, 2 test
    return mover, other, target, split


# -- The network ------------------------------------------------------------------------------

def build_model(torch, g, inputs, h1, h2, scale, mean, dense=0):
    """The parameters, drawn from the seeded generator g. The output layer works in
    units of `scale` seeds (the training targets' spread) and starts at their mean, so that
    every layer starts with steps of the same size; the file gets it in seeds."""
    def uniform(shape, bound):
        return ((torch.rand(shape, generator=g, dtype=torch.float32) * 2 - 1) * bound)
    # A position has about 2H of the inputs active: a first-layer sum then spreads about
    # 0.5 around 0.5, the middle of crelu.
    active = (inputs - NET_EXTRA) ** 0.5
    p = {
        "w1": uniform((inputs + 1, h1), 0.87 / active),   # the last row: no input, kept 0
        "b1": torch.full((h1,), 0.5),
        "w2": uniform((h2, 2 * h1), 1 / (2 * h1) ** 0.5),
        "b2": torch.full((h2,), 0.0),
        "w3": uniform((h2,), 1 / h2 ** 0.5),
        "b3": torch.tensor(float(mean / scale)),
    }
    if dense:   # standardised inputs: each weight's share of a sum's spread about 0.3
        p["wz"] = uniform((dense, h1), 0.5 / dense ** 0.5)
        p["bd"] = torch.full((h1,), 0.0)
    with torch.no_grad():
        p["w1"][inputs].zero_()
    for t in p.values():
        t.requires_grad_(True)
    return p


def forward(torch, p, mover, other, z=None):
    """y of each row, in units of the output scale (agents/net.h's layers; z: the rows'
    standardised dense inputs, or None). The products are sums over elements, not matrix
    products, so that no BLAS decides their order."""
    a_m = p["b1"] + p["w1"][mover].sum(dim=1)
    if z is not None:
        a_m = a_m + (z[:, :, None] * p["wz"][None, :, :]).sum(dim=1) + p["bd"]
    a_o = p["b1"] + p["w1"][other].sum(dim=1)
    h1 = torch.cat([a_m.clamp(0, 1), a_o.clamp(0, 1)], dim=1)
    h2 = ((h1[:, None, :] * p["w2"][None, :, :]).sum(dim=2) + p["b2"]).clamp(0, 1)
    return (h2 * p["w3"]).sum(dim=1) + p["b3"]


def clip(torch, p, scale, inputs, holes, dense_bound=None):
    """Every weight within what the engine's integers hold once quantised (LIMIT,
    first_layer_limit, and for the dense inputs dense_bound: each standardised weight's
    largest magnitude), the no-input row 0."""
    with torch.no_grad():
        for k, t in p.items():
            if k == "wz":
                torch.minimum(torch.maximum(t, -dense_bound[:, None]), dense_bound[:, None],
                              out=t)
                continue
            if k == "bd":
                t.clamp_(-DENSE_BIAS_LIMIT / 2, DENSE_BIAS_LIMIT / 2)
                continue
            if k in ("w1", "b1"):
                bound = first_layer_limit(holes)
            else:
                bound = LIMIT[k] / scale if k in ("w3", "b3") else LIMIT[k]
            t.clamp_(-bound, bound)
        p["w1"][inputs].zero_()


def dense_weight_limit(dense, bound):
    """The largest magnitude of a dense input's weight (W1d, its features' whole-number values
    weighed) such that no unit's dense sum can leave int32 in the engine (agents/net.c,
    prepare_dense: |b1d| plus each |W1d| times `bound`, the largest value a feature takes on
    the board, all in NET_QA x NET_QD units, plus the rounding's margin)."""
    room = INT32_MAX - INT16_MAX * NET_QD - NET_MAX_BIAS
    return float32_below((room // (dense * bound) - 1) / (NET_QA * NET_QD))


# The largest magnitude of l1d.bias (b1d), as net.c's quantisable: NET_MAX_BIAS units.
DENSE_BIAS_LIMIT = float32_below((NET_MAX_BIAS - 1) / (NET_QA * NET_QD))


def train(torch, args, mover, other, target, split, inputs, holes, log, dense=None):
    """The parameters of the epoch with the least validation error (in float32, the output
    layer in seeds, the dense inputs' weights of their whole-number values), and that epoch.
    dense: None, or (values, standardisation mean, spread, the largest weight of a value)."""
    import numpy as np
    tr = np.flatnonzero(split == 0)
    va = np.flatnonzero(split == 1)
    z_tr = z_va = dense_bound = None
    if dense is not None:
        values, mu, sd, limit = dense
        z = ((values - mu) / sd).astype(np.float32)
        z_tr, z_va = torch.from_numpy(z[tr]), torch.from_numpy(z[va])
        dense_bound = torch.from_numpy((limit * sd).astype(np.float32))
    scale = float(np.sqrt(np.mean((target[tr] - target[tr].mean()) ** 2))) or 1.0
    scale = float(np.float32(scale))
    m_tr, o_tr = torch.from_numpy(mover[tr]), torch.from_numpy(other[tr])
    y_tr = torch.from_numpy((target[tr] / scale).astype(np.float32))
    m_va, o_va = torch.from_numpy(mover[va]), torch.from_numpy(other[va])
    y_va = torch.from_numpy((target[va] / scale).astype(np.float32))
    # One generator for everything random: the initial weights, then each epoch's order.
    g = torch.Generator().manual_seed(args.seed)
    p = build_model(torch, g, inputs, args.h1, args.h2, scale, float(target[tr].mean()),
                    0 if dense is None else values.shape[1])
    clip(torch, p, scale, inputs, holes, dense_bound)
    opt = torch.optim.AdamW(list(p.values()), lr=args.lr, weight_decay=args.weight_decay)
    best, best_epoch, best_state = float("inf"), 0, None
    n = len(tr)
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(n, generator=g)
        total = 0.0
        for start in range(0, n, args.batch):
            b = order[start:start + args.batch]
            opt.zero_grad()
            zb = None if z_tr is None else z_tr[b]
            loss = ((forward(torch, p, m_tr[b], o_tr[b], zb) - y_tr[b]) ** 2).mean()
            loss.backward()
            opt.step()
            clip(torch, p, scale, inputs, holes, dense_bound)
            total += float(loss) * len(b)
        with torch.no_grad():   # the squared errors summed CHUNK rows at a time
            v = sum(float(((forward(torch, p, m_va[at:at + CHUNK], o_va[at:at + CHUNK],
                                    None if z_va is None else z_va[at:at + CHUNK])
                            - y_va[at:at + CHUNK]) ** 2).double().sum())
                    for at in range(0, len(va), CHUNK)) / len(va)
        if not np.isfinite(v):
            die(f"the training diverged at epoch {epoch} (try a smaller --lr)", 1)
        if v < best:
            best, best_epoch = v, epoch
            best_state = {k: t.detach().clone() for k, t in p.items()}
        if epoch == 1 or epoch % 10 == 0 or epoch == args.epochs:
            log(f"epoch {epoch}: rms error train {scale * (total / n) ** 0.5:.4f}, validation "
                f"{scale * v ** 0.5:.4f} (best {scale * best ** 0.5:.4f} at epoch {best_epoch})")
    return exported(best_state, scale, inputs, dense), best_epoch


def exported(p, scale, inputs, dense=None):
    """The file's numbers (float32 arrays) of the parameters p: the no-input row left out,
    the output layer in seeds, the dense inputs' standardisation folded into their weights
    (w1d = wz / spread) and l1d.bias (b1d = bd - the sum of wz mean / spread)."""
    import numpy as np
    out = {k: t.detach().numpy().astype(np.float32) for k, t in p.items()}
    if dense is not None:
        _, mu, sd, limit = dense
        wz, bd = out.pop("wz").astype(np.float64), out.pop("bd").astype(np.float64)
        out["w1d"] = np.clip(wz / sd[:, None], -limit, limit).astype(np.float32)
        b1d = bd - (wz * (mu / sd)[:, None]).sum(axis=0)
        if np.abs(b1d).max() > DENSE_BIAS_LIMIT:
            die("the dense inputs' folded bias is beyond what the engine holds", 1)
        out["b1d"] = b1d.astype(np.float32)
    out["w1"] = out["w1"][:inputs]
    out["w3"] = (out["w3"] * np.float32(scale)).astype(np.float32)
    out["b3"] = np.float32(out["b3"] * np.float32(scale))
    for k in ("w3", "b3"):   # scaled back to seeds: rounding may cross the limit
        out[k] = np.clip(out[k], -np.float32(LIMIT[k]), np.float32(LIMIT[k])).astype(np.float32)
    return out


def float_outputs(net, mover, other, values=None):
    """The network's output in seeds for each row, from the float32 numbers of the file, in
    double (values: the rows' dense inputs, whole numbers): what net_positional_float
    computes. CHUNK rows at a time, to bound the memory."""
    import numpy as np
    w1 = np.vstack([net["w1"], np.zeros((1, net["w1"].shape[1]), np.float32)]).astype(np.float64)
    b1 = net["b1"].astype(np.float64)
    w2, b2 = net["w2"].astype(np.float64), net["b2"].astype(np.float64)
    w3, b3 = net["w3"].astype(np.float64), float(net["b3"])
    y = np.empty(len(mover))
    for at in range(0, len(mover), CHUNK):
        rows = slice(at, at + CHUNK)
        a_m = b1 + w1[mover[rows]].sum(axis=1)
        if values is not None:
            a_m = a_m + values[rows] @ net["w1d"].astype(np.float64) + net["b1d"]
        a_m = np.clip(a_m, 0, 1)
        a_o = np.clip(b1 + w1[other[rows]].sum(axis=1), 0, 1)
        h2 = np.clip(np.concatenate([a_m, a_o], axis=1) @ w2.T + b2, 0, 1)
        y[rows] = h2 @ w3 + b3
    return y


# -- The file ---------------------------------------------------------------------------------

def fnv1a64(data):
    """learned_text_checksum (agents/learned.c): FNV-1a, 64 bits."""
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def number(x):
    """A float32 as text that C's (float)strtod reads back exactly (as agents/net.c reads
    it): the shortest decimal that is that float32 (numpy's), checked through a double as C
    goes; else the exact value of the float32 as a double's shortest decimal."""
    import numpy as np
    f = np.float32(x)
    s = str(f)
    if np.float32(float(s)) != f:   # through a double, rounded twice: never seen, but cheap
        s = repr(float(f))
    if s.endswith(".0"):
        s = s[:-2]
    assert np.float32(float(s)) == f, (s, f)
    return s


def net_text(net, board, buckets, name, about, base_digest=None, dense_names=None):
    """The file of agents/net.h, end line included, as bytes: version 1, version 2 with its
    base line for a network trained over a base (base_digest, an int), or version 3 with
    dense inputs (dense_names, net's w1d and b1d)."""
    inputs, h1 = net["w1"].shape
    version = 3 if dense_names else 2 if base_digest is not None else 1
    lines = [f"anywoli-net {version}", f"name {name}",
             f"about {about}", f"holes {board['holes']}", f"capture {board['capture']}",
             f"buckets {buckets}", f"hidden {h1} {len(net['b2'])}"]
    if base_digest is not None:
        lines.append(f"base learned {base_digest:016x}")
    elif dense_names:
        lines.append("base none")
    if dense_names:
        lines.append(f"dense {len(dense_names)}")
    lines += [f"l1 {i} " + " ".join(map(number, net["w1"][i])) for i in range(inputs)]
    lines.append("l1.bias " + " ".join(map(number, net["b1"])))
    if dense_names:
        lines += [f"l1d {n} " + " ".join(map(number, net["w1d"][d]))
                  for d, n in enumerate(dense_names)]
        lines.append("l1d.bias " + " ".join(map(number, net["b1d"])))
    lines += [f"l2 {j} " + " ".join(map(number, net["w2"][j])) for j in range(len(net["b2"]))]
    lines.append("l2.bias " + " ".join(map(number, net["b2"])))
    lines.append("out " + " ".join(map(number, net["w3"])))
    lines.append(f"out.bias {number(net['b3'])}")
    body = ("\n".join(lines) + "\n").encode("ascii")
    return body + f"end {fnv1a64(body):016x}\n".encode("ascii")


def claim_output(path, inputs, force):
    """Refuse an output that exists (without --force), is a data file, or has no folder."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BadInput(f"--out {path}: its folder does not exist")
    for d in inputs:
        if os.path.exists(d) and os.path.exists(path) and os.path.samefile(d, path):
            raise BadInput(f"--out {path}: the same file as the data file {d}")
    if os.path.lexists(path) and not force:
        raise BadInput(f"--out {path}: exists (give --force to replace it)")
    if os.path.isdir(path):
        raise BadInput(f"--out {path}: a folder")


def write_file(path, text):
    """FILE.PID.partial (this run's own: another run writing the same FILE keeps its own),
    then renamed into place; removed if the write fails."""
    partial = f"{path}.{os.getpid()}.partial"
    try:
        with open(partial, "xb") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(partial, path)
    except BaseException:
        if os.path.lexists(partial):
            os.unlink(partial)
        raise


def read_base(path, rows, option="--base"):
    """(digest, base values in seeds, feature names or None, feature values or None) of a
    `learn base` output (with --features: its features line and columns) with a line per
    data row."""
    import numpy as np
    if os.path.exists(path) and not os.path.isfile(path):
        # A FIFO or device would block or never end: only a regular file is read.
        raise BadInput(f"{option} {path}: not a regular file")
    names = None
    try:
        with open(path, "rb") as f:
            head = f.readline().decode("ascii", "replace").split()
            if len(head) != 7 or head[:2] != ["base", "learned"] or head[3] != "digest" or \
                    head[5] != "rows":
                raise BadInput(f"{option} {path}:1: not the output of anywoli learn base")
            digest = int(head[4], 16)
            at = f.tell()
            second = f.readline().decode("ascii", "replace").split()
            if second[:1] == ["features"]:
                names = second[1:]
            else:
                f.seek(at)
            with warnings.catch_warnings():   # no rows: the count says it, in one line
                warnings.simplefilter("ignore")
                values = np.loadtxt(f, dtype=np.int64, ndmin=2)
    except OSError as e:
        raise BadInput(f"{option} {path}: cannot read: {e.strerror}")
    except ValueError:
        raise BadInput(f"{option} {path}: a line that is not whole numbers, as many on every "
                       f"line")
    if int(head[6]) != rows or len(values) != rows:
        raise BadInput(f"{option} {path}: {len(values)} values, not one for each of the data's "
                       f"{rows} rows (the same DATA files, in the same order)")
    want = 1 + (len(names) if names else 0)
    if values.shape[1] != want:
        raise BadInput(f"{option} {path}: {values.shape[1]} numbers a line, not {want} (the "
                       f"base value and one for each feature named)")
    features = values[:, 1:] if names else None
    return digest, values[:, 0] / 100.0, names, features


def dense_inputs(args, board, target, split):
    """(names, (values, mean, spread, weight limit)) of --features' dense inputs of the
    groups --dense chose, the standardisation from the training rows; (None, None) without
    --dense."""
    import numpy as np
    if not args.features:
        return None, None
    _, _, names, values = read_base(args.features, len(target), "--features")
    if names is None:
        raise BadInput(f"--features {args.features}: no features line (anywoli learn base "
                       f"DATA... --features)")
    keep = [i for i, n in enumerate(names)
            if any(DENSE_GROUPS[g](n) for g in args.dense_groups)]
    if not keep or len(keep) > NET_MAX_DENSE:
        raise BadInput(f"--dense {args.dense}: {len(keep)} features of --features "
                       f"{args.features}; expected 1 to {NET_MAX_DENSE}")
    names = [names[i] for i in keep]
    values = values[:, keep].astype(np.float64)
    tr = split == 0
    mu = values[tr].mean(axis=0)
    sd = values[tr].std(axis=0)
    sd[sd == 0] = 1.0   # a feature constant over the training rows: left unscaled
    total = 2 * board["holes"] * board["seeds"]
    bound = max(total, 3 * board["capture"], board["holes"])   # net.c, feature_value_bound
    return names, (values, mu, sd, dense_weight_limit(len(names), bound))


def about_line(args, board, rows, best_epoch, test_rmse):
    files = " ".join(os.path.basename(d) for d in args.data)
    if len(files) > 200:
        files = f"{len(args.data)} files"
    return (f"scripts/net_train.py {files}: {rows} rows, seed {args.seed}, epoch {best_epoch} "
            f"of {args.epochs}, hidden {args.h1},{args.h2}, buckets {args.buckets}, lr "
            f"{args.lr:g}, batch {args.batch}, weight decay {args.weight_decay:g}"
            f"{'; over the learned set' if args.base else ''}"
            f"{'; dense ' + args.dense if args.dense else ''}; test error {test_rmse:.4f} seeds")


def main(argv):
    args = parse_args(argv)
    log = (lambda s: None) if args.quiet else (lambda s: print(s, flush=True))
    try:
        claim_output(args.out, args.data + [x for x in (args.base, args.features) if x],
                     args.force)
        board, data = read_data(args.data)
    except BadInput as e:
        die(str(e))
    try:
        import numpy as np
        import torch
    except ImportError as e:
        die(f"needs numpy and torch (Debian: python3-numpy, python3-torch; scripts/setup.sh "
            f"installs them): {e}", 1)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(args.seed)
    inputs = 2 * board["holes"] * args.buckets + NET_EXTRA
    mover, other, target, split = encode(data, board["holes"], args.buckets)
    base_digest, base = None, np.zeros(len(target))
    try:
        if args.base:
            base_digest, base, _, _ = read_base(args.base, len(target))
        dense_names, dense = dense_inputs(args, board, target, split)
    except BadInput as e:
        die(str(e))
    target = target - base
    counts = [int((split == s).sum()) for s in range(3)]
    if min(counts) == 0:
        die(f"{args.data[0]}: too few positions: a split of games (index mod 5: 0-2 trained, "
            f"3 choose the epoch, 4 test) has none ({counts[0]}, {counts[1]}, {counts[2]})")
    log(f"net_train: {len(args.data)} file{'s' if len(args.data) > 1 else ''}, board holes="
        f"{board['holes']} capture={board['capture']}; {len(target)} rows (train {counts[0]}, "
        f"validation {counts[1]}, test {counts[2]}); {inputs} inputs, hidden {args.h1},{args.h2}")
    start = time.process_time()
    net, best_epoch = train(torch, args, mover, other, target, split, inputs, board["holes"],
                            log, dense)
    cpu = time.process_time() - start
    # The base cancels: (y + base) - (target + base).
    y = float_outputs(net, mover, other, None if dense is None else dense[0])
    rmse = [float(np.sqrt(np.mean((y[split == s] - target[split == s]) ** 2))) for s in range(3)]
    text = net_text(net, board, args.buckets, args.name,
                    about_line(args, board, len(target), best_epoch, rmse[2]), base_digest,
                    dense_names)
    write_file(args.out, text)
    log(f"best epoch {best_epoch} of {args.epochs}; {cpu:.1f} s of CPU")
    print(f"rms error, seeds (the written network, in double): train {rmse[0]:.4f}, validation "
          f"{rmse[1]:.4f}, test {rmse[2]:.4f}")
    log(f"wrote {args.out} (end {text[-17:-1].decode()})")
    for split_name, e in zip(("train", "validation", "test"), rmse):   # test last
        print(f"{split_name}_rmse {e:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
