#!/usr/bin/env bash
# ramdisk on the backends this machine's kernel lacks: scsi_debug, null_blk
# and brd, in one boot of Debian's kernel under qemu (tests/vm/run_vm.sh,
# scenario tests/vm/ramdisk_scenario.sh). Asserts on the serial console:
# scsi_debug disks with a by-id link and independent stores, 4096-byte
# sectors, destroy refused/forced with the opener named, --ndelay 250000
# adding 250 us (within 15%) to 4 KiB QD1 reads, null_blk and brd create,
# list and destroy, everything unloaded at the end.
#
# The binary under test goes into the VM as it is: with the ASan build,
# libasan/libubsan go in too (ldd lists them) and any sanitizer report on
# the console fails the test. Latency figures come from the VM's
# instruction-counted clock (see run_vm.sh): ratios, not this host's speed.
# One VM run is enough (tests/run.sh): with the sanitized build, which
# passes these checks too and whose sanitizers watch the code only the VM reaches.
# time-limit: 400
# run-once: asan
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vmlib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)

missing=$(vm_missing)
vm_ready "ramdisk VM tests" "$missing" || exit 0

console=$TMP/console.log
start=$(date +%s)
# fio goes in too: the latency percentiles are compared with its own.
VM_PROGRAMS=fio bash "$here/vm/run_vm.sh" "$IOTRIAGE" "$here/vm/ramdisk_scenario.sh" "$console" 900 2>"$TMP/vm.err"
ok $? "the VM booted, ran the whole scenario and powered off"
diag "VM run took $(($(date +%s) - start)) s"
tr -d '\r' <"$console" >"$TMP/c"
c=$TMP/c
# Ours: a qemu whose console is this test's file (other VMs may run beside it).
check "no qemu of ours is left" -- bash -c 'for p in $(pgrep -x qemu-system-x86_64); do [ "$(readlink /proc/$p/fd/1)" = "$1" ] && exit 1; done; exit 0' _ "$console"
check "no VM temp dir is left" -- bash -c "! ls -d /tmp/iotriage-vm.* /tmp/iotriage-initramfs.* 2>/dev/null"


check "the VM booted Debian's kernel" -- grep -q "=== VM UP kernel [0-9][^ ]*-amd64" "$c"
check "no sanitizer report in the VM" -- bash -c "! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:' '$c'"
check "list with none says how to create one" -- has list-empty "No RAM disks exist.  Create one with"

# --- scsi_debug ---
j=$(jsect sd-create)
check "scsi_debug: create 64M --count 2 exits 0" -- test "$(rc sd-create)" = 0
check "scsi_debug: two disks, each with a /dev/disk/by-id/scsi-* path" -- \
	jtest "$j" '.ramdisk.backend == "scsi_debug" and (.ramdisk.devices | length == 2) and all(.ramdisk.devices[]; .by_id | test("^/dev/disk/by-id/scsi-")) and (.ramdisk.devices[0].by_id != .ramdisk.devices[1].by_id)'
check "scsi_debug: the by-id links resolve to the disks, vendor IOTRIAGE" -- \
	bash -c "[ \$(grep -Ec '^/dev/disk/by-id/scsi-[0-9a-f]+ -> /dev/sd[a-z]+ .*vendor=IOTRIAGE' <(awk -v n=sd-links '\$0 == \"=== BEGIN \" n { on = 1; next } /^=== END/ { on = 0 } on' '$c')) -eq 2 ]"
