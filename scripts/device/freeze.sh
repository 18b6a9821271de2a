#!/usr/bin/env bash
# The snapshot gpuwiz reads from the dist-info folders in Go against `pip freeze --all`, on the real
# torch cu130 family: a new venv installed from a loopback index, then a reinstall in place, whose
# snapshot (the venv as the install left it) is compared byte for byte with pip's answer for the
# same venv; first, the same comparison on the machine's own torch venv, as pip installed it (the
# reader's test binary, .dev/pyenv.test, seconds). One call, about a minute:
#   bash scripts/device/prepare.sh                 (here: .dev/gpuwiz and the repack tool)
#   (device, .dev carried) bash scripts/device/freeze.sh   → $OUT/pip-freeze-all.txt, $OUT/gpuwiz-snapshot.txt
set -u
G=$(realpath "${GPUWIZ:-.dev/gpuwiz}"); PY=${TORCH_PY:-/opt/torch/.venv/bin/python3}
BASE=${BASE:-$(command -v python3.12 || echo /usr/bin/python3)}; O=${OUT:-/tmp}
W=/tmp/fz; rm -rf $W ~/.cache/gpuwiz; mkdir -p $W
echo "== the torch venv pip installed ($PY)"
GPUWIZ_FREEZE_PYTHON=$PY .dev/pyenv.test -test.run TestFreezeOfTheGivenEnvironment -test.v 2>&1 | tail -5
LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY .dev/repack_index.py $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $W/repack.txt 2>&1
(cd $W/idx && exec $PY -m http.server 8770 --bind 127.0.0.1 > /dev/null 2>&1) & HTTP=$!
sleep 1.5
inst() { "$G" install --venv $W/v --python "$BASE" --framework torch --framework-version 2.11.0 --channel cu130 --index-url http://127.0.0.1:8770/simple --yes --json; }
inst > $W/new.json 2> $W/new.err; echo "new venv: exit $?"
inst > $W/again.json 2> $W/again.err; echo "reinstall in place: exit $?"
kill $HTTP
snap=$(python3 -c "import json,sys; d=json.load(open('$W/again.json')); o=d.get('outcome') if isinstance(d.get('outcome'), dict) else d; print(o.get('snapshot_file', ''))")
$W/v/bin/python -m pip freeze --all > $O/pip-freeze-all.txt
cp "$snap" $O/gpuwiz-snapshot.txt
if cmp -s $O/pip-freeze-all.txt $O/gpuwiz-snapshot.txt; then
	echo "the snapshot read in Go equals pip freeze --all, byte for byte: $(wc -l < $O/pip-freeze-all.txt) lines"
else
	echo "the snapshot read in Go DIFFERS from pip freeze --all:"; diff $O/pip-freeze-all.txt $O/gpuwiz-snapshot.txt
fi
echo "== the venv gpuwiz installed, read again by the test binary"
GPUWIZ_FREEZE_PYTHON=$W/v/bin/python .dev/pyenv.test -test.run TestFreezeOfTheGivenEnvironment -test.v 2>&1 | tail -5
grep -c "" "$snap"; grep -h "snapshot: read" $(ls -t ~/.cache/gpuwiz/logs/*.log 2>/dev/null | head -1) 2>/dev/null
