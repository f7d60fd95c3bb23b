# docs: the manual pages are lint-clean and match the programs' help
# (tests/docs.test); each documented exit status is tested (tests/exitcodes.test).
TESTS += tests/docs.test tests/exitcodes.test
EXTRA_DIST += tests/docs.test tests/exitcodes.test
EXTRA_DIST += docs/hardware.md
