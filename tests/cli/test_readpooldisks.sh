#!/usr/bin/env bash
# readpooldisks on a real zfs-fuse pool (a mirror and a raidz on loop
# devices): exactly the members are read, named and grouped by vdev.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "readpooldisks" "need root for loop devices and zfs-fuse"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "readpooldisks" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi

devs=()
for i in 1 2 3 4 5; do devs+=("$(make_loop 96M)"); done
outsider=$(make_loop 32M)
pool=iotriage-test-$$
zpool create -f "$pool" mirror "${devs[0]}" "${devs[1]}" raidz "${devs[2]}" "${devs[3]}" "${devs[4]}" >/dev/null 2>&1
ok $? "zpool create (mirror + raidz on loop devices)"
undo "destroy_pool $pool"

"$IOTRIAGE" readpooldisks "$pool" --size 16M --json >"$TMP/p.json" 2>"$TMP/p.err"
ok $? "readpooldisks exits 0"
check "reads exactly the five members" -- \
	jtest "$TMP/p.json" "[.devices[].path] | sort == ([\"${devs[0]}\",\"${devs[1]}\",\"${devs[2]}\",\"${devs[3]}\",\"${devs[4]}\"] | sort)"
check "not the loop device outside the pool" -- bash -c "! grep -q '$outsider' '$TMP/p.json'"
check "mirror members are grouped as mirror-0" -- \
	jtest "$TMP/p.json" "[.devices[] | select(.vdev == \"mirror-0\") | .path] == [\"${devs[0]}\",\"${devs[1]}\"]"
check "raidz members are grouped as raidz1-1" -- \
	jtest "$TMP/p.json" '[.devices[] | select(.vdev == "raidz1-1")] | length == 3'
check "every member read and judged" -- jtest "$TMP/p.json" '[.devices[] | .status == "ok" and (.verdict | length > 0)] | all'
check "the pool layout is in the document" -- jtest "$TMP/p.json" ".pool.name == \"$pool\" and (.pool.members | length == 5)"
check "log lines name members the way the pool does" -- grep -q "READ-POOL-DISKS ($pool): 5 member(s)" "$IOTRIAGE_STATE_DIR/iotriage.log"

guid=$(zpool list -H -o guid "$pool")
"$IOTRIAGE" readpooldisks "$guid" --size 8M --json >"$TMP/g.json" 2>/dev/null
ok $? "readpooldisks by GUID"
check "resolves to the same pool" -- jtest "$TMP/g.json" ".pool.name == \"$pool\""

"$IOTRIAGE" readpooldisks "$pool" --size 8M >"$TMP/h.txt" 2>/dev/null
check "human output shows the members by vdev" -- grep -Eq "^mirror-0 +${devs[0]#/dev/} [0-9]+ MB/s +${devs[1]#/dev/} [0-9]+ MB/s" "$TMP/h.txt"

"$IOTRIAGE" readpooldisks no-such-pool >/dev/null 2>"$TMP/none.err"
ok $(($? == 0)) "a pool that does not exist: non-zero exit"
check "the error lists the pools that do" -- grep -q "no ZFS pool or btrfs file system named 'no-such-pool'; pools here: .*'$pool' (zfs)" "$TMP/none.err"
"$IOTRIAGE" readpooldisks '9/bad' >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "an invalid pool name is a usage error"
check "and says so" -- grep -q "is not a valid pool name, GUID, label or UUID" "$TMP/bad.err"
"$IOTRIAGE" readpooldisks >/dev/null 2>&1
ok $(($? != 2)) "no pool given is a usage error"

# A btrfs raid1 file system on two loop devices, found by label and by UUID.
if command -v mkfs.btrfs >/dev/null; then
	b1=$(make_loop 300M)
	b2=$(make_loop 300M)
	label=iotriage-btr-$$
	mkfs.btrfs -q -f -L "$label" -d raid1 -m raid1 "$b1" "$b2" >/dev/null 2>&1
	ok $? "mkfs.btrfs raid1 on two loop devices"
	"$IOTRIAGE" readpooldisks "$label" --size 16M --json >"$TMP/b.json" 2>/dev/null
	ok $? "readpooldisks on a btrfs label"
	check "reads exactly its two devices" -- jtest "$TMP/b.json" "[.devices[].path] | sort == ([\"$b1\",\"$b2\"] | sort)"
	check "as a btrfs device set" -- jtest "$TMP/b.json" '.pool.fstype == "btrfs" and ([.devices[].vdev] | unique == ["btrfs"])'
	uuid=$(blkid -s UUID -o value "$b1")
	"$IOTRIAGE" readpooldisks "$uuid" --size 8M --json >"$TMP/bu.json" 2>/dev/null
	check "and by its UUID" -- jtest "$TMP/bu.json" '.devices | length == 2'
else
	skip "btrfs members" "btrfs-progs is not installed (scripts/install-deps.sh installs it)"
fi

finish
