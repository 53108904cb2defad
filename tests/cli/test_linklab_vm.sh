#!/usr/bin/env bash
# The link lab (tests/vm/linklab.sh): Debian's kernel under qemu's q35
# machine with three NVMe drives, one behind a root port limited to
# 2.5 GT/s x1 (x-speed=2_5,x-width=1) and read-throttled to what such a link
# carries (qemu moves data at the same speed whatever a link says), two
# behind root ports at qemu's default (16 GT/s x32) read at 100 MB/s, and
# one SATA drive. One boot runs tests/vm/linklab_scenario.sh: each disk's
# link-rate files listed and captured, readdisks three times and once for
# the table. Disks are found by serial. qemu 7.2's NVMe controller
# advertises 2.5 GT/s x1 itself, so no link of this lab is below what both
# its ends support (that finding is tested on composed trees:
# test_disk_link, test_read_link); here the drive behind the limited port is
# named for its link as its ceiling in 3 of 3 runs, and the others are not.
# Then the slow tail, on real drivers in the same boot: four null_blk
# devices that complete each command 4 ms after it is queued, and a
# device-mapper device over the fourth whose table sends five 1 MiB stretches
# of 256 through dm-delay (30 ms more), as a disk's remapped sectors would:
# its rate stays in line, its p99 does not. readdisks names it for its tail
# latency in 3 of 3 runs and none of the null_blk devices (its own backing
# device among them); doctor names it with "tail latency" as the kind of
# evidence (and the SATA drive, slow against every disk read, for its
# throughput).
# LINKLAB_CONSOLE=FILE re-checks an earlier boot's console (KEEP_CONSOLE=FILE
# keeps one) without booting.
# time-limit: 400
# run-once: asan
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vmlib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)

missing=$(vm_missing)
command -v jq >/dev/null || missing="jq"
vm_ready "link lab VM tests" "$missing" || exit 0

console=$TMP/console.log
start=$(date +%s)
if [ -n "${LINKLAB_CONSOLE:-}" ]; then
	cp "$LINKLAB_CONSOLE" "$console"
	grep -q "^=== VM DONE" "$console"
else
	bash "$here/vm/linklab.sh" "$IOTRIAGE" "$here/vm/linklab_scenario.sh" "$console" "${LINKLAB_LIMIT:-400}" 2>"$TMP/vm.err"
fi
ok $? "the link lab VM booted, ran the whole scenario and powered off"
diag "link lab VM run took $(($(date +%s) - start)) s"
[ -n "${KEEP_CONSOLE:-}" ] && cp "$console" "$KEEP_CONSOLE"
tr -d '\r' <"$console" >"$TMP/c"
c=$TMP/c
check "no lab image directory is left" -- bash -c "! compgen -G '/tmp/iotriage-linklab.*' >/dev/null"
check "no sanitizer report in the VM" -- bash -c "! grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:' '$c'"
sect links >"$TMP/links"
sect table >"$TMP/table"
check "the limited root port says 2.5 GT/s x1 at most, the others 16 GT/s x32" -- \
	bash -c "grep -q '00:03.0/max_link_speed: 2.5 GT/s' '$TMP/links' && grep -q '00:03.0/max_link_width: 1\$' '$TMP/links' && [ \$(grep -Ec '00:0[45].0/max_link_speed: 16.0 GT/s' '$TMP/links') -eq 2 ]"

