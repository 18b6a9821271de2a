# gpuwiz: does this interpreter's environment have pip, and which pip wheel does its ensurepip carry.
import importlib.util, json, os, sys

if sys.path and sys.path[0] == "":
    del sys.path[0]  # python -m pip drops the working folder as well
bundled = []
try:
    import ensurepip
    d = os.path.join(os.path.dirname(ensurepip.__file__), "_bundled")
    bundled = [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.startswith("pip-") and f.endswith(".whl")]
except Exception:
    pass
print(json.dumps({"has_pip": importlib.util.find_spec("pip") is not None, "bundled": bundled}))
