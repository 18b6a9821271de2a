#!/usr/bin/env bash
# doctor --fix after a deleted CUDA library on the real torch cu130 family, this build against the one
# before (.dev/gpuwiz-prev), alternating, in one short call (after prepare.sh here, .dev carried):
#   bash scripts/device/fixonly.sh        (results in $OUT/fixonly.txt)
set -u
G=$(realpath ${GPUWIZ:-.dev/gpuwiz}); P=$(realpath ${PREV:-.dev/gpuwiz-prev}); TOOLS=${TOOLS:-.dev}
O=${OUT:-/tmp}/fixonly.txt; exec > >(tee "$O") 2>&1
chmod +x "$G" "$P"
PY=/opt/torch/.venv/bin/python3; BASE=$(command -v python3.12 || echo /usr/bin/python3)
W=/tmp/fo; rm -rf $W ~/.cache/gpuwiz; mkdir -p $W
export NCCL_NVLS_ENABLE=0
log() { printf '\n=== %s  (%s)\n' "$*" "$(date +%T)"; }
log "$($G --version) against $($P --version)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
log repack; LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY $TOOLS/repack_index.py $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $W/repack.txt 2>&1; tail -1 $W/repack.txt
(cd $W/idx && exec $PY -m http.server 8767 --bind 127.0.0.1 > $W/http.log 2>&1) & HTTP=$!; sleep 2
$G install --venv $W/v --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url http://127.0.0.1:8767/simple --yes --json > $W/i.json 2> $W/i.err; echo "install exit $?"
# The bytecode a repair keeps is what Python wrote beside torch's modules on their first import.
echo "PYTHON* in the environment: $(env | grep '^PYTHON' | tr '\n' ' ')"; echo "torch .pyc files after the install's verify: $(find $W/v -path '*torch/__pycache__/*.pyc' | wc -l)"
for round in $(seq 1 ${ROUNDS:-2}); do
	for b in "$G" "$P"; do
		CUB=$(find $W/v -name 'libcublasLt.so*' | head -1); rm -f "$CUB"
		s=$(date +%s.%N); $b doctor --venv $W/v --fix --yes > $W/fix.txt 2>&1; rc=$?
		echo "$(basename $b) round $round: rc=$rc wall=$(python3 -c "print(round($(date +%s.%N)-$s,2))") s; $( [ -f "$CUB" ] && echo 'libcublasLt back' || echo 'NOT BACK')"
		l=$(grep -o 'log: .*doctor-fix-[^ ]*\.log' $W/fix.txt | tail -1 | cut -c6-); [ -f "$l" ] && grep -h '^# step\|^# diagnosis\|^# repair\|^# the \|^# bytecode\|^# wheel cache\|requirements.lock names' "$l" | tr '\n' ' ' | cut -c1-1000; echo
	done
done
$G verify --venv $W/v 2>&1 | tail -1
kill $HTTP; exit 0
