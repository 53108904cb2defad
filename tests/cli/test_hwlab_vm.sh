#!/usr/bin/env bash
# The hardware lab (tests/vm/hwlab.sh): Debian's kernel under qemu with
# NVMe (one multipath subsystem), virtio-scsi and AHCI disks, each with an
# identity, all read-throttled to one rate, one NVMe and one SCSI disk to
# 40% of it, three SCSI disks on a second controller in one throttle
# group. One boot runs tests/vm/hwlab_scenario.sh: sysfs and smartctl
# captured, readdisks three times, --mode both (SCSI disks), --group-by controller,
# readdisk on a partition, doctor --quick; the health sweep before each
# read pass, the throttle group held back among others on one controller;
# baselines saved, the NVMe controllers rebound in reverse order (new
# kernel names) and one disk throttled in the guest (cgroup io.max). Disks are found by identity (serial, WWN), never by
# kernel name: probe order moves names between boots. HWLAB_CONSOLE=FILE
# re-checks an earlier boot's console (KEEP_CONSOLE=FILE keeps one) without
# booting; HWLAB_LIMIT caps the boot (420 s).
# One VM run is enough (tests/run.sh): with the sanitized build, which
# passes these checks too and whose sanitizers watch the code only the VM reaches.
# time-limit: 600
# run-once: asan
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vmlib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)

missing=$(vm_missing)
command -v smartctl >/dev/null || missing="smartctl (package smartmontools)"
command -v jq >/dev/null || missing="jq"
command -v udevadm >/dev/null && [ -x /usr/lib/udev/ata_id ] || missing="udevadm and its helpers (package udev)"
vm_ready "hardware lab VM tests" "$missing" || exit 0

console=$TMP/console.log
start=$(date +%s)
if [ -n "${HWLAB_CONSOLE:-}" ]; then # re-check an earlier boot's console
	cp "$HWLAB_CONSOLE" "$console"
	grep -q "^=== VM DONE" "$console"
else
	bash "$here/vm/hwlab.sh" "$IOTRIAGE" "$here/vm/hwlab_scenario.sh" "$console" "${HWLAB_LIMIT:-420}" 2>"$TMP/vm.err"
fi
ok $? "the lab VM booted, ran the whole scenario and powered off"
diag "lab VM run took $(($(date +%s) - start)) s (guest:" $(tr -d '\r' <"$console" | sed -n 's/^=== TIME \([^ ]*\) \([0-9]*\)$/\1=\2s/p') ")"
[ -n "${KEEP_CONSOLE:-}" ] && cp "$console" "$KEEP_CONSOLE"
tr -d '\r' <"$console" >"$TMP/c"
c=$TMP/c
# (only hwlab.sh's own directory: other VMs on this host may be running)
check "no lab image directory is left" -- bash -c "! compgen -G '/tmp/iotriage-hwlab.*' >/dev/null"
check "no sanitizer report in the VM" -- bash -c "! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:' '$c'"


# --- the lab as the drivers made it ---
check "the drivers made 6 NVMe namespaces, the multipath one and its two hidden paths" -- \
	bash -c "[ \$(sect() { :; }; awk '\$0 == \"=== BEGIN describe\" { on = 1; next } /^=== END/ { on = 0 } on' '$c' | grep -Ec '^nvme[0-9]+n1 -> ') -eq 7 ] && grep -Eq '^nvme[0-9]+c[0-9]+n1 -> .* nodev=yes' '$c'"
check "9 SCSI disks on two virtio-scsi controllers and 4 SATA disks, one with a partition" -- \
	bash -c "awk '\$0 == \"=== BEGIN describe\" { on = 1; next } /^=== END/ { on = 0 } on' '$c' >'$TMP/describe' &&
		[ \$(grep -c '/virtio[0-9]*/host[0-9]*/' '$TMP/describe') -eq 9 ] &&
		[ \$(grep -c '/ata[0-9]*/host' '$TMP/describe') -eq 4 ] && grep -q 'parts=sd[a-z]*1 ' '$TMP/describe'"
