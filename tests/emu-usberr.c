/*
 * emu-usberr.c - libusb's error names and texts, as the USB-level
 * emulators (tests/ftdi-emu, tests/cmsisdap-emu) answer them in place of
 * libusb's own: one table for both.
 */
#include <libusb.h>

static const struct {
    int code;
    const char *name, *text;
} errors[] = {
    { LIBUSB_SUCCESS, "LIBUSB_SUCCESS", "Success" },
    { LIBUSB_ERROR_IO, "LIBUSB_ERROR_IO", "Input/Output Error" },
    { LIBUSB_ERROR_INVALID_PARAM, "LIBUSB_ERROR_INVALID_PARAM", "Invalid parameter" },
    { LIBUSB_ERROR_ACCESS, "LIBUSB_ERROR_ACCESS", "Access denied (insufficient permissions)" },
    { LIBUSB_ERROR_NO_DEVICE, "LIBUSB_ERROR_NO_DEVICE",
      "No such device (it may have been disconnected)" },
    { LIBUSB_ERROR_NOT_FOUND, "LIBUSB_ERROR_NOT_FOUND", "Entity not found" },
    { LIBUSB_ERROR_BUSY, "LIBUSB_ERROR_BUSY", "Resource busy" },
    { LIBUSB_ERROR_TIMEOUT, "LIBUSB_ERROR_TIMEOUT", "Operation timed out" },
    { LIBUSB_ERROR_OVERFLOW, "LIBUSB_ERROR_OVERFLOW", "Overflow" },
    { LIBUSB_ERROR_PIPE, "LIBUSB_ERROR_PIPE", "Pipe error" },
    { LIBUSB_ERROR_INTERRUPTED, "LIBUSB_ERROR_INTERRUPTED",
      "System call interrupted (perhaps due to signal)" },
    { LIBUSB_ERROR_NO_MEM, "LIBUSB_ERROR_NO_MEM", "Insufficient memory" },
    { LIBUSB_ERROR_NOT_SUPPORTED, "LIBUSB_ERROR_NOT_SUPPORTED",
      "Operation not supported or unimplemented on this platform" },
    { LIBUSB_ERROR_OTHER, "LIBUSB_ERROR_OTHER", "Other error" },
};

const char *libusb_error_name(int code)
{
    for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
        if (errors[i].code == code)
            return errors[i].name;
    return "**UNKNOWN**";
}

const char *libusb_strerror(int errcode)
{
    for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
        if (errors[i].code == errcode)
            return errors[i].text;
    return "Unknown error";
}
