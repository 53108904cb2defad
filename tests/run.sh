#!/usr/bin/env bash
# tests/run.sh BUILD_DIR [LABEL]: runs every unit test program and every
# command test against one build, and ends with "N passed, N failed, N skipped".
# A test program that exits non-zero without a failing check (a crash, a
# sanitizer report) counts as one failure.
set -u
build=${1:?usage: tests/run.sh BUILD_DIR [LABEL]}
label=${2:-$build}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
passed=0 failed=0 skipped=0

count() { # count NAME LOGFILE EXIT_STATUS SECONDS
	local name=$1 log=$2 status=$3 secs=$4 p f s
	p=$(grep -Ec '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -Ec '^ok [0-9]+ .*# SKIP' "$log" | tr -d ' ')
	f=$(grep -Ec '^not ok [0-9]+' "$log" | tr -d ' ')
	p=$((p - s))
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $status without a failing check" >>"$log"
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	printf '%-28s %4d passed %4d failed %4d skipped %5d s\n' "[$label] $name" "$p" "$f" "$s" "$secs"
	if [ "$f" -ne 0 ]; then
		grep -E '^not ok|^#' "$log" | sed 's/^/    /'
		tail -n 20 "$log" | grep -vE '^(not )?ok ' | sed 's/^/    | /'
	fi
	grep -E '# SKIP' "$log" | sed 's/^/    /'
}

# What a command test may leave on the machine: pools, loop devices, pool
# mounts, network namespaces, blkio cgroups. Each test removes its own; one that does not is
# named here and its leftovers are removed, so that a later test (rwpools
# and runall go over every pool) is not failed by another test's leak.
machine_state() {
	{
		zpool list -H -o name 2>/dev/null | sed 's/^/pool /'
		findmnt -rn -t btrfs,xfs,ext4,fuse -o TARGET 2>/dev/null | grep -v '^/$' | sed 's/^/mount /'
		losetup -n -O NAME 2>/dev/null | sed 's/^/loop /'
		ip netns list 2>/dev/null | awk '{print "netns " $1}'
		find /sys/fs/cgroup/blkio -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sed 's/^/cgroup /'
	} | sort
}

remove_leftovers() { # remove_leftovers NAME: what NAME left, named in its log
	local name=$1 before=$2 left kind what i
	left=$(comm -13 <(echo "$before") <(machine_state))
	[ -n "$left" ] || return 0
	sleep 2
	left=$(comm -13 <(echo "$before") <(machine_state))
	[ -n "$left" ] || return 0
	echo "$left" | sed "s/^/    # left behind by $name (removed now): /"
	# pools first (their mounts go with them), then loop devices and cgroups
	for kind in pool mount netns loop cgroup; do
		echo "$left" | awk -v k=$kind '$1 == k {print $2}' | while read -r what; do
			case $kind in
			pool) for i in 1 2 3 4 5; do zpool destroy -f "$what" 2>/dev/null && break; sleep 1; done ;;
			mount) umount -l "$what" 2>/dev/null ;;
			netns) ip netns del "$what" 2>/dev/null ;;
			loop) losetup -d "$what" 2>/dev/null ;;
			cgroup) rmdir "$what" 2>/dev/null ;;
			esac
		done
	done
	return 0
}

logs=$(mktemp -d /tmp/iotriage-testlogs.XXXXXX)
trap 'rm -rf "$logs"' EXIT

# Every test runs under a time limit, so that one that hangs is named and
# stopped and the suite goes on (a hang used to take the whole CI run's
# time and its report with it). TERM first, so its own cleanup runs; KILL
# a minute later. A command test may raise its limit with a header line
# "# time-limit: SECONDS" (the VM tests do).
limited() { # limited SECONDS LOG COMMAND...: runs COMMAND, logs a stop
	local limit=$1 log=$2 status
	shift 2
	timeout --kill-after=60 "$limit" "$@" >"$log" 2>&1
	status=$?
	if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
		echo "not ok - did not end within its $limit s limit: stopped" >>"$log"
	fi
	return "$status"
}

for t in "$build"/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	name=$(basename "$t")
	start=$SECONDS
	(cd "$logs" && limited 300 "$logs/$name.log" "$t")
	count "$name" "$logs/$name.log" $? $((SECONDS - start))
done

# A command test whose header says "# run-once: plain" (or asan) runs in
# that pass only: a VM test repeats minutes of the same guest work in each
# build, so it runs once, with the sanitized build (whose checks it passes
# too, and whose sanitizers then watch the code only a VM reaches); the
# fuzz harnesses and the static binary are their own builds either way.
pass_kind=plain
ldd "$build/iotriage" 2>/dev/null | grep -q libasan && pass_kind=asan

for t in "$here"/cli/test_*.sh; do
	name=$(basename "$t" .sh)
	once=$(sed -n 's/^# run-once: \(plain\|asan\)$/\1/p' "$t" | head -n 1)
	if [ -n "$once" ] && [ "$once" != "$pass_kind" ]; then
		printf '%-28s runs once, in the %s pass\n' "[$label] $name" "${once/asan/sanitized}"
		continue
	fi
	limit=$(sed -n 's/^# time-limit: \([0-9]\+\)$/\1/p' "$t" | head -n 1)
	before=$(machine_state)
	start=$SECONDS
	IOTRIAGE="$build/iotriage" limited "${limit:-600}" "$logs/$name.log" bash "$t"
	count "$name" "$logs/$name.log" $? $((SECONDS - start))
	remove_leftovers "$name" "$before"
done

echo "[$label] took $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
