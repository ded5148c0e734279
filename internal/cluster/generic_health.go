package cluster

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"benchbed/plan"
)

// waitGenericHealthy polls generic service g's health check on host h
// until it passes or ctx ends: a TCP connect (tcp://), a GET that answers
// 2xx (http://, https://), both from this machine, an empty address being
// the host's; or else the check as a command on the host, exit 0 passing.
// The error names host, service and the last failure.
func waitGenericHealthy(ctx context.Context, r Runner, hc *http.Client, h *plan.Host, g *plan.Generic) error {
	check := genericCheck(r, hc, h, g.Health)
	last := "not checked"
	for {
		err := check(ctx)
		if err == nil {
			return nil
		}
		last = err.Error()
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %s is not healthy (%s): last: %s", h.Name, g.Name, g.Health, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// genericCheck returns one try of health check spec on host h.
func genericCheck(r Runner, hc *http.Client, h *plan.Host, spec string) func(context.Context) error {
	u, err := url.Parse(spec)
	if err != nil || !strings.Contains(spec, "://") {
		return func(ctx context.Context) error {
			_, err := r.Run(ctx, h.Name, spec)
			return err
		}
	}
	if u.Hostname() == "" {
		u.Host = net.JoinHostPort(h.Address, u.Port())
	}
	if u.Scheme == "tcp" {
		return func(ctx context.Context) error {
			var d net.Dialer
			c, err := d.DialContext(ctx, "tcp", u.Host)
			if err == nil {
				c.Close()
			}
			return err
		}
	}
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("%s answered %s", u, resp.Status)
		}
		return nil
	}
}
