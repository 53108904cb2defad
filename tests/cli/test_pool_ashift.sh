#!/usr/bin/env bash
# benchpool reads the pool's ashift and its members' physical sector sizes
# (triage/pool/pool_evidence.h) for the ashift finding (pool/pool_findings.h):
# a zfs-fuse mirror of two 4096-byte-sector loop devices created with
# ashift=12 reports ashift 12 and 4096-byte sectors and no ashift finding;
# a default pool on 512-byte-sector loop devices reports zfs-fuse's ashift 0
# ("auto", not judged) and 512.
#
# The finding itself (ashift below the sector) is tested on parsed input in
# test_pool_state only: it cannot be made real here. zfs-fuse defaults to
# ashift 12 whatever the device; an explicit ashift=9 on a 4096-byte-sector
# loop device (logical = physical) makes the zfs-fuse daemon retry its
# 512-byte I/O forever, hanging every zpool command on the machine; a 512e
# device (512 logical, 4096 physical) needs scsi_debug physblk_exp=3, and
# this kernel has no modules.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "pool ashift" "needs root for loop devices and zfs-fuse"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "pool ashift" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi

pool=iotriage-ash-$$
d1=$(make_loop 128M 4096) && d2=$(make_loop 128M 4096)
zpool create -f -o ashift=12 -m "$TMP/m1" "$pool" mirror "$d1" "$d2" >/dev/null 2>&1
ok $? "zpool create -o ashift=12: a mirror of two 4096-byte-sector loop devices"
undo "destroy_pool $pool || destroy_pool $pool"
"$IOTRIAGE" benchpool "$pool" 8M --tests builtin --json >"$TMP/a12.json" 2>/dev/null
check "ashift=12 read from the pool, 4096-byte sectors from the members" -- \
	jtest "$TMP/a12.json" '.pool_settings | .read and .ashift == 12 and .largest_physical_sector == 4096'
check "ashift 12 on 4096-byte sectors: no ashift finding" -- \
	jtest "$TMP/a12.json" '[.pool_settings.findings[] | select(.code == "ashift")] == []'
destroy_pool "$pool" || destroy_pool "$pool"

pool2=iotriage-ash0-$$
d3=$(make_loop 128M) && d4=$(make_loop 128M)
zpool create -f -m "$TMP/m2" "$pool2" mirror "$d3" "$d4" >/dev/null 2>&1
ok $? "zpool create (default ashift): a mirror of two 512-byte-sector loop devices"
undo "destroy_pool $pool2 || destroy_pool $pool2"
"$IOTRIAGE" benchpool "$pool2" 8M --tests builtin --json >"$TMP/a0.json" 2>/dev/null
check "default pool: zfs-fuse's ashift 0 and 512-byte sectors, no ashift finding" -- \
	jtest "$TMP/a0.json" '.pool_settings | .read and .ashift == 0 and .largest_physical_sector == 512 and ([.findings[] | select(.code == "ashift")] == [])'

finish
