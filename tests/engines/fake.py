#!/usr/bin/env python3
"""A faulty Hub engine for the match tests: it shakes hands, then misbehaves at its first
search, as told by its one argument: crash, hang, illegal, garbage, or slow (answers
after half a second, past a short clock)."""

import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "crash"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    command = words[0]
    if command == "hub":
        say("id name=fake-" + mode + " version=1")
        say("param name=hash value=16 type=int min=1 max=1024")
        say("wait")
    elif command == "init":
        say("ready")
    elif command == "go":
        if mode == "crash":
            sys.exit(3)
        elif mode == "hang":
            time.sleep(3600)
        elif mode == "slow":
            time.sleep(0.5)
            say("done move=1-5")
        elif mode == "illegal":
            say("info depth=1 score=0.00")
            say("done move=1-5")
        else:
            say("%%% this is not the protocol %%%")
    elif command == "quit":
        break
