#!/usr/bin/env bash
# The command table: --version, --help for every command, unknown input.
. "$(dirname "$0")/lib.sh"

out=$("$IOTRIAGE" --version)
ok $? "--version exits 0"
check "--version prints the version" -- bash -c "[[ '$out' =~ ^iotriage\ [0-9]+\.[0-9]+\.[0-9]+$ ]]"

"$IOTRIAGE" --help >"$TMP/help"
ok $? "--help exits 0"
for cmd in readdisks readdisk run demo; do
	check "--help lists $cmd" -- grep -q "^  $cmd " "$TMP/help"
	"$IOTRIAGE" $cmd --help >"$TMP/h.$cmd" 2>&1
	ok $? "$cmd --help exits 0"
	check "$cmd --help shows its usage" -- grep -q "^usage: iotriage $cmd" "$TMP/h.$cmd"
	check "$cmd --help shows the global options" -- grep -q -- "--results-dir DIR" "$TMP/h.$cmd"
done
first=$(sed -n '/^commands/,$p' "$TMP/help" | awk '/^  [a-z]/ {print $1; exit}')
check "--help lists doctor first (got '$first')" -- test "$first" = doctor
check "--help groups the commands by the method's four steps" -- \
	bash -c "for s in 1 2 3 4; do grep -q \"^ step \$s, \" '$TMP/help' || exit 1; done"
check "readdisk --help lists its options from the table" -- grep -q -- "-s, --size SIZE" "$TMP/h.readdisk"
check "run --help lists fio-like options" -- bash -c "grep -q -- '--iodepth N' '$TMP/h.run' && grep -q -- '--rwmixread PCT' '$TMP/h.run'"

"$IOTRIAGE" frobnicate >/dev/null 2>"$TMP/err"
ok $(($? != 2)) "an unknown command exits 2"
check "and says so" -- grep -q "'frobnicate' is not an iotriage command" "$TMP/err"
"$IOTRIAGE" --frobnicate >/dev/null 2>"$TMP/err"
ok $(($? != 2)) "an unknown global option exits 2"
check "and names it" -- grep -q "unknown option '--frobnicate'" "$TMP/err"
"$IOTRIAGE" </dev/null >/dev/null 2>"$TMP/err"
ok $(($? != 2)) "no command exits 2"
check "and prints the usage" -- grep -q "^usage: iotriage" "$TMP/err"
"$IOTRIAGE" readdisks --size >/dev/null 2>"$TMP/err"
ok $(($? != 2)) "a missing option value exits 2"
check "and says which option" -- grep -q "option '--size' needs a value" "$TMP/err"

# A log file that cannot be opened is an error, not a silence.
"$IOTRIAGE" readdisks --log-file /proc/iotriage/x.log --match nothing >/dev/null 2>"$TMP/err"
ok $(($? == 0)) "an unwritable log file: non-zero exit"
check "and a message naming it" -- grep -q "cannot open log file '/proc/iotriage/x.log'" "$TMP/err"

"$IOTRIAGE" disks extra >/dev/null 2>"$TMP/err"
ok $(($? != 2)) "disks with an operand is a usage error"
check "and names it" -- grep -q "unexpected operand 'extra'" "$TMP/err"

# A results database that is not ours is refused and left untouched.
echo "not a database, keep me" >"$TMP/notadb"
"$IOTRIAGE" readdisks --db "$TMP/notadb" --match nothing >/dev/null 2>"$TMP/err"
ok $(($? == 0)) "a corrupt database: non-zero exit"
check "and says what is wrong with it" -- grep -q "not an iotriage database or is corrupt" "$TMP/err"
check "and leaves it unchanged" -- test "$(cat "$TMP/notadb")" = "not a database, keep me"

# Writing JSON to a full device is reported.
if [ -w /dev/full ]; then
	"$IOTRIAGE" --version >/dev/full 2>"$TMP/err"
	ok $(($? == 0)) "stdout write errors give a non-zero exit"
	check "and a message" -- grep -q "error writing to standard output" "$TMP/err"
fi

finish
