# SPDX-License-Identifier: GPL-2.0-only
#
# section: 4 rmmod refused while bound
# kchacha: loaded
# skip: [ -n "$short" ] => not in the short suite
#
# rmmod refused while a socket is bound, allowed after it closes.

for holder in "kctest hold chacha20-kchacha-$top" \
	      "rngtest hold chacha20rng-kchacha-$top"; do
	# a fresh file: the previous holder's "bound" line must not count
	rm -f /tmp/hold
	: > /tmp/hold
	$holder 120 > /tmp/hold 2>&1 &
	pid=$!
	# a loaded host can take many seconds to start the holder: wait for
	# its socket rather than try rmmod before it exists
	i=0
	while ! grep -q "bound\|holding" /tmp/hold 2>/dev/null &&
	      [ $i -lt 1000 ] && kill -0 $pid 2>/dev/null; do
		usleep 100000
		i=$((i + 1))
	done
	if ! grep -q "bound\|holding" /tmp/hold 2>/dev/null; then
		cat /tmp/hold
		no "rmmod refused while bound ($holder): the socket was never bound"
	elif rmmod kchacha 2>/dev/null; then
		no "rmmod refused while bound ($holder)"
		insmod /kchacha.ko
	else
		ok "rmmod refused while bound ($holder)"
	fi
	kill $pid
	wait $pid 2>/dev/null
done
