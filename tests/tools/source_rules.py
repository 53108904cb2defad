#!/usr/bin/env python3
"""tests/tools/source_rules.py SRC_DIR: the layering and size rules of
docs/ARCHITECTURE.md, checked on the sources. Prints TAP lines.

  - a file includes headers only of its own layer or the layers under it
    (basic <- core <- domain <- triage <- render <- cmd), so even a call the linker
    would not see (a macro, an inline function) cannot run upward
  - no cmd/ header is included from outside cmd/ (main.c is the command layer)
  - no include circle between modules (a module: a header and its .c files)
  - no call circle between files anywhere in src/: file A calls (or names,
    as a callback) a function defined in file B, and B, directly or round
    a longer loop, one in A; read from the files' function definitions and
    the identifiers their code uses, not from their includes
  - triage/ never writes to stdout
  - render/ never parses arguments or exits: no getopt, opts_*, exit()
  - render/ never judges: no call to a *_judge() function (triage judges,
    render shows the judgement)
  - cmd/ stays thin: no cmd_*.c file over CMD_FILE_MAX_LINES lines, and
    cmd/ (.c and .h) under CMD_MAX_SHARE of src/'s lines: a new command is
    a file of its own, not a squeeze under one total
  - every triage/ module is in a folder of the method's step (triage/media/, ...)
  - no function in src/ is longer than FUNCTION_MAX_LINES lines, except the
    ones listed in tests/tools/long_functions.txt with their reason
"""
import os
import re
import sys

FUNCTION_MAX_LINES = 80
CMD_MAX_SHARE = 0.15
CMD_FILE_MAX_LINES = 350
LAYERS = {
    'basic': 0,
    'engine': 1, 'bench': 1, 'output': 1,
    'disk': 2, 'media': 2, 'pool': 2, 'fs': 2, 'net': 2, 'ramdisk': 2, 'lab': 2,
    'poolbench': 2, 'store': 2, 'report': 2, 'remote': 2,
    'triage': 3,
    'render': 4,
    'cmd': 5,
    'docgen': 6,  # the build tool that writes the manual and completion from the command table
}
# "layer/name.h", or "layer/folder/name.h" (triage/ keeps its modules in folders by the method's step)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/((?:[a-z_]+/)?[A-Za-z0-9_]+)\.h"', re.M)

src = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
n = 0
failed = 0


def ok(cond, name, details=()):
    global n, failed
    n += 1
    print(('ok' if cond else 'not ok') + ' %d - %s' % (n, name))
    if not cond:
        failed += 1
        for d in list(details)[:30]:
            print('#   ' + d)


files = []
for d, _, names in os.walk(src):
    for name in names:
        if name.endswith(('.c', '.h')):
            files.append(os.path.join(d, name))
files.sort()


def layer_dir(path):
    rel = os.path.relpath(path, src)
    return rel.split(os.sep)[0] if os.sep in rel else 'cmd'  # main.c is the command layer


texts = {f: open(f, encoding='utf-8', errors='replace').read() for f in files}

upward, cmd_outside = [], []
for f, text in texts.items():
    d = layer_dir(f)
    for inc_dir, _ in INCLUDE.findall(text):
        if inc_dir not in LAYERS or d not in LAYERS:
            continue
        if LAYERS[inc_dir] > LAYERS[d]:
            upward.append('%s includes a %s/ header' % (os.path.relpath(f, src), inc_dir))
        if inc_dir == 'cmd' and LAYERS.get(d, 0) < LAYERS['cmd']:
            cmd_outside.append(os.path.relpath(f, src))
unknown = sorted({layer_dir(f) for f in files} - set(LAYERS))
ok(not unknown, 'every source directory has a layer', ['no layer for src/%s/' % u for u in unknown])
ok(not upward, 'no file includes a header of a layer above it', upward)
ok(not cmd_outside, 'no cmd/ header is included from outside cmd/ (but by the docgen tool above it)', cmd_outside)

# Modules: "dir/name" for name.h and name.c; an edge when a file of one
# module includes the header of another.
edges = {}
for f, text in texts.items():
    rel = os.path.relpath(f, src)
    mod = os.path.splitext(rel)[0]
    for inc_dir, inc_name in INCLUDE.findall(text):
        target = inc_dir + '/' + inc_name
        if target != mod:
            edges.setdefault(mod, set()).add(target)
cycles = []
state = {}


def visit(m, stack):
    state[m] = 1
    stack.append(m)
    for t in sorted(edges.get(m, ())):
        if state.get(t) == 1:
            cycles.append(' -> '.join(stack[stack.index(t):] + [t]))
        elif t not in state:
            visit(t, stack)
    stack.pop()
    state[m] = 2


for m in sorted(edges):
    if m not in state:
        visit(m, [])
ok(not cycles, 'no include circle between modules', cycles)


