package compare

import (
	"testing"
)

// TestConfChangeShowsSwiftsDefault: a key one run's conf leaves unset reads
// as the value Swift then runs with, as `benchbed diff` shows it.
func TestConfChangeShowsSwiftsDefault(t *testing.T) {
	a := []byte("[DEFAULT]\nworkers = 2\n\n[object-replicator]\nconcurrency = 2\n")
	b := []byte("[DEFAULT]\nworkers = 2\nmax_clients = 512\n\n[object-replicator]\n")
	changes, err := diffINI("/etc/swift/object-server.conf", a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"max_clients": "max_clients: 1024 (unset: Swift's default) -> 512",
		"concurrency": "concurrency: 2 -> 1 (unset: Swift's default)",
	}
	if len(changes) != len(want) {
		t.Fatalf("changes: %+v", changes)
	}
	for _, c := range changes {
		if c.Text != want[c.Key] {
			t.Errorf("%s: %q, want %q", c.Key, c.Text, want[c.Key])
		}
	}
	other, err := diffINI("/etc/web/app.conf", a, b)
	if err != nil || len(other) != 2 || other[0].Text != "max_clients: (unset) -> 512" {
		t.Errorf("a conf no catalog knows: %+v, %v", other, err)
	}
}
