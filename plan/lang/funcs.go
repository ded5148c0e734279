package lang

import (
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"benchbed/templates"
)

// maxFileSize bounds what file() reads, so that a testbed cannot make
// benchbed load a huge file into memory.
const maxFileSize = templates.MaxFileSize

// NewEvalContext returns the context of every expression: var.*, local.*
// (filled by decodeLocals) and the functions.
func (d *Decoder) NewEvalContext() *hcl.EvalContext {
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": d.varObject(), "local": cty.EmptyObjectVal},
		Functions: d.functions(),
	}
}

// functions returns HCL's standard functions plus file and fileexists,
// which resolve paths against the testbed file's directory.
func (d *Decoder) functions() map[string]function.Function {
	fs := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "chomp": stdlib.ChompFunc,
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc,
		"coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "csvdecode": stdlib.CSVDecodeFunc,
		"distinct": stdlib.DistinctFunc, "element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc,
		"floor": stdlib.FloorFunc, "format": stdlib.FormatFunc, "formatdate": stdlib.FormatDateFunc,
		"formatlist": stdlib.FormatListFunc, "indent": stdlib.IndentFunc, "join": stdlib.JoinFunc,
		"jsondecode": stdlib.JSONDecodeFunc, "jsonencode": stdlib.JSONEncodeFunc, "keys": stdlib.KeysFunc,
		"length": stdlib.LengthFunc, "log": stdlib.LogFunc, "lookup": stdlib.LookupFunc,
		"lower": stdlib.LowerFunc, "max": stdlib.MaxFunc, "merge": stdlib.MergeFunc, "min": stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc, "pow": stdlib.PowFunc, "range": stdlib.RangeFunc,
		"regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc, "replace": stdlib.ReplaceFunc,
		"reverse": stdlib.ReverseListFunc, "setintersection": stdlib.SetIntersectionFunc,
		"setproduct": setProductFunc, "setsubtract": stdlib.SetSubtractFunc,
		"setunion": stdlib.SetUnionFunc, "signum": stdlib.SignumFunc, "slice": stdlib.SliceFunc,
		"sort": stdlib.SortFunc, "split": stdlib.SplitFunc, "strlen": stdlib.StrlenFunc,
		"strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc, "timeadd": stdlib.TimeAddFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimspace": stdlib.TrimSpaceFunc, "trimsuffix": stdlib.TrimSuffixFunc, "upper": stdlib.UpperFunc,
		"values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"tostring": stdlib.MakeToFunc(cty.String), "tonumber": stdlib.MakeToFunc(cty.Number),
		"tobool": stdlib.MakeToFunc(cty.Bool), "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap": stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)), "toset": stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
	}
	for name, f := range boundedFuncs() {
		fs[name] = f
	}
	fs["file"] = d.fileFunc(false)
	fs["fileexists"] = d.fileFunc(true)
	return fs
}

// fileFunc returns file(path) (the file's text) or, with exists, fileexists(path).
func (d *Decoder) fileFunc(exists bool) function.Function {
	ret := cty.String
	if exists {
		ret = cty.Bool
	}
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(ret),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := d.Resolve(args[0].AsString())
			st, err := os.Stat(p)
			if exists {
				return cty.BoolVal(err == nil && st.Mode().IsRegular()), nil
			}
			if err != nil {
				return cty.NilVal, err
			}
			if !st.Mode().IsRegular() || st.Size() > maxFileSize {
				return cty.NilVal, function.NewArgErrorf(0, "%s is not a regular file of at most %d bytes", p, maxFileSize)
			}
			b, err := ReadLimited(p)
			if err != nil {
				return cty.NilVal, err
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

// Resolve makes a path relative to the testbed file's directory.
func (d *Decoder) Resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(d.Dir, p)
}
