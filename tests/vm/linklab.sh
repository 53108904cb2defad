#!/usr/bin/env bash
# tests/vm/linklab.sh IOTRIAGE SCENARIO CONSOLE_LOG [TIMEOUT_S]
# The link lab: the tests/vm VM (run_vm.sh) on qemu's q35 machine (a PCIe
# root complex: pcie-root-port needs it), with
#   NVMe serial IOTLINK0 behind root port rp1 limited to 2.5 GT/s x1
#     (x-speed=2_5,x-width=1)
#   NVMe serial IOTLINK1, IOTLINK2 behind root ports at qemu's default
#     (16 GT/s x32)
#   SATA (q35's ich9 AHCI) serial IOTLSATA0
# qemu 7.2's NVMe controller advertises 2.5 GT/s x1 itself, so each NVMe
# link trains at 2.5 GT/s x1 whatever its port (tests/data/linklab/CAPTURED):
# no link here is below what both its ends support, and qemu moves data at
# the same speed whatever a link says. So the drive behind rp1 is read-
# throttled to LINKLAB_SLOW_BPS (default 240 MB/s), what a real 2.5 GT/s x1
# link carries (250 MB/s), and the other NVMe drives to LINKLAB_BPS (default
# 100 MB/s), the SATA drive to 60 MB/s (its link: 1.5 Gb/s, 150 MB/s).
# The slow-tail part of the scenario needs no qemu drive: null_blk, dm-mod
# and dm-delay are loaded in the VM and dmsetup is copied into it.
# Every drive a sparse raw file of 64 MiB. The files and qemu are removed
# on success, failure, timeout and signals. Exit as run_vm.sh.
set -u
iotriage=${1:?iotriage binary} scenario=${2:?scenario} console=${3:?console log} limit=${4:-300}
here=$(cd "$(dirname "$0")" && pwd)
bps=${LINKLAB_BPS:-100000000}
slow=${LINKLAB_SLOW_BPS:-240000000}
img=$(mktemp -d /tmp/iotriage-linklab.XXXXXX)
trap 'rm -rf "$img"' EXIT
trap 'exit 130' INT TERM HUP
args=(-M q35)
drive() { # drive ID BPS
	truncate -s 64M "$img/$1.img"
	args+=(-drive "file=$img/$1.img,if=none,id=$1,format=raw,cache=none,aio=threads,throttling.bps-read=$2")
}
args+=(-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,x-speed=2_5,x-width=1
	-device pcie-root-port,id=rp2,bus=pcie.0,chassis=2
	-device pcie-root-port,id=rp3,bus=pcie.0,chassis=3)
drive lk0 "$slow"
args+=(-device nvme,serial=IOTLINK0,drive=lk0,bus=rp1)
drive lk1 "$bps"
args+=(-device nvme,serial=IOTLINK1,drive=lk1,bus=rp2)
drive lk2 "$bps"
args+=(-device nvme,serial=IOTLINK2,drive=lk2,bus=rp3)
drive la0 60000000
args+=(-device "ide-hd,bus=ide.0,drive=la0,model=IOTRIAGE LINK SATA,serial=IOTLSATA0")
export VM_MODULES="nvme ahci sd_mod null_blk configfs dm_mod dm_delay"
export VM_FILES="$here/../data/capture_sysfs.sh $here/../data/capture_links.sh"
export VM_PROGRAMS="smartctl dmsetup" VM_UDEV=0
export VM_QEMU_ARGS="" VM_MEM=${VM_MEM:-512}
bash "$here/run_vm.sh" "$iotriage" "$scenario" "$console" "$limit" "${args[@]}"
