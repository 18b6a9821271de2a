#!/usr/bin/env bash
# gpuwiz's own wheel installer against pip, with the real torch cu130 family, on a GPU machine whose
# /opt/torch/.venv holds torch (see the repack tool beside the gpuwiz binary in .dev/).
#   bash scripts/device/installer.sh     (GPUWIZ=.dev/gpuwiz, TOOLS=.dev; results in $OUT/installer.txt)
# Measures, in one call: the install step from staged wheels (pip vs gpuwiz, cold unpack), from the
# warm cache of unpacked wheels, and a whole doctor --fix after a deleted CUDA library (both
# installers); and checks that gpuwiz's site-packages equals pip's, that pip uninstall torch leaves
# nothing of torch, that pip check is clean and that torchrun --help runs.
set -u
G=${GPUWIZ:-.dev/gpuwiz}; TOOLS=${TOOLS:-.dev}; G=$(realpath "$G")
O=${OUT:-/tmp}/installer.txt; exec > >(tee "$O") 2>&1
PY=/opt/torch/.venv/bin/python3; BASE=$(command -v python3.12 || echo /usr/bin/python3)
W=/tmp/inst; rm -rf $W ~/.cache/gpuwiz; mkdir -p $W
export NCCL_NVLS_ENABLE=0
log() { printf '\n=== %s  (%s)\n' "$*" "$(date +%T)"; }
step() { python3 - "$1" "$2" <<'PYEOF' 2>&1
import json, re, sys
d = json.load(open(sys.argv[1])); o = d.get("outcome") if isinstance(d.get("outcome"), dict) else d
print(sys.argv[2], "exit", d.get("exit_code"), o.get("result"), "installer", o.get("installer"), "install step", (o.get("step_seconds") or {}).get("install"), "s; all steps", o.get("step_seconds"), "installer's parts", o.get("installer_seconds"))
lp = o.get("log_path") or d.get("log_path")
if lp:  # the installer's own lines: which path it took, and its own time
    for l in open(lp, errors="replace"):
        if re.search(r"gpuwiz installs|installed [0-9]+ files|where the time went|instead of gpuwiz|pip install --dry-run|File was already downloaded .*torch-", l):
            print("   log:", l.strip()[:200])
PYEOF
}
log repack; LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY $TOOLS/repack_index.py $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $W/repack.txt 2>&1; tail -1 $W/repack.txt
(cd $W/idx && exec $PY -m http.server 8765 --bind 127.0.0.1 > $W/http.log 2>&1) & HTTP=$!; sleep 2
IDX=http://127.0.0.1:8765/simple
fixlog() { # the repair's own notes (each step's time, the installer's parts) from the log it names
  local l; l=$(grep -o 'log: .*doctor-fix-[^ ]*\.log' "$1" | tail -1 | cut -c6-); [ -f "$l" ] && grep -h '^# ' "$l" | sed 's/^/   log: /'
}
inst() { # venv json-file [env...]
  local v=$1 j=$2; shift 2
  env "$@" $G install --venv $v --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url $IDX --yes --json > $j 2> $j.err
}
log "1. pip writes the wheels (GPUWIZ_INSTALLER=pip), new venv"; inst $W/v-pip $W/1.json GPUWIZ_INSTALLER=pip; step $W/1.json pip
log "2. gpuwiz writes them, cold (unpacks into the cache)"; inst $W/v-cold $W/2.json; step $W/2.json gpuwiz-cold
log "3. gpuwiz, warm cache (hard links)"; inst $W/v-warm $W/3.json; step $W/3.json gpuwiz-warm
log "4. pip again, same conditions as 3 (wheels staged)"; inst $W/v-pip2 $W/4.json GPUWIZ_INSTALLER=pip; step $W/4.json pip-again
if [ "${QUICK:-0}" = 1 ]; then  # QUICK=1: the timings and the repair only (equality, uninstall and console scripts were checked before)
log "doctor --fix after a deleted CUDA library, gpuwiz's installer (warm cache)"
CUB=$(find $W/v-warm -name 'libcublasLt.so*' | head -1); rm -f "$CUB"; echo "deleted $CUB"
s=$(date +%s.%N); $G doctor --venv $W/v-warm --fix --yes > $W/fix1.txt 2>&1; echo "rc=$? wall=$(python3 -c "print(round($(date +%s.%N)-$s,2))") s (gpuwiz)"; tail -3 $W/fix1.txt; fixlog $W/fix1.txt
CUB=$(find $W/v-pip2 -name 'libcublasLt.so*' | head -1); rm -f "$CUB"
s=$(date +%s.%N); GPUWIZ_INSTALLER=pip $G doctor --venv $W/v-pip2 --fix --yes > $W/fix2.txt 2>&1; echo "rc=$? wall=$(python3 -c "print(round($(date +%s.%N)-$s,2))") s (pip)"; tail -3 $W/fix2.txt; fixlog $W/fix2.txt
$G verify --venv $W/v-warm 2>&1 | tail -2
kill $HTTP; exit 0
fi
log "equality: pip and gpuwiz into the same path, one after the other"
snap() { $PY - "$1" <<'PYEOF'
import hashlib, os, sys, json
root = sys.argv[1]; out = {}
for d, _, fs in os.walk(root):
    if "__pycache__" in d: continue
    for f in fs:
        p = os.path.join(d, f); r = os.path.relpath(p, root)
        if r.startswith(".gpuwiz") or r in ("requirements.lock", "constraints.txt") or r.endswith("/INSTALLER"): continue
        b = open(p, "rb").read()
        if r.endswith("/RECORD"):
            out[r] = sorted(l for l in b.decode().split("\r\n") if "/INSTALLER," not in l)
        else:
            out[r] = [hashlib.sha256(b).hexdigest(), oct(os.lstat(p).st_mode & 0o777)]
print(json.dumps(out))
PYEOF
}
inst $W/eq $W/e1.json GPUWIZ_INSTALLER=pip; snap $W/eq > $W/snap-pip.json; rm -rf $W/eq
inst $W/eq $W/e2.json; snap $W/eq > $W/snap-gpuwiz.json
$PY - $W/snap-pip.json $W/snap-gpuwiz.json <<'PYEOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and not k.endswith("pyvenv.cfg"))
print("files pip:", len(a), "gpuwiz:", len(b), "differing:", len(diff))
for k in diff[:20]: print("  DIFF", k, str(a.get(k))[:120], "|", str(b.get(k))[:120])
PYEOF
log "pip check, torchrun --help, pip uninstall -y torch"
$W/eq/bin/python -m pip check; $W/eq/bin/torchrun --help | head -2
$W/eq/bin/python -m pip uninstall -y -q torch; echo "torch files left:"; find $W/eq/lib/*/site-packages -maxdepth 1 -iname 'torch*' | grep -v -e torchvision -e torchaudio || echo "(none)"
log "doctor --fix after a deleted CUDA library, gpuwiz's installer (warm cache)"
CUB=$(find $W/v-warm -name 'libcublasLt.so*' | head -1); rm -f "$CUB"; echo "deleted $CUB"
s=$(date +%s.%N); $G doctor --venv $W/v-warm --fix --yes > $W/fix1.txt 2>&1; echo "rc=$? wall=$(python3 -c "print(round($(date +%s.%N)-$s,2))") s (gpuwiz)"; tail -3 $W/fix1.txt; fixlog $W/fix1.txt
CUB=$(find $W/v-pip2 -name 'libcublasLt.so*' | head -1); rm -f "$CUB"
s=$(date +%s.%N); GPUWIZ_INSTALLER=pip $G doctor --venv $W/v-pip2 --fix --yes > $W/fix2.txt 2>&1; echo "rc=$? wall=$(python3 -c "print(round($(date +%s.%N)-$s,2))") s (pip)"; tail -3 $W/fix2.txt; fixlog $W/fix2.txt
$G verify --venv $W/v-warm 2>&1 | tail -3
$G cache 2>&1 | tail -4
kill $HTTP
