#!/usr/bin/env bash
# run --fio-job: a fio job file run by the built-in engine. The same file is
# run by fio and by iotriage on one loop device, and every job's I/O count
# must be the same (fio's total_ios against iotriage's ios); an option
# iotriage does not support is refused by name and nothing runs.
. "$(dirname "$0")/lib.sh"

job=$TMP/job.fio
cat >"$job" <<'JOB'
; three jobs, size-based, so the I/O count is exact in both
[global]
ioengine=libaio
direct=1
size=16m
group_reporting=0

[rr]
rw=randread
bs=4k
iodepth=16

[seqw]
rw=write
bs=64k
iodepth=4
io_size=40m

[mix]
rw=randrw
rwmixread=70
bs=8k
numjobs=2
ioengine=psync
size=4m
JOB

# Bad input first: refused by name, usage exit, nothing run or recorded.
bad=$TMP/bad.fio
printf '[first]\nrw=write\nsize=1m\n\n[second]\nrw=read\nverify=md5\n' >"$bad"
"$IOTRIAGE" run --fio-job "$bad" "$TMP/new.bin" >"$TMP/bad.out" 2>"$TMP/bad.err"
check "an unsupported option is a usage error (exit 2)" -- test $? -eq 2
check "naming the option, its section and line" -- grep -q "line 7 \[second\]: option 'verify' is not supported" "$TMP/bad.err"
check "and the job before it did not run (its file was not created)" -- test ! -e "$TMP/new.bin"
check "no run recorded" -- test "$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" "select count(*) from runs" 2>/dev/null || echo 0)" = 0
printf '[j]\nrw=read\n' >"$TMP/nofile.fio"
"$IOTRIAGE" run --fio-job "$TMP/nofile.fio" >/dev/null 2>"$TMP/nofile.err"
check "a job with no filename= and no TARGET is a usage error" -- test $? -eq 2
check "saying so" -- grep -q "names no filename= and no TARGET" "$TMP/nofile.err"
printf '[j]\nruntime=1s\nramp_time=2s\ntime_based\n' >"$TMP/ramp.fio"
"$IOTRIAGE" run --fio-job "$TMP/ramp.fio" "$TMP/x" >/dev/null 2>"$TMP/ramp.err"
check "a ramp over the runtime is a usage error" -- test $? -eq 2
"$IOTRIAGE" run --fio-job "$job" --bs 1M "$TMP/x" >/dev/null 2>"$TMP/bs.err"
check "a workload option beside --fio-job is a usage error (the file sets it)" -- test $? -eq 2
check "naming it" -- grep -q -- "--bs with --fio-job" "$TMP/bs.err"
check "and nothing ran" -- test ! -e "$TMP/x"
"$IOTRIAGE" run --fio-job "$TMP/none.fio" "$TMP/x" >/dev/null 2>"$TMP/none.err"
check "a missing job file is a usage error" -- test $? -eq 2

if ! need_root || ! command -v fio >/dev/null; then
	skip "fio and iotriage on one loop device" "needs root and fio"
	finish
	exit
fi
dev=$(make_loop 64M)
fio --output-format=json --filename="$dev" "$job" >"$TMP/fio.json" 2>"$TMP/fio.err"
ok $? "fio runs the job file on $dev"
"$IOTRIAGE" run --fio-job "$job" "$dev" --json >"$TMP/io.json" 2>"$TMP/io.err"
ok $? "iotriage runs the same file on $dev"
check "three jobs, each ok" -- jtest "$TMP/io.json" '.fio_job.jobs | length == 3 and all(.status == "ok")'
for name in rr seqw mix; do
	f=$(json "$TMP/fio.json" "[.jobs[] | select(.jobname == \"$name\") | .read.total_ios + .write.total_ios] | add")
	i=$(json "$TMP/io.json" ".fio_job.jobs[] | select(.name == \"$name\") | .result.ios")
	diag "job $name: fio $f I/Os, iotriage $i"
	check "job $name: the same I/O count as fio ($f)" -- test "$f" -gt 0 -a "$f" = "$i"
done
f=$(json "$TMP/fio.json" '[.jobs[] | select(.jobname == "mix") | .read.total_ios] | add')
i=$(json "$TMP/io.json" '.fio_job.jobs[] | select(.name == "mix") | .result.read.ios')
diag "mix reads: fio $f, iotriage $i"
check "mix: reads about 70% in both" -- awk -v f="$f" -v i="$i" 'BEGIN { exit !(f / 1024 > 0.62 && f / 1024 < 0.78 && i / 1024 > 0.62 && i / 1024 < 0.78) }'
check "the job file's options are what ran" -- jtest "$TMP/io.json" \
	'.fio_job.jobs[] | select(.name == "seqw") | .result.engine == "libaio" and .result.iodepth == 4 and .parameters.bs_bytes == 65536 and .result.write.bytes == 41943040 and .result.cache == "bypassed"'
