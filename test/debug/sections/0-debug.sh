# SPDX-License-Identifier: GPL-2.0-only
#
# section: D0 the debug kernel: kmemleak and the extra self-tests on
# kchacha: absent
#
# Before any load of kchacha: the kernel has kmemleak and the crypto
# manager's extra self-tests, and what boot leaked is cleared, so that
# section D reports only what is new.

debug_begin