check "scsi_debug: list shows the by-id path" -- has sd-list "scsi_debug .* free *\/dev\/disk\/by-id\/scsi-"
check "scsi_debug: each disk returns its own data (stores independent)" -- has sd-patterns "stores independent"
check "scsi_debug: a second create while disks exist exits 1" -- test "$(rc sd-again)" = 1
check "and says they already exist" -- has sd-again "2 RAM disk(s) already exist"
holder=$(sed -n 's/^=== HOLDER pid=//p' "$c")
check "list names the opener" -- has sd-busy-list "open by sleep (pid $holder)"
check "destroy refuses while a disk is open (exit 1)" -- test "$(rc sd-destroy-refused)" = 1
check "naming the device and the opener" -- has sd-destroy-refused "/dev/iotriage-ramdisk0 (/dev/sda) is in use: open by sleep (pid $holder)"
check "and destroying nothing" -- has sd-destroy-refused "nothing destroyed (destroy takes all or none)"
check "destroy --force -y exits 0" -- test "$(rc sd-destroy-force)" = 0
check "and says what it left dangling" -- has sd-destroy-force "--force left dangling: open by sleep (pid $holder), which referred to /dev/sda"
check "and that the module stays while the opener holds it" -- has sd-destroy-force "kernel keeps scsi_debug (and its memory) loaded"
check "after --force no RAM disk is listed" -- has sd-after "No RAM disks exist"
check "and no friendly or by-id link is left" -- test -z "$(sect sd-links-after)"

j=$(jsect sd4k-create)
check "the next create unloads the module the forced destroy left" -- has sd4k-create-log "unloaded scsi_debug, left loaded (vendor IOTRIAGE) by an earlier run"
check "scsi_debug --sector-size 4096: created, reported as 4096" -- jtest "$j" '.ramdisk.created and .ramdisk.devices[0].sector_size_bytes == 4096'
check "and the kernel sees 4096-byte logical sectors" -- has sd4k-links "^/dev/iotriage-ramdisk0 -> /dev/sd[a-z] lbs=4096 getss=4096"
check "destroy frees the store (64 MiB back in MemAvailable)" -- \
	bash -c "sect() { :; }; grep -A3 '^=== BEGIN sd4k-destroy' '$c' | grep -Eq 'memory released: MemAvailable [0-9]+MB before, [0-9]+MB after \(\+(5[0-9]|[6-9][0-9]|[1-9][0-9][0-9])MB\)'"

# --- the sweep: --ndelay 250000 adds 250 us within 15% ---
j=$(jsect sd-sweep)
check "scsi_debug sweep exits 0 with every value measured" -- \
	jtest "$j" '.ramdisk.backend == "scsi_debug" and (.ramdisk.points | length == 3) and all(.ramdisk.points[]; .measured and .ios > 100)'
added=$(jq -r '(.ramdisk.points[] | select(.ndelay_ns == 250000) | .mean_lat_ns) - (.ramdisk.points[] | select(.ndelay_ns == 0) | .mean_lat_ns)' "$j" 2>/dev/null)
diag "scsi_debug sweep (mean latency us / IOPS):" $(jq -r '.ramdisk.points[] | "\(.ndelay_ns)ns: \(.mean_lat_ns / 1000 | floor)us/\(.iops | floor)"' "$j" 2>/dev/null)
check "--ndelay 250000 raises QD1 4K read latency by 250 us within 15% (added ${added:-?} ns)" -- \
	awk -v a="${added:-0}" 'BEGIN { exit !(a >= 212500 && a <= 287500) }'
check "and IOPS fall as the latency rises" -- jtest "$j" '.ramdisk.points[0].iops > .ramdisk.points[1].iops and .ramdisk.points[1].iops > .ramdisk.points[2].iops'

# --- null_blk ---
j=$(jsect nb-create)
check "null_blk: create 64M --count 2 --ndelay 100000 exits 0" -- test "$(rc nb-create)" = 0
check "null_blk: two devices with ndelay 100000" -- \
	jtest "$j" '.ramdisk.backend == "null_blk" and (.ramdisk.devices | length == 2) and all(.ramdisk.devices[]; .ndelay_ns == 100000 and .size_bytes == 67108864)'
