#!/bin/sh
# capture_sysfs.sh OUT KNAME...: copy the part of /sys (and /dev/disk/by-id)
# that disk/enumerate.c reads for each named block device into OUT/sys and
# OUT/dev, so that disk_enumerate(OUT/sys, OUT/dev) sees what it saw here.
#
# Copied, per device (absent files are skipped): the /sys/block/KNAME link
# and the /sys/dev/block/MAJ:MIN links (recreated with the kernel's own
# relative targets, which stay inside the copy), and in the device's
# directory: dev size removable serial wwid disksize loop/backing_file
# queue/logical_block_size queue/physical_block_size queue/rotational, the
# device link with device/vendor model serial wwid vpd_pg80 vpd_pg89 (the
# binary VPD pages: unit serial number, ATA information) and
# enclosure_device:* links, an NVMe subsystem's controller links (nvmeN,
# for a multipath namespace), and each partition's dev, partition and size
# files.
# A hidden device (an NVMe multipath path, nvmeXcYnZ) has no dev file and
# no /sys/dev/block link. /dev/disk/by-id
# links that name a captured device or its partitions are copied as links.
# Nothing else (stat, holders, uevent...) is copied: the tree holds exactly
# what the code reads.
#
# POSIX sh and busybox only (readlink, cp, ln, mkdir, ls), so the qemu VM's
# init can run it too. SYSFS and DEV select other roots (default /sys, /dev).
set -eu

[ $# -ge 2 ] || { echo "usage: $0 OUT KNAME..." >&2; exit 2; }
out=$1
shift
sys=${SYSFS:-/sys}
dev=${DEV:-/dev}

# copy_file REL: /sys/REL -> OUT/sys/REL when it is a readable regular file.
copy_file() {
	[ -f "$sys/$1" ] && [ ! -L "$sys/$1" ] || return 0
	mkdir -p "$out/sys/${1%/*}"
	cat "$sys/$1" >"$out/sys/$1" 2>/dev/null || rm -f "$out/sys/$1"
}

# copy_link REL: the symlink /sys/REL recreated with the same target.
copy_link() {
	[ -L "$sys/$1" ] || return 0
	mkdir -p "$out/sys/${1%/*}"
	ln -sfn "$(readlink "$sys/$1")" "$out/sys/$1"
}

# resolve REL: the directory the /sys link REL points at, relative to /sys.
sysreal=$(readlink -f "$sys")
resolve() {
	r=$(readlink -f "$sys/$1")
	echo "${r#"$sysreal"/}"
}

for k in "$@"; do
	[ -e "$sys/block/$k" ] || { echo "$0: no $sys/block/$k" >&2; exit 1; }
	copy_link "block/$k"
	d=$(resolve "block/$k")
	for f in dev size removable serial wwid disksize loop/backing_file \
		queue/logical_block_size queue/physical_block_size queue/rotational; do
		copy_file "$d/$f"
	done
	if [ -L "$sys/$d/device" ]; then
		copy_link "$d/device"
		dd=$(resolve "$d/device")
		for f in vendor model serial wwid vpd_pg80 vpd_pg89; do
			copy_file "$dd/$f"
		done
		for c in "$sys/$dd"/nvme[0-9]*; do
			[ -L "$c" ] && copy_link "$dd/${c##*/}"
		done
		for e in "$sys/$d/device"/enclosure_device:*; do
			[ -L "$e" ] && copy_link "$dd/${e##*/}"
		done
	fi
	[ -f "$sys/$d/dev" ] && copy_link "dev/block/$(cat "$sys/$d/dev")"
	for p in "$sys/$d"/*; do
		[ -f "$p/partition" ] || continue
		copy_file "$d/${p##*/}/partition"
		copy_file "$d/${p##*/}/size"
		copy_file "$d/${p##*/}/dev"
		copy_link "dev/block/$(cat "$p/dev")"
	done
	if [ -d "$dev/disk/by-id" ]; then
		for l in "$dev/disk/by-id"/*; do
			[ -L "$l" ] || continue
			t=$(readlink "$l")
			case ${t##*/} in
			"$k" | "$k"[0-9]* | "$k"p[0-9]*)
				mkdir -p "$out/dev/disk/by-id"
				ln -sfn "$t" "$out/dev/disk/by-id/${l##*/}" ;;
			esac
		done
	fi
done
