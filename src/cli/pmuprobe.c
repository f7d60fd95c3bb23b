/*
 * pmuprobe.c - command-line entry: global options, then one command.
 *
 *   pmuprobe [GLOBAL OPTIONS] COMMAND [ARGS]
 *
 * Global options come before the command so that every command sees the
 * same target and access path, as with `git -C DIR cmd` or OpenOCD's -f.
 */
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_complete.h"

static const struct command commands[] = {
    { "scan",   cmd_scan,   "walk the ROM tables and list components and cores", help_scan },
    { "status", cmd_status, "per core: power, locks, authentication, PMU access", help_status },
    { "read",   cmd_read,   "read PMU or debug registers of a core, decoded", help_read },
    { "write",  cmd_write,  "write a PMU or debug register of a core", help_write },
    { "events", cmd_events, "list a core's events, checked against PMCEID0-3", help_events },
    { "stream", cmd_stream, "program counters and capture them to a file or pipe", help_stream },
    { "record", cmd_stream, "the same as stream", help_stream },
    { "stat",   cmd_stat,   "count events over a run and print totals, like perf stat", help_stat },
    { "top",    cmd_top,    "live terminal view of event rates and metrics per core", help_top },
    { "convert", cmd_convert, "turn a binary capture into csv, jsonl, perf or trace", help_convert },
    { "plot",   cmd_plot,   "draw a binary capture as rates or metrics over time (SVG, PNG)", help_plot },
    { "config", cmd_config, "program, start, stop or show counters, with ownership checks",
      help_config },
    { "power",  cmd_power,  "request core power-up (EDPRCR.COREPURQ)", help_power },
    { "unlock", cmd_unlock, "clear the OS lock of a core (OSLAR)", help_unlock },
    { "reset",  cmd_reset,  "pulse the adapter's nSRST/nTRST, then examine the DP again",
      help_reset },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: pmuprobe [OPTIONS] COMMAND [ARGS]\n"
        "Read and write Arm PMU registers over CoreSight external debug.\n"
        "\n"
        "Options:\n"
        "  -t, --target NAME|FILE  target description; without one, -p sim builds\n"
        "                          a76-cluster and the other paths discover the SoC\n"
        "                          from its ROM tables (scan --save FILE keeps it);\n"
        "                          NAME.target is searched in $PMUPROBE_TARGETS and\n"
        "                          the installed targets directory\n"
        "  -p, --probe PATH        access path (default sim):\n"
        "                            sim                    the built-in simulated SoC\n"
        "                            rbb:HOST:PORT          remote_bitbang (pmuprobe-sim)\n"
        "                            rbb:unix:PATH          remote_bitbang on a UNIX socket\n"
        "                            openocd[:HOST[:PORT]]  a running OpenOCD (TCL RPC)\n"
        "                            ftdi[:VID:PID[:SERIAL]][@A|B|C|D]  FTDI MPSSE adapter\n"
        "                            cmsis-dap[:VID:PID][:SERIAL]  CMSIS-DAP v2 probe (USB)\n"
        "      --adapter NAME      ftdi: adapter layout (pin map): minimodule,\n"
        "                          olimex-arm-usb-ocd-h, olimex-arm-usb-tiny-h,\n"
        "                          flyswatter2, digilent-hs2, digilent-jtag-smt2,\n"
        "                          ft232h, ft4232h; for SWD also ft232h-module-swd,\n"
        "                          minimodule-swd, olimex-arm-usb-ocd-h-swd; or\n"
        "                          custom:... (see pmuprobe(1))\n"
        "      --speed KHZ         JTAG clock to request (ftdi, cmsis-dap), in kHz;\n"
        "                          status and scan print the one set (rounded down)\n"
        "      --reconnect         openocd: reconnect when the connection is lost\n"
        "      --jtag-chain CHAIN  rbb, ftdi, cmsis-dap: the TAPs on the JTAG chain, from\n"
        "                          one end to the other, e.g. tdo,pl:irlen=6,dap,tdi\n"
        "                          (default: the target's jtag.chain, else found by\n"
        "                          itself)\n"
        "      --transport jtag|swd  ftdi, cmsis-dap: how the DP is reached (default\n"
        "                          jtag); swd needs a SW-DP or SWJ-DP and no\n"
        "                          --jtag-chain, and on ftdi SWDIO wired to TDI\n"
        "                          through a resistor and to TDO (OpenOCD's\n"
        "                          swd-resistor-hack), or an SWD adapter layout\n"
        "                          (SWDIO_OE buffer or DO tied to SWDIO)\n"
        "      --fault SPEC        sim only: inject a fault before the command, e.g.\n"
        "                          cpu2:off, cpu1:oslock, cpu3:dlock, cpu0:noauth,\n"
        "                          cpu0:epmad, cpu1:halt, 0x81030000:error (repeatable);\n"
        "                          SPEC@TIME applies it when the sim's clock reaches\n"
        "                          TIME, e.g. cpu1:off@200ms,cpu1:on@400ms\n"
        "      --sim-time MODE     sim only: deterministic or realtime target time\n"
        "      --trace[=FILE]      write the wire trace to FILE (default stderr):\n"
        "                          each APB access with its register name, each\n"
        "                          DP/AP access with its ACK; or $PMUPROBE_TRACE=FILE\n"
        "      --trace-level LEVEL apb, dap (default) or wire (adds JTAG scans and\n"
        "                          round trips); implies --trace\n"
        "  -h, --help              this help; 'pmuprobe help COMMAND' for a command\n"
        "  -V, --version           print the version, backends and features built in\n"
        "\n"
        "Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nSee pmuprobe(1), pmuprobe-target(5), pmuprobe-bin(5) and pmuprobe-sim(1).\n");
}

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int help_command(int argc, char **argv)
{
    const struct command *c;

    if (argc < 2) {
        usage(stdout);
        return EXIT_OK;
    }
    c = find_command(argv[1]);
    if (!c) {
        cli_error("unknown command '%s' (try 'pmuprobe --help')", argv[1]);
        return EXIT_USAGE;
    }
    c->help(stdout);
    return EXIT_OK;
}

