# SPDX-License-Identifier: GPL-2.0-only
#
# section: 8 load/unload cycles
# kchacha: unloaded
#
# Twenty load/unload cycles; on the debug kernel, debug.sh's instead (D5:
# as many, after its own checks, without the extra self-tests that each
# load would run here again).

if [ -n "$debug" ]; then
	debug_end
else
	cycles=0
	for i in $(seq 1 20); do
		insmod /kchacha.ko && rmmod kchacha && cycles=$((cycles + 1))
	done
	[ $cycles = 20 ] && ok "20 load/unload cycles" || no "20 load/unload cycles ($cycles)"
fi
