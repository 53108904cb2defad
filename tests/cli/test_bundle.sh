#!/usr/bin/env bash
# bundle: on a machine with a zfs-fuse pool (loop devices) and a recorded
# run, the .tar.gz holds every listed part, the manifest on stdout matches
# the archive, no line of the environment is in it, the pool's status and a
# run's document are there, and a failed write leaves nothing behind.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "bundle" "need root for loop devices and zfs-fuse"; exit 0; fi
if ! command -v zpool >/dev/null || ! pgrep -x zfs-fuse >/dev/null; then
	skip "bundle" "zfs-fuse is not running (scripts/start-services.sh starts it)"
	exit 0
fi

d1=$(make_loop 96M)
d2=$(make_loop 96M)
pool=iotriage-bundle-$$
zpool create -f "$pool" mirror "$d1" "$d2" >/dev/null 2>&1
ok $? "zpool create (mirror on loop devices)"
undo "destroy_pool $pool"

"$IOTRIAGE" readdisk "$d1" --size 8M --json >"$TMP/r.json" 2>/dev/null
ok $? "a run to bundle (readdisk)"
run_id=$(jq -r .run_id "$TMP/r.json")

# A secret in the environment, and one in a variable whose name says so.
secret="iotriage-secret-$$-$RANDOM$RANDOM"
export IOTRIAGE_BUNDLE_SECRET="$secret" DB_PASSWORD="pw-$secret"
mkdir "$TMP/out"
(cd "$TMP/out" && "$IOTRIAGE" bundle --runs 3 --window 200ms >"$TMP/m.txt" 2>"$TMP/m.err")
ok $? "bundle exits 0"
tgz=$(ls "$TMP/out"/iotriage-bundle-*.tar.gz 2>/dev/null)
check "one .tar.gz named after the host, in the current directory" -- test -f "$tgz"
check "nothing else left beside it (staging and temporary removed)" -- \
	test "$(ls -A "$TMP/out" | wc -l)" -eq 1
mkdir "$TMP/x"
check "the archive extracts" -- tar -xzf "$tgz" -C "$TMP/x"
top=$(ls "$TMP/x")
check "under one top directory, named as the manifest says" -- grep -q "($top/):" "$TMP/m.txt"
B=$TMP/x/$top
for part in MANIFEST.txt system.json iotriage.log runs.json "runs/$run_id.json" disks.json \
	pools/zpool-status.txt pools/btrfs-show.txt netcheck.json kernel.log; do
	check "part $part: in the archive and on stdout" -- bash -c "test -f '$B/$part' && grep -q '^  $part ' '$TMP/m.txt'"
done
check "every part on stdout is in the archive" -- bash -c \
	"awk 'NR > 1 { print \$1 }' '$TMP/m.txt' | while read -r p; do test -f '$B/'\"\$p\" || exit 1; done"
check "the archive's manifest lists each file it holds" -- bash -c \
	"cd '$B' && find . -type f ! -name MANIFEST.txt | sed 's|^\./||' | while read -r p; do grep -q \"^\$p	\" MANIFEST.txt || exit 1; done"
check "zpool status of the pool with its members (-DvP, or -Dv on zfs-fuse, which has no -P)" -- \
	bash -c "grep -q 'pool: $pool' '$B/pools/zpool-status.txt' && grep -q '${d1#/dev/}' '$B/pools/zpool-status.txt'"
check "the manifest says which form ran" -- grep -Eq "^  pools/zpool-status.txt +[0-9]+  (\$|'zpool status -DvP' refused \(usage\): ran 'zpool status -Dv'\$)" "$TMP/m.txt"
check "the last run's document" -- jtest "$B/runs/$run_id.json" ".run_id == \"$run_id\" and .command == \"readdisk\""
check "the database's runs as JSON" -- jtest "$B/runs.json" "[.runs[].id] | index(\"$run_id\") != null"
check "the log holds the run's lines" -- grep -q "READ-DISK" "$B/iotriage.log"
check "the disk inventory has identities, the pool's members among them" -- \
	jtest "$B/disks.json" "[.disks[] | select(.dev_path == \"$d1\") | .identity_key | length > 0] == [true]"
