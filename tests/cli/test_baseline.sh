#!/usr/bin/env bash
# Baselines: saved against a stable identity, compared on every later read,
# a regression flagged even with no peers; the disks listing shows both.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "baselines" "need root for loop devices and cgroups"; exit 0; fi

dev=$(make_loop 128M)
"$IOTRIAGE" readdisk "$dev" --size 96M --save-baseline --json >"$TMP/base.json" 2>"$TMP/base.err"
ok $? "readdisk --save-baseline exits 0"
check "and logs that the baseline was saved" -- grep -q "READ-DISK ($dev): baseline saved" "$IOTRIAGE_STATE_DIR/iotriage.log"
base=$(json "$TMP/base.json" '.devices[0].bw_bytes_per_s')
diag "baseline $base B/s"

"$IOTRIAGE" readdisk "$dev" --size 96M --json >"$TMP/same.json" 2>/dev/null
check "a later read is compared with the baseline" -- \
	jtest "$TMP/same.json" '.devices[0].baseline.percent_of_baseline > 0 and .devices[0].baseline.regression_limit_percent == 20'

# The same disk, slowed to 40 MB/s for this reader: flagged against its baseline, with no peers.
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
cg=$(make_cgroup "$mm 40000000")
run_in_cgroup "$cg" "$IOTRIAGE" readdisk "$dev" --size 96M --json >"$TMP/slow.json" 2>"$TMP/slow.err"
ok $? "the throttled read completes"
check "the regression is flagged slow although the disk has no peers" -- \
	jtest "$TMP/slow.json" '.devices[0].verdict == "slow" and .devices[0].peers == null'
check "confirmed by re-reads" -- jtest "$TMP/slow.json" '.devices[0].baseline.reads_below == 3'
check "the sentence gives the share of the baseline" -- \
	jtest "$TMP/slow.json" '.devices[0].sentence | test("[0-9]+% of its baseline of [0-9.]+ MB/s from [0-9-]{10} \\(3 of 3 reads below it\\)")'
check "and the log warns" -- grep -q "READ-DISK ($dev): slow: " "$TMP/slow.err"
check "the regressed disk's health is cross-checked (no SMART data on a loop device)" -- \
	jtest "$TMP/slow.json" '.devices[0].health.smart == "unavailable" and .devices[0].health.smartctl_installed'

# Without smartctl on PATH the cross-check says so and how to install it.
run_in_cgroup "$cg" env PATH=/nonexistent "$IOTRIAGE" readdisk "$dev" --size 32M --json >"$TMP/nosmart.json" 2>"$TMP/nosmart.err"
check "without smartctl: health says it is not installed" -- \
	jtest "$TMP/nosmart.json" '.devices[0].health.smartctl_installed == false and (.devices[0].health.sentence | test("smartctl is not installed \\(Debian: apt-get install smartmontools\\)"))'

"$IOTRIAGE" disks >"$TMP/disks.txt" 2>/dev/null
ok $? "disks exits 0"
check "disks lists the device with its baseline and the change" -- \
	grep -Eq "^${dev#/dev/} .* MB/s \([0-9-]{10}\) .*-[0-9]+% +loop:" "$TMP/disks.txt"
"$IOTRIAGE" disks --json >"$TMP/disks.json" 2>/dev/null
check "disks --json carries last read and baseline" -- \
	jtest "$TMP/disks.json" "[.disks[] | select(.kname == \"${dev#/dev/}\")] | length == 1 and .[0].baseline_bw_bytes_per_s > 0 and .[0].last_bw_bytes_per_s > 0"

# No stable identity (a zram device: no WWN, serial, by-id link or backing file).
z=$(make_zram 32M)
"$IOTRIAGE" readdisk "$z" --size 16M --save-baseline >/dev/null 2>"$TMP/z.err"
ok $? "readdisk --save-baseline on a device without identity still reads"
check "and says why no baseline was saved" -- grep -q "no baseline saved: no WWN, serial or by-id path" "$TMP/z.err"

"$IOTRIAGE" readdisk "$dev" --regression 100 >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "--regression 100 is a usage error"
check "with the range" -- grep -q "expected a percentage from 1 to 99" "$TMP/bad.err"

rm -rf "$IOTRIAGE_STATE_DIR"
"$IOTRIAGE" disks >"$TMP/empty.txt" 2>/dev/null
check "an empty database says how to start" -- grep -q "No disks recorded yet" "$TMP/empty.txt"

finish
