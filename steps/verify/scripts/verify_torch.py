# gpuwiz verify (torch), after verify_common.py: facts about the installed build and one real GPU
# computation checked against the CPU. Prints one JSON line prefixed GPUWIZ-VERIFY; never raises;
# timing-independent.
import warnings

torch = load("torch")
try:
    out["version"] = str(torch.__version__)
    out["cuda"] = str(getattr(torch.version, "cuda", None) or "")
    out["compiled_with_cuda"] = bool(out["cuda"])
    try:
        v = torch.backends.cudnn.version()
        out["cudnn"] = str(v) if v else ""
    except Exception as e:
        out["cudnn_error"] = err(e)
    try:
        out["arch_list"] = [str(a) for a in torch.cuda.get_arch_list()]
    except Exception as e:
        out["arch_error"] = err(e)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out["cuda_available"] = bool(torch.cuda.is_available())
        except Exception as e:
            out["cuda_available"] = False
            out["cuda_error"] = err(e)
    out["cuda_warnings"] = [str(w.message) for w in caught]
    if out["cuda_available"]:
        devices(torch.cuda.device_count, lambda: torch.cuda)
    if out["devices"]:

        def product():
            torch.manual_seed(0)
            a, b = torch.randn(N, N), torch.randn(N, N)
            ref = a.double() @ b.double()
            g = a.cuda() @ b.cuda()
            torch.cuda.synchronize()
            return g.cpu().double(), ref

        matmul(product)
except BaseException:
    out["error"] = traceback.format_exc(limit=8)
emit()