check "null_blk: list shows both" -- bash -c "[ \$(grep -c 'null_blk .* free' <(awk '\$0 == \"=== BEGIN nb-list\" { on = 1; next } /^=== END/ { on = 0 } on' '$c')) -eq 2 ]"
check "null_blk: each device returns its own data" -- has nb-patterns "stores independent"
check "null_blk: destroy exits 0" -- test "$(rc nb-destroy)" = 0
check "null_blk: the module iotriage loaded is unloaded" -- bash -c "! awk '\$0 == \"=== BEGIN nb-modules-after\" { on = 1; next } /^=== END/ { on = 0 } on' '$c' | grep -q '^null_blk '"
j=$(jsect nb-sweep)
nb_added=$(jq -r '(.ramdisk.points[] | select(.ndelay_ns == 250000) | .mean_lat_ns) - (.ramdisk.points[] | select(.ndelay_ns == 0) | .mean_lat_ns)' "$j" 2>/dev/null)
check "null_blk: completion_nsec 250000 adds 250 us within 15% (added ${nb_added:-?} ns)" -- \
	awk -v a="${nb_added:-0}" 'BEGIN { exit !(a >= 212500 && a <= 287500) }'

# p50 and p99 of 4 KiB QD1 reads against fio's on the same 250 us null_blk
# disk, one after the other in the same boot (fio's percentiles are its
# histogram's bucket values, within 1/64 of the exact ones).
check "null_blk 250 us: created for the latency comparison" -- test "$(rc nb-lat-create)" = 0
jf=$(jsect nb-lat-fio); jr=$(jsect nb-lat-run)
check "fio ran on it" -- jtest "$jf" '.jobs[0].read.total_ios > 100'
check "and iotriage run too" -- jtest "$jr" '.result.read.lat_ns.count > 100'
for q in 50 99; do
	ours=$(jq -r ".result.read.lat_ns.p$q" "$jr" 2>/dev/null)
	theirs=$(jq -r ".jobs[0].read.clat_ns.percentile[\"$q.000000\"]" "$jf" 2>/dev/null)
	check "p$q within 10% of fio's (iotriage ${ours:-?} ns, fio ${theirs:-?} ns)" -- \
		awk -v a="${ours:-0}" -v b="${theirs:-0}" 'BEGIN { exit !(b > 0 && a / b > 0.9 && a / b < 1.1) }'
done
check "and it is destroyed" -- test "$(rc nb-lat-destroy)" = 0

# --- brd ---
j=$(jsect brd-create)
check "brd: create 64M --count 2 exits 0, /dev/ram0 and /dev/ram1" -- \
	jtest "$j" '.ramdisk.backend == "brd" and ([.ramdisk.devices[].device] == ["/dev/ram0", "/dev/ram1"])'
check "brd: list shows both" -- bash -c "[ \$(grep -c ' brd .* free' <(awk '\$0 == \"=== BEGIN brd-list\" { on = 1; next } /^=== END/ { on = 0 } on' '$c')) -eq 2 ]"
check "brd: each device returns its own data" -- has brd-patterns "stores independent"
check "brd: destroy exits 0" -- test "$(rc brd-destroy)" = 0
check "brd: --sector-size 4096 is refused (exit 1)" -- test "$(rc brd-4k)" = 1
check "and says brd has 512-byte sectors only" -- has brd-4k "brd offers only 512-byte sectors"
check "brd: --ndelay is refused (exit 1), saying why" -- bash -c "[ \"\$(sed -n 's/^=== END brd-ndelay rc=//p' '$c')\" = 1 ] && grep -q 'brd cannot inject latency' '$c'"

# --- the end: nothing left in the VM ---
check "at the end no RAM disk is listed" -- has final-list "No RAM disks exist"
check "and scsi_debug, null_blk and brd are unloaded" -- \
	bash -c "! awk '\$0 == \"=== BEGIN final-modules\" { on = 1; next } /^=== END/ { on = 0 } on' '$c' | grep -Eq '^(scsi_debug|null_blk|brd) '"

finish
