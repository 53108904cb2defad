#!/usr/bin/env bash
# Installs what iotriage needs to build and to run its whole test suite on
# Debian 12. Idempotent: does nothing when everything is present.
set -eu
packages=(
	qemu-system-x86 busybox-static linux-image-amd64 cpio file kmod
	build-essential meson ninja-build pkg-config
	liburing-dev libaio-dev libblkid-dev libsqlite3-dev
	util-linux mount e2fsprogs sqlite3 jq fio strace time zfs-fuse btrfs-progs smartmontools
	iproute2 iptables
	chromium dbench qemu-utils prometheus
	clang
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# chromium: the report's browser test; dbench, qemu-utils: matrix's suite;
	# prometheus: for promtool only (where policy-rc.d forbids service starts,
	# as in containers, its daemon is not started; elsewhere it is).
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
