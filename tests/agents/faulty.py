#!/usr/bin/env python3
"""faulty.py MODE_FILE: a program that plays (the first legal move) until its N-th move, then
fails as the file MODE_FILE says, for the tests of the external agent's faults
(tests/protocol_test.sh). The file holds `MODE N`: ok (never fails), crash (exits with status
3), hang (sleeps), illegal (answers a hole that is not legal), garbage (answers a word), flood
(writes a line without end). The mode is read from a file so that a test can mend the program
between a run and its --resume, the agent's spec (and so the run's fingerprint) unchanged."""
import sys
import time


def fail(mode):
    if mode == "crash":
        sys.exit(3)
    if mode == "hang":
        time.sleep(3600)
    if mode == "illegal":
        return "move 99"
    if mode == "garbage":
        return "banana"
    if mode == "flood":
        sys.stdout.write("x" * 100000)
        sys.stdout.flush()
        time.sleep(3600)
    return None


def main():
    mode, after = open(sys.argv[1]).read().split()
    moves = 0
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "anywoli":
            print("name faulty.py\nprotocol 1", flush=True)
        elif words and words[0] == "position":
            moves += 1
            answer = fail(mode) if moves > int(after) else None
            print(answer or "move %s" % words[words.index("moves") + 1], flush=True)
        elif words and words[0] == "quit":
            return


if __name__ == "__main__":
    main()
