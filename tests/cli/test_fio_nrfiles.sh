#!/usr/bin/env bash
# run --fio-job with nrfiles= (and openfiles=, filesize=, filename_format=)
# natively: the same job by fio and by iotriage, each in a directory of its
# own. The same file names and sizes appear, the same number of I/Os of
# each kind (fio's json+ total_ios against iotriage's --fio-json and its
# document), and for a read job every file is read, in fio's order: each
# file's count of pread64 under strace, and the descriptor sequence of the
# first I/Os (fio's roundrobin: a file after each I/O). openfiles= under
# nrfiles= goes to fio with the reason; --native refuses it. No root
# needed: plain files under the test's directory.
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null || ! command -v jq >/dev/null; then
	skip "nrfiles= against fio" "needs fio and jq"
	finish
	exit
fi

# both NAME BODY: the job [NAME] (BODY's options) by fio in $TMP/NAME.fio/,
# by iotriage in $TMP/NAME.iot/.
both() {
	printf '[%s]\n%b' "$1" "$2" >"$TMP/$1.job"
	mkdir -p "$TMP/$1.fio" "$TMP/$1.iot"
	(cd "$TMP/$1.fio" && fio --output-format=json+ "$TMP/$1.job" >"$TMP/$1.fio.json" 2>"$TMP/$1.fio.err")
	ok $? "$1: fio runs it"
	"$IOTRIAGE" run --fio-job "$TMP/$1.job" "$TMP/$1.iot" --native --fio-json "$TMP/$1.iot.json" --json \
		>"$TMP/$1.doc.json" 2>"$TMP/$1.err"
	ok $? "$1: iotriage runs it natively"
}
listing() { (cd "$1" && find . -type f -printf '%P %s\n' | sort); }
ios() { jq -r '[.jobs[] | .read.total_ios, .write.total_ios] | @tsv' "$1"; }

compare() { # compare NAME BODY
	both "$1" "$2"
	check "$1: the same files, of the same sizes" -- [ "$(listing "$TMP/$1.fio")" = "$(listing "$TMP/$1.iot")" ]
	diag "$1: fio's files: $(listing "$TMP/$1.fio" | tr '\n' ' ')"
	local f i
	f=$(ios "$TMP/$1.fio.json") i=$(ios "$TMP/$1.iot.json")
	diag "$1: reads and writes: fio $f, iotriage $i"
	check "$1: as many reads and writes as fio (--fio-json)" -- [ "$f" = "$i" ]
	check "$1: the document counts them too" -- \
		[ "$(jq -r '[.fio_job.jobs[0].result | .read.ios, .write.ios] | @tsv' "$TMP/$1.doc.json")" = "$f" ]
}

compare seqread 'rw=read\nbs=4k\nsize=256k\nnrfiles=4\n'
compare randread 'rw=randread\nbs=4k\nfilesize=64k\nnrfiles=3\nioengine=libaio\niodepth=8\ndirect=1\n'
compare seqwrite 'rw=write\nbs=8k\nsize=384k\nnrfiles=6\nfilename_format=f.$filenum.$jobname\n'
compare randwrite 'rw=randwrite\nbs=4k\nsize=192k\nnrfiles=3\nopenfiles=3\nioengine=io_uring\niodepth=4\n'
check "the document holds nrfiles" -- jtest "$TMP/randwrite.doc.json" '.fio_job.jobs[0].options.nrfiles == 3'

