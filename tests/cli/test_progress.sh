#!/usr/bin/env bash
# The terminal: a progress line (what runs, percent, ETA) on long commands
# when stderr is a terminal (a pseudo-terminal from script(1)), none when
# piped or with --json; devices that are not disks summed up in one line;
# the verdict under its own heading.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "progress tests" "need root for loop and zram devices"; exit 0; fi
if ! command -v script >/dev/null; then skip "progress tests" "script(1) is not installed"; exit 0; fi

a=$(make_loop 64M)
b=$(make_loop 64M)
c=$(make_loop 64M)
z=$(make_zram "")      # hot-added, never initialised: not a disk
match=()
for d in "$a" "$b" "$c" "$z"; do match+=(--match "${d#/dev/}"); done
# Every disk throttled to 32 MB/s for the command: 3 x 48 MiB take about 5 s
# serially, long enough for a rate, so the ETA is a number.
cg=$(make_cgroup "$(lsblk -dno MAJ:MIN "$a" | tr -d ' ') 33554432")
for d in "$b" "$c"; do
	echo "$(lsblk -dno MAJ:MIN "$d" | tr -d ' ') 33554432" >"$cg/blkio.throttle.read_bps_device"
done

# on_tty OUT CMD...: runs CMD in the cgroup with stdout and stderr on a
# pseudo-terminal; what the terminal got goes to OUT.
on_tty() {
	local out=$1; shift
	printf -v cmd '%q ' "$@"
	script -qefc "echo \$\$ > $cg/cgroup.procs && exec $cmd" /dev/null >"$out" 2>&1 </dev/null
}
# progress_lines FILE: the redraws of the line (each begins with "\r\e[K").
progress_lines() { tr '\r' '\n' <"$1" | sed -n 's/^\x1b\[K//p'; }

on_tty "$TMP/serial.tty" "$IOTRIAGE" readdisks "${match[@]}" --size 48M
ok $? "readdisks on a terminal exits 0" || diag_file "$TMP/serial.tty"
progress_lines "$TMP/serial.tty" >"$TMP/serial.lines"
check "serial: a line names the disk and its place, with percent, bytes and ETA" -- \
	grep -Eq "^readdisks: reading /dev/loop[0-9]+ \(disk [123] of 3\), [0-9]+%, [0-9.]+ [KMG]?i?B of 144 MiB, ETA [0-9]+ s$" \
	"$TMP/serial.lines"
check "serial: ETA unknown before there is a rate" -- grep -Eq "^readdisks: .*, 0%, .*ETA unknown$" "$TMP/serial.lines"
check "serial: the percent climbs past half" -- \
	bash -c "grep -Eo ', [0-9]+%,' '$TMP/serial.lines' | tr -dc '0-9\n' | awk '\$1 >= 50 && \$1 < 100 {f=1} END {exit !f}'"
check "serial: the last disk is shown as disk 3 of 3" -- grep -q "(disk 3 of 3)" "$TMP/serial.lines"
check "serial: the line is erased before a log line (no log line starts mid-line)" -- \
	bash -c "! tr '\r' '\n' <'$TMP/serial.tty' | grep -Eq '^readdisks: .*\{[A-Z][a-z]{2} '"

on_tty "$TMP/par.tty" "$IOTRIAGE" readdisks "${match[@]}" --size 48M --parallel
ok $? "readdisks --parallel on a terminal exits 0" || diag_file "$TMP/par.tty"
progress_lines "$TMP/par.tty" >"$TMP/par.lines"
check "parallel: one line for all the disks, with percent, bytes and ETA" -- \
	grep -Eq "^readdisks: reading 3 disks at once, [0-9]+%, [0-9.]+ [KMG]?i?B of 144 MiB, ETA [0-9]+ s$" "$TMP/par.lines"

