"""gpuwiz benchmark: what both framework scripts share (Script puts it before each)."""
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
