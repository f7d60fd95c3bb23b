# tests/json.mk: the --json writer (check_json); --json of scan, status,
# read and events and --version (json.test); the bash completion through
# bash-completion (completion.test).
check_PROGRAMS += tests/check_json
tests_check_json_SOURCES = tests/check_json.c src/cli/json.c src/cli/json.h
tests_check_json_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/cli
tests_check_json_CFLAGS = $(TEST_CFLAGS)
tests_check_json_LDADD = $(TEST_LIBS)
TESTS += tests/json.test tests/completion.test
EXTRA_DIST += tests/json.test tests/completion.test
