#!/usr/bin/env bash
# demo: throwaway loop devices, one throttled; found; everything removed,
# also when interrupted or killed.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "demo tests" "need root for loop devices and cgroups"; exit 0; fi

# The demo's loop devices are backed by unnamed files in /var/tmp
# (O_TMPFILE): count only those, so another program's loop devices do not
# move the count.
demo_loops() { losetup -a | grep -c '/var/tmp/#' || true; }
loops_before=$(demo_loops)
"$IOTRIAGE" demo --device-size 64M --slow-rate 16M --json >"$TMP/demo.json" 2>"$TMP/demo.err"
ok $? "demo exits 0"
check "four devices read" -- jtest "$TMP/demo.json" '.summary.ok == 4'
check "the slowed device stands out" -- jtest "$TMP/demo.json" '.demo.slowed_device_stands_out == true'
check "it is reported near its 16 MiB/s limit" -- \
	jtest "$TMP/demo.json" '.demo.slowed_device as $s | .devices[] | select(.path == $s) | (.bw_bytes_per_s / 16777216 - 1) | fabs < 0.1'
check "no loop device left" -- test "$(demo_loops)" = "$loops_before"
check "no iotriage cgroup left" -- bash -c "! ls -d /sys/fs/cgroup/blkio/iotriage-* 2>/dev/null"

# SIGINT in the middle of the slow read: cleanup runs, exit 130.
"$IOTRIAGE" demo --device-size 256M --slow-rate 8M >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 100); do grep -q "starting" "$TMP/int.err" 2>/dev/null && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
ok $(($? != 130)) "an interrupted demo exits 130"
check "and removed its devices" -- test "$(demo_loops)" = "$loops_before"
check "and its cgroup" -- bash -c "! ls -d /sys/fs/cgroup/blkio/iotriage-* 2>/dev/null"
check "and logged the removal" -- grep -q "DEMO: removing" "$TMP/int.err"

# SIGKILL: the kernel detaches the self-clearing loop devices; the next run
# removes the empty cgroup left behind.
"$IOTRIAGE" demo --device-size 256M --slow-rate 8M >/dev/null 2>"$TMP/kill.err" &
pid=$!
for _ in $(seq 100); do grep -q "starting" "$TMP/kill.err" 2>/dev/null && break; sleep 0.1; done
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
for _ in $(seq 50); do [ "$(demo_loops)" = "$loops_before" ] && break; sleep 0.1; done
check "after SIGKILL no loop device is left" -- test "$(demo_loops)" = "$loops_before"
left=$(ls -d /sys/fs/cgroup/blkio/iotriage-* 2>/dev/null | wc -l)
"$IOTRIAGE" demo --count 2 --device-size 16M >/dev/null 2>"$TMP/next.err"
ok $? "the next demo runs"
if [ "$left" -gt 0 ]; then
	check "and removes the killed run's empty cgroup" -- grep -q "removed 1 empty blkio cgroup" "$TMP/next.err"
fi
check "nothing is left after it" -- bash -c "! ls -d /sys/fs/cgroup/blkio/iotriage-* 2>/dev/null"

"$IOTRIAGE" demo --count 9 >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "--count 9 is a usage error"
check "and says the range" -- grep -q "expected 2 to 8" "$TMP/bad.err"
"$IOTRIAGE" demo --device-size 10Q >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "--device-size 10Q is a usage error"
check "and says what is expected" -- grep -q "invalid --device-size '10Q'" "$TMP/bad.err"
"$IOTRIAGE" demo --slow-rate 10 >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "--slow-rate below 1M is a usage error"
check "and says the minimum" -- grep -q "expected at least 1M" "$TMP/bad.err"
check "no loop device left by the refused runs" -- test "$(demo_loops)" = "$loops_before"

finish
