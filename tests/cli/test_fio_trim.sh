#!/usr/bin/env bash
# run --fio-job, fio's trim modes natively (rw=trim, randtrim, trimwrite;
# randtrimwrite stays fio's: fio 3.33's own counts depend on offset=): the
# same job file run by fio and by iotriage (--native) on one loop device,
# as many trims (and trimwrite's writes) as fio's; the data really
# discarded: a loop device discards by punching holes in its backing file,
# so the file's allocated blocks drop and the range reads back zeros.
# A regular file: a hole punched (fio 3.33 fails there, its BLKDISCARD is not
# a file's ioctl). trim with fsync=, verify= or a log stays fio's.
. "$(dirname "$0")/lib.sh"

# Parser: what stays fio's (no root needed).
printf '[j]\nrw=trimwrite\nfsync=4\nsize=1m\n' >"$TMP/tsync.fio"
"$IOTRIAGE" run --fio-job "$TMP/tsync.fio" --native "$TMP/f" >/dev/null 2>"$TMP/tsync.err"
check "rw=trimwrite with fsync= is refused with --native" -- test $? -eq 2
check "naming the combination" -- grep -q "fsync=, fdatasync= or verify= with trims" "$TMP/tsync.err"
printf '[j]\nrw=randtrim\nsize=1m\n' >"$TMP/plan.fio"
"$IOTRIAGE" run --fio-job "$TMP/plan.fio" --parse-only "$TMP/f" >"$TMP/plan.out" 2>&1
check "rw=randtrim is run natively (--parse-only)" -- grep -q "natively: randtrim" "$TMP/plan.out"
printf '[j]\nrw=randtrimwrite\nsize=1m\n' >"$TMP/rtw.fio"
"$IOTRIAGE" run --fio-job "$TMP/rtw.fio" --native "$TMP/f" >/dev/null 2>"$TMP/rtw.err"
check "rw=randtrimwrite is refused with --native, named" -- grep -q "rw=randtrimwrite is not run natively" "$TMP/rtw.err"
check "nothing was created by the refusals or the plan" -- test ! -e "$TMP/f"

if ! need_root || ! command -v fio >/dev/null; then
	skip "fio and iotriage on one loop device" "needs root and fio"
	finish
	exit
fi
dev=$(make_loop 64M)
img=$(losetup -nO BACK-FILE "$dev")

job=$TMP/trim.fio
cat >"$job" <<'JOB'
[global]
bs=64k
direct=1
size=8m
stonewall

[trim]
rw=trim

[randtrim]
rw=randtrim
offset=8m

[trimwrite]
rw=trimwrite
offset=16m
bs=16k

[uring]
rw=randtrim
ioengine=io_uring
iodepth=8
offset=24m

[aio]
rw=trimwrite
ioengine=libaio
iodepth=4
offset=32m
io_size=4m
JOB
fio --output-format=json+ --filename="$dev" "$job" >"$TMP/fio.json" 2>"$TMP/fio.err"
ok $? "fio runs the job file on $dev" || diag_file "$TMP/fio.err"

# The device full of data again, every block of the backing file allocated.
dd if=/dev/urandom of="$dev" bs=1M count=64 oflag=direct status=none
before=$(stat -c %b "$img")
"$IOTRIAGE" run --fio-job "$job" "$dev" --native --json --fio-json "$TMP/io-fio.json" >"$TMP/io.json" 2>"$TMP/io.err"
ok $? "iotriage runs it natively (--native) on $dev" || diag_file "$TMP/io.err"
blockdev --flushbufs "$dev" # trimwrite's writes are buffered, as fio's (no O_DIRECT for trims)
after=$(stat -c %b "$img")
check "direct=1 is ignored with trims, as fio ignores it (buffered)" -- jtest "$TMP/io.json" \
	'[.fio_job.jobs[].parameters.direct] | all(. == false)'
check "every job ok, run by iotriage" -- jtest "$TMP/io.json" \
	'.fio_job.run_by == "iotriage" and (.fio_job.jobs | length == 5 and all(.status == "ok"))'
for name in trim randtrim trimwrite uring aio; do
	for kind in trim write read; do
		f=$(json "$TMP/fio.json" ".jobs[] | select(.jobname == \"$name\") | .$kind.total_ios")
		i=$(json "$TMP/io.json" ".fio_job.jobs[] | select(.name == \"$name\") | .result.$kind.ios")
		x=$(json "$TMP/io-fio.json" ".jobs[] | select(.jobname == \"$name\") | .$kind.total_ios")
		[ "$f" = 0 ] && [ "$i" = 0 ] && [ "$x" = 0 ] && continue
		diag "job $name: $kind: fio $f, iotriage $i (its --fio-json $x)"
		check "job $name: as many ${kind}s as fio ($f)" -- test "$f" = "$i"
		check "job $name: and as many in --fio-json's $kind object" -- test "$f" = "$x"
	done
done
check "trim latency recorded for every trim, in the document and in --fio-json" -- jtest "$TMP/io.json" \
	'[.fio_job.jobs[] | .result.trim | .lat_ns.count == .ios and .bytes > 0] | all'
check "--fio-json's trim object has bytes, iops and a latency" -- jtest "$TMP/io-fio.json" \
	'.jobs[] | select(.jobname == "trim") | .trim.io_bytes == 8388608 and .trim.iops > 0 and .trim.clat_ns.mean > 0'
# trim, randtrim and uring discard 8 MiB each (24 MiB = 49152 sectors); trimwrite and aio write theirs back.
diag "backing file: $before blocks before, $after after"
check "the backing file lost at least the 24 MiB discarded" -- test $((before - after)) -ge 45000
check "and holds the blocks trimwrite wrote back" -- test $((before - after)) -le 53248
check "the trimmed range reads back as zeros (trim)" -- cmp -s -n 8388608 "$dev" /dev/zero
check "the trimmed range reads back as zeros (randtrim, io_uring)" -- \
	cmp -s -n 8388608 <(dd if="$dev" bs=1M skip=24 count=8 status=none) /dev/zero
check "trimwrite's range holds data again" -- \
	bash -c "! cmp -s -n 8388608 <(dd if='$dev' bs=1M skip=16 count=8 status=none) /dev/zero"

# A regular file: a hole punched in it.
head -c 8M /dev/urandom >"$TMP/file"
sync "$TMP/file"
fbefore=$(stat -c %b "$TMP/file")
printf '[j]\nrw=trim\nbs=64k\nsize=4m\n' >"$TMP/ftrim.fio"
"$IOTRIAGE" run --fio-job "$TMP/ftrim.fio" "$TMP/file" --native --json >"$TMP/file.json" 2>"$TMP/file.err"
ok $? "iotriage trims a regular file" || diag_file "$TMP/file.err"
fafter=$(stat -c %b "$TMP/file")
diag "file: $fbefore blocks before, $fafter after"
check "64 trims of 64 KiB" -- jtest "$TMP/file.json" '.fio_job.jobs[0].result.trim.ios == 64'
check "the file's first 4 MiB are holes now" -- test $((fbefore - fafter)) -ge 8192
check "and read back as zeros" -- cmp -s -n 4194304 "$TMP/file" /dev/zero
check "the file keeps its size" -- test "$(stat -c %s "$TMP/file")" = 8388608
fio --output-format=json --filename="$TMP/file" "$TMP/ftrim.fio" >"$TMP/ffio.out" 2>&1
diag "fio $(fio --version) on the file: $(grep -o 'error=[^,]*' "$TMP/ffio.out" | head -1) (its trim is BLKDISCARD, a block device's ioctl)"
finish
