#!/usr/bin/env bash
# readdisk on real loop devices: figures, log line, results file, database,
# 4K sectors, short devices, engines, a cgroup-throttled device, bad input.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "readdisk tests" "need root for loop devices"; exit 0; fi

dev=$(make_loop 1100M)
out=$TMP/rd.json
"$IOTRIAGE" readdisk "$dev" --json >"$out" 2>"$TMP/rd.err"
ok $? "readdisk $dev exits 0"
check "status ok" -- test "$(json "$out" '.devices[0].status')" = ok
check "reads 1000 MiB by default" -- test "$(json "$out" '.devices[0].bytes')" = 1048576000
check "bandwidth is bytes / seconds" -- \
	jtest "$out" '.devices[0] | (.bw_bytes_per_s / (.bytes / .seconds) - 1) | fabs < 1e-6'
check "latency percentiles are ordered" -- \
	jtest "$out" '.devices[0].lat_ns | .p50 <= .p90 and .p90 <= .p99 and .p99 <= ."p99.9" and ."p99.9" <= .max and .p50 > 0'
check "auto engine at depth 1 is psync, with a reason" -- \
	jtest "$out" '.devices[0] | .engine == "psync" and (.engine_reason | test("queue depth 1"))'
check "schema_version and run_id present" -- jtest "$out" '.schema_version == 1 and (.run_id | length == 16)'
check "json mode keeps INFO lines off stderr" -- bash -c "! grep -q INFO '$TMP/rd.err'"

log=$IOTRIAGE_STATE_DIR/iotriage.log
check "log has the spec's completed line" -- grep -Eq \
	"^\{[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{2} [0-9:]{8} [0-9]{4}, INFO, iotriage\} READ-DISK \($dev\): completed: 1048576000 bytes \(1\.0 GB, 1000 MiB\) copied, [0-9.]+ s, [0-9.]+ [kMG]?B/s$" "$log"
results=$(json "$out" '.results_file')
check "results file exists and holds the same document" -- cmp -s "$results" "$out"
check "no temporary results files left" -- bash -c "! ls '$IOTRIAGE_STATE_DIR'/results/*.tmp.* 2>/dev/null"
db=$IOTRIAGE_STATE_DIR/iotriage.db
check "database has the run" -- test "$(sqlite3 "$db" "select command from runs where id='$(json "$out" .run_id)'")" = readdisk
check "database has the result with its bandwidth" -- \
	test "$(sqlite3 "$db" "select status || ':' || bytes from results where run_id='$(json "$out" .run_id)'")" = "ok:1048576000"
"$IOTRIAGE" readdisk "$dev" --size 8M --json >/dev/null 2>&1
check "the same device keeps one row in devices" -- test "$(sqlite3 "$db" "select count(*) from devices where kname='${dev#/dev/}'")" = 1

# Human output: a table row with the rate and 100% of the median.
"$IOTRIAGE" readdisk "$dev" --size 16M >"$TMP/human.txt" 2>/dev/null
check "human output is a table with the device" -- grep -Eq "^$dev .* 16 MiB .*100% +ok +ok" "$TMP/human.txt"

for engine in psync libaio io_uring; do
	"$IOTRIAGE" readdisk "$dev" --size 64M --engine $engine --iodepth 4 --json >"$TMP/e.json" 2>/dev/null
	check "engine $engine reads 64 MiB" -- \
		jtest "$TMP/e.json" ".devices[0] | .status == \"ok\" and .bytes == 67108864 and .engine == \"$engine\""
	if [ $engine = psync ]; then
		check "psync has no submission latency of its own (slat_ns null)" -- jtest "$TMP/e.json" '.devices[0].slat_ns == null'
	else
		check "engine $engine: a submission latency per I/O read, each at most its completion latency" -- \
			jtest "$TMP/e.json" '.devices[0] | .slat_ns.count == .lat_ns.count and .slat_ns.count == 64 and .slat_ns.min > 0 and .slat_ns.p50 <= .lat_ns.p50 and .slat_ns.max <= .lat_ns.max'
	fi
done

small=$(make_loop 64M)
"$IOTRIAGE" readdisk "$small" --json >"$TMP/small.json" 2>"$TMP/small.err"
ok $? "a device smaller than the size is read whole"
check "reads the 64 MiB that exist" -- test "$(json "$TMP/small.json" '.devices[0].bytes')" = 67108864
check "and says so" -- grep -q "less than the 1048576000 asked for" "$TMP/small.err"

k4=$(make_loop 64M 4096)
"$IOTRIAGE" readdisk "$k4" --json >"$TMP/k4.json" 2>/dev/null
ok $? "a 4096-byte-sector device reads without error"
check "with its 4096-byte logical sector recorded" -- jtest "$TMP/k4.json" '.devices[0] | .logical_block_size == 4096 and .bytes == 67108864'
"$IOTRIAGE" readdisk "$k4" --bs 512 >/dev/null 2>"$TMP/k4bs.err"
check "512-byte blocks on a 4K device: non-zero exit" -- test $? -ne 0
check "and a message naming the alignment" -- grep -q "not a multiple of 4096" "$TMP/k4bs.err"

# 50 MiB/s cgroup throttle on the reading process: reported within 5%.
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
cg=$(make_cgroup "$mm 52428800")
run_in_cgroup "$cg" "$IOTRIAGE" readdisk "$dev" --size 200M --json >"$TMP/slow.json" 2>/dev/null
ok $? "throttled read completes"
bw=$(json "$TMP/slow.json" '.devices[0].bw_bytes_per_s')
diag "throttled to 52428800 B/s, measured $bw B/s"
check "throttled device reported within 5% of 50 MiB/s" -- \
	jtest "$TMP/slow.json" '.devices[0].bw_bytes_per_s | (. / 52428800 - 1) | fabs < 0.05'

# Bad input: a clear message and a non-zero exit, nothing written to the device.
bad() { # bad NAME PATTERN ARGS...
	local name=$1 pattern=$2; shift 2
	"$IOTRIAGE" readdisk "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	local status=$?
	ok $((status == 0)) "$name: non-zero exit ($status)"
	check "$name: says '$pattern'" -- grep -q -- "$pattern" "$TMP/bad.err"
}
echo data >"$TMP/regular"
mkdir "$TMP/dir"
bad "regular file" "is not a block device" "$TMP/regular"
bad "missing path" "no such path" /dev/iotriage-does-not-exist
bad "directory" "is a directory" "$TMP/dir"
bad "--size 0" "must be greater than 0" "$dev" --size 0
bad "--size 10Q" "invalid --size '10Q'" "$dev" --size 10Q
bad "--bs 3" "invalid --bs '3'" "$dev" --bs 3
bad "unknown engine" "unknown engine 'warp'" "$dev" --engine warp
bad "no device" "missing the device" 
bad "two devices" "expected one device" "$dev" "$dev"
bad "unknown option" "unknown option '--frobnicate'" "$dev" --frobnicate
check "regular file left unchanged" -- test "$(cat "$TMP/regular")" = data

finish
