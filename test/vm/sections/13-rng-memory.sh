# SPDX-License-Identifier: GPL-2.0-only
#
# section: 1c rng memory
# kchacha: loaded
# skip: [ -n "$debug" ] => KASAN and lockdep change every object's size
# skip: [ -n "$short" ] => not in the short suite
#
# 1,000 rng sockets, each read on one CPU, within the bound (test/vm/guest/
# rngvm.c).

run rngvm mem chacha20rng-kchacha-$top 1000 $ref_chacha20
