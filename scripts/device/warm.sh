#!/usr/bin/env bash
# The whole journey at the floor: each whole gpuwiz command timed from outside, on the real torch cu130
# family from a loopback index, with `import torch; torch.cuda.init()` alone in the same venv beside
# each (the floor no install can go below). One call, well under 9 minutes (about 3 on an H100):
#   bash scripts/device/prepare.sh                 (here: .dev/gpuwiz and the repack tool)
#   (device, .dev carried) bash scripts/device/warm.sh     → $OUT/warm.txt (summary table at the end)
# Journeys, in this order:
#   1. new venv, nothing cached (wheel cache and unpacked cache empty, loopback index; COLD_MODES, COLD_ROUNDS)
#   2. new venv, both caches warm (ROUNDS times)
#   3. reinstall in place, offline (the index stopped; ROUNDS times)
#   4. doctor --fix after a deleted CUDA library (libcublasLt, index stopped; ROUNDS times)
# Each gpuwiz run's step times (from --json, or the repair's log) and the pip commands its log shows
# are printed under it. PREV=.dev/gpuwiz-prev runs journeys 2–4 with that build as well, alternating.
set -u
G=$(realpath "${GPUWIZ:-.dev/gpuwiz}"); TOOLS=${TOOLS:-.dev}; ROUNDS=${ROUNDS:-2}
P=""; [ -n "${PREV:-}" ] && P=$(realpath "$PREV")
O=${OUT:-/tmp}/warm.txt; exec > >(tee "$O.log") 2>&1
chmod +x "$G" ${P:+"$P"}
PY=${TORCH_PY:-/opt/torch/.venv/bin/python3}; BASE=${BASE:-$(command -v python3.12 || echo /usr/bin/python3)}
W=/tmp/warm; rm -rf $W ~/.cache/gpuwiz; mkdir -p $W
export NCCL_NVLS_ENABLE=0
PORT=8769; IDX=http://127.0.0.1:$PORT/simple
SUM=$W/summary.tsv; : > $SUM
log() { printf '\n=== %s  (%s)\n' "$*" "$(date +%T)"; }
now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2-$1:.2f}')"; }
serve() { (cd $W/idx && exec $PY -m http.server $PORT --bind 127.0.0.1 > $W/http.log 2>&1) & HTTP=$!; sleep 1.5; }
unserve() { [ -n "${HTTP:-}" ] && kill $HTTP 2>/dev/null; wait $HTTP 2>/dev/null; HTTP=""; }
# details OUT ERR: step times from --json and the pip commands of the run's log
details() {
	python3 - "$1" <<'PYEOF'
import json, re, sys
t = open(sys.argv[1], errors="replace").read()
lp, steps = None, None
try:
    d = json.loads(t); o = d.get("outcome") if isinstance(d.get("outcome"), dict) else d
    steps, lp = o.get("step_seconds"), o.get("log_path") or d.get("log_path")
except Exception:
    pass
if not lp:  # a text run (doctor --fix) names its log in its output, on stdout or stderr
    t += "".join(open(f, errors="replace").read() for f in sys.argv[2:])
    m = re.findall(r"log: (\S+\.log)", t); lp = m[-1] if m else None
pips, notes = [], []
if lp:
    for l in open(lp, errors="replace"):
        f = l.split()
        if len(f) > 3 and f[0] == "$" and (f[2] == "-m" and f[3] == "pip" or f[2].endswith("__pip-runner__.py")):
            pips.append(" ".join(f[4:6]))
        if re.match(r"# (step |stage: |the cache's check|the backup removed)", l):
            notes.append(l.strip()[2:])
if steps: print("   steps:", ", ".join(f"{k} {v}" for k, v in steps.items()))
for n in notes: print("   log:", n[:160])
print(f"   pip commands in the run's log: {len(pips)}" + (f" ({'; '.join(pips)})" if pips else ""))
print(f"PIPS={len(pips)}", file=sys.stderr)
PYEOF
}
# timed NAME VENV CMD...: the whole command from outside, then the floor in the same venv
timed() {
	local name=$1 venv=$2; shift 2
	local s e rc f0 f1 pips frc
	s=$(now); "$@" > $W/run.out 2> $W/run.err; rc=$?; e=$(now)
	echo "$name: exit $rc, $(secs $s $e) s"; [ $rc -ne 0 ] && { tail -5 $W/run.err; tail -25 $W/run.out; }
	# the run's own log beside the summary, for where the time outside the steps goes
	lp=$(grep -ho '[^ "]*gpuwiz[^ "]*\.log' $W/run.out $W/run.err 2>/dev/null | tail -1)
	[ -n "$lp" ] && [ -f "$lp" ] && cp "$lp" "${OUT:-/tmp}/$(echo "$name" | tr -c 'a-z0-9\n' '-').log"
	details $W/run.out $W/run.err 2>/dev/null
	pips=$(details $W/run.out $W/run.err 2>&1 >/dev/null | sed -n 's/^PIPS=//p')
	f0=$(now); $venv/bin/python -c "import torch; torch.cuda.init()" 2> $W/floor.err; frc=$?; f1=$(now)
	echo "   floor (import torch; torch.cuda.init()): exit $frc, $(secs $f0 $f1) s"
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "$(secs $s $e)" "$(secs $f0 $f1)" "${pips:-?}" >> $SUM
}
inst() { # BIN VENV: install the cu130 family
	"$1" install --venv "$2" --python $BASE --framework torch --framework-version 2.11.0 --channel cu130 --index-url $IDX --yes --json
}
fix() { # BIN VENV: delete a CUDA library, then doctor --fix
	local lib; lib=$(find "$2" -name 'libcublasLt.so*' | head -1); rm -f "$lib"
	"$1" doctor --venv "$2" --fix --yes
}

