#!/usr/bin/env bash
# docs/ARCHITECTURE.md against the tree (tests/tools/architecture_doc.py):
# every file and folder it names exists, every folder of src/ is described.
# meson test runs the same script (test 'architecture_doc').
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v python3 >/dev/null; then
	echo "ok 1 - architecture doc # SKIP python3 is not installed"
	echo "1..1"
	exit 0
fi
exec python3 "$here/../tools/architecture_doc.py" "$here/../.."
