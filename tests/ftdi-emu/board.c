/*
 * board.c - the adapter boards the emulator can be: how each one wires
 * the chip's pins to the target's JTAG connector.  Written from the
 * adapters' documentation (spec/ftdi-mpsse-jtag.md 2.7 and the OpenOCD
 * interface/ftdi/<name>.cfg files it quotes, whose layout_init and
 * layout_signal lines are taken as facts about the boards), not from the
 * library's layout table: a pin wrong there shows here as a target that
 * is held in reset, or that TCK never reaches.
 *
 * Pins are 16-bit masks, ADBUS in the low byte and ACBUS in the high one,
 * as in OpenOCD's layout_init; a pin counts as driven only while its
 * direction bit makes it an output (spec 1, 0x80/0x82).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "emu.h"

#define AD(n) ((uint16_t)(1u << (n)))
#define AC(n) ((uint16_t)(0x100u << (n)))

static const struct emu_board boards[] = {
    /* minimodule.cfg: the JTAG pins only; nSRST "arbitrarily" on ADBUS5
     * (CN2-13), open drain (-data 0x0020 -oe 0x0020): low when driven. */
    { "minimodule", "2232h", 0x0403, 0x6010, "FT2232H MiniModule",
      .nsrst = { AD(5), false, 0, false } },
    /* olimex-arm-usb-ocd-h.cfg and urJTAG: ADBUS4 is the JTAG buffers'
     * nOE (an output driven low enables them); nTRST on ACBUS0
     * (-data 0x0100); nSRST through an open-collector stage whose input is
     * ACBUS1 (-oe 0x0200 alone: driving it high pulls nSRST low). */
    { "olimex-arm-usb-ocd-h", "2232h", 0x15ba, 0x002b, "Olimex OpenOCD JTAG ARM-USB-OCD-H",
      .enable = { { AD(4), false } },
      .ntrst = { AC(0), false, 0, false }, .nsrst = { AC(1), true, 0, false } },
    /* olimex-arm-usb-tiny-h.cfg: the same board wiring (ADBUS4 nOE driven
     * low in its layout_init too), nTRST open drain on ACBUS0
     * (-data 0x0100 -oe 0x0100), nSRST as on the OCD-H (-oe 0x0200). */
    { "olimex-arm-usb-tiny-h", "2232h", 0x15ba, 0x002a, "Olimex OpenOCD JTAG ARM-USB-TINY-H",
      .enable = { { AD(4), false } },
      .ntrst = { AC(0), false, 0, false }, .nsrst = { AC(1), true, 0, false } },
    /* flyswatter2.cfg: nTRST on ADBUS4 (-data 0x0010); nSRST on ADBUS5
     * through a driver whose enable is ACBUS0, active low (-noe 0x0100). */
    { "flyswatter2", "2232h", 0x0403, 0x6010, "Flyswatter2",
      .ntrst = { AD(4), false, 0, false }, .nsrst = { AD(5), false, AC(0), true } },
    /* digilent-hs2.cfg: ADBUS5..7 driven high and ACBUS5/6 driven low
     * enable the buffers (spec 2.7: inferred, and probe-rs drives the
     * same); reset_config none: no reset lines. */
    { "digilent-hs2", "232h", 0x0403, 0x6014, "Digilent Adept USB Device",
      .enable = { { AD(5), true }, { AD(6), true }, { AD(7), true },
                  { AC(5), false }, { AC(6), false } } },
    /* digilent_jtag_smt2.cfg: nSRST on ACBUS5 (-data 0x2000); nothing
     * documented about buffer enables. */
    { "digilent-jtag-smt2", "232h", 0x0403, 0x6014, "Digilent Adept USB Device",
      .nsrst = { AC(5), false, 0, false } },
    /* SWD boards (spec/cmsis-dap-swd.md 5.3, from the configs' comments).
     * ft232h-module-swd.cfg: an Adafruit-style FT232H board with ADBUS1
     * (DO) and ADBUS2 (DI) both wired to SWDIO, no resistor: DO must stop
     * driving (its direction bit an input) while the target answers;
     * nSRST ADBUS4 and nTRST ADBUS5, open drain (-data -oe the same pin). */
    { "ft232h-module-swd", "232h", 0x0403, 0x6014, "Single RS232-HS",
      .enable = { { 0, false } },
      .ntrst = { AD(5), false, 0, false }, .nsrst = { AD(4), false, 0, false },
      .swd = { EMU_SWD_TIED, 0, false, 0, false } },
    /* minimodule-swd.cfg: the same wiring on an FT2232H Mini-Module
     * (ADBUS1 and ADBUS2 to SWDIO), nRESET on ADBUS4, open drain. */
    { "minimodule-swd", "2232h", 0x0403, 0x6010, "FT2232H MiniModule",
      .nsrst = { AD(4), false, 0, false },
      .swd = { EMU_SWD_TIED, 0, false, 0, false } },
    /* olimex-arm-usb-ocd-h.cfg with the Olimex ARM-JTAG-SWD add-on
     * (olimex-arm-jtag-swd.cfg): the add-on takes the 20-pin JTAG
     * connector and makes SWD of it.  Its SWDIO buffer from TDI is enabled
     * by the TMS pin (SWDIO_OE -alias TMS: ADBUS3 high drives), and it
     * passes SWD only while the nTRST pin is low (SWD_EN -nalias nTRST:
     * ACBUS0, -data 0x0100, inverted), so that pin no longer resets the
     * target; TDO reads SWDIO.  The OCD-H's own JTAG buffers (ADBUS4 nOE
     * low) and nSRST stage (ACBUS1) as above. */
    { "olimex-arm-usb-ocd-h-swd", "2232h", 0x15ba, 0x002b, "Olimex OpenOCD JTAG ARM-USB-OCD-H",
      .enable = { { AD(4), false } },
      .nsrst = { AC(1), true, 0, false },
      .swd = { EMU_SWD_BUFFER, AD(3), true, AC(0), false } },
    /* Bare modules: the JTAG pins wired straight to the connector. */
    { "ft232h", "232h", 0x0403, 0x6014, "Single RS232-HS", .enable = { { 0, false } } },
    { "ft4232h", "4232h", 0x0403, 0x6011, "Quad RS232-HS", .enable = { { 0, false } } },
};

