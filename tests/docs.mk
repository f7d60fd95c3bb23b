# docs: the manual pages are lint-clean and match the programs' help
# (tests/docs.test); each documented exit status is tested (tests/exitcodes.test).
TESTS += tests/docs.test tests/exitcodes.test
EXTRA_DIST += tests/docs.test tests/exitcodes.test
EXTRA_DIST += docs/hardware.md
# README.md's console examples on the simulated SoC, rerun as a user types
# them (tests/readme-tour.test).
TESTS += tests/readme-tour.test
EXTRA_DIST += tests/readme-tour.test tests/readme-tour.py
