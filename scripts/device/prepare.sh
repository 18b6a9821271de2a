#!/usr/bin/env bash
# Prepares .dev/ (ignored by git, carried to the GPU machine): a cgo build of gpuwiz at .dev/gpuwiz,
# and the index tools of the shared device folder (repack_index.py, index_extras.py, capserve.py)
# beside it. Run here, then on the GPU machine, with .dev carried:
#   bash scripts/device/prepare.sh
#   (device) bash scripts/device/pending.sh      → $OUT/startup.txt, $OUT/installer.txt
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED:-$here/../shared/tools/device}
mkdir -p "$here/.dev"
grep -qx '/.dev/' "$here/.git/info/exclude" 2>/dev/null || echo '/.dev/' >> "$here/.git/info/exclude"
(cd "$here" && CGO_ENABLED=1 CGO_CFLAGS=-Wno-deprecated-declarations go build -trimpath -ldflags="-s -w -X main.version=dev-$(git rev-parse --short HEAD)" -o .dev/gpuwiz .)
# The snapshot reader's test binary: freeze.sh compares it with pip freeze on the GPU machine's venvs.
(cd "$here" && go test -c -trimpath -o .dev/pyenv.test ./steps/pyenv)
for f in repack_index.py index_extras.py capserve.py; do
	[ -f "$shared/$f" ] && cp "$shared/$f" "$here/.dev/$f" || echo "note: $shared/$f not found; installer.sh needs repack_index.py" >&2
done
ls -la "$here/.dev"
