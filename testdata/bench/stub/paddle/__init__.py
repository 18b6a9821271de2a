"""A stand-in for PaddlePaddle, for testing gpuwiz's benchmark script on a machine without a GPU.

It has exactly the API bench_paddle.py uses, with Paddle's names and shapes: paddle.is_compiled_with_cuda,
paddle.version.cuda() (a string, 'False' for a CPU-only build), paddle.device.cuda.device_count /
get_device_properties / synchronize / empty_cache, paddle.cuda.mem_get_info (Paddle 3.x only),
paddle.set_device / get_device, paddle.get_flags, paddle.ones / randn / to_tensor / empty_like,
paddle.matmul, paddle.assign(x, output=), Tensor.astype / numpy / sum, float(tensor).

GPUWIZ_PADDLE_STUB picks the machine it pretends to be:
  h200      paddlepaddle-gpu 3.2.0 (CUDA 12.6) on an H200 (capability 9.0), with paddle.cuda.mem_get_info
  paddle26  paddlepaddle-gpu 2.6.2 (CUDA 12.0) on the same card: no paddle.cuda, so no free-memory query
  cpu       a CPU-only build (paddlepaddle): is_compiled_with_cuda() is False
  nodevice  a CUDA build that sees no GPU (device_count() is 0)
  noarch    the first GPU kernel fails with CUDA error 209, "no kernel image is available"
  oom       GPU allocations of more than 4096 rows raise MemoryError, as Paddle's allocator does
  wrong     fp16 results are far from the float64 reference

Tensors hold no numbers: they carry a shape, a dtype, a place and their relative error. Time is
simulated so the numbers come out exact: GPU ops queue work on a simulated GPU (GPU_TFLOPS,
COPY_GBPS) that runs them back to back, CPU matmuls take CPU_TFLOPS, issuing an op costs the host
LAUNCH_S, and time.perf_counter (the only clock bench_paddle.py reads) is replaced by this simulated
host clock, which a synchronize (or .numpy(), float()) moves to when the GPU is done, as waiting
would. Nothing sleeps, and the TFLOPS the script computes are the table's to within LAUNCH_S.
"""
import os
import time

MODE = os.environ.get("GPUWIZ_PADDLE_STUB", "h200")
_CUDA = {"cpu": "False", "paddle26": "12.0"}.get(MODE, "12.6")
__version__ = "2.6.2" if MODE == "paddle26" else "3.2.0"

# FLAGS_allow_tf32_cublas is on by default in Paddle, so fp32 matmuls run on the TF32 tensor cores.
_FLAGS = {"FLAGS_allow_tf32_cublas": True, "FLAGS_allocator_strategy": "auto_growth"}
GPU_TFLOPS = {"float32": 380.0, "float16": 700.0, "bfloat16": 690.0}
COPY_GBPS = 4000.0  # read plus write
CPU_TFLOPS = 1.0
REL_ERR = {"float32": 3e-4, "float16": 4e-4, "bfloat16": 3e-3, "float64": 1e-15}
if MODE == "wrong":
    REL_ERR["float16"] = 0.5
