#!/usr/bin/env bash
# tests/data/capture_openzfs.sh CONSOLE_LOG: keeps what OpenZFS printed in
# the VM (tests/vm/openzfs_scenario.sh, run by tests/vm/openzfs.sh) as the
# captured test data the pool parsers are tested on:
#   openzfs232_<layout>_status[_P].txt   zpool status [-P] POOL
#   openzfs232_<layout>_status_j.json     zpool status -j POOL
#   openzfs232_ashift9_sync_get.txt       zpool get -H -p all; zfs get -H -p all
#   openzfs232_mirror_slow_log_iostat_l[Hp].txt  zpool iostat -v -l [-H -p] during sync writes
#   openzfs232_raidz1_ashift9_zdb_label.txt zdb -l MEMBER of a raidz1 made with ashift=9
#   openzfs232_mirror_iostat_w[Hp].txt      zpool iostat -w [-H -p] (latency histograms)
# KEEP_CONSOLE=FILE bash tests/cli/test_openzfs_vm.sh keeps a console to run this on.
#
# tests/data/capture_openzfs.sh CONSOLE_LOG 2.1: the same scenario booted with
# OpenZFS 2.1 (IOTRIAGE_OPENZFS_SUITE=bookworm bash tests/vm/openzfs.sh
# IOTRIAGE tests/vm/openzfs_scenario.sh CONSOLE_LOG): its zpool status text
# only (2.1 has no -j), as openzfs2111_<layout>_status[_P].txt.
set -eu
console=${1:?console log}
version=${2:-2.3}
here=$(cd "$(dirname "$0")" && pwd)
section() { # section NAME: the lines between "=== BEGIN NAME" and its END
	tr -d '\r' <"$console" | awk -v n="$1" '$0 == "=== BEGIN " n { on = 1; next } on && index($0, "=== END " n " rc=") == 1 { exit } on'
}
keep() { # keep SECTION FILE
	section "$1" >"$here/$2"
	[ -s "$here/$2" ] || { echo "capture_openzfs: section $1 is empty" >&2; exit 1; }
	echo "kept $2"
}
if [ "$version" = 2.1 ]; then
	grep -q '^zfs-kmod-2\.1\.' <(tr -d '\r' <"$console") || { echo "capture_openzfs: not an OpenZFS 2.1 console" >&2; exit 1; }
	keep tank-status-P openzfs2111_mirror_log_cache_spare_status_P.txt
	keep tank-status openzfs2111_mirror_log_cache_spare_status.txt
	keep rz2-status-P openzfs2111_raidz2_special_log_status_P.txt
	keep dr-status-P openzfs2111_draid1_spare_in_use_status_P.txt
	keep deg-replacing-status-P openzfs2111_raidz1_offline_replacing_status_P.txt
	keep deg-guid-status-P openzfs2111_raidz1_guid_member_status_P.txt
	keep deg-guid-status openzfs2111_raidz1_guid_member_status.txt
	keep tank-iostat-lHp openzfs2111_mirror_slow_log_iostat_lHp.txt
	keep tank-iostat-wHp openzfs2111_mirror_iostat_wHp.txt
	exit 0
fi
keep tank-status-P openzfs232_mirror_log_cache_spare_status_P.txt
keep tank-status openzfs232_mirror_log_cache_spare_status.txt
keep tank-status-j openzfs232_mirror_log_cache_spare_status_j.json
keep rz2-status-P openzfs232_raidz2_special_log_status_P.txt
keep rz2-status-j openzfs232_raidz2_special_log_status_j.json
keep dr-status-P openzfs232_draid1_spare_in_use_status_P.txt
keep dr-status openzfs232_draid1_spare_in_use_status.txt
keep dr-status-j openzfs232_draid1_spare_in_use_status_j.json
keep deg-replacing-status-P openzfs232_raidz1_offline_replacing_status_P.txt
keep deg-replacing-status-j openzfs232_raidz1_offline_replacing_status_j.json
keep deg-guid-status-P openzfs232_raidz1_guid_member_status_P.txt
keep deg-guid-status openzfs232_raidz1_guid_member_status.txt
keep deg-guid-status-j openzfs232_raidz1_guid_member_status_j.json
keep ash-get openzfs232_ashift9_sync_get.txt
keep tank-iostat-lHp openzfs232_mirror_slow_log_iostat_lHp.txt
keep tank-iostat-l openzfs232_mirror_slow_log_iostat_l.txt
keep rprz-label openzfs232_raidz1_ashift9_zdb_label.txt
keep tank-iostat-wHp openzfs232_mirror_iostat_wHp.txt
keep tank-iostat-w openzfs232_mirror_iostat_w.txt
