#!/usr/bin/env bash
# The README's first command: installs what iotriage needs, builds it, and
# runs the main job, readdisks. On a machine with no disk that may be read
# raw (a VM whose root disk refuses raw reads), it then runs the doctor's
# lab: a throwaway pool on loop devices with one member slowed, diagnosed
# step by step and removed.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/start-services.sh
scripts/build.sh
echo
echo "== iotriage readdisks"
status=0
build/iotriage readdisks || status=$?
if [ "$status" -ne 0 ]; then
	echo
	echo "== readdisks could not read every disk here (see the reasons above);"
	echo "== iotriage doctor --lab diagnoses a throwaway pool with a known fault instead:"
	build/iotriage doctor --lab
fi
