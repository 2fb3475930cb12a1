# SPDX-License-Identifier: GPL-2.0-only
#
# section: 1e vector registers across requests
# kchacha: loaded
#
# The caller's vector registers, filled with a pattern, unchanged after
# every syscall of AF_ALG requests of 1-64 and 65-4096 bytes and of rng
# reads, on every implementation (test/vm/guest/vregs.c).

for impl in $impls; do
	run vregs chacha20-kchacha-$impl xchacha20-kchacha-$impl \
		xchacha12-kchacha-$impl chacha20rng-kchacha-$impl
done
