"""paddle.cuda, the torch-like namespace of Paddle 3.x (2025): here only mem_get_info, which wraps
cudaMemGetInfo. Paddle 2.x has no paddle.cuda, so the "paddle26" mode cannot import it."""
import paddle

if paddle.MODE == "paddle26":
    raise ModuleNotFoundError("No module named 'paddle.cuda'", name="paddle.cuda")

FREE_BYTES = 147000000000


def mem_get_info(device=None):
    """(free, total) bytes of the GPU; device is 'gpu:N' or None (the current device)."""
    if device is None:
        device = paddle.get_device()
    if not isinstance(device, str) or not device.startswith("gpu:"):
        raise ValueError("Expected a cuda device, but got: %s" % (device,))
    return FREE_BYTES, paddle.device.cuda._gpuDeviceProperties.total_memory
