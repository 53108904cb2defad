#!/usr/bin/env bash
# run --fio-job with random_distribution= (zipf, pareto, normal, zoned), run
# natively: the same job (randread, 4k, 8192 I/Os over 32 MiB, psync) by fio
# and by iotriage on one file. fio's offsets come from its write_iolog,
# iotriage's from its pread64 calls on that file (strace -P). The shape that
# matters is how concentrated the hits are: the share of the I/Os that land
# on the hottest 10% of the blocks must be fio's within 0.03 (fio's own runs
# differ by under 0.01), and the I/O counts equal. No root needed: a plain
# file under the test's directory.
. "$(dirname "$0")/lib.sh"

for tool in fio strace; do
	if ! command -v "$tool" >/dev/null; then
		skip "random_distribution against fio" "needs $tool"
		finish
		exit
	fi
done
file=$TMP/data
head -c 32M /dev/zero >"$file"

# top10 OFFSETS-FILE: the share of the offsets (one a line) on the hottest 819 blocks.
top10() {
	local n
	n=$(wc -l <"$1")
	sort -n "$1" | uniq -c | sort -rn | head -n 819 | awk -v n="$n" '{ s += $1 } END { printf "%.4f", (n ? s / n : 0) }'
}

for dist in zipf:1.2 pareto:0.9 normal:10 zoned:60/10:30/20:8/30:2/40 zoned:50/5:30/15:20/; do
	printf '[d]\nfilename=%s\nrw=randread\nbs=4k\nsize=32m\nrandom_distribution=%s\n' "$file" "$dist" >"$TMP/d.fio"
	rm -f "$TMP/iolog"
	{ cat "$TMP/d.fio"; echo "write_iolog=$TMP/iolog"; } >"$TMP/dlog.fio"
	fio --output-format=json "$TMP/dlog.fio" >"$TMP/fio.json" 2>"$TMP/fio.err"
	ok $? "$dist: fio runs it"
	awk '$(NF - 2) == "read" { print $(NF - 1) }' "$TMP/iolog" >"$TMP/fio.off"
	# (LeakSanitizer cannot run under ptrace: off for this run of the sanitized build)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -s 0 -e trace=pread64 -P "$file" -o "$TMP/strace" \
		"$IOTRIAGE" run --fio-job "$TMP/d.fio" --native --json >"$TMP/i.json" 2>"$TMP/i.err"
	ok $? "$dist: iotriage runs it natively"
	# "PID pread64(FD, ""..., LEN, OFFSET) = LEN"
	awk -F'[(),]' '/ pread64\(/ { print $5 + 0 }' "$TMP/strace" >"$TMP/iot.off"
	fn=$(wc -l <"$TMP/fio.off") in=$(wc -l <"$TMP/iot.off")
	check "$dist: the same number of reads ($fn by fio, $in by iotriage)" -- test "$fn" -eq 8192 -a "$in" -eq 8192
	check "$dist: iotriage's own count says so too" -- jtest "$TMP/i.json" '.fio_job.jobs[0].result.read.ios == 8192'
	fs=$(top10 "$TMP/fio.off") is=$(top10 "$TMP/iot.off")
	diag "$dist: the hottest 10% of the blocks take $fs of fio's reads, $is of iotriage's"
	check "$dist: iotriage's share on the hottest 10% is fio's within 0.03" -- \
		awk -v a="$fs" -v b="$is" 'BEGIN { d = a - b; exit !(d < 0.03 && d > -0.03) }'
done
check "the document names the model, and the random map off as in fio" -- \
	jtest "$TMP/i.json" '.fio_job.jobs[0].options | .random_distribution == "zoned:50/5:30/15:20/80" and .norandommap'

printf '[d]\nfilename=%s\nrw=randread\nsize=1m\nrandom_distribution=gauss:5\n' "$file" >"$TMP/g.fio"
"$IOTRIAGE" run --fio-job "$TMP/g.fio" --native >/dev/null 2>"$TMP/g.err"
check "a model fio does not know (gauss: fio's name is normal) is refused" -- test $? -eq 2
check "naming the models there are" -- grep -q "random_distribution=gauss:5: expected random, zipf, pareto, normal, zoned" "$TMP/g.err"
printf '[d]\nfilename=%s\nrw=randread\nsize=1m\nrandom_distribution=zoned_abs:50/512k:50/512k\n' "$file" >"$TMP/za.fio"
"$IOTRIAGE" run --fio-job "$TMP/za.fio" --native >/dev/null 2>"$TMP/za.err"
check "zoned_abs stays fio's, and --native says so" -- grep -q "zoned_abs is not run natively" "$TMP/za.err"
finish
