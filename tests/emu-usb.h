/*
 * emu-usb.h - the USB descriptors and libusb entry points the two
 * USB-level emulators (tests/ftdi-emu, tests/cmsisdap-emu) have in common.
 * Each emulator keeps its own device list, handles and transfers; what is
 * here holds no state, so it serves both as they are.
 */
#ifndef EMU_USB_H
#define EMU_USB_H

#include <libusb.h>
#include <stdint.h>

/* String descriptor indexes both devices use in their device descriptor. */
#define EMU_USB_STR_MANUFACTURER 1
#define EMU_USB_STR_PRODUCT      2
#define EMU_USB_STR_SERIAL       3

#define EMU_USB_MAX_IF 4                /* the FT4232H's four interfaces */

/* What libusb_get_version's describe field says: defined by each emulator. */
extern const char emu_usb_describe[];

/* One vendor-class interface with two bulk endpoints, numbered by its
 * place in the configuration. */
struct emu_usb_iface {
    uint8_t ep[2];                      /* endpoint addresses, in descriptor order */
    uint16_t max_packet;                /* wMaxPacketSize of both */
    uint8_t subclass, protocol;
    uint8_t string;                     /* iInterface */
};

/* A device descriptor with one configuration and strings 1, 2, 3. */
void emu_usb_device_descriptor(struct libusb_device_descriptor *desc, uint16_t bcd_usb,
                               uint16_t vid, uint16_t pid, uint16_t bcd_device);

/* Configuration 1 (bus powered, 100 mA) with nif (at most EMU_USB_MAX_IF)
 * interfaces, in one block that libusb_free_config_descriptor frees.
 * Returns 0 or LIBUSB_ERROR_NO_MEM. */
int emu_usb_config_new(const struct emu_usb_iface *ifs, unsigned nif,
                       struct libusb_config_descriptor **config);

/* s into data as libusb_get_string_descriptor_ascii does: cut to length - 1,
 * NUL-terminated.  Returns the length copied or LIBUSB_ERROR_INVALID_PARAM. */
int emu_usb_string(const char *s, unsigned char *data, int length);

#endif
