#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of the consumers boot (test/vm/consumers), sourced by
# init.sh with kc.mode=consumers: the kernel's own users of kchacha's
# skciphers, driven by Debian's tools.
#
#  1. cryptsetup: LUKS2 with xchacha12,aes-adiantum-plain64 and
#     xchacha20,aes-adiantum-plain64 on a RAM disk, ext4 on it; written
#     through kchacha and read back through the in-tree drivers with
#     kchacha unloaded, and the reverse; `cryptsetup benchmark` as nobody.
#  2. IPsec: ESP with rfc7539esp(chacha20,poly1305) between two network
#     namespaces on a veth pair, kchacha on both sides, then kchacha on one
#     side only (the other's SAs made before it was loaded); the ESP
#     packets are dumped for the host, which decrypts them with OpenSSL's
#     ChaCha20-Poly1305 (python3-cryptography).
#  3. fscrypt: ext4 with the encrypt feature, a v2 Adiantum policy; files
#     and long names written through kchacha, read back after a remount
#     with kchacha unloaded; the raw blocks are dumped for the host, which
#     decrypts them with a model of its own (test/vm/consumers.py).
#  4. The rng as the kernel's stdrng: with rng_prefer=1, the salt of ESP's
#     IV generator (seqiv) comes from kchacha's rng.
#
# Lines for the host start "KCDUMP "; it also needs the summary line.

dmesg -n 1
CS=/usr/sbin/cryptsetup
MKFS=/usr/sbin/mke2fs
IP=/usr/sbin/ip
# the templates and their helpers load on demand; kchacha only by insmod,
# so that "kchacha unloaded" stays so
echo /bin/modprobe > /proc/sys/kernel/modprobe
rm -f /lib/modules/"$(uname -r)"/updates/kchacha.ko
load_intree
mkdir -p /run /mnt
mount -t tmpfs run /run
mkdir -p /run/cryptsetup
# libdevmapper makes the /dev/mapper nodes itself: there is no udev
export DM_DISABLE_UDEV=1

# kchacha's reference count (users of its algorithms), empty if unloaded
kc_refs() { awk '$1 == "kchacha" { print $3 }' /proc/modules; }
# the drivers of /proc/crypto's entries whose driver name contains $1
drivers_with() { awk -v s="$1" '/^driver/ && index($3, s) { print $3 }' /proc/crypto; }
# the refcnt /proc/crypto gives driver $1
refcnt_of() {
	awk -v d="$1" '/^driver/ { c = $3 } c == d && /^refcnt/ { print $3; exit }' /proc/crypto
}
rnd() { echo $(( $(od -An -tu4 -N4 /dev/urandom) % $1 )); }
hexrand() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }
kc_load() {
	[ -z "$(kc_refs)" ] || rmmod kchacha
	insmod /kchacha.ko "$@" || no "insmod kchacha $*"
}
kc_unload() {
	[ -z "$(kc_refs)" ] || rmmod kchacha || no "rmmod kchacha ($(kc_refs) users)"
	[ -z "$(kc_refs)" ]
}

modprobe brd rd_nr=3 rd_size=65536 || no "modprobe brd"
modprobe dm-crypt || no "modprobe dm-crypt"
for m in ext4 veth esp4 xfrm_user af_packet; do
	modprobe $m 2>/dev/null
done

# ---------------------------------------------------------------------
# 1. cryptsetup, LUKS2 Adiantum

