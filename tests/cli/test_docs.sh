#!/usr/bin/env bash
# The manual pages and the bash completion, generated from the command and
# option tables (iotriage-docgen): a page per command, clean under
# `mandoc -T lint`, options and defaults as --help has them; completion of
# a command, an option, an option's choices and a disk name, by driving
# bash's completion function as Tab would.
. "$(dirname "$0")/lib.sh"

build=$(dirname "$IOTRIAGE")
docgen=$build/iotriage-docgen
completion=$build/completion/iotriage
if [ ! -x "$docgen" ] || [ ! -f "$completion" ]; then
	skip "docs" "no iotriage-docgen or completion next to $IOTRIAGE"
	exit 0
fi

mkdir -p "$TMP/man"
"$docgen" man "$TMP/man"
ok $? "the pages are generated"
commands=$("$IOTRIAGE" --help | sed -n '/^commands/,/^Run /p' | awk '/^  [a-z]/ {print $1}')
check "--help lists the commands (found: $(echo $commands | wc -w))" -- test "$(echo $commands | wc -w)" -ge 20
missing=""
for c in $commands; do
	compgen -G "$TMP/man/iotriage-$c.1" >/dev/null || compgen -G "$TMP/man/iotriage-$c-*.1" >/dev/null ||
		missing="$missing $c"
done
ok $([ -z "$missing" ]; echo $?) "every command has its page (missing:${missing:- none})"
check "and the main page lists every command" -- bash -c "for c in $(echo $commands); do grep -q \"^\\.B \$c\$\" '$TMP/man/iotriage.1' || exit 1; done"
if command -v mandoc >/dev/null; then
	lint=$(mandoc -T lint -W warning "$TMP"/man/*.1 2>&1)
	ok $([ -z "$lint" ]; echo $?) "mandoc -T lint reports no warning"
	[ -n "$lint" ] && diag "$(echo "$lint" | head -5)"
else
	skip "mandoc lint" "mandoc is not installed (scripts/install-test-deps.sh installs it)"
fi
# The reference the README left: each command's details, the main page's files.
check "readdisks' page has its details (the stuck-disk deadline)" -- \
	bash -c "grep -q '^\\.SH DETAILS' '$TMP/man/iotriage-readdisks.1' && grep -q 'no response in 30 s' '$TMP/man/iotriage-readdisks.1'"
check "ramdisk wire's page has the wire verdict's words" -- grep -q 'passed through' "$TMP/man/iotriage-ramdisk-wire.1"
check "the main page says where results go" -- \
	bash -c "grep -q '^\\.SH FILES' '$TMP/man/iotriage.1' && grep -q '/var/lib/iotriage/iotriage.db' '$TMP/man/iotriage.1'"
check "the main page groups the commands by the method's steps" -- grep -q '^\.SS step 1, the media' "$TMP/man/iotriage.1"
# The README guides; the reference is in the pages above.
readme=$(cd "$(dirname "$0")/../.." && pwd)/README.md
words=$(wc -w <"$readme")
check "README.md is a guide: at most about 1,500 words (has $words)" -- test "$words" -le 1600
check "and its first screen has the two-command quick start" -- \
	bash -c "head -n 30 '$readme' | grep -qx 'scripts/quickstart.sh' && head -n 30 '$readme' | grep -qx 'scripts/test.sh'"
links=$(grep -o '](\([^)]*\))' "$readme" | sed 's/^](//; s/)$//')
absent=""
for l in $links; do [ -e "$(dirname "$readme")/$l" ] || absent="$absent $l"; done
check "every file the README links to exists (missing:${absent:- none})" -- test -z "$absent"
# A page says what --help says: every option of readdisk, with its default.
"$IOTRIAGE" readdisk --help >"$TMP/readdisk.help"
opts=$(grep -o -- '--[a-z][a-z-]*' "$TMP/readdisk.help" | sort -u)
absent=""
for o in $opts; do
	grep -q -- "\\\\-\\\\-${o#--}" "$TMP/man/iotriage-readdisk.1" || absent="$absent $o"
done
ok $([ -z "$absent" ]; echo $?) "readdisk's page has every option --help lists (missing:${absent:- none})"

# complete WORDS...: COMPREPLY of the completion function for the command line WORDS (the last is the current word).
complete_line() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iotriage; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$completion" "$@"
}
complete_line iotriage readd >"$TMP/c1"
check "a command completes" -- bash -c "grep -qx readdisk '$TMP/c1' && grep -qx readdisks '$TMP/c1' && ! grep -qx doctor '$TMP/c1'"
complete_line iotriage readdisk --en >"$TMP/c2"
check "an option completes" -- grep -qx -- --engine "$TMP/c2"
complete_line iotriage readdisk --engine "" >"$TMP/c3"
check "an option's choices complete, from the engine table" -- \
	bash -c "grep -qx io_uring '$TMP/c3' && grep -qx psync '$TMP/c3' && grep -qx auto '$TMP/c3'"
if need_root; then
	dev=$(make_loop 8M)
	complete_line iotriage readdisk "${dev%?}" >"$TMP/c4"
	check "a disk name completes from sysfs" -- grep -qx "$dev" "$TMP/c4"
else
	skip "disk name completion" "needs root for a loop device"
fi
complete_line iotriage --db x.db sho >"$TMP/c5"
check "a global option's value is not taken for the command" -- grep -qx show "$TMP/c5"
check "doctor's page has --client-iotriage PATH, from its option table" -- \
	grep -qF '\fB\-\-client-iotriage\fR \fIPATH\fR' "$TMP/man/iotriage-doctor.1"
complete_line iotriage doctor --client-i >"$TMP/c7"
check "and doctor's options complete to it" -- grep -qx -- --client-iotriage "$TMP/c7"
complete_line iotriage ramdisk "" >"$TMP/c6"
check "a command's sub-commands complete" -- bash -c "grep -qx create '$TMP/c6' && grep -qx destroy '$TMP/c6'"
finish
