#!/usr/bin/env bash
# readdisks over real loop and zram devices: table, ranking, skips, parallel.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "readdisks tests" "need root for loop and zram devices"; exit 0; fi

a=$(make_loop 96M)
b=$(make_loop 96M)
c=$(make_loop 96M)
z=$(make_zram "")      # hot-added, never initialised
zi=$(make_zram 64M)    # initialised: a real RAM-backed disk
match=()
for d in "$a" "$b" "$c" "$z" "$zi"; do match+=(--match "${d#/dev/}"); done

# One of the three loop devices is slowed for this process: it must rank last.
# Its identical siblings read through a cap too, eight times higher and far
# below this machine's loop devices, so a busy machine cannot make one of
# them look slow: the verdicts below judge the caps, not the machine.
mm=$(lsblk -dno MAJ:MIN "$b" | tr -d ' ')
cg=$(make_cgroup "$mm 31457280")
for d in "$a" "$c"; do
	echo "$(lsblk -dno MAJ:MIN "$d" | tr -d ' ') $((240 << 20))" >"$cg/blkio.throttle.read_bps_device"
done
run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --size 64M >"$TMP/table" 2>"$TMP/log"
ok $? "readdisks exits 0"
check "an uninitialised zram device is summed up as not a disk, not a table row" -- \
	bash -c "grep -q 'skipped 1 device that is not a disk: 1 uninitialised zram' '$TMP/log' && ! grep -q '^$z ' '$TMP/table'"
check "an initialised zram device is read" -- grep -Eq "^$zi .* 64 MiB .*ok$" "$TMP/table"
rows=$(grep -E '^/dev/' "$TMP/table" | awk '$NF == "ok" {print $1}')
check "the table lists the four read devices, fastest first, the slowed one last among loops" -- \
	test "$(echo "$rows" | grep loop | tail -n 1)" = "$b"
check "log lines for every device" -- test "$(grep -c 'READ-DISK' "$TMP/log")" -ge 9

run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --size 64M --json >"$TMP/rd.json" 2>/dev/null
ok $? "readdisks --json exits 0"
check "five devices in the document" -- jtest "$TMP/rd.json" '.devices | length == 5'
check "summary counts 4 ok, 1 skipped" -- jtest "$TMP/rd.json" '.summary.ok == 4 and .summary.skipped == 1 and .summary.error == 0'
check "the skipped device has status skipped and a reason" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$z\") | .status == \"skipped\" and (.reason | test(\"not initialised\"))"
check "each ok device carries path, bytes, seconds, bandwidth, status, reason" -- \
	jtest "$TMP/rd.json" '[.devices[] | select(.status == "ok") | has("path") and has("bytes") and has("seconds") and has("bw_bytes_per_s") and has("reason")] | all'
check "the slowed device reads at well under the median" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$b\") | .percent_of_median < 60"
check "the slowed device's verdict is slow, confirmed by re-reads" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$b\") | .verdict == \"slow\" and .peers.reads == 3 and .peers.reads_out_of_line == 3" ||
	diag "slowed $b; rates seen: $(rates_seen "$TMP/rd.json")"
check "with a sentence that says how slow and against whom" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$b\") | .sentence | test(\"^${b#/dev/} reads at [0-9.]+% of the median of 3 same-model disks \\\\(3 of 3 reads out of line\\\\)\")"
check "its identical siblings are ok" -- \
	jtest "$TMP/rd.json" "[.devices[] | select(.path == \"$a\" or .path == \"$c\") | .verdict] == [\"ok\", \"ok\"]" ||
	diag "rates seen: $(rates_seen "$TMP/rd.json")"
