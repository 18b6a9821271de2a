#!/usr/bin/env bash
# The figures still owed from the GPU machine, in one call (about 8 minutes), after
# scripts/device/prepare.sh here and with .dev carried:
#   1. start-up: `gpuwiz gpu --json` (facts, no readings) and `--readings` against nvidia-smi asked
#      for the same, N=50 alternating runs (startup.sh);
#   2. gpuwiz's own wheel installer against pip with the real torch cu130 family: the install step
#      cold, warm, pip's in the same call, and doctor --fix after a deleted CUDA library (installer.sh,
#      QUICK=1: the equality checks were made before and are run by the tests);
#   3. doctor on the real family with a deleted CUDA library and a deleted torch library: the finding,
#      and doctor --fix timed for both installers (repair.sh).
# Results in $OUT/startup.txt, $OUT/installer.txt and $OUT/repair.txt; record them in
# docs/benchmarks.md and docs/validation.md.
set -u
cd "$(dirname "$0")/../.."
chmod +x .dev/gpuwiz; [ -f .dev/gpuwiz-before ] && chmod +x .dev/gpuwiz-before
.dev/gpuwiz --version
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
echo "=== startup"; N=${N:-50} OUT=${OUT:-/tmp} bash scripts/device/startup.sh 2>&1 | tail -30
echo "=== gpu --json (facts) and --readings"; .dev/gpuwiz gpu --json | head -30; .dev/gpuwiz gpu --json --readings | grep -E 'power|util|temp|clock'
echo "=== installer"; QUICK=${QUICK:-1} OUT=${OUT:-/tmp} GPUWIZ=.dev/gpuwiz TOOLS=.dev timeout 200 bash scripts/device/installer.sh 2>&1 | tail -60
echo "=== repair"; OUT=${OUT:-/tmp} GPUWIZ=.dev/gpuwiz TOOLS=.dev timeout 300 bash scripts/device/repair.sh 2>&1 | tail -70
