#!/usr/bin/env bash
# bench/pool_layout.sh [RATE_MIB] [SIZE_MIB]: pool/layout_model against real
# pools (issue 18, item 2). Loop devices (files in /tmp), every member capped
# at RATE_MIB MiB/s for reads and writes by one cgroup v1 blkio group
# (default 8), each member's raw read and write measured through that cap
# (dd O_DIRECT, 32 MiB; the read twice, the better kept; a 4-deep fio read
# shown beside it), then per layout a SIZE_MIB (default 128) file of
# incompressible data written (dd conv=fdatasync) and read back sequentially:
#   zfs-fuse mirror of 2, raidz1 and raidz2 of 5 (dataset primarycache=metadata, page
#     cache dropped before the read; zfs-fuse does the member I/O in its
#     daemon, so the DAEMON's pid goes into the group while the pool works);
#   btrfs raid1 of 2, raid0 of 3 (dd O_DIRECT, run inside the group: the
#     I/O is issued by dd itself).
# Prints each layout's figures, how many MB each member served during the
# read (/proc/diskstats), the model's expectation
# (build/bench_layout_expect) and the ratio. Removes pools, mounts, loop
# devices and the group on exit (and moves zfs-fuse back to the root group).
# LAYOUTS (environment): a space list of the names above to run only those.
# Needs root, zfs-fuse running (scripts/start-services.sh), btrfs-progs.
set -u
. "$(dirname "$0")/cgroup.sh"
rate_mib=${1:-8}
size_mib=${2:-128}
here=$(cd "$(dirname "$0")" && pwd)
expect_bin=${EXPECT:-$here/../build/bench_layout_expect}
tag=iotpoolev-$$
cg=/sys/fs/cgroup/blkio/$tag
work=$(mktemp -d /tmp/$tag.XXXXXX)
rate=$((rate_mib * 1048576))
loops=() pools=() zpid=$(pgrep -x zfs-fuse || true)

# destroy_pool POOL: zfs-fuse often says "busy" right after a run; retry.
destroy_pool() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		zpool destroy -f "$1" 2>/dev/null && return 0
		sleep 2
	done
	echo "cannot destroy pool '$1'" >&2
	return 1
}

