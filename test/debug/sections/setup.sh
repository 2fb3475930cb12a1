# SPDX-License-Identifier: GPL-2.0-only
#
# The debug tier's sections (test/debug/run packs them beside the suite's,
# test/vm/run --more-sections): D0 before the first load of kchacha, D
# (D1-D6) after the suite's own checks and before its clean-log check.
# Their helpers are test/vm/guest/debug.sh's.

. /debug.sh
