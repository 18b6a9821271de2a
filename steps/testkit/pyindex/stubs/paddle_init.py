# gpuwiz test stub of paddle: the facts a verify script reads and a tiny tensor subset. Never a real paddle.
import json as _json
import sys as _sys
import types as _types

from . import _tensor
from ._tensor import Tensor, randn, ones, zeros

_SPEC = _json.loads(r'''@SPEC@''')

__version__ = _SPEC["version"]
_cuda_build = bool(_SPEC["cuda"])
_capability = tuple(int(x) for x in (_SPEC["capability"] or "0.0").split("."))
_tensor.CONFIG.update(
    cuda_ok=_cuda_build and _SPEC["cuda_available"],
    no_cuda_error=ValueError if not _cuda_build else RuntimeError,
    no_cuda_message="The device should not be 'gpu', since PaddlePaddle is not compiled with CUDA" if not _cuda_build
    else "(PreconditionNotMet) Cannot load cudart shared library or no CUDA device found",
    arch_ok=(not _SPEC["arch_list"]) or ("sm_%d%d" % _capability) in _SPEC["arch_list"],
    wrong_result=_SPEC["wrong_result"],
)
_current = ["gpu:0" if _cuda_build and _SPEC["cuda_available"] else "cpu"]


def _place_str(p):
    s = str(p)
    return "cpu" if s.startswith("cpu") or s.startswith("Place(cpu") else "cuda:" + (s.split(":")[-1].strip(")") if ":" in s else "0")


class CPUPlace(object):
    def __str__(self):
        return "cpu"


class CUDAPlace(object):
    def __init__(self, i=0):
        self.i = i

    def __str__(self):
        return "cuda:%d" % self.i


def _cuda_fn():
    return _SPEC["cuda"] if _cuda_build else "False"


def _cudnn_fn():
    v = _SPEC["cudnn"]
    if not (_cuda_build and v):
        return "False"
    return "%d.%d.%d" % (v // 10000, v % 10000 // 100, v % 100)


version = _types.ModuleType("paddle.version")
version.full_version = __version__
version.cuda = _cuda_fn
version.cudnn = _cudnn_fn
_sys.modules["paddle.version"] = version


def is_compiled_with_cuda():
    return _cuda_build


def _device_count():
    return _SPEC["device_count"] if _cuda_build and _SPEC["cuda_available"] else 0


def _get_device_name(i=0):
    if _device_count() == 0:
        raise ValueError("no GPU device is available")
    return _SPEC["device_name"]


def _get_device_capability(i=0):
    if _device_count() == 0:
        raise ValueError("no GPU device is available")
    return _capability


def set_device(d):
    d = str(d)
    if d.startswith("gpu"):
        if not _cuda_build:
            raise ValueError("The device should not be 'gpu', since PaddlePaddle is not compiled with CUDA")
        if _device_count() == 0:
            raise RuntimeError("(PreconditionNotMet) no CUDA device found")
    _current[0] = d
    return d


def get_device():
    return _current[0]


device = _types.ModuleType("paddle.device")
device.set_device = set_device
device.get_device = get_device
device.is_compiled_with_cuda = is_compiled_with_cuda
device.cuda = _types.SimpleNamespace(device_count=_device_count, get_device_name=_get_device_name,
                                     get_device_capability=_get_device_capability, synchronize=lambda d=None: None)
_sys.modules["paddle.device"] = device


def _default_device():
    return "cuda:" + _current[0].split(":")[-1] if _current[0].startswith("gpu") else "cpu"


def seed(s):
    _tensor.manual_seed(s)


def randn(shape, dtype=None, place=None):
    return _tensor.randn(*shape, device=_place_str(place) if place is not None else _default_device(), dtype=dtype)


def to_tensor(data, dtype=None, place=None):
    dev = _place_str(place) if place is not None else _default_device()
    if isinstance(data, Tensor):
        return data._like(data._data, device=dev)
    rows = data if data and isinstance(data[0], (list, tuple)) else [data]
    flat = [float(x) for r in rows for x in r]
    shape = (len(rows), len(rows[0])) if rows is not data else (len(flat),)
    return Tensor(flat, shape, dev, dtype or "float32")


def matmul(a, b):
    return a @ b


def _run_check():
    print("Running verify PaddlePaddle program ... ")
    if _cuda_build and _device_count() > 0:
        x = _tensor.randn(4, 4, device="cuda:0")
        x @ x
        print("PaddlePaddle works well on %d GPU." % _device_count())
    else:
        print("PaddlePaddle works well on 1 CPU.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.")


utils = _types.ModuleType("paddle.utils")
utils.run_check = _run_check
_sys.modules["paddle.utils"] = utils
