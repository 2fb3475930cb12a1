# SPDX-License-Identifier: GPL-2.0-only
#
# section: 1d the default stdrng
# kchacha: loaded
#
# crypto_alloc_rng("stdrng"): the kernel's DRBG where it has one
# (modules.order or modules.builtin list drbg.ko), kchacha's best only with
# rng_prefer=1; where it has no DRBG, and no other stdrng, kchacha's best
# with or without rng_prefer.  Then the calibration (kc_calibration).

kdir=/lib/modules/$(uname -r)
others=$(other_stdrngs)
if grep -qs '/drbg\.ko$' $kdir/modules.order $kdir/modules.builtin; then
	case " $others " in
	*" drbg_"*) ok "the kernel's DRBG is registered (stdrng: $others)" ;;
	*) no "the kernel's DRBG is registered (stdrng: '$others')" ;;
	esac
else
	[ -z "$others" ] &&
		ok "no DRBG in this kernel, no stdrng but kchacha's" ||
		no "no DRBG in this kernel, no stdrng but kchacha's (got '$others')"
fi
want=${others%% *}
[ -n "$want" ] || want=chacha20rng-kchacha-$top
default=$(stdrng_got)
[ "$default" = "$want" ] && [ "$default" = "$(top_stdrng)" ] &&
	ok "crypto_alloc_rng(\"stdrng\") gives $default" ||
	no "crypto_alloc_rng(\"stdrng\") gives $want (got '$default', top priority $(top_stdrng))"
rmmod kchacha
# Loaded before any DRBG, kchacha (rng_prefer=0) loads the kernel's, so
# that a DRBG still answers crypto_alloc_rng("stdrng") (the crypto API
# loads stdrng providers only while it has none).  Every other check loads
# the DRBG first: here it is unloaded, where it is a module nobody holds.
if grep -qs '/drbg\.ko$' $kdir/modules.order && lsmod | grep -q '^drbg ' &&
   rmmod drbg 2>/dev/null; then
	if insmod /kchacha.ko; then
		default=$(stdrng_got)
		case $default in
		*-kchacha-* | "")
			no "rng_prefer=0, DRBG not loaded: loading kchacha loads it, crypto_alloc_rng(\"stdrng\") not kchacha's (got '$default'; drbg $(lsmod | grep -c '^drbg ') loaded)" ;;
		*)
			ok "rng_prefer=0, DRBG not loaded: loading kchacha loads it, crypto_alloc_rng(\"stdrng\") gives $default" ;;
		esac
		rmmod kchacha
	else
		no "insmod with the DRBG unloaded"
	fi
	lsmod | grep -q '^drbg ' || modprobe drbg || no "modprobe drbg again"
else
	skip "1d rng_prefer=0 loading the DRBG: no drbg module loaded that rmmod can unload"
fi
if insmod /kchacha.ko rng_prefer=1; then
	param_is rng_prefer Y
	default=$(stdrng_got)
	[ "$default" = chacha20rng-kchacha-$top ] &&
	[ "$(proc_of $default)" = "$(($(rng_prio "$top") + 150)) passed" ] &&
		ok "rng_prefer=1: crypto_alloc_rng(\"stdrng\") gives $default, priority $(($(rng_prio "$top") + 150))" ||
		no "rng_prefer=1: crypto_alloc_rng(\"stdrng\") gives chacha20rng-kchacha-$top (got '$default' $(proc_of "$default"))"
	rmmod kchacha
else
	no "insmod rng_prefer=1"
fi
kc_calibration "$kcspec"
check insmod /kchacha.ko
