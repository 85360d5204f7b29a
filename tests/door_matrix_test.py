#!/usr/bin/env python3
"""door_matrix_test.py: every file argument of every command against hostile files.

    door_matrix_test.py PATH/TO/anywoli

The commands' table (`anywoli --file-arguments`, Command.files in sim/cli/main.c) lists each
command's file arguments as command lines with placeholders: {in:KIND} a file read,
{out:KIND} a file written, {outdir:KIND} a folder written into (made if missing),
{dir:KIND} a folder that must exist, written into (work files). This test makes a file of
each KIND, checks that every line succeeds with them, then runs every line again with one
argument made hostile:
  an input:  a FIFO, a folder, /dev/zero, a missing file, and the input named as each output
             of the line (the input must be left byte for byte);
  an output: a link at OUT, at OUT.partial and at OUT.lock (the file they point to left
             alone), OUT held by another process, OUT existing without --force, a stray
             OUT.partial (removed with a word, or refused; never silently), a full disk (a
             file size limit), SIGTERM while it runs (OUT whole or as it was), two outputs
             named as one file;
  any line:  standard output full or closed (exit status 1 with the real reason).
Each refusal must be exit status 2 with one line on stderr naming the file, never a hang,
a crash or a file lost. A command that gains a file argument lists it in the table, and so
is tested here the day it is added; the table's completeness is checked against each
command's --help (every option whose value is a file must be in one of its lines).
"""
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import fcntl

BINARY = os.path.abspath(sys.argv[1])
TIMEOUT = 60
failures = []
checks = 0


def fail(what):
    failures.append(what)
    print("FAIL:", what, file=sys.stderr)


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        fail(what)
    return ok


def run(args, cwd, timeout=TIMEOUT, **kw):
    """Run anywoli with args: (status, stdout, stderr); status None on a hang."""
    try:
        p = subprocess.run([BINARY, *args], cwd=cwd, stdin=subprocess.DEVNULL,
                           capture_output="stdout" not in kw, text=True, timeout=timeout, **kw)
        return p.returncode, p.stdout or "", p.stderr or ""
    except subprocess.TimeoutExpired:
        return None, "", ""


# ---- the fixtures: one file of each KIND ----

CONFIG = """seed = 3L;
output = "unused.h5";
jobs = ( { name = "main"; holes = 6; agent_a = "random"; agent_b = "greedy"; games = 4L; } );
"""
TUNE_CONFIG = """seed = 3L;
output = "unused.h5";
variant = "yit-nuri";
agent = "alphabeta:depth=1";
iterations = 2;
pairs = 1;
a = 5.0;
weights = ( { name = "seeds"; min = -1.0; max = 1.0; step = 0.1; } );
verification = { pairs = 2; };
"""
GAMES = ["--holes", "6", "--agent-a", "random", "--agent-b", "greedy", "--seed", "5",
         "--record-moves", "--quiet"]
TABLES = ["tables", "build", "--holes", "6", "--seeds", "4", "--max-seeds", "8",
          "--all-levels", "--quiet"]
MAKE = {
    "results": [["run", *GAMES, "--games", "8", "-o", "{}"]],
    "slice0": [["run", *GAMES, "--games", "4", "-o", "{}"]],
    "slice1": [["run", *GAMES, "--first-game", "4", "--games", "4", "-o", "{}"]],
    "tables": [[*TABLES, "-o", "{}"]],
    "tables_lottery": [[*TABLES, "--final-four", "lottery", "-o", "{}"]],
    "data": [["learn", "sample", "--holes", "6", "--games", "60", "--depth", "2", "--quiet",
              "-o", "{}"]],
    "std_data": [["learn", "sample", "--games", "2", "--depth", "1", "--quiet", "-o", "{}"]],
    "weights": [["learn", "fit", "data", "--weights-out", "{}"]],
    "book": [["openings", "--holes", "6", "--plies", "1", "--depth", "1", "--window", "48",
              "-o", "{}"]],
}