# files of random sizes and content on the filesystem mounted at /mnt,
# their sums in $1 (paths relative to /mnt)
write_files() {
	i=0
	while [ $i -lt 6 ]; do
		head -c $(( $(rnd 300000) + 1 )) /dev/urandom > /mnt/f$i
		i=$((i + 1))
	done
	head -c 1 /dev/urandom > /mnt/one
	head -c 1048576 /dev/urandom > /mnt/mib
	(cd /mnt && sha256sum f* one mib) > "$1"
}
luks_format() {  # CIPHER DEV KEYFILE
	$CS luksFormat -q --type luks2 --cipher "$1" --key-size 256 \
		--sector-size 4096 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--hash sha256 --disable-locks --key-file "$3" \
		--volume-key-file /tmp/vk "$2" > /tmp/cs.log 2>&1 ||
		{ cat /tmp/cs.log; return 1; }
}
luks_open() {  # DEV KEYFILE
	$CS open --disable-locks --key-file "$2" "$1" kc > /tmp/cs.log 2>&1 ||
		{ cat /tmp/cs.log; return 1; }
}
luks_close() { $CS close --disable-locks kc; }
# one filesystem written by WRITER (kchacha or in-tree) and read by the other
luks() {  # CIPHER STREAM DEV WRITER
	cipher=$1 stream=$2 dev=$3 writer=$4
	what="cryptsetup $cipher, written by $writer"
	head -c 32 /dev/urandom > /tmp/pass
	head -c 32 /dev/urandom > /tmp/vk
	if [ "$writer" = kchacha ]; then kc_load; else kc_unload; fi
	if ! luks_format "$cipher" "$dev" /tmp/pass || ! luks_open "$dev" /tmp/pass; then
		no "$what: luksFormat and open"
		return
	fi
	$CS status kc | sed 's/^/    /'
	check_user "$what" "$writer" "$stream"
	if $MKFS -q -t ext4 /dev/mapper/kc && mount -t ext4 /dev/mapper/kc /mnt; then
		write_files /tmp/sums
		umount /mnt
		ok "$what: mkfs.ext4, $(wc -l < /tmp/sums) files written"
		# the first two blocks as the mapping reads them and as they
		# are on the disk, with the volume key, for the host
		if [ "$writer" = kchacha ]; then
			sync
			echo 3 > /proc/sys/vm/drop_caches
			off=$($CS status kc | sed -n 's/^ *offset: *\([0-9]*\) sectors$/\1/p')
			echo "KCDUMP luks $cipher $(od -An -tx1 /tmp/vk | tr -d ' \n') $off"
			dd if=/dev/mapper/kc bs=4096 count=2 2>/dev/null | base64 | sed 's/^/KCDUMP plain /'
			dd if="$dev" bs=512 skip="$off" count=16 2>/dev/null | base64 | sed 's/^/KCDUMP raw /'
			echo "KCDUMP luks end"
		fi
	else
		no "$what: mkfs.ext4 and mount"
	fi
	luks_close || no "$what: close"
	if [ "$writer" = kchacha ]; then
		kc_unload && ok "$what: kchacha unloads after close" ||
			no "$what: kchacha unloads after close"
		reader=in-tree
	else
		kc_load
		reader=kchacha
	fi
	if ! luks_open "$dev" /tmp/pass; then
		no "$what: open for $reader"
		return
	fi
	check_user "$what, read by $reader" "$reader" "$stream"
	if mount -t ext4 /dev/mapper/kc /mnt && (cd /mnt && sha256sum -c /tmp/sums) > /tmp/c.log 2>&1; then
		ok "$what: every file byte-identical through $reader"
	else
		cat /tmp/c.log
		no "$what: every file byte-identical through $reader"
	fi
	umount /mnt 2>/dev/null
	luks_close || no "$what: close after reading"
}
# WHAT USER STREAM: the mapping just opened runs on kchacha (its reference
# count went up, /proc/crypto has adiantum(STREAM-kchacha-...)) or on the
# in-tree drivers (kchacha unloaded, an adiantum instance of STREAM's in-tree
# driver)
check_user() {
	d=$(drivers_with "adiantum($3-" | tr '\n' ' ')
	if [ "$2" = kchacha ]; then
		[ "$(kc_refs)" -gt 0 ] && echo "$d" | grep -q "adiantum($3-kchacha-$top," &&
			ok "$1: dm-crypt on kchacha ($(kc_refs) users; $d)" ||
			no "$1: dm-crypt on kchacha (users: $(kc_refs); $d)"
	else
		[ -z "$(kc_refs)" ] && [ -n "$d" ] && ! echo "$d" | grep -q kchacha &&
			ok "$1: dm-crypt on the in-tree drivers, kchacha unloaded ($d)" ||
			no "$1: dm-crypt on the in-tree drivers (kchacha: $(kc_refs); $d)"
	fi
}

for c in xchacha12 xchacha20; do
	luks "$c,aes-adiantum-plain64" $c /dev/ram0 kchacha
	luks "$c,aes-adiantum-plain64" $c /dev/ram1 in-tree
done

kc_load
if runas 65534 $CS benchmark -c xchacha12,aes-adiantum --key-size 256 > /tmp/bench 2>&1 &&
   grep -Eq 'xchacha12,aes-adiantum +256b +[0-9.]+ [MG]iB/s +[0-9.]+ [MG]iB/s' /tmp/bench; then
	ok "cryptsetup benchmark as uid 65534: $(grep adiantum /tmp/bench | tr -s ' ')"
else
	cat /tmp/bench
	no "cryptsetup benchmark -c xchacha12,aes-adiantum as uid 65534"
fi

# ---------------------------------------------------------------------
# 2. IPsec ESP, rfc7539esp(chacha20,poly1305); 4. the rng as stdrng

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

# ---------------------------------------------------------------------
# 3. fscrypt, Adiantum contents and filenames, v2 policy (last: on some
#    kernels its contents transforms outlive the filesystem, below)

dev=/dev/ram2
head -c 64 /dev/urandom > /tmp/fskey
kc_load
klog_clear
fs_ok=
if $MKFS -q -t ext4 -O encrypt -b 4096 $dev 32M && mount -t ext4 $dev /mnt &&
   id=$(fscrypt addkey /mnt /tmp/fskey) && mkdir /mnt/d &&
   fscrypt policy /mnt/d "$id"; then
	fs_ok=1
	ok "fscrypt: ext4 -O encrypt, key $id added, v2 Adiantum policy set"
else
	no "fscrypt: mkfs -O encrypt, add the key, set the policy"
