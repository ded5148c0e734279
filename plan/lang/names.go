package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// DedupeDiags drops a diagnostic identical to an earlier one (severity, summary,
// detail and range): a for_each block decodes its body once per element,
// and a problem that does not depend on each is reported once.
func DedupeDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	type key struct {
		sev             hcl.DiagnosticSeverity
		summary, detail string
		rng             hcl.Range
	}
	seen := map[key]bool{}
	out := diags[:0:0]
	for _, d := range diags {
		k := key{sev: d.Severity, summary: d.Summary, detail: d.Detail}
		if d.Subject != nil {
			k.rng = *d.Subject
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// EachText is each.key or each.value as text: a string, number or bool as
// written, anything else as JSON.
func EachText(v cty.Value) string {
	if s, err := ScalarText(v); err == nil {
		return s
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return ""
	}
	return string(b)
}

// MaxNamesShown bounds the names a diagnostic lists.
const MaxNamesShown = 12

// ShortList joins names, the first MaxNamesShown of them and how many
// more.
func ShortList(names []string) string {
	if len(names) <= MaxNamesShown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:MaxNamesShown], ", "), len(names)-MaxNamesShown)
}