# The IOPS pass is time-based: planned in seconds (2 s a disk), so its
# percent and ETA follow the clock, not bytes it never aims at.
on_tty "$TMP/iops.tty" "$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 2s
ok $? "readdisks --rw randread on a terminal exits 0" || diag_file "$TMP/iops.tty"
progress_lines "$TMP/iops.tty" >"$TMP/iops.lines"
check "IOPS pass: the line gives seconds of the 6 planned, not bytes" -- \
	grep -Eq "^readdisks: reading /dev/loop[0-9]+ \(disk [123] of 3\), [0-9]+%, [0-9]+ s of 6 s, ETA [0-9]+ s$" "$TMP/iops.lines"
check "IOPS pass: the percent is the share of the time (within the 17 points of a whole second), and climbs past half" -- \
	bash -c "sed -nE 's/.*, ([0-9]+)%, ([0-9]+) s of 6 s,.*/\\1 \\2/p' '$TMP/iops.lines' |
		awk '{ d = \$1 - 100 * \$2 / 6; if (d < -17 || d > 17) bad = 1; if (\$1 >= 50 && \$1 < 100) half = 1 }
		     END { exit !(NR > 3 && half && !bad) }'"
check "IOPS pass: the ETA is the time left (the fork of each reader aside)" -- \
	bash -c "sed -nE 's/.*, ([0-9]+) s of 6 s, ETA ([0-9]+) s$/\\1 \\2/p' '$TMP/iops.lines' |
		awk '\$1 >= 1 { n++; left = 6 - \$1; d = \$2 - left; if (d < -1.5 || d > 1.5 + 0.5 * left) bad = 1 }
		     END { exit !(n > 2 && !bad) }'"
diag "IOPS pass lines: $(sed -nE 's/.*, ([0-9]+%, [0-9]+ s of 6 s, ETA [0-9]+ s)$/\1/p' "$TMP/iops.lines" | sort -u | head -n 12 | tr '\n' '|')"
on_tty "$TMP/iopspar.tty" "$IOTRIAGE" readdisks "${match[@]}" --rw randread --runtime 2s --parallel
ok $? "readdisks --rw randread --parallel on a terminal exits 0" || diag_file "$TMP/iopspar.tty"
progress_lines "$TMP/iopspar.tty" >"$TMP/iopspar.lines"
check "IOPS pass at once: one runtime for all the disks" -- \
	grep -Eq "^readdisks: reading 3 disks at once, [0-9]+%, [0-9]+ s of 2 s, ETA [0-9]+ s$" "$TMP/iopspar.lines"

# Not a terminal, or --json: no line.
run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --size 16M >"$TMP/pipe.out" 2>"$TMP/pipe.err"
ok $? "readdisks piped exits 0"
check "piped: no progress line and no carriage return" -- \
	bash -c "! grep -q 'readdisks: reading' '$TMP/pipe.err' '$TMP/pipe.out' && ! grep -q $'\r' '$TMP/pipe.err'"
on_tty "$TMP/json.tty" "$IOTRIAGE" readdisks "${match[@]}" --size 16M --parallel --json
ok $? "readdisks --json on a terminal exits 0" || diag_file "$TMP/json.tty"
check "--json on a terminal: no progress line" -- bash -c "! grep -q 'readdisks: reading' '$TMP/json.tty'"

# Devices that are not disks: one line on the terminal, each one in the
# log file and in the document.
# The free loop device can be taken by another process between losetup -f
# and the read; try again then, so the check runs rather than skips.
for attempt in 1 2 3; do
	free_loop=$(losetup -f)
	nd_match=("${match[@]}" --match "${free_loop#/dev/}")
	run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${nd_match[@]}" --size 8M --log-file "$TMP/nd.log" \
		>"$TMP/nd.out" 2>"$TMP/nd.err"
	nd_status=$?
	[ -e "$free_loop" ] && ! losetup "$free_loop" >/dev/null 2>&1 && break
	rm -f "$TMP/nd.log"
