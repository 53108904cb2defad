#!/usr/bin/env bash
# Starts the services the tests use: the zfs-fuse daemon (ZFS pools on loop
# devices). Idempotent; waits until zpool answers and the daemon's kstats
# (/zfs-kstat, its ARC figures, which test_arc reads) are mounted.
#
# zfs-fuse mounts /zfs-kstat lazily, at the first pool it creates or imports
# after it started: a fresh daemon with no pool has no kstats (CI's test_arc
# skipped its real-daemon check that way). So a throwaway pool on a sparse
# file is created and destroyed here. A daemon that died leaves /zfs-kstat
# mounted with no one serving it ("Transport endpoint is not connected");
# that stale mount is removed before a daemon starts.
set -eu

kstat_ready() { [ -r /zfs-kstat/zfs/arcstats/c_max ]; }

drop_stale_kstat() {
	if grep -q ' /zfs-kstat ' /proc/mounts && ! kstat_ready; then
		umount -l /zfs-kstat 2>/dev/null || true
	fi
}

wait_until() { # tries, command...
	local tries=$1; shift
	for _ in $(seq "$tries"); do
		"$@" && return 0
		sleep 0.2
	done
	return 1
}

zpool_answers() { zpool list >/dev/null 2>&1; }

probe_pool() { # a pool created and destroyed: zfs-fuse mounts its kstats
	local img=/var/tmp/iotriage-kstat-probe.img name=iotriage-kstat-probe
	truncate -s 128M "$img"
	zpool create -f "$name" "$img" >/dev/null 2>&1 || true
	zpool destroy -f "$name" >/dev/null 2>&1 || true
	rm -f "$img"
}

command -v zfs-fuse >/dev/null || exit 0
no_daemon() { ! pgrep -x zfs-fuse >/dev/null; }
start_daemon() {
	drop_stale_kstat
	zfs-fuse
	wait_until 50 zpool_answers
}

if no_daemon; then
	start_daemon || { echo "zfs-fuse did not start: zpool list fails" >&2; exit 1; }
elif ! wait_until 50 zpool_answers; then
	# A daemon that was killed can take seconds to exit: wait, then start one.
	wait_until 50 no_daemon || { echo "zfs-fuse runs but does not answer zpool list" >&2; exit 1; }
	start_daemon || { echo "zfs-fuse did not start: zpool list fails" >&2; exit 1; }
fi
kstat_ready && exit 0
probe_pool
wait_until 50 kstat_ready && exit 0
# Not fatal: only test_arc needs the kstats, and it says why it skips.
echo "zfs-fuse runs, but /zfs-kstat is not mounted after a pool was created: test_arc will skip its real-daemon check" >&2
exit 0
