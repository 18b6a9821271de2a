# gpuwiz verify: what the torch and the paddle script share (verify.go puts it before either): the
# side of the checked matmul, the one JSON line the script prints, and the framework's import.
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
