package importer

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// baseline is the name of the one variant an import writes.
const baseline = "baseline"

// writeHCL writes the draft as a testbed; without settings for the first
// pass (what the templates alone render).
func (d *draft) writeHCL(withSettings bool) []byte {
	f := hclwrite.NewEmptyFile()
	b := f.Body()
	d.writeHead(b)
	for _, v := range d.Vars {
		vb := block(b, "variable", v.Name)
		vb.SetAttributeRaw("type", hclwrite.TokensForIdentifier("string"))
		vb.SetAttributeValue("sensitive", cty.True)
		vb.SetAttributeValue("description", cty.StringVal(v.Description+"; give it with --var, --var-file or BENCHBED_VAR_"+v.Name))
	}
	d.writeSSH(b)
	for _, g := range d.groupHosts() {
		if g.label == "" {
			d.writeHost(b, g.hosts[0])
		} else {
			d.writeHostGroup(b, g)
		}
	}
	for _, r := range d.Rings {
		d.writeRing(b, r)
	}
	for _, p := range d.Policies {
		writePolicy(b, p)
	}
	for _, s := range d.Services {
		d.writeService(b, s, withSettings)
	}
	d.writeBaseline(b)
	d.writeWorkload(b)
	return hclwrite.Format(f.Bytes())
}

// block appends a block after a blank line.
func block(b *hclwrite.Body, typ string, labels ...string) *hclwrite.Body {
	b.AppendNewline()
	return b.AppendNewBlock(typ, labels).Body()
}

// comment appends comment lines.
func comment(b *hclwrite.Body, lines ...string) {
	for _, l := range lines {
		b.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte(strings.TrimRight("# "+l, " ") + "\n")}})
	}
}

// writeHead writes the testbed block, after a comment saying where the
// testbed came from and what it could not describe.
func (d *draft) writeHead(b *hclwrite.Body) {
	var names []string
	for _, h := range d.Hosts {
		names = append(names, h.Name)
	}
	comment(b, "Written by `benchbed import "+strings.Join(names, " ")+"` from what the hosts run (read only).",
		"Settings are what each conf sets differently from benchbed's built-in template as it renders",
		"for that host (keys the template leaves out: differently from Swift's default).")
	for _, x := range d.Diags {
		if x.Severity > Note {
			comment(b, x.String())
		}
	}
	tb := block(b, "testbed", "imported")
	tb.SetAttributeValue("description", cty.StringVal("imported from "+strings.Join(names, ", ")))
	if d.Catalog != "" {
		tb.SetAttributeValue("swift_version", cty.StringVal(d.Catalog))
	}
}

// writeSSH writes the ssh block of the flags the hosts were reached with.
func (d *draft) writeSSH(b *hclwrite.Body) {
	s := d.SSH
	if s.User == "" && s.Config == "" && len(s.Identities) == 0 && len(s.KnownHosts) == 0 {
		return
	}
	sb := block(b, "ssh")
	if s.User != "" {
		sb.SetAttributeValue("user", cty.StringVal(s.User))
	}
	if s.Config != "" {
		sb.SetAttributeValue("config", cty.StringVal(s.Config))
	}
	if len(s.Identities) > 0 {
		sb.SetAttributeValue("identity_files", strings2(s.Identities))
	}
	if len(s.KnownHosts) > 0 {
		sb.SetAttributeValue("known_hosts", strings2(s.KnownHosts))
	}
}

func strings2(ss []string) cty.Value {
	var vs []cty.Value
	for _, s := range ss {
		vs = append(vs, cty.StringVal(s))
	}
	return cty.TupleVal(vs)
}

// writeHost writes a host block with its disks.
func (d *draft) writeHost(b *hclwrite.Body, h *dHost) {
	hb := block(b, "host", h.Name)
	hb.SetAttributeValue("address", cty.StringVal(h.Address))
	d.hostAttrs(hb, h)
}

// hostAttrs writes what a host block says besides its name and address:
// its SSH port (not 22), roles and disks.
func (d *draft) hostAttrs(hb *hclwrite.Body, h *dHost) {
	if p := d.Ports[h.Name]; p != 0 && p != 22 {
		hb.SetAttributeValue("port", cty.NumberIntVal(int64(p)))
	}
	hb.SetAttributeValue("roles", strings2(h.Roles))
	for _, g := range h.Disks {
		db := hb.AppendNewBlock("disks", []string{g.Group}).Body()
		db.SetAttributeValue("names", strings2(g.Names))
		if g.Devices != nil {
			db.SetAttributeValue("devices", strings2(g.Devices))
			if g.FSType == "xfs" || g.FSType == "ext4" {
				db.SetAttributeValue("filesystem", cty.StringVal(g.FSType))
			}
			db.SetAttributeValue("format", cty.False)
		}
		if g.Weight != 100 {
			db.SetAttributeValue("weight", cty.NumberFloatVal(g.Weight))
		}
	}
}

// writeRing writes a ring block.
func (d *draft) writeRing(b *hclwrite.Body, r *dRing) {
	b.AppendNewline()
	comment(b, "from "+r.From)
	rb := b.AppendNewBlock("ring", []string{r.Name}).Body()
	rb.SetAttributeValue("part_power", cty.NumberIntVal(int64(r.PartPower)))
	rb.SetAttributeValue("replicas", cty.NumberFloatVal(r.Replicas))
	if r.MinPartHours >= 0 {
		rb.SetAttributeValue("min_part_hours", cty.NumberIntVal(int64(r.MinPartHours)))
	}
	rb.SetAttributeValue("disks", cty.StringVal(r.Group))
	if r.Port != 0 {
		rb.SetAttributeValue("port", cty.NumberIntVal(int64(r.Port)))
	}
	if r.PortBase != 0 {
		rb.SetAttributeValue("port_base", cty.NumberIntVal(int64(r.PortBase)))
	}
	if r.Builder != "" && r.Builder != d.firstProxy() {
		rb.SetAttributeValue("builder", cty.StringVal(r.Builder))
	}
}

