#!/usr/bin/env bash
# The whole test suite: installs what it needs, builds plain and sanitized,
# runs every test against both builds, and ends with one line
# "N passed, N failed, N skipped". Needs root (loop devices, zram, cgroups).
set -u
cd "$(dirname "$0")/.."
{ scripts/install-deps.sh && scripts/install-test-deps.sh; } || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
scripts/start-services.sh || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
scripts/build.sh --sanitize || { echo "build failed"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
echo "installs, services and builds took $((SECONDS / 60)) min $((SECONDS % 60)) s"
# Real OpenZFS for the VM test (tests/vm/openzfs_build.sh): cached after the
# first build; on a fresh machine the module builds in the background while
# the plain pass runs, and the sanitized pass (with the VM test) waits for it.
nice -n 10 bash tests/vm/openzfs_build.sh >build/openzfs-build.log 2>&1 &
openzfs_build=$!

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
total_p=0 total_f=0 total_s=0
for spec in "build:plain" "build-asan:asan+ubsan"; do
	dir=${spec%%:*} label=${spec#*:}
	if [ "$dir" = build-asan ]; then
		# The OpenZFS VM test (sanitized pass) needs the module: wait for it
		# here, so that no test's time limit counts the build.
		waited=$SECONDS
		wait "$openzfs_build" 2>/dev/null || echo "the OpenZFS module build failed: build/openzfs-build.log"
		echo "waited $((SECONDS - waited)) s for the OpenZFS module build"
	fi
	# Each test's line is shown as it ends (a run cut short still shows how
	# far it got); the pass's own total line is kept for the sum below.
	passlog=build/test-pass-$label.log
	tests/run.sh "$dir" "$label" | tee "$passlog" | sed -u '$d'
	read -r p _ f _ s _ < <(tail -n 1 "$passlog" | tr -d ',')
	total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
done
echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" -eq 0 ]
