#!/usr/bin/env bash
# readdisks --rw randread: the per-disk IOPS pass. Four identical loop
# devices, one held to 150 read IOPS by a cgroup (blkio
# read_iops_device, a rule on I/O count, not bytes): it must be named slow
# on IOPS. IOPS baselines: saved by an unthrottled pass with
# --save-baseline (apart from the bandwidth baselines), the throttled disk
# is then far below its own baseline; a pass at another queue depth, and
# the bandwidth pass, do not compare with them.
. "$(dirname "$0")/lib.sh"

"$IOTRIAGE" readdisks --rw write >/dev/null 2>&1
check "--rw write is refused" -- test $? -eq 2

if ! need_root || [ ! -d /sys/fs/cgroup/blkio ]; then
	skip "the IOPS pass on loop devices" "needs root and the blkio cgroup"
	finish
	exit
fi
a=$(make_loop 64M); b=$(make_loop 64M); c=$(make_loop 64M); d=$(make_loop 64M)
match=()
for x in "$a" "$b" "$c" "$d"; do match+=(--match "${x#/dev/}"); done
db=$IOTRIAGE_STATE_DIR/iotriage.db
jq_quiet() { jq -e "$@" >/dev/null; }

# The IOPS baselines, read before any throttle.
"$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 1s --iodepth 4 --save-baseline --json \
	>"$TMP/base.json" 2>"$TMP/base.log"
ok $? "readdisks --rw randread --save-baseline exits 0"
check "one IOPS baseline per disk, at 4 KiB and queue depth 4" -- \
	test "$(sqlite3 "$db" 'select count(*) from iops_baselines where iops > 0 and bs_bytes = 4096 and iodepth = 4')" = 4
for x in "$a" "$b" "$c" "$d"; do
	saved=$(sqlite3 "$db" "select b.iops from iops_baselines b join devices d on d.id = b.device_id where d.kname = '${x#/dev/}'")
	read_iops=$(json "$TMP/base.json" ".devices[] | select(.path == \"$x\") | .iops")
	check "${x#/dev/}'s baseline is the IOPS it read ($saved)" -- \
		awk -v s="$saved" -v r="$read_iops" 'BEGIN { exit !(s > 0 && (s - r < 0.01 && r - s < 0.01)) }'
done
check "kept apart from the bandwidth baselines (none saved)" -- test "$(sqlite3 "$db" 'select count(*) from baselines')" = 0
check "each save is logged in IOPS" -- grep -q "READ-DISK ($a): IOPS baseline saved: [0-9]* IOPS (4096 bytes, queue depth 4)" "$IOTRIAGE_STATE_DIR/iotriage.log"
check "the saving pass had no baseline yet" -- jtest "$TMP/base.json" '[.devices[] | has("baseline")] | any | not'
"$IOTRIAGE" disks --json >"$TMP/disks.json" 2>/dev/null
check "disks --json lists each disk's IOPS baseline (and no bandwidth one)" -- \
	jq_quiet --slurpfile base "$TMP/base.json" '[.disks[] | select(.kname | test("^loop")) | . as $k | ($base[0].devices[] | select(.kname == $k.kname) | .iops) as $saved | ($k.baseline_iops - $saved | fabs) < $saved * 1e-6 and $k.baseline_iops_bs_bytes == 4096 and $k.baseline_iops_iodepth == 4 and ($k | has("baseline_bw_bytes_per_s") | not)] | length == 4 and all' "$TMP/disks.json"

mm=$(lsblk -dno MAJ:MIN "$c" | tr -d ' ')
cg=$(make_cgroup "$mm 0")
echo "$mm 150" >"$cg/blkio.throttle.read_iops_device"

# --regression 90: these loop devices read their backing files with direct
# I/O on this shared VM's disk, and their IOPS swing up to 3x between passes
# (4.7k to 13.6k IOPS among siblings in one ASan pass; a sibling read 10.2k
# against a baseline over 12.7k, 3 of 3 reads below the default 20%); the
# throttled disk, held to 150 IOPS, is at 1-3% of its baseline either way.
run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 2s --iodepth 4 --regression 90 --json \
	>"$TMP/iops.json" 2>"$TMP/iops.log"
ok $? "readdisks --rw randread exits 0"
for x in "$a" "$b" "$c" "$d"; do
	diag "$x: $(json "$TMP/iops.json" ".devices[] | select(.path == \"$x\") | \"\(.iops | floor) IOPS, \(.percent_of_median | floor)% of the median, \(.verdict)\"")"
done
check "the pass is stated: random reads of 4 KiB, judged on IOPS" -- \
	jtest "$TMP/iops.json" '.parameters | .rw == "randread" and .judged_on == "iops" and .bs_bytes == 4096 and .runtime_seconds == 2 and .iodepth == 4'
check "every disk read for its runtime, at queue depth 4" -- \
	jtest "$TMP/iops.json" '[.devices[] | .status == "ok" and .stopped_by == "time" and .seconds >= 1.9 and .iodepth == 4 and .iops > 0] | all'
check "the throttled disk is held near its 150 IOPS" -- \
	jtest "$TMP/iops.json" ".devices[] | select(.path == \"$c\") | .iops > 100 and .iops < 200"
