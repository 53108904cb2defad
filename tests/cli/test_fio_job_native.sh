#!/usr/bin/env bash
# run --fio-job, the options of fio's run natively (directory, filesize,
# filename_format, bssplit, bsrange, wait_for, offset, offset_increment,
# number_ios, loops, startdelay, thinktime, fsync, fdatasync, end_fsync,
# rw=write:N, verify): each job is run by fio and by iotriage (--native, so
# nothing is handed to fio) on the same loop device (directory=, filesize=
# and filename_format= on ext4 over one), and the I/O counts of
# each kind (reads, writes, syncs) must be fio's. A time-based job with
# thinktime is a figure, not a count: within 25% of fio's. verify: an intact
# run passes; a byte flipped between the write and the read-back makes the
# run fail, naming the block's offset; verify_fatal stops at the first.
. "$(dirname "$0")/lib.sh"

# Parser: what stays fio's (no root needed).
printf '[j]\nrw=randread:8\nsize=1m\n' >"$TMP/rmod.fio"
"$IOTRIAGE" run --fio-job "$TMP/rmod.fio" --native "$TMP/f" >/dev/null 2>"$TMP/rmod.err"
check "rw=randread:8 (new offsets every 8 I/Os) is refused with --native" -- test $? -eq 2
check "naming the modifier" -- grep -q "offset modifier (':N') on a random or mixed mode" "$TMP/rmod.err"
printf '[j]\nrw=randrw\nfsync=4\nsize=1m\n' >"$TMP/mixsync.fio"
"$IOTRIAGE" run --fio-job "$TMP/mixsync.fio" --native "$TMP/f" >/dev/null 2>"$TMP/mixsync.err"
check "fsync= with reads in the mix stays fio's, and says why" -- grep -q "fsync= or fdatasync= with reads in the mix" "$TMP/mixsync.err"
printf '[j]\nrw=write\nverify=xxhash\nsize=1m\n' >"$TMP/xx.fio"
"$IOTRIAGE" run --fio-job "$TMP/xx.fio" --native "$TMP/f" >/dev/null 2>"$TMP/xx.err"
check "verify=xxhash stays fio's, naming the ones built in" -- grep -q "verify=xxhash is not run natively (crc32c, md5 and sha256 are)" "$TMP/xx.err"
check "nothing was created by the refusals" -- test ! -e "$TMP/f"

if ! need_root || ! command -v fio >/dev/null; then
	skip "fio and iotriage on one loop device" "needs root and fio"
	finish
	exit
fi
dev=$(make_loop 64M)

# Every job after the first waits (stonewall): iotriage runs them one after another.
job=$TMP/native.fio
cat >"$job" <<'JOB'
[global]
bs=4k
direct=1
size=2m
stonewall

[fsync]
rw=write
fsync=32

[fdatasync]
rw=randwrite
fdatasync=10
end_fsync=1

[hole]
rw=write:4k

[holeloop]
rw=read:12k
io_size=3m

[numberios]
rw=randread
number_ios=100
loops=3

[offset]
rw=read
size=0
offset=60m
offset_increment=1m
numjobs=3

[loops]
rw=randread
ioengine=libaio
iodepth=8
loops=2

[startdelay]
rw=read
startdelay=300ms

[verify]
rw=write
verify=crc32c
bs=16k

[verifyrand]
rw=randwrite
verify=md5
ioengine=libaio
iodepth=4
JOB
fio --output-format=json --aux-path="$TMP" --filename="$dev" "$job" >"$TMP/fio.json" 2>"$TMP/fio.err"
ok $? "fio runs the job file on $dev" || diag_file "$TMP/fio.err"
"$IOTRIAGE" run --fio-job "$job" "$dev" --native --json >"$TMP/io.json" 2>"$TMP/io.err"
ok $? "iotriage runs it natively (--native) on $dev" || diag_file "$TMP/io.err"
check "every job ok" -- jtest "$TMP/io.json" '.fio_job.jobs | length == 10 and all(.status == "ok")'
check "run by iotriage" -- jtest "$TMP/io.json" '.fio_job.run_by == "iotriage"'
for name in fsync fdatasync hole holeloop numberios offset loops startdelay verify verifyrand; do
	for kind in read write sync; do
		# fio counts fdatasyncs in sync's latency (N), not in its total_ios.
		f=$(json "$TMP/fio.json" "[.jobs[] | select(.jobname == \"$name\") | [.$kind.total_ios, (.$kind.lat_ns.N // 0)] | max] | add")
		i=$(json "$TMP/io.json" ".fio_job.jobs[] | select(.name == \"$name\") | .result.$kind.ios")
		[ "$f" = 0 ] && [ "$i" = 0 ] && continue
		diag "job $name: $kind: fio $f, iotriage $i"
		check "job $name: as many ${kind}s as fio ($f)" -- test "$f" = "$i"
	done
