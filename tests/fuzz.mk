# Fuzzing (issue 9 point 4): targets in tests/fuzz/fuzz_<name>.c.
# make check: each target linked with tests/fuzz/replay.c, run over its seed
# corpus and its crash regressions by tests/fuzz-replay.test.
# make fuzz: the same targets under libFuzzer + ASan + UBSan with $(FUZZ_CC),
# with every lib/**/*.c compiled in except lib/link/ftdi*.c (libftdi) and
# lib/plot/ (cairo).  Crashes land in fuzz-build/crashes-NAME/.
FUZZ_TARGETS = target evlist binread
# noinst, not check_PROGRAMS: every check program also runs as a test with no
# arguments (Makefile.am), and these need the corpus directories.
noinst_PROGRAMS += tests/fuzz/fuzz_target tests/fuzz/fuzz_evlist tests/fuzz/fuzz_binread
tests_fuzz_fuzz_target_SOURCES = tests/fuzz/fuzz_target.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_target_LDADD = lib/libpmuprobe-internal.la
tests_fuzz_fuzz_evlist_SOURCES = tests/fuzz/fuzz_evlist.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_evlist_LDADD = lib/libpmuprobe-internal.la
tests_fuzz_fuzz_binread_SOURCES = tests/fuzz/fuzz_binread.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_binread_LDADD = lib/libpmuprobe-internal.la
TESTS += tests/fuzz-replay.test
EXTRA_DIST += tests/fuzz-replay.test tests/fuzz/corpus tests/fuzz/regress
# (the corpus and regression directories are copied whole; never all of
# tests/fuzz, which holds objects after an in-tree build)

FUZZ_SECONDS = 60
FUZZ_DIR = fuzz-build
FUZZ_FLAGS = -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(top_builddir) -I$(top_srcdir)/lib -DPP_SRCTARGETDIR='"$(abs_top_srcdir)/targets"'

fuzz:
	@if test -z "$(FUZZ_CC)"; then \
	  echo "make fuzz: no clang found (FUZZ_CC is empty); install the Debian packages clang and libclang-rt-14-dev, then re-run configure" >&2; \
	  exit 1; fi
	@mkdir -p $(FUZZ_DIR)
	@srcs=`ls $(top_srcdir)/lib/*.c $(top_srcdir)/lib/*/*.c | grep -v -e '/lib/link/ftdi' -e '/lib/plot/'`; \
	fail=0; for t in $(FUZZ_TARGETS); do \
	  echo "  FUZZCC   $(FUZZ_DIR)/fuzz_$$t"; \
	  $(FUZZ_CC) $(FUZZ_FLAGS) -o $(FUZZ_DIR)/fuzz_$$t $(top_srcdir)/tests/fuzz/fuzz_$$t.c \
	    $$srcs -lm -pthread || exit 1; \
	  rm -rf $(FUZZ_DIR)/corpus-$$t; mkdir -p $(FUZZ_DIR)/corpus-$$t $(FUZZ_DIR)/crashes-$$t; \
	  cp $(top_srcdir)/tests/fuzz/corpus/$$t/* $(FUZZ_DIR)/corpus-$$t/; \
	  echo "  FUZZ     $$t for $(FUZZ_SECONDS) s"; \
	  if ! $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -print_final_stats=1 \
	      -artifact_prefix=$(FUZZ_DIR)/crashes-$$t/ $(FUZZ_DIR)/corpus-$$t \
	      > $(FUZZ_DIR)/fuzz_$$t.log 2>&1; then \
	    echo "make fuzz: fuzz_$$t crashed: see $(FUZZ_DIR)/fuzz_$$t.log and $(FUZZ_DIR)/crashes-$$t/" >&2; \
	    fail=1; fi; \
	done; exit $$fail
.PHONY: fuzz
clean-local: clean-fuzz
clean-fuzz:
	rm -rf $(FUZZ_DIR)
.PHONY: clean-fuzz
