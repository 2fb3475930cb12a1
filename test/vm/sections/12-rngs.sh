# SPDX-License-Identifier: GPL-2.0-only
#
# section: 1b the rngs
# kchacha: loaded
#
# One per implementation, tested, ranked 150 + level: below the kernel's
# DRBG unless rng_prefer=1 puts them at 300 + level.

for impl in $impls; do
	d=chacha20rng-kchacha-$impl
	got=$(proc_of $d)
	[ "$got" = "$(rng_prio "$impl") passed" ] &&
		ok "/proc/crypto: $d priority $(rng_prio "$impl"), selftest passed" ||
		no "/proc/crypto: $d priority $(rng_prio "$impl"), selftest passed (got: $got)"
	run rngtest $d
	kcapi-rng -n $d -b 4096 > /tmp/r1 && kcapi-rng -n $d -b 4096 > /tmp/r2
	[ "$(wc -c < /tmp/r1)" = 4096 ] && ! cmp -s /tmp/r1 /tmp/r2 &&
		ok "kcapi-rng -n $d: 4096 bytes, a second call differs" ||
		no "kcapi-rng -n $d: 4096 bytes, a second call differs"
done
