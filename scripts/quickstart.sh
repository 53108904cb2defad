# The README's first command: installs what iotriage needs, builds it, and
# runs the main job, `iotriage doctor --quick`: the whole method (media,
# network, the media factored out with a RAM disk) on this machine's disks.
# Where no disk may be read raw (a VM whose root disk refuses raw reads),
# doctor says it cannot decide, and the script runs the doctor's lab
# instead: a throwaway pool on loop devices with one member slowed,
# diagnosed step by step and removed.
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/start-services.sh
scripts/build.sh
echo
echo "== iotriage doctor --quick"
status=0
build/iotriage doctor --quick || status=$?
if [ "$status" -ne 0 ]; then
	echo
	echo "== doctor could not measure this machine's disks (see the reasons above);"
	echo "== iotriage doctor --lab diagnoses a throwaway pool with a known fault instead:"
	build/iotriage doctor --lab
fi
