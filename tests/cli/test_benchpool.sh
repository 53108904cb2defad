#!/usr/bin/env bash
# benchpool on real pools: a zfs-fuse mirror + raidz on loop devices, a
# btrfs raid1 on loop devices, and an ext4 directory. Every engine that is
# installed runs, the missing ones are skipped with a warning, reads are
# labelled, and nothing temporary survives: not at the end, not after
# SIGINT at random points, and after SIGKILL the next run removes it while
# an untagged look-alike survives, also when the killed run stays a zombie.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "benchpool" "needs root for loop devices, zfs-fuse and mounts"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "benchpool" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi

leftovers() { # leftovers POOL: our datasets still in the pool
	zfs list -H -t all -r -o name "$1" 2>/dev/null | grep "^$1/iotriage-" || true
}

devs=()
for i in 1 2 3 4 5; do devs+=("$(make_loop 160M)"); done
pool=iotriage-bp-$$
zpool create -f "$pool" mirror "${devs[0]}" "${devs[1]}" raidz "${devs[2]}" "${devs[3]}" "${devs[4]}" >/dev/null 2>&1
ok $? "zpool create (mirror + raidz on loop devices)"
undo "destroy_pool $pool"

# --tests all on ZFS: fio, dd and builtin run; elbencho and iozone are not packaged here.
"$IOTRIAGE" benchpool "$pool" 32M --tests all --runtime 5 --json >"$TMP/all.json" 2>"$TMP/all.err"
ok $? "benchpool --tests all exits 0"
check "fstype detected as zfs" -- jtest "$TMP/all.json" '.fstype == "zfs" and .operation == "benchpool"'
check "fio, dd and builtin ran" -- \
	jtest "$TMP/all.json" '[.results[] | select(.status == "ok") | .test] == ["fio", "dd", "builtin"]'
check "elbencho and iozone skipped as not installed" -- \
	jtest "$TMP/all.json" '[.results[] | select(.status == "skipped") | .reason] == ["elbencho is not installed", "iozone is not installed"]'
check "a WARN line for each skipped engine" -- test "$(grep -c 'WARN.*skipped: .* is not installed' "$TMP/all.err")" -eq 2
check "fio's JSON is embedded, both passes" -- \
	jtest "$TMP/all.json" '.results[0].fio_json.throughput.jobs[0].jobname == "throughput" and .results[0].fio_json.random.jobs[0].jobname == "random"'
check "the document names the tools it ran with their versions: fio as fio --version says" -- \
	jtest "$TMP/all.json" "[.tools[] | select(.name == \"fio\") | .version] == [\"$(fio --version)\"]"
check "and the pool's: zpool and zfs with ZFS's version (zfs-fuse: its pool version)" -- \
	jtest "$TMP/all.json" '[.tools[] | select(.name == "zpool" or .name == "zfs") | .version | test("^(zfs-|ZFS pool version )")] | length == 2 and all'
check "dd too, each tool once" -- jtest "$TMP/all.json" '(.tools | map(.name) | (index("dd") != null) and (length == (unique | length)))'
check "fio's four figures: throughput and random, read and write" -- \
	jtest "$TMP/all.json" '[.results[0].figures[].pass] == ["throughput read", "throughput write", "random read", "random write"]'
check "fio's figures carry its completion latency (p50 <= p99 <= max over its I/Os); psync: no submission latency" -- \
	jtest "$TMP/all.json" '[.results[0].figures[] | (.lat_ns | .count > 0 and .p50 > 0 and .p50 <= .p99 and .p99 <= .max * (1 + 1 / 64)) and .slat_ns == null] | all'
check "and they are fio's own figures for the pass" -- \
	jtest "$TMP/all.json" '.results[0] | .figures[0].lat_ns.count == .fio_json.throughput.jobs[0].read.clat_ns.N and .figures[3].lat_ns.p99 == .fio_json.random.jobs[0].write.clat_ns.percentile["99.000000"]'
