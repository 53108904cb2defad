#!/usr/bin/env bash
# run --fio-job: a fio job file run by the built-in engine, read by fio's
# rules (comments, ${VAR}, $ncpus, include, aliases, escaped colons,
# cosmetic options), on files. The same file is run by fio and by iotriage
# on one loop device, and every job's I/O count must be the same (fio's
# total_ios against iotriage's ios). A file with an option iotriage does not
# run natively is run by fio (its figures stored and shown, engine fio),
# refused with --native or without fio, and passes the write guard on a
# device. The corpus in tests/data/fiojobs, 166 real job files from six
# repositories (fio's 107 examples, nvmevirt, OpenZFS, SPDK, virtuozzo,
# fio-plot; a folder's job.env sets its variables): every one this fio
# accepts is run natively or by fio, none refused; the counts per source
# (files, accepted, native, through fio, refused) are printed.
. "$(dirname "$0")/lib.sh"

job=$TMP/job.fio
cat >"$job" <<'JOB'
; three jobs, size-based, so the I/O count is exact in both
[global]
ioengine=libaio
direct=1
size=16m
group_reporting=0
stonewall                 ; one job after another in fio too

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
printf '[first]\nrw=write\nsize=1m\n\n[second]\nrw=read\nbs=huge\n' >"$bad"
"$IOTRIAGE" run --fio-job "$bad" "$TMP/new.bin" >"$TMP/bad.out" 2>"$TMP/bad.err"
check "a malformed value is a usage error (exit 2)" -- test $? -eq 2
check "naming the option, its section and line" -- grep -q "line 7 \[second\]: bs=huge: expected a size" "$TMP/bad.err"
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

# fio's parser rules, on files (no root): every job below runs natively.
mkdir -p "$TMP/jobs" "$TMP/elsewhere"
cat >"$TMP/jobs/common.inc" <<'INC'
bs=8k   ; included
INC
cat >"$TMP/jobs/rules.fio" <<'JOB'
# fio's rules: comments, variables, keywords, include, aliases, cosmetic options
[global]
name=everything           ; cosmetic: [global]'s name changes nothing
description=a test  # cosmetic
thread
gtod_reduce=1
percentile_list=50:99:99.5
group_reporting
stonewall                 ; iotriage runs jobs one after another: fio too, then
size=${FIOJOB_SIZE}       # from the environment
io_limit=512k             ; fio's alias of io_size
timeout=30                # fio's alias of runtime: a cap
include common.inc

[first]
rw=randread
new_group

[colon]
filename=${FIOJOB_DIR}/a\:b   # one file whose name has a colon
readwrite=write           ; fio's alias of rw
iodepth=$ncpus*0+2
JOB
(cd "$TMP/elsewhere" && FIOJOB_SIZE=1m FIOJOB_DIR=$TMP "$IOTRIAGE" run --fio-job "$TMP/jobs/rules.fio" --json) \
	>"$TMP/rules.json" 2>"$TMP/rules.err"
check "a job file with every rule refused before: no refusal" -- test $? -eq 2 -a -s "$TMP/rules.err"
check "... because [first] has no file and no TARGET was given, the one thing it lacks" -- \
	grep -q "job \[first\] names no filename= and no TARGET" "$TMP/rules.err"
printf 'filename=%s/rules.bin\n' "$TMP" >"$TMP/jobs/target.inc"
sed -i 's|^include common.inc$|include common.inc\ninclude target.inc|' "$TMP/jobs/rules.fio"
(cd "$TMP/elsewhere" && FIOJOB_SIZE=1m FIOJOB_DIR=$TMP "$IOTRIAGE" run --fio-job "$TMP/jobs/rules.fio" --json) \
	>"$TMP/rules.json" 2>"$TMP/rules.err"
ok $? "the job file runs natively (include beside the file, from another directory)"
check "two jobs, both run by iotriage" -- jtest "$TMP/rules.json" \
	'.fio_job.run_by == "iotriage" and (.fio_job.jobs | length == 2) and all(.fio_job.jobs[]; .status == "ok")'
check "\${FIOJOB_SIZE}: size 1m; io_limit: 512k moved; include: bs 8k; timeout: a 30 s cap" -- jtest "$TMP/rules.json" \
	'.fio_job.jobs[0].options | .size == 1048576 and .io_size == 524288 and .bs == 8192 and .runtime_seconds == 30'
check "[first] read 512k in 8k blocks (64 I/Os), despite the comments on its lines" -- jtest "$TMP/rules.json" \
	'.fio_job.jobs[0].result | .read.ios == 64 and .write.ios == 0'
check "the escaped colon is one file, created whole: a:b, not a and b" -- \
	bash -c "test -f '$TMP/a:b' && test ! -e '$TMP/a' && test ! -e '$TMP/b'"
