#!/usr/bin/env bash
# tests/ceph/cluster.sh: a one-machine Ceph test cluster, all user space.
#
#   tests/ceph/cluster.sh start DIR   one mon, one mgr, three BlueStore OSDs on
#                                     loop devices, a replicated pool "rbd",
#                                     CephFS (one MDS) mounted with ceph-fuse
#                                     on DIR/mnt; prints the lines to export
#   tests/ceph/cluster.sh stop DIR    every daemon, the mount, the loop devices
#                                     and DIR removed
#   tests/ceph/cluster.sh slow DIR ID BYTES_PER_S
#                                     osd.ID's process moved into a cgroup v1
#                                     blkio group that holds its reads and
#                                     writes of its loop device to BYTES_PER_S
#   tests/ceph/cluster.sh unslow DIR ID
#                                     osd.ID back in the root group, the group
#                                     removed (stop removes it too)
#   tests/ceph/cluster.sh osd-host DIR ID [HOSTNAME]
#                                     osd.ID restarted under HOSTNAME: its
#                                     process in a UTS namespace of its own
#                                     (unshare --uts; same network namespace,
#                                     file system and /dev), so `ceph osd
#                                     metadata` and the CRUSH map put it on
#                                     host HOSTNAME; without one, back under
#                                     this host's name. Waits until it is up
#                                     and the PGs are clean again.
#   tests/ceph/cluster.sh start DIR ID:HOSTNAME...
#                                     as start, osd.ID under HOSTNAME from the
#                                     first
#
# Everything lives in DIR: its own ceph.conf and keyring (never /etc/ceph),
# daemons run directly (no systemd), on 127.0.0.1 port 40300 (msgr2 only) and
# 40400-40600, memory targets lowered. A failed start tears down what it made.
# Sourced (by a command test), it defines ceph_cluster_start DIR
# [ID:HOSTNAME...], ceph_cluster_stop DIR, ceph_cluster_slow_osd DIR ID
# BYTES_PER_S, ceph_cluster_unslow_osd DIR ID and ceph_cluster_osd_host DIR
# ID [HOSTNAME], and exports CEPH_CONF after a start.
#
# Tuning by the environment: CEPH_OSD_SIZE (default 3G, sparse files in DIR),
# CEPH_MON_PORT (40300).

ceph_cluster_conf() { # DIR: writes DIR/ceph.conf
	local dir=$1 fsid=$2 port=${CEPH_MON_PORT:-40300}
	cat >"$dir/ceph.conf" <<EOF
[global]
fsid = $fsid
mon initial members = a
mon host = v2:127.0.0.1:$port
public network = 127.0.0.0/8
ms bind msgr1 = false
ms bind port min = 40400
ms bind port max = 40600
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $dir/keyring
run dir = $dir/run
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid
log file = $dir/log/\$name.log
mon cluster log file = $dir/log/cluster.log
crash dir = $dir/crash
log to syslog = false
err to syslog = false
osd pool default size = 3
osd pool default min size = 2
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool delete = true
mon warn on insecure global id reclaim allowed = false
mon warn on pool no redundancy = false
auth allow insecure global id reclaim = false
client mount timeout = 15
rados mon op timeout = 15
rados osd op timeout = 30
[client]
# no admin socket: the ceph and rbd commands would fight over one name
admin socket =
# ceph-fuse's object cache (200 MiB by default) kept small
client oc size = 67108864
[mon]
mon data = $dir/\$name
mon data avail warn = 1
mon data avail crit = 0
[mgr]
mgr data = $dir/\$name
mgr initial modules = iostat
[osd]
osd data = $dir/\$name
osd objectstore = bluestore
bluestore block create = false
osd memory target = 536870912
bluestore cache autotune = false
bluestore cache size = 67108864
osd op num shards = 1
osd client watch timeout = 10
osd op num threads per shard = 2
[mds]
mds data = $dir/\$name
mds cache memory limit = 67108864
EOF
}

