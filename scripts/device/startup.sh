#!/usr/bin/env bash
# Start-up of the GPU probe against nvidia-smi on the same machine, in one call: N alternating runs
# each of `gpuwiz gpu --json` and `nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap
# --format=csv`, and of both with the live readings (`--readings`; utilization.gpu,temperature.gpu,
# power.draw,clocks.sm) (each run's output read through a pipe, as a script would), then min / median / mean
# wall time per run. Also: `gpuwiz gpu --json --timings` (NVML's load, the probe, process start to
# report, from inside the process) and `gpuwiz --version` (start-up without a probe).
#
# Inputs: a cgo build of gpuwiz at .dev/gpuwiz (or $GPUWIZ), nvidia-smi on PATH, python3. When
# .dev/gpuwiz-before (or $GPUWIZ_BEFORE) exists, an older build, it runs in the same rotation.
# Then scripts/device/nvmlcalls.py: each NVML call the probe makes, timed (where a probe's time goes).
# Output: the figures on stdout and in $OUT/startup.txt, every run's time in $OUT/startup.json.
#   N=50 scripts/device/startup.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
G=${GPUWIZ:-$here/.dev/gpuwiz}
B=${GPUWIZ_BEFORE:-$here/.dev/gpuwiz-before}
[ -x "$B" ] || B=""
N=${N:-50}
OUT=${OUT:-/tmp}
mkdir -p "$OUT"
[ -x "$G" ] || { echo "no gpuwiz at $G (build it with cgo and copy it there, or set GPUWIZ)" >&2; exit 2; }
command -v nvidia-smi >/dev/null || { echo "nvidia-smi is not on PATH" >&2; exit 2; }

python3 - "$G" "$N" "$OUT" "$B" <<'PY' 2>&1 | tee "$OUT/startup.txt"
import json, os, platform, statistics, subprocess, sys, time

gpuwiz, n, out, before = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
cmds = {
    "gpuwiz gpu --json": [gpuwiz, "gpu", "--json"],
    "nvidia-smi --query-gpu": ["nvidia-smi", "--query-gpu=name,driver_version,memory.total,compute_cap", "--format=csv"],
    # The same with the live readings on both sides.
    "gpuwiz gpu --json --readings": [gpuwiz, "gpu", "--json", "--readings"],
    "nvidia-smi +readings": ["nvidia-smi", "--query-gpu=name,driver_version,memory.total,compute_cap,utilization.gpu,temperature.gpu,power.draw,clocks.sm", "--format=csv"],
}
if before:
    cmds["gpuwiz-before gpu --json"] = [before, "gpu", "--json"]

def once(argv):
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = (time.perf_counter() - t0) * 1000
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {p.returncode}\n{p.stderr.decode(errors='replace')}")
    return dt, p.stdout

print(f"host {platform.node()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; {n} runs each, alternating")
print(subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,persistence_mode", "--format=csv,noheader"], capture_output=True, text=True).stdout.strip())

# What each prints (and one warm-up run each: the binaries into the page cache).
for name, argv in cmds.items():
    _, o = once(argv)
    if name.startswith("gpuwiz"):
        name = name.split()[0]
        r = json.loads(o)
        print(f"{name}: available={r['available']} backend={r['backend']} driver={r['driver_version']} gpus={[g['name'] for g in r['gpus']]}")
        if not r["available"]:
            sys.exit("gpuwiz found no GPU: the comparison would be meaningless")
    else:
        print("nvidia-smi: " + o.decode().strip().replace("\n", " | "))

times = {k: [] for k in cmds}
for i in range(n):
    order = list(cmds)[i % len(cmds):] + list(cmds)[:i % len(cmds)]  # each goes first in turn
    for name in order:
        times[name].append(once(cmds[name])[0])

def row(name, xs):
    return f"{name:28s} min {min(xs):6.1f}  median {statistics.median(xs):6.1f}  mean {statistics.mean(xs):6.1f} ms"

print()
for name, xs in times.items():
    print(row(name, xs))
g, s = times["gpuwiz gpu --json"], times["nvidia-smi --query-gpu"]
ratios = [a / b for a, b in zip(g, s)]
print(f"{'gpuwiz / nvidia-smi, pairwise':28s} min {min(ratios):6.2f}  median {statistics.median(ratios):6.2f}  mean {statistics.mean(ratios):6.2f}")
g, s = times["gpuwiz gpu --json --readings"], times["nvidia-smi +readings"]
ratios = [a / b for a, b in zip(g, s)]
print(f"{'same, with readings':28s} min {min(ratios):6.2f}  median {statistics.median(ratios):6.2f}  mean {statistics.mean(ratios):6.2f}")

# From inside the process: NVML's load + init, the probe, process start to report.
tim = []
for _ in range(10):
    _, o = once([gpuwiz, "gpu", "--json", "--timings"])
    tim.append(json.loads(o).get("timings") or {})
print()
for k in ("init_ms", "probe_ms", "since_start_ms"):
    xs = [t.get(k, 0) for t in tim]
    print(f"gpu --json --timings {k:14s} min {min(xs):6.1f}  median {statistics.median(xs):6.1f}  max {max(xs):6.1f} ms")

ver = [once([gpuwiz, "--version"])[0] for _ in range(20)]
print(row("gpuwiz --version", ver))
json.dump({"runs": times, "timings": tim, "version": ver}, open(os.path.join(out, "startup.json"), "w"), indent=1)
PY

echo
python3 "$here/scripts/device/nvmlcalls.py" 2>&1 | tee "$OUT/nvmlcalls.txt" || true