check "readwrite is rw (it wrote), \$ncpus*0+2 is iodepth 2" -- jtest "$TMP/rules.json" \
	'.fio_job.jobs[1] | .result.write.ios == 64 and .options.iodepth == 2 and .target == "'"$TMP"'/a:b"'
(cd "$TMP/elsewhere" && FIOJOB_DIR=$TMP "$IOTRIAGE" run --fio-job "$TMP/jobs/rules.fio") >/dev/null 2>"$TMP/unset.err"
check "an unset variable is a usage error" -- test $? -eq 2
check "naming it and its line" -- grep -q "line 10 \[global\]: \${FIOJOB_SIZE}: the environment variable FIOJOB_SIZE is not set" "$TMP/unset.err"
"$IOTRIAGE" run --fio-job "$TMP/jobs/rules.fio" --parse-only "$TMP/plan.bin" >"$TMP/plan.out" 2>"$TMP/plan.err" </dev/null
check "--parse-only with the variable unset: refused the same way" -- grep -q "FIOJOB_SIZE is not set" "$TMP/plan.err"
FIOJOB_SIZE=1m FIOJOB_DIR=$TMP "$IOTRIAGE" run --fio-job "$TMP/jobs/rules.fio" --parse-only "$TMP/plan.bin" >"$TMP/plan.out"
ok $? "--parse-only"
check "says each job runs natively, on TARGET" -- \
	bash -c "[ \$(grep -c 'natively: .* on $TMP/plan.bin' '$TMP/plan.out') -eq 2 ]"
check "and runs nothing" -- test ! -e "$TMP/plan.bin"

# size=N% of the target, io_size=N% of the size, as fio reads them.
printf '[pct]\nsize=50%%\nio_size=50%%\nbs=64k\n' >"$TMP/pct.fio"
truncate -s 8M "$TMP/pct.bin"
"$IOTRIAGE" run --fio-job "$TMP/pct.fio" "$TMP/pct.bin" --json >"$TMP/pct.json" 2>/dev/null
ok $? "size=50% and io_size=50% run natively"
check "half the 8 MiB target addressed, half of that read" -- jtest "$TMP/pct.json" \
	'.fio_job.jobs[0] | .options.size == 4194304 and .options.io_size == 2097152 and .result.read.bytes == 2097152'
if command -v fio >/dev/null; then
	f=$(fio --output-format=json --filename="$TMP/pct.bin" "$TMP/pct.fio" 2>/dev/null | jq '.jobs[0].read.io_bytes')
	check "fio reads the same bytes ($f)" -- test "$f" = 2097152
fi
"$IOTRIAGE" run --fio-job "$TMP/pct.fio" "$TMP/nothere.bin" >/dev/null 2>"$TMP/pct.err"
check "a percentage of a missing target: a usage error naming it" -- grep -q "size=50%: cannot read the size of '$TMP/nothere.bin'" "$TMP/pct.err"

# A file with an option iotriage does not run natively: fio runs it.
printf '[vfy]\nrw=write\nbs=4k\nsize=256k\nverify=crc32\ndo_verify=1\n' >"$TMP/verify.fio"
"$IOTRIAGE" run --fio-job "$TMP/verify.fio" --native "$TMP/v.bin" >/dev/null 2>"$TMP/native.err"
check "--native refuses it (exit 2)" -- test $? -eq 2
check "naming the option and its line" -- grep -q "verify=crc32 is not run natively (crc32c, md5 and sha256 are) (line 5 \[vfy\]); --native refuses it" "$TMP/native.err"
check "and ran nothing" -- test ! -e "$TMP/v.bin"
mkdir -p "$TMP/nofio"
PATH=$TMP/nofio "$IOTRIAGE" run --fio-job "$TMP/verify.fio" "$TMP/v.bin" >/dev/null 2>"$TMP/nofio.err"
check "without fio: a usage error" -- test $? -eq 2
check "naming the option and how to install fio" -- \
	grep -q "verify=crc32 is not run natively .*fio, which would run it, is not installed (apt-get install fio)" "$TMP/nofio.err"
