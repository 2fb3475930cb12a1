#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""innerloop.py FUNC < objdump -d --no-show-raw-insn: print the
instructions of FUNC's longest innermost loop (a backward branch with no
other backward branch inside), for llvm-mca: the round loop of a core."""
import re
import sys

func = sys.argv[1]
insns = []
inside = False
for line in sys.stdin:
    if line.rstrip().endswith('<%s>:' % func):
        inside = True
        continue
    if inside and not line.strip():
        break
    m = re.match(r'\s*([0-9a-f]+):\t(.*)', line)
    if inside and m:
        text = re.split(r'[;@]|//', m.group(2))[0].strip()
        insns.append((int(m.group(1), 16), text))

loops = []
for addr, text in insns:
    m = re.match(r'(b(?!l\b)[a-z.]*|cbn?z|tbn?z)\s.*?\b([0-9a-f]+) <', text)
    if m and int(m.group(2), 16) < addr:
        loops.append((int(m.group(2), 16), addr))
inner = [(t, b) for t, b in loops
         if not any(t <= b2 < b for t2, b2 in loops if (t2, b2) != (t, b))]
if not inner:
    sys.exit('no loop in ' + func)
t, b = max(inner, key=lambda l: l[1] - l[0])
for addr, text in insns:
    if t <= addr <= b:
        # llvm-mca wants no branch target it cannot resolve
        print(re.sub(r'\s[0-9a-f]+ <.*>$', ' .', text) if addr == b else text)