const struct emu_board *emu_board_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof(boards) / sizeof(boards[0]); i++)
        if (strcasecmp(boards[i].name, name) == 0)
            return &boards[i];
    return NULL;
}

const struct emu_board *emu_board_for_chip(const char *chip)
{
    if (strcmp(chip, "232h") == 0)
        return emu_board_find("ft232h");
    if (strcmp(chip, "4232h") == 0)
        return emu_board_find("ft4232h");
    return emu_board_find("minimodule");
}

/* Whether every pin of mask is an output at the given level. */
static bool driven(uint16_t mask, bool high, uint16_t value, uint16_t dir)
{
    return (dir & mask) == mask && (high ? (value & mask) == mask : (value & mask) == 0);
}

static bool line_low(const struct emu_wire *w, uint16_t value, uint16_t dir)
{
    if (!w->pin)
        return false;               /* not wired: the target's pull-up */
    if (w->enable && !driven(w->enable, !w->enable_low, value, dir))
        return false;               /* its driver is off */
    return driven(w->pin, w->asserts_high, value, dir);
}

bool emu_board_trst(const struct emu_board *b, uint16_t value, uint16_t dir)
{
    return line_low(&b->ntrst, value, dir);
}

bool emu_board_srst(const struct emu_board *b, uint16_t value, uint16_t dir)
{
    return line_low(&b->nsrst, value, dir);
}

bool emu_board_buffers_on(const struct emu_board *b, uint16_t value, uint16_t dir)
{
    for (size_t i = 0; i < EMU_MAX_ENABLES && b->enable[i].pin; i++)
        if (!driven(b->enable[i].pin, b->enable[i].high, value, dir))
            return false;
    return true;
}

bool emu_board_swd_routed(const struct emu_board *b, uint16_t value, uint16_t dir)
{
    return !b->swd.en || driven(b->swd.en, b->swd.en_high, value, dir);
}

bool emu_board_swd_host_drives(const struct emu_board *b, uint16_t value, uint16_t dir)
{
    if (!(dir & 0x0002) || !emu_board_swd_routed(b, value, dir))
        return false;               /* DO an input, or cut off by SWD_EN */
    if (b->swd.wiring == EMU_SWD_BUFFER)
        return driven(b->swd.oe, b->swd.oe_high, value, dir);
    return b->swd.wiring == EMU_SWD_TIED;
}
