#!/usr/bin/env bash
# run --fio-json FILE: the run's results in fio's JSON schema. The same job
# is run by fio (--output-format=json+) and by iotriage on one loop device:
# every key fio writes, at the top, per job, per direction, in clat_ns and
# its percentiles, and in sync, is in iotriage's file, with the same I/O
# counts. fio's own json+ reader (fio_jsonplus_clat2csv, from Debian's fio
# package) turns it into CSV and validates it against the file. A FILE that
# cannot be written is refused before anything runs.
. "$(dirname "$0")/lib.sh"

printf '[j]\nrw=write\nbs=4k\nsize=1m\n' >"$TMP/w.fio"
"$IOTRIAGE" run --fio-job "$TMP/w.fio" --fio-json "$TMP/nodir/out.json" "$TMP/t.bin" >/dev/null 2>"$TMP/nodir.err"
check "--fio-json in a directory that does not exist: a usage error (exit 2)" -- test $? -eq 2
check "naming it" -- grep -q -- "--fio-json '$TMP/nodir/out.json': no directory '$TMP/nodir'" "$TMP/nodir.err"
check "and nothing ran (no target file)" -- test ! -e "$TMP/t.bin"
"$IOTRIAGE" run --fio-json "$TMP" --size 1m "$TMP/t.bin" >/dev/null 2>"$TMP/isdir.err"
check "--fio-json naming a directory: a usage error" -- test $? -eq 2
check "saying so" -- grep -q "is a directory" "$TMP/isdir.err"
check "and nothing ran" -- test ! -e "$TMP/t.bin"

if ! need_root || ! command -v fio >/dev/null; then
	skip "fio and iotriage on one loop device" "needs root and fio"
	finish
	exit
fi
dev=$(make_loop 64M)
job=$TMP/job.fio
cat >"$job" <<'JOB'
[global]
direct=1
bs=4k
size=4m
stonewall

[mixed]
rw=randrw
rwmixread=60
ioengine=libaio
iodepth=8

[synced]
rw=write
fsync=16
JOB
fio --output-format=json+ --filename="$dev" "$job" >"$TMP/fio.json" 2>"$TMP/fio.err"
ok $? "fio runs the job file (json+)" || diag_file "$TMP/fio.err"
"$IOTRIAGE" run --fio-job "$job" "$dev" --native --fio-json "$TMP/io.json" >/dev/null 2>"$TMP/io.err"
ok $? "iotriage runs it with --fio-json" || diag_file "$TMP/io.err"
check "the file is JSON with two jobs" -- jtest "$TMP/io.json" '.jobs | length == 2'
check "it names iotriage as the program" -- jtest "$TMP/io.json" '."fio version" | startswith("iotriage-")'
# keys PATH: the keys fio writes at PATH that iotriage's file lacks ("" when none).
missing() {
	jq -n --slurpfile f "$TMP/fio.json" --slurpfile i "$TMP/io.json" -r \
		"(\$f[0] | $1 | keys) - (\$i[0] | $1 | keys) | join(\",\")"
}
for path in '.' '.jobs[0]' '.jobs[0].read' '.jobs[0].write' '.jobs[0].trim' '.jobs[0].read.clat_ns' \
	'.jobs[0].read.clat_ns.percentile' '.jobs[0].read.slat_ns' '.jobs[0].read.lat_ns' '.jobs[1].sync' \
	'.jobs[1].sync.lat_ns' '.jobs[0].iodepth_level' '.jobs[0].latency_us' '.jobs[0].latency_ms'; do
	m=$(missing "$path")
	[ -n "$m" ] && diag "$path: missing $m"
	check "every key fio writes at $path is there" -- test -z "$m"
done
f=$(json "$TMP/fio.json" '.jobs[0] | .read.total_ios + .write.total_ios')
i=$(json "$TMP/io.json" '.jobs[0] | .read.total_ios + .write.total_ios')
check "job mixed: as many I/Os as fio's ($f), about 60% reads" -- \
	jtest "$TMP/io.json" ".jobs[0] | .read.total_ios + .write.total_ios == $f and (.read.total_ios / $f - 0.6 | fabs) < 0.08"
