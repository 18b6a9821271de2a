# gpuwiz verify: what the torch and the paddle script share (verify.go puts it before either): the
# side of the checked matmul, the one JSON line the script prints, the framework's import, the list
# of its GPUs and the check of its matmul.
import json, sys, traceback

N = int(sys.argv[1]) if len(sys.argv) > 1 else 256
out = {}


def err(e):
    return "%s: %s" % (type(e).__name__, e)


def emit():
    sys.stdout.write("GPUWIZ-VERIFY " + json.dumps(out) + "\n")
    sys.stdout.flush()


def load(name):
    # The framework, imported; when it does not import, the line says why and the script ends.
    out.update({"framework": name, "imported": False, "devices": []})
    try:
        fw = __import__(name)
    except BaseException:
        out["import_error"] = traceback.format_exc(limit=8)
        emit()
        sys.exit(0)
    if getattr(fw, "__file__", None) is None:
        # A folder without __init__.py imports as an empty namespace package: the install or uninstall
        # that wrote it was cut short. That is a broken install, not a CPU build.
        out["import_error"] = "ImportError: " + name + " is incomplete, without __init__.py: " + ", ".join(list(getattr(fw, "__path__", [])))
        emit()
        sys.exit(0)
    out["imported"] = True
    return fw


def devices(count, cuda):
    # Each GPU the framework sees: how many (count), each one's capability and name (from the
    # module cuda returns), or why they could not be listed.
    try:
        for i in range(count()):
            cap = cuda().get_device_capability(i)
            out["devices"].append({"name": str(cuda().get_device_name(i)), "capability": "%d.%d" % (cap[0], cap[1])})
    except Exception as e:
        out["device_error"] = err(e)


def matmul(product):
    # The GPU's N x N product against the CPU's: product returns both, in float64, on the CPU.
    m = {"n": N}
    try:
        g, ref = product()
        diff = (g - ref).abs().max().item()
        scale = ref.abs().max().item() or 1.0
        m["rel_error"] = diff / scale
    except Exception as e:
        m["error"] = err(e)
    out["matmul"] = m