check "every figure moved bytes at a rate" -- \
	jtest "$TMP/all.json" '[.results[] | .figures[] | .bytes > 0 and .bw_bytes_per_s > 0] | all'
check "every read is labelled: pool (O_DIRECT, ARC keeps no file data)" -- \
	jtest "$TMP/all.json" '[.results[] | .figures[] | select(.direction == "read") | .cache] | unique == ["pool"]'
check "every write names its data and the compression" -- \
	jtest "$TMP/all.json" '[.results[] | .figures[] | select(.direction == "write") | .pattern == "random" and .compression == "off"] | all'
check "the write figures are flagged as mostly cache at this size" -- \
	jtest "$TMP/all.json" '.cache_note | test("less than twice the cache")'
# zfs-fuse keeps its ARC in the daemon; its size is what the cache is.
arc_max=$(cat /zfs-kstat/zfs/arcstats/c_max 2>/dev/null || echo 0)
check "the cache is zfs-fuse's ARC maximum, named as such" -- \
	jtest "$TMP/all.json" ".cache_bytes == $arc_max and $arc_max > 0 and (.cache_note | test(\"the zfs-fuse ARC's maximum\"))"
check "perf usability is noted" -- jtest "$TMP/all.json" '.perf_note | test("perf")'
check "every pool's status is captured, with its dedup table (zpool status -D -v)" -- jtest "$TMP/all.json" ".pool_status | test(\"zpool status -D -v\") and test(\"$pool\")"
check "two temporary datasets (1m and 4k), named with the run id" -- \
	jtest "$TMP/all.json" ".areas | length == 2 and (.[0] | test(\"^$pool/iotriage-[0-9a-f]{16}-1m\$\")) and (.[1] | endswith(\"-4k\"))"
check "the results file holds the same document" -- \
	jtest "$(json "$TMP/all.json" .results_file)" '.operation == "benchpool" and (.results | length == 5)'
check "no temporary dataset is left" -- test -z "$(leftovers "$pool")"
check "the log says which datasets were created and removed" -- \
	bash -c "grep -q 'created temporary ZFS dataset $pool/iotriage-' '$IOTRIAGE_STATE_DIR/iotriage.log' && grep -q 'removed temporary ZFS dataset $pool/iotriage-' '$IOTRIAGE_STATE_DIR/iotriage.log'"

# Compression on: the default run writes incompressible data, and dd's
# zeros write is shown next to it, explained.
zfs set compression=on "$pool"
"$IOTRIAGE" benchpool "$pool" 64M --tests dd >"$TMP/comp.txt" 2>"$TMP/comp.err"
ok $? "benchpool --tests dd on a compressed pool"
"$IOTRIAGE" benchpool "$pool" 64M --tests dd --json >"$TMP/comp.json" 2>/dev/null
check "compression is reported with every write figure" -- \
	jtest "$TMP/comp.json" '.compression == "on" and ([.results[0].figures[] | select(.direction == "write") | .compression] | unique == ["on"])'
check "the default write is incompressible data" -- \
	jtest "$TMP/comp.json" '.pattern == "random" and .results[0].figures[0].pattern == "random"'
check "zeros write faster than incompressible data on a compressed pool" -- \
	jtest "$TMP/comp.json" '(.results[0].figures | map(select(.pass == "write (zeros)"))[0].bw_bytes_per_s) > 1.2 * (.results[0].figures | map(select(.pass == "write"))[0].bw_bytes_per_s)'
check "and the document explains why" -- jtest "$TMP/comp.json" '.compression_note | test("zeros compress to almost nothing")'
check "the table run says it too" -- grep -q "Note: with compression on, dd wrote zeros at" "$TMP/comp.txt"
zfs set compression=off "$pool"

