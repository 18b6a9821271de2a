# gpuwiz install: hard-link (or copy) every file of the named installed dists into a backup dir and
# write a manifest, so the old set can be put back offline whatever happens to pip after this.
import importlib.metadata as md, json, os, re, shutil, sys, sysconfig

manifest_path, backup_dir, names = sys.argv[1], sys.argv[2], set(json.loads(sys.argv[3]))


def norm(n):
    return re.sub(r"[-_.]+", "-", n).lower()


files_dir = os.path.join(backup_dir, "files")
os.makedirs(files_dir, exist_ok=True)
out = {"purelib": sysconfig.get_paths()["purelib"], "platlib": sysconfig.get_paths()["platlib"], "dists": []}
n = 0
for dist in md.distributions():
    name = dist.metadata["Name"] or ""
    if norm(name) not in names:
        continue
    entry = {"name": name, "version": dist.version, "files": []}
    for f in dist.files or []:
        src = os.path.abspath(str(dist.locate_file(f)))
        if not os.path.isfile(src) or os.path.islink(src):
            continue
        n += 1
        dst = os.path.join(files_dir, str(n))
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)
        entry["files"].append([src, str(n)])
    out["dists"].append(entry)
with open(manifest_path, "w", encoding="utf-8") as fh:
    json.dump(out, fh)
