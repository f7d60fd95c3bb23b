# Discovery without a target file (lib/session/discover.c): pmuprobe-sim
# serving SoCs the tool is not told about, over rbb and through OpenOCD's
# stock board configs.
TESTS += tests/discover.test
EXTRA_DIST += tests/discover.test
