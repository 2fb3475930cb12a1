# SPDX-License-Identifier: GPL-2.0-only
#
# section: 0 autoload by AF_ALG bind
# kchacha: absent
# skip: [ -n "$short" ] => not in the short suite
#
# kchacha sits in /lib/modules/$(uname -r)/updates, depmod'ed; binding an
# AF_ALG socket to a driver or an algorithm name loads it.  It runs first,
# before the in-tree modules are loaded.

if kctest hold chacha20-kchacha-$top 0 >/dev/null && lsmod | grep -q '^kchacha '; then
	ok "AF_ALG bind to chacha20-kchacha-$top loaded kchacha (no insmod)"
else
	no "AF_ALG bind to chacha20-kchacha-$top loads kchacha"
fi
rmmod kchacha 2>/dev/null
# the debug kernel's extra self-tests loaded the in-tree xchacha12 to
# compare with: unload it, so that the name has no driver left
for m in $(awk '/^name/ { n = $3 } /^module/ && n == "xchacha12" { print $3 }' /proc/crypto); do
	[ "$m" = kernel ] || rmmod "$m" 2>/dev/null
done
rmmod libchacha 2>/dev/null
builtin=$(awk '/^name/ { n = $3 } /^driver/ { d = $3 }
	/^module/ && n == "xchacha12" && $3 == "kernel" { print d }' /proc/crypto)
if [ -n "$builtin" ]; then
	# the name resolves without loading anything: binding it cannot load
	# kchacha, only work
	kctest hold xchacha12 0 >/dev/null &&
		ok "AF_ALG bind to xchacha12 works: $builtin is built in, no module to load" ||
		no "AF_ALG bind to xchacha12 (built-in $builtin)"
elif kctest hold xchacha12 0 >/dev/null && lsmod | grep -q '^kchacha '; then
	ok "AF_ALG bind to xchacha12 loaded kchacha (no insmod)"
else
	no "AF_ALG bind to xchacha12 loads kchacha"
fi
rmmod kchacha 2>/dev/null
