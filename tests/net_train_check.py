#!/usr/bin/env python3
"""net_train_check.py: a network file written by scripts/net_train.py, read back on its own.

    net_train_check.py SCRIPT DATA NET TEST_RMSE

Checks, each written here again from agents/net.h rather than taken from the script:
  - the file: its lines in net.h's order and counts, every number finite, the end line the
    FNV-1a checksum of the bytes before it;
  - the encoding: the script's inputs of every row of DATA, for both sides, equal those of a
    plain loop over the holes;
  - the error: the network of the file, evaluated row by row from its text, has on the test
    games (index 4 mod 5) the root mean square error TEST_RMSE that the script printed.
Exit status 0 when every check holds, 1 with the first that does not.
"""
import importlib.util
import math
import sys

import h5py
import numpy as np


def fail(message):
    print(f"net_train_check: {message}", file=sys.stderr)
    sys.exit(1)


def read_net(path):
    raw = open(path, "rb").read()
    if not raw.endswith(b"\n"):
        fail("the file does not end with a newline")
    body, _, last = raw[:-1].rpartition(b"\n")
    body += b"\n"
    h = 0xcbf29ce484222325
    for byte in body:
        h = ((h ^ byte) * 0x100000001b3) % (1 << 64)
    if last != b"end %016x" % h:
        fail(f"end line {last!r}, expected 'end {h:016x}'")
    lines = body.decode("ascii").split("\n")[:-1]
    want = ["anywoli-net 1", "name ", "about ", "holes ", "capture ", "buckets ", "hidden "]
    for line, w in zip(lines, want):
        if not line.startswith(w):
            fail(f"line '{line[:40]}', expected '{w}...'")
    holes, capture, buckets = (int(lines[i].split()[1]) for i in (3, 4, 5))
    h1, h2 = map(int, lines[6].split()[1:])
    inputs = 2 * holes * buckets + 6
    at = 7

    def numbers(prefix, count):
        nonlocal at
        fields = lines[at].split(" ")
        at += 1
        if fields[:len(prefix)] != prefix or len(fields) != len(prefix) + count:
            fail(f"line {at}: expected '{' '.join(prefix)}' and {count} numbers")
        try:   # as agents/net.c reads them: (float)strtod
            values = [float(np.float32(float(x))) for x in fields[len(prefix):]]
        except ValueError:
            fail(f"line {at}: not a number among {fields[len(prefix):]}")
        if not all(math.isfinite(x) for x in values):
            fail(f"line {at}: a number is not finite")
        return values

    net = {"holes": holes, "capture": capture, "buckets": buckets}
    net["w1"] = [numbers(["l1", str(i)], h1) for i in range(inputs)]
    net["b1"] = numbers(["l1.bias"], h1)
    net["w2"] = [numbers(["l2", str(j)], 2 * h1) for j in range(h2)]
    net["b2"] = numbers(["l2.bias"], h2)
    net["w3"] = numbers(["out"], h2)
    net["b3"] = numbers(["out.bias"], 1)[0]
    if at != len(lines):
        fail(f"{len(lines) - at} lines more than net.h's before the end line")
    return net


def inputs_by_loop(row, holes, buckets, q):
    """net.h's inputs of one row for perspective q, hole by hole."""
    out = []
    for r in range(2 * holes):
        index = q * holes + r if r < holes else (1 - q) * holes + (r - holes)
        c = int(row["pits"][index])
        if c >= 1:
            out.append(r * buckets + min(c, buckets) - 1)
    base = 2 * holes * buckets
    conv = int(row["convention"])
    out.append(base + conv)
    if conv == 2:
        recipient = -1
    elif conv == 1 and row["first_final"] != -1:
        recipient = int(row["first_final"])
    else:
        recipient = int(row["last_capturer"])
    if recipient == q:
        out.append(base + 3)
    elif recipient == 1 - q:
        out.append(base + 4)
    if conv == 1 and row["first_final"] == -1:
        out.append(base + 5)
    return sorted(out)


def crelu(x):
    return min(max(x, 0.0), 1.0)


def output(net, active_mover, active_other):
    h1 = []
    for active in (active_mover, active_other):
        for u in range(len(net["b1"])):
            h1.append(crelu(net["b1"][u] + sum(net["w1"][i][u] for i in active)))
    h2 = [crelu(sum(w * x for w, x in zip(net["w2"][j], h1)) + net["b2"][j])
          for j in range(len(net["b2"]))]
    return sum(w * x for w, x in zip(net["w3"], h2)) + net["b3"]


