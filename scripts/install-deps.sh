#!/usr/bin/env bash
# Installs what iotriage needs to build and to run its whole test suite on
# Debian 12. Idempotent: does nothing when everything is present.
set -eu
packages=(
	qemu-system-x86 busybox-static linux-image-amd64 cpio file kmod
	build-essential meson ninja-build pkg-config
	liburing-dev libaio-dev libblkid-dev libsqlite3-dev
	util-linux mount e2fsprogs sqlite3 jq fio strace time zfs-fuse btrfs-progs smartmontools
	iproute2 iptables openssh-client openssh-server iperf3 ethtool
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
	# openssh-server: the fleet test runs its own sshd per host namespace
	# (never the system's ssh.service, whether or not its postinst starts it);
	# prometheus: for promtool only (where policy-rc.d forbids service starts,
	# as in containers, its daemon is not started; elsewhere it is).
	# iperf3: netcheck --peer starts its own one-shot servers; the package's
	# debconf question (start a daemon at boot) is answered no beforehand.
	echo "iperf3 iperf3/start_daemon boolean false" | debconf-set-selections
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# No iperf3 daemon is left running, whatever the package did before.
if [ -e /etc/init.d/iperf3 ] || [ -e /lib/systemd/system/iperf3.service ]; then
	if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
		systemctl disable --now iperf3 >/dev/null 2>&1 || true
	fi
	[ -s /run/iperf3.pid ] && /etc/init.d/iperf3 stop >/dev/null 2>&1 || true
fi
