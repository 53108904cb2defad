#!/usr/bin/env bash
# tests/vm/run_vm.sh IOTRIAGE SCENARIO CONSOLE_LOG [TIMEOUT_S [QEMU_ARG...]]
# Boots Debian's kernel under qemu (TCG: -enable-kvm hangs on this kind of
# machine) with an initramfs holding busybox, the RAM-disk modules, IOTRIAGE
# and its libraries, runs SCENARIO (a busybox sh script) as the VM's whole
# job, and writes the serial console to CONSOLE_LOG. One boot per scenario.
# The initramfs and qemu are removed/killed on success, failure, timeout
# and SIGINT/SIGTERM/SIGHUP. Exit: 0 when the VM reached "=== VM DONE",
# 3 when no kernel/modules pair is installed, 1 otherwise.
#
# Clock: -icount shift=2,sleep=off. Guest time is counted in instructions
# (4 ns each, a 250 MIPS CPU) and jumps straight to the next timer when the
# guest idles. Without it, TCG on a shared 2-core host delivers a guest
# hrtimer 150 us to over 1 ms late at random (measured: ndelay 50 us added
# 200-1300 us), so no latency figure from the VM would mean anything. With
# it, ndelay is applied by the real driver on the guest's own clock and the
# figures are repeatable; they are ratios within one run, not this host's
# speed. VM_QEMU_ARGS replaces it; VM_APPEND adds kernel parameters.
# VM_MEM sets the memory (default 1024 MiB); QEMU_ARGs after the timeout
# are added to qemu's command line (drives and devices: tests/vm/hwlab.sh).
# VM_MODULES and VM_PROGRAMS go to build_initramfs.sh.
set -u
iotriage=${1:?iotriage binary} scenario=${2:?scenario} console=${3:?console log} limit=${4:-900}
shift $(($# < 4 ? $# : 4))
here=$(cd "$(dirname "$0")" && pwd)

kver=""
for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V -r); do
	if [ -f "/lib/modules/$k/modules.dep" ]; then kver=$k; break; fi
done
[ -n "$kver" ] || { echo "no /boot/vmlinuz-* with /lib/modules/<version>/modules.dep (install linux-image-amd64)" >&2; exit 3; }

work=$(mktemp -d /tmp/iotriage-vm.XXXXXX)
qpid=""
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

bash "$here/build_initramfs.sh" "$kver" "$iotriage" "$scenario" "$work/initrd.gz" || exit 1
timeout --kill-after=10 "$limit" qemu-system-x86_64 -accel tcg -m ${VM_MEM:-1024} -smp 1 ${VM_QEMU_ARGS--icount shift=2,sleep=off} -nographic -no-reboot \
	-kernel "/boot/vmlinuz-$kver" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 quiet loglevel=3 panic=-1 ${VM_APPEND:-}" "$@" </dev/null >"$console" 2>&1 &
qpid=$!
wait "$qpid"
status=$?
qpid=""
[ "$status" -eq 124 ] && echo "qemu timed out after ${limit}s" >&2
grep -q "^=== VM DONE" "$console"
