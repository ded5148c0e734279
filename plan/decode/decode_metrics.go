package decode

import (
	"net"
	"net/url"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// decodeMetrics decodes the metrics block (none: nothing streamed).
func (d *decoder) decodeMetrics(b *hcl.Block) {
	if b == nil {
		return
	}
	m := &d.tb.Metrics
	m.DefRange = b.DefRange
	c := d.Attrs(b.Body, []string{"remote_write", "influx", "listen", "queue"})
	for _, a := range lang.SortedAttrs(c.Attributes) {
		switch a.Name {
		case "remote_write":
			m.RemoteWrite = d.metricsURLs(a)
		case "influx":
			m.Influx = d.metricsURLs(a)
		case "listen":
			v, ok := d.Str(a, d.Ctx)
			if _, _, err := net.SplitHostPort(v); ok && err != nil {
				d.Errorf(a.Expr.Range().Ptr(), "Invalid value for listen", "listen must be HOST:PORT (127.0.0.1:9469); %v", err)
				continue
			}
			m.Listen = v
		case "queue":
			m.Queue, _ = d.Integer(a, d.Ctx, 1, plan.MaxMetricsQueue)
		}
	}
}

// metricsURLs decodes a list of http or https URLs with a host.
func (d *decoder) metricsURLs(a *hcl.Attribute) []string {
	us, ok := d.Strings(a, d.Ctx)
	if !ok {
		return nil
	}
	for _, u := range us {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			d.Errorf(a.Expr.Range().Ptr(), "Invalid value for "+a.Name, "%q is no http:// or https:// URL with a host", u)
			return nil
		}
	}
	return us
}
