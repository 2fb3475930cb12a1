# SPDX-License-Identifier: GPL-2.0-only
#
# section: 1f the skciphers' geometry against the in-tree drivers
# kchacha: loaded
#
# What /proc/crypto says of each kchacha skcipher, less what may differ
# (driver, module, priority, refcnt, selftest, walksize: a tuning), equals
# what it says of the in-tree driver of the same algorithm: type, async,
# internal, blocksize, the key sizes, ivsize, chunksize, and whatever
# fields a newer kernel adds.  Users such as dm-crypt and the skcipher
# walk read these, not the output.

# geometry DRIVER: its /proc/crypto entry, one field a line, less the
# fields that may differ
geometry() {
	awk -v d="$1" '
	function flush() {
		if (hit)
			for (i = 1; i <= k; i++)
				print l[i]
		k = 0
		hit = 0
	}
	/^[[:space:]]*$/ { flush(); next }
	{
		f = $0
		sub(/[[:space:]]*:.*/, "", f)
		v = $0
		sub(/^[^:]*:[[:space:]]*/, "", v)
		if (f == "driver" && v == d)
			hit = 1
		if (f !~ /^(driver|module|priority|refcnt|selftest|walksize)$/)
			l[++k] = f "=" v
	}
	END { flush() }' /proc/crypto | paste -sd' ' -
}
for alg in chacha20 xchacha20 xchacha12; do
	eval "ref=\$ref_$alg"
	want=$(geometry "$ref")
	case " $want " in
	*" type=skcipher "*) ;;
	*) no "$alg: the in-tree $ref's geometry in /proc/crypto (got '$want')"; continue ;;
	esac
	for impl in $impls; do
		d=$alg-kchacha-$impl
		got=$(geometry "$d")
		[ "$got" = "$want" ] &&
			ok "$d: /proc/crypto geometry equals $ref's: $got" ||
			no "$d: /proc/crypto geometry equals $ref's: $want (got: $got)"
	done
done
