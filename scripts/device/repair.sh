#!/usr/bin/env bash
# doctor on a real torch cu130 venv with a file deleted, on a GPU machine (after prepare.sh, .dev carried):
#   bash scripts/device/repair.sh        (results in $OUT/repair.txt)
# 1. a CUDA library dist's file (libcublasLt.so.13 of nvidia-cublas): doctor --json must name it
#    (files-missing); the pip command its fix gives puts it back.
# 2. a file of torch's own dist (torch/lib/libtorch_cuda.so): doctor --fix --yes reinstalls the build,
#    timed for gpuwiz's installer (warm cache) and for pip (GPUWIZ_INSTALLER=pip), same call.
set -u
G=$(realpath ${GPUWIZ:-.dev/gpuwiz}); TOOLS=${TOOLS:-.dev}
O=${OUT:-/tmp}/repair.txt; exec > >(tee "$O") 2>&1
PY=/opt/torch/.venv/bin/python3; BASE=$(command -v python3.12 || echo /usr/bin/python3)
W=/tmp/rep; rm -rf $W ~/.cache/gpuwiz; mkdir -p $W
export NCCL_NVLS_ENABLE=0
log() { printf '\n=== %s  (%s)\n' "$*" "$(date +%T)"; }
wall() { local s=$(date +%s.%N); "$@"; local rc=$?; echo "rc=$rc wall=$(python3 -c "print(round($(date +%s.%N)-$s,2))") s"; }
codes() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [print(" ", f["severity"], f["code"], "|", " / ".join(f["evidence"])[:300], "| fix:", f["fix"][:200]) for f in d["findings"]]' "$1"; }
log repack; LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY $TOOLS/repack_index.py $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $W/repack.txt 2>&1; tail -1 $W/repack.txt
(cd $W/idx && exec $PY -m http.server 8766 --bind 127.0.0.1 > $W/http.log 2>&1) & HTTP=$!; sleep 2
IDX=http://127.0.0.1:8766/simple
inst() { local v=$1; shift; env "$@" $G install --venv $v --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url $IDX --yes --json > $v.json 2> $v.err; echo "install $v exit $?"; }
log "install: gpuwiz's installer (v-own), pip (v-pip)"; inst $W/v-own; inst $W/v-pip GPUWIZ_INSTALLER=pip
log "1. libcublasLt.so.13 deleted from v-own"
CUB=$(find $W/v-own -name 'libcublasLt.so*' | head -1); rm -f "$CUB"; echo "deleted $CUB"
wall env GPUWIZ_LANG=en $G doctor --venv $W/v-own --json > $W/d1.json 2>$W/d1.err; codes $W/d1.json
CMD=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=[f for f in d["findings"] if f["code"]=="files-missing"]; print(f[0]["fix"].split(": ",1)[1].split(". A ",1)[0] if f and "--force-reinstall" in f[0]["fix"] else "")' $W/d1.json)
echo "fix command: $CMD"; [ -n "$CMD" ] && wall $CMD --index-url $IDX --quiet; ls -la "$CUB" 2>&1 | tail -1
log "2. torch/lib/libtorch_cuda.so deleted; doctor --fix --yes, gpuwiz's installer (warm cache)"
rm -f $W/v-own/lib/python3*/site-packages/torch/lib/libtorch_cuda.so
wall $G doctor --venv $W/v-own --fix --yes > $W/f1.txt 2>&1; tail -4 $W/f1.txt
log "2b. the same, pip (GPUWIZ_INSTALLER=pip)"
rm -f $W/v-pip/lib/python3*/site-packages/torch/lib/libtorch_cuda.so
wall env GPUWIZ_INSTALLER=pip $G doctor --venv $W/v-pip --fix --yes > $W/f2.txt 2>&1; tail -4 $W/f2.txt
log "after"; for v in v-own v-pip; do $G verify --venv $W/$v 2>&1 | tail -1; done
for f in $W/f1.txt $W/f2.txt; do l=$(grep -o 'log: .*doctor-fix-[^ ]*\.log' "$f" | tail -1 | cut -c6-); [ -f "$l" ] && grep -h '^# step\|^# installed' "$l" | sed "s|^|   $(basename $f): |"; done
kill $HTTP; exit 0
