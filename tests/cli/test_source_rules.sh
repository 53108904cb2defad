#!/usr/bin/env bash
# The layering and size rules of docs/ARCHITECTURE.md, checked on the
# sources (tests/tools/source_rules.py): no include of a layer above, no
# cmd/ header outside cmd/, no include circle, no stdout in triage/, no
# argument parsing, exit or judging in render/, no cmd_*.c over 350 lines and
# cmd/ under 15% of src/, no function over 80 lines but the listed exceptions.
# meson test runs the same script (test 'source_rules').
# The linker checks the calls themselves (meson's layer_check_* programs).
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v python3 >/dev/null; then
	echo "ok 1 - source rules # SKIP python3 is not installed"
	echo "1..1"
	exit 0
fi
exec python3 "$here/../tools/source_rules.py" "$here/../../src"