# SIGINT at random points, 20 times: nothing left behind each time. The
# points fall inside a whole run's time on this machine, measured first
# (a fixed window let runs that finished early count as not interrupted).
start=$(date +%s%N)
"$IOTRIAGE" benchpool "$pool" 16M --tests fio,dd,builtin --runtime 2 >/dev/null 2>&1
run_ms=$((($(date +%s%N) - start) / 1000000))
diag "one whole run takes $run_ms ms here"
clean=0 stopped=0
for trial in $(seq 1 20); do
	"$IOTRIAGE" benchpool "$pool" 16M --tests fio,dd,builtin --runtime 2 >/dev/null 2>"$TMP/int.err" &
	pid=$!
	sleep "$(awk -v s="$RANDOM" -v ms="$run_ms" 'BEGIN { srand(s); printf "%.2f", rand() * ms * 0.9 / 1000 }')"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	st=$?
	[ "$st" -eq 130 ] && stopped=$((stopped + 1))
	if [ -z "$(leftovers "$pool")" ] && { [ "$st" -eq 130 ] || [ "$st" -eq 0 ]; }; then
		clean=$((clean + 1))
	else
		diag "trial $trial: exit $st, left: $(leftovers "$pool"); its stderr ends:"
		tail -n 5 "$TMP/int.err" | while IFS= read -r line; do diag "  $line"; done
	fi
done
check "20 SIGINTs at random points: nothing left behind, exit 130 or 0 each time" -- test "$clean" -eq 20
check "most trials were really interrupted (exit 130)" -- test "$stopped" -ge 10
diag "interrupted $stopped of 20 (the rest had finished)"

# SIGKILL: the dataset survives the kill; the next run removes it, and
# leaves an untagged look-alike and a dataset whose owner still runs.
"$IOTRIAGE" benchpool "$pool" 128M --tests builtin --runtime 30 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do [ -n "$(leftovers "$pool")" ] && break; sleep 0.1; done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
killed=$(leftovers "$pool")
check "after SIGKILL the temporary dataset is still there" -- test -n "$killed"
zfs create "$pool/iotriage-lookalike"
start=$(awk '{ print $22 }' /proc/$$/stat)
boot=$(cut -d- -f1 /proc/sys/kernel/random/boot_id)
zfs create -o "org.iotriage:owner=live:$boot:$$:$start" "$pool/iotriage-in-use"
"$IOTRIAGE" benchpool "$pool" 16M --tests dd >/dev/null 2>"$TMP/next.err"
ok $? "the next run succeeds"
check "it removed what the killed run left" -- test -z "$(leftovers "$pool" | grep -v -e '/iotriage-lookalike$' -e '/iotriage-in-use$')"
check "and logged it" -- grep -q "removed ZFS dataset '$(echo "$killed" | head -n 1)' left by an interrupted run" "$TMP/next.err"
check "an untagged look-alike survives" -- bash -c 'zfs list -H -o name "$1" >/dev/null' _ "$pool/iotriage-lookalike"
check "a tagged dataset whose owner still runs survives" -- bash -c 'zfs list -H -o name "$1" >/dev/null' _ "$pool/iotriage-in-use"
zfs destroy "$pool/iotriage-lookalike" 2>/dev/null || { sleep 1; zfs destroy "$pool/iotriage-lookalike"; }
zfs destroy "$pool/iotriage-in-use" 2>/dev/null || { sleep 1; zfs destroy "$pool/iotriage-in-use"; }

# A SIGKILLed run whose process stays a zombie (its parent is stopped, so
# nothing reaps it, as under a PID 1 that does not reap orphans): the next
# run takes the zombie for gone, removes its datasets and says so.
bash -c '"$0" benchpool "$1" 128M --tests builtin --runtime 30 >/dev/null 2>&1 & echo $! >"$2"; kill -STOP $$' \
	"$IOTRIAGE" "$pool" "$TMP/zpid" &
