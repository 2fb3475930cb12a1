# SPDX-License-Identifier: GPL-2.0-only
#
# section: 7c a failing C core registration while its driver stays bound
# kchacha: unloaded
# skip: [ -n "$short" ] => not in the short suite
# skip: [ "$hooks" != 1 ] => the module users build has no fail_register
#
# The C core's registration fails while a task holds its driver past the
# load: the load waits a bounded time, then succeeds with the held drivers
# unreachable until rmmod; SIGKILL ends the wait at once
# (test/vm/guest/regrace.sh: retire_held).

. /regrace.sh
retire_held 4
retire_held 4 kill
