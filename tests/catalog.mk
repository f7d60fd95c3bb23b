# tests of catalog (see tests/local.mk)