fi
if [ -n "$fs_ok" ]; then
	# a larger file first, checked by the in-tree read only
	head -c 524288 /dev/urandom > /mnt/d/big
	(cd /mnt/d && sha256sum big) > /tmp/bigsum
	: > /tmp/names
	n=0
	for len in 1 20 31 32 33 100 200 255; do
		name=$(hexrand 128 | cut -c1-$len)
		size=$(( $(rnd 20000) + 1 ))
		[ $n = 0 ] && size=1
		[ $n = 1 ] && size=4096
		[ $n = 2 ] && size=12289
		head -c $size /dev/urandom > "/mnt/d/$name"
		echo "$name" >> /tmp/names
		echo $size > "/tmp/size.$n"
		n=$((n + 1))
	done
	sync
	(cd /mnt/d && sha256sum $(cat /tmp/names)) > /tmp/fsums
	refs=$(kc_refs)
	impl=$(dmesg | sed -n 's/.*fscrypt: Adiantum using implementation "\(.*\)"/\1/p' | head -n 1)
	case $impl in
	"adiantum(xchacha12-kchacha-$top,"*)
		ok "fscrypt: Adiantum using implementation \"$impl\" ($refs users of kchacha)" ;;
	*)
		no "fscrypt: Adiantum on xchacha12-kchacha-$top (dmesg says: $impl)" ;;
	esac
	# where the blocks are, for the host's decryption
	echo "KCDUMP fscrypt key $(od -An -tx1 /tmp/fskey | tr -d ' \n') id $id"
	fscrypt info /mnt/d > /tmp/info.dir || no "fscrypt info /mnt/d"
	i=0
	for name in $(cat /tmp/names); do
		fscrypt info "/mnt/d/$name" > /tmp/info.$i || no "fscrypt info $name"
		i=$((i + 1))
	done
	umount /mnt
	dump() {  # INFO: the extents' raw blocks, base64
		while read -r what a b c; do
			case $what in
			nonce) echo "KCDUMP nonce $a" ;;
			extent)
				echo "KCDUMP extent $a $b $c"
				dd if=$dev bs=4096 skip=$((b / 4096)) count=$((c / 4096)) 2>/dev/null |
					base64 | sed 's/^/KCDUMP b64 /'
				;;
			esac
		done < "$1"
	}
	echo "KCDUMP dir"
	dump /tmp/info.dir
	i=0
	for name in $(cat /tmp/names); do
		echo "KCDUMP file $name $(cat /tmp/size.$i) $(grep " $name\$" /tmp/fsums | cut -d' ' -f1)"
		dump /tmp/info.$i
		i=$((i + 1))
	done
	echo "KCDUMP name big"
	echo "KCDUMP fscrypt end"
	# the master key left with the umount: kchacha unloads, and the
	# in-tree drivers read it all back.  Where the contents go through
	# blk-crypto-fallback (Linux 7.x), its keyslots (num_keyslots on the
	# command line) keep their adiantum transforms until reboot: kchacha
	# stays in use, the host's decryption above is the independent check,
	# and the read back runs on kchacha again
	kept=$(kc_refs)
	slots=$(sed -n 's/.* blk_crypto_fallback\.num_keyslots=\([0-9]*\).*/\1/p' /proc/cmdline)
	reader=in-tree
	if [ "$kept" = "$slots" ]; then
		echo "NOTE fscrypt: the contents ran on blk-crypto-fallback: its $slots keyslots keep adiantum(xchacha12-kchacha-$top,...) until reboot; the remount reads through kchacha"
		reader=kchacha
	elif kc_unload; then
		ok "fscrypt: kchacha unloads after umount"
	else
		no "fscrypt: kchacha unloads after umount ($kept users)"
	fi
	if mount -t ext4 $dev /mnt && fscrypt addkey /mnt /tmp/fskey > /dev/null &&
	   (cd /mnt/d && sha256sum -c /tmp/fsums /tmp/bigsum) > /tmp/c.log 2>&1 &&
	   [ "$(ls /mnt/d | sort)" = "$( (cat /tmp/names; echo big) | sort)" ]; then
		d=$(drivers_with "adiantum(xchacha12-" | tr '\n' ' ')
		if [ $reader = kchacha ]; then
			ok "fscrypt: remounted, kchacha reads every name and file back ($d)"
		else
			[ -z "$(kc_refs)" ] && [ -n "$d" ] && ! echo "$d" | grep -q kchacha &&
				ok "fscrypt: remounted, kchacha unloaded: the in-tree drivers ($d) read every name and file" ||
				no "fscrypt: read back on the in-tree drivers (kchacha: $(kc_refs); $d)"
		fi
	else
		cat /tmp/c.log
		ls /mnt/d
		no "fscrypt: remount with kchacha unloaded, every name and file read back"
	fi
	umount /mnt 2>/dev/null
fi

klog_clear
if grep -E "BUG|WARNING|Oops|Call Trace" /tmp/klog; then
	no "kernel log free of BUG, WARNING, Oops, Call Trace"
else
	ok "kernel log free of BUG, WARNING, Oops, Call Trace"
fi
summary
