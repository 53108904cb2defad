#!/usr/bin/env bash
# The static build (meson -Dstatic=true) runs where none of its libraries
# are: built here into $TMP, booted in the test VM's initramfs (busybox and
# the binary, no shared object at all: tests/vm/static_scenario.sh), where
# it lists, creates (brd) and destroys RAM disks and reads them with
# readdisks. One VM boot. It does not use $IOTRIAGE: the static binary is
# built from the tree either way, so tests/run.sh runs this once:
# time-limit: 300
# run-once: plain
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vmlib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$here/.." && pwd)

missing=$(vm_missing)
vm_ready "static binary in the VM" "$missing" || exit 0

meson setup "$TMP/static" "$src" --buildtype=release -Dstatic=true -Dunit_tests=false >"$TMP/setup.log" 2>&1 &&
	ninja -C "$TMP/static" iotriage >"$TMP/build.log" 2>&1
ok $? "meson setup -Dstatic=true and ninja build the binary" || { tail -n 20 "$TMP/setup.log" "$TMP/build.log" | sed "s/^/# /"; finish; exit 1; }
bin=$TMP/static/iotriage
check "the binary is statically linked" -- bash -c "file '$bin' | grep -q 'statically linked'"
check "ldd finds no library to load" -- bash -c "! ldd '$bin' 2>&1 | grep -q '=>'"
diag "static binary: $(stat -c %s "$bin") bytes"

console=$TMP/console.log
start=$(date +%s)
bash "$here/vm/run_vm.sh" "$bin" "$here/vm/static_scenario.sh" "$console" 600 2>"$TMP/vm.err"
ok $? "the VM booted, ran the scenario and powered off" || tail -5 "$TMP/vm.err"
diag "VM run took $(($(date +%s) - start)) s"
tr -d '\r' <"$console" >"$TMP/c"
c=$TMP/c

sect libs >"$TMP/libs.txt"
check "the VM's root has no shared library or loader at all (count=0)" -- grep -qx 'count=0' "$TMP/libs.txt"
check "ramdisk list runs (exit 0) with none" -- test "$(rc list-empty)" = 0
sect list-empty >"$TMP/list-empty.txt"
check "and says so" -- grep -q 'No RAM disks exist' "$TMP/list-empty.txt" || sed 's/^/# /' "$TMP/list-empty.txt"
j=$(jsect brd-create)
check "ramdisk create --backend brd: two disks" -- jtest "$j" '.ramdisk.backend == "brd" and (.ramdisk.devices | length == 2)'
j=$(jsect readdisks)
check "readdisks exits 0" -- test "$(rc readdisks)" = 0
check "readdisks read both RAM disks, each with a rate" -- \
	jtest "$j" '[.devices[] | select(.status == "ok" and .bw_bytes_per_s > 0) | .path] | sort == ["/dev/ram0", "/dev/ram1"]'
check "ramdisk list shows them" -- test "$(rc list)" = 0
check "ramdisk destroy exits 0" -- test "$(rc destroy)" = 0
finish