mkdir -p "$TMP/cap"
sed -n '/^=== TAR/,/^=== ENDTAR/p' "$c" | sed '1d;$d' | base64 -d 2>/dev/null | tar xzf - -C "$TMP/cap" 2>/dev/null
check "the sysfs tree and smartctl output came back over the console" -- test -f "$TMP/cap/CAPTURED"

# --- SMART, as smartctl itself reports it ---
by_serial() { grep -l "\"serial_number\": \"$1\"" "$TMP"/cap/smartctl/*.json 2>/dev/null | head -n 1; }
crit=$(by_serial IOTNVME04)
check "smartctl: the critical-warning NVMe reports critical_warning 4 (reliability degraded) and FAILED" -- \
	jtest "${crit:-/dev/null}" '.nvme_smart_health_information_log.critical_warning == 4 and .smart_status.passed == false and .smart_status.nvme.reliability_degraded'
check "smartctl: the other NVMe namespaces (the multipath one included) pass with a temperature" -- \
	bash -c "for s in IOTNVME00 IOTNVME05 IOTNVMEMP0; do f=\$(grep -l \"\\\"serial_number\\\": \\\"\$s\\\"\" '$TMP'/cap/smartctl/*.json | head -n 1); jq -e '.smart_status.passed and .temperature.current > 0' \"\$f\" >/dev/null || exit 1; done"
check "smartctl: SATA disks pass, with ATA attributes and the full model" -- \
	jtest "$(by_serial IOTSATA0)" '.device.type == "sat" and .smart_status.passed and (.ata_smart_attributes.table | length > 0) and .model_name == "IOTRIAGE LAB SATA SSD"'
check "smartctl: SCSI disks answer with their identity but no SMART support (qemu scsi-hd has none)" -- \
	jtest "$(by_serial IOTSCSI00)" '.device.type == "scsi" and .scsi_vendor == "IOTRIAGE" and .smart_support.available == false and (has("smart_status") | not)'

jq_slurp() { jq -e --slurpfile s "$2" "$3" "$1" >/dev/null 2>&1; } # jq_slurp FILE OTHER EXPR: OTHER as $s

# --- readdisks, three runs ---
slow_of() { jq -r '[.devices[] | select(.verdict == "slow") | (.wwn // .serial)] | sort | join(" ")' "$1"; }
for n in 1 2 3; do
	j=$(jsect readdisks-$n)
	check "readdisks run $n: exactly the throttled NVMe and the throttled SCSI disk are slow" -- \
		jtest "$j" '[.devices[] | select(.verdict == "slow") | .serial] | sort == ["IOTNVME05", "IOTSCSI05"]'
	check "readdisks run $n: each against its own model group (7 NVMe, 9 SCSI), 3 of 3 reads" -- \
		jtest "$j" '[.devices[] | select(.verdict == "slow") | [.transport, .peers.set_size, .peers.same_model_and_size, (.sentence | test("3 of 3 reads out of line"))]] | sort == [["nvme", 7, true, true], ["scsi", 9, true, true]]'
	diag "run $n:" $(jq -r '.devices[] | select(.verdict == "slow") | .sentence' "$j") \
		"(median $(jq -r '.summary.median_bw_bytes_per_s / 1e6 | floor' "$j") MB/s)"
done
j=$TMP/readdisks-1.json
check "links: every SATA disk has its link (1.5 Gb/s in qemu), none is degraded and no disk is named for its link (25 MB/s is far below any)" -- \
	jtest "$j" '([.devices[] | select(.transport == "sata" and .status == "ok") | .link.hops[0] | .kind == "SATA" and .negotiated.gbit_per_s > 0] | length == 4 and all) and ([.devices[] | select(.link) | .link.degraded] | any | not) and ([.devices[] | (.sentence // "") | select(test("link"))] | length == 0)'
check "the multipath namespace is read once: its two hidden paths are skipped, saying why" -- \
	jtest "$j" '([.devices[] | select(.kname | test("^nvme[0-9]+c[0-9]+n[0-9]+$")) | select(.status == "skipped" and (.reason | test("multipath")))] | length == 2) and ([.devices[] | select(.serial == "IOTNVMEMP0" and .status == "ok")] | length == 1)'
check "readdisks exits 0 with every readable disk read" -- test "$(rc readdisks-1)" = 0
check "identities: SCSI disks carry serial, wwn, vendor, model and transport scsi" -- \
	jtest "$j" '[.devices[] | select(.serial == "IOTSCSI03")][0] | .wwn == "naa.5000c5000000a003" and .vendor == "IOTRIAGE" and .model == "LAB-SAS-HDD" and .transport == "scsi" and .rotational'
check "identities: SATA disks carry serial, wwn, the full ATA model and transport sata" -- \
	jtest "$j" '[.devices[] | select(.serial == "IOTSATA1")][0] | .wwn == "naa.5001b4400000b001" and .model == "IOTRIAGE LAB SATA SSD" and .transport == "sata" and (.rotational | not)'
check "identities: NVMe namespaces carry the controller serial, model and an nvme wwid" -- \
	jtest "$j" '[.devices[] | select(.serial == "IOTNVME02")][0] | .model == "QEMU NVMe Ctrl" and (.wwn | startswith("nvme.")) and .transport == "nvme"'
# --- the health sweep before the read pass ---
check "health sweep: the critical-warning NVMe reads in line but is a finding: SMART failed, critical warning 4, 0 media errors, its temperature" -- \
	jtest "$j" '[.devices[] | select(.serial == "IOTNVME04")][0] | .verdict == "ok" and .health.smart == "failed" and .health.critical_warning == 4 and .health.media_errors == 0 and .health.temperature_c > 0 and .health.finding and (.sentence | test("; health finding: SMART FAILED.*critical warning 0x04"))'
check "health sweep: every NVMe and SATA disk read was asked (state and temperature), every SCSI disk too (no SMART on qemu scsi-hd), and only IOTNVME04 is a finding" -- \
	jtest "$j" '[.devices[] | select(.status == "ok")] | (map(select(.transport == "nvme" or .transport == "sata")) | length == 11 and all(.health.smart == "passed" or .health.smart == "failed") and all(.health.temperature_c > 0)) and (map(select(.transport == "scsi")) | length == 9 and all(.health.smart == "unavailable")) and ([.[] | select(.health.finding) | .serial] == ["IOTNVME04"])'
sweep=$(sect readdisks-1-log | sed -n 's/.*health sweep: \([0-9]*\) disk(s) asked for their SMART state in \([0-9.]*\) s.*/\1 \2/p' | head -n 1)
check "health sweep: its cost is bounded: under 1 s a disk in the lab (${sweep:-none})" -- \
	awk -v s="${sweep:-0 99}" 'BEGIN { split(s, a, " "); exit !(a[1] == 20 && a[2] / a[1] < 1) }'
diag "health sweep: $(echo "$sweep" | awk '{ printf "%d disks in %.1f s, %.0f ms a disk", $1, $2, 1000 * $2 / $1 }')"
diag "health finding: $(jq -r '.devices[] | select(.serial == "IOTNVME04") | .sentence' "$j")"

# --- --mode both: the throttle group ---
j=$(jsect both)
check "--mode both: the three throttle-group disks' controller is a shared path" -- \
	jtest "$j" '[.shared_paths[] | select(.bottleneck)] | length == 1 and .[0].disks == 3'
tg=$(jq -r '[.shared_paths[] | select(.bottleneck)][0].path_group' "$j")
check "--mode both: the group is exactly IOTSCSIG0..2, and none of them is blamed" -- \
	jtest "$j" "([.devices[] | select(.parallel.path_group == \"$tg\") | .serial] | sort) == [\"IOTSCSIG0\", \"IOTSCSIG1\", \"IOTSCSIG2\"] and all(.devices[] | select(.parallel.path_group == \"$tg\"); .verdict == \"ok\")"
diag "--mode both: $(sect both-log | grep -o 'the 3 disks on .*when read together')"
sg=$(jq -r '[.devices[] | select(.serial == "IOTSCSI03" or .serial == "IOTSCSI04") | .kname] | sort | join(" ")' "$j")
check "--mode both: on the controller of six, the two disks of a throttle group are found held back while the others hold, none blamed ($sg)" -- \
	jtest "$j" ". as \$root | [.shared_paths[] | select(.held_back | length > 0)] | length == 1 and .[0].disks == 6 and (.[0].bottleneck | not) and (.[0].held_back | sort | join(\" \")) == \"$sg\" and .[0].held_back_median_percent_of_serial < 70 and .[0].median_percent_of_serial >= 70 and all(\$root.devices[] | select(.serial == \"IOTSCSI03\" or .serial == \"IOTSCSI04\"); .verdict == \"ok\")"
diag "--mode both: $(sect both-log | grep -o 'on [^,]*, 2 of its .*keeps [0-9]*%')"
check "--mode both: each controller read on its own first; the throttle group's controller is a bottleneck in its own pass" -- \
	jtest "$j" ".group_passes.by == \"controller\" and ([.group_passes.groups[] | select(.bottleneck)] | length == 1 and .[0].group == \"$tg\" and .[0].disks == 3)"
check "--mode both: on the controller of six read on its own, the same two disks are held back, the group keeps its rate ($sg)" -- \
	jtest "$j" "[.group_passes.groups[] | select(.disks == 6)] | length == 1 and (.[0].bottleneck | not) and (.[0].held_back | sort | join(\" \")) == \"$sg\" and .[0].median_percent_of_serial >= 70"
diag "--mode both, group passes: $(jq -r '[.group_passes.groups[] | "\(.group): \(.median_percent_of_serial | floor)% alone, \(.all_median_percent_of_serial | floor)% among all"] | join("; ")' "$j")"
diag "--mode both, each disk (serial status solo-MB/s together-%):" $(jq -r '[.devices[] | "\(.serial):\(.status):\((.bw_bytes_per_s // 0) / 1e6 | floor):\(.parallel.percent_of_serial // .parallel.failure // "none" | tostring | .[0:60])"] | join(" ")' "$j")

# --- /dev/disk/by-id, made by the real udev (systemd-udevd and Debian's
# 60-persistent-storage.rules, from the host), as iotriage names the disks ---
check "udev ran in the VM and settled: /dev/disk/by-id has links for the lab's disks" -- \
	bash -c "[ '$(rc udev)' = 0 ] && grep -q '^udev settled: rc=0' '$c' && [ \$(awk '\$0 == \"=== BEGIN byid\" { on = 1; next } /^=== END/ { on = 0 } on' '$c' | grep -c ' -> ../../') -ge 20 ]"
byid_check() { # byid_check JSON SERIAL LINK WHAT SECTION: the disk's by_id is LINK, and udev's LINK (as SECTION lists them) names its kernel name
	local j=$1 serial=$2 link=$3 what=$4 section=$5 kname
	# (not the multipath namespace's hidden paths: same serial, skipped, no node)
	kname=$(jq -r --arg s "$serial" '[.devices[] | select(.serial == $s and .status != "skipped")][0].kname' "$j")
	check "by-id of $what ($serial): $link, udev's link to $kname" -- \
		bash -c "jq -e --arg s '$serial' --arg l '/dev/disk/by-id/$link' '[.devices[] | select(.serial == \$s and .status != \"skipped\")][0].by_id == \$l' '$j' >/dev/null &&
			awk '\$0 == \"=== BEGIN $section\" { on = 1; next } /^=== END/ { on = 0 } on' '$c' | grep -qxF '$link -> ../../$kname'"
}
jsect partition >/dev/null
jsect baseline-check >/dev/null
j=$TMP/readdisks-1.json
byid_check "$j" IOTNVME00 nvme-QEMU_NVMe_Ctrl_IOTNVME00_1 "an NVMe namespace (MODEL_SERIAL_NSID, over the obsolete MODEL_SERIAL and the hex wwid)" byid
byid_check "$j" IOTNVMEMP0 nvme-QEMU_NVMe_Ctrl_IOTNVMEMP0_1 "the multipath namespace" byid
byid_check "$j" IOTSCSI00 wwn-0x5000c5000000a000 "a SCSI disk (its WWN, from scsi_id)" byid
byid_check "$j" IOTSATA0 wwn-0x5001b4400000b000 "a SATA disk (its WWN, from ata_id)" byid
byid_check "$TMP/partition.json" IOTSATA3 wwn-0x5001b4400000b003-part1 "the partition (its parent's link, -part1)" byid
byid_check "$TMP/baseline-check.json" IOTNVME01 nvme-QEMU_NVMe_Ctrl_IOTNVME01_1 "IOTNVME01 after the rebind (the link follows the new name)" byid-after
diag "by-id: $(jq -r '[.devices[] | select(.serial == "IOTNVME00" or .serial == "IOTSCSI00" or .serial == "IOTSATA0") | "\(.kname)=\(.by_id)"] | join(" ")' "$j") $(jq -r '.devices[0] | "\(.kname)=\(.by_id)"' "$TMP/partition.json")"

# --- --group-by controller (the third run) ---
j=$TMP/readdisks-3.json
check "--group-by controller: the multipath namespace is one group, its subsystem and both controllers" -- \
	jtest "$j" '.grouping.by == "controller" and ([.grouping.groups[] | select(.name | test("^nvme-subsys[0-9]+ [(]pci [0-9a-f:.]+, pci [0-9a-f:.]+[)]$")) | .disks] == [1])'
check "--group-by controller: 7 NVMe controllers/subsystems, the 6 and 3 SCSI disks by controller and host, the 4 SATA disks by their AHCI controller" -- \
	jtest "$j" '[.grouping.groups[] | select(.ok > 0) | .disks] | sort == [1, 1, 1, 1, 1, 1, 1, 3, 4, 6]'
check "--group-by controller: the skipped multipath paths are in no group" -- \
	jtest "$j" '([.grouping.groups[] | select(.ok == 0)] | length == 0) and ([.grouping.groups[].devices[] | select(test("nvme[0-9]+c[0-9]+n"))] | length == 0)'
check "--group-by controller: only IOTNVME05's controller is a slow group (40% of the groups' median), its one disk slow one by one; no other group is named" -- \
	jtest "$j" '([.devices[] | select(.serial == "IOTNVME05") | .path][0]) as $p | [.grouping.groups[] | select(.sentence)] | length == 1 and .[0].verdict == "slow" and .[0].devices == [$p] and (.[0].sentence | test("its disks are slow one by one [(]1 of 1[)]$"))'
diag "--group-by controller:" $(jq -r '[.grouping.groups[] | "\(.name)=\(.disks)"] | join("; ")' "$j")

# --- a partition ---
j=$(jsect partition)
check "readdisk on the partition reads it" -- jtest "$j" '.devices[0].status == "ok"'
check "readdisk on the partition: its own name and size, its parent's identity (IOTSATA3)" -- \
	jq_slurp "$j" "$TMP/readdisks-1.json" '.devices[0] | (.kname | test("^sd[a-z]+1$")) and .serial == "IOTSATA3" and .wwn == "naa.5001b4400000b003" and .model == "IOTRIAGE LAB SATA SSD" and .transport == "sata" and .size_bytes == ([$s[0].devices[] | select(.serial == "IOTSATA3")][0].size_bytes - 2048 * 512) and .size_bytes > 0'
diag "partition: $(jq -c '.devices[0] | {kname, serial, wwn, model, size_bytes, by_id}' "$j")"

# --- doctor --quick ---
j=$(jsect doctor)
slow_nvme=$(jq -r '.devices[] | select(.serial == "IOTNVME05") | .path' "$j")
check "doctor --quick reaches a verdict: the media layer, naming the slow NVMe ($slow_nvme)" -- \
	jtest "$j" ".doctor.verdict.layer == \"media\" and .doctor.verdict.subject == \"$slow_nvme\""
diag "doctor --quick (exit $(rc doctor)): $(jq -r '.doctor.verdict | "\(.layer) \(.subject): \(.evidence); \(.confidence)"' "$j")"
crit_path=$(jq -r '.devices[] | select(.serial == "IOTNVME04") | .path' "$j")
check "doctor --quick: the media verdict also names the critical-warning NVMe ($crit_path) with its health evidence" -- \
	jtest "$j" ".doctor.verdict.evidence | test(\"${crit_path#/dev/} reads at [0-9]+% .*health finding: SMART FAILED\")"
check "doctor --quick: the skipped multipath paths' sentences do not repeat their reasons" -- \
	jtest "$j" 'all(.devices[] | select(.status == "skipped"); . as $d | $d.sentence | contains($d.reason) | not) and ([.devices[] | select(.status == "skipped")] | length == 2)'
diag "doctor confidence: $(jq -r '.doctor.verdict.confidence' "$j")"

# --- baselines across a change of kernel names (rebind in reverse order) ---
j1=$(jsect baseline-save)
j2=$(jsect baseline-check)
name_of() { sect "$1" | awk -v s="$2" '$2 == s { print $1 }'; }
b01=$(name_of names-before IOTNVME01) a01=$(name_of names-after IOTNVME01)
b05=$(name_of names-before IOTNVME05) a05=$(name_of names-after IOTNVME05)
check "the rebind moved the kernel names (IOTNVME01 $b01 -> $a01, IOTNVME05 $b05 -> $a05), the same six serials" -- \
	bash -c "[ -n '$a01' ] && [ '$b01' != '$a01' ] && [ -n '$a05' ] && [ '$b05' != '$a05' ] && [ \"\$(awk '\$0 == \"=== BEGIN names-before\" { on = 1; next } /^=== END/ { on = 0 } on { print \$2 }' '$c' | sort)\" = \"\$(awk '\$0 == \"=== BEGIN names-after\" { on = 1; next } /^=== END/ { on = 0 } on { print \$2 }' '$c' | sort)\" ]"
check "--save-baseline saved the 7 NVMe namespaces' rates (exit 0)" -- \
	bash -c "[ '$(rc baseline-save)' = 0 ] && jq -e '[.devices[] | select(.status == \"ok\")] | length == 7' '$j1' >/dev/null"
check "after the rebind every namespace found its own baseline: the rate saved for its serial, not for its old kernel name" -- \
	jq_slurp "$j2" "$j1" '[.devices[] | select(.status == "ok")] | length == 7 and all(.[]; . as $d | ($s[0].devices[] | select(.serial == $d.serial and .status == "ok") | .bw_bytes_per_s) as $saved | $d.baseline.bw_bytes_per_s > 0 and ((($d.baseline.bw_bytes_per_s - $saved) | fabs) < $saved * 0.001))'
check "the throttled IOTNVME01 ($a01) is slow against its own baseline, 3 of 3 reads below it; the others within theirs" -- \
	jtest "$j2" '([.devices[] | select(.status == "ok" and .baseline.reads_below > 0) | .serial] == ["IOTNVME01"]) and ([.devices[] | select(.serial == "IOTNVME01")][0] | .verdict == "slow" and .baseline.reads_below == 3 and (.sentence | test("[0-9]+% of its baseline of [0-9.]+ MB/s from [0-9-]{10} \\(3 of 3 reads below it\\)")))'
check "IOTNVME05, now $a05, keeps its own 40%-rate baseline (slow against its peers, within its baseline)" -- \
	jtest "$j2" '[.devices[] | select(.serial == "IOTNVME05")][0] | .verdict == "slow" and .baseline.reads_below == 0 and (.sentence | test("within it"))'
diag "baseline: $(jq -r '.devices[] | select(.serial == "IOTNVME01" or .serial == "IOTNVME05") | .sentence' "$j2" | tr '\n' '|')"

finish
