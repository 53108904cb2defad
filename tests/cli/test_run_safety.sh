#!/usr/bin/env bash
# run's safety rules (issue 25, part 1): the null engine never creates,
# lays out or opens its target for writing; laying out a short file checks
# the free space first, stops within a second of SIGINT or SIGTERM (a file
# it created is removed, a file that existed goes back to its size), shows
# its progress on a terminal and is logged; bandwidth samples start after
# the ramp, so two ramped runs of one workload compare as the same and a
# slower one as worse. The same through a fio job file.
. "$(dirname "$0")/lib.sh"
need_root || { skip "run safety" "needs root (loop devices, tmpfs, cgroups)"; finish; exit 0; }

# --- the null engine: nothing created, grown or opened for writing
printf 'x%.0s' $(seq 1048576) >"$TMP/one-mib"
printf '[global]\nioengine=null\nsize=64m\nrw=write\nbs=1m\n[null-write]\n' >"$TMP/null.fio"
# (LeakSanitizer cannot run under ptrace: off for this one run of the sanitized build)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=open,openat -o "$TMP/null.trace" \
	"$IOTRIAGE" run --fio-job "$TMP/null.fio" "$TMP/one-mib" --json >"$TMP/null.json" 2>/dev/null
ok $? "a null-engine write job file runs on a 1 MiB file"
check "it did the job's 64 MiB of writes" -- jtest "$TMP/null.json" '.fio_job.jobs[0].result.write.bytes == 67108864'
check "the 1 MiB target is still 1 MiB" -- test "$(stat -c %s "$TMP/one-mib")" = 1048576
check "the target was never opened for writing" -- \
	bash -c "grep -F '$TMP/one-mib' '$TMP/null.trace' | grep -q O_RDONLY && ! grep -F '$TMP/one-mib' '$TMP/null.trace' | grep -Eq 'O_WRONLY|O_RDWR|O_CREAT'"
"$IOTRIAGE" run --fio-job "$TMP/null.fio" "$TMP/missing" >/dev/null 2>&1
ok $? "a null-engine job on a missing target runs"
check "and the missing target stays missing" -- test ! -e "$TMP/missing"
"$IOTRIAGE" run --engine null --rw write --size 16M "$TMP/one-mib" >/dev/null 2>&1
check "run --engine null --size 16M leaves the file at 1 MiB" -- test "$(stat -c %s "$TMP/one-mib")" = 1048576
"$IOTRIAGE" run --engine null --rw read "$TMP/missing" >/dev/null 2>"$TMP/null-nosize.err"
check "a missing target without a size is refused, saying the null engine creates nothing" -- \
	bash -c "[ $? -eq 1 ] && grep -q 'the null engine creates nothing' '$TMP/null-nosize.err' && test ! -e '$TMP/missing'"

# --- free space: a job bigger than the file system is refused before a byte is written
mkdir "$TMP/small"
mount -t tmpfs -o size=64m iotriage-test "$TMP/small" && undo "umount -l $TMP/small"
"$IOTRIAGE" run --rw read --size 128M "$TMP/small/f" >/dev/null 2>"$TMP/nospace.err"
check "a 128 MiB layout on a 64 MiB file system fails with exit 1" -- test $? -eq 1
check "the refusal gives both figures and says nothing was written" -- \
	grep -Eq "it needs 128 MiB more and the file system has 6[34](\.[0-9])? MiB free; nothing was written" "$TMP/nospace.err"
check "no file is left and no space is used" -- bash -c "test ! -e '$TMP/small/f' && [ \"\$(df --output=used -B1 '$TMP/small' | tail -1)\" -lt 1048576 ]"
printf '[big]\nrw=randread\nsize=128m\nbs=4k\n' >"$TMP/big.fio"
printf 'keep' >"$TMP/small/kept"
"$IOTRIAGE" run --fio-job "$TMP/big.fio" "$TMP/small/kept" >/dev/null 2>"$TMP/nospace-job.err"
check "a job file's layout is refused the same way and the short file is kept as it was" -- \
	bash -c "[ $? -eq 1 ] && grep -q 'nothing was written' '$TMP/nospace-job.err' && [ \"\$(cat '$TMP/small/kept')\" = keep ]"

# --- an interrupted layout: within a second, nothing of its own left
printf '[huge]\nrw=read\nsize=20G\nbs=1m\n' >"$TMP/huge.fio"
start=$(date +%s%N)
timeout -s INT 0.5 "$IOTRIAGE" run --fio-job "$TMP/huge.fio" "$TMP/new-file" >/dev/null 2>"$TMP/int.err"
took=$(( ($(date +%s%N) - start) / 1000000 ))
diag "SIGINT at 0.5 s: exited after $took ms"
check "SIGINT during a layout: exits within 1.5 s" -- test "$took" -lt 1500
check "the file it created is removed" -- test ! -e "$TMP/new-file"
check "and it says so" -- grep -q "interrupted while laying out '$TMP/new-file'; the file it created is removed" "$TMP/int.err"
head -c 1048576 /dev/urandom >"$TMP/existing"
sum=$(md5sum <"$TMP/existing")
timeout -s TERM 0.5 "$IOTRIAGE" run --rw read --size 20G "$TMP/existing" >/dev/null 2>&1
check "SIGTERM during a layout of an existing 1 MiB file: it is back to 1 MiB, its data untouched" -- \
	bash -c "[ \"\$(stat -c %s '$TMP/existing')\" = 1048576 ] && [ \"\$(md5sum <'$TMP/existing')\" = '$sum' ]"