parent=$!
undo "kill -KILL $parent 2>/dev/null"
for _ in $(seq 1 100); do [ -s "$TMP/zpid" ] && [ -n "$(leftovers "$pool")" ] && break; sleep 0.1; done
zpid=$(cat "$TMP/zpid")
kill -KILL "$zpid"
for _ in $(seq 1 50); do [ "$(awk '{ print $3 }' "/proc/$zpid/stat" 2>/dev/null)" = Z ] && break; sleep 0.1; done
check "the killed run stays a zombie (state Z), unreaped" -- test "$(awk '{ print $3 }' "/proc/$zpid/stat" 2>/dev/null)" = Z
zkilled=$(leftovers "$pool")
check "and its temporary dataset is still there" -- test -n "$zkilled"
"$IOTRIAGE" benchpool "$pool" 16M --tests dd >/dev/null 2>"$TMP/znext.err"
ok $? "the next run succeeds"
check "it removed the zombie's datasets" -- test -z "$(leftovers "$pool")"
check "and logged it" -- grep -q "removed ZFS dataset '$(echo "$zkilled" | head -n 1)' left by an interrupted run" "$TMP/znext.err"
check "the zombie was still a zombie while it did" -- test "$(awk '{ print $3 }' "/proc/$zpid/stat" 2>/dev/null)" = Z
kill -KILL "$parent" 2>/dev/null
wait "$parent" 2>/dev/null

# Names are single argv elements: a shell-looking name is refused or harmless.
for evil in "$pool;touch $TMP/pwned" "\$(touch $TMP/pwned)" "\`touch $TMP/pwned\`"; do
	"$IOTRIAGE" benchpool "$evil" 16M --tests dd >/dev/null 2>"$TMP/evil.err"
	st=$?
	check "benchpool '$evil' fails cleanly" -- test "$st" -ne 0 -a ! -e "$TMP/pwned"
done
check "and says what it could not find" -- grep -q "cannot tell what" "$TMP/evil.err"

"$IOTRIAGE" benchpool "$pool" 16M --tests elbencho,iozone >/dev/null 2>"$TMP/none.err"
ok $(($? == 0)) "only missing engines requested: the run fails"
check "saying none could run" -- grep -q "none of the requested tests could run" "$TMP/none.err"
"$IOTRIAGE" benchpool "$pool" --tests fio,bonnie >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "an unknown test is a usage error"
check "naming it" -- grep -q "unknown test 'bonnie'" "$TMP/bad.err"
"$IOTRIAGE" benchpool "$pool" --fstype nfs >/dev/null 2>&1
ok $(($? != 2)) "an unknown --fstype is a usage error"
"$IOTRIAGE" benchpool "$pool" 12Q >/dev/null 2>&1
ok $(($? != 2)) "a bad SIZE is a usage error"
"$IOTRIAGE" benchpool "$pool" --runtime 0 >/dev/null 2>"$TMP/rt.err"
ok $(($? != 2)) "--runtime 0 is a usage error"
check "saying the range" -- grep -q "invalid --runtime '0': expected 1 to 86400 seconds" "$TMP/rt.err"
"$IOTRIAGE" benchpool "$pool" --pattern ones >/dev/null 2>&1
ok $(($? != 2)) "an unknown --pattern is a usage error"
"$IOTRIAGE" benchpool no-such-pool-$$ >/dev/null 2>"$TMP/nf.err"
ok $(($? != 1)) "a pool that does not exist: exit 1"
check "with a hint to pass --fstype" -- grep -q "pass --fstype zfs, btrfs, ceph or dir" "$TMP/nf.err"
# --zvol: zfs-fuse has no zvols (real ones: test_openzfs_vm); a clear error, nothing left.
"$IOTRIAGE" benchpool "$pool" 16M --zvol --tests builtin >/dev/null 2>"$TMP/zv.err"
ok $(($? != 1)) "--zvol on zfs-fuse: exit 1"
check "saying this ZFS has no zvols" -- grep -q "cannot create a temporary zvol: .*this ZFS has no zvols" "$TMP/zv.err"
"$IOTRIAGE" benchpool "$pool" --volblocksize 8k >/dev/null 2>"$TMP/vb.err"
check "--volblocksize without --zvol is a usage error" -- bash -c "[ $? -eq 2 ] && grep -q -- '--volblocksize needs --zvol' '$TMP/vb.err'"
"$IOTRIAGE" benchpool "$pool" --zvol --volblocksize 3k >/dev/null 2>"$TMP/vb.err"
check "a volblocksize that is not a power of two is a usage error" -- bash -c "[ $? -eq 2 ] && grep -q \"invalid --volblocksize '3k'\" '$TMP/vb.err'"
check "no temporary dataset or volume is left after all of it" -- test -z "$(leftovers "$pool")"

