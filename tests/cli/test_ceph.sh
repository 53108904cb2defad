#!/usr/bin/env bash
# benchpool on a real Ceph cluster (tests/ceph/cluster.sh: one mon, one mgr,
# three BlueStore OSDs on loop devices, CephFS through ceph-fuse), started
# once: an RBD pool (fio through its rbd engine in a tagged image) and a
# CephFS mount (a tagged directory: fio, dd, the built-in engine), figures
# for every test that applies and the cluster's state in the results file;
# SIGINT leaves no image or directory; a SIGKILLed run's image is removed by
# the next run while an untagged look-alike is kept; a missing pool, a
# cluster that does not answer and missing tools are clear errors that make
# nothing; and the cluster is gone at the end.
# The Ceph step: osd.1 held to 20 MiB/s by a blkio cgroup is named by
# benchpool and doctor with its device and host, readpooldisks reads the
# OSDs' devices, no OSD is named once it is free, a pool with size 1 gets its
# data-safety finding, and an OSD out with recovery held makes doctor name
# the cluster's state (its network step skipped: every OSD is here).
# An OSD on another host: osd.2 restarted under host name h1, and h1 an ssh
# host (fleetlab_host_here): readpooldisks and doctor read its device there
# over ssh, judged with the local two; h1 unreachable fails osd.2 alone with
# h1's reason; doctor's network step probes h1's addresses and, nothing
# standing out, its next step is Ceph's. An unknown pool name with the
# configured cluster down fails at once (its monitor probed for 1 s).
# The cluster costs 25-30 s to start and its runs about four minutes more:
# one pass is enough (tests/run.sh); the plain one (the sanitized build
# passes it too: 67 of 67 when the Ceph step was added).
# run-once: plain
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../ceph/cluster.sh"
. "$(dirname "$0")/fleetlab.sh"

if ! need_root; then skip "ceph" "needs root for loop devices and FUSE"; exit 0; fi
for tool in ceph-mon ceph-osd ceph-mds ceph-fuse rbd fio; do
	if ! command -v "$tool" >/dev/null; then
		skip "ceph" "$tool is missing (scripts/install-test-deps.sh installs it)"
		exit 0
	fi
done
if ! fio --enghelp 2>/dev/null | grep -qw rbd; then skip "ceph" "this fio has no rbd engine"; exit 0; fi

C=$TMP/ceph
undo "ceph_cluster_stop $C"
t0=$SECONDS
ceph_cluster_start "$C"
ok $? "the test cluster comes up (mon, mgr, 3 OSDs, RBD pool, CephFS on ceph-fuse)"
diag "cluster start: $((SECONDS - t0)) s"
[ -n "${CEPH_CONF:-}" ] && mountpoint -q "$C/mnt" || { finish; exit 1; }
check "its health is HEALTH_OK" -- bash -c '[ "$(ceph health)" = HEALTH_OK ]'

images() { rbd ls rbd 2>/dev/null | grep '^iotriage-' || true; }
dirs() { find "$C/mnt" -maxdepth 1 -name 'iotriage-*' 2>/dev/null; }

# ---- RBD ----
"$IOTRIAGE" benchpool rbd 64M --runtime 3 --json >"$TMP/rbd.json" 2>"$TMP/rbd.err"
ok $? "benchpool on the RBD pool exits 0"
diag_file "$TMP/rbd.err"
check "detected as Ceph" -- jtest "$TMP/rbd.json" '.fstype == "ceph" and .pool == "rbd"'
check "fio ran through the rbd engine, both passes, every figure above 0" -- jtest "$TMP/rbd.json" \
	'.results[0].test == "fio" and .results[0].status == "ok" and (.results[0].figures | length == 4 and all(.bw_bytes_per_s > 0 and .bytes > 0))
	 and .results[0].fio_json.throughput.jobs[0]["job options"].ioengine == "rbd"
	 and .results[0].fio_json.random.jobs[0]["job options"].rbdname == (.areas[0] | sub("^rbd/"; ""))'