check "it is named slow, confirmed by its re-reads" -- \
	jtest "$TMP/iops.json" ".devices[] | select(.path == \"$c\") | .verdict == \"slow\" and .peers.reads == 3 and .peers.reads_out_of_line == 3 and .peers.median_iops > 0"
# Not "ok" each: on this VM's shared disk a sibling once read 241% of the
# median and was judged fast; what matters here is that none is called slow.
check "none of its siblings is named slow, nor for its tail" -- \
	jtest "$TMP/iops.json" "[.devices[] | select(.path != \"$c\") | .verdict] | length == 3 and all(. != \"slow\" and . != \"slow tail\")"
# Its tail: held to 150 IOPS at queue depth 4, each read waits its turn (tens
# of ms against a fraction of one for its siblings).
check "every disk's p99 is judged against its siblings' (thousands of reads each)" -- \
	jtest "$TMP/iops.json" '[.devices[] | .tail.set_size == 4 and .tail.p99_ns == .lat_ns.p99 and .tail.median_p99_ns > 0] | all'
check "the throttled disk's p99 is out of line too, in all 3 reads" -- \
	jtest "$TMP/iops.json" ".devices[] | select(.path == \"$c\") | .tail.ratio >= 4 and .tail.reads == 3 and .tail.reads_out_of_line == 3"
check "and its sentence says so after its baseline" -- \
	jtest "$TMP/iops.json" ".devices[] | select(.path == \"$c\") | .sentence | test(\"reads below it\\\\); its p99 completion latency, [0-9.]+ ms, is [0-9.]+ times the median of 4 same-model disks' \\\\([0-9.]+ ms; 3 of 3 reads out of line\\\\)$\")"
check "the throttled disk is far below its IOPS baseline, in all 3 reads" -- \
	jtest "$TMP/iops.json" ".devices[] | select(.path == \"$c\") | .baseline.iops > 300 and .baseline.percent_of_baseline < 10 and .baseline.regression_limit_percent == 90 and .baseline.reads_below == 3 and (.baseline | has(\"bw_bytes_per_s\") | not)"
check "its sentence gives the share of its baseline in IOPS" -- \
	jtest "$TMP/iops.json" ".devices[] | select(.path == \"$c\") | .sentence | test(\"; [0-9]+% of its baseline of [0-9]+ IOPS from [0-9-]{10} \\\\(3 of 3 reads below it\\\\)\")"
check "every disk is compared with its own baseline" -- \
	jq_quiet --slurpfile base "$TMP/base.json" '[.devices[] | . as $d | ($base[0].devices[] | select(.path == $d.path) | .iops) as $saved | (($d.baseline.iops - $saved) | fabs) < $saved * 1e-6 and ($d.baseline.percent_of_baseline - 100 * $d.iops / $saved | fabs) < 0.01] | length == 4 and all' "$TMP/iops.json"
diag "$c: $(json "$TMP/iops.json" ".devices[] | select(.path == \"$c\") | .sentence")"
check "the median is in IOPS" -- jtest "$TMP/iops.json" '.summary.median_iops > 300 and (.summary | has("median_bw_bytes_per_s") | not)'
check "the confirming reads are logged in IOPS" -- grep -q "READ-DISK ($c): confirming read 1 of 2: [0-9.]* IOPS" "$IOTRIAGE_STATE_DIR/iotriage.log"
check "stored as IOPS rows, not as read rates" -- \
	test "$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" "select count(*) from results where test = 'readdisk-iops' and iops > 0 and run_id = '$(json "$TMP/iops.json" .run_id)'")" = 4

run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 1s >"$TMP/table" 2>/dev/null
ok $? "the table run"
check "the table shows IOPS, the throttled disk last and slow" -- \
	bash -c "grep -E '^/dev/loop' '$TMP/table' | tail -n 1 | grep -Eq '^$c .* [0-9]+ IOPS .*slow'"

# Another queue depth: IOPS at QD1 are not comparable with a QD4 baseline.
"$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 1s --iodepth 1 --json >"$TMP/qd1.json" 2>"$TMP/qd1.log"
ok $? "a pass at queue depth 1"
check "is not compared with the queue depth 4 baselines" -- jtest "$TMP/qd1.json" '[.devices[] | has("baseline")] | any | not'
check "and the log says why" -- grep -q "READ-DISK ($a): its IOPS baseline was read at 4096 bytes, queue depth 4; this pass reads 4096 bytes at 1: not compared" "$IOTRIAGE_STATE_DIR/iotriage.log"

# The bandwidth pass has no baseline of its own yet: the IOPS ones are not its.
"$IOTRIAGE" readdisks "${match[@]}" --size 8M --json >"$TMP/seq.json" 2>/dev/null
ok $? "the bandwidth pass"
check "does not compare with the IOPS baselines" -- jtest "$TMP/seq.json" '[.devices[] | has("baseline")] | any | not'
"$IOTRIAGE" readdisks --match "${a#/dev/}" --size 8M --save-baseline >/dev/null 2>&1
check "a bandwidth baseline saved for one disk leaves its IOPS baseline as it was" -- \
	test "$(sqlite3 "$db" "select count(*) from baselines")/$(sqlite3 "$db" "select count(*) from iops_baselines where iodepth = 4")" = 1/4
finish
