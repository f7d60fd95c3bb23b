/* The libFuzzer entry point every tests/fuzz/fuzz_<name>.c defines. */
#ifndef PP_FUZZ_H
#define PP_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
