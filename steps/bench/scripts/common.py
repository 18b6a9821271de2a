"""gpuwiz benchmark: what both framework scripts share (Script puts it before each): the arguments,
the lines out, the first of them, the end on a failure."""
import argparse
import json
import os
import sys
import time


def emit(_type, /, **fields):
    fields = dict(type=_type, **fields)
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def fail(kind, message, code=3, **facts):
    emit("error", kind=kind, message=message, **facts)
    emit("done", ok=False)
    sys.exit(code)


def median(xs):
    xs = sorted(xs)
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2.0


parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=0)
parser.add_argument("--quick", action="store_true")
args = parser.parse_args()


def hello(framework):
    # The first line proves the interpreter runs before the (slow) framework import starts.
    emit("hello", pid=os.getpid(), python=sys.version.split()[0], framework=framework)
