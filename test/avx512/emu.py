# SPDX-License-Identifier: GPL-2.0-only
"""
An x86-64 instruction emulator for kchacha's AVX-512 and AVX2 cores.

Why: the machines `make check` runs on (and QEMU TCG) have no AVX-512, so
the native unit test skips kchacha_avx512_xor().  This emulator executes its
machine code instead, instruction by instruction, so that test/avx512/check.py
can compare its output with an independent ChaCha on any x86-64 machine.

What is emulated: the code of named functions of a linked executable
(test/avx512/harness.c with the two assembly cores), decoded by binutils'
objdump.  Not the source: what runs is what the assembler made of it,
including the opmasked loads and stores of the partial last block.  The semantics of each instruction are written from
the Intel SDM (vol. 2) descriptions, with 512-bit vector registers zmm0-31
and the VEX/EVEX rule that a write to an xmm/ymm/zmm register zeroes the
register above the destination width.

Supported, and nothing else - exactly what the two functions use, so that
a new instruction in them needs a deliberate addition here:

  vector (VEX and EVEX, xmm/ymm/zmm, no rounding control; the memory
  operand of vpaddd may be an EVEX {1to8}/{1to16} broadcast; an opmask,
  with or without {z}, only on vmovdqu8, which takes nothing else):
    vmovdqa vmovdqa64 vmovdqu vmovdqu32 (the aligned forms fault on a
    misaligned address, as the CPU does), vmovdqu8 (masked: a masked-off
    byte of memory is never touched), vpbroadcastd, vbroadcasti128,
    vbroadcasti32x4, vinserti128, vinserti64x4, vpinsrd, vmovd (into an
    xmm register), vpaddd, vpxor vpxord, vpor, vpternlogd, vpslld vpsrld
    (immediate count), vprold, vpshufb, vpshufd, vpunpck{l,h}{dq,qdq},
    vperm2i128, vshufi32x4,
    vzeroupper; kmovq from a 64-bit register
  general purpose (8/16/32/64-bit registers, 32-bit writes zero-extend):
    mov movzbl add sub and xor cmp test inc dec neg not shl shr (by %cl or
    an immediate) push leave call ret jmp,
    and je/jz jne/jnz jb jae jbe ja with ZF and CF modelled (inc and dec
    leave CF alone, as on the CPU); nop, endbr64
  anything else - another mnemonic, an opmask elsewhere, a segment
  override, an instruction objdump cannot decode - stops the decode with
  an EmuError naming it: an unknown instruction is a test failure, never
  skipped.  Every instruction of the named functions is decoded before the
  first one runs, so new code with a new instruction fails at once.

Memory is a set of regions the caller declares: read-only (the state, the
source, .rodata), write-only (an out-of-place destination), read-write (an
in-place buffer, the stack).  Any access that does not lie entirely inside
a region with the needed permission raises Fault: this is how the tests see
out-of-bounds reads and writes and writes to the state.  The stack region
also faults on an access below %rsp (the kernel has no red zone) and on a
read of a byte nobody wrote (uninitialised stack).

How it is cross-checked: check.py runs kchacha_avx2_xor() both under this
emulator and natively on the same machine code and inputs, where the CPU has
AVX2 (and kchacha_avx512_xor() likewise where it has AVX-512F), and every
emulated output is compared with an independent reference, itself checked
against RFC 8439.  What only the AVX-512 code uses (vprold, vpxord,
vshufi32x4, vmovdqu32, vmovdqa64, vbroadcasti32x4, vinserti64x4,
vpternlogd, the
opmasked vmovdqu8 and kmovq, vpbroadcastd from a general register, the
{1to8} and {1to16} broadcasts, zmm16-31, 512-bit widths) is compared with real
hardware only where the CPU has AVX-512F; elsewhere the evidence for it is
the comparison with the reference: a misread instruction could pass only if
the code relied on the very same misreading.
"""

import re
import struct
import subprocess

M32 = (1 << 32) - 1
M64 = (1 << 64) - 1


class EmuError(Exception):
    """The emulator cannot run this code: an unsupported instruction."""


class Fault(Exception):
    """The code did something the CPU would trap on or the test forbids."""


# ---- the executable --------------------------------------------------------

