#!/usr/bin/env bash
# The pool telemetry names a member slowed ONLY under the pool's load
# (triage/pool/pool_evidence.h, pool/member_load.h; bench/pool_member_slow.sh
# repeats this 10 times each way). A zfs-fuse raidz of five loop devices,
# each stacked on its own backing loop device; the zfs-fuse daemon is moved
# into a blkio group whose one rule caps the third member's BACKING device.
# The loop driver issues the member's backing I/O for the cgroup of the
# request's submitter, so only the daemon's I/O to that member is slowed:
# benchpool's telemetry must name it (and no other member), a readdisk of
# the same member must still run at full speed, and with the daemon back in
# its own group the same fixture must name no member.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "slowed member" "needs root for loop devices, cgroups and zfs-fuse"; exit 0; fi
zpid=$(pgrep -x zfs-fuse)
if ! command -v zpool >/dev/null || [ -z "$zpid" ]; then
	skip "slowed member" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi
if [ ! -d /sys/fs/cgroup/blkio ]; then skip "slowed member" "no cgroup v1 blkio hierarchy"; exit 0; fi

rate_mib=4
backs=() members=()
for i in 0 1 2 3 4; do
	b=$(make_loop 256M) || break
	backs+=("$b")
	m=$(losetup -f --show --direct-io=on "$b") || break
	undo "losetup -d $m"
	members+=("$m")
done
ok $((${#members[@]} == 5 ? 0 : 1)) "five member loop devices, each on its own backing loop device"
pool=iotriage-ms-$$
zpool create -f -m "$TMP/mnt" "$pool" raidz "${members[@]}" >/dev/null 2>&1
ok $? "zpool create (raidz of the five members)"
undo "destroy_pool $pool || destroy_pool $pool || destroy_pool $pool" # zfs-fuse can stay busy for a while under load
slowed=${members[2]#/dev/}

cg=$(make_cgroup "$(cat "/sys/block/${backs[2]#/dev/}/dev") $((rate_mib * 1048576))")
echo "$(cat "/sys/block/${backs[2]#/dev/}/dev") $((rate_mib * 1048576))" >"$cg/blkio.throttle.write_bps_device"
home=$(awk -F: '$2 == "blkio" { print $3 }' "/proc/$zpid/cgroup")
home_dir=/sys/fs/cgroup/blkio${home%/}
# Registered after make_cgroup's rmdir, so it runs first: the daemon leaves the group.
undo "grep -q ':blkio:${cg#/sys/fs/cgroup/blkio}\$' /proc/$zpid/cgroup && echo $zpid > $home_dir/cgroup.procs"

bench() { # bench NAME
	"$IOTRIAGE" benchpool "$pool" 8M --tests builtin --runtime 3 --json >"$TMP/$1.json" 2>"$TMP/$1.err"
}
named() { json "$TMP/$1.json" '[.pool_telemetry.findings[].subject] | unique | join(",")'; }

echo "$zpid" >"$cg/cgroup.procs"
ok $? "zfs-fuse moved into the group that caps $slowed's backing device at $rate_mib MiB/s"
bench slow
"$IOTRIAGE" benchpool "$pool" 8M --tests builtin --runtime 3 >"$TMP/slow.txt" 2>/dev/null
# The member read alone, by this process (not in the group): not slowed.
"$IOTRIAGE" readdisk "/dev/$slowed" --size 32M --json >"$TMP/alone.json" 2>/dev/null
echo "$zpid" >"$home_dir/cgroup.procs"
ok $? "zfs-fuse moved back to its own group"
diag "slowed: $(json "$TMP/slow.json" '[.pool_telemetry.members[] | "\(.name) busy \(.busy * 100 | floor)% wait \(.wait_ms | floor) ms"] | join("; ")')"
check "slowed: the telemetry names $slowed and no other member" -- test "$(named slow)" = "$slowed"
check "slowed: its finding is member-busy or member-slow, in its vdev, with the siblings' figures" -- \
	jtest "$TMP/slow.json" "[.pool_telemetry.findings[] | select(.subject == \"$slowed\") | (.code == \"member-busy\" or .code == \"member-slow\") and (.text | test(\"of raidz1-0 .* for its 4 siblings\"))] | length > 0 and all"
check "slowed: the table run prints the member's finding" -- grep -q "^FINDING: $slowed: member $slowed of raidz1-0" "$TMP/slow.txt"
alone=$(json "$TMP/alone.json" '.devices[0].bw_bytes_per_s // 0')
diag "$slowed read alone: $((${alone%.*} / 1048576)) MiB/s"
check "$slowed read alone runs above 3x the cap (the slowdown is the pool's only)" -- \
	test "${alone%.*}" -gt $((3 * rate_mib * 1048576))

bench none
diag "no slowdown: $(json "$TMP/none.json" '[.pool_telemetry.members[] | "\(.name) busy \(.busy * 100 | floor)% wait \(.wait_ms | floor) ms"] | join("; ")')"
check "no slowdown: the telemetry was read for all five members" -- \
	jtest "$TMP/none.json" '.pool_telemetry.read and ([.pool_telemetry.members[] | .writes > 0] | length == 5 and all)'
check "no slowdown: no member named" -- test -z "$(named none)"

# The second source: zpool iostat -v beside the workload (pool/zpool_watch.h),
# on a run long enough for its one-second reports.
"$IOTRIAGE" benchpool "$pool" 64M --tests builtin --json >"$TMP/long.json" 2>"$TMP/long.err"
diag "zpool iostat: $(json "$TMP/long.json" '.pool_telemetry.zpool_iostat | "\(.reports) reports; " + ([.devices[] | "\(.name) \(.write_bytes_per_s / 1048576 | floor) MiB/s written"] | join("; ")) + (.error // "")')"
check "zpool iostat: interval reports read, one row per member, in zfs-fuse's 'raidz1'" -- \
	jtest "$TMP/long.json" "(.pool_telemetry.zpool_iostat | .read and .reports >= 1) and ([.pool_telemetry.zpool_iostat.devices[] | .vdev == \"raidz1\"] | length == 5 and all) and ([.pool_telemetry.zpool_iostat.devices[].name] | sort) == ([.pool_telemetry.members[].name] | sort)"
check "zpool iostat: every member wrote, as /proc/diskstats saw" -- \
	jtest "$TMP/long.json" '([.pool_telemetry.zpool_iostat.devices[] | .write_ops > 0 and .write_bytes_per_s > 0] | length == 5 and all) and ([.pool_telemetry.members[] | .write_bytes > 0] | length == 5 and all)'
check "zpool iostat: none left running" -- bash -c "! pgrep -x zpool -a | grep -q ' $pool '"
check "a run under a second of reports: zpool iostat's error says why, nothing judged on it" -- \
	jtest "$TMP/none.json" '.pool_telemetry.zpool_iostat | (.read and .reports >= 1) or (.read == false and (.error | test("no interval report")) and .devices == [])'

finish