cleanup() {
	set +e
	mountpoint -q "$work/mnt" && umount "$work/mnt"
	for p in "${pools[@]}"; do [ -n "$p" ] && destroy_pool "$p"; done
	if [ -n "$zpid" ] && grep -q ":blkio:/$tag\$" "/proc/$zpid/cgroup" 2>/dev/null; then
		echo "$zpid" >/sys/fs/cgroup/blkio/cgroup.procs
	fi
	for l in "${loops[@]}"; do wipefs -aq "$l" 2>/dev/null; losetup -d "$l"; done
	[ -n "$cg" ] && remove_group "$cg" "$zpid"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

[ -x "$expect_bin" ] || { echo "build first: ninja -C build" >&2; exit 2; }
[ -n "$zpid" ] || { echo "zfs-fuse is not running (scripts/start-services.sh)" >&2; exit 2; }
mkdir "$cg" "$work/mnt"
for i in 0 1 2 3 4; do
	truncate -s 512M "$work/m$i"
	l=$(losetup -f --show --direct-io=on "$work/m$i") || exit 1
	loops+=("$l")
	for knob in read_bps_device write_bps_device; do
		echo "$(cat /sys/block/${l#/dev/}/dev) $rate" >"$cg/blkio.throttle.$knob"
	done
done
head -c $((size_mib * 1048576)) /dev/urandom >"/dev/shm/$tag.data"
trap 'cleanup; rm -f "/dev/shm/$tag.data"' EXIT

# capped CMD...: CMD run inside the group.
capped() { bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@"; }
# rate_of: bytes / seconds from dd's summary line on stdin.
rate_of() { awk '/copied/ { for (i = 1; i <= NF; i++) if ($i ~ /^s,?$/) s = $(i-1); print $1 / s }' | tail -1; }
mbs() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# diskstats_of DEV...: "sectors_read io_ms" per device, one line each.
diskstats_of() {
	local d
	for d in "$@"; do awk -v n="${d#/dev/}" '$3 == n { print $6, $13 }' /proc/diskstats; done
}
# member_spread SECONDS BEFORE AFTER DEV...: each member's MB read and
# MB/s over the run, and how busy it was (diskstats deltas).
member_spread() {
	local secs=$1 before=$2 after=$3; shift 3
	paste <(echo "$before") <(echo "$after") | awk -v s="$secs" -v devs="$*" '
		BEGIN { split(devs, d, " ") }
		{ mb = ($3 - $1) * 512 / 1e6; printf "  %s %.1f MB (%.1f MB/s, busy %.0f%%)", d[NR], mb, mb / s, ($4 - $2) / 10 / s }
		END { print "" }'
}

declare -A raw_r raw_w raw_r4
for l in "${loops[@]}"; do
	raw_w[$l]=$(capped dd if="/dev/shm/$tag.data" of="$l" bs=1M count=32 oflag=direct 2>&1 | rate_of)
	# a member's rate is what it can give: the better of two reads (a lone
	# read came out at 75% of the cap once, under load, and its member set
	# every layout's expectation low)
	raw_r[$l]=$( (capped dd if="$l" of=/dev/null bs=1M count=32 iflag=direct 2>&1 | rate_of
		capped dd if="$l" of=/dev/null bs=1M count=32 skip=32 iflag=direct 2>&1 | rate_of) | sort -g | tail -1)
	# the same read with 4 requests in flight (the pool keeps several per member)
	raw_r4[$l]=$(capped fio --name=qd4 --filename="$l" --rw=read --bs=1M --size=32M --direct=1 \
		--ioengine=libaio --iodepth=4 --output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '{ print $7 * 1024 }')
	echo "member $l raw: read $(mbs "${raw_r[$l]}") MB/s (QD4 $(mbs "${raw_r4[$l]}")), write $(mbs "${raw_w[$l]}") MB/s (cap $(mbs $rate))"
done

report() { # NAME FS LAYOUT READ WRITE MEMBERS...
	local name=$1 fs=$2 layout=$3 rd=$4 wr=$5; shift 5
	local args=() m
	for m in "$@"; do args+=("${raw_r[$m]},${raw_w[$m]}"); done
	read -r er ew < <("$expect_bin" "$fs" "$layout" "${args[@]}")
	printf '%-16s read %6s MB/s of %6s expected (%3.0f%%)   write %6s MB/s of %6s expected (%3.0f%%)\n' \
		"$name" "$(mbs "$rd")" "$(mbs "$er")" "$(awk -v a="$rd" -v b="$er" 'BEGIN{print 100*a/b}')" \
		"$(mbs "$wr")" "$(mbs "$ew")" "$(awk -v a="$wr" -v b="$ew" 'BEGIN{print 100*a/b}')"
}

zfs_layout() { # NAME VDEVTYPE MEMBERS...
	local name=$1 type=$2; shift 2
	local pool=$tag-$name
	zpool create -f -m "$work/$name" "$pool" "$type" "$@" >/dev/null 2>&1 || { echo "$name: zpool create failed"; return; }
	pools+=("$pool")
	zfs create -o primarycache=metadata -o compression=off "$pool/t" || return
	echo "$zpid" >"$cg/cgroup.procs"
	local wr rd
	wr=$(dd if="/dev/shm/$tag.data" of="$work/$name/t/f" bs=1M conv=fdatasync 2>&1 | rate_of)
	sync; echo 3 >/proc/sys/vm/drop_caches
	local before after t0 t1
	before=$(diskstats_of "$@"); t0=$(date +%s.%N)
	rd=$(dd if="$work/$name/t/f" of=/dev/null bs=1M 2>&1 | rate_of)
	t1=$(date +%s.%N); after=$(diskstats_of "$@")
	echo "zfs $name ashift $(zdb -C "$pool" 2>/dev/null | awk '/ashift/ { print $2; exit }'), read spread:$(member_spread "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$before" "$after" "$@")"
	grep -q ":blkio:/$tag\$" "/proc/$zpid/cgroup" || echo "$name: zfs-fuse left the group during the run (another user?): figures not capped"
	echo "$zpid" >/sys/fs/cgroup/blkio/cgroup.procs
	report "zfs $name" zfs "$type" "$rd" "$wr" "$@"
	destroy_pool "$pool" || exit 1 # its members must not be reused while it lives
	pools=("${pools[@]/$pool}")
}

btrfs_layout() { # NAME PROFILE MEMBERS...
	local name=$1 profile=$2; shift 2
	mkfs.btrfs -q -f -d "$profile" -m "$profile" "$@" >/dev/null 2>&1 || { echo "$name: mkfs.btrfs failed"; return; }
	mount "$1" "$work/mnt" || return
	local wr rd
	wr=$(capped dd if="/dev/shm/$tag.data" of="$work/mnt/f" bs=1M oflag=direct conv=fdatasync 2>&1 | rate_of)
	sync; echo 3 >/proc/sys/vm/drop_caches
	local before after t0 t1
	before=$(diskstats_of "$@"); t0=$(date +%s.%N)
	rd=$(capped dd if="$work/mnt/f" of=/dev/null bs=1M iflag=direct 2>&1 | rate_of)
	t1=$(date +%s.%N); after=$(diskstats_of "$@")
	echo "btrfs $name read spread:$(member_spread "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$before" "$after" "$@")"
	umount "$work/mnt"
	report "btrfs $name" btrfs "$profile" "$rd" "$wr" "$@"
	wipefs -aq "$@"
}

# LAYOUTS="mirror2 raidz1x5" (environment) runs only those, to repeat one.
wanted() { [ -z "${LAYOUTS:-}" ] || [[ " $LAYOUTS " == *" $1 "* ]]; }
L=("${loops[@]}")
wanted mirror2 && zfs_layout mirror2 mirror "${L[0]}" "${L[1]}"
wanted raidz1x5 && zfs_layout raidz1x5 raidz1 "${L[@]}"
wanted raidz2x5 && zfs_layout raidz2x5 raidz2 "${L[@]}"
wanted raid1x2 && btrfs_layout raid1x2 raid1 "${L[0]}" "${L[1]}"
wanted raid0x3 && btrfs_layout raid0x3 raid0 "${L[0]}" "${L[1]}" "${L[2]}"
exit 0
