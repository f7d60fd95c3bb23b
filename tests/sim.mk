# tests of sim (see tests/local.mk)
check_PROGRAMS += tests/check_sim
tests_check_sim_SOURCES = tests/check_sim.c tests/fixture.c tests/fixture.h
tests_check_sim_CFLAGS = $(TEST_CFLAGS)
tests_check_sim_LDADD = $(TEST_LIBS)
# the simulated silicon disagreeing with the tool's tables (sim.* keys)
TESTS += tests/silicon.test
EXTRA_DIST += tests/silicon.test
