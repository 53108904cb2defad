#!/usr/bin/env bash
# ramdisk export/wire in one boot of Debian's kernel under qemu (nvmet,
# nvmet_tcp, nvme_tcp, veth, sch_netem as modules; scenario
# tests/vm/wire_scenario.sh): a null_blk RAM disk exported over NVMe/TCP
# and read from a client network namespace; with netem 500 us on both ends
# of the veth the added QD1 latency is 1 ms plus the zero-delay overhead
# within 15%; destroy refused while exported; Ctrl-C and SIGKILL leave no
# subsystem, port, controller or record; bad input makes nothing; tbf at
# 400 Mbit/s on the target's side: the 1 MiB reads meet the link's
# ceiling and the judgement names it (doctor too, with --client-iotriage);
# --ndelay 2ms on a scsi_debug RAM disk: QD1's added latency passed
# through to the client, the delay restored after (and after Ctrl-C);
# refused on null_blk with its delay untouched.
# Latency is on the VM's instruction-counted clock (run_vm.sh), at 2 ns an
# instruction here (500 MIPS; the default 4 ns makes the target stack's CPU
# cost per I/O, ~47,000 instructions, ~190 us: ten times a real core's,
# and next to the 200 us that ramdisk wire calls a large loss).
# One VM run is enough (tests/run.sh): with the sanitized build, which
# passes these checks too and whose sanitizers watch the code only the VM reaches.
# time-limit: 600
# run-once: asan
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vmlib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)

missing=$(vm_missing)
for p in ip tc; do command -v $p >/dev/null || missing="$p (package iproute2)"; done
vm_ready "wire VM tests" "$missing" || exit 0

console=$TMP/console.log
start=$(date +%s)
VM_QEMU_ARGS="-icount shift=1,sleep=off" VM_MODULES="configfs null_blk scsi_debug sd_mod nvmet nvmet_tcp nvme_tcp nvme_fabrics veth sch_netem sch_tbf loop" VM_PROGRAMS="ip tc" \
	bash "$here/vm/run_vm.sh" "$IOTRIAGE" "$here/vm/wire_scenario.sh" "$console" 600 2>"$TMP/vm.err"
ok $? "the VM booted, ran the whole scenario and powered off"
diag "VM run took $(($(date +%s) - start)) s"
tr -d '\r' <"$console" >"$TMP/c"
c=$TMP/c


check "no sanitizer report in the VM" -- bash -c "! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:' '$c'"
check "the client namespace reaches the server over the veth" -- test "$(rc ping)" = 0

# bad input
check "export without RAM disks exits 1" -- test "$(rc export-none)" = 1
check "saying there are none to export" -- has export-none "no RAM disks to export"
check "and makes nothing" -- none objects-none
check "the null_blk RAM disk is created" -- test "$(rc create)" = 0
check "export without --host-nqn or --allow-any-host exits 1, naming both" -- \
	bash -c "[ \"$(rc export-nohost)\" = 1 ] && awk '/=== BEGIN export-nohost/,/=== END export-nohost/' '$c' | grep -q -- '--host-nqn NQN.*--allow-any-host'"
check "export on an address that is not local exits 1" -- test "$(rc export-notlocal)" = 1
check "saying so" -- has export-notlocal "address '192.0.2.1' is not one of this host's"
check "and makes nothing" -- none objects-notlocal
check "export on a TCP port in use exits 1" -- test "$(rc export-inuse)" = 1
check "saying the port is in use" -- has export-inuse "cannot listen on 10.77.0.1:4500: the TCP port is in use"
check "and leaves nothing half-made" -- none objects-inuse

# the export
j=$(jsect export)
check "export exits 0" -- test "$(rc export)" = 0
check "one namespace, the RAM disk, under an iotriage NQN, for any host" -- \
	jtest "$j" '.ramdisk.export.nqn | startswith("nqn.2014-08.org.iotriage:ramdisk-")'
check "on 10.77.0.1:4420, nvmet port 61696" -- \
	jtest "$j" '.ramdisk.export.traddr == "10.77.0.1" and .ramdisk.export.trsvcid == 4420 and .ramdisk.export.nvmet_port == 61696 and .ramdisk.export.allow_any_host and (.ramdisk.export.namespaces | length == 1)'
