#!/usr/bin/env bash
# bench/fiojob_vs_fio.sh [ROUNDS]: each fio option iotriage runs natively
# (run --fio-job --native) against fio itself, on one loop device over a
# file in /var/tmp (direct I/O), ROUNDS times (default 5), alternating which
# tool runs first. One job file per option; each is run whole by both tools.
# Prints per option: the I/O counts of each kind (reads, writes, syncs, trims) of
# both tools, which must be equal (a count that differs in any round is
# marked), and the paired ratio of the job's I/O rate, iotriage over fio
# (the two runs of a round back to back), as the median and range over
# rounds. The rate is every I/O (reads, writes and trims, verify's read-back
# included) over the job's whole time (fio's job_runtime, iotriage's
# result.seconds): fio's per-direction iops each divide by that
# direction's own time, which for a write-then-verify job doubles the sum.
# The thinktime jobs are time-based, the bssplit/bsrange jobs draw their
# sizes at random (the bytes are equal, the counts close) and the zoned job
# draws each I/O's direction at random (randrw): their counts are figures,
# compared by the ratio only. random_distribution's shape (the share of the
# I/Os on the hottest blocks) is compared in tests/cli/test_fio_distribution.sh;
# here its counts and its rate. A trim's time depends on what it discards
# (a loop device punches a hole in its file: slow over data, fast over a
# hole): randtrim's first run in the first round discards data, every later
# one holes, so its range is wide and its median is the figure (trimwrite
# writes its blocks back: every run discards data). fio's fdatasyncs are counted from its sync
# latency's N (fio 3.33 leaves them out of sync.total_ios).
# The nrfiles job (8 files of 4 MiB, taken in turn) runs on files in a
# directory of /var/tmp, one per tool, not on the device.
# blockalign (ba) jobs draw uniform offsets (fio turns the random map off),
# the verify_backlog jobs read each block back during or after the writes:
# the counts are exact for both.
# FIOJOB_ONLY=REGEX runs only the options whose names match. FIOJOB_FILE=1
# runs every job on the 256 MiB file itself (direct I/O on its file
# system), no loop device (and no root) needed.
# Needs root (without FIOJOB_FILE) and fio; removes the loop device on exit
# and signals. Run it alone.
set -eu
rounds=${1:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /var/tmp/iotriage-fjbench.XXXXXX)
dev=""
cleanup() {
	[ -n "$dev" ] && losetup -d "$dev"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export IOTRIAGE_STATE_DIR=$work/state
head -c 256M /dev/urandom >"$work/img"
if [ -n "${FIOJOB_FILE:-}" ]; then
	target=$work/img
else
	dev=$(losetup -f --show --direct-io=on "$work/img")
	target=$dev
fi

# option NAME BODY: a job file of one job (direct, 4k) with BODY's options.
options=()
option() {
	options+=("$1")
	printf '[%s]\ndirect=1\nbs=4k\nsize=32m\n%b' "$1" "$2" >"$work/$1.fio"
}
option offset 'rw=randread\nsize=0\noffset=200m\noffset_increment=16m\nnumjobs=2\n'
option number_ios 'rw=randread\nnumber_ios=2000\n'
option loops 'rw=read\nloops=3\nioengine=libaio\niodepth=8\n'
option startdelay 'rw=randread\nstartdelay=1\n'
option thinktime 'rw=randread\nthinktime=2ms\nruntime=3s\ntime_based\n'
option thinktime_blocks 'rw=randread\nioengine=libaio\niodepth=8\nthinktime=2ms\nthinktime_blocks=8\nruntime=3s\ntime_based\n'
option fsync 'rw=write\nsize=8m\nfsync=8\n'
option fdatasync 'rw=randwrite\nsize=8m\nfdatasync=4\nend_fsync=1\n'
option rw_skip 'rw=write:12k\n'
option bssplit 'rw=randread\nbssplit=4k/50:16k/30:64k/20\n'
option bsrange 'rw=randwrite\nbsrange=4k-32k\nioengine=libaio\niodepth=4\n'
option verify_crc32c 'rw=write\nsize=16m\nverify=crc32c\n'
option verify_md5 'rw=randwrite\nsize=16m\nverify=md5\nioengine=libaio\niodepth=8\n'
option verify_sha256 'rw=write\nsize=16m\nbs=64k\nverify=sha256\n'
option zipf 'rw=randread\nrandom_distribution=zipf:1.2\nioengine=libaio\niodepth=8\n'
option zoned 'rw=randrw\nrandom_distribution=zoned:60/10:30/20:10/70\n'
option compress 'rw=write\nbuffer_compress_percentage=50\ndedupe_percentage=30\n'
option randtrim 'rw=randtrim\nbs=64k\nioengine=libaio\niodepth=8\n'
option trimwrite 'rw=trimwrite\nsize=16m\n'
option nrfiles 'rw=randread\nnrfiles=8\nioengine=io_uring\niodepth=8\n'
option ba 'rw=randread\nbs=8k\nba=4k\nioengine=libaio\niodepth=8\n'
option ba_512 'rw=randwrite\nsize=16m\nba=512\n'
option verify_backlog 'rw=write\nsize=16m\nverify=crc32c\nverify_backlog=16\n'
option verify_backlog_batch 'rw=randwrite\nsize=16m\nverify=md5\nverify_backlog=64\nverify_backlog_batch=16\nioengine=libaio\niodepth=8\n'

# counts FILE PROGRAM: "reads writes syncs trims iops" of the file's jobs, summed.
counts() {
	if [ "$2" = fio ]; then
		jq -r '[([.jobs[].read.total_ios] | add), ([.jobs[].write.total_ios] | add),
			([.jobs[].sync | [.total_ios, (.lat_ns.N // 0)] | max] | add), ([.jobs[].trim.total_ios] | add),
			([.jobs[] | (.read.total_ios + .write.total_ios + .trim.total_ios) / (.job_runtime / 1000)] | add)] | @tsv' "$1"
	else
		jq -r '[([.fio_job.jobs[].result.read.ios] | add), ([.fio_job.jobs[].result.write.ios] | add),
			([.fio_job.jobs[].result.sync.ios] | add), ([.fio_job.jobs[].result.trim.ios] | add),
			([.fio_job.jobs[].result | .ios / .seconds] | add)] | @tsv' "$1"
	fi
}
# The nrfiles job's files are laid out in a directory of /var/tmp (one per tool), the others run on the device.
where() { case $1 in nrfiles*) mkdir -p "$work/$2.d" && echo "$work/$2.d" ;; *) echo "$target" ;; esac; }
run_fio() {
	local where=--filename="$target"
	case $1 in nrfiles*) where=--directory="$(where "$1" fio)" ;; esac
	fio --output-format=json --aux-path="$work" "$where" "$work/$1.fio" >"$work/f.json" 2>/dev/null
}
run_iot() { "$iotriage" run --fio-job "$work/$1.fio" "$(where "$1" iot)" --native --json >"$work/i.json" 2>/dev/null; }

