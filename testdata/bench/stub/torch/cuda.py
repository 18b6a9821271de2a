import os
import torch

OutOfMemoryError = torch.OutOfMemoryError
_MODE = torch.MODE


def is_available():
    return _MODE not in ("cpu", "nodevice")


def device_count():
    return 0 if not is_available() else 1


def set_device(i):
    pass


class _Props:
    name = "NVIDIA H200"
    major, minor = 9, 0
    total_memory = 150754820096
    uuid = "3f1c9a2e-7b6d-4e2a-9c1f-0a5b8d7e6c4f"
    pci_bus_id, pci_device_id, pci_domain_id = 0x19, 0, 0


def get_device_properties(i):
    return _Props()


def mem_get_info(i=None):
    return (147000000000, _Props.total_memory)


def get_arch_list():
    return ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]


def synchronize(dev=None):
    pass


def empty_cache():
    pass


class Event:
    def __init__(self, enable_timing=False):
        self.t = 0.0

    def record(self, stream=None):
        self.t = torch._clock_ms

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return end.t - self.t
