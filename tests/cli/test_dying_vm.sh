#!/usr/bin/env bash
# Disks that fail while they are read, in one boot of Debian's kernel under
# qemu (tests/vm/run_vm.sh, scenario tests/vm/dying_scenario.sh): four
# disks, one returning EIO from 32 MiB (null_blk badblocks), one not
# answering for ten minutes (scsi_debug delay), two healthy. readdisks ends
# within its 30 s deadline plus 10 s, names both with the right reason and
# offset and reports the healthy two normally; SIGINT during the stuck read
# exits within 5 s, leaving only the abandoned reader in the kernel. Times
# are the guest's clock (see run_vm.sh).
# One VM run is enough (tests/run.sh): with the sanitized build, which
# passes these checks too and whose sanitizers watch the code only the VM reaches.
# time-limit: 300
# run-once: asan
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vmlib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)

missing=$(vm_missing)
command -v smartctl >/dev/null || missing="smartctl (package smartmontools)"
vm_ready "dying-disk VM tests" "$missing" || exit 0

console=${KEEP_CONSOLE:-$TMP/console.log}
start=$(date +%s)
if [ -n "${DYING_CONSOLE:-}" ]; then
	console=$DYING_CONSOLE
else
	VM_MODULES="scsi_debug sd_mod null_blk configfs" VM_PROGRAMS="smartctl" \
		bash "$here/vm/run_vm.sh" "$IOTRIAGE" "$here/vm/dying_scenario.sh" "$console" 600 2>"$TMP/vm.err"
	ok $? "the VM booted, ran the whole scenario and powered off"
	diag "VM run took $(($(date +%s) - start)) s"
fi
tr -d '\r' <"$console" >"$TMP/c"
c=$TMP/c

check "no sanitizer report in the VM" -- bash -c "! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:' '$c'"
bad=$(sed -n 's/^=== DISKS bad=\([^ ]*\) .*/\1/p' "$c")
stuck=$(sed -n 's/^=== DISKS .* stuck=\([^ ]*\) .*/\1/p' "$c")
check "the VM made a failing disk ($bad) and a stuck one ($stuck)" -- test -n "$bad" -a -n "$stuck"

j=$(jsect readdisks)
diag "readdisks:" $(jq -c '[.devices[] | {path, status, reason}]' "$j" 2>/dev/null)
check "readdisks exits 1 (two disks failed)" -- test "$(rc readdisks)" = 1
check "and writes a complete document with all four disks" -- jtest "$j" '(.devices | length) == 4 and .summary.error == 2'
t=$(elapsed readdisks)
healthy=$(jq '[.devices[] | select(.status == "ok") | .seconds // 0] | add // 0' "$j" 2>/dev/null)
diag "readdisks took ${t:-?} s (guest), the healthy reads ${healthy:-?} s"
check "readdisks ends within its 30 s deadline plus 10 s (besides the healthy reads)" -- \
	awk -v t="${t:-999}" -v h="${healthy:-0}" 'BEGIN { exit !(t <= 40 + h) }'
check "the failing disk: returned I/O errors at offset 32 MiB, 32 MiB read before it" -- \
	jtest "$j" ".devices[] | select(.path == \"$bad\") | .status == \"error\" and (.reason | test(\"returned I/O errors at offset 33554432 .*Input/output error; 33554432 bytes\")) and .failure.kind == \"io_error\" and .failure.offset_bytes == 33554432 and .failure.bytes_read_before == 33554432"
check "is judged a finding in its own right" -- \
	jtest "$j" ".devices[] | select(.path == \"$bad\") | .verdict == \"error\" and (.sentence | test(\"returned I/O errors at offset\"))"
check "and cross-checked with SMART" -- \
	jtest "$j" ".devices[] | select(.path == \"$bad\") | .health.smartctl_installed and (.health.sentence | length > 0)"
check "the stuck disk: no response in 30 s at offset 0, nothing read before" -- \
	jtest "$j" ".devices[] | select(.path == \"$stuck\") | .status == \"error\" and (.reason | test(\"no response in 30 s at offset 0 \")) and .failure.kind == \"no_response\" and .failure.timeout_seconds == 30 and .failure.bytes_read_before == 0"
check "and says its abandoned read stays in the kernel" -- \
	jtest "$j" ".devices[] | select(.path == \"$stuck\") | (.reason | test(\"stays in the kernel\")) and .failure.stuck_pid > 0"
check "the two healthy disks read all 64 MiB, status ok" -- \
	jtest "$j" '[.devices[] | select(.status == "ok" and .bytes == 67108864)] | length == 2'
check "the log names both failures" -- \
	bash -c "sect() { awk -v n=\"\$1\" '\$0 == \"=== BEGIN \" n { on = 1; next } on && index(\$0, \"=== END \" n \" rc=\") == 1 { exit } on' '$c'; }; sect readdisks-log | grep -q 'returned I/O errors at offset 33554432' && sect readdisks-log | grep -q 'no response in 30 s'"

t=$(elapsed interrupt)
diag "SIGINT to exit: ${t:-?} s (guest)"
check "SIGINT during the stuck read: exit within 5 s" -- awk -v t="${t:-999}" 'BEGIN { exit !(t <= 5) }'
check "with status 130" -- test "$(rc interrupt)" = 130
check "saying the read was interrupted and stays in the kernel" -- bash -c "grep -q 'interrupted after 0 bytes; the abandoned read stays in the kernel' '$c'"
diag "left in the kernel:" $(sect stuck-in-kernel)
# An abandoned reader: its main thread killed (Z), its I/O thread in D.
check "what remains: only the abandoned readers, each a killed process with a thread stuck in D" -- \
	bash -c "out=\$(awk '\$0 == \"=== BEGIN stuck-in-kernel\" { on = 1; next } /^=== END/ { on = 0 } on' '$c'); [ -n \"\$out\" ] && ! echo \"\$out\" | grep -Ev '^pid [0-9]+ threads Z( [DZ])* D( [DZ])*\$' | grep -q ."

finish
