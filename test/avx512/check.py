#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""
check.py HARNESS [--seed N] [--stop]: kchacha_avx512_xor(),
kchacha_avx512_z32_xor() and kchacha_avx512vl_xor() tested under emulation
(emu.py), for machines without AVX-512.

HARNESS is test/avx512/harness.c linked with the two assembly files.  In
order:

 1. the reference here, a plain RFC 8439 ChaCha, against the RFC's own
    vectors (2.3.2 and 2.4.2), so that it cannot drift;
 2. the emulator against the CPU: kchacha_avx2_xor(), emulated and run
    natively by the harness over every length 0..576 and each side of
    every 64-byte boundary to 1088 bytes, and the emulated output compared
    with both; without AVX2 on this CPU the native comparison is skipped,
    loudly;
 3. kchacha_avx512_xor() (zmm) and kchacha_avx512vl_xor() (ymm only)
    emulated, each: every length 0..1088 (each of its forms for what
    follows the sixteen-block passes, whole and with every partial last
    block, and the first pass), two bytes either side of every 64-byte
    boundary to 2 KiB + 64, every tail length 0..320 after one pass, each
    side of every 1 KiB boundary to 4 KiB (with all three round counts)
    and a few long lengths; for the zmm code's 2 KiB passes, each side of
    every 64-byte boundary from 2 KiB to 4 KiB + 64 and of every 2 KiB
    boundary to 8 KiB; 20, 12 and 8 rounds; counters crossing 2^32
    inside the first or the second pass, at a pass boundary, inside the
    second 2 KiB pass and in the forms after the passes; in place and out of place, source and
    destination mostly misaligned, the state at any 4-byte alignment;
    %rsp at each 8-byte offset modulo 64 on entry.  Then
    kchacha_avx512_z32_xor(), the same code with a last 32-block pass for
    1025 to 2047 bytes left: each side of every 64-byte boundary of that
    pass, alone and after one or two whole passes, and every tail of its
    first 320 bytes past the first set.  Natively too, where the CPU has
    AVX-512F, VL and BW;
 4. coverage: every instruction of the five functions (the two zmm
    entries, kchacha_avx512_passes behind them, the ymm-only and the AVX2
    code) ran at least once.

Each case of 3 also checks which code ran: no zmm instruction in
kchacha_avx512vl_xor(), nor in the zmm entries for a request of up to 512
bytes, which they hand to the ymm code, and one for every longer request;
the last 32-block pass (.Lz32_last) for 1025 to 2047 bytes left after the
whole 2 KiB passes in kchacha_avx512_z32_xor(), and never otherwise.

