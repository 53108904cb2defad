#!/usr/bin/env bash
# rwpool, rwpools and runall on a real zfs-fuse mirror and a mounted btrfs
# raid1 (loop devices): the bytes actually written are reported (shrunk to
# fit, and said), the read-back is labelled, and nothing is left behind.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "rwpool" "needs root for loop devices, zfs-fuse and mounts"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "rwpool" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi

z1=$(make_loop 600M)
z2=$(make_loop 600M)
pool=iotriage-rw-$$
zpool create -f "$pool" mirror "$z1" "$z2" >/dev/null 2>&1
ok $? "zpool create mirror"
undo "destroy_pool $pool"
zmnt=$(zfs get -H -o value mountpoint "$pool")

"$IOTRIAGE" rwpool "$pool" --size 64M --json >"$TMP/z.json" 2>"$TMP/z.err"
ok $? "rwpool on a ZFS pool by name"
check "64 MiB written and read back" -- \
	jtest "$TMP/z.json" '.pools[0].figures | map(.bytes) == [67108864, 67108864] and .[0].bw_bytes_per_s > 0'
check "written data is incompressible" -- jtest "$TMP/z.json" '.pools[0].figures[0].pattern == "random"'
check "the read-back is labelled cache: no dataset of ours stops the ARC keeping it" -- \
	jtest "$TMP/z.json" '.pools[0].figures[1].cache == "cache"'
check "the pool's compression is reported" -- jtest "$TMP/z.json" '.pools[0].compression == "off"'
check "the pool's settings were judged before the write: none costs performance" -- \
	jtest "$TMP/z.json" '.pools[0].pool_settings.read and .pools[0].pool_settings.findings == []'
check "both mirror sides were sampled while the file was written" -- \
	jtest "$TMP/z.json" "[.pools[0].pool_telemetry.members[] | select(.vdev == \"mirror-0\" and .write_bytes >= 67108864)] | length == 2"
check "the log has the spec's WRITE-POOL-FILE and READ-POOL-FILE lines" -- \
	bash -c "grep -Eq 'WRITE-POOL-FILE \($pool\): completed: 67108864 bytes \(67 MB, 64 MiB\) copied, ' '$IOTRIAGE_STATE_DIR/iotriage.log' &&
		 grep -q 'READ-POOL-FILE ($pool): completed: 67108864 bytes' '$IOTRIAGE_STATE_DIR/iotriage.log'"
check "no dataset was created" -- test "$(zfs list -H -r -o name "$pool" | wc -l)" -eq 1
check "nothing is left in the pool's mount point" -- test -z "$(ls -A "$zmnt")"

guid=$(zpool list -H -o guid "$pool")
"$IOTRIAGE" rwpool "$guid" --size 16M --json >"$TMP/g.json" 2>/dev/null
ok $? "rwpool by the pool's GUID"
check "resolves to the same pool" -- jtest "$TMP/g.json" ".pools[0].pool == \"$pool\""

# More than fits: shrunk, reported, never silently truncated.
"$IOTRIAGE" rwpool "$pool" --size 2G --json >"$TMP/big.json" 2>"$TMP/big.err"
ok $? "rwpool asked for more than fits"
check "the document says it was shrunk and how much was written" -- \
	jtest "$TMP/big.json" '.pools[0].truncated_to_fit and .pools[0].requested_bytes == 2147483648 and .pools[0].figures[0].bytes < 2147483648 and .pools[0].figures[0].bytes > 0'
check "and the log warns with both sizes" -- grep -q "RWPOOL ($pool): only .* fits; writing .* instead of 2.0 GiB" "$IOTRIAGE_STATE_DIR/iotriage.log"
# The shrunk file is several times the ARC's maximum: reading it from its start evicts its end
# before it is reached, so its read-back is the pool's, while the 64 MiB one above was the cache's.
cmax=$(cat /zfs-kstat/zfs/arcstats/c_max 2>/dev/null || echo 0)
check "a file over twice the ARC's maximum ($cmax bytes) is read back from the pool, and said so" -- bash -c \
	"[ $cmax -gt 0 ] && jq -e --argjson c $cmax '.pools[0].figures[1] | .bytes > 2 * \$c and .cache == \"pool\"' '$TMP/big.json' >/dev/null &&
	 grep -q 'RWPOOL ($pool): the file is more than twice the ARC' '$IOTRIAGE_STATE_DIR/iotriage.log'"
