package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"benchbed/results"
)

// testLoadSearch searches the lab's Swift for the highest GET rate from 5
// to 40 req/s meeting a loose SLO (p99 under 2 s): the lab carries far
// more, so the answer is a capacity at or near the top, every probe with
// its figures (2 s each: a rate measured at 5 req/s wants them); then a
// run of duration auto says why it stopped (its precision or its max,
// bounded at 12 s, its warm-up at 6 s: the check is the reason given).
func testLoadSearch(t *testing.T, lab *Env) {
	file := loadScenario(t, "[0, 1, 0, 0]", 40)
	auth := []string{"--scenario", file, "--auth-url", loadAuthURL, "--user", loadUser, "--key", loadKey, "--json", "--initial", "check"}
	searched := time.Now()
	out, errOut, err := lab.Benchbed(t, append([]string{"load", "--search", "first_byte_p99<2s,errors<1%",
		"--search-from", "5", "--search-to", "40", "--probe", "2s", "--users", "16"}, auth...)...)
	if err != nil {
		t.Fatalf("benchbed load --search: %v\n%s\n%s", err, out, errOut)
	}
	var got struct{ Search results.SearchResult }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	s := got.Search
	t.Logf("search: %s, %.4g req/s in %d probes: %s; took %.1f s", s.Outcome, s.Capacity, len(s.Probes), s.Why, time.Since(searched).Seconds())
	if s.Capacity < 5 || s.Capacity > 40 || len(s.Probes) < 2 || s.Outcome == results.OutcomeNone {
		t.Fatalf("search %+v\n%s", s, errOut)
	}
	for _, p := range s.Probes {
		if p.Count == 0 || p.Offered < 5 || p.Offered > 40 || p.ClientCPU == nil {
			t.Errorf("probe without its figures: %+v", p)
		}
	}
	out, errOut, err = lab.Benchbed(t, append([]string{"load", "--duration", "auto", "--precision", "20%", "--max-duration", "12s",
		"--warmup", "auto", "--max-warmup", "6s"}, auth...)...)
	var c results.Cell
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("benchbed load --duration auto: %v\n%s\n%s", err, out, errOut)
	}
	t.Logf("duration auto: %s after %.1f s, %.1f req/s", c.Stopped, c.DurationS, c.Total.ReqPerS)
	if !strings.HasSuffix(c.Stopped, " reached") || c.Total.Count == 0 || !strings.Contains(errOut, "warm-up at closed loop: ") {
		t.Errorf("stopped %q, %d operations\n%s", c.Stopped, c.Total.Count, errOut)
	}
	if strings.Contains(out+errOut, loadKey) {
		t.Error("benchbed load printed the key")
	}
}
