/*
 * emu-usb.c - descriptors and the stateless libusb-1.0 entry points of the
 * USB-level emulators (emu-usb.h): those whose answer does not depend on
 * which device is emulated.
 */
#include <stdlib.h>
#include <string.h>

#include "emu-usb.h"

void libusb_set_debug(libusb_context *ctx, int level)
{
    (void)ctx;
    (void)level;
}

int libusb_set_option(libusb_context *ctx, enum libusb_option option, ...)
{
    (void)ctx;
    (void)option;
    return 0;
}

const struct libusb_version *libusb_get_version(void)
{
    static const struct libusb_version v = { 1, 0, 26, 0, "", emu_usb_describe };

    return &v;
}

int libusb_has_capability(uint32_t capability)
{
    return capability == LIBUSB_CAP_HAS_CAPABILITY;
}

void emu_usb_device_descriptor(struct libusb_device_descriptor *desc, uint16_t bcd_usb,
                               uint16_t vid, uint16_t pid, uint16_t bcd_device)
{
    memset(desc, 0, sizeof(*desc));
    desc->bLength = LIBUSB_DT_DEVICE_SIZE;
    desc->bDescriptorType = LIBUSB_DT_DEVICE;
    desc->bcdUSB = bcd_usb;
    desc->bMaxPacketSize0 = 64;
    desc->idVendor = vid;
    desc->idProduct = pid;
    desc->bcdDevice = bcd_device;
    desc->iManufacturer = EMU_USB_STR_MANUFACTURER;
    desc->iProduct = EMU_USB_STR_PRODUCT;
    desc->iSerialNumber = EMU_USB_STR_SERIAL;
    desc->bNumConfigurations = 1;
}

/* One block: the config, its interfaces, altsettings and endpoints, so
 * that freeing the config (its first member) frees them all. */
struct config_block {
    struct libusb_config_descriptor config;
    struct libusb_interface ifs[EMU_USB_MAX_IF];
    struct libusb_interface_descriptor alt[EMU_USB_MAX_IF];
    struct libusb_endpoint_descriptor ep[EMU_USB_MAX_IF][2];
};

static void fill_interface(struct config_block *b, unsigned i, const struct emu_usb_iface *f)
{
    struct libusb_interface_descriptor *a = &b->alt[i];

    for (unsigned k = 0; k < 2; k++) {
        struct libusb_endpoint_descriptor *ep = &b->ep[i][k];

        ep->bLength = LIBUSB_DT_ENDPOINT_SIZE;
        ep->bDescriptorType = LIBUSB_DT_ENDPOINT;
        ep->bEndpointAddress = f->ep[k];
        ep->bmAttributes = LIBUSB_TRANSFER_TYPE_BULK;
        ep->wMaxPacketSize = f->max_packet;
    }
    a->bLength = LIBUSB_DT_INTERFACE_SIZE;
    a->bDescriptorType = LIBUSB_DT_INTERFACE;
    a->bInterfaceNumber = (uint8_t)i;
    a->bNumEndpoints = 2;
    a->bInterfaceClass = LIBUSB_CLASS_VENDOR_SPEC;
    a->bInterfaceSubClass = f->subclass;
    a->bInterfaceProtocol = f->protocol;
    a->iInterface = f->string;
    a->endpoint = b->ep[i];
    b->ifs[i].altsetting = a;
    b->ifs[i].num_altsetting = 1;
}

int emu_usb_config_new(const struct emu_usb_iface *ifs, unsigned nif,
                       struct libusb_config_descriptor **config)
{
    struct config_block *b = calloc(1, sizeof(*b));

    if (!b)
        return LIBUSB_ERROR_NO_MEM;
    if (nif > EMU_USB_MAX_IF)
        nif = EMU_USB_MAX_IF;
    for (unsigned i = 0; i < nif; i++)
        fill_interface(b, i, &ifs[i]);
    b->config.bLength = LIBUSB_DT_CONFIG_SIZE;
    b->config.bDescriptorType = LIBUSB_DT_CONFIG;
    b->config.wTotalLength = (uint16_t)(LIBUSB_DT_CONFIG_SIZE +
                                        nif * (LIBUSB_DT_INTERFACE_SIZE +
                                               2 * LIBUSB_DT_ENDPOINT_SIZE));
    b->config.bNumInterfaces = (uint8_t)nif;
    b->config.bConfigurationValue = 1;
    b->config.bmAttributes = 0x80;
    b->config.MaxPower = 50;
    b->config.interface = b->ifs;
    *config = &b->config;
    return 0;
}

int libusb_get_active_config_descriptor(libusb_device *dev,
                                        struct libusb_config_descriptor **config)
{
    return libusb_get_config_descriptor(dev, 0, config);
}

void libusb_free_config_descriptor(struct libusb_config_descriptor *config)
{
    free(config);                      /* first member of its block */
}

int libusb_get_device_speed(libusb_device *dev)
{
    (void)dev;
    return LIBUSB_SPEED_HIGH;
}

int libusb_set_auto_detach_kernel_driver(libusb_device_handle *h, int enable)
{
    (void)h;
    (void)enable;
    return 0;
}

int emu_usb_string(const char *s, unsigned char *data, int length)
{
    size_t n;

    if (length < 1)
        return LIBUSB_ERROR_INVALID_PARAM;
    n = strlen(s);
    if (n > (size_t)length - 1)
        n = (size_t)length - 1;
    memcpy(data, s, n);
    data[n] = '\0';
    return (int)n;
}
