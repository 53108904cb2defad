#!/usr/bin/env bash
# Written data does not deduplicate: run --bs 1M writing into a zfs-fuse
# dataset with dedup=on and 128K records leaves a dedup ratio near 1.00x
# (before every sector was scrambled, 6.63x); so does what benchpool's
# built-in and dd tests write (watched while they run: benchpool removes
# its files at the end).
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

# benchpool's built-in and dd tests: the highest ratio seen while
# benchpool's files are on the pool (they are removed when it ends).
# watch_benchpool PATTERN: runs them writing PATTERN; prints that ratio.
watch_benchpool() {
	local bp highest now
	"$IOTRIAGE" benchpool "$pool" 96M --tests builtin,dd --runtime 5 --pattern "$1" >"$TMP/bp-$1.out" 2>"$TMP/bp-$1.err" &
	bp=$!
	highest=$(ratio)
	while kill -0 "$bp" 2>/dev/null; do
		now=$(ratio)
		highest=$(awk -v a="$highest" -v b="${now:-0}" 'BEGIN { print (b > a ? b : a) }')
		sleep 0.2
	done
	wait "$bp" || echo "failed"
	echo "$highest"
}
highest=$(watch_benchpool random)
check "benchpool builtin,dd on the dedup pool" -- test "${highest#failed}" = "$highest" || diag_file "$TMP/bp-random.err"
diag "highest dedup ratio while benchpool ran: ${highest}x"
check "what benchpool writes does not deduplicate (highest ratio seen <= 1.05)" -- \
	awk -v r="$highest" 'BEGIN { exit !(r <= 1.05) }'
highest_zeros=$(watch_benchpool zeros)
diag "with --pattern zeros: ${highest_zeros}x"
check "benchpool --pattern zeros does, and the watch sees it (> 1.2), so the check above can fail" -- \
	awk -v r="${highest_zeros##*$'\n'}" 'BEGIN { exit !(r > 1.2) }'
sync; sleep 2

# The measurement itself: zeros do deduplicate.
"$IOTRIAGE" run "$TMP/mnt/z.dat" --bs 1M --rw write --size 128M --direct 0 --pattern zeros >/dev/null 2>&1
ok $? "run --pattern zeros"
sync; sleep 2
rz=$(ratio)
diag "dedup ratio with zeros added: ${rz}x"
check "zeros deduplicate, so the check above can fail" -- awk -v r="$rz" 'BEGIN { exit !(r > 1.3) }'
finish