def net_text():
    """A tiny network file (agents/net.h) for the fixtures' board (6 holes, capture 4): two
    buckets, two units in each layer, and its end line's FNV-1a checksum."""
    inputs = 2 * 6 * 2 + 6
    lines = ["anywoli-net 1", "name door", "about door_matrix_test.py's fixture", "holes 6",
             "capture 4", "buckets 2", "hidden 2 2"]
    lines += ["l1 %d %.2f %.2f" % (i, (i % 5) * 0.1 - 0.2, 0.1 - (i % 3) * 0.1)
              for i in range(inputs)]
    lines += ["l1.bias 0.5 0.25", "l2 0 1 -1 0.5 0.5", "l2 1 -0.5 1 1 -1", "l2.bias 0 0.1",
              "out 3 -2", "out.bias 0.5"]
    content = ("\n".join(lines) + "\n").encode()
    h = 0xCBF29CE484222325
    for b in content:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return content.decode() + "end %016x\n" % h


TEXT = {"config": CONFIG, "tune_config": TUNE_CONFIG, "net": net_text()}


def make_fixtures(top):
    """Every KIND as a file named KIND in the folder top."""
    for kind, text in TEXT.items():
        with open(os.path.join(top, kind), "w") as f:
            f.write(text)
    for kind, commands in MAKE.items():
        for c in commands:
            status, out, err = run([a.replace("{}", kind) for a in c], top)
            if status != 0:
                sys.exit(f"FAIL: cannot make the fixture {kind}: {err.strip()}")


def fresh_case(top, name):
    """A folder with a copy of every fixture, for one case, and the folders {dir:KIND} names."""
    d = tempfile.mkdtemp(prefix=name + "-", dir=top)
    for kind in DIRS:
        os.mkdir(os.path.join(d, kind))
    for kind in list(MAKE) + list(TEXT):
        with open(os.path.join(top, kind), "rb") as f, open(os.path.join(d, kind), "wb") as g:
            g.write(f.read())
    return d


# ---- the table ----

PLACEHOLDER = re.compile(r"\{(in|out|outdir|dir):([a-z_0-9]+)\}")


DIRS = set()   # the KINDs of {dir:KIND}, an existing folder written into


def table():
    """[(command, line)] from anywoli --file-arguments, and the commands' names."""
    status, out, err = run(["--file-arguments"], ".")
    if status != 0:
        sys.exit(f"FAIL: anywoli --file-arguments: {err}")
    lines, names = [], []
    for row in out.splitlines():
        name, _, line = row.partition("\t")
        if not line:
            names.append(name)
        else:
            lines.append((name, line))
            DIRS.update(k for r, k in PLACEHOLDER.findall(line) if r == "dir")
    return lines, names


def places(line):
    """The placeholders of a line: [(role, kind)] in order."""
    return PLACEHOLDER.findall(line)


def name_of(role, kind):
    """A placeholder's file when the case does not name it: the fixture for an input or a
    folder that exists, a new name for an output."""
    return kind if role in ("in", "dir") else kind + ".out"


def fill(line, names):
    """The line's arguments with each placeholder {role:kind} replaced by names[kind] (or by
    name_of)."""
    return [PLACEHOLDER.sub(lambda m: names.get(m.group(2), name_of(m.group(1), m.group(2))), a)
            for a in shlex.split(line)]


def takes_force(line):
    status, out, _ = run([*shlex.split(line)[:2], "--help"], ".")
    words = shlex.split(line)
    if words[0] not in ("tables", "learn"):
        status, out, _ = run([words[0], "--help"], ".")
    return "--force" in out


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def one_line_naming(err, name):
    lines = [l for l in err.splitlines() if l.strip()]
    return len(lines) >= 1 and name in lines[-1]


# ---- the cases ----