# btrfs raid1 on two loop devices, mounted: subvolumes, removed at the end.
if command -v mkfs.btrfs >/dev/null; then
	b1=$(make_loop 300M)
	b2=$(make_loop 300M)
	label=iotriage-bpb-$$
	mkfs.btrfs -q -f -L "$label" -d raid1 -m raid1 "$b1" "$b2" >/dev/null 2>&1
	mnt=$TMP/btrfs
	mkdir "$mnt" && mount "$b1" "$mnt"
	ok $? "btrfs raid1 mounted"
	undo "umount $mnt"
	"$IOTRIAGE" benchpool "$label" 32M --tests all --runtime 3 --json >"$TMP/b.json" 2>"$TMP/b.err"
	ok $? "benchpool --tests all on a btrfs label"
	check "fio, dd and builtin ran; elbencho and iozone skipped" -- \
		jtest "$TMP/b.json" '[.results[] | .test + ":" + .status] == ["fio:ok", "elbencho:skipped", "dd:ok", "iozone:skipped", "builtin:ok"]'
	check "in two subvolumes" -- jtest "$TMP/b.json" "[.areas[] | startswith(\"$mnt/iotriage-\")] == [true, true]"
	check "fstype btrfs, found at its mount point" -- jtest "$TMP/b.json" ".fstype == \"btrfs\" and .mountpoint == \"$mnt\""
	check "reads labelled pool (page cache dropped or bypassed)" -- \
		jtest "$TMP/b.json" '[.results[] | .figures[] | select(.direction == "read") | .cache] | unique == ["pool"]'
	check "no subvolume is left" -- test -z "$(btrfs subvolume list "$mnt")"
	check "nothing is left in the file system" -- test -z "$(ls -A "$mnt")"
else
	skip "benchpool on btrfs" "btrfs-progs is not installed (scripts/install-deps.sh installs it)"
fi

# An ext4 directory: subdirectories, removed; a look-alike directory survives.
e=$(make_loop 200M)
mkfs.ext4 -q -F "$e" >/dev/null 2>&1
emnt=$TMP/ext4
mkdir "$emnt" && mount "$e" "$emnt"
ok $? "ext4 mounted"
undo "umount $emnt"
mkdir "$emnt/iotriage-not-ours"
"$IOTRIAGE" benchpool "$emnt" 32M --tests all --runtime 3 --json >"$TMP/e.json" 2>/dev/null
ok $? "benchpool --tests all on an ext4 directory"
check "fstype dir on ext4" -- jtest "$TMP/e.json" '.fstype == "dir" and .compression == "off"'
check "fio, dd and builtin ran there; elbencho and iozone skipped" -- \
	jtest "$TMP/e.json" '[.results[] | .test + ":" + .status] == ["fio:ok", "elbencho:skipped", "dd:ok", "iozone:skipped", "builtin:ok"]'
check "only what was there before is left" -- test "$(ls -A "$emnt" | sort | tr '\n' ' ')" = "iotriage-not-ours lost+found "
"$IOTRIAGE" benchpool "$emnt" 16M --zvol >/dev/null 2>"$TMP/ezv.err"
ok $(($? == 0)) "--zvol on a directory fails"
check "saying it needs a ZFS pool" -- grep -q -- "--zvol needs a ZFS pool; this is a directory" "$TMP/ezv.err"
check "and leaves nothing" -- test "$(ls -A "$emnt" | sort | tr '\n' ' ')" = "iotriage-not-ours lost+found "

finish