def read_elf(path):
    """Sections {name: (addr, bytes, flags)} and symbols {name: (addr, size)}
    of an ELF64 little-endian file."""
    data = open(path, 'rb').read()
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        raise EmuError('%s: not a little-endian ELF64 file' % path)
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    shdrs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
             for i in range(shnum)]

    def cstr(table, off):
        return data[table + off:data.index(b'\0', table + off)].decode()

    strtab_off = shdrs[shstrndx][4]
    sections, symbols = {}, {}
    for name, stype, flags, addr, off, size, link, _, _, entsize in shdrs:
        sname = cstr(strtab_off, name)
        if stype != 8:                           # SHT_NOBITS holds no bytes
            sections[sname] = (addr, data[off:off + size], flags)
        if stype == 2:                           # SHT_SYMTAB
            names = shdrs[link][4]
            for i in range(size // entsize):
                st_name, st_info, _, _, value, ssize = struct.unpack_from(
                    '<IBBHQQ', data, off + i * entsize)
                if st_info & 0xf == 2:           # STT_FUNC
                    symbols[cstr(names, st_name)] = (value, ssize)
    return sections, symbols


def disassemble(path, start, stop):
    """(address, length, mnemonic, operand text) of the instructions in
    [start, stop), as objdump decodes them."""
    out = subprocess.run(
        ['objdump', '-d', '-w', '-M', 'att', '--start-address=%#x' % start,
         '--stop-address=%#x' % stop, path],
        capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$', line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        length = len(m.group(2).split())
        text = m.group(3).split('#')[0].strip()   # drop objdump's comment
        mnemonic, _, operands = text.partition(' ')
        insns.append((addr, length, mnemonic, operands.strip()))
    return insns


# ---- operands --------------------------------------------------------------

GPRS = ['rax', 'rcx', 'rdx', 'rbx', 'rsp', 'rbp', 'rsi', 'rdi'] + \
       ['r%d' % i for i in range(8, 16)]
# every general register name: (64-bit register, bits)
GPR_NAMES = {}
for _r in GPRS:
    GPR_NAMES[_r] = (_r, 64)
for _r in GPRS[:8]:
    GPR_NAMES['e' + _r[1:]] = (_r, 32)
    GPR_NAMES[_r[1:]] = (_r, 16)
for _r, _b in zip(GPRS[:8], ['al', 'cl', 'dl', 'bl', 'spl', 'bpl', 'sil',
                             'dil']):
    GPR_NAMES[_b] = (_r, 8)
for _i in range(8, 16):
    GPR_NAMES['r%dd' % _i] = ('r%d' % _i, 32)
    GPR_NAMES['r%dw' % _i] = ('r%d' % _i, 16)
    GPR_NAMES['r%db' % _i] = ('r%d' % _i, 8)

VEC_DWORDS = {'x': 4, 'y': 8, 'z': 16}


class Op:
    """One decoded operand.  kind: 'v' vector register (reg, dwords), 'g'
    general register (reg, bits), 'i' immediate (value), 'm' memory (disp,
    base, index, scale; bcast: dwords of a {1toN} broadcast, else 0), 'a'
    absolute branch target (value)."""
    __slots__ = ('kind', 'reg', 'size', 'value', 'base', 'index', 'scale',
                 'bcast', 'mask', 'zero')

    def __init__(self, kind, reg=None, size=0, value=0, base=None,
                 index=None, scale=1, bcast=0):
        self.kind, self.reg, self.size, self.value = kind, reg, size, value
        self.base, self.index, self.scale, self.bcast = base, index, scale, bcast
        self.mask, self.zero = None, False      # {%kN}, {z}


MEM_RE = re.compile(r'^(-?(?:0x[0-9a-f]+|\d+))?\((%\w+)?(?:,(%\w+)(?:,(\d))?)?\)'
                    r'(?:\{1to(\d+)\})?$')


def parse_operand(text, next_pc):
    # an EVEX opmask {%k1..7}, and {z}, after a vector or memory operand
    m = re.match(r'^(.*?)\{%k([1-7])\}(\{z\})?$', text)
    if m:
        op = parse_operand(m.group(1), next_pc)
        if op.kind not in 'vm':
            raise EmuError('unsupported operand "%s"' % text)
        op.mask, op.zero = int(m.group(2)), bool(m.group(3))
        return op
    m = re.match(r'^%k([0-7])$', text)
    if m:
        return Op('k', reg=int(m.group(1)))
    m = re.match(r'^%([xyz])mm(\d+)$', text)
    if m:
        return Op('v', reg=int(m.group(2)), size=VEC_DWORDS[m.group(1)])
    if text.startswith('%') and text[1:] in GPR_NAMES:
        reg, bits = GPR_NAMES[text[1:]]
        return Op('g', reg=reg, size=bits)
    if text.startswith('$'):
        return Op('i', value=int(text[1:], 0))
    m = re.match(r'^([0-9a-f]+) <[^>]*>$', text)
    if m:
        return Op('a', value=int(m.group(1), 16))
    m = MEM_RE.match(text)
    if m:
        disp = int(m.group(1), 0) if m.group(1) else 0
        base = m.group(2)[1:] if m.group(2) else None
        index = m.group(3)[1:] if m.group(3) else None
        bcast = int(m.group(5)) if m.group(5) else 0
        if base == 'rip':
            # RIP-relative: the address of the next instruction plus disp
            return Op('m', value=(next_pc + disp) & M64, bcast=bcast)
        for r in (base, index):
            if r is not None and GPR_NAMES.get(r, (None, 0))[1] != 64:
                raise EmuError('unsupported address register %' + r)
        return Op('m', value=disp & M64, base=base, index=index,
                  scale=int(m.group(4) or 1), bcast=bcast)
    raise EmuError('unsupported operand "%s"' % text)


def split_operands(text):
    ops, depth, cur = [], 0, ''
    for ch in text:
        depth += ch in '(<{'
        depth -= ch in ')>}'
        if ch == ',' and depth == 0:
            ops.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


# ---- memory ----------------------------------------------------------------

class Region:
    def __init__(self, name, addr, data, read, write, stack=False):
        self.name, self.lo, self.data = name, addr, bytearray(data)
        self.hi = addr + len(data)
        self.read, self.write, self.stack = read, write, stack
        # stack: which bytes hold something the code (or the caller) wrote
        self.init = bytearray(len(data)) if stack else None


class Memory:
    def __init__(self):
        self.regions = []

    def add(self, region):
        for r in self.regions:
            if region.lo < r.hi and r.lo < region.hi:
                raise EmuError('regions %s and %s overlap' % (r.name, region.name))
        self.regions.append(region)
        return region

    def find(self, addr, n, write, rsp):
        what = 'write' if write else 'read'
        for r in self.regions:
            if r.lo <= addr and addr + n <= r.hi:
                if not (r.write if write else r.read):
                    raise Fault('%s of %d bytes at %#x: %s is %s' % (
                        what, n, addr, r.name,
                        'read-only' if r.read else 'write-only'))
                if r.stack and addr < rsp:
                    raise Fault('%s of %d bytes at %#x, below %%rsp %#x' % (
                        what, n, addr, rsp))
                return r
        near = [r.name for r in self.regions if addr < r.hi and r.lo < addr + n]
        raise Fault('%s of %d bytes at %#x outside %s' % (
            what, n, addr, ' and '.join(near) if near else 'every region'))

    def read(self, addr, n, rsp):
        r = self.find(addr, n, False, rsp)
        o = addr - r.lo
        if r.stack and r.init.find(0, o, o + n) >= 0:
            raise Fault('read of %d bytes at %#x: uninitialised stack' % (n, addr))
        return bytes(r.data[o:o + n])

    def write(self, addr, data, rsp):
        r = self.find(addr, len(data), True, rsp)
        o = addr - r.lo
        r.data[o:o + len(data)] = data
        if r.stack:
            r.init[o:o + len(data)] = b'\x01' * len(data)


# ---- the CPU ---------------------------------------------------------------

DWORDS_FMT = {n: '<%dI' % n for n in (1, 4, 8, 16)}


def rotl32(v, c):
    return ((v << c) | (v >> (32 - c))) & M32


class Insn:
    __slots__ = ('addr', 'next', 'mnemonic', 'ops', 'run', 'text', 'bits')


class CPU:
    """Registers, flags and the decoded code of some functions of an ELF."""

    def __init__(self, elf_path, functions):
        self.sections, self.symbols = read_elf(elf_path)
        self.code = {}
        self.ranges = {}
        for fn in functions:
            if fn not in self.symbols:
                raise EmuError('%s: no function %s' % (elf_path, fn))
            start, size = self.symbols[fn]
            self.ranges[fn] = (start, start + size)
            insns = disassemble(elf_path, start, start + size)
            if not insns or insns[0][0] != start or \
               insns[-1][0] + insns[-1][1] != start + size:
                raise EmuError('%s: objdump did not decode all of it' % fn)
            for addr, length, mnemonic, operands in insns:
                self.code[addr] = self.decode(addr, addr + length, mnemonic,
                                              operands)
        self.mem = Memory()
        self.g = dict.fromkeys(GPRS, 0)
        self.v = [[0] * 16 for _ in range(32)]
        self.k = [0] * 8
        self.zf = self.cf = 0
        self.executed = set()
        self.last_ran = set()     # what the last call() ran
        self.counts = {}

    def rodata(self):
        """A read-only region for .rodata at its link address."""
        addr, data, _ = self.sections['.rodata']
        return Region('.rodata', addr, data, read=True, write=False)

    # -- decoding

    def decode(self, addr, next_pc, mnemonic, operands):
        insn = Insn()
        insn.addr, insn.next, insn.text = addr, next_pc, \
            '%#x: %s %s' % (addr, mnemonic, operands)
        if mnemonic == '(bad)':
            raise EmuError('objdump cannot decode ' + insn.text)
        insn.ops = [parse_operand(o, next_pc) for o in split_operands(operands)]
        insn.bits = 0
        name = mnemonic
        handler = getattr(self, 'op_' + name, None)
        if handler is None and name[-1:] in 'bwlq' and \
           hasattr(self, 'op_' + name[:-1]) and name[:-1] in GP_SUFFIXED:
            # objdump's size suffix, for an instruction without a register
            handler = getattr(self, 'op_' + name[:-1])
            insn.bits = {'b': 8, 'w': 16, 'l': 32, 'q': 64}[name[-1]]
            name = name[:-1]
        if handler is None:
            raise EmuError('unsupported instruction ' + insn.text)
        insn.mnemonic = name
        insn.run = handler
        kinds = ''.join(o.kind for o in insn.ops)
        if name not in OPERAND_FORMS or \
           not re.fullmatch(OPERAND_FORMS[name], kinds):
            raise EmuError('unsupported operands of ' + insn.text)
        if any(o.bcast for o in insn.ops) and name not in BCAST_OK:
            raise EmuError('unsupported broadcast in ' + insn.text)
        if any(o.mask for o in insn.ops) and name not in MASK_OK:
            raise EmuError('unsupported opmask in ' + insn.text)
        return insn

    # -- running

    def call(self, fn, rsp, sentinel, max_steps=10 ** 7):
        """Run fn from its first instruction until it returns to sentinel,
        the return address the caller has put at rsp."""
        self.g['rsp'] = rsp
        pc = self.ranges[fn][0]
        steps = 0
        counts = self.counts
        self.last_ran = ran = set()
        while True:
            insn = self.code.get(pc)
            if insn is None:
                raise Fault('jump to %#x, outside the emulated code' % pc)
            steps += 1
            if steps > max_steps:
                raise Fault('more than %d instructions: runaway' % max_steps)
            ran.add(pc)
            counts[insn.mnemonic] = counts.get(insn.mnemonic, 0) + 1
            pc = insn.run(insn)
            if pc is None:
                pc = insn.next
            elif pc == sentinel:
                self.executed |= ran
                return steps

    # -- operand access

    def ea(self, op):
        a = op.value
        if op.base is not None:
            a += self.g[op.base]
        if op.index is not None:
            a += self.g[op.index] * op.scale
        return a & M64

    def load(self, addr, n):
        return self.mem.read(addr, n, self.g['rsp'])

    def store(self, addr, data):
        self.mem.write(addr, data, self.g['rsp'])

    def vget(self, op, n, align=0):
        """n dwords of a vector register or memory operand."""
        if op.kind == 'v':
            return self.v[op.reg][:n]
        if op.kind != 'm':
            raise EmuError('vector operand expected')
        a = self.ea(op)
        if op.bcast:
            if op.bcast != n:
                raise EmuError('{1to%d} broadcast on a %d-dword operation' %
                               (op.bcast, n))
            return [struct.unpack('<I', self.load(a, 4))[0]] * n
        if align and a % align:
            raise Fault('aligned access of %d bytes at misaligned %#x' % (4 * n, a))
        return list(struct.unpack(DWORDS_FMT[n], self.load(a, 4 * n)))

    def vset(self, op, vals, align=0):
        """Write a vector register (zeroing it above len(vals) dwords, the
        VEX/EVEX rule) or memory."""
        if op.kind == 'v':
            if len(vals) != op.size:
                raise EmuError('internal: width mismatch')
            self.v[op.reg] = vals + [0] * (16 - len(vals))
            return
        a = self.ea(op)
        if align and a % align:
            raise Fault('aligned access of %d bytes at misaligned %#x' % (
                4 * len(vals), a))
        self.store(a, struct.pack(DWORDS_FMT[len(vals)], *vals))

    def gsize(self, insn):
        """Operand size of a general purpose instruction: from a register
        operand, or from objdump's suffix."""
        sizes = {o.size for o in insn.ops if o.kind == 'g'}
        if insn.bits:
            sizes.add(insn.bits)
        if len(sizes) != 1:
            raise EmuError('cannot tell the operand size of ' + insn.text)
        return sizes.pop()

    def gget(self, op, bits):
        if op.kind == 'i':
            return op.value & ((1 << bits) - 1)
        if op.kind == 'g':
            return self.g[op.reg] & ((1 << bits) - 1)
        if op.kind == 'm':
            return int.from_bytes(self.load(self.ea(op), bits // 8), 'little')
        raise EmuError('general operand expected')

    def gset(self, op, val, bits):
        val &= (1 << bits) - 1
        if op.kind == 'g':
            if bits == 64 or bits == 32:     # a 32-bit write zero-extends
                self.g[op.reg] = val
            else:                            # 8 and 16 bits merge
                mask = (1 << bits) - 1
                self.g[op.reg] = (self.g[op.reg] & ~mask & M64) | val
        elif op.kind == 'm':
            self.store(self.ea(op), val.to_bytes(bits // 8, 'little'))
        else:
            raise EmuError('cannot write operand')

    def flags(self, res, bits, cf):
        self.zf = int((res & ((1 << bits) - 1)) == 0)
        if cf is not None:
            self.cf = cf

    # -- vector instructions.  AT&T operand order: sources, then destination.

    def op_vmovdqu(self, insn):
        s, d = insn.ops
        n = (s if s.kind == 'v' else d).size
        self.vset(d, self.vget(s, n))

    op_vmovdqu32 = op_vmovdqu

    def op_vmovdqa(self, insn):
        s, d = insn.ops
        n = (s if s.kind == 'v' else d).size
        self.vset(d, self.vget(s, n, align=4 * n), align=4 * n)

    op_vmovdqa64 = op_vmovdqa

    def op_vpbroadcastd(self, insn):
        s, d = insn.ops
        if s.kind == 'g':
            if s.size != 32:
                raise EmuError('unsupported ' + insn.text)
            x = self.g[s.reg] & M32
        else:
            x = self.vget(s, 1)[0] if s.kind == 'm' else self.v[s.reg][0]
        self.vset(d, [x] * d.size)

    def op_vbroadcasti128(self, insn):
        s, d = insn.ops
        if d.size != 8:
            raise EmuError('unsupported ' + insn.text)
        x = self.vget(s, 4)
        self.vset(d, x + x)

    def op_vinserti128(self, insn):
        imm, s2, s1, d = insn.ops
        if d.size != 8 or s1.size != 8:
            raise EmuError('unsupported ' + insn.text)
        x = self.vget(s1, 8)
        lane = imm.value & 1
        x[4 * lane:4 * lane + 4] = self.vget(s2, 4)
        self.vset(d, x)

    def op_vmovd(self, insn):
        s, d = insn.ops
        if d.kind != 'v' or d.size != 4 or (s.kind == 'g' and s.size != 32):
            raise EmuError('unsupported ' + insn.text)
        x = self.gget(s, 32) if s.kind == 'g' else self.vget(s, 1)[0]
        self.vset(d, [x, 0, 0, 0])

    def op_vpinsrd(self, insn):
        imm, s2, s1, d = insn.ops
        if d.size != 4 or s1.size != 4:
            raise EmuError('unsupported ' + insn.text)
        if s2.kind == 'g' and s2.size != 32:
            raise EmuError('unsupported ' + insn.text)
        x = self.vget(s1, 4)
        x[imm.value & 3] = self.gget(s2, 32)
        self.vset(d, x)

    def _binary(self, insn, f):
        s2, s1, d = insn.ops
        n = d.size
        self.vset(d, [f(a, b) for a, b in zip(self.vget(s1, n), self.vget(s2, n))])

    def op_vpaddd(self, insn):
        self._binary(insn, lambda a, b: (a + b) & M32)

    def op_vpxor(self, insn):
        self._binary(insn, lambda a, b: a ^ b)

    def op_vpor(self, insn):
        self._binary(insn, lambda a, b: a | b)

    op_vpxord = op_vpxor

    def op_vpslld(self, insn):
        imm, s, d = insn.ops
        c = imm.value & 0xff
        self.vset(d, [(x << c) & M32 if c < 32 else 0 for x in self.vget(s, d.size)])

    def op_vpsrld(self, insn):
        imm, s, d = insn.ops
        c = imm.value & 0xff
        self.vset(d, [x >> c if c < 32 else 0 for x in self.vget(s, d.size)])

    def op_vprold(self, insn):
        imm, s, d = insn.ops
        c = imm.value & 31
        self.vset(d, [rotl32(x, c) for x in self.vget(s, d.size)])

    def op_vpshufb(self, insn):
        # each byte of each 128-bit lane: zero if bit 7 of the control byte
        # is set, else the byte of the same lane its low four bits name
        s2, s1, d = insn.ops
        n = d.size
        ctl = struct.pack(DWORDS_FMT[n], *self.vget(s2, n))
        src = struct.pack(DWORDS_FMT[n], *self.vget(s1, n))
        out = bytes(0 if c & 0x80 else src[(i & ~15) + (c & 15)]
                    for i, c in enumerate(ctl))
        self.vset(d, list(struct.unpack(DWORDS_FMT[n], out)))

    def op_vpshufd(self, insn):
        imm, s, d = insn.ops
        x = self.vget(s, d.size)
        sel = [(imm.value >> (2 * i)) & 3 for i in range(4)]
        self.vset(d, [x[l + sel[i]] for l in range(0, d.size, 4) for i in range(4)])

    def _unpack(self, insn, pick):
        s2, s1, d = insn.ops
        a, b = self.vget(s1, d.size), self.vget(s2, d.size)
        out = []
        for l in range(0, d.size, 4):
            out += pick(a[l:l + 4], b[l:l + 4])
        self.vset(d, out)

    def op_vpunpckldq(self, insn):
        self._unpack(insn, lambda a, b: [a[0], b[0], a[1], b[1]])

    def op_vpunpckhdq(self, insn):
        self._unpack(insn, lambda a, b: [a[2], b[2], a[3], b[3]])

    def op_vpunpcklqdq(self, insn):
        self._unpack(insn, lambda a, b: [a[0], a[1], b[0], b[1]])

    def op_vpunpckhqdq(self, insn):
        self._unpack(insn, lambda a, b: [a[2], a[3], b[2], b[3]])

    def op_vperm2i128(self, insn):
        # each half of the destination: imm bits 1:0 (7:4 for the high
        # half) pick src1 low, src1 high, src2 low, src2 high; bit 3 (7)
        # zeroes it
        imm, s2, s1, d = insn.ops
        if d.size != 8:
            raise EmuError('unsupported ' + insn.text)
        a, b = self.vget(s1, 8), self.vget(s2, 8)
        halves = [a[0:4], a[4:8], b[0:4], b[4:8]]
        out = []
        for ctl in (imm.value & 15, (imm.value >> 4) & 15):
            out += [0] * 4 if ctl & 8 else halves[ctl & 3]
        self.vset(d, out)

    def op_vshufi32x4(self, insn):
        # 512 bits: lanes 0, 1 from src1, lanes 2, 3 from src2, each picked
        # by two immediate bits; 256 bits: lane 0 from src1, lane 1 from
        # src2, one bit each
        imm, s2, s1, d = insn.ops
        n = d.size
        a, b = self.vget(s1, n), self.vget(s2, n)
        lane = lambda x, k: x[4 * k:4 * k + 4]
        i = imm.value
        if n == 16:
            out = lane(a, i & 3) + lane(a, (i >> 2) & 3) + \
                  lane(b, (i >> 4) & 3) + lane(b, (i >> 6) & 3)
        elif n == 8:
            out = lane(a, i & 1) + lane(b, (i >> 1) & 1)
        else:
            raise EmuError('unsupported ' + insn.text)
        self.vset(d, out)

    def op_vpternlogd(self, insn):
        # each result bit is bit (a << 2 | b << 1 | c) of the immediate, a
        # from the destination, b from the second source, c the third
        imm, s3, s2, d = insn.ops
        n = d.size
        a, b, c = self.vget(d, n), self.vget(s2, n), self.vget(s3, n)
        out = []
        for x, y, z in zip(a, b, c):
            r = 0
            for i in range(8):
                if imm.value >> i & 1:
                    r |= (x if i & 4 else ~x) & (y if i & 2 else ~y) & \
                         (z if i & 1 else ~z)
            out.append(r & M32)
        self.vset(d, out)

    def op_vbroadcasti32x4(self, insn):
        s, d = insn.ops
        self.vset(d, self.vget(s, 4) * (d.size // 4))

    def op_vinserti64x4(self, insn):
        # src1 with the 256-bit half imm & 1 replaced by src2 (ymm or m256)
        imm, s2, s1, d = insn.ops
        if d.size != 16:
            raise EmuError('unsupported ' + insn.text)
        out = self.vget(s1, 16)
        h = 8 * (imm.value & 1)
        out[h:h + 8] = self.vget(s2, 8)
        self.vset(d, out)

    def op_vmovdqu8(self, insn):
        # only with an opmask, one bit per byte: a masked-off byte of memory
        # is neither read nor written (the CPU suppresses its faults); a
        # masked-off byte of a register is zeroed ({z}) or kept
        s, d = insn.ops
        if s.kind == 'm' and d.kind == 'v' and d.mask and not s.mask:
            k, n = self.k[d.mask], 4 * d.size
            a = self.ea(s)
            cur = bytearray(struct.pack(DWORDS_FMT[d.size],
                                        *self.v[d.reg][:d.size]))
            for i in range(n):
                if k >> i & 1:
                    cur[i:i + 1] = self.load(a + i, 1)
                elif d.zero:
                    cur[i] = 0
            self.vset(d, list(struct.unpack(DWORDS_FMT[d.size], bytes(cur))))
        elif s.kind == 'v' and d.kind == 'm' and d.mask and not d.zero and \
                not s.mask:
            k, n = self.k[d.mask], 4 * s.size
            a = self.ea(d)
            cur = struct.pack(DWORDS_FMT[s.size], *self.v[s.reg][:s.size])
            for i in range(n):
                if k >> i & 1:
                    self.store(a + i, cur[i:i + 1])
        else:
            raise EmuError('unsupported ' + insn.text)

    def op_kmovq(self, insn):
        s, d = insn.ops
        if s.kind != 'g' or s.size != 64 or d.kind != 'k':
            raise EmuError('unsupported ' + insn.text)
        self.k[d.reg] = self.g[s.reg]

    def op_vzeroupper(self, insn):
        for r in self.v[:16]:             # zmm16-31 are left alone
            r[4:] = [0] * 12

    # -- general purpose instructions

    def op_mov(self, insn):
        s, d = insn.ops
        bits = self.gsize(insn)
        self.gset(d, self.gget(s, bits), bits)

    def op_movzbl(self, insn):
        s, d = insn.ops
        if d.kind != 'g' or d.size != 32 or s.kind == 'g' and s.size != 8:
            raise EmuError('unsupported ' + insn.text)
        self.gset(d, self.gget(s, 8), 32)

    def _arith(self, insn, f, write=True, cf=True):
        s, d = insn.ops
        bits = self.gsize(insn)
        a, b = self.gget(d, bits), self.gget(s, bits)
        res, carry = f(a, b, bits)
        self.flags(res, bits, carry if cf else None)
        if write:
            self.gset(d, res, bits)

    def op_add(self, insn):
        self._arith(insn, lambda a, b, n: (a + b, int((a + b) >> n != 0)))

    def op_sub(self, insn):
        self._arith(insn, lambda a, b, n: (a - b, int(a < b)))

    def op_cmp(self, insn):
        self._arith(insn, lambda a, b, n: (a - b, int(a < b)), write=False)

    def op_and(self, insn):
        self._arith(insn, lambda a, b, n: (a & b, 0))

    def op_xor(self, insn):
        self._arith(insn, lambda a, b, n: (a ^ b, 0))

    def op_test(self, insn):
        self._arith(insn, lambda a, b, n: (a & b, 0), write=False)

    def _shift(self, insn, f):
        # by %cl or an immediate, the count masked to 6 (64-bit) or 5 bits
        # as on the CPU; only ZF is modelled, and only for a nonzero count
        c, d = insn.ops
        bits = d.size if d.kind == 'g' else insn.bits
        if not bits:
            raise EmuError('cannot tell the operand size of ' + insn.text)
        if c.kind == 'g' and c.reg == 'rcx' and c.size == 8:
            n = self.g['rcx'] & 0xff
        elif c.kind == 'i':
            n = c.value
        else:
            raise EmuError('unsupported ' + insn.text)
        n &= 63 if bits == 64 else 31
        res = f(self.gget(d, bits), n)
        if n:
            self.flags(res, bits, None)
        self.gset(d, res, bits)

    def op_shl(self, insn):
        self._shift(insn, lambda v, n: v << n)

    def op_shr(self, insn):
        self._shift(insn, lambda v, n: v >> n)

    def op_neg(self, insn):
        d, = insn.ops
        bits = self.gsize(insn)
        v = self.gget(d, bits)
        self.flags(-v, bits, int(v != 0))
        self.gset(d, -v, bits)

    def op_not(self, insn):
        d, = insn.ops
        bits = self.gsize(insn)
        self.gset(d, ~self.gget(d, bits), bits)

    def op_inc(self, insn):
        d, = insn.ops
        bits = self.gsize(insn)
        res = self.gget(d, bits) + 1
        self.flags(res, bits, None)
        self.gset(d, res, bits)

    def op_dec(self, insn):
        d, = insn.ops
        bits = self.gsize(insn)
        res = self.gget(d, bits) - 1
        self.flags(res, bits, None)
        self.gset(d, res, bits)

    def op_push(self, insn):
        s, = insn.ops
        if s.kind == 'g' and s.size != 64:
            raise EmuError('unsupported ' + insn.text)
        val = self.gget(s, 64)
        self.g['rsp'] = (self.g['rsp'] - 8) & M64
        self.store(self.g['rsp'], struct.pack('<Q', val))

    def op_leave(self, insn):
        self.g['rsp'] = self.g['rbp']
        self.g['rbp'], = struct.unpack('<Q', self.load(self.g['rsp'], 8))
        self.g['rsp'] = (self.g['rsp'] + 8) & M64

    def op_ret(self, insn):
        ra, = struct.unpack('<Q', self.load(self.g['rsp'], 8))
        self.g['rsp'] = (self.g['rsp'] + 8) & M64
        return ra

    def op_call(self, insn):
        t, = insn.ops
        self.g['rsp'] = (self.g['rsp'] - 8) & M64
        self.store(self.g['rsp'], struct.pack('<Q', insn.next))
        return t.value

    def op_jmp(self, insn):
        return insn.ops[0].value

    def op_je(self, insn):
        return insn.ops[0].value if self.zf else None

    def op_jne(self, insn):
        return None if self.zf else insn.ops[0].value

    def op_jb(self, insn):
        return insn.ops[0].value if self.cf else None

    def op_jae(self, insn):
        return None if self.cf else insn.ops[0].value

    def op_jbe(self, insn):
        return insn.ops[0].value if self.cf or self.zf else None

    def op_ja(self, insn):
        return None if self.cf or self.zf else insn.ops[0].value

    op_jz, op_jnz, op_jc, op_jnc = op_je, op_jne, op_jb, op_jae

    def op_nop(self, insn):
        pass

    op_nopw = op_nopl = op_endbr64 = op_nop

    def op_int3(self, insn):
        raise Fault('int3 executed at %#x' % insn.addr)

    op_ud2 = op_int3


# What operand kinds (v, g, i, m, a) each instruction accepts, as a regular
# expression over their sequence; checked when decoding.
_V, _VM, _GM, _GI = 'v', '[vm]', '[gm]', '[gim]'
OPERAND_FORMS = {
    'vmovdqu': 'vv|mv|vm', 'vmovdqu32': 'vv|mv|vm',
    'vmovdqa': 'vv|mv|vm', 'vmovdqa64': 'vv|mv|vm',
    'vpbroadcastd': '[vgm]v', 'vbroadcasti128': 'mv', 'vinserti128': 'i[vm]vv',
    'vpinsrd': 'i[gm]vv', 'vmovd': '[gm]v',
    'vpaddd': _VM + 'vv', 'vpxor': _VM + 'vv', 'vpxord': _VM + 'vv',
    'vpor': _VM + 'vv', 'vpshufb': _VM + 'vv',
    'vpunpckldq': _VM + 'vv', 'vpunpckhdq': _VM + 'vv',
    'vpunpcklqdq': _VM + 'vv', 'vpunpckhqdq': _VM + 'vv',
    'vpslld': 'i' + _VM + 'v', 'vpsrld': 'i' + _VM + 'v',
    'vprold': 'i' + _VM + 'v', 'vpshufd': 'i' + _VM + 'v',
    'vperm2i128': 'i' + _VM + 'vv', 'vshufi32x4': 'i' + _VM + 'vv',
    'vzeroupper': '', 'vbroadcasti32x4': 'mv', 'vinserti64x4': 'i[vm]vv',
    'vpternlogd': 'i' + _VM + 'vv',
    'vmovdqu8': 'mv|vm', 'kmovq': 'gk',
    'shl': 'gg|ig', 'shr': 'gg|ig', 'neg': 'g', 'not': 'g',
    'mov': _GI + _GM, 'movzbl': _GM + 'g', 'add': _GI + _GM, 'sub': _GI + _GM,
    'and': _GI + _GM, 'xor': _GI + _GM, 'cmp': _GI + _GM, 'test': _GI + _GM,
    'inc': _GM, 'dec': _GM, 'push': '[gi]', 'leave': '', 'ret': '',
    'call': 'a', 'jmp': 'a', 'je': 'a', 'jz': 'a', 'jne': 'a', 'jnz': 'a',
    'jb': 'a', 'jc': 'a', 'jae': 'a', 'jnc': 'a', 'jbe': 'a', 'ja': 'a',
    'nop': '.*', 'nopw': '.*', 'nopl': '.*', 'endbr64': '', 'int3': '',
    'ud2': '',
}
# instructions whose memory operand may be a {1toN} broadcast
BCAST_OK = {'vpaddd'}
# instructions that may take an opmask (and {z})
MASK_OK = {'vmovdqu8'}
# general purpose instructions objdump may print with a size suffix
GP_SUFFIXED = {'mov', 'add', 'sub', 'and', 'xor', 'cmp', 'test', 'inc',
               'dec', 'push'}
