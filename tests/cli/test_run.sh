#!/usr/bin/env bash
# run: fio-like workloads on files and devices, caps, engines, guards.
. "$(dirname "$0")/lib.sh"

f=$TMP/data.bin
"$IOTRIAGE" run "$f" --size 8M --rw randread --bs 4k --iodepth 16 --engine io_uring --json >"$TMP/r.json" 2>/dev/null
ok $? "randread on a new file lays it out and runs"
check "8 MiB in 2048 I/Os of 4 KiB, stopped by the size cap" -- \
	jtest "$TMP/r.json" '.result | .bytes == 8388608 and .read.ios == 2048 and .stopped_by == "size" and .engine == "io_uring" and .iodepth == 16'
check "the file was laid out to its size" -- test "$(stat -c %s "$f")" = 8388608
check "a run that started no other program lists no tool" -- jtest "$TMP/r.json" '.tools == []'
check "direct I/O recorded as bypassing the cache" -- jtest "$TMP/r.json" '.result.cache == "bypassed" and .parameters.direct == true'
check "io_uring: a submission latency for every I/O, above 0 and at most the completion latency" -- \
	jtest "$TMP/r.json" '.result.read | .slat_ns.count == .ios and .slat_ns.min > 0 and .slat_ns.p50 <= .lat_ns.p50 and .slat_ns.max <= .lat_ns.max and (.slat_ns | has("stdev") and has("p99.99"))'
check "no writes: an empty write slat" -- jtest "$TMP/r.json" '.result.write.slat_ns.count == 0'
"$IOTRIAGE" run "$f" --rw randread --bs 4k --iodepth 16 --engine io_uring --size 1M >"$TMP/r.out" 2>/dev/null
check "the terminal shows the slat line under the lat line" -- \
	bash -c "grep -A1 '^ *lat (us): ' '$TMP/r.out' | grep -Eq '^ +slat \(us\): mean=[0-9.]+ p50=[0-9.]+ p99=[0-9.]+ max=[0-9.]+$'"

"$IOTRIAGE" run "$f" --rw randrw --rwmixread 70 --bs 4k --iodepth 8 --numjobs 2 --engine libaio --json >"$TMP/m.json" 2>/dev/null
ok $? "mixed random read/write with two jobs"
check "both jobs did the whole size" -- jtest "$TMP/m.json" '.result.jobs | length == 2 and all(.bytes == 8388608)'
check "reads are about 70%" -- jtest "$TMP/m.json" '.result | (.read.ios / (.read.ios + .write.ios)) | . > 0.62 and . < 0.78'
check "first done <= last done" -- jtest "$TMP/m.json" '.result.first_done_seconds <= .result.last_done_seconds'
check "libaio: read and write slat for every I/O of two jobs, at most the lat" -- \
	jtest "$TMP/m.json" '[.result.read, .result.write] | all(.slat_ns.count == .ios and .ios > 0 and .slat_ns.min > 0 and .slat_ns.p50 <= .lat_ns.p50)'

"$IOTRIAGE" run "$TMP/big.bin" --size 2G --rw write --bs 64k --runtime 1s --json >"$TMP/t.json" 2>/dev/null
ok $? "a time-capped write"
check "stopped by the time cap, bytes and seconds as done" -- \
	jtest "$TMP/t.json" '.result | .stopped_by == "time" and .bytes < 2147483648 and .seconds >= 0.9 and .seconds < 3 and .write.bytes == .bytes'
rm -f "$TMP/big.bin"

"$IOTRIAGE" run "$f" --rw read --bs 1M --engine psync --json >"$TMP/p.json" 2>/dev/null
check "the default size is the file's size" -- jtest "$TMP/p.json" '.result.bytes == 8388608'
check "psync: slat_ns is null (it completes inside the submit call)" -- \
	jtest "$TMP/p.json" '.result.read.slat_ns == null and .result.write.slat_ns == null and .result.read.lat_ns.count == 8'
"$IOTRIAGE" run "$f" --rw read --bs 1M --engine psync >"$TMP/p.out" 2>/dev/null
check "and no slat line on the terminal" -- bash -c "grep -q ' lat (us): ' '$TMP/p.out' && ! grep -q 'slat' '$TMP/p.out'"

# Progress: a live line on a terminal, none when piped.
script -qec "$IOTRIAGE run $f --rw randread --bs 4k --engine psync --runtime 2500ms --io-size 1T --direct 0" /dev/null >"$TMP/tty.out" 2>&1
check "a progress line on a terminal" -- grep -q "run: .* of .*B/s" "$TMP/tty.out"
"$IOTRIAGE" run "$f" --rw randread --bs 4k --runtime 2500ms --io-size 1T --direct 0 >"$TMP/pipe.out" 2>"$TMP/pipe.err"
check "no progress line when piped" -- bash -c "! grep -q 'run: ' '$TMP/pipe.out' '$TMP/pipe.err'"

