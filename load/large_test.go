package load

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"benchbed/plan/scenario"
)

// largeScenario has one class of large objects (1 MiB + 7 bytes in
// segments of 300000 bytes: 4 segments, none on a 64 KiB boundary) and one
// of small ones.
func largeScenario(t *testing.T, crud, extra string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse([]byte(`{"name": "t", "crud_profile": ` + crud + `, "operation_count": 40,
	  "sizes": [{"name": "big", "size_min": 1048583, "size_max": 1048583},
	            {"name": "small", "size_min": 1000, "size_max": 1000}],
	  "initial_files": {"big": 4, "small": 4}, "container_count": 2, "user_count": 3,
	  "segment_size": 300000, "policy": "ec42"` + extra + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLargeObjectPutGetDelete(t *testing.T) {
	for _, kind := range []string{scenario.LargeSLO, scenario.LargeDLO} {
		t.Run(kind, func(t *testing.T) {
			s := largeScenario(t, "[1, 0, 0, 0]", `, "large_object": "`+kind+`"`)
			f := newFakeSwift(t)
			c := v1Client(f, "testing")
			ctx := context.Background()
			if err := ensureContainers(ctx, c, s); err != nil {
				t.Fatal(err)
			}
			cont := s.ContainerName(0)
			if f.large.policy[scenario.SegmentContainer(cont)] != "ec42" || f.large.policy[cont] != "ec42" {
				t.Fatalf("container policies %v", f.large.policy)
			}
			do := clientDoer(ctx, c)
			const size = 1048583
			if o := putLarge(do, s, cont, "obj", size, nil); !o.OK() {
				t.Fatalf("PUT large: %+v", o)
			}
			segs := 0
			for k, n := range f.objects {
				if strings.HasPrefix(k, scenario.SegmentContainer(cont)+"/obj/") {
					segs++
					if n != 300000 && n != size-3*300000 {
						t.Errorf("segment %s has %d bytes", k, n)
					}
				}
			}
			if segs != 4 {
				t.Fatalf("%d segments, want 4: %v", segs, f.objects)
			}
			v := &Verifier{}
			o := v.Check(c.Do(ctx, &Request{Method: http.MethodGet, Container: cont, Object: "obj", Sink: v.Reset()}, time.Now()))
			if !o.OK() || v.off != size {
				t.Fatalf("GET large: %+v, %d bytes", o, v.off)
			}
			f.large.corrupt[cont+"/obj"] = true
			o = v.Check(c.Do(ctx, &Request{Method: http.MethodGet, Container: cont, Object: "obj", Sink: v.Reset()}, time.Now()))
			if !errors.Is(o.Err, ErrCorrupt) || o.ErrorKey() != "corrupt" || v.off != size {
				t.Fatalf("GET of a corrupted object: %+v (%s), %d bytes", o, o.ErrorKey(), v.off)
			}
			if o := deleteLarge(do, s, cont, "obj"); !o.OK() {
				t.Fatalf("DELETE large: %+v", o)
			}
			if len(f.objects) != 0 {
				t.Errorf("left after the delete: %v", f.objects)
			}
			if o := deleteLarge(do, s, cont, "obj"); o.Status != http.StatusNotFound {
				t.Errorf("second DELETE: %+v, want 404", o)
			}
		})
	}
}

// A multipart delete of an object that is no manifest fails with the bulk
// answer's status, not the HTTP 200 it comes with.
func TestMultipartDeleteReadsTheBulkStatus(t *testing.T) {
	s := largeScenario(t, "[1, 0, 0, 0]", "")
	f := newFakeSwift(t)
	f.put("c", "plain", 10)
	o := deleteLarge(clientDoer(context.Background(), v1Client(f, "testing")), s, "c", "plain")
	if o.Status != http.StatusBadRequest || o.OK() {
		t.Errorf("multipart delete of a plain object: %+v, want 400", o)
	}
}

// A run creates large objects for the large class and plain ones for the
// other, reads them back verified, and deletes them all with their
// segments at its end.
func TestRunLargeObjectsVerified(t *testing.T) {
	s := largeScenario(t, "[2, 2, 0, 1]", "")
	f := newFakeSwift(t)
	c := v1Client(f, "testing")
	ctx := context.Background()
	if err := ensureContainers(ctx, c, s); err != nil {
		t.Fatal(err)
	}
	o := newObjects(s) // the initial objects, as prefill puts them
	for ci := range o.classes {
		for idx := int64(1); idx <= 4; idx++ {
			if out := o.send(c.api(), clientDoer(ctx, c), ci, &Request{Method: http.MethodPut, Container: o.container(ci, idx),
				Object: o.name(ci, idx), Size: o.classes[ci].size.SizeMin}); !out.OK() {
				t.Fatalf("initial PUT: %+v", out)
			}
		}
	}
	initial := len(f.objects)
	res, err := Run(ctx, Config{Scenario: s, Client: c, Verify: true})
	if err != nil || res.Cleanup != nil {
		t.Fatalf("run: %v, cleanup: %v", err, res.Cleanup)
	}
	var total, errs int64
	for _, h := range res.Recording {
		total += h.LastByte.Count() + h.ErrorCount()
		errs += h.ErrorCount()
	}
	if total != 40 || errs != 0 || res.Recording[OpRead].LastByte.Count() == 0 {
		t.Fatalf("recorded %d operations with %d errors: %+v", total, errs, res.Recording)
	}
	if len(f.objects) != initial || len(f.large.manifests) != 4 {
		t.Errorf("after the run: %d objects (%d before), %d manifests (4 initial): the run's own are not all gone",
			len(f.objects), initial, len(f.large.manifests))
	}
}

// Verified reads count a changed byte as an error of cause "corrupt",
// and reads without verify do not notice it.
func TestVerifyCountsCorrupt(t *testing.T) {
	s := testScenario(t, "[0, 1, 0, 0]", "")
	for _, verify := range []bool{true, false} {
		f := prefilled(t, s)
		for k := range f.objects {
			if strings.HasSuffix(k, "tiny_000001") {
				f.large.corrupt[k] = true
			}
		}
		res, err := Run(context.Background(), Config{Scenario: s, Client: v1Client(f, "testing"), Verify: verify})
		if err != nil {
			t.Fatal(err)
		}
		get := res.Recording[OpRead]
		if n := get.Errors["corrupt"]; (n > 0) != verify || get.LastByte.Count()+get.ErrorCount() != 400 {
			t.Errorf("verify %v: %d corrupt of %d reads, errors %v", verify, n, get.LastByte.Count()+get.ErrorCount(), get.Errors)
		}
	}
}

func TestLargeScenarioLimits(t *testing.T) {
	for _, c := range []struct{ extra, sizes, want string }{
		{`, "segment_size": 1024`, `{"name": "b", "size_min": 2048, "size_max": 2000000}`, "max_manifest_segments"},
		{``, `{"name": "b", "size_min": 1, "size_max": 6000000000}`, "max_file_size"},
		{`, "segment_size": 1024, "large_object": "mpu"`, `{"name": "b", "size_min": 1, "size_max": 2}`, "large_object must be"},
	} {
		_, err := scenario.Parse([]byte(`{"name": "t", "crud_profile": [1, 0, 0, 0], "run_seconds": 1,
		  "sizes": [` + c.sizes + `], "initial_files": {"b": 1}` + c.extra + `}`))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.sizes, c.extra, err, c.want)
		}
	}
}
