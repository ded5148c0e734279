package decode

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// validateS3 checks every proxy pipeline that has s3api, in each variant,
// as Swift 2.30 starts it: s3api after cache and before the auth
// middleware (tempauth, or with Keystone authtoken s3api s3token
// keystoneauth), slo after s3api for multipart uploads; and that an S3
// workload's variants give their proxies s3api. Errors point at the
// pipeline setting (or the workload), before anything is pushed.
func validateS3(tb *plan.Testbed, add addFunc) {
	for _, v := range tb.Variants {
		for _, s := range tb.Services {
			if s.Role != "proxy" {
				continue
			}
			set, given := tb.Effective(s, v)["pipeline:main"]["pipeline"]
			if !given {
				p, known := plan.BuiltinPipeline(s)
				if !known {
					continue // a template of the testbed's own: its pipeline is its own
				}
				set = plan.Setting{Value: p, Range: s.DefRange}
			}
			checkS3Pipeline(tb, v, s, set, add)
		}
	}
}

// checkS3Pipeline checks one proxy service's pipeline in variant v.
func checkS3Pipeline(tb *plan.Testbed, v *plan.Variant, s *plan.Service, set plan.Setting, add addFunc) {
	words := strings.Fields(set.Value)
	at := func(name string) int { return slices.Index(words, name) }
	s3 := at("s3api")
	if s3 < 0 {
		for _, w := range tb.Workloads {
			if w.API == "s3" && w.RunsOn(v) {
				add(hcl.DiagError, set.Range, "S3 workload without s3api",
					"workload %q speaks S3, and variant %q gives %s the pipeline %q, without s3api: put s3api after cache and before tempauth, "+
						"e.g. \"... cache s3api tempauth ... slo ... proxy-server\", in the service's settings (\"pipeline:main\" = { pipeline = ... })",
					w.Name, v.Name, s.Name, set.Value)
			}
		}
		return
	}
	if c := at("cache"); c < 0 || c > s3 {
		add(hcl.DiagError, set.Range, "s3api before cache",
			"variant %q: %s's pipeline %q needs cache before s3api (Swift refuses to start otherwise)", v.Name, s.Name, set.Value)
	}
	for _, auth := range []string{"tempauth", "keystoneauth", "s3token"} {
		if i := at(auth); i >= 0 && i < s3 {
			add(hcl.DiagError, set.Range, "s3api after the auth middleware",
				"variant %q: %s's pipeline %q has %s before s3api; s3api goes after cache and before the auth middleware "+
					"(\"cache s3api tempauth\", or with Keystone \"authtoken s3api s3token keystoneauth\"): Swift refuses to start otherwise",
				v.Name, s.Name, set.Value, auth)
		}
	}
	if i := at("slo"); i < s3 {
		sev, why := hcl.DiagWarning, "multipart uploads are refused"
		if tb.S3Large(v) {
			sev, why = hcl.DiagError, "the S3 workloads' large size classes need multipart uploads"
		}
		add(sev, set.Range, "No slo after s3api",
			"variant %q: %s's pipeline %q has no slo after s3api: %s; put slo after s3api", v.Name, s.Name, set.Value, why)
	}
}
