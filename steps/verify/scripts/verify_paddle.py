# gpuwiz verify (paddle), after verify_common.py: facts about the installed build,
# paddle.utils.run_check() and one real GPU computation checked against the CPU. Prints one JSON
# line prefixed GPUWIZ-VERIFY; never raises.
import contextlib, io


def text(v):
    return "" if v is None or v is False or str(v) == "False" else str(v)


paddle = load("paddle")
try:
    out["version"] = str(paddle.__version__)
    out["cuda"] = text(paddle.version.cuda())
    try:
        out["cudnn"] = text(paddle.version.cudnn())
    except Exception as e:
        out["cudnn_error"] = err(e)
    out["compiled_with_cuda"] = bool(paddle.is_compiled_with_cuda())
    n = 0
    if out["compiled_with_cuda"]:
        try:
            n = paddle.device.cuda.device_count()
        except Exception as e:
            out["cuda_error"] = err(e)
    out["cuda_available"] = n > 0
    devices(lambda: n, lambda: paddle.device.cuda)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            paddle.utils.run_check()
        out["run_check"] = {"ok": True, "output": buf.getvalue()[-2000:]}
    except BaseException as e:
        out["run_check"] = {"ok": False, "output": buf.getvalue()[-2000:], "error": err(e)}
    if out["devices"]:

        def product():
            paddle.set_device("cpu")
            paddle.seed(0)
            a, b = paddle.randn([N, N]), paddle.randn([N, N])
            ref = paddle.matmul(a.astype("float64"), b.astype("float64"))
            paddle.set_device("gpu:0")
            ga = paddle.to_tensor(a, place=paddle.CUDAPlace(0))
            gb = paddle.to_tensor(b, place=paddle.CUDAPlace(0))
            g = paddle.matmul(ga, gb)
            paddle.device.cuda.synchronize()
            return g.cpu().astype("float64"), ref

        matmul(product)
except BaseException:
    out["error"] = traceback.format_exc(limit=8)
emit()
