# tests/cli/lib.sh: helpers for command tests. Source it from a test script.
#
# Each test prints TAP lines ("ok N - name", "not ok N - name",
# "ok N - name # SKIP reason"); tests/run.sh counts them. Everything a test
# creates (loop devices, zram devices, cgroups, temp dirs) is registered
# with an undo command and removed by the EXIT trap, on success or failure.

set -u
IOTRIAGE=${IOTRIAGE:?set IOTRIAGE to the iotriage binary}
TAP_N=0
TAP_FAILED=0

TMP=$(mktemp -d /tmp/iotriage-test.XXXXXX)
export IOTRIAGE_STATE_DIR=$TMP/state
# Undo commands go to a file, not a variable: helpers run in $(...) subshells.
UNDO_FILE=$TMP/undo
: >"$UNDO_FILE"
undo() { echo "$*" >>"$UNDO_FILE"; }
cleanup() {
	local line
	if [ -f "$UNDO_FILE" ]; then
		while IFS= read -r line; do eval "$line" >/dev/null 2>&1; done < <(tac "$UNDO_FILE")
	fi
	rm -rf "$TMP"
	echo "1..$TAP_N"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ok() { # ok CONDITION-EXIT-STATUS NAME
	local status=$1; shift
	TAP_N=$((TAP_N + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $TAP_N - $*"
	else
		TAP_FAILED=$((TAP_FAILED + 1))
		echo "not ok $TAP_N - $*"
		return 1
	fi
}
check() { # check NAME -- COMMAND...: ok when COMMAND succeeds
	local name=$1; shift; [ "$1" = "--" ] && shift
	"$@"; ok $? "$name"
}
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"; }
diag() { echo "# $*"; }
diag_file() { # diag_file FILE: its last lines as diagnostics (why a check failed)
	tail -n 15 "$1" 2>/dev/null | sed 's/^/# /'
	return 0
}

need_root() { [ "$(id -u)" -eq 0 ]; }

# make_loop SIZE [SECTOR_SIZE]: a loop device over a file of random data
# (so it reads like a real disk). Prints the device path.
make_loop() {
	local size=$1 sector=${2:-512} img
	img=$(mktemp "$TMP/loop.XXXXXX.img")
	head -c "$size" /dev/urandom >"$img"
	local dev
	dev=$(losetup -f --show --direct-io=on --sector-size "$sector" "$img") || return 1
	undo "losetup -d $dev"
	echo "$dev"
}

# make_zram SIZE|"": a new zram device (never zram0), initialised when SIZE is given.
make_zram() {
	local id
	id=$(cat /sys/class/zram-control/hot_add) || return 1
	undo "echo 1 > /sys/block/zram$id/reset; echo $id > /sys/class/zram-control/hot_remove"
	if [ -n "${1:-}" ]; then
		echo lzo-rle >"/sys/block/zram$id/comp_algorithm" 2>/dev/null
		echo "$1" >"/sys/block/zram$id/disksize" || return 1
	fi
	echo "/dev/zram$id"
}

# remove_cgroup DIR: kills what is still in the cgroup and removes it. A
# process killed a moment ago can stay a member until it is reaped, and a
# plain rmdir then fails (EBUSY) and leaves the group: retry for 10 s.
remove_cgroup() {
	local i pid
	for i in $(seq 100); do
		[ -d "$1" ] || return 0
		for pid in $(cat "$1/cgroup.procs" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
		rmdir "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# make_cgroup RULE: a blkio cgroup with a read_bps rule "MAJ:MIN BPS". Prints its dir.
make_cgroup() {
	local dir=/sys/fs/cgroup/blkio/iotriage-test-$$-$RANDOM
	mkdir "$dir" || return 1
	undo "remove_cgroup $dir"
	echo "$1" >"$dir/blkio.throttle.read_bps_device" || return 1
	echo "$dir"
}

# cap_reads BYTES_PER_S DEV...: a blkio cgroup (as make_cgroup) whose
# members read every DEV at BYTES_PER_S at most; prints its directory, for
# run_in_cgroup. A test that judges rates reads its devices through caps
# well below what the machine gives, so that the verdict under test, not a
# busy machine's noise, decides (a device read at its cap reads steadily).
cap_reads() {
	local rate=$1 dir dev
	shift
	dir=$(make_cgroup "$(lsblk -dno MAJ:MIN "$1" | tr -d ' ') $rate") || return 1
	for dev in "$@"; do
		echo "$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ') $rate" >"$dir/blkio.throttle.read_bps_device" || return 1
	done
	echo "$dir"
}

# rates_seen JSON: each device's path, rate and verdict in a read batch's
# document, one line: what a failing rate check prints.
rates_seen() {
	jq -c '[.devices[]? | {path, mb_per_s: ((.bw_bytes_per_s // 0) / 1e6 | floor), verdict}]' "$1" 2>&1
}

# run_in_cgroup DIR CMD...: runs CMD as a member of the cgroup.
run_in_cgroup() {
	local dir=$1; shift
	bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$dir" "$@"
}

# unprivileged_copy FILE: copies FILE (the binary, or anything else a test
# runs as another user) into a fresh 0755 directory under /tmp that any user
# can reach, registered for removal; prints the copy's path. The clone, its
# build and $TMP may all live in 0700 directories that 'nobody' cannot enter.
unprivileged_copy() {
	local dir
	dir=$(mktemp -d /tmp/iotriage-unpriv.XXXXXX) || return 1
	undo "rm -rf '$dir'"
	chmod 755 "$dir" && install -m 755 "$1" "$dir/" || return 1
	echo "$dir/$(basename "$1")"
}

json() { # json FILE EXPR: evaluate a jq expression, print the raw result
	jq -r "$2" "$1"
}
jtest() { # jtest FILE EXPR: succeeds when the jq expression is true
	jq -e "$2" "$1" >/dev/null 2>&1
}

# destroy_pool NAME: zfs-fuse answers "pool is busy" for a moment after I/O; retry.
destroy_pool() {
	# zfs-fuse says "pool is busy" for a while after heavy writes (dedup,
	# a full pool) and on a loaded machine: retry for up to 30 s, and from
	# the fifth try unmount its datasets (children first) by force first.
	local i ds
	for i in $(seq 1 30); do
		if [ "$i" -ge 5 ]; then
			for ds in $(zfs list -H -o name -r "$1" 2>/dev/null | tac); do
				zfs unmount -f "$ds" >/dev/null 2>&1
			done
		fi
		zpool destroy -f "$1" 2>/dev/null && return 0
		zpool list -H -o name 2>/dev/null | grep -qx "$1" || return 0
		sleep 1
	done
	return 1
}

finish() { [ "$TAP_FAILED" -eq 0 ]; }
