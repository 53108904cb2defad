#!/usr/bin/env bash
# Builds iotriage into build/ (optimised) and, with --sanitize, also into
# build-asan/ with AddressSanitizer and UndefinedBehaviorSanitizer.
set -eu
cd "$(dirname "$0")/.."
setup() { # setup DIR [meson options...]
	local dir=$1; shift
	if [ -f "$dir/build.ninja" ]; then
		meson configure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
	# Quiet when it builds; the compiler's messages when it does not.
	local log
	log=$(mktemp)
	if ! ninja -C "$dir" >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		return 1
	fi
	rm -f "$log"
}
setup build --buildtype=debugoptimized
if [ "${1:-}" = "--sanitize" ]; then
	setup build-asan --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false
fi