ceph_cluster_keyring() { # DIR: every entity's key in one keyring, imported by the mon's mkfs
	local k=$1/keyring
	ceph-authtool --create-keyring "$k" --gen-key -n mon. --cap mon 'allow *' >/dev/null &&
	ceph-authtool "$k" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' \
		--cap mds 'allow *' --cap mgr 'allow *' >/dev/null &&
	ceph-authtool "$k" --gen-key -n mgr.x --cap mon 'allow profile mgr' --cap osd 'allow *' \
		--cap mds 'allow *' >/dev/null &&
	ceph-authtool "$k" --gen-key -n mds.a --cap mon 'allow profile mds' --cap osd 'allow *' \
		--cap mds 'allow' --cap mgr 'allow profile mds' >/dev/null || return 1
	local i
	for i in 0 1 2; do
		ceph-authtool "$k" --gen-key -n osd.$i --cap mon 'allow profile osd' --cap mgr 'allow profile osd' \
			--cap osd 'allow *' >/dev/null || return 1
	done
}

ceph_cluster_wait() { # SECONDS COMMAND...: until COMMAND succeeds
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 1
	done
}

ceph_cluster_osds_up() {
	[ "$(ceph osd stat --format json 2>/dev/null | jq -r '.num_up_osds')" = 3 ]
}

ceph_cluster_pgs_clean() {
	ceph pg stat --format json 2>/dev/null |
		jq -e '.pg_summary.num_pgs > 0 and ([.pg_summary.num_pg_by_state[] | select(.name != "active+clean")] | length == 0)'
}

ceph_cluster_mds_active() {
	ceph fs dump --format json 2>/dev/null | jq -e '[.filesystems[].mdsmap.info[] | select(.state == "up:active")] | length > 0'
}

ceph_cluster_osd() { # DIR ID: a BlueStore OSD on a new loop device
	local dir=$1 id=$2 uuid dev
	truncate -s "${CEPH_OSD_SIZE:-3G}" "$dir/osd.$id.img" || return 1
	dev=$(losetup -f --show "$dir/osd.$id.img") || return 1
	echo "$dev" >>"$dir/loops"
	# The OSD opens a device node of its own in DIR: without udev, nodes in
	# /dev come and go with whoever else makes loop devices here.
	local majmin
	majmin=$(cat "/sys/block/${dev#/dev/}/dev") || return 1
	mknod "$dir/osd.$id.dev" b "${majmin%:*}" "${majmin#*:}" || return 1
	# Held open from here on: another process's `losetup -d` of a device
	# number it used before (its own leftover) then only marks ours
	# auto-clearing instead of detaching it under the OSD.
	sleep 1000000 <>"$dir/osd.$id.dev" >/dev/null 2>&1 &
	echo $! >"$dir/run/hold.osd.$id.pid"
	uuid=$(cat /proc/sys/kernel/random/uuid)
	[ "$(ceph osd new "$uuid")" = "$id" ] || return 1
	mkdir -p "$dir/osd.$id" && ln -s "$dir/osd.$id.dev" "$dir/osd.$id/block" || return 1
	ceph-osd -c "$dir/ceph.conf" -i "$id" --mkfs --osd-uuid "$uuid" >>"$dir/log/mkfs.log" 2>&1 || return 1
	ceph_cluster_osd_run "$dir" "$id" "${3:-}"
}

# DIR ID [HOSTNAME]: osd.ID's daemon started (it forks and writes its pid
# file); under HOSTNAME, in a UTS namespace of its own: the host name it
# reports (ceph osd metadata) and its CRUSH host. Network, mounts and /dev
# stay this host's.
ceph_cluster_osd_run() {
	local dir=$1 id=$2 name=${3:-}
	# What it says while starting goes to its log directory, not the test's output.
	if [ -n "$name" ]; then
		unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' _ "$name" \
			nice -n 10 ceph-osd -c "$dir/ceph.conf" -i "$id" >>"$dir/log/osd-start.log" 2>&1
	else
		nice -n 10 ceph-osd -c "$dir/ceph.conf" -i "$id" >>"$dir/log/osd-start.log" 2>&1
	fi
}

