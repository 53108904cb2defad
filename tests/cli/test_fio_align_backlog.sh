#!/usr/bin/env bash
# run --fio-job, blockalign (ba) and verify_backlog natively: the same job
# file run by fio and by iotriage (--native) on one regular file (direct I/O
# where the file system has it). ba: as many I/Os as fio's, every random
# offset a multiple of ba in both (each direction its own with ba=R,W; the
# per-I/O logs, write_iops_log with log_offset=1), many not of bs, and
# sequential I/O at multiples of bs (fio uses ba for random I/O only);
# random_distribution=zoned with ba: the first zone's share of the I/Os fio's.
# verify_backlog (and verify_backlog_batch): as many reads and writes as
# fio's, in fio's order with psync (the two logs' directions line by line),
# every block checked once, some during the writes. A byte flipped in a
# block already written, by a second process, before the backlog reads it
# back: the run fails naming the block's offset while the writes are under
# way (verify_fatal stops it after as many writes and reads as fio's on the
# same flip); the same job intact passes.
. "$(dirname "$0")/lib.sh"

# Parser: refusals, and what stays fio's (no fio needed).
printf '[j]\nrw=randread\nba=0\nsize=1m\n' >"$TMP/ba0.fio"
"$IOTRIAGE" run --fio-job "$TMP/ba0.fio" --native "$TMP/f" >/dev/null 2>"$TMP/ba0.err"
check "ba=0 is a usage error (exit 2)" -- test $? -eq 2
check "naming the option, its section and line" -- grep -q "line 3 \[j\]: ba=0: expected a size" "$TMP/ba0.err"
printf '[j]\nrw=randread\nblockalign=4k,8k,16k,32k\nsize=1m\n' >"$TMP/ba4.fio"
"$IOTRIAGE" run --fio-job "$TMP/ba4.fio" --native "$TMP/f" >/dev/null 2>"$TMP/ba4.err"
check "four values of blockalign= are refused by name" -- grep -q "ba=4k,8k,16k,32k: expected at most three sizes" "$TMP/ba4.err"
printf '[j]\nrw=randwrite\nba=2k\nverify=md5\nsize=1m\n' >"$TMP/bav.fio"
"$IOTRIAGE" run --fio-job "$TMP/bav.fio" --native "$TMP/f" >/dev/null 2>"$TMP/bav.err"
check "ba with verify on random writes is refused with --native, saying why" -- \
	grep -q "verify= on random writes with ba= (it turns the random map off" "$TMP/bav.err"
printf '[j]\nrw=write\nverify=crc32c\nverify_backlog=8\nloops=2\nsize=1m\n' >"$TMP/vbl.fio"
"$IOTRIAGE" run --fio-job "$TMP/vbl.fio" --native "$TMP/f" >/dev/null 2>"$TMP/vbl.err"
check "verify_backlog with loops= is refused with --native, saying why" -- \
	grep -q "verify_backlog= with loops=, number_ios= or io_size= over size=" "$TMP/vbl.err"
printf '[j]\nrw=randrw\nba=1k,8k\n[k]\nstonewall\nrw=write\nverify=crc32c\nverify_backlog=16\nverify_backlog_batch=4\n' \
	>"$TMP/plan.fio"
"$IOTRIAGE" run --fio-job "$TMP/plan.fio" --parse-only "$TMP/f" >"$TMP/plan.out" 2>&1
check "ba= and verify_backlog= run natively (--parse-only)" -- test "$(grep -c ": natively: " "$TMP/plan.out")" = 2
check "nothing was created by the refusals or the plan" -- test ! -e "$TMP/f"

if ! command -v fio >/dev/null; then
	skip "fio and iotriage on one file" "fio is not installed"
	finish
	exit
fi
target=$TMP/target.bin
head -c 8M /dev/urandom >"$target"
# Direct I/O where the file system takes it at 512-byte offsets (ba=512 and ba=1k below).
direct=1
dd if="$target" of=/dev/null bs=512 skip=1 count=1 iflag=direct status=none 2>/dev/null || direct=0
diag "target: a file on $(df --output=fstype "$TMP" | tail -1), direct=$direct"
mkdir "$TMP/fio" "$TMP/io"