check "the psync job ran on psync, with direct=1 from [global]" -- jtest "$TMP/io.json" \
	'.fio_job.jobs[] | select(.name == "mix") | .result.engine == "psync" and .parameters.direct == true and (.result.jobs | length == 2)'
check "fio-job results carry slat like run's: libaio's for every write, psync's null" -- jtest "$TMP/io.json" \
	'(.fio_job.jobs[] | select(.name == "seqw") | .result.write | .slat_ns.count == .ios and .slat_ns.p50 <= .lat_ns.p50) and (.fio_job.jobs[] | select(.name == "mix") | .result.read.slat_ns == null)'
check "fio's random map: the random job read every block once, as fio does by default" -- \
	jtest "$TMP/io.json" '.fio_job.jobs[] | select(.name == "rr") | .result.random_map == "once" and .options.norandommap == false'
check "one result row per job" -- \
	test "$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" "select count(*) from results where test like 'fio-job %'")" = 3

# show, compare and report read every job, with its latency percentiles.
"$IOTRIAGE" run --fio-job "$job" "$dev" --json >"$TMP/io2.json" 2>/dev/null
ok $? "the job file again"
id1=$(json "$TMP/io.json" .run_id) id2=$(json "$TMP/io2.json" .run_id)
"$IOTRIAGE" show "$id1" >"$TMP/show" 2>/dev/null
ok $? "show the fio-job run"
for name in rr seqw mix; do
	check "show: job $name's bandwidth, p50, p99 and p99.9 latency" -- bash -c \
		"grep -q '^fio-job $name: .* bandwidth ' '$TMP/show' && grep -q '^fio-job $name: .* p50 latency ' '$TMP/show' && grep -q '^fio-job $name: .* p99 latency ' '$TMP/show' && grep -q '^fio-job $name: .* p99.9 latency ' '$TMP/show'"
done
"$IOTRIAGE" compare "$id1" "$id2" --json >"$TMP/cmp.json" 2>/dev/null
ok $? "compare two runs of the job file"
check "compare pairs every job's bandwidth and three latencies (12 rows)" -- \
	jtest "$TMP/cmp.json" '[.. | objects | select(has("metric") and has("test") and (.test | startswith("fio-job")))] | length == 12'
"$IOTRIAGE" report "$id1" --csv "$TMP/r.csv" --html "$TMP/r.html" >/dev/null 2>&1
ok $? "report --csv --html of the fio-job run"
check "CSV: a p99.9 row per job with iotriage's own figure" -- bash -c \
	"v=\$(grep '^$id1,.*fio-job rr: .*,p99.9 latency,ns,false,' '$TMP/r.csv' | awk -F, '{print \$10}'); test -n \"\$v\" && test \"\$v\" = \"\$(jq '.fio_job.jobs[0].result.read.lat_ns[\"p99.9\"]' '$TMP/io.json')\""
check "HTML: the latency charts, lower is better" -- test "$(grep -c 'Lower is better (ns)<' "$TMP/r.html")" -eq 9
check "HTML: the run's latency percentile curve, a line per job" -- \
	bash -c "[ \$(grep -c '<svg class=\"curve\"' '$TMP/r.html') -eq 1 ] && [ \$(grep -c '<polyline class=\"curve-line\"' '$TMP/r.html') -eq 3 ] && grep -q '<title>fio-job mix: ' '$TMP/r.html'"

# Ctrl-C during a job: it stops, the jobs after it do not run, exit 130.
printf '[long]\nrw=randread\nruntime=20s\ntime_based\nsize=8m\n[after]\nrw=read\nsize=8m\n' >"$TMP/int.fio"
"$IOTRIAGE" run --fio-job "$TMP/int.fio" "$dev" --json >"$TMP/int.json" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 50); do grep -q "job \[long\], 1 of 2" "$TMP/int.err" 2>/dev/null && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
check "interrupted: exit 130" -- test $? -eq 130
check "the interrupted job is recorded as such, the next one never ran" -- \
	jtest "$TMP/int.json" '(.fio_job.jobs | length == 1) and .fio_job.jobs[0].result.stopped_by == "interrupted" and .status == "error"'

# A time-based job: the runtime is honoured after the ramp.
printf '[t]\nrw=randread\nbs=4k\nioengine=io_uring\niodepth=8\ndirect=1\nruntime=1500ms\nramp_time=500ms\ntime_based\nsize=8m\n' >"$TMP/time.fio"
"$IOTRIAGE" run --fio-job "$TMP/time.fio" "$dev" --json >"$TMP/time.json" 2>/dev/null
ok $? "a time-based job"
check "ran for its runtime after the ramp, past its 8 MiB" -- jtest "$TMP/time.json" \
	'.fio_job.jobs[0].result | .seconds >= 1.4 and .seconds < 3 and .ramp_seconds == 0.5 and .stopped_by == "time" and .bytes > 0'
check "its slat counts the I/Os after the ramp only, as its lat does" -- jtest "$TMP/time.json" \
	'.fio_job.jobs[0].result.read | .ios > 0 and .slat_ns.count == .ios and .lat_ns.count == .ios'
finish
