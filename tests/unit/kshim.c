// SPDX-License-Identifier: GPL-2.0
/* The host shim's counters (include/kshim.h). */
#include "kshim.h"

long kshim_allocs;
long kshim_skbs;
bool kshim_fail_alloc;
