#!/usr/bin/env bash
# volumes on real file systems built on loop devices: a zfs-fuse pool with
# two datasets (one compressed), a btrfs file system with a subvolume, an
# ext4 file system (and a bind mount of it), a read-only ext4 and a tiny one.
# One row per mount with a measured figure, the right pool, mapping, mount
# and cache label; nothing left behind, also after SIGINT and SIGKILL.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "volumes" "need root for loop devices, mounts and zfs-fuse"; exit 0; fi
for tool in zpool mkfs.btrfs mkfs.ext4 jq; do
	if ! command -v $tool >/dev/null; then skip "volumes" "$tool is not installed (scripts/install-deps.sh)"; exit 0; fi
done
if ! pgrep -x zfs-fuse >/dev/null; then
	skip "volumes" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi

M=$TMP/mnt
mkdir -p "$M"
# mount_fs DEV DIR [OPTIONS]: mounts DEV on DIR and registers the unmount.
mount_fs() {
	mkdir -p "$2"
	mount ${3:+-o "$3"} "$1" "$2" || return 1
	undo "umount '$2'"
}

z=$(make_loop 192M)
pool=iotriage-voltest-$$
zpool create -f -m "$M/zfs" "$pool" "$z" >/dev/null 2>&1
ok $? "zpool create on a loop device"
undo "destroy_pool $pool"
zfs create "$pool/plain" && zfs create -o compression=on "$pool/comp"
ok $? "two datasets, one with compression"

b=$(make_loop 300M)
label=iotriage-volbtr-$$
mkfs.btrfs -q -f -L "$label" "$b" >/dev/null 2>&1 && mount_fs "$b" "$M/btr" &&
	btrfs subvolume create "$M/btr/sv" >/dev/null && mount_fs "$b" "$M/btr sub" subvol=sv
ok $? "btrfs with a subvolume mounted on its own (a space in its mount point)"

e=$(make_loop 96M)
mkfs.ext4 -q -L volext "$e" && mount_fs "$e" "$M/ext" && mount_fs "$M/ext" "$M/bind" bind
ok $? "ext4 mounted, and bind-mounted elsewhere"
r=$(make_loop 32M)
mkfs.ext4 -q "$r" && mount_fs "$r" "$M/ro" ro
ok $? "a read-only ext4"

"$IOTRIAGE" volumes --match "$M/*" --size 16M --runtime 10s --json >"$TMP/v.json" 2>"$TMP/v.err"
ok $? "volumes exits 0"
v() { jq -e "$1" "$TMP/v.json" >/dev/null 2>&1; }
row() { echo ".volumes[] | select(.mount == \"$M/$1\")"; }
check "one row per mounted test file system, bind mount aside" -- \
	v "[.volumes[].mount] | sort == ([\"$M/zfs\",\"$M/zfs/plain\",\"$M/zfs/comp\",\"$M/btr\",\"$M/btr sub\",\"$M/ext\",\"$M/ro\"] | sort)"
check "every writable one measured: non-zero bytes, seconds, throughput" -- \
	v "[.volumes[] | select(.mount != \"$M/ro\") | .status == \"ok\" and .bytes > 0 and .seconds > 0 and .bw_bytes_per_s > 0] | (length == 6 and all)"
check "bytes read are the file written (16 MiB, the size cap)" -- \
	v "[.volumes[] | select(.status == \"ok\") | .bytes == 16777216 and .file_bytes == 16777216 and .stopped_by == \"size\"] | all"
guid=$(zfs get -H -p -o value guid "$pool/comp")
check "ZFS dataset: pool, mapping, VolID from its GUID, compression" -- \
	v "$(row zfs/comp) | .pool == \"$pool\" and .mapping == \"$pool/comp\" and .name == \"comp\" and .vol_id == \"zfs:$guid\" and .compression == \"on\" and .kind == \"zfs\""
check "the uncompressed dataset says compression off" -- v "$(row zfs/plain) | .compression == \"off\" and .mapping == \"$pool/plain\""
check "ZFS reads are labelled cache (the ARC may serve them), with the reason" -- \
	v "[.volumes[] | select(.kind == \"zfs\") | .read_from == \"cache\" and (.read_from_reason | test(\"ARC\"))] | (length == 3 and all)"
