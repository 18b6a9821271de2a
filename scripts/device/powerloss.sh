#!/usr/bin/env bash
# Power loss in the middle of a channel switch, with the real torch 2.11.0 family (4.5 GiB).
#
# A loopback index of the installed cu130 build (repack_index.py) and a second one of the same
# binaries labelled cu128; gpuwiz installs cu130 into a new venv, then switches to cu128 and is
# killed with SIGKILL, with its pip (the whole process group, as a power loss would), 1.5 s after
# pip's install step starts. Then, with both indexes stopped (no network):
#   gpuwiz doctor            must name the interrupted switch (interrupted-install, when, the step, what it removed)
#   gpuwiz install           must refuse to start on top of it
#   gpuwiz doctor --fix --yes must put back the exact cu130 files (sha256 of every file compared)
#   the state folder (.gpuwiz) must hold no backup and a closed journal.
#
# Inputs: the gpuwiz linux binary at .dev/gpuwiz (GPUWIZ= to override), repack_index.py beside this
# script or in .dev/, the real torch venv /opt/torch/.venv. Output: $OUT/powerloss.txt (the summary,
# also on stdout) and $OUT/powerloss-art.tgz (doctor's text and JSON, the journal, logs).
# Exit 0 when every check passed. Runtime about 4 minutes on the H200 machine.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
G=${GPUWIZ:-$root/.dev/gpuwiz}
REPACK=$root/.dev/repack_index.py
[ -f "$REPACK" ] || REPACK=$here/repack_index.py
OUT=${OUT:-/tmp/powerloss-out}; mkdir -p "$OUT"
# PY (the interpreter whose torch is repacked), BASE (the Python of the new venv) and GARGS (global
# gpuwiz flags, e.g. --matrix/--simulate for a dry run elsewhere) may be overridden.
GARGS=${GARGS:-}
PY=${PY:-/opt/torch/.venv/bin/python3}
BASE=${BASE:-/usr/bin/python3.12}
W=/tmp/powerloss; A=$W/art
rm -rf $W ~/.cache/gpuwiz; mkdir -p $A
S=$OUT/powerloss.txt; : > $S
fails=0
say() { printf '%s\n' "$*" | tee -a $S; }
log() { say ""; say "=== $* ($(date +%T))"; }
ok() { say "PASS: $*"; }
bad() { say "FAIL: $*"; fails=$((fails + 1)); }
now() { date +%s.%N; }
secs() { python3 -c "print(round($(now)-$1,1))"; }
HTTP=()
cleanup() {
	for p in "${HTTP[@]}"; do kill "$p" 2>/dev/null; done
	cp ~/.cache/gpuwiz/logs/* $A/ 2>/dev/null
	tar czf $OUT/powerloss-art.tgz -C $W art 2>/dev/null
}
trap cleanup EXIT
# every file of the venv but its state folder and bytecode caches, with its sha256
hashes() {
	$PY - "$1" <<'EOF'
import hashlib, os, sys
root = sys.argv[1]
for d, dirs, files in os.walk(root):
    dirs[:] = sorted(x for x in dirs if x not in ("__pycache__",) and not (d == root and x == ".gpuwiz"))
    for f in sorted(files):
        p = os.path.join(d, f)
        if os.path.islink(p):
            print("link", os.readlink(p), os.path.relpath(p, root)); continue
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for b in iter(lambda: fh.read(1 << 20), b""):
                h.update(b)
        print(h.hexdigest(), os.path.relpath(p, root))
EOF
}

log "environment"
"$G" --version | tee -a $S
$PY -c "import torch;print('torch', torch.__version__)" | tee -a $S
df -h /tmp | tail -1 | tee -a $S

log "two loopback indexes: cu130, and the same binaries labelled cu128"
t0=$(now)
LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY "$REPACK" $W/idx130 torch torchvision torchaudio pip setuptools wheel numpy > $A/repack130.txt 2>&1 &
LABEL=+cu128 NAMES=torch,torchvision,torchaudio $PY "$REPACK" $W/idx128 torch torchvision torchaudio pip setuptools wheel numpy > $A/repack128.txt 2>&1 &
wait
say "repack: $(secs $t0) s"
(cd $W/idx130 && exec $PY -m http.server 8765 --bind 127.0.0.1 > $W/http130.log 2>&1) & HTTP+=($!)
(cd $W/idx128 && exec $PY -m http.server 8766 --bind 127.0.0.1 > $W/http128.log 2>&1) & HTTP+=($!)
sleep 2
I130=http://127.0.0.1:8765/simple
I128=http://127.0.0.1:8766/simple
V=$W/venv

log "gpuwiz install cu130 into a new venv"
t0=$(now)
"$G" $GARGS install --venv $V --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url $I130 --yes > $A/install130.txt 2>&1
rc=$?; say "install cu130: rc=$rc, $(secs $t0) s"; tail -4 $A/install130.txt | tee -a $S
[ $rc = 0 ] || bad "install cu130 (rc=$rc)"
t0=$(now); hashes $V > $W/before.txt; say "hashed $(wc -l < $W/before.txt) files: $(secs $t0) s"

log "switch to cu128, killed with SIGKILL 1.5 s into pip's install"
t0=$(now)
setsid "$G" $GARGS install --venv $V --framework torch --framework-version 2.11.0 --channel cu128 --index-url $I128 --yes > $A/switch.txt 2>&1 &
SW=$!
J=$V/.gpuwiz/journal.json
while kill -0 $SW 2>/dev/null && ! grep -q '"step": "install"' $J 2>/dev/null; do sleep 0.05; done
if ! kill -0 $SW 2>/dev/null; then
	bad "the switch ended before its install step"; tail -20 $A/switch.txt | tee -a $S
fi
t1=$(now); sleep 1.5
kill -KILL -- -$SW 2>/dev/null
wait $SW 2>/dev/null
say "killed $(secs $t1) s after the install step began ($(secs $t0) s after the switch started)"
cp $J $A/journal-open.json 2>/dev/null
SP=$(ls -d $V/lib/python3*/site-packages | head -1)
say "at the kill: torch/ holds $(find $SP/torch -type f 2>/dev/null | wc -l) files (the whole cu130 torch: $(grep -c '/site-packages/torch/' $W/before.txt)), $(ls -d $SP/torch-*.dist-info 2>/dev/null | xargs -rn1 basename | tr '\n' ' ')"
say "state folder: $(ls $V/.gpuwiz | tr '\n' ' ')"
$V/bin/python -c "import torch; print(torch.__version__)" > $A/import-after-kill.txt 2>&1 && say "import torch after the kill: $(cat $A/import-after-kill.txt)" || say "import torch after the kill fails: $(tail -1 $A/import-after-kill.txt)"