check "nvmet holds our subsystem and port" -- \
	bash -c "[ \$(awk '/=== BEGIN objects-exported/,/=== END objects-exported/' '$c' | grep -Ec '^nvmet (subsystems/nqn.2014-08.org.iotriage:ramdisk-|ports/61696)') = 2 ]"
check "list shows the export" -- has list "Exported over NVMe/TCP as nqn.2014-08.org.iotriage:ramdisk-.* on 10.77.0.1:4420 (nvmet port 61696), 1 namespace(s), any host"
check "a second export exits 1" -- test "$(rc export-again)" = 1
check "naming the first" -- has export-again-log "exported already as 'nqn.2014-08.org.iotriage:ramdisk-"

# the client reads, the latency
j0=$(jsect wire0)
j5=$(jsect wire500)
check "wire with no delay exits 0" -- test "$(rc wire0)" = 0
check "the client found the namespace by NQN and read it" -- \
	jtest "$j0" '(.ramdisk.remote.qd1.device | test("^/dev/nvme[0-9]+n1$")) and .ramdisk.remote.qd1.ios > 100 and .ramdisk.local.qd1.ios > 100'
check "wire with netem 500 us each way exits 0" -- test "$(rc wire500)" = 0
a0=$(jq -r '.ramdisk.added.mean_ns' "$j0" 2>/dev/null)
a5=$(jq -r '.ramdisk.added.mean_ns' "$j5" 2>/dev/null)
for jj in "$j0" "$j5"; do
	diag "$(jq -r '.ramdisk | "round trip \(.remote.rtt_ns) ns; added mean \(.added.mean_ns) p50 \(.added.p50_ns) p99 \(.added.p99_ns) ns; QD1 local \(.local.qd1.mean_ns) remote \(.remote.qd1.mean_ns) ns; QD32 IOPS local \(.local.qd32.iops) remote \(.remote.qd32.iops) (\(.added.iops_fraction)); 1 MiB local \(.local.seq1m.bw_bytes_per_s) remote \(.remote.seq1m.bw_bytes_per_s) B/s (\(.added.bw_fraction)); \(.judgement.sentence)"' "$jj" 2>&1)"
done
check "the added latency is within 15% of 1 ms plus the zero-delay overhead" -- \
	awk -v a0="$a0" -v a5="$a5" 'BEGIN { want = 1000000 + a0; d = a5 - want; if (d < 0) d = -d; exit !(a0 > 0 && d <= 0.15 * want) }'
# QD32's share of local IOPS is set by the VM's one CPU (target and
# initiator share it) as much as by the delay: only QD1's rate must fall.
check "the client reached a fraction of local IOPS at QD32, and fewer QD1 reads a second with delay" -- \
	bash -c "jq -e '.ramdisk.added.iops_fraction > 0 and .ramdisk.added.iops_fraction < 1' '$j0' >/dev/null && jq -e --argjson q \$(jq '.ramdisk.remote.qd1.iops' '$j0') '.ramdisk.remote.qd1.iops < \$q / 2' '$j5' >/dev/null"
check "the table says what the network and target stack added" -- has wire-table "added by the network and the target stack: .* us mean"
check "QD32 and 1 MiB figures on both sides, in the document" -- \
	jtest "$j0" '[.ramdisk.local, .ramdisk.remote] | all(.qd32.iops > 0 and .qd32.ios > 100 and .seq1m.bw_bytes_per_s > 0 and .seq1m.ios > 10)'
check "and in the table, local and remote" -- \
	bash -c "awk '/=== BEGIN wire-table/,/=== END wire-table/' '$c' | grep -A2 -E '^(4 KiB random read, QD32|1 MiB sequential read, QD8)' | grep -Ec '^  (local|remote) +/dev/' | grep -qx 4"
r0=$(jq -r '.ramdisk.remote.rtt_ns' "$j0" 2>/dev/null)
r5=$(jq -r '.ramdisk.remote.rtt_ns' "$j5" 2>/dev/null)
check "the client measured the round trip: netem 500 us each way adds 1 ms to it (within 15%)" -- \
	awk -v r0="$r0" -v r5="$r5" 'BEGIN { d = r5 - r0 - 1000000; if (d < 0) d = -d; exit !(r0 > 0 && d <= 150000) }'
