# JTAG chains of several TAPs (see tests/local.mk): the simulator's chain,
# detection and description checks, and the Zynq-7000 / i.MX6 targets
# through stock OpenOCD configs, rbb and the FTDI emulator (chains.test).
check_PROGRAMS += tests/check_chain
tests_check_chain_SOURCES = tests/check_chain.c tests/fixture.c tests/fixture.h
tests_check_chain_CFLAGS = $(TEST_CFLAGS)
tests_check_chain_LDADD = $(TEST_LIBS)
TESTS += tests/chains.test
EXTRA_DIST += tests/chains.test
