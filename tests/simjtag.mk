# tests/simjtag.mk: filled by its owner (see tests/local.mk for the pattern)