check "with 1 ms of round trip the judgement names the network, with the round trip" -- \
	jtest "$j5" '.ramdisk.judgement.large and .ramdisk.judgement.layer == "network" and (.ramdisk.judgement.sentence | test("^the network: every I/O waits for the round trip to the target \\([0-9.]+ us"))'
check "with no delay no layer is named: the wire costs little, with the figures" -- \
	jtest "$j0" '(.ramdisk.judgement.large | not) and .ramdisk.judgement.layer == null and (.ramdisk.judgement.sentence | startswith("the network and target stack cost little: "))'
check "the table's layer line" -- has wire-table "^LAYER: the network: every I/O waits for the round trip"

# the link's ceiling
jr=$(jsect wire-rate)
diag "tbf 400 Mbit/s on vsrv: $(jq -r '.ramdisk | "1 MiB local \(.local.seq1m.bw_bytes_per_s) remote \(.remote.seq1m.bw_bytes_per_s) B/s; ceiling \(.judgement.ceiling_mbps) Mb/s (\(.judgement.ceiling_from)); \(.judgement.sentence)"' "$jr" 2>&1)"
check "the ports under the path are found on both sides: veths, whose speed is not taken" -- \
	jtest "$j0" '.ramdisk.remote.link.interface == "vcli" and .ramdisk.remote.link.kind == "veth" and .ramdisk.remote.link.speed_mbps == null and .ramdisk.local.link.interface == "vsrv" and .ramdisk.local.link.speed_mbps == null'
check "with no speed and no shaping the ceiling is not known: said in the document, not claimed" -- \
	jtest "$j0" '.ramdisk.judgement.ceiling_mbps == null and (.ramdisk.judgement.ceiling_from | startswith("not known: the client'"'"'s port vcli (veth) reports no speed")) and (.ramdisk.judgement.link_bound | not) and (.ramdisk.judgement.sentence | test("ceiling") | not)'
check "and the table says not known" -- has wire-table "^the path's ceiling: not known: "
check "wire with the target's side shaped by tbf exits 0" -- test "$(rc wire-rate)" = 0
check "tc's tbf rate on vsrv is read from the kernel: 400 Mb/s" -- \
	jtest "$jr" '.ramdisk.local.link.qdisc == "tbf" and .ramdisk.local.link.shaped_mbps == 400 and .ramdisk.judgement.ceiling_mbps == 400'
check "the client's 1 MiB reads carry within 15% of it" -- \
	jtest "$jr" '(.ramdisk.remote.seq1m.bw_bytes_per_s * 8 / 1e6) as $m | $m >= 340 and $m <= 460'
check "the judgement names the link's ceiling as the network's loss" -- \
	jtest "$jr" '.ramdisk.judgement.link_bound and .ramdisk.judgement.large and .ramdisk.judgement.layer == "network" and (.ramdisk.judgement.sentence | startswith("the network: a bandwidth ceiling that matches the link (400 Mb/s, the tbf rate on vsrv, the target'"'"'s port): 1 MiB reads carried "))'
check "the delayed link's judgement does not claim a ceiling" -- jtest "$j5" '(.ramdisk.judgement.link_bound | not) and .ramdisk.judgement.ceiling_mbps == null'
check "the shaped run's table: the ceiling" -- has wire-rate-table "^the path's ceiling: 400 Mb/s (the tbf rate on vsrv, the target's port); 1 MiB reads carried [0-9]* Mb/s"
check "and the layer line" -- has wire-rate-table "^LAYER: the network: a bandwidth ceiling that matches the link (400 Mb/s"
check "no controller is left after a wire" -- bash -c "! awk '/=== BEGIN objects-wire(0|500)$/,/=== END/' '$c' | grep -q '^controller'"
check "the controller existed while the client read" -- has objects-during "^controller nvme[0-9]* nqn.2014-08.org.iotriage:ramdisk-"
check "Ctrl-C of wire: it exits 130" -- grep -q "^=== INT rc=130" "$c"
check "and the client disconnected: no controller left" -- bash -c "! awk '/=== BEGIN objects-int/,/=== END objects-int/' '$c' | grep -q '^controller'"

