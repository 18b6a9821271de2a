# gpuwiz inspect: what a Python environment holds. Never imports torch or paddle, so it works
# when they are broken. Prints one JSON document on stdout.
import json, os, site, struct, sys, sysconfig

try:
    from importlib import metadata
except ImportError:  # Python < 3.8
    metadata = None


def site_dirs():
    dirs = []
    for key in ("purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p and p not in dirs:
            dirs.append(p)
    try:
        for p in site.getsitepackages():
            if p not in dirs and os.path.isdir(p):
                dirs.append(p)
    except AttributeError:
        pass
    return [d for d in dirs if os.path.isdir(d)]


def dist_files(dist):
    try:
        return [str(f).replace("\\", "/") for f in (dist.files or [])]
    except Exception:
        return []


dirs = site_dirs()
leftovers, paddle_dir = [], False
for d in dirs:
    for entry in sorted(os.listdir(d)):
        if entry.startswith("~"):
            leftovers.append(os.path.join(d, entry))
        if entry == "paddle" and os.path.isdir(os.path.join(d, entry)):
            paddle_dir = True

# Which dists own the paddle folder is read from their RECORD files: only when there is one, since
# reading every RECORD (torch's alone has 12,000 lines) is most of this script's time otherwise.
dists, owners = [], []
seen = set()
if metadata is not None:
    for dist in metadata.distributions(path=dirs):
        try:
            name = dist.metadata["Name"]
            version = dist.version
        except Exception:
            continue
        if not name:
            continue
        location = str(dist.locate_file(""))
        key = (name.lower(), location)
        if key in seen:
            continue
        seen.add(key)
        dists.append({"name": name, "version": version, "location": location})
        if paddle_dir and any(f.startswith("paddle/") for f in dist_files(dist)):
            owners.append(name)

# The scheme the interpreter reports (not a venv's layout guessed), whether its site-packages is on
# sys.path (an embedded Python's ._pth without `import site` leaves it off), and PEP 668's marker in
# the standard library folder (which counts only outside a venv).
paths = sysconfig.get_paths()
norm = lambda p: os.path.normcase(os.path.abspath(p)) if p else ""
on_path = set(norm(p) for p in sys.path)
purelib = paths.get("purelib", "")
in_venv = sys.prefix != getattr(sys, "base_prefix", sys.prefix)
externally_managed = (not in_venv) and os.path.isfile(os.path.join(paths.get("stdlib", ""), "EXTERNALLY-MANAGED"))

pip_version = ""
if metadata is not None:
    try:
        pip_version = metadata.version("pip")
    except Exception:
        pass

# indent=0: one short line per value, so no line is capped however many dists there are
print(json.dumps({
    "version": "%d.%d.%d" % sys.version_info[:3],
    "bits": struct.calcsize("P") * 8,
    "executable": sys.executable,
    "prefix": sys.prefix,
    "base_prefix": getattr(sys, "base_prefix", sys.prefix),
    "conda": os.path.isdir(os.path.join(sys.prefix, "conda-meta")),
    "site_packages": dirs,
    "dists": dists,
    "leftovers": leftovers,
    "pip_version": pip_version,
    "paddle_dir": paddle_dir,
    "paddle_dir_owners": owners,
    "purelib": purelib,
    "platlib": paths.get("platlib", ""),
    "scripts": paths.get("scripts", ""),
    "site_on_path": norm(purelib) in on_path,
    "externally_managed": externally_managed,
}, indent=0))
