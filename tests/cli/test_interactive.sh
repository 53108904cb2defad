#!/usr/bin/env bash
# interactive, driven in tmux as a person would (send-keys, capture-pane):
# it lists the disks, takes a test, a disk and a size, and runs a readdisk
# of the chosen loop device. Without a terminal it refuses with the spec's
# sentence.
. "$(dirname "$0")/lib.sh"

"$IOTRIAGE" interactive </dev/null >"$TMP/nt.out" 2>"$TMP/nt.err"
ok $(($? == 0)) "without a terminal: non-zero exit"
check "with the spec's message" -- grep -qx "Interactive mode requires a terminal; specify an operation instead" "$TMP/nt.err"
"$IOTRIAGE" interactive extra </dev/null >/dev/null 2>"$TMP/op.err"
ok $(($? != 2)) "an operand is a usage error"
check "naming it" -- grep -q "unexpected operand 'extra'" "$TMP/op.err"
"$IOTRIAGE" </dev/null >/dev/null 2>"$TMP/none.err"
ok $(($? != 2)) "no command and no terminal: usage, exit 2"
check "the usage lists interactive" -- grep -q "interactive" "$TMP/none.err"

if ! need_root; then skip "interactive in tmux" "needs root for a loop device"; finish; exit; fi
if ! command -v tmux >/dev/null; then skip "interactive in tmux" "tmux is not installed (scripts/install-test-deps.sh installs it)"; finish; exit; fi

dev=$(make_loop 64M)
session=iotriage-it-$$
undo "tmux kill-session -t $session"
screen() { tmux capture-pane -p -t "$session" -S -200 2>/dev/null; }
wait_for() { # wait_for REGEX: until the pane shows it (60 s)
	local i
	for i in $(seq 1 600); do screen | grep -Eq "$1" && return 0; sleep 0.1; done
	screen | tail -n 20 | sed 's/^/# /'
	return 1
}
# No command on a terminal is interactive too; the state dir keeps the log in $TMP.
tmux new-session -d -s "$session" -x 200 -y 60 \
	env IOTRIAGE_STATE_DIR="$IOTRIAGE_STATE_DIR" "$IOTRIAGE"
tmux set-option -t "$session" remain-on-exit on >/dev/null # keep the last screen to read
check "the chooser starts with no command on a terminal" -- wait_for '^Test \(1-[0-9]+\):'
check "it lists the disks, our loop device among them" -- wait_for "^ +[0-9]+\) $dev "
check "and the tests" -- bash -c "tmux capture-pane -p -t $session | grep -Eq '^ +1\) readdisk +read one disk'"
tmux send-keys -t "$session" "x" Enter
check "a bad answer is asked again" -- wait_for "'x' is not a number from 1 to"
tmux send-keys -t "$session" "1" Enter
check "readdisk asks for the disk" -- wait_for '^Disk \(1-[0-9]+\):'
n=$(screen | sed -nE "s|^ +([0-9]+)\) $dev .*|\1|p" | head -n 1)
tmux send-keys -t "$session" "$n" Enter
check "then the size, with a default" -- wait_for '^Size to read \[1000M\]:'
tmux send-keys -t "$session" "16M" Enter
check "it shows the command it stands for" -- wait_for "^Running: iotriage readdisk $dev --size 16M$"
tmux send-keys -t "$session" "y" Enter
check "and runs it to the end" -- wait_for "^$dev .* 16 MiB .*ok"
check "the log has the read" -- grep -q "READ-DISK ($dev): completed: 16777216 bytes" "$IOTRIAGE_STATE_DIR/iotriage.log"

finish