if command -v strace >/dev/null; then
	# every file read as often as fio reads it, and in fio's order
	rm -rf "$TMP/seqread.fio"/* "$TMP/seqread.iot"/*
	(cd "$TMP/seqread.fio" && fio --output-format=terse "$TMP/seqread.job" >/dev/null 2>&1)
	"$IOTRIAGE" run --fio-job "$TMP/seqread.job" "$TMP/seqread.iot" --native >/dev/null 2>&1
	fc="" ic=""
	for f in "$TMP"/seqread.fio/*; do
		n=${f##*/}
		fc+="$n=$(cd "$TMP/seqread.fio" && strace -f -e trace=pread64 -P "$f" -o "$TMP/st.f" \
			fio --output-format=terse "$TMP/seqread.job" >/dev/null 2>&1; grep -c '^[0-9]* *pread64(' "$TMP/st.f") "
		ic+="$n=$(strace -f -e trace=pread64 -P "$TMP/seqread.iot/$n" -o "$TMP/st.i" "$IOTRIAGE" run --fio-job \
			"$TMP/seqread.job" "$TMP/seqread.iot" --native >/dev/null 2>&1; grep -c '^[0-9]* *pread64(' "$TMP/st.i") "
	done
	diag "preads per file: fio $fc; iotriage $ic"
	check "every file read, as many times as fio reads it" -- [ "$fc" = "$ic" ]
	check "each of the 4 files read 16 times" -- [ "$(echo "$ic" | grep -o '=16 ' | wc -l)" = 4 ]
	# the order: the files' descriptors of the first 8 preads of 4 KiB
	order() { grep -o 'pread64([0-9]*,.*4096, [0-9]*)' "$1" | head -8 | sed 's/pread64(\([0-9]*\),.* \([0-9]*\))$/\1@\2/' | tr '\n' ' '; }
	(cd "$TMP/seqread.fio" && strace -f -e trace=pread64 -o "$TMP/st.f" fio --output-format=terse "$TMP/seqread.job" >/dev/null 2>&1)
	strace -f -e trace=pread64 -o "$TMP/st.i" "$IOTRIAGE" run --fio-job "$TMP/seqread.job" "$TMP/seqread.iot" --native >/dev/null 2>&1
	fo=$(order "$TMP/st.f") io=$(order "$TMP/st.i")
	diag "first preads (fd@offset): fio $fo; iotriage $io"
	# descriptors differ between the programs: compare the pattern (a new file each I/O, offsets)
	norm() { echo "$1" | awk '{ for (i = 1; i <= NF; i++) { split($i, a, "@"); if (!(a[1] in m)) m[a[1]] = ++n; printf "%s@%s ", m[a[1]], a[2] } }'; }
	check "round robin as fio's: a file after each I/O, each from its start" -- [ "$(norm "$fo")" = "$(norm "$io")" ]
	check "the pattern is 1 2 3 4 1 2 3 4" -- [ "$(norm "$io")" = "1@0 2@0 3@0 4@0 1@4096 2@4096 3@4096 4@4096 " ]
else
	skip "per-file reads under strace" "needs strace"
fi

# openfiles= under nrfiles=: fio's, with the reason; --native refuses it
printf '[o]\nrw=read\nsize=64k\nnrfiles=4\nopenfiles=2\n' >"$TMP/open.job"
mkdir -p "$TMP/open"
"$IOTRIAGE" run --fio-job "$TMP/open.job" "$TMP/open" --native >/dev/null 2>"$TMP/open.err"
check "openfiles= under nrfiles=: --native refuses it" -- [ $? -ne 0 ]
check "the refusal names openfiles=" -- grep -q "openfiles= under nrfiles=" "$TMP/open.err"
(cd "$TMP/open" && "$IOTRIAGE" run --fio-job "$TMP/open.job" --json >"$TMP/open.json" 2>"$TMP/open.err")
check "without --native fio runs it" -- jtest "$TMP/open.json" '.fio_job.run_by != "iotriage" and (.fio_job.fio_reason | test("openfiles"))'
check "nrfiles with a TARGET that is not a directory is refused" -- \
	sh -c '"$1" run --fio-job "$2" "$3" --native 2>&1 | grep -q "lays out its files in a directory"' _ "$IOTRIAGE" \
	"$TMP/seqread.job" "$TMP/seqread.job"
finish
