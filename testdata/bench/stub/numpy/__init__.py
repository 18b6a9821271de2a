"""A stand-in for the few numpy calls bench_paddle.py makes, for the stub paddle next to it.

Real Paddle depends on numpy, and the script uses it for its inputs and its float64 reference; the
machines these tests run on may have no numpy, so this one (on PYTHONPATH before any real one, in
the test's child process only) keeps the tests the same everywhere. Like the stub tensors, arrays
hold no numbers: each carries a shape, a dtype and its relative error against the exact product,
so `norm(got - want) / norm(want)` gives back the error the stub paddle put on `got`.
"""
import random as _random

float16, float32, float64, uint16 = "float16", "float32", "float64", "uint16"


def _name(dt):
    return getattr(dt, "__name__", dt)


class ndarray:
    def __init__(self, shape, dtype=float64, err=0.0, diff=False):
        self.shape, self.dtype, self.err, self.diff = tuple(shape), _name(dtype), err, diff

    def astype(self, dtype):
        return ndarray(self.shape, dtype, self.err)

    def __matmul__(self, other):
        if self.shape[1] != other.shape[0]:
            raise ValueError("matmul: shapes %s and %s are not aligned" % (self.shape, other.shape))
        return ndarray((self.shape[0], other.shape[1]), float64, max(self.err, other.err))

    def __sub__(self, other):
        if self.shape != other.shape:
            raise ValueError("operands could not be broadcast together with shapes %s %s" % (self.shape, other.shape))
        return ndarray(self.shape, float64, max(self.err, other.err), diff=True)


class _Random:
    @staticmethod
    def standard_normal(size=None):
        if size is None:
            return _random.gauss(0.0, 1.0)
        return ndarray(size if isinstance(size, tuple) else (size,), float64)


class _Linalg:
    @staticmethod
    def norm(x):
        # A difference's norm is its error; anything else (the reference) has norm 1.
        return float(x.err) if x.diff else 1.0


random = _Random()
linalg = _Linalg()