/* Output that did not reach its file is a failed command, whatever the
 * command returned: a full disk or a reader that closed the pipe is exit 4
 * with the reason (SIGPIPE is ignored, so a closed pipe is EPIPE here).  A
 * command that failed already said why; its status stands. */
static int close_stdout(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    if (rc != EXIT_OK)
        return rc;
    cli_error("writing standard output: %s", errno ? strerror(errno) : "write error");
    return EXIT_OUTPUT;
}

enum { OPT_FAULT = 256, OPT_SIM_TIME, OPT_ADAPTER, OPT_SPEED, OPT_RECONNECT,
       OPT_JTAG_CHAIN, OPT_TRANSPORT, OPT_TRACE, OPT_TRACE_LEVEL };

/* --trace, else $PMUPROBE_TRACE (a file, or empty/"-" for stderr). */
static int open_trace(bool given, const char *file, const char *level)
{
    if (!given && !level && !getenv("PMUPROBE_TRACE"))
        return EXIT_OK;
    if (!given)
        file = getenv("PMUPROBE_TRACE");
    return cli_trace_open(file, level);
}

/* '+': stop at the command name; its options are its own. */
#define GLOBAL_SHORTOPTS "+t:p:hV"
static const struct option global_longopts[] = {
    { "target",   required_argument, NULL, 't' },
    { "probe",    required_argument, NULL, 'p' },
    { "fault",    required_argument, NULL, OPT_FAULT },
    { "sim-time", required_argument, NULL, OPT_SIM_TIME },
    { "adapter",  required_argument, NULL, OPT_ADAPTER },
    { "speed",    required_argument, NULL, OPT_SPEED },
    { "reconnect", no_argument,      NULL, OPT_RECONNECT },
    { "jtag-chain", required_argument, NULL, OPT_JTAG_CHAIN },
    { "transport", required_argument, NULL, OPT_TRANSPORT },
    { "trace",    optional_argument, NULL, OPT_TRACE },
    { "trace-level", required_argument, NULL, OPT_TRACE_LEVEL },
    { "help",     no_argument,       NULL, 'h' },
    { "version",  no_argument,       NULL, 'V' },
    { NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
    static const struct cli_optspec global = { GLOBAL_SHORTOPTS + 1, global_longopts };
    struct cli_opts o = { .probe = "sim" };
    const struct command *c;
    const char *trace_file = NULL, *trace_level = NULL;
    bool trace = false;
    uint32_t speed;
    int ch, rc;

    signal(SIGPIPE, SIG_IGN);
    while ((ch = getopt_long(argc, argv, GLOBAL_SHORTOPTS, global_longopts, NULL)) != -1) {
        switch (ch) {
        case 't': o.target = optarg; break;
        case 'p': o.probe = optarg; break;
        case OPT_SIM_TIME: o.sim_time = optarg; break;
        case OPT_ADAPTER: o.adapter = optarg; break;
        case OPT_RECONNECT: o.reconnect = true; break;
        case OPT_JTAG_CHAIN: o.jtag_chain = optarg; break;
        case OPT_TRANSPORT: o.transport = optarg; break;
        case OPT_TRACE: trace = true; trace_file = optarg; break;
        case OPT_TRACE_LEVEL: trace_level = optarg; break;
        case OPT_SPEED:
            if (!parse_u32(optarg, &speed) || speed == 0) {
                cli_error("--speed '%s': expected a TCK frequency in kHz, e.g. 30000", optarg);
                return EXIT_USAGE;
            }
            o.speed_khz = speed;
            break;
        case OPT_FAULT:
            if (o.nfaults == CLI_MAX_FAULTS) {
                cli_error("too many --fault options (at most %d)", CLI_MAX_FAULTS);
                return EXIT_USAGE;
            }
            o.faults[o.nfaults++] = optarg;
            break;
        case 'h': usage(stdout); return EXIT_OK;
        case 'V': print_version(stdout); return EXIT_OK;
        default:
            fprintf(stderr, "Try 'pmuprobe --help'.\n");
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[optind], "help") == 0)
        return help_command(argc - optind, argv + optind);
    /* Hidden: the bash completion's source of names (not in --help). */
    if (strcmp(argv[optind], "__complete") == 0)
        return cmd_complete(&o, argc - optind, argv + optind, commands, NCOMMANDS, &global);
    c = find_command(argv[optind]);
    if (!c) {
        cli_error("unknown command '%s' (commands: scan, status, read, write, events, "
                  "stream, record, stat, top, convert, plot, config, power, unlock, reset; try 'pmuprobe --help')", argv[optind]);
        return EXIT_USAGE;
    }
    if ((rc = open_trace(trace, trace_file, trace_level)) != EXIT_OK)
        return rc;
    /* Each command parses its own options with getopt from index 1. */
    argc -= optind;
    argv += optind;
    optind = 0;
    return cli_trace_close(close_stdout(c->run(&o, argc, argv)));
}
