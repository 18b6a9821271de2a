"""paddle.device: set_device and get_device, and the cuda submodule."""
import paddle
from paddle import set_device, get_device  # noqa: F401  (paddle.set_device is paddle.device.set_device)

from . import cuda  # noqa: E402,F401


def is_compiled_with_cuda():
    return paddle.is_compiled_with_cuda()
