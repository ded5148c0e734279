package decode

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"benchbed/templates/catalog"
)

// knownSetTarget reports whether the service a variant's set block names
// is one of the testbed's (decoded before the variants). Otherwise it
// says so at the block's label, with the nearest service name and the list
// of them.
func (d *decoder) knownSetTarget(blk *hcl.Block) bool {
	target := blk.Labels[0]
	if d.tb.Service(target) != nil || d.tb.Generic(target) != nil {
		return true
	}
	var names []string
	for _, s := range d.tb.Services {
		names = append(names, s.Name)
	}
	for _, g := range d.tb.Generics {
		names = append(names, g.Name)
	}
	detail := fmt.Sprintf("no service is named %q", target)
	if near := catalog.Nearest(target, names, 1); len(near) > 0 {
		detail += fmt.Sprintf(": did you mean %q?", near[0])
	}
	if len(names) > 0 {
		detail += ` The services: "` + strings.Join(names, `", "`) + `".`
	}
	d.Errorf(blk.LabelRanges[0].Ptr(), "Variant sets an unknown service", "%s", detail)
	return false
}
