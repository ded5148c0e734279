package cluster

import (
	"testing"

	"benchbed/plan/render"
)

// TestGenericConfMode: a generic conf that holds a secret is written 0600,
// another 0644, both root's.
func TestGenericConfMode(t *testing.T) {
	for secret, want := range map[bool]uint32{false: 0o644, true: 0o600} {
		f := genericConfFile(&render.GenericConf{Path: "/etc/x.conf", Content: []byte("x"), Secret: secret})
		if uint32(f.Mode.Perm()) != want || f.Owner != "root" || f.Group != "root" || f.Path != "/etc/x.conf" {
			t.Errorf("secret %v: %+v, want mode %04o root:root", secret, f, want)
		}
	}
}