log "$($G --version)${P:+ against $($P --version)}"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
log repack; LABEL=+cu130 NAMES=torch,torchvision,torchaudio $PY $TOOLS/repack_index.py $W/idx torch torchvision torchaudio pip setuptools wheel numpy > $W/repack.txt 2>&1; tail -1 $W/repack.txt
serve
# COLD_MODES="off on" runs journey 1 with the early fetch off (GPUWIZ_EARLY_FETCH=0) and on, COLD_ROUNDS
# times, alternating, each from empty caches; the last leaves the caches warm for journey 2. The mode
# "prev" runs it with PREV's build.
inst_off() { GPUWIZ_EARLY_FETCH=0 inst "$@"; }
for c in $(seq 1 "${COLD_ROUNDS:-1}"); do
	for mode in ${COLD_MODES:-on}; do
		log "1. new venv, nothing cached (early fetch $mode, round $c)"
		rm -rf ~/.cache/gpuwiz $W/v0
		if [ "$mode" = off ]; then
			timed "new venv, nothing cached, early fetch off" $W/v0 inst_off "$G" $W/v0
		elif [ "$mode" = prev ] && [ -n "$P" ]; then
			timed "new venv, nothing cached ($(basename "$P"))" $W/v0 inst "$P" $W/v0
		else
			timed "new venv, nothing cached" $W/v0 inst "$G" $W/v0
		fi
	done
done
bins=("$G"); [ -n "$P" ] && bins+=("$P")
for round in $(seq 1 "$ROUNDS"); do
	for b in "${bins[@]}"; do
		tag=$(basename "$b")
		log "2. new venv, both caches warm ($tag, round $round)"
		timed "new venv, caches warm ($tag)" $W/v-$tag-$round inst "$b" $W/v-$tag-$round
	done
done
unserve
for round in $(seq 1 "$ROUNDS"); do
	for b in "${bins[@]}"; do
		tag=$(basename "$b")
		log "3. reinstall in place, offline ($tag, round $round)"
		timed "reinstall in place, offline ($tag)" $W/v-$tag-1 inst "$b" $W/v-$tag-1
		log "4. doctor --fix after a deleted CUDA library ($tag, round $round)"
		timed "doctor --fix, deleted CUDA library ($tag)" $W/v-$tag-1 fix "$b" $W/v-$tag-1
		[ -n "$(find $W/v-$tag-1 -name 'libcublasLt.so*' | head -1)" ] && echo "   libcublasLt is back" || echo "   libcublasLt NOT back"
	done
done
$G verify --venv $W/v-$(basename "$G")-1 2>&1 | tail -1
{
	echo "gpuwiz warm journeys, $(date -u +%F), $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), real torch 2.11.0+cu130 family, loopback index"
	echo "each whole command timed from outside; floor = import torch; torch.cuda.init() alone in the same venv, right after"
	echo
	printf '| %-48s | %4s | %8s | %8s | %4s |\n' "journey" "exit" "gpuwiz s" "floor s" "pips"
	printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..50})" "------" "----------" "----------" "------"
	while IFS=$'\t' read -r name rc t f p; do printf '| %-48s | %4s | %8s | %8s | %4s |\n' "$name" "$rc" "$t" "$f" "$p"; done < $SUM
	echo
	echo "pips: pip commands in the gpuwiz run's own log (the diagnosis's and the plan's included)"
} > $O
cat $O
exit 0