# The host name START's ID:HOSTNAME words give osd.ID, or nothing.
ceph_cluster_host_of() { # ID WORDS...
	local id=$1 w
	shift
	for w in "$@"; do [ "${w%%:*}" = "$id" ] && echo "${w#*:}"; done
	return 0
}

ceph_cluster_osd_reports() { # ID HOSTNAME: up, and its metadata names HOSTNAME
	[ "$(ceph osd dump --format json 2>/dev/null | jq -r ".osds[] | select(.osd == $1) | .up")" = 1 ] &&
	[ "$(ceph osd metadata "$1" --format json 2>/dev/null | jq -r .hostname)" = "$2" ]
}

ceph_cluster_osd_host() { # DIR ID [HOSTNAME]: osd.ID restarted under HOSTNAME (default: this host's)
	local dir=$1 id=$2 name=${3:-} pid i
	pid=$(cat "$dir/run/osd.$id.pid" 2>/dev/null) || { echo "cluster.sh: osd.$id is not running" >&2; return 1; }
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null
	ceph_cluster_osd_run "$dir" "$id" "$name" &&
	ceph_cluster_wait 60 ceph_cluster_osd_reports "$id" "${name:-$(hostname -s)}" &&
	ceph_cluster_wait 120 ceph_cluster_pgs_clean
}

