#!/usr/bin/env bash
# Raw-device write guards: a mounted device, an ext4 signature, a zfs-fuse
# pool member, an O_EXCL holder and active swap are all refused with the
# reason, and the device's content is unchanged. A free device is written.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "write guards" "need root for loop devices"; exit 0; fi
build=$(dirname "$IOTRIAGE")

refused() { # refused NAME DEVICE PATTERN [extra args]: write refused, reason shown, content unchanged
	local name=$1 dev=$2 pattern=$3; shift 3
	local before after
	before=$(md5sum <"$dev")
	"$IOTRIAGE" run "$dev" --rw randwrite --bs 4k --size 1M "$@" >/dev/null 2>"$TMP/g.err"
	local status=$?
	ok $((status == 0)) "$name: write refused (exit $status)"
	check "$name: the reason says '$pattern'" -- grep -q -- "$pattern" "$TMP/g.err"
	after=$(md5sum <"$dev")
	check "$name: content hash unchanged" -- test "$before" = "$after"
}

# ext4 signature, not mounted: refused; --force naming the device again overrides.
ext=$(make_loop 64M)
mkfs.ext4 -q -F "$ext"
refused "ext4 signature" "$ext" "carries a signature (ext4)"
refused "ext4 signature, --force naming another device" "$ext" "which is not the target" --force /dev/null
"$IOTRIAGE" run "$ext" --rw randwrite --bs 4k --size 1M --force "$ext" --json >"$TMP/force.json" 2>"$TMP/force.err"
ok $? "--force naming the device again overrides a signature"
check "and warns what it overwrites" -- grep -q "overwriting because of --force: .*ext4" "$TMP/force.err"
check "and wrote 1 MiB" -- jtest "$TMP/force.json" '.result.write.bytes == 1048576'

# Mounted: refused, matched by device number even through another path.
mnt=$(make_loop 64M)
mkfs.ext4 -q -F "$mnt"
mkdir "$TMP/mnt"
# Read-only, so that the file system itself (journal, lazy inode-table
# init) does not change the device's hash while the test watches it.
mount -o ro "$mnt" "$TMP/mnt" && undo "umount $TMP/mnt"
refused "mounted" "$mnt" "mounted on '$TMP/mnt'"
ln -s "$mnt" "$TMP/alias"
refused "mounted, named through a symlink" "$TMP/alias" "mounted on"
refused "mounted, --force does not override" "$mnt" "it is in use" --force "$mnt"

# O_EXCL held by another program.
held=$(make_loop 32M)
"$build/hold_excl" "$held" >"$TMP/held.out" &
holder=$!
undo "kill $holder"
for _ in $(seq 50); do grep -q held "$TMP/held.out" && break; sleep 0.1; done
refused "held with O_EXCL" "$held" "held open exclusively"
kill $holder; wait $holder 2>/dev/null

# Active swap.
sw=$(make_loop 32M)
mkswap -q "$sw" >/dev/null
if swapon "$sw" 2>/dev/null; then
	undo "swapoff $sw"
	refused "active swap" "$sw" "is active swap"
	swapoff "$sw"
else
	skip "active swap" "swapon is not permitted on this machine"
fi

# A zfs-fuse pool member.
if command -v zpool >/dev/null && pgrep -x zfs-fuse >/dev/null; then
	zdev=$(make_loop 128M)
	pool=iotriage-guard-$$
	if zpool create -f "$pool" "$zdev" 2>"$TMP/zpool.err"; then
		undo "destroy_pool $pool"
		refused "zfs pool member" "$zdev" "zfs_member"
		destroy_pool "$pool"
	else
		ok 1 "zpool create on a loop device: $(cat "$TMP/zpool.err")"
	fi
else
	skip "zfs pool member" "zfs-fuse is not running (scripts/start-services.sh starts it)"
fi

# A free device is written, and the write really lands.
free=$(make_loop 32M)
before=$(md5sum <"$free")
"$IOTRIAGE" run "$free" --rw write --bs 1M --size 8M --json >"$TMP/free.json" 2>/dev/null
ok $? "a device with no signature and no users is written"
check "8 MiB written" -- jtest "$TMP/free.json" '.result.write.bytes == 8388608'
check "its content changed" -- test "$(md5sum <"$free")" != "$before"

# Reads never need the guard and never open for writing.
"$IOTRIAGE" run "$mnt" --rw randread --size 4M >/dev/null 2>&1
ok $? "a read workload on a mounted device is allowed"

finish
