#!/usr/bin/env bash
# gpuwiz add with the real torch 2.11.0+cu130 family: after a gpuwiz install into a new venv, a
# project that depends on torch goes in and the build stays; a project that needs a torch the channel
# lacks is refused with the venv unchanged; doctor --requirements predicts both; then verify and a
# quick benchmark. No network: the family comes from a loopback index repacked from /opt/torch/.venv,
# the projects are small wheels built here (one depends on torch>=2.0 and numpy, one on torch>=2.99).
#
# usage: scripts/device/add.sh
# Needs .dev/gpuwiz (a linux build) and .dev/repack_index.py (copied from the device tools),
# /opt/torch/.venv. Results: $OUT/add.txt (one line per step with rc and wall time) and $OUT/art.tgz
# (JSON outcomes, logs, freezes).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
G=${GPUWIZ:-$here/.dev/gpuwiz}
TOOLS=${TOOLS:-$here/.dev}
PY=/opt/torch/.venv/bin/python3
BASE=${BASE:-/usr/bin/python3.12}
OUT=${OUT:-/tmp/add-out}
W=/tmp/addrun
A=$W/art
mkdir -p "$OUT"
rm -rf $W ~/.cache/gpuwiz ~/.cache/pip
mkdir -p $A $W/proj
R=$OUT/add.txt
: > $R
HTTP=
cleanup() {
	[ -n "$HTTP" ] && kill "$HTTP" 2>/dev/null
	cp ~/.cache/gpuwiz/logs/* $A/ 2>/dev/null
	tar czf "$OUT/art.tgz" -C $W art 2>/dev/null
}
trap cleanup EXIT
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# step NAME CMD...: runs CMD, records rc and wall seconds in add.txt.
step() {
	local name=$1; shift
	local s=$(date +%s.%N)
	"$@"; local rc=$?
	local wall=$(python3 -c "print(round($(date +%s.%N)-$s,1))")
	echo "$name rc=$rc wall=${wall}s" | tee -a $R
	return $rc
}

# Two project wheels: projgpu (torch>=2.0, numpy) and needsnew (torch>=2.99).
python3 - "$W/proj" <<'PY'
import sys, zipfile, hashlib, base64, os
out = sys.argv[1]
def wheel(name, version, requires):
    mod = name.replace("-", "_")
    files = {
        f"{mod}/__init__.py": "import torch\ndef check():\n    x = torch.ones(64, 64, device='cuda')\n    return float((x @ x).sum())\n",
        f"{mod}-{version}.dist-info/METADATA": "Metadata-Version: 2.1\nName: %s\nVersion: %s\n%s" % (name, version, "".join("Requires-Dist: %s\n" % r for r in requires)),
        f"{mod}-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: gpuwiz-device-script\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    path = os.path.join(out, f"{mod}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as z:
        for n, body in files.items():
            b = body.encode()
            z.writestr(n, b)
            h = base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
            record.append(f"{n},sha256={h},{len(b)}")
        rec = f"{mod}-{version}.dist-info/RECORD"
        record.append(f"{rec},,")
        z.writestr(rec, "\n".join(record) + "\n")
wheel("projgpu", "1.0", ["torch>=2.0", "numpy"])
wheel("needsnew", "1.0", ["torch>=2.99"])
PY
ls $W/proj

step repack env LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY "$TOOLS/repack_index.py" $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $A/repack.txt 2>&1
(cd $W/idx && exec $PY -m http.server 8766 --bind 127.0.0.1 > $W/http.log 2>&1) & HTTP=$!
sleep 2
IDX=http://127.0.0.1:8766/simple
V=$W/venv
step install $G install --venv $V --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url $IDX --yes --json > $A/install.json 2> $A/install.err
cat $V/pip.conf > $A/pip.conf 2>/dev/null
printf 'projgpu\n' > $W/req-ok.txt
printf 'needsnew\n' > $W/req-new.txt
step doctor-requirements-keeps $G doctor --venv $V --requirements $W/req-ok.txt --index-url $IDX --find-links $W/proj --json > $A/doctor-ok.json 2>&1
step doctor-requirements-refuses $G doctor --venv $V --requirements $W/req-new.txt --index-url $IDX --find-links $W/proj --json > $A/doctor-new.json 2>&1
$V/bin/python -m pip freeze --all > $A/freeze-before.txt
step add-refused $G add --venv $V -r $W/req-new.txt --index-url $IDX --find-links $W/proj --yes --json > $A/add-new.json 2>&1
$V/bin/python -m pip freeze --all > $A/freeze-after-refusal.txt
if diff -q $A/freeze-before.txt $A/freeze-after-refusal.txt > /dev/null; then echo "refusal: freeze unchanged" | tee -a $R; else echo "refusal: FREEZE CHANGED" | tee -a $R; fi
step add $G add --venv $V -r $W/req-ok.txt --index-url $IDX --find-links $W/proj --yes --json > $A/add-ok.json 2> $A/add-ok.err
python3 -c "import json;d=json.load(open('$A/add-ok.json'));o=d.get('outcome') or {};print('add: exit', d['exit_code'], 'result', o.get('result'), 'verify', (o.get('verify') or {}).get('ok'), 'protected', o.get('protected'))" | tee -a $R
step import-project $V/bin/python -c "import torch, projgpu; print(torch.__version__, projgpu.check())" 2>&1 | tee -a $R
# The venv defends itself: a plain pip install -U of the family in it keeps +cu130.
step plain-pip-U $V/bin/python -m pip install -q -U --index-url $IDX --find-links $W/proj torch torchvision projgpu > $A/pip-U.txt 2>&1
$V/bin/python -c "import torch; print('after pip -U:', torch.__version__)" 2>&1 | tee -a $R
step verify $G verify --venv $V > $A/verify.txt 2>&1
step bench-quick $G bench --venv $V --quick > $A/bench.txt 2>&1
tail -6 $A/bench.txt | tee -a $R
