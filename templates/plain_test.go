package templates

import (
	"strings"
	"testing"
)

func TestExecuteText(t *testing.T) {
	tm, err := ParseTemplate("nginx.conf.tmpl", "worker_processes 1;\nhttp {\n  sendfile {{ .Settings.http.sendfile }};\n  listen {{ .Host.Address }}:80;\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	out, err := tm.ExecuteText(PlainData{Host: Host{Address: "198.18.0.11"},
		Settings: map[string]map[string]string{"http": {"sendfile": "off"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "worker_processes 1;\nhttp {\n  sendfile off;\n  listen 198.18.0.11:80;\n}\n"
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	_, err = tm.ExecuteText(PlainData{Settings: map[string]map[string]string{"http": {}}})
	if err == nil || !strings.Contains(err.Error(), "nginx.conf.tmpl:3") {
		t.Errorf("a missing setting: error %v, want one naming the template's line 3", err)
	}
}
