# gpuwiz test stub: a tiny pure-Python tensor (1-D and 2-D float lists), enough for a verify
# script's small matmul on the GPU against the CPU. Configured by the package that embeds it.
import math
import random as _random

CONFIG = {}  # set by the package: cuda_ok, no_cuda_message, arch_ok, wrong_result, gpu_name


class DeviceError(RuntimeError):
    pass


def _check_device(device):
    kind = str(device).split(":")[0]
    if kind in ("cpu",):
        return
    if not CONFIG.get("cuda_ok"):
        raise CONFIG.get("no_cuda_error", RuntimeError)(CONFIG.get("no_cuda_message", "no CUDA"))


def _check_kernel(device):
    if str(device).split(":")[0] != "cpu" and not CONFIG.get("arch_ok", True):
        raise RuntimeError("CUDA error: no kernel image is available for execution on the device")


class Tensor(object):
    def __init__(self, data, shape, device="cpu", dtype="float32"):
        _check_device(device)
        self._data = list(data)
        self.shape = tuple(shape)
        self.device = device
        self.dtype = dtype

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def _like(self, data, shape=None, device=None, dtype=None):
        return self.__class__(data, self.shape if shape is None else shape,
                              self.device if device is None else device, dtype or self.dtype)

    def to(self, device=None, dtype=None, **_kw):
        if device is not None and not isinstance(device, str) and hasattr(device, "type"):
            device = str(device)
        if device in ("float64", "double") or dtype in ("float64", "double"):
            return self._like(self._data, dtype="float64", device=None if device in ("float64", "double") else device)
        return self._like(self._data, device=device or self.device)

    def cpu(self):
        return self._like(self._data, device="cpu")

    def cuda(self, device=None):
        return self._like(self._data, device="cuda" if device is None else "cuda:%s" % device)

    def double(self):
        return self._like(self._data, dtype="float64")

    def float(self):
        return self._like(self._data, dtype="float32")

    def astype(self, dtype):
        return self._like(self._data, dtype=str(dtype))

    def _zip(self, other, op):
        if isinstance(other, Tensor):
            if other.shape != self.shape:
                raise RuntimeError("shape mismatch: %s vs %s" % (self.shape, other.shape))
            if str(other.device) != str(self.device):
                raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, %s and %s!" % (self.device, other.device))
            return self._like([op(a, b) for a, b in zip(self._data, other._data)])
        return self._like([op(a, other) for a in self._data])

    def __add__(self, o):
        return self._zip(o, lambda a, b: a + b)

    def __sub__(self, o):
        return self._zip(o, lambda a, b: a - b)

    def __mul__(self, o):
        return self._zip(o, lambda a, b: a * b)

    __radd__ = __add__
    __rmul__ = __mul__

    def __truediv__(self, o):
        return self._zip(o, lambda a, b: a / b)

    def __neg__(self):
        return self._like([-a for a in self._data])

    def abs(self):
        return self._like([abs(a) for a in self._data])

    def max(self):
        return self._like([max(self._data)], shape=())

    def sum(self):
        return self._like([math.fsum(self._data)], shape=())

    def mean(self):
        return self._like([math.fsum(self._data) / len(self._data)], shape=())

    def item(self):
        if len(self._data) != 1:
            raise RuntimeError("a Tensor with %d elements cannot be converted to Scalar" % len(self._data))
        return float(self._data[0])

    def tolist(self):
        if len(self.shape) == 2:
            n = self.shape[1]
            return [self._data[i * n:(i + 1) * n] for i in range(self.shape[0])]
        return list(self._data)

    def numpy(self):
        return self.tolist()

    def __matmul__(self, o):
        if len(self.shape) != 2 or len(o.shape) != 2 or self.shape[1] != o.shape[0]:
            raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (%s and %s)" % (self.shape, o.shape))
        if str(o.device) != str(self.device):
            raise RuntimeError("Expected all tensors to be on the same device, but found at least two devices, %s and %s!" % (self.device, o.device))
        _check_kernel(self.device)
        n, k, m = self.shape[0], self.shape[1], o.shape[1]
        a, b = self._data, o._data
        cols = [b[j::m] for j in range(m)]
        out = []
        for i in range(n):
            row = a[i * k:(i + 1) * k]
            out.extend(math.fsum(x * y for x, y in zip(row, col)) for col in cols)
        if CONFIG.get("wrong_result") and str(self.device) != "cpu":
            out = [x + 0.5 for x in out]  # a broken GPU result the verify must catch
        return self._like(out, shape=(n, m))

    def __repr__(self):
        return "tensor(%r, device=%r)" % (self.tolist(), str(self.device))


class Generator(object):
    def __init__(self, device="cpu"):
        self._rng = _random.Random(0)
        self.device = device

    def manual_seed(self, seed):
        self._rng.seed(seed)
        return self


_default = Generator()


def manual_seed(seed):
    _default.manual_seed(seed)
    return _default


def _shape(args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return tuple(args[0])
    return tuple(args)


def randn(*size, **kw):
    shape = _shape(size)
    gen = kw.get("generator") or _default
    device = kw.get("device") or kw.get("place") or "cpu"
    device = str(device)
    n = 1
    for s in shape:
        n *= s
    return Tensor([gen._rng.gauss(0.0, 1.0) for _ in range(n)], shape, device, kw.get("dtype") or "float32")


def ones(*size, **kw):
    shape = _shape(size)
    n = 1
    for s in shape:
        n *= s
    return Tensor([1.0] * n, shape, str(kw.get("device") or "cpu"))


def zeros(*size, **kw):
    t = ones(*size, **kw)
    return t._like([0.0] * len(t._data))