check "zfs-fuse refuses O_TMPFILE: a named, tagged file was used" -- \
	v "[.volumes[] | select(.kind == \"zfs\") | .temp_file == \"named\"] | all"
uuid=$(blkid -s UUID -o value "$b")
check "btrfs: pool is its label, mapping its device, VolID its UUID" -- \
	v "$(row btr) | .pool == \"$label\" and .mapping == \"$b\" and .vol_id == \"btrfs:$uuid/5\" and .subvolume == \"/\""
check "the btrfs subvolume is a row of its own" -- \
	v "$(row 'btr sub') | .pool == \"$label\" and .mapping == \"$b:/sv\" and .name == \"sv\" and .vol_id == \"btrfs:$uuid/256\""
euuid=$(blkid -s UUID -o value "$e")
check "ext4: no pool, mapping its device, VolID its UUID" -- \
	v "$(row ext) | .pool == \"none\" and .mapping == \"$e\" and .vol_id == \"uuid:$euuid\" and .name == \"volext\""
check "btrfs and ext4: O_TMPFILE, O_DIRECT, caches dropped, labelled media" -- \
	v "[.volumes[] | select(.kind != \"zfs\" and .status == \"ok\") | .temp_file == \"O_TMPFILE\" and .access == \"O_DIRECT\" and .caches_dropped and .read_from == \"media\"] | (length == 3 and all)"
check "the read-only mount gets a row with the reason" -- \
	v "$(row ro) | .status == \"skipped\" and (.reason | test(\"read-only\")) and .bytes == null"
check "the bind mount is listed as skipped, with the reason" -- \
	v "[.skipped[] | select(.mount == \"$M/bind\") | .reason | test(\"another mount of the file system at $M/ext\")] == [true]"
check "parameters: 1 MiB blocks, queue depth 32, the caps given" -- \
	v '.parameters.bs_bytes == 1048576 and .parameters.iodepth == 32 and .parameters.runtime_cap_seconds == 10 and .parameters.size_bytes == 16777216'
check "the document has the common head and tail" -- v '.command == "volumes" and (.run_id | length == 16) and .exit_status == 0'
left=$(find "$M" -xdev -name '.iotriage-volumes-*' 2>/dev/null; find "$M/zfs" "$M/zfs/plain" "$M/zfs/comp" -maxdepth 1 -name '.iotriage-volumes-*')
check "no test file left behind" -- test -z "$left"

"$IOTRIAGE" volumes --match "$M/ext" --match "$M/zfs/comp" --size 8M --runtime 5s >"$TMP/t.txt" 2>/dev/null
ok $? "human output exits 0"
check "the table has the vendor's columns" -- grep -Eq '^VolID +Name +Pool +Mapping +Mount +Throughput +From' "$TMP/t.txt"
check "an ext4 row: device, mount, a rate, media" -- grep -Eq " $e +$M/ext +[0-9.]+ [kMG]B/s +media " "$TMP/t.txt"
check "a ZFS row: dataset, mount, a rate, cache" -- grep -Eq " $pool/comp +$M/zfs/comp +[0-9.]+ [kMG]B/s +cache " "$TMP/t.txt"
check "and why it is labelled cache" -- grep -q "^$M/zfs/comp: cache: the ZFS ARC may serve this read" "$TMP/t.txt"

# A dataset that keeps no file data in the ARC: its figure is the pool's.
zfs set primarycache=metadata "$pool/plain"
"$IOTRIAGE" volumes --match "$M/zfs/plain" --size 8M --runtime 5s --json >"$TMP/pc.json" 2>/dev/null
check "primarycache=metadata: labelled pool, with the reason" -- \
	jtest "$TMP/pc.json" '.volumes[0].read_from == "pool" and (.volumes[0].read_from_reason | test("primarycache=metadata"))'
check "its read carries completion latency, and submission latency exactly when its engine separates it" -- \
	jtest "$TMP/pc.json" '.volumes[0] | .lat_ns.count > 0 and .lat_ns.p50 <= .lat_ns.p99 and (if .engine == "psync" then .slat_ns == null else .slat_ns.count == .lat_ns.count end)'
zfs inherit primarycache "$pool/plain"

