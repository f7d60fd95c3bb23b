# tests of coresight (see tests/local.mk)
