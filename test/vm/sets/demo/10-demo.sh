# SPDX-License-Identifier: GPL-2.0-only
#
# section: demo kchacha at work
# kchacha: own
#
# What it registered, a cipher and the rng through AF_ALG, tcrypt's
# speed test; one check: the demo ran to its end.

echo "KCDEMO BEGIN"
# Linux 7.3 restricts AF_ALG to an allowlist (doc/kernels.md, "Linux 7.3 restricts AF_ALG"):
# the demo binds chacha20 and the rng by name, so it lifts that, and says so
r=/proc/sys/crypto/af_alg_restrict
[ -e $r ] || modprobe af_alg 2>/dev/null
if [ -e $r ]; then
	echo "### AF_ALG: this kernel restricts it (af_alg_restrict=${af_alg_default:-$(cat $r)} by default);"
	echo "### the demo lifts that in its VM: echo 0 > $r"
	echo 0 > $r
	echo
fi
echo "### insmod kchacha.ko"
insmod /kchacha.ko
dmesg | grep kchacha
echo
echo "### /proc/crypto: the kchacha drivers"
awk '/^name/ { n = $3 } /^driver/ { d = $3 } /^priority/ { p = $3 }
     /^selftest/ && d ~ /kchacha/ {
	printf "%-11s %-28s priority %-4s selftest %s\n", n, d, p, $3 }' /proc/crypto
top=$(awk '/^driver/ && $3 ~ /^chacha20-kchacha-/ { print $3 }' /proc/crypto | head -n 1)
echo
echo "### RFC 8439 2.4.2 through AF_ALG: kcapi-enc -c chacha20 ($top)"
printf "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it." > /tmp/msg
i=0
while [ $i -lt 32 ]; do printf "\\$(printf %o $i)"; i=$((i + 1)); done > /tmp/key
kcapi-enc -q -c chacha20 --iv 01000000000000000000004a00000000 --keyfd 3 \
	-i /tmp/msg -o /tmp/ct 3< /tmp/key
hexdump -C /tmp/ct
echo "(RFC 8439 2.4.2 expects 6e 2e 35 9a 25 68 f9 80 ... 87 4d)"
rng=$(awk '/^driver/ && $3 ~ /^chacha20rng-kchacha-/ { print $3 }' /proc/crypto | tail -n 1)
if [ -n "$rng" ]; then
	echo
	echo "### 32 bytes from the rng: kcapi-rng -n $rng -b 32"
	kcapi-rng -n "$rng" -b 32 | hexdump -C
fi
echo
echo "### tcrypt mode=214: chacha20 speed test (TCG timings mean nothing)"
dmesg -c > /dev/null
insmod /modules/tcrypt.ko mode=214 2>/dev/null
dmesg | sed "s/^\[[^]]*\] //;s/^tcrypt: *//" | grep -v "^$"
echo "KCDEMO END"
ok "the demo ran to its end"