# --- progress on a terminal, and the log line of a finished layout
timeout -s INT 2.5 script -qfec "'$IOTRIAGE' run --rw read --size 20G '$TMP/shown'" "$TMP/tty.out" >/dev/null 2>&1
# script passes the interrupt on as SIGTERM and need not wait for the run to
# finish removing its file: wait (up to 5 s) for the run itself to be gone.
for _ in $(seq 50); do pgrep -f -- "--size 20G $TMP/shown" >/dev/null || break; sleep 0.1; done
check "the interrupted run under script exits within 5 s" -- bash -c '! pgrep -f -- "--size 20G $1" >/dev/null' _ "$TMP/shown"
check "on a terminal the layout shows its progress" -- grep -aq "run: laying out: .* of 20 GiB, .*%, ETA" "$TMP/tty.out"
check "and the interrupted layout removed its file" -- test ! -e "$TMP/shown"
"$IOTRIAGE" run --rw read --size 8M "$TMP/laid" >/dev/null 2>&1
check "a finished layout is logged with what it wrote" -- \
	grep -q "RUN ($TMP/laid): laid out from 0 to 8388608 bytes: 8388608 bytes (8.4 MB, 8.0 MiB) copied" "$IOTRIAGE_STATE_DIR/iotriage.log"

# --- samples after the ramp: compare two ramped runs, then a slower one
dev=$(make_loop 256M)
majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
workload=(run "$dev" --rw read --bs 64k --iodepth 4 --ramp-time 2s --runtime 5s --time-based --json)
# Each run in a cgroup of its own: a second run in the same throttled
# cgroup had a burst (one sample ~10% high, the next as low) in 5 of 8
# sanitized runs, never a first one: the throttle's state, not the sampling.
for r in a b; do
	run_in_cgroup "$(make_cgroup "$majmin 50331648")" "$IOTRIAGE" "${workload[@]}" >"$TMP/r$r.json" 2>/dev/null
done
for r in c d; do
	run_in_cgroup "$(make_cgroup "$majmin 33554432")" "$IOTRIAGE" "${workload[@]}" >"$TMP/r$r.json" 2>/dev/null
done
for r in a b c d; do diag "samples $r: $(jq -c '.result.samples.bw_bytes_per_s | map(floor)' "$TMP/r$r.json")"; done
check "a 2 s ramp and a 5 s runtime give 4 or 5 whole samples, none of the ramp" -- \
	jtest "$TMP/ra.json" '.result.samples | .count >= 4 and .count <= 5 and (.bw_bytes_per_s | min) > 0.8 * .mean_bw_bytes_per_s'
a=$(jq -r .run_id "$TMP/ra.json") b=$(jq -r .run_id "$TMP/rb.json")
c=$(jq -r .run_id "$TMP/rc.json") d=$(jq -r .run_id "$TMP/rd.json")
"$IOTRIAGE" compare "$a" "$b" --json >"$TMP/rab.json"
diag "compare A B: $(jq -c '.comparisons[] | select(.metric == "bandwidth") | [.change_percent, .noise_limit_percent, .threshold_percent, .verdict]' "$TMP/rab.json")"
check "two ramped runs of one workload: not significant, their own noise limit under 15%" -- \
	jtest "$TMP/rab.json" '.comparisons[] | select(.metric == "bandwidth") | .verdict == "not significant" and .basis == "noise" and .noise_limit_percent < 15'
"$IOTRIAGE" compare "$a" "$c" --json >"$TMP/rac.json"
diag "compare A C: $(jq -c '.comparisons[] | select(.metric == "bandwidth") | [.change_percent, .noise_limit_percent, .threshold_percent, .verdict]' "$TMP/rac.json")"
check "a run at two thirds of the rate: a third lower, far outside the runs' noise limit" -- \
	jtest "$TMP/rac.json" '.comparisons[] | select(.metric == "bandwidth") | .change_percent < -25 and .noise_limit_percent < 15'
# Single runs also face a 40% floor (the drift between runs on a shared
# machine, report/significance.h); two runs each side measure that drift.
"$IOTRIAGE" compare "$a+$b" "$c+$d" --json >"$TMP/rabcd.json"
diag "compare A+B C+D: $(jq -c '.comparisons[] | select(.metric == "bandwidth") | [.change_percent, .threshold_percent, .verdict]' "$TMP/rabcd.json")"
check "two runs at full rate against two at two thirds: worse" -- \
	jtest "$TMP/rabcd.json" '.comparisons[] | select(.metric == "bandwidth") | .verdict == "worse" and .change_percent < -25'
finish