# fio's logs go to the current directory: each program runs in its own.
# run_both NAME: NAME.fio by fio and by iotriage; their JSON in fio-NAME.json and io-NAME.json.
run_both() {
	local name=$1
	(cd "$TMP/fio" && fio --output-format=json --filename="$target" "$TMP/$name.fio") >"$TMP/fio-$name.out" 2>"$TMP/fio-$name.err"
	ok $? "fio runs $name.fio" || diag_file "$TMP/fio-$name.err"
	sed -n '/^{/,$p' "$TMP/fio-$name.out" >"$TMP/fio-$name.json"
	(cd "$TMP/io" && "$IOTRIAGE" run --fio-job "$TMP/$name.fio" "$target" --native --json) \
		>"$TMP/io-$name.json" 2>"$TMP/io-$name.err"
	ok $? "iotriage runs $name.fio natively (--native)" || diag_file "$TMP/io-$name.err"
}
# ios WHO NAME JOB KIND: the job's count of KIND (read, write) in fio's or iotriage's JSON.
ios() {
	if [ "$1" = fio ]; then
		json "$TMP/fio-$2.json" ".jobs[] | select(.jobname == \"$3\") | .$4.total_ios"
	else
		json "$TMP/io-$2.json" ".fio_job.jobs[] | select(.name == \"$3\") | .result.$4.ios"
	fi
}
# off_step LOG DDIR STEP: the I/Os of direction DDIR (0 read, 1 write) in
# the per-I/O log LOG whose offset is not a multiple of STEP.
off_step() {
	awk -F, -v d="$2" -v s="$3" '$3 + 0 == d && $5 % s { n++ } END { print n + 0 }' "$1"
}

cat >"$TMP/ba.fio" <<JOB
[global]
direct=$direct
size=4m
stonewall
write_iops_log=ba
log_offset=1

[small]
rw=randread
bs=8k
ba=4k

[big]
rw=randread
bs=4k
blockalign=16k

[mix]
rw=randrw
bs=4k
ba=1k,8k

[aio]
rw=randwrite
bs=4k
ba=512
ioengine=libaio
iodepth=8

[seq]
rw=read
bs=8k
ba=4k

[zoned]
rw=randread
bs=8k
ba=4k
random_distribution=zoned:60/10:40/90
io_size=16m
JOB
run_both ba
check "fio turns the random map off for ba" -- grep -q "Any use of blockalign= turns off randommap" "$TMP/fio-ba.err"
check "and so does iotriage (uniform offsets)" -- jtest "$TMP/io-ba.json" \
	'[.fio_job.jobs[] | select(.name != "seq") | .parameters.random_map] | all(. == "uniform")'
# job ddir ba bs: each random job's direction, its ba and its block size
for spec in "small 0 4096 8192" "big 0 16384 4096" "mix 0 1024 4096" "mix 1 8192 4096" "aio 1 512 4096" \
	"zoned 0 4096 8192"; do
	read -r job ddir ba bs <<<"$spec"
	case $job in small) n=1 ;; big) n=2 ;; mix) n=3 ;; aio) n=4 ;; zoned) n=6 ;; esac
	for who in fio io; do
		log=$TMP/$who/ba_iops.$n.log
		check "$who, job $job: every $( [ "$ddir" = 0 ] && echo read || echo write ) at a multiple of ba=$ba" -- \
			test "$(off_step "$log" "$ddir" "$ba")" = 0
		[ "$ba" -ge "$bs" ] && continue
		loose=$(off_step "$log" "$ddir" "$bs")
		diag "$who, job $job: $loose of $(wc -l <"$log") I/Os not at a multiple of bs=$bs"
		check "$who, job $job: many not at a multiple of bs=$bs" -- test "$loose" -ge 20
	done
done
for who in fio io; do
	check "$who, job seq: sequential I/O at multiples of bs=8k (ba not used)" -- \
		test "$(off_step "$TMP/$who/ba_iops.5.log" 0 8192)" = 0
