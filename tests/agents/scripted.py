#!/usr/bin/env python3
"""scripted.py MODE [LOG]: a program that plays the first legal move and misbehaves as MODE
says, for the tests of the external agent's processes, faults and strictness
(tests/external_test.sh). LOG, when given, gets a line at each start. Modes:
ok (never misbehaves), exit4 (exits with status 4 at its first position), kill9 (kills itself
with signal 9 there), close (closes its standard output there and sleeps), nul (answers
`move M<NUL>junk`), twice (answers `move M nodes 1 nodes 2`), ahead (writes its answer twice:
the second one ahead of the next question), badoption (declares `option depth 3 junk`),
version2 (speaks protocol 2), options (declares option depth and takes set lines), think
(sleeps at its first position, as a long search would)."""
import os
import signal
import sys
import time


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main():
    mode = sys.argv[1]
    if len(sys.argv) > 2:
        with open(sys.argv[2], "a") as log:
            log.write("start\n")
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "anywoli":
            say("name scripted")
            if mode == "badoption":
                say("option depth 3 junk")
            if mode == "options":
                say("option depth 3")
            say("protocol 2" if mode == "version2" else "protocol 1")
        elif words[0] == "position":
            move = words[words.index("moves") + 1]
            if mode == "exit4":
                sys.exit(4)
            if mode == "kill9":
                os.kill(os.getpid(), signal.SIGKILL)
            if mode == "think":
                time.sleep(60)
            if mode == "close":
                os.close(1)
                time.sleep(60)
            if mode == "nul":
                say("move %s\0junk" % move)
            elif mode == "twice":
                say("move %s nodes 1 nodes 2" % move)
            elif mode == "ahead":
                say("move %s\nmove %s" % (move, move))
            else:
                say("move %s" % move)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