check "the tests without a file system are skipped with the reason" -- jtest "$TMP/rbd.json" \
	'[.results[1:][] | select(.status == "skipped" and (.reason | test("RBD image has no file system")))] | length == 4'
check "its area was an RBD image named with the run" -- jtest "$TMP/rbd.json" \
	'(.areas | length == 1) and (.areas[0] | test("^rbd/iotriage-[0-9a-f]+-rbd$"))'
check "the results file has ceph status, health detail, osd tree, osd df and the pool's settings" -- jtest "$TMP/rbd.json" \
	'(.pool_status | test("[$] ceph status\n") and test("health: HEALTH_OK") and test("[$] ceph health detail") and test("[$] ceph osd tree")
	  and test("[$] ceph osd df") and test("[$] ceph osd pool get rbd all"))'
check "and what the JSON said: health, 3 OSDs up, size 3, min_size 2, 8 PGs, the crush rule" -- jtest "$TMP/rbd.json" \
	'.ceph.health == "HEALTH_OK" and .ceph.osds_up == 3 and .ceph.size == 3 and .ceph.min_size == 2 and .ceph.pg_num == 8 and .ceph.crush_rule == "replicated_rule"'
check "no image left" -- test -z "$(images)"
"$IOTRIAGE" benchpool rbd 16M --tests fio --runtime 1 >"$TMP/rbd.txt" 2>/dev/null
check "on the terminal: the cluster's health and the pool's settings under the table" -- \
	grep -q "^Ceph: HEALTH_OK, 3 of 3 OSDs up, 3 in; pool rbd: size 3, min_size 2, pg_num 8, crush rule replicated_rule" "$TMP/rbd.txt"

# ---- CephFS ----
"$IOTRIAGE" benchpool "$C/mnt" 32M --tests fio,dd,builtin --runtime 3 --json >"$TMP/fs.json" 2>"$TMP/fs.err"
ok $? "benchpool on the CephFS mount exits 0"
diag_file "$TMP/fs.err"
check "detected as Ceph (ceph-fuse)" -- jtest "$TMP/fs.json" '.fstype == "ceph"'
check "fio, dd and the built-in engine ran, every figure above 0" -- jtest "$TMP/fs.json" \
	'[.results[] | select(.status == "ok" and (.figures | length > 0 and all(.bw_bytes_per_s > 0))) | .test] == ["fio", "dd", "builtin"]'
check "its areas were tagged directories in the mount" -- jtest "$TMP/fs.json" \
	"(.areas | length == 2) and all(.areas[]; startswith(\"$C/mnt/iotriage-\"))"
check "ceph status and the data pool's settings in the results file" -- jtest "$TMP/fs.json" \
	'(.pool_status | test("[$] ceph status") and test("[$] ceph osd pool get cephfs_data all")) and .ceph.pool == "cephfs_data" and .ceph.size == 3'
check "no directory left" -- test -z "$(dirs)"

# ---- SIGINT during a test ----
sigint() { # sigint WHAT POOL SIZE TESTS [SIGNAL]: the signal once the test runs; its exit status
	"$IOTRIAGE" benchpool "$2" "$3" --tests "$4" --runtime 30 >/dev/null 2>"$TMP/int-$1.err" &
	local pid=$! i
	for i in $(seq 1 200); do pgrep -P "$pid" -x fio >/dev/null && break; sleep 0.1; done
	sleep 1
	kill -"${5:-INT}" "$pid"
	wait "$pid"
}
sigint rbd rbd 64M fio
check "SIGINT during fio on RBD: exit 130" -- test $? -eq 130
check "and no image left" -- test -z "$(images)"
sigint rbd-term rbd 64M fio TERM
check "SIGTERM during fio on RBD: exit 143" -- test $? -eq 143
check "and no image left" -- test -z "$(images)"
sigint fs "$C/mnt" 32M fio
check "SIGINT during fio on CephFS: exit 130" -- test $? -eq 130
check "and no directory left" -- test -z "$(dirs)"

