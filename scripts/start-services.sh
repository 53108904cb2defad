#!/usr/bin/env bash
# Starts the services the tests use: the zfs-fuse daemon (ZFS pools on loop
# devices). Idempotent; waits until zpool answers and the daemon's kstats
# (/zfs-kstat, its ARC figures) are mounted: CI once ran test_arc before
# that mount appeared and skipped its check of the real daemon.
set -eu
if command -v zfs-fuse >/dev/null && ! pgrep -x zfs-fuse >/dev/null; then
	zfs-fuse
fi
for _ in $(seq 50); do
	zpool list >/dev/null 2>&1 && [ -r /zfs-kstat/zfs/arcstats/c_max ] && exit 0
	sleep 0.2
done
echo "zfs-fuse did not start: zpool list fails or /zfs-kstat is not mounted" >&2
exit 1
