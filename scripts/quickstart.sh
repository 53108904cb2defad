#!/usr/bin/env bash
# The README's first command: installs what iotriage needs, builds it, and
# runs the main job, readdisks. On a machine with no disk that may be read
# raw (a VM whose root disk refuses raw reads), it then runs the demo, which
# shows the same read test on throwaway loop devices, one of them slowed.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo
echo "== iotriage readdisks"
status=0
build/iotriage readdisks || status=$?
if [ "$status" -ne 0 ]; then
	echo
	echo "== readdisks could not read every disk here (see the reasons above);"
	echo "== iotriage demo shows the same test on throwaway loop devices:"
	build/iotriage demo
fi