# ---- SIGKILL: the next run removes the image; a look-alike stays ----
rbd create --size 16M rbd/iotriage-lookalike
undo "rbd rm --no-progress rbd/iotriage-lookalike"
# 512M: its fio (the throughput pass first) still runs when the next run looks
"$IOTRIAGE" benchpool rbd 512M --tests fio --runtime 30 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do pgrep -P "$pid" -x fio >/dev/null && break; sleep 0.1; done
killed=$(rbd ls rbd | grep '^iotriage-[0-9a-f]*-rbd$')
fios=$(pgrep -P "$pid" -x fio)
kill -KILL "$pid"
wait "$pid" 2>/dev/null
# fio runs on after its parent died, holding the image's watch; the next
# run stops it (found by the image's name in its arguments). Stopped, it
# may stay a zombie: this machine's PID 1 does not reap orphans.
undo "kill -KILL $fios 2>/dev/null"
check "the SIGKILLed run left its image" -- test -n "$killed"
check "and its fio running on it" -- bash -c "[ -n '$fios' ] && kill -0 $fios"
"$IOTRIAGE" benchpool rbd 32M --tests fio --runtime 2 --json >"$TMP/next.json" 2>"$TMP/next.err"
ok $? "the next run exits 0"
check "it stopped the killed run's fio and said so" -- bash -c \
	'st=$(ps -o stat= -p $1); { [ -z "$st" ] || [[ $st == Z* ]]; } && grep -Eq "stopped [0-9]+ programs? \(pid [0-9]+(, \.\.\.)?\) the interrupted run left running on .rbd/$2." "$3"' \
	_ "$fios" "$killed" "$IOTRIAGE_STATE_DIR/iotriage.log"
check "it removed the killed run's image and said so" -- bash -c \
	'jq -e ".stale_areas_removed == 1" "$1" >/dev/null && grep -q "removed RBD image .rbd/$2. left by an interrupted run" "$3"' \
	_ "$TMP/next.json" "$killed" "$IOTRIAGE_STATE_DIR/iotriage.log" || { diag "killed: $killed"; diag_file "$IOTRIAGE_STATE_DIR/iotriage.log"; }
check "the image is gone" -- bash -c '! rbd ls rbd | grep -qx "$1"' _ "$killed"
check "an image iotriage did not make (no owner tag) is kept" -- bash -c 'rbd ls rbd | grep -qx iotriage-lookalike'
rbd rm --no-progress rbd/iotriage-lookalike >/dev/null 2>&1

# ---- bad input: nothing created ----
"$IOTRIAGE" benchpool --fstype ceph nopool 32M >/dev/null 2>"$TMP/nopool.err"
check "a pool that does not exist: exit 1" -- test $? -eq 1
check "the error lists the pools that do" -- grep -q "no Ceph pool named 'nopool'; the cluster's pools: .*rbd.*cephfs_data" "$TMP/nopool.err"
printf '[global]\nmon host = v2:127.0.0.1:40999\nkeyring = %s\n' "$C/keyring" >"$TMP/dead.conf"
t0=$SECONDS
CEPH_CONF=$TMP/dead.conf "$IOTRIAGE" benchpool --fstype ceph rbd 32M >/dev/null 2>"$TMP/dead.err"
rc=$?
check "a cluster that does not answer: exit 1 within the time limit" -- test "$rc" -eq 1 -a $((SECONDS - t0)) -le 20
check "the error says it does not answer" -- grep -q "the Ceph cluster does not answer within 10 s" "$TMP/dead.err"
t0=$SECONDS
CEPH_CONF=$TMP/dead.conf "$IOTRIAGE" readpooldisks nosuchpool -s 16M >/dev/null 2>"$TMP/fastno.err"
rc=$?
check "an unknown pool name, the configured cluster down: exit 1 within 3 s (its monitor probed for 1 s, not the tools' 10 s)" -- \
	test "$rc" -eq 1 -a $((SECONDS - t0)) -le 3
