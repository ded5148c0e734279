package decode

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
	"benchbed/plan/lang"
)

// LoadOptions are the inputs of a testbed besides its file.
type LoadOptions struct {
	Vars     map[string]string // -var name=value, raw text
	VarFiles []string          // -var-file paths, applied in order (HCL or .json)
	Environ  []string          // "KEY=value" pairs searched for BENCHBED_VAR_<name>; nil = none

	AcceptNewHostKeys bool // the CLI's --accept-new-host-keys, into SSH.AcceptNewHostKeys (a file cannot set it)
}

// Block type names of the testbed language, reused in messages.
const (
	blockTestbed   = "testbed"
	blockVariable  = lang.BlockVariable
	blockLocals    = "locals"
	blockSSH       = "ssh"
	blockHost      = "host"
	blockRing      = "ring"
	blockPolicy    = "policy"
	blockService   = "service"
	blockVariant   = "variant"
	blockWorkload  = "workload"
	blockPrefill   = "prefill"
	blockSweep     = "sweep"
	blockTelemetry = "telemetry"
	blockMetrics   = "metrics"
)

var rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: blockTestbed, LabelNames: []string{"name"}},
	{Type: blockVariable, LabelNames: []string{"name"}},
	{Type: blockLocals},
	{Type: blockSSH},
	{Type: blockHost, LabelNames: []string{"name"}},
	{Type: blockRing, LabelNames: []string{"name"}},
	{Type: blockPolicy, LabelNames: []string{"name"}},
	{Type: blockService, LabelNames: []string{"name"}},
	{Type: blockVariant, LabelNames: []string{"name"}},
	{Type: blockTelemetry},
	{Type: blockMetrics},
	{Type: blockWorkload, LabelNames: []string{"name"}},
	{Type: blockPrefill},
	{Type: blockSweep},
	{Type: lang.BlockInclude, LabelNames: []string{"path"}},
	{Type: lang.BlockOverride},
}}

// Load parses, decodes and validates the testbed file at path. It decodes in
// phases (variables, locals, then the other blocks) and returns every
// problem found, each with its source range. The Testbed is non-nil whenever
// the file could be read, even with errors, so that callers can print the
// diagnostics with its Files; it is only complete when diags has no errors.
func Load(path string, opts LoadOptions) (*plan.Testbed, hcl.Diagnostics) {
	src, err := readLimited(path)
	if err != nil {
		tb := newTestbed(path, opts)
		return tb, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read testbed file",
			Detail: err.Error()}}
	}
	return LoadSource(path, src, opts)
}

// LoadSource is Load of a testbed whose text is src; path names it in
// diagnostics, and relative paths in it (scenario files, file(), the
// files it includes) are resolved against path's directory. The files it
// includes are read from disk (lang.ReadFiles); their blocks join its own, as
// one testbed.
func LoadSource(path string, src []byte, opts LoadOptions) (*plan.Testbed, hcl.Diagnostics) {
	tb := newTestbed(path, opts)
	read, diags := lang.ReadFiles(path, src, rootSchema)
	for name, f := range read.Parsed {
		tb.Files[name] = f
	}
	tb.Sources = read.Order
	if diags.HasErrors() {
		return tb, lang.DedupeDiags(diags)
	}
	d := &decoder{Decoder: &lang.Decoder{Dir: filepath.Dir(path),
		Opts:      lang.Options{Vars: opts.Vars, VarFiles: opts.VarFiles, Environ: opts.Environ},
		Variables: tb.Variables, Files: tb.Files}, tb: tb, opts: opts}
	d.Diags = append(d.Diags, read.Diags...)
	d.decodeFile(d.ApplyOverrides(read, rootSchema), read.RootBody)
	tb.Sensitive = d.Sensitive
	diags = append(diags, d.Diags...)
	diags = append(diags, validate(tb, d.Diags.HasErrors())...)
	return tb, lang.DedupeDiags(diags)
}

func newTestbed(path string, opts LoadOptions) *plan.Testbed {
	tb := &plan.Testbed{File: path, Files: map[string]*hcl.File{}, Variables: map[string]*lang.Variable{},
		Sweep: defaultSweep(), SSH: defaultSSH()}
	tb.SSH.AcceptNewHostKeys = opts.AcceptNewHostKeys
	return tb
}

// decoder carries the state of one Load: the language's evaluation
// (lang.Decoder) and the testbed it fills.
type decoder struct {
	*lang.Decoder
	tb   *plan.Testbed
	opts LoadOptions
	// variantByName, workloadByName and hostByName index the variants,
	// workloads and hosts
	// so far (duplicates are found by name, not by a scan).
	variantByName  map[string]*plan.Variant
	workloadByName map[string]*plan.Workload
	hostByName     map[string]*plan.Host
	// variantsByBlock indexes the variants by their block's label, and
	// variantsKnown is the text naming them: a workload's variants
	// attribute reads both (decode_workload_variants.go).
	variantsByBlock map[string][]*plan.Variant
	variantsKnown   string
}

// decodeFile runs the phases over the testbed's top-level blocks (of
// every file, overrides merged); root is the first file's body, where a
// missing testbed block is reported.
func (d *decoder) decodeFile(blocks []*hcl.Block, root hcl.Body) {
	byType := map[string][]*hcl.Block{}
	for _, b := range blocks {
		byType[b.Type] = append(byType[b.Type], b)
	}
	d.DecodeVariables(byType[blockVariable])
	d.Ctx = d.NewEvalContext()
	d.DecodeLocals(byType[blockLocals])
	d.decodeTestbed(byType[blockTestbed], root)
	d.decodeSSH(d.Single(byType[blockSSH]))
	for _, b := range byType[blockHost] {
		d.decodeHost(b)
	}
	d.ReportElements(blocks)
	for _, b := range byType[blockRing] {
		d.decodeRing(b)
	}
	d.decodePolicies(byType[blockPolicy])
	for _, b := range byType[blockService] {
		d.decodeService(b)
	}
	for _, b := range byType[blockVariant] {
		d.decodeVariant(b)
	}
	for _, b := range byType[blockWorkload] {
		d.decodeWorkload(b)
	}
	d.decodePrefill(d.Single(byType[blockPrefill]))
	d.decodeSweep(d.Single(byType[blockSweep]))
	d.decodeTelemetry(d.Single(byType[blockTelemetry]))
	d.checkTelemetry()
	d.decodeMetrics(d.Single(byType[blockMetrics]))
	d.defaultClients()
}