printf '%-17s %-22s %-22s %s\n' OPTION "FIO R/W/SYNC/TRIM" "IOTRIAGE R/W/SYNC/TRIM" "RATE RATIO (median, range)"
for opt in "${options[@]}"; do
	[[ $opt =~ ${FIOJOB_ONLY:-.} ]] || continue
	ratios=() same=yes fc="" ic=""
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) = 1 ]; then run_fio "$opt"; run_iot "$opt"; else run_iot "$opt"; run_fio "$opt"; fi
		read -r fr fw fs ft fiops < <(counts "$work/f.json" fio)
		read -r ir iw is it iiops < <(counts "$work/i.json" iotriage)
		fc="$fr/$fw/$fs/$ft" ic="$ir/$iw/$is/$it"
		# a time-based job's count is a figure: its ratio is the IOPS ratio
		case $opt in thinktime* | bs* | zoned) ;; *) [ "$fc" = "$ic" ] || same="NO (round $r)" ;; esac
		ratios+=("$(awk -v a="$iiops" -v b="$fiops" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')")
	done
	sorted=$(printf '%s\n' "${ratios[@]}" | sort -n)
	med=$(echo "$sorted" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	printf '%-17s %-22s %-22s %s (%s..%s)%s\n' "$opt" "$fc" "$ic" "$med" "$(echo "$sorted" | head -1)" \
		"$(echo "$sorted" | tail -1)" "$([ "$same" = yes ] || echo "  counts differ: $same")"
done
