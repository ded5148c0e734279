package load

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
)

// heapAfterWith runs n GETs on client c and returns the live heap after
// the run, with its result still referenced.
func heapAfterWith(t *testing.T, c *Client, n int64) (uint64, *Result) {
	s := readScenario(t)
	res, err := Run(context.Background(), Config{Scenario: s, Client: c, Users: 8, Operations: n})
	if err != nil {
		t.Fatal(err)
	}
	c.HTTP.CloseIdleConnections() // their buffers are the transport's, not the run's
	if got := res.Recording[OpRead].LastByte.Count(); got != n {
		t.Fatalf("%d GETs recorded, want %d", got, n)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, res
}

// TestMemoryFlatWithRequestCount: ten times more requests leave no more
// live heap behind (no per-request lists): the difference must stay under
// 12 bytes a request, less than any per-request record (two durations and
// a status) would take.
func TestMemoryFlatWithRequestCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(pattern[:4096])
	}))
	defer srv.Close()
	memoryFlat(t, func() *Client { return staticClient(srv.URL, 8) })
}

// TestS3MemoryFlatWithRequestCount is the same for S3's client: its
// signers' buffers are pooled, nothing is kept per request.
func TestS3MemoryFlatWithRequestCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(pattern[:4096])
	}))
	defer srv.Close()
	memoryFlat(t, func() *Client {
		api, err := NewS3(S3Config{Endpoint: srv.URL, AccessKey: "a:u", SecretKey: "s", PathStyle: true})
		if err != nil {
			t.Fatal(err)
		}
		return &Client{HTTP: &http.Client{Transport: NewTransport(8)}, API: api}
	})
}

// memoryFlat fails when a run of many more requests on newClient's
// clients leaves more live heap behind than 12 bytes a request.
func memoryFlat(t *testing.T, newClient func() *Client) {
	small, large := int64(2000), int64(30000)
	if testing.Short() {
		large = 15000
	}
	_, r0 := heapAfterWith(t, newClient(), 10) // warms up everything a run allocates once
	h1, r1 := heapAfterWith(t, newClient(), small)
	h2, r2 := heapAfterWith(t, newClient(), large)
	h3, r3 := heapAfterWith(t, newClient(), small)
	// Each result stays referenced: h2-h1 is a large run's result, h3-h2 a
	// small run's; the difference is what the extra requests left behind.
	grow := (int64(h2) - int64(h1)) - (int64(h3) - int64(h2))
	perReq := float64(grow) / float64(large-small)
	t.Logf("live heap kept by a run of %d requests: %d B; of %d requests: %d B (%.2f B per extra request)",
		large, int64(h2)-int64(h1), small, int64(h3)-int64(h2), perReq)
	if perReq > 12 {
		t.Errorf("live heap grows by %.1f B per request", perReq)
	}
	runtime.KeepAlive([]*Result{r0, r1, r2, r3})
}

// BenchmarkGet measures the client's cost per GET of 4 KiB against a local
// server, allocations included (go test -bench Get -benchmem ./load).
func BenchmarkGet(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(pattern[:4096])
	}))
	defer srv.Close()
	c := staticClient(srv.URL, 1)
	req := &Request{Method: http.MethodGet, Container: "c", Object: "o"}
	b.ReportAllocs()
	for b.Loop() {
		if o := c.Do(context.Background(), req, nowish()); !o.OK() {
			b.Fatal(describe(o))
		}
	}
}