for name in synced; do
	for kind in read write sync; do
		f=$(json "$TMP/fio.json" ".jobs[] | select(.jobname == \"$name\") | .$kind.total_ios")
		i=$(json "$TMP/io.json" ".jobs[] | select(.jobname == \"$name\") | .$kind.total_ios")
		[ "$f" = 0 ] && [ "$i" = 0 ] && continue
		check "job $name: $kind total_ios as fio's ($f)" -- test "$f" = "$i"
	done
done
check "clat_ns's bins count every I/O, and its N is the I/O count" -- jtest "$TMP/io.json" \
	'.jobs[0].read | (.clat_ns.bins | add) == .total_ios and .clat_ns.N == .total_ios'
check "bandwidth in KiB/s and bytes/s, runtime in ms, as fio's" -- jtest "$TMP/io.json" \
	'.jobs[0].write | .bw == ((.bw_bytes / 1024) | floor) and .runtime > 0 and (.io_bytes / .bw_bytes * 1000 - .runtime | fabs) <= 1'
if ! command -v fio_jsonplus_clat2csv >/dev/null || ! python3 -c 'import six' 2>/dev/null; then
	skip "fio_jsonplus_clat2csv reads the file" "fio_jsonplus_clat2csv or python3-six missing"
else
	mkdir -p "$TMP/csv"
	fio_jsonplus_clat2csv "$TMP/io.json" "$TMP/csv/lat.csv" >"$TMP/csv.out" 2>&1
	ok $? "fio_jsonplus_clat2csv (fio's json+ reader) reads the file" || diag_file "$TMP/csv.out"
	fio_jsonplus_clat2csv --validate "$TMP/io.json" "$TMP/csv/lat.csv" >"$TMP/csv.val" 2>&1
	check "and validates its CSV against it, for both jobs" -- test "$(grep -c validated "$TMP/csv.val")" = 2
	n=$(awk -F, 'NR > 1 && $5 ~ /[0-9]/ { s += $5 } END { print s + 0 }' "$TMP/csv/lat_job0.csv")
	check "its read clat counts add up to the reads ($n)" -- \
		test "$n" = "$(json "$TMP/io.json" '.jobs[0].read.total_ios')"
fi
"$IOTRIAGE" run --rw randread --size 2m --iodepth 4 --engine libaio --fio-json "$TMP/run.json" "$dev" >/dev/null 2>&1
ok $? "run without a job file writes --fio-json too"
check "one job, its reads" -- jtest "$TMP/run.json" '.jobs | length == 1 and .[0].read.total_ios == 512 and .[0]."job options".iodepth == "4"'
# fio's per-interval figures (bw_min ... iops_samples), per direction, from
# the run's samples: a timed mixed run sampled every 250 ms.
"$IOTRIAGE" run --rw randrw --runtime 3s --time-based --sample-interval 250ms --iodepth 4 --engine libaio \
	--fio-json "$TMP/timed.json" "$dev" >/dev/null 2>"$TMP/timed.err"
ok $? "a timed mixed run writes --fio-json" || diag_file "$TMP/timed.err"
for kind in read write; do
	check "$kind: about 12 samples of 250 ms, in bw_samples and iops_samples" -- jtest "$TMP/timed.json" \
		".jobs[0].$kind | .bw_samples >= 10 and .bw_samples <= 12 and .iops_samples == .bw_samples"
	check "$kind: bw_min <= bw_mean <= bw_max, in KiB/s like bw, and a spread" -- jtest "$TMP/timed.json" \
		".jobs[0].$kind | .bw_min <= .bw_mean and .bw_mean <= .bw_max and .bw_max > 0 and .bw_dev >= 0 and .bw_agg == 100"
	check "$kind: the samples' mean is the direction's own rate, not the job's (within 25%)" -- jtest "$TMP/timed.json" \
		".jobs[0].$kind | ((.bw_mean / .bw - 1) | fabs) < 0.25 and ((.iops_mean / .iops - 1) | fabs) < 0.25"
done
check "read and write are sampled apart: each about half the I/Os" -- jtest "$TMP/timed.json" \
	'.jobs[0] | ((.read.iops_mean / (.read.iops_mean + .write.iops_mean)) - 0.5 | fabs) < 0.1'
check "a direction with no I/O has no samples" -- jtest "$TMP/timed.json" '.jobs[0].trim | .bw_samples == 0 and .iops_max == 0'
finish