_NBYTES = {"float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "uint16": 2}

# --- the simulated clock ---
# The host runs on simulated time too, so timings do not depend on how busy the test machine is:
# each op costs the host LAUNCH_S to issue, and the GPU runs what it was given back to back.
LAUNCH_S = 1e-6
_host = time.perf_counter()  # the simulated host clock, in seconds
_gpu_done = _host  # simulated time at which the GPU finishes the work queued so far


def _now():
    return _host


def _gpu_work(seconds):
    global _host, _gpu_done
    _host += LAUNCH_S
    _gpu_done = max(_gpu_done, _host) + seconds


def _cpu_work(seconds):
    global _host
    _host += LAUNCH_S + seconds


def _sync():
    global _host
    _host = max(_host, _gpu_done)


time.perf_counter = _now

# --- devices ---
_place = "gpu:0" if MODE not in ("cpu", "nodevice") else "cpu"


def is_compiled_with_cuda():
    return MODE != "cpu"


def set_device(device):
    global _place
    device = device.lower()
    if device == "gpu":
        device = "gpu:0"
    if device.startswith("gpu:"):
        if not is_compiled_with_cuda():
            raise ValueError("The device should not be %s, since PaddlePaddle is not compiled with CUDA" % device)
        if int(device[4:]) >= device_module().cuda.device_count():
            raise ValueError("The device id %s exceeds gpu card number %d" % (device[4:], device_module().cuda.device_count()))
    elif device != "cpu":
        raise ValueError("The device must be a string which is like 'cpu', 'gpu', 'gpu:x', 'xpu', 'xpu:x'")
    _place = device
    return device


def get_device():
    return _place


def _current_gpu():
    return int(_place[4:]) if _place.startswith("gpu:") else 0


def device_module():
    from . import device
    return device


def get_flags(flags):
    if isinstance(flags, str):
        flags = [flags]
    out = {}
    for f in flags:
        if f not in _FLAGS:
            raise ValueError("Flag %s cannot get its value through this function." % f)
        out[f] = _FLAGS[f]
    return out


# --- errors, worded as Paddle's C++ side words them ---
def _summary(kind, text, where):
    return ("\n\n----------------------\nError Message Summary:\n----------------------\n"
            "%s: %s (at %s)\n" % (kind, text, where))


def _oom(nbytes):
    return MemoryError(_summary(
        "ResourceExhaustedError", "\n\nOut of memory error on GPU 0. Cannot allocate %.6fMB memory on GPU 0, "
        "139.000000GB memory has been allocated and available memory is only 800.000000MB.\n\n"
        "Please check whether there is any other process using GPU 0.\n"
        "1. If yes, please stop them, or start PaddlePaddle on another GPU.\n"
        "2. If no, please decrease the batch size of your model. \n" % (nbytes / 2.0**20),
        "/paddle/paddle/phi/core/memory/allocation/cuda_allocator.cc:86"))


def _no_kernel_image():
    return OSError(
        "\n\n--------------------------------------\nC++ Traceback (most recent call last):\n"
        "--------------------------------------\n0   paddle::experimental::full(...)\n"
        "1   phi::FullKernel<float, phi::GPUContext>(...)\n" + _summary(
            "ExternalError", "CUDA error(209), no kernel image is available for execution on the device. \n"
            "  [Hint: 'cudaErrorNoKernelImageForDevice'. This indicates that there is no kernel image available "
            "that is suitable for the device.]", "/paddle/paddle/phi/backends/gpu/cuda/cuda_info.cc:262"))


# --- tensors ---
class Tensor:
    def __init__(self, shape, dtype="float32", place=None, err=0.0, value=None):
        self.shape, self.dtype, self.place, self.err, self.value = list(shape), dtype, place or _place, err, value

    def _gpu(self):
        return self.place.startswith("gpu")

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def astype(self, dtype):
        return Tensor(self.shape, dtype, self.place, self.err, self.value)

    cast = astype

    def __mul__(self, scalar):
        return Tensor(self.shape, self.dtype, self.place, self.err, None if self.value is None else self.value * scalar)

    def sum(self):
        return Tensor([], self.dtype, self.place, self.err, None if self.value is None else self.value * self.numel())

    def __float__(self):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars, got shape %s" % self.shape)
        if self._gpu():
            _sync()
        return float(self.value or 0.0)

    def numpy(self):
        import numpy
        if self._gpu():
            _sync()
        if self.dtype == "bfloat16":  # Paddle hands bfloat16 out as its raw bits
            return numpy.ndarray(self.shape, numpy.uint16, err=1e3)
        return numpy.ndarray(self.shape, self.dtype, self.err)


def _alloc(shape, dtype):
    shape = list(shape)
    if _place.startswith("gpu") and MODE == "oom" and len(shape) == 2 and shape[0] > 4096:
        raise _oom(shape[0] * shape[1] * _NBYTES[dtype])
    return Tensor(shape, dtype)


def ones(shape, dtype=None, name=None):
    if _place.startswith("gpu") and MODE == "noarch":
        raise _no_kernel_image()
    t = _alloc(shape, dtype or "float32")
    t.value = 1.0
    return t


def randn(shape, dtype=None, name=None):
    return _alloc(shape, dtype or "float32")


def empty_like(x, dtype=None, name=None):
    return _alloc(x.shape, dtype or x.dtype)


def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    return Tensor(data.shape, dtype or data.dtype, place, getattr(data, "err", 0.0))


def assign(x, output=None):
    if output is None:
        output = empty_like(x)
    elif output.shape != x.shape or output.dtype != x.dtype:
        raise ValueError("assign: output has shape %s %s, x has %s %s" % (output.shape, output.dtype, x.shape, x.dtype))
    if x._gpu():
        _gpu_work(x.numel() * _NBYTES[x.dtype] * 2 / (COPY_GBPS * 1e9))
    return output


def matmul(x, y, transpose_x=False, transpose_y=False, name=None):
    if x.dtype != y.dtype:
        raise ValueError("(InvalidArgument) The type of data we are trying to retrieve (%s) does not match the "
                         "type of data (%s) currently contained in the container." % (y.dtype, x.dtype))
    if x.place != y.place:
        raise ValueError("(InvalidArgument) Tensors on %s and %s" % (x.place, y.place))
    n, k = x.shape
    k2, m = y.shape
    if k != k2:
        raise ValueError("(InvalidArgument) Input(Y) has error dim: %d != %d" % (k, k2))
    flops = 2.0 * n * k * m
    if x._gpu():
        out = _alloc([n, m], x.dtype)
        _gpu_work(flops / (GPU_TFLOPS[x.dtype] * 1e12))
    else:
        out = Tensor([n, m], x.dtype, x.place)
        _cpu_work(flops / (CPU_TFLOPS * 1e12))
    out.err = REL_ERR[x.dtype]
    return out


from . import version, device  # noqa: E402,F401
