#!/usr/bin/env bash
# tests/vm/openzfs.sh IOTRIAGE SCENARIO CONSOLE_LOG [TIMEOUT_S]
# Real OpenZFS: the tests/vm VM (run_vm.sh, build_initramfs.sh) with spl.ko
# and zfs.ko built for its kernel and OpenZFS's userland (zpool, zfs and
# their libraries) from tests/vm/openzfs_build.sh's cache, udev, the loop
# driver (doctor's RAM twin) and nineteen SCSI disks on virtio-scsi:
#
#   serial IOTZFS00..14, 192 MiB each (sparse raw files), 512-byte logical
#   and 4096-byte physical sectors (as most SATA disks today: an ashift of 9
#   on them is a finding), every disk read-throttled to OZFS_BPS bytes/s
#   (default 40 MB/s) so that "normal" is one known rate whatever the load of
#   this host; IOTZFS11 to 40% of it (a slow member for doctor), IOTZFS09 and
#   IOTZFS10 write-throttled to OZFS_LOG_BPS (default 2 MB/s: a slow log
#   mirror under sync writes), IOTZFS14 to OZFS_SLOW_WRITE_BPS (default
#   512 KB/s: a replacement disk whose resilver is still running while
#   doctor runs).
#   serial IOTZFS15..18: four more with 512-byte physical sectors, each also
#   limited to OZFS_IOPS reads per second (default 80, well under what the
#   guest's CPU can ask of them, so that every member is saturated) so that a
#   random pass is bound by the disks' IOPS as on hard disks: benchpool's reading
#   of its 4 KiB random pass against the layout (raidz1 against mirrors).
#
# Disks are found in the guest by serial (/dev/disk/by-id/scsi-0QEMU_..._IOTZFSnn
# or the sysfs serial), never by kernel name. The temporary directory and
# qemu are removed on success, failure, timeout and signals. Exit as
# run_vm.sh: 0 when the VM reached "=== VM DONE", 3 without kernel, 1 else
# (2 when OpenZFS could not be built: its message on stderr).
set -u
iotriage=${1:?iotriage binary} scenario=${2:?scenario} console=${3:?console log} limit=${4:-600}
here=$(cd "$(dirname "$0")" && pwd)
bps=${OZFS_BPS:-40000000}
slow=$((bps * 2 / 5))
log_bps=${OZFS_LOG_BPS:-2000000}
slow_write=${OZFS_SLOW_WRITE_BPS:-512000}
iops=${OZFS_IOPS:-80}

ozfs=$(bash "$here/openzfs_build.sh") || exit 2

img=$(mktemp -d /tmp/iotriage-ozfs.XXXXXX)
trap 'rm -rf "$img"' EXIT
trap 'exit 130' INT TERM HUP

args=(-device virtio-scsi-pci,id=scsi0)
for i in $(seq 0 18); do
	id=$(printf 'ozfs%02d' "$i")
	t="throttling.bps-read=$bps"
	phys=4096
	[ "$i" = 11 ] && t="throttling.bps-read=$slow"
	[ "$i" = 9 ] || [ "$i" = 10 ] && t="$t,throttling.bps-write=$log_bps"
	[ "$i" = 14 ] && t="$t,throttling.bps-write=$slow_write"
	[ "$i" -ge 15 ] && t="$t,throttling.iops-read=$iops" && phys=512
	truncate -s 192M "$img/$id.img"
	args+=(-drive "file=$img/$id.img,if=none,id=$id,format=raw,cache=none,aio=threads,$t")
	args+=(-device "scsi-hd,bus=scsi0.0,scsi-id=$i,lun=0,drive=$id,serial=$(printf 'IOTZFS%02d' "$i"),physical_block_size=$phys,logical_block_size=512")
done

export VM_MODULES="virtio_pci virtio_scsi sd_mod loop"
export VM_KO=$(ls "$ozfs"/modules/*.ko | tr '\n' ' ')
export VM_TREE="$ozfs/root"
export VM_LIBS=$(ls /lib/x86_64-linux-gnu/libgcc_s.so.1 /usr/lib/x86_64-linux-gnu/libgcc_s.so.1 2>/dev/null | head -n 1)
export VM_UDEV=1 VM_QEMU_ARGS="" VM_MEM=${VM_MEM:-2048}
bash "$here/run_vm.sh" "$iotriage" "$scenario" "$console" "$limit" "${args[@]}"
