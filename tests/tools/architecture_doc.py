#!/usr/bin/env python3
"""tests/tools/architecture_doc.py ROOT: docs/ARCHITECTURE.md names only
files and folders that exist, and names every folder of src/. Prints TAP.

A name with a slash (triage/ramdisk/ramdisk_wire.h, tests/tools/source_rules.py,
src/render/) is looked up from the folder the tree above it is in, then from
ROOT, src/ and tests/; a bare file name (read.c/.h: read.c and read.h) in the
tree must be in the folder it is listed under; in prose it may be anywhere
under src/ and tests/ (prose names a module by its file). Absolute paths (/proc/..., /dev/...) are the machine's, not ours.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
doc_path = os.path.join(root, 'docs', 'ARCHITECTURE.md')
text = open(doc_path).read()
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


basenames = set()
for top in ('src', 'tests', 'scripts', 'docs', 'bench'):
    for d, _, names in os.walk(os.path.join(root, top)):
        basenames.update(names)

EXT = r'(?:c|h|py|sh|md|build|txt)'
# read.c/.h, src/cmd/, tests/cli/test_golden.sh, meson.build
TOKEN = re.compile(r'(?<![\w/.$-])((?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.' + EXT + r'(?:/\.h)?|(?:[a-z0-9_-]+/)+)(?![\w/-])')
FOLDER_LINE = re.compile(r'^(\s*)((?:[A-Za-z0-9_.-]+/)+)\S*')


def exists(rel, here, sub=None):
    for base in (sub, here, root, os.path.join(root, 'src'), os.path.join(root, 'tests')):
        if base and os.path.exists(os.path.join(base, rel)):
            return True
    return False


# The layers' names, written as folders in the rules' prose.
LAYER_NAMES = {'domain/', 'core/'}
missing = []
here = sub = None
in_code = False
for lineno, line in enumerate(text.split('\n'), 1):
    if line.startswith('```'):
        in_code = not in_code
        here = sub = None
        continue
    if in_code:
        m = FOLDER_LINE.match(line)
        if m and not m.group(1):
            here, sub = os.path.join(root, m.group(2)), None
        elif here and len(line) - len(line.lstrip()) < 6 and line.strip():
            # an entry of the tree; a folder entry (  vm/ ...) holds what its lines name
            sub = os.path.join(here, m.group(2)) if m else None
    for m in TOKEN.finditer(line):
        tok = m.group(1)
        if tok in LAYER_NAMES or tok.startswith('/') or '://' in line[max(0, m.start() - 8):m.start()]:
            continue
        names = [tok[:-len('/.h')], tok[:-len('.c/.h')] + '.h'] if tok.endswith('/.h') else [tok]
        for name in names:
            if '/' in name.rstrip('/'):
                found = exists(name, here, sub)
            elif name.endswith('/'):
                found = exists(name, here, sub) or os.path.isdir(os.path.join(root, 'src', name)) or \
                    os.path.isdir(os.path.join(root, 'tests', name)) or os.path.isdir(os.path.join(root, name))
            elif here:  # the tree: the file is in the folder it is listed under
                found = exists(name, here, sub)
            else:
                found = name in basenames or os.path.exists(os.path.join(root, name))
            if not found:
                missing.append('line %d: %s' % (lineno, name))
ok(not missing, 'every file and folder ARCHITECTURE.md names exists', missing)

folders = sorted(d for d in os.listdir(os.path.join(root, 'src')) if os.path.isdir(os.path.join(root, 'src', d)))
unmentioned = [d for d in folders if 'src/%s/' % d not in text]
ok(not unmentioned, 'every folder of src/ is in ARCHITECTURE.md (as src/NAME/)',
   ['src/%s/ is not described' % d for d in unmentioned])
print('1..%d' % n)
sys.exit(1 if failed else 0)
