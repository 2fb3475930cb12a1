# SPDX-License-Identifier: GPL-2.0-only
"""test/lib/chacha_ref.py: ChaCha and HChaCha in plain Python, from RFC 8439
section 2 and the XChaCha draft, for the tests that check kchacha's output
on the host against something that shares nothing with the module.  Slow
and obvious on purpose; the tests check it against the RFC's vectors."""

import struct

M32 = (1 << 32) - 1
SIGMA = struct.unpack('<4I', b'expand 32-byte k')


def rotl(v, n):
    """32-bit left rotation of v by n bits."""
    return ((v << n) & M32) | (v >> (32 - n))


def permute(x, nrounds):
    """nrounds rounds (column, then diagonal) of ChaCha on the 16 words
    of list x, in place, without the final addition."""
    def qr(a, b, c, d):
        x[a] = (x[a] + x[b]) & M32
        x[d] = rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & M32
        x[b] = rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & M32
        x[d] = rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & M32
        x[b] = rotl(x[b] ^ x[c], 7)

    for _ in range(nrounds // 2):
        qr(0, 4, 8, 12)
        qr(1, 5, 9, 13)
        qr(2, 6, 10, 14)
        qr(3, 7, 11, 15)
        qr(0, 5, 10, 15)
        qr(1, 6, 11, 12)
        qr(2, 7, 8, 13)
        qr(3, 4, 9, 14)


def chacha_block(state, nrounds):
    """The 64-byte keystream block of the 16-word state."""
    x = list(state)
    permute(x, nrounds)
    return struct.pack('<16I', *[(x[i] + state[i]) & M32 for i in range(16)])


def hchacha(key, nonce16, nrounds):
    """HChaCha: the 32-byte subkey of key and the nonce's first 16 bytes."""
    x = list(SIGMA) + list(struct.unpack('<8I', key)) + \
        list(struct.unpack('<4I', nonce16))
    permute(x, nrounds)
    return struct.pack('<8I', *(x[0:4] + x[12:16]))
