package telemetry

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStreamConsume(t *testing.T) {
	smp, _ := fixtureSample(t)
	line, _ := json.Marshal(smp)
	in := `{"type":"ready","host":"stor1","disks":{"d1":"vda"},"services":{"object":3}}` + "\n" +
		string(line) + "\n" + string(line) + "\n"
	var out bytes.Buffer
	st := &Stream{Host: "stor1"}
	if err := st.Consume(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if st.Ready() == nil || st.Ready().Services["object"] != 3 || st.Samples() != 2 || st.Latest().Procs["object"].N != 3 {
		t.Errorf("ready %+v, %d samples", st.Ready(), st.Samples())
	}
	p := filepath.Join(t.TempDir(), "stor1.jsonl")
	if err := os.WriteFile(p, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSamples(p)
	if err != nil || len(back) != 2 || back[1].Disks["d1"] != smp.Disks["d1"] {
		t.Errorf("read back %d samples (%v): only the sample lines, as sent", len(back), err)
	}
	err = (&Stream{Host: "stor2"}).Consume(strings.NewReader(`{"type":"error","error":"no /proc"}`+"\n"), &out)
	if err == nil || err.Error() != "stor2: telemetry agent: no /proc" {
		t.Errorf("failure line: %v", err)
	}
	if err := (&Stream{Host: "x"}).Consume(strings.NewReader("Permission denied\n"), &out); err == nil || !strings.Contains(err.Error(), "x: telemetry agent wrote") {
		t.Errorf("garbage: %v", err)
	}
}

func TestBusiest(t *testing.T) {
	a := Sample{Host: "stor1", CPU: CPU{Busy: 40}, Disks: map[string]Disk{"d0": {Dev: "vda", Util: 12}, "d1": {Dev: "vda", Util: 12}}}
	b := Sample{Host: "proxy1", CPU: CPU{Busy: 70}}
	if got := Busiest([]Sample{a, b}); got != "busiest: proxy1 CPU 70%, stor1:d0 (vda) 12%" {
		t.Errorf("got %q", got)
	}
	if got := Busiest([]Sample{b}); got != "busiest: proxy1 CPU 70%" {
		t.Errorf("no disk: %q", got)
	}
	if Busiest(nil) != "" {
		t.Error("no sample")
	}
}