done
# zoned with ba: the first zone is 10% of fio's last_block, (4m - 4k) / 4k = 1023 steps: 102 of them.
zone_share() { awk -F, '$5 < 102 * 4096 { n++ } END { printf "%.3f", n / NR }' "$1"; }
zone_fio=$(zone_share "$TMP/fio/ba_iops.6.log")
zone_io=$(zone_share "$TMP/io/ba_iops.6.log")
diag "zoned:60/10:40/90 with ba=4k: the share in the first zone: fio $zone_fio, iotriage $zone_io"
check "zoned with ba: the first zone's share is fio's within 0.06" -- \
	awk -v a="$zone_fio" -v b="$zone_io" 'BEGIN { d = a - b; exit !(d < 0.06 && d > -0.06 && a > 0.5) }'
n=0
for job in small big mix aio seq zoned; do
	n=$((n + 1))
	f=$(($(ios fio ba "$job" read) + $(ios fio ba "$job" write)))
	i=$(($(ios io ba "$job" read) + $(ios io ba "$job" write)))
	diag "job $job: fio $f I/Os, iotriage $i"
	check "job $job: as many I/Os as fio ($f)" -- test "$f" = "$i"
	check "job $job: a log line for each, in both" -- \
		test "$(wc -l <"$TMP/fio/ba_iops.$n.log")" = "$f" -a "$(wc -l <"$TMP/io/ba_iops.$n.log")" = "$i"
done
if [ "$direct" = 1 ]; then
	printf '[j]\nrw=randread\nba=256\ndirect=1\nsize=1m\n' >"$TMP/ba256.fio"
	(cd "$TMP/io" && "$IOTRIAGE" run --fio-job "$TMP/ba256.fio" "$target" --native) >/dev/null 2>"$TMP/ba256.err"
	check "ba=256 with direct I/O fails before any I/O" -- test $? -ne 0
	diag "$(grep -o 'blockalign.*' "$TMP/ba256.err" | head -1)"
	check "naming ba and the file's direct I/O alignment" -- \
		grep -q "blockalign (ba) 256 of the reads is not a multiple of [0-9]* bytes, the direct I/O alignment" "$TMP/ba256.err"
fi

cat >"$TMP/vb.fio" <<JOB
[global]
bs=4k
direct=$direct
size=1m
stonewall
write_iops_log=vb
log_offset=1

[seq]
rw=write
verify=crc32c
verify_backlog=16

[rand]
rw=randwrite
verify=md5
verify_backlog=10
verify_backlog_batch=4

[long]
rw=randwrite
verify=sha256
verify_backlog=10
verify_backlog_batch=25

[aio]
rw=randwrite
ioengine=libaio
iodepth=8
verify=crc32c
verify_backlog=7

[uring]
rw=write
ioengine=io_uring
iodepth=4
verify=crc32c
verify_backlog=32
verify_backlog_batch=8

[nodo]
rw=write
verify=crc32c
do_verify=0
verify_backlog=16
JOB
run_both vb
n=0
for job in seq rand long aio uring nodo; do
	n=$((n + 1))
	for kind in read write; do
		f=$(ios fio vb "$job" "$kind")
		i=$(ios io vb "$job" "$kind")
		diag "job $job: ${kind}s: fio $f, iotriage $i"
		check "job $job: as many ${kind}s as fio ($f)" -- test "$f" = "$i"
	done
	case $job in seq | rand | long) ;; *) continue ;; esac
	for who in fio io; do
		awk -F, '{ printf "%s", $3 + 0 ? "W" : "R" }' "$TMP/$who/vb_iops.$n.log" >"$TMP/$who-vb.$n.order"
	done
	diag "job $job: fio's order $(cut -c1-60 "$TMP/fio-vb.$n.order")..."
	check "job $job (psync): the reads between the writes in fio's order" -- \
		cmp -s "$TMP/fio-vb.$n.order" "$TMP/io-vb.$n.order"
done
check "every job ok" -- jtest "$TMP/io-vb.json" '.fio_job.jobs | length == 6 and all(.status == "ok")'
check "with do_verify, every block written checked once, some during the writes" -- jtest "$TMP/io-vb.json" \
	'[.fio_job.jobs[] | select(.name != "nodo") | .result | .verify.blocks_checked == .write.ios and
	  .verify.blocks_checked_during_writes > 0 and .verify.errors == 0] | all'
