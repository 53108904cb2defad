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
	ninja -C "$dir" >/dev/null
}
setup build --buildtype=debugoptimized
if [ "${1:-}" = "--sanitize" ]; then
	setup build-asan --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false
fi