# destroy, unexport, SIGKILL
check "destroy while exported exits 1" -- test "$(rc destroy-exported)" = 1
check "naming the export" -- has destroy-exported "exported over NVMe/TCP as 'nqn.2014-08.org.iotriage:ramdisk-.*' on 10.77.0.1:4420: nothing destroyed"
check "and the export stays" -- has objects-refused "^nvmet ports/61696"
check "unexport exits 0" -- test "$(rc unexport)" = 0
check "and removes subsystem, port and record" -- none objects-unexported
# one allowed host
check "export --host-nqn exits 0" -- test "$(rc export-host)" = 0
check "allowing that host alone" -- \
	bash -c "has() { :; }; awk '/=== BEGIN objects-host\$/,/=== END objects-host rc/' '$c' | grep -q '^nvmet hosts/nqn.2014-08.org.nvmexpress:uuid:wire-client'"
check "another host NQN cannot connect (exit 1)" -- test "$(rc client-intruder)" = 1
check "and leaves no controller" -- bash -c "! awk '/=== BEGIN objects-intruder/,/=== END objects-intruder/' '$c' | grep -q '^controller'"
jh=$(jsect wire-host)
check "the allowed host reads through wire" -- jtest "$jh" '.ramdisk.remote.qd1.ios > 10'
# --ndelay refused on null_blk, a bad value
check "wire --ndelay on a null_blk RAM disk exits 1" -- test "$(rc wire-nullblk-ndelay)" = 1
check "naming the backend and the way" -- \
	has wire-nullblk-ndelay "cannot change: the null_blk backend fixes its per-command delay when the device is made; make the RAM disk with 'iotriage ramdisk create --backend scsi_debug'"
check "nothing measured" -- bash -c "! awk '/=== BEGIN wire-nullblk-ndelay\$/,/=== END wire-nullblk-ndelay /' '$c' | grep -q 'random read'"
check "and its delay untouched" -- \
	bash -c "b=\$(sed -n 's/^=== NULLB before //p' '$c'); a=\$(sed -n 's/^=== NULLB after //p' '$c'); [ -n \"\$b\" ] && [ \"\$b\" = \"\$a\" ]"
check "a bad --ndelay value: a usage error (exit 2), saying what is expected" -- \
	bash -c "[ \"$(rc wire-bad-ndelay)\" = 2 ] && awk '/=== BEGIN wire-bad-ndelay/,/=== END wire-bad-ndelay/' '$c' | grep -q \"invalid --ndelay '2parsecs': expected up to 8 comma-separated per-command delays under 1 s\""
check "unexport removes the host entry it made too" -- bash -c "[ \"$(rc unexport-host)\" = 0 ] && [ -z \"\$(awk '/=== BEGIN objects-host-after/,/=== END objects-host-after/' '$c' | grep -v '^===')\" ]"
grep '^=== KILLED' "$c" | while read -r line; do diag "$line"; done
for d in 0.005 0.01 0.012 0.014 0.016 0.018 0.02 0.04; do
	check "SIGKILL of an export after $d s, then unexport: exits 0, nothing left" -- \
		bash -c "[ \"\$(sed -n 's/^=== END unexport-after-kill-$d rc=//p' '$c')\" = 0 ] && [ -z \"\$(awk '\$0 == \"=== BEGIN objects-after-kill-$d\" { on = 1; next } /^=== END/ { on = 0 } on' '$c')\" ]"
done
check "destroy --force after a SIGKILLed export exits 0" -- test "$(rc destroy-after-kill)" = 0
check "no subsystem, port, controller or record is left" -- none objects-final
check "and no RAM disk" -- has list-final "No RAM disks exist"

# --ndelay across the wire on scsi_debug
jn=$(jsect wire-ndelay)
diag "--ndelay 2ms: $(jq -r '.ramdisk.backend_delay[0].sentence' "$jn" 2>&1)"
diag "$(sed -n 's/^=== SD //p' "$c" | tr '\n' ';')"
check "the scsi_debug RAM disk is created and exported" -- bash -c "[ \"$(rc sd-create)\" = 0 ] && [ \"$(rc sd-export)\" = 0 ]"
check "wire --ndelay 2ms exits 0" -- test "$(rc wire-ndelay)" = 0
check "the comparison at the disk's own delay first, as without --ndelay" -- \
	jtest "$jn" '.ramdisk.local.qd1.ios > 100 and .ramdisk.remote.qd1.ios > 100 and .ramdisk.judgement.sentence != null and .ramdisk.backend_delay_base.backend == "scsi_debug" and .ramdisk.backend_delay_base.ndelay_ns == 0'