check "the usual error, and why Ceph was not asked" -- bash -c \
	'grep -q "no ZFS pool or btrfs file system named .nosuchpool." "$1" && grep -q "not asking the Ceph cluster about .nosuchpool.: its monitors do not take a connection within 1000 ms: 127.0.0.1:40999" "$1"' \
	_ "$TMP/fastno.err" || diag_file "$TMP/fastno.err"
mkdir "$TMP/bin" && ln -s "$(command -v fio)" "$TMP/bin/fio"
PATH=$TMP/bin "$IOTRIAGE" benchpool --fstype ceph rbd 32M >/dev/null 2>"$TMP/notools.err"
check "no ceph tools: exit 1" -- test $? -eq 1
check "the error says what to install" -- grep -q "not installed: install ceph-common" "$TMP/notools.err"
"$IOTRIAGE" benchpool --fstype ceph "$TMP" 32M >/dev/null 2>"$TMP/notceph.err"
check "--fstype ceph on a directory elsewhere: exit 1" -- test $? -eq 1
check "the error says it is not CephFS" -- grep -q "is on .*, not CephFS" "$TMP/notceph.err"
check "none of them made an image or directory" -- bash -c \
	'[ -z "$1" ] && ! ls -d "$2"/iotriage-* >/dev/null 2>&1' _ "$(images)$(dirs)" "$TMP"

# ---- the Ceph step: each OSD benched, the slow one named ----
# osd.1's process moved into a blkio cgroup that holds its reads and writes
# of its loop device to 20 MiB/s (tests/ceph/cluster.sh slow): its benches
# run at about 3% of its peers'.
dev1=$(ceph osd metadata 1 --format json | jq -r .bluestore_bdev_dev_node)
host=$(hostname -s)
osd1="osd.1 ($dev1 on host $host)"
ceph_cluster_slow_osd "$C" 1 20971520
ok $? "osd.1 held to 20 MiB/s (its process in a blkio cgroup on $dev1)"
"$IOTRIAGE" benchpool rbd 16M --tests fio --runtime 1 --json >"$TMP/slow-bp.json" 2>"$TMP/slow-bp.err"
ok $? "benchpool on the pool with osd.1 held exits 0"
check "benchpool names osd.1 as the slow OSD, alone" -- jtest "$TMP/slow-bp.json" \
	'.ceph_osds.slow_osd == "osd.1" and ([.ceph_osds.osds[] | select(.verdict == "slow") | .name] == ["osd.1"])' ||
	diag "$(jq -c '[.ceph_osds.osds[] | {name, bw_bytes_per_s, verdict}]' "$TMP/slow-bp.json")"
check "its finding names its device and host, with the fix" -- jtest "$TMP/slow-bp.json" \
	"[.ceph_osds.findings[] | select(.code == \"osd-slow\" and .subject == \"$osd1\" and (.fix | test(\"readdisk $dev1\")))] | length == 1"
check "every bench of osd.1 out of line, under half its peers' median" -- jtest "$TMP/slow-bp.json" \
	'.ceph_osds.osds[] | select(.name == "osd.1") | .benches_out_of_line == (.bench_bw_bytes_per_s | length) and .benches_out_of_line == 4 and .ratio < 0.5'
check "ceph osd perf: osd.1's commit latency above each peer's" -- jtest "$TMP/slow-bp.json" \
	'(.ceph_osds.osds | map({(.name): .commit_latency_ms}) | add) as $l | $l["osd.1"] > $l["osd.0"] and $l["osd.1"] > $l["osd.2"]'
check "the log says it" -- grep -q "WARN, iotriage} BENCHPOOL (rbd): osd-slow: $osd1 writes at" "$TMP/slow-bp.err"
"$IOTRIAGE" doctor --quick --no-network rbd --json >"$TMP/slow-dr.json" 2>"$TMP/slow-dr.err"
ok $? "doctor on the pool exits 0"
check "doctor: the media layer, osd.1 with its device and host" -- jtest "$TMP/slow-dr.json" \
	".doctor.verdict.layer == \"media\" and .doctor.verdict.subject == \"$osd1\"" ||
	diag "$(jq -c '.doctor.verdict' "$TMP/slow-dr.json")"