FINAL_FOUR = ("penultimate", "first-final", "lottery")


def quarter(on_board, total):
    """The quarter of the board's seeds a row falls in, by the bounds `learn net-error`
    prints: 0 to ceil(T/4), then up to ceil(2T/4), ceil(3T/4) and T."""
    for q in range(4):
        if on_board <= math.ceil(total * (q + 1) / 4):
            return q
    return 3


def check_cells(cells, breakdown_path):
    """`learn net-error`'s lines `test CONVENTION seeds LO-HI rows N net_float E ...` are
    this script's own test rows of each convention and quarter, counted and their float
    error computed here, to its 4 decimals (and 1e-4 for the C side's other order)."""
    printed = {}
    for line in open(breakdown_path):
        w = line.split()
        if w and w[0] == "test":
            printed[(w[1], w[3])] = (int(w[5]), float(w[7]))
    want = {}
    for (conv, lo, hi), (n, squares) in cells.items():
        want[(FINAL_FOUR[conv], f"{lo}-{hi}")] = (n, math.sqrt(squares / n))
    if set(printed) != set(want):
        fail(f"net-error's cells {sorted(printed)}, expected {sorted(want)}")
    for key, (n, rmse) in want.items():
        got_n, got_rmse = printed[key]
        if got_n != n or abs(got_rmse - rmse) > 1.5e-4:
            fail(f"net-error's cell {key}: rows {got_n}, error {got_rmse}; expected {n} "
                 f"rows, error {rmse:.6f}")


def main():
    script, data, net_path, printed = sys.argv[1:5]
    breakdown = sys.argv[5] if len(sys.argv) > 5 else None
    spec = importlib.util.spec_from_file_location("net_train", script)
    trainer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(trainer)
    net = read_net(net_path)
    rows = h5py.File(data, "r")["positions"][:]
    holes, buckets = net["holes"], net["buckets"]
    if rows["pits"].shape[1] != 2 * holes:
        fail("the network is not for the data's board")
    fields = {k: rows[k] for k in ("game", "convention", "side", "last_capturer",
                                   "first_final", "store_south", "store_north", "pits",
                                   "label")}
    mover, other, target, split = trainer.encode(fields, holes, buckets)
    pad = 2 * holes * buckets + 6
    squares, n = 0.0, 0
    total = int(rows["pits"][0].sum() + rows["store_south"][0] + rows["store_north"][0])
    bounds = [0] + [math.ceil(total * (q + 1) / 4) for q in range(4)]
    cells = {}
    for i, row in enumerate(rows):
        s = int(row["side"])
        want_m = inputs_by_loop(row, holes, buckets, s)
        want_o = inputs_by_loop(row, holes, buckets, 1 - s)
        got_m = sorted(int(x) for x in mover[i] if x != pad)
        got_o = sorted(int(x) for x in other[i] if x != pad)
        if (got_m, got_o) != (want_m, want_o):
            fail(f"row {i}: the script's inputs {got_m} / {got_o}, net.h's {want_m} / {want_o}")
        stores = (int(row["store_south"]), int(row["store_north"]))
        want_target = (int(row["label"]) - 100 * (stores[s] - stores[1 - s])) / 100
        if target[i] != want_target:
            fail(f"row {i}: target {target[i]}, expected {want_target}")
        if row["game"] % 5 == 4:
            e2 = (output(net, want_m, want_o) - want_target) ** 2
            squares += e2
            n += 1
            q = quarter(int(row["pits"].sum()), total)
            key = (int(row["convention"]), 0 if q == 0 else bounds[q] + 1, bounds[q + 1])
            cell = cells.setdefault(key, [0, 0.0])
            cell[0] += 1
            cell[1] += e2
    rmse = math.sqrt(squares / n)
    if abs(rmse - float(printed)) > 1e-5:
        fail(f"the file's test error is {rmse:.6f} seeds, the script printed {printed}")
    if breakdown:
        check_cells(cells, breakdown)
    print(f"net_train_check: {len(rows)} rows' inputs as net.h's; the file's test error "
          f"{rmse:.6f} as printed" + (f"; net-error's {len(cells)} cells of convention and "
                                      f"seeds on the board as computed here"
                                      if breakdown else ""))


if __name__ == "__main__":
    main()
