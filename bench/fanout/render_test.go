package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTemplatesRenderLikeJinja(t *testing.T) {
	confs, err := loadTemplates("templates")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"host": "h7", "addr": "127.0.0.8", "gen": "3", "workers": "4", "node_timeout": "10", "servers_per_port": "0"}
	names := map[string]string{}
	for _, c := range confs {
		b, err := c.render(vars)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		names[c.name] = string(b)
	}
	if len(names) != 4 {
		t.Fatalf("%d confs, want 4: %v", len(names), names)
	}
	proxy := names["proxy-server.conf"]
	for _, want := range []string{"# rendered for h7 (generation 3)", "bind_ip = 127.0.0.8", "workers = 4"} {
		if !strings.Contains(proxy, want) {
			t.Fatalf("proxy-server.conf lacks %q:\n%s", want, proxy)
		}
	}
	if strings.Contains(strings.Join([]string{names["object-server.conf"], names["container-server.conf"]}, ""), "{{") {
		t.Fatal("a template variable was left unrendered")
	}
	delete(vars, "workers")
	if _, err := confs[0].render(vars); err == nil || !strings.Contains(err.Error(), `"workers"`) {
		t.Fatalf("missing variable: %v", err)
	}
}

func TestReadHostsNamesTheBadLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(p, []byte("h1 127.0.0.2 22022 /tmp/h1\nh2 127.0.0.3 nope /tmp/h2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readHosts(p); err == nil || !strings.Contains(err.Error(), p+":2") {
		t.Fatalf("err = %v, want %s:2", err, p)
	}
}