if command -v fio >/dev/null; then
	(cd "$TMP/elsewhere" && "$IOTRIAGE" run --fio-job "$TMP/verify.fio" "$TMP/v.bin" --json) >"$TMP/v.json" 2>"$TMP/v.err"
	ok $? "without --native, fio runs it"
	check "the log says fio ran it, and why" -- \
		grep -q "FIO-JOB $TMP/verify.fio: handed to fio-.*: verify=crc32 is not run natively" "$IOTRIAGE_STATE_DIR/iotriage.log"
	check "labelled as fio's, with fio's figures: 64 writes of 4k and 64 verifying reads" -- jtest "$TMP/v.json" \
		'.fio_job.run_by | startswith("fio-")' 
	check "each job's result carries engine fio and its I/O counts" -- jtest "$TMP/v.json" \
		'.fio_job.jobs[0] | .status == "ok" and .result.engine == "fio" and .result.write.ios == 64 and .result.write.bytes == 262144 and .result.read.ios == 64 and .result.write.lat_ns.count == 64 and .parameters.engine == "fio"'
	check "fio wrote TARGET, not a file of its own" -- test "$(stat -c %s "$TMP/v.bin")" = 262144
	check "its figures stored as a result row like iotriage's" -- test "$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" \
		"select count(*) from results where test = 'fio-job vfy' and status = 'ok' and bytes = 524288 and params like '%\"engine\": \"fio\"%'")" = 1
	id=$(json "$TMP/v.json" .run_id)
	"$IOTRIAGE" show "$id" >"$TMP/vshow" 2>/dev/null
	check "show lists its bandwidth and latency" -- bash -c "grep -q '^fio-job vfy: .* bandwidth ' '$TMP/vshow' && grep -q '^fio-job vfy: .* p99 latency ' '$TMP/vshow'"
	"$IOTRIAGE" run --fio-job "$TMP/verify.fio" "$TMP/v.bin" >"$TMP/v.txt" 2>/dev/null
	check "on the terminal: run by fio, and why" -- grep -q "^run by fio-.*: verify=crc32 is not run natively" "$TMP/v.txt"
	check "and its figures as iotriage's own, engine fio" -- grep -q "fio" "$TMP/v.txt"
	printf '[j]\nverify=md5\nno_such_option=3\n' >"$TMP/bogus.fio"
	"$IOTRIAGE" run --fio-job "$TMP/bogus.fio" "$TMP/bogus.bin" >/dev/null 2>"$TMP/bogus.err"
	check "a file fio itself refuses: a usage error before anything runs" -- test $? -eq 2 -a ! -e "$TMP/bogus.bin"
	check "with fio's own words" -- grep -q "fio refuses the file: Bad option <no_such_option=3>" "$TMP/bogus.err"
	"$IOTRIAGE" run --fio-job "$TMP/verify.fio" "$TMP/v.bin" --json >"$TMP/v2.json" 2>/dev/null
	"$IOTRIAGE" compare "$id" "$(json "$TMP/v2.json" .run_id)" --json >"$TMP/vcmp.json" 2>/dev/null
	ok $? "compare two runs fio ran"
	check "compare pairs the job's bandwidth and latencies" -- \
		jtest "$TMP/vcmp.json" '[.. | objects | select(has("metric") and has("test") and (.test | startswith("fio-job vfy")))] | length >= 4'
	# Ctrl-C while fio runs: fio is stopped, exit 130, the run recorded as interrupted.
	printf '[long]\nrw=randread\nsize=256k\nruntime=30\ntime_based\nrandom_generator=lfsr\n' >"$TMP/long.fio"
	start=$(date +%s)
	"$IOTRIAGE" run --fio-job "$TMP/long.fio" "$TMP/v.bin" --json >"$TMP/long.json" 2>"$TMP/long.err" &
	pid=$!
	for _ in $(seq 50); do pgrep -P $pid -x fio >/dev/null && break; sleep 0.1; done
	sleep 1
	kill -INT $pid
	wait $pid
	check "interrupted while fio runs: exit 130" -- test $? -eq 130
	check "within seconds, not fio's 30 s" -- test $(($(date +%s) - start)) -lt 10
	check "no fio left running" -- bash -c "! pgrep -f '^fio --output-format=json\+ .*iotriage-fiojob-' >/dev/null"
	check "the run says so" -- jtest "$TMP/long.json" '.status == "error" and (.reason | test("interrupted"))'
	# The corpus: every job file that this fio accepts, from fio's examples
	# and from the other repositories (one folder each), is run natively or
	# by fio, never refused. A folder's job.env sets the variables its
	# repository's scripts set (${JOBS}, ${DIRECTORY}, ...), for both.
	corpus=$(cd "$(dirname "$0")/../data/fiojobs" && pwd)
	corpus_source() { # corpus_source NAME FILE...: its counts, in n_* and the totals
		local name=$1 f out
		local -a vars=()
		shift
		[ "$name" != fio ] && [ -f "$corpus/$name/job.env" ] &&
			mapfile -t vars < <(grep -v '^#' "$corpus/$name/job.env")
		local files=$# n=0 nat=0 fio=0 ref=0
		for f; do
			(cd "$TMP/elsewhere" && env "${vars[@]}" timeout 30 fio --parse-only "$f" >/dev/null 2>&1) || continue
			n=$((n + 1))
			out=$(env "${vars[@]}" "$IOTRIAGE" run --fio-job "$f" --parse-only "$TMP/corpus.bin" 2>&1)
			case $out in
			*": through fio-"*) fio=$((fio + 1)) ;;
			*": natively: "*) nat=$((nat + 1)) ;;
			*) ref=$((ref + 1)); diag "refused: ${f#"$corpus"/}: $out" ;;
			esac
		done
		diag "corpus $name: $files files, fio accepts $n; $nat run natively, $fio through fio, $ref refused"
		n_acc=$n n_native=$nat
		t_files=$((t_files + files)) t_acc=$((t_acc + n)) t_native=$((t_native + nat))
		t_byfio=$((t_byfio + fio)) t_refused=$((t_refused + ref)) t_sources=$((t_sources + 1))
		[ "$n" -gt 0 ] || t_idle="$t_idle $name"
	}
	t_files=0 t_acc=0 t_native=0 t_byfio=0 t_refused=0 t_sources=0 t_idle=
	# A target of some size, sparse: a job may ask for a share of it (size=100%).
	truncate -s 64M "$TMP/corpus.bin"
	corpus_source fio "$corpus"/*.fio
	native=$n_native
	check "the corpus: at least 20 of fio's examples that fio accepts" -- test "$n_acc" -ge 20
	for dir in "$corpus"/*/; do
		mapfile -t files < <(find "$dir" -name '*.fio' | sort)
		corpus_source "$(basename "$dir")" "${files[@]}"
	done
	diag "corpus: $t_files files from $t_sources sources, fio accepts $t_acc; $t_native run natively ($((100 * t_native / (t_acc > 0 ? t_acc : 1)))%), $t_byfio through fio, $t_refused refused"
	check "the corpus: at least 60 job files from at least 5 repositories" -- test "$t_files" -ge 60 -a "$t_sources" -ge 5
	check "each source has a file fio accepts (none:$t_idle)" -- test -z "$t_idle"
	check "none of them refused" -- test "$t_refused" -eq 0 -a $((t_native + t_byfio)) -eq "$t_acc"
	printf '[a]\nrw=read\nsize=64k\n[b]\nrw=read\nsize=64k\n' >"$TMP/together.fio"
	"$IOTRIAGE" run --fio-job "$TMP/together.fio" --parse-only "$TMP/t.bin" >"$TMP/together.out"
	check "two jobs without stonewall run together in fio: fio runs them" -- \
		grep -q "through fio-.*: jobs \[a\] and \[b\] run at the same time (no stonewall or wait_for=a in \[b\])" "$TMP/together.out"
	check "fio's plain examples (fio-seq-read, fio-rand-RW, ...) run natively: at least 6" -- test "$native" -ge 6
