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
        try:
            for i in range(torch.cuda.device_count()):
                cap = torch.cuda.get_device_capability(i)
                out["devices"].append({"name": str(torch.cuda.get_device_name(i)), "capability": "%d.%d" % (cap[0], cap[1])})
        except Exception as e:
            out["device_error"] = err(e)
    if out["devices"]:
        m = {"n": N}
        try:
            torch.manual_seed(0)
            a, b = torch.randn(N, N), torch.randn(N, N)
            ref = a.double() @ b.double()
            g = a.cuda() @ b.cuda()
            torch.cuda.synchronize()
            diff = (g.cpu().double() - ref).abs().max().item()
            scale = ref.abs().max().item() or 1.0
            m["rel_error"] = diff / scale
        except Exception as e:
            m["error"] = err(e)
        out["matmul"] = m
except BaseException:
    out["error"] = traceback.format_exc(limit=8)
emit()
