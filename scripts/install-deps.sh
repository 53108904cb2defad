#!/usr/bin/env bash
# Installs what iotriage needs to build and to run on Debian 12, and nothing
# else (the test suite's own packages are in scripts/install-test-deps.sh).
# Starts no daemon: zfs-fuse is started by scripts/start-services.sh when a
# ZFS pool is wanted. Idempotent: does nothing when everything is present.
#
#   building      build-essential meson ninja-build pkg-config
#                 liburing-dev libaio-dev libblkid-dev libsqlite3-dev
#   running       util-linux iproute2 ethtool (disks, loop devices, ports)
#                 smartmontools (the SMART cross-check)
#                 zfs-fuse btrfs-progs (ZFS and btrfs pools; doctor --lab)
#                 fio (benchpool's and matrix's engine next to the built-in one)
#                 openssh-client (fleet)
set -eu
cd "$(dirname "$0")/.."
. scripts/lib-apt.sh
apt_install \
	build-essential meson ninja-build pkg-config \
	liburing-dev libaio-dev libblkid-dev libsqlite3-dev \
	util-linux iproute2 ethtool smartmontools zfs-fuse btrfs-progs fio openssh-client
