#!/usr/bin/env bash
# doctor on a real torch cu130 venv with a file deleted, on a GPU machine (after prepare.sh, .dev carried):
#   bash scripts/device/repair.sh        (results in $OUT/repair.txt)
# For each venv (v-own: installed by gpuwiz's installer, repaired by it; v-pip: by pip,
# GPUWIZ_INSTALLER=pip), same call:
# 1. a CUDA library dist's file (libcublasLt.so.13 of nvidia-cublas) deleted: doctor --json must name
#    it (files-missing) and plan the reinstall with nvidia-cublas put back; doctor --fix --yes, timed,
#    must put the same file back.
# 2. a file of torch's own dist (torch/lib/libtorch_cuda.so) deleted: doctor --fix --yes, timed.
set -u
G=$(realpath ${GPUWIZ:-.dev/gpuwiz}); TOOLS=${TOOLS:-.dev}
O=${OUT:-/tmp}/repair.txt; exec > >(tee "$O") 2>&1
PY=/opt/torch/.venv/bin/python3; BASE=$(command -v python3.12 || echo /usr/bin/python3)
W=/tmp/rep; rm -rf $W ~/.cache/gpuwiz; mkdir -p $W
export NCCL_NVLS_ENABLE=0
log() { printf '\n=== %s  (%s)\n' "$*" "$(date +%T)"; }
wall() { local s=$(date +%s.%N); "$@"; local rc=$?; echo "rc=$rc wall=$(python3 -c "print(round($(date +%s.%N)-$s,2))") s"; }
codes() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [print(" ", f["severity"], f["code"], "|", " / ".join(f["evidence"])[:300], "| fix:", f["fix"][:200]) for f in d["findings"]]' "$1"; }
if [ -d /tmp/inst/idx/simple ]; then  # installer.sh ran before in this call (pending.sh): its index serves
	log "the index installer.sh repacked"; ln -s /tmp/inst/idx $W/idx
else
	log repack; LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY $TOOLS/repack_index.py $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $W/repack.txt 2>&1; tail -1 $W/repack.txt
fi
(cd $W/idx/ && exec $PY -m http.server 8766 --bind 127.0.0.1 > $W/http.log 2>&1) & HTTP=$!; sleep 2
IDX=http://127.0.0.1:8766/simple
inst() { local v=$1; shift; env "$@" $G install --venv $v --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url $IDX --yes --json > $v.json 2> $v.err; echo "install $v exit $?"; }
log "install: gpuwiz's installer (v-own), pip (v-pip)"; inst $W/v-own; inst $W/v-pip GPUWIZ_INSTALLER=pip
steplog() { l=$(grep -o 'log: .*doctor-fix-[^ ]*\.log' "$1" | tail -1 | cut -c6-); [ -f "$l" ] && grep -h '^# step\|^# installed\|^# diagnosis\|^# repair\|python serve' "$l" | cut -c1-200 | sed "s|^|   |"; }
fix() { # $1 venv, $2 label, rest: env; doctor --fix --yes timed, its last lines and the log's steps
	local v=$1 label=$2; shift 2
	wall env "$@" $G doctor --venv $v --fix --yes > $W/fix-$label.txt 2>&1; tail -5 $W/fix-$label.txt; steplog $W/fix-$label.txt
}
n=0
for v in v-own v-pip; do
	n=$((n+1)); env=""; [ $v = v-pip ] && env=GPUWIZ_INSTALLER=pip
	log "$n. libcublasLt.so.13 deleted from $v: doctor --json, then doctor --fix --yes ($v's installer)"
	CUB=$(find $W/$v -name 'libcublasLt.so*' | head -1); SUM=$(sha256sum "$CUB" | cut -c1-16); rm -f "$CUB"; echo "deleted $CUB ($SUM)"
	wall sh -c "GPUWIZ_LANG=en $G doctor --venv $W/$v --json > $W/d-$v.json 2>$W/d-$v.err"; codes $W/d-$v.json  # the redirect inside: wall's own line goes to the screen
	fix $W/$v cublas-$v $env; grep -m2 'Put back' $W/fix-cublas-$v.txt
	[ -f "$CUB" ] && echo "back: $(sha256sum "$CUB" | cut -c1-16)" || echo "NOT BACK: $CUB"
	n=$((n+1))
	log "$n. torch/lib/libtorch_cuda.so deleted from $v; doctor --fix --yes"
	rm -f $W/$v/lib/python3*/site-packages/torch/lib/libtorch_cuda.so
	fix $W/$v torch-$v $env
done
log "after"; for v in v-own v-pip; do $G verify --venv $W/$v 2>&1 | tail -1; done
kill $HTTP; exit 0