else
	skip "fio runs a file iotriage does not run natively" "fio is not installed"
fi

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
check "one result row per job" -- test "$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" \
	"select count(*) from results where test like 'fio-job %' and run_id = '$(json "$TMP/io.json" .run_id)'")" = 3

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
printf '[long]\nrw=randread\nruntime=20s\ntime_based\nsize=8m\n[after]\nstonewall\nrw=read\nsize=8m\n' >"$TMP/int.fio"
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
# The hand-off to fio passes the raw-device write guard, as a native run does.
if command -v mkfs.ext4 >/dev/null; then
	dev2=$(make_loop 16M)
	mkfs.ext4 -q -F "$dev2" >/dev/null 2>&1
	"$IOTRIAGE" run --fio-job "$TMP/verify.fio" "$dev2" >/dev/null 2>"$TMP/guard.err"
	check "fio's write job on a device with a file system: refused" -- test $? -ne 0
	check "saying it holds data and how to force it" -- grep -q "refusing to write to '$dev2', it holds data: .*--force $dev2" "$TMP/guard.err"
	check "and the file system is intact (fio never ran)" -- bash -c "blkid -p -o value -s TYPE '$dev2' | grep -qx ext4"
	printf '[zr]\nrw=randread\nrandom_generator=lfsr\nsize=1m\n' >"$TMP/zipf.fio"
	"$IOTRIAGE" run --fio-job "$TMP/zipf.fio" "$dev2" --json >"$TMP/zipf.json" 2>/dev/null
	ok $? "a read-only job through fio on the same device runs"
	check "through fio, reading" -- jtest "$TMP/zipf.json" '.fio_job.jobs[0].result | .engine == "fio" and .read.ios > 0 and .write.ios == 0'
	"$IOTRIAGE" run --fio-job "$TMP/verify.fio" "$dev2" --force "$dev2" --json >"$TMP/force.json" 2>/dev/null
	ok $? "--force DEVICE lets fio write it"
	check "and fio wrote it" -- jtest "$TMP/force.json" '.fio_job.jobs[0].result.write.ios == 64'
else
	skip "the fio hand-off's write guard" "needs mkfs.ext4"
fi
finish
