package cluster

import (
	"benchbed/plan"
	"benchbed/remote"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"
)

// GenericKey names generic service service on host: "host/service".
func GenericKey(host, service string) string { return host + "/" + service }

// RestoreGenericServices puts the generic services back as a sweep found them,
// once their original confs are back: a service that did not run before
// ("host/service" false in before) is stopped; one that did is restarted
// as declared, on its original conf, and waited for (within timeout). A
// service the sweep never touched is left.
func RestoreGenericServices(ctx context.Context, tb *plan.Testbed, p *remote.Pool, before map[string]bool, rep *Report, timeout time.Duration) error {
	var again []string
	err := p.FanOut(ctx, Names(GenericHosts(tb)), func(ctx context.Context, host string) error {
		var errs []error
		for _, g := range HostGenerics(tb, tb.Host(host)) {
			was, touched := before[GenericKey(host, g.Name)]
			switch {
			case !touched:
			case !was:
				errs = append(errs, stopGeneric(ctx, p, host, g))
				rep.Change(host, "stopped %s (it did not run before the sweep)", g.Name)
			default:
				_, err := StartGenericService(ctx, p, host, g, nil, true, rep)
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}).Err()
	for k, was := range before {
		if h, _, _ := strings.Cut(k, "/"); was && !slices.Contains(again, h) {
			again = append(again, h)
		}
	}
	if err != nil || len(again) == 0 {
		return err
	}
	return GenericHealthy(ctx, tb, p, again, timeout)
}

// GenericHealthy waits for every generic service of hosts, within timeout.
func GenericHealthy(ctx context.Context, tb *plan.Testbed, p *remote.Pool, hosts []string, timeout time.Duration) error {
	hc := &http.Client{Timeout: 5 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return p.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		for _, g := range HostGenerics(tb, tb.Host(host)) {
			if err := waitGenericHealthy(ctx, p, hc, tb.Host(host), g); err != nil {
				return err
			}
		}
		return nil
	}).Err()
}
