#!/usr/bin/env bash
# bench/ramdisk_sweep.sh [NDELAY_LIST] [RUNTIME]: the spec's worked example
# as a curve. Boots Debian's kernel in a VM (tests/vm/run_vm.sh; scsi_debug
# and null_blk are not in this machine's kernel) and runs
#   iotriage ramdisk sweep --backend scsi_debug --ndelay LIST --runtime RUNTIME
# and the same on null_blk: per value one 64 MiB RAM disk, filled with
# random data, 4 KiB random reads at queue depth 1 (O_DIRECT, psync, the
# project's job engine). Prints both tables. The VM's clock counts
# instructions (run_vm.sh explains why), so the figures are ratios within
# one run. Needs root (the kernel image in /boot). Removes everything.
set -eu
list=${1:-0,25000,50000,100000,250000,500000}
runtime=${2:-3s}
here=$(cd "$(dirname "$0")/.." && pwd)
iotriage=${IOTRIAGE:-$here/build/iotriage}
work=$(mktemp -d /tmp/iotriage-bench-sweep.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP
case $list in *[!0-9,]*) echo "bad NDELAY_LIST '$list'" >&2; exit 2 ;; esac
case $runtime in *[!0-9a-z]*) echo "bad RUNTIME '$runtime'" >&2; exit 2 ;; esac
cat >"$work/scenario.sh" <<SCENARIO
export IOTRIAGE_STATE_DIR=/tmp/state
for b in scsi_debug null_blk; do
	echo "=== \$b"
	iotriage ramdisk sweep --backend \$b --ndelay $list --size 64M --runtime $runtime 2>/dev/null
done
SCENARIO
bash "$here/tests/vm/run_vm.sh" "$iotriage" "$work/scenario.sh" "$work/console.log" 1800
tr -d '\r' <"$work/console.log" | sed -n '/^=== scsi_debug/,/^=== VM DONE/p' | grep -v '^=== VM DONE'
