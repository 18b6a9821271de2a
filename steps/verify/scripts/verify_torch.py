# gpuwiz verify (torch): facts about the installed build and one real GPU computation checked
# against the CPU. Prints one JSON line prefixed GPUWIZ-VERIFY; never raises; timing-independent.
import json, sys, traceback, warnings

N = int(sys.argv[1]) if len(sys.argv) > 1 else 256
out = {"framework": "torch", "imported": False, "devices": []}


def err(e):
    return "%s: %s" % (type(e).__name__, e)


def emit():
    sys.stdout.write("GPUWIZ-VERIFY " + json.dumps(out) + "\n")
    sys.stdout.flush()


try:
    import torch
except BaseException:
    out["import_error"] = traceback.format_exc(limit=8)
    emit()
    sys.exit(0)

if getattr(torch, "__file__", None) is None:
    # A folder without __init__.py imports as an empty namespace package: the install or uninstall
    # that wrote it was cut short. That is a broken install, not a CPU build.
    out["import_error"] = "ImportError: torch is incomplete, without __init__.py: " + ", ".join(list(getattr(torch, "__path__", [])))
    emit()
    sys.exit(0)

out["imported"] = True
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
