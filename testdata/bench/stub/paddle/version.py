"""paddle.version: cuda() is the CUDA the wheel was built with, the string 'False' for a CPU-only build."""
import paddle

full_version = paddle.__version__


def cuda():
    return paddle._CUDA


def cudnn():
    return "False" if paddle._CUDA == "False" else "9.5.1"
