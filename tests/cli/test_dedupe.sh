#!/usr/bin/env bash
# Written data does not deduplicate: run --bs 1M writing into a zfs-fuse
# dataset with dedup=on and 128K records leaves a dedup ratio near 1.00x
# (before every sector was scrambled, 6.63x). benchpool's built-in and dd
# tests are not checked here.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "dedupe" "needs root for zfs-fuse"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "dedupe" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi
pool=iotdedup$$
truncate -s 600M "$TMP/vdev.img"
zpool create -f -m "$TMP/mnt" "$pool" "$TMP/vdev.img" >/dev/null 2>&1
ok $? "zpool create on a file"
undo "destroy_pool $pool"
zfs set dedup=on "$pool" && zfs set compression=off "$pool" && zfs set recordsize=128K "$pool"
ok $? "dedup=on, compression off, 128K records"

ratio() { zpool list -H -o dedupratio "$pool" | tr -d x; }

"$IOTRIAGE" run "$TMP/mnt/a.dat" --bs 1M --rw write --size 128M --direct 0 >/dev/null 2>&1
ok $? "run --bs 1M --rw write, 128 MiB"
"$IOTRIAGE" run "$TMP/mnt/a.dat" --bs 1M --rw write --direct 0 >/dev/null 2>&1
"$IOTRIAGE" run "$TMP/mnt/b.dat" --bs 1M --rw write --size 128M --direct 0 >/dev/null 2>&1
ok $? "a second file of the same size, and a rewrite of the first"
sync; sleep 2
r=$(ratio)
diag "dedup ratio after run: ${r}x"
check "the run's data does not deduplicate (ratio <= 1.05)" -- awk -v r="$r" 'BEGIN { exit !(r <= 1.05) }'

# The measurement itself: zeros do deduplicate.
"$IOTRIAGE" run "$TMP/mnt/z.dat" --bs 1M --rw write --size 128M --direct 0 --pattern zeros >/dev/null 2>&1
ok $? "run --pattern zeros"
sync; sleep 2
rz=$(ratio)
diag "dedup ratio with zeros added: ${rz}x"
check "zeros deduplicate, so the check above can fail" -- awk -v r="$rz" 'BEGIN { exit !(r > 1.3) }'
finish
