#!/usr/bin/env bash
# Downloads from the sources users meet, with the real torch 2.11.0+cu130 family (36 wheels, 4.5 GiB)
# on a capped loopback link: every TCP connection at RATE MB/s with LAT ms before each response.
#
#   nometa   an index without PEP 658 metadata (many mirrors): gpuwiz install, then a venv + plain
#            pip install + import by hand, same source, same call
#   flat     a flat find-links page without metadata or #sha256 (the Aliyun/SJTU shape), the
#            dependencies from an index beside it without the torch family: the same two runs
#   resume   gpuwiz install from the flat page stopped with Ctrl+C (SIGINT) at ~60 % of the bytes,
#            then run again: the bytes the server sent twice
#   corrupt  one byte flipped in the middle of the torch wheel, flat page without hashes: the run
#            must fail naming the wheel, and the venv must hold no torch
#
# usage: scripts/device/downloads.sh [nometa] [flat] [resume] [corrupt]   (default: all four)
# Needs .dev/gpuwiz (a linux build), .dev/repack_index.py and .dev/capserve.py (copied from the
# device tools), /opt/torch/.venv. RATE (60), LAT (50), HAND=0 skips the runs by hand.
# Results: $OUT/downloads.txt (one line per run) and $OUT/art.tgz (JSON outcomes, logs).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
G=${GPUWIZ:-$here/.dev/gpuwiz}
TOOLS=${TOOLS:-$here/.dev}
RATE=${RATE:-60}
LAT=${LAT:-50}
HAND=${HAND:-1}
PY=/opt/torch/.venv/bin/python3
BASE=${BASE:-/usr/bin/python3.12}
OUT=${OUT:-/tmp/downloads-out}
W=/tmp/dl
A=$W/art
phases=${*:-nometa flat resume corrupt}
mkdir -p "$OUT"
rm -rf $W ~/.cache/gpuwiz ~/.cache/pip
mkdir -p $A
R=$OUT/downloads.txt
: > $R
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	cp ~/.cache/gpuwiz/logs/* $A/ 2>/dev/null
	tar czf "$OUT/art.tgz" -C $W art 2>/dev/null
}
trap cleanup EXIT
now() { date +%s.%N; }
secs() { python3 -c "print(round($2-$1,1))"; }
say() { echo "$*" | tee -a $R; }
counter() { cat "$1" 2>/dev/null || echo 0; }
serve() { # serve ROOT PORT NAME: capped server, its counter at $W/NAME.cnt
	(exec $PY "$TOOLS/capserve.py" "$(cd "$1" && pwd)" "$2" "$RATE" "$LAT" "$W/$3.cnt" > "$W/$3.http.log" 2>&1) &  # an absolute root: capserve refuses every path under a relative one
	pids+=($!)
	for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$2/" && return; sleep 0.2; done
	echo "server $3 did not start" >&2
}
gw() { # gw NAME ARGS...: gpuwiz install into a new venv with an empty wheel cache
	local name=$1; shift
	rm -rf ~/.cache/pip $W/v-$name $W/cache-$name
	$G install --venv $W/v-$name --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 \
		--cache-dir $W/cache-$name --yes --json "$@" > $A/$name.json 2> $A/$name.err
}
hand() { # hand NAME PIPARGS...: a venv, plain pip install, an import
	local name=$1; shift
	rm -rf ~/.cache/pip $W/h-$name
	$BASE -m venv $W/h-$name &&
		PIP_NO_CACHE_DIR=1 $W/h-$name/bin/python -m pip install -q --disable-pip-version-check "$@" \
			torch==2.11.0+cu130 torchvision==0.26.0+cu130 torchaudio==2.11.0+cu130 > $A/$name.txt 2>&1 &&
		$W/h-$name/bin/python -c "import torch, torchvision, torchaudio; print(torch.__version__)" >> $A/$name.txt 2>&1
}
outcome() { python3 -c "import json,sys;d=json.load(open('$A/$1.json'));print(d.get('result'), 'bytes=%d' % d.get('bytes_downloaded',0), (d.get('error') or '')[:300])" 2>/dev/null || tail -2 $A/$1.err; }

log() { printf '\n=== %s (%s)\n' "$*" "$(date +%T)"; }
log repack
t0=$(now)
LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY "$TOOLS/repack_index.py" $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $A/repack.txt 2>&1 || { tail -5 $A/repack.txt; exit 1; }
# The flat page (no metadata, no hashes) and an index of the dependencies alone beside it.
$PY - $W/idx <<'EOF'
import os, shutil, sys
d = sys.argv[1]
os.makedirs(os.path.join(d, "flat"), exist_ok=True)
with open(os.path.join(d, "flat", "index.html"), "w") as f:
    for w in sorted(x for x in os.listdir(os.path.join(d, "files")) if x.endswith(".whl")):
        f.write('<a href="../files/%s">%s</a><br>\n' % (w.replace("+", "%2B"), w))
for n in os.listdir(os.path.join(d, "simple")):
    if n in ("torch", "torchvision", "torchaudio") or not os.path.isdir(os.path.join(d, "simple", n)):
        continue
    os.makedirs(os.path.join(d, "deps", n), exist_ok=True)
    shutil.copy(os.path.join(d, "simple", n, "index.html"), os.path.join(d, "deps", n, "index.html"))
with open(os.path.join(d, "deps", "index.html"), "w") as f:
    for n in sorted(os.listdir(os.path.join(d, "deps"))):
        if n != "index.html":
            f.write('<a href="%s/">%s</a>\n' % (n, n))
EOF
FAMILY=$(du -cb $W/idx/files/*.whl | tail -1 | cut -f1)
say "repack $(secs $t0 $(now)) s; family $FAMILY bytes; link $RATE MB/s per connection, $LAT ms; $($G --version 2>&1 | head -1)"

run_pair() { # run_pair PHASE PORT GPUWIZ-SOURCE-ARGS -- PIP-SOURCE-ARGS
	local ph=$1 port=$2; shift 2
	local gargs=() pargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do gargs+=("$1"); shift; done
	shift; pargs=("$@")
	serve $W/idx $port $ph
	log "$ph: gpuwiz install"
	local c0=$(counter $W/$ph.cnt) s=$(now)
	gw $ph "${gargs[@]}"
	local tg=$(secs $s $(now)); sleep 1.2
	local c1=$(counter $W/$ph.cnt)
	say "$ph gpuwiz: $tg s, served $((c1 - c0)) bytes ($(python3 -c "print(round(100*($c1-$c0)/$FAMILY,2))") % of the family); $(outcome $ph)"
	grep -o 'downloading with pip[^"]*' $A/$ph.json $A/$ph.err 2>/dev/null | head -2 | tee -a $R
	if [ "$HAND" = 1 ]; then
		log "$ph: venv + plain pip by hand"
		s=$(now)
		hand $ph-hand "${pargs[@]}"
		local rc=$? th=$(secs $s $(now))
		say "$ph by hand: $th s (rc=$rc); gpuwiz/by-hand = $(python3 -c "print(round($tg/$th,3))")"
	fi
}

for ph in $phases; do
	case $ph in
	nometa)
		run_pair nometa 8771 --index-url http://127.0.0.1:8771/simple -- --index-url http://127.0.0.1:8771/simple ;;
	flat)
		run_pair flat 8772 --find-links http://127.0.0.1:8772/flat/ --index-url http://127.0.0.1:8772/deps -- \
			--find-links http://127.0.0.1:8772/flat/ --index-url http://127.0.0.1:8772/deps ;;
	resume)
		serve $W/idx 8773 resume
		log "resume: gpuwiz install, Ctrl+C at 60 %"
		rm -rf ~/.cache/pip $W/v-resume $W/cache-resume
		s=$(now)
		$G install --venv $W/v-resume --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 \
			--cache-dir $W/cache-resume --yes --json --find-links http://127.0.0.1:8773/flat/ --index-url http://127.0.0.1:8773/deps \
			> $A/resume1.json 2> $A/resume1.err &
		gp=$!
		while kill -0 $gp 2>/dev/null && [ "$(counter $W/resume.cnt)" -lt $((FAMILY * 6 / 10)) ]; do sleep 0.2; done
		kill -INT $gp 2>/dev/null
		wait $gp
		rc1=$?
		sleep 1.2
		c1=$(counter $W/resume.cnt)
		say "resume first run: stopped after $(secs $s $(now)) s (rc=$rc1), $c1 bytes served ($(python3 -c "print(round(100*$c1/$FAMILY,1))") %)"
		s=$(now)
		$G install --venv $W/v-resume --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 \
			--cache-dir $W/cache-resume --yes --json --find-links http://127.0.0.1:8773/flat/ --index-url http://127.0.0.1:8773/deps \
			> $A/resume2.json 2> $A/resume2.err
		t2=$(secs $s $(now)); sleep 1.2
		c2=$(counter $W/resume.cnt)
		say "resume second run: $t2 s, $(outcome resume2); served $((c2 - c1)) more; fetched twice: $((c2 - FAMILY)) bytes = $(python3 -c "print(round(100*($c2-$FAMILY)/$FAMILY,3))") % of the family (goal <= 2 %)"
		ls $W/cache-resume/*/*.part 2>/dev/null | head -3 | tee -a $R ;;
	corrupt)
		mkdir -p $W/bad && cp -al $W/idx/files $W/bad/files && cp -r $W/idx/flat $W/idx/deps $W/bad/
		TW=$(ls $W/bad/files | grep '^torch-2.11.0' | head -1)
		cp --remove-destination $W/idx/files/$TW $W/bad/files/$TW
		$PY -c "
import os,sys
p=sys.argv[1]; n=os.path.getsize(p)
with open(p,'r+b') as f:
    f.seek(n//2); b=f.read(1); f.seek(n//2); f.write(bytes([b[0]^0x5a]))" $W/bad/files/$TW
		serve $W/bad 8774 corrupt
		log "corrupt: one byte of $TW flipped, flat page without hashes"
		s=$(now)
		gw corrupt --find-links http://127.0.0.1:8774/flat/ --index-url http://127.0.0.1:8774/deps
		rc=$?
		say "corrupt: rc=$rc after $(secs $s $(now)) s; $(outcome corrupt)"
		if [ -x $W/v-corrupt/bin/python ] && $W/v-corrupt/bin/python -m pip list 2>/dev/null | grep -qi '^torch '; then
			say "corrupt: torch IS installed in the venv (wrong)"
		else
			say "corrupt: no torch in the venv (venv $( [ -d $W/v-corrupt ] && echo kept || echo removed ))"
		fi
		grep -c "$TW" $A/corrupt.json | sed 's/^/corrupt: the outcome names the wheel: lines=/' | tee -a $R ;;
	esac
done
log done
cat $R
