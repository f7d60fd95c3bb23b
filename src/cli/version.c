/*
 * version.c - `pmuprobe --version`: the version, then what this build
 * carries, with each library's version asked from the library itself at
 * run time (so it is the one actually loaded, not the headers').
 * Compiled with the libraries' CFLAGS, hence a file of its own.
 */
#include <cairo.h>
#include <curses.h>
#include <ftdi.h>
#include <libusb.h>
#include <stdio.h>

#include "cmd_complete.h"

void print_version(FILE *out)
{
    struct ftdi_version_info fv = ftdi_get_library_version();
    const struct libusb_version *uv = libusb_get_version();

    fprintf(out, "pmuprobe %s\n", PACKAGE_VERSION);
    fprintf(out, "backends: sim, rbb, openocd, ftdi (libftdi1 %s, libusb %u.%u.%u), "
            "cmsis-dap (CMSIS-DAP v2, libusb %u.%u.%u)\n", fv.version_str, uv->major,
            uv->minor, uv->micro, uv->major, uv->minor, uv->micro);
    fprintf(out, "features: plot (cairo %s), top (%s)\n", cairo_version_string(),
            curses_version());
}
