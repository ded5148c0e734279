package decode

import (
	"github.com/hashicorp/hcl/v2"

	"benchbed/plan"
)

// decodeS3Auth decodes an auth block's S3 attributes (region, path_style,
// payload), remembering where the first was given: they are for an
// api = "s3" workload only (decodeAPI).
func (d *decoder) decodeS3Auth(au *plan.Auth, a *hcl.Attribute, ctx *hcl.EvalContext) {
	if au.S3Attr == nil {
		au.S3Attr = a.NameRange.Ptr()
	}
	switch a.Name {
	case "region":
		au.Region, _ = d.Str(a, ctx)
	case "path_style":
		au.PathStyle, _ = d.Bool(a, ctx)
	case "payload":
		p, _ := d.OneOf(a, ctx, "unsigned", "hashed")
		au.SignPayload = p == "hashed"
	}
}

// decodeAPI decodes a workload's api: "swift" (the default) or "s3". An
// S3 workload signs with its auth block (url the S3 endpoint, user the
// access key, key the secret key: tempauth's account:user and its key),
// never with storage_url and token, nor Keystone (its s3token wants EC2
// credentials).
func (d *decoder) decodeAPI(w *plan.Workload, c *hcl.BodyContent, ctx *hcl.EvalContext) {
	w.API = "swift"
	a := c.Attributes["api"]
	if a != nil {
		w.API, _ = d.OneOf(a, ctx, "swift", "s3")
	}
	if w.API != "s3" {
		if w.Auth != nil && w.Auth.S3Attr != nil {
			d.Errorf(w.Auth.S3Attr, "S3 attribute without api = \"s3\"",
				"workload %q: region, path_style and payload are an S3 workload's; add api = \"s3\" to the workload, or remove them", w.Name)
		}
		return
	}
	switch {
	case w.Auth == nil:
		d.Errorf(a.Expr.Range().Ptr(), "S3 workload without credentials",
			"workload %q: an S3 workload signs with an auth block: url (the S3 endpoint, e.g. http://proxy1:8080), "+
				"user (the access key, tempauth's account:user) and key (the secret key, the user's key)", w.Name)
	case w.Auth.Kind != "v1":
		d.Errorf(a.Expr.Range().Ptr(), "S3 workload with Keystone auth",
			"workload %q: api = \"s3\" signs with the auth block's user and key (tempauth's); Keystone's s3token is not supported: remove kind = %q", w.Name, w.Auth.Kind)
	default:
		w.Auth.Kind = "s3"
	}
}
