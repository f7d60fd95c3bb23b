/*
 * axis.c - tick steps and labels for the plot's axes (plot.h).  Steps are
 * 1, 2 or 5 times a power of ten so that ticks land on round numbers;
 * labels use SI prefixes so a rate of 2400000000/s reads "2.4G/s".
 */
#include <math.h>
#include <stdio.h>

#include "plot/plot.h"

double pp_plot_nice_step(double span, unsigned max_ticks)
{
    double raw, mag, f;

    if (!(span > 0.0) || !isfinite(span) || max_ticks == 0)
        return 1.0;
    raw = span / max_ticks;
    mag = pow(10.0, floor(log10(raw)));
    f = raw / mag;
    if (f <= 1.0)
        return mag;
    if (f <= 2.0)
        return 2.0 * mag;
    if (f <= 5.0)
        return 5.0 * mag;
    return 10.0 * mag;
}

/* Digits after the point that tell ticks step apart once scaled. */
static int decimals_for(double step_scaled)
{
    int d = 0;

    while (d < 6 && step_scaled * pow(10.0, d) + 1e-9 < 1.0)
        d++;
    /* a step of 2.5 (never produced here) or 0.25 would need one more;
     * 1-2-5 steps need exactly these. */
    return d;
}

void pp_plot_si_label(double v, double step, const char *unit, char *buf, size_t n)
{
    static const struct { double f; const char *p; } si[] = {
        { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
    };
    double ref = fabs(step) > fabs(v) ? fabs(step) : fabs(v);
    double f = 1.0;
    const char *prefix = "";

    if (fabs(v) < fabs(step) * 1e-6) {
        snprintf(buf, n, "0%s", unit ? unit : "");   /* also -0.0 and rounding noise */
        return;
    }
    for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++)
        if (ref >= si[i].f) {
            f = si[i].f;
            prefix = si[i].p;
            break;
        }
    snprintf(buf, n, "%.*f%s%s", decimals_for(step > 0.0 ? step / f : 1.0), v / f, prefix,
             unit ? unit : "");
}