dev() { printf '[.devices[] | select(.serial == "%s")][0]' "$1"; }
for n in 1 2 3; do
	j=$(jsect readdisks-$n)
	check "run $n: readdisks exits 0" -- test "$(rc readdisks-$n)" = 0
	check "run $n: IOTLINK0's link object: PCIe 2.5 GT/s x1 under a port of 2.5 GT/s x1, not degraded" -- \
		jtest "$j" "$(dev IOTLINK0) | .link.hops[0] | .kind == \"PCIe\" and .negotiated.gt_per_s == 2.5 and .negotiated.width == 1 and .max_above.gt_per_s == 2.5 and .max_above.width == 1 and (.degraded | not)"
	check "run $n: IOTLINK1 and 2: under ports of 16 GT/s x32" -- \
		jtest "$j" "[$(dev IOTLINK1), $(dev IOTLINK2)] | all(.link.hops[0].max_above.gt_per_s == 16 and .link.hops[0].max_above.width == 32)"
	check "run $n: IOTLINK0 is named for its link, as its ceiling (250 MB/s)" -- \
		jtest "$j" "$(dev IOTLINK0) | .sentence | test(\"its PCIe link 0000:01:00.0 at 2.5 GT/s x1 carries 250 MB/s, its read rate [0-9]+ MB/s: the link is its ceiling\")"
	check "run $n: the drives on full-speed ports and the SATA drive are not named for a link" -- \
		jtest "$j" "[$(dev IOTLINK1), $(dev IOTLINK2), $(dev IOTLSATA0)] | all((.sentence // \"\") | test(\"link\") | not)"
	check "run $n: no link is degraded" -- jtest "$j" '[.devices[] | select(.link) | .link.degraded] | any | not'
	check "run $n: the SATA drive's link at 1.5 Gb/s, its ends' maxima unknown (qemu says none)" -- \
		jtest "$j" "$(dev IOTLSATA0) | .link.hops[0] | .kind == \"SATA\" and .negotiated.gbit_per_s == 1.5 and .max_below.gbit_per_s == null and .max_above.gbit_per_s == null"
	diag "run $n:" $(jq -r '.devices[] | "\(.serial) \(.bw_bytes_per_s / 1e6 | floor) MB/s \(.verdict);"' "$j")
done
check "the table's LINK column shows each disk's link" -- \
	bash -c "grep -q '^DEVICE .* LINK ' '$TMP/table' && [ \$(grep -c '^/dev/nvme.* 2.5 GT/s x1 ' '$TMP/table') -eq 3 ] && grep -q '^/dev/sda .* 1.5 Gb/s ' '$TMP/table'"
check "the table lists the link reason under Links:" -- \
	bash -c "grep -q '^Links:' '$TMP/table' && [ \$(grep -c '^  nvme[0-9]*n1: its PCIe link .* the link is its ceiling\$' '$TMP/table') -eq 1 ]"

kdev() { printf '[.devices[] | select(.kname == "%s")][0]' "$1"; }
check "the slow-tail devices were made (null_blk, dm-delay)" -- \
	bash -c "grep -q '^=== END tail-setup rc=0' '$c'"
for n in 1 2 3; do
	j=$(jsect tail-$n)
	check "tail run $n: readdisks exits 0" -- test "$(rc tail-$n)" = 0
	check "tail run $n: dm-0 is named for its tail (verdict slow tail), its rate in line with its peers" -- \
		jtest "$j" "$(kdev dm-0) | .verdict == \"slow tail\" and .tail.reads_out_of_line == 3 and .tail.ratio >= 2 and .percent_of_median >= 75 and (.sentence | test(\"its p99 completion latency, [0-9.]+ ms, is [0-9.]+ times the median of 5 same-model disks\"))"
	check "tail run $n: no null_blk device is named (its own backing device among them)" -- \
		jtest "$j" '[.devices[] | select(.kname | startswith("nullb"))] | length == 4 and all(.verdict == "ok" and ((.sentence // "") | test("latency") | not))'
	diag "tail run $n:" $(jq -r '.devices[] | "\(.kname) \(.bw_bytes_per_s / 1e6 | floor) MB/s p99 \((.tail.p99_ns // 0) / 1e6 | floor) ms \(.verdict);"' "$j")
done
j=$(jsect tail-doctor)
check "doctor exits 0" -- test "$(rc tail-doctor)" = 0
check "doctor: the media layer, dm-0 the subject, named for its tail latency" -- \
	jtest "$j" '.doctor.verdict | .layer == "media" and .subject == "/dev/dm-0" and .named_by == ["tail latency"] and .named[0].kind == "disk" and .named[0].by == ["tail latency"]'
check "doctor: no null_blk device named; each named disk says its kind of evidence" -- \
	jtest "$j" '.doctor.verdict | ([.named[] | select(.subject | test("nullb"))] | length == 0) and all(.named[]; (.by | length) > 0) and (.evidence | test("/dev/dm-0 \\(tail latency\\): "))'
finish