# The health cross-check: smartctl runs for the flagged disk only; a loop
# device has no SMART data, and the document says so in smartctl's words.
check "the flagged disk's health was checked with smartctl" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$b\") | .health.smartctl_installed == true and .health.smart == \"unavailable\""
check "its reason quotes smartctl and says it is a virtual disk" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$b\") | .health.reason | test(\"smartctl: $b: Unable to detect device type\")"
check "and the sentence points at the disk behind it" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$b\") | .health.sentence | test(\"virtual disk has no SMART data\")"
check "disks that were not flagged are not checked" -- \
	jtest "$TMP/rd.json" "[.devices[] | select(.path != \"$b\") | has(\"health\")] | any | not"
check "the table run printed the flagged disk's health below the table" -- \
	grep -q "^  $b: no SMART data: smartctl: $b: Unable to detect device type" "$TMP/table"
check "and logged it" -- grep -q "READ-DISK ($b): health: no SMART data" "$TMP/log"
check "the skipped device's verdict is skipped" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$z\") | .verdict == \"skipped\""
check "the log says a disk stands out" -- grep -q "read markedly differently from identical peers" "$TMP/log"
check "identity fields are present" -- \
	jtest "$TMP/rd.json" ".devices[] | select(.path == \"$a\") | .transport == \"loop\" and .logical_block_size == 512 and (.backing_file | length > 0)"
check "zram transport detected" -- jtest "$TMP/rd.json" ".devices[] | select(.path == \"$zi\") | .transport == \"zram\" and .size_bytes == 67108864"

"$IOTRIAGE" readdisks "${match[@]}" --size 32M --parallel --json >"$TMP/par.json" 2>"$TMP/par.err"
ok $? "readdisks --parallel exits 0" || diag_file "$TMP/par.err"
check "parallel mode recorded and all four read" -- jtest "$TMP/par.json" '.parameters.mode == "parallel" and .summary.ok == 4'

# --mode both: each group (here each controller: the loop devices share
# their backing file system's device, the zram device is alone) read on its
# own, one at a time, then every disk together.
"$IOTRIAGE" readdisks "${match[@]}" --size 16M --mode both --json >"$TMP/both.json" 2>"$TMP/both.err"
ok $? "readdisks --mode both exits 0" || diag_file "$TMP/both.err"
lg=$(jq -r ".devices[] | select(.path == \"$a\") | .groups.controller" "$TMP/both.json")
check "--mode both: one group pass, the loop devices' controller ($lg) with its 3 disks; the zram device alone has none" -- \
	jtest "$TMP/both.json" ".group_passes.by == \"controller\" and (.group_passes.groups | length) == 1 and .group_passes.groups[0].group == \"$lg\" and .group_passes.groups[0].disks == 3 and (.group_passes.groups[0].all_median_percent_of_serial > 0)"
check "--mode both: each loop device read with its group and with all, the zram device only with all" -- \
	jtest "$TMP/both.json" "[.devices[] | select(.transport == \"loop\") | (.group_pass.percent_of_serial > 0) and (.parallel.percent_of_serial > 0)] == [true, true, true] and (.devices[] | select(.path == \"$zi\") | (.group_pass == null) and .parallel.percent_of_serial > 0)"

# A detached loop device, found by readdisks itself.
free_loop=$(losetup -f)
if [ -e "$free_loop" ]; then
	"$IOTRIAGE" readdisks --match "${free_loop#/dev/}" --json >"$TMP/free.json" 2>/dev/null
	ok $(($? == 0)) "nothing readable: non-zero exit"
	check "a detached loop device is skipped as such" -- \
		jtest "$TMP/free.json" '.devices[0].status == "skipped" and .devices[0].reason == "loop device not attached"'
fi

"$IOTRIAGE" readdisks --match 'no-such-disk*' >/dev/null 2>"$TMP/none.err"
ok $(($? == 0)) "no matching disk: non-zero exit"
check "and says no disk matches" -- grep -q "no disk matches --match" "$TMP/none.err"
"$IOTRIAGE" readdisks extra >/dev/null 2>"$TMP/op.err"
ok $(($? != 2)) "an operand is a usage error"

finish
