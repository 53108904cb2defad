#!/usr/bin/env bash
# readdisks --rw randread: the per-disk IOPS pass. Four identical loop
# devices, one held to 150 read IOPS by a cgroup (blkio
# read_iops_device, a rule on I/O count, not bytes): it must be named slow
# on IOPS; --save-baseline is refused (baselines are bandwidth).
. "$(dirname "$0")/lib.sh"

"$IOTRIAGE" readdisks --rw randread --save-baseline --match 'no-such*' >/dev/null 2>"$TMP/sb.err"
check "--save-baseline with the IOPS pass is a usage error" -- test $? -eq 2
check "saying why" -- grep -q "bandwidth baselines" "$TMP/sb.err"
check "and no run was recorded" -- test ! -e "$IOTRIAGE_STATE_DIR/iotriage.db" -o \
	"$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" 'select count(*) from runs' 2>/dev/null || echo 0)" = 0
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
mm=$(lsblk -dno MAJ:MIN "$c" | tr -d ' ')
cg=$(make_cgroup "$mm 0")
echo "$mm 150" >"$cg/blkio.throttle.read_iops_device"

run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 2s --iodepth 4 --json \
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
check "its siblings are ok" -- \
	jtest "$TMP/iops.json" "[.devices[] | select(.path != \"$c\") | .verdict] == [\"ok\", \"ok\", \"ok\"]"
check "the median is in IOPS" -- jtest "$TMP/iops.json" '.summary.median_iops > 300 and (.summary | has("median_bw_bytes_per_s") | not)'
check "the confirming reads are logged in IOPS" -- grep -q "READ-DISK ($c): confirming read 1 of 2: [0-9.]* IOPS" "$IOTRIAGE_STATE_DIR/iotriage.log"
check "stored as IOPS rows, not as read rates" -- \
	test "$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" "select count(*) from results where test = 'readdisk-iops' and iops > 0")" = 4

run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 1s >"$TMP/table" 2>/dev/null
ok $? "the table run"
check "the table shows IOPS, the throttled disk last and slow" -- \
	bash -c "grep -E '^/dev/loop' '$TMP/table' | tail -n 1 | grep -Eq '^$c .* [0-9]+ IOPS .*slow'"
finish
