"""paddle.device.cuda: device_count, get_device_properties, synchronize, empty_cache."""
import paddle


class _gpuDeviceProperties:
    name = "NVIDIA H200"
    major, minor = 9, 0
    total_memory = 150754820096
    multi_processor_count = 132

    def __repr__(self):
        return "_gpuDeviceProperties(name=%r, major=%d, minor=%d, total_memory=%dMB, multi_processor_count=%d)" % (
            self.name, self.major, self.minor, self.total_memory >> 20, self.multi_processor_count)


def device_count():
    if not paddle.is_compiled_with_cuda() or paddle.MODE == "nodevice":
        return 0
    return 1


def _device_id(device, api):
    if not paddle.is_compiled_with_cuda():
        raise ValueError("The API %s is not supported in CPU-only PaddlePaddle. Please reinstall PaddlePaddle "
                         "with GPU support to call this API." % api)
    if device is None:
        return paddle._current_gpu()
    if isinstance(device, int):
        device_id = device
    elif isinstance(device, str) and device.startswith("gpu:"):
        device_id = int(device[4:])
    else:
        raise ValueError("The device type %r is not expected. Because %s only support int, str or "
                         "paddle.CUDAPlace. Please input appropriate device again!" % (device, api))
    assert device_id < device_count(), "The device id %d exceeds gpu card number %d" % (device_id, device_count())
    return device_id


def get_device_properties(device=None):
    _device_id(device, "paddle.device.cuda.get_device_properties")
    return _gpuDeviceProperties()


def synchronize(device=None):
    paddle._sync()


def empty_cache():
    pass
