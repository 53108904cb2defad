#!/bin/sh
# capture_links.sh OUT KNAME...: copy the link-rate files that disk/link.c
# reads for each named block device into OUT/sys (beside what
# capture_sysfs.sh copies), so that disk_link_read(OUT/sys, KNAME) sees
# what it saw here. Walking up the device's resolved path, from each
# directory: a PCI device's current_link_speed, current_link_width,
# max_link_speed, max_link_width; an ATA port's (ataN) links' ata_link
# files sata_spd, sata_spd_limit, hw_sata_spd_limit and each device's
# ata_device id (IDENTIFY words); a SAS port's (port-*) phy links and each
# phy's sas_phy negotiated_linkrate, maximum_linkrate, maximum_linkrate_hw.
# POSIX sh and busybox only. SYSFS selects another root (default /sys).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OUT KNAME..." >&2; exit 2; }
out=$1
shift
sys=${SYSFS:-/sys}
sysreal=$(readlink -f "$sys")
copy_file() { # REL
	[ -f "$sys/$1" ] && [ ! -L "$sys/$1" ] || return 0
	mkdir -p "$out/sys/${1%/*}"
	cat "$sys/$1" >"$out/sys/$1" 2>/dev/null || rm -f "$out/sys/$1"
}
copy_link() { # REL
	[ -L "$sys/$1" ] || return 0
	mkdir -p "$out/sys/${1%/*}"
	ln -sfn "$(readlink "$sys/$1")" "$out/sys/$1"
}
rel() { r=$(readlink -f "$1"); echo "${r#"$sysreal"/}"; }
phy_files() { # REL of a phy-* directory
	for f in "$sys/$1"/sas_phy/*/negotiated_linkrate "$sys/$1"/sas_phy/*/maximum_linkrate "$sys/$1"/sas_phy/*/maximum_linkrate_hw; do
		[ -f "$f" ] && copy_file "$(rel "$f")"
	done
	return 0
}
for k in "$@"; do
	d=$(rel "$sys/block/$k")
	while [ -n "$d" ] && [ "$d" != devices ] && [ "$d" != . ]; do
		for f in current_link_speed current_link_width max_link_speed max_link_width; do
			copy_file "$d/$f"
		done
		for l in "$sys/$d"/link*; do
			[ -d "$l" ] || continue
			for f in "$l"/ata_link/*/sata_spd "$l"/ata_link/*/sata_spd_limit "$l"/ata_link/*/hw_sata_spd_limit "$l"/dev*/ata_device/*/id; do
				[ -f "$f" ] && copy_file "$(rel "$f")"
			done
		done
		case ${d##*/} in port-*)
			for p in "$sys/$d"/phy-*; do
				[ -L "$p" ] || continue
				copy_link "$d/${p##*/}"
				phy_files "$(rel "$p")"
			done ;;
		esac
		case $d in */*) d=${d%/*} ;; *) d="" ;; esac
	done
done
