package plan

import (
	"strings"

	"benchbed/plan/scenario"
	"benchbed/templates"
)

// BuiltinPipeline is the pipeline of s's built-in template, false when s
// renders a template of the testbed's own or one without a pipeline.
func BuiltinPipeline(s *Service) (string, bool) {
	text, ok := templates.BuiltinText(s.Template)
	if !ok {
		return "", false
	}
	for _, line := range strings.Split(text, "\n") {
		if p, ok := strings.CutPrefix(line, "pipeline = "); ok {
			return p, true
		}
	}
	return "", false
}

// S3Large reports whether an S3 workload running on v has large size
// classes (multipart uploads).
func (tb *Testbed) S3Large(v *Variant) bool {
	for _, w := range tb.Workloads {
		if w.API != "s3" || !w.RunsOn(v) {
			continue
		}
		if sc, err := scenario.Parse(w.ScenarioJSON); err == nil && sc.HasLarge() {
			return true
		}
	}
	return false
}
