#!/usr/bin/env bash
# ramdisk export --iscsi, client and wire in one boot of Debian's kernel
# under qemu (LIO: target_core_mod, target_core_iblock, iscsi_target_mod;
# the initiator: iscsi_tcp and open-iscsi's iscsid and iscsiadm copied in;
# scenario tests/vm/iscsi_scenario.sh): a null_blk RAM disk exported
# through LIO from a server network namespace and read by open-iscsi in the
# VM's initial namespace (where alone the kernel's iSCSI initiator netlink
# answers); with netem 500 us on both ends of the veth the added QD1
# latency is 1 ms plus the zero-delay overhead within 15%; destroy refused
# while exported; Ctrl-C and SIGKILL of the client and SIGKILL of an
# export leave no LIO object, session, node record or export record; bad
# input makes nothing. Latency is on the VM's instruction-counted clock.
# One VM run is enough (tests/run.sh): with the sanitized build, which
# passes these checks too and whose sanitizers watch the code only the VM reaches.
# time-limit: 600
# run-once: asan
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vmlib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)

missing=$(vm_missing)
for p in ip tc; do command -v $p >/dev/null || missing="$p (package iproute2)"; done
for p in iscsiadm iscsid; do command -v $p >/dev/null || missing="$p (package open-iscsi)"; done
[ -f /etc/iscsi/iscsid.conf ] || missing="/etc/iscsi/iscsid.conf (package open-iscsi)"
vm_ready "iscsi VM tests" "$missing" || exit 0

console=${KEEP_CONSOLE:-$TMP/console.log}
start=$(date +%s)
VM_MODULES="configfs null_blk veth sch_netem sd_mod iscsi_tcp libiscsi libiscsi_tcp scsi_transport_iscsi crc32c_generic target_core_mod target_core_iblock iscsi_target_mod" \
	VM_PROGRAMS="ip tc iscsiadm iscsid" VM_FILES=/etc/iscsi/iscsid.conf \
	bash "$here/vm/run_vm.sh" "$IOTRIAGE" "$here/vm/iscsi_scenario.sh" "$console" 900 2>"$TMP/vm.err"
ok $? "the VM booted, ran the whole scenario and powered off"
diag "VM run took $(($(date +%s) - start)) s"
tr -d '\r' <"$console" >"$TMP/c"
c=$TMP/c

IQN='iqn.2014-08.org.iotriage:ramdisk-'

check "no sanitizer report in the VM" -- bash -c "! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:' '$c'"
check "the client namespace reaches the server over the veth" -- test "$(rc ping)" = 0
check "iscsid started in the initial namespace" -- test "$(rc iscsid)" = 0

# bad input
check "export without RAM disks exits 1" -- test "$(rc export-none)" = 1
check "saying there are none to export" -- has export-none "no RAM disks to export"
check "and makes nothing" -- none objects-none
check "the null_blk RAM disk is created" -- test "$(rc create)" = 0
check "export without --initiator or --allow-any-host exits 1, naming both" -- \
	bash -c "[ \"$(rc export-noinit)\" = 1 ] && awk '/=== BEGIN export-noinit/,/=== END export-noinit/' '$c' | grep -q -- '--initiator IQN.*--allow-any-host'"
check "a malformed initiator name exits 1, saying so" -- \
	bash -c "[ \"$(rc export-badinit)\" = 1 ] && awk '/=== BEGIN export-badinit/,/=== END export-badinit/' '$c' | grep -q \"'not an iqn' is not an iSCSI name\""
check "export on an address that is not local exits 1" -- test "$(rc export-notlocal)" = 1
check "saying so" -- has export-notlocal "address '192.0.2.1' is not one of this host's"
check "and makes nothing" -- none objects-notlocal
check "export on a TCP port in use exits 1" -- test "$(rc export-inuse)" = 1
check "saying the port is in use" -- has export-inuse "cannot listen on 10.77.0.1:3270: the TCP port is in use"
check "and leaves nothing half-made (no target, backstore or record)" -- none objects-inuse

