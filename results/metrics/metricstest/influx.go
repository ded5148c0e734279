package metricstest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// StartInflux starts Debian's influxd (InfluxDB 1.x) on free loopback
// ports with its own temporary storage and creates the database db; it
// is stopped at the test's end.
func StartInflux(t testing.TB, db string) *Receiver {
	t.Helper()
	bin := need(t, "influxd")
	dir := t.TempDir()
	addr := freeAddr(t)
	conf := "reporting-disabled = true\nbind-address = \"" + freeAddr(t) + "\"\n" +
		"[meta]\n  dir = \"" + filepath.Join(dir, "meta") + "\"\n" +
		"[data]\n  dir = \"" + filepath.Join(dir, "data") + "\"\n  wal-dir = \"" + filepath.Join(dir, "wal") + "\"\n" +
		"[http]\n  bind-address = \"" + addr + "\"\n  log-enabled = false\n"
	cfg := filepath.Join(dir, "influxdb.conf")
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, "influxdb", addr, "/ping", bin, "-config", cfg)
	resp, err := http.PostForm(r.Base+"/query", url.Values{"q": {"CREATE DATABASE " + db}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("influxdb: CREATE DATABASE %s: %s", db, resp.Status)
	}
	return r
}

// InfluxValue runs an InfluxQL query on db and wants one value.
func (r *Receiver) InfluxValue(t testing.TB, db, q string) float64 {
	t.Helper()
	resp, err := http.Get(r.Base + "/query?" + url.Values{"db": {db}, "q": {q}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Results []struct {
			Error  string `json:"error"`
			Series []struct {
				Values [][]any `json:"values"`
			} `json:"series"`
		} `json:"results"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("influxdb: %s: %v", q, err)
	}
	if len(body.Results) != 1 || len(body.Results[0].Series) != 1 || len(body.Results[0].Series[0].Values) != 1 {
		t.Fatalf("influxdb: %s: want one value, got %+v", q, body)
	}
	v := body.Results[0].Series[0].Values[0]
	f, ok := v[len(v)-1].(float64)
	if !ok {
		t.Fatalf("influxdb: %s: value %v", q, v)
	}
	return f
}

// influxString quotes s as an InfluxQL string.
func influxString(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// InfluxLast is the query of the last value of field in the benchbed
// measurement where each tag (name, value, name, value...) matches.
func InfluxLast(field string, tags ...string) string {
	var where []string
	for i := 0; i+1 < len(tags); i += 2 {
		where = append(where, `"`+tags[i]+`" = `+influxString(tags[i+1]))
	}
	return `SELECT last("` + field + `") FROM "benchbed" WHERE ` + strings.Join(where, " AND ")
}
