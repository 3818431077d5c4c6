# SPDX-License-Identifier: GPL-2.0
#
# stripe: one command each.
#   make          build the module, the tc plugin and stripe-perf
#   make check    host unit tests, then the netns suite in a VM
#   make check-debug  the netns suite on a KASAN/lockdep kernel (built once)
#   make demo     one stream over six links, stripe vs teql, in a VM
#   make W=1      build the module with extra warnings (kernel's W=1)
#
# KDIR defaults to the running kernel's build tree when it can load modules,
# otherwise to the headers of the distro kernel the VM boots.

KDIR ?= $(shell scripts/kdir 2>/dev/null)

all: deps
	$(MAKE) -C kernel KDIR="$$(scripts/kdir)" $(if $(W),W=$(W))
	$(MAKE) -C tc-plugin
	$(MAKE) -C tools

deps:
	@scripts/deps --check >/dev/null || scripts/deps

check: all
	scripts/run-tests

# TESTS="foundation datapath" limits it to those tests, as for check.
check-debug: all
	scripts/debug-kernel --check $(TESTS)

demo: all
	scripts/vm-run --mem 3072 -- scripts/demo

# QUICK=1: stripe vs teql only; FULL=1: more profiles (scripts/bench)
bench: all
	bench/run

sparse: deps
	$(MAKE) -C kernel KDIR="$$(scripts/kdir)" C=2 CF="-D__CHECK_ENDIAN__"

install: all
	$(MAKE) -C tc-plugin install

clean:
	$(MAKE) -C kernel KDIR="$$(scripts/kdir)" clean
	$(MAKE) -C tc-plugin clean
	$(MAKE) -C tools clean

.PHONY: all deps check check-debug demo bench sparse install clean

# make fuzz: libFuzzer (clang) on the tc plugin's option parser and printers
# on the host, FUZZ_SECONDS each.  New inputs go to build/fuzz/corpus-*,
# crashes to build/fuzz/<target>-crash-*; seeds are in tests/fuzz/corpus/.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -Wall -Wextra -Werror -Iinclude/uapi -Itc-plugin

fuzz:
	@mkdir -p build/fuzz
	set -e; for t in parse print; do \
		T=$$(echo $$t | tr a-z A-Z); \
		$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_$$T -o build/fuzz/fuzz_$$t \
			tc-plugin/fuzz_parse.c; \
		mkdir -p build/fuzz/corpus-$$t; \
		D=tests/fuzz/plugin-$$t.dict; \
		build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 -artifact_prefix=build/fuzz/$$t- \
			$$(test -f $$D && echo -dict=$$D) \
			build/fuzz/corpus-$$t tests/fuzz/corpus/plugin-$$t; \
	done

.PHONY: fuzz
