"""A stand-in for torch, for testing gpuwiz's benchmark script on a machine without a GPU.

GPUWIZ_TORCH_STUB picks the machine it pretends to be:
  h200      a CUDA build on an H200 (capability 9.0); timings follow fixed throughputs below
  cpu       a CPU-only build (torch.version.cuda is None)
  nodevice  a CUDA build that sees no GPU
  noarch    the first kernel fails with "no kernel image is available"
  oom       allocations above 4096x4096 on the GPU raise OutOfMemoryError
  crash     the process dies during the first GPU matmul
  hang      the first GPU matmul never returns
  wrong     fp16 results are far from the float64 reference
Tensors hold no numbers: they carry a shape and dtype, and each GPU op advances a simulated clock
that torch.cuda.Event reads, so TFLOPS come out as GPU_TFLOPS.
"""
import os
import sys
import time

MODE = os.environ.get("GPUWIZ_TORCH_STUB", "h200")
GPU_TFLOPS = {"float32": 51.0, "float16": 700.0, "bfloat16": 690.0}
COPY_GBPS = 4000.0  # read plus write
CPU_TFLOPS = 1.0
REL_ERR = {"float32": 1e-6, "float16": 4e-4, "bfloat16": 3e-3, "float64": 1e-15}
if MODE == "wrong":
    REL_ERR["float16"] = 0.5

__version__ = "2.11.0+cpu" if MODE == "cpu" else "2.11.0+cu130"


class _Version:
    cuda = None if MODE == "cpu" else "13.0"


version = _Version()


class dtype:
    def __init__(self, name, size):
        self.name, self.size = name, size

    def __repr__(self):
        return "torch." + self.name


float32 = dtype("float32", 4)
float16 = dtype("float16", 2)
bfloat16 = dtype("bfloat16", 2)
float64 = dtype("float64", 8)


class device:
    def __init__(self, kind, index=None):
        if isinstance(kind, device):
            kind, index = kind.type, kind.index
        self.type, self.index = kind, index


def _dev(d):
    if d is None:
        return device("cpu")
    if isinstance(d, str):
        return device(d.split(":")[0])
    return d


_clock_ms = 0.0


def _advance(ms):
    global _clock_ms
    _clock_ms += ms


class Tensor:
    def __init__(self, shape, dt=float32, dev=None, err=0.0):
        self.shape, self.dtype, self.device, self.err = tuple(shape), dt, _dev(dev), err

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def element_size(self):
        return self.dtype.size

    def __mul__(self, other):
        return Tensor(self.shape, self.dtype, self.device)

    def __sub__(self, other):
        return Tensor(self.shape, float64, self.device, err=max(self.err, other.err))

    def __truediv__(self, other):
        return Tensor((), float64, self.device, err=self.err / (other.err or 1.0))

    def __matmul__(self, other):
        return matmul(self, other)

    def __float__(self):
        return float(self.err)

    def sum(self):
        return Tensor((), self.dtype, self.device, err=float(self.numel()) * 2)

    def item(self):
        return self.err

    def norm(self):
        # A reference result (err 0) has norm 1, so (got - want).norm() / want.norm() is got's error.
        return Tensor((), float64, self.device, err=self.err if self.err else 1.0)

    def to(self, dev=None, dt=None):
        dt = dt or self.dtype
        err = REL_ERR[dt.name] if _dev(dev).type == "cuda" else self.err
        return Tensor(self.shape, dt, dev if dev is not None else self.device, err=err)

    def copy_(self, src):
        if self.device.type == "cuda":
            _advance(src.numel() * src.element_size() * 2 / (COPY_GBPS * 1e9) * 1000)
        return self


class OutOfMemoryError(RuntimeError):
    pass


def _alloc(shape, dt, dev):
    dev = _dev(dev)
    if dev.type == "cuda" and MODE == "oom" and len(shape) == 2 and shape[0] > 4096:
        raise OutOfMemoryError("CUDA out of memory. Tried to allocate %d MiB" % (shape[0] * shape[1] * dt.size >> 20))
    return Tensor(shape, dt, dev)


def randn(*shape, device=None, dtype=None):
    return _alloc(shape, dtype or float32, device)


def empty(*shape, device=None, dtype=None):
    return _alloc(shape, dtype or float32, device)


def empty_like(t):
    return Tensor(t.shape, t.dtype, t.device)


def ones(*shape, device=None, dtype=None):
    if _dev(device).type == "cuda" and MODE == "noarch":
        raise RuntimeError("CUDA error: no kernel image is available for execution on the device")
    return Tensor(shape, dtype or float32, device)


def tensor(data, dtype=None):
    return Tensor((len(data),), dtype or float32)


_first_gpu_matmul = [True]


def matmul(a, b, out=None):
    n, k = a.shape[0], a.shape[1]
    m = b.shape[1]
    flops = 2.0 * n * k * m
    if a.device.type == "cuda":
        if _first_gpu_matmul[0] and a.shape[0] >= 1024:
            _first_gpu_matmul[0] = False
            if MODE == "crash":
                sys.stderr.write("Fatal Python error: Segmentation fault\n")
                sys.stderr.flush()
                os._exit(139)
            if MODE == "hang":
                time.sleep(3600)
        _advance(flops / (GPU_TFLOPS.get(a.dtype.name, 50.0) * 1e12) * 1000)
        return out or Tensor((n, m), a.dtype, a.device, err=REL_ERR[a.dtype.name])
    time.sleep(flops / (CPU_TFLOPS * 1e12))
    return Tensor((n, m), a.dtype, a.device)


from . import backends, cuda  # noqa: E402
