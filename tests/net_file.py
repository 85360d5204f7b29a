#!/usr/bin/python3
"""net_file.py OUT HOLES [BIAS]: write a small network file (agents/net.h's format) for the
board of HOLES holes and capture 4 to OUT, its end line's checksum right: 2 buckets, 4 and 2
hidden units, weights from a fixed formula, the output's bias BIAS seeds (default 0), so that
two biases make two files of one shape. For the tests of agents that read one (net=FILE):
tests/fingerprint_test.sh and tests/net_agents_test.sh run it."""
import sys

EXTRA = 6   # NET_EXTRA


def fnv1a(data):
    """FNV-1a, 64 bits: learned_text_checksum's."""
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h


def net_text(holes, bias=0.0, buckets=2, h1=4, h2=2):
    """The file's bytes: every line net.h lists, in order, then the end line."""
    inputs = 2 * holes * buckets + EXTRA

    def w(i, j, scale):
        return f"{scale * (((i * 7 + j * 13) % 11) - 5) / 5:.4f}"

    lines = ["anywoli-net 1", "name t", "about a test network (tests/net_file.py)",
             f"holes {holes}", "capture 4", f"buckets {buckets}", f"hidden {h1} {h2}"]
    lines += [f"l1 {i} " + " ".join(w(i, j, 0.5) for j in range(h1)) for i in range(inputs)]
    lines.append("l1.bias " + " ".join(w(99, j, 0.2) for j in range(h1)))
    lines += [f"l2 {k} " + " ".join(w(k, j, 0.8) for j in range(2 * h1)) for k in range(h2)]
    lines.append("l2.bias " + " ".join(w(7, k, 0.1) for k in range(h2)))
    lines.append("out " + " ".join(w(3, k, 2.0) for k in range(h2)))
    lines.append(f"out.bias {bias}")
    body = ("\n".join(lines) + "\n").encode()
    return body + b"end %016x\n" % fnv1a(body)


if __name__ == "__main__":
    with open(sys.argv[1], "wb") as f:
        f.write(net_text(int(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) > 3 else 0.0))
