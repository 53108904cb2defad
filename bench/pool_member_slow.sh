#!/usr/bin/env bash
# bench/pool_member_slow.sh [RUNS] [RATE_MIB]: does the pool telemetry
# (triage/pool/pool_evidence.h, pool/member_load.h) name a raidz member that is
# slowed ONLY under the pool's load, and no member when none is? (issue 18)
#
# The fixture: a zfs-fuse raidz1 of five loop devices, each stacked on its
# own backing loop device (member loopA -> backing loopB -> file in /tmp,
# both with direct I/O). The slowdown: the zfs-fuse daemon is moved into a
# cgroup v1 blkio group whose only rule caps reads and writes of the THIRD
# member's backing device at RATE_MIB MiB/s (default 4). The loop driver
# issues a member's backing I/O on behalf of the cgroup of the request's
# submitter, so the daemon's I/O to that member waits below it (the member's
# /proc/diskstats shows the time) while anyone else's I/O to it (a readdisk,
# dd) runs at full speed. Without the slowdown the daemon stays where it was:
# the same stacked fixture, nothing throttled.
#
# RUNS (default 10) runs each way, alternating, each `iotriage benchpool
# POOL 8M --tests builtin --runtime 3 --json`. A slowed run counts when the
# telemetry's findings name the slowed member and no other; an unslowed run
# counts when they name no member. Prints one line per run and the counts;
# exit 0 only when both are RUNS of RUNS.
#
# Removes the pool, the loop devices and the group on exit and on signals,
# and moves zfs-fuse back to its own group. Needs root and zfs-fuse running
# (scripts/start-services.sh). Don't run two copies at once (or with
# bench/pool_layout.sh): both move the one zfs-fuse daemon.
set -u
. "$(dirname "$0")/cgroup.sh"
runs=${1:-10}
rate_mib=${2:-4}
here=$(cd "$(dirname "$0")" && pwd)
iotriage=${IOTRIAGE:-$here/../build/iotriage}
tag=iotslow-$$
cg=/sys/fs/cgroup/blkio/$tag
work=$(mktemp -d /tmp/$tag.XXXXXX)
export IOTRIAGE_STATE_DIR=$work/state
pool=$tag
zpid=$(pgrep -x zfs-fuse || true)
home_cg=
backs=() members=() pool_made=

destroy_pool() { # zfs-fuse often says "busy" right after a run; retry.
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		zpool destroy -f "$1" 2>/dev/null && return 0
		sleep 2
	done
	echo "cannot destroy pool '$1'" >&2
	return 1
}
daemon_home() { # moves zfs-fuse back where it was, if it is in our group
	if [ -n "$zpid" ] && grep -q ":blkio:/$tag\$" "/proc/$zpid/cgroup" 2>/dev/null; then
		echo "$zpid" >"/sys/fs/cgroup/blkio$home_cg/cgroup.procs"
	fi
}
cleanup() {
	set +e
	daemon_home
	[ -n "$pool_made" ] && destroy_pool "$pool"
	for l in "${members[@]}" "${backs[@]}"; do losetup -d "$l"; done
	[ -n "$cg" ] && remove_group "$cg" "$zpid"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 2; }
[ -x "$iotriage" ] || { echo "build first: ninja -C build" >&2; exit 2; }
[ -n "$zpid" ] || { echo "zfs-fuse is not running (scripts/start-services.sh)" >&2; exit 2; }
home_cg=$(awk -F: '$2 == "blkio" { print $3 }' "/proc/$zpid/cgroup")
[ "$home_cg" = / ] && home_cg=

for i in 0 1 2 3 4; do
	truncate -s 256M "$work/b$i"
	b=$(losetup -f --show --direct-io=on "$work/b$i") || exit 1
	backs+=("$b")
	m=$(losetup -f --show --direct-io=on "$b") || exit 1
	members+=("$m")
done
zpool create -f -m "$work/mnt" "$pool" raidz "${members[@]}" >/dev/null 2>&1 || { echo "zpool create failed" >&2; exit 1; }
pool_made=1
slowed=${members[2]#/dev/}
mkdir "$cg" || exit 1
dev=$(cat "/sys/block/${backs[2]#/dev/}/dev")
rate=$((rate_mib * 1048576))
echo "$dev $rate" >"$cg/blkio.throttle.read_bps_device"
echo "$dev $rate" >"$cg/blkio.throttle.write_bps_device"
echo "raidz1 of ${members[*]#/dev/}; slowed: $slowed (backing ${backs[2]}, $dev) at $rate_mib MiB/s for zfs-fuse's I/O only"

# one_run slow|none N: benchpool once; prints the line, returns 0 when it counts.
one_run() {
	local mode=$1 n=$2 out=$work/$1.$2.json named members_line
	[ "$mode" = slow ] && echo "$zpid" >"$cg/cgroup.procs"
	"$iotriage" benchpool "$pool" 8M --tests builtin --runtime 3 --json >"$out" 2>"$work/err"
	local rc=$?
	if [ "$mode" = slow ] && ! grep -q ":blkio:/$tag\$" "/proc/$zpid/cgroup"; then
		echo "run $n: zfs-fuse left the group during the run (another user?)"
	fi
	daemon_home
	named=$(jq -r '[.pool_telemetry.findings[].subject] | unique | join(",")' "$out" 2>/dev/null)
	members_line=$(jq -r '[.pool_telemetry.members[] | "\(.name) busy \(.busy * 100 | floor)% wait \(.wait_ms * 10 | floor / 10) ms"] | join("; ")' "$out" 2>/dev/null)
	printf '%-4s run %2d: exit %d, named [%s]  (%s)\n' "$mode" "$n" "$rc" "$named" "$members_line"
	if [ "$mode" = slow ]; then [ "$named" = "$slowed" ]; else [ -z "$named" ] && [ "$rc" -eq 0 ]; fi
}

hit=0 clean=0
for n in $(seq 1 "$runs"); do
	one_run slow "$n" && hit=$((hit + 1))
	one_run none "$n" && clean=$((clean + 1))
done
echo "slowed $slowed named (and no other member) in $hit of $runs runs"
echo "no slowdown: no member named in $clean of $runs runs"
[ "$hit" -eq "$runs" ] && [ "$clean" -eq "$runs" ]