done
check "fsync=32 made syncs, timed" -- jtest "$TMP/io.json" '.fio_job.jobs[] | select(.name == "fsync") | .result.sync.ios > 0 and .result.sync.lat_ns.count == .result.sync.ios'
check "verify read back and checked every block written" -- jtest "$TMP/io.json" \
	'.fio_job.jobs[] | select(.name == "verify" or .name == "verifyrand") | .result.verify.blocks_checked == .result.write.ios and .result.verify.errors == 0'
check "the offsets: three areas from 60m, 61m and 62m to the end (4m, 3m and 2m)" -- jtest "$TMP/io.json" \
	'.fio_job.jobs[] | select(.name == "offset") | .result.read.bytes == 9437184'
printf '[j]\nrw=read\nbs=4k\nsize=2m\ndirect=1\nstartdelay=1\n' >"$TMP/delay.fio"
start=$(date +%s%N)
"$IOTRIAGE" run --fio-job "$TMP/delay.fio" "$dev" --native --json >"$TMP/delay.json" 2>/dev/null
wall=$(( ($(date +%s%N) - start) / 1000000 ))
diag "startdelay=1: the run took $wall ms, the job $(json "$TMP/delay.json" '.fio_job.jobs[0].result.seconds') s"
check "startdelay=1 delays the start by a second" -- test "$wall" -ge 1000
check "and is not counted in the job's time (the run's time less the job's is the delay)" -- \
	awk -v w="$wall" -v s="$(json "$TMP/delay.json" '.fio_job.jobs[0].result.seconds')" 'BEGIN { exit !(w / 1000 - s >= 0.95) }'

# thinktime: a time-based figure; 10 ms after every I/O, and after every 4 at depth 4.
cat >"$TMP/think.fio" <<'JOB'
[global]
bs=4k
direct=1
size=8m
runtime=2s
time_based
stonewall
thinktime=10ms

[think1]
rw=randread

[think4]
rw=read
ioengine=libaio
iodepth=4
thinktime_blocks=4
JOB
fio --output-format=json --aux-path="$TMP" --filename="$dev" "$TMP/think.fio" >"$TMP/tfio.json" 2>/dev/null
"$IOTRIAGE" run --fio-job "$TMP/think.fio" "$dev" --native --json >"$TMP/tio.json" 2>/dev/null
ok $? "the thinktime jobs run natively"
for name in think1 think4; do
	f=$(json "$TMP/tfio.json" ".jobs[] | select(.jobname == \"$name\") | .read.total_ios")
	i=$(json "$TMP/tio.json" ".fio_job.jobs[] | select(.name == \"$name\") | .result.read.ios")
	diag "job $name: fio $f reads in 2 s, iotriage $i"
	check "job $name: reads within 25% of fio's ($f), both far under the unthrottled count" -- \
		awk -v f="$f" -v i="$i" -v b="${name#think}" 'BEGIN { exit !(f > 0 && i / f > 0.75 && i / f < 1.25 && i < 200 * b * 1.3) }'
done

# wait_for=: each job waits for the one before it, so fio runs them one
# after another too, and the file runs natively.
printf '[global]\ndirect=1\nbs=4k\nsize=2m\nnew_group\n[a]\nrw=write\n[b]\nrw=read\nwait_for=a\n[c]\nrw=randread\nwait_for=b\n' >"$TMP/wait.fio"
fio --output-format=json --aux-path="$TMP" --filename="$dev" "$TMP/wait.fio" >"$TMP/wfio.json" 2>/dev/null
"$IOTRIAGE" run --fio-job "$TMP/wait.fio" "$dev" --native --json >"$TMP/wio.json" 2>"$TMP/wio.err"
ok $? "a chain of wait_for= runs natively" || diag_file "$TMP/wio.err"
check "each job as many reads and writes as fio's" -- test \
	"$(jq -c '[.jobs[] | [.jobname, .read.total_ios, .write.total_ios]]' "$TMP/wfio.json")" = \
	"$(jq -c '[.fio_job.jobs[] | [.name, .result.read.ios, .result.write.ios]]' "$TMP/wio.json")"

