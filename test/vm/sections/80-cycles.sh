# SPDX-License-Identifier: GPL-2.0-only
#
# section: 8 load/unload cycles
# kchacha: unloaded
# skip: [ -n "$debug" ] => the debug kernel's section D runs them (D5), after its own checks
#
# Twenty load/unload cycles.  On the debug kernel its section D runs as
# many after its own checks, without the extra self-tests that each load
# would run here again.

cycles=0
for i in $(seq 1 20); do
	insmod /kchacha.ko && rmmod kchacha && cycles=$((cycles + 1))
done
[ $cycles = 20 ] && ok "20 load/unload cycles" || no "20 load/unload cycles ($cycles)"