check "do_verify=0: no backlog, as fio keeps none" -- jtest "$TMP/io-vb.json" \
	'.fio_job.jobs[] | select(.name == "nodo") | .result.verify.blocks_checked == 0'

# A byte flipped by another process in block 1 (bytes 4096 to 8191) once
# block 2 is written (its verify header there), long before the backlog
# reads the first 32 blocks back (thinktime: 25 ms after each I/O).
# flip_when_written MAGIC_HEX BYTES: waits for it at byte 8192 (30 s at most), then flips byte 4608.
flip_when_written() {
	local i b
	for i in $(seq 3000); do
		[ "$(od -An -tx1 -N"$2" -j8192 "$target" | tr -d ' \n')" = "$1" ] && break
		sleep 0.01
	done
	dd if="$target" of="$TMP/sector" bs=512 skip=9 count=1 iflag=direct status=none 2>/dev/null ||
		dd if="$target" of="$TMP/sector" bs=512 skip=9 count=1 status=none
	b=$(od -An -tu1 -N1 "$TMP/sector" | tr -d ' ')
	printf "\\$(printf %o $((b ^ 255)))" | dd of="$TMP/sector" bs=1 count=1 conv=notrunc status=none
	dd if="$TMP/sector" of="$target" bs=512 seek=9 count=1 conv=notrunc,fsync status=none
	echo "$i" >"$TMP/flip.polls"
}
cat >"$TMP/flip.fio" <<JOB
[flip]
rw=write
bs=4k
size=256k
direct=$direct
verify=crc32c
verify_backlog=32
verify_fatal=1
thinktime=25ms
JOB
head -c 1M /dev/urandom >"$target"
flip_when_written 494f5456 4 & # "IOTV", iotriage's header
(cd "$TMP/io" && "$IOTRIAGE" run --fio-job "$TMP/flip.fio" "$target" --native --json) >"$TMP/io-flip.json" 2>"$TMP/io-flip.err"
status=$?
wait
diag "flipped after $(cat "$TMP/flip.polls") polls; iotriage: $(grep -o 'verify failed.*' "$TMP/io-flip.err" | head -1)"
check "the flipped byte fails the run (exit 1)" -- test "$status" -eq 1
check "naming the block's offset" -- grep -q "verify failed: 1 of .* blocks checked are wrong; the first at byte 4096: crc32c mismatch" "$TMP/io-flip.err"
check "caught during the writes: verify_fatal stopped them at the first backlog (32 of 64)" -- jtest "$TMP/io-flip.json" \
	'.fio_job.jobs[0].result | .write.ios == 32 and .verify.blocks_checked_during_writes >= 2 and .verify.first_error_offset == 4096'
head -c 1M /dev/urandom >"$target"
flip_when_written caac 2 & # fio's header magic, 0xacca
(cd "$TMP/fio" && fio --output-format=json --filename="$target" "$TMP/flip.fio") >"$TMP/fio-flip.out" 2>"$TMP/fio-flip.err"
wait
sed -n '/^{/,$p' "$TMP/fio-flip.out" >"$TMP/fio-flip.json"
diag "fio: $(head -1 "$TMP/fio-flip.err")"
check "fio catches the same flip at offset 4096" -- grep -q "verify failed at file .* offset 4096" "$TMP/fio-flip.err"
for kind in read write; do
	f=$(ios fio flip flip "$kind")
	i=$(ios io flip flip "$kind")
	diag "flipped: ${kind}s: fio $f, iotriage $i"
	check "flipped: as many ${kind}s as fio before it stopped ($f)" -- test "$f" = "$i"
done
(cd "$TMP/io" && "$IOTRIAGE" run --fio-job "$TMP/flip.fio" "$target" --native --json) >"$TMP/io-intact.json" 2>"$TMP/io-intact.err"
ok $? "the same job intact passes" || diag_file "$TMP/io-intact.err"
check "every block checked, the first 32 during the writes" -- jtest "$TMP/io-intact.json" \
	'.fio_job.jobs[0].result | .write.ios == 64 and .read.ios == 64 and .verify.errors == 0 and .verify.blocks_checked_during_writes == 32'
finish