// firstProxy is the name of the first host with role proxy ("" = none).
func (d *draft) firstProxy() string {
	if hs := d.hostsWithRole("proxy"); len(hs) > 0 {
		return hs[0].Name
	}
	return ""
}

// writePolicy writes a policy block.
func writePolicy(b *hclwrite.Body, p dPolicy) {
	b.AppendNewline()
	comment(b, "from "+p.Source)
	pb := b.AppendNewBlock("policy", []string{p.Name}).Body()
	pb.SetAttributeValue("index", cty.NumberIntVal(int64(p.Index)))
	for _, k := range slices.Sorted(maps.Keys(p.Keys)) {
		v := p.Keys[k]
		switch k {
		case "policy_type":
			pb.SetAttributeValue("type", cty.StringVal(v))
		case "default", "deprecated":
			pb.SetAttributeValue(k, cty.BoolVal(truthy(v)))
		case "aliases":
			var as []string
			for _, a := range strings.Split(v, ",") {
				if a = strings.TrimSpace(a); a != "" {
					as = append(as, a)
				}
			}
			pb.SetAttributeValue(k, strings2(as))
		default:
			pb.SetAttributeRaw(k, valueTokens(v))
		}
	}
}

// writeService writes a service block.
func (d *draft) writeService(b *hclwrite.Body, s *dService, withSettings bool) {
	b.AppendNewline()
	if s.Note != "" {
		comment(b, s.Note)
	}
	sb := b.AppendNewBlock("service", []string{s.Name}).Body()
	sb.SetAttributeValue("role", cty.StringVal(s.Role))
	if s.Path != "/etc/swift/"+s.Name+".conf" {
		sb.SetAttributeValue("path", cty.StringVal(s.Path))
	}
	sb.SetAttributeValue("manager", cty.StringVal(s.Manager))
	if s.Unit != "" {
		sb.SetAttributeValue("unit", cty.StringVal(s.Unit))
	}
	if len(s.Daemons) > 0 {
		sb.SetAttributeValue("daemons", strings2(s.Daemons))
	}
	if withSettings && len(s.Settings) > 0 {
		comment(sb, fmt.Sprintf("from %s:%s (%s)", s.From, s.Path, strings.Join(s.Hosts, ", ")))
		sb.SetAttributeRaw("settings", settingsTokens(s.Settings))
	}
}

// writeBaseline writes the one variant: the cluster as it is.
func (d *draft) writeBaseline(b *hclwrite.Body) {
	vb := block(b, "variant", baseline)
	vb.SetAttributeValue("description", cty.StringVal("the cluster as imported"))
	for _, r := range d.Rings {
		if r.PortBase != 0 {
			vb.AppendNewBlock("ring", []string{r.Name}).Body().SetAttributeValue("port_per_disk", cty.True)
		}
	}
}

// settingsTokens is a settings object: a line per section, a line per
// key, secrets as references to their variables.
func settingsTokens(secs []dSection) hclwrite.Tokens {
	var src strings.Builder
	src.WriteString("x = {\n")
	for _, s := range secs {
		fmt.Fprintf(&src, "%s = {\n", name(s.Name))
		for _, k := range s.Keys {
			if k.Comment != "" {
				fmt.Fprintf(&src, "# %s\n", k.Comment)
			}
			fmt.Fprintf(&src, "%s = %s\n", name(k.Key), keyExpr(k))
		}
		src.WriteString("}\n")
	}
	src.WriteString("}\n")
	f, diags := hclwrite.ParseConfig([]byte(src.String()), "settings", hcl.InitialPos)
	if diags.HasErrors() {
		panic(fmt.Sprintf("importer: settings do not parse: %v\n%s", diags, src.String())) // a bug of name or valueTokens
	}
	return f.Body().GetAttribute("x").Expr().BuildTokens(nil)
}

// keyExpr is a setting's value as HCL: a reference to its variable, the
// variable in a template with the rest, or the value.
func keyExpr(k dKey) string {
	switch {
	case k.Var != "" && k.Rest == "":
		return "var." + k.Var
	case k.Var != "":
		return `"${var.` + k.Var + `}` + string(quoted(k.Rest)[1:])
	}
	return string(valueTokens(k.Value).Bytes())
}

// identifier matches what HCL takes as an unquoted name.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// name is a section or key name as an object key.
func name(s string) string {
	if identifier.MatchString(s) {
		return s
	}
	return string(quoted(s))
}

// quoted is s as an HCL string literal (escaping "${" and "%{").
func quoted(s string) []byte {
	return hclwrite.TokensForValue(cty.StringVal(s)).Bytes()
}

// valueTokens writes an INI value as the testbed language reads it back
// the same: a whole number without sign or leading zero and true/false
// unquoted, the rest a string.
func valueTokens(v string) hclwrite.Tokens {
	if v == "true" || v == "false" {
		return hclwrite.TokensForValue(cty.BoolVal(v == "true"))
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && strconv.FormatInt(n, 10) == v && len(v) < 16 {
		return hclwrite.TokensForValue(cty.NumberIntVal(n))
	}
	return hclwrite.TokensForValue(cty.StringVal(v))
}
