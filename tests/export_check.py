#!/usr/bin/env python3
"""export_check.py: `anywoli export`'s CSV against the results file read by h5py.

    export_check.py FILE.h5 EXPORT.csv [--moves]

Every job's rows, in order: the row count equals the games table's, each column equals the
stored field (codes written as docs/results.md's words, each convention's recipient as
`analyze` re-awards it), the variant and agent columns equal the job's attributes (yes/no
parameters as a config writes them, yes or no), nodes_a,
nodes_b, choices_a and choices_b the stored columns (empty for a job without them), and with --moves the moves
column equals the job's moves datasets. Prints one line per failure; exit status 1 if any.
"""
import csv
import sys

import h5py

OUTCOMES = ["south", "north", "draw", "endless", "unfinished"]
SIDES = {0: "south", 1: "north", -1: "none"}
VARIANT = ["holes", "seeds", "capture", "final_four", "extra_turn", "skip_origin", "max_plies"]
YES_NO = ["extra_turn", "skip_origin"]
PLAIN = ["south", "north", "left", "plies", "passes", "mid_captures", "final_captures"]


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def recipients(row):
    """Who receives the seeds left under penultimate, first-final and lottery."""
    last, first, coin = int(row["last_capturer"]), int(row["first_final"]), int(row["lottery"])
    return SIDES[last], SIDES[first if first >= 0 else last], SIDES[coin]


def expected_row(name, job, row, index, moves):
    """The CSV row `anywoli export` should write for one stored row."""
    fields = row.dtype.names
    e = {"job": name, "game": str(int(row["game"])), "outcome": OUTCOMES[int(row["outcome"])]}
    for f in PLAIN:
        e[f] = str(int(row[f]))
    e["recipient_penultimate"], e["recipient_first_final"], e["recipient_lottery"] = \
        recipients(row)
    e["opening"] = str(int(row["opening"])) if "opening" in fields else "-1"
    e["south_agent"], e["north_agent"] = ("A", "B") if int(row["a_south"]) else ("B", "A")
    for k in VARIANT + ["agent_a", "agent_b"]:
        e[k] = text(job.attrs[k])
    for k in YES_NO:   # stored 0 and 1, written as configs write them
        e[k] = "yes" if int(job.attrs[k]) else "no"
    has_nodes = "nodes_a" in fields and "nodes_b" in fields
    e["nodes_a"] = str(int(row["nodes_a"])) if has_nodes else ""
    e["nodes_b"] = str(int(row["nodes_b"])) if has_nodes else ""
    has_choices = "choices_a" in fields and "choices_b" in fields
    e["choices_a"] = str(int(row["choices_a"])) if has_choices else ""
    e["choices_b"] = str(int(row["choices_b"])) if has_choices else ""
    if moves is not None:
        data, idx = moves
        e["moves"] = " ".join(str(m) for m in data[idx[index]:idx[index + 1]])
    return e


def main():
    path, csv_path = sys.argv[1], sys.argv[2]
    with_moves = "--moves" in sys.argv[3:]
    failures = []
    with h5py.File(path, "r") as h5, open(csv_path, newline="") as f:
        reader = csv.DictReader(f)
        columns = reader.fieldnames
        rows = list(reader)
        jobs = sorted(h5["jobs"], key=lambda n: int(h5["jobs"][n].attrs["index"]))
        wanted = {r["job"] for r in rows}
        jobs = [n for n in jobs if n in wanted]
        any_nodes = any("nodes_a" in h5["jobs"][n]["games"].dtype.names for n in jobs)
        if ("nodes_a" in columns) != any_nodes:
            failures.append(f"nodes columns: in the CSV {'nodes_a' in columns}, "
                            f"in the file {any_nodes}")
        if ("moves" in columns) != with_moves:
            failures.append(f"moves column: in the CSV {'moves' in columns}, asked {with_moves}")
        at = 0
        for name in jobs:
            job = h5["jobs"][name]
            games = job["games"][:]
            moves = (job["moves"][:], job["moves_index"][:]) if with_moves else None
            mine = rows[at:at + len(games)]
            at += len(games)
            if len(mine) != len(games) or any(r["job"] != name for r in mine):
                failures.append(f"job {name}: {len(mine)} rows, the table has {len(games)}")
                continue
            for i, (got, row) in enumerate(zip(mine, games)):
                want = expected_row(name, job, row, i, moves)
                for k in columns:
                    if got[k] != want[k]:
                        failures.append(f"job {name} game {i} {k}: CSV {got[k]!r}, "
                                        f"file {want[k]!r}")
        if at != len(rows):
            failures.append(f"{len(rows)} CSV rows, {at} in the exported jobs' tables")
    for line in failures[:20]:
        print("FAIL:", line)
    print(f"export_check: {len(rows)} rows, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
