#!/usr/bin/env bash
# Installs what the test suite needs on top of scripts/install-deps.sh (run
# by scripts/test.sh only; never by the quick start). Idempotent.
#
#   qemu-system-x86 busybox-static linux-image-amd64 cpio file kmod udev
#                 the VMs with Debian's kernel (scsi_debug, null_blk, the
#                 hardware lab, nvmet); the kernel image is for the VM only;
#                 udev's systemd-udevd, ata_id, scsi_id and rules are copied
#                 into the hardware lab VM for /dev/disk/by-id
#   e2fsprogs mount sqlite3 jq strace time iptables
#                 fixtures and checks of the command tests
#   openssh-server iperf3
#                 the fleet tests' hosts (each runs its own sshd and
#                 one-shot iperf3 servers; no system daemon is left running)
#   chromium      the HTML report's browser test
#   dbench qemu-utils   matrix's suite and image targets
#   prometheus    for promtool only (its daemon is stopped and disabled)
#   open-iscsi    iscsiadm and iscsid, copied into the iSCSI VM test (its
#                 daemon is stopped and disabled here: the VM runs its own)
#   clang         the libFuzzer targets
#   gnuplot-nox   fio's fio_generate_plots and fio2gnuplot draw the fio logs
#                 run --fio-job writes (tests/cli/test_fio_logs.sh)
#   tmux          the interactive test drives the chooser in a terminal
#   python3       tests/tools/source_rules.py (meson needs it anyway)
#   mandoc        lints the generated manual pages
#   zstd          test_fio_buffers compresses what fio and iotriage wrote
#   ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph-common
#                 the Ceph test cluster (tests/ceph/cluster.sh): daemons run
#                 by hand in the test's directory, none enabled or left running
#   (OpenZFS)     tests/vm/openzfs_build.sh --prepare: Debian's contrib
#                 component as a second sources entry, the VM kernel's headers
#                 and build-essential, zfs-dkms and zfsutils-linux 2.3
#                 downloaded (never installed: they Break zfs-fuse); the
#                 module is built by scripts/test.sh, cached
set -eu
cd "$(dirname "$0")/.."
. scripts/lib-apt.sh
# iperf3's debconf question (start a daemon at boot) is answered no beforehand.
echo "iperf3 iperf3/start_daemon boolean false" | debconf-set-selections
apt_install \
	qemu-system-x86 busybox-static linux-image-amd64 cpio file kmod udev \
	e2fsprogs mount sqlite3 jq strace time iptables \
	openssh-server iperf3 chromium dbench qemu-utils prometheus open-iscsi clang gnuplot-nox tmux python3 mandoc zstd \
	ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph-common
# The packages' daemons are not the tests' business: none is left running.
stop_daemon iperf3
stop_daemon prometheus
stop_daemon prometheus-node-exporter
stop_daemon iscsid
stop_daemon open-iscsi
# iscsid is also socket-activated: a stray iscsiadm here would start it again
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
	systemctl disable --now iscsid.socket >/dev/null 2>&1 || true
fi
# Real OpenZFS for the VM: what needs apt now, the build later (cached).
bash tests/vm/openzfs_build.sh --prepare
