package agents

import (
	"testing"

	"benchbed/plan"
)

// TestS3WorkloadAgentsSignForTheirEndpoint: an S3 workload's agents get
// S3 configs (its access key, secret, region and style), each for its own
// endpoint, as a Swift workload's agents get their auth URLs.
func TestS3WorkloadAgentsSignForTheirEndpoint(t *testing.T) {
	w := &plan.Workload{API: "s3", Endpoints: []string{"http://p1:8080", "http://p2:8080"},
		Auth: &plan.Auth{Kind: "s3", URL: "http://p1:8080", User: "a:u", Key: "sec", Region: "r", PathStyle: true}}
	for i, want := range []string{"http://p1:8080", "http://p2:8080", "http://p1:8080"} {
		a := WorkloadAgentAuth(w, i)
		if a.S3 == nil || a.S3.Endpoint != want || a.S3.AccessKey != "a:u" || a.S3.SecretKey != "sec" || a.S3.Region != "r" ||
			!a.S3.PathStyle || a.URL != "" || a.Key != "" {
			t.Fatalf("agent %d: %+v (S3 %+v)", i, a, a.S3)
		}
	}
	if a := WorkloadAuth(w); a.S3 == nil || a.S3.Endpoint != "http://p1:8080" {
		t.Fatalf("the workload's auth (prefill's): %+v", a)
	}
}