# bssplit= and bsrange=: the sizes are drawn at random, in each tool by its
# own generator: the same bytes, and I/O counts within 10% of fio's (fio's
# random map cuts a large block where a block already done begins; so does
# iotriage's).
cat >"$TMP/bs.fio" <<'JOB'
[global]
direct=1
size=32m
stonewall

[split]
rw=randread
bssplit=4k/50:16k/30:64k/20

[range]
rw=randwrite
bsrange=4k-32k
ioengine=libaio
iodepth=4

[seqsplit]
rw=read
bssplit=8k/60:128k/
JOB
fio --output-format=json --aux-path="$TMP" --filename="$dev" "$TMP/bs.fio" >"$TMP/bsfio.json" 2>/dev/null
"$IOTRIAGE" run --fio-job "$TMP/bs.fio" "$dev" --native --json >"$TMP/bsio.json" 2>"$TMP/bsio.err"
ok $? "the bssplit and bsrange jobs run natively" || diag_file "$TMP/bsio.err"
for name in split range seqsplit; do
	f=$(json "$TMP/bsfio.json" ".jobs[] | select(.jobname == \"$name\") | [.read.total_ios + .write.total_ios, .read.io_bytes + .write.io_bytes] | @tsv")
	i=$(json "$TMP/bsio.json" ".fio_job.jobs[] | select(.name == \"$name\") | [.result.ios, .result.bytes] | @tsv")
	diag "job $name: fio $f, iotriage $i (I/Os, bytes)"
	check "job $name: fio's bytes, its I/O count within 10%" -- awk -v f="$f" -v i="$i" \
		'BEGIN { split(f, a, "\t"); split(i, b, "\t"); exit !(a[2] == b[2] && a[2] == 33554432 && b[1] / a[1] > 0.90 && b[1] / a[1] < 1.10) }'
done
check "a block size no job can take otherwise: split's mean I/O between 4k and 64k" -- jtest "$TMP/bsio.json" \
	'.fio_job.jobs[0].result | (.bytes / .ios) > 8192 and (.bytes / .ios) < 32768'

# directory=, filesize= and filename_format=: a file per job in a directory
# (ext4 on a loop device, so both tools meet the same file system).
mkdir -p "$TMP/mnt"
fsdev=$(make_loop 256M)
if mkfs.ext4 -q "$fsdev" 2>/dev/null && mount "$fsdev" "$TMP/mnt"; then
	undo "umount -l $TMP/mnt"
	mkdir "$TMP/mnt/fio" "$TMP/mnt/iot"
	cat >"$TMP/dir.fio" <<'JOB'
[global]
direct=1
bs=4k
stonewall

[seqw]
rw=write
filesize=8m

[randr]
rw=randread
filesize=8m
size=4m

[named]
rw=randwrite
filename_format=data.$jobname.$jobnum
size=6m
ioengine=libaio
iodepth=4
JOB
	(cd "$TMP" && fio --output-format=json --aux-path="$TMP" --directory="$TMP/mnt/fio" "$TMP/dir.fio") >"$TMP/dfio.json" 2>"$TMP/dfio.err"
	ok $? "fio runs the directory jobs" || diag_file "$TMP/dfio.err"
	"$IOTRIAGE" run --fio-job "$TMP/dir.fio" "$TMP/mnt/iot" --native --json >"$TMP/dio.json" 2>"$TMP/dio.err"
	ok $? "iotriage runs them natively, TARGET the directory" || diag_file "$TMP/dio.err"
	for name in seqw randr named; do
		for kind in read write; do
			f=$(json "$TMP/dfio.json" ".jobs[] | select(.jobname == \"$name\") | .$kind.total_ios")
			i=$(json "$TMP/dio.json" ".fio_job.jobs[] | select(.name == \"$name\") | .result.$kind.ios")
			[ "$f" = 0 ] && [ "$i" = 0 ] && continue
			diag "job $name: $kind: fio $f, iotriage $i"
			check "job $name: as many ${kind}s as fio ($f)" -- test "$f" = "$i"
		done
	done
	for f in seqw.0.0 randr.0.0 data.named.0; do
		check "the file $f, as fio names it, the size fio gives it" -- \
			test "$(stat -c %s "$TMP/mnt/iot/$f" 2>/dev/null)" = "$(stat -c %s "$TMP/mnt/fio/$f" 2>/dev/null)" -a -s "$TMP/mnt/iot/$f"
	done
	printf '[j]\nrw=read\ndirectory=%s\nnumjobs=2\nfilesize=1m\n' "$TMP/mnt/iot" >"$TMP/dirjobs.fio"
	"$IOTRIAGE" run --fio-job "$TMP/dirjobs.fio" --native >/dev/null 2>"$TMP/dirjobs.err"
	check "numjobs=2 with a file per job stays fio's, saying why" -- grep -q "numjobs= over 1 with a file per job" "$TMP/dirjobs.err"