# O_DIRECT where the file system cannot do it (ramfs) is explained, and the
# file the attempt created is removed.
if need_root && mkdir "$TMP/ramfs" && mount -t ramfs iotriage-test "$TMP/ramfs"; then
	undo "umount $TMP/ramfs"
	"$IOTRIAGE" run "$TMP/ramfs/x" --size 1M >/dev/null 2>"$TMP/ram.err"
	ok $(($? == 0)) "O_DIRECT on ramfs: non-zero exit"
	check "and says to use --direct 0" -- grep -q "does not support O_DIRECT" "$TMP/ram.err"
	check "and leaves no file behind" -- test ! -e "$TMP/ramfs/x"
	"$IOTRIAGE" run "$TMP/ramfs/x" --size 1M --direct 0 --json >"$TMP/ram.json" 2>/dev/null
	check "buffered on ramfs works and is labelled" -- jtest "$TMP/ram.json" '.result.cache | test("page cache")'
else
	skip "O_DIRECT refusal" "needs root to mount a ramfs"
fi

if need_root; then
	dev=$(make_loop 32M)
	"$IOTRIAGE" run "$dev" --rw randread --iodepth 32 --json >"$TMP/dr.json" 2>/dev/null
	ok $? "a read workload on a block device runs"
	check "over the whole device" -- jtest "$TMP/dr.json" '.result.bytes == 33554432 and .result.read.ios == 8192'
	check "io_uring on a loop device: 8192 submission latencies, at most the completion latencies" -- \
		jtest "$TMP/dr.json" '.result.engine == "io_uring" and .result.read.slat_ns.count == 8192 and .result.read.slat_ns.min > 0 and .result.read.slat_ns.p50 <= .result.read.lat_ns.p50'
	"$IOTRIAGE" run "$dev" --rw randread --iodepth 32 --engine libaio --ramp-time 100ms --runtime 300ms --time-based \
		--json >"$TMP/ramp.json" 2>/dev/null
	check "libaio with a ramp: slat only for the I/Os counted after it" -- \
		jtest "$TMP/ramp.json" '.result.read | .ios > 0 and .slat_ns.count == .ios and .lat_ns.count == .ios and .slat_ns.min > 0 and .slat_ns.p50 <= .lat_ns.p50'
	"$IOTRIAGE" run "$dev" --rw randread --iodepth 32 --runtime 200ms --json >"$TMP/auto.json" 2>/dev/null
	check "auto picks io_uring at depth 32 on a loop device (blk-mq)" -- \
		jtest "$TMP/auto.json" '.result.engine == "io_uring" and (.result.engine_reason | test("queue depth 32"))'
	check "the job was pinned to a CPU" -- jtest "$TMP/auto.json" '.result.jobs[0].cpu >= 0 and .parameters.pin == true'
	"$IOTRIAGE" run "$dev" --rw randread --pin 0 --runtime 200ms --json >"$TMP/nopin.json" 2>/dev/null
	check "--pin 0 leaves it unpinned" -- jtest "$TMP/nopin.json" '.result.jobs[0].cpu == -1'
	z=$(make_zram 64M)
	"$IOTRIAGE" run "$z" --rw randread --iodepth 32 --runtime 200ms --json >"$TMP/zauto.json" 2>/dev/null
	check "auto picks libaio at depth 32 on zram (completes on submit)" -- \
		jtest "$TMP/zauto.json" '.result.engine == "libaio" and (.result.engine_reason | test("completes I/O as it is submitted"))'
	"$IOTRIAGE" run "$z" --rw randread --runtime 200ms --json >"$TMP/zauto1.json" 2>/dev/null
	check "auto picks psync at depth 1 on zram" -- jtest "$TMP/zauto1.json" '.result.engine == "psync"'
	check "reads never open the device for writing" -- bash -c "strace -f -e trace=openat '$IOTRIAGE' run '$dev' --size 1M 2>&1 | grep '$dev' | grep -v O_RDWR | grep -q O_RDONLY"
else
	skip "block device reads" "need root for loop devices"
fi

bad() { # bad NAME PATTERN ARGS...
	local name=$1 pattern=$2; shift 2
	"$IOTRIAGE" run "$@" >/dev/null 2>"$TMP/bad.err"
	local status=$?
	ok $((status == 0)) "$name: non-zero exit ($status)"
	check "$name: says '$pattern'" -- grep -q -- "$pattern" "$TMP/bad.err"
}
bad "missing file without --size" "no such path" "$TMP/none.bin"
bad "directory" "is a directory" "$TMP"
bad "unknown --rw" "unknown --rw 'sideways'" "$f" --rw sideways
bad "--rwmixread 101" "invalid --rwmixread" "$f" --rwmixread 101
bad "--bs 0" "invalid --bs '0'" "$f" --bs 0
bad "--bs 3 with O_DIRECT" "not a multiple of" "$f" --bs 3
bad "--iodepth 0" "invalid --iodepth" "$f" --iodepth 0
bad "--numjobs 1000" "invalid --numjobs" "$f" --numjobs 1000
bad "--runtime 5y" "invalid --runtime" "$f" --runtime 5y
bad "--direct 2" "invalid --direct" "$f" --direct 2
bad "unknown engine" "unknown engine" "$f" --engine fast
bad "character device" "neither a regular file nor a block device" /dev/null
bad "--pin 2" "invalid --pin '2'" "$f" --pin 2
bad "--io-size 0" "invalid --io-size '0'" "$f" --io-size 0
bad "--pattern stripes" "unknown --pattern 'stripes'" "$f" --pattern stripes

finish
