#!/usr/bin/env bash
# run --fio-job with fio's logs (write_bw_log, write_iops_log, write_lat_log,
# write_hist_log, log_avg_msec, log_hist_msec): the same job run by fio and
# by iotriage (--native) on one loop device, each in a directory of its own;
# iotriage's logs must have fio's names, fio's columns, times that never go
# back (from the end of the ramp, within the runtime), plausible values and
# about as many lines as fio's; and fio's own plotting tools (fio2gnuplot,
# fio_generate_plots, with gnuplot) must read them and draw their files.
. "$(dirname "$0")/lib.sh"

# A log that cannot be written is refused before anything runs (no root needed).
printf '[j]\nrw=read\nsize=1m\nwrite_bw_log=%s/none/x\n' "$TMP" >"$TMP/nodir.fio"
"$IOTRIAGE" run --fio-job "$TMP/nodir.fio" --native "$TMP/f" >/dev/null 2>"$TMP/nodir.err"
check "a log in a directory that does not exist is a usage error" -- test $? -eq 2
check "naming the log file and the job" -- grep -q "job \[j\]: the fio log '$TMP/none/x_bw.1.log': no directory" "$TMP/nodir.err"
check "nothing was created" -- test ! -e "$TMP/f"

if ! need_root || ! command -v fio >/dev/null; then
	skip "fio and iotriage on one loop device" "needs root and fio"
	finish
	exit
fi
dev=$(make_loop 64M)

job=$TMP/logs.fio
cat >"$job" <<'JOB'
[global]
ioengine=libaio
direct=1
bs=4k
iodepth=4
size=32m
runtime=3
time_based
ramp_time=1
write_bw_log=logs
write_iops_log=logs
write_lat_log=logs
write_hist_log=logs
log_avg_msec=500
log_hist_msec=500

[mix]
rw=randrw
numjobs=2

[seq]
stonewall
rw=read
write_bw_log
log_avg_msec=250
JOB

mkdir -p "$TMP/fio" "$TMP/it"
(cd "$TMP/fio" && fio --aux-path="$TMP" --filename="$dev" "$job" --output="$TMP/fio.out" 2>"$TMP/fio.err")
ok $? "fio runs the job file on $dev" || diag_file "$TMP/fio.err"
(cd "$TMP/it" && "$IOTRIAGE" run --fio-job "$job" "$dev" --native --json >"$TMP/io.json" 2>"$TMP/io.err")
ok $? "iotriage runs it natively (--native) on $dev" || diag_file "$TMP/io.err"
check "and logged the files it wrote" -- grep -q "job \\[mix\\]: 12 fio log files written (logs_bw.1.log" "$IOTRIAGE_STATE_DIR/iotriage.log"

# "cols lines": the first line's columns and the number of lines.
shape() { awk -F', ' 'NR == 1 { c = NF } END { print c + 0, NR }' "$1"; }

(cd "$TMP/fio" && ls) >"$TMP/fio.names"
(cd "$TMP/it" && ls) >"$TMP/it.names"
check "the same log files by name (logs_bw.1.log ... logs_slat.3.log)" -- diff "$TMP/fio.names" "$TMP/it.names"
diag "fio wrote: $(tr '\n' ' ' <"$TMP/fio.names")"

