#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""test/docs/examples.py: the examples of the documentation (README.md,
doc/*.md), found by their markers, run and compared (the docs stage,
test/docs/run; the format is in doc/testing.md, "The docs stage").

    examples.py check FILE...          every fenced block marked; the list
    examples.py host DIR LOG FILE...   run the host examples in DIR; their
                                       output framed into LOG
    examples.py guest DIR FILE...      the VM examples as files for the
                                       guest (test/vm/sets/docs) in DIR
    examples.py compare [--only host|vm] LOG... -- FILE...
                                       each example's output in the LOGs
                                       against what the documents show
                                       (every example, or those of one
                                       place)
    examples.py params KO README       the README's table of module
                                       parameters names those modinfo
                                       lists for KO
    examples.py digest FILE...         a digest of what the examples run
                                       (where, name, setup, commands): the
                                       same for two sets of documents that
                                       differ only in what they show

A framed output (the guest's console, or the host's LOG) is
    KCDOC BEGIN <name>
    KCDOC <name>| <a line of its output>
    KCDOC END <name> rc=<exit status>
"""
import os
import re
import subprocess
import sys

FENCE = re.compile(r'^```([A-Za-z0-9_-]*)\s*$')
EXAMPLE = re.compile(r'^<!-- example (host|vm|none):\s*(.*?)\s*(-->)?\s*$')
OUTPUT = re.compile(r'^<!-- output ([A-Za-z0-9_-]+)( shape)? -->\s*$')
NAME = re.compile(r'^[A-Za-z0-9_-]+$')


class Bad(Exception):
    pass


def parse(paths):
    """The examples of the documents, in order: dicts with file, line,
    where (host, vm, none), name (or the reason, for none), commands (as
    run: replacements applied), shown (as the document shows them),
    setup, output (lines or None), shape."""
    examples, errors, outputs = [], [], []
    for path in paths:
        lines = open(path, encoding='utf-8').read().split('\n')
        i = 0
        pending = None   # a marker waiting for its block
        blank = True
        para_list = False
        while i < len(lines):
            line = lines[i]
            where = '%s:%d' % (path, i + 1)
            m = EXAMPLE.match(line)
            o = OUTPUT.match(line)
            if line.startswith('<!-- example') and not m:
                errors.append('%s: a marker not of the form "<!-- example host|vm|none: ... -->"' % where)
            if line.startswith('<!-- output') and not o:
                errors.append('%s: a marker not of the form "<!-- output NAME [shape] -->"' % where)
            if m:
                kind, rest, closed = m.group(1), m.group(2), m.group(3)
                ex = {'file': path, 'line': i + 1, 'where': kind, 'setup': [],
                      'replace': [], 'output': None, 'shape': False}
                if kind == 'none':
                    if not closed:
                        errors.append('%s: an "example none" marker is one line' % where)
                    if len(rest) < 10:
                        errors.append('%s: an example that does not run says why' % where)
                    ex['name'] = None
                    ex['reason'] = rest
                else:
                    if not NAME.match(rest):
                        errors.append('%s: example name %r' % (where, rest))
                    ex['name'] = rest
                    while not closed:
                        i += 1
                        if i >= len(lines):
                            errors.append('%s: the marker never ends' % where)
                            break
                        s = lines[i].strip()
                        if s == '-->':
                            break
                        if s.startswith('setup:'):
                            ex['setup'].append(s[len('setup:'):].strip())
                        elif s.startswith('replace:') and ' => ' in s:
                            old, new = s[len('replace:'):].strip().split(' => ', 1)
                            ex['replace'].append((old, new))
                        else:
                            errors.append('%s:%d: not "setup: ..." or "replace: OLD => NEW": %s'
                                          % (path, i + 1, s))
                pending = ('example', ex, where)
                i += 1
                continue
            if o:
                pending = ('output', {'name': o.group(1), 'shape': bool(o.group(2)),
                                      'file': path, 'line': i + 1}, where)
                i += 1
                continue
            f = FENCE.match(line)
            if f:
                start = i
                body = []
                i += 1
                while i < len(lines) and not re.match(r'^```\s*$', lines[i]):
                    body.append(lines[i])
                    i += 1
                if i >= len(lines):
                    errors.append('%s: a fenced block that never ends' % where)
                if pending is None:
                    errors.append('%s: a fenced block without a marker ("<!-- example host|vm|none: ... -->" or "<!-- output NAME -->" on the line before)' % where)
                elif pending[0] == 'example':
                    ex = pending[1]
                    ex['shown'] = body
                    text = '\n'.join(body)
                    for old, new in ex['replace']:
                        if old not in text:
                            errors.append('%s: "replace: %s" does not occur in the block' % (pending[2], old))
                        text = text.replace(old, new)
                    ex['commands'] = text
                    examples.append(ex)
                else:
                    out = pending[1]
                    out['lines'] = body
                    outputs.append(out)
                pending = None
                blank = False
                i += 1
                continue
            if pending is not None:
                errors.append('%s: a marker not followed by a fenced block' % pending[2])
                pending = None
            # an indented code block: four spaces after a blank line,
            # outside a list
            if blank and not para_list and re.match(r'^( {4}|\t)\S', line):
                errors.append('%s: an indented code block: fence it and mark it' % where)
            if line.strip() == '':
                blank = True
            else:
                if blank:
                    para_list = bool(re.match(r'^(\s*[-*] |\s{2,}\S|\s*\d+\. )', line))
                blank = False
            i += 1
        if pending is not None:
            errors.append('%s: a marker not followed by a fenced block' % pending[2])
    names = {}
    for ex in examples:
        if ex['name'] is None:
            continue
        if ex['name'] in names:
            errors.append('%s:%d: example %s is also at %s:%d' % (
                ex['file'], ex['line'], ex['name'], names[ex['name']]['file'],
                names[ex['name']]['line']))
        names[ex['name']] = ex
    for out in outputs:
        ex = names.get(out['name'])
        if ex is None:
            errors.append('%s:%d: output %s of no example' % (out['file'], out['line'], out['name']))
        elif ex['output'] is not None:
            errors.append('%s:%d: a second output of %s' % (out['file'], out['line'], out['name']))
        else:
            ex['output'] = out['lines']
            ex['shape'] = out['shape']
    if errors:
        raise Bad('\n'.join(errors))
    return examples


def frames(paths):
    """{name: (output lines, rc)} from framed logs"""
    got = {}
    cur = None
    for path in paths:
        with open(path, encoding='utf-8', errors='replace') as f:
            for raw in f:
                line = raw.rstrip('\n').replace('\r', '')
                m = re.search(r'KCDOC BEGIN (\S+)$', line)
                if m:
                    cur = m.group(1)
                    got[cur] = ([], None)
                    continue
                m = re.search(r'KCDOC END (\S+) rc=(\d+)$', line)
                if m and m.group(1) in got:
                    got[m.group(1)] = (got[m.group(1)][0], int(m.group(2)))
                    cur = None
                    continue
                if cur is not None:
                    p = 'KCDOC %s| ' % cur
                    if line.startswith(p):
                        got[cur][0].append(line[len(p):])
                    elif line == p.rstrip():
                        got[cur][0].append('')
    return got


def line_re(expected, shape):
    """one expected line as a regex: "..." any text; in shape mode every
    hex digit any hex digit"""
    parts = expected.split('...')
    out = []
    for p in parts:
        r = re.escape(p)
        if shape:
            r = re.sub(r'[0-9a-f]', '[0-9a-f]', r)
        out.append(r)
    return re.compile('^' + '.*'.join(out) + '$')


def matches(expected, actual, shape):
    """expected lines against actual ones; a line "..." is any lines"""
    def go(i, j):
        if i == len(expected):
            return j == len(actual)
        if expected[i].strip() == '...':
            return any(go(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and line_re(expected[i], shape).match(actual[j]) and go(i + 1, j + 1)
    return go(0, 0)


def cmd_check(files):
    exs = parse(files)
    for ex in exs:
        if ex['where'] == 'none':
            print('none  %s:%d: %s' % (ex['file'], ex['line'], ex['reason']))
        else:
            print('%-5s %s:%d: %s%s' % (ex['where'], ex['file'], ex['line'], ex['name'],
                                        '' if ex['output'] is None else ', output compared'
                                        + (' (shape)' if ex['shape'] else '')))
    runs = [e for e in exs if e['where'] != 'none']
    print('docs: %d examples (%d host, %d vm), %d that cannot run here, each saying why'
          % (len(runs), sum(e['where'] == 'host' for e in exs),
             sum(e['where'] == 'vm' for e in exs), len(exs) - len(runs)))
    return 0


def cmd_host(d, log, files):
    status = 0
    with open(log, 'w') as out:
        for ex in parse(files):
            if ex['where'] != 'host':
                continue
            script = '\n'.join(ex['setup'] + [ex['commands']])
            print('docs host %s (%s:%d), in %s:' % (ex['name'], ex['file'], ex['line'], d))
            print('\n'.join('    ' + line for line in script.split('\n')))
            p = subprocess.run(['sh', '-e', '-c', script], cwd=d, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors='replace')
            out.write('KCDOC BEGIN %s\n' % ex['name'])
            for line in p.stdout.splitlines():
                out.write('KCDOC %s| %s\n' % (ex['name'], line))
            out.write('KCDOC END %s rc=%d\n' % (ex['name'], p.returncode))
            if p.returncode:
                status = 1
    return status


def cmd_guest(d, files):
    os.makedirs(d, exist_ok=True)
    n = 0
    for ex in parse(files):
        if ex['where'] != 'vm':
            continue
        n += 1
        base = os.path.join(d, '%02d-%s' % (n, ex['name']))
        with open(base + '.sh', 'w') as f:
            f.write(ex['commands'] + '\n')
        if ex['setup']:
            with open(base + '.setup', 'w') as f:
                f.write('\n'.join(ex['setup']) + '\n')
    print('docs: %d VM examples in %s' % (n, d))
    return 0


def cmd_compare(logs, files):
    only = None
    if logs[:1] == ['--only'] and len(logs) >= 2:
        only, logs = logs[1], logs[2:]
    got = frames(logs)
    status = 0
    n = 0
    for ex in parse(files):
        if ex['where'] == 'none' or (only and ex['where'] != only):
            continue
        n += 1
        what = '%s example %s (%s:%d)' % (ex['where'], ex['name'], ex['file'], ex['line'])
        if ex['name'] not in got:
            print('FAIL %s: it did not run' % what)
            status = 1
            continue
        lines, rc = got[ex['name']]
        if rc is None:
            print('FAIL %s: it did not end' % what)
            status = 1
        elif rc != 0:
            print('FAIL %s: exited %d; its output:' % (what, rc))
            print('\n'.join('    ' + line for line in lines[-20:]))
            status = 1
        elif ex['output'] is not None and not matches(ex['output'], lines, ex['shape']):
            print('FAIL %s: its output is not what the document shows%s' % (
                what, ' (in shape)' if ex['shape'] else ''))
            print('    shown:')
            print('\n'.join('      ' + line for line in ex['output']))
            print('    printed:')
            print('\n'.join('      ' + line for line in lines[:40]))
            status = 1
        else:
            print('PASS %s%s' % (what, '' if ex['output'] is None else
                                 ': its output is what the document shows'
                                 + (' (in shape)' if ex['shape'] else '')))
    if n == 0:
        print('FAIL no example to compare')
        status = 1
    print('docs: %d %sexamples compared, %s' % (n, only + ' ' if only else '',
                                              'all as shown' if status == 0 else 'FAILED'))
    return status


def cmd_digest(files):
    import hashlib
    import json
    runs = [(e['where'], e['name'], e['setup'], e['commands'])
            for e in parse(files) if e['where'] != 'none']
    print(hashlib.sha256(json.dumps(runs).encode()).hexdigest())
    return 0


def cmd_params(ko, readme):
    text = open(readme, encoding='utf-8').read()
    m = re.search(r'^## Module parameters\n(.*?)(?=^## |\Z)', text, re.S | re.M)
    if not m:
        print('FAIL %s has no "## Module parameters"' % readme)
        return 1
    shown = sorted(re.findall(r'^\| `([a-z_]+)[=`]', m.group(1), re.M))
    p = subprocess.run(['modinfo', '-F', 'parmtype', ko], stdout=subprocess.PIPE, text=True)
    has = sorted(line.split(':')[0] for line in p.stdout.splitlines() if line)
    if p.returncode or not has:
        print('FAIL modinfo lists no parameters for %s' % ko)
        return 1
    if shown != has:
        print("FAIL the README's table of module parameters names %s, modinfo %s"
              % (' '.join(shown) or 'none', ' '.join(has)))
        return 1
    print("PASS the README's table of module parameters names modinfo's: %s" % ' '.join(has))
    return 0


def split(args):
    if '--' not in args:
        raise Bad('usage: ... LOG... -- FILE...')
    k = args.index('--')
    return args[:k], args[k + 1:]


def main(argv):
    try:
        if len(argv) >= 2 and argv[1] == 'check':
            return cmd_check(argv[2:])
        if len(argv) >= 4 and argv[1] == 'host':
            return cmd_host(argv[2], argv[3], argv[4:])
        if len(argv) >= 3 and argv[1] == 'guest':
            return cmd_guest(argv[2], argv[3:])
        if len(argv) >= 2 and argv[1] == 'compare':
            return cmd_compare(*split(argv[2:]))
        if len(argv) == 4 and argv[1] == 'params':
            return cmd_params(argv[2], argv[3])
        if len(argv) >= 2 and argv[1] == 'digest':
            return cmd_digest(argv[2:])
    except Bad as e:
        print('FAIL test/docs/examples.py:\n' + str(e))
        return 1
    print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
