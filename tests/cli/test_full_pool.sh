#!/usr/bin/env bash
# Full pools: a 200 MiB zfs-fuse pool asked for benchpool 1G refuses with
# the free space and the need (exit 1, nothing created, no claim of
# completion); a 200 MiB btrfs file system that fills up while rwpool and
# benchpool write into it (another writer takes the rest once iotriage's
# area exists; iotriage's O_DIRECT writes are slowed to 10 MB/s by a blkio
# cgroup so that the other writer is first to the end) ends each test with
# "the pool is full: ..." and where, the other test goes on, the areas are
# removed, exit 1, and the document is complete.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "full pools" "needs root for loop devices, zfs-fuse, mounts and cgroups"; exit 0; fi

if command -v zpool >/dev/null && pgrep -x zfs-fuse >/dev/null; then
	z=$(make_loop 200M)
	pool=iotriage-full-$$
	zpool create -f "$pool" "$z" >/dev/null 2>&1
	ok $? "zpool create on a 200 MiB loop device"
	undo "destroy_pool $pool"
	zmnt=$(zfs get -H -o value mountpoint "$pool")
	"$IOTRIAGE" benchpool "$pool" 1G --json >"$TMP/z.json" 2>"$TMP/z.err"
	check "benchpool 1G on 200 MiB: exit 1" -- test $? -eq 1
	check "saying how much is free and how much the tests need" -- \
		grep -Eq "BENCHPOOL \($pool\): not enough free space: [0-9.]+ MiB free, the tests need 2.1 GiB; pass a smaller SIZE" "$TMP/z.err"
	check "and not that benchmarking completed" -- bash -c "! grep -q 'Benchmarking complete' '$TMP/z.err' && grep -q 'Benchmarking failed' '$TMP/z.err'"
	check "the document is complete" -- jtest "$TMP/z.json" '.command == "benchpool"'
	check "no dataset is left" -- test "$(zfs list -H -r -o name "$pool" | wc -l)" -eq 1
	check "nothing is left in the mount point" -- test -z "$(ls -A "$zmnt")"
else
	skip "benchpool 1G on a 200 MiB zfs-fuse pool" "zfs-fuse is not running (scripts/start-services.sh starts it)"
fi

if ! command -v mkfs.btrfs >/dev/null; then
	skip "full btrfs" "btrfs-progs is not installed (scripts/install-deps.sh installs it)"
	finish
	exit 0
fi
b=$(make_loop 200M)
label=iotriage-fullb-$$
mkfs.btrfs -q -f -L "$label" "$b" >/dev/null 2>&1
bmnt=$TMP/btrfs
mkdir "$bmnt" && mount "$b" "$bmnt"
ok $? "a 200 MiB btrfs mounted"
undo "umount $bmnt"
cg=/sys/fs/cgroup/blkio/iotriage-test-full-$$
mkdir "$cg" && undo "remove_cgroup $cg"
echo "$(stat -c '%Hr:%Lr' "$b") 10485760" >"$cg/blkio.throttle.write_bps_device"
ok $? "iotriage's writes to it slowed to 10 MB/s"

# fill_when_started PATTERN: once iotriage's area exists, another writer takes the rest.
fill_when_started() {
	for _ in $(seq 400); do
		compgen -G "$bmnt/$1" >/dev/null && break
		sleep 0.05
	done
	sleep 0.3
	dd if=/dev/zero of="$bmnt/hog" bs=1M count=400 oflag=direct 2>/dev/null
}

run_in_cgroup "$cg" "$IOTRIAGE" rwpool "$label" --size 50M --json >"$TMP/rw.json" 2>"$TMP/rw.err" &
pid=$!
fill_when_started 'iotriage-*-rwpool/iotriage-rwpool.dat'
wait $pid
check "rwpool on a pool that fills up: exit 1" -- test $? -eq 1
rm -f "$bmnt/hog"
diag "$(jq -r ".pools[0].reason" "$TMP/rw.json" 2>&1)"
check "the reason: the pool is full, writing which file at which byte" -- \
	jtest "$TMP/rw.json" '.pools[0].status == "error" and (.pools[0].reason | test("^the pool is full: writing .*/iotriage-rwpool.dat. at byte [0-9]+, after [0-9]+ bytes written: No space left on device$"))'
check "logged as an error" -- grep -q "ERR, iotriage} RWPOOL ($label): the pool is full: " "$TMP/rw.err"
check "nothing is left in the file system" -- test -z "$(ls -A "$bmnt")"

sync
run_in_cgroup "$cg" "$IOTRIAGE" benchpool "$label" 20M --tests fio,dd,builtin --json >"$TMP/bp.json" 2>"$TMP/bp.err" &
pid=$!
fill_when_started 'iotriage-*-1m'
wait $pid
check "benchpool on a pool that fills up: exit 1" -- test $? -eq 1
diag "$(jq -c '[.results[] | {test, status, reason}]' "$TMP/bp.json" 2>/dev/null)"
check "the built-in test ends with: the pool is full" -- \
	jtest "$TMP/bp.json" '.results[] | select(.test == "builtin") | .status == "failed" and (.reason | test("^the pool is full: writing .* No space left on device$"))'
check "every selected test ran (fio, dd, builtin), and each that failed says the pool is full" -- \
	jtest "$TMP/bp.json" '([.results[].test] == ["fio", "dd", "builtin"]) and all(.results[]; .status == "ok" or (.status == "failed" and (.reason | startswith("the pool is full: "))))'
check "not claimed complete" -- bash -c "! grep -q 'Benchmarking complete' '$TMP/bp.err'"
rm -f "$bmnt/hog"
check "the areas (subvolumes) are removed: nothing is left" -- test -z "$(ls -A "$bmnt")"
check "no subvolume is left" -- test -z "$(btrfs subvolume list "$bmnt")"

finish
