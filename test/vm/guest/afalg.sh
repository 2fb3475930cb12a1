# SPDX-License-Identifier: GPL-2.0-only
#
# AF_ALG's restriction and Adiantum, sourced by init.sh with kchacha loaded
# and $top its best implementation.
#
# Where the kernel restricts AF_ALG (the af_alg_restrict sysctl of
# af_alg.ko, Linux 7.3 on), at its default, 1: binding the raw names,
# kchacha's among them, fails with ENOENT for root and for an unprivileged
# user.  Where the kernel has the Adiantum template (modules.order or
# modules.builtin list adiantum.ko: Debian's kernels do): an unprivileged
# user binds cryptsetup's adiantum(xchacha12,aes), whose instance runs on
# xchacha12-kchacha-$top, and its output equals that of the same instance
# with the kernel's own xchacha12 in place of kchacha's (bound by driver
# names, the sysctl at 0).
# The sysctl is left as it was found.

afalg_sysctl=/proc/sys/crypto/af_alg_restrict
[ -e $afalg_sysctl ] || modprobe af_alg 2>/dev/null
afalg_was=
if [ -e $afalg_sysctl ]; then
	afalg_was=$(cat $afalg_sysctl)
	# the boot value: init.sh's $af_alg_default where it lifted it before
	d=${af_alg_default:-$afalg_was}
	[ "$d" = 1 ] && ok "af_alg_restrict is 1 by default" ||
		no "af_alg_restrict is 1 by default (got $d)"
	echo 1 > $afalg_sysctl
	run kctest refused skcipher chacha20 xchacha20 xchacha12 \
		chacha20-kchacha-$top xchacha12-kchacha-$top
	run kctest refused rng stdrng chacha20rng-kchacha-$top
	run kctest -u 65534 refused skcipher chacha20 xchacha12-kchacha-$top
	run kctest -u 65534 refused rng stdrng
else
	skip "2b AF_ALG restriction at its default: this kernel has no af_alg_restrict"
fi

afalg_kdir=/lib/modules/$(uname -r)
if ! grep -qs '/adiantum\.ko$' $afalg_kdir/modules.order $afalg_kdir/modules.builtin; then
	skip "2b Adiantum through AF_ALG: no Adiantum template in this kernel"
	[ -n "$afalg_was" ] && echo "$afalg_was" > $afalg_sysctl
	return 0
fi
run kctest -u 65534 adiantum "adiantum(xchacha12,aes)" /tmp/adiantum.kc
kctest -u 65534 which skcipher "adiantum(xchacha12,aes)" > /tmp/which 2>&1
# the instance, and the xchacha12 tfm the bound socket holds: the
# highest-priority xchacha12, kchacha's best unless the kernel's own ranks
# above it (xchacha12-lib, 300, above kchacha's generic on 7.x)
inst=$(awk '$2 == "adiantum(xchacha12,aes)" { print $3; exit }' /tmp/which)
want12=$(top_of xchacha12)
case $inst in
"adiantum($want12,"*)
	ok "an unprivileged user's adiantum(xchacha12,aes) is $inst" ;;
*)
	cat /tmp/which
	no "an unprivileged user's adiantum(xchacha12,aes) runs on $want12 (got '$inst')" ;;
esac
grep -qx "risen xchacha12 $want12" /tmp/which &&
	ok "its xchacha12 tfm is $want12" ||
	no "its xchacha12 tfm is $want12"
if [ "$want12" != "xchacha12-kchacha-$top" ]; then
	skip "2b Adiantum on kchacha against the kernel's own: xchacha12-kchacha-$top ranks below $want12"
	[ -n "$afalg_was" ] && echo "$afalg_was" > $afalg_sysctl
	return 0
fi

# the reference: the same instance by driver names, the kernel's lowest
# ranked xchacha12 (xchacha12-generic or xchacha12-lib) in kchacha's place
[ -e $afalg_sysctl ] && echo 0 > $afalg_sysctl
ref12=$(ref_driver xchacha12)
refinst=$(echo "$inst" | sed "s/xchacha12-kchacha-$top/$ref12/")
if [ -n "$ref12" ] && [ -n "$inst" ]; then
	run kctest adiantum "$refinst" /tmp/adiantum.ref
	kctest which skcipher "$refinst" > /tmp/which 2>&1
	if grep -q "^risen xchacha12 $ref12\$" /tmp/which &&
	   ! grep -q kchacha /tmp/which; then
		ok "the reference $refinst runs on $ref12, nothing of kchacha"
	else
		cat /tmp/which
		no "the reference $refinst runs on $ref12, nothing of kchacha"
	fi
	cmp -s /tmp/adiantum.kc /tmp/adiantum.ref && [ -s /tmp/adiantum.kc ] &&
		ok "$inst equals $refinst ($(wc -c < /tmp/adiantum.kc) bytes of ciphertext)" ||
		no "$inst equals $refinst"
else
	no "a reference for $inst (the kernel's xchacha12: '$ref12')"
fi
[ -n "$afalg_was" ] && echo "$afalg_was" > $afalg_sysctl