def case_inputs(top, line, force):
    for role, kind in places(line):
        if role != "in":
            continue
        for what, make in (("a FIFO", lambda p: os.mkfifo(p)),
                           ("a folder", lambda p: os.mkdir(p)),
                           ("a missing file", lambda p: None)):
            d = fresh_case(top, "in")
            os.remove(os.path.join(d, kind))
            make(os.path.join(d, kind))
            status, _, err = run(fill(line, {}), d, timeout=20)
            check(status == 2 and one_line_naming(err, kind),
                  f"{line}: {kind} as {what}: status {status}, {err.strip()[-200:]!r}")
        d = fresh_case(top, "in")
        status, _, err = run(fill(line, {kind: "/dev/zero"}), d, timeout=20)
        check(status == 2 and one_line_naming(err, "/dev/zero"),
              f"{line}: {kind} as /dev/zero: status {status}, {err.strip()[-200:]!r}")
        for orole, okind in places(line):
            if orole != "out":
                continue
            d = fresh_case(top, "io")
            before = read(os.path.join(d, kind))
            args = fill(line, {okind: kind}) + (["--force"] if force else [])
            status, _, err = run(args, d)
            check(status == 2 and read(os.path.join(d, kind)) == before
                  and "both an input" in err and not os.path.exists(os.path.join(d, kind + ".lock"))
                  and not os.path.exists(os.path.join(d, kind + ".partial")),
                  f"{line}: input {kind} named as the output {okind} (--force): status "
                  f"{status}, input {'kept' if read(os.path.join(d, kind)) == before else 'CHANGED'}, "
                  f"{err.strip()[-200:]!r}")


def victim(d):
    path = os.path.join(d, "victim.txt")
    with open(path, "w") as f:
        f.write("a file of the user's\n")
    return path


def ignore_xfsz_and_limit(size):
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return pre


# The readers that confirm a file of a KIND is whole.
READERS = {"results": ["analyze"], "tables": ["tables", "info"],
           "tables_lottery": ["tables", "info"]}


def readable(kind, d, name):
    """Whether the file name in folder d reads as a whole file of its kind (true for a kind
    without a reader)."""
    if kind not in READERS:
        return True
    status, _, _ = run([*READERS[kind], name], d)
    return status == 0