log "no network from here on; the venv is the active one (as a user would have it)"
export PATH=$V/bin:$PATH VIRTUAL_ENV=$V
for p in "${HTTP[@]}"; do kill "$p" 2>/dev/null; done; HTTP=(); sleep 1

log "gpuwiz doctor"
t0=$(now)
"$G" $GARGS doctor --venv $V > $A/doctor.txt 2>&1; rc=$?
say "doctor: rc=$rc, $(secs $t0) s"; head -12 $A/doctor.txt | tee -a $S
"$G" $GARGS doctor --venv $V --json > $A/doctor.json 2>/dev/null
first=$(python3 -c "import json;f=json.load(open('$A/doctor.json'))['findings'][0];print(f['code'],f['severity'])" 2>/dev/null)
[ "$first" = "interrupted-install error" ] && ok "doctor's first finding is interrupted-install (error)" || bad "doctor's first finding: '$first'"
grep -q "a switch to torch 2.11.0 (cu128) was interrupted" $A/doctor.txt && ok "doctor names the switch" || bad "doctor does not name the switch"
grep -q "stopped during “install the new build”" $A/doctor.txt && ok "doctor names the step" || bad "doctor does not name the step"
grep -q "it had uninstalled" $A/doctor.txt && ok "doctor says what it had removed" || bad "doctor does not say what it removed"

log "gpuwiz install refuses to start on top of it"
"$G" $GARGS install --venv $V --framework torch --framework-version 2.11.0 --channel cu128 --index-url $I128 --yes > $A/install-refused.txt 2>&1; rc=$?
tail -2 $A/install-refused.txt | tee -a $S
[ $rc = 1 ] && grep -q "was interrupted" $A/install-refused.txt && ok "install refused (rc=1)" || bad "install over the interrupted run: rc=$rc"

log "gpuwiz doctor --fix --yes (from the backup, no network)"
t0=$(now)
"$G" $GARGS doctor --venv $V --fix --yes > $A/fix.txt 2>&1; rc=$?
say "doctor --fix: rc=$rc, $(secs $t0) s"
grep -A4 "Repair plan" $A/fix.txt | tee -a $S
errs=$(sed -n '/Checking again/,$p' $A/fix.txt | grep -c '\[ERROR\]')
sed -n '/Checking again/,$p' $A/fix.txt | grep '^[0-9]*\. \[' | tee -a $S
if [ $rc = 0 ] || { [ $rc = 5 ] && [ "$errs" = 0 ]; }; then ok "doctor --fix: rc=$rc, no error left in doctor's second look"; else bad "doctor --fix rc=$rc, $errs error(s) left"; fi
t0=$(now); hashes $V > $W/after.txt; say "hashed $(wc -l < $W/after.txt) files: $(secs $t0) s"
if diff $W/before.txt $W/after.txt > $A/files.diff; then ok "every file of the cu130 build is back, byte for byte ($(wc -l < $W/before.txt) files)"; else bad "files differ: $(wc -l < $A/files.diff) lines (files.diff)"; head -20 $A/files.diff | tee -a $S; fi
$V/bin/python -c "import torch; print(torch.__version__, torch.cuda.is_available())" 2>&1 | tail -1 | tee -a $S

log "the state folder"
ls -la $V/.gpuwiz | tee -a $S
du -sh $V/.gpuwiz | tee -a $S
cp $J $A/journal-closed.json 2>/dev/null
ls -d $V/.gpuwiz/backup-* > /dev/null 2>&1 && bad "a backup is left in the state folder" || ok "no backup left in the state folder"
ls $V/.gpuwiz/*.tmp > /dev/null 2>&1 && bad "a temporary file is left" || ok "no temporary file left"
res=$(python3 -c "import json;j=json.load(open('$J'));print(j.get('finished','open'), j.get('result'))" 2>/dev/null)
case "$res" in open*) bad "the journal is still open";; *) ok "journal closed: $res";; esac
"$G" $GARGS venvs > $A/venvs.txt 2>&1; cat $A/venvs.txt | tee -a $S

log "result"
[ $fails = 0 ] && say "ALL PASSED" || say "$fails check(s) FAILED"
exit $fails
