package labkit

import (
	"fmt"

	"benchbed/plan/decode"
)

// Inlined returns the text of the testbed at path with the files it
// includes (a lab's parts) inlined: one text a test edits and writes
// elsewhere, where the parts are not. The testbed must load.
func Inlined(path string) (string, error) {
	tb, diags := decode.Load(path, decode.LoadOptions{})
	if diags.HasErrors() {
		return "", fmt.Errorf("%s: %s", path, diags.Error())
	}
	return string(tb.Inlined()), nil
}
