#!/usr/bin/env bash
# capture_hwlab.sh IOTRIAGE OUT: boots the hardware lab (tests/vm/hwlab.sh,
# scenario tests/vm/hwlab_scenario.sh) and unpacks what it brought back
# over the serial console into OUT (normally tests/data/hwlab): the sysfs
# tree of every disk (sys/, captured with capture_sysfs.sh), smartctl
# --json -a of one disk of each kind (smartctl_*_captured.json), and the
# readdisks, --group-by controller, --mode both and doctor --quick documents
# (*_captured.json). HWLAB_CONSOLE=FILE unpacks an earlier boot's console
# instead of booting. Takes about five minutes on a loaded 2-core host.
set -eu
iotriage=${1:?iotriage binary} out=${2:?output directory}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/iotriage-capture-hwlab.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

if [ -n "${HWLAB_CONSOLE:-}" ]; then
	tr -d '\r' <"$HWLAB_CONSOLE" >"$work/console"
else
	bash "$here/../vm/hwlab.sh" "$iotriage" "$here/../vm/hwlab_scenario.sh" "$work/raw" "${VM_LIMIT:-420}" || {
		tail -20 "$work/raw" >&2
		exit 1
	}
	tr -d '\r' <"$work/raw" >"$work/console"
fi
c=$work/console
grep -q '^=== ENDTAR' "$c" || { tail -20 "$c" >&2; exit 1; }
mkdir -p "$work/cap"
sed -n '/^=== TAR/,/^=== ENDTAR/p' "$c" | sed '1d;$d' | base64 -d | tar xzf - -C "$work/cap"
jsect() { awk -v n="$1" '$0 == "=== JSON " n { on = 1; next } on && index($0, "=== ENDJSON " n " rc=") == 1 { exit } on' "$c"; }
# smartctl_KIND_captured.json: the disk with that serial (kernel names move)
smart() { # smart KIND SERIAL
	local f
	f=$(grep -l "\"serial_number\": \"$2\"" "$work/cap/smartctl"/*.json | head -n 1)
	cp "$f" "$out/smartctl_$1_captured.json"
}
rm -rf "$out"
mkdir -p "$out"
cp -a "$work/cap/sys" "$work/cap/CAPTURED" "$out/"
smart nvme IOTNVME00
smart nvme_critical_warning IOTNVME04
smart nvme_multipath IOTNVMEMP0
smart scsi IOTSCSI00
smart sat IOTSATA0
jsect readdisks-1 >"$out/readdisks_captured.json"
jsect readdisks-3 >"$out/readdisks_group_controller_captured.json"
jsect both >"$out/readdisks_both_captured.json"
jsect doctor >"$out/doctor_quick_captured.json"
grep '^=== TIME' "$c" | tr '\n' ' '
echo
