# SPDX-License-Identifier: GPL-2.0-only
#
# section: 7b a failing registration while its driver is bound
# kchacha: unloaded
# skip: [ -n "$short" ] => not in the short suite
# skip: [ "$hooks" != 1 ] => the module users build has no fail_register
# skip: [ "$(echo "$impls" | wc -l)" -le 1 ] => only the C core here
#
# A failing registration while a task binds that implementation's driver
# (test/vm/guest/regrace.sh).

. /regrace.sh
regrace "$(echo "$impls" | sed -n 2p)" 8
