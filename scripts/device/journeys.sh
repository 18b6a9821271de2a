#!/usr/bin/env bash
# The whole journeys on the GPU machine with the real torch cu130 family from a loopback index, each
# whole command timed from outside, in one call (after scripts/device/prepare.sh here, .dev carried):
#   bash scripts/device/journeys.sh        (results in $OUT/journeys.txt)
# 1. new venv, nothing cached; 2. new venv, both caches warm; 3. the same install again in place with
# the index stopped (offline); 4. doctor --fix after a deleted CUDA library (its exit code: a repair
# that worked exits 0); 5. plain doctor on the repaired venv (exit code); and beside each venv
# `import torch; torch.cuda.init()` alone, the floor.
set -u
G=$(realpath ${GPUWIZ:-.dev/gpuwiz}); TOOLS=${TOOLS:-.dev}
O=${OUT:-/tmp}/journeys.txt; exec > >(tee "$O") 2>&1
chmod +x "$G"
PY=/opt/torch/.venv/bin/python3; BASE=$(command -v python3.12 || echo /usr/bin/python3)
W=/tmp/jr; rm -rf $W ~/.cache/gpuwiz; mkdir -p $W
export NCCL_NVLS_ENABLE=0
log() { printf '\n=== %s  (%s)\n' "$*" "$(date +%T)"; }
now() { date +%s.%N; }
secs() { python3 -c "print(round($2-$1,2))"; }
steps() { python3 - "$1" <<'PYEOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("   (no JSON: %s)" % e); sys.exit()
o = d.get("outcome") if isinstance(d.get("outcome"), dict) else d
print("   result", o.get("result"), "installer", o.get("installer"), "steps", o.get("step_seconds"))
PYEOF
}
floor() { local s=$(now); "$1/bin/python" -c 'import torch; torch.cuda.init(); print(torch.__version__, torch.cuda.get_device_name(0))' >/dev/null 2>&1; echo "floor (import torch + cuda init) $(secs $s $(now)) s"; }
SUM=()
log "$($G --version)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
log repack; LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY $TOOLS/repack_index.py $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $W/repack.txt 2>&1; tail -1 $W/repack.txt
$PY $TOOLS/index_extras.py $W/idx > /dev/null 2>&1
(cd $W/idx && exec $PY -m http.server 8768 --bind 127.0.0.1 > $W/http.log 2>&1) & HTTP=$!; sleep 2
inst() { $G install --venv "$1" --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url http://127.0.0.1:8768/simple --yes --json > "$2" 2> "$2.err"; }
for j in cold warm; do
	log "new venv, $j"; s=$(now); inst $W/v-$j $W/$j.json; rc=$?; t=$(secs $s $(now))
	echo "$j: exit $rc, $t s"; steps $W/$j.json; f=$(floor $W/v-$j); echo "$f"; SUM+=("new venv, $j cache: $t s (exit $rc); $f")
done
kill $HTTP; sleep 1
log "reinstall in place, offline (index stopped)"; s=$(now); inst $W/v-warm $W/again.json; rc=$?; t=$(secs $s $(now))
echo "again: exit $rc, $t s"; steps $W/again.json; tail -3 $W/again.json.err; f=$(floor $W/v-warm); echo "$f"; SUM+=("reinstall in place, offline: $t s (exit $rc); $f")
for r in 1 2; do
	log "doctor --fix after a deleted CUDA library, round $r"
	CUB=$(find $W/v-warm -name 'libcublasLt.so*' | head -1); rm -f "$CUB"
	s=$(now); $G doctor --venv $W/v-warm --fix --yes > $W/fix$r.txt 2>&1; rc=$?; t=$(secs $s $(now))
	back=$([ -f "$CUB" ] && echo 'libcublasLt back' || echo 'NOT BACK')
	echo "doctor --fix: exit $rc, $t s, $back"; tail -12 $W/fix$r.txt; SUM+=("doctor --fix after a deleted CUDA library (round $r): $t s (exit $rc, $back)")
done
f=$(floor $W/v-warm); echo "$f"; SUM+=("floor in that venv: $f")
log "plain doctor on the repaired venv"; $G doctor --venv $W/v-warm > $W/doc.txt 2>&1; rc=$?; tail -8 $W/doc.txt; SUM+=("plain doctor: exit $rc")
log summary; for l in "${SUM[@]}"; do echo "  $l"; done
exit 0