check "then once at 2 ms, measured on both sides" -- \
	jtest "$jn" '(.ramdisk.backend_delay | length) == 1 and .ramdisk.backend_delay[0].ndelay_ns == 2000000 and .ramdisk.backend_delay[0].local.qd1.ios > 10 and .ramdisk.backend_delay[0].remote.qd1.ios > 10'
check "locally QD1 gains the delay, within 15%" -- \
	jtest "$jn" '.ramdisk.backend_delay[0].effect.qd1.local as $l | $l >= 1700000 and $l <= 2300000 and ((.ramdisk.backend_delay[0].local.qd1.mean_ns - .ramdisk.local.qd1.mean_ns - $l) | fabs) < 10'
check "from the client within 25% of local's: passed through" -- \
	jtest "$jn" '.ramdisk.backend_delay[0].effect.qd1 | (.remote / .local) as $q | $q >= 0.75 and $q <= 1.25 and .word == "passed through"'
check "QD32 and 1 MiB judged too, and the sentence" -- \
	jtest "$jn" '[.ramdisk.backend_delay[0].effect[] | .word] | all(. == "passed through" or . == "hidden" or . == "amplified" or . == "no effect")'
check "the sentence names the delay and QD1's figures" -- \
	jtest "$jn" '.ramdisk.backend_delay[0].sentence | test("^a back end slower by 2000 us per command: QD1 \\+[0-9]+ us locally, \\+[0-9]+ us from the client \\(passed through\\); QD32 IOPS ")'
check "the terminal table: the delayed comparison's heading, a row per workload and the BACK END line" -- \
	bash -c "sect() { awk '/=== BEGIN wire-ndelay-table\$/,/=== END wire-ndelay-table /' '$c'; }; [ \"\$(sect | grep -c '^with the back end.s per-command delay at 2000.0 us')\" = 1 ] && [ \"\$(sect | grep -Ec '^  (4 KiB random read, QD1|4 KiB random read, QD32|1 MiB sequential read, QD8) +[-+]')\" -ge 3 ] && sect | grep -q '^BACK END: a back end slower by 2000 us per command: QD1 +' && sect | grep -q '^the per-command delay of /dev/sd[a-z]* restored to 0.0 us'"
check "the delay is restored: ndelay 0 and delay 0 (not the module's jiffy)" -- grep -qx "=== SD after ndelay=0 delay=0" "$c"
check "and the document says so" -- jtest "$jn" '.ramdisk.backend_delay_base.restored'
check "each step is logged: set to 2 ms, restored to 0" -- \
	bash -c "awk '/=== BEGIN ndelay-steps/,/=== END ndelay-steps/' '$c' | grep -q 'RAMDISK: setting the per-command delay of /dev/sd[a-z]* (scsi_debug) to 2000000 ns' && awk '/=== BEGIN ndelay-steps/,/=== END ndelay-steps/' '$c' | grep -q 'RAMDISK: restoring the per-command delay of /dev/sd[a-z]* (scsi_debug) to 0 ns'"
check "Ctrl-C while the back end is slowed: exit 130" -- bash -c "grep -qx '=== SD during ndelay=1000000' '$c' && grep -qx '=== SD INT rc=130' '$c'"
check "and the delay is restored" -- grep -qx "=== SD after-int ndelay=0 delay=0" "$c"
check "unexport and destroy exit 0, nothing left" -- \
	bash -c "[ \"$(rc sd-unexport)\" = 0 ] && [ \"$(rc sd-destroy)\" = 0 ] && [ -z \"\$(awk '/=== BEGIN objects-sd\$/,/=== END objects-sd /' '$c' | grep -v '^===')\" ]"
check "no RAM disk's link, scsi_debug unloaded" -- bash -c "[ \"$(rc sd-left)\" != 0 ] && ! awk '/=== BEGIN sd-left/,/=== END sd-left/' '$c' | grep -v '^===' | grep -qv 'No such file'"