# the export
j=$(jsect export)
check "export exits 0" -- test "$(rc export)" = 0
check "one LUN, the RAM disk, under an iotriage IQN, for any initiator, on 10.77.0.1:3260" -- \
	jtest "$j" "(.ramdisk.export.transport == \"iscsi\") and (.ramdisk.export.iqn | startswith(\"$IQN\")) and .ramdisk.export.traddr == \"10.77.0.1\" and .ramdisk.export.port == 3260 and .ramdisk.export.allow_any_host and (.ramdisk.export.luns | length == 1) and (.ramdisk.export.luns[0].backstore | startswith(\"iotriage-\"))"
check "LIO holds our target, portal and backstore" -- \
	bash -c "[ \$(awk '/=== BEGIN objects-exported/,/=== END objects-exported/' '$c' | grep -Ec '^lio (iscsi/$IQN[0-9a-f]*\$|iscsi/$IQN.*/tpgt_1/np/10.77.0.1:3260|core/iblock_61696/iotriage-)') = 3 ]"
check "list shows the export" -- has list "Exported over iSCSI as $IQN.* on 10.77.0.1:3260 (LIO), 1 LUN(s), any initiator"
check "a second export (either transport) exits 1" -- test "$(rc export-again)" = 1
check "naming the first" -- has export-again-log "exported already over iSCSI as '$IQN"

# the client reads, the latency
j0=$(jsect wire0)
j5=$(jsect wire500)
check "wire with no delay exits 0" -- test "$(rc wire0)" = 0
check "the client found LUN 0 by the target name and read it" -- \
	jtest "$j0" '[.ramdisk.remote | .qd1, .qd32, .seq1m | (.device | test("^/dev/sd[a-z]+$")) and .ios > 100] + [.ramdisk.local | .qd1, .qd32, .seq1m | .ios > 100] | length == 6 and all'
check "wire with netem 500 us each way exits 0" -- test "$(rc wire500)" = 0
a0=$(jq -r '.ramdisk.added.mean_ns' "$j0" 2>/dev/null)
a5=$(jq -r '.ramdisk.added.mean_ns' "$j5" 2>/dev/null)
diag "local mean $(jq -r '.ramdisk.local.qd1.mean_ns' "$j0") ns; remote mean: no delay $(jq -r '.ramdisk.remote.qd1.mean_ns' "$j0") ns, 500 us each way $(jq -r '.ramdisk.remote.qd1.mean_ns' "$j5") ns"
diag "added mean: no delay ${a0} ns, 500 us each way ${a5} ns (expected 1000000 + ${a0}); p50 $(jq -r '.ramdisk.added.p50_ns' "$j5") ns, p99 $(jq -r '.ramdisk.added.p99_ns' "$j5") ns; IOPS fraction $(jq -r '.ramdisk.added.iops_fraction' "$j0") / $(jq -r '.ramdisk.added.iops_fraction' "$j5")"
check "the added latency is within 15% of 1 ms plus the zero-delay overhead" -- \
	awk -v a0="$a0" -v a5="$a5" 'BEGIN { want = 1000000 + a0; d = a5 - want; if (d < 0) d = -d; exit !(a0 > 0 && d <= 0.15 * want) }'
r0=$(jq -r '.ramdisk.remote.rtt_ns' "$j0" 2>/dev/null)
r5=$(jq -r '.ramdisk.remote.rtt_ns' "$j5" 2>/dev/null)
diag "round trip to the portal: no delay ${r0} ns, 500 us each way ${r5} ns"
check "the client measured its round trip to the portal: 1 ms more with 500 us each way (within 15%)" -- \
	awk -v a="$r0" -v b="$r5" 'BEGIN { d = b - a; exit !(a > 0 && d > 850000 && d < 1150000) }'
check "the iSCSI client found its port to the portal (vcli), the target the one holding the portal (vsrv, in its namespace)" -- \
	jtest "$j0" '.ramdisk.remote.link.interface == "vcli" and .ramdisk.remote.link.kind == "veth" and .ramdisk.local.link.interface == "vsrv"'
