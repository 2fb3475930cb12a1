#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""test/vm/consumers.py LOG: check on the host what the consumers boot
(test/vm/sets/consumers) dumped on its console, with implementations
that are not the kernel's.

fscrypt: the master key, the nonces and the raw blocks of an encrypted
directory and its files.  Each file's key is derived as fscrypt does
(HKDF-SHA512, fs/crypto/hkdf.c and keysetup.c), the key identifier too; the
blocks are decrypted by the Adiantum model below (XChaCha12 and NH in
Python, AES-256 from OpenSSL through python3-cryptography, Poly1305 as
integers; the construction of the Adiantum paper and crypto/adiantum.c):
every file must come back whole (its SHA-256 as the guest printed it,
zeros after its end), and every name in the directory block must decrypt
to one of the names written.

IPsec: every ESP packet captured on the veth is authenticated and
decrypted with OpenSSL's ChaCha20-Poly1305 as RFC 7634 says (key and salt
from the SA, nonce = salt || IV, AAD = SPI || sequence number); its
padding and next header must be right, every ICMP echo reply must carry
its request's data, and the TCP stream must put together the file the
guest sent.  The IV generator's salt (IV XOR sequence number: seqiv) is
constant within an SA and differs between SAs.

Prints one "PASS"/"FAIL" line per check and "consumers: N passed,
M failed"; exits 1 on any failure.
"""
import base64
import hashlib
import hmac
import os
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.exceptions import InvalidTag

sys.dont_write_bytecode = True           # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from chacha_ref import SIGMA, chacha_block, hchacha  # noqa: E402

M32 = 0xffffffff
M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
P1305 = (1 << 130) - 5

passed = 0
failed = 0


def result(ok, what):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + what)
    if ok:
        passed += 1
    else:
        failed += 1
    return ok


# ---------------------------------------------------------------- ChaCha

def xchacha_stream(key, nonce24, length, nrounds):
    """The keystream of XChaCha at stream position 0 (the kernel's xchacha
    with a 32-byte IV whose last 8 bytes are zero)."""
    sub = struct.unpack('<8I', hchacha(key, nonce24[:16], nrounds))
    tail = struct.unpack('<2I', nonce24[16:24])
    out = bytearray()
    ctr = 0
    while len(out) < length:
        out += chacha_block(list(SIGMA) + list(sub) + [ctr & M32, 0] +
                            list(tail), nrounds)
        ctr += 1
    return bytes(out[:length])


def xor(a, b):
    return bytes(p ^ q for p, q in zip(a, b))


# -------------------------------------------------------------- Adiantum

def poly1305_core(rkey, data):
    """Poly1305's polynomial over 16-byte blocks (each with the 2^128 bit),
    fully reduced and truncated to 128 bits: no final key addition."""
    r = int.from_bytes(rkey, 'little') & 0x0ffffffc0ffffffc0ffffffc0fffffff
    h = 0
    for i in range(0, len(data), 16):
        h = (h + int.from_bytes(data[i:i + 16], 'little') + (1 << 128)) * r % P1305
    return h & M128


def nh(key_words, msg):
    sums = [0, 0, 0, 0]
    for u in range(len(msg) // 16):
        m = struct.unpack_from('<4I', msg, 16 * u)
        k = key_words[4 * u:4 * u + 16]
        for p in range(4):
            sums[p] += ((m[0] + k[4 * p]) & M32) * ((m[2] + k[4 * p + 2]) & M32)
            sums[p] += ((m[1] + k[4 * p + 1]) & M32) * ((m[3] + k[4 * p + 3]) & M32)
    return struct.pack('<4Q', *(s & M64 for s in sums))


class Adiantum:
    """Adiantum-XChaCha<rounds>-AES: key 32 bytes, tweak 32 bytes."""

    def __init__(self, key, nrounds=12):
        self.key = key
        self.nrounds = nrounds
        d = xchacha_stream(key, b'\x01' + bytes(23), 32 + 16 + 16 + 1072,
                           nrounds)
        self.aes = Cipher(algorithms.AES(d[:32]), modes.ECB())
        self.header_key = d[32:48]
        self.poly_key = d[48:64]
        self.nh_key = struct.unpack('<268I', d[64:])

    def _hash(self, tweak, msg):
        header = struct.pack('<QQ', 8 * len(msg), 0)
        hh = poly1305_core(self.header_key, header + tweak)
        padded = msg + bytes(-len(msg) % 16)
        nh_out = b''.join(nh(self.nh_key, padded[i:i + 1024])
                          for i in range(0, len(padded), 1024))
        return (hh + poly1305_core(self.poly_key, nh_out)) & M128

    def _stream(self, c_m, n):
        return xchacha_stream(self.key, c_m + b'\x01' + bytes(7), n,
                              self.nrounds)

    def encrypt(self, tweak, p):
        pl, pr = p[:-16], int.from_bytes(p[-16:], 'little')
        pm = ((pr + self._hash(tweak, pl)) & M128).to_bytes(16, 'little')
        e = self.aes.encryptor()
        cm = e.update(pm) + e.finalize()
        cl = xor(pl, self._stream(cm, len(pl)))
        cr = (int.from_bytes(cm, 'little') - self._hash(tweak, cl)) & M128
        return cl + cr.to_bytes(16, 'little')

    def decrypt(self, tweak, c):
        cl, cr = c[:-16], int.from_bytes(c[-16:], 'little')
        cm = ((cr + self._hash(tweak, cl)) & M128).to_bytes(16, 'little')
        pl = xor(cl, self._stream(cm, len(cl)))
        d = self.aes.decryptor()
        pm = d.update(cm) + d.finalize()
        pr = (int.from_bytes(pm, 'little') - self._hash(tweak, pl)) & M128
        return pl + pr.to_bytes(16, 'little')


# ---------------------------------------------------------------- fscrypt

def hkdf_sha512(master, context, info, length):
    prk = hmac.new(bytes(64), master, hashlib.sha512).digest()
    full = b'fscrypt\0' + bytes([context]) + info
    out, t, i = b'', b'', 1
    while len(out) < length:
        t = hmac.new(prk, t + full + bytes([i]), hashlib.sha512).digest()
        out += t
        i += 1
    return out[:length]


def parse_dump(lines):
    """The fscrypt dump: key, id, then objects (the directory, then files),
    each with its nonce and extents with their raw bytes."""
    fs = {'objects': []}
    cur = ext = None
    for w in lines:
        if w[0] == 'fscrypt' and w[1] == 'key':
            fs['key'] = bytes.fromhex(w[2])
            fs['id'] = w[4]
        elif w[0] == 'dir':
            cur = {'kind': 'dir', 'extents': []}
            fs['objects'].append(cur)
        elif w[0] == 'file':
            cur = {'kind': 'file', 'name': w[1], 'size': int(w[2]),
                   'sha256': w[3], 'extents': []}
            fs['objects'].append(cur)
        elif w[0] == 'nonce':
            cur['nonce'] = bytes.fromhex(w[1])
        elif w[0] == 'extent':
            ext = {'logical': int(w[1]), 'len': int(w[3]), 'b64': []}
            cur['extents'].append(ext)
        elif w[0] == 'b64':
            ext['b64'].append(w[1])
        elif w[0] == 'name':
            fs.setdefault('names', []).append(w[1])
    for o in fs['objects']:
        for e in o['extents']:
            e['data'] = base64.b64decode(''.join(e['b64']))
    return fs


def blocks(obj):
    """(lblk, 4096-byte ciphertext block) of an object's extents."""
    for e in obj['extents']:
        for i in range(len(e['data']) // 4096):
            yield e['logical'] // 4096 + i, e['data'][4096 * i:4096 * (i + 1)]


def check_fscrypt(lines):
    fs = parse_dump(lines)
    if not result('key' in fs and fs['objects'], 'fscrypt: a dump with the key and objects'):
        return
    key = fs['key']
    result(hkdf_sha512(key, 1, b'', 16).hex() == fs['id'],
           'fscrypt: the key identifier the kernel gave is HKDF-SHA512(master key, context 1)')
    dirobj = fs['objects'][0]
    files = [o for o in fs['objects'] if o['kind'] == 'file']
    # the files dumped, and those written but not dumped
    names = set(f['name'] for f in files) | set(fs.get('names', []))
    for f in files:
        fk = Adiantum(hkdf_sha512(key, 2, f['nonce'], 32))
        plain = bytearray()
        for lblk, c in blocks(f):
            if len(plain) != 4096 * lblk:
                break
            plain += fk.decrypt(struct.pack('<Q', lblk) + bytes(24), c)
        size = f['size']
        ok = (len(plain) >= size and
              hashlib.sha256(plain[:size]).hexdigest() == f['sha256'] and
              not any(plain[size:]))
        result(ok, 'fscrypt: %d-byte file (name %d bytes): %d raw blocks decrypt to its '
               'content on the host' % (size, len(f['name']), len(plain) // 4096))
    dk = Adiantum(hkdf_sha512(key, 2, dirobj['nonce'], 32))
    found = set()
    bad = 0
    for _, blk in blocks(dirobj):
        off = 0
        while off + 8 <= len(blk):
            ino, rec_len, name_len = struct.unpack_from('<IHB', blk, off)
            if rec_len < 8:
                break
            name = blk[off + 8:off + 8 + name_len]
            if ino and name not in (b'.', b'..') and name_len:
                p = dk.decrypt(bytes(32), name).rstrip(b'\0')
                try:
                    found.add(p.decode())
                except UnicodeDecodeError:
                    bad += 1
            off += rec_len
    result(found == names and not bad,
           'fscrypt: the %d names in the raw directory block decrypt to the %d names written'
           % (len(found) + bad, len(names)))


# ------------------------------------------------------------- cryptsetup

def check_luks(lines):
    """The first two 4 KiB sectors of a LUKS2 Adiantum mapping: on the
    disk, decrypted with the volume key (plain64 IVs count 512-byte
    sectors), they must be what the mapping read, an ext4 superblock."""
    head = lines[0]
    cipher, vk = head[1], bytes.fromhex(head[2])
    plain = base64.b64decode(''.join(w[1] for w in lines if w[0] == 'plain'))
    raw = base64.b64decode(''.join(w[1] for w in lines if w[0] == 'raw'))
    a = Adiantum(vk, 20 if cipher.startswith('xchacha20,') else 12)
    got = b''.join(a.decrypt(struct.pack('<Q', 8 * j) + bytes(24), raw[4096 * j:4096 * (j + 1)])
                   for j in range(len(raw) // 4096))
    result(len(plain) == 8192 and got == plain and plain[1080:1082] == b'\x53\xef',
           'cryptsetup %s: the disk\'s first two sectors decrypt on the host (volume key, '
           'plain64) to what dm-crypt read, an ext4 superblock' % cipher)


# ------------------------------------------------------------------ IPsec

def csum_ok(data):
    """The Internet checksum (RFC 1071) over data, its checksum field
    included, comes out right."""
    if len(data) % 2:
        data += b'\0'
    t = sum(struct.unpack('>%dH' % (len(data) // 2), data))
    while t >> 16:
        t = (t & 0xffff) + (t >> 16)
    return t == 0xffff


def check_esp(phase, meta, packets, keys):
    spi_tcp, tcp_len, tcp_sum = meta
    bad = []
    salts = {}
    per_spi = {}
    tcp = {}
    syn = None
    echo = {}
    for pkt in packets:
        ihl = (pkt[0] & 15) * 4
        frag = struct.unpack_from('>H', pkt, 6)[0]
        if frag & 0x3fff:
            bad.append('an IP fragment')
            continue
        esp = pkt[ihl:]
        spi, seq = struct.unpack_from('>II', esp, 0)
        k = keys.get(spi)
        if k is None:
            bad.append('unknown SPI %#x' % spi)
            continue
        iv = esp[8:16]
        try:
            plain = ChaCha20Poly1305(k[:32]).decrypt(k[32:] + iv, esp[16:], esp[:8])
        except InvalidTag:
            bad.append('SPI %#x seq %d: authentication failed' % (spi, seq))
            continue
        per_spi[spi] = per_spi.get(spi, 0) + 1
        salts.setdefault(spi, set()).add(bytes(a ^ b for a, b in
                                               zip(iv, struct.pack('>Q', seq))))
        padlen, nexthdr = plain[-2], plain[-1]
        pad = plain[-2 - padlen:-2]
        if pad != bytes(range(1, padlen + 1)):
            bad.append('SPI %#x seq %d: padding' % (spi, seq))
            continue
        inner = plain[:-2 - padlen]
        if nexthdr == 1 and not csum_ok(inner):
            bad.append('SPI %#x seq %d: ICMP checksum' % (spi, seq))
            continue
        if nexthdr == 6 and not csum_ok(pkt[12:20] + struct.pack('>HH', 6, len(inner)) + inner):
            bad.append('SPI %#x seq %d: TCP checksum' % (spi, seq))
            continue
        if nexthdr == 1:
            typ, _, _, ident, iseq = struct.unpack_from('>BBHHH', inner)
            if typ in (0, 8):
                echo.setdefault((ident, iseq), {})[typ] = inner[8:]
        elif nexthdr == 6:
            if spi != spi_tcp:
                continue
            sport, dport, tseq = struct.unpack_from('>HHI', inner)
            doff = (inner[12] >> 4) * 4
            flags = inner[13]
            if flags & 2:
                syn = tseq
            data = inner[doff:]
            if data:
                tcp[tseq] = data
        else:
            bad.append('SPI %#x seq %d: next header %d' % (spi, seq, nexthdr))
    result(not bad and len(per_spi) == 2,
           'ipsec %s: all %d ESP packets authenticate and decrypt with OpenSSL ChaCha20-Poly1305, '
           'padding and ICMP/TCP checksums right (per SPI: %s)%s' % (phase, len(packets),
                                ', '.join('%#x: %d' % kv for kv in sorted(per_spi.items())),
                                '; ' + '; '.join(bad[:5]) if bad else ''))
    pairs = [v for v in echo.values() if 0 in v and 8 in v]
    result(len(pairs) >= 10 and all(v[0] == v[8] for v in pairs),
           'ipsec %s: %d ICMP echo replies carry their requests\' data (sizes %s)'
           % (phase, len(pairs), sorted(set(len(v[8]) for v in pairs))))
    # the bytes from the SYN on, as long as they are contiguous; a
    # retransmitted segment must repeat what it overlaps
    stream = bytearray()
    mismatch = False
    if syn is not None:
        for rel, d in sorted(((s - syn - 1) & M32, d) for s, d in tcp.items()):
            if rel > len(stream):
                break
            if stream[rel:rel + len(d)] != d[:len(stream) - rel]:
                mismatch = True
            stream += d[len(stream) - rel:]
    result(len(stream) == tcp_len and hashlib.sha256(stream).hexdigest() == tcp_sum and
           not mismatch,
           'ipsec %s: the TCP stream decrypted from the wire is the %d-byte file sent (%d bytes%s)'
           % (phase, tcp_len, len(stream), ', a retransmission differs' if mismatch else ''))
    one = all(len(s) == 1 for s in salts.values())
    distinct = len(set(next(iter(s)) for s in salts.values())) == len(salts)
    result(one and distinct and len(salts) == 2,
           'ipsec %s: each SA\'s seqiv salt (IV XOR sequence number) constant, the SAs\' differ: %s'
           % (phase, ', '.join('%#x %s' % (k, '/'.join(x.hex() for x in v))
                               for k, v in sorted(salts.items()))))


def main():
    raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
    dump = []
    for line in raw.splitlines():
        line = line.strip('\r')
        i = line.find('KCDUMP ')
        if i >= 0:
            dump.append(line[i + 7:].split())
    fsl = []
    it = iter(dump)
    phases = 0
    luks = 0
    for w in it:
        if w[0] == 'luks':
            ll = [w]
            for w in it:
                if w[:2] == ['luks', 'end']:
                    break
                ll.append(w)
            try:
                check_luks(ll)
            except (ValueError, IndexError) as e:
                result(False, 'cryptsetup: the dump is incomplete (%r)' % e)
            luks += 1
            continue
        if w[:2] == ['fscrypt', 'key']:
            fsl = [w]
            for w in it:
                if w[:2] == ['fscrypt', 'end']:
                    break
                fsl.append(w)
            try:
                check_fscrypt(fsl)
            except (ValueError, IndexError, KeyError, TypeError) as e:
                result(False, 'fscrypt: the dump is incomplete (%r)' % e)
        elif w[:2] == ['esp', 'phase']:
            phase = w[2]
            meta = (int(w[4], 16), int(w[5]), w[6])
            keys = {}
            packets = []
            for w in it:
                if w[:2] == ['esp', 'end']:
                    break
                if w[:2] == ['esp', 'sa']:
                    keys[int(w[2], 16)] = bytes.fromhex(w[3])
                elif w[0] == 'ESP':
                    packets.append(bytes.fromhex(w[1]))
            try:
                check_esp(phase, meta, packets, keys)
            except (ValueError, IndexError, KeyError, struct.error) as e:
                result(False, 'ipsec %s: the dump is incomplete (%r)' % (phase, e))
            phases += 1
    result(bool(fsl), 'consumers: the log has the fscrypt dump')
    result(phases == 2, 'consumers: the log has both IPsec dumps (%d)' % phases)
    result(luks == 2, 'consumers: the log has both cryptsetup dumps (%d)' % luks)
    print('consumers: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
