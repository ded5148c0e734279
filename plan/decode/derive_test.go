package decode

import (
	"strings"
	"testing"
)

// TestWithSecretsLeavesTheModel: the copy masks the added values and the
// variables' secrets; the testbed it came from masks only its own.
func TestWithSecretsLeavesTheModel(t *testing.T) {
	tb := mustLoad(t, minimal+`
variable "pw" { sensitive = true }
service "object-server" { role = "object" }
variant "v" {}
`, LoadOptions{Vars: map[string]string{"pw": "hunter22"}}, nil)
	before := append([]string(nil), tb.Sensitive...)
	c := tb.WithSecrets("salt-prefix-0123", "salt-suffix-4567")
	got := c.Mask("pw hunter22, hashes salt-prefix-0123 salt-suffix-4567")
	if strings.Contains(got, "hunter22") || strings.Contains(got, "salt-") {
		t.Errorf("copy masks %q", got)
	}
	if got := tb.Mask("salt-prefix-0123"); got != "salt-prefix-0123" {
		t.Errorf("the testbed learnt the copy's secrets: %q", got)
	}
	if strings.Join(tb.Sensitive, ",") != strings.Join(before, ",") || c.Hosts[0] != tb.Hosts[0] {
		t.Errorf("testbed changed: %v, want %v", tb.Sensitive, before)
	}
}