Every case of 2 and 3 is checked for: output equal to the reference; no
read outside the state, src[0..len), .rodata and the function's own stack
frame, no write outside dst[0..len) and the frame, no stack access below
%rsp, no read of stack nobody wrote, no misaligned aligned access (all
enforced by emu.Memory and emu.CPU); the state unchanged; %rsp, %rbx, %rbp
and %r12-%r15 as on entry and a return to the caller; no key word and no
keystream and no state after the rounds (two adjacent words of it) left on
the stack; the upper halves of ymm/zmm0-15 clean on
return if they were on entry (vzeroupper).  The other registers hold random
values on entry, as do the upper 32 bits of the 32-bit arguments len and
nrounds.
"""

import os
import random
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True           # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import emu  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from chacha_ref import chacha_block  # noqa: E402

M32 = (1 << 32) - 1
AVX512 = 'kchacha_avx512_xor'
AVX512Z32 = 'kchacha_avx512_z32_xor'
AVX512VL = 'kchacha_avx512vl_xor'
# the code behind both zmm entries, and its last 32-block pass of 1025 to
# 2047 bytes, which only AVX512Z32 runs
PASSES = 'kchacha_avx512_passes'
Z32_LAST = '.Lz32_last'
# KCHACHA_AVX512_YMM_MAX of chacha-avx512-x86_64.S: the longest request
# kchacha_avx512_xor() hands to kchacha_avx512vl_xor()
YMM_MAX = 512
AVX2 = 'kchacha_avx2_xor'
# the harness's name for each function
ISA = {AVX2: 'avx2', AVX512: 'avx512', AVX512Z32: 'avx512z32',
       AVX512VL: 'avx512vl'}

# ---- the reference: RFC 8439 section 2, nothing shared with the module -----


def keystream(state, length, rounds):
    """Whole blocks of keystream covering length bytes; the counter (word
    12) wraps modulo 2^32 and does not carry into word 13."""
    st = list(state)
    out = bytearray()
    for _ in range((length + 63) // 64):
        out += chacha_block(st, rounds)
        st[12] = (st[12] + 1) & M32
    return bytes(out)


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def rfc_state(key, counter, nonce):
    return list(struct.unpack('<4I', b'expand 32-byte k')) + \
        list(struct.unpack('<8I', key)) + [counter] + \
        list(struct.unpack('<3I', nonce))


def check_reference():
    key = bytes(range(32))
    block = chacha_block(rfc_state(key, 1, bytes.fromhex('000000090000004a00000000')), 20)
    ok = block == bytes.fromhex(
        '10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e'
        'd2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e')
    msg = b"Ladies and Gentlemen of the class of '99: If I could offer you " \
          b"only one tip for the future, sunscreen would be it."
    st = rfc_state(key, 1, bytes.fromhex('000000000000004a00000000'))
    ok &= xor(msg, keystream(st, len(msg), 20)) == bytes.fromhex(
        '6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b'
        'f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8'
        '07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736'
        '5af90bbf74a35be6b40b8eedf2785e42874d')
    return ok

# ---- one case ----------------------------------------------------------------


class Case:
    def __init__(self, fn, length, rounds, ctr, inplace, soff, doff, align,
                 dirty_upper, rng):
        self.fn, self.length, self.rounds, self.ctr = fn, length, rounds, ctr
        self.inplace, self.soff, self.doff = inplace, soff, doff
        self.align, self.dirty_upper = align, dirty_upper
        self.state = [rng.getrandbits(32) for _ in range(16)]
        self.state[12] = ctr
        self.data = rng.randbytes(length)
        self.rng = random.Random(rng.getrandbits(64))
        self.emulated = None

    def __str__(self):
        return '%s len %d, %d rounds, counter %#x, %s, src+%d dst+%d, ' \
               '%%rsp %% 64 = %d on entry%s' % (
                   self.fn, self.length, self.rounds, self.ctr,
                   'in place' if self.inplace else 'out of place', self.soff,
                   self.doff, self.align % 64,
                   ', dirty upper vector halves' if self.dirty_upper else '')

    def native_record(self):
        return struct.pack('<16I5I', *self.state, self.length, self.rounds,
                           self.soff, self.doff, self.inplace) + self.data


STATE_AT = 0x10000000
SRC_AT = 0x20000000
DST_AT = 0x30000000
STACK_TOP = 0x7fff00000000
STACK_SIZE = 0x10000
SENTINEL = 0x5e5e5e5e5e5e5e50            # the return address to the caller
CALLEE_SAVED = ('rbx', 'rbp', 'r12', 'r13', 'r14', 'r15')


def emulate(cpu, case):
    """Run case under the emulator; a list of what went wrong, empty if
    nothing did."""
    rng = case.rng
    n = case.length
    state_at = STATE_AT + 4 * rng.randrange(16)
    src_at = SRC_AT + case.soff
    dst_at = src_at if case.inplace else DST_AT + case.doff
    rsp0 = STACK_TOP - 128 + case.align          # at the return address

    cpu.mem = mem = emu.Memory()
    mem.add(cpu.rodata())
    state_bytes = struct.pack('<16I', *case.state)
    mem.add(emu.Region('state', state_at, state_bytes, read=True, write=False))
    src = mem.add(emu.Region('src', src_at, case.data, read=True,
                             write=case.inplace))
    if not case.inplace:
        dst = mem.add(emu.Region('dst', dst_at, bytes(n), read=False, write=True))
    else:
        dst = src
    stack = mem.add(emu.Region('stack', rsp0 + 8 - STACK_SIZE, bytes(STACK_SIZE),
                               read=True, write=True, stack=True))
    stack.data[-8:] = struct.pack('<Q', SENTINEL)
    stack.init[-8:] = b'\x01' * 8

    # random registers, the arguments, junk above the 32-bit ones
    cpu.g = {r: rng.getrandbits(64) for r in emu.GPRS}
    cpu.g.update(rdi=state_at, rsi=dst_at, rdx=src_at,
                 rcx=rng.getrandbits(32) << 32 | n,
                 r8=rng.getrandbits(32) << 32 | case.rounds)
    cpu.v = [[rng.getrandbits(32) for _ in range(16)] for _ in range(32)]
    if not case.dirty_upper:
        for r in cpu.v[:16]:
            r[4:] = [0] * 12
    cpu.zf, cpu.cf = rng.getrandbits(1), rng.getrandbits(1)
    saved = {r: cpu.g[r] for r in CALLEE_SAVED}

    try:
        cpu.call(case.fn, rsp0, SENTINEL)
    except emu.Fault as e:
        return ['fault: %s' % e]

    errors = []
    # which code ran: no 512-bit instruction in the ymm-only function,
    # nor in the zmm one for a request it hands to the ymm code
    zmm = bool(cpu.last_ran & cpu.zmm_pcs)
    if case.fn == AVX512VL and zmm:
        errors.append('a zmm instruction ran in the ymm-only code')
    if case.fn in (AVX512, AVX512Z32) and n and zmm != (n > YMM_MAX):
        errors.append('%s zmm instruction ran for %d bytes (the ymm code '
                      'takes up to %d)' % ('a' if zmm else 'no', n, YMM_MAX))
    # a last 32-block pass: for 1025..2047 bytes left after the whole 2 KiB
    # passes, and only in the z32 entry
    last = cpu.z32_last_pc in cpu.last_ran
    want_last = case.fn == AVX512Z32 and 1024 < n % 2048
    if last != want_last:
        errors.append('%s last 32-block pass ran for %d bytes in %s' % (
            'a' if last else 'no', n, case.fn))
    ks = keystream(case.state, n, case.rounds)
    out = bytes(dst.data)
    case.emulated = out
    want = xor(case.data, ks)
    if out != want:
        i = next(i for i in range(n) if out[i] != want[i])
        errors.append('output differs from the reference from byte %d on' % i)
    # (writes to the state fault; compare anyway)
    if bytes(mem.find(state_at, 64, False, 0).data) != state_bytes:
        errors.append('state modified')
    if cpu.g['rsp'] != rsp0 + 8:
        errors.append('%%rsp %#x on return, not %#x' % (cpu.g['rsp'], rsp0 + 8))
    for r in CALLEE_SAVED:
        if cpu.g[r] != saved[r]:
            errors.append('callee-saved %%%s not preserved' % r)
    if not case.dirty_upper and any(any(r[4:]) for r in cpu.v[:16]):
        errors.append('upper halves of ymm/zmm0-15 dirty on return (vzeroupper)')
    # secrets on the stack: the key words, 16-byte pieces of keystream
    used = stack.init.find(1)
    frame = bytes(stack.data[used:-8])
    for i in range(4, 12):
        if struct.pack('<I', case.state[i]) in frame:
            errors.append('key word %d left on the stack' % (i - 4))
            break
    for off in range(0, len(ks), 16):
        if ks[off:off + 16] in frame:
            errors.append('keystream (bytes %d..%d) left on the stack' %
                          (off, off + 15))
            break
    # the state after the rounds, before the feed-forward (with the
    # keystream it gives the key): any two words of it next to each other
    # on the stack, as a block's words or one word of two blocks in turn
    pre = []
    for b in range(len(ks) // 64):
        st = list(case.state)
        st[12] = (st[12] + b) & M32
        out = struct.unpack_from('<16I', ks, 64 * b)
        pre.append([(out[i] - st[i]) & M32 for i in range(16)])
    pairs = {}
    for b, words in enumerate(pre):
        for i in range(16):
            if i < 15:
                pairs[struct.pack('<2I', words[i], words[i + 1])] = (b, i)
            if b + 1 < len(pre):
                pairs[struct.pack('<2I', words[i], pre[b + 1][i])] = (b, i)
    for off in range(0, len(frame) - 7, 4):
        hit = pairs.get(frame[off:off + 8])
        if hit:
            errors.append('state after the rounds (block %d, word %d) left '
                          'on the stack' % hit)
            break
    return errors


def run_native(harness, fn, cases):
    """The harness's outputs for cases, or None if the CPU lacks the ISA."""
    isa = ISA[fn]
    r = subprocess.run([harness, isa], input=b''.join(c.native_record() for c in cases),
                       capture_output=True)
    if r.returncode == 77:
        return None
    if r.returncode != 0:
        raise SystemExit('%s %s failed (%d): %s' % (harness, isa, r.returncode,
                                                    r.stderr.decode().strip()))
    outs, pos = [], 0
    for c in cases:
        outs.append(r.stdout[pos:pos + c.length])
        pos += c.length
    if pos != len(r.stdout):
        raise SystemExit('%s %s: wrong output length' % (harness, isa))
    return outs

