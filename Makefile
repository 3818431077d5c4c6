# SPDX-License-Identifier: GPL-2.0
#
# stripe: one command each.
#   make          build the module, the tc plugin and stripe-perf
#   make check    host unit tests, then the netns suite in a VM
#   make check-debug  the netns suite on a KASAN/lockdep kernel (built once)
#   make demo     one stream over six links, stripe vs teql, in a VM
#   make bench    the side-by-side benchmark (bench/run); make pktgen: pps
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

# packets per second through stripe (reorder off, on) and teql (scripts/pktgen)
pktgen: all
	bench/pktgen

sparse: deps
	$(MAKE) -C kernel KDIR="$$(scripts/kdir)" C=2 CF="-D__CHECK_ENDIAN__"

install: all
	$(MAKE) -C tc-plugin install

clean:
	$(MAKE) -C kernel KDIR="$$(scripts/kdir)" clean
	$(MAKE) -C tc-plugin clean
	$(MAKE) -C tools clean

.PHONY: all deps check check-debug demo bench pktgen sparse install clean

# make fuzz: libFuzzer (clang) on the host, FUZZ_SECONDS each: the tc
# plugin's option parser and printers, and the resequencer (kernel/reseq.c)
# on hostile frames.  See tests/fuzz/README.
FUZZ_SECONDS ?= 60

fuzz:
	tests/fuzz/run $(FUZZ_SECONDS)

.PHONY: fuzz
