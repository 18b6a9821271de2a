# gpuwiz test stub of torch: the facts a verify script reads and a tiny tensor subset. Never a real torch.
import json as _json
import types as _types

from . import _tensor
from ._tensor import Tensor, Generator, manual_seed, randn, ones, zeros

_SPEC = _json.loads(r'''@SPEC@''')

__version__ = _SPEC["version"]
float32, float64, double = "float32", "float64", "float64"

_cuda_build = _SPEC["cuda"] or None
_capability = tuple(int(x) for x in (_SPEC["capability"] or "0.0").split("."))
_arch_ok = ("sm_%d%d" % _capability) in _SPEC["arch_list"]
_tensor.CONFIG.update(
    cuda_ok=bool(_cuda_build) and _SPEC["cuda_available"],
    no_cuda_error=AssertionError if not _cuda_build else RuntimeError,
    no_cuda_message="Torch not compiled with CUDA enabled" if not _cuda_build else "No CUDA GPUs are available",
    arch_ok=_arch_ok,
    wrong_result=_SPEC["wrong_result"],
)


class device(object):
    def __init__(self, type, index=None):
        if ":" in str(type):
            type, index = str(type).split(":", 1)
            index = int(index)
        self.type, self.index = str(type), index

    def __str__(self):
        return self.type if self.index is None else "%s:%d" % (self.type, self.index)

    __repr__ = __str__


def allclose(a, b, rtol=1e-05, atol=1e-08):
    return all(abs(x - y) <= atol + rtol * abs(y) for x, y in zip(a._data, b._data))


def matmul(a, b):
    return a @ b


version = _types.SimpleNamespace(cuda=_cuda_build, __version__=__version__)


def _cudnn_version():
    return _SPEC["cudnn"] or None


backends = _types.SimpleNamespace(
    cudnn=_types.SimpleNamespace(version=_cudnn_version, is_available=lambda: bool(_SPEC["cudnn"]) and bool(_cuda_build), enabled=True),
    cuda=_types.SimpleNamespace(matmul=_types.SimpleNamespace(allow_tf32=False)),
)


class _Props(object):
    def __init__(self, i):
        self.name = _SPEC["device_name"]
        self.major, self.minor = _capability
        self.total_memory = 80 * 2**30
        self.multi_processor_count = 132


def _need_device(i=0):
    if not _cuda_build:
        raise AssertionError("Torch not compiled with CUDA enabled")
    if not _SPEC["cuda_available"]:
        raise RuntimeError("No CUDA GPUs are available")
    if isinstance(i, device):
        i = i.index or 0
    if i is None:
        i = 0
    if i < 0 or i >= _SPEC["device_count"]:
        raise RuntimeError("CUDA error: invalid device ordinal")
    return i


def _is_available():
    return bool(_cuda_build) and _SPEC["cuda_available"] and _SPEC["device_count"] > 0


def _device_count():
    return _SPEC["device_count"] if _is_available() else 0


def _get_device_name(i=None):
    _need_device(i)
    return _SPEC["device_name"]


def _get_device_capability(i=None):
    _need_device(i)
    return _capability


def _get_arch_list():
    return list(_SPEC["arch_list"]) if _cuda_build else []


def _synchronize(d=None):
    _need_device(d)


def _set_device(d):
    _need_device(d)


def _get_device_properties(i=0):
    return _Props(_need_device(i))


def _mem_get_info(i=0):
    _need_device(i)
    return (79 * 2**30, 80 * 2**30)


cuda = _types.SimpleNamespace(
    is_available=_is_available,
    device_count=_device_count,
    get_device_name=_get_device_name,
    get_device_capability=_get_device_capability,
    get_arch_list=_get_arch_list,
    synchronize=_synchronize,
    set_device=_set_device,
    get_device_properties=_get_device_properties,
    mem_get_info=_mem_get_info,
    current_device=lambda: _need_device(0),
    is_initialized=lambda: _is_available(),
)