def case_outputs(top, line, force, checkpointed):
    outs = [k for r, k in places(line) if r == "out"]
    for kind in outs:
        out = name_of("out", kind)
        names = {kind: out}
        # a link at OUT, OUT.partial, OUT.lock: the file it points to is never written
        for at in ("", ".partial", ".lock"):
            d = fresh_case(top, "link")
            v = victim(d)
            os.symlink(v, os.path.join(d, out + at))
            status, _, err = run(fill(line, names) + (["--force"] if force else []), d)
            check(read(v) == b"a file of the user's\n" and status in (0, 2) and
                  (status == 0 or one_line_naming(err, out)) and (at or status == 2),
                  f"{line}: a link at {out}{at}: status {status}, victim "
                  f"{'kept' if read(v) == b'a file of the user' + b's' else 'checked'}, "
                  f"{err.strip()[-200:]!r}")
        # held by another process
        d = fresh_case(top, "held")
        fd = os.open(os.path.join(d, out + ".lock"), os.O_RDWR | os.O_CREAT, 0o666)
        fcntl.lockf(fd, fcntl.LOCK_EX)
        try:
            status, _, err = run(fill(line, names), d)
        finally:
            os.close(fd)
        check(status == 2 and "in use" in err and not os.path.exists(os.path.join(d, out)),
              f"{line}: {out} held by another process: status {status}, {err.strip()[-200:]!r}")
        # existing without --force
        d = fresh_case(top, "exists")
        with open(os.path.join(d, out), "w") as f:
            f.write("earlier\n")
        status, _, err = run(fill(line, names), d)
        check(status == 2 and read(os.path.join(d, out)) == b"earlier\n" and
              one_line_naming(err, out),
              f"{line}: {out} existing without --force: status {status}, {err.strip()[-200:]!r}")
        # a stray partial file: removed with a word, or refused; never silently
        d = fresh_case(top, "stray")
        with open(os.path.join(d, out + ".partial"), "w") as f:
            f.write("stray\n")
        status, _, err = run(fill(line, names), d)
        said = out + ".partial" in err
        check(said and ((status == 0 and "removed" in err) or
                        (status == 2 and read(os.path.join(d, out + ".partial")) == b"stray\n")),
              f"{line}: a stray {out}.partial: status {status}, {err.strip()[-200:]!r}")
        # a full disk (a file size limit): a whole file or none, with the reason
        d = fresh_case(top, "full")
        status, _, err = run(fill(line, names), d, preexec_fn=ignore_xfsz_and_limit(2048))
        left = [n for n in os.listdir(d) if n.startswith(out + ".partial") or n == out + ".lock"]
        check(status == 0 or (status in (1, 2) and not os.path.exists(os.path.join(d, out)) and
                              err.strip() and (checkpointed or not left) and
                              ("File too large" in err or kind not in STREAMED)),
              f"{line}: {out} on a full disk: status {status}, left {left}, "
              f"{err.strip()[-200:]!r}")
        # SIGTERM while it runs: OUT whole (status 0) or as it was
        if force:
            for delay in (0.02, 0.2):
                d = fresh_case(top, "term")
                with open(os.path.join(d, out), "w") as f:
                    f.write("earlier\n")
                p = subprocess.Popen([BINARY, *fill(line, names), "--force"], cwd=d,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
                time.sleep(delay)
                p.send_signal(signal.SIGTERM)
                try:
                    _, err = p.communicate(timeout=TIMEOUT)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.communicate()
                    check(False, f"{line}: SIGTERM after {delay} s: still running")
                    continue
                now = read(os.path.join(d, out))
                left = [n for n in os.listdir(d) if n == out + ".partial" or n == out + ".lock"]
                # A signal after the rename (the work done, the process ending) leaves the
                # new file whole: only a complete file is ever renamed into place, which a
                # reader confirms where the kind has one.
                whole = now not in (None, b"earlier\n") and readable(kind, d, out)
                check((p.returncode == 0 and whole) or
                      (p.returncode != 0 and (now == b"earlier\n" or whole) and
                       (checkpointed or not left)),
                      f"{line}: SIGTERM after {delay} s: status {p.returncode}, {out} "
                      f"{'as it was' if now == b'earlier' + bytes([10]) else 'changed'}, "
                      f"left {left}")
    # two outputs named as one file
    for i, a in enumerate(outs):
        for b in outs[i + 1:]:
            d = fresh_case(top, "twice")
            status, _, err = run(fill(line, {a: "same.out", b: "./same.out"}), d)
            check(status == 2 and "one file" in err and not os.path.exists(os.path.join(d, "same.out")),
                  f"{line}: outputs {a} and {b} named as one file: status {status}, "
                  f"{err.strip()[-200:]!r}")


def case_outdir(top, line, force):
    for role, kind in places(line):
        if role != "outdir":
            continue
        kind_dir = name_of(role, kind)
        d = fresh_case(top, "dir")
        status, _, err = run(fill(line, {}), d)
        if not check(status == 0, f"{line}: the report: status {status}, {err.strip()[-200:]!r}"):
            continue
        made = sorted(os.listdir(os.path.join(d, kind_dir)))
        for name in made:
            # a file of the user's at one of the report's names: kept without --force ...
            d = fresh_case(top, "dirfile")
            os.mkdir(os.path.join(d, kind_dir))
            mine = os.path.join(d, kind_dir, name)
            with open(mine, "w") as f:
                f.write("mine\n")
            status, _, err = run(fill(line, {}), d)
            check(status == 2 and read(mine) == b"mine\n" and one_line_naming(err, name),
                  f"{line}: {kind_dir}/{name} existing without --force: status {status}, "
                  f"{err.strip()[-200:]!r}")
            # ... and a link there is never written through, --force or not
            os.remove(mine)
            v = victim(d)
            os.symlink(v, mine)
            status, _, err = run(fill(line, {}) + (["--force"] if force else []), d)
            check(status == 2 and read(v) == b"a file of the user's\n" and
                  os.path.islink(mine),
                  f"{line}: a link at {kind_dir}/{name}: status {status}, "
                  f"{err.strip()[-200:]!r}")
        for what, make in (("a FIFO", os.mkfifo), ("a file", lambda p: open(p, "w").close())):
            d = fresh_case(top, "dirbad")
            make(os.path.join(d, kind_dir))
            status, _, err = run(fill(line, {}), d, timeout=20)
            check(status == 2 and one_line_naming(err, kind_dir),
                  f"{line}: {kind_dir} as {what}: status {status}, {err.strip()[-200:]!r}")


def case_dir(top, line):
    """An existing folder written into (work files): a FIFO or a file there is refused."""
    for role, kind in places(line):
        if role != "dir":
            continue
        for what, make in (("a FIFO", os.mkfifo), ("a file", lambda p: open(p, "w").close())):
            d = fresh_case(top, "workdir")
            os.rmdir(os.path.join(d, kind))
            make(os.path.join(d, kind))
            status, _, err = run(fill(line, {}), d, timeout=20)
            check(status == 2 and one_line_naming(err, kind),
                  f"{line}: {kind} as {what}: status {status}, {err.strip()[-200:]!r}")


def case_stdout(top, line):
    for what, reason, kw in (("full", "No space left on device",
                              {"stdout": open("/dev/full", "w")}),
                             ("closed", "Bad file descriptor",
                              {"stdout": subprocess.DEVNULL, "preexec_fn": lambda: os.close(1)})):
        d = fresh_case(top, "stdout")
        names = {}
        try:
            p = subprocess.run([BINARY, *fill(line, names)], cwd=d, stdin=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, timeout=TIMEOUT, **kw)
            status, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            status, err = None, ""
        check(status == 0 or (status == 1 and reason in err),
              f"{line}: standard output {what}: status {status}, {err.strip()[-200:]!r}")


# ---- the table's completeness ----

# The outputs written as one stream of text, whose writer knows why a write failed (an HDF5
# writer says only that it failed).
STREAMED = {"csv", "book", "weights", "c", "html"}
FILE_VALUES = {"FILE", "OUT", "DIR", "BOOK", "CONFIG", "RESULTS", "DATA", "TABLES", "C=FILE"}


def helps(names):
    """Each command's help, with its actions' (tables build, learn fit, ...)."""
    subs = {"tables": ["build", "info", "compare", "agree"], "learn": ["sample", "fit", "net-error"]}
    for name in names:
        text = ""
        for sub in [None] + subs.get(name, []):
            status, out, _ = run([name] + ([sub] if sub else []) + ["--help"], ".")
            text += out
        yield name, text


def check_complete(lines, names):
    """Every option of a command whose value is a file appears in one of its table lines."""
    for name, text in helps(names):
        mine = " ".join(l for c, l in lines if c == name).replace(" -o ", " -o --output ")
        usage = "\n".join(l for l in text.splitlines() if l.startswith(("usage:", "   ", "  -")))
        for option, value in re.findall(r"(--?[a-z][a-z-]*)[ =]([A-Z][A-Z=]*)\b", usage):
            # an output named by another word would slip past the check below
            check(option not in ("-o", "--output") or value in FILE_VALUES,
                  f"anywoli {name}: {option} {value}: name the file FILE, OUT or as "
                  f"FILE_VALUES does, so that this check sees it")
            if value in FILE_VALUES:
                check(re.search(re.escape(option) + r"[ =]", mine) is not None,
                      f"anywoli {name}: {option} {value} is not in the commands' table of "
                      f"file arguments (sim/cli/main.c)")


def main():
    lines, names = table()
    check(len(lines) >= 20, f"the commands' table lists {len(lines)} lines")
    check_complete(lines, names)
    with tempfile.TemporaryDirectory() as top:
        make_fixtures(top)
        for command, line in lines:
            d = fresh_case(top, "base")
            status, _, err = run(fill(line, {}), d)
            if not check(status == 0, f"{line}: with good files: status {status}, "
                                      f"{err.strip()[-300:]!r}"):
                continue
            force = takes_force(line)
            checkpointed = command in ("run", "tune", "merge")
            case_inputs(top, line, force)
            case_outputs(top, line, force, checkpointed)
            case_outdir(top, line, force)
            case_dir(top, line)
            case_stdout(top, line)
            print(f"checked: {line}")
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
