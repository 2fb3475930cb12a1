# SPDX-License-Identifier: GPL-2.0-only
#
# section: c2 IPsec ESP, rfc7539esp(chacha20,poly1305), and the rng as stdrng
# kchacha: own
#
# ESP between two namespaces, kchacha on both sides, then on one side;
# the packets dumped for the host (test/vm/consumers.py).

A=192.0.2.1
B=192.0.2.2
AEAD='rfc7539esp(chacha20,poly1305)'
net_ok=
if $IP netns add b && $IP link add va type veth peer name vb &&
   $IP link set vb netns b && $IP addr add $A/24 dev va &&
   $IP link set va mtu 16000 up && $IP link set lo up &&
   $IP -n b addr add $B/24 dev vb && $IP -n b link set vb mtu 16000 up &&
   $IP -n b link set lo up; then
	net_ok=1
else
	no "ipsec: two namespaces and a veth pair"
fi
# SIDE SRC DST SPI KEY REQID: one SA in namespace SIDE (a: the initial one)
sa() {
	ns=
	[ "$1" = b ] && ns="-n b"
	# shellcheck disable=SC2086
	$IP $ns xfrm state add src "$2" dst "$3" proto esp spi "$4" reqid "$6" \
		mode transport aead "$AEAD" "0x$5" 128
}
# SIDE: the policies of one side (A to B: reqid 1, B to A: reqid 2)
policies() {
	if [ "$1" = a ]; then
		$IP xfrm policy add src $A/32 dst $B/32 dir out tmpl src $A dst $B proto esp reqid 1 mode transport &&
		$IP xfrm policy add src $B/32 dst $A/32 dir in tmpl src $B dst $A proto esp reqid 2 mode transport
	else
		$IP -n b xfrm policy add src $B/32 dst $A/32 dir out tmpl src $B dst $A proto esp reqid 2 mode transport &&
		$IP -n b xfrm policy add src $A/32 dst $B/32 dir in tmpl src $A dst $B proto esp reqid 1 mode transport
	fi
}
# PHASE: pings of several sizes and a TCP transfer A to B, the ESP on va
# captured and dumped for the host
traffic() {
	rm -f /tmp/cap.log /tmp/recv.log
	nettest cap va > /tmp/esp 2> /tmp/cap.log &
	cap=$!
	i=0
	while ! grep -q capturing /tmp/cap.log && [ $i -lt 50 ]; do usleep 100000; i=$((i + 1)); done
	# -A: the second echo goes when the first reply is back, not a
	# second later (ten idle seconds a boot)
	for s in 0 56 1400 4000 15000; do
		ping -A -c 2 -s $s -W 5 $B > /tmp/ping.log 2>&1 &&
			ok "ipsec $1: ping -s $s" || { cat /tmp/ping.log; no "ipsec $1: ping -s $s"; }
	done
	head -c $(( 200000 + $(rnd 100000) )) /dev/urandom > /tmp/send
	rm -f /tmp/recv
	$IP netns exec b nettest recv 5000 /tmp/recv 2> /tmp/recv.log &
	rp=$!
	i=0
	while ! grep -q listening /tmp/recv.log && [ $i -lt 50 ]; do usleep 100000; i=$((i + 1)); done
	# a segment that arrives corrupt is dropped, and so are its
	# retransmissions: the first such drop ends the transfer (60 s at
	# most in all)
	bad0=$(corrupt)
	nettest send $B 5000 /tmp/send &
	sp=$!
	i=0
	while kill -0 $sp 2>/dev/null && [ "$(corrupt)" = "$bad0" ] && [ $i -lt 600 ]; do
		usleep 100000
		i=$((i + 1))
	done
	kill $sp 2>/dev/null
	bad=$(($(corrupt) - bad0))
	[ $bad = 0 ] && ok "ipsec $1: no packet dropped as corrupt (ESP ICV, TCP checksum; both namespaces)" ||
		no "ipsec $1: $bad packets dropped as corrupt (ESP ICV, TCP checksum; both namespaces)"
	if wait $sp && wait $rp && cmp -s /tmp/send /tmp/recv; then
		ok "ipsec $1: TCP, $(wc -c < /tmp/send) bytes arrive intact"
	else
		cat /tmp/recv.log
		no "ipsec $1: TCP transfer A to B intact"
	fi
	kill $rp 2>/dev/null
	usleep 300000
	kill $cap
	wait $cap
	grep -q "nettest: 0 dropped" /tmp/cap.log || no "ipsec $1: capture: $(cat /tmp/cap.log)"
	echo "KCDUMP esp phase $1 tcp $SPI1 $(wc -c < /tmp/send) $(sha256sum < /tmp/send | cut -d' ' -f1)"
	echo "KCDUMP esp sa $SPI1 $K1"
	echo "KCDUMP esp sa $SPI2 $K2"
	sed 's/^/KCDUMP /' /tmp/esp
	echo "KCDUMP esp end"
	ok "ipsec $1: $(wc -l < /tmp/esp) ESP packets captured on va"
}
# the packets both namespaces dropped as corrupt since boot: ESP's ICV
# failures (XfrmInStateProtoError) and TCP checksum errors (a wrong byte
# of ciphertext under a right ICV)
corrupt() {
	{
		cat /proc/net/xfrm_stat /proc/net/snmp
		$IP netns exec b cat /proc/net/xfrm_stat /proc/net/snmp
	} | awk '$1 == "XfrmInStateProtoError" { n += $2 }
		$1 == "Tcp:" && !c { for (i = 2; i <= NF; i++) if ($i == "InCsumErrors") c = i; next }
		$1 == "Tcp:" && c { n += $c; c = 0 }
		END { print n + 0 }'
}
newkeys() {  # SPI1 SPI2
	SPI1=$1 SPI2=$2 K1=$(hexrand 36) K2=$(hexrand 36)
}
kc_esp="rfc7539esp(chacha20-kchacha-$top,"
# kc_geniv_stdrng: 1 where ESP's IV generator takes its salts from the
# default rng (the host looked at geniv)
. /data/consumers.env
if [ -n "$net_ok" ]; then
	# kchacha on both sides; its rng the default stdrng (rng_prefer=1):
	# seqiv takes each outgoing SA's IV salt from it, where it uses one
	if [ "$kc_geniv_stdrng" = 1 ]; then
		kc_load rng_prefer=1
		nettest delrng || no "CRYPTO_MSG_DELRNG: the default rng dropped"
	else
		kc_load
		skip "stdrng: seqiv's salts from kchacha's rng: this kernel's geniv does not call crypto_get_default_rng()"
	fi
	rng=chacha20rng-kchacha-$top
	before=$(refcnt_of $rng)
	newkeys 0x1001 0x1002
	if sa a $A $B $SPI1 $K1 1 && sa a $B $A $SPI2 $K2 2 &&
	   sa b $A $B $SPI1 $K1 1 && sa b $B $A $SPI2 $K2 2 &&
	   policies a && policies b; then
		d=$(drivers_with "$kc_esp" | tr '\n' ' ')
		[ -n "$d" ] && [ "$(kc_refs)" -ge 4 ] &&
			ok "ipsec kchacha: 4 SAs on kchacha ($(kc_refs) users; $d)" ||
			no "ipsec kchacha: SAs on $kc_esp... (users: $(kc_refs); $d)"
		after=$(refcnt_of $rng)
		# the default rng is one tfm, held by the crypto API from the
		# first seqiv on; refcnt counts it
		if [ "$kc_geniv_stdrng" = 1 ]; then
			[ -n "$before" ] && [ "$after" = $((before + 1)) ] &&
				ok "stdrng: seqiv's salts came from $rng (refcnt $before -> $after)" ||
				no "stdrng: seqiv's salts from $rng (refcnt $before -> $after)"
		fi
		traffic kchacha
	else
		no "ipsec kchacha: ip xfrm state/policy add"
	fi
	$IP xfrm state flush
	$IP -n b xfrm state flush
	[ "$kc_geniv_stdrng" = 1 ] && { nettest delrng || no "CRYPTO_MSG_DELRNG after the SAs are gone"; }
	kc_unload || no "ipsec: kchacha unloads after the SAs are flushed"

	# one side's SAs on the in-tree drivers (made with kchacha unloaded),
	# the other's on kchacha (made after it is loaded: the API then builds
	# a new rfc7539esp instance on the highest-priority chacha20)
	newkeys 0x2001 0x2002
	if sa b $A $B $SPI1 $K1 1 && sa b $B $A $SPI2 $K2 2; then
		intree=$(drivers_with "rfc7539esp(" | tr '\n' ' ')
		kc_load
		refs=$(kc_refs)
		if sa a $A $B $SPI1 $K1 1 && sa a $B $A $SPI2 $K2 2; then
			d=$(drivers_with "$kc_esp" | tr '\n' ' ')
			! echo "$intree" | grep -q kchacha && [ -n "$intree" ] &&
			[ "$refs" = 0 ] && [ "$(kc_refs)" -ge 2 ] && [ -n "$d" ] &&
				ok "ipsec mixed: namespace b on $intree, the initial one on $d ($(kc_refs) users of kchacha)" ||
				no "ipsec mixed: b on the in-tree drivers ($intree), a on kchacha ($d; users $refs -> $(kc_refs))"
			traffic mixed
		else
			no "ipsec mixed: ip xfrm state add (kchacha side)"
		fi
	else
		no "ipsec mixed: ip xfrm state add (in-tree side)"
	fi
	$IP xfrm state flush
	$IP -n b xfrm state flush
	kc_unload || no "ipsec: kchacha unloads after the mixed SAs are flushed"
fi