# Calls between files: each .c file's non-static function definitions
# (kernel style, as for the length rule below), and every identifier its
# code uses once comments, strings and character constants are blanked.
# A use of another file's function (a call, or a callback in a table) is
# an edge; a strongly connected set of two or more files is a circle.
def strip_c(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", text)


DEFINITION = re.compile(r'^[A-Za-z_][^;]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(')
IDENTIFIER = re.compile(r'\b[A-Za-z_][A-Za-z0-9_]*\b')
defined_in, used_by = {}, {}
for f, text in texts.items():
    if not f.endswith('.c'):
        continue
    rel = os.path.relpath(f, src)
    code = strip_c(text)
    name, static = None, False
    for line in code.split('\n'):
        m = DEFINITION.match(line)
        if m and name is None and not line.rstrip().endswith(';'):
            name, static = m.group(1), line.startswith('static')
        elif line == '{' and name:
            if not static and name != 'main':  # main is also a member name (.main = ...)
                defined_in.setdefault(name, rel)
            name = None
        elif line.rstrip().endswith(';') or line == '}':
            name = None
    used_by[rel] = set(IDENTIFIER.findall(code))
calls = {}
for f, ids in used_by.items():
    for ident in ids:
        g = defined_in.get(ident)
        if g and g != f:
            calls.setdefault(f, {}).setdefault(g, set()).add(ident)


sys.setrecursionlimit(10000)


def call_circles(graph):
    """Tarjan's strongly connected components of two or more files."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


circle_details = []
for comp in call_circles(calls):
    circle_details.append('circle: ' + ', '.join(comp))
    for a in comp:
        for b in comp:
            if b in calls.get(a, {}):
                circle_details.append('  %s -> %s (%s)' % (a, b, ', '.join(sorted(calls[a][b]))))
ok(not circle_details, 'no call circle between files (a file calls only files that do not call it back)',
   circle_details)

stdout_writes = []
for f, text in texts.items():
    if layer_dir(f) != 'triage':
        continue
    for i, line in enumerate(text.splitlines(), 1):
        if re.search(r'\b(printf|puts|putchar)\s*\(|\bstdout\b', line) and not line.strip().startswith(('*', '/*', '//')):
            stdout_writes.append('%s:%d: %s' % (os.path.relpath(f, src), i, line.strip()))
ok(not stdout_writes, 'triage/ never writes to stdout', stdout_writes)

render_cmd = []
for f, text in texts.items():
    if layer_dir(f) != 'render':
        continue
    for i, line in enumerate(text.splitlines(), 1):
        if re.search(r'\b(getopt\w*|opts_\w+|exit|_exit)\s*\(', line) and not line.strip().startswith(('*', '/*', '//')):
            render_cmd.append('%s:%d: %s' % (os.path.relpath(f, src), i, line.strip()))
ok(not render_cmd, 'render/ never parses arguments or exits (that is cmd/)', render_cmd)

JUDGE_CALL = re.compile(r'\b([a-z_]+_judge)\s*\(')
render_judges = []
for f in files:
    if layer_dir(f) != 'render':
        continue
    for i, line in enumerate(texts[f].split('\n'), 1):
        m = JUDGE_CALL.search(line)
        if m and not line.lstrip().startswith(('/*', '*')):
            render_judges.append('%s:%d: %s' % (os.path.relpath(f, src), i, m.group(1)))
ok(not render_judges, 'render/ never judges (no *_judge call; triage hands it the judgement)', render_judges)

cmd_files = [f for f in files if '/cmd/' in f]
cmd_lines = sum(texts[f].count('\n') for f in cmd_files)
src_lines = sum(texts[f].count('\n') for f in files)
ok(cmd_lines < CMD_MAX_SHARE * src_lines, 'cmd/ is thin: %d of src/\'s %d lines (%.1f%%, under %.0f%%)' %
   (cmd_lines, src_lines, 100.0 * cmd_lines / src_lines, 100 * CMD_MAX_SHARE))
big = ['%s is %d lines' % (os.path.relpath(f, src), texts[f].count('\n')) for f in cmd_files
       if os.path.basename(f).startswith('cmd_') and texts[f].count('\n') > CMD_FILE_MAX_LINES]
ok(not big, 'no cmd_*.c file is over %d lines' % CMD_FILE_MAX_LINES, big)

allowed = {}
listing = os.path.join(here, 'long_functions.txt')
if os.path.exists(listing):
    for line in open(listing):
        line = line.split('#', 1)[0].strip()
        if line:
            path, func = line.split()[:2]
            allowed[(path, func)] = True
long_functions = []
# Kernel style: a function's signature starts in column 0 and its body is
# the lines between a "{" and a "}" that stand alone in column 0.
SIGNATURE = re.compile(r'^[A-Za-z_][^;]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(')
for f, text in texts.items():
    if not f.endswith('.c'):
        continue
    rel = os.path.relpath(f, src)
    name = None
    start = None
    for i, line in enumerate(text.splitlines()):
        m = SIGNATURE.match(line)
        if m and start is None and not line.rstrip().endswith(';'):
            name = m.group(1)
        elif line == '{' and name:
            start = i
        elif line == '}' and start is not None:
            length = i - start - 1
            if length > FUNCTION_MAX_LINES and (rel, name) not in allowed:
                long_functions.append('%s: %s() is %d lines' % (rel, name, length))
            name, start = None, None
long_functions.sort()
ok(not long_functions, 'no function is over %d lines (or it is listed with its reason)' % FUNCTION_MAX_LINES,
   long_functions)
# triage/ shows the method: its modules live in folders by step (media,
# network, ramdisk, pool, doctor, ...), none loose at its top.
loose = [os.path.relpath(f, src) for f in files
         if layer_dir(f) == 'triage' and os.path.dirname(os.path.relpath(f, src)) == 'triage']
ok(not loose, 'every triage/ module is in a folder of its step', loose)
print('1..%d' % n)
sys.exit(1 if failed else 0)
