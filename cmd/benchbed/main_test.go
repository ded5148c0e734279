package main

import (
	"slices"
	"testing"
)

func TestTerraformStyleVarFlags(t *testing.T) {
	in := []string{"plan", "-var", "a=1", "-var=b=2", "-var-file", "x.hcl", "-var-file=y.hcl", "-v", "--", "-var"}
	want := []string{"plan", "--var", "a=1", "--var=b=2", "--var-file", "x.hcl", "--var-file=y.hcl", "-v", "--", "-var"}
	if got := terraformStyle(in); !slices.Equal(got, want) {
		t.Fatalf("terraformStyle = %q, want %q", got, want)
	}
}
