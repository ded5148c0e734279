package results

import (
	"testing"
	"time"
)

func recordingOf(op string, oks int, errs int64) Recording {
	h := NewOpHists()
	for i := range oks {
		h.FirstByte.Record(time.Duration(i+1) * time.Millisecond)
		h.LastByte.Record(time.Duration(i+2) * time.Millisecond)
	}
	if errs > 0 {
		h.Errors["http_503"] = errs
	}
	return Recording{op: h}
}

func TestEndpointSummaries(t *testing.T) {
	urls := []string{"http://p1/auth", "http://p2/auth", "http://p1/auth"}
	recs := []Recording{recordingOf("GET", 10, 0), recordingOf("GET", 4, 2), recordingOf("GET", 10, 1)}
	eps := SummariseEndpoints(EndpointRecordings(urls, recs), 2*time.Second)
	if len(eps) != 2 || eps[0].URL != "http://p1/auth" || eps[0].Agents != 2 || eps[1].Agents != 1 {
		t.Fatalf("endpoints %+v", eps)
	}
	p1, p2 := eps[0].Ops["GET"], eps[1].Ops["GET"]
	if p1.Count != 20 || p1.Errors != 1 || p1.ReqPerS != 10 || p2.Count != 4 || p2.Errors != 2 || p2.ErrorsBy["http_503"] != 2 {
		t.Errorf("p1 %+v\np2 %+v", p1, p2)
	}
	if p1.FirstByte.Max < 0.009 || eps[1].Total.Count != 4 {
		t.Errorf("percentiles or total: %+v %+v", p1.FirstByte, eps[1].Total)
	}
	if SummariseEndpoints(EndpointRecordings(urls[:1], recs[:1]), time.Second) != nil {
		t.Error("one endpoint gives endpoint summaries")
	}
}
