# tests/cli/vmlib.sh: what the qemu VM tests share. Source after lib.sh.
#
# vm_missing: the first missing VM prerequisite (root, qemu, a static
# busybox, a kernel image), or nothing. vm_ready NAME MISSING: nothing
# missing, or (returns 1) a failure in CI, which installs everything, and a
# skip with the reason elsewhere. After the console is in "$c": sect NAME
# (a "=== BEGIN NAME" section), rc NAME (its exit status), jsect NAME (its
# JSON section, into a file whose path it prints), elapsed NAME (the guest
# seconds its "=== TIME" line gives).

vm_missing() {
	local busybox_path
	busybox_path=$(command -v busybox || true)
	if ! need_root; then
		echo "root (the kernel image in /boot is readable by root only)"
	elif ! command -v qemu-system-x86_64 >/dev/null; then
		echo "qemu-system-x86_64 (package qemu-system-x86)"
	elif ! { [ -n "$busybox_path" ] && file -L "$busybox_path" | grep -q 'statically linked'; }; then
		echo "a static busybox (package busybox-static)"
	elif ! ls /boot/vmlinuz-* >/dev/null 2>&1; then
		echo "a kernel in /boot (package linux-image-amd64)"
	fi
}

vm_ready() {
	[ -z "$2" ] && return 0
	if [ "${CI:-}" = true ]; then
		ok 1 "$1: prerequisites: $2 is missing, and CI installs it (scripts/install-test-deps.sh)"
	else
		skip "$1" "needs $2; scripts/install-test-deps.sh installs it"
	fi
	return 1
}

sect() { awk -v n="$1" '$0 == "=== BEGIN " n { on = 1; next } on && index($0, "=== END " n " rc=") == 1 { exit } on' "$c"; }
rc() { sed -n "s/^=== END $1 rc=\([0-9]*\)$/\1/p; s/^=== ENDJSON $1 rc=\([0-9]*\)$/\1/p" "$c" | head -n 1; }
jsect() { awk -v n="$1" '$0 == "=== JSON " n { on = 1; next } on && index($0, "=== ENDJSON " n " rc=") == 1 { exit } on' "$c" >"$TMP/$1.json"; echo "$TMP/$1.json"; }
has() { sect "$1" | grep -q -- "$2"; }   # has SECTION PATTERN: a line of the section matches
none() { test -z "$(sect "$1")"; }       # none SECTION: the section is empty
elapsed() { awk -v n="$1" '$1 == "===" && $2 == "TIME" && $3 == n { printf "%.1f", $5 - $4 }' "$c"; }
