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
check "grouped by vdev without --group-by, each group judged among the pool's" -- \
	jtest "$TMP/p.json" '.grouping.by == "vdev" and ([.grouping.groups[] | .name] == ["mirror-0", "raidz1-1"]) and ([.grouping.groups[] | .disks] == [2, 3])'

# --mode both: each vdev's members read together, one vdev at a time, then
# all five together.
"$IOTRIAGE" readpooldisks "$pool" --size 8M --mode both --json >"$TMP/b.json" 2>"$TMP/b.err"
ok $? "readpooldisks --mode both exits 0" || diag_file "$TMP/b.err"
check "--mode both: one pass per vdev, with its own members, then the pass of all" -- \
	jtest "$TMP/b.json" '.group_passes.by == "vdev" and ([.group_passes.groups[] | "\(.group)=\(.disks)"] == ["mirror-0=2", "raidz1-1=3"]) and all(.group_passes.groups[]; .median_percent_of_serial > 0 and .all_median_percent_of_serial > 0) and (.shared_paths | length) >= 1'
check "--mode both: every member has its vdev's pass and the pass of all" -- \
	jtest "$TMP/b.json" '[.devices[] | (.group_pass.percent_of_serial > 0) and (.parallel.percent_of_serial > 0)] == [true, true, true, true, true]'
"$IOTRIAGE" readpooldisks "$pool" --mode sometimes >/dev/null 2>"$TMP/bad.err"
ok $(($? == 0)) "--mode with a bad value: non-zero exit"
check "and a usage error that names it" -- grep -q "invalid --mode 'sometimes': expected serial or both" "$TMP/bad.err"

guid=$(zpool list -H -o guid "$pool")
"$IOTRIAGE" readpooldisks "$guid" --size 8M --json >"$TMP/g.json" 2>/dev/null
ok $? "readpooldisks by GUID"
check "resolves to the same pool" -- jtest "$TMP/g.json" ".pool.name == \"$pool\""

"$IOTRIAGE" readpooldisks "$pool" --size 8M >"$TMP/h.txt" 2>/dev/null
check "human output shows the members by vdev" -- grep -Eq "^mirror-0 +${devs[0]#/dev/} [0-9]+ MB/s( \([^)]+\))? +${devs[1]#/dev/} [0-9]+ MB/s" "$TMP/h.txt"

# readdisks --group-by: pools found by the tools themselves, each whole disk
# placed in its pool's device group; a disk in no pool says so.
m=()
for d in "${devs[@]}" "$outsider"; do m+=(--match "${d#/dev/}"); done
"$IOTRIAGE" readdisks "${m[@]}" --size 8M --group-by vdev --json >"$TMP/gv.json" 2>"$TMP/gv.err"
ok $? "readdisks --group-by vdev exits 0"
check "three groups: the mirror, the raidz, and not in a pool" -- \
	jtest "$TMP/gv.json" "[.grouping.groups[].name] | sort == ([\"$pool/mirror-0\", \"$pool/raidz1-1\", \"not in a pool\"] | sort)"
check "the mirror group holds exactly its two members" -- \
	jtest "$TMP/gv.json" ".grouping.groups[] | select(.name == \"$pool/mirror-0\") | .devices == [\"${devs[0]}\", \"${devs[1]}\"] and .disks == 2 and .ok == 2 and .median_bw_bytes_per_s > 0"
check "the outsider is in no pool" -- \
	jtest "$TMP/gv.json" ".grouping.groups[] | select(.name == \"not in a pool\") | .devices == [\"$outsider\"]"
check "each device names its pool and vdev" -- \
	jtest "$TMP/gv.json" ".devices[] | select(.path == \"${devs[3]}\") | .groups.pool == \"$pool\" and .groups.vdev == \"raidz1-1\""
"$IOTRIAGE" readdisks "${m[@]}" --size 8M --group-by vdev >"$TMP/gv.txt" 2>/dev/null
# A member read on a loaded machine may be judged (slow); its verdict then
# follows its figure in parentheses.
check "the human view has one line per group" -- \
	grep -Eq "^$pool/mirror-0 +${devs[0]#/dev/} [0-9]+ MB/s( \([^)]+\))? +${devs[1]#/dev/} [0-9]+ MB/s( \([^)]+\))?\$" "$TMP/gv.txt"

"$IOTRIAGE" readdisks "${m[@]}" --size 8M --group-by controller --json >"$TMP/gc.json" 2>/dev/null
ok $? "readdisks --group-by controller exits 0"
check "loop devices on one file system share one group: their backing device" -- \
	jtest "$TMP/gc.json" '(.grouping.groups | length == 1) and (.grouping.groups[0].name | test("^backing device [0-9]+:[0-9]+$")) and .grouping.groups[0].disks == 6'
"$IOTRIAGE" readdisks "${m[@]}" --size 8M --group-by enclosure --json >"$TMP/ge.json" 2>/dev/null
check "no SES enclosure in sysfs for loop devices: said, not invented" -- \
	jtest "$TMP/ge.json" '[.grouping.groups[].name] == ["no enclosure in sysfs"] and ([.devices[].groups.enclosure] | unique == [null])'
"$IOTRIAGE" readpooldisks "$pool" --size 8M --group-by controller --json >"$TMP/pc.json" 2>/dev/null
check "readpooldisks --group-by controller regroups the members" -- \
	jtest "$TMP/pc.json" '.grouping.by == "controller" and (.grouping.groups | length == 1) and .grouping.groups[0].disks == 5'
check "readpooldisks groups by vdev by default" -- jtest "$TMP/p.json" '.grouping.by == "vdev" and (.grouping.groups | length == 2)'
"$IOTRIAGE" readdisks --group-by shelf >/dev/null 2>"$TMP/gb.err"
ok $(($? != 2)) "an unknown --group-by is a usage error"
check "naming the choices" -- grep -q "invalid --group-by 'shelf': expected vdev, controller, enclosure or none" "$TMP/gb.err"

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
	"$IOTRIAGE" readdisks --match "${b1#/dev/}" --match "${b2#/dev/}" --size 8M --group-by vdev --json >"$TMP/bg.json" 2>/dev/null
	check "readdisks --group-by vdev finds btrfs members too" -- \
		jtest "$TMP/bg.json" "[.grouping.groups[].name] == [\"$label/btrfs\"] and .grouping.groups[0].disks == 2"
else
	skip "btrfs members" "btrfs-progs is not installed (scripts/install-deps.sh installs it)"
fi

finish