# A run killed by SIGKILL leaves its named file; the next run removes it,
# and leaves a look-alike without a tag alone.
"$IOTRIAGE" volumes --match "$M/zfs/plain" --size 160M --runtime 60s --json >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	ls -A "$M/zfs/plain" | grep -q '^\.iotriage-volumes-' && break
	sleep 0.1
done
kill -KILL $pid; wait $pid 2>/dev/null
stale=$(ls -A "$M/zfs/plain" | grep '^\.iotriage-volumes-')
check "SIGKILL leaves the named file (the case the next run handles)" -- test -n "$stale"
echo "not ours" >"$M/zfs/plain/.iotriage-volumes-0123456789abcdef"
"$IOTRIAGE" volumes --match "$M/zfs/plain" --size 8M --runtime 5s --json >"$TMP/k.json" 2>/dev/null
ok $? "the next run exits 0"
check "it removed the killed run's file" -- test ! -e "$M/zfs/plain/$stale"
check "and says so" -- jtest "$TMP/k.json" '.volumes[0].stale_files_removed == 1'
check "an untagged look-alike survives" -- test -e "$M/zfs/plain/.iotriage-volumes-0123456789abcdef"
rm -f "$M/zfs/plain/.iotriage-volumes-0123456789abcdef"

# SIGINT while writing or reading: the named file is removed, exit 130.
"$IOTRIAGE" volumes --match "$M/zfs/comp" --size 160M --runtime 60s --json >"$TMP/i.json" 2>/dev/null &
pid=$!
for _ in $(seq 100); do
	ls -A "$M/zfs/comp" | grep -q '^\.iotriage-volumes-' && break
	sleep 0.1
done
sleep 0.3
kill -INT $pid; wait $pid
ok $(($? != 130)) "SIGINT: exit 130"
check "SIGINT: the named file is removed" -- bash -c "! ls -A '$M/zfs/comp' | grep -q '^\.iotriage-volumes-'"
check "SIGINT: the row says interrupted" -- jtest "$TMP/i.json" '.volumes[0].status == "error" and (.volumes[0].reason | test("interrupted"))'

# A small file system: the size is capped by free space and said; a full one is a row, not a crash.
s=$(make_loop 24M)
mkfs.ext4 -q -m 0 "$s" && mount_fs "$s" "$M/small"
"$IOTRIAGE" volumes --match "$M/small" --size 64M --runtime 5s --json >"$TMP/s.json" 2>/dev/null
ok $? "a file system smaller than --size is still measured"
check "the size was capped by free space, and the row says so" -- \
	jtest "$TMP/s.json" '.volumes[0].status == "ok" and .volumes[0].file_bytes < 67108864 and (.volumes[0].note | test("capped")) and .volumes[0].bytes == .volumes[0].file_bytes'
head -c 40M /dev/zero >"$M/small/fill" 2>/dev/null
"$IOTRIAGE" volumes --match "$M/small" --size 16M --json >"$TMP/f.json" 2>/dev/null
ok $(($? != 1)) "a full file system: exit 1"
check "its row gives the reason" -- jtest "$TMP/f.json" '.volumes[0].status == "error" and (.volumes[0].reason | test("free space|no space"))'
check "nothing left on it" -- test "$(ls -A "$M/small")" = "fill
lost+found"

"$IOTRIAGE" volumes --match "$M/no-such-*" --json >"$TMP/n.json" 2>"$TMP/n.err"
ok $(($? != 1)) "--match that matches nothing: exit 1"
check "with a message" -- grep -q "no volume to test: no mount matches --match" "$TMP/n.err"
for bad in "--bs 3000" "--bs 0" "--iodepth 0" "--runtime never" "--size 1k" "--size 4K --bs 1M" "extra"; do
	"$IOTRIAGE" volumes $bad >/dev/null 2>"$TMP/bad.err"
	ok $(($? != 2)) "bad usage '$bad': exit 2"
done
check "a bad --bs is explained" -- bash -c "'$IOTRIAGE' volumes --bs 3000 2>&1 | grep -q \"invalid --bs '3000': expected a multiple of 4K\""
check "no sanitizer or UBSan report in any run's stderr" -- bash -c "! cat '$TMP'/*.err | grep -Eq 'Sanitizer|runtime error'"

finish
