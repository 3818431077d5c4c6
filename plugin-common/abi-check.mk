# SPDX-License-Identifier: GPL-2.0
#
# make abi-check IPROUTE2_SRC=~/src/iproute2 (checked out at the tag of
# the installed tc's and ip's -V): abi-check.c, compiled never linked
# against iproute2's headers, checks the plugin's *_abi.h and
# iproute2_abi.h.  Included by tc-plugin/Makefile and ip-plugin/Makefile
# once they have set COMMON (../plugin-common), ABI_H (their *_abi.h) and
# ABI_TOOL (tc, ip: the source directory of the binary that loads them).
IPROUTE2_SRC ?=
abi-check: abi-check.c $(ABI_H) $(COMMON)/iproute2_abi.h $(COMMON)/abi_check.h
ifeq ($(IPROUTE2_SRC),)
	@echo "abi-check: skipped (set IPROUTE2_SRC to an iproute2 source tree)"
else
	$(CC) -fsyntax-only -Wall -Wextra -Werror -I../include/uapi \
		-I$(IPROUTE2_SRC)/include -I$(IPROUTE2_SRC)/$(ABI_TOOL) abi-check.c
endif

.PHONY: abi-check