done
ok $nd_status "readdisks with devices that are not disks exits 0" || diag_file "$TMP/nd.err"
if [ -e "$free_loop" ] && ! losetup "$free_loop" >/dev/null 2>&1; then
	check "one line sums them up by kind" -- grep -Eq \
		"skipped 2 devices that are not disks: 1 unattached loop, 1 uninitialised zram \(--json lists each\)$" "$TMP/nd.err"
else
	skip "one line sums them up by kind" "$free_loop was taken by another process meanwhile"
fi
check "no log line each on the terminal" -- bash -c "! grep -q 'READ-DISK ($z): skipped' '$TMP/nd.err'"
check "not a row each in the table" -- bash -c "! grep -q '^$z ' '$TMP/nd.out'"
check "but a line each in the log file" -- grep -q "READ-DISK ($z): skipped: zram device not initialised" "$TMP/nd.log"
"$IOTRIAGE" readdisks "${nd_match[@]}" --size 8M --json >"$TMP/nd.json" 2>/dev/null
check "--json lists each of them with its reason" -- \
	jtest "$TMP/nd.json" "[.devices[] | select(.path == \"$z\") | .status == \"skipped\" and .reason == \"zram device not initialised\"] == [true]"
check "the three disks read" -- \
	jtest "$TMP/nd.json" "[.devices[] | select(.path == \"$a\" or .path == \"$b\" or .path == \"$c\") | .status] == [\"ok\", \"ok\", \"ok\"]"

# The verdict stands apart: after the table, a blank line, then its heading.
check "the verdict has its heading after a blank line, below the table" -- \
	awk 'prev == "" && $0 == "Verdict" {h = NR} /^DEVICE / {t = NR} {prev = $0} END {exit !(h && t && h > t)}' "$TMP/nd.out"
check "and the sentence under it" -- \
	bash -c "grep -A1 '^Verdict\$' '$TMP/nd.out' | grep -q '^  No disk stands out from its peers'"

# A pool command: benchpool on a directory, planned in seconds at each
# test's cap: dd (no cap) at a runtime per pass, 2 x 2 s; builtin at its
# three capped passes, 3 x 2 s. So the second test starts at 40% with its
# own 6 s still to come, however fast dd was.
mkdir "$TMP/bp"
script -qefc "$IOTRIAGE benchpool $TMP/bp 128M --tests dd,builtin --runtime 2" /dev/null >"$TMP/bp.tty" 2>&1 </dev/null
ok $? "benchpool on a terminal exits 0" || diag_file "$TMP/bp.tty"
progress_lines "$TMP/bp.tty" >"$TMP/bp.lines"
check "benchpool: the running test, its place, percent and ETA unknown at first (dd has no cap)" -- \
	grep -Eq "^benchpool: dd on $TMP/bp \(test 1 of 2\), 0%, ETA unknown$" "$TMP/bp.lines"
check "benchpool: the second test starts at its share of the plan with its cap still to come" -- \
	grep -Eq "^benchpool: builtin on $TMP/bp \(test 2 of 2\), 40%, ETA 6 s$" "$TMP/bp.lines"
check "benchpool: then moves inside the test, with an ETA of at most its cap" -- \
	bash -c "grep -E '^benchpool: builtin on .*\\(test 2 of 2\\): .*, [0-9]+%, ETA [0-9]+ s$' '$TMP/bp.lines' |
		sed -E 's/.*, ([0-9]+)%, ETA ([0-9]+) s$/\\1 \\2/' | awk '\$1 > 40 && \$1 < 100 && \$2 <= 6 {f=1} END {exit !f}'"

# One test: its percent moves while it runs (no step ends in between).
mkdir "$TMP/bp1"
script -qefc "$IOTRIAGE benchpool $TMP/bp1 128M --tests builtin --runtime 3" /dev/null >"$TMP/bp1.tty" 2>&1 </dev/null
ok $? "benchpool with one test on a terminal exits 0" || diag_file "$TMP/bp1.tty"
progress_lines "$TMP/bp1.tty" | grep -E "^benchpool: builtin on $TMP/bp1 \(test 1 of 1\)" >"$TMP/bp1.lines"
sed -En 's/.*, ([0-9]+)%, ETA .*/\1/p' "$TMP/bp1.lines" | sort -un >"$TMP/bp1.percents"
check "benchpool: test 1 of 1 is shown at two or more percents between 0 and 100" -- \
	awk '$1 > 0 && $1 < 100 {n++} END {exit !(n >= 2)}' "$TMP/bp1.percents" || diag_file "$TMP/bp1.percents"