check "veths report no speed and nothing is shaped: no ceiling claimed, said why" -- \
	jtest "$j5" '.ramdisk.judgement.ceiling_mbps == null and (.ramdisk.judgement.ceiling_from | startswith("not known: ")) and (.ramdisk.judgement.link_bound | not)'
# QD32's share of local IOPS is set by the VM's one CPU (target and
# initiator share it) as much as by the delay: only QD1's rate must fall.
check "the client reached a fraction of local IOPS at QD32, and fewer QD1 reads a second with delay" -- \
	bash -c "jq -e '.ramdisk.added.iops_fraction > 0 and .ramdisk.added.iops_fraction < 1' '$j0' >/dev/null && jq -e --argjson q \$(jq '.ramdisk.remote.qd1.iops' '$j0') '.ramdisk.remote.qd1.iops < \$q / 2' '$j5' >/dev/null"
check "the table says what the network and target stack added" -- has wire-table "added by the network and the target stack: .* us mean"
check "no session or node record is left after a wire" -- \
	bash -c "! awk '/=== BEGIN objects-wire(0|500)$/,/=== END/' '$c' | grep -Eq '^(session|node)'"
check "the session existed while the client read" -- has objects-during "^session session[0-9]* $IQN"
check "Ctrl-C of wire: it exits 130" -- grep -q "^=== INT rc=130" "$c"
check "and the client logged out and deleted the node record" -- \
	bash -c "! awk '/=== BEGIN objects-int/,/=== END objects-int/' '$c' | grep -Eq '^(session|node)'"
check "SIGKILL of the client leaves its session (the kernel's, until logout)" -- has objects-client-killed "^session session[0-9]* $IQN"
check "the next client run exits 0" -- test "$(rc client-after-kill)" = 0
check "and leaves no session or node record" -- bash -c "! awk '/=== BEGIN objects-client-after/,/=== END objects-client-after/' '$c' | grep -Eq '^(session|node)'"

# destroy, unexport
check "destroy while exported exits 1" -- test "$(rc destroy-exported)" = 1
check "naming the export" -- has destroy-exported "exported over iSCSI as '$IQN.*' on 10.77.0.1:3260: nothing destroyed"
check "and the export stays" -- has objects-refused "^lio iscsi/$IQN"
check "unexport exits 0" -- test "$(rc unexport)" = 0
check "and removes target, backstore and record" -- none objects-unexported

# one allowed initiator
check "export --initiator (another initiator) exits 0" -- test "$(rc export-other)" = 0
check "with an ACL for that initiator alone" -- has objects-other "^lio iscsi/$IQN.*/tpgt_1/acls/iqn.2026-12.org.iotriage.test:other"
check "this initiator is refused (exit 1)" -- test "$(rc client-refused)" = 1
check "and leaves no session or node record" -- bash -c "! awk '/=== BEGIN objects-refused-client/,/=== END objects-refused-client/' '$c' | grep -Eq '^(session|node)'"
jh=$(jsect wire-init)
check "an export for this initiator: wire reads through it" -- jtest "$jh" '.ramdisk.remote.qd1.ios > 10'
check "unexport removes the ACL with the target" -- \
	bash -c "[ \"$(rc unexport-init)\" = 0 ] && [ -z \"\$(awk '/=== BEGIN objects-init-after/,/=== END objects-init-after/' '$c' | grep -v '^===')\" ]"

# SIGKILL of an export
grep '^=== KILLED' "$c" | while read -r line; do diag "$line"; done
for d in 0.005 0.01 0.02 0.04 0.08; do
	check "SIGKILL of an export after $d s, then unexport: exits 0, nothing left" -- \
		bash -c "[ \"\$(sed -n 's/^=== END unexport-after-kill-$d rc=//p' '$c')\" = 0 ] && [ -z \"\$(awk '\$0 == \"=== BEGIN objects-after-kill-$d\" { on = 1; next } /^=== END/ { on = 0 } on' '$c')\" ]"
done
check "destroy --force after a SIGKILLed export exits 0" -- test "$(rc destroy-after-kill)" = 0
check "no target, backstore, session, node or record is left" -- none objects-final
check "and no RAM disk" -- has list-final "No RAM disks exist"
finish
