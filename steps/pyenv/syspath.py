# gpuwiz: what pip freeze would search, for the Go reader of the dist-info folders (freeze.go).
import json, os, sys

path = list(sys.path)
# python -c puts "" (the working folder) first; pip's __main__ drops that entry as well.
if path and path[0] == "":
    path = path[1:]
# pip's _should_use_importlib_metadata: the environment variable, else Python 3.11 and later unless
# the distributor turned it off.
imp = sys.version_info >= (3, 11)
if imp:
    import importlib.metadata
    imp = bool(getattr(importlib.metadata, "_PIP_USE_IMPORTLIB_METADATA", True))
print(json.dumps({"path": path, "version": list(sys.version_info[:2]), "importlib": imp,
                  "env_override": "_PIP_USE_IMPORTLIB_METADATA" in os.environ}))
