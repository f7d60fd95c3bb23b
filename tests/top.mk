# tests/top.mk: tests of pmuprobe top (top helper): the model and the
# plain-text frame (check_topview), the command in batch mode and on a
# pseudo-terminal (top.test).
check_PROGRAMS += tests/check_topview
tests_check_topview_SOURCES = tests/check_topview.c src/cli/topview.c src/cli/topdraw.c \
	src/cli/topview.h tests/fixture.c tests/fixture.h
tests_check_topview_CFLAGS = $(TEST_CFLAGS) -I$(srcdir)/src/cli
tests_check_topview_LDADD = $(TEST_LIBS) $(NCURSES_LIBS)
TESTS += tests/top.test
EXTRA_DIST += tests/top.test tests/vtscreen.py
