# tests of target (see tests/local.mk)
