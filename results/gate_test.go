package results

import (
	"strings"
	"testing"
)

// issueCell is the README scenario run without its initial files: 115 of
// 500 operations failed with 404 (104 GETs, 11 DELETEs).
func issueCell() Cell {
	return Cell{Workload: "Small test scenario", Status: StatusOK, Ops: map[string]OpSummary{
		"GET":    {Count: 80, Errors: 104, ErrorsBy: map[string]int64{"http_404": 104}},
		"DELETE": {Count: 80, Errors: 11, ErrorsBy: map[string]int64{"http_404": 11}},
		"PUT":    {Count: 225},
	}, Total: OpSummary{Count: 385, Errors: 115, ErrorsBy: map[string]int64{"http_404": 115}}}
}

func TestGateFailsACellAboveTheRate(t *testing.T) {
	c := issueCell()
	g := Gate(&c, 0.01)
	if g == nil || c.Status != StatusFailed {
		t.Fatalf("gate %v, status %q: 115 of 500 failed must fail at 1%%", g, c.Status)
	}
	want := "error rate 23% (115 of 500 operations failed) is above max_error_rate 1%; top causes: http_404=115 (DELETE 11, GET 104)"
	if c.Error != want || g.Error() != want {
		t.Fatalf("error\n got %q\nwant %q", c.Error, want)
	}
}

func TestGateBoundaries(t *testing.T) {
	cell := func(ok, failed int64) Cell {
		return Cell{Status: StatusOK, Ops: map[string]OpSummary{"GET": {Count: ok, Errors: failed,
			ErrorsBy: map[string]int64{"http_503": failed}}},
			Total: OpSummary{Count: ok, Errors: failed, ErrorsBy: map[string]int64{"http_503": failed}}}
	}
	for _, tc := range []struct {
		ok, failed int64
		max        float64
		fails      bool
	}{
		{1000, 0, 0, false},    // no error passes even a zero gate
		{990, 10, 0.01, false}, // exactly 1 %: not above
		{989, 11, 0.01, true},  // 1.1 %
		{999, 1, 0, true},      // max_error_rate = 0: any error fails
		{0, 5, 1, false},       // a gate of 100 % lets everything through
		{500, 500, 0.5, false}, // at the gate
		{499, 501, 0.5, true},  // above it
		{0, 3, 0.01, true},     // every operation failed
	} {
		c := cell(tc.ok, tc.failed)
		g := Gate(&c, tc.max)
		if (g != nil) != tc.fails || (c.Status == StatusFailed) != tc.fails {
			t.Errorf("%d ok, %d failed, max %v: gate %v, status %s; want failed=%v", tc.ok, tc.failed, tc.max, g, c.Status, tc.fails)
		}
	}
}

func TestGateKeepsAnEarlierFailure(t *testing.T) {
	c := issueCell()
	c.Status, c.Error = StatusInterrupted, "interrupted"
	if g := Gate(&c, 0.01); g == nil || c.Status != StatusInterrupted || c.Error != "interrupted" {
		t.Fatalf("gate %v changed an interrupted cell to %s: %s", g, c.Status, c.Error)
	}
}

func TestTopCausesMostFrequentFirst(t *testing.T) {
	c := Cell{Ops: map[string]OpSummary{"GET": {ErrorsBy: map[string]int64{"http_404": 7, "http_503": 9}},
		"PUT": {ErrorsBy: map[string]int64{"http_503": 1, "transport_timeout": 2, "http_507": 1}}},
		Total: OpSummary{ErrorsBy: map[string]int64{"http_404": 7, "http_503": 10, "transport_timeout": 2, "http_507": 1}}}
	got := TopCauses(c, 3)
	want := "http_503=10 (GET 9, PUT 1), http_404=7 (GET), transport_timeout=2 (PUT), 1 more"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if p := Percent(0.005); p != "0.5%" || !strings.HasSuffix(Percent(0.23), "23%") {
		t.Errorf("Percent: %s %s", p, Percent(0.23))
	}
}

// TestCellOK: a cell is OK with StatusOK only; failed, interrupted and a
// status never set are not.
func TestCellOK(t *testing.T) {
	for status, want := range map[string]bool{StatusOK: true, StatusFailed: false, StatusInterrupted: false, "": false} {
		c := Cell{Status: status}
		if got := c.OK(); got != want {
			t.Errorf("Cell{Status: %q}.OK() = %v, want %v", status, got, want)
		}
	}
}