check "benchpool: and inside a pass, not only at a pass's end (33%, 66%)" -- \
	awk '$1 > 0 && $1 < 100 && $1 != 33 && $1 != 66 {f=1} END {exit !f}' "$TMP/bp1.percents"
check "benchpool: the ETA is the plan's caps (3 x 3 s) from the start, never unknown" -- \
	bash -c "grep -q ', 0%, ETA 9 s\$' '$TMP/bp1.lines' && ! grep -q 'ETA unknown' '$TMP/bp1.lines'"
check "benchpool: and never above them" -- bash -c "! grep -Eq 'ETA ([1-9][0-9]+ s|[0-9]+ min)' '$TMP/bp1.lines'"
# fio, a child process: the line moves by its time cap while it is waited for.
if command -v fio >/dev/null; then
	script -qefc "$IOTRIAGE benchpool $TMP/bp1 64M --tests fio --runtime 2" /dev/null >"$TMP/bpf.tty" 2>&1 </dev/null
	ok $? "benchpool --tests fio on a terminal exits 0" || diag_file "$TMP/bpf.tty"
	progress_lines "$TMP/bpf.tty" >"$TMP/bpf.lines"
	check "benchpool: fio's line moves while fio runs, within its 2 x 2 s caps" -- \
		grep -Eq "^benchpool: fio on $TMP/bp1 \(test 1 of 1\), [1-9][0-9]?%, ETA [0-4] s$" "$TMP/bpf.lines"
else
	skip "fio's progress line" "fio is not installed"
fi
"$IOTRIAGE" benchpool "$TMP/bp" 16M --tests dd --runtime 2 >"$TMP/bp.out" 2>"$TMP/bp.err"
check "benchpool piped: no progress line" -- bash -c "! grep -q 'benchpool: ' '$TMP/bp.err' '$TMP/bp.out'"

# rwpool on a directory: bytes written, then read back.
mkdir "$TMP/rw"
script -qefc "$IOTRIAGE rwpool $TMP/rw --size 256M" /dev/null >"$TMP/rw.tty" 2>&1 </dev/null
ok $? "rwpool on a terminal exits 0" || diag_file "$TMP/rw.tty"
progress_lines "$TMP/rw.tty" >"$TMP/rw.lines"
check "rwpool: writing, with percent, bytes of 512 MiB and an ETA" -- \
	grep -Eq "^rwpool: writing $TMP/rw/.*, [0-9]+%, .* of 512 MiB, ETA (unknown|[0-9]+ s)$" "$TMP/rw.lines"
check "rwpool: then reading it back" -- grep -Eq "^rwpool: reading $TMP/rw/.* back, [0-9]+%, .* of 512 MiB, ETA" "$TMP/rw.lines"
"$IOTRIAGE" rwpool "$TMP/rw" --size 16M --json >"$TMP/rw.json" 2>"$TMP/rw.err"
check "rwpool --json: no progress line" -- bash -c "! grep -q 'rwpool: ' '$TMP/rw.err'"

