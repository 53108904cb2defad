#!/usr/bin/env bash
# bench/ceph_osd.sh [RUNS]: doctor and benchpool on the Ceph test cluster
# (tests/ceph/cluster.sh: three BlueStore OSDs on loop devices), RUNS times
# each (default 3) in two states, counting what they name:
#   slowed:   osd.1's process in a blkio cgroup holding its reads and writes
#             of its loop device to 20 MiB/s (cluster.sh slow): doctor rbd and
#             benchpool rbd should name osd.1 with its device and host
#   unslowed: no cgroup: neither should name any OSD
# Prints each run's verdict (doctor's layer and subject; benchpool's slow
# OSD and its finding's subject), then the counts. One cluster, started and
# torn down here (also on failure and Ctrl-C); its start and stop times are
# printed. Needs root and what tests/cli/test_ceph.sh needs; takes the Ceph
# lock (/tmp/iotriage-ceph.lock), as the command test does.
#   IOTRIAGE=build/iotriage bench/ceph_osd.sh 3
# Measured here (2 cores, shared): slowed, doctor and benchpool named osd.1
# (/dev/loop1 on host vm) in 3 of 3 runs each; unslowed, neither named an
# OSD in 0 of 3; cluster start 23 s, stop 11 s, the whole script 226 s.
set -u
runs=${1:-3}
bin=$(readlink -f "${IOTRIAGE:-build/iotriage}")
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${CEPH_OSD_BENCH_LOCKED:-}" ]; then
	exec env CEPH_OSD_BENCH_LOCKED=1 flock /tmp/iotriage-ceph.lock "$0" "$@"
fi
. "$here/tests/ceph/cluster.sh"
work=$(mktemp -d /tmp/iotriage-cephbench.XXXXXX)
C=$work/ceph
export IOTRIAGE_STATE_DIR=$work/state
trap 'ceph_cluster_stop "$C"; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
t0=$SECONDS
ceph_cluster_start "$C" >"$work/start.log" 2>&1 || { cat "$work/start.log" >&2; exit 1; }
echo "cluster start: $((SECONDS - t0)) s"
dev=$(ceph osd metadata 1 --format json | jq -r .bluestore_bdev_dev_node)
want="osd.1 ($dev on host $(hostname -s))"
echo "slowed OSD: $want"

declare -A named
one() { # STATE RUN
	local d b
	"$bin" doctor rbd --quick --no-network --json >"$work/d.json" 2>/dev/null
	d=$(jq -r '.doctor.verdict | "\(.layer) \(.subject)"' "$work/d.json")
	"$bin" benchpool rbd 16M --tests fio --runtime 1 --json >"$work/b.json" 2>/dev/null
	b=$(jq -r '.ceph_osds | "\(.slow_osd) \([.findings[] | select(.code == "osd-slow") | .subject] | join(","))"' "$work/b.json")
	echo "$1 $2: doctor: $d; benchpool: $b"
	[ "$d" = "media $want" ] && named[$1.doctor]=$((${named[$1.doctor]:-0} + 1))
	[ "$b" = "osd.1 $want" ] && named[$1.benchpool]=$((${named[$1.benchpool]:-0} + 1))
	case "$d" in media\ osd.*) named[$1.doctor_any]=$((${named[$1.doctor_any]:-0} + 1)) ;; esac
	case "$b" in null\ *) ;; *) named[$1.benchpool_any]=$((${named[$1.benchpool_any]:-0} + 1)) ;; esac
}
ceph_cluster_slow_osd "$C" 1 20971520 || exit 1
for r in $(seq "$runs"); do one slowed "$r"; done
ceph_cluster_unslow_osd "$C" 1
for r in $(seq "$runs"); do one unslowed "$r"; done
echo "slowed:   doctor named osd.1 with its device and host in ${named[slowed.doctor]:-0} of $runs runs;" \
	"benchpool in ${named[slowed.benchpool]:-0} of $runs"
echo "unslowed: doctor named an OSD in ${named[unslowed.doctor_any]:-0} of $runs runs;" \
	"benchpool in ${named[unslowed.benchpool_any]:-0} of $runs"
t0=$SECONDS
ceph_cluster_stop "$C"
echo "cluster stop: $((SECONDS - t0)) s"
