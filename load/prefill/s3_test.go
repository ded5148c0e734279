package prefill

import (
	"context"
	"testing"

	"benchbed/internal/labtest/s3fake"
	"benchbed/load"
	"benchbed/plan/scenario"
)

func TestS3StorePutsListsPagesAndHeads(t *testing.T) {
	f := s3fake.Start(t, false)
	st, hc, err := NewStore(load.AuthSpec{S3: &load.S3Config{Endpoint: f.URL, AccessKey: f.AccessKey,
		SecretKey: f.SecretKey, PathStyle: true}}, 4, "")
	if err != nil {
		t.Fatal(err)
	}
	defer hc.CloseIdleConnections()
	ctx := context.Background()
	if err := st.PutContainer(ctx, "Base_0"); err != nil {
		t.Fatal(err)
	}
	if err := st.PutContainer(ctx, "Base_0"); err != nil { // already ours: fine
		t.Fatalf("second PUT of the bucket: %v", err)
	}
	for i, name := range []string{"a", "b", "c", "d", "e"} {
		if err := st.PutObject(ctx, "Base_0", name, int64(10*i+1)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	var sizes int64
	pages := 0
	for marker := ""; ; pages++ {
		last := ""
		n, err := st.List(ctx, "Base_0", marker, 2, func(name string, size int64) { got, last, sizes = append(got, name), name, sizes+size })
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		marker = last
	}
	if len(got) != 5 || got[4] != "e" || sizes != 1+11+21+31+41 || pages != 3 {
		t.Fatalf("listed %v (%d bytes) in %d pages", got, sizes, pages)
	}
	if n, err := st.HeadObject(ctx, "Base_0", "c"); err != nil || n != 21 {
		t.Fatalf("HEAD c: %d, %v", n, err)
	}
	if _, err := st.HeadObject(ctx, "Base_0", "zz"); err != ErrNotFound {
		t.Fatalf("HEAD of a missing key: %v", err)
	}
	if n, err := st.List(ctx, "Nothing_here", "", 10, func(string, int64) {}); n != 0 || err != nil {
		t.Fatalf("listing a missing bucket: %d, %v", n, err)
	}
	s, err := scenario.Parse([]byte(`{"name": "l", "crud_profile": [0, 1, 0, 0], "sizes": [{"name": "L", "size_min": 5242881, "size_max": 5242881}],
	  "segment_size": 1048576, "initial_files": {"L": 1}, "container_count": 1, "user_count": 1, "operation_count": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutLarge(ctx, s, "Base_0", "large", 5242881); err != nil {
		t.Fatal(err)
	}
	if n, err := st.HeadObject(ctx, "Base_0", "large"); err != nil || n != 5242881 || f.Count("POST uploadId") != 1 {
		t.Fatalf("HEAD of the multipart object: %d, %v (%d completions)", n, err, f.Count("POST uploadId"))
	}
}