# volumes on an ext4 loop device: bytes written, then read back.
if command -v mkfs.ext4 >/dev/null; then
	v=$(make_loop 600M)
	mkfs.ext4 -q "$v" && mkdir "$TMP/vol" && mount "$v" "$TMP/vol" && undo "umount $TMP/vol"
	# 384M: generating its incompressible data takes over half a second
	# here, so the write is drawn between its 32 MiB steps.
	script -qefc "$IOTRIAGE volumes --match $TMP/vol --size 384M" /dev/null >"$TMP/vol.tty" 2>&1 </dev/null
	ok $? "volumes on a terminal exits 0" || diag_file "$TMP/vol.tty"
	progress_lines "$TMP/vol.tty" >"$TMP/vol.lines"
	check "volumes: the write moves by the bytes written, before the read-back" -- \
		grep -Eq "^volumes: writing a test file in $TMP/vol, ([1-9]|[1-4][0-9])%, [0-9.]+ MiB of 768 MiB, ETA [0-9]+ s$" "$TMP/vol.lines"
	check "volumes: the read-back with percent, bytes of 768 MiB and an ETA" -- \
		grep -Eq "^volumes: reading the test file in $TMP/vol back, [0-9]+%, .* of 768 MiB, ETA (unknown|[0-9]+ s)$" "$TMP/vol.lines"
else
	skip "volumes' progress line" "mkfs.ext4 is not installed"
fi

# matrix on a directory: planned in time, each cell at its 1 s runtime, and
# moving inside a cell by the built-in engine's bytes or time (random reads
# first: the 1 s cap, not the size, ends them).
mkdir "$TMP/mx"
script -qefc "$IOTRIAGE matrix --target $TMP/mx --tests randread-8k,seqread-64k --size 256M --runtime 1s --engine builtin" \
	/dev/null >"$TMP/mx.tty" 2>&1 </dev/null
ok $? "matrix on a terminal exits 0" || diag_file "$TMP/mx.tty"
progress_lines "$TMP/mx.tty" >"$TMP/mx.lines"
check "matrix: the cell, its place in the grid, half the plan done and its 1 s to come" -- \
	grep -Eq "^matrix: seqread-64k on $TMP/mx \(2 of 2\), 50%, ETA 1 s$" "$TMP/mx.lines"
# (The line inside a cell is redrawn about a third of the way and two
# thirds of the way through it; under ASan on a loaded machine only one of
# the two landed inside a 1 s cell once, so one is asked for.)
check "matrix: the first cell moves past 0% while it runs, before the plan's half" -- \
	bash -c "sed -En 's/^matrix: randread-8k on .* \\(1 of 2\\), ([0-9]+)%, ETA [0-9]+ s$/\\1/p' '$TMP/mx.lines' |
		sort -un | awk '\$1 > 0 && \$1 < 50 {n++} END {exit !(n >= 1)}'"

# run (bench/job's own line): percent and ETA by the nearer cap; none with --json.
script -qefc "$IOTRIAGE run $TMP/r.bin --size 32M --rw randread --bs 4k --engine psync --runtime 2500ms --io-size 1T --direct 0" \
	/dev/null >"$TMP/run.tty" 2>&1 </dev/null
ok $? "run on a terminal exits 0" || diag_file "$TMP/run.tty"
progress_lines "$TMP/run.tty" >"$TMP/run.lines"
check "run: bytes, rate, seconds, percent of its time cap and ETA" -- \
	grep -Eq "^run: .* of 1.0 TiB, .*B/s, [0-9]+ s, [0-9]+%, ETA [0-9]+ s$" "$TMP/run.lines"
script -qefc "$IOTRIAGE run $TMP/r.bin --rw randread --bs 4k --runtime 1500ms --io-size 1T --direct 0 --json" \
	/dev/null >"$TMP/runj.tty" 2>&1 </dev/null
check "run --json on a terminal: no progress line" -- bash -c "! grep -q 'run: ' '$TMP/runj.tty'"