check "nothing is left after that either" -- test -z "$(ls -A "$zmnt")"

if command -v mkfs.btrfs >/dev/null; then
	b1=$(make_loop 300M)
	b2=$(make_loop 300M)
	label=iotriage-rwb-$$
	mkfs.btrfs -q -f -L "$label" -d raid1 -m raid1 "$b1" "$b2" >/dev/null 2>&1
	bmnt=$TMP/btrfs
	mkdir "$bmnt" && mount "$b1" "$bmnt"
	ok $? "btrfs raid1 mounted"
	undo "umount $bmnt"
	"$IOTRIAGE" rwpool "$label" --size 32M --json >"$TMP/b.json" 2>/dev/null
	ok $? "rwpool on a btrfs label"
	check "the btrfs read-back is a pool read (page cache dropped or bypassed)" -- \
		jtest "$TMP/b.json" '.pools[0].fstype == "btrfs" and .pools[0].figures[1].cache == "pool"'
	check "nothing is left in the btrfs mount" -- test -z "$(ls -A "$bmnt")"

	"$IOTRIAGE" rwpools --size 16M --json >"$TMP/all.json" 2>"$TMP/all.err"
	ok $? "rwpools exits 0" || diag_file "$TMP/all.err"
	check "rwpools covers both pools" -- \
		jtest "$TMP/all.json" "[.pools[].pool] | (index(\"$pool\") != null) and (index(\"$label\") != null)"

	"$IOTRIAGE" runall --size 16M --read-size 16M --json >"$TMP/run.json" 2>"$TMP/run.err"
	ok $? "runall exits 0" || diag_file "$TMP/run.err"
	check "runall wrote into both pools" -- \
		jtest "$TMP/run.json" "[.pools[] | select(.status == \"ok\") | .pool] | (index(\"$pool\") != null) and (index(\"$label\") != null)"
	check "and read exactly the ZFS pool's members, grouped by vdev" -- \
		jtest "$TMP/run.json" ".pool_disks[] | select(.pool.name == \"$pool\") | ([.devices[].path] | sort) == ([\"$z1\", \"$z2\"] | sort) and .grouping.groups[0].name == \"mirror-0\""
	check "and the btrfs file system's" -- \
		jtest "$TMP/run.json" ".pool_disks[] | select(.pool.name == \"$label\") | ([.devices[].path] | sort) == ([\"$b1\", \"$b2\"] | sort)"
	check "every member read has a verdict" -- \
		jtest "$TMP/run.json" '[.pool_disks[].devices[] | .verdict | length > 0] | all'
	check "nothing is left in either pool" -- test -z "$(ls -A "$zmnt" "$bmnt" | grep -v ':$' | grep -v '^$')"
else
	skip "rwpool on btrfs, rwpools, runall" "btrfs-progs is not installed (scripts/install-deps.sh installs it)"
fi

"$IOTRIAGE" rwpool >/dev/null 2>&1
ok $(($? != 2)) "rwpool without a pool is a usage error"
"$IOTRIAGE" rwpool "no-such-pool-$$" >/dev/null 2>"$TMP/nf.err"
ok $(($? != 1)) "rwpool on a pool that does not exist: exit 1"
check "saying so" -- grep -q "cannot tell what 'no-such-pool-$$' is" "$TMP/nf.err"
"$IOTRIAGE" rwpool "$pool" --size 3K >/dev/null 2>&1
ok $(($? != 2)) "a --size that is not whole MiB is a usage error"
"$IOTRIAGE" rwpools extra >/dev/null 2>&1
ok $(($? != 2)) "rwpools takes no operand"
"$IOTRIAGE" rwpool "$pool" --fstype ceph >/dev/null 2>"$TMP/fs.err"
ok $(($? != 2)) "an unknown --fstype is a usage error"
check "naming the choices" -- grep -q "invalid --fstype 'ceph': expected zfs, btrfs or dir" "$TMP/fs.err"
"$IOTRIAGE" runall --read-size 3K >/dev/null 2>"$TMP/rs.err"
ok $(($? != 2)) "runall with a --read-size that is not whole MiB is a usage error"
check "and nothing was written into the pool" -- test -z "$(ls -A "$zmnt")"

finish
