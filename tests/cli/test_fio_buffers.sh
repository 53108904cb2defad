#!/usr/bin/env bash
# run --fio-job with buffer_compress_percentage=, buffer_compress_chunk=,
# dedupe_percentage= and refill_buffers, run natively: the same write job (32 MiB) by fio and by
# iotriage, each into its own file. What the data is made of must be fio's:
# the size zstd -1 shrinks each file to, over its size, within 0.02 of fio's,
# and the share of distinct 4 KiB blocks within 0.02 of fio's. No root
# needed: plain files under the test's directory. (Without the options the
# blocks are all distinct, but a compressor with a window over one block
# still shrinks both tools' data: each I/O buffer is filled once and only
# each sector's first 16 bytes change from write to write.)
. "$(dirname "$0")/lib.sh"

for tool in fio zstd python3; do
	if ! command -v "$tool" >/dev/null; then
		skip "buffer_compress_percentage and dedupe_percentage against fio" "needs $tool"
		finish
		exit
	fi
done

# zratio FILE: zstd -1's output over the file's size. distinct FILE: the share of distinct 4 KiB blocks.
zratio() { awk -v a="$(stat -c %s "$1")" -v b="$(zstd -q -1 -c "$1" | wc -c)" 'BEGIN { printf "%.3f", b / a }'; }
distinct() {
	python3 -c 'import sys, hashlib
d = open(sys.argv[1], "rb").read(); n = len(d) // 4096
print("%.3f" % (len({hashlib.sha1(d[i * 4096:(i + 1) * 4096]).digest() for i in range(n)}) / n))' "$1"
}
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 0.02 && d > -0.02) }'; }

run_both() { # run_both NAME OPTIONS: the job by fio into $TMP/NAME.fio.bin and by iotriage into $TMP/NAME.iot.bin
	for tool in fio iot; do
		printf '[w]\nfilename=%s\nrw=write\nsize=32m\n%b\n' "$TMP/$1.$tool.bin" "$2" >"$TMP/$1.$tool.job"
	done
	fio --output-format=json "$TMP/$1.fio.job" >/dev/null 2>"$TMP/$1.fio.err"
	ok $? "$1: fio writes it"
	"$IOTRIAGE" run --fio-job "$TMP/$1.iot.job" --native --json >"$TMP/$1.json" 2>"$TMP/$1.err"
	ok $? "$1: iotriage writes it natively"
}

compare() { # compare NAME OPTIONS
	run_both "$1" "$2"
	local fz iz fd id
	fz=$(zratio "$TMP/$1.fio.bin") iz=$(zratio "$TMP/$1.iot.bin")
	fd=$(distinct "$TMP/$1.fio.bin") id=$(distinct "$TMP/$1.iot.bin")
	diag "$1: zstd -1 leaves $fz of fio's file, $iz of iotriage's; distinct blocks $fd and $id"
	check "$1: compresses as fio's data does (within 0.02)" -- close "$fz" "$iz"
	check "$1: as many distinct blocks as fio's (within 0.02)" -- close "$fd" "$id"
}

compare compress50 'buffer_compress_percentage=50'
compare compress75 'buffer_compress_percentage=75'
compare chunk4k 'buffer_compress_percentage=25\nbuffer_compress_chunk=4k'
compare dedupe50 'dedupe_percentage=50'
compare both 'dedupe_percentage=30\nbuffer_compress_percentage=60'
compare bs64k 'bs=64k\nbuffer_compress_percentage=40'
compare refill 'refill_buffers=1'
check "refill_buffers: no compressor shrinks it" -- awk -v z="$(zratio "$TMP/refill.iot.bin")" 'BEGIN { exit !(z > 0.99) }'
check "the document holds the options" -- \
	jtest "$TMP/bs64k.json" '.fio_job.jobs[0].options | .buffer_compress_percentage == 40 and .buffer_compress_chunk == 512 and .dedupe_percentage == 0'

run_both plain ''
check "without them every block iotriage writes is distinct" -- test "$(distinct "$TMP/plain.iot.bin")" = 1.000

printf '[w]\nfilename=%s\nrw=write\nsize=1m\ndedupe_percentage=50\ndedupe_mode=working_set\n' "$TMP/ws.bin" >"$TMP/ws.job"
"$IOTRIAGE" run --fio-job "$TMP/ws.job" --native >/dev/null 2>"$TMP/ws.err"
check "dedupe_mode=working_set stays fio's, and --native says so" -- grep -q "dedupe_mode=working_set is not run natively" "$TMP/ws.err"
printf '[w]\nfilename=%s\nrw=write\nsize=1m\nbuffer_compress_percentage=101\n' "$TMP/bad.bin" >"$TMP/bad.job"
"$IOTRIAGE" run --fio-job "$TMP/bad.job" --native >/dev/null 2>"$TMP/bad.err"
check "a percentage over 100 is refused by name" -- grep -q "buffer_compress_percentage=101: expected a whole number from 0 to 100" "$TMP/bad.err"
check "and nothing was written" -- test ! -e "$TMP/bad.bin"
finish