# doctor --client
check "doctor with a client it cannot reach exits 1" -- test "$(rc doctor-badclient)" = 1
check "saying the step across the wire failed" -- has doctor-badclient "across the wire to /bin/ip netns exec nosuch: the client step failed"
check "and leaves no export, controller or RAM disk" -- none objects-doctor-badclient
check "with no /dev/shm doctor's own RAM disk says what is missing" -- \
	has doctor-badclient "cannot make a RAM disk: there is no /dev/shm (no tmpfs mounted there)"
jd=$(jsect doctor-wire)
diag "doctor: $(jq -r '.doctor.verdict.layer + ": " + .doctor.verdict.evidence' "$jd" 2>&1)"
check "doctor --client with 1 ms of round trip exits 0" -- test "$(rc doctor-wire)" = 0
check "its verdict is the network layer, the path to the client" -- \
	jtest "$jd" '.doctor.verdict.layer == "network" and (.doctor.verdict.subject | startswith("the path to /bin/ip netns exec cli (NVMe/TCP to 10.77.0.1)"))'
check "with the round trip and the figures as evidence" -- \
	jtest "$jd" '(.doctor.verdict.evidence | test("round trip to the target \\([0-9.]+ us.*added per 4 KiB read at QD1.*local IOPS at QD32.*local bandwidth at 1 MiB")) and .doctor.wire.remote.rtt_ns > 850000 and .doctor.wire.added_mean_ns > 850000'
check "step 3 explains it" -- jtest "$jd" '.doctor.steps[2].explains and .doctor.steps[2].state == "ran"'
check "doctor's own RAM disk (a loop device on /dev/shm) is read first in step 3" -- \
	jtest "$jd" '.doctor.steps[2].summary | test("^a RAM disk reads at [0-9.]+ [kMGT]B/s through the same path; across the wire to ")'
check "and nothing is left: no export, controller or RAM disk" -- none objects-doctor-wire
check "the printed verdict names the network layer" -- has doctor-wire-text "^VERDICT: the network layer: the path to"
check "Ctrl-C of doctor while the client reads: it exits 130" -- grep -q "^=== DOCTOR INT rc=130" "$c"
diag "doctor interrupted after $(sed -n 's/^=== DOCTOR WAITED //p' "$c") tenths of a second: $(sect doctor-int-log | tail -n 3 | tr '\n' ' ')"
check "the controller existed then" -- has objects-doctor-during "^controller nvme[0-9]* nqn.2014-08.org.iotriage:ramdisk-"
check "and after it nothing is left" -- none objects-doctor-int
check "no RAM disk either" -- has list-doctor-int "No RAM disks exist"

# doctor --client-iotriage, over the target's side shaped to 400 Mbit/s
jc=$(jsect doctor-cbin)
diag "doctor --client-iotriage: $(jq -r '.doctor.verdict | .layer + ": " + .evidence + " NEXT: " + .next' "$jc" 2>&1)"
check "doctor --client-iotriage PATH exits 0" -- test "$(rc doctor-cbin)" = 0
check "the client ran the program named: ramdisk client with the export's address and NQN" -- \
	has client-bin-args "^ramdisk client --runtime 1000ms --nvme-tcp 10.77.0.1:4420 --nqn nqn.2014-08.org.iotriage:ramdisk-"
check "over the shaped link the verdict is the network, the link's ceiling, with its next step" -- \
	jtest "$jc" '.doctor.verdict.layer == "network" and (.doctor.verdict.evidence | startswith("the network: a bandwidth ceiling that matches the link (400 Mb/s")) and .doctor.wire.link_bound and .doctor.wire.ceiling_mbps == 400 and (.doctor.verdict.next | startswith("the link carries no more than 400 Mb/s"))'
check "a program the client does not have: doctor exits 1" -- test "$(rc doctor-cbin-missing)" = 1
check "step 3 says the client step failed, naming the program" -- \
	has doctor-cbin-missing 'across the wire to /bin/ip netns exec cli: the client step failed (exit [0-9]*): exec of "/nonexistent/iotriage" failed'
check "and nothing is left: no export, controller or RAM disk" -- none objects-doctor-cbin
check "with proc on /dev/shm doctor's own RAM disk is not made there, and says why" -- \
	has doctor-cbin-missing "cannot make a RAM disk: /dev/shm is not a tmpfs (a file there is not memory)" ||
	diag "mounts on /dev/shm then: $(sect shm-mounts | tr '\n' ' '); $(sect doctor-cbin-missing | grep -i 'ram disk')"
finish
