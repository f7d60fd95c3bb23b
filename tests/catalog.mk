# tests of catalog (see tests/local.mk)
check_PROGRAMS += tests/check_catalog
tests_check_catalog_SOURCES = tests/check_catalog.c
tests_check_catalog_CFLAGS = $(TEST_CFLAGS)
tests_check_catalog_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/check_catalog_data
tests_check_catalog_data_SOURCES = tests/check_catalog_data.c
tests_check_catalog_data_CFLAGS = $(TEST_CFLAGS)
tests_check_catalog_data_LDADD = $(TEST_LIBS)
# the generator of the tables from lib/catalog/data
TESTS += tests/catalog-gen.test
EXTRA_DIST += tests/catalog-gen.test
