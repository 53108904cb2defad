#!/usr/bin/env bash
# readdisks --mode both: three loop devices whose files sit on one backing
# disk (itself a loop device limited to 150 MB/s for this test) are each
# fast alone and slow together; the report says so and names the shared path.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "shared path" "need root for loop devices, mounts and cgroups"; exit 0; fi

backing=$(make_loop 700M)
mkfs.ext4 -q -F "$backing"
mkdir "$TMP/backing"
mount "$backing" "$TMP/backing" && undo "umount $TMP/backing"
devs=()
for i in 1 2 3; do
	head -c 150M /dev/urandom >"$TMP/backing/disk$i.img"
	d=$(losetup -f --show --direct-io=on "$TMP/backing/disk$i.img") && undo "losetup -d $d"
	devs+=("$d")
done
sync
match=()
for d in "${devs[@]}"; do match+=(--match "${d#/dev/}"); done
# Loop workers charge the backing disk's I/O to the reader's cgroup, so this
# limit is shared by everything read through the backing disk.
cg=$(make_cgroup "$(lsblk -dno MAJ:MIN "$backing" | tr -d ' ') 150000000")
run_in_cgroup "$cg" "$IOTRIAGE" readdisks "${match[@]}" --size 96M --mode both --json >"$TMP/both.json" 2>"$TMP/both.err"
ok $? "readdisks --mode both exits 0"
check "the parallel pass is recorded" -- jtest "$TMP/both.json" '.parameters.parallel_pass == true'
check "each disk has its rate together as a percentage of alone" -- \
	jtest "$TMP/both.json" '[.devices[].parallel.percent_of_serial] | length == 3 and all(. > 0)'
check "together, each reads at well under its solo rate" -- \
	jtest "$TMP/both.json" '[.devices[].parallel.percent_of_serial] | all(. < 60)'
check "the three share one path group, the backing device" -- \
	jtest "$TMP/both.json" '[.devices[].parallel.path_group] | unique | length == 1 and (.[0] | test("^backing device "))'
check "that group is reported as the bottleneck" -- \
	jtest "$TMP/both.json" '.shared_paths | length == 1 and .[0].bottleneck == true and .[0].disks == 3'
check "and the log names it" -- grep -q "fast alone, slow together points at the path they share" "$TMP/both.err"
check "no disk is blamed: each reads like its peers alone" -- \
	jtest "$TMP/both.json" '[.devices[].verdict] | all(. == "ok")' ||
	diag "rates seen: $(rates_seen "$TMP/both.json")"

# Independent devices (zram, each its own memory) keep their rate together.
z1=$(make_zram 64M)
z2=$(make_zram 64M)
"$IOTRIAGE" readdisks --match "${z1#/dev/}" --match "${z2#/dev/}" --size 32M --mode both --json >"$TMP/z.json" 2>/dev/null
ok $? "readdisks --mode both on two zram devices"
check "memory-backed devices are not reported as a shared bottleneck at 2 CPUs" -- \
	jtest "$TMP/z.json" '.shared_paths | length == 1 and .[0].path_group == "memory"'

"$IOTRIAGE" readdisks --mode sideways >/dev/null 2>"$TMP/bad.err"
ok $(($? != 2)) "--mode with a bad value is a usage error"
check "and names the choices" -- grep -q "expected serial, parallel or both" "$TMP/bad.err"

finish