check "netcheck's ports and findings" -- jtest "$B/netcheck.json" 'has("ports") and has("findings")'
check "the kernel log is not empty" -- test -s "$B/kernel.log"
check "the system inventory" -- jtest "$B/system.json" '.cpus > 0 and .memory_bytes > 0 and (.kernel | length > 0)'
if command -v smartctl >/dev/null && ls /sys/block | grep -qv -e '^loop' -e '^zram' -e '^ram' -e '^nullb'; then
	check "smartctl -x of the disks" -- bash -c "ls '$B'/smart/*.txt >/dev/null 2>&1"
fi
check "no environment variable's value in the bundle" -- bash -c "! grep -rqF -e '$secret' '$B'"
leaks=0
while IFS= read -r -d '' line; do
	val=${line#*=}
	[ ${#val} -ge 12 ] || continue                    # short values match by chance
	case "$val" in /*|*:/*) continue ;; esac           # paths are named in the bundle on purpose
	if grep -rqF -e "$line" "$B"; then leaks=$((leaks + 1)); diag "environment line in the bundle: ${line%%=*}"; fi
done </proc/$$/environ
ok $leaks "no line of the environment (NAME=VALUE) in the bundle"

# Atomic: an unwritable directory fails with nothing left; an existing
# file is replaced whole or not at all.
mkdir "$TMP/ro" && chmod 0500 "$TMP/ro"
setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null && can_drop=1 || can_drop=0
"$IOTRIAGE" bundle --window 200ms -o "$TMP/nodir/b.tar.gz" >"$TMP/f.out" 2>"$TMP/f.err"
ok $(($? == 0)) "a missing output directory: non-zero exit"
check "says why, naming the directory" -- grep -q "iotriage bundle: cannot create a staging directory in '$TMP/nodir'" "$TMP/f.err"
check "and prints no manifest" -- test ! -s "$TMP/f.out"
echo old >"$TMP/out/keep.tar.gz"
chattr +i "$TMP/out" 2>/dev/null && undo "chattr -i $TMP/out" && immutable=1 || immutable=0
if [ $immutable = 1 ]; then
	"$IOTRIAGE" bundle --window 200ms -o "$TMP/out/keep.tar.gz" >/dev/null 2>"$TMP/i.err"
	ok $(($? == 0)) "an unwritable output directory (immutable): non-zero exit"
	check "the old file untouched, no staging or temporary left" -- \
		bash -c "test \"\$(cat '$TMP/out/keep.tar.gz')\" = old && test \"\$(ls -A '$TMP/out' | wc -l)\" -eq 2"
	chattr -i "$TMP/out"
else
	skip "unwritable output directory" "chattr +i not supported on $TMP"
fi
# A full file system (a tiny tmpfs): a part that cannot be staged fails the
# bundle rather than leaving it silently short.
mkdir "$TMP/full" && mount -t tmpfs -o size=64k tmpfs "$TMP/full" && undo "umount $TMP/full"
head -c 40k /dev/urandom >"$IOTRIAGE_STATE_DIR/iotriage.log.big"
cat "$IOTRIAGE_STATE_DIR/iotriage.log.big" >>"$IOTRIAGE_STATE_DIR/iotriage.log"
"$IOTRIAGE" bundle --window 200ms -o "$TMP/full/b.tar.gz" >/dev/null 2>"$TMP/full.err"
ok $(($? == 0)) "a full file system: non-zero exit"
check "no partial bundle, temporary or staging left" -- test -z "$(ls -A "$TMP/full")"
check "the error names the output" -- grep -q "iotriage bundle: .*'$TMP/full" "$TMP/full.err"

"$IOTRIAGE" bundle --json --window 200ms -o "$TMP/j.tar.gz" >"$TMP/j.json" 2>/dev/null
ok $? "bundle --json exits 0"
check "--json: the manifest as a document, each part with its size" -- \
	jtest "$TMP/j.json" ".command == \"bundle\" and .output == \"$TMP/j.tar.gz\" and ([.parts[].name] | index(\"pools/zpool-status.txt\") != null) and ([.parts[] | select(.name == \"system.json\") | .bytes > 0] == [true])"
check "--json: the archive matches it" -- bash -c "test \"\$(tar -tzf '$TMP/j.tar.gz' | grep -vc '/\$')\" -eq \"\$(jq '.parts | length' '$TMP/j.json')\""
"$IOTRIAGE" bundle --runs x >/dev/null 2>"$TMP/u.err"
ok $(($? != 2)) "an invalid --runs is a usage error"
"$IOTRIAGE" bundle extra >/dev/null 2>&1
ok $(($? != 2)) "an operand is a usage error"
finish