# ramdisk sweep on zram (which measures --ndelay 0 only): planned in time,
# each value at its 2 s runtime, the first moving while its reads run.
if [ -e /sys/class/zram-control/hot_add ]; then
	script -qefc "$IOTRIAGE ramdisk sweep --ndelay 0,50000 --size 64M --runtime 2s" /dev/null >"$TMP/sw.tty" 2>&1 </dev/null
	ok $(($? != 1)) "ramdisk sweep on a terminal exits 1 (zram measures --ndelay 0 only)" || diag_file "$TMP/sw.tty"
	progress_lines "$TMP/sw.tty" >"$TMP/sw.lines"
	check "sweep: the first value moves while its reads run" -- \
		grep -Eq "^ramdisk sweep: --ndelay 0 \(value 1 of 2\), ([1-9]|[1-4][0-9])%, ETA [0-9]+ s$" "$TMP/sw.lines"
	check "sweep: the second value starts at half the plan with its 2 s to come" -- \
		grep -Eq "^ramdisk sweep: --ndelay 50000 \(value 2 of 2\), 50%, ETA 2 s$" "$TMP/sw.lines"
else
	skip "ramdisk sweep's progress line" "this kernel has no zram"
fi

# fleet: hosts done of the total and the ones running, over real OpenSSH to
# hosts in network namespaces (tests/cli/fleetlab.sh). Three hosts, two at
# a time, each reading 16 MiB of its disk at 8 MB/s (about 2 s a host).
. "$(dirname "$0")/fleetlab.sh"
if why=$(fleetlab_need); then
	fleetlab_up && fleetlab_host h1 ok 8388608 && fleetlab_host h2 ok 8388608 && fleetlab_host h3 ok 8388608
	ok $? "fleet lab up: three hosts with sshd in their own namespaces"
	fleetlab_config
	printf -v fleet_cmd '%q ' ip netns exec "$FLEET_NS_C" "$IOTRIAGE" fleet -F "$FLEET_SSH_CONFIG.all" \
		--remote-iotriage "$FLEET_FIX/bin/iotriage" h1,h2,h3 --parallel 2 -- readdisk "$FLEET_FIX/disk" --size 16M
	script -qefc "$fleet_cmd" /dev/null >"$TMP/fleet.tty" 2>&1 </dev/null
	ok $? "fleet on a terminal exits 0" || diag_file "$TMP/fleet.tty"
	progress_lines "$TMP/fleet.tty" >"$TMP/fleet.lines"
	check "fleet: none done at first, the first two running, ETA unknown" -- \
		grep -Eq "^fleet: 0 of 3 hosts done, running h1 h2, 0%, ETA unknown$" "$TMP/fleet.lines"
	check "fleet: then hosts done, the third running, with an ETA" -- \
		grep -Eq "^fleet: (1 of 3 hosts done, running h[12] h3, 33|2 of 3 hosts done, running h3, 66)%, ETA [0-9]+ s$" \
		"$TMP/fleet.lines"
	check "fleet: the count and the percent agree on every line" -- \
		bash -c "! grep '^fleet: ' '$TMP/fleet.lines' |
			grep -Ev '^fleet: (starting, 0|0 of 3 hosts done.*, 0|1 of 3 hosts done.*, 33|2 of 3 hosts done.*, 66|3 of 3 hosts done.*, 100)%, ETA'"
	check "fleet: the line is erased before each log line" -- \
		bash -c "! tr '\r' '\n' <'$TMP/fleet.tty' | grep -Eq '^fleet: .*\{[A-Z][a-z]{2} '"
	fleet h1,h2 -- readdisk "$FLEET_FIX/disk" --size 4M >"$TMP/fleet.out" 2>"$TMP/fleet.err"
	ok $? "fleet piped exits 0"
	check "fleet piped: no progress line" -- bash -c "! grep -q 'hosts done' '$TMP/fleet.err' '$TMP/fleet.out'"
	script -qefc "${fleet_cmd/--parallel 2/--json --parallel 2}" /dev/null >"$TMP/fleetj.tty" 2>&1 </dev/null
	ok $? "fleet --json on a terminal exits 0" || diag_file "$TMP/fleetj.tty"
	check "and writes its document" -- grep -q '"command": *"fleet"' "$TMP/fleetj.tty"
	check "fleet --json on a terminal: no progress line" -- bash -c "! grep -q 'hosts done' '$TMP/fleetj.tty'"
else
	skip "fleet's progress line" "$why"
fi
