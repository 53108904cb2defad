#!/usr/bin/env bash
# benchpool reads the pool's settings and state before its tests and samples
# its members during them (triage/pool/pool_evidence.h), on a zfs-fuse raidz of
# five loop devices: the default pool gives no settings finding and a
# telemetry row per member; dedup on, recordsize 4K under the 1 MiB
# sequential pass, and a pool filled over 80% each give their finding, with
# its fix, in the document and on the terminal.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "pool evidence" "needs root for loop devices and zfs-fuse"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "pool evidence" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi

devs=()
for i in 1 2 3 4 5; do devs+=("$(make_loop 200M)"); done
pool=iotriage-pe-$$
zpool create -f "$pool" raidz "${devs[@]}" >/dev/null 2>&1
ok $? "zpool create (raidz of five loop devices)"
undo "destroy_pool $pool"

bench() { # bench NAME: benchpool's document in $TMP/NAME.json, its table in $TMP/NAME.txt
	"$IOTRIAGE" benchpool "$pool" 8M --tests builtin --runtime 3 --json >"$TMP/$1.json" 2>"$TMP/$1.err"
	"$IOTRIAGE" benchpool "$pool" 8M --tests builtin --runtime 3 >"$TMP/$1.txt" 2>/dev/null
}
codes() { json "$TMP/$1.json" '[.pool_settings.findings[].code] | join(",")'; }

bench default
check "default pool: the settings were read, against the 1 MiB pass" -- \
	jtest "$TMP/default.json" ".pool_settings.read and .pool_settings.dataset == \"$pool\" and .pool_settings.io_size_bytes == 1048576"
check "default pool: no settings finding" -- jtest "$TMP/default.json" '.pool_settings.findings == []'
check "default pool: no FINDING line in the table run" -- bash -c "! grep -q '^FINDING' '$TMP/default.txt'"
members=$(printf '%s\n' "${devs[@]##*/}" | sort | paste -sd, -)
check "telemetry: one row per member, named as the pool names them" -- \
	jtest "$TMP/default.json" "[.pool_telemetry.members[].kname] | sort | join(\",\") == \"$members\""
check "telemetry: every member wrote during the tests, busy within 0..1" -- \
	jtest "$TMP/default.json" '.pool_telemetry.read and ([.pool_telemetry.members[] | .writes > 0 and .write_bytes > 0 and .busy >= 0 and .busy <= 1 and .vdev == "raidz1-0"] | all)'
check "telemetry: a log line per member" -- \
	test "$(grep -c "BENCHPOOL ($pool): member loop[0-9]* (.*raidz1-0): .* busy" "$IOTRIAGE_STATE_DIR/iotriage.log")" -ge 5

zfs set dedup=on "$pool"
bench dedup
check "dedup on: the dedup finding, with its fix" -- \
	jtest "$TMP/dedup.json" ".pool_settings.findings | map(select(.code == \"dedup\" and .subject == \"$pool\" and (.fix | test(\"zfs set dedup=off\")))) | length == 1"
check "dedup on: the only finding" -- test "$(codes dedup)" = dedup
check "dedup on: the table run prints it" -- grep -q "^FINDING: $pool: dedup is on" "$TMP/dedup.txt"
zfs set dedup=off "$pool"

# sync=always without a log device is not tried here: zfs-fuse (pool
# version 23) has no sync property, so its finding is judged on OpenZFS
# output only (tests/unit/test_pool_state.c, *_sync_composed.txt).

zfs set recordsize=4K "$pool"
bench rs4k
check "recordsize 4K under 1 MiB sequential I/O: the recordsize finding" -- \
	jtest "$TMP/rs4k.json" '.pool_settings.findings | map(select(.code == "recordsize" and (.evidence | test("recordsize=4096")) and (.fix | test("recordsize=1M")))) | length == 1'
check "recordsize 4K: the only finding" -- test "$(codes rs4k)" = recordsize
zfs inherit recordsize "$pool"

# Fill the pool past 80% with incompressible data (compression off).
mnt=$(zfs get -H -o value mountpoint "$pool")
cap=0
# 4 MiB at a time up to 76%, then 1 MiB, so the fill stops just over 80%
# and leaves the free space benchpool's tests need (16 MiB and 64 MiB of
# headroom; 82% once left 80 MiB of a 160M-member pool, a hair under it).
for _ in $(seq 1 400); do
	step=4
	[ "${cap:-0}" -ge 76 ] && step=1
	dd if=/dev/urandom of="$mnt/fill.$RANDOM$RANDOM" bs=1M count=$step status=none 2>/dev/null
	sync
	cap=$(zpool get capacity "$pool" 2>/dev/null | awk 'NR == 2 { sub("%", "", $3); print $3 }')
	[ "${cap:-0}" -gt 80 ] && break
done
diag "pool $pool filled to ${cap}%"
bench full
diag "$(grep -v '^Defaulting' "$TMP/full.err" | tail -3)"
check "a pool over 80% full: the tests still ran" -- jtest "$TMP/full.json" '[.results[] | .status] == ["ok"]'
check "a pool over 80% full: the capacity finding" -- \
	jtest "$TMP/full.json" '.pool_settings.findings | map(select(.code == "capacity" and (.evidence | test("capacity")))) | length == 1'
check "a pool over 80% full: the table run prints it" -- grep -q "^FINDING: $pool: " "$TMP/full.txt"

# btrfs: a raid1 over devices of 300M and 1200M (sizes 4x apart), read
# from btrfs filesystem usage; both members sampled.
if command -v mkfs.btrfs >/dev/null; then
	b1=$(make_loop 300M)
	b2=$(make_loop 1200M)
	label=iotriage-peb-$$
	mkfs.btrfs -q -f -L "$label" -d raid1 -m raid1 "$b1" "$b2" >/dev/null 2>&1
	mkdir "$TMP/btrfs" && mount "$b1" "$TMP/btrfs"
	ok $? "btrfs raid1 of 300M and 1200M mounted"
	undo "umount $TMP/btrfs"
	"$IOTRIAGE" benchpool "$label" 16M --tests builtin --runtime 3 --json >"$TMP/bt.json" 2>/dev/null
	check "btrfs: the sizes finding names both devices, with its fix" -- \
		jtest "$TMP/bt.json" "[.pool_settings.findings[].code] == [\"btrfs-sizes\"] and (.pool_settings.findings[0].text | test(\"$b2 is 4.0x $b1\")) and (.pool_settings.findings[0].fix | test(\"balance\"))"
	check "btrfs: both members sampled while the tests wrote" -- \
		jtest "$TMP/bt.json" '[.pool_telemetry.members[] | .vdev == "btrfs" and .write_bytes > 0] | length == 2 and all'
else
	skip "btrfs pool evidence" "btrfs-progs is not installed"
fi

finish