# ---- the case sets ---------------------------------------------------------


def around(points, by=(-1, 0, 1)):
    return {x + d for x in points for d in by if x + d >= 0}


def avx2_cases(rng):
    """kchacha_avx2_xor: every length 0..576 (the two- and four-block forms,
    the eight-block pass, whole and partial, and what follows one), then
    each side of every 64-byte boundary to 1088 bytes."""
    lengths = sorted(set(range(577)) | around(range(576, 1089, 64)))
    cases = []
    for i, n in enumerate(lengths):
        wrap = (M32 - i % 9, rng.getrandbits(32))[i % 2]
        cases.append(Case(AVX2, n, (20, 12, 8)[i % 3], wrap, i % 4 == 1,
                          rng.randrange(64), rng.randrange(64),
                          8 * (1 + i % 8), i % 4 >= 2, rng))
    return cases


def avx512_cases(rng, fn):
    """kchacha_avx512_xor, kchacha_avx512_z32_xor or kchacha_avx512vl_xor
    (all run 1024-byte passes); see the header."""
    if fn == AVX512Z32:
        # the same code as AVX512 up to 1 KiB: the lengths where the two
        # entries part, each side of every 64-byte boundary of a last
        # 32-block pass, alone and after one or two whole ones, and every
        # tail of its first 320 bytes past the first set
        lengths = {0, 1, 512, 513, 1023, 1024}
        lengths |= around(range(1024, 2 * 1024 + 65, 64), (-2, -1, 0, 1, 2))
        lengths |= set(range(1024, 1024 + 321))
        lengths |= around(range(3 * 1024, 4 * 1024 + 65, 64))
        lengths |= around(range(5 * 1024, 6 * 1024 + 1, 256))
    else:
        lengths = set(range(1089))              # every form, every tail
        lengths |= around(range(0, 2 * 1024 + 65, 64), (-2, -1, 0, 1, 2))
        lengths |= set(range(1024, 1024 + 321))  # every tail after a pass
        lengths |= around(range(1024, 4 * 1024 + 1, 1024))
        lengths |= {1024 + 537, 3 * 1024 + 960 + 7, 5000,
                    6 * 1024 + 1000 + 3}
    if fn == AVX512:                            # after 2 KiB passes
        lengths |= around(range(2048, 4 * 1024 + 65, 64))
        lengths |= around(range(2048, 8 * 1024 + 1, 2048))
    cases = []
    i = 0
    for n in sorted(lengths):
        # all three round counts each side of a 1 KiB boundary, else one
        every = n % 1024 in (1023, 0, 1) and n > 1
        for rounds in (20, 12, 8) if every else ((20, 12, 8)[i % 3],):
            passes = n // 1024
            kind = i % 6
            if kind == 0:
                ctr = rng.getrandbits(32)
            elif kind == 1:        # crosses 2^32 inside the first zmm pass
                ctr = (1 << 32) - 1 - i % 15
            elif kind == 2:        # inside the second zmm pass
                ctr = (1 << 32) - 17 - i % 15
            elif kind == 3:        # inside the forms after the passes
                ctr = ((1 << 32) - 16 * passes - 1 - i % 8) & M32
            elif kind == 4:        # at the end of the first pass exactly
                ctr = (1 << 32) - 16
            else:                  # inside the second 32-block pass
                ctr = (1 << 32) - 33 - i % 31
            aligned = i % 7 == 0
            cases.append(Case(fn, n, rounds, ctr, i % 2 == 1,
                              0 if aligned else rng.randrange(64),
                              0 if aligned else rng.randrange(64),
                              8 * (1 + i % 8), (i // 2) % 2 == 1, rng))
            i += 1
    return cases


def wraps_in_zmm_pass(c):
    """The counter crosses 2^32 between two blocks of one 16-block pass."""
    return any(c.ctr + 16 * p < 1 << 32 < c.ctr + 16 * p + 16
               for p in range(c.length // 1024))

# ---- main ------------------------------------------------------------------


def run_cases(cpu, cases, stop):
    failed = []
    for c in cases:
        errors = emulate(cpu, c)
        if errors:
            failed.append(c)
            if len(failed) <= 10:
                print('FAIL %s:\n    %s' % (c, '\n    '.join(errors)))
            if stop:
                break
    return failed


def compare_native(harness, fn, cases, stop):
    """Emulated output against the CPU's; a count of the differing cases,
    or None if the CPU cannot run fn."""
    outs = run_native(harness, fn, cases)
    if outs is None:
        return None
    bad = 0
    for c, out in zip(cases, outs):
        if c.emulated is not None and c.emulated != out:
            bad += 1
            if bad <= 10:
                print('FAIL emulator and CPU disagree: %s' % c)
            if stop:
                break
    return bad


def main():
    args = sys.argv[1:]
    stop = '--stop' in args
    seed = 20240229
    if '--seed' in args:
        seed = int(args[args.index('--seed') + 1])
    harness = args[0]
    start = time.time()
    rng = random.Random(seed)
    fails = 0

    if not check_reference():
        print('FAIL the reference does not give the RFC 8439 2.3.2 and 2.4.2 outputs')
        return 1
    print('reference: RFC 8439 2.3.2 and 2.4.2 outputs ok')

    try:
        cpu = emu.CPU(harness, [AVX512, AVX512Z32, PASSES, AVX512VL, AVX2])
    except emu.EmuError as e:
        print('FAIL the emulator cannot run this code: %s' % e)
        return 1
    cpu.zmm_pcs = {a for a, i in cpu.code.items() if '%zmm' in i.text}
    # .Lz32_last's first instruction, the one reload into zmm12
    lo, hi = cpu.ranges[PASSES]
    last = [a for a, i in cpu.code.items()
            if lo <= a < hi and
            i.text.split()[1:] == ['vmovdqa64', '(%rsp),%zmm12']]
    if len(last) != 1:
        print('FAIL %s: no single "vmovdqa64 (%%rsp),%%zmm12" for %s' % (
            PASSES, Z32_LAST))
        return 1
    cpu.z32_last_pc = last[0]

    # 2: the emulator against the CPU, on the AVX2 code
    cases = avx2_cases(rng)
    failed = run_cases(cpu, cases, stop)
    fails += len(failed)
    if failed and stop:
        return 1
    bad = compare_native(harness, AVX2, cases, stop)
    if bad is None:
        print('SKIP emulator against the CPU: this CPU lacks AVX2; %s '
              'emulated against the reference only' % AVX2)
    else:
        fails += bad
        print('%s emulated and on this CPU, %d cases (lengths 0..%d): %s' % (
            AVX2, len(cases), max(c.length for c in cases),
            'the emulator agrees with the CPU' if not bad else
            '%d DISAGREE: the emulator is wrong' % bad))
    print('%s emulated, %d cases: %d failed' % (AVX2, len(cases), len(failed)))

    # 3: the AVX-512 code, zmm and ymm-only
    for fn in (AVX512, AVX512Z32, AVX512VL):
        cpu.counts.clear()
        cases = avx512_cases(rng, fn)
        failed = run_cases(cpu, cases, stop)
        fails += len(failed)
        if failed and stop:
            return 1
        print('%s emulated, %d cases (lengths 0..%d, %d partial last blocks '
              'through the opmask, %d with the counter crossing 2^32 inside a '
              '16-block pass): %d failed' % (
                  fn, len(cases), max(c.length for c in cases),
                  cpu.counts.get('kmovq', 0),
                  sum(map(wraps_in_zmm_pass, cases)), len(failed)))
        bad = compare_native(harness, fn, cases, stop)
        if bad is None:
            print('(this CPU lacks AVX-512F/VL/BW: no native comparison for '
                  '%s)' % fn)
        else:
            fails += bad
            print('%s emulated and on this CPU: %s' % (
                fn, 'the emulator agrees with the CPU' if not bad else
                '%d cases DISAGREE' % bad))

    # 4: coverage
    for fn in (AVX512, AVX512Z32, PASSES, AVX512VL, AVX2):
        lo, hi = cpu.ranges[fn]
        code = [a for a in cpu.code if lo <= a < hi]
        missed = [a for a in code if a not in cpu.executed]
        if missed:
            fails += 1
            print('FAIL %s: %d of %d instructions never ran, first %s' % (
                fn, len(missed), len(code), cpu.code[min(missed)].text))
        else:
            print('%s: all %d instructions ran' % (fn, len(code)))

    print('avx512 (emulated): %s, seed %d, %.0fs' % (
        'FAILED' if fails else 'ok', seed, time.time() - start))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
