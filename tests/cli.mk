# tests of cli (see tests/local.mk)
