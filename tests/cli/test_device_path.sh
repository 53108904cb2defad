#!/usr/bin/env bash
# How a job meets its device: CPU pinning and submission.
# Pinning: not on a disk whose completions come by an interrupt that fewer
# queues than CPUs share (a pinned job waits on the other CPU's interrupt:
# on this project's virtio-blk disk, 4 KiB reads at depth 1 ran at 0.75 of
# fio's rate pinned and 1.0 unpinned; bench/pin_vs_fio.sh). Loop devices,
# tmpfs files and --pin 0 are as before. The expectation for the disk under
# $TMP is read from sysfs here, the same facts the kernel gives: the disk's
# place in the PCI tree and its hardware queues.
# Submission: each I/O as soon as it is prepared on a device that completes
# asynchronously (blk-mq: loop, virtio-blk), one submission per batch on one
# that completes inside the call (zram); bench/submit_batch.sh has the figures.
# Seen in the io_submit calls strace records.
. "$(dirname "$0")/lib.sh"

# Does the disk with MAJ:MIN take its completions by a shared interrupt?
disk_shares_irq() {
	local dir part slave
	dir=$(readlink -f "/sys/dev/block/$1") || return 1
	[ -e "$dir/partition" ] && dir=${dir%/*}
	if [ -n "$(ls -A "$dir/slaves" 2>/dev/null)" ]; then
		for slave in "$dir"/slaves/*; do
			disk_shares_irq "$(cat "$slave/dev")" && return 0
		done
		return 1
	fi
	[[ $dir == /sys/devices/pci* ]] || return 1
	[ -d "$dir/mq" ] || return 1
	[ "$(find "$dir/mq" -mindepth 1 -maxdepth 1 -type d | wc -l)" -lt "$(nproc)" ]
}

cpus_of() { jq -c '[.result.jobs[].cpu]' "$1"; }

majmin=$(findmnt -no MAJ:MIN -T "$TMP" | tr -d " ")
if disk_shares_irq "$majmin"; then shared=true; else shared=false; fi
diag "the file system under $TMP is on $majmin; shared interrupt: $shared ($(nproc) CPUs)"

f=$TMP/data.bin
"$IOTRIAGE" run "$f" --size 8M --rw randread --bs 4k --runtime 300ms --json >"$TMP/file.json" 2>/dev/null
ok $? "a run on a file on the disk under $TMP"
if $shared; then
	check "its job is not pinned (cpu -1)" -- jtest "$TMP/file.json" '[.result.jobs[].cpu] == [-1]'
else
	check "its job is pinned (cpu 0 or more)" -- jtest "$TMP/file.json" '[.result.jobs[].cpu] | all(. >= 0)'
fi
diag "file: cpus $(cpus_of "$TMP/file.json")"
printf '[j]\nrw=randread\nbs=4k\nsize=8m\nruntime=300ms\nnumjobs=2\n' >"$TMP/j.fio"
"$IOTRIAGE" run --fio-job "$TMP/j.fio" --native "$f" --json >"$TMP/job.json" 2>/dev/null
ok $? "a fio job file with two jobs on the same file"
if $shared; then
	check "neither job is pinned" -- jtest "$TMP/job.json" '.fio_job.jobs | map(.result.jobs[].cpu) | . == [-1, -1]'
else
	check "both jobs are pinned" -- jtest "$TMP/job.json" '.fio_job.jobs | map(.result.jobs[].cpu) | all(. >= 0)'
fi

mkdir "$TMP/shm" && mount -t tmpfs -o size=16m iotriage-test "$TMP/shm" && undo "umount -l $TMP/shm"
"$IOTRIAGE" run "$TMP/shm/f" --size 8M --rw randread --bs 4k --direct 0 --runtime 300ms --json >"$TMP/tmpfs.json" 2>/dev/null
check "a file on tmpfs (no block device): pinned as before" -- jtest "$TMP/tmpfs.json" '[.result.jobs[].cpu] | all(. >= 0)'

if need_root; then
	loop=$(losetup -f --show "$f") && undo "losetup -d $loop"
	"$IOTRIAGE" run "$loop" --rw randread --bs 4k --runtime 300ms --json >"$TMP/loop.json" 2>/dev/null
	check "a loop device over that file (no interrupt of its own): pinned" -- jtest "$TMP/loop.json" '[.result.jobs[].cpu] | all(. >= 0)'
	"$IOTRIAGE" run "$loop" --rw randread --bs 4k --runtime 300ms --pin 0 --json >"$TMP/nopin.json" 2>/dev/null
	check "and with --pin 0 it is not" -- jtest "$TMP/nopin.json" '[.result.jobs[].cpu] == [-1] and .parameters.pin == false'
	# Submission: the depth in the first io_submit (LeakSanitizer cannot run under ptrace: off here).
	submits() { # submits TARGET OUT: the number of iocbs of each io_submit, one per line
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=io_submit -o "$2.trace" \
			"$IOTRIAGE" run "$1" --rw randread --bs 4k --iodepth 8 --engine libaio --size 8M --json >"$2" 2>/dev/null
		sed -nE 's/.*io_submit\([^,]+, ([0-9]+),.*/\1/p' "$2.trace"
	}
	submits "$loop" "$TMP/sub-loop.json" >"$TMP/sub-loop.n"
	diag "loop: $(wc -l <"$TMP/sub-loop.n") io_submit calls, largest $(sort -n "$TMP/sub-loop.n" | tail -1)"
	check "libaio at depth 8 on a loop device: 2048 submissions (8 MiB), each of one I/O" -- \
		bash -c '[ "$(wc -l <"$1")" -eq 2048 ] && [ "$(sort -nu "$1")" = 1 ]' _ "$TMP/sub-loop.n"
	z=$(make_zram 64M)
	submits "$z" "$TMP/sub-zram.json" >"$TMP/sub-zram.n"
	diag "zram: $(wc -l <"$TMP/sub-zram.n") io_submit calls, first of $(head -1 "$TMP/sub-zram.n")"
	check "on zram (completes inside the call) the first submission carries all 8" -- \
		test "$(head -1 "$TMP/sub-zram.n")" = 8
	check "and it read with libaio" -- jtest "$TMP/sub-zram.json" '.result.read.ios > 1000 and .result.engine == "libaio"'
else
	skip "a loop device: pinned" "needs root (loop devices)"
	skip "--pin 0 on a loop device" "needs root (loop devices)"
	skip "submission on a loop device and zram" "needs root (loop and zram devices)"
fi
finish
