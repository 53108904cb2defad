# scripts/lib-apt.sh: sourced by the install scripts.

# apt_install PACKAGE...: installs the packages that are not installed yet.
apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# stop_daemon NAME: stops and disables a service a package may have started.
stop_daemon() {
	local name=$1
	[ -e "/etc/init.d/$name" ] || [ -e "/lib/systemd/system/$name.service" ] || return 0
	if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
		systemctl disable --now "$name" >/dev/null 2>&1 || true
	fi
	[ -x "/etc/init.d/$name" ] && "/etc/init.d/$name" stop >/dev/null 2>&1 || true
	pkill -x "$name" 2>/dev/null || true
}
