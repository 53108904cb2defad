#!/usr/bin/env bash
# bench/doctor_layout.sh [RUNS] [RATE_MIB] [zfs|btrfs]: doctor's pool verdict
# against the layout model (issue 18). A zfs-fuse raidz1 of five loop devices
# (files in /tmp), or with btrfs a btrfs raid1 of two of them, every member
# capped at RATE_MIB MiB/s (default 8) for reads and writes by one cgroup v1
# blkio group holding both doctor (its step-1 raw reads; on btrfs also the
# pool's I/O, which doctor issues O_DIRECT itself) and the zfs-fuse daemon
# (the pool's member I/O on ZFS). Per run:
#   healthy: doctor POOL --quick --no-network; the pool should not be named
#   forced:  the members' writes capped at a third of RATE_MIB as well (a
#            shared throttle on all members' writes): the pool should be
#            named, by its layout's expectation
# Prints each run's verdict and the step-4 summary, then the counts.
# Removes the pool, the loop devices and the group on exit (and moves
# zfs-fuse back to the root group). Needs root, zfs-fuse running.
set -u
runs=${1:-3}
rate=$((${2:-8} * 1024 * 1024))
fs=${3:-zfs}
case $fs in zfs|btrfs) ;; *) echo "usage: $0 [RUNS] [RATE_MIB] [zfs|btrfs]" >&2; exit 2 ;; esac
bin=${IOTRIAGE:-build/iotriage}
tag=iotdl-$$
pool=iotdl-$$
cg=/sys/fs/cgroup/blkio/$tag
dir=$(mktemp -d /tmp/iotdl.XXXXXX)
zpid=$(pgrep -x zfs-fuse | head -1)
[ -n "$zpid" ] || { echo "zfs-fuse is not running (scripts/start-services.sh)" >&2; exit 2; }
loops=()
cleanup() {
	if grep -q ":blkio:/$tag\$" "/proc/$zpid/cgroup" 2>/dev/null; then
		echo "$zpid" >/sys/fs/cgroup/blkio/cgroup.procs
	fi
	mountpoint -q "$dir/mnt" && umount "$dir/mnt"
	[ "$fs" = zfs ] && for _ in 1 2 3 4 5 6; do zpool destroy "$pool" 2>/dev/null && break; zpool list "$pool" >/dev/null 2>&1 || break; sleep 2; done
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rmdir "$cg" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
members=5
[ "$fs" = btrfs ] && members=2
for i in $(seq 1 $members); do
	truncate -s 256M "$dir/m$i"
	loops+=("$(losetup -f --show --direct-io=on "$dir/m$i")")
done
mkdir "$cg"
cap() { # cap KNOB RATE: every member
	for l in "${loops[@]}"; do echo "$(cat /sys/block/${l#/dev/}/dev) $2" >"$cg/blkio.throttle.$1"; done
}
cap read_bps_device "$rate"
cap write_bps_device "$rate"
if [ "$fs" = zfs ]; then
	zpool create -f "$pool" raidz "${loops[@]}" >/dev/null 2>&1 || { echo "zpool create failed" >&2; exit 1; }
else
	mkfs.btrfs -q -f -L "$pool" -d raid1 -m raid1 "${loops[0]}" "${loops[1]}" >/dev/null 2>&1 &&
		mkdir "$dir/mnt" && mount "${loops[0]}" "$dir/mnt" || { echo "mkfs.btrfs or mount failed" >&2; exit 1; }
fi
healthy_named=0 forced_named=0
doctor() { # doctor NAME: one run with zfs-fuse and doctor in the group
	echo "$zpid" >"$cg/cgroup.procs"
	bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$bin" doctor "$pool" --quick --no-network --json \
		>"$dir/$1.json" 2>"$dir/$1.err"
	echo "$zpid" >/sys/fs/cgroup/blkio/cgroup.procs
	layer=$(jq -r .doctor.verdict.layer "$dir/$1.json")
	echo "$1: layer $layer; $(jq -r '.doctor.steps[3].summary' "$dir/$1.json")"
	[ "$layer" = pool ] && echo "   evidence: $(jq -r .doctor.verdict.evidence "$dir/$1.json")"
	[ "$layer" = pool ]
}
for run in $(seq 1 "$runs"); do
	cap write_bps_device "$rate"
	doctor "healthy-$run" && healthy_named=$((healthy_named + 1))
	cap write_bps_device $((rate / 3))
	doctor "forced-$run" && forced_named=$((forced_named + 1))
done
echo "pool named: healthy $healthy_named of $runs, forced to a third of its write rate $forced_named of $runs"
