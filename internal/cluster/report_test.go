package cluster

import (
	"strings"
	"testing"

	"benchbed/templates"
)

func TestReportSaysNoChange(t *testing.T) {
	r := NewReport([]string{"proxy1", "stor1"})
	r.Note("proxy1", "1 server port(s) healthy")
	var b strings.Builder
	if err := r.Write(&b, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	if r.Changed() || !strings.Contains(b.String(), "setup: no change") || !strings.Contains(b.String(), "stor1: no change") {
		t.Errorf("report of nothing changed:\n%s", b.String())
	}
	r.Change("stor1", "wrote %s", "/etc/swift/object-server.conf")
	b.Reset()
	if err := r.Write(&b, func(s string) string { return strings.ReplaceAll(s, "object", "***") }); err != nil {
		t.Fatal(err)
	}
	if !r.Changed() || !strings.Contains(b.String(), "stor1: 1 change(s)\n  wrote /etc/swift/***-server.conf") {
		t.Errorf("report of one change (masked):\n%s", b.String())
	}
	r.Fail()
	b.Reset()
	if err := r.Write(&b, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "cluster is healthy") || !strings.Contains(b.String(), "setup: failed") {
		t.Errorf("report of a failed setup:\n%s", b.String())
	}
}

func swiftConf(t *testing.T, suffix, prefix string) *templates.File {
	t.Helper()
	f, err := templates.Parse("swift.conf", []byte("[swift-hash]\nswift_hash_path_suffix = "+suffix+"\nswift_hash_path_prefix = "+prefix+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestChooseHashesGeneratesOnceThenKeeps(t *testing.T) {
	placeholder := swiftConf(t, "benchbed-suffix", "benchbed-prefix")
	h, gen, err := ChooseHashes(Hashes{}, placeholder, "proxy1")
	if err != nil || !gen || len(h[hashSuffix]) != 32 || h[hashSuffix] == h[hashPrefix] {
		t.Fatalf("first setup: %v generated=%v err=%v", h, gen, err)
	}
	again, gen, err := ChooseHashes(h, placeholder, "proxy1")
	if err != nil || gen || again[hashSuffix] != h[hashSuffix] || again[hashPrefix] != h[hashPrefix] {
		t.Errorf("second setup changed the hashes: %v -> %v generated=%v err=%v", h, again, gen, err)
	}
	h.Apply(placeholder)
	if v, _ := placeholder.Value(hashSection, hashSuffix); v != h[hashSuffix] {
		t.Errorf("Apply left suffix %q", v)
	}
}

func TestChooseHashesTestbedValuesAndConflict(t *testing.T) {
	own := swiftConf(t, "mysuffix", "myprefix")
	h, gen, err := ChooseHashes(Hashes{}, own, "proxy1")
	if err != nil || gen || h[hashSuffix] != "mysuffix" {
		t.Errorf("testbed's own hashes: %v generated=%v err=%v", h, gen, err)
	}
	_, _, err = ChooseHashes(Hashes{hashSuffix: "other", hashPrefix: "myprefix"}, own, "proxy1")
	if err == nil || !strings.Contains(err.Error(), "proxy1") {
		t.Errorf("changed hash on a cluster: err %v, want a refusal naming the host", err)
	}
}
