package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"benchbed/load"
	"benchbed/plan/slo"
)

// autoFlag is a duration or "auto" (--duration, --warmup).
type autoFlag struct {
	auto bool
	d    time.Duration
}

// String renders the flag's value.
func (a *autoFlag) String() string {
	switch {
	case a.auto:
		return "auto"
	case a.d == 0:
		return "0s"
	}
	return a.d.String()
}

// Set reads "auto" or a duration.
func (a *autoFlag) Set(v string) error {
	if v == "auto" {
		*a = autoFlag{auto: true}
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("%q: want a duration (30s) or auto", v)
	}
	*a = autoFlag{d: d}
	return nil
}

// Type names the flag's value in the help.
func (a *autoFlag) Type() string { return "duration|auto" }

// set reports whether the flag says anything (auto or a duration).
func (a *autoFlag) set() bool { return a.auto || a.d > 0 }

// autoFlags are `benchbed load`'s options of runs that stop by themselves.
type autoFlags struct {
	duration    autoFlag
	warmup      autoFlag
	precision   float64       // duration auto: the confidence interval's half-width, a share of req/s
	maxDuration time.Duration // duration auto: the longest run
	maxWarmup   time.Duration // warmup auto: the longest warm-up
}

// warmUp runs cfg unmeasured for the warm-up the flags ask (none, a
// duration, or until steady) and says how it ended on w.
func warmUp(ctx context.Context, w io.Writer, cfg load.Config, a autoFlags) error {
	switch {
	case a.warmup.auto:
		why, err := load.Warmup(ctx, cfg, a.maxWarmup)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "benchbed: warm-up at %s: %s\n", rateName(cfg.Rate), why)
	case a.warmup.d > 0:
		cfg.Duration, cfg.Operations = a.warmup.d, 0
		if _, err := load.Run(ctx, cfg); err != nil {
			return err
		}
		fmt.Fprintf(w, "benchbed: warm-up at %s: %s\n", rateName(cfg.Rate), slo.ShortDuration(a.warmup.d))
	}
	return nil
}

// measure runs cfg's measured phase: for its duration, or with duration
// auto until the precision or the max, saying which.
func measure(ctx context.Context, cfg load.Config, a autoFlags) (*load.Result, string, error) {
	if a.duration.auto {
		return load.RunPrecise(ctx, cfg, a.precision, a.maxDuration)
	}
	cfg.Duration = a.duration.d
	res, err := load.Run(ctx, cfg)
	return res, "", err
}

// rateName says "200 req/s" or "closed loop".
func rateName(r float64) string {
	if r > 0 {
		return fmt.Sprintf("%.4g req/s", r)
	}
	return "closed loop"
}