check "its evidence: the bench against its peers, perf's latency, and its device read raw at its peers' rate" -- jtest "$TMP/slow-dr.json" \
	'.doctor.verdict.evidence | test("ceph tell osd.1 bench") and test("4 of 4 benches out of line") and test("commit latency") and test("reads normally raw")'
check "step 1 read the three OSDs' devices raw, as the pool's members" -- jtest "$TMP/slow-dr.json" \
	'[.devices[] | select(.status == "ok")] | length == 3'
check "it stopped there: the steps above the media did not run" -- jtest "$TMP/slow-dr.json" \
	'[.doctor.steps[] | .state] == ["ran", "not run", "not run", "not run"]'
"$IOTRIAGE" readpooldisks rbd -s 16M --json >"$TMP/rpd.json" 2>"$TMP/rpd.err"
ok $? "readpooldisks on the Ceph pool exits 0"
check "it reads each OSD's device raw, named after its OSD, grouped by host" -- jtest "$TMP/rpd.json" \
	"(.pool.fstype == \"ceph\") and ([.pool.members[] | .name] == [\"osd.0\", \"osd.1\", \"osd.2\"]) and
	 ([.pool.members[] | .vdev] | unique == [\"$host\"]) and ([.devices[] | select(.status == \"ok\")] | length == 3)
	 and (.pool.members[1].path == \"$dev1\")"
ceph_cluster_unslow_osd "$C" 1
ok $? "osd.1 free again"
"$IOTRIAGE" benchpool rbd 16M --tests fio --runtime 1 --json >"$TMP/free-bp.json" 2>"$TMP/free-bp.err"
check "with no OSD held, benchpool names none" -- jtest "$TMP/free-bp.json" \
	'.ceph_osds.slow_osd == null and ([.ceph_osds.osds[] | select(.verdict == "slow" or .verdict == "no answer")] | length == 0)
	 and ([.ceph_osds.osds[] | select(.bw_bytes_per_s > 0)] | length == 3) and (.ceph_osds.findings | length == 0)' ||
	diag "$(jq -c '[.ceph_osds.osds[] | {name, bw_bytes_per_s, verdict}]' "$TMP/free-bp.json")"

# ---- an OSD on another host: read there through the fleet ----
# osd.2 restarted under host name h1 (its own UTS namespace, this network
# namespace: it still reaches the monitor on 127.0.0.1), and h1 an ssh host:
# an sshd on 127.0.0.1 in a mount and UTS namespace of its own, with its own
# iotriage (tests/cli/fleetlab.sh: fleetlab_host_here), sharing /dev, so
# osd.2's device has the same path there.
if why=$(fleetlab_need); then
	fleetlab_files && fleetlab_host_here h1 && fleetlab_config
	ok $? "h1: an sshd on 127.0.0.1 in a UTS and mount namespace of its own"
	dev2=$(ceph osd metadata 2 --format json | jq -r .bluestore_bdev_dev_node)
	ceph_cluster_osd_host "$C" 2 h1
	ok $? "osd.2 restarted under host name h1 (ceph osd metadata says so)"
	remote=(-F "$FLEET_SSH_CONFIG.all" --remote-iotriage "$FLEET_FIX/bin/iotriage")
	"$IOTRIAGE" readpooldisks rbd -s 16M "${remote[@]}" --json >"$TMP/rpd-h1.json" 2>"$TMP/rpd-h1.err"
	ok $? "readpooldisks on the pool with osd.2 on h1 exits 0"
	diag_file "$TMP/rpd-h1.err"
	check "osd.2's device is read on host h1, named with its host" -- jtest "$TMP/rpd-h1.json" \
		"(.pool.members[2] | .name == \"osd.2\" and .vdev == \"h1\" and .read_on_host == \"h1\" and .path == \"$dev2\" and .not_read == null)
		 and (.devices[2] | .host == \"h1\" and .status == \"ok\" and .path == \"$dev2\" and .bytes == 16777216 and .bw_bytes_per_s > 0
		      and .lat_ns.count == 16 and .lat_ns.p99 > 0)" ||
		diag "$(jq -c '[.devices[] | {path, host, status, reason, bytes}]' "$TMP/rpd-h1.json")"
	check "the figures came over ssh: h1's iotriage ran readdisk there and kept its own run" -- bash -c \
		'grep -q "READ-DISK ($1): completed on host h1" "$2" && ls "$3"/results/iotriage_readdisk_*.json >/dev/null' \
		_ "$dev2" "$IOTRIAGE_STATE_DIR/iotriage.log" "$FLEET_DIR/h1/state"
	check "the local OSDs read here, the three judged together" -- jtest "$TMP/rpd-h1.json" \
		'([.devices[0,1] | select(.status == "ok" and .host == null)] | length == 2) and .summary.ok == 3
		 and ([.devices[] | select(.peers.set_size == 3)] | length == 3)'
	"$IOTRIAGE" readpooldisks rbd -s 16M "${remote[@]}" >"$TMP/rpd-h1.txt" 2>/dev/null
	check "on the terminal: h1:$dev2 in the table, and h1 among the hosts" -- bash -c \
		'grep -q "^h1:$1 " "$2" && grep -q "^h1  *osd.2 [0-9]* MB/s" "$2"' _ "$dev2" "$TMP/rpd-h1.txt" || diag_file "$TMP/rpd-h1.txt"
	# h1 unreachable: its own error, the other OSDs still read.
	sed 's/^  Port .*/  Port 40799/' "$FLEET_SSH_CONFIG.all" >"$TMP/dead_ssh_config"
	"$IOTRIAGE" readpooldisks rbd -s 16M -F "$TMP/dead_ssh_config" --remote-iotriage "$FLEET_FIX/bin/iotriage" --json \
		>"$TMP/rpd-dead.json" 2>"$TMP/rpd-dead.err"
	check "h1 unreachable: readpooldisks exits 1" -- test $? -eq 1
	check "osd.2's read fails with h1's own reason; osd.0 and osd.1 are read" -- jtest "$TMP/rpd-dead.json" \
		'(.devices[2] | .status == "error" and (.reason | test("^on host h1, read over ssh: unreachable: .*Connection refused")))
		 and ([.devices[0,1] | select(.status == "ok")] | length == 2)' ||
		diag "$(jq -c '[.devices[] | {path, host, status, reason}]' "$TMP/rpd-dead.json")"
	"$IOTRIAGE" doctor --quick rbd "${remote[@]}" --json >"$TMP/h1-dr.json" 2>"$TMP/h1-dr.err"
	ok $? "doctor on the pool with osd.2 on h1 exits 0"
	check "doctor's step 1 read osd.2's device on h1 with the local two" -- jtest "$TMP/h1-dr.json" \
		'([.devices[] | select(.status == "ok")] | length == 3) and .devices[2].host == "h1"'
	check "its network step probed h1's public and cluster addresses (osd.2's front and back, 127.0.0.1 here)" -- \
		jtest "$TMP/h1-dr.json" '.doctor.steps[1].state == "ran" and (.doctor.steps[1].summary | test("towards the OSDs. hosts h1"))' ||
		diag "$(jq -c '.doctor.steps[1]' "$TMP/h1-dr.json")"
	check "no layer stands out, and the next step is Ceph's, not ZFS's tuning" -- jtest "$TMP/h1-dr.json" \
		'.doctor.verdict.layer == "none" and (.doctor.verdict.next | test("the Ceph path") and (test("record size") | not))' ||
		diag "$(jq -c '.doctor.verdict' "$TMP/h1-dr.json")"
	ceph_cluster_osd_host "$C" 2
	ok $? "osd.2 back under this host's name"
else
	skip "an OSD on another host" "$why"
fi

# ---- a pool with size 1 ----
ceph config set global mon_allow_pool_size_one true >/dev/null 2>&1
ceph osd pool create one 1 1 replicated >/dev/null 2>&1 && ceph osd pool application enable one rbd >/dev/null 2>&1 &&
	ceph osd pool set one size 1 --yes-i-really-mean-it >/dev/null 2>&1
ok $? "a pool 'one' with size 1 and one PG"
"$IOTRIAGE" benchpool one 16M --tests fio --runtime 1 --json >"$TMP/one.json" 2>"$TMP/one.err"
ok $? "benchpool on it exits 0"
check "the data-safety finding, with its fix" -- jtest "$TMP/one.json" \
	'[.ceph_osds.findings[] | select(.code == "size-1" and .subject == "one" and (.text | test("data safety")) and (.fix | test("size 3")))] | length == 1'
check "and too few PGs for three OSDs" -- jtest "$TMP/one.json" '[.ceph_osds.findings[] | select(.code == "too-few-pgs")] | length == 1'
ceph osd pool delete one one --yes-i-really-really-mean-it >/dev/null 2>&1

# ---- an OSD out, recovery held: the cluster's state named ----
timeout 60 rados bench -p rbd 2 write --no-cleanup -b 1048576 >/dev/null 2>&1
ceph osd set norecover >/dev/null 2>&1 && ceph osd set nobackfill >/dev/null 2>&1 && ceph osd out 2 >/dev/null 2>&1
ok $? "osd.2 marked out with norecover and nobackfill set"
for _ in $(seq 1 30); do ceph status --format json | jq -e '.pgmap.misplaced_objects > 0' >/dev/null 2>&1 && break; sleep 1; done
"$IOTRIAGE" doctor --quick rbd --json >"$TMP/out-dr.json" 2>"$TMP/out-dr.err"
ok $? "doctor exits 0"
check "doctor names the pool layer: the cluster's state, no OSD" -- jtest "$TMP/out-dr.json" \
	'.doctor.verdict.layer == "pool" and (.doctor.verdict.subject | test("Ceph cluster")) and .doctor.ceph_osds.slow_osd == null' ||
	diag "$(jq -c '.doctor.verdict' "$TMP/out-dr.json")"
check "its evidence: the flags and the misplaced objects; its next step: unset them" -- jtest "$TMP/out-dr.json" \
	'(.doctor.verdict.evidence | test("norecover") and test("objects misplaced")) and (.doctor.verdict.next | test("ceph osd unset"))'
check "every OSD on this host: the network step is skipped, saying there is no network between client and OSDs" -- \
	jtest "$TMP/out-dr.json" '.doctor.steps[1].state == "skipped" and (.doctor.steps[1].summary | test("every OSD of pool rbd is on this host.*no network between this client and the OSDs"))' ||
	diag "$(jq -c '.doctor.steps[1]' "$TMP/out-dr.json")"
check "no RAM twin for a Ceph pool: step 3 skipped, saying why; step 4 ran fio on it" -- jtest "$TMP/out-dr.json" \
	'.doctor.steps[2].state == "skipped" and (.doctor.steps[2].summary | test("no RAM twin")) and .doctor.steps[3].state == "ran"
	 and .doctor.figures.pool_read_bw_bytes_per_s > 0'

# ---- the cluster goes whole ----
t0=$SECONDS
ceph_cluster_stop "$C"
ok $? "the cluster stops"
diag "cluster stop: $((SECONDS - t0)) s"
check "no daemon of it is left" -- bash -c '! pgrep -f -- "$1/ceph.conf" >/dev/null' _ "$C"
check "no mount" -- bash -c '! grep -q " $1/mnt " /proc/mounts' _ "$C"
check "no loop device over its files" -- bash -c '! losetup -a | grep -q "$1/"' _ "$C"
check "no directory" -- test ! -e "$C"
finish