for f in $(cat "$TMP/fio.names"); do
	[ -e "$TMP/it/$f" ] || continue
	read -r fc fl < <(shape "$TMP/fio/$f")
	read -r ic il < <(shape "$TMP/it/$f")
	diag "$f: fio $fl lines of $fc columns, iotriage $il of $ic"
	if [ "$fl" -eq 0 ]; then
		check "$f: empty as fio's" -- test "$il" -eq 0
		continue
	fi
	check "$f: fio's $fc columns" -- test "$ic" -eq "$fc"
	# Within 2 lines or 25% of fio's count, whichever is more.
	tol=$(( fl / 4 > 2 ? fl / 4 : 2 ))
	check "$f: $il lines, fio's $fl within $tol" -- test $(( il > fl ? il - fl : fl - il )) -le "$tol"
	check "$f: times never go back, and end within the 3 s runtime" -- \
		awk -F', ' '$1 + 0 < last { exit 1 } { last = $1 + 0 } END { exit !(last <= 3100) }' "$TMP/it/$f"
	check "$f: ddir 0 or 1 on every line" -- \
		awk -F', ' -v h="$([[ $f == *hist* ]] && echo 2 || echo 3)" '$h != 0 && $h != 1 { exit 1 }' "$TMP/it/$f"
	case $f in
	*_clat_hist.*)
		check "$f: every line counts some I/O" -- \
			awk -F', ' '{ s = 0; for (i = 4; i <= NF; i++) s += $i; if (s < 1) exit 1 }' "$TMP/it/$f" ;;
	*_bw.* | *_iops.*)
		# Positive and within 4x of fio's mean (the same device, one after the other).
		fm=$(awk -F', ' '{ s += $2 } END { print s / NR }' "$TMP/fio/$f")
		check "$f: values positive, their mean within 4x of fio's ($fm)" -- \
			awk -F', ' -v fm="$fm" '$2 <= 0 { exit 1 } { s += $2 } END { m = s / NR; exit !(m > fm / 4 && m < fm * 4) }' "$TMP/it/$f" ;;
	*)
		check "$f: latencies between 1 us and 10 s in ns" -- \
			awk -F', ' '$2 < 1000 || $2 > 10000000000 { exit 1 }' "$TMP/it/$f" ;;
	esac
done
check "the second worker of [mix] is fio's thread 2, [seq] is thread 3" -- \
	test -s "$TMP/it/logs_lat.2.log" -a -s "$TMP/it/logs_lat.3.log"
check "a bare write_bw_log in [seq] keeps [global]'s prefix, as fio's" -- test -s "$TMP/it/logs_bw.3.log"

# The same series in the run's document.
rows=$(cat "$TMP/it/logs_bw.1.log" "$TMP/it/logs_bw.2.log" | wc -l)
check "the document's series: [mix]'s bandwidth rows, one per line of its two bw logs ($rows)" -- \
	jtest "$TMP/io.json" ".fio_job.jobs[0].series.bw_kib_per_s | length == $rows"
check "and its latencies over time, [job, time_ms, ddir, ns] with fio's job numbers" -- \
	jtest "$TMP/io.json" '.fio_job.jobs[0].series | .interval_ms == 500 and (.clat_ns | length > 0) and (.clat_ns | map(.[0]) | unique == [1, 2]) and all(.lat_ns[]; .[3] > 0)'

id=$(jq -r .run_id "$TMP/io.json")
"$IOTRIAGE" report --html "$TMP/r.html" "$id" >/dev/null 2>&1
check "the HTML report draws them: bandwidth and latency over time for each job" -- \
	test "$(grep -c '<svg class="series"' "$TMP/r.html")" -eq 4
check "a line per worker and direction ([mix]: 2 x 2, [seq]: 1 each)" -- \
	test "$(grep -c '<polyline class="series-line"' "$TMP/r.html")" -eq 10

# fio's own tools read iotriage's logs.
if ! command -v gnuplot >/dev/null; then
	skip "fio_generate_plots and fio2gnuplot draw iotriage's logs" "needs gnuplot (apt-get install gnuplot-nox)"
	finish
	exit
fi
(cd "$TMP/it" && fio_generate_plots iotriage >"$TMP/gen.out" 2>"$TMP/gen.err")
check "fio_generate_plots reads iotriage's logs" -- test $? -eq 0
for kind in bw iops lat clat slat; do
	check "fio_generate_plots drew iotriage-$kind.svg with a trace" -- \
		grep -q "<path" "$TMP/it/iotriage-$kind.svg"
done
(cd "$TMP/it" && fio2gnuplot -p 'logs_bw.*.log' -g -d "$TMP/plots" >"$TMP/g2p.out" 2>&1)
check "fio2gnuplot reads iotriage's bandwidth logs" -- test $? -eq 0
check "without an error" -- bash -c "! grep -qi 'error\|traceback' '$TMP/g2p.out'"
check "and draws them (its 2D trace)" -- test -s "$TMP/plots/logs_bw.1-2Draw.png"
finish