else
	skip "directory= jobs on ext4" "mkfs.ext4 or mount failed"
fi

# verify finds a corrupted block: written with do_verify=0, one byte flipped
# on the device, then read back with verify: the run fails naming the block.
printf '[w]\nrw=write\nbs=4k\nsize=1m\nverify=sha256\ndo_verify=0\ndirect=1\n' >"$TMP/vw.fio"
printf '[r]\nrw=read\nbs=4k\nsize=1m\nverify=sha256\ndirect=1\n' >"$TMP/vr.fio"
"$IOTRIAGE" run --fio-job "$TMP/vw.fio" "$dev" --native >/dev/null 2>&1
ok $? "the verified write (do_verify=0: no read-back)"
"$IOTRIAGE" run --fio-job "$TMP/vr.fio" "$dev" --native --json >"$TMP/v1.json" 2>"$TMP/v1.err"
ok $? "reading it back with verify: the intact data passes" || diag_file "$TMP/v1.err"
check "every block checked, none wrong" -- jtest "$TMP/v1.json" '.fio_job.jobs[0].result.verify | .blocks_checked == 256 and .errors == 0'
dd if="$dev" of="$TMP/blk" bs=4k skip=75 count=1 iflag=direct 2>/dev/null
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[1000] ^= 0x20; open(sys.argv[1], "wb").write(b)' "$TMP/blk"
dd if="$TMP/blk" of="$dev" bs=4k seek=75 count=1 oflag=direct conv=notrunc 2>/dev/null
ok $? "one bit of the block at byte 307200 flipped on the device"
"$IOTRIAGE" run --fio-job "$TMP/vr.fio" "$dev" --native --json >"$TMP/v2.json" 2>"$TMP/v2.err"
check "the read-back now fails (exit 1)" -- test $? -eq 1
check "naming the block's offset and the checksum" -- grep -q "verify failed: 1 of 256 blocks checked are wrong; the first at byte 307200: sha256 mismatch" "$TMP/v2.err"
check "the document says the same" -- jtest "$TMP/v2.json" \
	'.fio_job.jobs[0] | .status == "error" and .result.verify.first_error_offset == 307200 and .result.verify.errors == 1 and .result.verify.blocks_checked == 256'
printf '[r]\nrw=read\nbs=4k\nsize=1m\nverify=md5\ndirect=1\n' >"$TMP/vmd5.fio"
"$IOTRIAGE" run --fio-job "$TMP/vmd5.fio" "$dev" --native >/dev/null 2>"$TMP/v3.err"
check "checked with another checksum than written: every block named as such" -- grep -q "256 of 256 blocks checked are wrong; the first at byte 0: written with verify=sha256, checked with verify=md5" "$TMP/v3.err"
printf '[r]\nrw=read\nbs=4k\nsize=1m\noffset=4m\nverify=crc32c\nverify_fatal=1\ndirect=1\n' >"$TMP/vfatal.fio"
"$IOTRIAGE" run --fio-job "$TMP/vfatal.fio" "$dev" --native --json >"$TMP/v4.json" 2>"$TMP/v4.err"
check "verify_fatal on blocks never written: fails at the first (exit 1)" -- test $? -eq 1
check "which carries no header, at byte 4194304" -- grep -q "the first at byte 4194304: no iotriage verify header" "$TMP/v4.err"
check "and stopped there (one block checked per job)" -- jtest "$TMP/v4.json" '.fio_job.jobs[0].result.verify.blocks_checked == 1'
finish