ceph_cluster_start() { # DIR [ID:HOSTNAME...]
	local dir=$1
	shift
	local hosts=("$@")
	local t0=$SECONDS
	for tool in ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph rbd ceph-authtool monmaptool jq; do
		command -v "$tool" >/dev/null || {
			echo "cluster.sh: $tool is missing (scripts/install-test-deps.sh installs it)" >&2
			return 1
		}
	done
	[ ! -e "$dir/ceph.conf" ] || { echo "cluster.sh: $dir already holds a cluster" >&2; return 1; }
	mkdir -p "$dir/run" "$dir/log" "$dir/crash" "$dir/mnt" || return 1
	dir=$(cd "$dir" && pwd)
	export CEPH_CONF=$dir/ceph.conf
	local fsid
	fsid=$(cat /proc/sys/kernel/random/uuid)
	if ! {
		ceph_cluster_conf "$dir" "$fsid" &&
		ceph_cluster_keyring "$dir" &&
		monmaptool --create --addv a "[v2:127.0.0.1:${CEPH_MON_PORT:-40300}]" --fsid "$fsid" "$dir/monmap" >/dev/null &&
		ceph-mon -c "$CEPH_CONF" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring" &&
		nice -n 10 ceph-mon -c "$CEPH_CONF" -i a &&
		ceph_cluster_wait 60 ceph --connect-timeout 5 mon stat &&
		nice -n 10 ceph-mgr -c "$CEPH_CONF" -i x &&
		ceph_cluster_osd "$dir" 0 "$(ceph_cluster_host_of 0 "${hosts[@]}")" &&
		ceph_cluster_osd "$dir" 1 "$(ceph_cluster_host_of 1 "${hosts[@]}")" &&
		ceph_cluster_osd "$dir" 2 "$(ceph_cluster_host_of 2 "${hosts[@]}")" &&
		ceph_cluster_wait 120 ceph_cluster_osds_up &&
		ceph osd pool create rbd 8 8 replicated >/dev/null 2>&1 &&
		ceph osd pool application enable rbd rbd >/dev/null 2>&1 &&
		ceph osd pool create cephfs_metadata 8 8 replicated >/dev/null 2>&1 &&
		ceph osd pool create cephfs_data 8 8 replicated >/dev/null 2>&1 &&
		ceph fs new cephfs cephfs_metadata cephfs_data >/dev/null 2>&1 &&
		nice -n 10 ceph-mds -c "$CEPH_CONF" -i a &&
		ceph_cluster_wait 120 ceph_cluster_mds_active &&
		ceph_cluster_wait 180 ceph_cluster_pgs_clean &&
		ceph-fuse -c "$CEPH_CONF" "$dir/mnt" >>"$dir/log/fuse.log" 2>&1 &&
		ceph_cluster_wait 30 mountpoint -q "$dir/mnt"
	}; then
		echo "cluster.sh: the cluster did not come up; its logs: $dir/log" >&2
		tail -n 5 "$dir"/log/*.log >&2 2>/dev/null
		ceph_cluster_stop "$dir"
		return 1
	fi
	echo "$((SECONDS - t0))" >"$dir/start-seconds"
}

ceph_cluster_osd_cgroup() { # DIR ID: the blkio group that slows osd.ID of the cluster in DIR
	echo "/sys/fs/cgroup/blkio/iotriage-ceph-$(basename "$1")-osd$2"
}

ceph_cluster_slow_osd() { # DIR ID BYTES_PER_S
	local dir=$1 id=$2 rate=$3 cg node pid
	cg=$(ceph_cluster_osd_cgroup "$dir" "$id")
	node=$dir/osd.$id.dev
	[ -d /sys/fs/cgroup/blkio ] || { echo "cluster.sh: no cgroup v1 blkio hierarchy to slow an OSD" >&2; return 1; }
	pid=$(cat "$dir/run/osd.$id.pid" 2>/dev/null) && kill -0 "$pid" 2>/dev/null ||
		{ echo "cluster.sh: osd.$id is not running" >&2; return 1; }
	local majmin
	majmin=$(printf '%d:%d' "0x$(stat -c %t "$node")" "0x$(stat -c %T "$node")") || return 1
	mkdir -p "$cg" &&
	echo "$majmin $rate" >"$cg/blkio.throttle.read_bps_device" &&
	echo "$majmin $rate" >"$cg/blkio.throttle.write_bps_device" &&
	echo "$pid" >"$cg/cgroup.procs"
}

ceph_cluster_unslow_osd() { # DIR ID
	local cg pid
	cg=$(ceph_cluster_osd_cgroup "$1" "$2")
	[ -d "$cg" ] || return 0
	for pid in $(cat "$cg/cgroup.procs" 2>/dev/null); do echo "$pid" >/sys/fs/cgroup/blkio/cgroup.procs; done
	rmdir "$cg"
}

ceph_cluster_stop() { # DIR: everything started in DIR, then DIR
	local dir=$1 pid f i
	[ -d "$dir" ] || return 0
	if mountpoint -q "$dir/mnt" 2>/dev/null; then
		fusermount -u "$dir/mnt" 2>/dev/null || umount "$dir/mnt" 2>/dev/null || umount -l "$dir/mnt"
	fi
	for f in "$dir"/run/*.pid; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		kill -TERM "$pid" 2>/dev/null
	done
	for f in "$dir"/run/*.pid; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL "$pid" 2>/dev/null
	done
	# A pid file can be missing if a daemon died while starting: anything
	# still holding this cluster's conf is ours.
	for pid in $(pgrep -f -- "-c $dir/ceph.conf" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
	sleep 0.5
	for i in 0 1 2; do ceph_cluster_unslow_osd "$dir" "$i" 2>/dev/null; done
	if [ -f "$dir/loops" ]; then
		while read -r f; do losetup -d "$f" 2>/dev/null; done <"$dir/loops"
	fi
	rm -rf "$dir"
	[ ! -e "$dir" ]
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u
	case "${1:-}:${2:-}" in
	start:?*)
		shift
		ceph_cluster_start "$@" || exit 1
		echo "export CEPH_CONF=$CEPH_CONF"
		;;
	stop:?*) ceph_cluster_stop "$2" ;;
	slow:?*) ceph_cluster_slow_osd "$2" "${3:?ID}" "${4:?BYTES_PER_S}" ;;
	unslow:?*) ceph_cluster_unslow_osd "$2" "${3:?ID}" ;;
	osd-host:?*) ceph_cluster_osd_host "$2" "${3:?ID}" "${4:-}" ;;
	*) echo "usage: $0 start DIR [ID:HOSTNAME...] | stop DIR | slow DIR ID BYTES_PER_S | unslow DIR ID |" \
		"osd-host DIR ID [HOSTNAME]" >&2; exit 2 ;;
	esac
fi
